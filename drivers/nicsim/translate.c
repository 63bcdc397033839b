// SPDX-License-Identifier: GPL-2.0
/*
 * nicsim's execution modes. "interp": the cores run every stage with the
 * nicprog core's interpreter. "translated": nicsim translates each stage
 * of a plan when it is installed (&nicprog_dev_ops.stage_translate), as a
 * NIC with its own instruction set would, into the executor's decoded
 * form (kernel/exec/threaded.c), and its cores run that. Both give the
 * same verdicts, bytes, tables and cycles; the translated form is
 * faster to simulate.
 *
 * The mode is per device (its exec_mode attribute, while no port has a
 * program), and the module parameter exec_mode sets it for new devices.
 * On a NIC whose tables are in memory the host does not address
 * (new_device's TABLES "nic", table.c), the translated stages serve map
 * lookups from the NIC's own table storage, resolved when they are
 * translated (nicprog_plan_table_store()), as such a NIC's code would;
 * the core's interpreter could not, and the core refuses plans that
 * would need it.
 *
 * As netdevsim's bpf_bind_accept does, a debugfs knob makes the NIC
 * refuse: /sys/kernel/debug/nicsim/<dev>/translate_refuse names an
 * instruction the translation refuses (U32_MAX, the default: none).
 */
#include <linux/bsearch.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>

#include "nicsim.h"

static char *exec_mode = "interp";
module_param(exec_mode, charp, 0444);
MODULE_PARM_DESC(exec_mode,
		 "execution mode of new devices: interp (default) or translated");

static struct dentry *nicsim_ddir;

static const char * const nicsim_exec_modes[] = {
	[NICSIM_EXEC_INTERP]		= "interp",
	[NICSIM_EXEC_TRANSLATED]	= "translated",
};

/**
 * nicsim_translate_init() - check the module's exec_mode, make its debugfs
 *
 * Return: 0, or -EINVAL for an exec_mode that is none.
 */
int nicsim_translate_init(void)
{
	if (sysfs_match_string(nicsim_exec_modes, exec_mode) < 0) {
		pr_err("exec_mode: expected interp or translated, not %s\n",
		       exec_mode);
		return -EINVAL;
	}
	nicsim_ddir = debugfs_create_dir(NICSIM_DRV_NAME, NULL);
	return 0;
}

void nicsim_translate_exit(void)
{
	debugfs_remove_recursive(nicsim_ddir);
}

/**
 * nicsim_translate_dev_init() - a new device's mode and debugfs
 * @ndev: the device, named, not yet running a plan
 */
void nicsim_translate_dev_init(struct nicsim_dev *ndev)
{
	ndev->exec_mode = sysfs_match_string(nicsim_exec_modes, exec_mode);
	ndev->translate_refuse = U32_MAX;
	ndev->ddir = debugfs_create_dir(dev_name(&ndev->dev), nicsim_ddir);
	debugfs_create_u32("translate_refuse", 0600, ndev->ddir,
			   &ndev->translate_refuse);
}

void nicsim_translate_dev_exit(struct nicsim_dev *ndev)
{
	debugfs_remove_recursive(ndev->ddir);
}

/*
 * A translated stage: the decoded form, the NIC's handle of each table
 * when its tables are its own (NULL for one the core keeps), and the
 * instructions the core said runs enter it by, which every run's start is
 * checked against.
 */
struct nicsim_stage {
	struct nicprog_exec_code *code;
	void **tables;
	u32 n_tables;
	u32 n_entries;
	u32 entries[];
};

/* Is @insn one of the stage's own instructions? */
static bool nicsim_stage_has(const struct nicprog_stage_code *code, u32 insn)
{
	const struct nicprog_exec_prog *prog = code->prog;

	return insn < prog->len &&
	       (!prog->stage || prog->stage[insn] == code->stage ||
		prog->stage[insn] == NICPROG_EXEC_STAGE_ANY);
}

