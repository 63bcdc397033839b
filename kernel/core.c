// SPDX-License-Identifier: GPL-2.0
/*
 * nicprog core: registry of SmartNIC NICs and their ports, and the
 * vendor driver contract.
 *
 * Locking: the registries (nicprog_nics, nicprog_devs) are protected by
 * RTNL, which every path that changes or looks up a port holds: drivers
 * register and unregister ports under it (next to register_netdevice()
 * and unregister_netdevice()), netdev notifiers and ndo_bpf run under it.
 * A NIC is registered and unregistered without RTNL, which it takes:
 * devlink's lock comes first (devlink.c). sysfs show callbacks never take
 * RTNL, because device_del() under RTNL waits for them.
 *
 * Lifetime: a NIC (struct nicprog_nic) is referenced by its driver's
 * registration and by each port; its programs and tables belong to it,
 * never to a port, because the BPF core moves them to a sibling when
 * their port goes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>

#include "nicprog.h"

static LIST_HEAD(nicprog_devs);
static LIST_HEAD(nicprog_nics);

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
static int nicprog_lnic_check(struct device *dev,
			      const struct nicprog_dev_ops *ops,
			      const struct nicprog_lnic *lnic)
{
	char why[128];
	u32 i;

	if (nicprog_lnic_validate(lnic, why, sizeof(why))) {
		dev_err(dev, "nicprog: invalid LNIC: %s\n", why);
		return -EINVAL;
	}
	for (i = 0; i < lnic->n_units; i++)
		if (lnic->units[i].type == NICPROG_UNIT_ACCEL && !ops->accel_run) {
			dev_err(dev, "nicprog: LNIC has accelerators but ops lack accel_run\n");
			return -EINVAL;
		}
	return 0;
}

static void nicprog_nic_release(struct kref *kref)
{
	struct nicprog_nic *nic = container_of(kref, struct nicprog_nic, kref);

	mutex_destroy(&nic->lock);
	kfree(nic);
}

/**
 * nicprog_nic_put() - drop a reference to a NIC
 * @nic: the NIC
 *
 * Context: process.
 */
void nicprog_nic_put(struct nicprog_nic *nic)
{
	kref_put(&nic->kref, nicprog_nic_release);
}

/* Does the NIC list only helpers the executor runs (so the core checks)? */
static bool helpers_valid(const struct nicprog_dev_ops *ops)
{
	const s32 *h;

	for (h = ops->helpers; h && *h; h++)
		if (!nicprog_exec_helper_supported(*h))
			return false;
	return true;
}

/*
 * A driver's table storage has every operation, and a lookup for the core's
 * interpreter unless the driver translates every stage.
 */
static bool table_ops_valid(const struct nicprog_dev_ops *ops)
{
	const struct nicprog_table_ops *t = ops->table_ops;

	return !t || (t->alloc && t->free && t->read && t->update &&
		      t->delete && t->next_key && t->entries &&
		      (t->lookup || ops->stage_translate));
}

/**
 * nicprog_nic_register() - make a device a nicprog SmartNIC
 * @dev: the NIC's device, parent of its ports' netdevs; kept by the
 *	driver until nicprog_nic_unregister()
 * @devlink: the driver's devlink instance of the NIC, allocated, and
 *	registered or not; kept until nicprog_nic_unregister()
 * @lnic: description of the NIC; must stay valid and unchanged until
 *	nicprog_nic_unregister() or its replacement (nicprog_lnic_replace_end())
 * @ops: the driver's operations; required members must be set
 * @priv: the driver's, returned by nicprog_nic_priv()
 * @ports: the NIC's ports, registered later by index with
 *	nicprog_register()
 *
 * The NIC is what its ports share: one BPF offload device (a program or
 * map bound to one port is usable on the others), its cores, units and
 * memory, which the core gives out among the ports' plans. On @devlink
 * the core registers the NIC's resources (cores, units, regions, with
 * what the plans hold of them) and the "cores" health reporter; the
 * instance, its ports, parameters and reload stay the driver's
 * (nicprog_devlink_info_put() and nicprog_devlink_reload_check() serve
 * its ops). Register the NIC before its ports and unregister it after
 * them. A bad @lnic or @ops is a driver bug, logged with its reason.
 *
 * Context: process; takes RTNL and devlink's lock, so hold neither.
 * Return: the NIC, or an ERR_PTR: -EINVAL for a bad @lnic, @ops,
 * @devlink or @ports, -ENOMEM, or devlink's error.
 */
