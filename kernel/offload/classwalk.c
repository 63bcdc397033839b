// SPDX-License-Identifier: GPL-2.0
/*
 * What a kind of frame can run of a program, from the program alone: the
 * per-class static bracket the plan shows (ip link show, nicprog prog
 * show, netlink) beside the bracket over any frame (bracket.c).
 *
 * A packet class fixes some header bits (an IPv4 UDP frame: EtherType
 * 0x0800, version 4 without options, not a fragment, protocol 17) and a
 * least length (its headers). The program's main function is walked once
 * per class as a forward data-flow over its blocks, not path by path:
 * registers and 8-byte stack slots hold bits known and unknown (a tnum),
 * a packet, context or stack pointer at a known offset, or nothing known.
 * A load of class bytes gives their known bits; a conditional jump whose
 * operands decide it goes one way only; a packet pointer compared with
 * the frame's end is decided where every length of the class decides it.
 * Where paths meet, what differs becomes unknown. A block no walk reaches,
 * and a way out of a block no walk takes, are what no frame of the class
 * runs; nicprog_bracket_live() bounds the rest.
 *
 * It may only leave things out that no frame of the class can do: anything
 * it does not model is unknown. What the program writes into the frame is
 * unknown from the start (every store to the packet, wherever it is, as
 * the verifier bounded it); after a helper that moves or rewrites the
 * frame (bpf_xdp_adjust_*(), bpf_xdp_store_bytes()), nothing of the frame
 * is known. A subprogram's call makes its return and the caller's stack
 * slots it could write unknown; its own blocks are bounded whole.
 *
 * nicprog-plan runs the same code on the same facts (offline.sh compares
 * the plans), and its per-workload class brackets (classbr.c) walk the
 * program path by path with the workload's own bytes: they are narrower,
 * for the frames of one workload; these hold for every frame of a class.
 */
#include "offload.h"
#include "../exec/run.h"

#define CW_BYTES	80	/* header bytes a class may fix */
#define CW_STACK_BYTES	512	/* MAX_BPF_STACK, not in the uapi */

/**
 * struct cw_field - bits a packet class fixes in one header byte
 * @at: the byte's offset in the frame
 * @val: its value in the bits of @mask
 * @mask: the bits fixed
 */
struct cw_field {
	u8 at;
	u8 val;
	u8 mask;
};

/**
 * struct cw_class - a packet class the plan is bracketed for
 * @name: short name, as shown
 * @len_min: its least frame length: its headers
 * @f: the bits it fixes, up to an entry with no @mask
 */
struct cw_class {
	const char *name;
	u16 len_min;
	struct cw_field f[10];
};

/*
 * IPv4 without options (0x45) and not a fragment (MF and the offset clear,
 * DF either way); TCP's flags byte follows its 20-byte header at 34. In
 * the order of nicprog-plan's workload classes (enum np_wl_class).
 */
static const struct cw_class cw_classes[NICPROG_PKT_CLASSES] = {
	[NICPROG_PKT_TCP_SYN] = { "tcp-syn", 54, {
		{ 12, 0x08, 0xff }, { 13, 0x00, 0xff }, { 14, 0x45, 0xff },
		{ 20, 0x00, 0xbf }, { 21, 0x00, 0xff }, { 23, 6, 0xff },
		{ 47, 0x02, 0x12 } } },
	[NICPROG_PKT_TCP] = { "tcp", 54, {
		{ 12, 0x08, 0xff }, { 13, 0x00, 0xff }, { 14, 0x45, 0xff },
		{ 20, 0x00, 0xbf }, { 21, 0x00, 0xff }, { 23, 6, 0xff },
		{ 47, 0x00, 0x02 } } },
	[NICPROG_PKT_UDP] = { "udp", 42, {
		{ 12, 0x08, 0xff }, { 13, 0x00, 0xff }, { 14, 0x45, 0xff },
		{ 20, 0x00, 0xbf }, { 21, 0x00, 0xff }, { 23, 17, 0xff } } },
	[NICPROG_PKT_ICMP_ECHO] = { "icmp-echo", 42, {
		{ 12, 0x08, 0xff }, { 13, 0x00, 0xff }, { 14, 0x45, 0xff },
		{ 20, 0x00, 0xbf }, { 21, 0x00, 0xff }, { 23, 1, 0xff },
		{ 34, 8, 0xff }, { 35, 0, 0xff } } },
	[NICPROG_PKT_ARP] = { "arp", 42, {
		{ 12, 0x08, 0xff }, { 13, 0x06, 0xff } } },
	[NICPROG_PKT_UDP6] = { "udp6", 62, {
		{ 12, 0x86, 0xff }, { 13, 0xdd, 0xff }, { 14, 0x60, 0xf0 },
		{ 20, 17, 0xff } } },
	[NICPROG_PKT_TCP6] = { "tcp6", 74, {
		{ 12, 0x86, 0xff }, { 13, 0xdd, 0xff }, { 14, 0x60, 0xf0 },
		{ 20, 6, 0xff } } },
};

