/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verifier's facts about a program, offline: an abstract interpreter
 * that walks the program the way the Linux 6.1 verifier does and records
 * what kernel/bpf_offload.c's hooks record.
 */
#ifndef _NICPROG_PLAN_ABSINT_H
#define _NICPROG_PLAN_ABSINT_H

#include "object.h"

/**
 * struct np_facts - a program's facts, computed offline
 * @insns: the program, map loads as table indices (as the kernel's)
 * @meta: per instruction
 * @tables: the tables, in the kernel's order (of the instructions that
 *	load them first, whatever order a verifier walks them in)
 * @n_tables: entries in @tables
 * @table_of: the table of each of the object's maps (struct np_object's
 *	order, that of the relocations), NICPROG_MAP_NONE for one the
 *	program never uses
 * @processed: instructions the walk processed
 * @states: states it kept for pruning
 * @took: np_absint_tmpl() only: per conditional jump, the ways the walk
 *	went (NP_TOOK_*); NULL otherwise
 */
struct np_facts {
	struct bpf_insn *insns;
	struct nicprog_insn_meta *meta;
	u8 *took;
	struct nicprog_ir_table tables[NICPROG_MAX_TABLES];
	u32 n_tables;
	u8 table_of[NICPROG_MAX_TABLES];
	u64 processed;
	u64 states;
};

#define NP_TOOK_JUMP	1	/* a conditional jump's target */
#define NP_TOOK_FALL	2	/* the instruction after it */

/* header bytes a template can know */
#define NP_TMPL_BYTES	64

/**
 * struct np_pkt_tmpl - what every frame of one kind has
 * @byte: the known bytes
 * @known: per byte of @byte, 1 if every such frame has it
 * @len_min: the least length of such a frame
 * @len_max: the most; 0 if not known
 */
struct np_pkt_tmpl {
	u8 byte[NP_TMPL_BYTES];
	u8 known[NP_TMPL_BYTES];
	u32 len_min;
	u32 len_max;
};

int np_absint(const struct np_object *o, struct np_facts *f, char *err,
	      size_t err_len);
int np_absint_tmpl(const struct np_object *o, const struct np_pkt_tmpl *t,
		   struct np_facts *f, char *err, size_t err_len);
void np_facts_free(struct np_facts *f);

#endif /* _NICPROG_PLAN_ABSINT_H */
