// SPDX-License-Identifier: GPL-2.0
/*
 * nicrisc's ports: a netdev each, a wire from port 2k to port 2k + 1, and
 * a core per port, the port's NAPI poll, which runs the installed plan's
 * translation on every frame the wire brings: the verdict decides
 * whether the frame goes to the host (PASS), back out of the port (TX),
 * out of a sibling port (REDIRECT) or nowhere.
 *
 * The wire and the datapath find ports through the device's port table
 * under RCU; a port leaves it, and a grace period passes, before it is
 * unregistered, so no frame is ever queued to a port that is going.
 */
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/if_vlan.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/nicprog_compat.h>
#include <net/xdp.h>
#include <trace/events/xdp.h>

#include "nicrisc.h"

static const char nicrisc_stat_names[NICRISC_N_STATS][ETH_GSTRING_LEN] = {
	[NICRISC_WIRE_RX_PACKETS]	= "wire_rx_packets",
	[NICRISC_WIRE_RX_BYTES]		= "wire_rx_bytes",
	[NICRISC_WIRE_TX_PACKETS]	= "wire_tx_packets",
	[NICRISC_WIRE_TX_BYTES]		= "wire_tx_bytes",
	[NICRISC_HOST_RX_PACKETS]	= "host_rx_packets",
	[NICRISC_HOST_RX_BYTES]		= "host_rx_bytes",
	[NICRISC_HOST_TX_PACKETS]	= "host_tx_packets",
	[NICRISC_HOST_TX_BYTES]		= "host_tx_bytes",
	[NICRISC_RX_FIFO_ERRORS]	= "rx_fifo_errors",
	[NICRISC_RX_LENGTH_ERRORS]	= "rx_length_errors",
	[NICRISC_TX_DROPPED]		= "tx_dropped",
	[NICRISC_XDP_DROP]		= "xdp_drop",
	[NICRISC_XDP_PASS]		= "xdp_pass",
	[NICRISC_XDP_TX]		= "xdp_tx",
	[NICRISC_XDP_REDIRECT]		= "xdp_redirect",
	[NICRISC_XDP_ABORTED]		= "xdp_aborted",
	[NICRISC_XDP_REDIRECT_ERR]	= "xdp_redirect_err",
	[NICRISC_CORE_INSNS]		= "core_insns",
};

static void nicrisc_frame_count(struct nicrisc_port *port,
				enum nicrisc_stat packets, u32 len)
{
	nicrisc_stat_add(port, packets, 1);
	nicrisc_stat_add(port, packets + 1, len);
}

static struct nicrisc_port *nicrisc_port_rcu(struct nicrisc_dev *ndev, u32 i)
{
	return i < NICRISC_MAX_PORTS ? rcu_dereference(ndev->ports[i]) : NULL;
}

/*
 * The NIC takes a frame from the wire: too long for the port's MTU (a
 * VLAN tag's 4 bytes more when it carries one), it counts and drops it,
 * as a NIC's receive length check does. RCU held, BH disabled.
 */
static void nicrisc_wire_rx(struct nicrisc_port *port, struct sk_buff *skb)
{
	struct net_device *dev = port->netdev;
	u32 max = dev->mtu + ETH_HLEN;
	bool queued = false;

	nicrisc_frame_count(port, NICRISC_WIRE_RX_PACKETS, skb->len);
	if (skb->len >= ETH_HLEN && eth_type_vlan(eth_hdr(skb)->h_proto))
		max += VLAN_HLEN;
	if (skb->len > max) {
		nicrisc_stat_add(port, NICRISC_RX_LENGTH_ERRORS, 1);
		kfree_skb(skb);
		return;
	}
	skb->dev = dev;
	spin_lock(&port->rxq.lock);
	if (netif_running(dev) && skb_queue_len(&port->rxq) < NICRISC_RXQ_LEN) {
		__skb_queue_tail(&port->rxq, skb);
		queued = true;
	}
	spin_unlock(&port->rxq.lock);
	if (!queued) {
		nicrisc_stat_add(port, NICRISC_RX_FIFO_ERRORS, 1);
		kfree_skb(skb);
		return;
	}
	napi_schedule(&port->napi);
}

/*
 * Put @skb on @port's wire: it arrives at the peer's receive queue, or
 * is lost when the port has no peer. RCU held, BH disabled.
 */
