/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Between the two files of the interpreter module that run plans: the
 * NIC side (plan_run.c) and the host part of a partial plan (host_run.c).
 */
#ifndef _NICPROG_EXEC_PLANS_H
#define _NICPROG_EXEC_PLANS_H

#include <net/nicprog_exec.h>

struct nicprog_plan;

extern const struct nicprog_exec_ops nicprog_plan_host_ops;

long nicprog_plan_host_call(void *priv, s32 func_id,
			    struct nicprog_exec_pkt *pkt, const u64 *args,
			    u64 *ret);
void nicprog_plan_tail(const struct nicprog_plan *plan,
		       struct nicprog_exec_state *st,
		       struct nicprog_exec_pkt *pkt,
		       struct nicprog_exec_result *res);

#endif /* _NICPROG_EXEC_PLANS_H */
