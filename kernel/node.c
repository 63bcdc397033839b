// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/nicprog/port<N>: a port's device node. The core gives each port's
 * class device /sys/class/nicprog/<ifname> a device number and a cdev;
 * what the node does -- streaming rings, NIC memory, jobs, RDMA -- is
 * nicprog_ring.ko's, which registers its file operations here
 * (nicprog_ring_ops_register()). The core calls nothing of that module
 * by symbol, so a driver without rings never loads it.
 *
 * The node is named by its minor, N, not by the netdev: devtmpfs removes
 * a node by the name the device has when it goes, so a node named after
 * an interface that was renamed since would stay behind, and open the
 * next port given its minor. Minors are handed out in turn (cyclically),
 * so a number comes back only after every other one has been used.
 *
 * Opening the node swaps in the ring module's file operations
 * (replace_fops(), as misc devices do), which hold that module for as
 * long as the file is open. The registered ops are read under
 * nicprog_ring_ops_lock with a reference on their module taken there;
 * the ring module unregisters them in its exit, which runs only once no
 * file and no caller holds such a reference.
 */
#include <linux/cdev.h>
#include <linux/fs.h>
#include <linux/kmod.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <net/nicprog_compat.h>

#include "nicprog.h"

#define NICPROG_NODE_MINORS	BIT(16)

static dev_t nicprog_node_devt;
/* the ports by minor; allocated cyclically from nicprog_node_next */
static DEFINE_XARRAY_ALLOC(nicprog_node_minors);
static u32 nicprog_node_next;

static DEFINE_MUTEX(nicprog_ring_ops_lock);
static const struct nicprog_ring_ops *nicprog_ring_ops;

/**
 * nicprog_ring_ops_register() - take over the ports' device nodes
 * @ops: the ring module's operations; they must outlive the registration
 *
 * Context: process; the ring module's init.
 * Return: 0, or -EBUSY if another module's are registered.
 */
int nicprog_ring_ops_register(const struct nicprog_ring_ops *ops)
{
	int err = 0;

	mutex_lock(&nicprog_ring_ops_lock);
	if (nicprog_ring_ops)
		err = -EBUSY;
	else
		nicprog_ring_ops = ops;
	mutex_unlock(&nicprog_ring_ops_lock);
	return err;
}
EXPORT_SYMBOL_NS_GPL(nicprog_ring_ops_register, NICPROG_INTERNAL);

/**
 * nicprog_ring_ops_unregister() - undo nicprog_ring_ops_register()
 * @ops: what was registered
 *
 * Context: process; the ring module's exit, when nothing holds it.
 */
void nicprog_ring_ops_unregister(const struct nicprog_ring_ops *ops)
{
	mutex_lock(&nicprog_ring_ops_lock);
	if (!WARN_ON(nicprog_ring_ops != ops))
		nicprog_ring_ops = NULL;
	mutex_unlock(&nicprog_ring_ops_lock);
}
EXPORT_SYMBOL_NS_GPL(nicprog_ring_ops_unregister, NICPROG_INTERNAL);

/* The registered ops with their module held, or NULL; nicprog_ring_ops_put() */
static const struct nicprog_ring_ops *nicprog_ring_ops_get(void)
{
	const struct nicprog_ring_ops *ops;

	mutex_lock(&nicprog_ring_ops_lock);
	ops = nicprog_ring_ops;
	if (ops && !try_module_get(ops->owner))
		ops = NULL;
	mutex_unlock(&nicprog_ring_ops_lock);
	return ops;
}

static void nicprog_ring_ops_put(const struct nicprog_ring_ops *ops)
{
	module_put(ops->owner);
}

static int nicprog_node_open(struct inode *inode, struct file *file)
{
	const struct nicprog_ring_ops *ops = nicprog_ring_ops_get();

	if (!ops) {
		request_module("nicprog_ring");
		ops = nicprog_ring_ops_get();
		if (!ops)
			return -ENODEV;
	}
	/* the file keeps the module reference taken above (ops->fops->owner) */
	replace_fops(file, ops->fops);
	return file->f_op->open(inode, file);
}

static const struct file_operations nicprog_node_fops = {
	.owner	= THIS_MODULE,
	.open	= nicprog_node_open,
};

