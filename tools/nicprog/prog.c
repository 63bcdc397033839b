// SPDX-License-Identifier: GPL-2.0
/* nicprog prog show: the program a port runs and its plan. */
#include <stdio.h>
#include <linux/nicprog.h>

#include "nicprog.h"
#include "nicprog-user.h"

/*
 * Names of the spec's enums, from the generated library: NULL (a value
 * this build does not know) reads "unknown".
 */
static const char *known(const char *name)
{
	return name ? name : "unknown";
}

static uint64_t u(const struct nlattr *a)
{
	if (!a)
		return 0;
	switch (mnl_attr_get_payload_len(a)) {
	case 1:
		return mnl_attr_get_u8(a);
	case 4:
		return mnl_attr_get_u32(a);
	case 8:
		return mnl_attr_get_u64(a);
	}
	return 0;
}

static const char *s(const struct nlattr *a)
{
	return a ? mnl_attr_get_str(a) : "";
}

/* Hundredths as "N.NN" words and as a JSON number of hundredths. */
static void out_centi(const char *key, const char *fmt, uint64_t v)
{
	char buf[32];

	if (out_json()) {
		out_uint(key, NULL, v);
		return;
	}
	snprintf(buf, sizeof(buf), "%llu.%02llu", (unsigned long long)v / 100,
		 (unsigned long long)v % 100);
	out_string(key, fmt, buf);
}

static void stage_print(const struct nlattr *nest)
{
	const struct nlattr *tb[NICPROG_A_STAGE_MAX + 1];
	uint64_t first, n;

	nl_nested(nest, tb, NICPROG_A_STAGE_MAX);
	first = u(tb[NICPROG_A_STAGE_FIRST_CORE]);
	n = u(tb[NICPROG_A_STAGE_REPLICAS]);
	out_open_object(NULL);
	out_uint("index", "    stage %llu:", u(tb[NICPROG_A_STAGE_INDEX]));
	out_uint("first_core", " cores %llu", first);
	out_uint("replicas", NULL, n);
	out_text("-%llu", (unsigned long long)(first + n - 1));
	out_string("steer", ", steer %s",
		   known(nicprog_steer_str(u(tb[NICPROG_A_STAGE_STEER]))));
	if (tb[NICPROG_A_STAGE_SHARD_TABLE])
		out_uint("shard_table", " (table %llu)",
			 u(tb[NICPROG_A_STAGE_SHARD_TABLE]));
	out_uint("nodes", ", nodes %llu", u(tb[NICPROG_A_STAGE_NODES]));
	out_uint("state_bytes", ", state %llu bytes",
		 u(tb[NICPROG_A_STAGE_STATE_BYTES]));
	out_centi("cost", ", %s cycles\n", u(tb[NICPROG_A_STAGE_COST]));
	out_close_object();
}

static void table_print(const struct nlattr *nest)
{
	const struct nlattr *tb[NICPROG_A_TABLE_MAX + 1];

	nl_nested(nest, tb, NICPROG_A_TABLE_MAX);
	out_open_object(NULL);
	out_uint("index", "    table %llu", u(tb[NICPROG_A_TABLE_INDEX]));
	out_string("name", " %s", s(tb[NICPROG_A_TABLE_NAME]));
	if (tb[NICPROG_A_TABLE_KIND])
		out_string("kind", " (%s",
			   table_kind_name(u(tb[NICPROG_A_TABLE_KIND])));
	if (tb[NICPROG_A_TABLE_HOST_MAP_ID])
		out_uint("host_map_id", " of host map %llu",
			 u(tb[NICPROG_A_TABLE_HOST_MAP_ID]));
	if (tb[NICPROG_A_TABLE_KIND])
		out_text(")");
	out_string("class", ": %s",
		   known(nicprog_table_class_str(u(tb[NICPROG_A_TABLE_CLASS]))));
	out_bool("mat", NULL, tb[NICPROG_A_TABLE_MAT]);
	out_text("%s", tb[NICPROG_A_TABLE_MAT] ? " (mat)" : "");
	out_string("region", ", region %s", s(tb[NICPROG_A_TABLE_REGION]));
	out_centi("accesses", ", %s accesses per frame",
		  u(tb[NICPROG_A_TABLE_ACCESSES]));
	if (tb[NICPROG_A_TABLE_REASON])
		out_string("reason", ": %s", s(tb[NICPROG_A_TABLE_REASON]));
	out_text("\n");
	out_close_object();
}