struct nicprog_nic *nicprog_nic_register(struct device *dev,
					 struct devlink *devlink,
					 const struct nicprog_lnic *lnic,
					 const struct nicprog_dev_ops *ops,
					 void *priv, u32 ports)
{
	struct nicprog_nic *nic;
	int err;

	if (!ops || !ops->port_stats || !ops->plan_load || !ops->plan_unload ||
	    (ops->stage_translate && !ops->stage_release)) {
		dev_err(dev, "nicprog: ops table lacks a required member\n");
		return ERR_PTR(-EINVAL);
	}
	if (!table_ops_valid(ops)) {
		dev_err(dev, "nicprog: table_ops lacks a required member\n");
		return ERR_PTR(-EINVAL);
	}
	if (!helpers_valid(ops)) {
		dev_err(dev, "nicprog: helpers lists one the executor does not run\n");
		return ERR_PTR(-EINVAL);
	}
	if (!ports) {
		dev_err(dev, "nicprog: a NIC has ports\n");
		return ERR_PTR(-EINVAL);
	}
	if (!devlink) {
		dev_err(dev, "nicprog: a NIC has a devlink instance\n");
		return ERR_PTR(-EINVAL);
	}
	err = nicprog_lnic_check(dev, ops, lnic);
	if (err)
		return ERR_PTR(err);
	nic = kzalloc(sizeof(*nic), GFP_KERNEL);
	if (!nic)
		return ERR_PTR(-ENOMEM);
	kref_init(&nic->kref);
	nic->dev = dev;
	nic->ops = ops;
	nic->priv = priv;
	nic->devlink = devlink;
	nic->n_ports = ports;
	nic->lnic = lnic;
	nicprog_lnic_summarize(lnic, &nic->sum);
	mutex_init(&nic->lock);
	INIT_LIST_HEAD(&nic->ports);
	INIT_LIST_HEAD(&nic->progs);
	INIT_LIST_HEAD(&nic->tables);
	err = nicprog_bpf_init(nic);
	if (err)
		goto err_put;
	err = nicprog_devlink_init(nic);
	if (err)
		goto err_bpf_exit;
	rtnl_lock();
	list_add_tail(&nic->list, &nicprog_nics);
	rtnl_unlock();
	return nic;

err_bpf_exit:
	nicprog_bpf_exit(nic);
err_put:
	nicprog_nic_put(nic);
	return ERR_PTR(err);
}
EXPORT_SYMBOL_GPL(nicprog_nic_register);

/**
 * nicprog_nic_unregister() - undo nicprog_nic_register()
 * @nic: the NIC, whose ports are all unregistered
 *
 * When this returns, no callback into the driver's ops for @nic runs or
 * will run, and @nic is not to be used.
 *
 * Context: process; takes RTNL and devlink's lock, so hold neither.
 */
void nicprog_nic_unregister(struct nicprog_nic *nic)
{
	rtnl_lock();
	WARN_ON(!list_empty(&nic->ports));
	spin_lock_bh(&nic->health_lock);
	nic->dead = true;
	spin_unlock_bh(&nic->health_lock);
	list_del(&nic->list);
	rtnl_unlock();
	nicprog_devlink_exit(nic);
	nicprog_bpf_exit(nic);
	nicprog_nic_put(nic);
}
EXPORT_SYMBOL_GPL(nicprog_nic_unregister);

/**
 * nicprog_nic_priv() - the driver's data of a NIC
 * @nic: the NIC
 *
 * Context: any.
 * Return: the @priv given to nicprog_nic_register().
 */
void *nicprog_nic_priv(const struct nicprog_nic *nic)
{
	return nic->priv;
}
EXPORT_SYMBOL_GPL(nicprog_nic_priv);

/**
 * nicprog_profile_name_ok() - is @name a profile's name
 * @name: a NUL-terminated string
 *
 * 1 to NICPROG_PROFILE_NAME_MAX - 1 letters, digits, '_', '-' or '.', not
 * '.' first: what a profile names itself, and a file name a driver may
 * look up (nicsim: nicsim/<name>.lnic), never a path. Checked by every
 * path that hands a name to &nicprog_dev_ops.profile_request, at once:
 * devlink's profile parameter when it is set, not at the reload.
 *
 * Context: any.
 * Return: true if it is.
 */
bool nicprog_profile_name_ok(const char *name)
{
	size_t i, len = strnlen(name, NICPROG_PROFILE_NAME_MAX);

	if (!len || len == NICPROG_PROFILE_NAME_MAX || name[0] == '.')
		return false;
	for (i = 0; i < len; i++)
		if (!isalnum(name[i]) && !strchr("_-.", name[i]))
			return false;
	return true;
}
EXPORT_SYMBOL_GPL(nicprog_profile_name_ok);