static void nicrisc_wire_tx(struct nicrisc_port *port, struct sk_buff *skb)
{
	struct nicrisc_port *peer = nicrisc_port_rcu(port->ndev,
						     port->index ^ 1);

	if (!peer) {
		nicrisc_stat_add(port, NICRISC_TX_DROPPED, 1);
		kfree_skb(skb);
		return;
	}
	nicrisc_frame_count(port, NICRISC_WIRE_TX_PACKETS, skb->len);
	skb_scrub_packet(skb, !net_eq(dev_net(port->netdev),
				      dev_net(peer->netdev)));
	skb_reset_mac_header(skb);
	nicrisc_wire_rx(peer, skb);
}

static netdev_tx_t nicrisc_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct nicrisc_port *port = netdev_priv(dev);

	/* the wire queues the skb: a shared one travels as its own clone */
	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb) {
		nicrisc_stat_add(port, NICRISC_TX_DROPPED, 1);
		return NETDEV_TX_OK;
	}
	nicrisc_frame_count(port, NICRISC_HOST_TX_PACKETS, skb->len);
	rcu_read_lock();
	nicrisc_wire_tx(port, skb);
	rcu_read_unlock();
	return NETDEV_TX_OK;
}

/* A frame to the host stack, with the metadata the program left. */
static void nicrisc_host_rx(struct nicrisc_port *port, struct sk_buff *skb,
			    u32 metalen)
{
	nicrisc_frame_count(port, NICRISC_HOST_RX_PACKETS, skb->len);
	skb->protocol = eth_type_trans(skb, port->netdev);
	if (metalen)
		skb_metadata_set(skb, metalen);
	netif_receive_skb(skb);
}

/* The core's output frame: @pkt's bytes from @from on, in a new skb. */
static struct sk_buff *nicrisc_frame_out(struct nicrisc_port *port,
					 const struct nicprog_exec_pkt *pkt,
					 u32 from)
{
	struct sk_buff *skb;

	skb = napi_alloc_skb(&port->napi, pkt->data_end - from);
	if (!skb) {
		nicrisc_stat_add(port, NICRISC_RX_FIFO_ERRORS, 1);
		return NULL;
	}
	skb_put_data(skb, pkt->buf + from, pkt->data_end - from);
	__skb_pull(skb, pkt->data - from);
	return skb;
}

/* A verdict the program may not give: traced as the host traces it. */
static void nicrisc_exception(struct nicrisc_port *port,
			      const struct nicprog_plan *plan, u32 act)
{
	struct bpf_prog *prog = nicprog_plan_prog(plan);

	if (act > XDP_REDIRECT)
		bpf_warn_invalid_xdp_action(port->netdev, prog, act);
	trace_xdp_exception(port->netdev, prog, act);
	nicrisc_stat_add(port, NICRISC_XDP_ABORTED, 1);
}

/*
 * REDIRECT: out of the sibling port @ifindex names in the receiving
 * port's namespace, as the host resolves it, if the NIC has it.
 */
static void nicrisc_redirect(struct nicrisc_port *port,
			     const struct nicprog_exec_pkt *pkt, u32 ifindex)
{
	struct net *net = dev_net(port->netdev);
	struct nicrisc_port *out = NULL;
	struct sk_buff *skb;
	u32 i;

	for (i = 0; i < NICRISC_MAX_PORTS && !out; i++) {
		out = nicrisc_port_rcu(port->ndev, i);
		if (out && (out->netdev->ifindex != ifindex ||
			    !net_eq(dev_net(out->netdev), net)))
			out = NULL;
	}
	if (!out) {
		nicrisc_stat_add(port, NICRISC_XDP_REDIRECT_ERR, 1);
		return;
	}
	nicrisc_stat_add(port, NICRISC_XDP_REDIRECT, 1);
	skb = nicrisc_frame_out(port, pkt, pkt->data);
	if (skb)
		nicrisc_wire_tx(out, skb);
}

/*
 * The port's core runs the plan on a frame from the wire: copied into the
 * core's frame buffer at XDP's headroom, as the NIC's DMA places it; the
 * output, if any, is copied out of it. RCU held, BH disabled.
 */
