// SPDX-License-Identifier: GPL-2.0
/*
 * nicsim's side of BPF offload: ndo_bpf goes to the nicprog core, which
 * verifies, plans and calls back here to install plans on the NIC; native
 * XDP stays with the driver (xdp.c).
 */
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>

#include "nicsim.h"

int nicsim_port_ndo_bpf(struct net_device *dev, struct netdev_bpf *bpf)
{
	struct nicsim_port *port = netdev_priv(dev);

	/* native XDP is the driver's; the rest is offload, nicprog's */
	if (bpf->command == XDP_SETUP_PROG)
		return nicsim_xdp_setup(port, bpf);
	return nicprog_ndo_bpf(port->np, bpf);
}

/*
 * Co-resident programs: each port's plan runs on a run of cores of its
 * own, and its jobs go to a run of engines of each kind and of MAT stages
 * of its own, so that programs on one NIC split its units rather than
 * contend for them, and each runs as its plan was predicted (they still
 * share memory). A unit's owner is the port whose plan holds it; runs
 * are found first fit, as a port's own units count as free for it.
 */

/* The longest run of @owner's @n entries free for @port. */
static u32 nicsim_run_free(struct nicsim_port *const *owner, u32 n,
			   const struct nicsim_port *port)
{
	u32 i, run = 0, best = 0;

	for (i = 0; i < n; i++) {
		run = !owner[i] || owner[i] == port ? run + 1 : 0;
		best = max(best, run);
	}
	return best;
}

/* The first of @need entries of @owner in a row free for @port, or -1. */
static int nicsim_run_find(struct nicsim_port *const *owner, u32 n,
			   const struct nicsim_port *port, u32 need)
{
	u32 b, i;

	for (b = 0; b + need <= n; b++) {
		for (i = 0; i < need && (!owner[b + i] ||
					 owner[b + i] == port); i++)
			;
		if (i == need)
			return b;
	}
	return -1;
}

/* @port holds entries @base up to @base + @need of @owner, no others. */
static void nicsim_run_hold(struct nicsim_port **owner, u32 n,
			    struct nicsim_port *port, u32 base, u32 need)
{
	u32 i;

	for (i = 0; i < n; i++) {
		if (owner[i] == port)
			owner[i] = NULL;
		if (i >= base && i < base + need)
			owner[i] = port;
	}
}

/**
 * nicsim_plan_cores_free() - the most cores a plan of a port may run on
 * @nd: the port
 *
 * Context: RTNL held.
 * Return: the longest run of cores no other port's plan holds.
 */
u32 nicsim_plan_cores_free(struct nicprog_dev *nd)
{
	struct nicsim_port *port = netdev_priv(nicprog_dev_netdev(nd));

	return nicsim_run_free(port->ndev->core_port, port->ndev->n_cores,
			       port);
}

/* The pool of units of @type and @accel, or NICSIM_TM_POOLS for none. */
static u32 nicsim_pool(u8 type, u8 accel)
{
	if (type == NICPROG_UNIT_MAT)
		return NICSIM_TM_POOL_MAT;
	if (type == NICPROG_UNIT_ACCEL && accel < __NICPROG_ACCEL_MAX)
		return accel;
	return NICSIM_TM_POOLS;
}

/**
 * nicsim_plan_units_free() - the most units of a pool a plan of a port
 *	may use
 * @nd: the port
 * @type: NICPROG_UNIT_MAT or NICPROG_UNIT_ACCEL
 * @accel: for accelerators, enum nicprog_accel_type
 *
 * Context: RTNL held.
 * Return: the longest run of the pool's units no other port's plan holds.
 */
u32 nicsim_plan_units_free(struct nicprog_dev *nd, u8 type, u8 accel)
{
	struct nicsim_port *port = netdev_priv(nicprog_dev_netdev(nd));
	u32 p = nicsim_pool(type, accel);

	if (p == NICSIM_TM_POOLS)
		return 0;
	return nicsim_run_free(port->ndev->unit_port[p],
			       nicsim_tm_pool_size(port->ndev->lnic, p), port);
}

/**
 * nicsim_plan_region_free() - the bytes of a region a plan of a port may
 *	fill
 * @nd: the port
 * @region: the LNIC region
 *
 * Context: RTNL held.
 * Return: the region's size less what other ports' plans' tables take.
 */
u64 nicsim_plan_region_free(struct nicprog_dev *nd, u32 region)
{
	struct nicsim_port *port = netdev_priv(nicprog_dev_netdev(nd));
	struct nicsim_dev *ndev = port->ndev;
	const struct nicsim_plan_ref *ref;
	u64 size, used = 0;
	u32 i;

	if (region >= ndev->lnic->n_regions)
		return 0;
	size = ndev->lnic->regions[region].size;
	for (i = 0; i < ndev->port_count; i++) {
		ref = rtnl_dereference(ndev->ports[i]->ref);
		if (ndev->ports[i] != port && ref)
			used += nicprog_plan_region_bytes(ref->plan, region);
	}
	return size > used ? size - used : 0;
}

/*
 * @ref's slice of every pool its plan uses: runs of units free for
 * @port. RTNL held. Return: 0, or -ENOSPC.
 */
