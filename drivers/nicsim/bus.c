// SPDX-License-Identifier: GPL-2.0
/*
 * The nicsim bus: simulated SmartNICs are created, destroyed and wired
 * through write-only files in /sys/bus/nicsim (documented in
 * Documentation/ABI/testing/sysfs-bus-nicsim):
 *
 *   new_device     "ID [PORT_COUNT [PROFILE [TABLES]]]"
 *                                      create nicsim<ID> with its ports;
 *                                      PROFILE shipped or firmware file
 *                                      nicsim/PROFILE.lnic; TABLES "host"
 *                                      (default) or "nic": the tables are
 *                                      in memory the host does not address
 *   del_device     "ID"                destroy it
 *   link_device    "ID:PORT ID:PORT"   wire two ports together
 *   unlink_device  "ID:PORT"           cut a port's wire
 *
 * and per device, /sys/bus/nicsim/devices/nicsim<ID>/profile: the
 * profile's name; writing a name replaces the profile while no port has a
 * program or map (the NIC is "reflashed": cores and timing model restart).
 *
 * Bad input fails the write with an errno, and a kernel log line says why.
 *
 * Locking: nicsim_devs_lock serializes every change to devices and wires
 * and protects nicsim_devs. It is taken before RTNL, never under it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/nicprog_compat.h>

#include "nicsim.h"

static LIST_HEAD(nicsim_devs);
static DEFINE_MUTEX(nicsim_devs_lock);
/* Cleared under nicsim_devs_lock at module exit: no new devices after. */
static bool nicsim_bus_enabled;

#define NICSIM_CMD_MAX	128	/* longest accepted bus command */
#define NICSIM_CMD_ARGS	4
#define NICSIM_LINK_ARGS	10	/* two ports, four NAME VALUE pairs */

/*
 * Split a bus command into at most @max whitespace-separated words. The
 * words point into @copy. Return the word count, or -EINVAL if there are
 * more words, or the command is too long to be one of ours.
 */
static int nicsim_split(const char *buf, size_t count, char *copy,
			char **words, int max)
{
	char *s, *w;
	int n = 0;

	if (count >= NICSIM_CMD_MAX)
		return -EINVAL;
	memcpy(copy, buf, count);
	copy[count] = '\0';
	s = strim(copy);
	while ((w = strsep(&s, " \t\n")) != NULL) {
		if (!*w)
			continue;
		if (n == max)
			return -EINVAL;
		words[n++] = w;
	}
	return n;
}

/* Parse "ID:PORT". Return 0, -EINVAL if malformed, -ERANGE on overflow. */
static int nicsim_parse_port(char *word, u32 *id, u32 *index)
{
	char *colon = strchr(word, ':');
	int err;

	if (!colon)
		return -EINVAL;
	*colon = '\0';
	err = kstrtou32(word, 10, id);
	if (!err)
		err = kstrtou32(colon + 1, 10, index);
	*colon = ':';
	return err;
}

static struct nicsim_dev *nicsim_dev_find(u32 id)
{
	struct nicsim_dev *ndev;

	lockdep_assert_held(&nicsim_devs_lock);
	list_for_each_entry(ndev, &nicsim_devs, list)
		if (ndev->id == id)
			return ndev;
	return NULL;
}

/* Find a port; it stays valid while nicsim_devs_lock is held. */
static struct nicsim_port *nicsim_port_lookup(u32 id, u32 index)
{
	struct nicsim_dev *ndev = nicsim_dev_find(id);

	if (!ndev || index >= ndev->port_count)
		return NULL;
	return ndev->ports[index];
}

static void nicsim_dev_release(struct device *dev)
{
	struct nicsim_dev *ndev = container_of(dev, struct nicsim_dev, dev);

	kvfree(ndev->own_lnic);
	mutex_destroy(&ndev->lnic_lock);
	kfree(ndev);
}

/* The device's profile, as profile text (Documentation/nicprog/lnic.rst). */
static ssize_t lnic_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct nicsim_dev *ndev = container_of(dev, struct nicsim_dev, dev);
	size_t n;

	mutex_lock(&ndev->lnic_lock);
	n = nicprog_lnic_format(ndev->lnic, buf, PAGE_SIZE);
	mutex_unlock(&ndev->lnic_lock);
	return n < PAGE_SIZE ? n : -EFBIG;
}
static DEVICE_ATTR_RO(lnic);

