// SPDX-License-Identifier: GPL-2.0
/*
 * nicsim ports: netdevs whose frames travel over a simulated wire.
 *
 * Transmit puts the frame on the wire: the peer port's NIC receives it into
 * a bounded queue (dropping and counting when full, as hardware does) and
 * its NAPI instance hands it to the host stack, through the port's native
 * XDP program when one is attached (xdp.c). The transmit path runs in
 * BH context under RCU, which protects the peer pointer (see link.c).
 */
#include <linux/etherdevice.h>
#include <linux/filter.h>
#include <linux/if_vlan.h>
#include <linux/rtnetlink.h>
#include <net/nicprog_compat.h>

#include "nicsim.h"

/* Into the host's receive queue, with @ref in the descriptor. */
static void __nicsim_host_rx(struct nicsim_port *port, struct sk_buff *skb,
			     const struct nicsim_plan_ref *ref, u32 host_target)
{
	bool queued = false;

	NICSIM_RX_CB(skb)->ref = ref;
	NICSIM_RX_CB(skb)->host_target = host_target;

	/* The sender may be destroyed while the frame waits in our queue. */
	skb->dev = port->netdev;
	spin_lock(&port->rxq.lock);
	if (skb_queue_len(&port->rxq) < NICSIM_RXQ_LEN) {
		__skb_queue_tail(&port->rxq, skb);
		queued = true;
	}
	spin_unlock(&port->rxq.lock);
	if (unlikely(!queued)) {
		nicsim_stats_inc(port, rx_fifo_errors);
		kfree_skb(skb);
		return;
	}
	napi_schedule(&port->napi);
}

/**
 * nicsim_host_rx() - the NIC hands a frame to the host stack
 * @port: the port
 * @skb: the frame, at its Ethernet header
 *
 * Context: BH disabled.
 */
void nicsim_host_rx(struct nicsim_port *port, struct sk_buff *skb)
{
	__nicsim_host_rx(port, skb, NULL, 0);
}

/**
 * nicsim_host_rx_handover() - the NIC hands a run over to the host part
 * @port: the port
 * @skb: nicprog_plan_handover()'s bytes
 * @ref: the plan the NIC ran
 *
 * Context: BH disabled.
 */
void nicsim_host_rx_handover(struct nicsim_port *port, struct sk_buff *skb,
			     const struct nicsim_plan_ref *ref)
{
	__nicsim_host_rx(port, skb, ref, 0);
}

/**
 * nicsim_host_rx_redirect() - the NIC hands a frame to a host map's entry
 * @port: the port
 * @skb: the frame, its metadata in front
 * @ref: the plan whose program chose the target
 * @target: the target, nicprog_host_target()
 *
 * Context: BH disabled.
 */
void nicsim_host_rx_redirect(struct nicsim_port *port, struct sk_buff *skb,
			     const struct nicsim_plan_ref *ref, u32 target)
{
	__nicsim_host_rx(port, skb, ref, target);
}

/*
 * The NIC receives a frame from the wire: into a NIC core when a plan is
 * installed, else straight to the host. BH disabled, RCU held.
 */
static void nicsim_wire_rx(struct nicsim_port *port, struct sk_buff *skb)
{
	struct net_device *dev = port->netdev;
	unsigned int max_len = dev->mtu + dev->hard_header_len;
	const struct nicsim_plan_ref *ref;

	if (skb_vlan_tagged(skb))
		max_len += VLAN_HLEN;

	nicsim_stats_frame(port, wire_rx_packets, wire_rx_bytes, skb->len);

	if (unlikely(skb->len > max_len)) {
		nicsim_stats_inc(port, rx_length_errors);
		goto drop;
	}
	if (unlikely(!netif_running(dev)))
		goto drop;
	/* the classifier: RoCEv2 for the engine's QPs, before any NF */
	if (nicsim_roce_rx(port, skb))
		return;
	ref = rcu_dereference(port->ref);
	if (ref) {
		skb->dev = dev;
		if (likely(nicsim_cores_steer(port, ref, skb)))
			return;
		nicsim_stats_inc(port, rx_fifo_errors);
		nicprog_event_overload(port->np, 0, 1);
		goto drop;
	}
	nicsim_host_rx(port, skb);
	return;

drop:
	kfree_skb(skb);
}