/* &nicprog_dev_ops.stage_translate; RTNL held (exec_mode's lock). */
void *nicsim_stage_translate(struct nicprog_dev *nd,
			     const struct nicprog_plan *plan,
			     const struct nicprog_stage_code *code,
			     struct netlink_ext_ack *extack)
{
	struct nicsim_port *port = nicprog_dev_priv(nd);
	struct nicsim_dev *ndev = port->ndev;
	u32 refuse = READ_ONCE(ndev->translate_refuse);
	struct nicsim_stage *ns;
	u32 i;

	if (ndev->exec_mode != NICSIM_EXEC_TRANSLATED)
		return NULL;
	if (nicsim_stage_has(code, refuse))
		return nicprog_stage_refuse(nd, code, refuse,
					    "nicsim: the NIC cannot translate an instruction of the program (translate_refuse)",
					    extack);
	ns = kvzalloc(struct_size(ns, entries, code->n_entries), GFP_KERNEL);
	if (!ns)
		return ERR_PTR(-ENOMEM);
	if (ndev->nic_tables && code->prog->n_maps) {
		ns->tables = kvcalloc(code->prog->n_maps, sizeof(*ns->tables),
				      GFP_KERNEL);
		if (!ns->tables) {
			kvfree(ns);
			return ERR_PTR(-ENOMEM);
		}
		ns->n_tables = code->prog->n_maps;
		for (i = 0; i < ns->n_tables; i++)
			ns->tables[i] = nicprog_plan_table_store(plan, i);
	}
	ns->code = nicprog_exec_translate(code->prog, code->stage);
	if (!ns->code) {
		kvfree(ns->tables);
		kvfree(ns);
		return ERR_PTR(-ENOMEM);
	}
	ns->n_entries = code->n_entries;
	memcpy(ns->entries, code->entries,
	       code->n_entries * sizeof(code->entries[0]));
	return ns;
}

/* &nicprog_dev_ops.stage_release */
void nicsim_stage_release(struct nicprog_dev *nd, u32 stage, void *image)
{
	struct nicsim_stage *ns = image;

	nicprog_exec_code_free(ns->code);
	kvfree(ns->tables);
	kvfree(ns);
}

/*
 * A stage of a NIC with tables of its own runs in this environment: the
 * plan's, but lookups in the NIC's tables go to its storage directly.
 */
struct nicsim_nic_env {
	const struct nicprog_exec_ops *ops;
	void *priv;
	const struct nicsim_stage *ns;
};

static void *nicsim_nic_lookup(void *priv, u32 map, const void *key)
{
	const struct nicsim_nic_env *env = priv;
	void *store = map < env->ns->n_tables ? env->ns->tables[map] : NULL;

	return store ? nicprog_table_lib_lookup(store, key) :
		       env->ops->map_lookup(env->priv, map, key);
}

static u64 nicsim_nic_offset(void *priv, u32 map, const void *value, u32 *len)
{
	const struct nicsim_nic_env *env = priv;
	void *store = map < env->ns->n_tables ? env->ns->tables[map] : NULL;

	if (store)
		return nicprog_table_lib_offset(store, value, len);
	if (env->ops->map_offset)
		return env->ops->map_offset(env->priv, map, value, len);
	*len = 0;
	return 0;
}

static long nicsim_nic_update(void *priv, u32 map, const void *key,
			      const void *value, u64 flags)
{
	const struct nicsim_nic_env *env = priv;

	return env->ops->map_update(env->priv, map, key, value, flags);
}

static long nicsim_nic_delete(void *priv, u32 map, const void *key)
{
	const struct nicsim_nic_env *env = priv;

	return env->ops->map_delete(env->priv, map, key);
}

static u64 nicsim_nic_ktime_ns(void *priv)
{
	const struct nicsim_nic_env *env = priv;

	return env->ops->ktime_ns(env->priv);
}

static u32 nicsim_nic_prandom(void *priv)
{
	const struct nicsim_nic_env *env = priv;

	return env->ops->prandom(env->priv);
}

