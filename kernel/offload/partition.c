// SPDX-License-Identifier: GPL-2.0
/*
 * Plans (after Alkali): the main program's DAG is split into stages that
 * run one after another on different cores, and stages are replicated
 * over cores.
 *
 * Pipelining cuts the bottleneck stage in two by a minimum cut over its
 * nodes, edges weighted by the live state they carry, with infinite
 * weights where a cut is not allowed: backwards (so that no edge runs from
 * a later stage to an earlier one), across a live map value pointer, and
 * through a synthetic vertex per table the datapath writes, joined to
 * every node accessing it, so that no such table spans two stages. The
 * source and sink sides are seeded with the first and last parts of the
 * stage by cost; a few seedings are tried and the best predicted one
 * kept. Replication then gives cores to the slowest replicable stage;
 * both repeat while the prediction improves.
 */
#include "offload.h"

#define PART_WHY_HOST_CALL \
	"the program calls a helper only the host has (a partial offload lets the host run it)"

static const char * const shape_names[] = {
	[NICPROG_SHAPE_AUTO]			= "auto",
	[NICPROG_SHAPE_SINGLE]			= "single",
	[NICPROG_SHAPE_REPLICATED]		= "replicated",
	[NICPROG_SHAPE_PIPELINED]		= "pipelined",
	[NICPROG_SHAPE_PIPELINED_REPLICATED]	= "pipelined+replicated",
};

/**
 * nicprog_shape_name() - name of a plan shape
 * @shape: enum nicprog_shape
 *
 * Return: a static string.
 */
const char *nicprog_shape_name(unsigned int shape)
{
	return shape < ARRAY_SIZE(shape_names) ? shape_names[shape] : "?";
}

static const char * const steer_names[__NICPROG_STEER_MAX] = {
	[NICPROG_STEER_NONE]	= "none",
	[NICPROG_STEER_FLOW]	= "flow",
	[NICPROG_STEER_KEY]	= "key",
};

/**
 * nicprog_steer_name() - name of a stage's steering
 * @steer: enum nicprog_steer
 *
 * Return: a static string.
 */
const char *nicprog_steer_name(unsigned int steer)
{
	return steer < ARRAY_SIZE(steer_names) ? steer_names[steer] : "?";
}

static const struct {
	const char *name;
	u8 type;
} accel_fns[] = {
	[NICPROG_AFN_NONE]	= { "none", NICPROG_ACCEL_NONE },
	[NICPROG_AFN_CSUM]	= { "csum", NICPROG_ACCEL_CSUM },
	[NICPROG_AFN_CRC32C]	= { "crc32c", NICPROG_ACCEL_CRC },
	[NICPROG_AFN_TOEPLITZ]	= { "toeplitz", NICPROG_ACCEL_HASH },
	[NICPROG_AFN_JHASH]	= { "jhash", NICPROG_ACCEL_HASH },
	[NICPROG_AFN_CHACHA20]	= { "chacha20", NICPROG_ACCEL_CRYPTO },
};

/**
 * nicprog_accel_fn_type() - the engine type that runs an accelerator fn
 * @afn: enum nicprog_accel_fn; NICPROG_EXEC_ACCEL_* bits above it ignored
 *
 * Return: enum nicprog_accel_type, NICPROG_ACCEL_NONE if unknown.
 */
u8 nicprog_accel_fn_type(unsigned int afn)
{
	afn &= NICPROG_EXEC_AFN_MASK;
	return afn < ARRAY_SIZE(accel_fns) ? accel_fns[afn].type :
					     NICPROG_ACCEL_NONE;
}
EXPORT_SYMBOL_GPL(nicprog_accel_fn_type);

/**
 * nicprog_accel_fn_name() - name of an accelerator function
 * @afn: enum nicprog_accel_fn; NICPROG_EXEC_ACCEL_* bits above it ignored
 *
 * Return: a static string.
 */
const char *nicprog_accel_fn_name(unsigned int afn)
{
	afn &= NICPROG_EXEC_AFN_MASK;
	return afn < ARRAY_SIZE(accel_fns) ? accel_fns[afn].name : "?";
}

/**
 * nicprog_layout_shape() - the shape a layout has, whatever was asked
 * @lo: the layout
 *
 * Return: "single", "replicated", "sharded", "pipelined",
 * "pipelined+replicated" or "pipelined+sharded".
 */
const char *nicprog_layout_shape(const struct nicprog_layout *lo)
{
	bool rep = false, key = false;
	u32 s;

	for (s = 0; s < lo->n_stages; s++) {
		rep |= lo->stages[s].replicas > 1;
		key |= lo->stages[s].replicas > 1 &&
		       lo->stages[s].steer == NICPROG_STEER_KEY;
	}
	if (lo->n_stages == 1)
		return key ? "sharded" : rep ? "replicated" : "single";
	return key ? "pipelined+sharded" : rep ? "pipelined+replicated" :
		     "pipelined";
}

/* A stage's rate per core is replicas / cost: is a slower than b? */
static bool slower(u64 cost_a, u32 r_a, u64 cost_b, u32 r_b)
{
	return cost_a * r_b > cost_b * r_a;	/* costs below 2^58 */
}

/**
 * nicprog_replicate() - cores per stage maximizing the slowest stage's rate
 * @cost_fx: per stage, cost per packet on one core
 * @replicable: per stage, whether it may run on more than one core
 * @n: stages, at most @budget
 * @budget: cores
 * @replicas: filled, per stage
 *
 * Greedy: the next core goes to the slowest stage; when that stage cannot
 * be replicated no further core can raise the minimum. Optimal for the
 * max-min objective.
 */
