// SPDX-License-Identifier: GPL-2.0
/* nicprog dev show | set: ports, the NICs behind them, plan settings. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/nicprog.h>

#include "nicprog.h"

static void region_print(const struct nlattr *nest)
{
	const struct nlattr *tb[NICPROG_A_REGION_MAX + 1];

	nl_nested(nest, tb, NICPROG_A_REGION_MAX);
	out_open_object(NULL);
	out_string("name", "    region %s:", tb[NICPROG_A_REGION_NAME] ?
		   mnl_attr_get_str(tb[NICPROG_A_REGION_NAME]) : "?");
	if (tb[NICPROG_A_REGION_BYTES])
		out_uint("bytes", " %llu bytes",
			 mnl_attr_get_u64(tb[NICPROG_A_REGION_BYTES]));
	if (tb[NICPROG_A_REGION_LATENCY])
		out_uint("latency", ", latency %llu",
			 mnl_attr_get_u32(tb[NICPROG_A_REGION_LATENCY]));
	if (tb[NICPROG_A_REGION_BANKS])
		out_uint("banks", mnl_attr_get_u32(tb[NICPROG_A_REGION_BANKS]) ?
			 ", banks %llu" : NULL,
			 mnl_attr_get_u32(tb[NICPROG_A_REGION_BANKS]));
	if (tb[NICPROG_A_REGION_CACHE_BYTES]) {
		uint64_t c = mnl_attr_get_u64(tb[NICPROG_A_REGION_CACHE_BYTES]);

		out_uint("cache_bytes", c ? ", cache %llu bytes" : NULL, c);
		if (tb[NICPROG_A_REGION_CACHE_LATENCY])
			out_uint("cache_latency", c ? " (%llu cycles)" : NULL,
				 mnl_attr_get_u32(tb[NICPROG_A_REGION_CACHE_LATENCY]));
	}
	if (tb[NICPROG_A_REGION_ISLAND]) {
		uint32_t n = mnl_attr_get_u32(tb[NICPROG_A_REGION_ISLAND]);

		out_uint("island", n ? ", one per island of %llu cores" : NULL,
			 n);
	}
	if (tb[NICPROG_A_REGION_INTERLEAVE]) {
		uint32_t il = mnl_attr_get_u32(tb[NICPROG_A_REGION_INTERLEAVE]);

		out_string("interleave", il == NICPROG_IL_HASH ?
			   ", interleave %s" : NULL,
			   il == NICPROG_IL_HASH ? "hash" : "unknown");
	}
	out_text("\n");
	out_close_object();
}

static int dev_print(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[NICPROG_A_DEV_MAX + 1];
	const struct nlattr *atb[NICPROG_A_ACCEL_MAX + 1];
	struct nlattr *a;
	int n = 0;

	(void)data;
	nl_attrs(nlh, tb, NICPROG_A_DEV_MAX);
	if (!tb[NICPROG_A_DEV_IFNAME] || !tb[NICPROG_A_DEV_IFINDEX])
		return MNL_CB_OK;
	out_open_object(NULL);
	out_string("ifname", "%s:", mnl_attr_get_str(tb[NICPROG_A_DEV_IFNAME]));
	out_uint("ifindex", " ifindex %llu",
		 mnl_attr_get_u32(tb[NICPROG_A_DEV_IFINDEX]));
	if (tb[NICPROG_A_DEV_PROFILE])
		out_string("profile", " profile %s",
			   mnl_attr_get_str(tb[NICPROG_A_DEV_PROFILE]));
	if (tb[NICPROG_A_DEV_RING_DEV])
		out_string("ring_dev", " rings /dev/%s",
			   mnl_attr_get_str(tb[NICPROG_A_DEV_RING_DEV]));
	out_text("\n   ");
	if (tb[NICPROG_A_DEV_CORES])
		out_uint("cores", " cores %llu",
			 mnl_attr_get_u32(tb[NICPROG_A_DEV_CORES]));
	if (tb[NICPROG_A_DEV_CORE_THREADS])
		out_uint("core_threads", " threads %llu",
			 mnl_attr_get_u32(tb[NICPROG_A_DEV_CORE_THREADS]));
	if (tb[NICPROG_A_DEV_INSN_STORE])
		out_uint("insn_store", " insn-store %llu",
			 mnl_attr_get_u32(tb[NICPROG_A_DEV_INSN_STORE]));
	if (tb[NICPROG_A_DEV_PARSERS])
		out_uint("parsers", " parsers %llu",
			 mnl_attr_get_u32(tb[NICPROG_A_DEV_PARSERS]));
	if (tb[NICPROG_A_DEV_MAT_STAGES])
		out_uint("mat_stages", " mat-stages %llu",
			 mnl_attr_get_u32(tb[NICPROG_A_DEV_MAT_STAGES]));
	if (tb[NICPROG_A_DEV_DMA_ENGINES])
		out_uint("dma_engines", " dma %llu",
			 mnl_attr_get_u32(tb[NICPROG_A_DEV_DMA_ENGINES]));
	if (tb[NICPROG_A_DEV_MEM_BYTES])
		out_uint("mem_bytes", " memory %llu bytes",
			 mnl_attr_get_u64(tb[NICPROG_A_DEV_MEM_BYTES]));
	out_text("\n");
	out_open_array("regions");
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == NICPROG_A_DEV_REGION)
			region_print(a);
	out_close_array();
	out_open_array("accels");
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) != NICPROG_A_DEV_ACCEL)
			continue;
		nl_nested(a, atb, NICPROG_A_ACCEL_MAX);
		if (!atb[NICPROG_A_ACCEL_TYPE] || !atb[NICPROG_A_ACCEL_COUNT])
			continue;
		out_open_object(NULL);
		out_string("type", n++ ? ", %s" : "    accel %s",
			   atb[NICPROG_A_ACCEL_NAME] ?
			   mnl_attr_get_str(atb[NICPROG_A_ACCEL_NAME]) :
			   nicprog_accel_type_name(mnl_attr_get_u32(atb[NICPROG_A_ACCEL_TYPE])));
		out_uint("count", " %llu",
			 mnl_attr_get_u32(atb[NICPROG_A_ACCEL_COUNT]));
		out_close_object();
	}
	out_close_array();
	out_text(n ? "\n" : "    accel none\n");
	out_open_object("plan");
	if (tb[NICPROG_A_DEV_PLAN_SHAPE])
		out_string("shape", "    plan shape %s",
			   shape_name(mnl_attr_get_u8(tb[NICPROG_A_DEV_PLAN_SHAPE])));
	if (tb[NICPROG_A_DEV_PLAN_CORES])
		out_uint("cores", " cores %llu",
			 mnl_attr_get_u32(tb[NICPROG_A_DEV_PLAN_CORES]));
	if (tb[NICPROG_A_DEV_CORES_FREE])
		out_uint("cores_free", " (%llu free)",
			 mnl_attr_get_u32(tb[NICPROG_A_DEV_CORES_FREE]));
	if (tb[NICPROG_A_DEV_PLAN_PARTIAL])
		out_bool("partial", " partial %s",
			 mnl_attr_get_u8(tb[NICPROG_A_DEV_PLAN_PARTIAL]));
	out_close_object();
	if (tb[NICPROG_A_DEV_PROG_ID])
		out_uint("prog_id", "; prog %llu",
			 mnl_attr_get_u32(tb[NICPROG_A_DEV_PROG_ID]));
	out_text("\n");
	out_close_object();
	return MNL_CB_OK;
}

static int dev_show(struct cli *cli)
{
	const char *dev = NULL, *arg;
	struct nlmsghdr *nlh;
	int err;

	while ((arg = cli_next(cli))) {
		if (cli_match(arg, "dev") && (dev = cli_next(cli)))
			continue;
		return cli_usage("dev show: unexpected \"%s\"", arg);
	}
	nlh = nl_msg(&cli->nl, NICPROG_CMD_DEV_GET, dev ? 0 : NLM_F_DUMP);
	if (dev)
		mnl_attr_put_strz(nlh, NICPROG_A_DEV_IFNAME, dev);
	out_open_array(NULL);
	err = nl_run(&cli->nl, nlh, dev_print, NULL);
	out_close_array();
	return err ? cli_refused(cli, err, "dev show", dev) : 0;
}

static int dev_set(struct cli *cli)
{
	const char *dev = NULL, *arg, *v, *profile = NULL, *file = NULL;
	struct nlmsghdr *nlh;
	int shape = -1, partial = -1, err;
	long cores = -1;
	char *end;

	while ((arg = cli_next(cli))) {
		v = cli_next(cli);
		if (!v)
			return cli_usage("dev set: \"%s\" needs a value", arg);
		if (cli_match(arg, "dev")) {
			dev = v;
		} else if (cli_match(arg, "profile")) {
			profile = v;
		} else if (cli_match(arg, "profile-file")) {
			file = v;
		} else if (cli_match(arg, "shape")) {
			shape = shape_value(v);
			if (shape < 0)
				return cli_usage("dev set: unknown shape \"%s\"",
						 v);
		} else if (cli_match(arg, "cores")) {
			errno = 0;
			cores = strtol(v, &end, 0);
			if (errno || *end || cores < 0 || cores > UINT32_MAX)
				return cli_usage("dev set: cores \"%s\" is not a count",
						 v);
		} else if (cli_match(arg, "partial")) {
			if (strcmp(v, "on") && strcmp(v, "off"))
				return cli_usage("dev set: partial takes on or off, not \"%s\"",
						 v);
			partial = !strcmp(v, "on");
		} else {
			return cli_usage("dev set: unexpected \"%s\"", arg);
		}
	}
	if (!dev)
		return cli_usage("dev set: name the port: dev IFNAME");
	if (profile && file)
		return cli_usage("dev set: give profile or profile-file, not both");
	/* the profile first: it resets what the new NIC cannot take */
	if (profile || file) {
		err = profile_set(cli, dev, profile, file);
		if (err || (shape < 0 && cores < 0 && partial < 0))
			return err;
	}
	nlh = nl_msg(&cli->nl, NICPROG_CMD_DEV_SET, 0);
	mnl_attr_put_strz(nlh, NICPROG_A_DEV_IFNAME, dev);
	if (shape >= 0)
		mnl_attr_put_u8(nlh, NICPROG_A_DEV_PLAN_SHAPE, shape);
	if (cores >= 0)
		mnl_attr_put_u32(nlh, NICPROG_A_DEV_PLAN_CORES, cores);
	if (partial >= 0)
		mnl_attr_put_u8(nlh, NICPROG_A_DEV_PLAN_PARTIAL, partial);
	err = nl_run(&cli->nl, nlh, NULL, NULL);
	return err ? cli_refused(cli, err, "dev set", dev) : 0;
}

int cmd_dev(struct cli *cli)
{
	const char *cmd = cli_next(cli);

	if (!cmd || cli_match(cmd, "show") || cli_match(cmd, "list"))
		return dev_show(cli);
	if (cli_match(cmd, "set"))
		return dev_set(cli);
	return cli_usage("dev: unknown command \"%s\"", cmd);
}
