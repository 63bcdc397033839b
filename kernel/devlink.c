// SPDX-License-Identifier: GPL-2.0
/*
 * devlink, the upstream home of device-level state, for every nicprog
 * NIC: the core registers one devlink instance per NIC and one devlink
 * port per port (physical flavour, numbered as the driver registers it),
 * so that a driver gets all of it from nicprog_nic_register():
 *
 *   devlink dev info       driver, serial (the driver's info_get), the
 *                          LNIC's name as running version fw.profile
 *   devlink resource show  the NIC's cores, MAT stages, each accelerator
 *                          pool and each memory region (in bytes), each
 *                          with its occupancy by the ports' plans (and,
 *                          for cores, their lookaside kernels)
 *   devlink dev param      "profile" (driverinit): the profile the next
 *                          reload takes
 *   devlink dev reload     re-initializes the NIC with that profile, as
 *                          a reflash does; refused while a program or map
 *                          is bound to the NIC
 *   devlink health         reporter "cores": stages whose cores' queues
 *                          overflowed, cores stalled on a full
 *                          backpressure pipe, with a dump of the NIC's
 *                          stages
 *
 * Locking: devlink's own lock (devl_lock) is taken before RTNL, never
 * after, as upstream drivers do; so the instance, its ports, resources,
 * parameters and reporter are made and destroyed outside RTNL
 * (nicprog_nic_register() and _unregister() take RTNL themselves), and
 * what the datapath and RTNL paths tell devlink goes through work items:
 * overloads to the reporter (@health_work), a replaced LNIC to the
 * resources (@res_work). Occupancy and dumps read the ports' runs under
 * the NIC's lock.
 */
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/devlink.h>
#include <net/nicprog_compat.h>

#include "nicprog.h"

/* Resource IDs: pools are 1 + NICPROG_POOL_*, regions after them. */
#define NICPROG_RES_POOL(p)	(1 + (p))
#define NICPROG_RES_REGION(r)	(1 + NICPROG_POOLS + (r))

enum {
	NICPROG_DEVLINK_PARAM_PROFILE = DEVLINK_PARAM_GENERIC_ID_MAX + 1,
};

static struct nicprog_nic *devlink_nic(struct devlink *devlink)
{
	return *(struct nicprog_nic **)devlink_priv(devlink);
}

/* What plans hold of a pool or region: the ports' runs, under the lock. */
static u64 nicprog_res_occ(void *priv)
{
	const struct nicprog_res *res = priv;
	struct nicprog_nic *nic = res->nic;
	const struct nicprog_dev *nd;
	u64 occ = 0;

	mutex_lock(&nic->lock);
	if (res->region < NICPROG_LNIC_MAX_REGIONS)
		occ = nicprog_alloc_region_used(nic, res->region);
	else
		list_for_each_entry(nd, &nic->ports, nic_node)
			occ += nd->runs[res->pool].n +
			       (res->pool == NICPROG_POOL_CORES ?
				nd->job_core.n : 0);
	mutex_unlock(&nic->lock);
	return occ;
}

/* devlink keeps @name's pointer: it is @res's. */
static int nicprog_res_add(struct nicprog_nic *nic, struct nicprog_res *res,
			   const char *name, u64 size, u64 id)
{
	struct devlink_resource_size_params params;
	int err;

	strscpy(res->name, name, sizeof(res->name));
	name = res->name;
	/* fixed by the LNIC: a profile change, not a resize, changes it */
	devlink_resource_size_params_init(&params, size, size, 1,
					  DEVLINK_RESOURCE_UNIT_ENTRY);
	err = devl_resource_register(nic->devlink, name, size, id,
				     DEVLINK_RESOURCE_ID_PARENT_TOP, &params);
	if (err)
		return err;
	devl_resource_occ_get_register(nic->devlink, id, nicprog_res_occ, res);
	return 0;
}

/*
 * The NIC's resources as its LNIC has them now. devl_lock held; RTNL
 * not, so the LNIC is read under the NIC's lock.
 */
