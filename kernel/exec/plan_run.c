// SPDX-License-Identifier: GPL-2.0
/*
 * Running plans on the interpreter: the environment a plan's code meets
 * (its tables, engines, clock and events, through &nicprog_exec_ops), the
 * tail calls a finished run asks for, and the lookaside kernels of the
 * job engine. Drivers that run a plan's code on the host CPU -- a
 * simulated NIC, a driver that leaves a stage uninterpreted -- call these;
 * a driver that translates every stage and runs it on its own cores
 * needs none of them and does not load this module.
 *
 * The module depends on the core (nicprog.ko) and never the other way:
 * what it needs of the core's plans, tables and kernels is exported to
 * the NICPROG_INTERNAL namespace.
 */
#include <linux/bpf.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/timekeeping.h>

#include "../nicprog.h"
#include "../offload/offload.h"
#include "plans.h"

static void *plan_map_lookup(void *priv, u32 map, const void *key)
{
	const struct nicprog_plan *plan = priv;

	return nicprog_table_lookup(plan->tables[map], key);
}

static u64 plan_map_offset(void *priv, u32 map, const void *value, u32 *len)
{
	const struct nicprog_plan *plan = priv;

	return nicprog_table_offset(plan->tables[map], value, len);
}

static long plan_map_update(void *priv, u32 map, const void *key,
			    const void *value, u64 flags)
{
	const struct nicprog_plan *plan = priv;

	return nicprog_table_update(plan->tables[map], key, value, flags);
}

static long plan_map_delete(void *priv, u32 map, const void *key)
{
	const struct nicprog_plan *plan = priv;

	return nicprog_table_delete(plan->tables[map], key);
}

static u64 plan_ktime_ns(void *priv)
{
	return ktime_get_ns();
}

static u32 plan_prandom(void *priv)
{
	return get_random_u32();
}

static s64 plan_accel(void *priv, u32 afn, struct nicprog_exec_pkt *pkt,
		      const u64 *args, u64 *ret)
{
	struct nicprog_plan *plan = priv;
	u32 t = nicprog_accel_fn_type(afn);

	/* the executor runs the body: the same result, on the core */
	if (t < __NICPROG_ACCEL_MAX && plan->lo.body16[t] &&
	    nicprog_share_body(plan->lo.body16[t],
			       atomic_inc_return(&plan->share_turn[t])))
		return -EAGAIN;
	return plan->nd->nic->ops->accel_run(plan->nd, afn, pkt, args, ret);
}

/* bpf_xdp_copy() of the frame as the executor holds it. */
static unsigned long plan_pkt_copy(void *dst, const void *src,
				   unsigned long off, unsigned long len)
{
	const struct nicprog_exec_pkt *pkt = src;

	memcpy(dst, pkt->buf + pkt->data + off, len);
	return 0;
}

/*
 * bpf_perf_event_output() from the NIC, into the host's PERF_EVENT_ARRAY,
 * as nfp delivers its programs' events: net/core/filter.c's
 * bpf_xdp_event_output() with the executor's frame. The map is one of the
 * program's (the offload core lets a device-bound program use a perf event
 * array of the host); the program holds it while the plan runs.
 */
static long prog_event_output(const struct nicprog_prog *np, u32 map,
			      u64 flags, const void *data, u64 size,
			      struct nicprog_exec_pkt *pkt)
{
	u64 pkt_size = (flags & BPF_F_CTXLEN_MASK) >> 32;

	if (flags & ~(BPF_F_CTXLEN_MASK | BPF_F_INDEX_MASK))
		return -EINVAL;
	if (pkt_size > pkt->data_end - pkt->data)
		return -EFAULT;
	return bpf_event_output(np->maps[map], flags, (void *)data, size, pkt,
				pkt_size, plan_pkt_copy);
}

static long plan_event_output(void *priv, u32 map, u64 flags,
			      const void *data, u64 size,
			      struct nicprog_exec_pkt *pkt)
{
	const struct nicprog_plan *plan = priv;

	return prog_event_output(plan->prog->aux->offload->dev_priv, map,
				 flags, data, size, pkt);
}

static const struct nicprog_exec_ops nicprog_plan_exec_ops = {
	.map_lookup	= plan_map_lookup,
	.map_offset	= plan_map_offset,
	.map_update	= plan_map_update,
	.map_delete	= plan_map_delete,
	.ktime_ns	= plan_ktime_ns,
	.prandom	= plan_prandom,
	.accel		= plan_accel,
	.event_output	= plan_event_output,
};

/*
 * The host part of a partial plan: same tables, no engines, and the
 * helpers only the host has.
 */
