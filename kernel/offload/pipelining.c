// SPDX-License-Identifier: GPL-2.0
/*
 * Pipelining (after Alkali): the main program's DAG is split into stages
 * that run one after another on different cores.
 *
 * A split cuts the bottleneck stage in two by a minimum cut over its
 * nodes, edges weighted by the live state they carry, with infinite
 * weights where a cut is not allowed: backwards (so that no edge runs from
 * a later stage to an earlier one), across a live map value pointer, and
 * through a synthetic vertex per table the datapath writes, joined to
 * every node accessing it, so that no such table spans two stages. The
 * source and sink sides are seeded with the first and last parts of the
 * stage by cost; a few seedings are tried and the best predicted one
 * kept. Replication (replication.c) then gives cores to the slowest
 * replicable stage; both repeat while the prediction improves.
 */
#include "part.h"

/*
 * One minimum cut of stage @k, the nodes before fraction @lo_f of its cost
 * seeded to the source side, those from fraction @hi_f on to the sink.
 * Fills p->cand; returns false if no cut is allowed.
 */
static bool cut_stage(struct nicprog_part *p, u32 k, u32 lo_f, u32 hi_f)
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
static u64 split_stage(struct nicprog_part *p, u32 k, u32 budget)
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
		t = nicprog_part_evaluate(p, budget);
		lo->n_stages--;
		memcpy(lo->node_stage, orig, n);
		if (t > best) {
			best = t;
			memcpy(p->best, p->cand, n);
		}
	}
	if (!best) {
		nicprog_part_evaluate(p, budget);
		return 0;
	}
	memcpy(lo->node_stage, p->best, n);
	lo->n_stages++;
	return nicprog_part_evaluate(p, budget);
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

			if (!nicprog_part_slower(a->cost_fx, a->replicas,
						 b->cost_fx, b->replicas))
				break;
			x = order[j];
			order[j] = order[j - 1];
			order[j - 1] = x;
		}
}

/* Pipeline to at most @max_stages, any allowed split, @rep_budget cores. */
void nicprog_pipeline_forced(struct nicprog_part *p, u32 max_stages,
			     u32 rep_budget)
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
void nicprog_pipeline_auto(struct nicprog_part *p, u32 budget)
{
	struct nicprog_layout *lo = p->lo;
	u32 n = p->ir->n_nodes, order[NICPROG_MAX_STAGES];
	u8 *keep = p->best + 2 * n;
	u32 keep_stages;
	u64 cur = nicprog_part_evaluate(p, budget), t;

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
		nicprog_part_evaluate(p, budget);
		break;
	}
}
