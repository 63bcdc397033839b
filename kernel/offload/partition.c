// SPDX-License-Identifier: GPL-2.0
/*
 * Plans (after Alkali), start to finish: table classes, the units the
 * program maps onto (mapping.c), what a partial offload leaves to the
 * host (host.c), placement and costs (predict.c), then the shape --
 * stages by minimum cut (pipelining.c) and cores per stage
 * (replication.c) -- and the invariants every plan must keep.
 */
#include "part.h"

#define WHY_NO_SYMMETRIC_HASH \
	"keyed by a flow and its reverse, and the profile has no parser to steer both by one symmetric hash"
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
	[NICPROG_STEER_KEY_SYMMETRIC] = "key-symmetric",
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
		       nicprog_steer_by_key(lo->stages[s].steer);
	}
	if (lo->n_stages == 1)
		return key ? "sharded" : rep ? "replicated" : "single";
	return key ? "pipelined+sharded" : rep ? "pipelined+replicated" :
		     "pipelined";
}

/*
 * The hash of the lesser of a key and its swap is the parser's to take
 * (nicsim's steering emulates a parser's): on a profile without one, a
 * table keyed by a flow and its reverse stays on one core.
 */
static void no_parser_no_symmetry(const struct nicprog_lnic *lnic,
				  struct nicprog_layout *lo)
{
	u32 i, t;

	for (i = 0; i < lnic->n_units; i++)
		if (lnic->units[i].type == NICPROG_UNIT_PARSER)
			return;
	for (t = 0; t < lo->n_tables; t++) {
		if (lo->tables[t].cls != NICPROG_TC_SHARDED ||
		    !lo->tables[t].sym)
			continue;
		lo->tables[t].cls = NICPROG_TC_SHARED;
		lo->tables[t].why = WHY_NO_SYMMETRIC_HASH;
	}
}

/* Number the cores, map instructions to stages, check the invariants. */
int nicprog_part_finish(struct nicprog_part *p, const char **why)
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

/**
 * nicprog_layout_share() - share a plan's accelerator calls with the cores
 * @ir: the program
 * @lnic: the NIC the plan is for
 * @body16: per enum nicprog_accel_type, sixteenths of the calls to run as
 *	the called function's BPF body on the cores (0: every call is an
 *	engine job); larger values count as NICPROG_SHARE_ALL
 * @lo: a plan from nicprog_layout_build_slice(); repriced
 *
 * An accelerator call's body computes what the engine does (the oracle
 * checks them bit for bit), so where an engine pool saturates before the
 * cores, bodies on the cores add throughput. The choice is the operator's
 * (dev-set's accel plan-share), made from a prediction with the traffic
 * (nicprog-plan --workload --engine-share auto): the static model knows
 * neither how many frames reach a call nor their lengths, and a body
 * costs many times its engine job. The stages stay as the plan made them;
 * costs, the prediction and the brackets follow the share. Types the plan
 * has no engine of keep 0.
 *
 * Context: process; allocates (the brackets).
 * Return: 0 or -ENOMEM.
 */
int nicprog_layout_share(const struct nicprog_ir *ir,
			 const struct nicprog_lnic *lnic, const u8 *body16,
			 struct nicprog_layout *lo)
{
	bool changed = false;
	u8 sh;
	u32 t;

	for (t = 0; t < __NICPROG_ACCEL_MAX; t++) {
		sh = lo->accel_count[t] ? min_t(u8, body16[t],
						NICPROG_SHARE_ALL) : 0;
		changed |= sh != lo->body16[t];
		lo->body16[t] = sh;
	}
	if (!changed)
		return 0;
	nicprog_predict_costs(ir, lnic, lo);
	/* the host's part costs the NIC nothing, as host_drop() left it */
	for (t = 0; lo->node_host && t < ir->n_nodes; t++)
		if (lo->node_host[t] == NICPROG_NODE_HOST)
			lo->node_cost_fx[t] = 0;
	nicprog_predict(ir, lo);
	if (nicprog_bracket(ir, lnic, lo) ||
	    nicprog_class_brackets(ir, lnic, lo))
		return -ENOMEM;
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
void nicprog_part_node_tables(struct nicprog_part *p)
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
static void host_drop(struct nicprog_part *p)
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
	struct nicprog_part p = { .ir = ir, .lnic = lnic, .lo = lo };
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
	no_parser_no_symmetry(lnic, lo);
	nicprog_part_node_tables(&p);
	if (host) {
		err = nicprog_host_cut(ir, p.written, p.node_tables, host, lo,
				       why);
		if (err)
			goto out;
		err = -ENOMEM;
	}
	nicprog_map_mat(ir, lnic, avail, lo);
	nicprog_map_accel(ir, lnic, avail, lo);
	if (lo->node_host)
		host_drop(&p);
	nicprog_place(ir, lnic, avail ? avail->room : NULL, lo);
	nicprog_predict_costs(ir, lnic, lo);
	if (lo->node_host) {
		host_drop(&p);
		nicprog_map_unused(ir, lo);
	}

	lo->n_stages = 1;
	switch (shape) {
	case NICPROG_SHAPE_SINGLE:
		nicprog_part_evaluate(&p, 1);
		break;
	case NICPROG_SHAPE_REPLICATED:
		nicprog_part_evaluate(&p, lo->budget);
		break;
	case NICPROG_SHAPE_PIPELINED:
		nicprog_part_evaluate(&p, 1);
		nicprog_pipeline_forced(&p, min_t(u32, lo->budget,
						  NICPROG_MAX_STAGES), 1);
		break;
	case NICPROG_SHAPE_PIPELINED_REPLICATED:
		nicprog_part_evaluate(&p, 1);
		nicprog_pipeline_forced(&p, clamp_t(u32, lo->budget / 2, 1,
						    NICPROG_MAX_STAGES), 1);
		nicprog_part_evaluate(&p, lo->budget);
		break;
	default:
		nicprog_pipeline_auto(&p, lo->budget);
		break;
	}

	err = nicprog_part_finish(&p, why);
out:
	kvfree(p.node_tables);
	kvfree(p.cand);
	kvfree(p.best);
	kvfree(p.side);
	kvfree(p.vtx);
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
			if (!nicprog_steer_by_key(st->steer) ||
			    !nicprog_part_steers(&lo->tables[st->shard_table],
						 &lo->tables[t])) {
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
