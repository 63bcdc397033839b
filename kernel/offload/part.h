/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The partitioner's working state, shared by its files: partition.c (the
 * plan, start to finish), mapping.c (engines and MAT stages),
 * replication.c, pipelining.c, and the exhaustive optimum that only tools
 * and tests call (tools/nicprog-plan/optimum.c). Nothing else includes it.
 */
#ifndef _NICPROG_OFFLOAD_PART_H
#define _NICPROG_OFFLOAD_PART_H

#include "offload.h"

/* One plan in the making: owned by the nicprog_layout_*() call that made it. */
struct nicprog_part {
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

/* Is a sharded table keyed as another, so that one steering serves both? */
static inline bool
nicprog_part_same_key(const struct nicprog_table_info *a,
		      const struct nicprog_table_info *b)
{
	return a->key_len == b->key_len &&
	       !memcmp(a->key_pkt, b->key_pkt,
		       a->key_len * sizeof(a->key_pkt[0]));
}

/* A stage's rate per core is replicas / cost: is a slower than b? */
static inline bool nicprog_part_slower(u64 cost_a, u32 r_a, u64 cost_b,
				       u32 r_b)
{
	return cost_a * r_b > cost_b * r_a;	/* costs below 2^58 */
}

/* partition.c */
void nicprog_part_node_tables(struct nicprog_part *p);
int nicprog_part_finish(struct nicprog_part *p, const char **why);

/* mapping.c */
void nicprog_map_mat(const struct nicprog_ir *ir,
		     const struct nicprog_lnic *lnic,
		     const struct nicprog_units_free *avail,
		     struct nicprog_layout *lo);
void nicprog_map_accel(const struct nicprog_ir *ir,
		       const struct nicprog_lnic *lnic,
		       const struct nicprog_units_free *avail,
		       struct nicprog_layout *lo);
void nicprog_map_unused(const struct nicprog_ir *ir,
			struct nicprog_layout *lo);

/* replication.c */
void nicprog_part_stage_props(struct nicprog_part *p);
u64 nicprog_part_evaluate(struct nicprog_part *p, u32 budget);

/* pipelining.c */
void nicprog_pipeline_forced(struct nicprog_part *p, u32 max_stages,
			     u32 rep_budget);
void nicprog_pipeline_auto(struct nicprog_part *p, u32 budget);

#endif /* _NICPROG_OFFLOAD_PART_H */
