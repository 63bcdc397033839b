// SPDX-License-Identifier: GPL-2.0
/*
 * nicprog core: registry of SmartNIC ports and the vendor driver contract.
 *
 * Locking: the registry (nicprog_devs) is protected by RTNL, which every
 * path that changes or looks up a port holds: drivers register and
 * unregister under it (next to register_netdevice() and
 * unregister_netdevice()), netdev notifiers and ndo_bpf run under it. sysfs show callbacks never take RTNL, because
 * device_del() under RTNL waits for them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>

#include "nicprog.h"

static LIST_HEAD(nicprog_devs);

/**
 * nicprog_dev_find() - the port of a netdev
 * @netdev: the netdev
 *
 * Context: RTNL held.
 * Return: the port, or NULL if @netdev is not one.
 */
struct nicprog_dev *nicprog_dev_find(const struct net_device *netdev)
{
	struct nicprog_dev *nd;

	ASSERT_RTNL();
	list_for_each_entry(nd, &nicprog_devs, list)
		if (nd->netdev == netdev)
			return nd;
	return NULL;
}

/**
 * nicprog_dev_nth() - the port after @n others of a namespace
 * @net: the namespace
 * @n: ports of @net to pass over, in registration order
 *
 * Context: RTNL held.
 * Return: the port, or NULL when @net has @n ports or fewer.
 */
struct nicprog_dev *nicprog_dev_nth(const struct net *net, unsigned long n)
{
	struct nicprog_dev *nd;

	ASSERT_RTNL();
	list_for_each_entry(nd, &nicprog_devs, list)
		if (net_eq(dev_net(nd->netdev), net) && !n--)
			return nd;
	return NULL;
}

/* Can a driver with @ops run @lnic? A failure is a driver bug, logged. */
static int nicprog_lnic_check(struct net_device *netdev,
			      const struct nicprog_dev_ops *ops,
			      const struct nicprog_lnic *lnic)
{
	char why[128];
	u32 i;

	if (nicprog_lnic_validate(lnic, why, sizeof(why))) {
		netdev_err(netdev, "nicprog: invalid LNIC: %s\n", why);
		return -EINVAL;
	}
	for (i = 0; i < lnic->n_units; i++)
		if (lnic->units[i].type == NICPROG_UNIT_ACCEL && !ops->accel_run) {
			netdev_err(netdev, "nicprog: LNIC has accelerators but ops lack accel_run\n");
			return -EINVAL;
		}
	return 0;
}

static void nicprog_dev_release(struct device *dev)
{
	struct nicprog_dev *nd = to_nicprog_dev(dev);

	kvfree(nd->plan_text);
	kvfree(nd->facts);
	mutex_destroy(&nd->plan_lock);
	mutex_destroy(&nd->ring_lock);
	kfree(nd);
}

/**
 * nicprog_register() - make a netdev a nicprog SmartNIC port
 * @netdev: the port, already registered with register_netdevice()
 * @lnic: description of the NIC behind the port; must stay valid and
 *	unchanged until nicprog_unregister() or its replacement
 *	(nicprog_lnic_replace_end())
 * @ops: the driver's operations; required members must be set
 *
 * Validates @lnic and @ops (a failure is a driver bug and is logged with its
 * reason), makes the port a BPF offload target and creates
 * /sys/class/nicprog/<ifname>.
 *
 * Context: process, RTNL held.
 * Return: the new port, or an ERR_PTR: -EINVAL for a bad @lnic or @ops,
 * -EEXIST if @netdev is already registered, -ENOMEM, or the error of
 * device_add() (-EEXIST when another port already has the name).
 */
