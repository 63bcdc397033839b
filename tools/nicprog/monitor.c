// SPDX-License-Identifier: GPL-2.0
/*
 * nicprog monitor: programs attached, replaced and removed, stages that
 * cannot keep up and pipes that drop, as they happen.
 */
#include <stdio.h>
#include <linux/genetlink.h>
#include <linux/nicprog.h>

#include "nicprog.h"

/* stage-overload and ring-drops: the port, then what dropped */
static void trouble_print(const struct nlmsghdr *nlh, bool ring)
{
	const struct nlattr *tb[NICPROG_A_EVENT_MAX + 1];
	uint64_t outputs;
	unsigned int o;

	nl_attrs(nlh, tb, NICPROG_A_EVENT_MAX);
	out_string("event", "[%s] ", ring ? "ring-drops" : "stage-overload");
	out_string("ifname", "%s:", tb[NICPROG_A_EVENT_IFNAME] ?
		   mnl_attr_get_str(tb[NICPROG_A_EVENT_IFNAME]) : "");
	if (tb[NICPROG_A_EVENT_IFINDEX])
		out_uint("ifindex", NULL,
			 mnl_attr_get_u32(tb[NICPROG_A_EVENT_IFINDEX]));
	if (!ring && tb[NICPROG_A_EVENT_STAGE])
		out_uint("stage", " stage %llu",
			 mnl_attr_get_u32(tb[NICPROG_A_EVENT_STAGE]));
	if (tb[NICPROG_A_EVENT_DROPS])
		out_uint("drops", ring ? " pipes dropped %llu records" :
					 " dropped %llu frames (its cores' queues were full)",
			 mnl_attr_get_u64(tb[NICPROG_A_EVENT_DROPS]));
	if (ring && tb[NICPROG_A_EVENT_DROP_BYTES])
		out_uint("drop_bytes", " (%llu bytes)",
			 mnl_attr_get_u64(tb[NICPROG_A_EVENT_DROP_BYTES]));
	if (ring && tb[NICPROG_A_EVENT_OUTPUTS]) {
		outputs = mnl_attr_get_u64(tb[NICPROG_A_EVENT_OUTPUTS]);
		out_text(" of outputs");
		out_open_array("outputs");
		for (o = 0; o < 64; o++)
			if (outputs & (1ULL << o))
				out_uint(NULL, " %llu", o);
		out_close_array();
	}
	out_text("\n");
}

static int event_print(const struct nlmsghdr *nlh, void *data)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *tb[NICPROG_A_PROG_MAX + 1];
	struct cli *cli = data;

	if (nlh->nlmsg_type != cli->nl.family)
		return MNL_CB_OK;
	/* one line of JSON per event, so that readers can follow a stream */
	out_open_object(NULL);
	switch (g->cmd) {
	case NICPROG_CMD_PROG_ATTACH_NTF:
		out_string("event", "[%s] ", "prog-attach");
		prog_print(nlh, "prog");
		break;
	case NICPROG_CMD_PROG_DETACH_NTF:
		nl_attrs(nlh, tb, NICPROG_A_PROG_MAX);
		out_string("event", "[%s] ", "prog-detach");
		out_open_object("prog");
		out_string("ifname", "%s:", tb[NICPROG_A_PROG_IFNAME] ?
			   mnl_attr_get_str(tb[NICPROG_A_PROG_IFNAME]) : "");
		if (tb[NICPROG_A_PROG_IFINDEX])
			out_uint("ifindex", NULL,
				 mnl_attr_get_u32(tb[NICPROG_A_PROG_IFINDEX]));
		if (tb[NICPROG_A_PROG_ID])
			out_uint("id", " prog %llu removed\n",
				 mnl_attr_get_u32(tb[NICPROG_A_PROG_ID]));
		out_close_object();
		break;
	case NICPROG_CMD_STAGE_OVERLOAD_NTF:
		trouble_print(nlh, false);
		break;
	case NICPROG_CMD_RING_DROPS_NTF:
		trouble_print(nlh, true);
		break;
	default:
		out_uint("event", "[event %llu]\n", g->cmd);
		break;
	}
	out_close_object();
	out_flush();
	return MNL_CB_OK;
}

int cmd_monitor(struct cli *cli)
{
	const char *arg = cli_next(cli);
	int err;

	if (arg)
		return cli_usage("monitor: unexpected \"%s\"", arg);
	out_flush();
	err = nl_monitor(&cli->nl, event_print, cli);
	return cli_refused(cli, err, "monitor", NULL);
}