void nicprog_replicate(const u64 *cost_fx, const bool *replicable, u32 n,
		       u32 budget, u32 *replicas)
{
	u32 s, slow, used = n;

	for (s = 0; s < n; s++)
		replicas[s] = 1;
	while (used < budget) {
		slow = 0;
		for (s = 1; s < n; s++)
			if (slower(cost_fx[s], replicas[s], cost_fx[slow],
				   replicas[slow]))
				slow = s;
		if (!replicable[slow])
			break;
		replicas[slow]++;
		used++;
	}
}

struct part {
	const struct nicprog_ir *ir;
	const struct nicprog_lnic *lnic;
	struct nicprog_layout *lo;
	u64 *node_tables;	/* per node, tables it or its callees access */
	u64 written;		/* sharded and shared-mutable tables */
	u8 *cand;		/* candidate node_stage */
	u8 *best;		/* best candidate so far */
	u8 *side;
	u32 *vtx;		/* node -> flow vertex, U32_MAX outside */
};

static bool same_key(const struct nicprog_table_info *a,
		     const struct nicprog_table_info *b)
{
	return a->key_len == b->key_len &&
	       !memcmp(a->key_pkt, b->key_pkt, a->key_len * sizeof(a->key_pkt[0]));
}

/* Tables, replicability and steering of every stage of @lo. */
static void stage_props(struct part *p)
{
	struct nicprog_layout *lo = p->lo;
	struct nicprog_stage *st;
	u32 s, i, t;

	for (s = 0; s < lo->n_stages; s++) {
		st = &lo->stages[s];
		st->tables = 0;
		st->n_nodes = 0;
	}
	for (i = 0; i < p->ir->n_nodes; i++) {
		st = &lo->stages[lo->node_stage[i]];
		st->tables |= p->node_tables[i];
		st->n_nodes++;
	}
	for (s = 0; s < lo->n_stages; s++) {
		st = &lo->stages[s];
		st->replicable = true;
		st->steer = NICPROG_STEER_FLOW;
		st->shard_table = 0;
		for (t = 0; t < lo->n_tables; t++) {
			if (!(st->tables & BIT_ULL(t)))
				continue;
			if (lo->tables[t].cls == NICPROG_TC_SHARED) {
				st->replicable = false;
			} else if (lo->tables[t].cls == NICPROG_TC_SHARDED) {
				if (st->steer != NICPROG_STEER_KEY) {
					st->steer = NICPROG_STEER_KEY;
					st->shard_table = t;
				} else if (!same_key(&lo->tables[t],
						     &lo->tables[st->shard_table])) {
					st->replicable = false;
				}
			}
		}
	}
}

/* Price @lo with its node_stage and n_stages; replicate over @budget. */
static u64 evaluate(struct part *p, u32 budget)
{
	struct nicprog_layout *lo = p->lo;
	u64 cost[NICPROG_MAX_STAGES] = { 0 };
	bool rep[NICPROG_MAX_STAGES] = { 0 };
	u32 r[NICPROG_MAX_STAGES], s;

	stage_props(p);
	for (s = 0; s < lo->n_stages; s++)
		lo->stages[s].replicas = 1;
	nicprog_predict(p->ir, lo);
	if (budget > lo->n_stages) {
		for (s = 0; s < lo->n_stages; s++) {
			cost[s] = lo->stages[s].cost_fx;
			rep[s] = lo->stages[s].replicable;
		}
		nicprog_replicate(cost, rep, lo->n_stages, budget, r);
		for (s = 0; s < lo->n_stages; s++)
			lo->stages[s].replicas = r[s];
		nicprog_predict(p->ir, lo);
	}
	return lo->tput;
}

/*
 * One minimum cut of stage @k, the nodes before fraction @lo_f of its cost
 * seeded to the source side, those from fraction @hi_f on to the sink.
 * Fills p->cand; returns false if no cut is allowed.
 */
static bool cut_stage(struct part *p, u32 k, u32 lo_f, u32 hi_f)
{
	const struct nicprog_ir *ir = p->ir;
	struct nicprog_layout *lo = p->lo;
	u64 total = 0, pre = 0, tmask = 0, c;
	u32 nv = 2, i, t, tv[NICPROG_MAX_TABLES], n_in = 0, n_s1 = 0;
	struct nicprog_flow f;
	bool ok = false;

	for (i = 0; i < ir->n_nodes; i++) {
		p->vtx[i] = U32_MAX;
		if (lo->node_stage[i] != k)
			continue;
		p->vtx[i] = nv++;
		total += lo->node_cost_fx[i];
		tmask |= p->node_tables[i] & p->written;
		n_in++;
	}
	if (n_in < 2)
		return false;
	for (t = 0; t < lo->n_tables; t++)
		tv[t] = tmask & BIT_ULL(t) ? nv++ : U32_MAX;
	if (nicprog_flow_init(&f, nv, 2 * ir->n_edges + n_in *
			      (1 + 2 * hweight64(tmask))))
		return false;
	for (i = 0; i < ir->n_edges; i++) {
		const struct nicprog_ir_edge *e = &ir->edges[i];

		if (p->vtx[e->from] == U32_MAX || p->vtx[e->to] == U32_MAX)
			continue;
		nicprog_flow_add(&f, p->vtx[e->from], p->vtx[e->to],
				 e->unsafe ? NICPROG_CAP_INF : e->bytes + 1);
		nicprog_flow_add(&f, p->vtx[e->to], p->vtx[e->from],
				 NICPROG_CAP_INF);
	}
	for (i = 0; i < ir->n_nodes; i++) {
		if (p->vtx[i] == U32_MAX)
			continue;
		for (t = 0; t < lo->n_tables; t++) {
			if (tv[t] == U32_MAX || !(p->node_tables[i] & BIT_ULL(t)))
				continue;
			nicprog_flow_add(&f, p->vtx[i], tv[t], NICPROG_CAP_INF);
			nicprog_flow_add(&f, tv[t], p->vtx[i], NICPROG_CAP_INF);
		}
		/* seeds by cost before the node, in percent of the total */
		c = total ? div64_u64(pre * 100, total) : 0;
		if (c < lo_f || pre == 0)
			nicprog_flow_add(&f, 0, p->vtx[i], NICPROG_CAP_INF);
		else if (c >= hi_f)
			nicprog_flow_add(&f, p->vtx[i], 1, NICPROG_CAP_INF);
		pre += lo->node_cost_fx[i];
	}
	if (nicprog_flow_mincut(&f, 0, 1, p->side) >= NICPROG_CAP_INF)
		goto out;
	for (i = 0; i < ir->n_nodes; i++) {
		p->cand[i] = lo->node_stage[i] + (lo->node_stage[i] > k);
		if (p->vtx[i] == U32_MAX)
			continue;
		if (p->side[p->vtx[i]])
			n_s1++;
		else
			p->cand[i] = k + 1;
	}
	ok = n_s1 && n_s1 < n_in;
out:
	nicprog_flow_free(&f);
	return ok;
}

