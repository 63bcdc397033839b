// SPDX-License-Identifier: GPL-2.0
/*
 * A lookup in a host XSKMAP that only gates a redirect to the same socket:
 * the AF_XDP program of libbpf before 5.3, libxdp's xsk_def_xdp_prog_5.3.o
 * and xdp-tutorial's AF_XDP lesson,
 *
 *	if (bpf_map_lookup_elem(&xsks_map, &index))
 *		return bpf_redirect_map(&xsks_map, index, 0);
 *	return XDP_PASS;
 *
 * The NIC cannot look up the host's sockets (redirect.c), but it need not:
 * for a map in one state, the host's program returns XDP_REDIRECT to the
 * socket at index when there is one and XDP_PASS when there is none, which
 * is what bpf_redirect_map(&xsks_map, index, XDP_PASS) returns, and that
 * the NIC hands over to the host, where the host map's entry for the key
 * takes the frame or, missing, XDP_PASS applies (kernel/hostmap.c). The
 * two read the map at different moments -- the host program twice, the
 * hand-over once -- which only a socket bound or closed while a frame is
 * in flight tells apart, as it tells any two runs apart.
 *
 * So such a lookup becomes r0 = 1 (never NULL) and the redirect's action
 * on a miss the verdict the program returns without a socket, when both
 * runs from the lookup -- assuming NULL, assuming not -- are followed to
 * their exit and show that:
 *
 *  - without a socket, the run returns a constant action (XDP_ABORTED,
 *    XDP_DROP, XDP_PASS or XDP_TX);
 *  - with one, the run calls bpf_redirect_map() once, on the same map,
 *    with the key the lookup read and flags 0, and returns its result;
 *  - neither writes memory but the stack, calls anything else, or does
 *    more with the lookup's result than compare it with 0, and every
 *    branch either run meets is decided by constants or by that
 *    comparison;
 *  - the lookup is in the program's main function, whose return is the
 *    verdict (a subprogram's caller could test the value).
 *
 * Registers are followed as constants, stack addresses, the map, the key
 * (its 32 bits, through the sign or zero extension clang writes), the
 * lookup's result and the redirect's; constants reaching the lookup come
 * from a forward pass over the function.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "object.h"
#include "redirect.h"
#include "../../../kernel/exec/run.h"

#define XG_STEPS	256	/* instructions either run may take */

enum xg_kind {
	XG_TOP,		/* not reached yet (the forward pass) */
	XG_UNK,
	XG_CONST,
	XG_FP,		/* r10 + c */
	XG_MAP,		/* the address of map c */
	XG_KEY,		/* the key's 32 bits in the low half */
	XG_KEY_HI,	/* the key shifted up by 32 */
	XG_RESULT,	/* the lookup's result */
	XG_RD,		/* bpf_redirect_map()'s result */
};

struct xg_val {
	u8 kind;
	s64 c;
};

/*
 * Every value of an instruction's 4-bit register fields: the loader reads
 * objects before the verifier refuses a register above R10.
 */
#define XG_REGS	16

struct xg_regs {
	struct xg_val r[XG_REGS];
};

static struct xg_val xg_v(u8 kind, s64 c)
{
	return (struct xg_val){ .kind = kind, .c = c };
}

static bool xg_eq(struct xg_val a, struct xg_val b)
{
	return a.kind == b.kind && a.c == b.c;
}

/* The forward pass's meet: equal values stay, others are unknown. */
static bool xg_meet(struct xg_regs *to, const struct xg_regs *from)
{
	bool changed = false;
	u32 r;

	for (r = 0; r < XG_REGS; r++) {
		if (from->r[r].kind == XG_TOP || xg_eq(to->r[r], from->r[r]))
			continue;
		if (to->r[r].kind == XG_TOP)
			to->r[r] = from->r[r];
		else if (to->r[r].kind != XG_UNK)
			to->r[r] = xg_v(XG_UNK, 0);
		else
			continue;
		changed = true;
	}
	return changed;
}

/* What the forward pass knows after @in: moves and stack addresses. */
static void xg_forward(const struct bpf_insn *in, struct xg_regs *s)
{
	struct xg_val *d = &s->r[in->dst_reg & 0xf];
	u8 cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
	u32 r;

	if (np_is_ldimm64(in)) {
		*d = xg_v(XG_UNK, 0);
		return;
	}
	if (cls == BPF_JMP && op == BPF_CALL) {
		for (r = BPF_REG_0; r <= BPF_REG_5; r++)
			s->r[r] = xg_v(XG_UNK, 0);
		return;
	}
	if (cls == BPF_LDX) {
		*d = xg_v(XG_UNK, 0);
		return;
	}
	if (cls != BPF_ALU64 && cls != BPF_ALU)
		return;
	if (op == BPF_MOV && BPF_SRC(in->code) == BPF_K)
		*d = xg_v(XG_CONST, cls == BPF_ALU64 ? (s64)in->imm :
						       (s64)(u32)in->imm);
	else if (op == BPF_MOV && cls == BPF_ALU64 &&
		 in->src_reg == BPF_REG_10)
		*d = xg_v(XG_FP, 0);
	else if (op == BPF_MOV && cls == BPF_ALU64)
		*d = s->r[in->src_reg & 0xf];
	else if (op == BPF_ADD && cls == BPF_ALU64 &&
		 BPF_SRC(in->code) == BPF_K && d->kind == XG_FP)
		d->c += in->imm;
	else
		*d = xg_v(XG_UNK, 0);
}