/* The static bracket over one packet class's frames, as the plan file. */
static void class_bracket_print(const struct nlattr *nest)
{
	const struct nlattr *tb[NICPROG_A_CLASS_BRACKET_MAX + 1];

	nl_nested(nest, tb, NICPROG_A_CLASS_BRACKET_MAX);
	out_open_object(NULL);
	out_uint("class_id", NULL, u(tb[NICPROG_A_CLASS_BRACKET_CLASS]));
	out_string("class", "    static bracket for %s frames: ",
		   s(tb[NICPROG_A_CLASS_BRACKET_NAME]));
	out_bracket("", u(tb[NICPROG_A_CLASS_BRACKET_TPUT_MIN]),
		    u(tb[NICPROG_A_CLASS_BRACKET_TPUT_MAX]),
		    u(tb[NICPROG_A_CLASS_BRACKET_LATENCY_MIN]),
		    u(tb[NICPROG_A_CLASS_BRACKET_LATENCY_MAX]));
	out_uint("blocks", ", %llu", u(tb[NICPROG_A_CLASS_BRACKET_BLOCKS]));
	out_uint("of_blocks", " of %llu blocks\n",
		 u(tb[NICPROG_A_CLASS_BRACKET_OF_BLOCKS]));
	out_close_object();
}

static void host_print(const struct nlattr *nest)
{
	const struct nlattr *tb[NICPROG_A_HOST_MAX + 1];
	const struct nlattr *a;

	nl_nested(nest, tb, NICPROG_A_HOST_MAX);
	out_open_object("host");
	out_uint("nodes", "    host: %llu nodes", u(tb[NICPROG_A_HOST_NODES]));
	out_uint("insns", ", %llu insns", u(tb[NICPROG_A_HOST_INSNS]));
	out_uint("nic_insns", " (the NIC runs %llu)",
		 u(tb[NICPROG_A_HOST_NIC_INSNS]));
	out_centi("share", ", %s%% of frames handed over",
		  u(tb[NICPROG_A_HOST_SHARE]));
	out_uint("state_bytes", ", at most %llu bytes of state",
		 u(tb[NICPROG_A_HOST_STATE_BYTES]));
	out_text(", at insns");
	out_open_array("entries");
	mnl_attr_for_each_nested(a, nest)
		if (mnl_attr_get_type(a) == NICPROG_A_HOST_ENTRY)
			out_uint(NULL, " %llu", u(a));
	out_close_array();
	if (tb[NICPROG_A_HOST_REASON])
		out_string("reason", ": %s", s(tb[NICPROG_A_HOST_REASON]));
	out_text("\n");
	out_close_object();
}

/* A pool of units the plan uses: " crc engines 8 of 16", ", MAT ..." */
static void plan_unit_print(const struct nlattr *nest, bool first)
{
	const struct nlattr *tb[NICPROG_A_PLAN_UNIT_MAX + 1];

	nl_nested(nest, tb, NICPROG_A_PLAN_UNIT_MAX);
	out_text(first ? "" : ",");
	out_open_object(NULL);
	out_string("type", NULL,
		   nicprog_unit_type_name(u(tb[NICPROG_A_PLAN_UNIT_TYPE])));
	if (tb[NICPROG_A_PLAN_UNIT_ACCEL])
		out_string("accel", " %s engines",
			   nicprog_accel_type_name(u(tb[NICPROG_A_PLAN_UNIT_ACCEL])));
	else
		out_text(" MAT stages");
	out_uint("count", " %llu", u(tb[NICPROG_A_PLAN_UNIT_COUNT]));
	out_uint("total", " of %llu", u(tb[NICPROG_A_PLAN_UNIT_TOTAL]));
	/* the split, in words where the cores run some of the calls */
	if (tb[NICPROG_A_PLAN_UNIT_SHARE])
		out_uint("share",
			 u(tb[NICPROG_A_PLAN_UNIT_SHARE]) != NICPROG_PLAN_SHARE_ALL ?
			 " (%llu/16 of the calls; the rest as BPF bodies on the cores)" :
			 NULL, u(tb[NICPROG_A_PLAN_UNIT_SHARE]));
	out_close_object();
}

/*
 * One port's program: a prog-get reply or a prog-attach notification;
 * @data: its JSON key, or NULL in an array.
 */
