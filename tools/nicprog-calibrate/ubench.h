/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/* What nicprog-calibrate's frames tell its micro-benchmarks (ubench.bpf.c). */
#ifndef __NICPROG_UBENCH_H
#define __NICPROG_UBENCH_H

#include <linux/types.h>

#define UB_PARAMS_OFF	14	/* after the Ethernet header */
#define UB_STEPS_MAX	256	/* lookups per frame (a run traces 512 events) */
#define UB_INSNS_LO	16
#define UB_INSNS_HI	(16 + 256)
#define UB_ETH_P	0x88b5	/* IEEE local experimental */

struct ub_params {
	__u32 seed;
	__u32 lines;
	__u32 steps;
	__u32 len;
};

/* One cache line per table entry. */
struct ub_line {
	__u64 word[8];
};

#endif
