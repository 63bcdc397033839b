// SPDX-License-Identifier: GPL-2.0
/*
 * The yardstick of the offloader's search, for tools and tests only (not
 * built into the module): any plan priced as the planner would price it,
 * and the best plan whose stages are runs of the DAG's nodes, found by
 * exhaustive search.
 */
#include "part.h"

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
	struct nicprog_part p = { .ir = ir, .lnic = lnic, .lo = lo };
	u32 s;
	int err;

	*why = "stage count out of range";
	if (!n_stages || n_stages > NICPROG_MAX_STAGES)
		return -EINVAL;
	p.node_tables = kvcalloc(ir->n_nodes, sizeof(u64), GFP_KERNEL);
	if (!p.node_tables)
		return -ENOMEM;
	nicprog_part_node_tables(&p);
	memcpy(lo->node_stage, node_stage, ir->n_nodes);
	lo->n_stages = n_stages;
	nicprog_part_stage_props(&p);
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
		err = nicprog_part_finish(&p, why);
	kvfree(p.node_tables);
	return err;
}

/* Per segment [j, i) of the node order: cycles per packet, replicable. */
struct segs {
	u32 n;
	u64 *cost;	/* [j * (n + 1) + i] */
	u8 *rep;
};

static int segs_build(struct nicprog_part *p, struct segs *sg)
{
	const struct nicprog_ir *ir = p->ir;
	struct nicprog_layout *lo = p->lo;
	u32 n = ir->n_nodes, j, i, e, t;
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
			nicprog_part_steering(lo, tables, &rep);
			for (t = 0; t < lo->n_tables; t++)
				if ((tables & BIT_ULL(t)) &&
				    lo->tables[t].cls == NICPROG_TC_SHARED)
					rep = false;
			sg->cost[j * (n + 1) + i] = c;
			sg->rep[j * (n + 1) + i] = rep;
		}
	}
	return 0;
}

/* May a stage boundary fall just before node @x? */
static void cuts_allowed(struct nicprog_part *p, u8 *ok)
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
	struct nicprog_part p = { .ir = ir, .lnic = lnic, .lo = lo };
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
	nicprog_part_node_tables(&p);
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
	nicprog_part_stage_props(&p);
	nicprog_predict(ir, lo);
	err = nicprog_part_finish(&p, why);
out:
	kvfree(p.node_tables);
	kvfree(ok);
	kvfree(best);
	kvfree(arg);
	kvfree(sg.cost);
	kvfree(sg.rep);
	return err;
}
