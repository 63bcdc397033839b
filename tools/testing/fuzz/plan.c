// SPDX-License-Identifier: GPL-2.0
/*
 * What the offline fuzzers share: a program that passed its checks is
 * planned as nicprog-plan plans it -- the IR, a layout of a shape and
 * budget the input picks, with and without the host taking what the NIC
 * cannot hold -- and everything freed, so that the sanitizers see every
 * access and every leak.
 */
#include "plan.h"

/**
 * fuzz_plan() - plan @in for @lnic as the offline tools do
 * @in: a program whose facts passed their checks
 * @lnic: a validated LNIC
 * @variant: picks the shape, the budget and partial offload
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
	nicprog_layout_build(&ir, lnic, variant % __NICPROG_SHAPE_MAX, budget,
			     variant & 8 ? &lim : NULL, &lo, &why);
	nicprog_layout_free(&lo);	/* also on error */
	nicprog_ir_free(&ir);
}