/**
 * nicprog_dev_nic() - the NIC a port belongs to
 * @nd: the port
 *
 * Context: any.
 * Return: the NIC given to nicprog_register().
 */
struct nicprog_nic *nicprog_dev_nic(const struct nicprog_dev *nd)
{
	return nd->nic;
}
EXPORT_SYMBOL_GPL(nicprog_dev_nic);

static void nicprog_dev_release(struct device *dev)
{
	struct nicprog_dev *nd = to_nicprog_dev(dev);

	nicprog_nic_put(nd->nic);
	kvfree(nd->plan_text);
	kvfree(nd->facts);
	mutex_destroy(&nd->plan_lock);
	mutex_destroy(&nd->ring_lock);
	kfree(nd);
}

/* The port registered as @index of @nic, or NULL. RTNL held. */
static struct nicprog_dev *nicprog_nic_port(struct nicprog_nic *nic, u32 index)
{
	struct nicprog_dev *nd;

	list_for_each_entry(nd, &nic->ports, nic_node)
		if (nd->index == index)
			return nd;
	return NULL;
}

/**
 * nicprog_register() - make a netdev a port of a nicprog SmartNIC
 * @nic: the port's NIC
 * @index: the port's number on the NIC, below the ports given to
 *	nicprog_nic_register()
 * @netdev: the port, already registered with register_netdevice()
 *
 * Makes the port a BPF offload target of @nic's offload device and
 * creates /sys/class/nicprog/<ifname>. Its devlink port, if it has one,
 * is the driver's.
 *
 * Context: process, RTNL held.
 * Return: the new port, or an ERR_PTR: -EINVAL for a bad @index, -EEXIST
 * if @netdev or @index is already registered, -ENODEV if @nic is being
 * unregistered, -ENOMEM, or the error of device_add() (-EEXIST when
 * another port already has the name).
 */
struct nicprog_dev *nicprog_register(struct nicprog_nic *nic, u32 index,
				     struct net_device *netdev)
{
	struct nicprog_dev *nd;
	int err;

	ASSERT_RTNL();
	if (nic->dead)
		return ERR_PTR(-ENODEV);
	if (index >= nic->n_ports)
		return ERR_PTR(-EINVAL);
	if (nicprog_dev_find(netdev) || nicprog_nic_port(nic, index))
		return ERR_PTR(-EEXIST);

	nd = kzalloc(sizeof(*nd), GFP_KERNEL);
	if (!nd)
		return ERR_PTR(-ENOMEM);
	nd->netdev = netdev;
	kref_get(&nic->kref);
	nd->nic = nic;
	nd->index = index;
	nd->ops = nic->ops;
	INIT_LIST_HEAD(&nd->list);
	INIT_LIST_HEAD(&nd->nic_node);
	mutex_init(&nd->plan_lock);
	mutex_init(&nd->ring_lock);
	INIT_LIST_HEAD(&nd->ring_files);
	nicprog_events_init(nd);

	device_initialize(&nd->dev);
	nd->dev.class = &nicprog_class;
	nd->dev.parent = netdev->dev.parent;
	nd->dev.release = nicprog_dev_release;
	/* Under RTNL the name cannot change until the notifier can see us. */
	err = dev_set_name(&nd->dev, "%s", netdev->name);
	if (err)
		goto err_put_device;
	err = bpf_offload_dev_netdev_register(nic->offdev, netdev);
	if (err)
		goto err_put_device;
	err = nicprog_node_devt_get(nd);
	if (err)
		goto err_bpf_unregister;
	/* the class device and its /dev/nicprog/port<N>, numbered */
	err = cdev_device_add(&nd->cdev, &nd->dev);
	if (err) {
		nicprog_node_devt_put(nd);
		netdev_err(netdev, "nicprog: cannot add class device: %d\n",
			   err);
		goto err_bpf_unregister;
	}
	list_add_tail(&nd->list, &nicprog_devs);
	mutex_lock(&nic->lock);
	list_add_tail(&nd->nic_node, &nic->ports);
	mutex_unlock(&nic->lock);
	nicprog_debugfs_add(nd);
	return nd;

err_bpf_unregister:
	bpf_offload_dev_netdev_unregister(nic->offdev, netdev);
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
 * offloaded XDP program), before free_netdev(). Programs and maps bound
 * to the port move to another port of the NIC, or are destroyed with the
 * NIC's last port. When this returns, no callback into the driver's ops
 * for @nd runs or will run.
 *
 * Context: process, RTNL held.
 */