static void nicrisc_core_rx(struct nicrisc_port *port,
			    const struct nicprog_plan *plan, struct sk_buff *skb)
{
	struct nicprog_exec_pkt pkt = {
		.buf = port->frame, .buf_len = NICRISC_FRAME_SZ,
		.head_reserved = NICRISC_HEAD_RESERVED,
		.tail_reserved = NICRISC_TAILROOM,
		.data_meta = XDP_PACKET_HEADROOM, .data = XDP_PACKET_HEADROOM,
		.data_end = XDP_PACKET_HEADROOM + skb->len,
		.ingress_ifindex = port->netdev->ifindex,
		.mtu = READ_ONCE(port->netdev->mtu),
	};
	u32 act, redirect = 0;
	u64 insns;

	/* as the host's test runs: what a head adjustment uncovers is 0 */
	memset(pkt.buf, 0, XDP_PACKET_HEADROOM);
	skb_copy_bits(skb, 0, pkt.buf + pkt.data, skb->len);
	consume_skb(skb);
	act = nicrisc_core_run(nicprog_plan_stage_image(plan, 0), &pkt,
			       &redirect, port->stack, &insns);
	nicrisc_stat_add(port, NICRISC_CORE_INSNS, insns);
	switch (act) {
	case XDP_DROP:
		nicrisc_stat_add(port, NICRISC_XDP_DROP, 1);
		return;
	case XDP_PASS:
		nicrisc_stat_add(port, NICRISC_XDP_PASS, 1);
		skb = nicrisc_frame_out(port, &pkt, pkt.data_meta);
		if (skb)
			nicrisc_host_rx(port, skb, pkt.data - pkt.data_meta);
		return;
	case XDP_TX:
		nicrisc_stat_add(port, NICRISC_XDP_TX, 1);
		skb = nicrisc_frame_out(port, &pkt, pkt.data);
		if (skb)
			nicrisc_wire_tx(port, skb);
		return;
	case XDP_REDIRECT:
		nicrisc_redirect(port, &pkt, redirect);
		return;
	default:
		nicrisc_exception(port, plan, act);
	}
}

/*
 * The port's core: a batch of at most @budget frames off the wire queue
 * under one lock, then each run through the plan installed when the
 * batch began (a replacement waits for the poll's grace period).
 */
static int nicrisc_poll(struct napi_struct *napi, int budget)
{
	struct nicrisc_port *port = container_of(napi, struct nicrisc_port,
						 napi);
	const struct nicprog_plan *plan;
	struct sk_buff_head batch;
	struct sk_buff *skb;
	int done;

	__skb_queue_head_init(&batch);
	spin_lock(&port->rxq.lock);
	while (skb_queue_len(&batch) < budget &&
	       (skb = __skb_dequeue(&port->rxq)))
		__skb_queue_tail(&batch, skb);
	spin_unlock(&port->rxq.lock);
	done = skb_queue_len(&batch);

	rcu_read_lock();
	plan = rcu_dereference(port->plan);
	while ((skb = __skb_dequeue(&batch))) {
		if (plan)
			nicrisc_core_rx(port, plan, skb);
		else
			nicrisc_host_rx(port, skb, 0);
	}
	rcu_read_unlock();
	if (done < budget)
		napi_complete_done(napi, done);
	return done;
}

/*
 * The link is up while both ends of the wire run: a port and its peer
 * follow each other. RTNL held (open, stop, a port's removal).
 */
static void nicrisc_carrier_update(struct nicrisc_port *port)
{
	struct nicrisc_port *peer;

	peer = rtnl_dereference(port->ndev->ports[port->index ^ 1]);
	if (peer && netif_running(port->netdev) &&
	    netif_running(peer->netdev)) {
		netif_carrier_on(port->netdev);
		netif_carrier_on(peer->netdev);
		return;
	}
	netif_carrier_off(port->netdev);
	if (peer)
		netif_carrier_off(peer->netdev);
}

static int nicrisc_open(struct net_device *dev)
{
	struct nicrisc_port *port = netdev_priv(dev);

	napi_enable(&port->napi);
	netif_start_queue(dev);
	nicrisc_carrier_update(port);
	return 0;
}

/*
 * The wire queues nothing for a port that is not running: what it
 * queued before is purged once the core stopped, then the link drops.
 */
static int nicrisc_stop(struct net_device *dev)
{
	struct nicrisc_port *port = netdev_priv(dev);

	netif_stop_queue(dev);
	napi_disable(&port->napi);
	skb_queue_purge(&port->rxq);
	nicrisc_carrier_update(port);
	return 0;
}

