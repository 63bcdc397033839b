// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated wire between two ports. A link is symmetric: each port's
 * peer pointer names the other. Carrier follows veth's rule: both ends have
 * carrier when linked and both are administratively up.
 *
 * Peer pointers are written under RTNL (with nicsim_devs_lock held too, so
 * the peer cannot be destroyed meanwhile) and read under RCU by transmit.
 */
#include <linux/rtnetlink.h>

#include "nicsim.h"

static void nicsim_set_carrier(struct net_device *dev, bool on)
{
	if (on)
		netif_carrier_on(dev);
	else
		netif_carrier_off(dev);
}

/**
 * nicsim_link_update_carrier() - recompute carrier on both ends of a wire
 * @port: either end
 *
 * Context: RTNL held.
 */
void nicsim_link_update_carrier(struct nicsim_port *port)
{
	struct nicsim_port *peer = rtnl_dereference(port->peer);
	bool up;

	if (!peer) {
		netif_carrier_off(port->netdev);
		return;
	}
	up = netif_running(port->netdev) && netif_running(peer->netdev);
	nicsim_set_carrier(port->netdev, up);
	nicsim_set_carrier(peer->netdev, up);
}

/**
 * nicsim_link() - wire two ports together
 * @a: one port
 * @b: the other
 *
 * Context: RTNL and nicsim_devs_lock held.
 * Return: 0, -EINVAL if @a is @b, -EBUSY if either is already linked.
 */
int nicsim_link(struct nicsim_port *a, struct nicsim_port *b)
{
	ASSERT_RTNL();
	if (a == b)
		return -EINVAL;
	if (rtnl_dereference(a->peer) || rtnl_dereference(b->peer))
		return -EBUSY;
	rcu_assign_pointer(a->peer, b);
	rcu_assign_pointer(b->peer, a);
	nicsim_link_update_carrier(a);
	return 0;
}

/**
 * nicsim_unlink() - cut a port's wire
 * @port: either end
 *
 * Frames already in flight may still arrive at the former peer.
 *
 * Context: RTNL and nicsim_devs_lock held.
 * Return: 0, or -ENOTCONN if @port is not linked.
 */
int nicsim_unlink(struct nicsim_port *port)
{
	struct nicsim_port *peer = rtnl_dereference(port->peer);

	if (!peer)
		return -ENOTCONN;
	RCU_INIT_POINTER(port->peer, NULL);
	RCU_INIT_POINTER(peer->peer, NULL);
	netif_carrier_off(port->netdev);
	netif_carrier_off(peer->netdev);
	return 0;
}