static ssize_t profile_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct nicsim_dev *ndev = container_of(dev, struct nicsim_dev, dev);
	ssize_t n;

	mutex_lock(&ndev->lnic_lock);
	n = sysfs_emit(buf, "%s\n", ndev->lnic->name);
	mutex_unlock(&ndev->lnic_lock);
	return n;
}

static ssize_t profile_store(struct device *dev, struct device_attribute *attr,
			     const char *buf, size_t count)
{
	struct nicsim_dev *ndev = container_of(dev, struct nicsim_dev, dev);
	char copy[NICSIM_CMD_MAX], *w[1];
	struct nicprog_lnic_text *own = NULL;
	const struct nicprog_lnic *lnic;
	int err;

	if (nicsim_split(buf, count, copy, w, 1) != 1) {
		dev_err(dev, "profile: expected one profile name\n");
		return -EINVAL;
	}
	lnic = nicsim_profile_find(w[0]);
	if (!lnic) {
		err = nicsim_profile_request(w[0], &own, NULL);
		if (err)
			return err;
		lnic = &own->lnic;
	}
	rtnl_lock();
	err = nicsim_profile_replace(ndev, lnic, &own, NULL);
	rtnl_unlock();
	kvfree(own);
	return err ?: count;
}
static DEVICE_ATTR_RW(profile);

/**
 * nicsim_dev_planless() - may an attribute restart what plans run on?
 * @ndev: the device
 * @attr: the attribute, for the log
 *
 * Context: RTNL held (the ports' plans change under it).
 * Return: 0 if the device is live and no port has a plan; -ENODEV while
 * it goes; -EBUSY, the port named in the log, if one has.
 */
int nicsim_dev_planless(struct nicsim_dev *ndev, const char *attr)
{
	u32 i;

	ASSERT_RTNL();
	if (!ndev->live)
		return -ENODEV;
	for (i = 0; i < ndev->port_count; i++)
		if (rtnl_dereference(ndev->ports[i]->ref)) {
			dev_err(&ndev->dev, "%s: %s has a plan; remove its program first\n",
				attr, netdev_name(ndev->ports[i]->netdev));
			return -EBUSY;
		}
	return 0;
}

static ssize_t offered_rate_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct nicsim_dev *ndev = container_of(dev, struct nicsim_dev, dev);

	return sysfs_emit(buf, "%llu\n", READ_ONCE(ndev->offered_rate));
}

/*
 * Frames per second of the NIC's clock (clock.c), 0 for a backlogged NIC.
 * The cores and their timing model restart, so only while no port has a
 * plan: a frame on a core would be lost.
 */
static ssize_t offered_rate_store(struct device *dev,
				  struct device_attribute *attr,
				  const char *buf, size_t count)
{
	struct nicsim_dev *ndev = container_of(dev, struct nicsim_dev, dev);
	u64 rate, old;
	int err;

	if (kstrtou64(buf, 0, &rate) || rate > NICSIM_RATE_MAX) {
		dev_err(dev, "offered_rate: expected frames per second, 0 to %llu\n",
			NICSIM_RATE_MAX);
		return -EINVAL;
	}
	rtnl_lock();
	err = nicsim_dev_planless(ndev, "offered_rate");
	if (err || rate == ndev->offered_rate)
		goto out;
	/* no port has a plan: no frame is on a core */
	nicsim_cores_stop(ndev);
	old = ndev->offered_rate;
	WRITE_ONCE(ndev->offered_rate, rate);
	err = nicsim_cores_start(ndev);
	if (err) {
		WRITE_ONCE(ndev->offered_rate, old);
		if (nicsim_cores_start(ndev))
			dev_err(dev, "offered_rate: the NIC has no cores until its next profile: out of memory\n");
		dev_err(dev, "offered_rate: cannot start the clock: %d\n", err);
	}
out:
	rtnl_unlock();
	return err ?: count;
}
static DEVICE_ATTR_RW(offered_rate);

/*
 * The sender says its stream has ended: time every run the model holds,
 * so that the counters cover every frame now rather than after
 * NICSIM_CLOCK_IDLE, and the next frame starts a new stream. A pause the
 * host makes is no end: only the sender knows where its stream ends.
 * RTNL keeps ndev->tm from being replaced meanwhile.
 */
