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
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/bpf.h>
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
	int share[__NICPROG_ACCEL_MAX];	/* accel plan-share; -1 if absent */
	char profile[32];
};

static void accel_cb(const struct nlattr *nest, struct dev_state *st)
{
	const struct nlattr *a, *type = NULL, *share = NULL;

	mnl_attr_for_each_nested(a, nest) {
		if (mnl_attr_get_type(a) == NICPROG_A_ACCEL_TYPE)
			type = a;
		else if (mnl_attr_get_type(a) == NICPROG_A_ACCEL_PLAN_SHARE)
			share = a;
	}
	if (type && share && mnl_attr_get_u32(type) < __NICPROG_ACCEL_MAX)
		st->share[mnl_attr_get_u32(type)] = mnl_attr_get_u8(share);
}

static int dev_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[NICPROG_A_DEV_MAX + 1];
	struct dev_state *st = data;
	const struct nlattr *a;

	nl_attrs(nlh, tb, NICPROG_A_DEV_MAX);
	if (!tb[NICPROG_A_DEV_PLAN_SHAPE] || !tb[NICPROG_A_DEV_PLAN_CORES] ||
	    !tb[NICPROG_A_DEV_PLAN_PARTIAL])
		return MNL_CB_ERROR;
	st->shape = mnl_attr_get_u8(tb[NICPROG_A_DEV_PLAN_SHAPE]);
	st->cores = mnl_attr_get_u32(tb[NICPROG_A_DEV_PLAN_CORES]);
	st->partial = mnl_attr_get_u8(tb[NICPROG_A_DEV_PLAN_PARTIAL]);
	mnl_attr_for_each(a, nlh, GENL_HDRLEN)
		if (mnl_attr_get_type(a) == NICPROG_A_DEV_ACCEL)
			accel_cb(a, st);
	if (tb[NICPROG_A_DEV_PROFILE])
		snprintf(st->profile, sizeof(st->profile), "%s",
			 mnl_attr_get_str(tb[NICPROG_A_DEV_PROFILE]));
	st->found++;
	return MNL_CB_OK;
}

static int dev_get(unsigned int ifindex, struct dev_state *st)
{
	struct nlmsghdr *nlh = nl_msg(&nl, NICPROG_CMD_DEV_GET, 0);

	memset(st, 0, sizeof(*st));
	memset(st->share, -1, sizeof(st->share));
	mnl_attr_put_u32(nlh, NICPROG_A_DEV_IFINDEX, ifindex);
	return nl_run(&nl, nlh, dev_cb, st);
}

/* Every engine type the NIC has: all its calls on the engines. */
static bool shares_all(const struct dev_state *st)
{
	int t, n = 0;

	for (t = NICPROG_ACCEL_NONE + 1; t < __NICPROG_ACCEL_MAX; t++) {
		if (st->share[t] < 0)
			continue;
		if (st->share[t] != NICPROG_PLAN_SHARE_ALL)
			return false;
		n++;
	}
	return n > 0;
}

/* The plan settings are still the defaults: auto, every core, no partial. */
static void unchanged(const char *desc, unsigned int ifindex)
{
	struct dev_state st;
	int err = dev_get(ifindex, &st);

	result(!err && st.found == 1 && st.shape == NICPROG_SHAPE_AUTO &&
	       !st.cores && !st.partial && shares_all(&st), desc, err);
}

/*
 * dev-set of accel nests only: @n of them, type @type[i] and plan-share
 * @share[i] (-1: left out); @count puts a count in the first too.
 */
