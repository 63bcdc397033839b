// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/nicprog/<ifname>/: the installed plan in words (plan)
 * and the verifier's facts it was made from (facts, the format
 * tools/nicprog-plan reads), both kept by plan.c under the port's
 * plan_lock. The directory follows the port's name.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/seq_file.h>

#include "nicprog.h"

static struct dentry *nicprog_debugfs_root;

static int nicprog_plan_show(struct seq_file *m, void *v)
{
	struct nicprog_dev *nd = m->private;

	mutex_lock(&nd->plan_lock);
	seq_puts(m, nd->plan_text ? nd->plan_text : "no plan\n");
	mutex_unlock(&nd->plan_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nicprog_plan);

static ssize_t nicprog_facts_file_read(struct file *file, char __user *buf,
				       size_t count, loff_t *ppos)
{
	struct nicprog_dev *nd = file->private_data;
	ssize_t ret;

	mutex_lock(&nd->plan_lock);
	ret = simple_read_from_buffer(buf, count, ppos, nd->facts,
				      nd->facts_len);
	mutex_unlock(&nd->plan_lock);
	return ret;
}

static const struct file_operations nicprog_facts_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= nicprog_facts_file_read,
	.llseek	= default_llseek,
};

/**
 * nicprog_debugfs_init() - create /sys/kernel/debug/nicprog
 *
 * Debugfs is optional: failures leave it out and are not errors.
 *
 * Return: 0.
 */
int nicprog_debugfs_init(void)
{
	nicprog_debugfs_root = debugfs_create_dir("nicprog", NULL);
	return 0;
}

/** nicprog_debugfs_exit() - remove /sys/kernel/debug/nicprog */
void nicprog_debugfs_exit(void)
{
	debugfs_remove_recursive(nicprog_debugfs_root);
}

/*
 * A port's directory name: its interface's, or, where a port of another
 * namespace has that one (debugfs has no namespaces), "<ifname>.<N>" with
 * N its device node's minor, unique among ports.
 */
static void nicprog_debugfs_name(const struct nicprog_dev *nd, char *buf,
				 size_t len)
{
	struct dentry *d = debugfs_lookup(dev_name(&nd->dev),
					  nicprog_debugfs_root);

	if (d && d != nd->debugfs)
		snprintf(buf, len, "%s.%u", dev_name(&nd->dev),
			 MINOR(nd->dev.devt));
	else
		strscpy(buf, dev_name(&nd->dev), len);
	dput(d);
}

/**
 * nicprog_debugfs_add() - create a port's debugfs directory
 * @nd: the port, being registered; RTNL held
 */
void nicprog_debugfs_add(struct nicprog_dev *nd)
{
	char name[IFNAMSIZ + 12];

	nicprog_debugfs_name(nd, name, sizeof(name));
	nd->debugfs = debugfs_create_dir(name, nicprog_debugfs_root);
	debugfs_create_file("plan", 0400, nd->debugfs, nd, &nicprog_plan_fops);
	debugfs_create_file("facts", 0400, nd->debugfs, nd,
			    &nicprog_facts_fops);
}

/**
 * nicprog_debugfs_remove() - remove a port's debugfs directory
 * @nd: the port, being unregistered; when this returns no reader runs
 */
void nicprog_debugfs_remove(struct nicprog_dev *nd)
{
	debugfs_remove_recursive(nd->debugfs);
	nd->debugfs = NULL;
}

/**
 * nicprog_debugfs_rename() - follow the port's name; RTNL held
 * @nd: the port
 */
void nicprog_debugfs_rename(struct nicprog_dev *nd)
{
	char name[IFNAMSIZ + 12];
	struct dentry *d;

	if (IS_ERR_OR_NULL(nd->debugfs))
		return;
	nicprog_debugfs_name(nd, name, sizeof(name));
	if (!strcmp(name, nd->debugfs->d_name.name))
		return;
	d = debugfs_rename(nicprog_debugfs_root, nd->debugfs,
			   nicprog_debugfs_root, name);
	if (!IS_ERR_OR_NULL(d))
		nd->debugfs = d;
}
