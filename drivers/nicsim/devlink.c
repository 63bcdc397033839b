// SPDX-License-Identifier: GPL-2.0
/*
 * nicsim's devlink instance, as netdevsim has one: the driver allocates
 * and registers it, a devlink port per port, its info, the "profile"
 * parameter and reload; nicprog adds the NIC's resources and its
 * "cores" health reporter when the NIC registers with it
 * (nicprog_nic_register() takes the instance already registered).
 *
 *   devlink dev info       driver, serial number (the device's name), and
 *                          nicprog's running version fw.profile
 *   devlink dev param      "profile" (driverinit): the profile the next
 *                          reload takes
 *   devlink dev reload     re-initializes the NIC with that profile, as a
 *                          reflash does; refused while a program or map
 *                          is bound to the NIC
 *
 * The instance's priv is a pointer to the device, which outlives it: the
 * instance is freed in nicsim_devlink_exit() before the device goes.
 */
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/devlink.h>
#include <net/nicprog.h>
#include <net/nicprog_compat.h>

#include "nicsim.h"

enum {
	NICSIM_DEVLINK_PARAM_PROFILE = DEVLINK_PARAM_GENERIC_ID_MAX + 1,
};

static struct nicsim_dev *devlink_ndev(struct devlink *devlink)
{
	return *(struct nicsim_dev **)devlink_priv(devlink);
}

/* The serial number is the device's name, unique on the bus. */
static int nicsim_dl_info_get(struct devlink *devlink,
			      struct devlink_info_req *req,
			      struct netlink_ext_ack *extack)
{
	struct nicsim_dev *ndev = devlink_ndev(devlink);

	return nicprog_devlink_info_driver_name_put(req, NICSIM_DRV_NAME) ?:
	       devlink_info_serial_number_put(req, dev_name(&ndev->dev)) ?:
	       nicprog_devlink_info_put(ndev->nic, req);
}

static int nicsim_dl_reload_down(struct devlink *devlink, bool netns_change,
				 enum devlink_reload_action action,
				 enum devlink_reload_limit limit,
				 struct netlink_ext_ack *extack)
{
	struct nicsim_dev *ndev = devlink_ndev(devlink);
	int err;

	if (netns_change) {
		NL_SET_ERR_MSG_MOD(extack,
				   "a NIC's ports stay in their namespaces; move them with ip link");
		return -EOPNOTSUPP;
	}
	err = nicprog_devlink_reload_check(ndev->nic, extack);
	if (err)
		return err;
	if (!NICPROG_DEVLINK_REINIT_KEEPS_PORTS) {
		NL_SET_ERR_MSG_MOD(extack,
				   "on this kernel a reload must re-create the NIC's ports, which nicsim does not do yet; set the profile with nicprog dev set or sysfs");
		return -EOPNOTSUPP;
	}
	return 0;
}

/*
 * The profile the parameter names if it changed since the last reload,
 * else the NIC's own: taken as the profile-set operation takes one, a
 * file read without RTNL. devl_lock held.
 */
static int nicsim_dl_reload_up(struct devlink *devlink,
			       enum devlink_reload_action action,
			       enum devlink_reload_limit limit,
			       u32 *actions_performed,
			       struct netlink_ext_ack *extack)
{
	struct nicsim_dev *ndev = devlink_ndev(devlink);
	struct nicprog_lnic_text *text = NULL;
	char name[__DEVLINK_PARAM_MAX_STRING_VALUE];
	union devlink_param_value val;
	int err;

	err = nicprog_devl_param_driverinit_value_get(devlink,
						      NICSIM_DEVLINK_PARAM_PROFILE,
						      &val);
	if (err)
		return err;
	if (strcmp(val.vstr, ndev->profile_applied)) {
		strscpy(name, val.vstr, sizeof(name));
	} else {
		mutex_lock(&ndev->lnic_lock);
		strscpy(name, ndev->lnic->name, sizeof(name));
		mutex_unlock(&ndev->lnic_lock);
	}
	err = ndev->ops.profile_request(name, &text, extack);
	if (err)
		return err;
	rtnl_lock();
	err = ndev->ops.profile_set(ndev->nic, text ? NULL : name, text,
				    extack);
	rtnl_unlock();
	if (err)
		return err;
	strscpy(ndev->profile_applied, val.vstr, sizeof(ndev->profile_applied));
	err = nicprog_devl_resources_reload(ndev->nic);
	if (err)
		return err;
	*actions_performed = BIT(DEVLINK_RELOAD_ACTION_DRIVER_REINIT);
	return 0;
}