struct nicprog_dev *nicprog_register(struct net_device *netdev,
				     const struct nicprog_lnic *lnic,
				     const struct nicprog_dev_ops *ops)
{
	struct nicprog_dev *nd;
	int err;

	ASSERT_RTNL();
	if (!ops || !ops->port_stats || !ops->plan_load || !ops->plan_unload) {
		netdev_err(netdev, "nicprog: ops table lacks a required member\n");
		return ERR_PTR(-EINVAL);
	}
	err = nicprog_lnic_check(netdev, ops, lnic);
	if (err)
		return ERR_PTR(err);
	if (nicprog_dev_find(netdev))
		return ERR_PTR(-EEXIST);

	nd = kzalloc(sizeof(*nd), GFP_KERNEL);
	if (!nd)
		return ERR_PTR(-ENOMEM);
	nd->netdev = netdev;
	nd->lnic = lnic;
	nd->ops = ops;
	nicprog_lnic_summarize(lnic, &nd->sum);
	INIT_LIST_HEAD(&nd->list);
	mutex_init(&nd->plan_lock);
	mutex_init(&nd->ring_lock);
	INIT_LIST_HEAD(&nd->ring_files);
	INIT_LIST_HEAD(&nd->tables);
	INIT_LIST_HEAD(&nd->progs);
	nicprog_events_init(nd);

	device_initialize(&nd->dev);
	nd->dev.class = &nicprog_class;
	nd->dev.parent = netdev->dev.parent;
	nd->dev.release = nicprog_dev_release;
	/* Under RTNL the name cannot change until the notifier can see us. */
	err = dev_set_name(&nd->dev, "%s", netdev->name);
	if (err)
		goto err_put_device;
	err = nicprog_bpf_init(nd);
	if (err)
		goto err_put_device;
	err = nicprog_ring_add(nd);
	if (err) {
		netdev_err(netdev, "nicprog: cannot add class device: %d\n",
			   err);
		goto err_bpf_exit;
	}
	list_add_tail(&nd->list, &nicprog_devs);
	nicprog_debugfs_add(nd);
	return nd;

err_bpf_exit:
	nicprog_bpf_exit(nd);
err_put_device:
	put_device(&nd->dev);
	return ERR_PTR(err);
}
EXPORT_SYMBOL_GPL(nicprog_register);

/**
 * nicprog_unregister() - undo nicprog_register()
 * @nd: the port
 *
 * Call after unregister_netdevice() of the port (which removes its
 * offloaded XDP program), before free_netdev(). Destroys BPF programs and
 * maps still bound to the port. When this returns, no callback into the
 * driver's ops for @nd runs or will run.
 *
 * Context: process, RTNL held.
 */
void nicprog_unregister(struct nicprog_dev *nd)
{
	ASSERT_RTNL();
	list_del(&nd->list);
	nicprog_debugfs_remove(nd);
	nicprog_bpf_exit(nd);
	nicprog_ring_del(nd);
	nicprog_events_stop(nd);
	put_device(&nd->dev);
}
EXPORT_SYMBOL_GPL(nicprog_unregister);


/**
 * nicprog_cores_read() - the driver's counters of the port's NIC's cores
 * @nd: the port
 * @n: out: the cores read, at most NICPROG_MAX_CORES
 *
 * Context: process; as the driver's core_stats, no RTNL.
 * Return: an array of NICPROG_MAX_CORES to kfree(), ERR_PTR(-EOPNOTSUPP)
 * if the driver does not count its cores, or ERR_PTR(-ENOMEM).
 */
struct nicprog_core_stats *nicprog_cores_read(struct nicprog_dev *nd, u32 *n)
{
	struct nicprog_core_stats *cs;
	u32 i;

	if (!nd->ops->core_stats)
		return ERR_PTR(-EOPNOTSUPP);
	cs = kcalloc(NICPROG_MAX_CORES, sizeof(*cs), GFP_KERNEL);
	if (!cs)
		return ERR_PTR(-ENOMEM);
	for (i = 0; i < NICPROG_MAX_CORES; i++)
		cs[i].plan_core = NICPROG_CORE_NONE;
	*n = min_t(u32, nd->ops->core_stats(nd, cs, NICPROG_MAX_CORES),
		   NICPROG_MAX_CORES);
	return cs;
}

/**
 * nicprog_lnic_replace_begin() - prepare to replace a port's LNIC
 * @nd: the port
 * @lnic: the LNIC to come, validated here
 *
 * A NIC that takes another architecture profile (a reflashed FPGA shell,
 * nicsim's profile file) changes what every plan, table and verification
 * of its ports was made for, so none may exist: no program loaded for or
 * attached to the port, no map offloaded to it. From here until
 * nicprog_lnic_replace_end() no program can be prepared for the port (a
 * load fails with EBUSY); the caller holds RTNL throughout, which keeps
 * maps and attaches out. Each refusal is logged with its cause.
 *
 * Context: process, RTNL held.
 * Return: 0; -EBUSY if a program or map is bound to the port; -EINVAL
 * for an LNIC the port cannot take.
 */