static int dev_set_shares(unsigned int ifindex, int n, const int *type,
			  const int *share, bool count)
{
	struct nlmsghdr *nlh = nl_msg(&nl, NICPROG_CMD_DEV_SET, 0);
	struct nlattr *nest;
	int i;

	mnl_attr_put_u32(nlh, NICPROG_A_DEV_IFINDEX, ifindex);
	for (i = 0; i < n; i++) {
		nest = mnl_attr_nest_start(nlh, NICPROG_A_DEV_ACCEL);
		mnl_attr_put_u32(nlh, NICPROG_A_ACCEL_TYPE, type[i]);
		if (share[i] >= 0)
			mnl_attr_put_u8(nlh, NICPROG_A_ACCEL_PLAN_SHARE, share[i]);
		if (count && !i)
			mnl_attr_put_u32(nlh, NICPROG_A_ACCEL_COUNT, 1);
		mnl_attr_nest_end(nlh, nest);
	}
	return nl_run(&nl, nlh, NULL, NULL);
}

/*
 * accel plan-share: bad nests are refused with their reason and change
 * nothing, not even the good nests beside them; a good one shows in
 * dev-get. The port's NIC is nicsim-generic: csum engines, no regex.
 */
static void shares(unsigned int ifindex)
{
	int csum = NICPROG_ACCEL_CSUM, regex = NICPROG_ACCEL_REGEX;
	struct dev_state st;
	int err;

	expect("accel plan-share 17: ERANGE",
	       dev_set_shares(ifindex, 1, &csum, (int[]){ 17 }, false),
	       -ERANGE, "integer out of range");
	expect("accel type past the enum: ERANGE",
	       dev_set_shares(ifindex, 1, (int[]){ __NICPROG_ACCEL_MAX },
			      (int[]){ 8 }, false), -ERANGE,
	       "integer out of range");
	expect("accel without plan-share: EINVAL",
	       dev_set_shares(ifindex, 1, &csum, (int[]){ -1 }, false),
	       -EINVAL, "takes type and plan-share");
	expect("accel with a count: EINVAL",
	       dev_set_shares(ifindex, 1, &csum, (int[]){ 8 }, true),
	       -EINVAL, "takes type and plan-share");
	expect("accel of a type the NIC has no engine of: EOPNOTSUPP",
	       dev_set_shares(ifindex, 1, &regex, (int[]){ 8 }, false),
	       -EOPNOTSUPP, "no engine of this accelerator type");
	expect("accel type none: EOPNOTSUPP",
	       dev_set_shares(ifindex, 1, (int[]){ NICPROG_ACCEL_NONE },
			      (int[]){ 8 }, false), -EOPNOTSUPP,
	       "no engine of this accelerator type");
	expect("a good nest beside a bad one: refused",
	       dev_set_shares(ifindex, 2, (int[]){ csum, regex },
			      (int[]){ 4, 8 }, false), -EOPNOTSUPP,
	       "no engine of this accelerator type");
	unchanged("after every refusal every share is all on the engines",
		  ifindex);
	expect("accel csum plan-share 5",
	       dev_set_shares(ifindex, 1, &csum, (int[]){ 5 }, false), 0,
	       NULL);
	err = dev_get(ifindex, &st);
	result(!err && st.share[csum] == 5 && st.share[regex] == -1,
	       "dev-get shows csum's 5 and no regex", err);
	expect("and back to 16",
	       dev_set_shares(ifindex, 1, &csum, (int[]){ 16 }, false), 0,
	       NULL);
	unchanged("dev-get shows the defaults again", ifindex);
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

/* profile-set by @name and/or @text (NULL: not given) */
static int profile_set(unsigned int ifindex, const char *name,
		       const char *text)
{
	struct nlmsghdr *nlh = nl_msg(&nl, NICPROG_CMD_PROFILE_SET, 0);

	mnl_attr_put_u32(nlh, NICPROG_A_DEV_IFINDEX, ifindex);
	if (name)
		mnl_attr_put_strz(nlh, NICPROG_A_DEV_PROFILE, name);
	if (text)
		mnl_attr_put_strz(nlh, NICPROG_A_DEV_LNIC_TEXT, text);
	return nl_run(&nl, nlh, NULL, NULL);
}

/* The NIC's profile is still @want. */
static void profile_is(const char *desc, unsigned int ifindex,
		       const char *want)
{
	struct dev_state st;
	int err = dev_get(ifindex, &st);

	result(!err && st.found == 1 && !strcmp(st.profile, want), desc, err);
	if (!err && strcmp(st.profile, want))
		printf("# profile %s, not %s\n", st.profile, want);
}

/*
 * profile-set: every bad request is refused with its reason and leaves
 * the profile as it was; a good one by name and one by text take effect.
 */
static void profiles(unsigned int ifindex, const char *was)
{
	static const char soc_like[] =
		"# a two-core SoC given as text\n"
		"lnic text-soc\n"
		"region dram size 1G latency 100\n"
		"unit arm type core count 2 clock 1000 insns 4K\n"
		"\tcost alu=1,mul=2,div=20,branch=1,load=1,store=1,atomic=5,call=3\n"
		"\tregions dram\n";
	struct dev_state st;
	int err;

	expect("profile-set with neither name nor text: EINVAL",
	       profile_set(ifindex, NULL, NULL), -EINVAL, "one of them");
	expect("profile-set with both: EINVAL",
	       profile_set(ifindex, "nicsim-soc", soc_like), -EINVAL,
	       "one of them");
	expect("profile-set of a name longer than 31 bytes: EINVAL",
	       profile_set(ifindex, "a-profile-name-of-forty-bytes-or-so..",
			   NULL), -EINVAL, "failed policy validation");
	expect("profile-set of a name nothing has: ENOENT",
	       profile_set(ifindex, "no-such-profile", NULL), -ENOENT,
	       "no such profile");
	expect("profile-set of a name that is a path: EINVAL",
	       profile_set(ifindex, "../../etc/passwd", NULL), -EINVAL,
	       "a profile name is 1..31 letters");
	expect("profile-set of text that does not parse: EINVAL",
	       profile_set(ifindex, NULL, "lnic x\nregion\n"), -EINVAL,
	       "does not parse");
	expect("profile-set of text with control bytes: EINVAL",
	       profile_set(ifindex, NULL, "lnic x\x01\n"), -EINVAL,
	       "does not parse");
	expect("profile-set of text without cores: EINVAL",
	       profile_set(ifindex, NULL, "lnic x\nregion r size 1K latency 1\n"),
	       -EINVAL, NULL);
	expect("profile-set of lo: EOPNOTSUPP",
	       profile_set(1, "nicsim-soc", NULL), -EOPNOTSUPP,
	       "not a nicprog port");
	profile_is("after every refusal the profile is unchanged", ifindex,
		   was);

	expect("profile-set by name", profile_set(ifindex, "nicsim-soc", NULL),
	       0, NULL);
	profile_is("dev-get shows it", ifindex, "nicsim-soc");
	expect("profile-set as text", profile_set(ifindex, NULL, soc_like), 0,
	       NULL);
	profile_is("dev-get shows the text's profile", ifindex, "text-soc");
	err = dev_get(ifindex, &st);
	result(!err && st.cores == 0, "plan-cores still every core", err);
	expect("and back", profile_set(ifindex, was, NULL), 0, NULL);
	profile_is("dev-get shows the first profile again", ifindex, was);
}

/* "return XDP_PASS", loaded for offload to @ifindex (0: for the host) */
static int xdp_pass_load(unsigned int ifindex)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0,
		  .imm = XDP_PASS },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_XDP;
	attr.insns = (unsigned long)insns;
	attr.insn_cnt = 2;
	attr.license = (unsigned long)"GPL";
	attr.prog_ifindex = ifindex;
	return syscall(__NR_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));
}