/*
 * Split stage @k at the seeding with the best predicted throughput.
 * Leaves @lo with the split applied and returns its throughput, or 0 with
 * @lo unchanged if no cut is allowed.
 */
static u64 split_stage(struct part *p, u32 k, u32 budget)
{
	static const u8 seeds[][2] = {
		{ 40, 60 }, { 25, 45 }, { 55, 75 }, { 10, 30 }, { 70, 90 },
		{ 5, 95 },
	};
	struct nicprog_layout *lo = p->lo;
	u32 n = p->ir->n_nodes, i;
	u64 t, best = 0;
	u8 *orig = p->best + n;

	memcpy(orig, lo->node_stage, n);
	for (i = 0; i < ARRAY_SIZE(seeds); i++) {
		if (!cut_stage(p, k, seeds[i][0], seeds[i][1]))
			continue;
		memcpy(lo->node_stage, p->cand, n);
		lo->n_stages++;
		t = evaluate(p, budget);
		lo->n_stages--;
		memcpy(lo->node_stage, orig, n);
		if (t > best) {
			best = t;
			memcpy(p->best, p->cand, n);
		}
	}
	if (!best) {
		evaluate(p, budget);
		return 0;
	}
	memcpy(lo->node_stage, p->best, n);
	lo->n_stages++;
	return evaluate(p, budget);
}

/* Stages by cost per core, slowest first, into @order. */
static void by_slowness(const struct nicprog_layout *lo, u32 *order)
{
	u32 i, j, x;

	for (i = 0; i < lo->n_stages; i++)
		order[i] = i;
	for (i = 1; i < lo->n_stages; i++)
		for (j = i; j > 0; j--) {
			const struct nicprog_stage *a = &lo->stages[order[j]];
			const struct nicprog_stage *b = &lo->stages[order[j - 1]];

			if (!slower(a->cost_fx, a->replicas, b->cost_fx,
				    b->replicas))
				break;
			x = order[j];
			order[j] = order[j - 1];
			order[j - 1] = x;
		}
}

/* Pipeline to at most @max_stages, any allowed split, @rep_budget cores. */
static void pipeline_forced(struct part *p, u32 max_stages, u32 rep_budget)
{
	struct nicprog_layout *lo = p->lo;
	u32 order[NICPROG_MAX_STAGES], i;
	bool split = true;

	while (split && lo->n_stages < max_stages) {
		split = false;
		by_slowness(lo, order);
		for (i = 0; i < lo->n_stages && !split; i++)
			split = split_stage(p, order[i], rep_budget) != 0;
	}
}

/* Split the bottleneck while the prediction improves by 1% or more. */
static void pipeline_auto(struct part *p, u32 budget)
{
	struct nicprog_layout *lo = p->lo;
	u32 n = p->ir->n_nodes, order[NICPROG_MAX_STAGES];
	u8 *keep = p->best + 2 * n;
	u32 keep_stages;
	u64 cur = evaluate(p, budget), t;

	while (lo->n_stages < min_t(u32, budget, NICPROG_MAX_STAGES)) {
		memcpy(keep, lo->node_stage, n);
		keep_stages = lo->n_stages;
		by_slowness(lo, order);
		t = split_stage(p, order[0], budget);
		if (t && t >= cur + cur / 100) {
			cur = t;
			continue;
		}
		memcpy(lo->node_stage, keep, n);
		lo->n_stages = keep_stages;
		evaluate(p, budget);
		break;
	}
}

/* Number the cores, map instructions to stages, check the invariants. */
static int layout_finish(struct part *p, const char **why)
{
	const struct nicprog_ir *ir = p->ir;
	struct nicprog_layout *lo = p->lo;
	u32 s, i;

	for (s = 0, lo->cores = 0; s < lo->n_stages; s++) {
		lo->stages[s].first_core = lo->cores;
		lo->cores += lo->stages[s].replicas;
		if (lo->stages[s].replicas == 1)
			lo->stages[s].steer = NICPROG_STEER_NONE;
	}
	for (i = 0; i < ir->in->len; i++) {
		u32 b = ir->insn_block[i];

		if (b >= ir->n_main)
			lo->insn_stage[i] = NICPROG_EXEC_STAGE_ANY;
		else if (!lo->node_host)
			lo->insn_stage[i] = lo->node_stage[ir->blocks[b].node];
		else if (lo->node_host[ir->blocks[b].node] == NICPROG_NODE_HOST)
			lo->insn_stage[i] = NICPROG_EXEC_STAGE_HOST;
		else if (lo->node_host[ir->blocks[b].node] == NICPROG_NODE_BOTH)
			lo->insn_stage[i] = NICPROG_EXEC_STAGE_ANY;
		else
			lo->insn_stage[i] = lo->node_stage[ir->blocks[b].node];
	}
	if (!nicprog_layout_valid(ir, lo, why))
		return -EINVAL;
	if (nicprog_bracket(ir, p->lnic, lo) ||
	    nicprog_class_brackets(ir, p->lnic, lo)) {
		*why = "out of memory";
		return -ENOMEM;
	}
	return 0;
}

