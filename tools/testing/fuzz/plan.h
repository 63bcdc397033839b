/* SPDX-License-Identifier: GPL-2.0 */
/* What the offline fuzzers share: planning a checked program (plan.c). */
#ifndef _NICPROG_FUZZ_PLAN_H
#define _NICPROG_FUZZ_PLAN_H

#include "offload.h"

void fuzz_plan(const struct nicprog_ir_input *in,
	       const struct nicprog_lnic *lnic, unsigned int variant);

#endif
