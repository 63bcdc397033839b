// SPDX-License-Identifier: GPL-2.0
/*
 * devlink, the upstream home of device-level state: a NIC's devlink
 * instance is its driver's (nicprog_nic_register() takes it, allocated
 * and registered or not); the core adds what only it knows:
 *
 *   devlink resource show  the NIC's cores, MAT stages, each accelerator
 *                          pool and each memory region (in bytes), each
 *                          with its occupancy by the ports' plans (and,
 *                          for cores, their lookaside kernels)
 *   devlink health         reporter "cores": stages whose cores' queues
 *                          overflowed, cores stalled on a full
 *                          backpressure pipe, with a dump of the NIC's
 *                          stages
 *
 * and helpers for the driver's own devlink ops: the profile in dev info
 * (nicprog_devlink_info_put()), the core's conditions for a reload
 * (nicprog_devlink_reload_check()) and the resources again after one
 * (nicprog_devl_resources_reload()). Ports, parameters, reload and
 * everything else of the instance stay the driver's.
 *
 * Locking: devlink's own lock (devl_lock) is taken before RTNL, never
 * after, as upstream drivers do; so the resources and the reporter are
 * made and destroyed outside RTNL (nicprog_nic_register() and
 * _unregister() take RTNL themselves), and what the datapath and RTNL
 * paths tell devlink goes through work items: overloads to the reporter
 * (@health_work), a replaced LNIC to the resources (@res_work).
 * Occupancy and dumps read the ports' runs under the NIC's lock.
 */
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/devlink.h>
#include <net/nicprog_compat.h>

#include "nicprog.h"

/*
 * Resource IDs on the driver's instance: pools are NICPROG_DEVLINK_RES_BASE
 * + NICPROG_POOL_*, regions after them.
 */
#define NICPROG_RES_POOL(p)	(NICPROG_DEVLINK_RES_BASE + (p))
#define NICPROG_RES_REGION(r)	(NICPROG_DEVLINK_RES_BASE + NICPROG_POOLS + (r))

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
 * nicprog_devlink_info_put() - what devlink dev info shows of nicprog
 * @nic: the NIC
 * @req: the driver's &devlink_ops.info_get request
 *
 * The NIC's LNIC, as the running version "fw.profile" (the architecture
 * profile it runs, as firmware would be).
 *
 * Context: the driver's info_get; RTNL not held.
 * Return: 0 or devlink's error.
 */
int nicprog_devlink_info_put(struct nicprog_nic *nic,
			     struct devlink_info_req *req)
{
	char profile[NICPROG_LNIC_NAME_LEN + 16];

	mutex_lock(&nic->lock);
	strscpy(profile, nic->lnic->name, sizeof(profile));
	mutex_unlock(&nic->lock);
	return devlink_info_version_running_put(req, "fw.profile", profile);
}
EXPORT_SYMBOL_GPL(nicprog_devlink_info_put);

/**
 * nicprog_devlink_reload_check() - may the NIC be re-initialized now
 * @nic: the NIC
 * @extack: the refusal
 *
 * For the driver's &devlink_ops.reload_down: a reload that changes the
 * NIC's LNIC, or takes its ports away, must not find a program or an
 * offloaded map bound to it.
 *
 * Context: the driver's reload_down; takes RTNL, so hold it not.
 * Return: 0, or -EBUSY with @extack saying why.
 */
int nicprog_devlink_reload_check(struct nicprog_nic *nic,
				 struct netlink_ext_ack *extack)
{
	int err = 0;

	rtnl_lock();
	mutex_lock(&nic->lock);
	if (nic->n_progs || nic->n_tables) {
		NL_SET_ERR_MSG_MOD(extack,
				   "the NIC has a program or an offloaded map (remove them first)");
		err = -EBUSY;
	}
	mutex_unlock(&nic->lock);
	rtnl_unlock();
	return err;
}
EXPORT_SYMBOL_GPL(nicprog_devlink_reload_check);

/**
 * nicprog_devl_resources_reload() - the NIC's resources as its LNIC is now
 * @nic: the NIC, whose LNIC a reload replaced
 *
 * For the driver's &devlink_ops.reload_up, so that what follows the
 * reload reads the new sizes (otherwise they follow from a work item).
 * devlink can only change a size by registering the resources again, and
 * unregisters an instance's resources all at once: a driver with
 * resources of its own registers them again after this call.
 *
 * Context: devl_lock held; RTNL not.
 * Return: 0 or devlink's error.
 */
int nicprog_devl_resources_reload(struct nicprog_nic *nic)
{
	devl_assert_locked(nic->devlink);
	devl_resources_unregister(nic->devlink);
	return nicprog_res_register(nic);
}
EXPORT_SYMBOL_GPL(nicprog_devl_resources_reload);

/**
 * nicprog_devlink_init() - the NIC's resources and reporter on its devlink
 * @nic: the NIC, being registered, @nic->devlink the driver's instance
 *
 * Context: process, RTNL not held, devl_lock not held.
 * Return: 0 or -errno.
 */
int nicprog_devlink_init(struct nicprog_nic *nic)
{
	struct devlink *devlink = nic->devlink;
	int err;

	spin_lock_init(&nic->health_lock);
	INIT_WORK(&nic->health_work, nicprog_health_work);
	INIT_WORK(&nic->res_work, nicprog_res_work);
	devl_lock(devlink);
	err = nicprog_res_register(nic);
	if (err)
		goto err_resources;
	devl_unlock(devlink);
	nic->health = devlink_health_reporter_create(devlink,
						     &nicprog_dl_health_ops,
						     NICPROG_HEALTH_GRACE_MS,
						     nic);
	if (IS_ERR(nic->health)) {
		err = PTR_ERR(nic->health);
		devl_lock(devlink);
		goto err_resources;
	}
	return 0;

err_resources:
	devl_resources_unregister(devlink);
	devl_unlock(devlink);
	return err;
}

/**
 * nicprog_devlink_exit() - undo nicprog_devlink_init()
 * @nic: the NIC, its ports unregistered and @nic->dead set, so that no
 *	work is scheduled any more
 *
 * Context: process, RTNL not held, devl_lock not held.
 */
void nicprog_devlink_exit(struct nicprog_nic *nic)
{
	struct devlink *devlink = nic->devlink;

	cancel_work_sync(&nic->health_work);
	cancel_work_sync(&nic->res_work);
	devlink_health_reporter_destroy(nic->health);
	devl_lock(devlink);
	devl_resources_unregister(devlink);
	devl_unlock(devlink);
}
