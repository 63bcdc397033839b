// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/nicprog.yaml */
/* YNL-GEN kernel source */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "genl_gen.h"

#include <uapi/linux/nicprog_nl.h>
#include <linux/nicprog.h>
#include <linux/nicprog.h>
#include <linux/nicprog.h>
#include <linux/nicprog.h>
#include <linux/nicprog.h>
#include <linux/nicprog.h>
#include <linux/nicprog.h>
#include <linux/nicprog.h>

/* Common nested types */
const struct nla_policy nicprog_accel_nl_policy[NICPROG_A_ACCEL_PLAN_SHARE + 1] = {
	[NICPROG_A_ACCEL_TYPE] = NLA_POLICY_MAX(NLA_U32, 6),
	[NICPROG_A_ACCEL_NAME] = { .type = NLA_NUL_STRING, },
	[NICPROG_A_ACCEL_COUNT] = { .type = NLA_U32, },
	[NICPROG_A_ACCEL_PLAN_SHARE] = NLA_POLICY_MAX(NLA_U8, 16),
};

/* NICPROG_CMD_DEV_GET - do */
const struct nla_policy nicprog_dev_get_nl_policy[NICPROG_A_DEV_IFNAME + 1] = {
	[NICPROG_A_DEV_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[NICPROG_A_DEV_IFNAME] = { .type = NLA_NUL_STRING, .len = 15, },
};

/* NICPROG_CMD_DEV_SET - do */
const struct nla_policy nicprog_dev_set_nl_policy[NICPROG_A_DEV_PLAN_PARTIAL + 1] = {
	[NICPROG_A_DEV_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[NICPROG_A_DEV_IFNAME] = { .type = NLA_NUL_STRING, .len = 15, },
	[NICPROG_A_DEV_PLAN_SHAPE] = NLA_POLICY_MAX(NLA_U8, 4),
	[NICPROG_A_DEV_PLAN_CORES] = { .type = NLA_U32, },
	[NICPROG_A_DEV_PLAN_PARTIAL] = NLA_POLICY_MAX(NLA_U8, 1),
	[NICPROG_A_DEV_ACCEL] = NLA_POLICY_NESTED(nicprog_accel_nl_policy),
};

/* NICPROG_CMD_PROG_GET - do */
const struct nla_policy nicprog_prog_get_nl_policy[NICPROG_A_PROG_IFNAME + 1] = {
	[NICPROG_A_PROG_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[NICPROG_A_PROG_IFNAME] = { .type = NLA_NUL_STRING, .len = 15, },
};

/* NICPROG_CMD_STATS_GET - do */
const struct nla_policy nicprog_stats_get_nl_policy[NICPROG_A_STATS_IFNAME + 1] = {
	[NICPROG_A_STATS_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[NICPROG_A_STATS_IFNAME] = { .type = NLA_NUL_STRING, .len = 15, },
};

/* NICPROG_CMD_PROFILE_SET - do */
const struct nla_policy nicprog_profile_set_nl_policy[NICPROG_A_DEV_LNIC_TEXT + 1] = {
	[NICPROG_A_DEV_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[NICPROG_A_DEV_IFNAME] = { .type = NLA_NUL_STRING, .len = 15, },
	[NICPROG_A_DEV_PROFILE] = { .type = NLA_NUL_STRING, .len = 31, },
	[NICPROG_A_DEV_LNIC_TEXT] = { .type = NLA_NUL_STRING, .len = 65530, },
};

/* NICPROG_CMD_PREDICT - do */
const struct nla_policy nicprog_predict_nl_policy[NICPROG_A_PROG_RATE + 1] = {
	[NICPROG_A_PROG_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[NICPROG_A_PROG_IFNAME] = { .type = NLA_NUL_STRING, .len = 15, },
	[NICPROG_A_PROG_FD] = { .type = NLA_U32, },
	[NICPROG_A_PROG_SHAPE_ASKED] = NLA_POLICY_MAX(NLA_U8, 4),
	[NICPROG_A_PROG_BUDGET] = { .type = NLA_U32, },
	[NICPROG_A_PROG_RATE] = { .type = NLA_U64, },
};

/* NICPROG_CMD_TABLE_SET - do */
const struct nla_policy nicprog_table_set_nl_policy[NICPROG_A_DEV_TABLE_COUNTERS + 1] = {
	[NICPROG_A_DEV_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[NICPROG_A_DEV_IFNAME] = { .type = NLA_NUL_STRING, .len = 15, },
	[NICPROG_A_DEV_MAP_FD] = { .type = NLA_U32, },
	[NICPROG_A_DEV_TABLE_KIND] = NLA_POLICY_MAX(NLA_U8, 6),
	[NICPROG_A_DEV_HOST_MAP_FD] = { .type = NLA_U32, },
	[NICPROG_A_DEV_TABLE_COUNTERS] = NLA_POLICY_RANGE(NLA_U8, 1, 2),
};

/* Ops table for nicprog */
const struct genl_ops nicprog_nl_ops[7] = {
	{
		.cmd		= NICPROG_CMD_DEV_GET,
		.doit		= nicprog_nl_dev_get_doit,
		.dumpit		= nicprog_nl_dev_get_dumpit,
		.policy		= nicprog_dev_get_nl_policy,
		.maxattr	= NICPROG_A_DEV_IFNAME,
	},
	{
		.cmd		= NICPROG_CMD_DEV_SET,
		.doit		= nicprog_nl_dev_set_doit,
		.policy		= nicprog_dev_set_nl_policy,
		.maxattr	= NICPROG_A_DEV_PLAN_PARTIAL,
		.flags		= GENL_ADMIN_PERM,
	},
	{
		.cmd		= NICPROG_CMD_PROG_GET,
		.doit		= nicprog_nl_prog_get_doit,
		.dumpit		= nicprog_nl_prog_get_dumpit,
		.policy		= nicprog_prog_get_nl_policy,
		.maxattr	= NICPROG_A_PROG_IFNAME,
	},
	{
		.cmd		= NICPROG_CMD_STATS_GET,
		.doit		= nicprog_nl_stats_get_doit,
		.dumpit		= nicprog_nl_stats_get_dumpit,
		.policy		= nicprog_stats_get_nl_policy,
		.maxattr	= NICPROG_A_STATS_IFNAME,
	},
	{
		.cmd		= NICPROG_CMD_PROFILE_SET,
		.doit		= nicprog_nl_profile_set_doit,
		.policy		= nicprog_profile_set_nl_policy,
		.maxattr	= NICPROG_A_DEV_LNIC_TEXT,
		.flags		= GENL_ADMIN_PERM,
	},
	{
		.cmd		= NICPROG_CMD_PREDICT,
		.doit		= nicprog_nl_predict_doit,
		.policy		= nicprog_predict_nl_policy,
		.maxattr	= NICPROG_A_PROG_RATE,
	},
	{
		.cmd		= NICPROG_CMD_TABLE_SET,
		.doit		= nicprog_nl_table_set_doit,
		.policy		= nicprog_table_set_nl_policy,
		.maxattr	= NICPROG_A_DEV_TABLE_COUNTERS,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
};

static const struct genl_multicast_group nicprog_nl_mcgrps[] = {
	[NICPROG_NLGRP_MONITOR] = { "monitor", },
};
