// SPDX-License-Identifier: GPL-2.0
/*
 * Plans: what the core hands a vendor driver to install. A plan is made
 * when a program is attached, by the offloader, for the port's LNIC and
 * the shape and core budget the operator set; it prices every
 * instruction where the plan placed its memory, so the executor's cycles
 * follow the placement. A driver with its own timing model gives its
 * cores' executor state a trace instead, and learns from the plan which
 * region each access touches. Drivers learn a plan's stages from
 * nicprog_plan_stage() and translate them (nicprog_plan_translate()); the
 * interpreter's module runs what they leave to it (exec/plan_run.c).
 *
 * The installed plan is also kept in words (nd->plan_text, under
 * plan_lock) for /sys/kernel/debug/nicprog/<ifname>/plan (debugfs.c).
 */
#include <linux/bitmap.h>
#include <linux/bpf.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/seq_buf.h>
#include <linux/timekeeping.h>

#include "nicprog.h"
#include "offload/facts.h"

/* The executor's views of a partial plan, and its handover points. */
static int nicprog_plan_host_init(struct nicprog_plan *plan,
				  const struct nicprog_prog *np)
{
	const struct nicprog_layout *lo = &plan->lo;
	u32 i;

	plan->run_stage = kvmalloc_array(np->len, 1, GFP_KERNEL);
	if (!plan->run_stage)
		return -ENOMEM;
	for (i = 0; i < np->len; i++)
		plan->run_stage[i] = lo->insn_stage[i] == NICPROG_EXEC_STAGE_HOST ?
				     NICPROG_EXEC_STAGE_HOST :
				     lo->insn_stage[i] == NICPROG_EXEC_STAGE_ANY ?
				     NICPROG_EXEC_STAGE_ANY : 0;
	plan->host_exec = np->exec;
	plan->host_exec.stage = lo->insn_stage;
	plan->exec.stage = lo->insn_stage;
	plan->run_exec = plan->exec;
	plan->run_exec.stage = plan->run_stage;
	return nicprog_handover_init(plan, &np->ir);
}

/*
 * A plan refused: @msg, a static string, to the extack of the request
 * that asked for it, and the details to the tracepoint
 * nicprog:nicprog_bad_arg, not the kernel log; a plan no request asked
 * for (a re-plan of the port's own) has no extack and logs them.
 */
static __printf(4, 5) void nicprog_plan_refused(struct nicprog_dev *nd,
						struct netlink_ext_ack *extack,
						const char *msg,
						const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	if (extack) {
		extack->_msg = msg;
		nicprog_bad_arg(netdev_name(nd->netdev), "%pV", &vaf);
	} else {
		netdev_err(nd->netdev, "nicprog: %pV\n", &vaf);
	}
	va_end(args);
}

/* What the host runs of the plan, for the kernel log and the extack. */
static void nicprog_plan_host_say(struct nicprog_dev *nd,
				  const struct nicprog_plan *plan,
				  struct netlink_ext_ack *extack)
{
	const struct nicprog_layout *lo = &plan->lo;

	netdev_info(nd->netdev,
		    "nicprog: partial offload (%s): the NIC holds %u instructions, the host runs %u in %u nodes; %u handover points carry up to %u bytes\n",
		    lo->host_why, lo->nic_insns, lo->host_insns, lo->host_nodes,
		    plan->n_entries, lo->host_bytes);
	NL_SET_ERR_MSG_MOD(extack,
			   "partially offloaded: the host runs what the NIC cannot hold (see the plan)");
}

/* What drivers see of the stages, computed once rather than per frame. */
static void nicprog_plan_stages_init(struct nicprog_plan *plan)
{
	const struct nicprog_layout *lo = &plan->lo;
	const struct nicprog_table_info *ti;
	struct nicprog_stage_info *info;
	const struct nicprog_stage *st;
	u32 s, k;

	for (s = 0; s < lo->n_stages; s++) {
		st = &lo->stages[s];
		info = &plan->stages[s];
		info->replicas = st->replicas;
		info->first_core = st->first_core;
		info->steer = st->steer;
		for (k = 0; k < st->replicas; k++)
			plan->core_stage[st->first_core + k] = s;
		if (!nicprog_steer_by_key(st->steer))
			continue;
		ti = &lo->tables[st->shard_table];
		for (k = 0; k < ti->key_len; k++) {
			if (ti->key_pkt[k] < 0)
				continue;
			/* a swap keeps constants in place: both copy here */
			if (ti->sym)
				info->sym_off[info->key_len] = ti->key_sym[k];
			info->key_off[info->key_len++] = ti->key_pkt[k];
		}
	}
}

/**
 * nicprog_plan_settings() - what the port's next plan is made for
 * @nd: the port
 * @set: filled with the port's plan settings (sysfs plan_*, dev-set)
 *
 * Context: process.
 */
