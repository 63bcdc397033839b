// SPDX-License-Identifier: GPL-2.0
/*
 * A NIC's units among its ports' plans: each plan holds a run of the
 * NIC's cores, a run of each pool of fixed-function units it uses (MAT
 * stages, each kind of accelerator) and its tables' bytes of each memory
 * region (a table several ports' plans share counted once), so that
 * programs on one NIC split its units rather than contend for them, and
 * each runs as its plan was predicted. Runs are found first fit; a port's
 * own run counts as free for it, so that a plan replaces its predecessor
 * in place. A port whose files hold lookaside kernels holds one more
 * core for their jobs, against every plan, its own included: NFs and
 * kernels split the NIC's cores as NFs do.
 *
 * A port's runs (nicprog_dev.runs) are written under RTNL and the NIC's
 * lock: the attach path reads them under RTNL, stats readers and devlink
 * (resource occupancy, health dumps) under the lock. A NIC has a handful
 * of ports, so runs are found by looking at every other port's.
 */
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>

#include "nicprog.h"

/**
 * nicprog_alloc_pool_size() - units in one of a NIC's pools
 * @nic: the NIC
 * @pool: NICPROG_POOL_*
 *
 * Context: RTNL or @nic's lock held (the LNIC does not change).
 * Return: the LNIC's units of the pool.
 */
u32 nicprog_alloc_pool_size(const struct nicprog_nic *nic, u32 pool)
{
	if (pool == NICPROG_POOL_CORES)
		return nic->sum.cores;
	if (pool == NICPROG_POOL_MAT)
		return nic->sum.mat_stages;
	return nic->sum.accels[pool - NICPROG_POOL_ACCEL];
}

/*
 * The runs of @pool port @o holds against a plan of @nd (NULL: of none):
 * its plan's, but @nd's own, which a new plan of @nd replaces; for cores,
 * its kernels' core too.
 */
static u32 nicprog_alloc_held(const struct nicprog_dev *o,
			      const struct nicprog_dev *nd, u32 pool,
			      struct nicprog_run *runs)
{
	u32 n = 0;

	if (o != nd && o->runs[pool].n)
		runs[n++] = o->runs[pool];
	if (pool == NICPROG_POOL_CORES && o->job_core.n)
		runs[n++] = o->job_core;
	return n;
}

/*
 * The free units of @pool from @b on, for @nd: up to the first unit
 * another run holds, 0 if @b is one.
 */
static u32 nicprog_alloc_gap(const struct nicprog_nic *nic,
			     const struct nicprog_dev *nd, u32 pool, u32 b)
{
	u32 end = nicprog_alloc_pool_size(nic, pool), n, i;
	const struct nicprog_dev *o;
	struct nicprog_run r[2];

	list_for_each_entry(o, &nic->ports, nic_node) {
		n = nicprog_alloc_held(o, nd, pool, r);
		for (i = 0; i < n; i++) {
			if (b >= r[i].base && b < r[i].base + r[i].n)
				return 0;
			if (r[i].base > b)
				end = min(end, r[i].base);
		}
	}
	return end > b ? end - b : 0;
}

/*
 * First fit of @need units of @pool for @nd: the first unit, or -1. A gap
 * begins at 0 or where a held run ends.
 */
static s64 nicprog_alloc_fit(const struct nicprog_nic *nic,
			     const struct nicprog_dev *nd, u32 pool,
			     u32 need, u32 *longest)
{
	const struct nicprog_dev *o;
	struct nicprog_run r[2];
	u32 gap, b, n, i;
	s64 best = -1;

	*longest = nicprog_alloc_gap(nic, nd, pool, 0);
	if (*longest >= need)
		best = 0;
	list_for_each_entry(o, &nic->ports, nic_node) {
		n = nicprog_alloc_held(o, nd, pool, r);
		for (i = 0; i < n; i++) {
			b = r[i].base + r[i].n;
			gap = nicprog_alloc_gap(nic, nd, pool, b);
			*longest = max(*longest, gap);
			if (gap >= need && (best < 0 || b < best))
				best = b;
		}
	}
	return best;
}

/**
 * nicprog_alloc_free() - the most units of a pool a plan of a port may hold
 * @nd: the port
 * @pool: NICPROG_POOL_*
 *
 * Context: RTNL held.
 * Return: the longest run of the pool's units no other port's plan holds.
 */