static int nicsim_units_find(const struct nicsim_port *port,
			     struct nicsim_plan_ref *ref)
{
	struct nicsim_dev *ndev = port->ndev;
	u32 p, need;
	int base;

	for (p = 0; p < NICSIM_TM_POOLS; p++) {
		need = p == NICSIM_TM_POOL_MAT ?
		       nicprog_plan_units(ref->plan, NICPROG_UNIT_MAT, 0) :
		       nicprog_plan_units(ref->plan, NICPROG_UNIT_ACCEL, p);
		if (!need)
			continue;
		base = nicsim_run_find(ndev->unit_port[p],
				       nicsim_tm_pool_size(ndev->lnic, p),
				       port, need);
		if (base < 0)
			return -ENOSPC;
		ref->unit_base[p] = base;
		ref->units[p] = need;
	}
	return 0;
}

/*
 * @port's plan @ref (NULL: none) holds its cores and units, and no
 * others; the timing model sends the jobs of its cores to its units.
 * RTNL held.
 */
static void nicsim_plan_hold(struct nicsim_port *port,
			     const struct nicsim_plan_ref *ref)
{
	struct nicsim_dev *ndev = port->ndev;
	u32 p, c, n = ref ? nicprog_plan_cores(ref->plan) : 0;

	nicsim_run_hold(ndev->core_port, ndev->n_cores, port,
			ref ? ref->base : 0, n);
	for (p = 0; p < NICSIM_TM_POOLS; p++)
		nicsim_run_hold(ndev->unit_port[p],
				nicsim_tm_pool_size(ndev->lnic, p), port,
				ref ? ref->unit_base[p] : 0,
				ref ? ref->units[p] : 0);
	if (!ref)
		return;
	spin_lock_bh(&ndev->tm_lock);
	for (c = ref->base; ndev->tm && c < ref->base + n; c++)
		for (p = 0; p < NICSIM_TM_POOLS; p++)
			nicsim_tm_slice(ndev->tm, c, p, ref->unit_base[p],
					ref->units[p]);
	spin_unlock_bh(&ndev->tm_lock);
}

/*
 * Handovers of the plan still in the receive queue hold @ref only to
 * compare it: the NAPI poll drops them once @ref is not installed.
 */
static void nicsim_plan_ref_free(struct nicsim_plan_ref *ref)
{
	if (!ref)
		return;
	nicprog_host_free(ref->host);
	kfree(ref);
}

/*
 * Publish the plan to the receive path and the cores; once a grace period
 * has passed no core runs the old plan, and once its jobs are purged none
 * will, so the core may release it and its cores go to the new one.
 */
int nicsim_plan_load(struct nicprog_dev *nd, const struct nicprog_plan *plan,
		     struct netlink_ext_ack *extack)
{
	struct nicsim_port *port = netdev_priv(nicprog_dev_netdev(nd));
	struct nicsim_plan_ref *old = rtnl_dereference(port->ref), *ref;
	u32 need = nicprog_plan_cores(plan), r;
	int base = nicsim_run_find(port->ndev->core_port, port->ndev->n_cores,
				   port, need);

	if (base < 0) {
		NL_SET_ERR_MSG_MOD(extack,
				   "the plan needs more cores than the NIC has free of other ports' programs");
		return -ENOSPC;
	}
	/* planned for what was free; nothing has changed under RTNL since */
	for (r = 0; r < port->ndev->lnic->n_regions; r++)
		if (nicprog_plan_region_bytes(plan, r) >
		    nicsim_plan_region_free(nd, r)) {
			NL_SET_ERR_MSG_MOD(extack,
					   "the plan's tables need more of a memory region than the NIC has free of other ports' programs");
			return -ENOSPC;
		}
	ref = kzalloc(sizeof(*ref), GFP_KERNEL);
	if (!ref)
		return -ENOMEM;
	ref->plan = plan;
	ref->base = base;
	if (nicsim_units_find(port, ref)) {
		NL_SET_ERR_MSG_MOD(extack,
				   "the plan needs more engines or MAT stages than the NIC has free of other ports' programs");
		kfree(ref);
		return -ENOSPC;
	}
	if (nicprog_plan_partial(plan)) {
		ref->host = nicprog_host_alloc(NICSIM_FRAME_SZ);
		if (!ref->host) {
			kfree(ref);
			return -ENOMEM;
		}
	}
	rcu_assign_pointer(port->ref, ref);
	if (old) {
		synchronize_net();
		nicsim_cores_purge(port);
		nicsim_plan_ref_free(old);
	}
	nicsim_plan_hold(port, ref);
	return 0;
}

void nicsim_plan_unload(struct nicprog_dev *nd)
{
	struct nicsim_port *port = netdev_priv(nicprog_dev_netdev(nd));
	struct nicsim_plan_ref *old = rtnl_dereference(port->ref);

	RCU_INIT_POINTER(port->ref, NULL);
	synchronize_net();
	nicsim_cores_purge(port);
	nicsim_plan_ref_free(old);
	nicsim_plan_hold(port, NULL);
}