static void nicrisc_get_stats64(struct net_device *dev,
				struct rtnl_link_stats64 *s)
{
	struct nicrisc_port *port = netdev_priv(dev);

	s->rx_packets = nicrisc_stat(port, NICRISC_HOST_RX_PACKETS);
	s->rx_bytes = nicrisc_stat(port, NICRISC_HOST_RX_BYTES);
	s->tx_packets = nicrisc_stat(port, NICRISC_HOST_TX_PACKETS);
	s->tx_bytes = nicrisc_stat(port, NICRISC_HOST_TX_BYTES);
	s->rx_length_errors = nicrisc_stat(port, NICRISC_RX_LENGTH_ERRORS);
	s->rx_fifo_errors = nicrisc_stat(port, NICRISC_RX_FIFO_ERRORS);
	s->rx_errors = s->rx_length_errors + s->rx_fifo_errors;
	s->tx_dropped = nicrisc_stat(port, NICRISC_TX_DROPPED);
}

/* native XDP is not nicrisc's: every BPF command is offload, nicprog's */
static int nicrisc_ndo_bpf(struct net_device *dev, struct netdev_bpf *bpf)
{
	struct nicrisc_port *port = netdev_priv(dev);

	return nicprog_ndo_bpf(port->np, bpf);
}

#if NICPROG_HAVE_NDO_GET_DEVLINK_PORT
/* 6.1 asks the driver; later kernels keep what the port set up */
static struct devlink_port *nicrisc_get_devlink_port(struct net_device *dev)
{
	return &((struct nicrisc_port *)netdev_priv(dev))->dl_port;
}
#endif

/* in the order struct net_device_ops declares them */
static const struct net_device_ops nicrisc_netdev_ops = {
	.ndo_open		= nicrisc_open,
	.ndo_stop		= nicrisc_stop,
	.ndo_start_xmit		= nicrisc_xmit,
	.ndo_set_mac_address	= eth_mac_addr,
	.ndo_validate_addr	= eth_validate_addr,
	.ndo_get_stats64	= nicrisc_get_stats64,
	.ndo_bpf		= nicrisc_ndo_bpf,
#if NICPROG_HAVE_NDO_GET_DEVLINK_PORT
	.ndo_get_devlink_port	= nicrisc_get_devlink_port,
#endif
};

static void nicrisc_get_drvinfo(struct net_device *dev,
				struct ethtool_drvinfo *info)
{
	struct nicrisc_port *port = netdev_priv(dev);

	strscpy(info->driver, NICRISC_DRV_NAME, sizeof(info->driver));
	strscpy(info->bus_info, dev_name(&port->ndev->dev),
		sizeof(info->bus_info));
}

static int nicrisc_get_sset_count(struct net_device *dev, int sset)
{
	return sset == ETH_SS_STATS ? NICRISC_N_STATS : -EOPNOTSUPP;
}

static void nicrisc_get_strings(struct net_device *dev, u32 sset, u8 *data)
{
	if (sset == ETH_SS_STATS)
		memcpy(data, nicrisc_stat_names, sizeof(nicrisc_stat_names));
}

static void nicrisc_get_ethtool_stats(struct net_device *dev,
				      struct ethtool_stats *stats, u64 *data)
{
	struct nicrisc_port *port = netdev_priv(dev);
	u32 i;

	for (i = 0; i < NICRISC_N_STATS; i++)
		data[i] = nicrisc_stat(port, i);
}

static const struct ethtool_ops nicrisc_ethtool_ops = {
	.get_drvinfo		= nicrisc_get_drvinfo,
	.get_link		= ethtool_op_get_link,
	.get_sset_count		= nicrisc_get_sset_count,
	.get_strings		= nicrisc_get_strings,
	.get_ethtool_stats	= nicrisc_get_ethtool_stats,
};

static void nicrisc_port_free(struct nicrisc_port *port)
{
	kvfree(port->stack);
	kvfree(port->frame);
	free_netdev(port->netdev);
}

/*
 * A port, registered: its devlink port, its netdev, its nicprog port.
 * Context: process; the device's instance lock held, RTNL not held.
 */
