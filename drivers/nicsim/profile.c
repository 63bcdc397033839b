// SPDX-License-Identifier: GPL-2.0
/*
 * nicsim's glue to the nicprog core, and profiles read from firmware
 * files; the shipped profiles are in profiles.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/firmware.h>
#include <linux/rtnetlink.h>
#include <net/devlink.h>

#include "nicsim.h"

/* A profile name is also a file name: no '/', no leading '.'. */
static bool nicsim_profile_name_ok(const char *name)
{
	const char *c;

	if (!*name || *name == '.' || strlen(name) >= NICSIM_PROFILE_NAME_MAX)
		return false;
	for (c = name; *c; c++)
		if (!isalnum(*c) && *c != '_' && *c != '-' && *c != '.')
			return false;
	return true;
}

/*
 * Why a profile was refused. Asked through nicprog's netlink family
 * (@extack), by whoever holds CAP_NET_ADMIN in some namespace: to the
 * tracepoint nicprog:nicprog_bad_arg, never the kernel log; the caller's
 * extack message says which kind of refusal it was. Asked through
 * nicsim's own sysfs (root in the initial namespace, no extack): logged,
 * as a simulator's control files do.
 */
static __printf(2, 3) void nicsim_profile_err(struct netlink_ext_ack *extack,
					      const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	if (extack)
		nicprog_bad_arg("nicsim profile", "%pV", &vaf);
	else
		pr_err("%pV\n", &vaf);
	va_end(args);
}

/**
 * nicsim_profile_request() - read a profile from firmware file
 *	nicsim/<name>.lnic
 * @name: the profile's name, which the file's "lnic" statement must give
 * @out: the profile, for the caller to kvfree()
 * @extack: the netlink request's, or NULL for nicsim's sysfs
 *
 * No user-mode helper and no wait for one: a missing file fails at once.
 * Every failure says its cause (nicsim_profile_err()).
 *
 * Context: process; sleeps.
 * Return: 0; -EINVAL for a bad name or profile text; -ENOENT without the
 * file; -ENOMEM.
 */
int nicsim_profile_request(const char *name, struct nicprog_lnic_text **out,
			   struct netlink_ext_ack *extack)
{
	char path[NICSIM_PROFILE_NAME_MAX + 16], why[128];
	const struct firmware *fw;
	struct nicprog_lnic_text *t;
	int err;

	if (!nicsim_profile_name_ok(name)) {
		nicsim_profile_err(extack, "profile \"%s\": a name is 1..%u letters, digits, '_', '-' or '.', not first",
				   name, NICSIM_PROFILE_NAME_MAX - 1);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "nicsim/%s.lnic", name);
	err = request_firmware_direct(&fw, path, NULL);
	if (err) {
		nicsim_profile_err(extack, "profile \"%s\": not shipped (%s) and no firmware file %s: %d",
				   name, nicsim_profile_names(why, sizeof(why)),
				   path, err);
		return -ENOENT;
	}
	t = kvzalloc(sizeof(*t), GFP_KERNEL);
	if (!t) {
		err = -ENOMEM;
		goto out;
	}
	err = nicprog_lnic_parse(fw->data, fw->size, t, why, sizeof(why));
	if (err) {
		nicsim_profile_err(extack, "profile %s: %s", path, why);
	} else if (strcmp(t->lnic.name, name)) {
		nicsim_profile_err(extack, "profile %s: names itself \"%s\", not \"%s\"",
				   path, t->lnic.name, name);
		err = -EINVAL;
	}
	if (err)
		kvfree(t);
	else
		*out = t;
out:
	release_firmware(fw);
	return err;
}

/**
 * nicsim_profile_check() - can nicsim run a profile?
 * @lnic: the profile, valid as nicprog_lnic_validate() says
 *
 * nicsim runs at most NICSIM_MAX_CORES cores and times at most
 * NICSIM_TM_MAX_ENGINES units of a pool; a profile with more would let
 * the nicprog core give plans units nicsim does not have. The refusal
 * says its cause (nicsim_profile_err()).
 *
 * Context: any.
 * Return: 0, or -EINVAL.
 */
int nicsim_profile_check(const struct nicprog_lnic *lnic,
			 struct netlink_ext_ack *extack)
{
	u32 i, p, cores = 0, units[NICSIM_TM_POOLS] = {};
	const struct nicprog_lnic_unit *u;

