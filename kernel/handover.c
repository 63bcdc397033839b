// SPDX-License-Identifier: GPL-2.0
/*
 * Partial offload, when a plan is made: the handover points -- where the
 * NIC stops a run and the host resumes it (offload/host.c chose which)
 * -- with the registers and stack slots live there, and a cookie that
 * ties a handover to the plan that wrote it. The run-time half, writing
 * and reading the state and running the host part, is the interpreter
 * module's (exec/host_run.c).
 */
#include <linux/random.h>
#include <linux/slab.h>

#include "nicprog.h"

/**
 * nicprog_handover_init() - the handover points of a partial plan
 * @plan: a plan whose layout has a host part
 * @ir: the program's IR
 *
 * Context: process.
 * Return: 0 or -ENOMEM.
 */
int nicprog_handover_init(struct nicprog_plan *plan, const struct nicprog_ir *ir)
{
	const struct nicprog_layout *lo = &plan->lo;
	const struct nicprog_ir_block *t;
	const struct nicprog_insn_meta *m;
	struct nicprog_exec_live *e;
	u32 *pcs, i, n;

	pcs = kvcalloc(max_t(u32, lo->host_entries, 1), sizeof(*pcs),
		       GFP_KERNEL);
	plan->entries = kvcalloc(max_t(u32, lo->host_entries, 1),
				 sizeof(*plan->entries), GFP_KERNEL);
	if (!pcs || !plan->entries) {
		kvfree(pcs);
		return -ENOMEM;
	}
	/* sorted by pc, as nicprog_exec_live_find() needs them */
	n = nicprog_host_entries(ir, lo, pcs, lo->host_entries);
	for (i = 0; i < n; i++) {
		t = &ir->blocks[ir->insn_block[pcs[i]]];
		m = &ir->in->meta[t->start];
		e = &plan->entries[i];
		e->pc = t->start;
		e->regs = t->live_regs;
		e->ptr_regs = t->live_regs & m->ptr_regs;
		e->slots = t->live_stack;
		e->ptr_slots = t->live_stack & m->ptr_slots;
	}
	kvfree(pcs);
	plan->n_entries = n;
	plan->cookie = get_random_u32();
	return 0;
}

/**
 * nicprog_handover_pc() - where a plan's @i-th handover point is
 * @plan: a partial plan
 * @i: below @plan->n_entries
 *
 * Return: the instruction the host resumes at.
 */
u32 nicprog_handover_pc(const struct nicprog_plan *plan, u32 i)
{
	return plan->entries[i].pc;
}
