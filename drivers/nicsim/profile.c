// SPDX-License-Identifier: GPL-2.0
/*
 * nicsim's glue to the nicprog core; the architecture profiles themselves
 * are in profiles.c.
 */
#include "nicsim.h"

static void nicsim_nicprog_port_stats(struct nicprog_dev *nd,
				      struct nicprog_port_stats *st)
{
	struct nicsim_port *port = netdev_priv(nicprog_dev_netdev(nd));
	struct nicsim_pcpu_stats s;

	nicsim_port_get_stats(port, &s);
	st->wire_rx_packets = u64_stats_read(&s.wire_rx_packets);
	st->wire_rx_bytes = u64_stats_read(&s.wire_rx_bytes);
	st->wire_tx_packets = u64_stats_read(&s.tx_packets);
	st->wire_tx_bytes = u64_stats_read(&s.tx_bytes);
	st->host_rx_packets = u64_stats_read(&s.rx_packets);
	st->host_rx_bytes = u64_stats_read(&s.rx_bytes);
	st->nic_drops = u64_stats_read(&s.rx_fifo_errors) +
			u64_stats_read(&s.rx_length_errors) +
			u64_stats_read(&s.tx_dropped) +
			u64_stats_read(&s.xdp_drop) +
			u64_stats_read(&s.xdp_aborted);
}

const struct nicprog_dev_ops nicsim_nicprog_ops = {
	.port_stats	= nicsim_nicprog_port_stats,
	.plan_load	= nicsim_plan_load,
	.plan_unload	= nicsim_plan_unload,
	.accel_run	= nicsim_accel_run,
};
