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
 * Co-resident programs: the nicprog core gives each port's plan a run of
 * the NIC's cores of its own, and a run of the engines of each kind and
 * of the MAT stages of its own, so that programs on one NIC split its
 * units rather than contend for them. The timing model sends the jobs of
 * the plan's cores to its units. RTNL held.
 */
static void nicsim_plan_slice(struct nicsim_port *port,
			      const struct nicsim_plan_ref *ref)
{
	struct nicsim_dev *ndev = port->ndev;
	u32 p, c, n = nicprog_plan_cores(ref->plan);

	spin_lock_bh(&ndev->tm_lock);
	for (c = ref->base; ndev->tm && c < ref->base + n; c++)
		for (p = 0; p < NICSIM_TM_POOLS; p++)
			nicsim_tm_slice(ndev->tm, c, p, ref->unit_base[p],
					ref->units[p]);
	spin_unlock_bh(&ndev->tm_lock);
}

/* The plan's run of pool @p (an accelerator type, or the MAT stages). */
static void nicsim_plan_ref_pool(struct nicsim_plan_ref *ref, u32 p)
{
	u8 type = p == NICSIM_TM_POOL_MAT ? NICPROG_UNIT_MAT :
					    NICPROG_UNIT_ACCEL;

	ref->unit_base[p] = nicprog_plan_unit_base(ref->plan, type, p);
	ref->units[p] = nicprog_plan_units(ref->plan, type, p);
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
	struct nicsim_port *port = nicprog_dev_priv(nd);
	struct nicsim_plan_ref *old = rtnl_dereference(port->ref), *ref;
	u32 p;

	ref = kzalloc(sizeof(*ref), GFP_KERNEL);
	if (!ref)
		return -ENOMEM;
	ref->plan = plan;
	ref->translated = nicprog_plan_stage_image(plan, 0);
	ref->base = nicprog_plan_core_base(plan);
	for (p = 0; p < NICSIM_TM_POOLS; p++)
		nicsim_plan_ref_pool(ref, p);
	if (nicprog_plan_partial(plan)) {
		ref->host = nicprog_host_alloc(NICSIM_FRAME_SZ);
		if (!ref->host) {
			kfree(ref);
			return -ENOMEM;
		}
	}
	/* the core gave the plan cores and units no other plan holds */
	nicsim_plan_slice(port, ref);
	rcu_assign_pointer(port->ref, ref);
	if (old) {
		synchronize_net();
		nicsim_cores_purge(port);
		nicsim_plan_ref_free(old);
	}
	return 0;
}

void nicsim_plan_unload(struct nicprog_dev *nd)
{
	struct nicsim_port *port = nicprog_dev_priv(nd);
	struct nicsim_plan_ref *old = rtnl_dereference(port->ref);

	RCU_INIT_POINTER(port->ref, NULL);
	synchronize_net();
	nicsim_cores_purge(port);
	nicsim_plan_ref_free(old);
}
