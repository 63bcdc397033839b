// SPDX-License-Identifier: GPL-2.0
/*
 * What the offline fuzzers share: a program that passed its checks is
 * planned as nicprog-plan plans it -- the IR, a layout of a shape and
 * budget the input picks, with and without the host taking what the NIC
 * cannot hold -- and everything freed, so that the sanitizers see every
 * access and every leak. A plan that was made must also be one the
 * kernel could run: the invariants below hold, or the fuzzer stops with
 * the input (abort()).
 */
#include <stdio.h>
#include <stdlib.h>

#include "plan.h"

/* Stop the fuzzer on this input: a plan broke an invariant. */
static void broken(const char *what, unsigned int variant)
{
	fprintf(stderr, "plan invariant broken (variant %#x): %s\n", variant,
		what);
	abort();
}

/*
 * What every made layout keeps (offload_test.c checks the same on
 * generated programs): nicprog_layout_valid() -- stages in range, no edge
 * backwards, no map value pointer or written table across stages, no
 * replicated stage over a shared-mutable or unsteered sharded table,
 * the budget -- and each NIC node in a stage, one core for the single
 * shape, every stage's cores in a row from the first, a latency, and a
 * throughput unless a packet takes a million cycles (its unit is packets
 * per million cycles).
 */
static void plan_check(const struct nicprog_ir *ir,
		       const struct nicprog_layout *lo, u8 shape,
		       unsigned int variant)
{
	const char *why;
	u32 i, s, cores = 0;

	if (!nicprog_layout_valid(ir, lo, &why))
		broken(why, variant);
	for (i = 0; i < ir->n_nodes; i++)
		if ((!lo->node_host || lo->node_host[i] != NICPROG_NODE_HOST) &&
		    lo->node_stage[i] >= lo->n_stages)
			broken("a NIC node outside every stage", variant);
	for (s = 0; s < lo->n_stages; s++) {
		if (!lo->stages[s].replicas)
			broken("a stage on no core", variant);
		if (lo->stages[s].first_core != cores)
			broken("stages' cores not in a row", variant);
		cores += lo->stages[s].replicas;
	}
	if (cores != lo->cores)
		broken("the stages' cores are not the plan's", variant);
	if (shape == NICPROG_SHAPE_SINGLE && lo->cores != 1)
		broken("a single-core plan on more cores", variant);
	/* packets per million cycles: 0 only for a packet slower than that */
	if (!lo->lat || (!lo->tput && lo->lat < 1000000))
		broken("a plan with no latency, or no throughput for a packet under a million cycles",
		       variant);
}

/**
 * fuzz_plan() - plan @in for @lnic as the offline tools do
 * @in: a program whose facts passed their checks
 * @lnic: a validated LNIC
 * @variant: picks the budget and partial offload; every shape is planned
 */
void fuzz_plan(const struct nicprog_ir_input *in,
	       const struct nicprog_lnic *lnic, unsigned int variant)
{
	struct nicprog_host_limits lim = { 0 };
	struct nicprog_lnic_summary sum;
	struct nicprog_layout lo;
	struct nicprog_ir ir;
	const char *why;
	u32 budget, t;
	u64 used = 0;
	u8 shape;

	if (nicprog_ir_build(in, &ir, &why)) {
		nicprog_ir_free(&ir);	/* also on error */
		return;
	}
	nicprog_lnic_summarize(lnic, &sum);
	budget = 1 + (variant >> 4) % min_t(u32, sum.cores, NICPROG_MAX_STAGES);
	/* as nicprog-plan --partial: tables past the NIC's memory go home */
	lim.insn_store = sum.insn_store;
	for (t = 0; t < in->n_tables; t++) {
		if (in->tables[t].bytes > sum.mem_bytes - used)
			lim.host_tables |= BIT_ULL(t);
		else
			used += in->tables[t].bytes;
	}
	/* every shape: a byte of a large input is seldom the one mutated */
	for (shape = 0; shape < __NICPROG_SHAPE_MAX; shape++) {
		if (!nicprog_layout_build(&ir, lnic, shape, budget,
					  variant & 8 ? &lim : NULL, &lo, &why))
			plan_check(&ir, &lo, shape, variant);
		nicprog_layout_free(&lo);	/* also on error */
	}
	nicprog_ir_free(&ir);
}