void nicprog_plan_settings(struct nicprog_dev *nd,
			   struct nicprog_plan_settings *set)
{
	mutex_lock(&nd->plan_lock);
	set->shape = nd->plan_shape;
	set->cores = nd->plan_cores;
	set->partial = nd->plan_partial;
	memcpy(set->body16, nd->plan_body16, sizeof(set->body16));
	mutex_unlock(&nd->plan_lock);
}

/**
 * nicprog_shape_runs() - does the NIC's driver run plans of a shape
 * @nic: the NIC
 * @shape: enum nicprog_shape; "auto" always runs (nicprog_shape_for())
 *
 * Context: any (the driver writes &nicprog_dev_ops.plan_shapes once).
 * Return: true if the driver lists @shape, or lists no shape at all.
 */
bool nicprog_shape_runs(const struct nicprog_nic *nic, u8 shape)
{
	u32 can = READ_ONCE(nic->ops->plan_shapes);

	return shape == NICPROG_SHAPE_AUTO || !can || (can & BIT(shape));
}

/*
 * The shape to plan for @asked on @nic: @asked, or for "auto" on a NIC
 * that does not run every shape, the widest it runs; __NICPROG_SHAPE_MAX
 * for a shape it does not run. RTNL held.
 */
static u8 nicprog_shape_for(const struct nicprog_nic *nic, u8 asked)
{
	static const u8 widest[] = {
		NICPROG_SHAPE_PIPELINED_REPLICATED, NICPROG_SHAPE_REPLICATED,
		NICPROG_SHAPE_PIPELINED, NICPROG_SHAPE_SINGLE,
	};
	u32 can = nic->ops->plan_shapes, all = 0;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(widest); i++)
		all |= BIT(widest[i]);
	if (asked != NICPROG_SHAPE_AUTO)
		return nicprog_shape_runs(nic, asked) ? asked :
		       __NICPROG_SHAPE_MAX;
	if (!can || (can & all) == all)
		return asked;
	for (i = 0; i < ARRAY_SIZE(widest); i++)
		if (can & BIT(widest[i]))
			return widest[i];
	return __NICPROG_SHAPE_MAX;
}

/*
 * What refuses a program before any planning: a shape the driver does not
 * run, and, without plan_partial (cleared since the program was loaded
 * under it), what only a host part could take.
 */
static int nicprog_plan_runnable(const struct nicprog_prog *np, u8 shape,
				 bool partial,
				 const struct nicprog_host_limits *lim,
				 struct netlink_ext_ack *extack)
{
	if (shape == __NICPROG_SHAPE_MAX) {
		NL_SET_ERR_MSG_MOD(extack,
				   "the NIC's driver runs no plan of the port's plan shape (plan_shapes lists those it runs)");
		return -EOPNOTSUPP;
	}
	if (!partial && np->len > lim->insn_store) {
		NL_SET_ERR_MSG_MOD(extack,
				   "program has more instructions than the NIC's cores hold (plan_partial lets the host run the rest)");
		return -E2BIG;
	}
	if (!partial && np->host_call_insn >= 0) {
		NL_SET_ERR_MSG_MOD(extack,
				   "program calls a helper only the host has (plan_partial lets the host run it)");
		return -EOPNOTSUPP;
	}
	if (!partial && lim->host_tables) {
		NL_SET_ERR_MSG_MOD(extack,
				   "a table of the program is in host memory (plan_partial lets the host run its accesses)");
		return -ENOSPC;
	}
	return 0;
}

/*
 * The units of each pool, and the memory, other ports' plans leave this
 * port's (alloc.c). RTNL held.
 */
static void nicprog_plan_units_free(struct nicprog_dev *nd,
				    struct nicprog_units_free *free)
{
	u32 t;

	for (t = 0; t < nd->nic->lnic->n_regions; t++)
		free->room[t] = nicprog_alloc_region_free(nd, t);
	for (t = 0; t < __NICPROG_ACCEL_MAX; t++)
		free->accel[t] = nicprog_alloc_free(nd, NICPROG_POOL_ACCEL + t);
	free->mat = nicprog_alloc_free(nd, NICPROG_POOL_MAT);
}

/**
 * nicprog_plan_create() - plan a program for a port
 * @nd: the port, of the NIC the program was loaded for
 * @np: the program, finalized
 * @set: what to plan for: the port's settings to attach, others to
 *	predict
 * @extack: where a refusal says why
 *
 * Context: process, RTNL held.
 * Return: the plan, or an ERR_PTR.
 */
struct nicprog_plan *nicprog_plan_create(struct nicprog_dev *nd,
					 struct nicprog_prog *np,
					 const struct nicprog_plan_settings *set,
					 struct netlink_ext_ack *extack)
{
	const struct nicprog_lnic *lnic = nd->nic->lnic;
	const struct nicprog_lnic_summary *sum = &nd->nic->sum;
	const struct nicprog_lnic_unit *core;
	struct nicprog_units_free units;
	struct nicprog_plan *plan;
	struct nicprog_host_limits lim = {
		.insn_store = sum->insn_store,
	};
	bool partial = set->partial;
	u8 shape = nicprog_shape_for(nd->nic, set->shape);
	const char *why;
	u32 budget, free, t;
	int err;

