// SPDX-License-Identifier: GPL-2.0
/*
 * The nicprog generic netlink family against hostile and unprivileged
 * requests: every refusal has the errno and the extack message the spec
 * and the family promise, and a refused request changes nothing.
 *
 *   nl_test IFNAME CORES
 *
 * IFNAME is a nicprog port running no program, with the default plan
 * settings; CORES its NIC's cores. TAP on stdout.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/nicprog.h>

#include "nl.h"

static int n_tests, n_failed;
static struct nl nl;

static void result(int ok, const char *desc, int err)
{
	printf("%sok %d %s\n", ok ? "" : "not ", ++n_tests, desc);
	if (!ok) {
		n_failed++;
		printf("# got %d (%s): \"%s\"\n", err, strerror(-err),
		       nl.ext_msg);
	}
}

/* The request's outcome is @want, with @msg in the extack if not NULL. */
static void expect(const char *desc, int err, int want, const char *msg)
{
	result(err == want && (!msg || strstr(nl.ext_msg, msg)), desc, err);
}

struct dev_state {
	int shape, cores, partial, found;
};

static int dev_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[NICPROG_A_DEV_MAX + 1];
	struct dev_state *st = data;

	nl_attrs(nlh, tb, NICPROG_A_DEV_MAX);
	if (!tb[NICPROG_A_DEV_PLAN_SHAPE] || !tb[NICPROG_A_DEV_PLAN_CORES] ||
	    !tb[NICPROG_A_DEV_PLAN_PARTIAL])
		return MNL_CB_ERROR;
	st->shape = mnl_attr_get_u8(tb[NICPROG_A_DEV_PLAN_SHAPE]);
	st->cores = mnl_attr_get_u32(tb[NICPROG_A_DEV_PLAN_CORES]);
	st->partial = mnl_attr_get_u8(tb[NICPROG_A_DEV_PLAN_PARTIAL]);
	st->found++;
	return MNL_CB_OK;
}

static int dev_get(unsigned int ifindex, struct dev_state *st)
{
	struct nlmsghdr *nlh = nl_msg(&nl, NICPROG_CMD_DEV_GET, 0);

	memset(st, 0, sizeof(*st));
	mnl_attr_put_u32(nlh, NICPROG_A_DEV_IFINDEX, ifindex);
	return nl_run(&nl, nlh, dev_cb, st);
}

/* The plan settings are still the defaults: auto, every core, no partial. */
static void unchanged(const char *desc, unsigned int ifindex)
{
	struct dev_state st;
	int err = dev_get(ifindex, &st);

	result(!err && st.found == 1 && st.shape == NICPROG_SHAPE_AUTO &&
	       !st.cores && !st.partial, desc, err);
}

static int dev_set(unsigned int ifindex, int shape, long cores, int partial)
{
	struct nlmsghdr *nlh = nl_msg(&nl, NICPROG_CMD_DEV_SET, 0);

	mnl_attr_put_u32(nlh, NICPROG_A_DEV_IFINDEX, ifindex);
	if (shape >= 0)
		mnl_attr_put_u8(nlh, NICPROG_A_DEV_PLAN_SHAPE, shape);
	if (cores >= 0)
		mnl_attr_put_u32(nlh, NICPROG_A_DEV_PLAN_CORES, cores);
	if (partial >= 0)
		mnl_attr_put_u8(nlh, NICPROG_A_DEV_PLAN_PARTIAL, partial);
	return nl_run(&nl, nlh, NULL, NULL);
}

/* As user nobody, without capabilities: get works, set is refused. */
static void unprivileged(unsigned int ifindex)
{
	struct dev_state st;
	int status, err;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		result(0, "fork for the unprivileged caller", -errno);
		return;
	}
	if (!pid) {
		if (setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(10);
		if (nl_open(&nl))
			_exit(11);
		if (dev_get(ifindex, &st) || st.found != 1)
			_exit(12);
		err = dev_set(ifindex, NICPROG_SHAPE_SINGLE, -1, -1);
		_exit(err == -EPERM ? 0 : 13);
	}
	if (waitpid(pid, &status, 0) != pid)
		status = -1;
	result(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "an unprivileged caller reads the port but dev-set is EPERM",
	       WIFEXITED(status) ? -WEXITSTATUS(status) : -1);
}

