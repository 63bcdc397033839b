/* SPDX-License-Identifier: GPL-2.0 */
/* nicsim: simulated SmartNIC for nicprog - private definitions. */
#ifndef _NICSIM_H
#define _NICSIM_H

#include <linux/device.h>
#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/u64_stats_sync.h>
#include <net/nicprog.h>

#define NICSIM_DRV_NAME		"nicsim"
#define NICSIM_MAX_ID		65535	/* keeps "nicsim<ID>p<P>" in IFNAMSIZ */
#define NICSIM_MAX_PORTS	16
#define NICSIM_MAX_MTU		9000
#define NICSIM_RXQ_LEN		1024	/* frames the NIC buffers per port */
#define NICSIM_SPEED_MBPS	100000

/**
 * struct nicsim_pcpu_stats - per-CPU counters of one port
 * @tx_packets: frames put on the wire
 * @tx_bytes: bytes of those frames
 * @tx_dropped: frames the host sent while the port had no link
 * @wire_rx_packets: frames that arrived from the wire
 * @wire_rx_bytes: bytes of those frames
 * @rx_packets: frames delivered to the host stack
 * @rx_bytes: bytes of those frames
 * @rx_fifo_errors: frames dropped because the receive queue was full
 * @rx_length_errors: frames dropped because they exceeded the MTU
 * @syncp: writers run in BH context (xmit, NAPI) and never nest a section
 */
struct nicsim_pcpu_stats {
	u64_stats_t tx_packets;
	u64_stats_t tx_bytes;
	u64_stats_t tx_dropped;
	u64_stats_t wire_rx_packets;
	u64_stats_t wire_rx_bytes;
	u64_stats_t rx_packets;
	u64_stats_t rx_bytes;
	u64_stats_t rx_fifo_errors;
	u64_stats_t rx_length_errors;
	struct u64_stats_sync syncp;
};

/**
 * struct nicsim_port - one port of a simulated NIC, the netdev's private data
 * @netdev: the port's netdev
 * @ndev: the NIC the port belongs to
 * @index: port number within @ndev
 * @peer: the port at the other end of the wire; written under RTNL, read
 *	under RCU by the transmit path. A port is unlinked before it is
 *	unregistered, and unregistering waits an RCU grace period, so a
 *	reader never sees a freed peer.
 * @napi: delivers received frames to the host stack
 * @rxq: frames received from the wire, waiting for @napi; bounded by
 *	NICSIM_RXQ_LEN, protected by its own lock
 * @stats: per-CPU counters
 * @np: the port's registration with nicprog
 */
struct nicsim_port {
	struct net_device *netdev;
	struct nicsim_dev *ndev;
	u32 index;
	struct nicsim_port __rcu *peer;
	struct napi_struct napi;
	struct sk_buff_head rxq;
	struct nicsim_pcpu_stats __percpu *stats;
	struct nicprog_dev *np;
};

/**
 * struct nicsim_dev - one simulated SmartNIC, a device on the nicsim bus
 * @dev: /sys/bus/nicsim/devices/nicsim<ID>; its refcount owns the structure
 * @id: ID given at creation
 * @lnic: architecture profile of the NIC
 * @list: entry in the bus's device list, under nicsim_devs_lock
 * @port_count: entries in @ports
 * @ports: the ports, all registered while the device is listed
 */
struct nicsim_dev {
	struct device dev;
	u32 id;
	const struct nicprog_lnic *lnic;
	struct list_head list;
	u32 port_count;
	struct nicsim_port *ports[];
};

/* port.c */
struct nicsim_port *nicsim_port_create(struct nicsim_dev *ndev, u32 index);
void nicsim_port_destroy(struct nicsim_port *port);
void nicsim_port_get_stats(struct nicsim_port *port,
			   struct nicsim_pcpu_stats *sum);

/* link.c */
int nicsim_link(struct nicsim_port *a, struct nicsim_port *b);
int nicsim_unlink(struct nicsim_port *port);
void nicsim_link_update_carrier(struct nicsim_port *port);

/* ethtool.c */
extern const struct ethtool_ops nicsim_ethtool_ops;

/* profile.c */
extern const struct nicprog_lnic nicsim_profile_generic;
extern const struct nicprog_dev_ops nicsim_nicprog_ops;

#endif /* _NICSIM_H */
