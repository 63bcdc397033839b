// SPDX-License-Identifier: GPL-2.0
/*
 * nicrisc's devlink instance: the driver allocates and registers it, as
 * a vendor driver does before it ever meets nicprog, and nicprog adds the
 * NIC's resources and its health reporter when the NIC registers with it.
 *
 *   devlink dev info      driver, serial number (the device's name), the
 *                         cores' instruction set "fw.isa", and nicprog's
 *                         fw.profile
 *   devlink port show     a physical port per netdev
 *   devlink dev reload    re-initializes the NIC: its ports are removed
 *                         and made again (new netdevs, counters from
 *                         zero), as netdevsim's reload does; refused while
 *                         a program or an offloaded map is bound
 *
 * Reload holds the instance lock from reload_down to reload_up; device
 * removal takes it to remove the ports and marks the device gone under
 * it, so a reload never brings ports back to a device being removed.
 */
#include <linux/rtnetlink.h>
#include <net/devlink.h>
#include <net/nicprog_compat.h>

#include "nicrisc.h"

#define NICRISC_ISA_VERSION	"nicrisc-1"

static struct nicrisc_dev *nicrisc_devlink_dev(struct devlink *devlink)
{
	return *(struct nicrisc_dev **)devlink_priv(devlink);
}

static int nicrisc_dl_info_get(struct devlink *devlink,
			       struct devlink_info_req *req,
			       struct netlink_ext_ack *extack)
{
	struct nicrisc_dev *ndev = nicrisc_devlink_dev(devlink);

	return nicprog_devlink_info_driver_name_put(req, NICRISC_DRV_NAME) ?:
	       devlink_info_serial_number_put(req, dev_name(&ndev->dev)) ?:
	       devlink_info_version_running_put(req, "fw.isa",
						NICRISC_ISA_VERSION) ?:
	       nicprog_devlink_info_put(ndev->nic, req);
}

static int nicrisc_dl_reload_down(struct devlink *devlink, bool netns_change,
				  enum devlink_reload_action action,
				  enum devlink_reload_limit limit,
				  struct netlink_ext_ack *extack)
{
	struct nicrisc_dev *ndev = nicrisc_devlink_dev(devlink);
	int err;

	if (netns_change) {
		NL_SET_ERR_MSG_MOD(extack,
				   "a NIC's ports stay in their namespaces; move them with ip link");
		return -EOPNOTSUPP;
	}
	if (!ndev->live) {
		NL_SET_ERR_MSG_MOD(extack, "the device is being removed");
		return -ENODEV;
	}
	err = nicprog_devlink_reload_check(ndev->nic, extack);
	if (err)
		return err;
	nicrisc_ports_destroy(ndev);
	return 0;
}

static int nicrisc_dl_reload_up(struct devlink *devlink,
				enum devlink_reload_action action,
				enum devlink_reload_limit limit,
				u32 *actions_performed,
				struct netlink_ext_ack *extack)
{
	struct nicrisc_dev *ndev = nicrisc_devlink_dev(devlink);
	int err;

	err = nicrisc_ports_create(ndev);
	if (err) {
		NL_SET_ERR_MSG_MOD(extack, "the NIC's ports could not be made again");
		return err;
	}
	*actions_performed = BIT(DEVLINK_RELOAD_ACTION_DRIVER_REINIT);
	return 0;
}

static const struct devlink_ops nicrisc_devlink_ops = {
	.reload_actions	= BIT(DEVLINK_RELOAD_ACTION_DRIVER_REINIT),
	.reload_down	= nicrisc_dl_reload_down,
	.reload_up	= nicrisc_dl_reload_up,
	.info_get	= nicrisc_dl_info_get,
};

/**
 * nicrisc_devlink_init() - the device's devlink instance, registered
 * @ndev: the device, added
 *
 * Context: process; RTNL and the instance lock not held.
 * Return: 0 or -ENOMEM.
 */
int nicrisc_devlink_init(struct nicrisc_dev *ndev)
{
	struct devlink *devlink;

	devlink = devlink_alloc(&nicrisc_devlink_ops, sizeof(ndev), &ndev->dev);
	if (!devlink)
		return -ENOMEM;
	*(struct nicrisc_dev **)devlink_priv(devlink) = ndev;
	nicprog_devlink_reload_enable(devlink);
	devlink_register(devlink);
	ndev->devlink = devlink;
	return 0;
}

/**
 * nicrisc_devlink_exit() - undo nicrisc_devlink_init()
 * @ndev: the device, its ports and its nicprog NIC gone
 *
 * Context: process; RTNL and the instance lock not held.
 */
void nicrisc_devlink_exit(struct nicrisc_dev *ndev)
{
	devlink_unregister(ndev->devlink);
	devlink_free(ndev->devlink);
}