int main(int argc, char **argv)
{
	unsigned int ifindex, cores;
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;
	char longname[32];
	int err;

	if (argc != 3 || !(ifindex = if_nametoindex(argv[1]))) {
		fprintf(stderr, "usage: nl_test IFNAME CORES\n");
		return 2;
	}
	cores = strtoul(argv[2], NULL, 0);
	printf("TAP version 13\n");
	err = nl_open(&nl);
	if (err) {
		printf("1..0 # SKIP no nicprog family: %s\n", strerror(-err));
		return 4;
	}

	nlh = nl_msg(&nl, NICPROG_CMD_DEV_GET, 0);
	err = nl_run(&nl, nlh, NULL, NULL);
	expect("dev-get naming no port: EINVAL, says so", err, -EINVAL,
	       "name the port by ifindex or ifname");
	result(nl.ext_miss == NICPROG_A_DEV_IFINDEX,
	       "and reports ifindex as the missing attribute", err);

	nlh = nl_msg(&nl, NICPROG_CMD_DEV_GET, 0);
	mnl_attr_put_u32(nlh, NICPROG_A_DEV_IFINDEX, 0);
	expect("ifindex 0: ERANGE from the policy", nl_run(&nl, nlh, NULL, NULL),
	       -ERANGE, "integer out of range");

	nlh = nl_msg(&nl, NICPROG_CMD_DEV_GET, 0);
	mnl_attr_put_u8(nlh, NICPROG_A_DEV_IFINDEX, 1);
	expect("ifindex of one byte: EINVAL", nl_run(&nl, nlh, NULL, NULL),
	       -EINVAL, "invalid attribute length");

	nlh = nl_msg(&nl, NICPROG_CMD_DEV_GET, 0);
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = 0;
	mnl_attr_put_strz(nlh, NICPROG_A_DEV_IFNAME, longname);
	expect("ifname longer than IFNAMSIZ: EINVAL",
	       nl_run(&nl, nlh, NULL, NULL), -EINVAL, "policy validation");

	nlh = nl_msg(&nl, NICPROG_CMD_DEV_GET, 0);
	mnl_attr_put_u32(nlh, NICPROG_A_DEV_IFINDEX, ifindex);
	mnl_attr_put_u32(nlh, NICPROG_A_DEV_PROFILE, 1);
	expect("an attribute dev-get does not take: EINVAL",
	       nl_run(&nl, nlh, NULL, NULL), -EINVAL, "Unknown attribute type");

	nlh = nl_msg(&nl, NICPROG_CMD_DEV_GET, 0);
	mnl_attr_put_u32(nlh, NICPROG_A_DEV_IFINDEX, ifindex);
	mnl_attr_put_u32(nlh, 200, 1);
	expect("attribute type 200: EINVAL", nl_run(&nl, nlh, NULL, NULL),
	       -EINVAL, "Unknown attribute type");

	nlh = nl_msg(&nl, NICPROG_CMD_DEV_GET, 0);
	mnl_attr_put_u32(nlh, NICPROG_A_DEV_IFINDEX, if_nametoindex("lo"));
	expect("lo: EOPNOTSUPP, not a nicprog port",
	       nl_run(&nl, nlh, NULL, NULL), -EOPNOTSUPP,
	       "the interface is not a nicprog port");

	nlh = nl_msg(&nl, NICPROG_CMD_DEV_GET, 0);
	mnl_attr_put_u32(nlh, NICPROG_A_DEV_IFINDEX, 0x7ffffff0);
	expect("an ifindex no interface has: ENODEV",
	       nl_run(&nl, nlh, NULL, NULL), -ENODEV,
	       "no interface has this index");

	nlh = nl_msg(&nl, NICPROG_CMD_DEV_GET, 0);
	mnl_attr_put_strz(nlh, NICPROG_A_DEV_IFNAME, "nicprog-none");
	expect("a name no interface has: ENODEV",
	       nl_run(&nl, nlh, NULL, NULL), -ENODEV,
	       "no interface has this name");

	nlh = nl_msg(&nl, NICPROG_CMD_DEV_GET, 0);
	mnl_attr_put_u32(nlh, NICPROG_A_DEV_IFINDEX, ifindex);
	mnl_attr_put_strz(nlh, NICPROG_A_DEV_IFNAME, "lo");
	expect("ifindex and ifname of different interfaces: EINVAL",
	       nl_run(&nl, nlh, NULL, NULL), -EINVAL,
	       "ifindex and ifname name different interfaces");

	nlh = nl_msg(&nl, NICPROG_CMD_DEV_GET, NLM_F_DUMP);
	mnl_attr_put_u32(nlh, NICPROG_A_DEV_IFINDEX, if_nametoindex("lo"));
	expect("a dump filtered by a non-port: EOPNOTSUPP",
	       nl_run(&nl, nlh, NULL, NULL), -EOPNOTSUPP,
	       "the interface is not a nicprog port");

	nlh = nl_msg(&nl, NICPROG_CMD_PROG_GET, 0);
	mnl_attr_put_u32(nlh, NICPROG_A_PROG_IFINDEX, ifindex);
	expect("prog-get of a port with no program: ENOENT",
	       nl_run(&nl, nlh, NULL, NULL), -ENOENT,
	       "the port runs no program");

	nlh = nl_msg(&nl, 77, 0);
	expect("an unknown command: EOPNOTSUPP",
	       nl_run(&nl, nlh, NULL, NULL), -EOPNOTSUPP, NULL);

	nlh = nl_msg(&nl, NICPROG_CMD_PROG_ATTACH_NTF, 0);
	mnl_attr_put_u32(nlh, NICPROG_A_PROG_IFINDEX, ifindex);
	expect("a notification sent as a request: EOPNOTSUPP",
	       nl_run(&nl, nlh, NULL, NULL), -EOPNOTSUPP, NULL);

	nlh = nl_msg(&nl, NICPROG_CMD_DEV_GET, 0);
	g = mnl_nlmsg_get_payload(nlh);
	g->reserved = 1;
	mnl_attr_put_u32(nlh, NICPROG_A_DEV_IFINDEX, ifindex);
	expect("a reserved header field set: EINVAL",
	       nl_run(&nl, nlh, NULL, NULL), -EINVAL,
	       "genlmsghdr.reserved field is not 0");

	expect("dev-set with nothing to set: EINVAL",
	       dev_set(ifindex, -1, -1, -1), -EINVAL, "nothing to set");
	expect("dev-set shape past the enum: ERANGE",
	       dev_set(ifindex, __NICPROG_SHAPE_MAX, -1, -1), -ERANGE,
	       "integer out of range");
	expect("dev-set partial 2: ERANGE", dev_set(ifindex, -1, -1, 2),
	       -ERANGE, "integer out of range");
	expect("dev-set shape with cores past the NIC's: ERANGE",
	       dev_set(ifindex, NICPROG_SHAPE_SINGLE, cores + 1, 1), -ERANGE,
	       "more cores than the NIC has");
	unchanged("after every refusal the settings are unchanged", ifindex);

	unprivileged(ifindex);
	unchanged("the unprivileged dev-set changed nothing", ifindex);

	expect("dev-set of all three settings", dev_set(ifindex,
	       NICPROG_SHAPE_PIPELINED, cores, 1), 0, NULL);
	{
		struct dev_state st;

		err = dev_get(ifindex, &st);
		result(!err && st.shape == NICPROG_SHAPE_PIPELINED &&
		       st.cores == (int)cores && st.partial == 1,
		       "dev-get shows them", err);
	}
	expect("and back to the defaults", dev_set(ifindex,
	       NICPROG_SHAPE_AUTO, 0, 0), 0, NULL);
	unchanged("dev-get shows the defaults again", ifindex);

	nl_close(&nl);
	printf("1..%d\n", n_tests);
	return n_failed ? 1 : 0;
}