struct predict_reply {
	unsigned int cores, budget, load;
	unsigned long long tput, capacity;
	int found, has_load;
};

static int predict_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[NICPROG_A_PROG_MAX + 1];
	struct predict_reply *r = data;

	nl_attrs(nlh, tb, NICPROG_A_PROG_MAX);
	if (!tb[NICPROG_A_PROG_CORES] || !tb[NICPROG_A_PROG_BUDGET] ||
	    !tb[NICPROG_A_PROG_TPUT] || !tb[NICPROG_A_PROG_CAPACITY])
		return MNL_CB_ERROR;
	r->cores = mnl_attr_get_u32(tb[NICPROG_A_PROG_CORES]);
	r->budget = mnl_attr_get_u32(tb[NICPROG_A_PROG_BUDGET]);
	r->tput = mnl_attr_get_u64(tb[NICPROG_A_PROG_TPUT]);
	r->capacity = mnl_attr_get_u64(tb[NICPROG_A_PROG_CAPACITY]);
	r->has_load = !!tb[NICPROG_A_PROG_LOAD];
	if (r->has_load)
		r->load = mnl_attr_get_u32(tb[NICPROG_A_PROG_LOAD]);
	r->found++;
	return MNL_CB_OK;
}

/* predict of @fd on @ifindex; -1 leaves an attribute out */
static int predict(unsigned int ifindex, int fd, long budget, long long rate,
		   struct predict_reply *r)
{
	struct nlmsghdr *nlh = nl_msg(&nl, NICPROG_CMD_PREDICT, 0);