	budget = set->cores ? min(set->cores, sum->cores) : sum->cores;
	for (t = 0; t < np->n_maps; t++)
		if (nicprog_table_in_host(np->tables[t]))
			lim.host_tables |= BIT_ULL(t);
	err = nicprog_plan_runnable(np, shape, partial, &lim, extack);
	if (err)
		return ERR_PTR(err);
	/* programs on the NIC's other ports, and kernels, hold their cores */
	free = nicprog_alloc_free(nd, NICPROG_POOL_CORES);
	if (!free) {
		NL_SET_ERR_MSG_MOD(extack,
				   "every core of the NIC runs another port's program or lookaside kernels' jobs");
		return ERR_PTR(-ENOSPC);
	}
	budget = min(budget, free);
	nicprog_plan_units_free(nd, &units);

	plan = kzalloc(sizeof(*plan), GFP_KERNEL);
	if (!plan)
		return ERR_PTR(-ENOMEM);
	/* before any failure: nicprog_plan_destroy() reaches the ops by it */
	plan->nd = nd;
	plan->plan_ns = ktime_get_ns();
	err = nicprog_layout_build_slice(&np->ir, lnic, shape, budget,
					 &units, partial ? &lim : NULL,
					 &plan->lo, &why);
	if (!err) {
		err = nicprog_layout_share(&np->ir, lnic, set->body16,
					   &plan->lo);
		why = "out of memory";
	}
	plan->plan_ns = ktime_get_ns() - plan->plan_ns;
	if (err) {
		/* the offloader's reasons are static strings */
		nicprog_plan_refused(nd, extack, why, "cannot plan the program: %s",
				     why);
		goto err_free;
	}
	plan->flags = kvmalloc_array(np->len, 1, GFP_KERNEL);
	plan->region = kvmalloc_array(np->len, 1, GFP_KERNEL);
	if (!plan->flags || !plan->region) {
		err = -ENOMEM;
		goto err_free;
	}
	memcpy(plan->flags, np->flags, np->len);
	nicprog_layout_exec(&np->ir_in, &plan->lo, plan->flags, plan->region);
	core = &lnic->units[plan->lo.core_unit];
	plan->exec = np->exec;
	memcpy(plan->exec.cost, core->cost, sizeof(plan->exec.cost));
	plan->exec.flags = plan->flags;
	plan->exec.cycles = plan->lo.insn_cycles;
	plan->exec.stage = plan->lo.n_stages > 1 ? plan->lo.insn_stage : NULL;
	plan->exec.accel = plan->lo.insn_accel;
	plan->exec.region = plan->region;
	memcpy(plan->host_fn, np->host_fn, sizeof(plan->host_fn));
	plan->core_stage = kvmalloc_array(plan->lo.cores, 1, GFP_KERNEL);
	if (!plan->core_stage) {
		err = -ENOMEM;
		goto err_free;
	}
	nicprog_plan_stages_init(plan);
	plan->tables = np->tables;
	plan->prog = np->prog;
	/* what its tables take of each region, as placement counted it */
	for (t = 0; t < plan->lo.n_tables; t++)
		if (np->tables[t] && !nicprog_table_in_host(np->tables[t]) &&
		    plan->lo.tables[t].region < NICPROG_LNIC_MAX_REGIONS) {
			plan->region_bytes[plan->lo.tables[t].region] +=
				np->ir.in->tables[t].bytes;
			plan->held[plan->n_held++] = (struct nicprog_held_table){
				np->tables[t], plan->lo.tables[t].region,
				np->ir.in->tables[t].bytes,
			};
		}
	if (plan->lo.node_host) {
		err = nicprog_plan_host_init(plan, np);
		if (err)
			goto err_free;
		nicprog_plan_host_say(nd, plan, extack);
	}
	return plan;

err_free:
	nicprog_plan_destroy(plan);
	return ERR_PTR(err);
}

/**
 * nicprog_plan_destroy() - free a plan no frame runs any more
 * @plan: the plan, or NULL
 *
 * Context: process.
 */
void nicprog_plan_destroy(struct nicprog_plan *plan)
{
	const struct nicprog_dev_ops *ops;
	u32 s;

	if (!plan)
		return;
	ops = plan->nd->nic->ops;
	for (s = 0; s < plan->n_images; s++)
		if (plan->images[s])
			ops->stage_release(plan->nd, s, plan->images[s]);
	nicprog_layout_free(&plan->lo);
	kvfree(plan->entries);
	kvfree(plan->run_stage);
	kvfree(plan->region);
	kvfree(plan->core_stage);
	kvfree(plan->flags);
	kfree(plan);
}

