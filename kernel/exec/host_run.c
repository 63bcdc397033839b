// SPDX-License-Identifier: GPL-2.0
/*
 * Partial offload, at run time: the NIC runs a plan's prefix and hands the
 * run over to the host, which runs the rest in its driver's receive path,
 * at the point where native XDP runs, with the same executor and the same
 * tables.
 *
 * The executor on the host, not a JIT-compiled host program, because the
 * program's maps are bound to the device: Linux 6.1 refuses a host program
 * that uses an offloaded map, and the tables must stay one.
 *
 * The live state travels in front of the frame, as NICs prepend receive
 * metadata (nfp: the descriptor's meta_len bytes before the packet), in
 * the executor's format (handover.c): a header, the live values at the
 * handover point with pointers as offsets, then the frame. The host checks
 * every field against the plan's handover points (../handover.c) before
 * running: the bytes come from a device.
 */
#include <linux/bpf.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <net/nicprog_compat.h>
#include <net/xdp.h>

#include "../nicprog.h"
#include "plans.h"

/**
 * struct nicprog_host - the host's scratch for running host parts
 * @st: the executor's scratch
 * @ctx: the run's live state
 * @pkt: the frame's bounds in @buf
 * @buf_len: size of @buf
 * @buf: the host's copy of the frame buffer
 */
struct nicprog_host {
	struct nicprog_exec_state st;
	struct nicprog_exec_ctx ctx;
	struct nicprog_exec_pkt pkt;
	u32 buf_len;
	u8 buf[];
};

/* The handover point a stopped run is at, or NULL. */
static const struct nicprog_exec_live *
handover_point(const struct nicprog_plan *plan,
	       const struct nicprog_exec_ctx *ctx)
{
	if (ctx->stage != NICPROG_EXEC_STAGE_HOST)
		return NULL;
	return nicprog_exec_live_find(plan->entries, plan->n_entries, ctx->pc);
}

/**
 * nicprog_plan_handover_size() - bytes a handover of a run takes
 * @plan: the plan
 * @pkt: the frame
 * @ctx: the run, stopped where the host takes over
 *
 * Context: any.
 * Return: the size nicprog_plan_handover() needs, or 0 if the run is not
 * at a handover point of @plan.
 */
u32 nicprog_plan_handover_size(const struct nicprog_plan *plan,
			       const struct nicprog_exec_pkt *pkt,
			       const struct nicprog_exec_ctx *ctx)
{
	const struct nicprog_exec_live *lv = handover_point(plan, ctx);

	return lv ? nicprog_exec_state_size(lv, pkt) : 0;
}
EXPORT_SYMBOL_GPL(nicprog_plan_handover_size);

/**
 * nicprog_plan_handover() - write a run's handover to the host
 * @plan: the plan
 * @pkt: the frame
 * @ctx: the run, stopped where the host takes over
 *	(ctx->stage == NICPROG_EXEC_STAGE_HOST)
 * @out: where to write: the state, then the frame; any alignment
 * @size: bytes at @out, nicprog_plan_handover_size() or more
 *
 * The driver passes the bytes to its host side, which gives them to
 * nicprog_plan_host_run() under the same plan.
 *
 * Context: any; a NIC core.
 * Return: bytes written, -EINVAL if the run is not at a handover point,
 * -ENOSPC if @size is too small, -EFAULT if a pointer of the run points
 * nowhere the host can rebase (the facts of the verifier exclude it).
 */
int nicprog_plan_handover(const struct nicprog_plan *plan,
			  const struct nicprog_exec_pkt *pkt,
			  const struct nicprog_exec_ctx *ctx,
			  void *out, u32 size)
{
	const struct nicprog_exec_live *lv = handover_point(plan, ctx);

	if (!lv)
		return -EINVAL;
	return nicprog_exec_state_out(lv, plan->cookie, pkt, ctx, out, size);
}
EXPORT_SYMBOL_GPL(nicprog_plan_handover);

/**
 * nicprog_host_alloc() - scratch for running host parts on one context
 * @buf_len: the largest frame buffer (XDP frame size) the NIC hands over
 *
 * One per context that runs host parts concurrently (a NAPI instance).
 *
 * Context: process.
 * Return: the scratch, or NULL.
 */
struct nicprog_host *nicprog_host_alloc(u32 buf_len)
{
	struct nicprog_host *h;

	h = kvzalloc(struct_size(h, buf, buf_len), GFP_KERNEL);
	if (h)
		h->buf_len = buf_len;
	return h;
}
EXPORT_SYMBOL_GPL(nicprog_host_alloc);

