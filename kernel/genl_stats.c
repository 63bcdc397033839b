// SPDX-License-Identifier: GPL-2.0
/*
 * nicprog netlink: a port's counters, its cores', stages', tables', pipes'
 * and units' (stats-get). Locking as genl.c says.
 */
#include <linux/bpf.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/nospec.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/nicprog_compat.h>
#include <net/sock.h>

#include "genl.h"
#include "genl_gen.h"
#include "nicprog.h"
#include "ring/ring.h"

/* A stage's cores' counters, summed for stats-get. */
struct nicprog_nl_stage_sum {
	u64 packets;
	u64 busy;
	u64 drops;
	u32 cores;
};

/* The stage of the port's plan NIC core @cs runs, or NICPROG_CORE_NONE. */
static u32 nicprog_nl_core_stage(const struct nicprog_plan *plan,
				 const struct nicprog_core_stats *cs)
{
	if (!plan || cs->plan_core >= nicprog_plan_cores(plan))
		return NICPROG_CORE_NONE;
	return nicprog_plan_core_stage(plan, cs->plan_core);
}

static int nicprog_nl_put_core(struct sk_buff *skb, u32 i,
			       const struct nicprog_core_stats *cs, u32 stage)
{
	struct nlattr *nest = nla_nest_start(skb, NICPROG_A_STATS_CORE);

	if (!nest ||
	    nla_put_u32(skb, NICPROG_A_CORE_STATS_INDEX, i) ||
	    nla_put_u64_64bit(skb, NICPROG_A_CORE_STATS_PACKETS, cs->packets,
			      NICPROG_A_CORE_STATS_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_CORE_STATS_BUSY, cs->busy,
			      NICPROG_A_CORE_STATS_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_CORE_STATS_ELAPSED, cs->elapsed,
			      NICPROG_A_CORE_STATS_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_CORE_STATS_DROPS, cs->drops,
			      NICPROG_A_CORE_STATS_PAD) ||
	    (stage != NICPROG_CORE_NONE &&
	     nla_put_u32(skb, NICPROG_A_CORE_STATS_STAGE, stage)))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int nicprog_nl_put_stage_sum(struct sk_buff *skb, u32 s,
				    const struct nicprog_nl_stage_sum *sum)
{
	struct nlattr *nest = nla_nest_start(skb, NICPROG_A_STATS_STAGE);

	if (!nest ||
	    nla_put_u32(skb, NICPROG_A_STAGE_STATS_INDEX, s) ||
	    nla_put_u32(skb, NICPROG_A_STAGE_STATS_CORES, sum->cores) ||
	    nla_put_u64_64bit(skb, NICPROG_A_STAGE_STATS_PACKETS, sum->packets,
			      NICPROG_A_STAGE_STATS_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_STAGE_STATS_BUSY, sum->busy,
			      NICPROG_A_STAGE_STATS_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_STAGE_STATS_DROPS, sum->drops,
			      NICPROG_A_STAGE_STATS_PAD))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * The cores' counters, nested per core, and per stage of the port's plan
 * those of its cores summed. RTNL held: the plan is the one the driver
 * says its cores run.
 */
static int nicprog_nl_put_cores(struct sk_buff *skb, struct nicprog_dev *nd)
{
	struct nicprog_nl_stage_sum sum[NICPROG_MAX_STAGES] = {};
	const struct nicprog_plan *plan = nd->plan;
	struct nicprog_core_stats *cs;
	u32 n, i, s;
	int err = 0;

	cs = nicprog_cores_read(nd, &n);
	if (IS_ERR(cs))
		return PTR_ERR(cs) == -EOPNOTSUPP ? 0 : PTR_ERR(cs);
	for (i = 0; i < n && !err; i++) {
		s = nicprog_nl_core_stage(plan, &cs[i]);
		err = nicprog_nl_put_core(skb, i, &cs[i], s);
		if (s >= NICPROG_MAX_STAGES)
			continue;
		sum[s].packets += cs[i].packets;
		sum[s].busy += cs[i].busy;
		sum[s].drops += cs[i].drops;
		sum[s].cores++;
	}
	for (s = 0; plan && s < plan->lo.n_stages && !err; s++)
		if (sum[s].cores)
			err = nicprog_nl_put_stage_sum(skb, s, &sum[s]);
	kfree(cs);
	return err;
}

/* A counter table's counters (nicprog_table_counters()), within @left. */
static int nicprog_nl_put_counters(struct sk_buff *skb, struct nicprog_table *t,
				   u32 *left)
{
	u64 vals[NICPROG_NL_TABLE_COUNTERS];
	u32 n, i, words;

	if (!*left)
		return 0;
	n = nicprog_table_counters(t, vals, min(*left, ARRAY_SIZE(vals)),
				   &words);
	if (!n)
		return 0;
	*left -= n;
	if (nla_put_u32(skb, NICPROG_A_TABLE_STATS_COUNTER_WORDS, words))
		return -EMSGSIZE;
	for (i = 0; i < n; i++)
		if (nla_put_u64_64bit(skb, NICPROG_A_TABLE_STATS_COUNTER,
				      vals[i], NICPROG_A_TABLE_STATS_PAD))
			return -EMSGSIZE;
	return 0;
}

/*
 * How full the tables of the port's program are, and with @values what
 * its counter tables counted. RTNL held.
 */
static int nicprog_nl_put_table_stats(struct sk_buff *skb,
				      struct nicprog_dev *nd, bool values)
{
	u32 t, entries, max, left = values ? NICPROG_NL_COUNTERS : 0;
	const struct nicprog_plan *plan = nd->plan;
	const struct nicprog_prog *np;
	struct nlattr *nest;
	u64 bytes;

	if (!plan)
		return 0;
	np = plan->prog->aux->offload->dev_priv;
	for (t = 0; t < plan->lo.n_tables; t++) {
		bytes = nicprog_table_usage(plan->tables[t], &entries, &max);
		nest = nla_nest_start(skb, NICPROG_A_STATS_TABLE);
		if (!nest ||
		    nla_put_u32(skb, NICPROG_A_TABLE_STATS_INDEX, t) ||
		    nla_put_string(skb, NICPROG_A_TABLE_STATS_NAME,
				   np->maps[t]->name) ||
		    nla_put_u32(skb, NICPROG_A_TABLE_STATS_ENTRIES, entries) ||
		    nla_put_u32(skb, NICPROG_A_TABLE_STATS_MAX_ENTRIES, max) ||
		    nla_put_u64_64bit(skb, NICPROG_A_TABLE_STATS_BYTES, bytes,
				      NICPROG_A_TABLE_STATS_PAD) ||
		    nicprog_nl_put_counters(skb, plan->tables[t], &left))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
}

/* The NF outputs with an RX pipe bound, and what each pipe saw. */
static int nicprog_nl_put_ring_stats(struct sk_buff *skb,
				     struct nicprog_dev *nd)
{
	struct nicprog_pipe_stats st;
	struct nlattr *nest;
	u32 out;

	for (out = 0; out < NICPROG_RING_OUTPUTS; out++) {
		if (!nicprog_node_output_stats(nd, out, &st))
			continue;
		nest = nla_nest_start(skb, NICPROG_A_STATS_RING);
		if (!nest ||
		    nla_put_u32(skb, NICPROG_A_RING_STATS_OUTPUT, out) ||
		    nla_put_u32(skb, NICPROG_A_RING_STATS_SIZE, st.size) ||
		    nla_put_u64_64bit(skb, NICPROG_A_RING_STATS_BYTES, st.bytes,
				      NICPROG_A_RING_STATS_PAD) ||
		    nla_put_u64_64bit(skb, NICPROG_A_RING_STATS_CONSUMED,
				      st.consumed, NICPROG_A_RING_STATS_PAD) ||
		    nla_put_u64_64bit(skb, NICPROG_A_RING_STATS_DROPS, st.drops,
				      NICPROG_A_RING_STATS_PAD) ||
		    nla_put_u64_64bit(skb, NICPROG_A_RING_STATS_DROP_BYTES,
				      st.drop_bytes, NICPROG_A_RING_STATS_PAD) ||
		    (st.backpressure &&
		     nla_put_flag(skb, NICPROG_A_RING_STATS_BACKPRESSURE)) ||
		    nla_put_u32(skb, NICPROG_A_RING_STATS_COALESCE_USECS,
				st.coalesce_usecs) ||
		    nla_put_u32(skb, NICPROG_A_RING_STATS_COALESCE_BYTES,
				st.coalesce_bytes))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
}

static int nicprog_nl_put_unit(struct sk_buff *skb,
			       const struct nicprog_unit_stats *us)
{
	struct nlattr *nest = nla_nest_start(skb, NICPROG_A_STATS_UNIT);

	if (!nest ||
	    nla_put_u8(skb, NICPROG_A_UNIT_STATS_TYPE, us->type) ||
	    (us->accel != NICPROG_ACCEL_NONE &&
	     nla_put_u8(skb, NICPROG_A_UNIT_STATS_ACCEL, us->accel)) ||
	    nla_put_u32(skb, NICPROG_A_UNIT_STATS_COUNT, us->count) ||
	    nla_put_u64_64bit(skb, NICPROG_A_UNIT_STATS_JOBS, us->jobs,
			      NICPROG_A_UNIT_STATS_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_UNIT_STATS_BUSY, us->busy,
			      NICPROG_A_UNIT_STATS_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_UNIT_STATS_WAIT, us->wait,
			      NICPROG_A_UNIT_STATS_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_UNIT_STATS_ELAPSED, us->elapsed,
			      NICPROG_A_UNIT_STATS_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_UNIT_STATS_REFUSED, us->refused,
			      NICPROG_A_UNIT_STATS_PAD))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* The NIC's pools of fixed-function units, when the driver counts them. */
static int nicprog_nl_put_units(struct sk_buff *skb, struct nicprog_dev *nd)
{
	struct nicprog_unit_stats *us;
	u32 n, i;
	int err = 0;

	if (!nd->ops->unit_stats)
		return 0;
	us = kcalloc(NICPROG_NL_UNIT_POOLS, sizeof(*us), GFP_KERNEL);
	if (!us)
		return -ENOMEM;
	n = min_t(u32, nd->ops->unit_stats(nd->nic, us, NICPROG_NL_UNIT_POOLS),
		  NICPROG_NL_UNIT_POOLS);
	for (i = 0; i < n && !err; i++)
		err = nicprog_nl_put_unit(skb, &us[i]);
	kfree(us);
	return err;
}

static int nicprog_nl_stats_fill(struct sk_buff *skb, struct nicprog_dev *nd,
				 const struct genl_info *info, u8 cmd,
				 int flags, const struct sk_buff *req)
{
	/*
	 * Counters are map values, which bpf(2) gives only to who holds the
	 * map: the requester (and the socket's opener) needs CAP_NET_ADMIN in
	 * the port's namespace, as table-set's marking did; others see how
	 * full the tables are only.
	 */
	bool values = netlink_ns_capable(req, dev_net(nd->netdev)->user_ns,
					 CAP_NET_ADMIN);
	struct nicprog_port_stats st = {};
	void *hdr;
	int err;

	nd->ops->port_stats(nd, &st);
	hdr = genlmsg_put(skb, info->snd_portid, info->snd_seq,
			  &nicprog_nl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, NICPROG_A_STATS_IFINDEX, nd->netdev->ifindex) ||
	    nla_put_string(skb, NICPROG_A_STATS_IFNAME, nd->netdev->name) ||
	    nla_put_u64_64bit(skb, NICPROG_A_STATS_WIRE_RX_PACKETS,
			      st.wire_rx_packets, NICPROG_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_STATS_WIRE_RX_BYTES,
			      st.wire_rx_bytes, NICPROG_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_STATS_WIRE_TX_PACKETS,
			      st.wire_tx_packets, NICPROG_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_STATS_WIRE_TX_BYTES,
			      st.wire_tx_bytes, NICPROG_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_STATS_HOST_RX_PACKETS,
			      st.host_rx_packets, NICPROG_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_STATS_HOST_RX_BYTES,
			      st.host_rx_bytes, NICPROG_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_STATS_NIC_DROPS, st.nic_drops,
			      NICPROG_A_STATS_PAD) ||
	    nla_put_u32(skb, NICPROG_A_STATS_RING_PIPES,
			atomic_read(&nd->ring_pipes))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	err = nicprog_nl_put_cores(skb, nd) ?:
	      nicprog_nl_put_table_stats(skb, nd, values) ?:
	      nicprog_nl_put_ring_stats(skb, nd) ?:
	      nicprog_nl_put_units(skb, nd);
	if (err) {
		genlmsg_cancel(skb, hdr);
		return err;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

int nicprog_nl_stats_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return nicprog_nl_do(skb, info, NICPROG_A_STATS_IFINDEX,
			     NICPROG_A_STATS_IFNAME, nicprog_nl_stats_fill,
			     NICPROG_NL_STATS_SIZE);
}

int nicprog_nl_stats_get_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb)
{
	return nicprog_nl_dump(skb, cb, NICPROG_A_STATS_IFINDEX,
			       NICPROG_A_STATS_IFNAME, nicprog_nl_stats_fill);
}
