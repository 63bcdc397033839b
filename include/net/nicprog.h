/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nicprog driver API: what a SmartNIC vendor driver implements and calls.
 *
 * A driver describes each port's NIC once as a logical NIC (LNIC, see
 * <net/nicprog_lnic.h>), fills a const ops table, and registers the port's
 * netdev with nicprog_register(). The core does everything else: sysfs,
 * netlink, BPF offload glue, planning.
 */
#ifndef _NET_NICPROG_H
#define _NET_NICPROG_H

#include <linux/types.h>
#include <net/nicprog_lnic.h>

struct net_device;
struct nicprog_dev;

/**
 * struct nicprog_port_stats - NIC-side counters of one port
 * @wire_rx_packets: frames that arrived from the wire
 * @wire_rx_bytes: bytes of those frames
 * @wire_tx_packets: frames put on the wire
 * @wire_tx_bytes: bytes of those frames
 * @host_rx_packets: frames the NIC handed to the host stack
 * @host_rx_bytes: bytes of those frames
 * @nic_drops: frames the NIC dropped (full queue, oversized, no link)
 *
 * These are the NIC's view, counted where the NIC handles a frame; the
 * netdev counters (ip -s link) are the host's view. The two differ once a
 * program runs on the NIC and drops, transmits or redirects frames itself.
 */
struct nicprog_port_stats {
	u64 wire_rx_packets;
	u64 wire_rx_bytes;
	u64 wire_tx_packets;
	u64 wire_tx_bytes;
	u64 host_rx_packets;
	u64 host_rx_bytes;
	u64 nic_drops;
};

/**
 * struct nicprog_dev_ops - operations a vendor driver provides
 * @port_stats: fill @stats with the port's NIC-side counters. Required.
 *	Called from sysfs reads and netlink dumps; may sleep; must not take
 *	RTNL.
 *
 * The table grows by phase (monitoring, BPF offload, plans, rings) as the
 * core gains users for each member; required members are checked once at
 * registration.
 */
struct nicprog_dev_ops {
	/* Monitoring */
	void (*port_stats)(struct nicprog_dev *nd,
			   struct nicprog_port_stats *stats);
};

struct nicprog_dev *nicprog_register(struct net_device *netdev,
				     const struct nicprog_lnic *lnic,
				     const struct nicprog_dev_ops *ops);
void nicprog_unregister(struct nicprog_dev *nd);
struct net_device *nicprog_dev_netdev(const struct nicprog_dev *nd);

#endif /* _NET_NICPROG_H */
