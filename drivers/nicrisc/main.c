// SPDX-License-Identifier: GPL-2.0
/*
 * nicrisc's bus, devices and module: "echo ID PORTS > new_device" in
 * /sys/bus/nicrisc makes a NIC of PORTS ports (its devlink instance, its
 * nicprog NIC, its netdevs nicrisc<ID>p<N>), "echo ID > del_device"
 * removes it, as netdevsim's bus does. A device is bound to the nicrisc
 * driver from its creation to its removal: from 6.3 devlink names the
 * bound driver in "devlink dev info".
 *
 * Lock order: nicrisc_devs_lock, then a device's devlink instance lock,
 * then RTNL. No devlink callback takes nicrisc_devs_lock.
 */
#include <linux/device.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <net/devlink.h>
#include <net/nicprog_compat.h>

#include "nicrisc.h"

#define NICRISC_MAX_ID		65535

static LIST_HEAD(nicrisc_devs);
static DEFINE_MUTEX(nicrisc_devs_lock);	/* the three below */
/* new_device works from module init to exit, a write racing exit not */
static bool nicrisc_bus_enabled;

static struct nicrisc_dev *nicrisc_dev_find(u32 id)
{
	struct nicrisc_dev *ndev;

	lockdep_assert_held(&nicrisc_devs_lock);
	list_for_each_entry(ndev, &nicrisc_devs, list)
		if (ndev->id == id)
			return ndev;
	return NULL;
}

static void nicrisc_dev_release(struct device *dev)
{
	kfree(container_of(dev, struct nicrisc_dev, dev));
}

static nicprog_bus_type_t nicrisc_bus;

/* Remove a device's ports, its NIC, its instance. nicrisc_devs_lock held. */
static void nicrisc_dev_destroy(struct nicrisc_dev *ndev)
{
	devl_lock(ndev->devlink);
	ndev->live = false;
	nicrisc_ports_destroy(ndev);
	devl_unlock(ndev->devlink);
	nicprog_nic_unregister(ndev->nic);
	nicrisc_devlink_exit(ndev);
	device_unregister(&ndev->dev);
}

static struct nicrisc_dev *nicrisc_dev_create(u32 id, u32 port_count)
{
	struct nicrisc_dev *ndev;
	int err;

	ndev = kzalloc(sizeof(*ndev), GFP_KERNEL);
	if (!ndev)
		return ERR_PTR(-ENOMEM);
	ndev->id = id;
	ndev->port_count = port_count;
	device_initialize(&ndev->dev);
	ndev->dev.bus = &nicrisc_bus;
	ndev->dev.release = nicrisc_dev_release;
	err = dev_set_name(&ndev->dev, NICRISC_DRV_NAME "%u", id);
	if (err)
		goto err_put_device;
	err = device_add(&ndev->dev);
	if (err)
		goto err_put_device;
	/* the driver's own instance, registered before nicprog adds to it */
	err = nicrisc_devlink_init(ndev);
	if (err)
		goto err_device_del;
	ndev->nic = nicprog_nic_register(&ndev->dev, ndev->devlink,
					 &nicrisc_lnic, &nicrisc_nicprog_ops,
					 ndev, port_count);
	if (IS_ERR(ndev->nic)) {
		err = PTR_ERR(ndev->nic);
		goto err_devlink_exit;
	}
	devl_lock(ndev->devlink);
	err = nicrisc_ports_create(ndev);
	ndev->live = !err;
	devl_unlock(ndev->devlink);
	if (err)
		goto err_nic_unregister;
	return ndev;

err_nic_unregister:
	nicprog_nic_unregister(ndev->nic);
err_devlink_exit:
	nicrisc_devlink_exit(ndev);
err_device_del:
	device_del(&ndev->dev);
err_put_device:
	put_device(&ndev->dev);
	return ERR_PTR(err);
}