/* Cycles times NICPROG_FX, as "cycles.hundredths". */
static void seq_buf_fx(struct seq_buf *sb, u64 fx)
{
	u64 c = fx * 100 / NICPROG_FX;

	seq_buf_printf(sb, "%llu.%02llu", c / 100, c % 100);
}

/* The match-action stages and the instructions they serve. */
static void nicprog_plan_render_mat(struct seq_buf *sb,
				    const struct nicprog_prog *np,
				    const struct nicprog_layout *lo)
{
	u32 s, n;

	if (lo->mat_cost_fx) {
		seq_buf_printf(sb, "mat: %u stages, cycles ", lo->mat_units);
		seq_buf_fx(sb, lo->mat_cost_fx);
		seq_buf_printf(sb, "\n");
	}
	for (s = 0; s < np->len; s++) {
		if (lo->insn_mat[s] != NICPROG_MAT_REGION ||
		    (s && lo->insn_mat[s - 1] == NICPROG_MAT_REGION))
			continue;
		for (n = s; n < np->len &&
		     lo->insn_mat[n] == NICPROG_MAT_REGION; n++)
			;
		seq_buf_printf(sb,
			       "mat: insns %u-%u are a longest-prefix match, served as one lookup\n",
			       s, n - 1);
	}
}

/* Identified functions, and the accelerator calls engines or cores run. */
static void nicprog_plan_render_calls(struct seq_buf *sb,
				      const struct nicprog_prog *np,
				      const struct nicprog_layout *lo)
{
	u32 s, t, n;

	for (s = 0; s < np->n_ident; s++) {
		const struct nicprog_ident_result *r = &np->ident[s];

		if (!r->why)
			continue;
		seq_buf_printf(sb, "ident: the function at insn %u stays code: %s",
			       r->target, r->why);
		if (r->body)
			seq_buf_printf(sb, " (nearest %s of %s: %u of %u instructions alike)",
				       r->body->name, r->body->source, r->same,
				       r->body->len);
		seq_buf_printf(sb, "\n");
	}
	for (s = 0; s < np->len; s++)
		if (np->meta[s].flags & NICPROG_META_IDENT)
			seq_buf_printf(sb,
				       "ident: insn %u calls a function identified as %s (conventions 0x%02x), %s\n",
				       s, nicprog_accel_fn_name(np->meta[s].afn),
				       np->meta[s].ident,
				       lo->insn_accel[s] ? "an engine runs it" :
				       "no engine: it runs on a core");
	for (t = 0; t < __NICPROG_ACCEL_MAX; t++) {
		if (lo->accel_unit[t] == U32_MAX)
			continue;
		for (s = 0, n = 0; s < np->len; s++)
			n += lo->insn_accel[s] &&
			     nicprog_accel_fn_type(lo->insn_accel[s]) == t;
		if (!n)
			continue;
		seq_buf_printf(sb, "accel %s: %u calls on %u engines, cycles ",
			       nicprog_accel_type_name(t), n,
			       lo->accel_count[t]);
		seq_buf_fx(sb, lo->accel_cost_fx[t]);
		if (lo->body16[t])
			seq_buf_printf(sb,
				       ", %u/16 of them engine jobs and %u/16 the function's body on the cores",
				       NICPROG_SHARE_ALL - lo->body16[t],
				       lo->body16[t]);
		seq_buf_printf(sb, "\n");
	}
	for (s = 0, n = 0; s < np->len; s++)
		n += np->meta[s].afn && !lo->insn_accel[s];
	if (n)
		seq_buf_printf(sb, "accel: %u calls without an engine run on cores\n",
			       n);
}

static void nicprog_plan_render_tables(struct seq_buf *sb,
				       const struct nicprog_dev *nd,
				       const struct nicprog_plan *plan)
{
	const struct nicprog_prog *np = plan->prog->aux->offload->dev_priv;
	const struct nicprog_layout *lo = &plan->lo;
	u32 t;

	for (t = 0; t < lo->n_tables; t++) {
		const struct nicprog_table_info *ti = &lo->tables[t];

		seq_buf_printf(sb, "table %u %s: %s%s, region %s, accesses ", t,
			       np->maps[t]->name,
			       nicprog_table_class_name(ti->cls),
			       ti->mat && lo->mat_units ? " (mat)" : "",
			       nicprog_table_in_host(plan->tables[t]) ?
			       "host (it did not fit the NIC)" :
			       lo->host_tables & BIT_ULL(t) ? "host" :
			       nd->nic->lnic->regions[ti->region].name);
		seq_buf_fx(sb, ti->acc_fx);
		seq_buf_printf(sb, ": %s\n", ti->why);
	}
}