/**
 * nicsim_ring_xmit() - &nicprog_dev_ops.ring_xmit: send a TX pipe's record
 * @nd: the port
 * @buf: the frame
 * @len: its length
 *
 * The NIC reads the record from host memory (here: copies it into a new
 * frame) and puts it on the wire, counted as the port's wire TX.
 *
 * Context: process.
 * Return: 0, -ENOMEM.
 */
int nicsim_ring_xmit(struct nicprog_dev *nd, const void *buf, u32 len)
{
	struct nicsim_port *port = nicprog_dev_priv(nd);
	struct sk_buff *skb;

	skb = netdev_alloc_skb(port->netdev, len);
	if (!skb)
		return -ENOMEM;
	skb_put_data(skb, buf, len);
	local_bh_disable();
	nicsim_wire_tx(port, skb);
	local_bh_enable();
	return 0;
}

/**
 * nicsim_wire_tx() - put a frame on the port's wire
 * @port: the port
 * @skb: the frame, at its Ethernet header
 *
 * Used by the host's transmit and by NIC cores (XDP_TX, XDP_REDIRECT).
 *
 * Context: BH disabled.
 */
void nicsim_wire_tx(struct nicsim_port *port, struct sk_buff *skb)
{
	struct nicsim_port *peer;
	unsigned int len = skb->len;

	rcu_read_lock();
	peer = rcu_dereference(port->peer);
	if (unlikely(!peer))
		goto drop;
	/* No checksum offload is advertised, but be exact on the wire. */
	if (skb->ip_summed == CHECKSUM_PARTIAL && skb_checksum_help(skb))
		goto drop;
	/* The wire may hold the frame: user pages must not change under it. */
	if (skb_orphan_frags(skb, GFP_ATOMIC))
		goto drop;
	nicsim_stats_frame(port, tx_packets, tx_bytes, len);
	nicsim_wire_send(port, peer, skb);
	rcu_read_unlock();
	return;

drop:
	rcu_read_unlock();
	nicsim_stats_inc(port, tx_dropped);
	kfree_skb(skb);
}

/**
 * nicsim_wire_deliver() - a frame reaches the other end of the wire
 * @port: the port that sent it
 * @peer: the port it reaches
 * @skb: the frame
 *
 * Context: BH disabled, RCU held (which keeps @peer).
 */
void nicsim_wire_deliver(struct nicsim_port *port, struct nicsim_port *peer,
			 struct sk_buff *skb)
{
	/* The frame has left this host: transmit is complete for the sender. */
	skb_orphan(skb);
	skb_scrub_packet(skb, !net_eq(dev_net(port->netdev),
				      dev_net(peer->netdev)));
	skb->priority = 0;
	skb->ip_summed = CHECKSUM_NONE;
	nicsim_wire_rx(peer, skb);
}

static netdev_tx_t nicsim_port_xmit(struct sk_buff *skb, struct net_device *dev)
{
	/*
	 * The wire rewrites and queues the skb: a shared one (pktgen's
	 * clone_skb, IFF_TX_SKB_SHARING) travels as a clone of its own.
	 */
	skb = skb_share_check(skb, GFP_ATOMIC);
	if (unlikely(!skb)) {
		nicsim_stats_inc((struct nicsim_port *)netdev_priv(dev),
				 tx_dropped);
		return NETDEV_TX_OK;
	}
	nicsim_wire_tx(netdev_priv(dev), skb);
	return NETDEV_TX_OK;
}

static int nicsim_port_poll(struct napi_struct *napi, int budget)
{
	struct nicsim_port *port = container_of(napi, struct nicsim_port, napi);
	struct net_device *dev = port->netdev;
	bool redirected = false;
	struct bpf_prog *prog;
	struct sk_buff *skb;
	int done = 0;

	rcu_read_lock();
	prog = rcu_dereference(port->xdp_prog);
	while (done < budget && (skb = skb_dequeue(&port->rxq))) {
		done++;
		if (NICSIM_RX_CB(skb)->host_target) {
			redirected |= nicsim_xdp_host_redirect(port, skb);
			continue;
		}
		if (NICSIM_RX_CB(skb)->ref) {
			nicsim_host_part(port, skb);
			continue;
		}
		if (prog) {
			redirected |= nicsim_xdp_rx(port, prog, skb);
			continue;
		}
		skb->protocol = eth_type_trans(skb, dev);
		nicsim_stats_frame(port, rx_packets, rx_bytes,
				   skb->len + ETH_HLEN);
		netif_receive_skb(skb);
	}
	if (redirected)
		xdp_do_flush();
	rcu_read_unlock();
	if (done < budget)
		napi_complete_done(napi, done);
	return done;
}