const struct nicprog_exec_ops nicprog_plan_host_ops = {
	.map_lookup	= plan_map_lookup,
	.map_update	= plan_map_update,
	.map_delete	= plan_map_delete,
	.ktime_ns	= plan_ktime_ns,
	.prandom	= plan_prandom,
	.event_output	= plan_event_output,
	.host_call	= nicprog_plan_host_call,
};

/*
 * A tail call's program (nicprog_plan_tail()): its own tables and events,
 * no engines (an engine call runs its BPF body), no host helpers.
 */
static void *tail_map_lookup(void *priv, u32 map, const void *key)
{
	const struct nicprog_prog *np = priv;

	return nicprog_table_lookup(np->tables[map], key);
}

static u64 tail_map_offset(void *priv, u32 map, const void *value, u32 *len)
{
	const struct nicprog_prog *np = priv;

	return nicprog_table_offset(np->tables[map], value, len);
}

static long tail_map_update(void *priv, u32 map, const void *key,
			    const void *value, u64 flags)
{
	const struct nicprog_prog *np = priv;

	return nicprog_table_update(np->tables[map], key, value, flags);
}

static long tail_map_delete(void *priv, u32 map, const void *key)
{
	const struct nicprog_prog *np = priv;

	return nicprog_table_delete(np->tables[map], key);
}

static long tail_event_output(void *priv, u32 map, u64 flags,
			      const void *data, u64 size,
			      struct nicprog_exec_pkt *pkt)
{
	return prog_event_output(priv, map, flags, data, size, pkt);
}

static const struct nicprog_exec_ops nicprog_tail_exec_ops = {
	.map_lookup	= tail_map_lookup,
	.map_offset	= tail_map_offset,
	.map_update	= tail_map_update,
	.map_delete	= tail_map_delete,
	.ktime_ns	= plan_ktime_ns,
	.prandom	= plan_prandom,
	.event_output	= tail_event_output,
};

/**
 * nicprog_plan_tail() - follow the tail calls a finished run asked for
 * @plan: the plan that ran
 * @st: the executing core's scratch
 * @pkt: the frame
 * @res: the run's result; replaced by the last program's
 *
 * A run that ended redirecting to a tail call target (the
 * loader's rewrite of bpf_tail_call(), hostmap.c) goes on with the program
 * the PROG_ARRAY entry holds, on the same frame with a fresh stack, as
 * bpf_tail_call() does, at most MAX_TAIL_CALL_CNT in a row; the cycles and
 * instructions add up. An entry emptied since the lookup, one holding a
 * program the NIC does not run, or a 34th tail call aborts the frame: the
 * program that asked has already exited.
 *
 * Context: RCU held, as for the run (a partial plan's host part too).
 */
void nicprog_plan_tail(const struct nicprog_plan *plan,
		       struct nicprog_exec_state *st,
		       struct nicprog_exec_pkt *pkt,
		       struct nicprog_exec_result *res)
{
	struct nicprog_exec_result tail;
	struct nicprog_prog *np;
	u32 n;

	for (n = 0; res->done && res->action == XDP_REDIRECT &&
	     nicprog_tail_target(res->redirect_ifindex); n++) {
		np = n < MAX_TAIL_CALL_CNT ?
		     nicprog_tail_prog(plan->nd->nic, res->redirect_ifindex) : NULL;
		if (!np) {
			res->action = XDP_ABORTED;
			res->redirect_ifindex = 0;
			return;
		}
		nicprog_exec_run(&np->exec, &nicprog_tail_exec_ops, np, st, pkt,
				 &tail);
		tail.cycles += res->cycles;
		tail.insns += res->insns;
		tail.mat_lookups += res->mat_lookups;
		tail.accel_jobs += res->accel_jobs;
		*res = tail;
	}
}

/**
 * nicprog_plan_run() - run a plan on one frame, on the calling NIC core
 * @plan: the plan the driver got in its plan_load op
 * @st: the core's executor scratch
 * @pkt: the frame
 * @res: verdict, cycles and instructions
 *
 * Runs the whole program, whatever the plan's stages -- but for the part
 * a partial plan leaves to the host: there the run stops with @res->done
 * false, its live state in @st->ctx for nicprog_plan_handover().
 *
 * Context: the caller holds rcu_read_lock() across the call and keeps
 * @plan installed until a grace period after it stopped using it.
 */
void nicprog_plan_run(const struct nicprog_plan *plan,
		      struct nicprog_exec_state *st,
		      struct nicprog_exec_pkt *pkt,
		      struct nicprog_exec_result *res)
{
	if (!plan->run_stage) {
		nicprog_exec_run(&plan->exec, &nicprog_plan_exec_ops,
				 (void *)plan, st, pkt, res);
	} else {
		nicprog_exec_start(&st->ctx, pkt);
		nicprog_exec_resume(&plan->run_exec, &nicprog_plan_exec_ops,
				    (void *)plan, st, pkt, &st->ctx, res);
	}
	nicprog_plan_tail(plan, st, pkt, res);
}
EXPORT_SYMBOL_GPL(nicprog_plan_run);