static void nicprog_plan_render(struct seq_buf *sb, const struct nicprog_dev *nd,
				const struct nicprog_plan *plan)
{
	const struct nicprog_prog *np = plan->prog->aux->offload->dev_priv;
	const struct nicprog_layout *lo = &plan->lo;
	const struct nicprog_stage *st;
	u32 s, t, n;
	u64 pct;

	seq_buf_printf(sb, "program %u %s: %u insns, %u blocks, %u nodes, %u edges\n",
		       plan->prog->aux->id, plan->prog->aux->name, np->len,
		       np->ir.n_blocks, np->ir.n_nodes, np->ir.n_edges);
	seq_buf_printf(sb, "shape %s (asked %s), cores %u of %u, stages %u\n",
		       nicprog_layout_shape(lo), nicprog_shape_name(lo->shape),
		       lo->cores, lo->budget, lo->n_stages);
	seq_buf_printf(sb, "predicted %llu packets per million cycles, latency %llu cycles\n",
		       lo->tput, lo->lat);
	seq_buf_printf(sb,
		       "static bracket: throughput %llu..%llu packets per million cycles, latency %llu..%llu cycles, over any traffic\n",
		       lo->br_tput_min, lo->br_tput_max, lo->br_lat_min,
		       lo->br_lat_max);
	for (t = 0; t < NICPROG_PKT_CLASSES; t++)
		seq_buf_printf(sb,
			       "static bracket for %s frames: throughput %llu..%llu packets per million cycles, latency %llu..%llu cycles, %u of %u blocks\n",
			       nicprog_pkt_class_name(t),
			       lo->cls_br[t].br.tput_min,
			       lo->cls_br[t].br.tput_max,
			       lo->cls_br[t].br.lat_min,
			       lo->cls_br[t].br.lat_max, lo->cls_br[t].blocks,
			       np->ir.n_blocks);
	if (np->sources)
		seq_buf_printf(sb,
			       "varies: its verdicts may depend on %s, which this prediction does not know\n",
			       nicprog_ir_sources_name(np->sources));
	seq_buf_printf(sb, "time: verifier %llu us, offloader %llu us (IR %llu, plan %llu)\n",
		       np->verify_ns / 1000, (np->ir_ns + plan->plan_ns) / 1000,
		       np->ir_ns / 1000, plan->plan_ns / 1000);
	for (s = 0; s < lo->n_stages; s++) {
		st = &lo->stages[s];
		seq_buf_printf(sb, "stage %u: cores %u-%u, steer %s", s,
			       st->first_core,
			       st->first_core + st->replicas - 1,
			       nicprog_steer_name(st->steer));
		if (nicprog_steer_by_key(st->steer))
			seq_buf_printf(sb, " (%s)", np->maps[st->shard_table]->name);
		seq_buf_printf(sb, ", nodes %u, state in %u bytes, cycles ",
			       st->n_nodes, st->in_bytes);
		seq_buf_fx(sb, st->cost_fx);
		seq_buf_printf(sb, "\n");
	}
	t = nicprog_layout_bound(lo, &s);
	if (t != U32_MAX)
		seq_buf_printf(sb,
			       "bound: table %u %s is shared-mutable and keeps stage %u on one core: at most %llu packets per million cycles, however many cores\n",
			       t, np->maps[t]->name, s, lo->tput);
	if (lo->node_host) {
		seq_buf_printf(sb, "host: %u nodes, %u insns (the NIC holds %u of %u): %s\n",
			       lo->host_nodes, lo->host_insns, lo->nic_insns,
			       nd->nic->sum.insn_store, lo->host_why);
		pct = div64_u64(lo->host_share_fx * 10000, NICPROG_FX);
		seq_buf_printf(sb,
			       "host: %llu.%02llu%% of packets handed over (predicted), at most %u bytes of state, at insns",
			       pct / 100, pct % 100, lo->host_bytes);
		for (n = 0; n < plan->n_entries; n++)
			seq_buf_printf(sb, " %u", nicprog_handover_pc(plan, n));
		seq_buf_printf(sb, "\n");
	}
	nicprog_plan_render_mat(sb, np, lo);
	nicprog_plan_render_calls(sb, np, lo);
	nicprog_plan_render_tables(sb, nd, plan);
}

/**
 * nicprog_plan_publish() - keep the installed plan in words for operators
 * @nd: the port
 * @plan: the plan just installed, or NULL
 *
 * Context: process, RTNL held.
 */