/* The registers at @at, as far as moves of constants tell them. */
static int xg_at(const struct np_object *o, u32 first, u32 end, u32 at,
		 struct xg_regs *out)
{
	struct xg_regs *st, cur;
	u32 i, k, n, t[2], pass;
	bool changed = true;

	st = calloc(end - first, sizeof(*st));
	if (!st)
		return -ENOMEM;
	for (i = 0; i < XG_REGS; i++)
		st[0].r[i] = xg_v(XG_UNK, 0);
	st[0].r[BPF_REG_10] = xg_v(XG_FP, 0);
	for (pass = 0; changed && pass < 64; pass++) {
		changed = false;
		for (i = first; i < end; i++) {
			if (st[i - first].r[BPF_REG_10].kind == XG_TOP)
				continue;	/* not reached (or a 2nd half) */
			cur = st[i - first];
			xg_forward(&o->insns[i], &cur);
			n = np_succ(o->insns, i, first, end, t);
			for (k = 0; k < n; k++)
				changed |= xg_meet(&st[t[k] - first], &cur);
		}
	}
	*out = st[at - first];
	free(st);
	return changed ? -E2BIG : 0;
}

/* Bytes a load or store of @code moves. */
static s64 xg_bytes(u8 code)
{
	switch (BPF_SIZE(code)) {
	case BPF_B:	return 1;
	case BPF_H:	return 2;
	case BPF_W:	return 4;
	}
	return 8;
}

/* A conditional jump's outcome on constants, as the NIC's executor decides it */
static bool xg_cond(u8 op, bool w32, u64 x, u64 y)
{
	return w32 ? nicprog_exec_cond32(op, x, y) :
		     nicprog_exec_cond64(op, x, y);
}

/*
 * What an ALU instruction makes of its destination @d (source @sv):
 * false where the run cannot be followed (the lookup's result changed or
 * moved in 32 bits, the frame pointer written).
 */
static bool xg_alu(const struct bpf_insn *in, struct xg_val *d,
		   const struct xg_val *sv)
{
	u8 cls = BPF_CLASS(in->code), op = BPF_OP(in->code);

	if ((d->kind == XG_RESULT && op != BPF_MOV) ||
	    in->dst_reg == BPF_REG_10 ||
	    (BPF_SRC(in->code) == BPF_X && sv->kind == XG_RESULT &&
	     !(op == BPF_MOV && cls == BPF_ALU64)))
		return false;
	if (op == BPF_MOV && BPF_SRC(in->code) == BPF_K)
		*d = xg_v(XG_CONST, cls == BPF_ALU64 ?
			  (s64)in->imm : (s64)(u32)in->imm);
	else if (op == BPF_MOV && cls == BPF_ALU64)
		*d = *sv;
	else if (op == BPF_MOV && sv->kind == XG_KEY)
		*d = *sv;	/* w = w: the 32 bits stay */
	else if (cls == BPF_ALU64 && BPF_SRC(in->code) == BPF_K &&
		 in->imm == 32 && op == BPF_LSH &&
		 d->kind == XG_KEY)
		*d = xg_v(XG_KEY_HI, 0);
	else if (cls == BPF_ALU64 && BPF_SRC(in->code) == BPF_K &&
		 in->imm == 32 && (op == BPF_RSH || op == BPF_ARSH) &&
		 d->kind == XG_KEY_HI)
		*d = xg_v(XG_KEY, 0);
	else if (op == BPF_ADD && cls == BPF_ALU64 &&
		 BPF_SRC(in->code) == BPF_K && d->kind == XG_FP)
		d->c += in->imm;
	else
		*d = xg_v(XG_UNK, 0);
	return true;
}

/*
 * One run from the lookup at @at to its exit, the lookup's result NULL
 * (@null) or not. @key: the key's stack offset. Sets *@rd to the
 * redirect's instruction and *@ret to what the run returns.
 */
