/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/nicprog.yaml */
/* YNL-GEN kernel header */

#ifndef _LINUX_NICPROG_GEN_H
#define _LINUX_NICPROG_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

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
extern const struct nla_policy nicprog_accel_nl_policy[NICPROG_A_ACCEL_PLAN_SHARE + 1];

extern const struct nla_policy nicprog_dev_get_nl_policy[NICPROG_A_DEV_IFNAME + 1];

extern const struct nla_policy nicprog_dev_set_nl_policy[NICPROG_A_DEV_PLAN_PARTIAL + 1];

extern const struct nla_policy nicprog_prog_get_nl_policy[NICPROG_A_PROG_IFNAME + 1];

extern const struct nla_policy nicprog_stats_get_nl_policy[NICPROG_A_STATS_IFNAME + 1];

extern const struct nla_policy nicprog_profile_set_nl_policy[NICPROG_A_DEV_LNIC_TEXT + 1];

extern const struct nla_policy nicprog_predict_nl_policy[NICPROG_A_PROG_RATE + 1];

extern const struct nla_policy nicprog_table_set_nl_policy[NICPROG_A_DEV_TABLE_COUNTERS + 1];

/* Ops table for nicprog */
extern const struct genl_ops nicprog_nl_ops[7];

int nicprog_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info);
int nicprog_nl_dev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int nicprog_nl_dev_set_doit(struct sk_buff *skb, struct genl_info *info);
int nicprog_nl_prog_get_doit(struct sk_buff *skb, struct genl_info *info);
int nicprog_nl_prog_get_dumpit(struct sk_buff *skb,
			       struct netlink_callback *cb);
int nicprog_nl_stats_get_doit(struct sk_buff *skb, struct genl_info *info);
int nicprog_nl_stats_get_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb);
int nicprog_nl_profile_set_doit(struct sk_buff *skb, struct genl_info *info);
int nicprog_nl_predict_doit(struct sk_buff *skb, struct genl_info *info);
int nicprog_nl_table_set_doit(struct sk_buff *skb, struct genl_info *info);

enum {
	NICPROG_NLGRP_MONITOR,
};

#endif /* _LINUX_NICPROG_GEN_H */
