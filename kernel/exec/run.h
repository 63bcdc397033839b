/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run in progress, as the interpreter (interp.c) and the translated
 * form (threaded.c) share it: the translated form runs straight-line
 * instructions itself and hands every other one to the interpreter's
 * step, so the two cannot differ on calls, context accesses, atomics,
 * engine calls or MAT regions.
 */
#ifndef _NICPROG_EXEC_RUN_H
#define _NICPROG_EXEC_RUN_H

#include <net/nicprog_exec.h>

struct nicprog_exec_frame {
	u32 ret_pc;
	u64 saved[4];	/* r6..r9 */
	u64 fp;
};

/**
 * struct nicprog_exec_run - the state of one nicprog_exec_resume()
 * @prog: the program
 * @ops: its environment
 * @priv: passed to @ops
 * @st: the core's scratch
 * @tr: @st->trace
 * @pkt: the frame
 * @ctx: the live state handed between stages
 * @res: what the run did so far
 * @regs: @ctx->regs
 * @steps: instructions executed
 * @cycles: cycles so far
 * @depth: call depth, 0 in the main program
 * @in_region: the last instruction was part of a MAT region
 * @frames: callers' saved state, by depth
 */
struct nicprog_exec_run {
	const struct nicprog_exec_prog *prog;
	const struct nicprog_exec_ops *ops;
	void *priv;
	struct nicprog_exec_state *st;
	struct nicprog_exec_trace *tr;
	struct nicprog_exec_pkt *pkt;
	struct nicprog_exec_ctx *ctx;
	struct nicprog_exec_result *res;
	u64 *regs;
	u64 steps;
	u64 cycles;
	u32 depth;
	bool in_region;
	struct nicprog_exec_frame frames[NICPROG_EXEC_MAX_FRAMES];
};

/* nicprog_exec_step()'s results that are not the next instruction */
#define NICPROG_EXEC_STEP_EXIT	0xffffffffU	/* the program returned */
#define NICPROG_EXEC_STEP_BAD	0xfffffffeU	/* @res->error says why */

u32 nicprog_exec_step(struct nicprog_exec_run *r, u32 pc);
bool nicprog_exec_stage_left(const struct nicprog_exec_run *r, u32 pc);
void nicprog_exec_run_end(struct nicprog_exec_run *r, u32 pc, u32 how);
void nicprog_exec_trace_event(struct nicprog_exec_trace *tr, u64 at, u8 kind,
			      u8 unit, u64 len, u64 addr);
bool nicprog_exec_on_stack(const struct nicprog_exec_state *st,
			   const struct nicprog_exec_ctx *ctx, uintptr_t a);
u32 nicprog_exec_mem_latency(const struct nicprog_exec_prog *prog,
			     const struct nicprog_exec_state *st,
			     const struct nicprog_exec_ctx *ctx,
			     const struct nicprog_exec_pkt *pkt, u64 addr);

u64 nicprog_exec_nic_addr(const struct nicprog_exec_ctx *ctx,
			  const struct nicprog_exec_pkt *pkt, u64 addr);

/*
 * What touching @addr costs the run: with a trace an event at @at (the
 * run's cycles when the interpreter reaches the access) for a region the
 * plan placed, at the NIC's address of what it touches; without one the
 * latency of the memory it is in, unless the plan priced every
 * instruction already.
 */
static inline void nicprog_exec_touch(struct nicprog_exec_run *r, u8 region,
				      u64 at, u64 addr)
{
	u64 nic;

	if (r->tr) {
		if (region == NICPROG_EXEC_REGION_NONE ||
		    nicprog_exec_on_stack(r->st, r->ctx, (uintptr_t)addr))
			return;
		nic = nicprog_exec_nic_addr(r->ctx, r->pkt, addr);
		nicprog_exec_trace_event(r->tr, at, NICPROG_EXEC_EV_MEM,
					 region, 0, nic);
	} else if (!r->prog->cycles) {
		r->cycles += nicprog_exec_mem_latency(r->prog, r->st, r->ctx,
						      r->pkt, addr);
	}
}

/**
 * nicprog_exec_run_init() - begin a run from where @ctx is
 * @r: the run
 * @prog: a program that passed nicprog_exec_check()
 * @ops: its environment
 * @priv: passed to @ops
 * @st: the core's scratch
 * @pkt: the frame
 * @ctx: the live state
 * @res: cleared, then filled as the run goes
 */
static inline void nicprog_exec_run_init(struct nicprog_exec_run *r,
					 const struct nicprog_exec_prog *prog,
					 const struct nicprog_exec_ops *ops,
					 void *priv,
					 struct nicprog_exec_state *st,
					 struct nicprog_exec_pkt *pkt,
					 struct nicprog_exec_ctx *ctx,
					 struct nicprog_exec_result *res)
{
	r->prog = prog;
	r->ops = ops;
	r->priv = priv;
	r->st = st;
	r->tr = st->trace;
	r->pkt = pkt;
	r->ctx = ctx;
	r->res = res;
	r->regs = ctx->regs;
	r->steps = 0;
	r->cycles = 0;
	r->depth = 0;
	r->in_region = false;
	memset(res, 0, sizeof(*res));
	res->redirect_ifindex = ctx->redirect_ifindex;
	if (r->tr) {
		r->tr->n = 0;
		r->tr->lost = 0;
	}
}

/*
 * One instruction through the step, within the run's bounds: true when
 * the run stopped there (ended, failed or left the stage), else *@pc is
 * the next instruction.
 */
static inline bool nicprog_exec_step_one(struct nicprog_exec_run *r, u32 *pc)
{
	u32 next;

	if (*pc >= r->prog->len || ++r->steps > NICPROG_EXEC_MAX_STEPS) {
		r->res->error = *pc >= r->prog->len ? -EINVAL : -E2BIG;
		nicprog_exec_run_end(r, *pc, NICPROG_EXEC_STEP_BAD);
		return true;
	}
	next = nicprog_exec_step(r, *pc);
	if (next >= NICPROG_EXEC_STEP_BAD) {
		nicprog_exec_run_end(r, *pc, next);
		return true;
	}
	*pc = next;
	return nicprog_exec_stage_left(r, next);
}

#endif