int nicprog_lnic_replace_begin(struct nicprog_dev *nd,
			       const struct nicprog_lnic *lnic)
{
	int err;

	ASSERT_RTNL();
	err = nicprog_lnic_check(nd->netdev, nd->ops, lnic);
	if (err)
		return err;
	mutex_lock(&nd->plan_lock);
	if (nd->n_progs || nd->n_tables) {
		netdev_err(nd->netdev,
			   "nicprog: cannot take profile %s: %u programs and %u maps are bound to the port\n",
			   lnic->name, nd->n_progs, nd->n_tables);
		err = -EBUSY;
	} else {
		nd->lnic_frozen = true;
	}
	mutex_unlock(&nd->plan_lock);
	return err;
}
EXPORT_SYMBOL_GPL(nicprog_lnic_replace_begin);

/**
 * nicprog_lnic_replace_end() - end nicprog_lnic_replace_begin()
 * @nd: the port
 * @lnic: its LNIC from now on, the one given to _begin(); NULL to keep
 *	the old one (the driver could not switch)
 *
 * A plan_cores setting more than the new NIC's cores is reset to 0 (all).
 *
 * Context: process, RTNL held since _begin().
 */
void nicprog_lnic_replace_end(struct nicprog_dev *nd,
			      const struct nicprog_lnic *lnic)
{
	ASSERT_RTNL();
	mutex_lock(&nd->plan_lock);
	if (lnic) {
		nd->lnic = lnic;
		nicprog_lnic_summarize(lnic, &nd->sum);
		if (nd->plan_cores > nd->sum.cores) {
			netdev_info(nd->netdev,
				    "nicprog: plan_cores %u reset to 0: profile %s has %u cores\n",
				    nd->plan_cores, lnic->name, nd->sum.cores);
			nd->plan_cores = 0;
		}
	}
	nd->lnic_frozen = false;
	mutex_unlock(&nd->plan_lock);
}
EXPORT_SYMBOL_GPL(nicprog_lnic_replace_end);

/**
 * nicprog_dev_netdev() - the netdev of a registered port
 * @nd: the port
 *
 * Context: any.
 * Return: the netdev given to nicprog_register().
 */
struct net_device *nicprog_dev_netdev(const struct nicprog_dev *nd)
{
	return nd->netdev;
}
EXPORT_SYMBOL_GPL(nicprog_dev_netdev);

/* Keep /sys/class/nicprog/<ifname> named after the port. */
static void nicprog_dev_sync_name(struct nicprog_dev *nd)
{
	int err;

	if (!strcmp(dev_name(&nd->dev), nd->netdev->name))
		return;
	err = device_rename(&nd->dev, nd->netdev->name);
	if (err)
		netdev_warn(nd->netdev,
			    "nicprog: class device keeps name %s: %d\n",
			    dev_name(&nd->dev), err);
}

static int nicprog_netdev_event(struct notifier_block *nb,
				unsigned long event, void *ptr)
{
	struct net_device *netdev = netdev_notifier_info_to_dev(ptr);
	struct nicprog_dev *nd;

	nd = nicprog_dev_find(netdev);
	if (!nd)
		return NOTIFY_DONE;

	switch (event) {
	case NETDEV_CHANGENAME:
	case NETDEV_REGISTER:	/* after a move to another namespace */
		nicprog_dev_sync_name(nd);
		nicprog_debugfs_rename(nd);
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block nicprog_netdev_nb = {
	.notifier_call = nicprog_netdev_event,
};

static int __init nicprog_init(void)
{
	int err;

	err = nicprog_ring_init();
	if (err)
		return err;
	err = nicprog_sysfs_init();
	if (err)
		goto err_ring_exit;
	nicprog_debugfs_init();
	err = register_netdevice_notifier(&nicprog_netdev_nb);
	if (err)
		goto err_debugfs_exit;
	err = nicprog_nl_init();
	if (err)
		goto err_unregister_notifier;
	return 0;

err_unregister_notifier:
	unregister_netdevice_notifier(&nicprog_netdev_nb);
err_debugfs_exit:
	nicprog_debugfs_exit();
	nicprog_sysfs_exit();
err_ring_exit:
	nicprog_ring_exit();
	return err;
}

static void __exit nicprog_exit(void)
{
	nicprog_nl_exit();
	unregister_netdevice_notifier(&nicprog_netdev_nb);
	/* Drivers hold a module reference on us while they have ports. */
	WARN_ON(!list_empty(&nicprog_devs));
	nicprog_debugfs_exit();
	nicprog_sysfs_exit();
	nicprog_ring_exit();
}

module_init(nicprog_init);
module_exit(nicprog_exit);
MODULE_DESCRIPTION("nicprog: programmable SmartNIC offload core");
MODULE_LICENSE("GPL");