static int nicprog_res_register(struct nicprog_nic *nic)
{
	const struct nicprog_lnic *lnic;
	struct nicprog_lnic_summary sum;
	char name[sizeof(nic->res[0].name)];
	struct nicprog_res *res;
	u64 sizes[NICPROG_LNIC_MAX_REGIONS];
	char names[NICPROG_LNIC_MAX_REGIONS][NICPROG_LNIC_NAME_LEN];
	u32 p, r, n_regions;
	int err;

	devl_assert_locked(nic->devlink);
	mutex_lock(&nic->lock);
	lnic = nic->lnic;
	sum = nic->sum;
	n_regions = lnic->n_regions;
	for (r = 0; r < n_regions; r++) {
		sizes[r] = lnic->regions[r].size;
		strscpy(names[r], lnic->regions[r].name, sizeof(names[r]));
	}
	mutex_unlock(&nic->lock);

	for (p = 0; p < NICPROG_POOLS; p++) {
		res = &nic->res[p];
		*res = (struct nicprog_res){ .nic = nic, .pool = p,
					     .region = NICPROG_LNIC_MAX_REGIONS };
		if (p == NICPROG_POOL_CORES) {
			err = nicprog_res_add(nic, res, "cores", sum.cores,
					      NICPROG_RES_POOL(p));
		} else if (p == NICPROG_POOL_MAT && sum.mat_stages) {
			err = nicprog_res_add(nic, res, "mat_stages",
					      sum.mat_stages,
					      NICPROG_RES_POOL(p));
		} else if (p >= NICPROG_POOL_ACCEL &&
			 sum.accels[p - NICPROG_POOL_ACCEL]) {
			snprintf(name, sizeof(name), "accel_%s",
				 nicprog_accel_type_name(p - NICPROG_POOL_ACCEL));
			err = nicprog_res_add(nic, res, name,
					      sum.accels[p - NICPROG_POOL_ACCEL],
					      NICPROG_RES_POOL(p));
		} else {
			err = 0;
		}
		if (err)
			return err;
	}
	for (r = 0; r < n_regions; r++) {
		res = &nic->res[NICPROG_POOLS + r];
		*res = (struct nicprog_res){ .nic = nic, .region = r };
		snprintf(name, sizeof(name), "region_%s", names[r]);
		err = nicprog_res_add(nic, res, name, sizes[r],
				      NICPROG_RES_REGION(r));
		if (err)
			return err;
	}
	return 0;
}

/* Resources follow a replaced LNIC (nicprog_lnic_replace_end()). */
static void nicprog_res_work(struct work_struct *work)
{
	struct nicprog_nic *nic = container_of(work, struct nicprog_nic,
					       res_work);

	devl_lock(nic->devlink);
	devl_resources_unregister(nic->devlink);
	if (nicprog_res_register(nic))
		dev_warn(nic->dev, "nicprog: devlink resources of the new profile not registered\n");
	devl_unlock(nic->devlink);
}

/**
 * nicprog_devlink_lnic_changed() - the NIC took another LNIC
 * @nic: the NIC
 *
 * Context: any; the resources are registered again from a work item.
 */
void nicprog_devlink_lnic_changed(struct nicprog_nic *nic)
{
	schedule_work(&nic->res_work);
}

static int nicprog_dl_info_get(struct devlink *devlink,
			       struct devlink_info_req *req,
			       struct netlink_ext_ack *extack)
{
	struct nicprog_nic *nic = devlink_nic(devlink);
	char profile[NICPROG_LNIC_NAME_LEN + 16];
	int err;

	err = nicprog_devlink_info_driver_name_put(req, nic->ops->owner ?
						   module_name(nic->ops->owner) :
						   dev_driver_string(nic->dev));
	if (err)
		return err;
	mutex_lock(&nic->lock);
	strscpy(profile, nic->lnic->name, sizeof(profile));
	mutex_unlock(&nic->lock);
	err = devlink_info_version_running_put(req, "fw.profile", profile);
	if (err)
		return err;
	return nic->ops->info_get ? nic->ops->info_get(nic, req, extack) : 0;
}

