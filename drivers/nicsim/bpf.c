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
 * own, so that two programs on one NIC split its cores rather than
 * contend for them (they still share memory and engines).
 */

/* Whether core @i is free for @port: held by no other port's plan. */
static bool nicsim_core_free_for(const struct nicsim_port *port, u32 i)
{
	const struct nicsim_port *p = port->ndev->core_port[i];

	return !p || p == port;
}

/* The first core of @need in a row free for @port, or -1. RTNL held. */
static int nicsim_cores_find(const struct nicsim_port *port, u32 need)
{
	u32 b, i;

	for (b = 0; b + need <= port->ndev->n_cores; b++) {
		for (i = 0; i < need && nicsim_core_free_for(port, b + i); i++)
			;
		if (i == need)
			return b;
	}
	return -1;
}

/* @port's plan holds cores @base up to @base + @n, and no others. */
static void nicsim_cores_hold(struct nicsim_port *port, u32 base, u32 n)
{
	struct nicsim_dev *ndev = port->ndev;
	u32 i;

	for (i = 0; i < ndev->n_cores; i++) {
		if (ndev->core_port[i] == port)
			ndev->core_port[i] = NULL;
		if (i >= base && i < base + n)
			ndev->core_port[i] = port;
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
	u32 i, run = 0, best = 0;

	for (i = 0; i < port->ndev->n_cores; i++) {
		run = nicsim_core_free_for(port, i) ? run + 1 : 0;
		best = max(best, run);
	}
	return best;
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
	u32 need = nicprog_plan_cores(plan);
	int base = nicsim_cores_find(port, need);

	if (base < 0) {
		NL_SET_ERR_MSG_MOD(extack,
				   "the plan needs more cores than the NIC has free of other ports' programs");
		return -ENOSPC;
	}
	ref = kzalloc(sizeof(*ref), GFP_KERNEL);
	if (!ref)
		return -ENOMEM;
	ref->plan = plan;
	ref->base = base;
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
	nicsim_cores_hold(port, base, need);
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
	nicsim_cores_hold(port, 0, 0);
}
