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

static const struct nicsim_wire_params nicsim_wire_none;

/**
 * nicsim_link() - wire two ports together
 * @a: one port
 * @b: the other
 * @p: what the wire does, both ways (wire.c): @a sends with @p->seed,
 *	@b with @p->seed + 1
 *
 * Context: RTNL and nicsim_devs_lock held.
 * Return: 0, -EINVAL if @a is @b, -EBUSY if either is already linked.
 */
int nicsim_link(struct nicsim_port *a, struct nicsim_port *b,
		const struct nicsim_wire_params *p)
{
	ASSERT_RTNL();
	if (a == b)
		return -EINVAL;
	if (rtnl_dereference(a->peer) || rtnl_dereference(b->peer))
		return -EBUSY;
	/* before the peers: a transmit that sees one sees its wire */
	nicsim_wire_set(&a->wire, p, p->seed);
	nicsim_wire_set(&b->wire, p, p->seed + 1);
	rcu_assign_pointer(a->peer, b);
	rcu_assign_pointer(b->peer, a);
	nicsim_link_update_carrier(a);
	return 0;
}

/**
 * nicsim_unlink() - cut a port's wire
 * @port: either end
 *
 * Frames on a shaped wire are lost; one an unshaped wire is handing over
 * right now may still arrive at the former peer.
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
	nicsim_wire_stop(&port->wire);
	nicsim_wire_stop(&peer->wire);
	nicsim_wire_set(&port->wire, &nicsim_wire_none, 0);
	nicsim_wire_set(&peer->wire, &nicsim_wire_none, 0);
	return 0;
}
