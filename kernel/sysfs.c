// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/class/nicprog/<ifname>/: monitoring and the plan policy of the next
 * attach, read-only and one value per file (documented in
 * Documentation/ABI/testing/sysfs-class-nicprog). The policy is set
 * through netlink (NICPROG_CMD_DEV_SET), where a refusal has an extack
 * and the caller's privilege in the port's namespace is checked.
 *
 * Show callbacks must not take RTNL: nicprog_unregister() calls device_del()
 * under RTNL, and device_del() waits for running show callbacks.
 */
#include <linux/math64.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "nicprog.h"

/* The LNIC may be replaced (nicprog_lnic_replace_end()): read under the NIC's lock. */
#define NICPROG_SUM_ATTR(field)						\
static ssize_t field##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	struct nicprog_dev *nd = to_nicprog_dev(dev);			\
	u64 v;								\
									\
	mutex_lock(&nd->nic->lock);					\
	v = nd->nic->sum.field;						\
	mutex_unlock(&nd->nic->lock);					\
	return sysfs_emit(buf, "%llu\n", (unsigned long long)v);	\
}									\
static DEVICE_ATTR_RO(field)

NICPROG_SUM_ATTR(cores);
NICPROG_SUM_ATTR(core_threads);
NICPROG_SUM_ATTR(parsers);
NICPROG_SUM_ATTR(mat_stages);
NICPROG_SUM_ATTR(dma_engines);
NICPROG_SUM_ATTR(mem_bytes);
NICPROG_SUM_ATTR(insn_store);

static ssize_t ifindex_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%d\n", to_nicprog_dev(dev)->netdev->ifindex);
}
static DEVICE_ATTR_RO(ifindex);

static ssize_t profile_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct nicprog_dev *nd = to_nicprog_dev(dev);
	ssize_t n;

	mutex_lock(&nd->nic->lock);
	n = sysfs_emit(buf, "%s\n", nd->nic->lnic->name);
	mutex_unlock(&nd->nic->lock);
	return n;
}
static DEVICE_ATTR_RO(profile);

static ssize_t mem_regions_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct nicprog_dev *nd = to_nicprog_dev(dev);
	u32 n;

	mutex_lock(&nd->nic->lock);
	n = nd->nic->lnic->n_regions;
	mutex_unlock(&nd->nic->lock);
	return sysfs_emit(buf, "%u\n", n);
}
static DEVICE_ATTR_RO(mem_regions);

/* accelerators/<type>: how many of that type the NIC has, 0 for none */
static ssize_t nicprog_accel_show(struct nicprog_dev *nd,
				  enum nicprog_accel_type t, char *buf)
{
	u32 n;

	mutex_lock(&nd->nic->lock);
	n = nd->nic->sum.accels[t];
	mutex_unlock(&nd->nic->lock);
	return sysfs_emit(buf, "%u\n", n);
}

#define NICPROG_ACCEL_ATTR(name, type)					\
static ssize_t name##_show(struct device *dev,				\
			   struct device_attribute *attr, char *buf)	\
{									\
	return nicprog_accel_show(to_nicprog_dev(dev), type, buf);	\
}									\
static struct device_attribute dev_attr_accel_##name = __ATTR_RO(name)

NICPROG_ACCEL_ATTR(csum, NICPROG_ACCEL_CSUM);
NICPROG_ACCEL_ATTR(crc, NICPROG_ACCEL_CRC);
NICPROG_ACCEL_ATTR(hash, NICPROG_ACCEL_HASH);
NICPROG_ACCEL_ATTR(crypto, NICPROG_ACCEL_CRYPTO);
NICPROG_ACCEL_ATTR(compress, NICPROG_ACCEL_COMPRESS);
NICPROG_ACCEL_ATTR(regex, NICPROG_ACCEL_REGEX);

static struct attribute *nicprog_accel_attrs[] = {
	&dev_attr_accel_csum.attr,
	&dev_attr_accel_crc.attr,
	&dev_attr_accel_hash.attr,
	&dev_attr_accel_crypto.attr,
	&dev_attr_accel_compress.attr,
	&dev_attr_accel_regex.attr,
	NULL,
};

/* a new accelerator type needs its file */
static_assert(ARRAY_SIZE(nicprog_accel_attrs) == __NICPROG_ACCEL_MAX);

static const struct attribute_group nicprog_accel_group = {
	.name = "accelerators",
	.attrs = nicprog_accel_attrs,
};

static ssize_t plan_shape_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct nicprog_dev *nd = to_nicprog_dev(dev);
	u8 shape;

	mutex_lock(&nd->plan_lock);
	shape = nd->plan_shape;
	mutex_unlock(&nd->plan_lock);
	return sysfs_emit(buf, "%s\n", nicprog_shape_name(shape));
}

static DEVICE_ATTR_RO(plan_shape);