static int nicprog_dl_reload_down(struct devlink *devlink, bool netns_change,
				  enum devlink_reload_action action,
				  enum devlink_reload_limit limit,
				  struct netlink_ext_ack *extack)
{
	struct nicprog_nic *nic = devlink_nic(devlink);
	int err = 0;

	if (netns_change) {
		NL_SET_ERR_MSG_MOD(extack,
				   "a NIC's ports stay in their namespaces; move them with ip link");
		return -EOPNOTSUPP;
	}
	/* from 6.3 devlink offers reload to every instance whose ops have it */
	if (!nic->ops->profile_set) {
		NL_SET_ERR_MSG_MOD(extack, "the driver cannot change the NIC's profile");
		return -EOPNOTSUPP;
	}
	rtnl_lock();
	mutex_lock(&nic->lock);
	if (nic->n_progs || nic->n_tables) {
		NL_SET_ERR_MSG_MOD(extack,
				   "the NIC has a program or an offloaded map (remove them first)");
		err = -EBUSY;
	}
	mutex_unlock(&nic->lock);
	rtnl_unlock();
	if (!err && !NICPROG_DEVLINK_REINIT_KEEPS_PORTS) {
		NL_SET_ERR_MSG_MOD(extack,
				   "on this kernel a reload must re-create the NIC's ports, which nicprog does not do yet; set the profile with nicprog dev set or sysfs");
		err = -EOPNOTSUPP;
	}
	return err;
}

/*
 * The profile the parameter names if it changed since the last reload,
 * else the NIC's own: taken as the profile-set operation takes one, the
 * driver's file read without RTNL. devl_lock held.
 */
static int nicprog_dl_reload_up(struct devlink *devlink,
				enum devlink_reload_action action,
				enum devlink_reload_limit limit,
				u32 *actions_performed,
				struct netlink_ext_ack *extack)
{
	struct nicprog_nic *nic = devlink_nic(devlink);
	const struct nicprog_dev_ops *ops = nic->ops;
	struct nicprog_lnic_text *text = NULL;
	union devlink_param_value val;
	char name[__DEVLINK_PARAM_MAX_STRING_VALUE];
	int err;

	err = nicprog_devl_param_driverinit_value_get(devlink,
						      NICPROG_DEVLINK_PARAM_PROFILE,
						      &val);
	if (err)
		return err;
	if (strcmp(val.vstr, nic->profile_applied)) {
		strscpy(name, val.vstr, sizeof(name));
	} else {
		mutex_lock(&nic->lock);
		strscpy(name, nic->lnic->name, sizeof(name));
		mutex_unlock(&nic->lock);
	}
	if (ops->profile_request) {
		err = ops->profile_request(name, &text, extack);
		if (err)
			return err;
	}
	rtnl_lock();
	if (ops->profile_set) {
		err = ops->profile_set(nic, text ? NULL : name, text, extack);
	} else {
		kvfree(text);
		err = -EOPNOTSUPP;
	}
	rtnl_unlock();
	if (err)
		return err;
	strscpy(nic->profile_applied, val.vstr, sizeof(nic->profile_applied));
	/* at once, not from the work: the caller may read them next */
	devl_resources_unregister(devlink);
	err = nicprog_res_register(nic);
	if (err)
		return err;
	*actions_performed = BIT(DEVLINK_RELOAD_ACTION_DRIVER_REINIT);
	return 0;
}

static const struct devlink_ops nicprog_devlink_ops = {
	.reload_actions	= BIT(DEVLINK_RELOAD_ACTION_DRIVER_REINIT),
	.reload_down	= nicprog_dl_reload_down,
	.reload_up	= nicprog_dl_reload_up,
	.info_get	= nicprog_dl_info_get,
};

