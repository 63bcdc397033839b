// SPDX-License-Identifier: GPL-2.0
/* ethtool operations of nicsim ports. */
#include <linux/ethtool.h>

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

static int nicsim_get_link_ksettings(struct net_device *dev,
				     struct ethtool_link_ksettings *cmd)
{
	ethtool_link_ksettings_zero_link_mode(cmd, supported);
	ethtool_link_ksettings_zero_link_mode(cmd, advertising);
	cmd->base.speed = NICSIM_SPEED_MBPS;
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
};

/* packets, cycles, errors, passes, mat_lookups, queue_max, queue_drops */
#define NICSIM_CORE_STATS	7

static int nicsim_get_sset_count(struct net_device *dev, int sset)
{
	struct nicsim_port *port = netdev_priv(dev);

	if (sset != ETH_SS_STATS)
		return -EOPNOTSUPP;
	return ARRAY_SIZE(nicsim_xdp_stat_names) +
	       port->ndev->n_cores * NICSIM_CORE_STATS +
	       4 * (__NICPROG_ACCEL_MAX - 1);
}

static void nicsim_get_strings(struct net_device *dev, u32 sset, u8 *data)
{
	struct nicsim_port *port = netdev_priv(dev);
	u32 i;

	if (sset != ETH_SS_STATS)
		return;
	memcpy(data, nicsim_xdp_stat_names, sizeof(nicsim_xdp_stat_names));
	data += sizeof(nicsim_xdp_stat_names);
	for (i = 0; i < port->ndev->n_cores; i++) {
		ethtool_sprintf(&data, "core%u_packets", i);
		ethtool_sprintf(&data, "core%u_cycles", i);
		ethtool_sprintf(&data, "core%u_errors", i);
		ethtool_sprintf(&data, "core%u_passes", i);
		ethtool_sprintf(&data, "core%u_mat_lookups", i);
		ethtool_sprintf(&data, "core%u_queue_max", i);
		ethtool_sprintf(&data, "core%u_queue_drops", i);
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
	}
}

/* Per-port XDP verdicts; per-core counters are the whole NIC's. */
static void nicsim_get_ethtool_stats(struct net_device *dev,
				     struct ethtool_stats *stats, u64 *data)
{
	struct nicsim_port *port = netdev_priv(dev);
	struct nicsim_pcpu_stats s;
	struct nicsim_core *core;
	u32 i;

	nicsim_port_get_stats(port, &s);
	*data++ = u64_stats_read(&s.xdp_drop);
	*data++ = u64_stats_read(&s.xdp_pass);
	*data++ = u64_stats_read(&s.xdp_tx);
	*data++ = u64_stats_read(&s.xdp_redirect);
	*data++ = u64_stats_read(&s.xdp_aborted);
	for (i = 0; i < port->ndev->n_cores; i++) {
		core = port->ndev->cores[i];
		*data++ = READ_ONCE(core->packets);
		*data++ = READ_ONCE(core->cycles);
		*data++ = READ_ONCE(core->errors);
		*data++ = READ_ONCE(core->passes);
		*data++ = READ_ONCE(core->mat_lookups);
		*data++ = READ_ONCE(core->queue_max);
		*data++ = READ_ONCE(core->queue_drops);
	}
	for (i = NICPROG_ACCEL_NONE + 1; i < __NICPROG_ACCEL_MAX; i++) {
		*data++ = atomic64_read(&port->ndev->accel_jobs[i]);
		*data++ = atomic64_read(&port->ndev->accel_cycles[i]);
		*data++ = atomic_read(&port->ndev->accel_queue_max[i]);
		*data++ = atomic64_read(&port->ndev->accel_refused[i]);
	}
}

const struct ethtool_ops nicsim_ethtool_ops = {
	.get_sset_count		= nicsim_get_sset_count,
	.get_strings		= nicsim_get_strings,
	.get_ethtool_stats	= nicsim_get_ethtool_stats,
	.get_drvinfo		= nicsim_get_drvinfo,
	.get_link		= ethtool_op_get_link,
	.get_link_ksettings	= nicsim_get_link_ksettings,
};