static int nicsim_port_open(struct net_device *dev)
{
	struct nicsim_port *port = netdev_priv(dev);

	napi_enable(&port->napi);
	napi_enable(&port->roce_napi);
	netif_start_queue(dev);
	nicsim_link_update_carrier(port);
	return 0;
}

static int nicsim_port_stop(struct net_device *dev)
{
	struct nicsim_port *port = netdev_priv(dev);

	netif_stop_queue(dev);
	nicsim_link_update_carrier(port);
	napi_disable(&port->napi);
	napi_disable(&port->roce_napi);
	/* A frame may still slip in from a racing transmit: freed at destroy. */
	skb_queue_purge(&port->rxq);
	skb_queue_purge(&port->roce_rxq);
	return 0;
}

/**
 * nicsim_port_get_stats() - sum a port's per-CPU counters
 * @port: the port
 * @sum: filled in; its syncp is not used
 *
 * Context: any.
 */
void nicsim_port_get_stats(struct nicsim_port *port,
			   struct nicsim_pcpu_stats *sum)
{
	u64 v[NICSIM_PCPU_N_STATS];
	unsigned int start, i;
	int cpu;

	BUILD_BUG_ON(offsetof(struct nicsim_pcpu_stats, tx_packets));
	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		const struct nicsim_pcpu_stats *s = per_cpu_ptr(port->stats, cpu);
		const u64_stats_t *c = &s->tx_packets;

		do {
			start = u64_stats_fetch_begin(&s->syncp);
			for (i = 0; i < NICSIM_PCPU_N_STATS; i++)
				v[i] = u64_stats_read(&c[i]);
		} while (u64_stats_fetch_retry(&s->syncp, start));
		for (i = 0; i < NICSIM_PCPU_N_STATS; i++)
			u64_stats_add(&(&sum->tx_packets)[i], v[i]);
	}
}

static void nicsim_port_get_stats64(struct net_device *dev,
				    struct rtnl_link_stats64 *stats)
{
	struct nicsim_port *port = netdev_priv(dev);
	struct nicsim_pcpu_stats s;

	nicsim_port_get_stats(port, &s);
	stats->tx_packets = u64_stats_read(&s.tx_packets);
	stats->tx_bytes = u64_stats_read(&s.tx_bytes);
	stats->tx_dropped = u64_stats_read(&s.tx_dropped) +
			    u64_stats_read(&s.wire_queue_drops);
	stats->rx_packets = u64_stats_read(&s.rx_packets);
	stats->rx_bytes = u64_stats_read(&s.rx_bytes);
	stats->rx_fifo_errors = u64_stats_read(&s.rx_fifo_errors);
	stats->rx_length_errors = u64_stats_read(&s.rx_length_errors);
	stats->rx_errors = stats->rx_length_errors;
	stats->rx_dropped = stats->rx_fifo_errors;
}

static int nicsim_port_get_iflink(const struct net_device *dev)
{
	struct nicsim_port *port = netdev_priv(dev);
	struct nicsim_port *peer;
	int iflink = 0;

	rcu_read_lock();
	peer = rcu_dereference(port->peer);
	if (peer)
		iflink = peer->netdev->ifindex;
	rcu_read_unlock();
	return iflink;
}

#if NICPROG_HAVE_NDO_GET_DEVLINK_PORT
/* Set under RTNL right after registration, read under it. */
static struct devlink_port *nicsim_port_devlink_port(struct net_device *dev)
{
	struct nicsim_port *port = netdev_priv(dev);

	return &port->dl_port;
}
#endif

static const struct net_device_ops nicsim_port_netdev_ops = {
	.ndo_open		= nicsim_port_open,
	.ndo_stop		= nicsim_port_stop,
	.ndo_start_xmit		= nicsim_port_xmit,
	.ndo_get_stats64	= nicsim_port_get_stats64,
	.ndo_get_iflink		= nicsim_port_get_iflink,
	.ndo_set_mac_address	= eth_mac_addr,
	.ndo_bpf		= nicsim_port_ndo_bpf,
	.ndo_xdp_xmit		= nicsim_xdp_xmit,
	.ndo_validate_addr	= eth_validate_addr,
#if NICPROG_HAVE_NDO_GET_DEVLINK_PORT
	.ndo_get_devlink_port	= nicsim_port_devlink_port,
#endif
};