/* a plan's environment without engines: the call runs its BPF body */
static s64 nicsim_nic_accel(void *priv, u32 afn, struct nicprog_exec_pkt *pkt,
			    const u64 *args, u64 *ret)
{
	const struct nicsim_nic_env *env = priv;

	return env->ops->accel ? env->ops->accel(env->priv, afn, pkt, args, ret) :
				 -EOPNOTSUPP;
}

static long nicsim_nic_event_output(void *priv, u32 map, u64 flags,
				    const void *data, u64 size,
				    struct nicprog_exec_pkt *pkt)
{
	const struct nicsim_nic_env *env = priv;

	if (!env->ops->event_output)
		return -EOPNOTSUPP;
	return env->ops->event_output(env->priv, map, flags, data, size, pkt);
}

/* no host_call: a NIC stage calls no helper only the host has */
static const struct nicprog_exec_ops nicsim_nic_exec_ops = {
	.map_lookup	= nicsim_nic_lookup,
	.map_offset	= nicsim_nic_offset,
	.map_update	= nicsim_nic_update,
	.map_delete	= nicsim_nic_delete,
	.ktime_ns	= nicsim_nic_ktime_ns,
	.prandom	= nicsim_nic_prandom,
	.accel		= nicsim_nic_accel,
	.event_output	= nicsim_nic_event_output,
};

static int nicsim_entry_cmp(const void *key, const void *elt)
{
	u32 a = *(const u32 *)key, b = *(const u32 *)elt;

	return a < b ? -1 : a > b;
}

/**
 * nicsim_stage_run() - a core runs its stage in the translated form
 * @image: the stage, from nicsim_stage_translate()
 * @ops: the plan's environment
 * @priv: passed to @ops
 * @st: the core's executor scratch
 * @pkt: the frame
 * @ctx: the live state
 * @res: what the stage did
 *
 * nicprog_stage_run_t for nicprog_plan_resume_with().
 */
void nicsim_stage_run(const void *image, const struct nicprog_exec_ops *ops,
		      void *priv, struct nicprog_exec_state *st,
		      struct nicprog_exec_pkt *pkt,
		      struct nicprog_exec_ctx *ctx,
		      struct nicprog_exec_result *res)
{
	const struct nicsim_stage *ns = image;
	struct nicsim_nic_env env = { .ops = ops, .priv = priv, .ns = ns };

	/* the core's entries are what a NIC would load its stage at */
	WARN_ON_ONCE(!bsearch(&ctx->pc, ns->entries, ns->n_entries,
			      sizeof(ns->entries[0]), nicsim_entry_cmp));
	if (ns->tables)
		nicprog_exec_code_resume(ns->code, &nicsim_nic_exec_ops, &env,
					 st, pkt, ctx, res);
	else
		nicprog_exec_code_resume(ns->code, ops, priv, st, pkt, ctx,
					 res);
}

static ssize_t exec_mode_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct nicsim_dev *ndev = container_of(dev, struct nicsim_dev, dev);

	return sysfs_emit(buf, "%s\n",
			  nicsim_exec_modes[READ_ONCE(ndev->exec_mode)]);
}

/*
 * A plan is translated when it is installed: the mode changes only while
 * no port has one, so that every plan runs in the mode the device shows.
 */
static ssize_t exec_mode_store(struct device *dev,
			       struct device_attribute *attr, const char *buf,
			       size_t count)
{
	struct nicsim_dev *ndev = container_of(dev, struct nicsim_dev, dev);
	int mode = sysfs_match_string(nicsim_exec_modes, buf);
	int err;

	if (mode < 0) {
		dev_err(dev, "exec_mode: expected interp or translated\n");
		return -EINVAL;
	}
	rtnl_lock();
	err = nicsim_dev_planless(ndev, "exec_mode");
	if (!err)
		WRITE_ONCE(ndev->exec_mode, mode);
	rtnl_unlock();
	return err ?: count;
}
DEVICE_ATTR_RW(exec_mode);