static int layout_alloc(struct nicprog_layout *lo, const struct nicprog_ir *ir)
{
	lo->node_stage = kvcalloc(ir->n_nodes, 1, GFP_KERNEL);
	lo->node_cost_fx = kvcalloc(ir->n_nodes, sizeof(u64), GFP_KERNEL);
	lo->insn_stage = kvcalloc(ir->in->len, 1, GFP_KERNEL);
	lo->insn_cycles = kvcalloc(ir->in->len, sizeof(u16), GFP_KERNEL);
	lo->insn_mat = kvcalloc(ir->in->len, 1, GFP_KERNEL);
	lo->insn_accel = kvcalloc(ir->in->len, 1, GFP_KERNEL);
	lo->tables = kvcalloc(ir->in->n_tables ? ir->in->n_tables : 1,
			      sizeof(*lo->tables), GFP_KERNEL);
	if (!lo->node_stage || !lo->node_cost_fx || !lo->insn_stage ||
	    !lo->insn_cycles || !lo->insn_mat || !lo->insn_accel ||
	    !lo->tables)
		return -ENOMEM;
	lo->n_tables = ir->in->n_tables;
	return 0;
}

/* Tables each node reaches, callees included (conservatively: all). */
static void node_tables(struct part *p)
{
	const struct nicprog_ir *ir = p->ir;
	const struct nicprog_ir_block *b;
	u64 subs = 0;
	u32 i, j;

	for (i = ir->n_main; i < ir->n_blocks; i++)
		subs |= ir->blocks[i].tbl_rd | ir->blocks[i].tbl_wr;
	/* counters are written too, but any core may add to them */
	for (i = 0; i < p->lo->n_tables; i++)
		if (p->lo->tables[i].cls == NICPROG_TC_SHARED ||
		    p->lo->tables[i].cls == NICPROG_TC_SHARDED)
			p->written |= BIT_ULL(i);
	for (i = 0; i < ir->n_main; i++) {
		b = &ir->blocks[i];
		p->node_tables[b->node] |= b->tbl_rd | b->tbl_wr;
		for (j = b->start; j < b->end; j++)
			if (ir->in->insns[j].code == (BPF_JMP | BPF_CALL) &&
			    ir->in->insns[j].src_reg == BPF_PSEUDO_CALL)
				p->node_tables[b->node] |= subs;
	}
}

/*
 * Leave what the host runs out of the NIC's stages: its tables, engines,
 * MAT lookups and cycles. It keeps a stage number so that the stages'
 * invariants hold unchanged, and runs in NICPROG_EXEC_STAGE_HOST.
 */
static void host_drop(struct part *p)
{
	const struct nicprog_ir *ir = p->ir;
	struct nicprog_layout *lo = p->lo;
	u32 i;

	for (i = 0; i < ir->n_nodes; i++)
		if (lo->node_host[i] == NICPROG_NODE_HOST) {
			p->node_tables[i] = 0;
			lo->node_cost_fx[i] = 0;
		}
	for (i = 0; i < ir->in->len; i++)
		if (ir->insn_block[i] < ir->n_main &&
		    lo->node_host[ir->blocks[ir->insn_block[i]].node] ==
		    NICPROG_NODE_HOST) {
			lo->insn_mat[i] = 0;
			lo->insn_accel[i] = 0;
		}
}

/**
 * nicprog_slice_units() - the units of a pool a plan may use
 * @lnic: the NIC
 * @budget: cores the plan may use
 * @count: units of the pool the NIC has
 * @avail: of them, those other ports' plans leave
 *
 * Programs on several ports of one NIC split its units, not only its
 * cores, so that each runs as its plan was predicted whatever the others
 * do: a plan for @budget of the NIC's cores takes that share of each pool
 * it uses, rounded, at least one unit, of the @avail ones.
 *
 * Return: units, 0 if none is available.
 */
u32 nicprog_slice_units(const struct nicprog_lnic *lnic, u32 budget,
			u32 count, u32 avail)
{
	u32 i, cores = 0;
	u64 n;

	for (i = 0; i < lnic->n_units && !cores; i++)
		if (lnic->units[i].type == NICPROG_UNIT_CORE)
			cores = lnic->units[i].count;
	if (!cores || budget >= cores)
		return min(count, avail);
	n = div64_u64((u64)count * budget * 2 + cores, 2 * (u64)cores);
	return min_t(u64, max_t(u64, n, 1), min(count, avail));
}

/*
 * Accelerator calls the NIC has an engine for become engine jobs: on the
 * plan's slice of the engines of each kind it calls (@avail of them left
 * by other ports' plans; NULL: all).
 */
static void map_accel(const struct nicprog_ir *ir,
		      const struct nicprog_lnic *lnic,
		      const struct nicprog_units_free *avail,
		      struct nicprog_layout *lo)
{
	bool used[__NICPROG_ACCEL_MAX] = { 0 };
	const struct nicprog_insn_meta *m;
	u32 i, t;