/**
 * nicprog_pkt_class_name() - a packet class's name, as plans show it
 * @cls: enum nicprog_pkt_class
 *
 * Return: the name, or "?" for no class.
 */
const char *nicprog_pkt_class_name(u32 cls)
{
	return cls < NICPROG_PKT_CLASSES ? cw_classes[cls].name : "?";
}

/**
 * nicprog_pkt_class_of() - the packet class of a frame
 * @f: the frame
 * @len: its length
 *
 * Return: the enum nicprog_pkt_class whose bits and least length it has,
 * or NICPROG_PKT_CLASSES for none.
 */
u32 nicprog_pkt_class_of(const u8 *f, u32 len)
{
	const struct cw_class *c;
	u32 i, k;

	for (i = 0; i < NICPROG_PKT_CLASSES; i++) {
		c = &cw_classes[i];
		if (len < c->len_min)
			continue;
		for (k = 0; k < ARRAY_SIZE(c->f) && c->f[k].mask; k++)
			if ((f[c->f[k].at] ^ c->f[k].val) & c->f[k].mask)
				break;
		if (k == ARRAY_SIZE(c->f) || !c->f[k].mask)
			return i;
	}
	return NICPROG_PKT_CLASSES;
}

enum cw_kind {
	CW_SCALAR,	/* bits in v, unknown ones in m */
	CW_PKT,		/* the frame's start plus off */
	CW_PKT_END,
	CW_CTX,
	CW_STACK,	/* the main frame's pointer plus off */
	CW_OTHER,	/* anything: a pointer to anything, a scalar */
};

struct cw_val {
	u8 kind;
	s32 off;
	u64 v;
	u64 m;
};

/* what the walk knows at a point: the slots the program uses, @n_slots */
struct cw_state {
	bool reached;
	bool moved;		/* the frame moved or was rewritten */
	struct cw_val regs[MAX_BPF_REG];
	struct cw_val slots[];
};

struct cw {
	const struct nicprog_ir *ir;
	const struct cw_class *cls;
	u8 kv[CW_BYTES];	/* the class's known bits, and their values */
	u8 km[CW_BYTES];
	bool sub_moves;		/* a subprogram moves or rewrites the frame */
	bool reads_meta;	/* the program loads ctx->data_meta */
	u32 n_slots;		/* 8-byte slots of the deepest stack access */
	size_t stride;		/* bytes of a struct cw_state */
	u8 *in;			/* per main-program block, its state on entry */
	struct cw_state *cur;
	u8 *live;
	u32 *todo;
	u32 n_todo;
	bool *queued;
};

static struct cw_state *cw_in(const struct cw *w, u32 b)
{
	return (struct cw_state *)(w->in + b * w->stride);
}

static const struct cw_val cw_unknown = { CW_SCALAR, 0, 0, ~0ULL };

static struct cw_val cw_kind(u8 kind)
{
	return (struct cw_val){ kind, 0, 0, 0 };
}

static struct cw_val cw_const(u64 v)
{
	return (struct cw_val){ CW_SCALAR, 0, v, 0 };
}

static bool cw_is_const(const struct cw_val *a)
{
	return a->kind == CW_SCALAR && !a->m;
}

static bool cw_same(const struct cw_val *a, const struct cw_val *b)
{
	return a->kind == b->kind && a->off == b->off && a->v == b->v &&
	       a->m == b->m;
}

/* What a value is on either of two paths. */
static struct cw_val cw_join(const struct cw_val *a, const struct cw_val *b)
{
	if (cw_same(a, b))
		return *a;
	if (a->kind == CW_SCALAR && b->kind == CW_SCALAR)
		return cw_unknown;
	return cw_kind(CW_OTHER);
}

/* An offset moved by @by, wrapping as the machine's would: no UB. */
static s32 cw_off(s32 off, u64 by)
{
	return (s32)((u32)off + (u32)by);
}