	memset(r, 0, sizeof(*r));
	mnl_attr_put_u32(nlh, NICPROG_A_PROG_IFINDEX, ifindex);
	if (fd >= 0)
		mnl_attr_put_u32(nlh, NICPROG_A_PROG_FD, fd);
	if (budget >= 0)
		mnl_attr_put_u32(nlh, NICPROG_A_PROG_BUDGET, budget);
	if (rate >= 0)
		mnl_attr_put_u64(nlh, NICPROG_A_PROG_RATE, rate);
	return nl_run(&nl, nlh, predict_cb, r);
}

/*
 * predict: bad descriptors and programs not offloaded to the port are
 * refused with their reason; an offloaded one is planned without being
 * attached, for the cores asked, and a rate gets its share.
 */
static void predicts(unsigned int ifindex, unsigned int cores)
{
	struct predict_reply r;
	int host, off, err;

	expect("predict without fd: EINVAL", predict(ifindex, -1, -1, -1, &r),
	       -EINVAL, "give the program as a file descriptor");
	result(nl.ext_miss == NICPROG_A_PROG_FD, "which names fd as missing",
	       0);
	expect("predict of an fd not open: EBADF",
	       predict(ifindex, 999, -1, -1, &r), -EBADF, NULL);
	expect("predict of a socket: EINVAL",
	       predict(ifindex, mnl_socket_get_fd(nl.sock), -1, -1, &r),
	       -EINVAL, "fd is not an XDP program");
	host = xdp_pass_load(0);
	off = xdp_pass_load(ifindex);
	result(host >= 0 && off >= 0, "load XDP_PASS for the host and offloaded",
	       -errno);
	if (host < 0 || off < 0)
		return;
	expect("predict of a host program: EINVAL",
	       predict(ifindex, host, -1, -1, &r), -EINVAL,
	       "not loaded for offload to this port");
	expect("predict on lo: EOPNOTSUPP", predict(1, off, -1, -1, &r),
	       -EOPNOTSUPP, "not a nicprog port");
	expect("predict for more cores than the NIC has: ERANGE",
	       predict(ifindex, off, cores + 1, -1, &r), -ERANGE,
	       "more cores than the NIC has");
	err = predict(ifindex, off, 1, -1, &r);
	result(!err && r.found == 1 && r.cores == 1 && r.budget == 1 &&
	       r.tput && r.capacity && !r.has_load,
	       "predict for one core: a plan of one core, its throughput", err);
	err = predict(ifindex, off, -1, 1000000, &r);
	result(!err && r.found == 1 && r.budget == cores && r.has_load &&
	       r.load == 1000000ULL * 10000 / r.capacity,
	       "predict with a rate: every core, the rate's share of the capacity",
	       err);
	close(off);
	close(host);
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
		if (err != -EPERM)
			_exit(13);
		err = dev_set_shares(ifindex, 1, (int[]){ NICPROG_ACCEL_CSUM },
				     (int[]){ 8 }, false);
		if (err != -EPERM)
			_exit(15);
		err = profile_set(ifindex, "nicsim-soc", NULL);
		_exit(err == -EPERM ? 0 : 14);
	}
	if (waitpid(pid, &status, 0) != pid)
		status = -1;
	result(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "an unprivileged caller reads the port; dev-set and profile-set are EPERM",
	       WIFEXITED(status) ? -WEXITSTATUS(status) : -1);
}