	for (i = 0; i < ir->in->len; i++) {
		m = &ir->in->meta[i];
		if (m->afn && !(m->flags & NICPROG_META_AFN_VAR))
			used[nicprog_accel_fn_type(m->afn)] = true;
	}
	for (t = 0; t < __NICPROG_ACCEL_MAX; t++)
		lo->accel_unit[t] = U32_MAX;
	for (i = lnic->n_units; i-- > 0;) {
		t = lnic->units[i].accel;
		if (lnic->units[i].type != NICPROG_UNIT_ACCEL ||
		    t >= __NICPROG_ACCEL_MAX || !used[t])
			continue;
		lo->accel_count[t] =
			nicprog_slice_units(lnic, lo->budget,
					    lnic->units[i].count,
					    avail ? avail->accel[t] :
						   lnic->units[i].count);
		lo->accel_unit[t] = lo->accel_count[t] ? i : U32_MAX;
	}
	for (i = 0; i < ir->in->len; i++) {
		m = &ir->in->meta[i];
		if (!m->afn || (m->flags & NICPROG_META_AFN_VAR))
			continue;
		t = nicprog_accel_fn_type(m->afn);
		if (t != NICPROG_ACCEL_NONE && lo->accel_unit[t] != U32_MAX)
			lo->insn_accel[i] = m->afn |
				(m->flags & NICPROG_META_IDENT ? m->ident : 0);
	}
}

/* Lookups MAT stages serve, on the plan's slice of them. */
static void map_mat(const struct nicprog_ir *ir,
		    const struct nicprog_lnic *lnic,
		    const struct nicprog_units_free *avail,
		    struct nicprog_layout *lo)
{
	const struct nicprog_lnic_unit *mat = NULL;
	u32 i, m;

	for (i = 0; i < lnic->n_units; i++)
		if (lnic->units[i].type == NICPROG_UNIT_MAT && !mat)
			mat = &lnic->units[i];
	if (!mat)
		return;
	lo->mat_units = nicprog_slice_units(lnic, lo->budget, mat->count,
					    avail ? avail->mat : mat->count);
	if (!lo->mat_units)
		return;
	lo->mat_service = div64_u64((u64)mat->service_cycles *
				    lnic->units[lo->core_unit].clock_mhz,
				    mat->clock_mhz ? mat->clock_mhz : 1);
	for (i = 0; i < ir->n_keys; i++) {
		m = ir->keys[i].table;
		if (m < lo->n_tables && lo->tables[m].mat &&
		    ir->keys[i].helper == BPF_FUNC_map_lookup_elem)
			lo->insn_mat[ir->keys[i].insn] = NICPROG_MAT_LOOKUP;
	}
	nicprog_ident_lpm(ir, lo);
	for (i = 0; i < ir->in->len && !lo->insn_mat[i]; i++)
		;
	if (i == ir->in->len)	/* it makes no lookup: it holds no stage */
		lo->mat_units = 0;
}

/* The host runs some calls and lookups: hold no unit only they used. */
static void units_unused(const struct nicprog_ir *ir, struct nicprog_layout *lo)
{
	bool used[__NICPROG_ACCEL_MAX] = { 0 }, mat = false;
	u32 i, t;

	for (i = 0; i < ir->in->len; i++) {
		if (lo->insn_accel[i])
			used[nicprog_accel_fn_type(lo->insn_accel[i])] = true;
		mat |= !!lo->insn_mat[i];
	}
	for (t = 0; t < __NICPROG_ACCEL_MAX; t++)
		if (!used[t]) {
			lo->accel_count[t] = 0;
			lo->accel_unit[t] = U32_MAX;
		}
	if (!mat)
		lo->mat_units = 0;
}

/**
 * nicprog_layout_build() - plan a program for a NIC it has to itself
 * @ir: the program
 * @lnic: the NIC, validated
 * @shape: enum nicprog_shape
 * @budget: cores the plan may use, at least 1
 * @host: for a partial offload, what the NIC holds (the host runs the
 *	rest, host.c); NULL to plan the whole program for the NIC
 * @lo: filled; release with nicprog_layout_free(), also on error
 * @why: on error, a static reason
 *
 * As nicprog_layout_build_slice() with every unit free.
 *
 * Context: process; allocates.
 * Return: 0 or -errno.
 */
int nicprog_layout_build(const struct nicprog_ir *ir,
			 const struct nicprog_lnic *lnic, u8 shape,
			 u32 budget, const struct nicprog_host_limits *host,
			 struct nicprog_layout *lo, const char **why)
{
	return nicprog_layout_build_slice(ir, lnic, shape, budget, NULL, host,
					  lo, why);
}

/**
 * nicprog_layout_build_slice() - plan a program for its slice of a NIC
 * @ir: the program
 * @lnic: the NIC, validated
 * @shape: enum nicprog_shape
 * @budget: cores the plan may use, at least 1
 * @avail: the units other ports' plans leave it; NULL: all
 * @host: for a partial offload, what the NIC holds (the host runs the
 *	rest, host.c); NULL to plan the whole program for the NIC
 * @lo: filled; release with nicprog_layout_free(), also on error
 * @why: on error, a static reason
 *
 * The plan uses @budget cores at most and, of each pool of units it
 * uses, the share nicprog_slice_units() gives; it is priced on them.
 *
 * Context: process; allocates.
 * Return: 0 or -errno.
 */
int nicprog_layout_build_slice(const struct nicprog_ir *ir,
			       const struct nicprog_lnic *lnic, u8 shape,
			       u32 budget, const struct nicprog_units_free *avail,
			       const struct nicprog_host_limits *host,
			       struct nicprog_layout *lo, const char **why)
{
	struct part p = { .ir = ir, .lnic = lnic, .lo = lo };
	u32 i, n = ir->n_nodes;
	int err = -ENOMEM;