/* tnum arithmetic (kernel/bpf/tnum.c, which modules cannot call) */
static struct cw_val cw_tn(u64 v, u64 m)
{
	return (struct cw_val){ CW_SCALAR, 0, v & ~m, m };
}

static struct cw_val cw_tn_add(const struct cw_val *a, const struct cw_val *b)
{
	u64 sm = a->m + b->m, sv = a->v + b->v;
	u64 mu = ((sm + sv) ^ sv) | a->m | b->m;

	return cw_tn(sv, mu);
}

static struct cw_val cw_tn_sub(const struct cw_val *a, const struct cw_val *b)
{
	u64 dv = a->v - b->v;
	u64 mu = ((dv + a->m) ^ (dv - b->m)) | a->m | b->m;

	return cw_tn(dv, mu);
}

static struct cw_val cw_tn_trunc(struct cw_val a, u32 bits)
{
	u64 keep = bits == 64 ? ~0ULL : (1ULL << bits) - 1;

	return cw_tn(a.v & keep, a.m & keep);
}

/* Both operands known: the executor's own arithmetic (exec/run.h). */
static u64 cw_alu_const(u8 op, u64 a, u64 b, u32 bits)
{
	return bits == 64 ? nicprog_exec_alu64(op, a, b) :
			    nicprog_exec_alu32(op, a, b);
}

/* dst op= src, scalars: what bits the result is known to have */
static struct cw_val cw_alu_scalar(u8 op, const struct cw_val *d,
				   const struct cw_val *s, u32 bits)
{
	struct cw_val a = cw_tn_trunc(*d, bits), b = cw_tn_trunc(*s, bits);
	u64 k;

	switch (op) {
	case BPF_MOV:
		return b;
	case BPF_ADD:
		return cw_tn_trunc(cw_tn_add(&a, &b), bits);
	case BPF_SUB:
		return cw_tn_trunc(cw_tn_sub(&a, &b), bits);
	case BPF_AND:
		k = a.v & b.v;
		return cw_tn(k, (a.v | a.m) & (b.v | b.m) & ~k);
	case BPF_OR:
		k = a.v | b.v;
		return cw_tn(k, (a.m | b.m) & ~k);
	case BPF_XOR:
		return cw_tn(a.v ^ b.v, a.m | b.m);
	case BPF_LSH:
	case BPF_RSH:
		if (b.m)
			break;
		k = b.v & (bits - 1);
		if (op == BPF_LSH)
			return cw_tn_trunc(cw_tn(a.v << k, a.m << k), bits);
		return cw_tn(a.v >> k, a.m >> k);
	}
	if (!a.m && !b.m)
		return cw_const(cw_alu_const(op, a.v, b.v, bits));
	return cw_tn_trunc(cw_unknown, bits);
}

static void cw_alu(struct cw *w, const struct bpf_insn *in)
{
	struct cw_val *regs = w->cur->regs, *d = &regs[in->dst_reg], s;
	bool alu64 = BPF_CLASS(in->code) == BPF_ALU64, be;
	u8 op = BPF_OP(in->code);
	u32 bits = alu64 ? 64 : 32;

	if (op == BPF_END) {
		/* this host's order: to_le keeps the low bits, to_be swaps */
		if (d->kind != CW_SCALAR || (in->imm != 16 && in->imm != 32 &&
					     in->imm != 64)) {
			*d = cw_unknown;
			return;
		}
		be = BPF_SRC(in->code) == BPF_TO_BE;
		*d = cw_tn(nicprog_exec_bswap(d->v, in->imm, be),
			   nicprog_exec_bswap(d->m, in->imm, be));
		return;
	}
	s = BPF_SRC(in->code) == BPF_X ? regs[in->src_reg] :
	    cw_const((u64)(s64)in->imm);
	if (op == BPF_NEG)
		s = cw_const(0);
	if (d->kind == CW_SCALAR && s.kind == CW_SCALAR) {
		*d = cw_alu_scalar(op, d, &s, bits);
		return;
	}
	if (alu64 && op == BPF_MOV) {
		*d = s;
		return;
	}
	/* a pointer moved by a scalar: a known amount keeps its offset */
	if (alu64 && (op == BPF_ADD || op == BPF_SUB) &&
	    (d->kind == CW_PKT || d->kind == CW_STACK) && cw_is_const(&s)) {
		d->off = cw_off(d->off, op == BPF_ADD ? s.v : -s.v);
		return;
	}
	if (alu64 && op == BPF_ADD && d->kind == CW_SCALAR && cw_is_const(d) &&
	    (s.kind == CW_PKT || s.kind == CW_STACK)) {
		s.off = cw_off(s.off, d->v);
		*d = s;
		return;
	}
	/* pointer minus pointer is a scalar; anything else, anything */
	if (alu64 && op == BPF_SUB && d->kind != CW_SCALAR &&
	    d->kind != CW_OTHER && s.kind != CW_SCALAR && s.kind != CW_OTHER)
		*d = cw_unknown;
	else
		*d = cw_kind(CW_OTHER);
}

