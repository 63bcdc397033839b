// SPDX-License-Identifier: GPL-2.0
/*
 * A run's live state as bytes and back, for a run the NIC hands over to
 * the host in the middle (partial offload, kernel/handover.c).
 *
 * The bytes are a header, the live registers and main-frame stack slots
 * of the handover point, then the frame from its XDP metadata to its end.
 * Pointers into the frame buffer, the context and the stack travel as a
 * tag and an offset, so that the receiving side rebases them into its own
 * copies; which values are such pointers the verifier's facts say, per
 * handover point. The reading side trusts nothing: the bytes come from a
 * device, and every field is checked against the handover points.
 */
#include "../offload/compat.h"
#include <net/nicprog_exec.h>

#define NICPROG_HANDOVER_MAGIC	0x3148504eU	/* "NPH1" */

/* Pointer values travel as a tag and an offset. */
#define HO_TAG_SHIFT	60
#define HO_TAG_CTX	1ULL
#define HO_TAG_PKT	2ULL
#define HO_TAG_STACK	3ULL
#define HO_OFF_MASK	((1ULL << HO_TAG_SHIFT) - 1)

/**
 * struct ho_hdr - what the NIC puts in front of a frame it hands over
 *	(host byte order)
 * @magic: NICPROG_HANDOVER_MAGIC
 * @cookie: the plan's; a frame of a replaced plan does not run
 * @redirect_ifindex: bpf_redirect()'s target so far
 * @rx_queue_index: xdp_md.rx_queue_index
 * @hdr_len: bytes of the header and the values; the frame follows
 * @head_reserved: bytes of the buffer no head adjustment may reach
 * @data_meta: frame bounds in the buffer; the frame follows from
 *	@data_meta to @data_end
 * @data: see @data_meta
 * @data_end: see @data_meta
 * @tail_reserved: bytes of the buffer no tail adjustment may reach
 * @buf_len: the NIC's frame buffer, which the host lays out alike
 * @live: the handover point: where the host resumes, which registers
 *	and slots follow and which of them are pointers (tag and offset)
 *
 * The values follow, u64 each, registers then slots, lowest bit first.
 */
struct ho_hdr {
	u32 magic;
	u32 cookie;
	u32 redirect_ifindex;
	u32 rx_queue_index;
	u32 hdr_len;
	/* the frame's buffer from its start to its end */
	u32 head_reserved;
	u32 data_meta;
	u32 data;
	u32 data_end;
	u32 tail_reserved;
	u32 buf_len;
	u32 pad;
	struct nicprog_exec_live live;
};

/*
 * The values a handover may carry, numbered: registers R0-R9, then the
 * main frame's stack slots 0-63 (slot i below the frame pointer).
 */
#define HO_VALS		(BPF_REG_10 + 64)
#define HO_SLOT(ctx, j)	(ARRAY_SIZE((ctx)->stack) - 1 - ((j) - BPF_REG_10))

static bool ho_has(u16 regs, u64 slots, u32 j)
{
	return j < BPF_REG_10 ? regs & BIT(j) : slots & BIT_ULL(j - BPF_REG_10);
}

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

static u32 ho_hdr_len(const struct nicprog_exec_live *lv)
{
	return sizeof(struct ho_hdr) +
	       8 * (hweight16(lv->regs) + hweight64(lv->slots));
}

/**
 * nicprog_exec_live_find() - the handover point at an instruction
 * @lv: handover points, sorted by pc
 * @n: entries in @lv
 * @pc: the instruction
 *
 * Context: any.
 * Return: the point, or NULL.
 */