static int nicprog_dl_profile_validate(struct devlink *devlink, u32 id,
				       union devlink_param_value val,
				       struct netlink_ext_ack *extack)
{
	if (!nicprog_profile_name_ok(val.vstr)) {
		NL_SET_ERR_MSG_MOD(extack, NICPROG_PROFILE_NAME_RULE);
		return -EINVAL;
	}
	return 0;
}

static const struct devlink_param nicprog_devlink_params[] = {
	DEVLINK_PARAM_DRIVER(NICPROG_DEVLINK_PARAM_PROFILE, "profile",
			     DEVLINK_PARAM_TYPE_STRING,
			     BIT(DEVLINK_PARAM_CMODE_DRIVERINIT), NULL, NULL,
			     nicprog_dl_profile_validate),
};

/* One port's plan in a dump: its runs and, per core, the stage. */
static int nicprog_dl_dump_port(struct devlink_fmsg *fmsg,
				const struct nicprog_dev *nd)
{
	const struct nicprog_run *cores = &nd->runs[NICPROG_POOL_CORES];
	u32 c;
	int err;

	err = nicprog_fmsg_obj_nest_start(fmsg) ?:
	      nicprog_fmsg_string_pair_put(fmsg, "port",
					   netdev_name(nd->netdev)) ?:
	      nicprog_fmsg_u32_pair_put(fmsg, "first_core", cores->base) ?:
	      nicprog_fmsg_u32_pair_put(fmsg, "cores", cores->n) ?:
	      nicprog_fmsg_u32_pair_put(fmsg, "stages", nd->n_stages) ?:
	      nicprog_fmsg_arr_pair_nest_start(fmsg, "core_stage");
	for (c = 0; !err && c < cores->n && c < NICPROG_MAX_CORES; c++)
		err = nicprog_fmsg_u32_put(fmsg, nd->core_stage[c]);
	return err ?: nicprog_fmsg_arr_pair_nest_end(fmsg) ?:
		      nicprog_fmsg_obj_nest_end(fmsg);
}

/* The last of one kind of trouble, its place named @where. */
static int nicprog_dl_put_event(struct devlink_fmsg *fmsg, const char *name,
				const char *where,
				const struct nicprog_health_event *ev)
{
	return nicprog_fmsg_pair_nest_start(fmsg, name) ?:
	       nicprog_fmsg_obj_nest_start(fmsg) ?:
	       nicprog_fmsg_string_pair_put(fmsg, "port", ev->port) ?:
	       nicprog_fmsg_u32_pair_put(fmsg, where, ev->where) ?:
	       nicprog_fmsg_u64_pair_put(fmsg, "frames", ev->frames) ?:
	       nicprog_fmsg_obj_nest_end(fmsg) ?:
	       nicprog_fmsg_pair_nest_end(fmsg);
}

