// SPDX-License-Identifier: GPL-2.0
/*
 * nicprog netlink: the installed plan (prog-get), and the plan's
 * attributes predict (genl_predict.c) and notifications reply with too.
 * Locking as genl.c says.
 */
#include <linux/bpf.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/nicprog_compat.h>
#include <net/sock.h>

#include "genl.h"
#include "genl_gen.h"
#include "nicprog.h"
#include "ring/ring.h"

static int nicprog_nl_put_stage(struct sk_buff *skb,
				const struct nicprog_layout *lo, u32 s)
{
	const struct nicprog_stage *st = &lo->stages[s];
	struct nlattr *nest = nla_nest_start(skb, NICPROG_A_PROG_STAGE);

	if (!nest ||
	    nla_put_u32(skb, NICPROG_A_STAGE_INDEX, s) ||
	    nla_put_u32(skb, NICPROG_A_STAGE_FIRST_CORE, st->first_core) ||
	    nla_put_u32(skb, NICPROG_A_STAGE_REPLICAS, st->replicas) ||
	    nla_put_u8(skb, NICPROG_A_STAGE_STEER, st->steer) ||
	    (nicprog_steer_by_key(st->steer) &&
	     nla_put_u32(skb, NICPROG_A_STAGE_SHARD_TABLE, st->shard_table)) ||
	    nla_put_u32(skb, NICPROG_A_STAGE_NODES, st->n_nodes) ||
	    nla_put_u32(skb, NICPROG_A_STAGE_STATE_BYTES, st->in_bytes) ||
	    nla_put_u64_64bit(skb, NICPROG_A_STAGE_COST,
			      div64_u64(st->cost_fx * 100, NICPROG_FX),
			      NICPROG_A_STAGE_PAD))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int nicprog_nl_put_table(struct sk_buff *skb, struct nicprog_dev *nd,
				const struct nicprog_plan *plan,
				const struct nicprog_prog *np, u32 t)
{
	const struct nicprog_layout *lo = &plan->lo;
	const struct nicprog_table_info *ti = &lo->tables[t];
	struct nlattr *nest = nla_nest_start(skb, NICPROG_A_PROG_TABLE);
	bool host = nicprog_table_in_host(plan->tables[t]) ||
		    (lo->host_tables & BIT_ULL(t));

	if (!nest ||
	    nla_put_u32(skb, NICPROG_A_TABLE_INDEX, t) ||
	    nla_put_string(skb, NICPROG_A_TABLE_NAME, np->maps[t]->name) ||
	    nla_put_u8(skb, NICPROG_A_TABLE_CLASS, ti->cls) ||
	    (ti->mat && lo->mat_units &&
	     nla_put_flag(skb, NICPROG_A_TABLE_MAT)) ||
	    nla_put_string(skb, NICPROG_A_TABLE_REGION,
			   host ? "host" : nd->nic->lnic->regions[ti->region].name) ||
	    nla_put_u64_64bit(skb, NICPROG_A_TABLE_ACCESSES,
			      div64_u64(ti->acc_fx * 100, NICPROG_FX),
			      NICPROG_A_TABLE_PAD) ||
	    (ti->why && nla_put_string(skb, NICPROG_A_TABLE_REASON, ti->why)) ||
	    (nicprog_table_kind(plan->tables[t]) &&
	     nla_put_u8(skb, NICPROG_A_TABLE_KIND,
			nicprog_table_kind(plan->tables[t]))) ||
	    (nicprog_table_host_map_id(plan->tables[t]) &&
	     nla_put_u32(skb, NICPROG_A_TABLE_HOST_MAP_ID,
			 nicprog_table_host_map_id(plan->tables[t]))))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int nicprog_nl_put_host(struct sk_buff *skb,
			       const struct nicprog_plan *plan)
{
	const struct nicprog_layout *lo = &plan->lo;
	struct nlattr *nest = nla_nest_start(skb, NICPROG_A_PROG_HOST);
	u32 n;

	if (!nest ||
	    nla_put_u32(skb, NICPROG_A_HOST_NODES, lo->host_nodes) ||
	    nla_put_u32(skb, NICPROG_A_HOST_INSNS, lo->host_insns) ||
	    nla_put_u32(skb, NICPROG_A_HOST_NIC_INSNS, lo->nic_insns) ||
	    nla_put_u32(skb, NICPROG_A_HOST_SHARE,
			div64_u64(lo->host_share_fx * 10000, NICPROG_FX)) ||
	    nla_put_u32(skb, NICPROG_A_HOST_STATE_BYTES, lo->host_bytes))
		return -EMSGSIZE;
	for (n = 0; n < plan->n_entries; n++)
		if (nla_put_u32(skb, NICPROG_A_HOST_ENTRY,
				nicprog_handover_pc(plan, n)))
			return -EMSGSIZE;
	if (lo->host_why &&
	    nla_put_string(skb, NICPROG_A_HOST_REASON, lo->host_why))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* The plan's static bracket over packet class @c's frames. */
static int nicprog_nl_put_class_bracket(struct sk_buff *skb,
					const struct nicprog_layout *lo,
					u32 c, u32 n_blocks)
{
	const struct nicprog_class_bracket *cb = &lo->cls_br[c];
	struct nlattr *nest;

	nest = nla_nest_start(skb, NICPROG_A_PROG_CLASS_BRACKET);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, NICPROG_A_CLASS_BRACKET_CLASS, c) ||
	    nla_put_string(skb, NICPROG_A_CLASS_BRACKET_NAME,
			   nicprog_pkt_class_name(c)) ||
	    nla_put_u64_64bit(skb, NICPROG_A_CLASS_BRACKET_TPUT_MIN,
			      cb->br.tput_min, NICPROG_A_CLASS_BRACKET_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_CLASS_BRACKET_TPUT_MAX,
			      cb->br.tput_max, NICPROG_A_CLASS_BRACKET_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_CLASS_BRACKET_LATENCY_MIN,
			      cb->br.lat_min, NICPROG_A_CLASS_BRACKET_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_CLASS_BRACKET_LATENCY_MAX,
			      cb->br.lat_max, NICPROG_A_CLASS_BRACKET_PAD) ||
	    nla_put_u32(skb, NICPROG_A_CLASS_BRACKET_BLOCKS, cb->blocks) ||
	    nla_put_u32(skb, NICPROG_A_CLASS_BRACKET_OF_BLOCKS, n_blocks)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int nicprog_nl_put_plan_unit(struct sk_buff *skb, u8 type, u8 accel,
				    u32 count, u32 total, u8 body16)
{
	struct nlattr *nest = nla_nest_start(skb, NICPROG_A_PROG_UNIT);

	if (!nest ||
	    nla_put_u8(skb, NICPROG_A_PLAN_UNIT_TYPE, type) ||
	    (accel != NICPROG_ACCEL_NONE &&
	     (nla_put_u8(skb, NICPROG_A_PLAN_UNIT_ACCEL, accel) ||
	      nla_put_u8(skb, NICPROG_A_PLAN_UNIT_SHARE,
			 NICPROG_SHARE_ALL - body16))) ||
	    nla_put_u32(skb, NICPROG_A_PLAN_UNIT_COUNT, count) ||
	    nla_put_u32(skb, NICPROG_A_PLAN_UNIT_TOTAL, total))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* The plan's slice of each pool of units it uses. */
static int nicprog_nl_put_plan_units(struct sk_buff *skb,
				     const struct nicprog_dev *nd,
				     const struct nicprog_layout *lo)
{
	u32 t;

	for (t = NICPROG_ACCEL_NONE + 1; t < __NICPROG_ACCEL_MAX; t++)
		if (lo->accel_count[t] &&
		    nicprog_nl_put_plan_unit(skb, NICPROG_UNIT_ACCEL, t,
					     lo->accel_count[t],
					     nd->nic->sum.accels[t],
					     lo->body16[t]))
			return -EMSGSIZE;
	if (lo->mat_units &&
	    nicprog_nl_put_plan_unit(skb, NICPROG_UNIT_MAT, NICPROG_ACCEL_NONE,
				     lo->mat_units, nd->nic->sum.mat_stages,
				     0))
		return -EMSGSIZE;
	return 0;
}

/*
 * @plan of @nd's program, as prog-get, predict and notifications show it,
 * with @old_id for a replacement. Leaves the message open for more.
 * RTNL held.
 */
int nicprog_nl_plan_put(struct sk_buff *skb, struct nicprog_dev *nd,
			const struct nicprog_plan *plan, u32 old_id)
{
	const struct nicprog_layout *lo = &plan->lo;
	const struct nicprog_prog *np = plan->prog->aux->offload->dev_priv;
	u32 i;

	if (nla_put_u32(skb, NICPROG_A_PROG_IFINDEX, nd->netdev->ifindex) ||
	    nla_put_string(skb, NICPROG_A_PROG_IFNAME, nd->netdev->name) ||
	    nla_put_u32(skb, NICPROG_A_PROG_ID, plan->prog->aux->id) ||
	    nla_put_string(skb, NICPROG_A_PROG_NAME, plan->prog->aux->name) ||
	    nla_put_u32(skb, NICPROG_A_PROG_INSNS, np->len) ||
	    nla_put_string(skb, NICPROG_A_PROG_SHAPE,
			   nicprog_layout_shape(lo)) ||
	    nla_put_u8(skb, NICPROG_A_PROG_SHAPE_ASKED, lo->shape) ||
	    nla_put_u32(skb, NICPROG_A_PROG_CORES, lo->cores) ||
	    nla_put_u32(skb, NICPROG_A_PROG_BUDGET, lo->budget) ||
	    nla_put_u64_64bit(skb, NICPROG_A_PROG_TPUT, lo->tput,
			      NICPROG_A_PROG_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_PROG_LATENCY, lo->lat,
			      NICPROG_A_PROG_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_PROG_TPUT_MIN, lo->br_tput_min,
			      NICPROG_A_PROG_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_PROG_TPUT_MAX, lo->br_tput_max,
			      NICPROG_A_PROG_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_PROG_LATENCY_MIN, lo->br_lat_min,
			      NICPROG_A_PROG_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_PROG_LATENCY_MAX, lo->br_lat_max,
			      NICPROG_A_PROG_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_PROG_VERIFY_NS, np->verify_ns,
			      NICPROG_A_PROG_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_PROG_PLAN_NS,
			      np->ir_ns + plan->plan_ns, NICPROG_A_PROG_PAD) ||
	    (old_id && nla_put_u32(skb, NICPROG_A_PROG_OLD_ID, old_id)) ||
	    ((np->sources & NICPROG_IR_READS_CLOCK) &&
	     nla_put_flag(skb, NICPROG_A_PROG_READS_CLOCK)) ||
	    ((np->sources & NICPROG_IR_READS_RANDOM) &&
	     nla_put_flag(skb, NICPROG_A_PROG_READS_RANDOM)))
		return -EMSGSIZE;
	for (i = 0; i < NICPROG_PKT_CLASSES; i++)
		if (nicprog_nl_put_class_bracket(skb, lo, i, np->ir.n_blocks))
			return -EMSGSIZE;
	for (i = 0; i < lo->n_stages; i++)
		if (nicprog_nl_put_stage(skb, lo, i))
			return -EMSGSIZE;
	for (i = 0; i < lo->n_tables; i++)
		if (nicprog_nl_put_table(skb, nd, plan, np, i))
			return -EMSGSIZE;
	if (lo->node_host && nicprog_nl_put_host(skb, plan))
		return -EMSGSIZE;
	return nicprog_nl_put_plan_units(skb, nd, lo);
}

/* The program and plan of @nd, with @old_id for a replacement. RTNL held. */
int nicprog_nl_prog_put(struct sk_buff *skb, struct nicprog_dev *nd,
			const struct genl_info *info, u8 cmd, int flags,
			u32 old_id)
{
	void *hdr;

	if (!nd->plan)
		return -ENODATA;
	hdr = genlmsg_put(skb, info->snd_portid, info->snd_seq,
			  &nicprog_nl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (nicprog_nl_plan_put(skb, nd, nd->plan, old_id)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static int nicprog_nl_prog_fill(struct sk_buff *skb, struct nicprog_dev *nd,
				const struct genl_info *info, u8 cmd, int flags,
				const struct sk_buff *req)
{
	return nicprog_nl_prog_put(skb, nd, info, cmd, flags, 0);
}

int nicprog_nl_prog_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return nicprog_nl_do(skb, info, NICPROG_A_PROG_IFINDEX,
			     NICPROG_A_PROG_IFNAME, nicprog_nl_prog_fill, 0);
}

int nicprog_nl_prog_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return nicprog_nl_dump(skb, cb, NICPROG_A_PROG_IFINDEX,
			       NICPROG_A_PROG_IFNAME, nicprog_nl_prog_fill);
}