void nicprog_plan_publish(struct nicprog_dev *nd, struct nicprog_plan *plan)
{
	const struct nicprog_prog *np;
	size_t facts_len = 0;
	void *facts = NULL;
	struct seq_buf sb;
	char *text = NULL;

	if (plan) {
		text = kvzalloc(PAGE_SIZE * 4, GFP_KERNEL);
		if (text) {
			seq_buf_init(&sb, text, PAGE_SIZE * 4 - 1);
			nicprog_plan_render(&sb, nd, plan);
		}
		np = plan->prog->aux->offload->dev_priv;
		facts_len = nicprog_facts_size(&np->ir_in, nd->nic->lnic);
		facts = kvmalloc(facts_len, GFP_KERNEL);
		if (facts)
			nicprog_facts_write(facts, &np->ir_in, nd->nic->lnic);
	}
	mutex_lock(&nd->plan_lock);
	swap(text, nd->plan_text);
	swap(facts, nd->facts);
	nd->facts_len = nd->facts ? facts_len : 0;
	nd->prog_id = plan ? plan->prog->aux->id : 0;
	mutex_unlock(&nd->plan_lock);
	kvfree(text);
	kvfree(facts);
}

/*
 * Where runs enter @stage: its first instruction at the program's start,
 * and every instruction of it that control reaches from a main-program
 * instruction of another stage.
 */
static u32 *nicprog_plan_entries(const struct nicprog_exec_prog *prog,
				 u32 stage, u32 *n)
{
	const struct bpf_insn *insn;
	unsigned long *at;
	u32 i, succ[2], k, *out;
	u8 cls, op;

	at = bitmap_zalloc(prog->len, GFP_KERNEL);
	if (!at)
		return NULL;
	if (!prog->stage || prog->stage[0] == stage)
		__set_bit(0, at);
	for (i = 0; prog->stage && i < prog->len; i++) {
		insn = &prog->insns[i];
		cls = BPF_CLASS(insn->code);
		op = BPF_OP(insn->code);
		k = 0;
		if (insn->code == (BPF_LD | BPF_IMM | BPF_DW)) {
			succ[k++] = i + 2;
		} else if (cls == BPF_JMP || cls == BPF_JMP32) {
			if (op == BPF_CALL) {
				succ[k++] = i + 1;	/* the return */
			} else if (op != BPF_EXIT) {
				succ[k++] = i + 1 + insn->off;
				if (op != BPF_JA)
					succ[k++] = i + 1;
			}
		} else {
			succ[k++] = i + 1;
		}
		if (prog->stage[i] == stage ||
		    prog->stage[i] == NICPROG_EXEC_STAGE_ANY)
			k = 0;
		while (k--)
			if (succ[k] < prog->len && prog->stage[succ[k]] == stage)
				__set_bit(succ[k], at);
		if (insn->code == (BPF_LD | BPF_IMM | BPF_DW))
			i++;
	}
	*n = bitmap_weight(at, prog->len);
	out = kvmalloc_array(max(*n, 1U), sizeof(*out), GFP_KERNEL);
	if (out) {
		k = 0;
		for_each_set_bit(i, at, prog->len)
			out[k++] = i;
	}
	bitmap_free(at);
	return out;
}

/*
 * Code of a plan the core's interpreter may run, which reaches tables
 * through their storage's lookup: a stage the driver left to it, the host
 * part of a partial plan, the programs tail calls go to
 * (nicprog_plan_tail(); they have tables of their own on the same NIC,
 * and may be others by the next frame).
 */
enum plan_interp {
	PLAN_INTERP_NONE,
	PLAN_INTERP_STAGE,
	PLAN_INTERP_HOST,
	PLAN_INTERP_TAIL,
};

static const char * const plan_interp_refusal[] = {
	[PLAN_INTERP_STAGE] =
		"a stage is left to the core's interpreter, but a table of the plan is in NIC memory the host does not address",
	[PLAN_INTERP_HOST] =
		"the host runs part of the plan (plan_partial), but a table of the plan is in NIC memory the host does not address",
	[PLAN_INTERP_TAIL] =
		"tail calls run on the core's interpreter, but the NIC's tables are in memory the host does not address",
};

/* Which interpreted code of @plan would meet a table it cannot reach. */
static enum plan_interp plan_unreachable(const struct nicprog_plan *plan)
{
	const struct nicprog_table_ops *tops = plan->nd->nic->ops->table_ops;
	bool stored = true;
	u32 s, t;

	for (t = 0; t < plan->exec.n_maps; t++) {
		if (nicprog_table_kind(plan->tables[t]) ==
		    NICPROG_TABLE_KIND_PROGS && tops && !tops->lookup)
			return PLAN_INTERP_TAIL;
		stored &= nicprog_table_stored(plan->tables[t]);
	}
	if (stored)
		return PLAN_INTERP_NONE;
	for (s = 0; s < plan->lo.n_stages; s++)
		if (!plan->images[s])
			return PLAN_INTERP_STAGE;
	return nicprog_plan_partial(plan) ? PLAN_INTERP_HOST : PLAN_INTERP_NONE;
}

/**
 * nicprog_plan_translate() - have the driver translate each stage
 * @plan: a plan the core gave its units, before the driver loads it
 * @extack: the driver's refusal
 *
 * Code the core's interpreter may run must reach its tables through their
 * storage's lookup (nicprog_table_stored()): on a NIC whose table storage
 * has none, a plan with such code is refused.
 *
 * Context: process, RTNL held.
 * Return: 0, the driver's refusal (its translations so far are released
 * with the plan), or -EOPNOTSUPP for interpreted code and a table the
 * host does not address.
 */