/*
 * The bits a load of @size bytes at frame offset @at knows, in this host's
 * order (the executor's), or unknown.
 */
static struct cw_val cw_pkt_load(const struct cw *w, s32 at, u32 size)
{
	u64 v = 0, m = 0;
	u32 i;

	if (w->cur->moved || at < 0 || at + size > CW_BYTES)
		return cw_tn_trunc(cw_unknown, size * 8);
	for (i = 0; i < size; i++) {
		v |= (u64)w->kv[at + i] << (8 * i);
		m |= (u64)(u8)~w->km[at + i] << (8 * i);
	}
	return cw_tn(v, m);
}

/* The slot an 8-byte access at @base + @off is, or NULL. */
static struct cw_val *cw_slot(struct cw *w, const struct cw_val *base,
			      s16 off, u32 size)
{
	s32 at = cw_off(base->off, off);

	if (base->kind != CW_STACK || size != 8 || at >= 0 ||
	    at < -(s32)(8 * w->n_slots) || at % 8)
		return NULL;
	return &w->cur->slots[(-at) / 8 - 1];
}

/*
 * A write of @size bytes at @base + @off that is not a whole slot: the
 * slots it touches are unknown, or all if where is not known.
 */
static void cw_clobber(struct cw *w, const struct cw_val *base, s16 off,
		       u32 size)
{
	s32 at = cw_off(base->off, off), top = cw_off(at, size - 1), k;

	if (base->kind != CW_STACK || top >= 0 || at < -CW_STACK_BYTES) {
		for (k = 0; k < (s32)w->n_slots; k++)
			w->cur->slots[k] = cw_unknown;
		return;
	}
	/* slot k holds bytes [-8(k+1), -8k) */
	for (k = (-top - 1) / 8; k <= (-at - 1) / 8 && k < (s32)w->n_slots;
	     k++)
		w->cur->slots[k] = cw_unknown;
}

static void cw_forget_slots(struct cw *w)
{
	u32 i;

	for (i = 0; i < w->n_slots; i++)
		w->cur->slots[i] = cw_unknown;
}

static void cw_load(struct cw *w, u32 i, const struct bpf_insn *in)
{
	const struct nicprog_insn_meta *m = &w->ir->in->meta[i];
	const struct cw_val *base = &w->cur->regs[in->src_reg];
	u32 size = nicprog_insn_bytes(in->code);
	struct cw_val r = cw_tn_trunc(cw_unknown, size * 8), *slot;
	s32 at = cw_off(base->off, in->off);

	if (m->ptr == NICPROG_PTR_CTX) {
		/* struct xdp_md: a device's program keeps its ctx loads */
		if (base->kind == CW_CTX && !w->cur->moved &&
		    at == offsetof(struct xdp_md, data))
			r = cw_kind(CW_PKT);
		else if (base->kind == CW_CTX &&
			 at == offsetof(struct xdp_md, data_end))
			r = cw_kind(CW_PKT_END);
		else if (base->kind != CW_CTX ||
			 at <= (s32)offsetof(struct xdp_md, data_meta))
			r = cw_kind(CW_OTHER);
	} else if (m->ptr == NICPROG_PTR_PACKET) {
		/*
		 * The verifier's offsets, one on every path: the bytes. Its
		 * offsets are of data pointers only, so not where a path may
		 * load through a data_meta one.
		 */
		if ((s64)m->pkt_hi - m->pkt_lo == size && !w->reads_meta)
			r = cw_pkt_load(w, m->pkt_lo, size);
		else if (base->kind == CW_PKT)
			r = cw_pkt_load(w, at, size);
	} else if (m->ptr == NICPROG_PTR_STACK) {
		slot = cw_slot(w, base, in->off, size);
		if (slot)
			r = *slot;
	}
	w->cur->regs[in->dst_reg] = r;
}