int prog_print(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[NICPROG_A_PROG_MAX + 1];
	struct nlattr *a;
	unsigned int n;

	nl_attrs(nlh, tb, NICPROG_A_PROG_MAX);
	out_open_object(data);
	out_string("ifname", "%s:", s(tb[NICPROG_A_PROG_IFNAME]));
	out_uint("ifindex", NULL, u(tb[NICPROG_A_PROG_IFINDEX]));
	out_uint("id", " prog %llu", u(tb[NICPROG_A_PROG_ID]));
	out_string("name", " %s", s(tb[NICPROG_A_PROG_NAME]));
	out_uint("insns", ", %llu insns", u(tb[NICPROG_A_PROG_INSNS]));
	if (tb[NICPROG_A_PROG_OLD_ID])
		out_uint("old_id", ", replacing prog %llu",
			 u(tb[NICPROG_A_PROG_OLD_ID]));
	out_text("\n");
	out_string("shape", "    plan %s", s(tb[NICPROG_A_PROG_SHAPE]));
	out_string("shape_asked", " (asked %s)",
		   shape_name(u(tb[NICPROG_A_PROG_SHAPE_ASKED])));
	out_uint("cores", ", cores %llu", u(tb[NICPROG_A_PROG_CORES]));
	out_uint("budget", " of %llu", u(tb[NICPROG_A_PROG_BUDGET]));
	out_uint("tput", ", predicted %llu packets per million cycles",
		 u(tb[NICPROG_A_PROG_TPUT]));
	out_uint("latency", ", latency %llu cycles\n",
		 u(tb[NICPROG_A_PROG_LATENCY]));
	if (tb[NICPROG_A_PROG_TPUT_MIN]) {
		out_text("    static bracket: ");
		out_bracket("bracket_", u(tb[NICPROG_A_PROG_TPUT_MIN]),
			    u(tb[NICPROG_A_PROG_TPUT_MAX]),
			    u(tb[NICPROG_A_PROG_LATENCY_MIN]),
			    u(tb[NICPROG_A_PROG_LATENCY_MAX]));
		out_text(", over any traffic\n");
	}
	out_open_array("pkt_class_brackets");
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == NICPROG_A_PROG_CLASS_BRACKET)
			class_bracket_print(a);
	out_close_array();
	if (tb[NICPROG_A_PROG_CAPACITY])
		out_uint("capacity", "    capacity %llu frames per second",
			 u(tb[NICPROG_A_PROG_CAPACITY]));
	if (tb[NICPROG_A_PROG_LOAD])
		out_centi("load", ", the rate asks %s%% of it",
			  u(tb[NICPROG_A_PROG_LOAD]));
	if (tb[NICPROG_A_PROG_CAPACITY])
		out_text("\n");
	/* in words only if it reads either, as the kernel's plan file */
	out_bool("reads_clock", NULL, tb[NICPROG_A_PROG_READS_CLOCK]);
	out_bool("reads_random", NULL, tb[NICPROG_A_PROG_READS_RANDOM]);
	if (tb[NICPROG_A_PROG_READS_CLOCK] || tb[NICPROG_A_PROG_READS_RANDOM])
		out_text("    varies: its verdicts may depend on %s%s%s, which this prediction does not know\n",
			 tb[NICPROG_A_PROG_READS_CLOCK] ? "the NIC's clock" : "",
			 tb[NICPROG_A_PROG_READS_CLOCK] &&
			 tb[NICPROG_A_PROG_READS_RANDOM] ? " and " : "",
			 tb[NICPROG_A_PROG_READS_RANDOM] ? "random numbers" : "");
	out_uint("verify_ns", NULL, u(tb[NICPROG_A_PROG_VERIFY_NS]));
	out_uint("plan_ns", NULL, u(tb[NICPROG_A_PROG_PLAN_NS]));
	out_text("    time: verifier %llu us, offloader %llu us\n",
		 (unsigned long long)u(tb[NICPROG_A_PROG_VERIFY_NS]) / 1000,
		 (unsigned long long)u(tb[NICPROG_A_PROG_PLAN_NS]) / 1000);
	out_open_array("stages");
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == NICPROG_A_PROG_STAGE)
			stage_print(a);
	out_close_array();
	out_open_array("tables");
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == NICPROG_A_PROG_TABLE)
			table_print(a);
	out_close_array();
	if (tb[NICPROG_A_PROG_HOST])
		host_print(tb[NICPROG_A_PROG_HOST]);
	/* in words only if it uses any: "    units: crc engines 8 of 16" */
	out_text(tb[NICPROG_A_PROG_UNIT] ? "    units:" : "");
	out_open_array("units");
	n = 0;
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == NICPROG_A_PROG_UNIT)
			plan_unit_print(a, !n++);
	out_close_array();
	out_text(tb[NICPROG_A_PROG_UNIT] ? "\n" : "");
	out_close_object();
	return MNL_CB_OK;
}

int cmd_prog(struct cli *cli)
{
	const char *cmd = cli_next(cli), *dev = NULL, *arg;
	struct nlmsghdr *nlh;
	int err;

	if (cmd && !cli_match(cmd, "show") && !cli_match(cmd, "list"))
		return cli_usage("prog: unknown command \"%s\"", cmd);
	while ((arg = cli_next(cli))) {
		if (cli_match(arg, "dev") && (dev = cli_next(cli)))
			continue;
		return cli_usage("prog show: unexpected \"%s\"", arg);
	}
	nlh = nl_msg(&cli->nl, NICPROG_CMD_PROG_GET, dev ? 0 : NLM_F_DUMP);
	if (dev)
		mnl_attr_put_strz(nlh, NICPROG_A_PROG_IFNAME, dev);
	out_open_array(NULL);
	err = nl_run(&cli->nl, nlh, prog_print, NULL);
	out_close_array();
	return err ? cli_refused(cli, err, "prog show", dev) : 0;
}
