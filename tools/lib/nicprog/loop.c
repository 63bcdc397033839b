// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_loop() inlined for the NIC.
 *
 * The NIC's cores call no function back from a helper, and Linux 6.1
 * offloads no helper that does. bpf_loop(nr, cb, ctx, flags) is a bounded
 * loop calling a static subprogram, so the loader writes it as one, as
 * the host's verifier does: a call whose flags it knows to be 0 on every
 * path, with one callback, it inlines after verification
 * (inline_bpf_loop(), 6.1 and 6.12 alike), and that inlined loop is what
 * the host then runs -- not kernel/bpf/bpf_iter.c's bpf_loop(), which
 * takes nr as a u32 and returns a 64-bit -E2BIG. So, with the flags the
 * constant 0:
 *
 *	if (nr > BPF_MAX_LOOPS)		w0 = -E2BIG	(64-bit compare, u32 result)
 *	else {
 *		for (i = 0; nr > i; ) {
 *			r0 = cb(i, ctx, 0, 0, 0)
 *			i++
 *			if (r0 != 0)	break		(stopped: i + 1)
 *		}
 *		r0 = i
 *	}
 *
 * with the loop's state (nr, i, ctx) in three stack slots below
 * everything the function addresses (the callback runs in a frame of its
 * own, and R1-R5 die at the call). Other flags are refused: a constant
 * other than 0 makes the call a constant -EINVAL (pass 0), and flags the
 * loader cannot see to be a constant leave whether the host inlines the
 * call to what its verifier knows. The load of the callback's address,
 *
 *	r2 = cb ll			(BPF_PSEUDO_FUNC)
 *
 * becomes r2 = 0: it must feed only this call, in the same straight-line
 * code. The verifier then checks the loop as any bounded loop -- a number
 * of iterations it can bound, since it walks them one by one -- and the
 * offloader counts its trips as it counts any loop's.
 *
 * Other helpers that take a callback (bpf_for_each_map_elem(),
 * bpf_timer_set_callback(), ...) are refused, naming the helper.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "object.h"
#include "redirect.h"

#define LOOP_MAX	(1 << 23)	/* BPF_MAX_LOOPS */
#define LOOP_SLOTS	24		/* nr, i and ctx */

static bool lp_jump(const struct bpf_insn *in)
{
	u8 cls = BPF_CLASS(in->code);

	return cls == BPF_JMP || cls == BPF_JMP32;
}

/* Instructions some jump or call of @o lands on. */
static bool *lp_targets(const struct np_object *o)
{
	bool *t = calloc(o->len + 1, sizeof(*t));
	const struct bpf_insn *in;
	s64 to;
	u32 i;

	if (!t)
		return NULL;
	for (i = 0; i < o->len; i++) {
		in = &o->insns[i];
		if (np_is_ldimm64(in)) {
			i++;
			continue;
		}
		if (!lp_jump(in) || BPF_OP(in->code) == BPF_EXIT ||
		    (BPF_OP(in->code) == BPF_CALL &&
		     in->src_reg != BPF_PSEUDO_CALL))
			continue;
		to = (s64)i + 1 + (BPF_OP(in->code) == BPF_CALL ?
				   in->imm : in->off);
		if (to >= 0 && to <= o->len)
			t[to] = true;
	}
	return t;
}

/*
 * The call that takes the callback loaded at @at (into R2, read by the
 * next call of the straight-line code that follows), or -1 with the
 * helper that does take it in *@helper when there is one.
 */
static s64 lp_consumer(const struct np_object *o, const bool *tgt, u32 at,
		       s32 *helper)
{
	const struct bpf_insn *in;
	u32 j;

	*helper = -1;
	for (j = at + 2; j < o->len; j++) {
		in = &o->insns[j];
		if (tgt[j])
			return -1;
		if (in->code == (BPF_JMP | BPF_CALL)) {
			if (in->src_reg)
				return -1;
			*helper = in->imm;
			return o->insns[at].dst_reg == BPF_REG_2 &&
			       in->imm == BPF_FUNC_loop ? (s64)j : -1;
		}
		if (lp_jump(in))
			return -1;
		if (np_is_ldimm64(in)) {
			if (in->dst_reg == o->insns[at].dst_reg)
				return -1;
			j++;
			continue;
		}
		if (BPF_CLASS(in->code) != BPF_STX &&
		    BPF_CLASS(in->code) != BPF_ST &&
		    in->dst_reg == o->insns[at].dst_reg)
			return -1;
	}
	return -1;
}