static ssize_t offered_end_store(struct device *dev,
				 struct device_attribute *attr,
				 const char *buf, size_t count)
{
	struct nicsim_dev *ndev = container_of(dev, struct nicsim_dev, dev);
	bool end;
	int err = 0;

	if (kstrtobool(buf, &end) || !end) {
		dev_err(dev, "offered_end: expected 1\n");
		return -EINVAL;
	}
	rtnl_lock();
	if (!ndev->live) {
		err = -ENODEV;
	} else if (!ndev->offered_rate) {
		dev_err(dev, "offered_end: no offered load (offered_rate is 0)\n");
		err = -EINVAL;
	} else {
		spin_lock_bh(&ndev->tm_lock);
		if (ndev->tm)	/* NULL: no cores after a failed restart */
			nicsim_tm_replay(ndev->tm, true);
		spin_unlock_bh(&ndev->tm_lock);
	}
	rtnl_unlock();
	return err ?: count;
}
static DEVICE_ATTR_WO(offered_end);

static struct attribute *nicsim_dev_attrs[] = {
	&dev_attr_lnic.attr,
	&dev_attr_profile.attr,
	&dev_attr_offered_rate.attr,
	&dev_attr_offered_end.attr,
	&dev_attr_exec_mode.attr,
	&dev_attr_plan_shapes.attr,
	&dev_attr_table_memory.attr,
	NULL,
};
ATTRIBUTE_GROUPS(nicsim_dev);

static nicprog_bus_type_t nicsim_bus;

/*
 * Frames queued on a core point at their port, so: cut every wire (no
 * frame can arrive once a grace period has passed), stop the cores, then
 * destroy the ports. The ports' ethtool stats read the cores under RTNL
 * until then, so the cores stop under it.
 */
static void nicsim_dev_destroy(struct nicsim_dev *ndev)
{
	u32 i;

	lockdep_assert_held(&nicsim_devs_lock);
	rtnl_lock();
	ndev->live = false;
	for (i = 0; i < ndev->port_count; i++)
		nicsim_unlink(ndev->ports[i]);
	rtnl_unlock();
	synchronize_net();
	rtnl_lock();
	nicsim_cores_stop(ndev);
	rtnl_unlock();
	i = ndev->port_count;
	while (i--)
		nicsim_port_destroy(ndev->ports[i]);
	nicprog_nic_unregister(ndev->nic);
	nicsim_devlink_exit(ndev);
	nicsim_translate_dev_exit(ndev);
	device_unregister(&ndev->dev);
}

/* @own_lnic: @lnic's storage, which the device owns from here on. */
static struct nicsim_dev *nicsim_dev_create(u32 id, u32 port_count,
					    const struct nicprog_lnic *lnic,
					    struct nicprog_lnic_text *own_lnic,
					    bool nic_tables)
{
	struct nicsim_dev *ndev;
	struct nicsim_port *port;
	int err;
	u32 i;

	lockdep_assert_held(&nicsim_devs_lock);
	err = nicsim_profile_check(lnic, NULL);
	if (err) {
		kvfree(own_lnic);
		return ERR_PTR(err);
	}
	ndev = kzalloc(struct_size(ndev, ports, port_count), GFP_KERNEL);
	if (!ndev) {
		kvfree(own_lnic);
		return ERR_PTR(-ENOMEM);
	}
	ndev->id = id;
	ndev->lnic = lnic;
	ndev->own_lnic = own_lnic;
	ndev->ops = nicsim_nicprog_ops;
	if (nic_tables)
		ndev->ops.table_ops = &nicsim_nic_table_ops;
	ndev->nic_tables = nic_tables;
	mutex_init(&ndev->lnic_lock);
	skb_queue_head_init(&ndev->clock_queue);
	init_waitqueue_head(&ndev->clock_wq);
	INIT_LIST_HEAD(&ndev->list);
	device_initialize(&ndev->dev);
	ndev->dev.bus = &nicsim_bus;
	ndev->dev.groups = nicsim_dev_groups;
	ndev->dev.release = nicsim_dev_release;
	err = dev_set_name(&ndev->dev, NICSIM_DRV_NAME "%u", id);
	if (err)
		goto err_put_device;
	nicsim_translate_dev_init(ndev);
	nicsim_table_dev_init(ndev);
	nicsim_mem_init(ndev);
	err = device_add(&ndev->dev);
	if (err)
		goto err_put_device;
	err = nicsim_cores_start(ndev);
	if (err)
		goto err_device_del;
	/* the driver's instance, registered before nicprog adds to it */
	err = nicsim_devlink_init(ndev);
	if (err)
		goto err_cores_stop;
	ndev->nic = nicprog_nic_register(&ndev->dev, ndev->devlink, ndev->lnic,
					 &ndev->ops, ndev, port_count);
	if (IS_ERR(ndev->nic)) {
		err = PTR_ERR(ndev->nic);
		goto err_devlink_exit;
	}

	for (i = 0; i < port_count; i++) {
		port = nicsim_port_create(ndev, i);
		if (IS_ERR(port)) {
			err = PTR_ERR(port);
			goto err_ports_destroy;
		}
		ndev->ports[i] = port;
		ndev->port_count = i + 1;
	}
	rtnl_lock();
	ndev->live = true;
	rtnl_unlock();
	return ndev;

err_ports_destroy:
	rtnl_lock();
	nicsim_cores_stop(ndev);	/* no port has a wire or a plan yet */
	rtnl_unlock();
	while (i--)
		nicsim_port_destroy(ndev->ports[i]);
	nicprog_nic_unregister(ndev->nic);
	nicsim_devlink_exit(ndev);
	goto err_device_del;
err_devlink_exit:
	nicsim_devlink_exit(ndev);
err_cores_stop:
	rtnl_lock();
	nicsim_cores_stop(ndev);
	rtnl_unlock();
err_device_del:
	device_del(&ndev->dev);
err_put_device:
	nicsim_translate_dev_exit(ndev);
	put_device(&ndev->dev);
	return ERR_PTR(err);
}

