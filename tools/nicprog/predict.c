// SPDX-License-Identifier: GPL-2.0
/*
 * nicprog predict dev IFNAME obj FILE ...: the kernel's plan and
 * prediction for a program on a port, without attaching it. The program
 * is loaded for offload to the port as ip link loads it (libnicprog; the
 * kernel verifies it for the NIC), the predict operation plans it, and
 * closing its fd unloads it again.
 */
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/nicprog.h>

#include "nicprog.h"
#include "../lib/nicprog/nicprog.h"

struct predict_args {
	const char *dev, *obj, *sec;
	int shape;
	long cores;
	unsigned long long rate;
};

static int predict_parse(struct cli *cli, struct predict_args *pa)
{
	const char *arg, *v;
	char *end;

	pa->shape = -1;
	pa->cores = -1;
	while ((arg = cli_next(cli))) {
		v = cli_next(cli);
		if (!v)
			return cli_usage("predict: \"%s\" needs a value", arg);
		if (cli_match(arg, "dev")) {
			pa->dev = v;
		} else if (cli_match(arg, "obj")) {
			pa->obj = v;
		} else if (cli_match(arg, "sec")) {
			pa->sec = v;
		} else if (cli_match(arg, "shape")) {
			pa->shape = shape_value(v);
			if (pa->shape < 0)
				return cli_usage("predict: unknown shape \"%s\"",
						 v);
		} else if (cli_match(arg, "cores")) {
			errno = 0;
			pa->cores = strtol(v, &end, 0);
			if (errno || *end || pa->cores < 0 ||
			    pa->cores > UINT32_MAX)
				return cli_usage("predict: cores \"%s\" is not a count",
						 v);
		} else if (cli_match(arg, "rate")) {
			errno = 0;
			pa->rate = strtoull(v, &end, 0);
			if (errno || *end || *v == '-')
				return cli_usage("predict: rate \"%s\" is not frames per second",
						 v);
		} else {
			return cli_usage("predict: unexpected \"%s\"", arg);
		}
	}
	if (!pa->dev || !pa->obj)
		return cli_usage("predict: give dev IFNAME and obj FILE");
	return 0;
}

/*
 * Load @pa->obj's program of section @pa->sec (or its first XDP one) for
 * offload to @ifindex the way ip link's "nicprog" keyword does
 * (libnicprog): only the maps it uses, each as the NIC holds it (an
 * LRU_HASH, LPM_TRIE or per-CPU map as its table kind, global data folded
 * or looked up). Plain libbpf binds every map of the object to the device
 * as it is, which Linux 6.1 refuses for all but HASH and ARRAY maps, so
 * predict would refuse programs ip link attaches. Return the program's
 * fd, or -1 after saying why.
 */
static int predict_load(const struct predict_args *pa, unsigned int ifindex)
{
	char why[512], log[16384];
	struct nicprog_load_opts opts = {
		.sec = pa->sec,
		.why = why, .why_len = sizeof(why),
		.log = log, .log_len = sizeof(log),
	};
	int fd;

	fd = nicprog_load(pa->obj, ifindex, &opts);
	if (fd >= 0)
		return fd;
	/* libbpf's account; the verifier's log holds nicprog's reasons */
	fputs(log, stderr);
	/* why names the object and the cause */
	fprintf(stderr, "nicprog: predict: for offload to %s: %s\n", pa->dev,
		why);
	return -1;
}

int cmd_predict_dev(struct cli *cli)
{
	struct predict_args pa = { 0 };
	struct nlmsghdr *nlh;
	unsigned int ifindex;
	int err, fd;

	err = predict_parse(cli, &pa);
	if (err)
		return err;
	ifindex = if_nametoindex(pa.dev);
	if (!ifindex) {
		fprintf(stderr, "nicprog: predict: no interface %s\n", pa.dev);
		return EXIT_REFUSED;
	}
	fd = predict_load(&pa, ifindex);
	if (fd < 0)
		return EXIT_REFUSED;
	nlh = nl_msg(&cli->nl, NICPROG_CMD_PREDICT, 0);
	mnl_attr_put_u32(nlh, NICPROG_A_PROG_IFINDEX, ifindex);
	mnl_attr_put_u32(nlh, NICPROG_A_PROG_FD, fd);
	if (pa.shape >= 0)
		mnl_attr_put_u8(nlh, NICPROG_A_PROG_SHAPE_ASKED, pa.shape);
	if (pa.cores >= 0)
		mnl_attr_put_u32(nlh, NICPROG_A_PROG_BUDGET, pa.cores);
	if (pa.rate)
		mnl_attr_put_u64(nlh, NICPROG_A_PROG_RATE, pa.rate);
	out_open_array(NULL);
	err = nl_run(&cli->nl, nlh, prog_print, NULL);
	out_close_array();
	close(fd);	/* unloads it: nothing else holds it */
	return err ? cli_refused(cli, err, "predict", pa.dev) : 0;
}