static struct bpf_insn lp_ldx(u8 dst, s16 off)
{
	return (struct bpf_insn){ .code = BPF_LDX | BPF_MEM | BPF_DW,
				  .dst_reg = dst, .src_reg = BPF_REG_10,
				  .off = off };
}

static struct bpf_insn lp_stx(s16 off, u8 src)
{
	return (struct bpf_insn){ .code = BPF_STX | BPF_MEM | BPF_DW,
				  .dst_reg = BPF_REG_10, .src_reg = src,
				  .off = off };
}

static struct bpf_insn lp_mov(u8 dst, s32 imm)
{
	return (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K,
				  .dst_reg = dst, .imm = imm };
}

/*
 * The loop replacing the bpf_loop() call at @at, the callback at @cb;
 * the state at @slot (nr), @slot - 8 (i), @slot - 16 (ctx). The call's
 * imm is aimed from @at, as np_splice_apply() reads a splice's calls.
 */
static void lp_splice(u32 at, u32 cb, s32 slot, struct np_splice *sp)
{
	struct bpf_insn *x = sp->insns;
	s16 nr = slot, i = slot - 8, ctx = slot - 16;
	u32 k = 0;

	memset(sp, 0, sizeof(*sp));
	sp->at = at;
	sp->kind = NP_SPLICE_LOOP;
	/* 0: if r1 > BPF_MAX_LOOPS goto e2big (19) */
	x[k++] = (struct bpf_insn){ .code = BPF_JMP | BPF_JGT | BPF_K,
				    .dst_reg = BPF_REG_1, .off = 18,
				    .imm = LOOP_MAX };
	x[k++] = lp_stx(nr, BPF_REG_1);
	x[k++] = lp_mov(BPF_REG_1, 0);
	x[k++] = lp_stx(i, BPF_REG_1);
	x[k++] = lp_stx(ctx, BPF_REG_3);
	/*
	 * 5: loop: if nr <= i goto done (17). The constant i on the right:
	 * 6.1's verifier decides a branch by a constant source register only,
	 * and would walk on, past nr's bound, on the path never taken.
	 */
	x[k++] = lp_ldx(BPF_REG_1, i);
	x[k++] = lp_ldx(BPF_REG_2, nr);
	x[k++] = (struct bpf_insn){ .code = BPF_JMP | BPF_JLE | BPF_X,
				    .dst_reg = BPF_REG_2,
				    .src_reg = BPF_REG_1, .off = 9 };
	x[k++] = lp_ldx(BPF_REG_2, ctx);
	x[k++] = lp_mov(BPF_REG_3, 0);
	x[k++] = lp_mov(BPF_REG_4, 0);
	x[k++] = lp_mov(BPF_REG_5, 0);
	x[k++] = (struct bpf_insn){ .code = BPF_JMP | BPF_CALL,
				    .src_reg = BPF_PSEUDO_CALL,
				    .imm = (s32)cb - (s32)(at + 1) };
	x[k++] = lp_ldx(BPF_REG_1, i);
	x[k++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_ADD | BPF_K,
				    .dst_reg = BPF_REG_1, .imm = 1 };
	x[k++] = lp_stx(i, BPF_REG_1);
	/* 16: if r0 == 0 goto loop (5) */
	x[k++] = (struct bpf_insn){ .code = BPF_JMP | BPF_JEQ | BPF_K,
				    .dst_reg = BPF_REG_0, .off = -12 };
	/* 17: done: r0 = i; goto end */
	x[k++] = lp_ldx(BPF_REG_0, i);
	x[k++] = (struct bpf_insn){ .code = BPF_JMP | BPF_JA, .off = 1 };
	/* 19: e2big, as the inlined loop's BPF_MOV32_IMM */
	x[k++] = (struct bpf_insn){ .code = BPF_ALU | BPF_MOV | BPF_K,
				    .dst_reg = BPF_REG_0, .imm = -E2BIG };
	sp->n = k;
}

/*
 * The constant R4 holds at the call @call -- its last write in the
 * straight-line code before it a move of a constant -- or false.
 */
