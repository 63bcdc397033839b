// SPDX-License-Identifier: GPL-2.0
/*
 * Profiles read from firmware files, and a NIC's profile replaced; the
 * shipped profiles are in profiles.c, the vendor ops table that asks for
 * these in ops.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/firmware.h>
#include <linux/rtnetlink.h>
#include <net/devlink.h>

#include "nicsim.h"

/*
 * Why a profile was refused. Asked through nicprog's netlink family
 * (@extack), by whoever holds CAP_NET_ADMIN in some namespace: to the
 * tracepoint nicprog:nicprog_bad_arg, never the kernel log; the caller's
 * extack message says which kind of refusal it was. Asked through
 * nicsim's own sysfs (root in the initial namespace, no extack): logged,
 * as a simulator's control files do.
 */
#define nicsim_profile_err(extack, ...)					\
	do {								\
		if (extack)						\
			nicprog_bad_arg("nicsim profile", __VA_ARGS__);	\
		else							\
			pr_err(__VA_ARGS__);				\
	} while (0)

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
	char path[NICPROG_PROFILE_NAME_MAX + 16], why[128];
	const struct firmware *fw;
	struct nicprog_lnic_text *t;
	int err;

	if (!nicprog_profile_name_ok(name)) {
		nicsim_profile_err(extack, "profile \"%s\": a name is 1..%u letters, digits, '_', '-' or '.', not first\n",
				   name, NICPROG_PROFILE_NAME_MAX - 1);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "nicsim/%s.lnic", name);
	err = request_firmware_direct(&fw, path, NULL);
	if (err) {
		nicsim_profile_err(extack, "profile \"%s\": not shipped (%s) and no firmware file %s: %d\n",
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
		nicsim_profile_err(extack, "profile %s: %s\n", path, why);
	} else if (strcmp(t->lnic.name, name)) {
		nicsim_profile_err(extack, "profile %s: names itself \"%s\", not \"%s\"\n",
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
		nicsim_profile_err(extack, "profile %s: %u cores; nicsim runs at most %u\n",
				   lnic->name, cores, NICSIM_MAX_CORES);
		return -EINVAL;
	}
	for (p = 0; p < NICSIM_TM_POOLS; p++)
		if (units[p] > NICSIM_TM_MAX_ENGINES) {
			nicsim_profile_err(extack, "profile %s: %u units of a kind; nicsim times at most %u\n",
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
