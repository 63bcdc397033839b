// SPDX-License-Identifier: GPL-2.0
/*
 * The nicprog generic netlink family, from userspace: the family and its
 * multicast group resolved by name, requests with the kernel's extended
 * acknowledgements, dumps, and the monitor group.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/nicprog.h>

#include "nl.h"

struct parse_ctx {
	const struct nlattr **tb;
	unsigned int max;
};

static int put_attr(const struct nlattr *a, void *data)
{
	struct parse_ctx *ctx = data;
	unsigned int type = mnl_attr_get_type(a);

	/* the first of a multi-attr; callers walk the rest themselves */
	if (type <= ctx->max && !ctx->tb[type])
		ctx->tb[type] = a;
	return MNL_CB_OK;
}

/* Index a message's attributes by type; unknown types are left out. */
void nl_attrs(const struct nlmsghdr *nlh, const struct nlattr **tb,
	      unsigned int max)
{
	struct parse_ctx ctx = { tb, max };

	memset(tb, 0, sizeof(*tb) * (max + 1));
	mnl_attr_parse(nlh, sizeof(struct genlmsghdr), put_attr, &ctx);
}

void nl_nested(const struct nlattr *nest, const struct nlattr **tb,
	       unsigned int max)
{
	struct parse_ctx ctx = { tb, max };

	memset(tb, 0, sizeof(*tb) * (max + 1));
	mnl_attr_parse_nested(nest, put_attr, &ctx);
}

static int ext_attr(const struct nlattr *a, void *data)
{
	struct nl *nl = data;

	switch (mnl_attr_get_type(a)) {
	case NLMSGERR_ATTR_MSG:
		if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) >= 0)
			snprintf(nl->ext_msg, sizeof(nl->ext_msg), "%s",
				 mnl_attr_get_str(a));
		break;
	case NLMSGERR_ATTR_MISS_TYPE:
		if (mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
			nl->ext_miss = mnl_attr_get_u32(a);
		break;
	}
	return MNL_CB_OK;
}

/* One request: its socket and the caller's callback. */
struct run_ctx {
	struct nl *nl;
	nl_cb_t cb;
	void *data;
};

static int data_cb(const struct nlmsghdr *nlh, void *data)
{
	struct run_ctx *run = data;

	return run->cb ? run->cb(nlh, run->data) : MNL_CB_OK;
}

/* NLMSG_ERROR: an acknowledgement, or an error with its extack. */
static int error_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	struct nl *nl = ((struct run_ctx *)data)->nl;
	unsigned int off = sizeof(*err);

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*err))) {
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += err->msg.nlmsg_len - sizeof(struct nlmsghdr);
	if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) && nlh->nlmsg_len >
	    mnl_nlmsg_size(off))
		mnl_attr_parse(nlh, off, ext_attr, nl);
	if (!err->error)
		return MNL_CB_STOP;
	errno = -err->error;
	return MNL_CB_ERROR;
}

/* NLMSG_DONE: the end of a dump, which may carry its error. */
static int done_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nl *nl = ((struct run_ctx *)data)->nl;
	int err;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(int)))
		return MNL_CB_STOP;
	memcpy(&err, mnl_nlmsg_get_payload(nlh), sizeof(err));
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS)
		mnl_attr_parse(nlh, sizeof(int), ext_attr, nl);
	if (!err)
		return MNL_CB_STOP;
	errno = -err;
	return MNL_CB_ERROR;
}

static mnl_cb_t ctl_cbs[NLMSG_MIN_TYPE] = {
	[NLMSG_ERROR] = error_cb,
	[NLMSG_DONE] = done_cb,
};