static bool lp_flags(const struct np_object *o, const bool *tgt, u32 first,
		     u32 call, s32 *flags)
{
	const struct bpf_insn *in;
	u32 j;

	for (j = call; j-- > first;) {
		in = &o->insns[j];
		if (j > first && np_is_ldimm64(&o->insns[j - 1]))
			in = &o->insns[--j];
		if (lp_jump(in))
			return false;
		if (BPF_CLASS(in->code) != BPF_STX &&
		    BPF_CLASS(in->code) != BPF_ST &&
		    in->dst_reg == BPF_REG_4) {
			if (BPF_OP(in->code) != BPF_MOV ||
			    BPF_SRC(in->code) != BPF_K ||
			    (BPF_CLASS(in->code) != BPF_ALU64 &&
			     BPF_CLASS(in->code) != BPF_ALU))
				return false;
			*flags = in->imm;
			return true;
		}
		if (tgt[j])
			return false;
	}
	return false;
}

/* The callback's address load at @at, made r2 = 0; @sp[1] its second half */
static void lp_func_splice(const struct np_object *o, u32 at,
			   struct np_splice *sp)
{
	memset(sp, 0, 2 * sizeof(*sp));
	sp[0].at = at;
	sp[0].kind = NP_SPLICE_FUNC;
	sp[0].n = 2;
	sp[0].insns[0] = (struct bpf_insn){ .code = BPF_LD | BPF_IMM | BPF_DW,
					    .dst_reg = o->insns[at].dst_reg };
	sp[1].at = at + 1;
	sp[1].kind = NP_SPLICE_FUNC;
}

/**
 * np_loop_rewrite() - inline bpf_loop() for the NIC
 * @o: the program as object.c linked it, a callback's address a
 *	BPF_PSEUDO_FUNC load aimed as a call is; the splices are added to
 *	@o->splices, not applied (np_redirect_rewrite() applies them all)
 * @err: why not, on failure
 * @err_len: bytes at @err
 *
 * Return: 0 (nothing to do included), -EOPNOTSUPP naming the callback's
 * helper or why the loop cannot be inlined, -ENOMEM.
 */
int np_loop_rewrite(struct np_object *o, char *err, size_t err_len)
{
	u32 i, first, end, sub, cb;
	const char *name;
	bool *tgt = NULL;
	s32 helper, slot, flags;
	s64 call;
	int ret = 0;

	for (i = 0; i < o->len && !ret; i++) {
		const struct bpf_insn *in = &o->insns[i];

		if (!np_is_ldimm64(in))
			continue;
		if (in->src_reg != BPF_PSEUDO_FUNC) {
			i++;
			continue;
		}
		if (!tgt)
			tgt = lp_targets(o);
		if (!o->splices)
			o->splices = calloc(o->len, sizeof(*o->splices));
		if (!tgt || !o->splices) {
			ret = np_fail(err, err_len, "out of memory");
			break;
		}
		call = lp_consumer(o, tgt, i, &helper);
		name = np_helper_name(helper);
		if (call < 0 && helper != BPF_FUNC_loop) {
			ret = np_fail(err, err_len,
				      "insn %u gives %s a function's address (a callback): the NIC calls no callbacks from helpers but bpf_loop()'s; write the loop as a bounded for loop, or attach the program to the host (xdpdrv)",
				      i, name ?: "a helper");
			break;
		}
		if (call < 0) {
			ret = np_fail(err, err_len,
				      "insn %u: the callback's address is not given straight to bpf_loop() as R2 in the code that follows it, which the loader needs to inline the loop; attach the program to the host (xdpdrv)",
				      i);
			break;
		}
		cb = i + 1 + in->imm;
		np_func_of(o, (u32)call, &first, &end, &sub);
		slot = np_free_slot(o->insns, first, end);
		if (slot - (LOOP_SLOTS - 8) < -512) {
			ret = np_fail(err, err_len,
				      "insn %u: bpf_loop() in function %s, which uses too much of its 512 bytes of stack for the loop the NIC runs (%d more)",
				      (u32)call, o->sub_names[sub],
				      LOOP_SLOTS);
			break;
		}
		if (!lp_flags(o, tgt, first, (u32)call, &flags)) {
			ret = np_fail(err, err_len,
				      "insn %u: bpf_loop()'s flags are not a constant in the code before the call: the host's verifier inlines the call where it knows them to be 0, which changes its results at the edges, so the loader must know too; pass 0",
				      (u32)call);
			break;
		}
		if (flags) {
			ret = np_fail(err, err_len,
				      "insn %u: bpf_loop() with flags %d, which the host answers with -EINVAL without calling back; pass 0",
				      (u32)call, flags);
			break;
		}
		lp_func_splice(o, i, &o->splices[o->n_splices]);
		lp_splice((u32)call, cb, slot, &o->splices[o->n_splices + 2]);
		o->n_splices += 3;
		i++;
	}
	free(tgt);
	return ret;
}
