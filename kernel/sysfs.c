// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/class/nicprog/<ifname>/: monitoring and the plan policy of the next
 * attach, read-only and one value per file (documented in
 * Documentation/ABI/testing/sysfs-class-nicprog). The policy is set
 * through netlink (NICPROG_CMD_DEV_SET), where a refusal has an extack
 * and the caller's privilege in the port's namespace is checked.
 *
 * The class is tagged with network namespaces, as the net class is: a
 * port's class device is named after its interface, and interface names
 * are unique only within a namespace, so each namespace's sysfs shows its
 * own ports (/sys/class/nicprog/<ifname> beside /sys/class/net/<ifname>),
 * and a port moved to another namespace moves with its netdev
 * (nicprog_netdev_event()).
 *
 * Show callbacks must not take RTNL: nicprog_unregister() calls device_del()
 * under RTNL, and device_del() waits for running show callbacks.
 */
#include <linux/math64.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "nicprog.h"

/*
 * Numbers of the LNIC's summary, one file each, by offset: the LNIC may be
 * replaced (nicprog_lnic_replace_end()), so they are read under the NIC's
 * lock.
 */
static ssize_t nicprog_sum_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	size_t off = (size_t)container_of(attr, struct dev_ext_attribute,
					  attr)->var;
	struct nicprog_dev *nd = to_nicprog_dev(dev);
	u64 v;

	mutex_lock(&nd->nic->lock);
	if (off == offsetof(struct nicprog_lnic_summary, mem_bytes))
		v = nd->nic->sum.mem_bytes;
	else
		v = *(u32 *)((u8 *)&nd->nic->sum + off);	/* the rest are u32 */
	mutex_unlock(&nd->nic->lock);
	return sysfs_emit(buf, "%llu\n", v);
}

#define NICPROG_SUM_ATTR(f) {						\
	.attr = { .attr = { .name = #f, .mode = 0444 },			\
		  .show = nicprog_sum_show },				\
	.var = (void *)offsetof(struct nicprog_lnic_summary, f),	\
}

static struct dev_ext_attribute dev_attr_cores = NICPROG_SUM_ATTR(cores);
static struct dev_ext_attribute dev_attr_core_threads =
	NICPROG_SUM_ATTR(core_threads);
static struct dev_ext_attribute dev_attr_parsers = NICPROG_SUM_ATTR(parsers);
static struct dev_ext_attribute dev_attr_mat_stages =
	NICPROG_SUM_ATTR(mat_stages);
static struct dev_ext_attribute dev_attr_dma_engines =
	NICPROG_SUM_ATTR(dma_engines);
static struct dev_ext_attribute dev_attr_mem_bytes =
	NICPROG_SUM_ATTR(mem_bytes);
static struct dev_ext_attribute dev_attr_insn_store =
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
#define NICPROG_ACCEL_ATTR(f, type) {					\
	.attr = { .attr = { .name = #f, .mode = 0444 },			\
		  .show = nicprog_sum_show },				\
	.var = (void *)offsetof(struct nicprog_lnic_summary, accels[type]), \
}

static struct dev_ext_attribute dev_attr_accel_csum =
	NICPROG_ACCEL_ATTR(csum, NICPROG_ACCEL_CSUM);
static struct dev_ext_attribute dev_attr_accel_crc =
	NICPROG_ACCEL_ATTR(crc, NICPROG_ACCEL_CRC);
static struct dev_ext_attribute dev_attr_accel_hash =
	NICPROG_ACCEL_ATTR(hash, NICPROG_ACCEL_HASH);
static struct dev_ext_attribute dev_attr_accel_crypto =
	NICPROG_ACCEL_ATTR(crypto, NICPROG_ACCEL_CRYPTO);
static struct dev_ext_attribute dev_attr_accel_compress =
	NICPROG_ACCEL_ATTR(compress, NICPROG_ACCEL_COMPRESS);
static struct dev_ext_attribute dev_attr_accel_regex =
	NICPROG_ACCEL_ATTR(regex, NICPROG_ACCEL_REGEX);

static struct attribute *nicprog_accel_attrs[] = {
	&dev_attr_accel_csum.attr.attr,
	&dev_attr_accel_crc.attr.attr,
	&dev_attr_accel_hash.attr.attr,
	&dev_attr_accel_crypto.attr.attr,
	&dev_attr_accel_compress.attr.attr,
	&dev_attr_accel_regex.attr.attr,
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

/* The shapes the NIC's driver runs plans of; "auto" plans among them. */
static ssize_t plan_shapes_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct nicprog_dev *nd = to_nicprog_dev(dev);
	int len = 0;
	u8 s;

	for (s = 0; s < __NICPROG_SHAPE_MAX; s++)
		if (nicprog_shape_runs(nd->nic, s))
			len += sysfs_emit_at(buf, len, "%s%s", len ? " " : "",
					     nicprog_shape_name(s));
	return len + sysfs_emit_at(buf, len, "\n");
}
static DEVICE_ATTR_RO(plan_shapes);

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