int nicprog_plan_translate(struct nicprog_plan *plan,
			   struct netlink_ext_ack *extack)
{
	const struct nicprog_dev_ops *ops = plan->nd->nic->ops;
	struct nicprog_stage_code code = { .prog = &plan->exec };
	enum plan_interp why;
	void *image;
	u32 *entries;
	u32 s;

	for (s = 0; s < plan->lo.n_stages && ops->stage_translate; s++) {
		entries = nicprog_plan_entries(&plan->exec, s,
					       &code.n_entries);
		if (!entries)
			return -ENOMEM;
		code.stage = s;
		code.entries = entries;
		image = ops->stage_translate(plan->nd, plan, &code, extack);
		kvfree(entries);
		if (IS_ERR(image))
			return PTR_ERR(image);
		plan->images[s] = image;
		plan->n_images = s + 1;
	}
	why = plan_unreachable(plan);
	if (why == PLAN_INTERP_NONE)
		return 0;
	nicprog_plan_refused(plan->nd, extack, plan_interp_refusal[why], "%s",
			     plan_interp_refusal[why]);
	return -EOPNOTSUPP;
}

/**
 * nicprog_plan_table_store() - the driver's handle of a table of a plan
 * @plan: the plan
 * @map: a map load's table index (below @plan's &nicprog_exec_prog.n_maps)
 *
 * A translating driver whose NIC serves lookups from its own memory
 * resolves a stage's map loads with it.
 *
 * Context: any, from &nicprog_dev_ops.stage_translate until the plan is
 * unloaded.
 * Return: what &nicprog_table_ops.alloc returned for the table, or NULL
 * for one the core keeps (a host map's stand-in, a table in host memory;
 * its lookups go through the plan's &nicprog_exec_ops).
 */
void *nicprog_plan_table_store(const struct nicprog_plan *plan, u32 map)
{
	return map < plan->exec.n_maps ?
	       nicprog_table_store(plan->tables[map]) : NULL;
}
EXPORT_SYMBOL_GPL(nicprog_plan_table_store);

/**
 * nicprog_stage_refuse() - refuse to translate an instruction of a stage
 * @nd: the port
 * @code: the stage
 * @insn: the instruction
 * @why: what the NIC lacks for it; a static string, as extack takes it
 * @extack: where the refusal goes
 *
 * The refusal names the instruction in the kernel log too: its number,
 * its stage and its opcode.
 *
 * Context: in &nicprog_dev_ops.stage_translate.
 * Return: ERR_PTR(-EOPNOTSUPP), for the op to return.
 */
void *nicprog_stage_refuse(struct nicprog_dev *nd,
			   const struct nicprog_stage_code *code, u32 insn,
			   const char *why, struct netlink_ext_ack *extack)
{
	/* the driver's reasons are static strings */
	nicprog_plan_refused(nd, extack, why,
			     "the NIC cannot translate insn %u (code 0x%02x) of stage %u: %s",
			     insn,
			     insn < code->prog->len ? code->prog->insns[insn].code : 0,
			     code->stage, why);
	return ERR_PTR(-EOPNOTSUPP);
}
EXPORT_SYMBOL_GPL(nicprog_stage_refuse);

/**
 * nicprog_plan_stage_image() - the driver's translation of a stage
 * @plan: the plan
 * @stage: stage number, below nicprog_plan_stages()
 *
 * Context: any, while the plan is installed.
 * Return: what &nicprog_dev_ops.stage_translate returned for @stage; NULL
 * for a stage the core's interpreter runs.
 */
void *nicprog_plan_stage_image(const struct nicprog_plan *plan, u32 stage)
{
	return stage < plan->n_images ? plan->images[stage] : NULL;
}
EXPORT_SYMBOL_GPL(nicprog_plan_stage_image);

/**
 * nicprog_plan_stage() - what a driver needs to know of one stage
 * @plan: the plan
 * @stage: stage number, below nicprog_plan_stages()
 *
 * Context: any.
 * Return: the stage's replicas and steering; valid while the plan is.
 */
const struct nicprog_stage_info *
nicprog_plan_stage(const struct nicprog_plan *plan, u32 stage)
{
	return &plan->stages[stage];
}
EXPORT_SYMBOL_GPL(nicprog_plan_stage);

/**
 * nicprog_plan_core_stage() - the stage a core of a plan runs
 * @plan: the plan
 * @core: core number, below nicprog_plan_cores()
 *
 * Context: any.
 * Return: the stage number.
 */
u32 nicprog_plan_core_stage(const struct nicprog_plan *plan, u32 core)
{
	if (WARN_ON_ONCE(core >= plan->lo.cores))
		return 0;
	return plan->core_stage[core];
}
EXPORT_SYMBOL_GPL(nicprog_plan_core_stage);

