// SPDX-License-Identifier: GPL-2.0
/*
 * nicsim's vendor ops table (struct nicprog_dev_ops), the one place the
 * nicprog core calls into the driver from, and the small callbacks that
 * only translate between the two; the work is in the files they name.
 */
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>

#include "nicsim.h"

static void nicsim_nicprog_port_stats(struct nicprog_dev *nd,
				      struct nicprog_port_stats *st)
{
	struct nicsim_port *port = nicprog_dev_priv(nd);
	struct nicsim_pcpu_stats s;

	nicsim_port_get_stats(port, &s);
	st->wire_rx_packets = u64_stats_read(&s.wire_rx_packets);
	st->wire_rx_bytes = u64_stats_read(&s.wire_rx_bytes);
	st->wire_tx_packets = u64_stats_read(&s.tx_packets);
	st->wire_tx_bytes = u64_stats_read(&s.tx_bytes);
	st->host_rx_packets = u64_stats_read(&s.rx_packets);
	st->host_rx_bytes = u64_stats_read(&s.rx_bytes);
	st->nic_drops = u64_stats_read(&s.rx_fifo_errors) +
			u64_stats_read(&s.rx_length_errors) +
			u64_stats_read(&s.tx_dropped) +
			u64_stats_read(&s.xdp_drop) +
			u64_stats_read(&s.xdp_aborted);
}

static u32 nicsim_nicprog_core_stats(struct nicprog_nic *nic,
				     struct nicprog_core_stats *cs, u32 max)
{
	return nicsim_cores_stats(nicprog_nic_priv(nic), cs, max);
}

static u32 nicsim_nicprog_unit_stats(struct nicprog_nic *nic,
				     struct nicprog_unit_stats *us, u32 max)
{
	return nicsim_units_stats(nicprog_nic_priv(nic), us, max);
}

/* A name not shipped is a firmware file, read here: no RTNL held. */
static int nicsim_nicprog_profile_request(const char *name,
					  struct nicprog_lnic_text **text,
					  struct netlink_ext_ack *extack)
{
	int err;

	*text = NULL;
	if (nicsim_profile_find(name))
		return 0;
	err = nicsim_profile_request(name, text, extack);
	if (err == -ENOENT)
		NL_SET_ERR_MSG(extack,
			       "no such profile: not shipped, and no firmware file nicsim/<profile>.lnic");
	else if (err == -EINVAL)
		NL_SET_ERR_MSG(extack,
			       "the profile's name or its firmware file is bad (the tracepoint nicprog:nicprog_bad_arg says why)");
	return err;
}

/* A name is a shipped profile's (profile_request read the others). */
static int nicsim_nicprog_profile_set(struct nicprog_nic *nic,
				      const char *name,
				      struct nicprog_lnic_text *text,
				      struct netlink_ext_ack *extack)
{
	const struct nicprog_lnic *lnic = name ? nicsim_profile_find(name) :
						 &text->lnic;
	int err;

	if (!lnic) {
		NL_SET_ERR_MSG(extack, "no such profile");
		return -ENOENT;
	}
	err = nicsim_profile_replace(nicprog_nic_priv(nic), lnic, &text, extack);
	kvfree(text);
	if (err == -EBUSY)
		NL_SET_ERR_MSG(extack,
			       "the NIC has a program or an offloaded map (remove them first)");
	else if (err == -EINVAL)
		NL_SET_ERR_MSG(extack,
			       "the NIC cannot take the profile (the kernel log says why)");
	else if (err == -ENODEV)
		NL_SET_ERR_MSG(extack, "the NIC is being destroyed");
	return err;
}

/*
 * The plan shapes the device's driver says it runs (&nicprog_dev_ops's
 * plan_shapes), a mask of BIT(enum nicprog_shape), 0 for every shape: a
 * NIC without pipelining, say, is 0x6 (single, replicated). For the
 * tests of the capability; changed only while no port has a plan.
 */
static ssize_t plan_shapes_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct nicsim_dev *ndev = container_of(dev, struct nicsim_dev, dev);

	return sysfs_emit(buf, "%#x\n", READ_ONCE(ndev->ops.plan_shapes));
}

static ssize_t plan_shapes_store(struct device *dev,
				 struct device_attribute *attr,
				 const char *buf, size_t count)
{
	struct nicsim_dev *ndev = container_of(dev, struct nicsim_dev, dev);
	u32 all = GENMASK(__NICPROG_SHAPE_MAX - 1, 0), mask;
	int err;

	err = kstrtou32(buf, 0, &mask);
	if (err || (mask & ~all)) {
		dev_err(dev, "plan_shapes: expected a mask of BIT(enum nicprog_shape) within %#x\n",
			all);
		return -EINVAL;
	}
	rtnl_lock();
	err = nicsim_dev_planless(ndev, "plan_shapes");
	if (!err)
		WRITE_ONCE(ndev->ops.plan_shapes, mask);
	rtnl_unlock();
	return err ?: count;
}
DEVICE_ATTR_RW(plan_shapes);

const struct nicprog_dev_ops nicsim_nicprog_ops = {
	.port_stats		= nicsim_nicprog_port_stats,
	.core_stats		= nicsim_nicprog_core_stats,
	.unit_stats		= nicsim_nicprog_unit_stats,
	.plan_load		= nicsim_plan_load,
	.plan_unload		= nicsim_plan_unload,
	.stage_translate	= nicsim_stage_translate,
	.stage_release		= nicsim_stage_release,
	.profile_set		= nicsim_nicprog_profile_set,
	.profile_request	= nicsim_nicprog_profile_request,
	.accel_run		= nicsim_accel_run,
	.table_ops		= &nicsim_table_ops,
	.ring_xmit		= nicsim_ring_xmit,
	.mem_ops		= &nicsim_mem_ops,
	.rdma_ops		= &nicsim_rdma_ops,
	.job_ops		= &nicsim_job_ops,
	.owner			= THIS_MODULE,
};