static ssize_t plan_cores_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct nicprog_dev *nd = to_nicprog_dev(dev);
	u32 cores;

	mutex_lock(&nd->plan_lock);
	cores = nd->plan_cores;
	mutex_unlock(&nd->plan_lock);
	return sysfs_emit(buf, "%u\n", cores);
}

static DEVICE_ATTR_RO(plan_cores);

static ssize_t plan_partial_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct nicprog_dev *nd = to_nicprog_dev(dev);
	bool partial;

	mutex_lock(&nd->plan_lock);
	partial = nd->plan_partial;
	mutex_unlock(&nd->plan_lock);
	return sysfs_emit(buf, "%u\n", partial);
}

static DEVICE_ATTR_RO(plan_partial);

/* The installed program's ID, as bpftool shows it; 0 for none. */
static ssize_t prog_id_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct nicprog_dev *nd = to_nicprog_dev(dev);
	u32 id;

	mutex_lock(&nd->plan_lock);
	id = nd->prog_id;
	mutex_unlock(&nd->plan_lock);
	return sysfs_emit(buf, "%u\n", id);
}
static DEVICE_ATTR_RO(prog_id);

static struct attribute *nicprog_dev_attrs[] = {
	&dev_attr_prog_id.attr,
	&dev_attr_plan_shape.attr,
	&dev_attr_plan_cores.attr,
	&dev_attr_plan_partial.attr,
	&dev_attr_ifindex.attr,
	&dev_attr_profile.attr,
	&dev_attr_cores.attr,
	&dev_attr_core_threads.attr,
	&dev_attr_parsers.attr,
	&dev_attr_mat_stages.attr,
	&dev_attr_dma_engines.attr,
	&dev_attr_mem_regions.attr,
	&dev_attr_mem_bytes.attr,
	&dev_attr_insn_store.attr,
	NULL,
};

static const struct attribute_group nicprog_dev_group = {
	.attrs = nicprog_dev_attrs,
};

#define NICPROG_STAT_ATTR(field)					\
static ssize_t field##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	struct nicprog_dev *nd = to_nicprog_dev(dev);			\
	struct nicprog_port_stats st = {};				\
									\
	nd->ops->port_stats(nd, &st);					\
	return sysfs_emit(buf, "%llu\n", st.field);			\
}									\
static DEVICE_ATTR_RO(field)

NICPROG_STAT_ATTR(wire_rx_packets);
NICPROG_STAT_ATTR(wire_rx_bytes);
NICPROG_STAT_ATTR(wire_tx_packets);
NICPROG_STAT_ATTR(wire_tx_bytes);
NICPROG_STAT_ATTR(host_rx_packets);
NICPROG_STAT_ATTR(host_rx_bytes);
NICPROG_STAT_ATTR(nic_drops);

/* Pipes the port's open files of /dev/nicprog/port<N> hold. */
static ssize_t ring_pipes_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  atomic_read(&to_nicprog_dev(dev)->ring_pipes));
}
static DEVICE_ATTR_RO(ring_pipes);

/*
 * The busiest core's share of the NIC's time, in percent: 100 is a NIC the
 * traffic so far saturated. Without the driver's core_stats, the file
 * reads -EOPNOTSUPP.
 */
static ssize_t utilisation_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct nicprog_dev *nd = to_nicprog_dev(dev);
	struct nicprog_core_stats *cs;
	u64 best = 0, pct;
	u32 n, i;

	cs = nicprog_cores_read(nd, &n);
	if (IS_ERR(cs))
		return PTR_ERR(cs);
	for (i = 0; i < n; i++) {
		if (!cs[i].elapsed)
			continue;
		pct = div64_u64(min(cs[i].busy, cs[i].elapsed) * 100,
				cs[i].elapsed);
		best = max(best, pct);
	}
	kfree(cs);
	return sysfs_emit(buf, "%llu\n", best);
}
static DEVICE_ATTR_RO(utilisation);

static struct attribute *nicprog_stats_attrs[] = {
	&dev_attr_utilisation.attr,
	&dev_attr_wire_rx_packets.attr,
	&dev_attr_wire_rx_bytes.attr,
	&dev_attr_wire_tx_packets.attr,
	&dev_attr_wire_tx_bytes.attr,
	&dev_attr_host_rx_packets.attr,
	&dev_attr_host_rx_bytes.attr,
	&dev_attr_nic_drops.attr,
	&dev_attr_ring_pipes.attr,
	NULL,
};

static const struct attribute_group nicprog_stats_group = {
	.name = "statistics",
	.attrs = nicprog_stats_attrs,
};

static const struct attribute_group *nicprog_dev_groups[] = {
	&nicprog_dev_group,
	&nicprog_accel_group,
	&nicprog_stats_group,
	NULL,
};

struct class nicprog_class = {
	.name = NICPROG_CLASS_NAME,
	.dev_groups = nicprog_dev_groups,
	.devnode = nicprog_ring_devnode,
};

int nicprog_sysfs_init(void)
{
	return class_register(&nicprog_class);
}

void nicprog_sysfs_exit(void)
{
	class_unregister(&nicprog_class);
}