void nicprog_unregister(struct nicprog_dev *nd)
{
	ASSERT_RTNL();
	WARN_ON(nd->xdp_prog || nd->plan);
	list_del(&nd->list);
	nicprog_debugfs_remove(nd);
	/* tables keep no port: they may move to a sibling here */
	bpf_offload_dev_netdev_unregister(nd->nic->offdev, nd->netdev);
	mutex_lock(&nd->nic->lock);
	list_del_init(&nd->nic_node);
	/* its files' kernels hold no core of a NIC it left */
	nd->job_core = (struct nicprog_run){ 0, 0 };
	mutex_unlock(&nd->nic->lock);
	nicprog_node_del(nd);
	/* the node goes by the name it was made with: its number */
	cdev_device_del(&nd->cdev, &nd->dev);
	nicprog_node_devt_put(nd);
	nicprog_events_stop(nd);
	put_device(&nd->dev);
}
EXPORT_SYMBOL_GPL(nicprog_unregister);

/**
 * nicprog_register_netdevice() - register a port's netdev, then the port
 * @nic: the port's NIC
 * @index: the port's number on @nic
 * @netdev: the port's netdev, set up and not registered
 *
 * register_netdevice() and nicprog_register() in the one RTNL section a
 * port must be registered in, so that no one meets the netdev without
 * its port (its ndo_bpf forwards to it). If the port cannot be
 * registered, the netdev is unregistered again.
 *
 * Context: process, RTNL held.
 * Return: the port, or an ERR_PTR with @netdev not registered.
 */
struct nicprog_dev *nicprog_register_netdevice(struct nicprog_nic *nic,
					       u32 index,
					       struct net_device *netdev)
{
	struct nicprog_dev *nd;
	int err;

	ASSERT_RTNL();
	err = register_netdevice(netdev);
	if (err)
		return ERR_PTR(err);
	nd = nicprog_register(nic, index, netdev);
	if (IS_ERR(nd))
		unregister_netdevice(netdev);
	return nd;
}
EXPORT_SYMBOL_GPL(nicprog_register_netdevice);

/**
 * nicprog_unregister_netdevice() - undo nicprog_register_netdevice()
 * @nd: the port
 *
 * unregister_netdevice() of the port's netdev (which removes its
 * offloaded program), then nicprog_unregister(); free_netdev() is the
 * driver's, after RTNL is dropped.
 *
 * Context: process, RTNL held.
 */
void nicprog_unregister_netdevice(struct nicprog_dev *nd)
{
	ASSERT_RTNL();
	unregister_netdevice(nd->netdev);
	nicprog_unregister(nd);
}
EXPORT_SYMBOL_GPL(nicprog_unregister_netdevice);

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
	struct nicprog_nic *nic = nd->nic;
	struct nicprog_core_stats *cs;
	struct nicprog_run run;
	u32 i;

	if (!nic->ops->core_stats)
		return ERR_PTR(-EOPNOTSUPP);
	cs = kcalloc(NICPROG_MAX_CORES, sizeof(*cs), GFP_KERNEL);
	if (!cs)
		return ERR_PTR(-ENOMEM);
	*n = min_t(u32, nic->ops->core_stats(nic, cs, NICPROG_MAX_CORES),
		   NICPROG_MAX_CORES);
	/* the port's plan runs on the NIC's cores the core gave it */
	mutex_lock(&nic->lock);
	run = nd->runs[NICPROG_POOL_CORES];
	mutex_unlock(&nic->lock);
	for (i = 0; i < *n; i++)
		cs[i].plan_core = i >= run.base && i - run.base < run.n ?
				  i - run.base : NICPROG_CORE_NONE;
	return cs;
}

/**
 * nicprog_lnic_replace_begin() - prepare to replace a NIC's LNIC
 * @nic: the NIC
 * @lnic: the LNIC to come, validated here
 *
 * A NIC that takes another architecture profile (a reflashed FPGA shell,
 * nicsim's profile file) changes what every plan, table and verification
 * of its ports was made for, so none may exist: no program loaded for or
 * attached to a port, no map offloaded to the NIC. From here until
 * nicprog_lnic_replace_end() no program can be prepared for the NIC (a
 * load fails with EBUSY); the caller holds RTNL throughout, which keeps
 * maps and attaches out. Each refusal is logged with its cause.
 *
 * Context: process, RTNL held.
 * Return: 0; -EBUSY if a program, map or host buffer (ring/mem.c) is
 * bound to the NIC; -EINVAL
 * for an LNIC the NIC cannot take.
 */
