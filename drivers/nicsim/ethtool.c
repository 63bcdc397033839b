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

const struct ethtool_ops nicsim_ethtool_ops = {
	.get_drvinfo		= nicsim_get_drvinfo,
	.get_link		= ethtool_op_get_link,
	.get_link_ksettings	= nicsim_get_link_ksettings,
};