static ssize_t new_device_store(nicprog_bus_type_t *bus, const char *buf,
				size_t count)
{
	const struct nicprog_lnic *lnic = nicsim_profile_find(NULL);
	char copy[NICSIM_CMD_MAX], *w[NICSIM_CMD_ARGS];
	struct nicprog_lnic_text *own = NULL;
	u32 id, port_count = 1;
	struct nicsim_dev *ndev;
	bool nic_tables = false;
	int n, err;

	n = nicsim_split(buf, count, copy, w, NICSIM_CMD_ARGS);
	if (n < 1) {
		pr_err("new_device: expected \"ID [PORT_COUNT [PROFILE [TABLES]]]\"\n");
		return -EINVAL;
	}
	err = kstrtou32(w[0], 10, &id);
	if (!err && n >= 2)
		err = kstrtou32(w[1], 10, &port_count);
	if (err == -EINVAL) {
		pr_err("new_device: expected \"ID [PORT_COUNT [PROFILE [TABLES]]]\", ID and PORT_COUNT decimal numbers\n");
		return err;
	}
	if (err || id > NICSIM_MAX_ID) {
		pr_err("new_device: ID out of range 0..%u\n", NICSIM_MAX_ID);
		return -ERANGE;
	}
	if (!port_count || port_count > NICSIM_MAX_PORTS) {
		pr_err("new_device: port count %u out of range 1..%u\n",
		       port_count, NICSIM_MAX_PORTS);
		return -ERANGE;
	}

	if (n == 4) {
		nic_tables = !strcmp(w[3], "nic");
		if (!nic_tables && strcmp(w[3], "host")) {
			pr_err("new_device: TABLES is host or nic, not %s\n",
			       w[3]);
			return -EINVAL;
		}
	}

	/* a file is read before the lock: reading it may take a while */
	if (n >= 3) {
		lnic = nicsim_profile_find(w[2]);
		if (!lnic) {
			err = nicsim_profile_request(w[2], &own, NULL);
			if (err)
				return err;
			lnic = &own->lnic;
		}
	}

	mutex_lock(&nicsim_devs_lock);
	if (!nicsim_bus_enabled) {
		err = -ENODEV;
		goto out_unlock;
	}
	if (nicsim_dev_find(id)) {
		pr_err("new_device: device %u already exists\n", id);
		err = -EEXIST;
		goto out_unlock;
	}
	ndev = nicsim_dev_create(id, port_count, lnic, own, nic_tables);
	own = NULL;
	if (IS_ERR(ndev)) {
		err = PTR_ERR(ndev);
		pr_err("new_device: cannot create device %u: %d\n", id, err);
		goto out_unlock;
	}
	list_add_tail(&ndev->list, &nicsim_devs);
out_unlock:
	mutex_unlock(&nicsim_devs_lock);
	kvfree(own);
	return err ? err : count;
}
static BUS_ATTR_WO(new_device);