/**
 * nicprog_host_free() - free nicprog_host_alloc()'s scratch
 * @h: the scratch, or NULL
 */
void nicprog_host_free(struct nicprog_host *h)
{
	kvfree(h);
}
EXPORT_SYMBOL_GPL(nicprog_host_free);

/**
 * nicprog_plan_host_call() - &nicprog_exec_ops.host_call of the host part
 * @priv: the plan
 * @func_id: a helper nicprog_exec_host_helper() names
 * @pkt: the frame, in the host's scratch
 * @args: R1-R5; R1 is the context for a helper that takes one
 * @ret: set to the helper's R0
 *
 * Calls the kernel's helper, the one a host XDP program on the port calls,
 * on an xdp_buff over the frame that names the port's receive queue as
 * its rxq (as BPF_PROG_TEST_RUN does for an ingress_ifindex): the
 * device's namespace, FIB, neighbours and MTUs are the host's, so the
 * result is. Other arguments are values and pointers into the frame, the
 * stack and map values, all host memory the verifier bounded; a helper
 * without a context (bpf_trace_printk()) gets them as they are.
 *
 * Context: the host part's run, under rcu_read_lock().
 * Return: 0, or -EOPNOTSUPP if the program did not resolve @func_id.
 */
long nicprog_plan_host_call(void *priv, s32 func_id,
			    struct nicprog_exec_pkt *pkt, const u64 *args,
			    u64 *ret)
{
	const struct nicprog_plan *plan = priv;
	struct net_device *dev = plan->nd->netdev;
	const struct bpf_func_proto *fn;
	struct netdev_rx_queue *rxq;
	struct xdp_buff xdp;
	u32 q;

	fn = plan->host_fn[nicprog_host_fn_index(func_id)];
	if (!fn)
		return -EOPNOTSUPP;
	if (fn->arg1_type != ARG_PTR_TO_CTX) {
		*ret = fn->func(args[0], args[1], args[2], args[3], args[4]);
		return 0;
	}
	q = pkt->rx_queue_index < dev->real_num_rx_queues ?
	    pkt->rx_queue_index : 0;
	rxq = __netif_get_rx_queue(dev, q);
	xdp_init_buff(&xdp, pkt->buf_len, &rxq->xdp_rxq);
	xdp_prepare_buff(&xdp, pkt->buf, pkt->data,
			 pkt->data_end - pkt->data, true);
	xdp.data_meta = pkt->buf + pkt->data_meta;
	*ret = fn->func((u64)(uintptr_t)&xdp, args[1], args[2], args[3],
			args[4]);
	return 0;
}

/**
 * nicprog_plan_host_run() - run the host part of a handed-over frame
 * @plan: the plan the NIC ran, still installed
 * @h: the calling context's scratch
 * @in: nicprog_plan_handover()'s bytes
 * @len: their length
 * @ifindex: xdp_md.ingress_ifindex: the port's
 * @pkt: set to the frame as the program left it (in @h), valid until the
 *	next run on @h
 * @res: the verdict
 *
 * Runs the rest of the program on the calling CPU with the plan's tables,
 * accelerator calls as their BPF bodies. The driver then acts on
 * @res->action as it would on a native XDP program's.
 *
 * Context: softirq or process; the caller holds rcu_read_lock() and keeps
 * @plan installed across the call, as for nicprog_plan_run().
 * Return: 0; -ESTALE if the bytes are of another plan, -EINVAL if they
 * are not a handover of @plan (nothing ran).
 */
int nicprog_plan_host_run(const struct nicprog_plan *plan,
			  struct nicprog_host *h, const void *in, u32 len,
			  u32 ifindex, struct nicprog_exec_pkt **pkt,
			  struct nicprog_exec_result *res)
{
	int err;

	err = nicprog_exec_state_in(plan->entries, plan->n_entries,
				    plan->cookie, in, len, h->buf, h->buf_len,
				    &h->pkt, &h->ctx);
	if (err)
		return err;
	h->pkt.ingress_ifindex = ifindex;
	nicprog_exec_resume(&plan->host_exec, &nicprog_plan_host_ops,
			    (void *)plan, &h->st, &h->pkt, &h->ctx, res);
	if (!res->done) {	/* the host part is closed under successors */
		res->done = true;
		res->action = XDP_ABORTED;
		res->error = -EFAULT;
	}
	nicprog_plan_tail(plan, &h->st, &h->pkt, res);
	*pkt = &h->pkt;
	return 0;
}
EXPORT_SYMBOL_GPL(nicprog_plan_host_run);