int nicprog_lnic_replace_begin(struct nicprog_nic *nic,
			       const struct nicprog_lnic *lnic)
{
	int err;

	ASSERT_RTNL();
	err = nicprog_lnic_check(nic->dev, nic->ops, lnic);
	if (err)
		return err;
	mutex_lock(&nic->lock);
	if (nic->n_progs || nic->n_tables || nic->n_bufs) {
		dev_err(nic->dev,
			"nicprog: cannot take profile %s: %u programs, %u maps and %u host buffers are bound to the NIC\n",
			lnic->name, nic->n_progs, nic->n_tables, nic->n_bufs);
		err = -EBUSY;
	} else {
		nic->lnic_frozen = true;
	}
	mutex_unlock(&nic->lock);
	return err;
}
EXPORT_SYMBOL_GPL(nicprog_lnic_replace_begin);

/**
 * nicprog_lnic_replace_end() - end nicprog_lnic_replace_begin()
 * @nic: the NIC
 * @lnic: its LNIC from now on, the one given to _begin(); NULL to keep
 *	the old one (the driver could not switch)
 *
 * A port's plan_cores setting more than the new NIC's cores is reset to
 * 0 (all), and its engine share of a type the new NIC has no engine of
 * to all on the engines.
 *
 * Context: process, RTNL held since _begin().
 */
void nicprog_lnic_replace_end(struct nicprog_nic *nic,
			      const struct nicprog_lnic *lnic)
{
	struct nicprog_dev *nd;
	u32 t;

	ASSERT_RTNL();
	mutex_lock(&nic->lock);
	if (lnic) {
		nic->lnic = lnic;
		nicprog_lnic_summarize(lnic, &nic->sum);
	}
	nic->lnic_frozen = false;
	mutex_unlock(&nic->lock);
	if (!lnic)
		return;
	nicprog_devlink_lnic_changed(nic);
	list_for_each_entry(nd, &nic->ports, nic_node) {
		mutex_lock(&nd->plan_lock);
		if (nd->plan_cores > nic->sum.cores) {
			netdev_info(nd->netdev,
				    "nicprog: plan_cores %u reset to 0: profile %s has %u cores\n",
				    nd->plan_cores, lnic->name, nic->sum.cores);
			nd->plan_cores = 0;
		}
		for (t = NICPROG_ACCEL_NONE + 1; t < __NICPROG_ACCEL_MAX; t++)
			if (nd->plan_body16[t] && !nic->sum.accels[t]) {
				netdev_info(nd->netdev,
					    "nicprog: engine share of %s reset to 16: profile %s has no such engine\n",
					    nicprog_accel_type_name(t),
					    lnic->name);
				nd->plan_body16[t] = 0;
			}
		mutex_unlock(&nd->plan_lock);
	}
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

/**
 * nicprog_dev_priv() - the driver's data of a registered port
 * @nd: the port
 *
 * What the port-level ops reach their port by, as nicprog_nic_priv() is
 * for the NIC-level ones.
 *
 * Context: any.
 * Return: the private area of the port's netdev (netdev_priv()).
 */
void *nicprog_dev_priv(const struct nicprog_dev *nd)
{
	return netdev_priv(nd->netdev);
}
EXPORT_SYMBOL_GPL(nicprog_dev_priv);

/*
 * Keep /sys/class/nicprog/<ifname> named after the port, and in its
 * namespace: after a move (@moved) the device is renamed to the name it
 * has, which tags it with the new namespace, as the net core does with
 * the netdev's own device.
 */
static void nicprog_dev_sync_name(struct nicprog_dev *nd, bool moved)
{
	int err;

	if (!moved && !strcmp(dev_name(&nd->dev), nd->netdev->name))
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
		nicprog_dev_sync_name(nd, false);
		nicprog_debugfs_rename(nd);
		break;
	case NETDEV_REGISTER:	/* after a move to another namespace */
		nicprog_dev_sync_name(nd, true);
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

	err = nicprog_node_init();
	if (err)
		return err;
	err = nicprog_sysfs_init();
	if (err)
		goto err_node_exit;
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
err_node_exit:
	nicprog_node_exit();
	return err;
}

static void __exit nicprog_exit(void)
{
	nicprog_nl_exit();
	unregister_netdevice_notifier(&nicprog_netdev_nb);
	/* Drivers hold a module reference on us while they have NICs. */
	WARN_ON(!list_empty(&nicprog_devs) || !list_empty(&nicprog_nics));
	nicprog_debugfs_exit();
	nicprog_sysfs_exit();
	nicprog_node_exit();
}

module_init(nicprog_init);
module_exit(nicprog_exit);
MODULE_DESCRIPTION("nicprog: programmable SmartNIC offload core");
MODULE_LICENSE("GPL");
