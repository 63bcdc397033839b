// SPDX-License-Identifier: GPL-2.0
/*
 * Flow inside a function, for the loader's rewrites: the successors of an
 * instruction (globals.c's liveness, xskgate.c's constants, and the slot
 * below), and a free stack slot for the state of the splices (redirect.c,
 * globals.c, loop.c) below every stack address any path of the function
 * can make.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "redirect.h"

/**
 * np_succ() - where control goes after an instruction, inside a function
 * @insns: the program
 * @i: the instruction (not the second half of a 64-bit load)
 * @first: the function's first instruction
 * @end: the instruction after its last
 * @succ: set to the successors in [@first, @end), up to two: the next
 *	instruction (past a 64-bit load; a call returns there) and a jump's
 *	target
 *
 * Return: how many.
 */
u32 np_succ(const struct bpf_insn *insns, u32 i, u32 first, u32 end,
	    u32 *succ)
{
	const struct bpf_insn *in = &insns[i];
	u8 cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
	s64 t[2];
	u32 n = 0, k, c = 0;

	if (np_is_ldimm64(in)) {
		t[n++] = (s64)i + 2;
	} else if (cls == BPF_JMP || cls == BPF_JMP32) {
		if (op == BPF_EXIT)
			return 0;
		if (op == BPF_JA) {
			t[n++] = (s64)i + 1 + in->off;
		} else {
			t[n++] = (s64)i + 1;
			if (op != BPF_CALL)
				t[n++] = (s64)i + 1 + in->off;
		}
	} else {
		t[n++] = (s64)i + 1;
	}
	for (k = 0; k < n; k++)
		if (t[k] >= first && t[k] < end)
			succ[c++] = t[k];
	return c;
}

#define FS_NONE	INT32_MAX	/* a register not pointing into the stack */
#define FS_FLOOR	(-520)		/* below any slot: no room */

/* The lowest stack offsets @in leaves in registers (@off), or reaches. */
static s32 fs_step(const struct bpf_insn *in, s32 *off, s32 spilled)
{
	u8 cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
	s32 *d, lo = 0, r;

	/*
	 * A register above R10 (the field holds 15) is the verifier's to
	 * refuse; the loader reads objects before it: nothing to follow.
	 */
	if (in->dst_reg >= MAX_BPF_REG || in->src_reg >= MAX_BPF_REG)
		cls = BPF_LD;
	d = &off[in->dst_reg < MAX_BPF_REG ? in->dst_reg : BPF_REG_0];
	switch (cls) {
	case BPF_LDX:
		/* a stack pointer spilled may be filled again */
		r = off[in->src_reg];
		*d = r != FS_NONE && BPF_SIZE(in->code) == BPF_DW ? spilled :
		     FS_NONE;
		if (r != FS_NONE)
			lo = r + in->off;
		break;
	case BPF_ST:
	case BPF_STX:
		if (*d != FS_NONE)
			lo = *d + in->off;
		break;
	case BPF_ALU:
	case BPF_ALU64:
		if (cls == BPF_ALU64 && op == BPF_MOV &&
		    BPF_SRC(in->code) == BPF_X)
			*d = in->src_reg == BPF_REG_10 ? 0 : off[in->src_reg];
		else if (cls == BPF_ALU64 && (op == BPF_ADD || op == BPF_SUB) &&
			 BPF_SRC(in->code) == BPF_K && *d != FS_NONE)
			*d = max_t(s64, (s64)*d + (op == BPF_ADD ? in->imm :
						    -(s64)in->imm), FS_FLOOR);
		else if (in->dst_reg != BPF_REG_10)
			*d = FS_NONE;
		break;
	case BPF_LD:
		*d = FS_NONE;
		break;
	case BPF_JMP:
		if (op == BPF_CALL)
			for (r = BPF_REG_0; r <= BPF_REG_5; r++)
				off[r] = FS_NONE;
		break;
	}
	for (r = 0; r < MAX_BPF_REG; r++)
		if (off[r] != FS_NONE && off[r] < lo)
			lo = off[r];
	return lo;
}

/**
 * np_free_slot() - a free stack slot of a function
 * @insns: the program
 * @first: the function's first instruction
 * @end: the instruction after its last
 *
 * Return: an 8-byte aligned offset from R10 below everything the function
 * addresses; the bytes below it are free too, down to -512.
 */
s32 np_free_slot(const struct bpf_insn *insns, u32 first, u32 end)
{
	s32 lo = 0, spilled = FS_NONE, cur[MAX_BPF_REG], (*st)[MAX_BPF_REG], l;
	u32 i, r, k, n, t[2], pass;
	bool changed = true;

	st = malloc((size_t)(end - first) * sizeof(*st));
	if (!st)
		return FS_FLOOR;
	for (i = 0; i < end - first; i++)
		for (r = 0; r < MAX_BPF_REG; r++)
			st[i][r] = FS_NONE;
	st[0][BPF_REG_10] = 0;
	/*
	 * Which registers may point into the stack, and how low, over every
	 * path (a may-analysis: the lowest offset wins where paths meet);
	 * a constant added to any other register is no stack address.
	 */
	for (pass = 0; changed && pass < 64; pass++) {
		changed = false;
		for (i = first; i < end; i++) {
			const struct bpf_insn *in = &insns[i];

			memcpy(cur, st[i - first], sizeof(cur));
			l = fs_step(in, cur, spilled);
			lo = min(lo, l);
			if (BPF_CLASS(in->code) == BPF_STX &&
			    BPF_SIZE(in->code) == BPF_DW &&
			    in->src_reg < MAX_BPF_REG &&
			    cur[in->src_reg] != FS_NONE)
				spilled = min(spilled, cur[in->src_reg]);
			n = np_succ(insns, i, first, end, t);
			for (k = 0; k < n; k++) {
				for (r = 0; r < MAX_BPF_REG; r++) {
					if (cur[r] >= st[t[k] - first][r])
						continue;
					st[t[k] - first][r] = cur[r];
					changed = true;
				}
			}
			if (np_is_ldimm64(in))
				i++;
		}
	}
	free(st);
	if (changed)
		return FS_FLOOR;
	return (lo - 8 - 8) & ~7;
}