	for (i = 0; i < lnic->n_units; i++) {
		u = &lnic->units[i];
		if (u->type == NICPROG_UNIT_CORE)
			cores += u->count;
		else if (u->type == NICPROG_UNIT_MAT)
			units[NICSIM_TM_POOL_MAT] += u->count;
		else if (u->type == NICPROG_UNIT_ACCEL &&
			 u->accel < __NICPROG_ACCEL_MAX)
			units[u->accel] += u->count;
	}
	if (cores > NICSIM_MAX_CORES) {
		nicsim_profile_err(extack, "profile %s: %u cores; nicsim runs at most %u",
				   lnic->name, cores, NICSIM_MAX_CORES);
		return -EINVAL;
	}
	for (p = 0; p < NICSIM_TM_POOLS; p++)
		if (units[p] > NICSIM_TM_MAX_ENGINES) {
			nicsim_profile_err(extack, "profile %s: %u units of a kind; nicsim times at most %u",
					   lnic->name, units[p],
					   NICSIM_TM_MAX_ENGINES);
			return -EINVAL;
		}
	return 0;
}

/**
 * nicsim_profile_replace() - give the NIC another profile, as reflashing
 *	a NIC does
 * @ndev: the NIC
 * @lnic: the profile: a shipped one, or @*own's
 * @own: storage of @lnic if it is not shipped, else NULL; on success,
 *	swapped with the old profile's, for the caller to kvfree() either way
 * @extack: the netlink request's, or NULL for nicsim's sysfs
 *
 * The NIC must be free of programs and maps (nicprog_lnic_replace_begin()
 * says which it has); the cores and timing model restart for the new
 * profile, and if they cannot, the old profile stays. The outcome is
 * logged.
 *
 * Context: process; RTNL held.
 * Return: 0; -ENODEV for a NIC being destroyed; -EBUSY if the NIC has a
 * program or map; -EINVAL for a profile the NIC cannot take; -ENOMEM.
 */
int nicsim_profile_replace(struct nicsim_dev *ndev,
			   const struct nicprog_lnic *lnic,
			   struct nicprog_lnic_text **own,
			   struct netlink_ext_ack *extack)
{
	const struct nicprog_lnic *old;
	struct nicprog_lnic_text *old_own;
	int err;

	ASSERT_RTNL();
	if (!ndev->live)
		return -ENODEV;
	err = nicsim_profile_check(lnic, extack);
	if (!err)
		err = nicprog_lnic_replace_begin(ndev->nic, lnic);
	if (err)
		goto out;
	/* no port has a plan: no frame is on a core */
	nicsim_cores_stop(ndev);
	mutex_lock(&ndev->lnic_lock);
	old = ndev->lnic;
	old_own = ndev->own_lnic;
	ndev->lnic = lnic;
	ndev->own_lnic = *own;
	mutex_unlock(&ndev->lnic_lock);
	err = nicsim_cores_start(ndev);
	if (err) {
		mutex_lock(&ndev->lnic_lock);
		ndev->lnic = old;
		ndev->own_lnic = old_own;
		mutex_unlock(&ndev->lnic_lock);
		if (nicsim_cores_start(ndev))
			dev_err(&ndev->dev, "profile: the NIC has no cores until its next profile: out of memory\n");
	} else {
		*own = old_own;		/* the caller frees the old one */
	}
	nicprog_lnic_replace_end(ndev->nic, err ? NULL : ndev->lnic);
out:
	if (err && extack)	/* a user's request: the extack says it */
		nicprog_bad_arg(dev_name(&ndev->dev),
				"profile: cannot take profile %s: %d",
				lnic->name, err);
	else if (err)
		dev_err(&ndev->dev, "profile: cannot take profile %s: %d\n",
			lnic->name, err);
	else
		dev_info(&ndev->dev, "profile: now %s\n", ndev->lnic->name);
	return err;
}

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

/* The serial number is the device's name, unique on the bus. */
static int nicsim_nicprog_info_get(struct nicprog_nic *nic,
				   struct devlink_info_req *req,
				   struct netlink_ext_ack *extack)
{
	struct nicsim_dev *ndev = nicprog_nic_priv(nic);

	return devlink_info_serial_number_put(req, dev_name(&ndev->dev));
}

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
	.info_get		= nicsim_nicprog_info_get,
	.accel_run		= nicsim_accel_run,
	.table_ops		= &nicsim_table_ops,
	.ring_xmit		= nicsim_ring_xmit,
	.owner			= THIS_MODULE,
};
