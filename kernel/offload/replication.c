// SPDX-License-Identifier: GPL-2.0
/*
 * Replication (after Alkali): a stage whose tables allow it runs on
 * several cores at once, frames steered to them by flow or, for a stage
 * that shards a table, by that table's key. Cores go to the slowest
 * replicable stage, one at a time.
 */
#include "part.h"

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
			if (nicprog_part_slower(cost_fx[s], replicas[s],
						cost_fx[slow], replicas[slow]))
				slow = s;
		if (!replicable[slow])
			break;
		replicas[slow]++;
		used++;
	}
}

/* Tables, replicability and steering of every stage of @lo. */
void nicprog_part_stage_props(struct nicprog_part *p)
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
		t = nicprog_part_steering(lo, st->tables, &st->replicable);
		st->steer = t == U32_MAX ? NICPROG_STEER_FLOW :
			    lo->tables[t].sym ? NICPROG_STEER_KEY_SYMMETRIC :
			    NICPROG_STEER_KEY;
		st->shard_table = t == U32_MAX ? 0 : t;
		for (t = 0; t < lo->n_tables; t++)
			if ((st->tables & BIT_ULL(t)) &&
			    lo->tables[t].cls == NICPROG_TC_SHARED)
				st->replicable = false;
	}
}

/* Price @lo with its node_stage and n_stages; replicate over @budget. */
u64 nicprog_part_evaluate(struct nicprog_part *p, u32 budget)
{
	struct nicprog_layout *lo = p->lo;
	u64 cost[NICPROG_MAX_STAGES] = { 0 };
	bool rep[NICPROG_MAX_STAGES] = { 0 };
	u32 r[NICPROG_MAX_STAGES], s;

	nicprog_part_stage_props(p);
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