/**
 * nicprog_node_devt_get() - give a port's class device its number and cdev
 * @nd: the port, its class device initialized, not added
 *
 * The class device then goes in with cdev_device_add() (core.c), which
 * makes /dev/nicprog/port<N>.
 *
 * Context: process, RTNL held (nicprog_register()).
 * Return: 0 or -errno.
 */
int nicprog_node_devt_get(struct nicprog_dev *nd)
{
	u32 minor;
	int err;

	err = xa_alloc_cyclic(&nicprog_node_minors, &minor, nd,
			      XA_LIMIT(0, NICPROG_NODE_MINORS - 1),
			      &nicprog_node_next, GFP_KERNEL);
	if (err < 0)
		return err;
	nd->dev.devt = MKDEV(MAJOR(nicprog_node_devt), minor);
	cdev_init(&nd->cdev, &nicprog_node_fops);
	nd->cdev.owner = THIS_MODULE;
	return 0;
}

/**
 * nicprog_node_devt_put() - give the number back
 * @nd: the port, its class device not added or deleted already
 *
 * Context: process, RTNL held.
 */
void nicprog_node_devt_put(struct nicprog_dev *nd)
{
	xa_erase(&nicprog_node_minors, MINOR(nd->dev.devt));
}

/**
 * nicprog_node_del() - end what the port's open files reach, before its
 *	class device goes
 * @nd: the port, being unregistered
 *
 * Commands on the port's open files fail with ENODEV from here on; with
 * no ring module (so no open file), the port is only marked.
 *
 * Context: process, RTNL held (nicprog_unregister()).
 */
void nicprog_node_del(struct nicprog_dev *nd)
{
	const struct nicprog_ring_ops *ops = nicprog_ring_ops_get();

	if (ops) {
		ops->port_gone(nd);
		nicprog_ring_ops_put(ops);
		return;
	}
	mutex_lock(&nd->ring_lock);
	WRITE_ONCE(nd->ring_dead, true);
	mutex_unlock(&nd->ring_lock);
}

/**
 * nicprog_node_output_stats() - the RX pipe bound to an NF output
 * @nd: the port
 * @out: the output, below NICPROG_RING_OUTPUTS
 * @st: filled in if a pipe is bound
 *
 * Context: process.
 * Return: true if a pipe is bound to @out.
 */
bool nicprog_node_output_stats(struct nicprog_dev *nd, u32 out,
			       struct nicprog_pipe_stats *st)
{
	const struct nicprog_ring_ops *ops = nicprog_ring_ops_get();
	bool bound;

	if (!ops)
		return false;
	bound = ops->output_stats(nd, out, st);
	nicprog_ring_ops_put(ops);
	return bound;
}

/**
 * nicprog_node_name() - the name of a port's device node under /dev
 * @nd: the port
 * @buf: NICPROG_NODE_NAME_MAX bytes
 *
 * Context: any.
 */
void nicprog_node_name(const struct nicprog_dev *nd, char *buf)
{
	snprintf(buf, NICPROG_NODE_NAME_MAX,
		 NICPROG_DEV_DIR "/" NICPROG_DEV_PORT "%u", MINOR(nd->dev.devt));
}

/* /dev/nicprog/port<minor>, read-write for root only. */
char *nicprog_node_devnode(nicprog_devnode_dev_t *dev, umode_t *mode)
{
	char *name = kmalloc(NICPROG_NODE_NAME_MAX, GFP_KERNEL);

	if (name)
		nicprog_node_name(to_nicprog_dev(dev), name);
	return name;
}

/**
 * nicprog_node_init() - reserve the ports' device numbers
 *
 * Return: 0 or -errno.
 */
int nicprog_node_init(void)
{
	return alloc_chrdev_region(&nicprog_node_devt, 0, NICPROG_NODE_MINORS,
				   NICPROG_DEV_DIR);
}

/** nicprog_node_exit() - undo nicprog_node_init() */
void nicprog_node_exit(void)
{
	unregister_chrdev_region(nicprog_node_devt, NICPROG_NODE_MINORS);
	WARN_ON(!xa_empty(&nicprog_node_minors));
}