/**
 * nicprog_plan_start() - begin a staged run of a plan on one frame
 * @plan: the plan
 * @ctx: the run's live state, which travels with the frame between stages
 * @pkt: the frame; it must not move until the run is done
 *
 * Context: any.
 */
void nicprog_plan_start(const struct nicprog_plan *plan,
			struct nicprog_exec_ctx *ctx,
			struct nicprog_exec_pkt *pkt)
{
	nicprog_exec_start(ctx, pkt);
}
EXPORT_SYMBOL_GPL(nicprog_plan_start);

/**
 * nicprog_plan_resume() - run the stage @ctx is at
 * @plan: the plan
 * @st: the core's executor scratch
 * @pkt: the frame
 * @ctx: the live state; on return, where the next stage resumes
 * @res: what the stage did; @res->done once the program finished
 *
 * Context: as nicprog_plan_run(); a run may span several RCU read-side
 * sections only if the plan stays installed in between (the driver drops
 * runs in flight when it unloads a plan).
 */
void nicprog_plan_resume(const struct nicprog_plan *plan,
			 struct nicprog_exec_state *st,
			 struct nicprog_exec_pkt *pkt,
			 struct nicprog_exec_ctx *ctx,
			 struct nicprog_exec_result *res)
{
	nicprog_exec_resume(&plan->exec, &nicprog_plan_exec_ops, (void *)plan,
			    st, pkt, ctx, res);
	/* the last stage's core runs the tail calls */
	nicprog_plan_tail(plan, st, pkt, res);
}
EXPORT_SYMBOL_GPL(nicprog_plan_resume);

/**
 * nicprog_plan_resume_with() - run the stage @ctx is at, translated
 * @plan: the plan
 * @run: the driver's runner of its translations
 * @st: the core's executor scratch
 * @pkt: the frame
 * @ctx: the live state; on return, where the next stage resumes
 * @res: what the stage did; @res->done once the program finished
 *
 * For a driver that runs its translations on the host CPU, as a simulated
 * NIC does: @run gets the stage's image and the plan's environment (its
 * tables, engines, clock, events); a stage the driver left to the
 * interpreter runs as nicprog_plan_resume() runs it, and the last stage's
 * core runs the tail calls. A one-stage plan starts with
 * nicprog_plan_start() as a staged one does.
 *
 * Context: as nicprog_plan_resume().
 */
void nicprog_plan_resume_with(const struct nicprog_plan *plan,
			      nicprog_stage_run_t run,
			      struct nicprog_exec_state *st,
			      struct nicprog_exec_pkt *pkt,
			      struct nicprog_exec_ctx *ctx,
			      struct nicprog_exec_result *res)
{
	const void *image = nicprog_plan_stage_image(plan, ctx->stage);

	if (!image) {
		nicprog_plan_resume(plan, st, pkt, ctx, res);
		return;
	}
	run(image, &nicprog_plan_exec_ops, (void *)plan, st, pkt, ctx, res);
	nicprog_plan_tail(plan, st, pkt, res);
}
EXPORT_SYMBOL_GPL(nicprog_plan_resume_with);

/**
 * nicprog_kernel_run() - run a kernel on a job's frame on the calling CPU
 * @k: the kernel (&nicprog_job_ops.run's)
 * @cost: cycles per instruction class of the core that runs it
 * @lat_pkt: extra cycles of an access to the frame (the job's windows)
 * @st: the core's executor scratch
 * @pkt: the frame
 * @res: what the run did
 *
 * For a driver that simulates its cores: the executor, as NIC cores run
 * plans. Context: any; does not sleep.
 */
void nicprog_kernel_run(const struct nicprog_kernel *k, const u16 *cost,
			u32 lat_pkt, struct nicprog_exec_state *st,
			struct nicprog_exec_pkt *pkt,
			struct nicprog_exec_result *res)
{
	static const struct nicprog_exec_ops ops = {};
	struct nicprog_exec_prog exec = *nicprog_kernel_exec(k);

	memcpy(exec.cost, cost, sizeof(exec.cost));
	exec.lat_pkt = lat_pkt;
	nicprog_exec_run(&exec, &ops, NULL, st, pkt, res);
}
EXPORT_SYMBOL_GPL(nicprog_kernel_run);

MODULE_DESCRIPTION("nicprog: the NIC-core eBPF interpreter, for drivers that run plans on the host CPU");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(NICPROG_INTERNAL);
