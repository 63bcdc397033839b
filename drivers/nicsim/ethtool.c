// SPDX-License-Identifier: GPL-2.0
/* ethtool operations of nicsim ports. */
#include <linux/ethtool.h>

#include <net/nicprog_compat.h>

#include "nicsim.h"

static void nicsim_get_drvinfo(struct net_device *dev,
			       struct ethtool_drvinfo *info)
{
	struct nicsim_port *port = netdev_priv(dev);

	strscpy(info->driver, NICSIM_DRV_NAME, sizeof(info->driver));
	strscpy(info->fw_version, port->ndev->lnic->name,
		sizeof(info->fw_version));
	strscpy(info->bus_info, dev_name(&port->ndev->dev),
		sizeof(info->bus_info));
}

/*
 * The speed is the wire's rate in simulated time (wire.c), or 100 Gb/s for
 * a wire without one.
 */
static int nicsim_get_link_ksettings(struct net_device *dev,
				     struct ethtool_link_ksettings *cmd)
{
	struct nicsim_port *port = netdev_priv(dev);
	u64 rate;

	spin_lock_bh(&port->wire.lock);
	rate = port->wire.p.rate;
	spin_unlock_bh(&port->wire.lock);
	ethtool_link_ksettings_zero_link_mode(cmd, supported);
	ethtool_link_ksettings_zero_link_mode(cmd, advertising);
	cmd->base.speed = rate ? max_t(u64, div_u64(rate, 1000000), 1) :
				 NICSIM_SPEED_MBPS;
	cmd->base.duplex = DUPLEX_FULL;
	cmd->base.port = PORT_DA;
	cmd->base.autoneg = AUTONEG_DISABLE;
	if (!netif_carrier_ok(dev)) {
		cmd->base.speed = SPEED_UNKNOWN;
		cmd->base.duplex = DUPLEX_UNKNOWN;
	}
	return 0;
}

static const char nicsim_xdp_stat_names[][ETH_GSTRING_LEN] = {
	"xdp_drop", "xdp_pass", "xdp_tx", "xdp_redirect", "xdp_aborted",
	"host_handovers", "host_state_bytes", "host_runs", "host_errors",
	"host_ns", "host_insns", "rx_xdp_drop", "rx_xdp_pass", "rx_xdp_tx",
	"rx_xdp_redirect", "rx_xdp_aborted", "xdp_xmit", "xdp_xmit_errors",
	"xdp_redirect_err", "xdp_redirect_host", "wire_lost",
	"wire_queue_drops",
};

/*
 * packets, cycles, busy, runs, latency, errors, passes, mat_lookups,
 * queue_max, queue_drops, queue_wait
 */
#define NICSIM_CORE_STATS	11
#define NICSIM_REGION_STATS	3	/* accesses, hits, bank_wait */
#define NICSIM_ACCEL_STATS	5	/* jobs, cycles, queue_max, refused, wait */
/* mat_wait, lost_events, dropped, pending, offered, overflow, streams */
#define NICSIM_TIMING_STATS	7

static int nicsim_get_sset_count(struct net_device *dev, int sset)
{
	struct nicsim_port *port = netdev_priv(dev);

	if (sset != ETH_SS_STATS)
		return -EOPNOTSUPP;
	return ARRAY_SIZE(nicsim_xdp_stat_names) +
	       port->ndev->n_cores * NICSIM_CORE_STATS +
	       port->ndev->lnic->n_regions * NICSIM_REGION_STATS +
	       NICSIM_ACCEL_STATS * (__NICPROG_ACCEL_MAX - 1) +
	       NICSIM_TIMING_STATS;
}