/**
 * nicsim_port_create() - create, register and announce a port
 * @ndev: the NIC
 * @index: port number
 *
 * Context: process; nicsim_devs_lock held, RTNL not held.
 * Return: the port, or an ERR_PTR.
 */
struct nicsim_port *nicsim_port_create(struct nicsim_dev *ndev, u32 index)
{
	char name[IFNAMSIZ];
	struct net_device *netdev;
	struct nicsim_port *port;
	int err;

	snprintf(name, sizeof(name), NICSIM_DRV_NAME "%up%u", ndev->id, index);
	netdev = alloc_netdev_mqs(sizeof(*port), name, NET_NAME_PREDICTABLE,
				  ether_setup, 1, NICSIM_RX_QUEUES);
	if (!netdev)
		return ERR_PTR(-ENOMEM);
	/* one host RX queue until ethtool -L asks for more */
	netif_set_real_num_rx_queues(netdev, 1);
	port = netdev_priv(netdev);
	port->netdev = netdev;
	port->ndev = ndev;
	port->index = index;
	skb_queue_head_init(&port->rxq);
	skb_queue_head_init(&port->roce_rxq);
	xa_init_flags(&port->qps, XA_FLAGS_ALLOC);
	nicsim_wire_init(&port->wire);
	port->stats = netdev_alloc_pcpu_stats(struct nicsim_pcpu_stats);
	if (!port->stats) {
		err = -ENOMEM;
		goto err_free_netdev;
	}

	eth_hw_addr_random(netdev);
	netdev->netdev_ops = &nicsim_port_netdev_ops;
	netdev->ethtool_ops = &nicsim_ethtool_ops;
	netdev->priv_flags |= IFF_LIVE_ADDR_CHANGE;
	netdev->min_mtu = ETH_MIN_MTU;
	netdev->max_mtu = NICSIM_MAX_MTU;
	netdev->dev_port = index;
	netdev->sysfs_groups[0] = &nicsim_wire_group;
	/* before registration: no notification is due yet */
	nicprog_xdp_features_set(netdev, true);
	SET_NETDEV_DEV(netdev, &ndev->dev);
	err = nicsim_devlink_port_register(port);
	if (err)
		goto err_free_stats;
	netif_napi_add(netdev, &port->napi, nicsim_port_poll);
	netif_napi_add(netdev, &port->roce_napi, nicsim_roce_poll);
	netif_carrier_off(netdev);
	err = nicsim_xdp_init(port);
	if (err)
		goto err_dl_port_unregister;

	rtnl_lock();
	port->np = nicprog_register_netdevice(ndev->nic, index, netdev);
	rtnl_unlock();
	if (IS_ERR(port->np)) {
		err = PTR_ERR(port->np);
		goto err_xdp_fini;
	}
	nicprog_devlink_port_type_eth_set(&port->dl_port, netdev);
	return port;

err_xdp_fini:
	nicsim_xdp_fini(port);
err_dl_port_unregister:
	nicsim_devlink_port_unregister(port);
err_free_stats:
	free_percpu(port->stats);
err_free_netdev:
	free_netdev(netdev);
	return ERR_PTR(err);
}

/**
 * nicsim_port_destroy() - undo nicsim_port_create(), cutting its wire
 * @port: the port; freed on return
 *
 * Context: process; nicsim_devs_lock held, RTNL not held.
 */
void nicsim_port_destroy(struct nicsim_port *port)
{
	struct net_device *netdev = port->netdev;

	nicprog_devlink_port_type_clear(&port->dl_port);
	rtnl_lock();
	nicsim_unlink(port);
	/*
	 * Waits an RCU grace period: no transmit still sees us as a peer.
	 * It also removes the offloaded program (plan_unload).
	 */
	nicprog_unregister_netdevice(port->np);
	rtnl_unlock();
	/* unregistered: nothing transmits any more */
	nicsim_wire_stop(&port->wire);
	skb_queue_purge(&port->rxq);
	skb_queue_purge(&port->roce_rxq);
	nicsim_xdp_fini(port);
	nicsim_devlink_port_unregister(port);
	free_percpu(port->stats);
	free_netdev(netdev);
}
