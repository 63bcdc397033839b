// SPDX-License-Identifier: GPL-2.0
/*
 * Partial offload, at run time: the NIC runs a plan's prefix and hands the
 * run over to the host, which runs the rest (offload/host.c chose which)
 * in its driver's receive path, at the point where native XDP runs, with
 * the same executor and the same tables.
 *
 * The executor on the host, not a JIT-compiled host program, because the
 * program's maps are bound to the device: Linux 6.1 refuses a host program
 * that uses an offloaded map, and the tables must stay one.
 *
 * The live state travels in front of the frame, as NICs prepend receive
 * metadata (nfp: the descriptor's meta_len bytes before the packet): a
 * header, the live registers and main-frame stack slots at the handover
 * point, then the frame from its XDP metadata to its end. Pointers into
 * the NIC's copy of the frame, its context and its stack travel as
 * offsets and are rebased into the host's; the verifier's facts say which
 * values are such pointers (host.c refused cuts where they are not
 * known). The host checks every field against the plan before running:
 * the bytes come from a device.
 */
#include <linux/bpf.h>
#include <linux/bsearch.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <asm/unaligned.h>

#include "nicprog.h"

#define NICPROG_HANDOVER_MAGIC	0x3148504eU	/* "NPH1" */

/* Pointer values travel as a tag and an offset. */
#define HO_TAG_SHIFT	60
#define HO_TAG_CTX	1ULL
#define HO_TAG_PKT	2ULL
#define HO_TAG_STACK	3ULL
#define HO_OFF_MASK	((1ULL << HO_TAG_SHIFT) - 1)

/**
 * struct nicprog_handover_hdr - what the NIC puts in front of a frame it
 *	hands over (host byte order)
 * @magic: NICPROG_HANDOVER_MAGIC
 * @cookie: the plan's; a frame of a replaced plan does not run
 * @pc: instruction the host resumes at
 * @redirect_ifindex: bpf_redirect()'s target so far
 * @rx_queue_index: xdp_md.rx_queue_index
 * @hdr_len: bytes of the header and @val; the frame follows
 * @buf_len: the NIC's frame buffer, which the host lays out alike
 * @head_reserved: bytes of it no head adjustment may reach
 * @tail_reserved: bytes of it no tail adjustment may reach
 * @data_meta: frame bounds in the buffer; the frame follows from
 *	@data_meta to @data_end
 * @data: see @data_meta
 * @data_end: see @data_meta
 * @regs: registers in @val, bit per register
 * @ptr_regs: of them, pointers (tag and offset)
 * @slots: main-frame stack slots in @val after the registers, bit i for
 *	bytes [-8(i+1), -8i) of the frame pointer
 * @ptr_slots: of them, pointers
 *
 * The values follow, u64 each, registers then slots, lowest bit first.
 */
struct nicprog_handover_hdr {
	u32 magic;
	u32 cookie;
	u32 pc;
	u32 redirect_ifindex;
	u32 rx_queue_index;
	u16 hdr_len;
	u16 buf_len;
	u16 head_reserved;
	u16 tail_reserved;
	u16 data_meta;
	u16 data;
	u16 data_end;
	u16 regs;
	u16 ptr_regs;
	u16 pad;
	u64 slots;
	u64 ptr_slots;
};

/**
 * struct nicprog_handover_entry - a point where the NIC hands runs over
 * @pc: first instruction of a block the host runs, entered from the NIC
 * @regs: registers live there
 * @ptr_regs: of them, context, packet or stack pointers
 * @slots: main-frame stack slots live there
 * @ptr_slots: of them, spilled pointers
 */
struct nicprog_handover_entry {
	u32 pc;
	u16 regs;
	u16 ptr_regs;
	u64 slots;
	u64 ptr_slots;
};

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