	memset(lo, 0, sizeof(*lo));
	*why = "out of memory";
	if (shape >= __NICPROG_SHAPE_MAX) {
		*why = "unknown plan shape";
		return -EINVAL;
	}
	if (!host && nicprog_host_call_insn(ir->in) != U32_MAX) {
		*why = PART_WHY_HOST_CALL;
		return -EOPNOTSUPP;
	}
	lo->shape = shape;
	lo->budget = max_t(u32, budget, 1);
	lo->hop_cycles = NICPROG_HOP_CYCLES;
	for (i = 0; i < lnic->n_units; i++)
		if (lnic->units[i].type == NICPROG_UNIT_CORE)
			break;
	if (i == lnic->n_units) {
		*why = "the NIC has no general-purpose core";
		return -EOPNOTSUPP;
	}
	lo->core_unit = i;
	if (layout_alloc(lo, ir))
		return -ENOMEM;
	p.node_tables = kvcalloc(n, sizeof(u64), GFP_KERNEL);
	p.cand = kvcalloc(n, 1, GFP_KERNEL);
	p.best = kvcalloc(3 * n, 1, GFP_KERNEL);
	p.side = kvcalloc(n + 2 + NICPROG_MAX_TABLES, 1, GFP_KERNEL);
	p.vtx = kvcalloc(n, sizeof(u32), GFP_KERNEL);
	if (!p.node_tables || !p.cand || !p.best || !p.side || !p.vtx)
		goto out;

	nicprog_classify(ir, lo->tables);
	node_tables(&p);
	if (host) {
		err = nicprog_host_cut(ir, p.written, p.node_tables, host, lo,
				       why);
		if (err)
			goto out;
		err = -ENOMEM;
	}
	map_mat(ir, lnic, avail, lo);
	map_accel(ir, lnic, avail, lo);
	if (lo->node_host)
		host_drop(&p);
	nicprog_place(ir, lnic, avail ? avail->room : NULL, lo);
	nicprog_predict_costs(ir, lnic, lo);
	if (lo->node_host) {
		host_drop(&p);
		units_unused(ir, lo);
	}

	lo->n_stages = 1;
	switch (shape) {
	case NICPROG_SHAPE_SINGLE:
		evaluate(&p, 1);
		break;
	case NICPROG_SHAPE_REPLICATED:
		evaluate(&p, lo->budget);
		break;
	case NICPROG_SHAPE_PIPELINED:
		evaluate(&p, 1);
		pipeline_forced(&p, min_t(u32, lo->budget, NICPROG_MAX_STAGES),
				1);
		break;
	case NICPROG_SHAPE_PIPELINED_REPLICATED:
		evaluate(&p, 1);
		pipeline_forced(&p, clamp_t(u32, lo->budget / 2, 1,
					    NICPROG_MAX_STAGES), 1);
		evaluate(&p, lo->budget);
		break;
	default:
		pipeline_auto(&p, lo->budget);
		break;
	}

	err = layout_finish(&p, why);
out:
	kvfree(p.node_tables);
	kvfree(p.cand);
	kvfree(p.best);
	kvfree(p.side);
	kvfree(p.vtx);
	return err;
}

/**
 * nicprog_layout_apply() - give a layout the stages and replicas asked for
 * @ir: the program
 * @lnic: the NIC
 * @lo: a layout of @ir from nicprog_layout_build()
 * @node_stage: per DAG node, its stage
 * @n_stages: stages, at most NICPROG_MAX_STAGES
 * @replicas: per stage, cores
 * @why: when the plan breaks an invariant, which
 *
 * For benchmarks and tests: price any plan as the planner would.
 *
 * Return: 0, or -EINVAL for a plan that breaks an invariant, -ENOMEM.
 */
int nicprog_layout_apply(const struct nicprog_ir *ir,
			 const struct nicprog_lnic *lnic,
			 struct nicprog_layout *lo, const u8 *node_stage,
			 u32 n_stages, const u32 *replicas, const char **why)
{
	struct part p = { .ir = ir, .lnic = lnic, .lo = lo };
	u32 s;
	int err;

	*why = "stage count out of range";
	if (!n_stages || n_stages > NICPROG_MAX_STAGES)
		return -EINVAL;
	p.node_tables = kvcalloc(ir->n_nodes, sizeof(u64), GFP_KERNEL);
	if (!p.node_tables)
		return -ENOMEM;
	node_tables(&p);
	memcpy(lo->node_stage, node_stage, ir->n_nodes);
	lo->n_stages = n_stages;
	stage_props(&p);
	err = 0;
	for (s = 0; s < n_stages; s++) {
		lo->stages[s].replicas = replicas[s];
		if (replicas[s] > 1 && !lo->stages[s].replicable) {
			*why = "a stage that cannot be replicated has replicas";
			err = -EINVAL;
		}
	}
	nicprog_predict(ir, lo);
	if (!err)
		err = layout_finish(&p, why);
	kvfree(p.node_tables);
	return err;
}

/* Per segment [j, i) of the node order: cycles per packet, replicable. */
struct segs {
	u32 n;
	u64 *cost;	/* [j * (n + 1) + i] */
	u8 *rep;
};

static int segs_build(struct part *p, struct segs *sg)
{
	const struct nicprog_ir *ir = p->ir;
	struct nicprog_layout *lo = p->lo;
	u32 n = ir->n_nodes, j, i, e, t, shard;
	u64 c, tables;
	bool rep;

	sg->n = n;
	sg->cost = kvcalloc((size_t)(n + 1) * (n + 1), sizeof(u64), GFP_KERNEL);
	sg->rep = kvcalloc((size_t)(n + 1) * (n + 1), 1, GFP_KERNEL);
	if (!sg->cost || !sg->rep)
		return -ENOMEM;
	for (j = 0; j < n; j++) {
		c = j ? (u64)NICPROG_FX * lo->hop_cycles : 0;
		tables = 0;
		for (i = j + 1; i <= n; i++) {
			c += lo->node_cost_fx[i - 1];
			for (e = 0; e < ir->n_edges && j; e++)
				if (ir->edges[e].to == i - 1 &&
				    ir->edges[e].from < j)
					c += (u64)ir->edges[e].freq *
					     (ir->edges[e].bytes / 8);
			tables |= p->node_tables[i - 1];
			rep = true;
			shard = U32_MAX;
			for (t = 0; t < lo->n_tables; t++) {
				if (!(tables & BIT_ULL(t)))
					continue;
				if (lo->tables[t].cls == NICPROG_TC_SHARED)
					rep = false;
				if (lo->tables[t].cls != NICPROG_TC_SHARDED)
					continue;
				if (shard != U32_MAX &&
				    !same_key(&lo->tables[t], &lo->tables[shard]))
					rep = false;
				shard = t;
			}
			sg->cost[j * (n + 1) + i] = c;
			sg->rep[j * (n + 1) + i] = rep;
		}
	}
	return 0;
}

