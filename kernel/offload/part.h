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

/* Is @pat (@len bytes) one of the patterns @t is keyed by? */
static inline bool nicprog_part_pat_in(const s16 *pat, u32 len,
				       const struct nicprog_table_info *t)
{
	size_t n = len * sizeof(*pat);

	return !memcmp(pat, t->key_pkt, n) ||
	       (t->sym && !memcmp(pat, t->key_sym, n));
}

/*
 * Does steering by sharded table @s's key (symmetrically if @s is keyed
 * both ways) put every element of sharded table @t on one core? A
 * symmetric hash serves a table keyed by either of its patterns, or by
 * both; a plain one only a table keyed by its very bytes.
 */
static inline bool
nicprog_part_steers(const struct nicprog_table_info *s,
		    const struct nicprog_table_info *t)
{
	if (s->key_len != t->key_len || (t->sym && !s->sym))
		return false;
	if (!nicprog_part_pat_in(t->key_pkt, t->key_len, s))
		return false;
	return !t->sym || nicprog_part_pat_in(t->key_sym, t->key_len, s);
}

/*
 * The sharded table among @tables whose key steers every sharded one of
 * them (a symmetric key over plain ones it serves), U32_MAX if none is
 * sharded; *@ok false if no one key serves them all.
 */
static inline u32 nicprog_part_steering(const struct nicprog_layout *lo,
					u64 tables, bool *ok)
{
	u32 t, s = U32_MAX;

	*ok = true;
	for (t = 0; t < lo->n_tables; t++)
		if ((tables & BIT_ULL(t)) &&
		    lo->tables[t].cls == NICPROG_TC_SHARDED &&
		    (s == U32_MAX ||
		     (!nicprog_part_steers(&lo->tables[s], &lo->tables[t]) &&
		      nicprog_part_steers(&lo->tables[t], &lo->tables[s]))))
			s = t;
	for (t = 0; t < lo->n_tables && s != U32_MAX; t++)
		if ((tables & BIT_ULL(t)) &&
		    lo->tables[t].cls == NICPROG_TC_SHARDED &&
		    !nicprog_part_steers(&lo->tables[s], &lo->tables[t]))
			*ok = false;
	return s;
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