/* entries are sorted by pc (nicprog_host_entries()) */
static int entry_cmp(const void *a, const void *b)
{
	const struct nicprog_handover_entry *x = a, *y = b;

	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/**
 * nicprog_handover_init() - the handover points of a partial plan
 * @plan: a plan whose layout has a host part; its exec set up
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
	struct nicprog_handover_entry *e;
	u32 *pcs, i, n;

	pcs = kvcalloc(max_t(u32, lo->host_entries, 1), sizeof(*pcs),
		       GFP_KERNEL);
	plan->entries = kvcalloc(max_t(u32, lo->host_entries, 1),
				 sizeof(*plan->entries), GFP_KERNEL);
	if (!pcs || !plan->entries) {
		kvfree(pcs);
		return -ENOMEM;
	}
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

static const struct nicprog_handover_entry *
handover_entry(const struct nicprog_plan *plan, u32 pc)
{
	const struct nicprog_handover_entry key = { .pc = pc };

	return bsearch(&key, plan->entries, plan->n_entries,
		       sizeof(*plan->entries), entry_cmp);
}

static u32 handover_hdr_len(const struct nicprog_handover_entry *e)
{
	return sizeof(struct nicprog_handover_hdr) +
	       8 * (hweight16(e->regs) + hweight64(e->slots));
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
	const struct nicprog_handover_entry *e;

	if (ctx->stage != NICPROG_EXEC_STAGE_HOST)
		return 0;
	e = handover_entry(plan, ctx->pc);
	return e ? handover_hdr_len(e) + pkt->data_end - pkt->data_meta : 0;
}
EXPORT_SYMBOL_GPL(nicprog_plan_handover_size);

/* A pointer of the NIC's run as a tag and an offset, or U64_MAX. */
static u64 ptr_out(const struct nicprog_exec_pkt *pkt,
		   const struct nicprog_exec_ctx *ctx, u64 v)
{
	uintptr_t a = (uintptr_t)v;
	uintptr_t stack = (uintptr_t)ctx->stack;
	uintptr_t buf = (uintptr_t)pkt->buf;

	if (a == (uintptr_t)pkt)
		return HO_TAG_CTX << HO_TAG_SHIFT;
	if (a >= buf && a <= buf + pkt->buf_len)
		return HO_TAG_PKT << HO_TAG_SHIFT | (a - buf);
	if (a >= stack && a <= stack + sizeof(ctx->stack))
		return HO_TAG_STACK << HO_TAG_SHIFT | (a - stack);
	return U64_MAX;
}

/*
 * The values a handover may carry, numbered: registers R0-R9, then the
 * main frame's stack slots 0-63 (slot i below the frame pointer).
 */
#define HO_VALS		(BPF_REG_10 + 64)

static bool ho_has(u16 regs, u64 slots, u32 j)
{
	return j < BPF_REG_10 ? regs & BIT(j) : slots & BIT_ULL(j - BPF_REG_10);
}

/* Index in a context's stack of value @j, a slot. */
#define HO_SLOT(ctx, j)	(ARRAY_SIZE((ctx)->stack) - 1 - ((j) - BPF_REG_10))

static u64 ho_get(const struct nicprog_exec_ctx *ctx, u32 j)
{
	return j < BPF_REG_10 ? ctx->regs[j] : ctx->stack[HO_SLOT(ctx, j)];
}

static void ho_set(struct nicprog_exec_ctx *ctx, u32 j, u64 v)
{
	if (j < BPF_REG_10)
		ctx->regs[j] = v;
	else
		ctx->stack[HO_SLOT(ctx, j)] = v;
}

/**
 * nicprog_plan_handover() - write a run's handover to the host
 * @plan: the plan
 * @pkt: the frame
 * @ctx: the run, stopped where the host takes over
 *	(ctx->stage == NICPROG_EXEC_STAGE_HOST)
 * @out: where to write: the state, then the frame
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
	const struct nicprog_handover_entry *e;
	struct nicprog_handover_hdr h;
	u8 *val = (u8 *)out + sizeof(h);
	u32 len, j;
	u64 v;

	if (ctx->stage != NICPROG_EXEC_STAGE_HOST)
		return -EINVAL;
	e = handover_entry(plan, ctx->pc);
	if (!e)
		return -EINVAL;
	len = handover_hdr_len(e);
	if (size < len + pkt->data_end - pkt->data_meta)
		return -ENOSPC;
	h = (struct nicprog_handover_hdr){
		.magic = NICPROG_HANDOVER_MAGIC, .cookie = plan->cookie,
		.pc = ctx->pc, .redirect_ifindex = ctx->redirect_ifindex,
		.rx_queue_index = pkt->rx_queue_index, .hdr_len = len,
		.buf_len = pkt->buf_len, .head_reserved = pkt->head_reserved,
		.tail_reserved = pkt->tail_reserved,
		.data_meta = pkt->data_meta, .data = pkt->data,
		.data_end = pkt->data_end, .regs = e->regs,
		.ptr_regs = e->ptr_regs, .slots = e->slots,
		.ptr_slots = e->ptr_slots,
	};
	memcpy(out, &h, sizeof(h));
	/* @out is a frame buffer: no alignment */
	for (j = 0; j < HO_VALS; j++) {
		if (!ho_has(e->regs, e->slots, j))
			continue;
		v = ho_get(ctx, j);
		if (ho_has(e->ptr_regs, e->ptr_slots, j)) {
			v = ptr_out(pkt, ctx, v);
			if (v == U64_MAX)
				return -EFAULT;
		}
		put_unaligned(v, (u64 *)val);
		val += 8;
	}
	memcpy(val, pkt->buf + pkt->data_meta, pkt->data_end - pkt->data_meta);
	return len + pkt->data_end - pkt->data_meta;
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

/* A value of the NIC's run, rebased into the host's; false if invalid. */
static bool ptr_in(struct nicprog_host *h, u64 v, u64 *out)
{
	u64 off = v & HO_OFF_MASK;

	switch (v >> HO_TAG_SHIFT) {
	case HO_TAG_CTX:
		if (off)
			return false;
		*out = (u64)(uintptr_t)&h->pkt;
		return true;
	case HO_TAG_PKT:
		if (off > h->pkt.buf_len)
			return false;
		*out = (u64)(uintptr_t)(h->buf + off);
		return true;
	case HO_TAG_STACK:
		if (off > sizeof(h->ctx.stack))
			return false;
		*out = (u64)(uintptr_t)((u8 *)h->ctx.stack + off);
		return true;
	}
	return false;
}

/* Restore a handover's run into @h; -EINVAL if the NIC's bytes lie. */
static int handover_in(const struct nicprog_plan *plan, struct nicprog_host *h,
		       const u8 *in, u32 len, u32 ifindex)
{
	const struct nicprog_handover_entry *e;
	struct nicprog_exec_ctx *ctx = &h->ctx;
	const u8 *val = in + sizeof(struct nicprog_handover_hdr);
	struct nicprog_handover_hdr hd;
	u32 j;
	u64 v;

	if (len < sizeof(hd))
		return -EINVAL;
	memcpy(&hd, in, sizeof(hd));
	if (hd.magic != NICPROG_HANDOVER_MAGIC)
		return -EINVAL;
	if (hd.cookie != plan->cookie)
		return -ESTALE;
	e = handover_entry(plan, hd.pc);
	if (!e || hd.regs != e->regs || hd.ptr_regs != e->ptr_regs ||
	    hd.slots != e->slots || hd.ptr_slots != e->ptr_slots ||
	    hd.hdr_len != handover_hdr_len(e) ||
	    hd.buf_len > h->buf_len ||
	    hd.head_reserved > hd.data_meta ||
	    hd.data_meta > hd.data || hd.data > hd.data_end ||
	    hd.data_end + hd.tail_reserved > hd.buf_len ||
	    len != hd.hdr_len + hd.data_end - hd.data_meta)
		return -EINVAL;

	h->pkt = (struct nicprog_exec_pkt){
		.buf = h->buf, .buf_len = hd.buf_len,
		.head_reserved = hd.head_reserved,
		.tail_reserved = hd.tail_reserved,
		.data_meta = hd.data_meta, .data = hd.data,
		.data_end = hd.data_end, .ingress_ifindex = ifindex,
		.rx_queue_index = hd.rx_queue_index,
	};
	memcpy(h->buf + hd.data_meta, in + hd.hdr_len,
	       hd.data_end - hd.data_meta);
	memset(ctx, 0, sizeof(*ctx));
	for (j = 0; j < HO_VALS; j++) {
		if (!ho_has(e->regs, e->slots, j))
			continue;
		v = get_unaligned((const u64 *)val);
		val += 8;
		if (ho_has(e->ptr_regs, e->ptr_slots, j) && !ptr_in(h, v, &v))
			return -EINVAL;
		ho_set(ctx, j, v);
	}
	ctx->regs[BPF_REG_10] = (u64)(uintptr_t)(ctx->stack +
						 ARRAY_SIZE(ctx->stack));
	ctx->pc = hd.pc;
	ctx->stage = NICPROG_EXEC_STAGE_HOST;
	ctx->redirect_ifindex = hd.redirect_ifindex;
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

	err = handover_in(plan, h, in, len, ifindex);
	if (err)
		return err;
	nicprog_exec_resume(&plan->host_exec, &nicprog_plan_host_ops,
			    (void *)plan, &h->st, &h->pkt, &h->ctx, res);
	if (!res->done) {	/* the host part is closed under successors */
		res->done = true;
		res->action = XDP_ABORTED;
		res->error = -EFAULT;
	}
	*pkt = &h->pkt;
	return 0;
}
EXPORT_SYMBOL_GPL(nicprog_plan_host_run);