const struct nicprog_exec_live *
nicprog_exec_live_find(const struct nicprog_exec_live *lv, u32 n, u32 pc)
{
	u32 lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (lv[mid].pc == pc)
			return &lv[mid];
		if (lv[mid].pc < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/**
 * nicprog_exec_state_size() - bytes nicprog_exec_state_out() writes
 * @lv: the handover point the run stopped at
 * @pkt: the frame
 *
 * Context: any.
 * Return: the size.
 */
u32 nicprog_exec_state_size(const struct nicprog_exec_live *lv,
			    const struct nicprog_exec_pkt *pkt)
{
	return ho_hdr_len(lv) + pkt->data_end - pkt->data_meta;
}

/* A pointer of the run as a tag and an offset, or U64_MAX. */
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

/**
 * nicprog_exec_state_out() - write a stopped run's state and frame
 * @lv: the handover point the run stopped at (@lv->pc == @ctx->pc)
 * @cookie: identifies the program and plan to the reader
 * @pkt: the frame
 * @ctx: the run's live state
 * @out: where to write; any alignment
 * @size: bytes at @out
 *
 * Context: any.
 * Return: bytes written; -ENOSPC if @size is too small, -EFAULT if a
 * value @lv says is a pointer points nowhere it can be rebased from.
 */
int nicprog_exec_state_out(const struct nicprog_exec_live *lv, u32 cookie,
			   const struct nicprog_exec_pkt *pkt,
			   const struct nicprog_exec_ctx *ctx,
			   void *out, u32 size)
{
	u32 len = ho_hdr_len(lv), j;
	u8 *val = (u8 *)out + sizeof(struct ho_hdr);
	struct ho_hdr h;
	u64 v;

	if (size < len + pkt->data_end - pkt->data_meta)
		return -ENOSPC;
	h = (struct ho_hdr){
		.magic = NICPROG_HANDOVER_MAGIC, .cookie = cookie,
		.redirect_ifindex = ctx->redirect_ifindex,
		.rx_queue_index = pkt->rx_queue_index, .hdr_len = len,
		.buf_len = pkt->buf_len, .head_reserved = pkt->head_reserved,
		.tail_reserved = pkt->tail_reserved,
		.data_meta = pkt->data_meta, .data = pkt->data,
		.data_end = pkt->data_end, .live = *lv,
	};
	memcpy(out, &h, sizeof(h));
	for (j = 0; j < HO_VALS; j++) {
		if (!ho_has(lv->regs, lv->slots, j))
			continue;
		v = ho_get(ctx, j);
		if (ho_has(lv->ptr_regs, lv->ptr_slots, j)) {
			v = ptr_out(pkt, ctx, v);
			if (v == U64_MAX)
				return -EFAULT;
		}
		memcpy(val, &v, sizeof(v));
		val += 8;
	}
	memcpy(val, pkt->buf + pkt->data_meta, pkt->data_end - pkt->data_meta);
	return len + pkt->data_end - pkt->data_meta;
}

/* A pointer value, rebased into @pkt and @ctx; false if invalid. */
static bool ptr_in(struct nicprog_exec_pkt *pkt, struct nicprog_exec_ctx *ctx,
		   u64 v, u64 *out)
{
	u64 off = v & HO_OFF_MASK;

	switch (v >> HO_TAG_SHIFT) {
	case HO_TAG_CTX:
		if (off)
			return false;
		*out = (u64)(uintptr_t)pkt;
		return true;
	case HO_TAG_PKT:
		if (off > pkt->buf_len)
			return false;
		*out = (u64)(uintptr_t)(pkt->buf + off);
		return true;
	case HO_TAG_STACK:
		if (off > sizeof(ctx->stack))
			return false;
		*out = (u64)(uintptr_t)((u8 *)ctx->stack + off);
		return true;
	}
	return false;
}

/**
 * nicprog_exec_state_in() - read a handed-over run
 * @lv: the handover points the bytes may be of, sorted by pc
 * @n_lv: entries in @lv
 * @cookie: the cookie the bytes must carry
 * @in: nicprog_exec_state_out()'s bytes, any alignment
 * @len: their length
 * @buf: the frame buffer to lay the frame out in
 * @buf_len: its size
 * @pkt: filled: the frame in @buf (ingress_ifindex left 0)
 * @ctx: filled: the run, to resume in stage NICPROG_EXEC_STAGE_HOST
 *
 * Context: any.
 * Return: 0; -ESTALE if the bytes carry another cookie; -EINVAL if they
 * are not a handover at one of @lv (malformed, truncated, a layout @buf
 * cannot hold, a pointer out of bounds), @pkt and @ctx then undefined.
 */
int nicprog_exec_state_in(const struct nicprog_exec_live *lv, u32 n_lv,
			  u32 cookie, const void *in, u32 len, u8 *buf,
			  u32 buf_len, struct nicprog_exec_pkt *pkt,
			  struct nicprog_exec_ctx *ctx)
{
	const u8 *val = (const u8 *)in + sizeof(struct ho_hdr);
	const struct nicprog_exec_live *e;
	struct ho_hdr hd;
	u32 j;
	u64 v;

	if (len < sizeof(hd))
		return -EINVAL;
	memcpy(&hd, in, sizeof(hd));
	if (hd.magic != NICPROG_HANDOVER_MAGIC)
		return -EINVAL;
	if (hd.cookie != cookie)
		return -ESTALE;
	e = nicprog_exec_live_find(lv, n_lv, hd.live.pc);
	/* struct nicprog_exec_live has no padding */
	if (!e || memcmp(&hd.live, e, sizeof(*e)) ||
	    hd.hdr_len != ho_hdr_len(e) || len < hd.hdr_len ||
	    hd.buf_len > buf_len || hd.tail_reserved > hd.buf_len ||
	    hd.head_reserved > hd.data_meta ||
	    hd.data_meta > hd.data || hd.data > hd.data_end ||
	    hd.data_end > hd.buf_len - hd.tail_reserved ||
	    len - hd.hdr_len != hd.data_end - hd.data_meta)
		return -EINVAL;

	*pkt = (struct nicprog_exec_pkt){
		.buf = buf, .buf_len = hd.buf_len,
		.head_reserved = hd.head_reserved,
		.tail_reserved = hd.tail_reserved,
		.data_meta = hd.data_meta, .data = hd.data,
		.data_end = hd.data_end, .rx_queue_index = hd.rx_queue_index,
	};
	memcpy(buf + hd.data_meta, (const u8 *)in + hd.hdr_len,
	       hd.data_end - hd.data_meta);
	memset(ctx, 0, sizeof(*ctx));
	for (j = 0; j < HO_VALS; j++) {
		if (!ho_has(e->regs, e->slots, j))
			continue;
		memcpy(&v, val, sizeof(v));
		val += 8;
		if (ho_has(e->ptr_regs, e->ptr_slots, j) &&
		    !ptr_in(pkt, ctx, v, &v))
			return -EINVAL;
		ho_set(ctx, j, v);
	}
	ctx->regs[BPF_REG_10] = (u64)(uintptr_t)(ctx->stack +
						 ARRAY_SIZE(ctx->stack));
	ctx->pc = e->pc;
	ctx->stage = NICPROG_EXEC_STAGE_HOST;
	ctx->redirect_ifindex = hd.redirect_ifindex;
	return 0;
}
