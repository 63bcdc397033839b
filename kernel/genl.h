/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of the nicprog netlink family share (genl.c has it):
 * the family, finding a request's port, do and dump, the sizes of the
 * largest replies.
 */
#ifndef _NICPROG_GENL_H
#define _NICPROG_GENL_H

#include <linux/types.h>
#include <net/genetlink.h>

struct nicprog_dev;
struct nicprog_plan;

/*
 * Counters of one counter table, and of all a stats-get reply carries
 * (12 bytes each): the statistics maps of XDP programs are small (an NCL
 * program's drop causes, xdp-tutorial's five actions of two counters).
 */
#define NICPROG_NL_TABLE_COUNTERS	32
#define NICPROG_NL_COUNTERS		128

/*
 * A stats-get reply at its largest: 32 cores, 16 stages, 64 tables, 64
 * bound outputs and 16 unit pools nested stay under 16 KiB by their
 * attribute sizes, the counters under 2 KiB more; more than
 * NLMSG_GOODSIZE.
 */
#define NICPROG_NL_STATS_SIZE	(20 * 1024)

/* Pools of fixed-function units stats-get asks a driver for, at most. */
#define NICPROG_NL_UNIT_POOLS	16

extern struct genl_family nicprog_nl_family;

/*
 * A reply's fill: @req is the request, whose sender's (and socket
 * opener's) capabilities a fill may check, netlink_ns_capable().
 */
typedef int (*nicprog_nl_fill_t)(struct sk_buff *skb, struct nicprog_dev *nd,
				 const struct genl_info *info, u8 cmd,
				 int flags, const struct sk_buff *req);

struct nicprog_dev *nicprog_nl_port(struct net *net, struct nlattr **attrs,
				    u32 a_ifindex, u32 a_ifname,
				    struct netlink_ext_ack *extack);
size_t nicprog_nl_plan_size(const struct nicprog_plan *plan);
int nicprog_nl_do(const struct sk_buff *req, struct genl_info *info,
		  u32 a_ifindex, u32 a_ifname, nicprog_nl_fill_t fill,
		  size_t size);
int nicprog_nl_dump(struct sk_buff *skb, struct netlink_callback *cb,
		    u32 a_ifindex, u32 a_ifname, nicprog_nl_fill_t fill);
int nicprog_nl_cores_check(const struct nicprog_dev *nd,
			   const struct nlattr *attr,
			   struct netlink_ext_ack *extack);
int nicprog_nl_prog_put(struct sk_buff *skb, struct nicprog_dev *nd,
			const struct genl_info *info, u8 cmd, int flags,
			u32 old_id);
int nicprog_nl_plan_put(struct sk_buff *skb, struct nicprog_dev *nd,
			const struct nicprog_plan *plan, u32 old_id);

#endif /* _NICPROG_GENL_H */