u32 nicprog_alloc_free(const struct nicprog_dev *nd, u32 pool)
{
	u32 longest;

	ASSERT_RTNL();
	nicprog_alloc_fit(nd->nic, nd, pool, U32_MAX, &longest);
	return longest;
}

/**
 * nicprog_alloc_kernel_get() - a port's lookaside kernels hold a core
 * @nd: the port, one of whose files loads a kernel
 *
 * The port's first kernel takes a core no plan holds (the port's own plan
 * included) for the jobs of all of them; plans made while the port holds
 * it are made without it.
 *
 * Context: RTNL held; the port is on its NIC.
 * Return: 0, or -EBUSY when every core runs a plan.
 */
int nicprog_alloc_kernel_get(struct nicprog_dev *nd)
{
	u32 longest;
	s64 base;

	ASSERT_RTNL();
	if (nd->n_kernels) {
		nd->n_kernels++;
		return 0;
	}
	base = nicprog_alloc_fit(nd->nic, NULL, NICPROG_POOL_CORES, 1,
				 &longest);
	if (base < 0)
		return -EBUSY;
	mutex_lock(&nd->nic->lock);
	nd->job_core = (struct nicprog_run){ base, 1 };
	mutex_unlock(&nd->nic->lock);
	nd->n_kernels = 1;
	return 0;
}
EXPORT_SYMBOL_NS_GPL(nicprog_alloc_kernel_get, NICPROG_INTERNAL);

/**
 * nicprog_alloc_kernel_put() - a port's file unloaded one of its kernels
 * @nd: the port
 *
 * With the port's last kernel, its core is free for plans again. A port
 * that left its NIC holds none (nicprog_unregister() cleared it).
 *
 * Context: RTNL held.
 */
void nicprog_alloc_kernel_put(struct nicprog_dev *nd)
{
	ASSERT_RTNL();
	if (WARN_ON_ONCE(!nd->n_kernels) || --nd->n_kernels ||
	    !nd->job_core.n)
		return;
	mutex_lock(&nd->nic->lock);
	nd->job_core = (struct nicprog_run){ 0, 0 };
	mutex_unlock(&nd->nic->lock);
}
EXPORT_SYMBOL_NS_GPL(nicprog_alloc_kernel_put, NICPROG_INTERNAL);

/* Is @t among the first @n of @held? */
static bool nicprog_held(const struct nicprog_held_table *held, u32 n,
			 const struct nicprog_table *t)
{
	while (n--)
		if (held[n].t == t)
			return true;
	return false;
}

/*
 * The bytes of @region the tables of the ports' plans take, but @skip's,
 * and of @plan's (NULL: none), each table once: a table the NIC holds is
 * shared by the plans of every port that uses it. Buffers the host
 * allocated in the region (ring/mem.c) count too.
 */
static u64 nicprog_region_used(const struct nicprog_nic *nic, u32 region,
			       const struct nicprog_dev *skip,
			       const struct nicprog_plan *plan)
{
	const struct nicprog_dev *o, *p;
	const struct nicprog_held_table *h;
	bool seen;
	u64 used = nic->buf_bytes[region];	/* the host's, no plan's */
	u32 i;

	list_for_each_entry(o, &nic->ports, nic_node) {
		if (o == skip)
			continue;
		for (i = 0; i < o->n_held; i++) {
			h = &o->held[i];
			seen = nicprog_held(o->held, i, h->t);
			list_for_each_entry(p, &nic->ports, nic_node) {
				if (p == o)
					break;
				if (p != skip)
					seen |= nicprog_held(p->held, p->n_held,
							     h->t);
			}
			if (h->region == region && !seen)
				used += h->bytes;
		}
	}
	for (i = 0; plan && i < plan->n_held; i++) {
		h = &plan->held[i];
		seen = nicprog_held(plan->held, i, h->t);
		list_for_each_entry(o, &nic->ports, nic_node)
			if (o != skip)
				seen |= nicprog_held(o->held, o->n_held, h->t);
		if (h->region == region && !seen)
			used += h->bytes;
	}
	return used;
}

/**
 * nicprog_alloc_region_used() - what plans take of a region
 * @nic: the NIC
 * @region: the LNIC region
 *
 * Context: @nic's lock or RTNL held.
 * Return: the bytes (of each instance of an island's region) the tables
 * of the ports' plans take, each table once, and the host's buffers.
 */