struct nlmsghdr *nl_msg(struct nl *nl, uint8_t cmd, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(nl->buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = nl->family;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	nlh->nlmsg_seq = ++nl->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = NICPROG_FAMILY_VERSION;
	return nlh;
}

/*
 * Send @nlh and hand each reply to @cb until the acknowledgement or the
 * end of the dump. Return: 0, or -errno with nl->ext_msg set when the
 * kernel said why.
 */
int nl_run(struct nl *nl, struct nlmsghdr *nlh, nl_cb_t cb, void *data)
{
	struct run_ctx run = { nl, cb, data };
	uint32_t seq = nlh->nlmsg_seq;
	int ret;

	nl->ext_msg[0] = 0;
	nl->ext_miss = 0;
	if (mnl_socket_sendto(nl->sock, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		ret = mnl_socket_recvfrom(nl->sock, nl->buf, sizeof(nl->buf));
		if (ret < 0)
			return -errno;
		ret = mnl_cb_run2(nl->buf, ret, seq, nl->portid, data_cb, &run,
				  ctl_cbs, NLMSG_MIN_TYPE);
		if (ret == MNL_CB_ERROR && errno == 0)
			return -EPROTO;
		if (ret <= MNL_CB_STOP)
			return ret == MNL_CB_ERROR ? -errno : 0;
	}
}

struct family_ctx {
	struct nl *nl;
	int found;
};

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct family_ctx *ctx = data;
	const struct nlattr *tb[CTRL_ATTR_MAX + 1];
	const struct nlattr *gt[CTRL_ATTR_MCAST_GRP_MAX + 1];
	struct nlattr *g;

	nl_attrs(nlh, tb, CTRL_ATTR_MAX);
	if (!tb[CTRL_ATTR_FAMILY_ID])
		return MNL_CB_OK;
	ctx->nl->family = mnl_attr_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	ctx->found = 1;
	if (!tb[CTRL_ATTR_MCAST_GROUPS])
		return MNL_CB_OK;
	mnl_attr_for_each_nested(g, tb[CTRL_ATTR_MCAST_GROUPS]) {
		nl_nested(g, gt, CTRL_ATTR_MCAST_GRP_MAX);
		if (gt[CTRL_ATTR_MCAST_GRP_NAME] && gt[CTRL_ATTR_MCAST_GRP_ID] &&
		    !strcmp(mnl_attr_get_str(gt[CTRL_ATTR_MCAST_GRP_NAME]),
			    NICPROG_MCGRP_MONITOR))
			ctx->nl->monitor_grp =
				mnl_attr_get_u32(gt[CTRL_ATTR_MCAST_GRP_ID]);
	}
	return MNL_CB_OK;
}

/* Open a socket and resolve the family. Return: 0 or -errno. */
int nl_open(struct nl *nl)
{
	struct family_ctx ctx = { nl, 0 };
	struct nlmsghdr *nlh;
	int one = 1, err;

	memset(nl, 0, offsetof(struct nl, buf));	/* buf need not be */
	nl->seq = time(NULL);
	nl->sock = mnl_socket_open(NETLINK_GENERIC);
	if (!nl->sock)
		return -errno;
	if (mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) < 0)
		goto fail;
	mnl_socket_setsockopt(nl->sock, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl->sock, NETLINK_CAP_ACK, &one, sizeof(one));
	nl->portid = mnl_socket_get_portid(nl->sock);
	nl->family = GENL_ID_CTRL;
	nlh = nl_msg(nl, CTRL_CMD_GETFAMILY, 0);
	((struct genlmsghdr *)mnl_nlmsg_get_payload(nlh))->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, NICPROG_FAMILY_NAME);
	err = nl_run(nl, nlh, family_cb, &ctx);
	if (err || !ctx.found) {
		mnl_socket_close(nl->sock);
		nl->sock = NULL;
		return err ? err : -ENOENT;
	}
	return 0;
fail:
	err = -errno;
	mnl_socket_close(nl->sock);
	nl->sock = NULL;
	return err;
}

void nl_close(struct nl *nl)
{
	if (nl->sock)
		mnl_socket_close(nl->sock);
	nl->sock = NULL;
}

/* Join the monitor group and hand every notification to @cb, for ever. */
int nl_monitor(struct nl *nl, nl_cb_t cb, void *data)
{
	int ret;

	if (!nl->monitor_grp)
		return -ENOENT;
	if (mnl_socket_setsockopt(nl->sock, NETLINK_ADD_MEMBERSHIP,
				  &nl->monitor_grp, sizeof(nl->monitor_grp)))
		return -errno;
	for (;;) {
		ret = mnl_socket_recvfrom(nl->sock, nl->buf, sizeof(nl->buf));
		if (ret < 0)
			return -errno;
		ret = mnl_cb_run(nl->buf, ret, 0, 0, cb, data);
		if (ret < 0)
			return -errno;
	}
}