static void nicsim_get_strings(struct net_device *dev, u32 sset, u8 *data)
{
	struct nicsim_port *port = netdev_priv(dev);
	const char *name;
	u32 i;

	if (sset != ETH_SS_STATS)
		return;
	memcpy(data, nicsim_xdp_stat_names, sizeof(nicsim_xdp_stat_names));
	data += sizeof(nicsim_xdp_stat_names);
	for (i = 0; i < port->ndev->n_cores; i++) {
		ethtool_sprintf(&data, "core%u_packets", i);
		ethtool_sprintf(&data, "core%u_cycles", i);
		ethtool_sprintf(&data, "core%u_busy", i);
		ethtool_sprintf(&data, "core%u_runs", i);
		ethtool_sprintf(&data, "core%u_latency", i);
		ethtool_sprintf(&data, "core%u_errors", i);
		ethtool_sprintf(&data, "core%u_passes", i);
		ethtool_sprintf(&data, "core%u_mat_lookups", i);
		ethtool_sprintf(&data, "core%u_queue_max", i);
		ethtool_sprintf(&data, "core%u_queue_drops", i);
		ethtool_sprintf(&data, "core%u_queue_wait", i);
	}
	for (i = NICPROG_ACCEL_NONE + 1; i < __NICPROG_ACCEL_MAX; i++) {
		ethtool_sprintf(&data, "accel_%s_jobs",
				nicprog_accel_type_name(i));
		ethtool_sprintf(&data, "accel_%s_cycles",
				nicprog_accel_type_name(i));
		ethtool_sprintf(&data, "accel_%s_queue_max",
				nicprog_accel_type_name(i));
		ethtool_sprintf(&data, "accel_%s_refused",
				nicprog_accel_type_name(i));
		ethtool_sprintf(&data, "accel_%s_wait",
				nicprog_accel_type_name(i));
	}
	for (i = 0; i < port->ndev->lnic->n_regions; i++) {
		name = port->ndev->lnic->regions[i].name;
		ethtool_sprintf(&data, "mem_%s_accesses", name);
		ethtool_sprintf(&data, "mem_%s_hits", name);
		ethtool_sprintf(&data, "mem_%s_bank_wait", name);
	}
	nicprog_ethtool_puts(&data, "mat_wait");
	nicprog_ethtool_puts(&data, "timing_lost_events");
	nicprog_ethtool_puts(&data, "timing_dropped");
	nicprog_ethtool_puts(&data, "timing_pending");
	nicprog_ethtool_puts(&data, "timing_offered");
	nicprog_ethtool_puts(&data, "timing_overflow");
	nicprog_ethtool_puts(&data, "timing_streams");
}

/*
 * Per-port XDP verdicts (the NIC's program's, handovers, the native
 * program's); the rest are the whole NIC's, read under RTNL (which the
 * cores stop under). The timing model's
 * counters (cycles, busy, runs, latency, waits, memory) cover the runs it
 * has timed: timing_pending more are held until the NIC has been idle
 * for NICSIM_TM_IDLE. Under an offered load (clock.c), timing_offered
 * frames arrived in simulated time, in timing_streams streams, and
 * timing_overflow of them found the queues into the cores full; a core's
 * queue_wait sums the cycles its runs waited from their arrival.
 */
static void nicsim_get_ethtool_stats(struct net_device *dev,
				     struct ethtool_stats *stats, u64 *data)
{
	struct nicsim_port *port = netdev_priv(dev);
	struct nicsim_dev *ndev = port->ndev;
	const struct nicsim_tm_region *r;
	const struct nicsim_tm_core *tc;
	struct nicsim_pcpu_stats s;
	struct nicsim_core *core;
	struct nicsim_tm *tm;
	u32 i;

