// SPDX-License-Identifier: GPL-2.0
/*
 * nicsim's side of BPF offload: ndo_bpf goes to the nicprog core, which
 * verifies, plans and calls back here to install plans on the NIC.
 */
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>

#include "nicsim.h"

int nicsim_port_ndo_bpf(struct net_device *dev, struct netdev_bpf *bpf)
{
	struct nicsim_port *port = netdev_priv(dev);

	return nicprog_ndo_bpf(port->np, bpf);
}

/*
 * Publish the plan to the receive path and the cores; once a grace period
 * has passed no core runs the old plan, and once its jobs are purged none
 * will, so the core may release it.
 */
int nicsim_plan_load(struct nicprog_dev *nd, const struct nicprog_plan *plan,
		     struct netlink_ext_ack *extack)
{
	struct nicsim_port *port = netdev_priv(nicprog_dev_netdev(nd));
	const struct nicprog_plan *old = rtnl_dereference(port->plan);

	if (nicprog_plan_cores(plan) > port->ndev->n_cores) {
		NL_SET_ERR_MSG_MOD(extack,
				   "plan needs more cores than the NIC runs");
		return -ENOSPC;
	}
	rcu_assign_pointer(port->plan, plan);
	if (old) {
		synchronize_net();
		nicsim_cores_purge(port);
	}
	return 0;
}

void nicsim_plan_unload(struct nicprog_dev *nd)
{
	struct nicsim_port *port = netdev_priv(nicprog_dev_netdev(nd));

	RCU_INIT_POINTER(port->plan, NULL);
	synchronize_net();
	nicsim_cores_purge(port);
}