/* The NIC's stages and cores as they are, and the last troubles. */
static int nicprog_dl_state(struct nicprog_nic *nic, struct devlink_fmsg *fmsg)
{
	struct nicprog_core_stats *cs = NULL;
	struct nicprog_health_event last, stall;
	const struct nicprog_dev *nd;
	u32 n = 0, i;
	int err;

	spin_lock_bh(&nic->health_lock);
	last = nic->overload;
	stall = nic->stall;
	spin_unlock_bh(&nic->health_lock);
	err = nicprog_dl_put_event(fmsg, "last_overload", "stage", &last) ?:
	      nicprog_dl_put_event(fmsg, "last_stall", "core", &stall);
	if (err)
		return err;

	err = nicprog_fmsg_arr_pair_nest_start(fmsg, "plans");
	mutex_lock(&nic->lock);
	list_for_each_entry(nd, &nic->ports, nic_node)
		if (!err && nd->runs[NICPROG_POOL_CORES].n)
			err = nicprog_dl_dump_port(fmsg, nd);
	mutex_unlock(&nic->lock);
	err = err ?: nicprog_fmsg_arr_pair_nest_end(fmsg);
	if (err || !nic->ops->core_stats)
		return err;

	cs = kcalloc(NICPROG_MAX_CORES, sizeof(*cs), GFP_KERNEL);
	if (!cs)
		return -ENOMEM;
	n = min_t(u32, nic->ops->core_stats(nic, cs, NICPROG_MAX_CORES),
		  NICPROG_MAX_CORES);
	err = nicprog_fmsg_arr_pair_nest_start(fmsg, "cores");
	for (i = 0; !err && i < n; i++)
		err = nicprog_fmsg_obj_nest_start(fmsg) ?:
		      nicprog_fmsg_u32_pair_put(fmsg, "core", i) ?:
		      nicprog_fmsg_u64_pair_put(fmsg, "packets",
						cs[i].packets) ?:
		      nicprog_fmsg_u64_pair_put(fmsg, "busy", cs[i].busy) ?:
		      nicprog_fmsg_u64_pair_put(fmsg, "elapsed",
						cs[i].elapsed) ?:
		      nicprog_fmsg_u64_pair_put(fmsg, "drops", cs[i].drops) ?:
		      nicprog_fmsg_obj_nest_end(fmsg);
	kfree(cs);
	return err ?: nicprog_fmsg_arr_pair_nest_end(fmsg);
}

static int nicprog_dl_health_dump(struct devlink_health_reporter *reporter,
				  struct devlink_fmsg *fmsg, void *priv_ctx,
				  struct netlink_ext_ack *extack)
{
	return nicprog_dl_state(devlink_health_reporter_priv(reporter), fmsg);
}

static int nicprog_dl_health_diagnose(struct devlink_health_reporter *reporter,
				      struct devlink_fmsg *fmsg,
				      struct netlink_ext_ack *extack)
{
	struct nicprog_nic *nic = devlink_health_reporter_priv(reporter);
	u64 total, stalled;

	spin_lock_bh(&nic->health_lock);
	total = nic->overload.total;
	stalled = nic->stall.total;
	spin_unlock_bh(&nic->health_lock);
	return nicprog_fmsg_u64_pair_put(fmsg, "overload_frames", total) ?:
	       nicprog_fmsg_u64_pair_put(fmsg, "stall_frames", stalled) ?:
	       nicprog_dl_state(nic, fmsg);
}

/*
 * An overload or a stall passes: frames were dropped, nothing on the NIC
 * is broken, so recovery is to note it; a flood reports again after the
 * grace period.
 */
static int nicprog_dl_health_recover(struct devlink_health_reporter *reporter,
				     void *priv_ctx,
				     struct netlink_ext_ack *extack)
{
	return 0;
}

static const struct devlink_health_reporter_ops nicprog_dl_health_ops = {
	.name		= "cores",
	.recover	= nicprog_dl_health_recover,
	.dump		= nicprog_dl_health_dump,
	.diagnose	= nicprog_dl_health_diagnose,
};

/* ms between automatic recoveries: a flood reports once per period. */
#define NICPROG_HEALTH_GRACE_MS	1000

static void nicprog_health_work(struct work_struct *work)
{
	struct nicprog_nic *nic = container_of(work, struct nicprog_nic,
					       health_work);
	struct nicprog_health_event last, stall;
	char msg[IFNAMSIZ + 96];

	spin_lock_bh(&nic->health_lock);
	last = nic->overload;
	stall = nic->stall;
	nic->overload.pending = 0;
	nic->stall.pending = 0;
	spin_unlock_bh(&nic->health_lock);
	if (last.pending) {
		snprintf(msg, sizeof(msg),
			 "%s: stage %u dropped %llu frames: its cores' queues were full",
			 last.port, last.where, last.pending);
		devlink_health_report(nic->health, msg, NULL);
	}
	if (stall.pending) {
		snprintf(msg, sizeof(msg),
			 "%s: core %u stalled on a full backpressure pipe and dropped %llu frames",
			 stall.port, stall.where, stall.pending);
		devlink_health_report(nic->health, msg, NULL);
	}
}