static struct nicrisc_port *nicrisc_port_create(struct nicrisc_dev *ndev,
						u32 index)
{
	struct devlink_port_attrs attrs = {
		.flavour = DEVLINK_PORT_FLAVOUR_PHYSICAL,
		.phys.port_number = index,
	};
	struct nicrisc_port *port;
	struct net_device *netdev;
	char name[IFNAMSIZ];
	int err;

	snprintf(name, sizeof(name), NICRISC_DRV_NAME "%up%u", ndev->id, index);
	netdev = alloc_netdev(sizeof(*port), name, NET_NAME_PREDICTABLE,
			      ether_setup);
	if (!netdev)
		return ERR_PTR(-ENOMEM);
	port = netdev_priv(netdev);
	port->ndev = ndev;
	port->netdev = netdev;
	port->index = index;
	skb_queue_head_init(&port->rxq);
	port->frame = kvzalloc(NICRISC_FRAME_SZ, GFP_KERNEL);
	port->stack = kvzalloc(NICRISC_STACK_SZ, GFP_KERNEL);
	if (!port->frame || !port->stack) {
		nicrisc_port_free(port);
		return ERR_PTR(-ENOMEM);
	}
	eth_hw_addr_random(netdev);
	netdev->netdev_ops = &nicrisc_netdev_ops;
	netdev->ethtool_ops = &nicrisc_ethtool_ops;
	netdev->min_mtu = ETH_MIN_MTU;
	netdev->max_mtu = NICRISC_MAX_MTU;
	netdev->dev_port = index;
	SET_NETDEV_DEV(netdev, &ndev->dev);
	nicprog_xdp_features_set(netdev, true);
	netif_napi_add(netdev, &port->napi, nicrisc_poll);
	netif_carrier_off(netdev);

	devlink_port_attrs_set(&port->dl_port, &attrs);
	err = devl_port_register(ndev->devlink, &port->dl_port, index);
	if (err)
		goto err_free;
	nicprog_netdev_devlink_port_set(netdev, &port->dl_port);
	rtnl_lock();
	port->np = nicprog_register_netdevice(ndev->nic, index, netdev);
	if (IS_ERR(port->np)) {
		rtnl_unlock();
		err = PTR_ERR(port->np);
		goto err_port_unregister;
	}
	rcu_assign_pointer(ndev->ports[index], port);
	rtnl_unlock();
	nicprog_devlink_port_type_eth_set(&port->dl_port, netdev);
	return port;

err_port_unregister:
	devl_port_unregister(&port->dl_port);
err_free:
	nicrisc_port_free(port);
	return ERR_PTR(err);
}

/*
 * Undo nicrisc_port_create() for a port already out of the device's port
 * table, a grace period ago. Context: process; the instance lock held,
 * RTNL not held.
 */
static void nicrisc_port_destroy(struct nicrisc_port *port)
{
	nicprog_devlink_port_type_clear(&port->dl_port);
	rtnl_lock();
	/* closes the port (no NAPI runs) and removes its plan */
	nicprog_unregister_netdevice(port->np);
	rtnl_unlock();
	skb_queue_purge(&port->rxq);
	devl_port_unregister(&port->dl_port);
	nicrisc_port_free(port);
}

/**
 * nicrisc_ports_destroy() - unregister and free every port of a device
 * @ndev: the device
 *
 * First out of the port table, then a grace period, so that no wire and
 * no core of a sibling still reaches one.
 *
 * Context: process; the device's devlink instance lock held, RTNL not
 * held.
 */
void nicrisc_ports_destroy(struct nicrisc_dev *ndev)
{
	struct nicrisc_port *ports[NICRISC_MAX_PORTS];
	u32 i;

	rtnl_lock();
	for (i = 0; i < ndev->port_count; i++) {
		ports[i] = rtnl_dereference(ndev->ports[i]);
		RCU_INIT_POINTER(ndev->ports[i], NULL);
	}
	rtnl_unlock();
	synchronize_net();
	for (i = ndev->port_count; i--; )
		if (ports[i])
			nicrisc_port_destroy(ports[i]);
}

/**
 * nicrisc_ports_create() - create and register a device's ports
 * @ndev: the device, its nicprog NIC registered
 *
 * Context: process; the device's devlink instance lock held, RTNL not
 * held.
 * Return: 0, or -errno with no port left.
 */
int nicrisc_ports_create(struct nicrisc_dev *ndev)
{
	struct nicrisc_port *port;
	u32 i;

	for (i = 0; i < ndev->port_count; i++) {
		port = nicrisc_port_create(ndev, i);
		if (IS_ERR(port)) {
			nicrisc_ports_destroy(ndev);
			return PTR_ERR(port);
		}
	}
	return 0;
}
