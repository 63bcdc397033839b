// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause
/*
 * libnicring: a port's streaming-ring device, found by asking the nicprog
 * generic netlink family (dev-get's ring-dev) about the interface by name
 * in the caller's network namespace. The node's name is a number that
 * stays the port's (include/uapi/linux/nicprog.h); an interface name is
 * only meaningful in a namespace, which netlink knows and /dev does not.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "nicring.h"

struct node_query {
	uint16_t family;
	char *path;
	size_t size;
	int found;
};

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct node_query *q = data;
	struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID &&
		    !mnl_attr_validate(a, MNL_TYPE_U16))
			q->family = mnl_attr_get_u16(a);
	return MNL_CB_OK;
}

static int dev_cb(const struct nlmsghdr *nlh, void *data)
{
	struct node_query *q = data;
	struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == NICPROG_A_DEV_RING_DEV &&
		    !mnl_attr_validate(a, MNL_TYPE_NUL_STRING)) {
			snprintf(q->path, q->size, "/dev/%s",
				 mnl_attr_get_str(a));
			q->found = 1;
		}
	return MNL_CB_OK;
}

/* One request and its replies: 0 or -errno (the kernel's, if it refused). */
static int node_run(struct mnl_socket *s, char *buf, size_t size,
		    struct nlmsghdr *nlh, mnl_cb_t cb, struct node_query *q)
{
	unsigned int portid = mnl_socket_get_portid(s);
	uint32_t seq = nlh->nlmsg_seq;
	ssize_t n;
	int ret;

	if (mnl_socket_sendto(s, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	do {
		n = mnl_socket_recvfrom(s, buf, size);
		if (n < 0)
			return -errno;
		ret = mnl_cb_run(buf, n, seq, portid, cb, q);
	} while (ret > 0);
	return ret < 0 ? -errno : 0;
}

static struct nlmsghdr *node_msg(char *buf, uint16_t type, uint8_t cmd,
				 uint8_t version)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = time(NULL);
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = version;
	return nlh;
}

/**
 * nicring_node() - the streaming-ring device of a port
 * @ifname: the port's interface, in the caller's network namespace
 * @path: filled with the device's path (/dev/nicprog/port<N>)
 * @size: bytes at @path
 *
 * Return: 0; -ENOENT if nicprog is not loaded, -ENODEV if no interface has
 * the name, -EOPNOTSUPP if it is not a nicprog port, or another -errno.
 */
int nicring_node(const char *ifname, char *path, size_t size)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct node_query q = { .path = path, .size = size };
	struct mnl_socket *s;
	struct nlmsghdr *nlh;
	int err;

	s = mnl_socket_open(NETLINK_GENERIC);
	if (!s)
		return -errno;
	if (mnl_socket_bind(s, 0, MNL_SOCKET_AUTOPID) < 0) {
		err = -errno;
		goto out;
	}
	nlh = node_msg(buf, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, NICPROG_FAMILY_NAME);
	err = node_run(s, buf, sizeof(buf), nlh, family_cb, &q);
	if (err || !q.family) {
		err = -ENOENT;
		goto out;
	}
	nlh = node_msg(buf, q.family, NICPROG_CMD_DEV_GET,
		       NICPROG_FAMILY_VERSION);
	mnl_attr_put_strz(nlh, NICPROG_A_DEV_IFNAME, ifname);
	err = node_run(s, buf, sizeof(buf), nlh, dev_cb, &q);
	if (!err && !q.found)
		err = -EOPNOTSUPP;	/* a kernel without ring-dev */
out:
	mnl_socket_close(s);
	return err;
}