static ssize_t new_device_store(nicprog_bus_type_t *bus, const char *buf,
				size_t count)
{
	struct nicrisc_dev *ndev;
	u32 id, port_count = 2;
	char end;
	int n, err = 0;

	n = sscanf(buf, "%u %u %c", &id, &port_count, &end);
	if (n < 1 || n > 2 || id > NICRISC_MAX_ID || !port_count ||
	    port_count > NICRISC_MAX_PORTS) {
		pr_err("new_device: expected \"ID [PORTS]\", ID 0..%u, PORTS 1..%u\n",
		       NICRISC_MAX_ID, NICRISC_MAX_PORTS);
		return -EINVAL;
	}
	mutex_lock(&nicrisc_devs_lock);
	if (!nicrisc_bus_enabled) {
		err = -ENODEV;
		goto out_unlock;
	}
	if (nicrisc_dev_find(id)) {
		pr_err("new_device: device %u already exists\n", id);
		err = -EEXIST;
		goto out_unlock;
	}
	ndev = nicrisc_dev_create(id, port_count);
	if (IS_ERR(ndev)) {
		err = PTR_ERR(ndev);
		pr_err("new_device: cannot create device %u: %d\n", id, err);
		goto out_unlock;
	}
	list_add_tail(&ndev->list, &nicrisc_devs);
out_unlock:
	mutex_unlock(&nicrisc_devs_lock);
	return err ?: count;
}
static BUS_ATTR_WO(new_device);

static ssize_t del_device_store(nicprog_bus_type_t *bus, const char *buf,
				size_t count)
{
	struct nicrisc_dev *ndev;
	int err = 0;
	char end;
	u32 id;

	if (sscanf(buf, "%u %c", &id, &end) != 1) {
		pr_err("del_device: expected \"ID\"\n");
		return -EINVAL;
	}
	mutex_lock(&nicrisc_devs_lock);
	ndev = nicrisc_dev_find(id);
	if (ndev) {
		list_del(&ndev->list);
		nicrisc_dev_destroy(ndev);
	} else {
		pr_err("del_device: no device %u\n", id);
		err = -ENOENT;
	}
	mutex_unlock(&nicrisc_devs_lock);
	return err ?: count;
}
static BUS_ATTR_WO(del_device);

static struct attribute *nicrisc_bus_attrs[] = {
	&bus_attr_new_device.attr,
	&bus_attr_del_device.attr,
	NULL,
};
ATTRIBUTE_GROUPS(nicrisc_bus);

static nicprog_bus_type_t nicrisc_bus = {
	.name		= NICRISC_DRV_NAME,
	.dev_name	= NICRISC_DRV_NAME,
	.bus_groups	= nicrisc_bus_groups,
};

/* Binding does nothing: a device lives from new_device to del_device. */
static struct device_driver nicrisc_driver = {
	.name			= NICRISC_DRV_NAME,
	.bus			= &nicrisc_bus,
	.suppress_bind_attrs	= true,
};

static int __init nicrisc_init(void)
{
	int err;

	err = bus_register(&nicrisc_bus);
	if (err)
		return err;
	err = driver_register(&nicrisc_driver);
	if (err) {
		bus_unregister(&nicrisc_bus);
		return err;
	}
	mutex_lock(&nicrisc_devs_lock);
	nicrisc_bus_enabled = true;
	mutex_unlock(&nicrisc_devs_lock);
	return 0;
}

static void __exit nicrisc_exit(void)
{
	struct nicrisc_dev *ndev, *tmp;

	mutex_lock(&nicrisc_devs_lock);
	nicrisc_bus_enabled = false;
	list_for_each_entry_safe(ndev, tmp, &nicrisc_devs, list) {
		list_del(&ndev->list);
		nicrisc_dev_destroy(ndev);
	}
	mutex_unlock(&nicrisc_devs_lock);
	driver_unregister(&nicrisc_driver);
	bus_unregister(&nicrisc_bus);
}

module_init(nicrisc_init);
module_exit(nicrisc_exit);

MODULE_DESCRIPTION("nicprog's second driver: a NIC of cores with their own instruction set");
MODULE_LICENSE("GPL");