/* Note @frames dropped at @where of @nd's plan in @ev; report them. */
static void nicprog_devlink_event(struct nicprog_dev *nd,
				  struct nicprog_health_event *ev, u32 where,
				  u64 frames)
{
	struct nicprog_nic *nic = nd->nic;

	spin_lock_bh(&nic->health_lock);
	strscpy(ev->port, netdev_name(nd->netdev), sizeof(ev->port));
	ev->where = where;
	ev->frames = frames;
	ev->total += frames;
	ev->pending += frames;
	if (!nic->dead)
		schedule_work(&nic->health_work);
	spin_unlock_bh(&nic->health_lock);
}

/**
 * nicprog_devlink_overload() - tell the NIC's health reporter of overload
 * @nd: the port whose plan's stage dropped frames
 * @stage: the stage
 * @frames: frames dropped since the last call
 *
 * Context: process, RTNL held (the port's events work); the report goes
 * out from a work item of the NIC's, outside RTNL.
 */
void nicprog_devlink_overload(struct nicprog_dev *nd, u32 stage, u64 frames)
{
	nicprog_devlink_event(nd, &nd->nic->overload, stage, frames);
}

/**
 * nicprog_devlink_stall() - tell the NIC's health reporter of a stall
 * @nd: the port whose plan's frames a core held
 * @core: the NIC core
 * @frames: frames it gave up on since the last call
 *
 * Context: as nicprog_devlink_overload().
 */
void nicprog_devlink_stall(struct nicprog_dev *nd, u32 core, u64 frames)
{
	nicprog_devlink_event(nd, &nd->nic->stall, core, frames);
}

/**
 * nicprog_devlink_port() - the devlink port of a port
 * @nd: the port
 *
 * For the driver's ndo_get_devlink_port.
 *
 * Context: any.
 * Return: the devlink port nicprog_register() set up.
 */
struct devlink_port *nicprog_devlink_port(struct nicprog_dev *nd)
{
	return &nd->nic->dl_ports[nd->index];
}
EXPORT_SYMBOL_GPL(nicprog_devlink_port);

/**
 * nicprog_nic_devlink_port() - the devlink port of a NIC's port, by number
 * @nic: the NIC
 * @index: the port's number, below the port count it was registered with
 *
 * For a netdev that names its devlink port before it is registered
 * (nicprog_netdev_devlink_port_set(), SET_NETDEV_DEVLINK_PORT from 6.2).
 *
 * Context: any.
 * Return: the devlink port nicprog_nic_register() registered.
 */
struct devlink_port *nicprog_nic_devlink_port(struct nicprog_nic *nic,
					      u32 index)
{
	return &nic->dl_ports[index];
}
EXPORT_SYMBOL_GPL(nicprog_nic_devlink_port);

/**
 * nicprog_devlink_port_set() - a port's netdev is its devlink port's
 * @nd: the port, registered
 *
 * Call right after the RTNL section that registered the port's netdev
 * and the port: Linux 6.1's devlink takes RTNL to announce it.
 *
 * Context: process, RTNL not held.
 */
void nicprog_devlink_port_set(struct nicprog_dev *nd)
{
	nicprog_devlink_port_type_eth_set(nicprog_devlink_port(nd), nd->netdev);
}
EXPORT_SYMBOL_GPL(nicprog_devlink_port_set);

/**
 * nicprog_devlink_port_clear() - undo nicprog_devlink_port_set()
 * @nd: the port, before the RTNL section that unregisters it
 *
 * Context: process, RTNL not held.
 */
void nicprog_devlink_port_clear(struct nicprog_dev *nd)
{
	nicprog_devlink_port_type_clear(nicprog_devlink_port(nd));
}
EXPORT_SYMBOL_GPL(nicprog_devlink_port_clear);