	nicsim_port_get_stats(port, &s);
	*data++ = u64_stats_read(&s.xdp_drop);
	*data++ = u64_stats_read(&s.xdp_pass);
	*data++ = u64_stats_read(&s.xdp_tx);
	*data++ = u64_stats_read(&s.xdp_redirect);
	*data++ = u64_stats_read(&s.xdp_aborted);
	*data++ = u64_stats_read(&s.host_handovers);
	*data++ = u64_stats_read(&s.host_state_bytes);
	*data++ = u64_stats_read(&s.host_runs);
	*data++ = u64_stats_read(&s.host_errors);
	*data++ = u64_stats_read(&s.host_ns);
	*data++ = u64_stats_read(&s.host_insns);
	*data++ = u64_stats_read(&s.rx_xdp_drop);
	*data++ = u64_stats_read(&s.rx_xdp_pass);
	*data++ = u64_stats_read(&s.rx_xdp_tx);
	*data++ = u64_stats_read(&s.rx_xdp_redirect);
	*data++ = u64_stats_read(&s.rx_xdp_aborted);
	*data++ = u64_stats_read(&s.xdp_xmit);
	*data++ = u64_stats_read(&s.xdp_xmit_errors);
	*data++ = u64_stats_read(&s.xdp_redirect_err);
	*data++ = u64_stats_read(&s.xdp_redirect_host);
	*data++ = u64_stats_read(&s.wire_lost);
	*data++ = u64_stats_read(&s.wire_queue_drops);
	spin_lock_bh(&ndev->tm_lock);
	tm = ndev->tm;
	if (!tm) {	/* the device is going: its cores have stopped */
		spin_unlock_bh(&ndev->tm_lock);
		memset(data, 0, (nicsim_get_sset_count(dev, ETH_SS_STATS) -
				 ARRAY_SIZE(nicsim_xdp_stat_names)) *
				sizeof(*data));
		return;
	}
	for (i = 0; i < ndev->n_cores; i++) {
		core = ndev->cores[i];
		tc = &tm->cores[i];
		*data++ = READ_ONCE(core->packets);
		*data++ = tc->active;
		*data++ = tc->busy;
		*data++ = tc->runs;
		*data++ = tc->latency;
		*data++ = READ_ONCE(core->errors);
		*data++ = READ_ONCE(core->passes);
		*data++ = READ_ONCE(core->mat_lookups);
		*data++ = READ_ONCE(core->queue_max);
		*data++ = READ_ONCE(core->queue_drops);
		*data++ = tc->wait;
	}
	for (i = NICPROG_ACCEL_NONE + 1; i < __NICPROG_ACCEL_MAX; i++) {
		*data++ = atomic64_read(&port->ndev->accel_jobs[i]);
		*data++ = atomic64_read(&port->ndev->accel_cycles[i]);
		*data++ = atomic_read(&port->ndev->accel_queue_max[i]);
		*data++ = atomic64_read(&port->ndev->accel_refused[i]);
		*data++ = tm->accel[i].wait;
	}
	for (i = 0; i < ndev->lnic->n_regions; i++) {
		r = &tm->regions[i];
		*data++ = r->accesses;
		*data++ = r->hits;
		*data++ = r->bank_wait;
	}
	*data++ = tm->mat.wait;
	*data++ = tm->lost;
	*data++ = tm->dropped;
	*data++ = nicsim_tm_pending(tm);
	*data++ = tm->offered;
	*data++ = tm->overflow;
	*data++ = tm->streams;
	spin_unlock_bh(&ndev->tm_lock);
}

/*
 * Host RX queues: one by default, up to NICSIM_RX_QUEUES with ethtool -L
 * (rx N), where a program's ctx->rx_queue_index steers passed frames.
 */
static void nicsim_get_channels(struct net_device *dev,
				struct ethtool_channels *ch)
{
	ch->max_rx = NICSIM_RX_QUEUES;
	ch->max_tx = 1;
	ch->rx_count = dev->real_num_rx_queues;
	ch->tx_count = 1;
}

static int nicsim_set_channels(struct net_device *dev,
			       struct ethtool_channels *ch)
{
	/* the core checked the counts against get_channels' maxima */
	if (!ch->rx_count || ch->tx_count != 1 || ch->combined_count ||
	    ch->other_count)
		return -EINVAL;
	return netif_set_real_num_rx_queues(dev, ch->rx_count);
}

const struct ethtool_ops nicsim_ethtool_ops = {
	.get_channels		= nicsim_get_channels,
	.set_channels		= nicsim_set_channels,
	.get_sset_count		= nicsim_get_sset_count,
	.get_strings		= nicsim_get_strings,
	.get_ethtool_stats	= nicsim_get_ethtool_stats,
	.get_drvinfo		= nicsim_get_drvinfo,
	.get_link		= ethtool_op_get_link,
	.get_link_ksettings	= nicsim_get_link_ksettings,
};
