// SPDX-License-Identifier: GPL-2.0
/*
 * nicprog predict dev IFNAME obj FILE ...: the kernel's plan and
 * prediction for a program on a port, without attaching it. The program
 * is loaded for offload to the port (the kernel verifies it for the NIC,
 * as ip link does before attaching), the predict operation plans it, and
 * closing the object unloads it again.
 */
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include <linux/nicprog.h>

#include "nicprog.h"

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
 * Open @pa->obj with its program of section @pa->sec (or its first) and
 * every map bound to @ifindex, the rest not loaded. Return the object
 * and in *@prog the program, or NULL after saying why.
 */
static struct bpf_object *predict_open(const struct predict_args *pa,
				       unsigned int ifindex,
				       struct bpf_program **prog)
{
	struct bpf_program *p, *found = NULL;
	struct bpf_object *obj;
	struct bpf_map *m;
	int err;

	obj = bpf_object__open_file(pa->obj, NULL);
	if (!obj) {
		fprintf(stderr, "nicprog: predict: cannot open %s: %s\n",
			pa->obj, strerror(errno));
		return NULL;
	}
	bpf_object__for_each_program(p, obj) {
		if (!found && (!pa->sec ||
			       !strcmp(bpf_program__section_name(p), pa->sec)))
			found = p;
		bpf_program__set_autoload(p, false);
	}
	if (!found) {
		fprintf(stderr, "nicprog: predict: %s has no program%s%s\n",
			pa->obj, pa->sec ? " in section " : "",
			pa->sec ? pa->sec : "");
		goto fail;
	}
	bpf_program__set_autoload(found, true);
	bpf_program__set_type(found, BPF_PROG_TYPE_XDP);
	bpf_program__set_ifindex(found, ifindex);
	bpf_object__for_each_map(m, obj)
		bpf_map__set_ifindex(m, ifindex);
	err = bpf_object__load(obj);
	if (err) {
		fprintf(stderr, "nicprog: predict: the kernel did not load %s for offload to %s: %s (the verifier's reason is above)\n",
			pa->obj, pa->dev, strerror(-err));
		goto fail;
	}
	*prog = found;
	return obj;

fail:
	bpf_object__close(obj);
	return NULL;
}

int cmd_predict_dev(struct cli *cli)
{
	struct predict_args pa = { 0 };
	struct bpf_program *prog;
	struct bpf_object *obj;
	struct nlmsghdr *nlh;
	unsigned int ifindex;
	int err;

	err = predict_parse(cli, &pa);
	if (err)
		return err;
	ifindex = if_nametoindex(pa.dev);
	if (!ifindex) {
		fprintf(stderr, "nicprog: predict: no interface %s\n", pa.dev);
		return EXIT_REFUSED;
	}
	obj = predict_open(&pa, ifindex, &prog);
	if (!obj)
		return EXIT_REFUSED;
	nlh = nl_msg(&cli->nl, NICPROG_CMD_PREDICT, 0);
	mnl_attr_put_u32(nlh, NICPROG_A_PROG_IFINDEX, ifindex);
	mnl_attr_put_u32(nlh, NICPROG_A_PROG_FD, bpf_program__fd(prog));
	if (pa.shape >= 0)
		mnl_attr_put_u8(nlh, NICPROG_A_PROG_SHAPE_ASKED, pa.shape);
	if (pa.cores >= 0)
		mnl_attr_put_u32(nlh, NICPROG_A_PROG_BUDGET, pa.cores);
	if (pa.rate)
		mnl_attr_put_u64(nlh, NICPROG_A_PROG_RATE, pa.rate);
	out_open_array(NULL);
	err = nl_run(&cli->nl, nlh, prog_print, NULL);
	out_close_array();
	bpf_object__close(obj);
	return err ? cli_refused(cli, err, "predict", pa.dev) : 0;
}