static ssize_t del_device_store(nicprog_bus_type_t *bus, const char *buf,
				size_t count)
{
	char copy[NICSIM_CMD_MAX], *w[1];
	struct nicsim_dev *ndev;
	int err = 0;
	u32 id;

	if (nicsim_split(buf, count, copy, w, 1) != 1 ||
	    kstrtou32(w[0], 10, &id)) {
		pr_err("del_device: expected \"ID\" as a decimal number\n");
		return -EINVAL;
	}

	mutex_lock(&nicsim_devs_lock);
	ndev = nicsim_dev_find(id);
	if (!ndev) {
		pr_err("del_device: no device %u\n", id);
		err = -ENOENT;
		goto out_unlock;
	}
	list_del(&ndev->list);
	nicsim_dev_destroy(ndev);
out_unlock:
	mutex_unlock(&nicsim_devs_lock);
	return err ? err : count;
}
static BUS_ATTR_WO(del_device);

/*
 * link_device's optional "NAME VALUE" pairs (wire.c): rate BITS_PER_S,
 * delay NS, loss PPM, seed N. Return 0, or -EINVAL / -ERANGE with the
 * cause logged.
 */
static int nicsim_wire_parse(char **w, int n, struct nicsim_wire_params *p)
{
	static const struct {
		const char *name;
		u64 max;
	} keys[] = {
		{ "rate", NICSIM_WIRE_RATE_MAX },
		{ "delay", NICSIM_WIRE_DELAY_MAX },
		{ "loss", NICSIM_LOSS_ONE },
		{ "seed", U64_MAX },
	};
	u64 v[ARRAY_SIZE(keys)] = { };
	u32 seen = 0, k;
	int i, err;

	for (i = 0; i < n; i += 2) {
		for (k = 0; k < ARRAY_SIZE(keys); k++)
			if (!strcmp(w[i], keys[k].name))
				break;
		if (k == ARRAY_SIZE(keys) || (seen & BIT(k))) {
			pr_err("link_device: %s \"%s\"; expected each of rate, delay, loss, seed at most once\n",
			       k == ARRAY_SIZE(keys) ? "unknown parameter" : "repeated parameter",
			       w[i]);
			return -EINVAL;
		}
		seen |= BIT(k);
		err = i + 1 < n ? kstrtou64(w[i + 1], 10, &v[k]) : -EINVAL;
		if (err == -EINVAL) {
			pr_err("link_device: %s needs a decimal number\n",
			       keys[k].name);
			return err;
		}
		if (err || v[k] > keys[k].max) {
			pr_err("link_device: %s %s out of range 0..%llu\n",
			       keys[k].name, w[i + 1], keys[k].max);
			return -ERANGE;
		}
	}
	p->rate = v[0];
	p->delay_ns = v[1];
	p->loss = v[2];
	p->seed = v[3];
	return 0;
}

static ssize_t link_device_store(nicprog_bus_type_t *bus, const char *buf,
				 size_t count)
{
	char copy[NICSIM_CMD_MAX], *w[NICSIM_LINK_ARGS];
	struct nicsim_wire_params p = { };
	struct nicsim_port *a, *b;
	u32 ida, pa, idb, pb;
	int n, err;

	n = nicsim_split(buf, count, copy, w, NICSIM_LINK_ARGS);
	if (n < 2 || nicsim_parse_port(w[0], &ida, &pa) ||
	    nicsim_parse_port(w[1], &idb, &pb)) {
		pr_err("link_device: expected \"ID:PORT ID:PORT [rate BITS_PER_S] [delay NS] [loss PPM] [seed N]\"\n");
		return -EINVAL;
	}
	err = nicsim_wire_parse(w + 2, n - 2, &p);
	if (err)
		return err;

	mutex_lock(&nicsim_devs_lock);
	a = nicsim_port_lookup(ida, pa);
	b = nicsim_port_lookup(idb, pb);
	if (!a || !b) {
		pr_err("link_device: no port %u:%u\n", a ? idb : ida,
		       a ? pb : pa);
		err = -ENOENT;
		goto out_unlock;
	}
	rtnl_lock();
	err = nicsim_link(a, b, &p);
	rtnl_unlock();
	if (err == -EINVAL)
		pr_err("link_device: cannot link port %u:%u to itself\n",
		       ida, pa);
	else if (err == -EBUSY)
		pr_err("link_device: port %u:%u is already linked\n",
		       rcu_access_pointer(a->peer) ? ida : idb,
		       rcu_access_pointer(a->peer) ? pa : pb);
out_unlock:
	mutex_unlock(&nicsim_devs_lock);
	return err ? err : count;
}
static BUS_ATTR_WO(link_device);