/*
 * A line per accelerator type the NIC has: its name and the sixteenths of
 * the next plan's calls of it run as engine jobs (dev-set's plan-share).
 */
static ssize_t plan_engine_share_show(struct device *dev,
				      struct device_attribute *attr, char *buf)
{
	struct nicprog_dev *nd = to_nicprog_dev(dev);
	u32 accels[__NICPROG_ACCEL_MAX], t;
	u8 body16[__NICPROG_ACCEL_MAX];
	int len = 0;

	mutex_lock(&nd->plan_lock);
	memcpy(body16, nd->plan_body16, sizeof(body16));
	mutex_unlock(&nd->plan_lock);
	/* the LNIC may be replaced: as nicprog_sum_show() */
	mutex_lock(&nd->nic->lock);
	memcpy(accels, nd->nic->sum.accels, sizeof(accels));
	mutex_unlock(&nd->nic->lock);
	for (t = NICPROG_ACCEL_NONE + 1; t < __NICPROG_ACCEL_MAX; t++)
		if (accels[t])
			len += sysfs_emit_at(buf, len, "%s %u\n",
					     nicprog_accel_type_name(t),
					     NICPROG_SHARE_ALL - body16[t]);
	return len;
}
static DEVICE_ATTR_RO(plan_engine_share);

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
	&dev_attr_plan_shapes.attr,
	&dev_attr_plan_cores.attr,
	&dev_attr_plan_partial.attr,
	&dev_attr_plan_engine_share.attr,
	&dev_attr_ifindex.attr,
	&dev_attr_profile.attr,
	&dev_attr_cores.attr.attr,
	&dev_attr_core_threads.attr.attr,
	&dev_attr_parsers.attr.attr,
	&dev_attr_mat_stages.attr.attr,
	&dev_attr_dma_engines.attr.attr,
	&dev_attr_mem_regions.attr,
	&dev_attr_mem_bytes.attr.attr,
	&dev_attr_insn_store.attr.attr,
	NULL,
};

static const struct attribute_group nicprog_dev_group = {
	.attrs = nicprog_dev_attrs,
};

/* The driver's counters of the port, read on each access, by offset. */
static ssize_t nicprog_stat_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	size_t off = (size_t)container_of(attr, struct dev_ext_attribute,
					  attr)->var;
	struct nicprog_dev *nd = to_nicprog_dev(dev);
	struct nicprog_port_stats st = {};

	nd->ops->port_stats(nd, &st);
	return sysfs_emit(buf, "%llu\n", *(u64 *)((u8 *)&st + off));
}

#define NICPROG_STAT_ATTR(f) {						\
	.attr = { .attr = { .name = #f, .mode = 0444 },			\
		  .show = nicprog_stat_show },				\
	.var = (void *)offsetof(struct nicprog_port_stats, f),		\
}

static struct dev_ext_attribute dev_attr_wire_rx_packets =
	NICPROG_STAT_ATTR(wire_rx_packets);
static struct dev_ext_attribute dev_attr_wire_rx_bytes =
	NICPROG_STAT_ATTR(wire_rx_bytes);
static struct dev_ext_attribute dev_attr_wire_tx_packets =
	NICPROG_STAT_ATTR(wire_tx_packets);
static struct dev_ext_attribute dev_attr_wire_tx_bytes =
	NICPROG_STAT_ATTR(wire_tx_bytes);
static struct dev_ext_attribute dev_attr_host_rx_packets =
	NICPROG_STAT_ATTR(host_rx_packets);
static struct dev_ext_attribute dev_attr_host_rx_bytes =
	NICPROG_STAT_ATTR(host_rx_bytes);
static struct dev_ext_attribute dev_attr_nic_drops =
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
	&dev_attr_wire_rx_packets.attr.attr,
	&dev_attr_wire_rx_bytes.attr.attr,
	&dev_attr_wire_tx_packets.attr.attr,
	&dev_attr_wire_tx_bytes.attr.attr,
	&dev_attr_host_rx_packets.attr.attr,
	&dev_attr_host_rx_bytes.attr.attr,
	&dev_attr_nic_drops.attr.attr,
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

/* The namespace a port's class device is seen in: its netdev's. */
static const void *nicprog_dev_namespace(nicprog_devnode_dev_t *dev)
{
	return dev_net(to_nicprog_dev(dev)->netdev);
}

struct class nicprog_class = {
	.name = NICPROG_CLASS_NAME,
	.dev_groups = nicprog_dev_groups,
	.devnode = nicprog_node_devnode,
	.ns_type = &net_ns_type_operations,
	.namespace = nicprog_dev_namespace,
};

int nicprog_sysfs_init(void)
{
	return class_register(&nicprog_class);
}

void nicprog_sysfs_exit(void)
{
	class_unregister(&nicprog_class);
}