static const struct devlink_ops nicsim_devlink_ops = {
	.reload_actions	= BIT(DEVLINK_RELOAD_ACTION_DRIVER_REINIT),
	.reload_down	= nicsim_dl_reload_down,
	.reload_up	= nicsim_dl_reload_up,
	.info_get	= nicsim_dl_info_get,
};

static int nicsim_dl_profile_validate(struct devlink *devlink, u32 id,
				      union devlink_param_value val,
				      struct netlink_ext_ack *extack)
{
	if (!nicprog_profile_name_ok(val.vstr)) {
		NL_SET_ERR_MSG_MOD(extack, NICPROG_PROFILE_NAME_RULE);
		return -EINVAL;
	}
	return 0;
}

static const struct devlink_param nicsim_devlink_params[] = {
	DEVLINK_PARAM_DRIVER(NICSIM_DEVLINK_PARAM_PROFILE, "profile",
			     DEVLINK_PARAM_TYPE_STRING,
			     BIT(DEVLINK_PARAM_CMODE_DRIVERINIT), NULL, NULL,
			     nicsim_dl_profile_validate),
};

/**
 * nicsim_devlink_init() - the device's devlink instance, registered
 * @ndev: the device, added, its LNIC set
 *
 * Context: process; RTNL and devl_lock not held.
 * Return: 0 or -errno.
 */
int nicsim_devlink_init(struct nicsim_dev *ndev)
{
	union devlink_param_value val = {};
	struct devlink *devlink;
	int err;

	devlink = devlink_alloc(&nicsim_devlink_ops, sizeof(ndev), &ndev->dev);
	if (!devlink)
		return -ENOMEM;
	*(struct nicsim_dev **)devlink_priv(devlink) = ndev;
	err = devlink_params_register(devlink, nicsim_devlink_params,
				      ARRAY_SIZE(nicsim_devlink_params));
	if (err) {
		devlink_free(devlink);
		return err;
	}
	strscpy(val.vstr, ndev->lnic->name, sizeof(val.vstr));
	strscpy(ndev->profile_applied, val.vstr, sizeof(ndev->profile_applied));
	nicprog_devlink_param_driverinit_value_set(devlink,
						   NICSIM_DEVLINK_PARAM_PROFILE,
						   val);
	nicprog_devlink_reload_enable(devlink);
	devlink_register(devlink);
	ndev->devlink = devlink;
	return 0;
}

/**
 * nicsim_devlink_exit() - undo nicsim_devlink_init()
 * @ndev: the device, its ports and its nicprog NIC unregistered
 *
 * Context: process; RTNL and devl_lock not held.
 */
void nicsim_devlink_exit(struct nicsim_dev *ndev)
{
	devlink_unregister(ndev->devlink);
	devlink_params_unregister(ndev->devlink, nicsim_devlink_params,
				  ARRAY_SIZE(nicsim_devlink_params));
	devlink_free(ndev->devlink);
}

/**
 * nicsim_devlink_port_register() - a port's devlink port, before its netdev
 * @port: the port, its netdev allocated, not registered
 *
 * A physical port numbered as the device's ports are; the netdev names it
 * before registration (6.2 on) or through ndo_get_devlink_port (6.1).
 *
 * Context: process; RTNL and devl_lock not held.
 * Return: 0 or devlink's error.
 */
int nicsim_devlink_port_register(struct nicsim_port *port)
{
	struct devlink_port_attrs attrs = {
		.flavour = DEVLINK_PORT_FLAVOUR_PHYSICAL,
		.phys.port_number = port->index,
	};
	int err;

	devlink_port_attrs_set(&port->dl_port, &attrs);
	err = devlink_port_register(port->ndev->devlink, &port->dl_port,
				    port->index);
	if (err)
		return err;
	nicprog_netdev_devlink_port_set(port->netdev, &port->dl_port);
	return 0;
}

/**
 * nicsim_devlink_port_unregister() - undo nicsim_devlink_port_register()
 * @port: the port, its netdev unregistered
 *
 * Context: process; RTNL and devl_lock not held.
 */
void nicsim_devlink_port_unregister(struct nicsim_port *port)
{
	devlink_port_unregister(&port->dl_port);
}