/**
 * nicprog_devlink_init() - a NIC's devlink instance, ports and reporter
 * @nic: the NIC, being registered
 * @ports: its ports, each registered later with nicprog_register()
 *
 * Context: process, RTNL not held.
 * Return: 0 or -errno.
 */
int nicprog_devlink_init(struct nicprog_nic *nic, u32 ports)
{
	struct devlink_port_attrs attrs = {
		.flavour = DEVLINK_PORT_FLAVOUR_PHYSICAL,
	};
	union devlink_param_value val = {};
	struct devlink *devlink;
	u32 i;
	int err;

	spin_lock_init(&nic->health_lock);
	INIT_WORK(&nic->health_work, nicprog_health_work);
	INIT_WORK(&nic->res_work, nicprog_res_work);
	nic->dl_ports = kcalloc(ports, sizeof(*nic->dl_ports), GFP_KERNEL);
	if (!nic->dl_ports)
		return -ENOMEM;
	nic->n_ports = ports;
	devlink = devlink_alloc(&nicprog_devlink_ops, sizeof(nic), nic->dev);
	if (!devlink) {
		err = -ENOMEM;
		goto err_free_ports;
	}
	*(struct nicprog_nic **)devlink_priv(devlink) = nic;
	nic->devlink = devlink;
	if (nic->ops->profile_set)
		nicprog_devlink_reload_enable(devlink);

	devl_lock(devlink);
	for (i = 0; i < ports; i++) {
		attrs.phys.port_number = i;
		devlink_port_attrs_set(&nic->dl_ports[i], &attrs);
		err = devl_port_register(devlink, &nic->dl_ports[i], i);
		if (err)
			goto err_ports;
	}
	err = nicprog_res_register(nic);
	if (err)
		goto err_ports;
	devl_unlock(devlink);

	err = devlink_params_register(devlink, nicprog_devlink_params,
				      ARRAY_SIZE(nicprog_devlink_params));
	if (err)
		goto err_resources;
	strscpy(val.vstr, nic->lnic->name, sizeof(val.vstr));
	strscpy(nic->profile_applied, val.vstr, sizeof(nic->profile_applied));
	nicprog_devlink_param_driverinit_value_set(devlink,
						   NICPROG_DEVLINK_PARAM_PROFILE,
						   val);
	nic->health = devlink_health_reporter_create(devlink,
						     &nicprog_dl_health_ops,
						     NICPROG_HEALTH_GRACE_MS,
						     nic);
	if (IS_ERR(nic->health)) {
		err = PTR_ERR(nic->health);
		goto err_params;
	}
	devlink_register(devlink);
	return 0;

err_params:
	devlink_params_unregister(devlink, nicprog_devlink_params,
				  ARRAY_SIZE(nicprog_devlink_params));
err_resources:
	devl_lock(devlink);
	devl_resources_unregister(devlink);
err_ports:
	while (i--)
		devl_port_unregister(&nic->dl_ports[i]);
	devl_unlock(devlink);
	devlink_free(devlink);
err_free_ports:
	kfree(nic->dl_ports);
	return err;
}

/**
 * nicprog_devlink_exit() - undo nicprog_devlink_init()
 * @nic: the NIC, its ports unregistered and @nic->dead set, so that no
 *	work is scheduled any more
 *
 * Context: process, RTNL not held.
 */
void nicprog_devlink_exit(struct nicprog_nic *nic)
{
	struct devlink *devlink = nic->devlink;
	u32 i;

	cancel_work_sync(&nic->health_work);
	cancel_work_sync(&nic->res_work);
	devlink_unregister(devlink);
	devlink_health_reporter_destroy(nic->health);
	devlink_params_unregister(devlink, nicprog_devlink_params,
				  ARRAY_SIZE(nicprog_devlink_params));
	devl_lock(devlink);
	devl_resources_unregister(devlink);
	for (i = 0; i < nic->n_ports; i++)
		devl_port_unregister(&nic->dl_ports[i]);
	devl_unlock(devlink);
	devlink_free(devlink);
	kfree(nic->dl_ports);
}