static void cw_store(struct cw *w, u32 i, const struct bpf_insn *in)
{
	const struct nicprog_insn_meta *m = &w->ir->in->meta[i];
	u32 size = nicprog_insn_bytes(in->code);
	const struct cw_val *base;
	struct cw_val *slot;

	/* packet stores: unknown from the start (cw_begin()) */
	if (m->ptr != NICPROG_PTR_STACK)
		return;
	base = &w->cur->regs[in->dst_reg];
	if (BPF_MODE(in->code) == BPF_ATOMIC) {
		if (in->imm & BPF_FETCH)
			w->cur->regs[in->imm == BPF_CMPXCHG ? BPF_REG_0 :
				    in->src_reg] = cw_unknown;
		cw_clobber(w, base, in->off, size);
		return;
	}
	slot = cw_slot(w, base, in->off, size);
	if (!slot)
		cw_clobber(w, base, in->off, size);
	else
		*slot = BPF_CLASS(in->code) == BPF_ST ?
			cw_const((u64)(s64)in->imm) : w->cur->regs[in->src_reg];
}

/* Helpers that move the frame or write into it. */
static bool cw_moves(s32 helper)
{
	switch (helper) {
	case BPF_FUNC_xdp_adjust_head:
	case BPF_FUNC_xdp_adjust_meta:
	case BPF_FUNC_xdp_adjust_tail:
	case BPF_FUNC_xdp_store_bytes:
		return true;
	}
	return false;
}

/* Helpers whose pointer arguments they only read. */
static bool cw_reads_only(s32 helper)
{
	switch (helper) {
	case BPF_FUNC_map_lookup_elem:
	case BPF_FUNC_map_update_elem:
	case BPF_FUNC_map_delete_elem:
	case BPF_FUNC_csum_diff:
		return true;
	}
	return false;
}

static void cw_call(struct cw *w, u32 i, const struct bpf_insn *in)
{
	const struct nicprog_insn_meta *m = &w->ir->in->meta[i];
	struct cw_val *regs = w->cur->regs;
	bool stack = m->stack_args, moves;
	u32 r;

	for (r = BPF_REG_1; r <= BPF_REG_5; r++)
		stack |= regs[r].kind == CW_STACK || regs[r].kind == CW_OTHER;
	if (in->src_reg == BPF_PSEUDO_CALL) {
		moves = w->sub_moves;
	} else {
		/* a helper may call a subprogram back (bpf_loop()) */
		moves = cw_moves(m->helper) ||
			(w->sub_moves && !cw_reads_only(m->helper));
		stack &= !cw_reads_only(m->helper);
	}
	if (stack)
		cw_forget_slots(w);
	if (moves) {
		w->cur->moved = true;
		/* the verifier forgets packet pointers here too */
		for (r = 0; r < MAX_BPF_REG; r++)
			if (regs[r].kind == CW_PKT)
				regs[r] = cw_kind(CW_OTHER);
		for (r = 0; r < w->n_slots; r++)
			if (w->cur->slots[r].kind == CW_PKT)
				w->cur->slots[r] = cw_kind(CW_OTHER);
	}
	for (r = BPF_REG_1; r <= BPF_REG_5; r++)
		regs[r] = cw_unknown;
	regs[BPF_REG_0] = cw_kind(CW_OTHER);
}

/* Least and most of a value, unsigned, on @bits bits; false if unknown. */
static bool cw_range(const struct cw *w, const struct cw_val *a, u32 bits,
		     u64 *lo, u64 *hi)
{
	struct cw_val t;

	switch (a->kind) {
	case CW_SCALAR:
		t = cw_tn_trunc(*a, bits);
		*lo = t.v;
		*hi = t.v | t.m;
		return true;
	case CW_PKT:
		if (bits != 64 || a->off < 0)
			return false;
		*lo = a->off;
		*hi = a->off;
		return true;
	case CW_PKT_END:
		if (bits != 64 || w->cur->moved)
			return false;
		*lo = w->cls->len_min;
		*hi = NICPROG_FRAME_MAX;
		return true;
	}
	return false;
}