u64 nicprog_alloc_region_used(const struct nicprog_nic *nic, u32 region)
{
	return nicprog_region_used(nic, region, NULL, NULL);
}
EXPORT_SYMBOL_NS_GPL(nicprog_alloc_region_used, NICPROG_INTERNAL);

/**
 * nicprog_alloc_region_free() - the bytes of a region a plan of a port may
 *	fill
 * @nd: the port
 * @region: the LNIC region
 *
 * Context: RTNL held.
 * Return: the region's size (of each instance of an island's region)
 * less what other ports' plans' tables and the host's buffers take.
 */
u64 nicprog_alloc_region_free(const struct nicprog_dev *nd, u32 region)
{
	const struct nicprog_lnic *lnic = nd->nic->lnic;
	u64 used;

	ASSERT_RTNL();
	if (region >= lnic->n_regions)
		return 0;
	used = nicprog_region_used(nd->nic, region, nd, NULL);
	return lnic->regions[region].size > used ?
	       lnic->regions[region].size - used : 0;
}

static u32 nicprog_alloc_need(const struct nicprog_plan *plan, u32 pool)
{
	if (pool == NICPROG_POOL_CORES)
		return nicprog_plan_cores(plan);
	if (pool == NICPROG_POOL_MAT)
		return nicprog_plan_units(plan, NICPROG_UNIT_MAT, 0);
	return nicprog_plan_units(plan, NICPROG_UNIT_ACCEL,
				  pool - NICPROG_POOL_ACCEL);
}

/**
 * nicprog_alloc_find() - find a plan's units on its port's NIC
 * @nd: the port
 * @plan: the plan, made for what was free (nicprog_alloc_free()); its
 *	runs are set here
 * @extack: where a refusal says why
 *
 * Context: RTNL held, which keeps other ports' runs as they were when the
 * plan was made.
 * Return: 0, or -ENOSPC when another port's plan holds what it needs.
 */
int nicprog_alloc_find(const struct nicprog_dev *nd, struct nicprog_plan *plan,
		       struct netlink_ext_ack *extack)
{
	u32 p, r, need, longest;
	s64 base;

	ASSERT_RTNL();
	for (p = 0; p < NICPROG_POOLS; p++) {
		need = nicprog_alloc_need(plan, p);
		plan->runs[p] = (struct nicprog_run){ 0, 0 };
		if (!need)
			continue;
		base = nicprog_alloc_fit(nd->nic, nd, p, need, &longest);
		if (base < 0 && p == NICPROG_POOL_CORES) {
			NL_SET_ERR_MSG_MOD(extack,
					   "the plan needs more cores than the NIC has free of other ports' programs and lookaside kernels");
			return -ENOSPC;
		}
		if (base < 0) {
			NL_SET_ERR_MSG_MOD(extack,
					   "the plan needs more engines or MAT stages than the NIC has free of other ports' programs");
			return -ENOSPC;
		}
		plan->runs[p] = (struct nicprog_run){ base, need };
	}
	/* a table other ports' plans hold already takes no more room */
	for (r = 0; r < nd->nic->lnic->n_regions; r++)
		if (nicprog_region_used(nd->nic, r, nd, plan) >
		    nd->nic->lnic->regions[r].size) {
			NL_SET_ERR_MSG_MOD(extack,
					   "the plan's tables need more of a memory region than the NIC has free of other ports' programs and host buffers");
			return -ENOSPC;
		}
	return 0;
}

/**
 * nicprog_alloc_hold() - a port's plan holds its units, and no others
 * @nd: the port
 * @plan: its installed plan, or NULL for none
 *
 * Context: RTNL held.
 */
void nicprog_alloc_hold(struct nicprog_dev *nd, const struct nicprog_plan *plan)
{
	u32 c;

	ASSERT_RTNL();
	mutex_lock(&nd->nic->lock);
	memset(nd->runs, 0, sizeof(nd->runs));
	memset(nd->core_stage, 0, sizeof(nd->core_stage));
	nd->n_held = 0;
	nd->n_stages = 0;
	if (plan) {
		memcpy(nd->runs, plan->runs, sizeof(nd->runs));
		memcpy(nd->held, plan->held, sizeof(nd->held));
		nd->n_held = plan->n_held;
		nd->n_stages = nicprog_plan_stages(plan);
		for (c = 0;
		     c < nicprog_plan_cores(plan) && c < NICPROG_MAX_CORES;
		     c++)
			nd->core_stage[c] = nicprog_plan_core_stage(plan, c);
	}
	mutex_unlock(&nd->nic->lock);
}