/* May a stage boundary fall just before node @x? */
static void cuts_allowed(struct part *p, u8 *ok)
{
	const struct nicprog_ir *ir = p->ir;
	u32 n = ir->n_nodes, x, t, e, first, last;

	for (x = 0; x <= n; x++)
		ok[x] = 1;
	for (t = 0; t < p->lo->n_tables; t++) {
		if (!(p->written & BIT_ULL(t)))
			continue;
		first = U32_MAX;
		last = 0;
		for (x = 0; x < n; x++)
			if (p->node_tables[x] & BIT_ULL(t)) {
				first = min(first, x);
				last = x;
			}
		for (x = first + 1; first != U32_MAX && x <= last; x++)
			ok[x] = 0;
	}
	for (e = 0; e < ir->n_edges; e++)
		for (x = ir->edges[e].from + 1;
		     ir->edges[e].unsafe && x <= ir->edges[e].to; x++)
			ok[x] = 0;
}

/**
 * nicprog_layout_optimum() - the best plan whose stages are runs of the
 *	DAG's nodes in their topological order, by exhaustive search
 * @ir: the program
 * @lnic: the NIC
 * @budget: cores, at most NICPROG_MAX_STAGES
 * @lo: filled with that plan; release with nicprog_layout_free()
 * @why: on error, a static reason
 *
 * Dynamic programming over every stage boundary and every number of cores
 * per stage finds the plan of highest predicted throughput in that space,
 * exactly; it is the yardstick of the offloader's own search (which is
 * not limited to runs and may do better).
 *
 * Return: 0 or -errno.
 */
int nicprog_layout_optimum(const struct nicprog_ir *ir,
			   const struct nicprog_lnic *lnic, u32 budget,
			   struct nicprog_layout *lo, const char **why)
{
	struct part p = { .ir = ir, .lnic = lnic, .lo = lo };
	u32 n = ir->n_nodes, B, i, j, c, r, k, s, *arg = NULL;
	struct segs sg = { 0 };
	u64 *best = NULL, v, rt;
	u8 *ok = NULL;
	int err;

	budget = clamp_t(u32, budget, 1, NICPROG_MAX_STAGES);
	err = nicprog_layout_build(ir, lnic, NICPROG_SHAPE_SINGLE, budget, NULL,
				   lo, why);
	if (err)
		return err;
	err = -ENOMEM;
	*why = "out of memory";
	B = budget;
	p.node_tables = kvcalloc(n, sizeof(u64), GFP_KERNEL);
	ok = kvcalloc(n + 1, 1, GFP_KERNEL);
	best = kvcalloc((size_t)(n + 1) * (B + 1), sizeof(u64), GFP_KERNEL);
	arg = kvcalloc((size_t)(n + 1) * (B + 1), sizeof(u32), GFP_KERNEL);
	if (!p.node_tables || !ok || !best || !arg)
		goto out;
	node_tables(&p);
	if (segs_build(&p, &sg))
		goto out;
	cuts_allowed(&p, ok);

	/* best[i][c]: best rate of nodes [0, i) on at most c cores */
	for (c = 0; c <= B; c++)
		best[c] = U64_MAX;
	for (i = 1; i <= n; i++) {
		for (c = 0; c <= B; c++) {
			best[i * (B + 1) + c] = 0;
			for (j = 0; j < i; j++) {
				if (j && !ok[j])
					continue;
				for (r = 1; r <= c; r++) {
					if (r > 1 && !sg.rep[j * (n + 1) + i])
						break;
					if (j && c - r < 1)
						break;
					rt = nicprog_rate(r, sg.cost[j * (n + 1) + i]);
					v = min(rt, best[j * (B + 1) + c - r]);
					if (v > best[i * (B + 1) + c]) {
						best[i * (B + 1) + c] = v;
						arg[i * (B + 1) + c] = j * 64 + r;
					}
				}
			}
		}
	}
	/* rebuild the winner, last stage first, and price it as the planner */
	for (i = n, c = B, k = 0; i; k++) {
		j = arg[i * (B + 1) + c] / 64;
		r = arg[i * (B + 1) + c] % 64;
		for (s = j; s < i; s++)
			lo->node_stage[s] = k;	/* reversed below */
		lo->stages[k].replicas = r;
		i = j;
		c -= r;
	}
	lo->n_stages = k;
	for (s = 0; s < n; s++)
		lo->node_stage[s] = k - 1 - lo->node_stage[s];
	for (s = 0; s < k / 2; s++)
		swap(lo->stages[s].replicas, lo->stages[k - 1 - s].replicas);
	stage_props(&p);
	nicprog_predict(ir, lo);
	err = layout_finish(&p, why);
out:
	kvfree(p.node_tables);
	kvfree(ok);
	kvfree(best);
	kvfree(arg);
	kvfree(sg.cost);
	kvfree(sg.rep);
	return err;
}