/* Whether a conditional jump is taken: 1, 0, or -1 for either. */
static int cw_taken(const struct cw *w, const struct bpf_insn *in)
{
	const struct cw_val *d = &w->cur->regs[in->dst_reg];
	struct cw_val s = BPF_SRC(in->code) == BPF_X ?
			  w->cur->regs[in->src_reg] : cw_const((u64)(s64)in->imm);
	u32 bits = BPF_CLASS(in->code) == BPF_JMP32 ? 32 : 64;
	u64 sign = 1ULL << (bits - 1), alo, ahi, blo, bhi;
	struct cw_val x, y;
	u8 op = BPF_OP(in->code);
	bool pd, ps;

	/* a packet, context or stack pointer is never NULL */
	pd = d->kind == CW_PKT || d->kind == CW_CTX || d->kind == CW_STACK;
	ps = s.kind == CW_PKT || s.kind == CW_CTX || s.kind == CW_STACK;
	if (bits == 64 && (op == BPF_JEQ || op == BPF_JNE) &&
	    ((pd && cw_is_const(&s) && !s.v) ||
	     (ps && cw_is_const(d) && !d->v)))
		return op == BPF_JNE;
	if (!cw_range(w, d, bits, &alo, &ahi) ||
	    !cw_range(w, &s, bits, &blo, &bhi))
		return -1;
	/* two pointers compare only as packet against the frame's end */
	if (d->kind != s.kind && d->kind != CW_SCALAR && s.kind != CW_SCALAR &&
	    !(d->kind == CW_PKT && s.kind == CW_PKT_END) &&
	    !(d->kind == CW_PKT_END && s.kind == CW_PKT))
		return -1;
	/* nor a pointer against a number */
	pd = d->kind == CW_SCALAR;
	ps = s.kind == CW_SCALAR;
	if (pd != ps)
		return -1;
	switch (op) {
	case BPF_JEQ:
	case BPF_JNE:
		if (alo == ahi && blo == bhi && alo == blo)
			return op == BPF_JEQ;
		if (ahi < blo || bhi < alo)
			return op == BPF_JNE;
		if (d->kind == CW_SCALAR) {
			x = cw_tn_trunc(*d, bits);
			y = cw_tn_trunc(s, bits);
			if ((x.v ^ y.v) & ~(x.m | y.m))
				return op == BPF_JNE;
		}
		return -1;
	case BPF_JSET:
		if (d->kind != CW_SCALAR)
			return -1;
		x = cw_alu_scalar(BPF_AND, d, &s, bits);
		if (x.v)
			return 1;
		return x.m ? -1 : 0;
	case BPF_JSGT:
	case BPF_JSGE:
	case BPF_JSLT:
	case BPF_JSLE:
		/* signed as unsigned where neither may be negative */
		if ((ahi & sign) || (bhi & sign))
			return -1;
		op = op == BPF_JSGT ? BPF_JGT : op == BPF_JSGE ? BPF_JGE :
		     op == BPF_JSLT ? BPF_JLT : BPF_JLE;
		break;
	}
	switch (op) {
	case BPF_JGT:
		return alo > bhi ? 1 : ahi <= blo ? 0 : -1;
	case BPF_JGE:
		return alo >= bhi ? 1 : ahi < blo ? 0 : -1;
	case BPF_JLT:
		return ahi < blo ? 1 : alo >= bhi ? 0 : -1;
	case BPF_JLE:
		return ahi <= blo ? 1 : alo > bhi ? 0 : -1;
	}
	return -1;
}

/* The walk's state flows into block @to: joined, queued if it changed. */
static void cw_flow(struct cw *w, u32 to)
{
	struct cw_state *t = cw_in(w, to);
	bool changed = false;
	struct cw_val j;
	u32 r;

	if (!t->reached) {
		memcpy(t, w->cur, w->stride);
		t->reached = true;
		changed = true;
	} else {
		for (r = 0; r < MAX_BPF_REG; r++) {
			j = cw_join(&t->regs[r], &w->cur->regs[r]);
			changed |= !cw_same(&j, &t->regs[r]);
			t->regs[r] = j;
		}
		for (r = 0; r < w->n_slots; r++) {
			j = cw_join(&t->slots[r], &w->cur->slots[r]);
			changed |= !cw_same(&j, &t->slots[r]);
			t->slots[r] = j;
		}
		changed |= w->cur->moved && !t->moved;
		t->moved |= w->cur->moved;
	}
	if (changed && !w->queued[to]) {
		w->queued[to] = true;
		w->todo[w->n_todo++] = to;
	}
}