/**
 * nicprog_plan_stages() - stages of a plan
 * @plan: the plan
 *
 * Context: any.
 * Return: at least 1.
 */
u32 nicprog_plan_stages(const struct nicprog_plan *plan)
{
	return plan->lo.n_stages;
}
EXPORT_SYMBOL_GPL(nicprog_plan_stages);

/**
 * nicprog_plan_cores() - cores a plan needs, numbered from 0
 * @plan: the plan
 *
 * Context: any.
 * Return: the sum of the stages' replicas.
 */
u32 nicprog_plan_cores(const struct nicprog_plan *plan)
{
	return plan->lo.cores;
}
EXPORT_SYMBOL_GPL(nicprog_plan_cores);

/**
 * nicprog_plan_units() - units of a pool a plan uses
 * @plan: the plan
 * @type: NICPROG_UNIT_MAT or NICPROG_UNIT_ACCEL
 * @accel: for accelerators, enum nicprog_accel_type
 *
 * A plan uses a run of each pool of the NIC's units it needs, which no
 * other port's plan holds (nicprog_plan_unit_base()): its driver sends
 * the jobs of its cores there and nowhere else.
 *
 * Context: any.
 * Return: units, 0 for a pool it does not use.
 */
u32 nicprog_plan_units(const struct nicprog_plan *plan, u8 type, u8 accel)
{
	if (type == NICPROG_UNIT_MAT)
		return plan->lo.mat_units;
	if (type == NICPROG_UNIT_ACCEL && accel < __NICPROG_ACCEL_MAX)
		return plan->lo.accel_count[accel];
	return 0;
}
EXPORT_SYMBOL_GPL(nicprog_plan_units);

/**
 * nicprog_plan_core_base() - the NIC core that is a plan's core 0
 * @plan: the plan, given to &nicprog_dev_ops.plan_load
 *
 * The core gives each port's plan a run of the NIC's cores no other
 * port's plan holds: the plan's core c is NIC core base + c.
 *
 * Context: any.
 * Return: the first NIC core of the plan's run.
 */
u32 nicprog_plan_core_base(const struct nicprog_plan *plan)
{
	return plan->runs[NICPROG_POOL_CORES].base;
}
EXPORT_SYMBOL_GPL(nicprog_plan_core_base);

/**
 * nicprog_plan_unit_base() - the first unit of a plan's run of a pool
 * @plan: the plan, given to &nicprog_dev_ops.plan_load
 * @type: NICPROG_UNIT_MAT or NICPROG_UNIT_ACCEL
 * @accel: for accelerators, enum nicprog_accel_type
 *
 * The plan's jobs for the pool go to its units base up to base +
 * nicprog_plan_units(), numbered among the pool's units in LNIC order,
 * which no other port's plan holds.
 *
 * Context: any.
 * Return: the first unit, 0 for a pool the plan does not use.
 */
u32 nicprog_plan_unit_base(const struct nicprog_plan *plan, u8 type, u8 accel)
{
	if (type == NICPROG_UNIT_MAT)
		return plan->runs[NICPROG_POOL_MAT].base;
	if (type == NICPROG_UNIT_ACCEL && accel < __NICPROG_ACCEL_MAX)
		return plan->runs[NICPROG_POOL_ACCEL + accel].base;
	return 0;
}
EXPORT_SYMBOL_GPL(nicprog_plan_unit_base);

/**
 * nicprog_plan_region_bytes() - memory a plan's tables take of a region
 * @plan: the plan
 * @region: the LNIC region
 *
 * The core counts it against what the NIC's other ports' plans may
 * fill. Tables kept in host memory (partial offload) take none.
 *
 * Context: any.
 * Return: bytes (of each instance of an island's region).
 */
u64 nicprog_plan_region_bytes(const struct nicprog_plan *plan, u32 region)
{
	return region < NICPROG_LNIC_MAX_REGIONS ? plan->region_bytes[region] :
	       0;
}
EXPORT_SYMBOL_GPL(nicprog_plan_region_bytes);

/**
 * nicprog_plan_partial() - does the host run part of a plan?
 * @plan: the plan
 *
 * Context: any.
 * Return: true if runs may stop for nicprog_plan_handover().
 */
bool nicprog_plan_partial(const struct nicprog_plan *plan)
{
	return plan->run_stage;
}
EXPORT_SYMBOL_GPL(nicprog_plan_partial);

/**
 * nicprog_plan_prog() - the BPF program a plan was made from
 * @plan: the plan
 *
 * For the xdp_exception tracepoint and statistics.
 *
 * Context: any.
 * Return: the program; valid while the plan is.
 */
struct bpf_prog *nicprog_plan_prog(const struct nicprog_plan *plan)
{
	return plan->prog;
}
EXPORT_SYMBOL_GPL(nicprog_plan_prog);
