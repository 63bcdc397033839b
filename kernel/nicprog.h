/* SPDX-License-Identifier: GPL-2.0 */
/* nicprog core: private definitions shared by the core's files. */
#ifndef _NICPROG_CORE_H
#define _NICPROG_CORE_H

#include <linux/device.h>
#include <linux/list.h>
#include <net/nicprog.h>

/**
 * struct nicprog_dev - one registered SmartNIC port
 * @dev: class device /sys/class/nicprog/<ifname>; its refcount owns this
 *	structure, which is freed by its release callback
 * @netdev: the port; the driver unregisters us before unregistering it, so
 *	no reference is held
 * @lnic: the driver's description of the NIC, driver-owned and constant
 * @ops: the driver's operations
 * @sum: @lnic summarized once at registration
 * @list: entry in nicprog_devs, under RTNL
 */
struct nicprog_dev {
	struct device dev;
	struct net_device *netdev;
	const struct nicprog_lnic *lnic;
	const struct nicprog_dev_ops *ops;
	struct nicprog_lnic_summary sum;
	struct list_head list;
};

static inline struct nicprog_dev *to_nicprog_dev(struct device *dev)
{
	return container_of(dev, struct nicprog_dev, dev);
}

extern struct class nicprog_class;

int nicprog_sysfs_init(void);
void nicprog_sysfs_exit(void);

#endif /* _NICPROG_CORE_H */