/* dev-get requests the policy or the handler refuses, each with why. */
static void dev_get_refused(unsigned int ifindex)
{
	struct nlmsghdr *nlh;
	char longname[32];
	int err;

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
}

/* prog-get, stats-get, unknown commands and a bad header, refused. */
static void other_refused(unsigned int ifindex)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;
	int err;

	nlh = nl_msg(&nl, NICPROG_CMD_PROG_GET, 0);
	mnl_attr_put_u32(nlh, NICPROG_A_PROG_IFINDEX, ifindex);
	expect("prog-get of a port with no program: ENOENT",
	       nl_run(&nl, nlh, NULL, NULL), -ENOENT,
	       "the port runs no program");

	nlh = nl_msg(&nl, NICPROG_CMD_STATS_GET, 0);
	err = nl_run(&nl, nlh, NULL, NULL);
	expect("stats-get naming no port: EINVAL, says so", err, -EINVAL,
	       "name the port by ifindex or ifname");
	result(nl.ext_miss == NICPROG_A_STATS_IFINDEX,
	       "and reports ifindex as the missing attribute", err);

	nlh = nl_msg(&nl, NICPROG_CMD_STATS_GET, 0);
	mnl_attr_put_strz(nlh, NICPROG_A_STATS_IFNAME, "lo");
	expect("stats-get of lo: EOPNOTSUPP, not a nicprog port",
	       nl_run(&nl, nlh, NULL, NULL), -EOPNOTSUPP,
	       "the interface is not a nicprog port");

	nlh = nl_msg(&nl, NICPROG_CMD_STATS_GET, 0);
	mnl_attr_put_u32(nlh, NICPROG_A_STATS_IFINDEX, ifindex);
	mnl_attr_put_u32(nlh, NICPROG_A_STATS_UNIT, 1);
	expect("a reply attribute in a stats-get request: EINVAL",
	       nl_run(&nl, nlh, NULL, NULL), -EINVAL, "Unknown attribute type");

	nlh = nl_msg(&nl, NICPROG_CMD_PROG_GET, 0);
	mnl_attr_put_strz(nlh, NICPROG_A_PROG_IFNAME, "nicprog-none");
	expect("prog-get of a name no interface has: ENODEV",
	       nl_run(&nl, nlh, NULL, NULL), -ENODEV,
	       "no interface has this name");

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
}

int main(int argc, char **argv)
{
	unsigned int ifindex, cores;
	char profile[32];
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

	dev_get_refused(ifindex);
	other_refused(ifindex);

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
	shares(ifindex);

	{
		struct dev_state st;

		err = dev_get(ifindex, &st);
		snprintf(profile, sizeof(profile), "%s", st.profile);
		result(!err && *profile, "dev-get names the profile", err);
	}
	unprivileged(ifindex);
	unchanged("the unprivileged dev-set changed nothing", ifindex);
	profile_is("nor did its profile-set", ifindex, profile);
	profiles(ifindex, profile);
	predicts(ifindex, cores);

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
