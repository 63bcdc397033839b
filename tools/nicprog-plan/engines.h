/* SPDX-License-Identifier: GPL-2.0 */
/* The accelerator functions of bpf/nicprog.h, for offline runs. */
#ifndef _NICPROG_PLAN_ENGINES_H
#define _NICPROG_PLAN_ENGINES_H

#include "compat.h"
#include <net/nicprog_exec.h>

u32 np_jhash(const u8 *p, u32 len, u32 seed);
u32 np_jhash2(const u32 *k, u32 n, u32 seed);
int np_engine_run(u32 afn, struct nicprog_exec_pkt *pkt, const u64 *args,
		  u64 *ret);

#endif /* _NICPROG_PLAN_ENGINES_H */