static ssize_t unlink_device_store(nicprog_bus_type_t *bus,
				   const char *buf, size_t count)
{
	char copy[NICSIM_CMD_MAX], *w[1];
	struct nicsim_port *port;
	u32 id, index;
	int err;

	if (nicsim_split(buf, count, copy, w, 1) != 1 ||
	    nicsim_parse_port(w[0], &id, &index)) {
		pr_err("unlink_device: expected \"ID:PORT\"\n");
		return -EINVAL;
	}

	mutex_lock(&nicsim_devs_lock);
	port = nicsim_port_lookup(id, index);
	if (!port) {
		pr_err("unlink_device: no port %u:%u\n", id, index);
		err = -ENOENT;
		goto out_unlock;
	}
	rtnl_lock();
	err = nicsim_unlink(port);
	rtnl_unlock();
	if (err)
		pr_err("unlink_device: port %u:%u is not linked\n", id, index);
out_unlock:
	mutex_unlock(&nicsim_devs_lock);
	return err ? err : count;
}
static BUS_ATTR_WO(unlink_device);

static ssize_t dilation_show(nicprog_bus_type_t *bus, char *buf)
{
	return sysfs_emit(buf, "%u\n", nicsim_wire_dilation_get());
}

/* Simulated time per host time for links made from now on (wire.c). */
static ssize_t dilation_store(nicprog_bus_type_t *bus, const char *buf,
			      size_t count)
{
	u32 v;

	if (kstrtou32(buf, 10, &v) || !v || v > NICSIM_DILATION_MAX) {
		pr_err("dilation: expected 1 to %u\n", NICSIM_DILATION_MAX);
		return -EINVAL;
	}
	nicsim_wire_dilation_set(v);
	return count;
}
static BUS_ATTR_RW(dilation);

static struct attribute *nicsim_bus_attrs[] = {
	&bus_attr_new_device.attr,
	&bus_attr_del_device.attr,
	&bus_attr_link_device.attr,
	&bus_attr_unlink_device.attr,
	&bus_attr_dilation.attr,
	NULL,
};
ATTRIBUTE_GROUPS(nicsim_bus);

static nicprog_bus_type_t nicsim_bus = {
	.name		= NICSIM_DRV_NAME,
	.dev_name	= NICSIM_DRV_NAME,
	.bus_groups	= nicsim_bus_groups,
};

/*
 * Bound to every device as it is added (the bus has no match, so all
 * match), as netdevsim's driver is: from 6.3 devlink names the bound
 * driver in "dev info". A device lives from new_device to del_device, so
 * binding does nothing and sysfs offers no unbind.
 */
static struct device_driver nicsim_driver = {
	.name			= NICSIM_DRV_NAME,
	.bus			= &nicsim_bus,
	.suppress_bind_attrs	= true,
};

static int __init nicsim_module_init(void)
{
	char why[128];
	int err;

	err = nicsim_translate_init();
	if (err)
		return err;
	err = nicsim_profiles_init(why, sizeof(why));
	if (err) {
		pr_err("%s\n", err == -ENOMEM ? "out of memory" : why);
		goto err_translate;
	}
	err = bus_register(&nicsim_bus);
	if (err)
		goto err_profiles;
	err = driver_register(&nicsim_driver);
	if (err)
		goto err_bus;
	mutex_lock(&nicsim_devs_lock);
	nicsim_bus_enabled = true;
	mutex_unlock(&nicsim_devs_lock);
	return 0;

err_bus:
	bus_unregister(&nicsim_bus);
err_profiles:
	nicsim_profiles_exit();
err_translate:
	nicsim_translate_exit();
	return err;
}

static void __exit nicsim_module_exit(void)
{
	struct nicsim_dev *ndev, *tmp;

	mutex_lock(&nicsim_devs_lock);
	nicsim_bus_enabled = false;
	list_for_each_entry_safe(ndev, tmp, &nicsim_devs, list) {
		list_del(&ndev->list);
		nicsim_dev_destroy(ndev);
	}
	mutex_unlock(&nicsim_devs_lock);
	driver_unregister(&nicsim_driver);
	bus_unregister(&nicsim_bus);
	nicsim_profiles_exit();
	nicsim_translate_exit();
}

module_init(nicsim_module_init);
module_exit(nicsim_module_exit);
MODULE_DESCRIPTION("nicsim: simulated SmartNIC for nicprog");
MODULE_LICENSE("GPL");