/**
 * nicprog_layout_valid() - check a layout's invariants
 * @ir: the program
 * @lo: the layout
 * @why: on failure, which invariant
 *
 * Edges run forward in stage order and carry no map value pointer across
 * stages; a table the datapath writes sits in one stage; a stage with a
 * shared-mutable table runs on one core; a replicated stage's sharded
 * tables share one key, which steers it; the cores fit the budget.
 *
 * Return: true if every invariant holds.
 */
bool nicprog_layout_valid(const struct nicprog_ir *ir,
			  const struct nicprog_layout *lo, const char **why)
{
	u32 i, t, s, cores = 0, owner[NICPROG_MAX_TABLES];
	const struct nicprog_ir_edge *e;
	const struct nicprog_stage *st;

	if (!lo->n_stages || lo->n_stages > NICPROG_MAX_STAGES) {
		*why = "stage count out of range";
		return false;
	}
	for (i = 0; i < ir->n_edges; i++) {
		e = &ir->edges[i];
		if (lo->node_host && lo->node_host[e->to] == NICPROG_NODE_HOST)
			continue;	/* handed over (host.c checked it) */
		if (lo->node_stage[e->from] > lo->node_stage[e->to]) {
			*why = "an edge runs backwards between stages";
			return false;
		}
		if (e->unsafe && lo->node_stage[e->from] != lo->node_stage[e->to]) {
			*why = "a map value pointer crosses stages";
			return false;
		}
	}
	for (t = 0; t < lo->n_tables; t++)
		owner[t] = U32_MAX;
	for (i = 0; i < ir->n_main; i++) {
		const struct nicprog_ir_block *b = &ir->blocks[i];
		u64 acc = b->tbl_rd | b->tbl_wr;

		if (lo->node_host && lo->node_host[b->node] == NICPROG_NODE_HOST)
			continue;
		s = lo->node_stage[b->node];
		for (t = 0; t < lo->n_tables; t++) {
			if (!(acc & BIT_ULL(t)) ||
			    (lo->tables[t].cls != NICPROG_TC_SHARED &&
			     lo->tables[t].cls != NICPROG_TC_SHARDED))
				continue;
			if (owner[t] != U32_MAX && owner[t] != s) {
				*why = "a written table spans two stages";
				return false;
			}
			owner[t] = s;
		}
	}
	for (s = 0; s < lo->n_stages; s++) {
		st = &lo->stages[s];
		cores += st->replicas;
		if (st->replicas <= 1)
			continue;
		for (t = 0; t < lo->n_tables; t++) {
			if (owner[t] != s)
				continue;
			if (lo->tables[t].cls == NICPROG_TC_SHARED) {
				*why = "a shared-mutable table's stage is replicated";
				return false;
			}
			if (st->steer != NICPROG_STEER_KEY ||
			    !same_key(&lo->tables[t],
				      &lo->tables[st->shard_table])) {
				*why = "a sharded table's stage is not steered by its key";
				return false;
			}
		}
	}
	if (cores > lo->budget) {
		*why = "more cores than the budget";
		return false;
	}
	return true;
}

/**
 * nicprog_layout_free() - release a layout's memory
 * @lo: the layout
 */
void nicprog_layout_free(struct nicprog_layout *lo)
{
	kvfree(lo->node_host);
	kvfree(lo->node_stage);
	kvfree(lo->node_cost_fx);
	kvfree(lo->insn_stage);
	kvfree(lo->insn_cycles);
	kvfree(lo->insn_mat);
	kvfree(lo->insn_accel);
	kvfree(lo->tables);
	memset(lo, 0, sizeof(*lo));
}

/**
 * nicprog_layout_insn_region() - the memory an instruction of a layout waits for
 * @in: the program
 * @lo: its layout
 * @i: the instruction
 *
 * Return: the LNIC region a packet or map access (or map helper call)
 * touches, where the layout put the packet and the tables;
 * NICPROG_EXEC_REGION_NONE for other instructions.
 */
u8 nicprog_layout_insn_region(const struct nicprog_ir_input *in,
			      const struct nicprog_layout *lo, u32 i)
{
	const struct nicprog_insn_meta *m = &in->meta[i];
	u8 cls = BPF_CLASS(in->insns[i].code);

	if (cls == BPF_LDX || cls == BPF_ST || cls == BPF_STX) {
		if (m->ptr == NICPROG_PTR_PACKET)
			return lo->pkt_region;
		if (m->ptr == NICPROG_PTR_MAP_VALUE && m->map < lo->n_tables)
			return lo->tables[m->map].region;
	} else if (in->insns[i].code == (BPF_JMP | BPF_CALL) &&
		   m->map < lo->n_tables &&
		   m->helper >= BPF_FUNC_map_lookup_elem &&
		   m->helper <= BPF_FUNC_map_delete_elem) {
		return lo->tables[m->map].region;
	}
	return NICPROG_EXEC_REGION_NONE;
}

/**
 * nicprog_layout_exec() - what an executor running a layout needs per insn
 * @in: the program
 * @lo: its layout
 * @flags: in, the program's enum nicprog_exec_insn_flags; out, with the
 *	MAT lookups and regions the layout maps added
 * @region: out, per instruction, nicprog_layout_insn_region()
 *
 * A driver with a timing model learns from @region which memory each
 * access waits for; the offline predictor runs the layout the same way.
 */
void nicprog_layout_exec(const struct nicprog_ir_input *in,
			 const struct nicprog_layout *lo, u8 *flags,
			 u8 *region)
{
	u32 i;

	for (i = 0; i < in->len; i++) {
		if (lo->insn_mat[i] == NICPROG_MAT_LOOKUP)
			flags[i] |= NICPROG_EXEC_INSN_MAT;
		else if (lo->insn_mat[i] == NICPROG_MAT_REGION)
			flags[i] |= NICPROG_EXEC_INSN_MAT_REGION;
		region[i] = nicprog_layout_insn_region(in, lo, i);
	}
}