/* Block @b from its entry state: its ways out taken, into w->live. */
static void cw_block(struct cw *w, u32 bi)
{
	const struct nicprog_ir_block *b = &w->ir->blocks[bi];
	const struct bpf_insn *insns = w->ir->in->insns, *in;
	u8 cls, op;
	u32 i;
	int t;

	memcpy(w->cur, cw_in(w, bi), w->stride);
	w->live[bi] |= NICPROG_BR_RUNS;
	for (i = b->start; i < b->end; i++) {
		in = &insns[i];
		cls = BPF_CLASS(in->code);
		op = BPF_OP(in->code);
		if (in->code == (BPF_LD | BPF_IMM | BPF_DW)) {
			w->cur->regs[in->dst_reg] =
				in->src_reg || i + 1 >= b->end ?
				cw_kind(CW_OTHER) :
				cw_const((u32)in->imm |
					 ((u64)insns[i + 1].imm << 32));
			i++;
		} else if (cls == BPF_ALU || cls == BPF_ALU64) {
			cw_alu(w, in);
		} else if (cls == BPF_LDX) {
			cw_load(w, i, in);
		} else if (cls == BPF_ST || cls == BPF_STX) {
			cw_store(w, i, in);
		} else if (cls == BPF_LD) {
			w->cur->regs[BPF_REG_0] = cw_unknown;	/* LD_ABS/IND */
		} else if ((cls == BPF_JMP || cls == BPF_JMP32) &&
			   op == BPF_CALL) {
			cw_call(w, i, in);
		}
	}
	if (!b->n_succ)
		return;
	in = &insns[b->end - 1];
	if (b->end - 1 > b->start &&
	    insns[b->end - 2].code == (BPF_LD | BPF_IMM | BPF_DW))
		in = &insns[b->end - 2];
	cls = BPF_CLASS(in->code);
	op = BPF_OP(in->code);
	t = -1;
	/* ir.c: a conditional jump's succ[0] is its target, [1] the next */
	if ((cls == BPF_JMP || cls == BPF_JMP32) && op != BPF_JA &&
	    op != BPF_CALL && op != BPF_EXIT && b->n_succ == 2)
		t = cw_taken(w, in);
	if (t != 0) {
		w->live[bi] |= NICPROG_BR_SUCC0;
		cw_flow(w, b->succ[0]);
	}
	if (b->n_succ == 2 && t != 1) {
		w->live[bi] |= NICPROG_BR_SUCC1;
		cw_flow(w, b->succ[1]);
	}
}

/* The class's bits, less those any store or helper may change. */
static void cw_begin(struct cw *w)
{
	const struct nicprog_ir_input *in = w->ir->in;
	const struct nicprog_insn_meta *m;
	const struct bpf_insn *insn;
	s32 lo, hi, k;
	u32 i, b;

	memset(w->kv, 0, sizeof(w->kv));
	memset(w->km, 0, sizeof(w->km));
	for (k = 0; k < (s32)ARRAY_SIZE(w->cls->f) && w->cls->f[k].mask; k++) {
		w->kv[w->cls->f[k].at] = w->cls->f[k].val & w->cls->f[k].mask;
		w->km[w->cls->f[k].at] = w->cls->f[k].mask;
	}
	for (i = 0; i < in->len; i++) {
		insn = &in->insns[i];
		m = &in->meta[i];
		b = w->ir->insn_block[i];
		if (insn->code == (BPF_JMP | BPF_CALL) && !insn->src_reg &&
		    w->ir->blocks[b].sub && cw_moves(m->helper))
			w->sub_moves = true;
		if (BPF_CLASS(insn->code) == BPF_LDX &&
		    m->ptr == NICPROG_PTR_CTX &&
		    insn->off == offsetof(struct xdp_md, data_meta))
			w->reads_meta = true;
		if ((BPF_CLASS(insn->code) != BPF_ST &&
		     BPF_CLASS(insn->code) != BPF_STX) ||
		    m->ptr != NICPROG_PTR_PACKET)
			continue;
		lo = m->pkt_hi > m->pkt_lo ? max(m->pkt_lo, 0) : 0;
		hi = m->pkt_hi > m->pkt_lo ? min(m->pkt_hi, CW_BYTES) :
		     CW_BYTES;
		for (k = lo; k < hi; k++)
			w->km[k] = 0;
	}
}

/*
 * The main frame's 8-byte slots down to its deepest access the verifier
 * saw (loads, stores, helper keys and values): the rest is never read,
 * and a state a block keeps only those.
 */
static u32 cw_stack_slots(const struct nicprog_ir_input *in)
{
	const struct nicprog_insn_meta *m;
	s32 deepest = 0;
	u32 i;

	for (i = 0; i < in->len; i++) {
		m = &in->meta[i];
		if (m->flags & NICPROG_META_STACK)
			deepest = min_t(s32, deepest, m->stack_off);
		if (m->flags & NICPROG_META_KEY)
			deepest = min_t(s32, deepest, m->key_off);
		if (m->flags & NICPROG_META_VAL)
			deepest = min_t(s32, deepest, m->val_off);
	}
	return min_t(u32, DIV_ROUND_UP(-deepest, 8), CW_STACK_BYTES / 8);
}

