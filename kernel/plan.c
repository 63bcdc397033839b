// SPDX-License-Identifier: GPL-2.0
/*
 * Plans: what the core hands a vendor driver to install. Until the
 * offloader partitions programs, a plan is the whole verified program run
 * to completion on any general-purpose core, its tables placed in the
 * slowest memory the cores reach and packets in the fastest.
 */
#include <linux/bpf.h>
#include <linux/random.h>
#include <linux/timekeeping.h>

#include "nicprog.h"

static void *plan_map_lookup(void *priv, u32 map, const void *key)
{
	const struct nicprog_plan *plan = priv;

	return nicprog_table_lookup(plan->tables[map], key);
}

static long plan_map_update(void *priv, u32 map, const void *key,
			    const void *value, u64 flags)
{
	const struct nicprog_plan *plan = priv;

	return nicprog_table_update(plan->tables[map], key, value, flags);
}

static long plan_map_delete(void *priv, u32 map, const void *key)
{
	const struct nicprog_plan *plan = priv;

	return nicprog_table_delete(plan->tables[map], key);
}

static u64 plan_ktime_ns(void *priv)
{
	return ktime_get_ns();
}

static u32 plan_prandom(void *priv)
{
	return get_random_u32();
}

static const struct nicprog_exec_ops nicprog_plan_exec_ops = {
	.map_lookup	= plan_map_lookup,
	.map_update	= plan_map_update,
	.map_delete	= plan_map_delete,
	.ktime_ns	= plan_ktime_ns,
	.prandom	= plan_prandom,
};

/**
 * nicprog_plan_init() - make the plan of a verified program
 * @np: the program, finalized
 *
 * Context: process.
 */
void nicprog_plan_init(struct nicprog_prog *np)
{
	const struct nicprog_lnic *lnic = np->nd->lnic;
	const struct nicprog_lnic_unit *core = NULL;
	u32 i, fast = U32_MAX, slow = 0, lat;

	for (i = 0; i < lnic->n_units && !core; i++)
		if (lnic->units[i].type == NICPROG_UNIT_CORE)
			core = &lnic->units[i];
	/* nicprog_lnic_validate() guarantees a core reaching some region */
	memcpy(np->exec.cost, core->cost, sizeof(np->exec.cost));
	for (i = 0; i < lnic->n_regions; i++) {
		if (!(core->region_mask & BIT(i)))
			continue;
		lat = lnic->regions[i].latency_cycles;
		fast = min(fast, lat);
		slow = max(slow, lat);
	}
	np->exec.lat_pkt = fast;
	np->exec.lat_map = slow;
	np->plan.exec = &np->exec;
	np->plan.tables = np->tables;
	np->plan.prog = np->prog;
}

/**
 * nicprog_plan_run() - run a plan on one frame, on the calling NIC core
 * @plan: the plan the driver got in its plan_load op
 * @st: the core's executor scratch
 * @pkt: the frame
 * @res: verdict, cycles and instructions
 *
 * Context: the caller holds rcu_read_lock() across the call and keeps
 * @plan installed until a grace period after it stopped using it.
 */
void nicprog_plan_run(const struct nicprog_plan *plan,
		      struct nicprog_exec_state *st,
		      struct nicprog_exec_pkt *pkt,
		      struct nicprog_exec_result *res)
{
	nicprog_exec_run(plan->exec, &nicprog_plan_exec_ops, (void *)plan, st,
			 pkt, res);
}
EXPORT_SYMBOL_GPL(nicprog_plan_run);

/**
 * nicprog_plan_prog() - the BPF program a plan was made from
 * @plan: the plan
 *
 * For the xdp_exception tracepoint and statistics.
 *
 * Context: any.
 * Return: the program; valid while the plan is.
 */
struct bpf_prog *nicprog_plan_prog(const struct nicprog_plan *plan)
{
	return plan->prog;
}
EXPORT_SYMBOL_GPL(nicprog_plan_prog);