static bool xg_run(const struct np_object *o, u32 first, u32 end, u32 at,
		   const struct xg_regs *entry, u32 m, s64 key, bool null,
		   s64 *rd, struct xg_val *ret)
{
	struct xg_regs s = *entry;
	bool key_dirty = false;
	u32 pc = at, steps, r;
	int taken;

	*rd = -1;
	for (steps = 0; steps < XG_STEPS; steps++) {
		const struct bpf_insn *in;
		struct xg_val *d, *sv, y;
		u8 cls, op;

		if (pc == at) {
			/* the lookup itself */
			for (r = BPF_REG_1; r <= BPF_REG_5; r++)
				s.r[r] = xg_v(XG_UNK, 0);
			s.r[BPF_REG_0] = null ? xg_v(XG_CONST, 0) :
						xg_v(XG_RESULT, 0);
			pc++;
			continue;
		}
		if (pc < first || pc >= end)
			return false;
		in = &o->insns[pc];
		cls = BPF_CLASS(in->code);
		op = BPF_OP(in->code);
		d = &s.r[in->dst_reg & 0xf];
		sv = &s.r[in->src_reg & 0xf];
		if (np_is_ldimm64(in)) {
			if (in->src_reg == BPF_PSEUDO_MAP_FD)
				*d = xg_v(XG_MAP, in->imm);
			else if (!in->src_reg)
				*d = xg_v(XG_CONST, (s64)((u64)(u32)in->imm |
						 (u64)in[1].imm << 32));
			else
				*d = xg_v(XG_UNK, 0);
			pc += 2;
			continue;
		}
		switch (cls) {
		case BPF_LDX:
			if (sv->kind == XG_RESULT || BPF_MODE(in->code) != BPF_MEM)
				return false;
			if (sv->kind == XG_FP && sv->c + in->off == key &&
			    BPF_SIZE(in->code) == BPF_W && !key_dirty)
				*d = xg_v(XG_KEY, 0);
			else
				*d = xg_v(XG_UNK, 0);
			break;
		case BPF_ST:
		case BPF_STX:
			/* the stack only, and never the lookup's result */
			if (d->kind != XG_FP || BPF_MODE(in->code) != BPF_MEM ||
			    (cls == BPF_STX && sv->kind == XG_RESULT))
				return false;
			if (d->c + in->off < key + 4 &&
			    d->c + in->off + xg_bytes(in->code) > key)
				key_dirty = true;
			break;
		case BPF_ALU:
		case BPF_ALU64:
			if (!xg_alu(in, d, sv))
				return false;
			break;
		case BPF_JMP:
		case BPF_JMP32:
			if (op == BPF_EXIT) {
				*ret = s.r[BPF_REG_0];
				return true;
			}
			if (op == BPF_JA) {
				pc += in->off + 1;
				continue;
			}
			if (op == BPF_CALL) {
				if (null || *rd >= 0 || in->src_reg ||
				    in->imm != BPF_FUNC_redirect_map ||
				    !xg_eq(s.r[BPF_REG_1], xg_v(XG_MAP, m)) ||
				    s.r[BPF_REG_2].kind != XG_KEY ||
				    !xg_eq(s.r[BPF_REG_3], xg_v(XG_CONST, 0)))
					return false;
				*rd = pc;
				for (r = BPF_REG_1; r <= BPF_REG_5; r++)
					s.r[r] = xg_v(XG_UNK, 0);
				s.r[BPF_REG_0] = xg_v(XG_RD, 0);
				break;
			}
			y = BPF_SRC(in->code) == BPF_K ?
			    xg_v(XG_CONST, in->imm) : *sv;
			if (d->kind == XG_RESULT && y.kind == XG_CONST &&
			    !y.c && cls == BPF_JMP &&
			    (op == BPF_JEQ || op == BPF_JNE))
				taken = (op == BPF_JEQ) == null;
			else if (d->kind == XG_CONST && y.kind == XG_CONST)
				taken = xg_cond(op, cls == BPF_JMP32, d->c, y.c);
			else
				return false;
			if (taken)
				pc += in->off;
			break;
		default:
			return false;
		}
		pc++;
	}
	return false;
}

/**
 * np_xsk_gate() - is a host XSKMAP lookup only a redirect's gate?
 * @o: the program
 * @at: a bpf_map_lookup_elem() call
 * @m: the XSKMAP its R1 holds (@o->maps index)
 * @redirect: set to the bpf_redirect_map() call it gates
 * @miss: set to the action the program returns when it finds no socket
 *
 * See the top of the file.
 *
 * Return: true if the lookup can become r0 = 1 and @redirect's action on
 * a miss @miss.
 */
bool np_xsk_gate(const struct np_object *o, u32 at, u32 m, u32 *redirect,
		 u32 *miss)
{
	struct xg_val with, without;
	struct xg_regs entry;
	u32 first, end, sub;
	s64 rd, rd_null;

	np_func_of(o, at, &first, &end, &sub);
	/* a subprogram's return is no verdict: its caller may test it */
	if (sub)
		return false;
	if (xg_at(o, first, end, at, &entry) ||
	    entry.r[BPF_REG_2].kind != XG_FP)
		return false;
	if (!xg_run(o, first, end, at, &entry, m, entry.r[BPF_REG_2].c, true,
		    &rd_null, &without) ||
	    !xg_run(o, first, end, at, &entry, m, entry.r[BPF_REG_2].c, false,
		    &rd, &with))
		return false;
	if (rd < 0 || with.kind != XG_RD || without.kind != XG_CONST ||
	    without.c < XDP_ABORTED || without.c > XDP_TX)
		return false;
	*redirect = rd;
	*miss = without.c;
	return true;
}