/**
 * nicprog_class_live() - what a frame of a packet class can run
 * @ir: the program
 * @cls: enum nicprog_pkt_class
 * @live: per block (ir->n_blocks), NICPROG_BR_* set here, for
 *	nicprog_bracket_live(); every block and way of subprograms
 * @n_live: blocks a frame of the class can run, set here
 *
 * Context: process; allocates.
 * Return: 0, or -ENOMEM, -EINVAL for no such class.
 */
int nicprog_class_live(const struct nicprog_ir *ir, u32 cls, u8 *live,
		       u32 *n_live)
{
	const u8 all = NICPROG_BR_RUNS | NICPROG_BR_SUCC0 | NICPROG_BR_SUCC1;
	struct cw *w;
	u32 i, b;
	int err = -ENOMEM;

	if (cls >= NICPROG_PKT_CLASSES)
		return -EINVAL;
	w = kvzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	w->ir = ir;
	w->cls = &cw_classes[cls];
	w->live = live;
	w->n_slots = cw_stack_slots(ir->in);
	w->stride = sizeof(struct cw_state) +
		    w->n_slots * sizeof(struct cw_val);
	w->cur = kvzalloc(w->stride, GFP_KERNEL);
	w->in = kvcalloc(ir->n_main ? ir->n_main : 1, w->stride, GFP_KERNEL);
	w->todo = kvcalloc(ir->n_main ? ir->n_main : 1, sizeof(*w->todo),
			   GFP_KERNEL);
	w->queued = kvcalloc(ir->n_main ? ir->n_main : 1, sizeof(bool),
			     GFP_KERNEL);
	if (!w->cur || !w->in || !w->todo || !w->queued)
		goto out;
	cw_begin(w);
	for (b = 0; b < ir->n_blocks; b++)
		live[b] = b < ir->n_main ? 0 : all;
	/* a facts file's program is not verified: nothing ruled out */
	for (i = 0; i < ir->in->len; i++)
		if (ir->in->insns[i].dst_reg >= MAX_BPF_REG ||
		    ir->in->insns[i].src_reg >= MAX_BPF_REG)
			break;
	if (i < ir->in->len) {
		memset(live, all, ir->n_blocks);
	} else if (ir->n_main) {
		for (i = 0; i < MAX_BPF_REG; i++)
			w->cur->regs[i] = cw_unknown;
		w->cur->regs[BPF_REG_1] = cw_kind(CW_CTX);
		w->cur->regs[BPF_REG_10] = cw_kind(CW_STACK);
		cw_forget_slots(w);
		cw_flow(w, 0);
	}
	/*
	 * Each change climbs a lattice of height three per register and slot
	 * (known, unknown, anything), so the walk ends.
	 */
	while (w->n_todo) {
		b = w->todo[--w->n_todo];
		w->queued[b] = false;
		cw_block(w, b);
	}
	*n_live = 0;
	for (b = 0; b < ir->n_blocks; b++)
		*n_live += !!(live[b] & NICPROG_BR_RUNS);
	err = 0;
out:
	kvfree(w->queued);
	kvfree(w->todo);
	kvfree(w->in);
	kvfree(w->cur);
	kvfree(w);
	return err;
}

/**
 * nicprog_class_brackets() - a plan's static bracket per packet class
 * @ir: the program
 * @lnic: the NIC
 * @lo: the plan, its cores counted; its lo->cls_br set here
 *
 * Context: process; allocates.
 * Return: 0, or -ENOMEM.
 */
int nicprog_class_brackets(const struct nicprog_ir *ir,
			   const struct nicprog_lnic *lnic,
			   struct nicprog_layout *lo)
{
	u8 *live;
	u32 c;
	int err = 0;

	live = kvcalloc(ir->n_blocks ? ir->n_blocks : 1, 1, GFP_KERNEL);
	if (!live)
		return -ENOMEM;
	for (c = 0; c < NICPROG_PKT_CLASSES && !err; c++) {
		err = nicprog_class_live(ir, c, live, &lo->cls_br[c].blocks);
		if (!err)
			err = nicprog_bracket_live(ir, lnic, lo, live,
						   &lo->cls_br[c].br);
	}
	kvfree(live);
	return err;
}
