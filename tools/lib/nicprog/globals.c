// SPDX-License-Identifier: GPL-2.0
/*
 * Writable global data (.data, .bss, .data.*) as NIC tables.
 *
 * libbpf keeps a section of global variables in a one-element ARRAY map
 * and the program reaches a variable by loading its address directly
 * (BPF_PSEUDO_MAP_VALUE). Linux 6.1 gives device-bound maps no direct
 * value access, so the loader binds the section as the same one-element
 * ARRAY -- which bpftool reads and writes by the name libbpf gives it --
 * and turns each address load
 *
 *	rD = &section + off
 *
 * into the lookup the direct access stands for:
 *
 *	spill the live ones of R0-R5 (but rD) below the function's stack
 *	*(u32 *)(r10 + S) = 0;  r1 = map;  r2 = r10;  r2 += S
 *	r0 = bpf_map_lookup_elem(r1, r2)
 *	if (r0 == 0) { r0 = 0; exit }	(never: key 0 of a 1-element array)
 *	r0 += off;  rD = r0;  restore the spilled registers
 *
 * A register is spilled when it may be read later (backward liveness)
 * and is written on every path here (forward, so that the verifier lets
 * it be stored: a function's arguments are its BTF prototype's). The
 * value is the map's own, so loads, stores and atomics through the
 * pointer need no change, and the pointer the verifier sees is the
 * PTR_TO_MAP_VALUE the direct access gave.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "object.h"
#include "redirect.h"

#define GL_R0_R5	0x3fU
#define GL_R1_R5	0x3eU
#define GL_ALL		0x7ffU

/* The registers @in reads and writes; a call clobbers R0-R5. */
static void gl_use_def(const struct bpf_insn *in, u16 *use, u16 *def)
{
	u8 cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
	u16 d = 1U << (in->dst_reg & 15), s = 1U << (in->src_reg & 15);
	bool x = BPF_SRC(in->code) == BPF_X;

	*use = 0;
	*def = 0;
	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		*def = d;
		if (op == BPF_MOV)
			*use = x ? s : 0;
		else
			*use = d | (x && op != BPF_NEG && op != BPF_END ? s : 0);
		break;
	case BPF_LDX:
		*use = s;
		*def = d;
		break;
	case BPF_ST:
		*use = d;
		break;
	case BPF_STX:
		*use = d | s;
		if (BPF_MODE(in->code) == BPF_ATOMIC && in->imm == BPF_CMPXCHG) {
			*use |= 1;
			*def = 1;
		} else if (BPF_MODE(in->code) == BPF_ATOMIC &&
			   (in->imm & BPF_FETCH)) {
			*def = s;
		}
		break;
	case BPF_LD:
		if (np_is_ldimm64(in)) {
			*def = d;
		} else {		/* LD_ABS, LD_IND */
			*use = GL_ALL;
			*def = GL_R0_R5;
		}
		break;
	case BPF_JMP:
	case BPF_JMP32:
		if (op == BPF_CALL) {
			*use = GL_R1_R5;
			*def = GL_R0_R5;
		} else if (op == BPF_EXIT) {
			*use = 1;
		} else if (op != BPF_JA) {
			*use = d | (x ? s : 0);
		}
		break;
	}
}

/*
 * Per instruction of the function [first, end): the registers live after
 * it and those written on every path to it. @entry: written at entry.
 */
static void gl_flow(const struct bpf_insn *insns, u32 first, u32 end,
		    u16 entry, u16 *live_out, u16 *init_in, bool *reached)
{
	u32 i, k, n, succ[2];
	u16 use, def, in, out;
	bool changed = true;

	for (i = first; i < end; i++) {
		live_out[i] = 0;
		init_in[i] = GL_ALL;
		reached[i] = false;
	}
	while (changed) {	/* may-live, backward: grows to a fixpoint */
		changed = false;
		for (i = end; i-- > first;) {
			if (i > first && np_is_ldimm64(&insns[i - 1]))
				continue;
			n = np_succ(insns, i, first, end, succ);
			for (out = 0, k = 0; k < n; k++) {
				gl_use_def(&insns[succ[k]], &use, &def);
				out |= use | (live_out[succ[k]] & ~def);
			}
			if (out != live_out[i]) {
				live_out[i] = out;
				changed = true;
			}
		}
	}
	init_in[first] = entry;
	reached[first] = true;
	changed = true;
	while (changed) {	/* must-written, forward: shrinks */
		changed = false;
		for (i = first; i < end; i++) {
			if (!reached[i] ||
			    (i > first && np_is_ldimm64(&insns[i - 1])))
				continue;
			gl_use_def(&insns[i], &use, &def);
			out = init_in[i] | def;
			/* after a call R1-R5 are unreadable, R0 its result */
			if (BPF_OP(insns[i].code) == BPF_CALL &&
			    BPF_CLASS(insns[i].code) == BPF_JMP)
				out = (init_in[i] & ~GL_R1_R5) | 1;
			n = np_succ(insns, i, first, end, succ);
			for (k = 0; k < n; k++) {
				in = reached[succ[k]] ? init_in[succ[k]] & out : out;
				if (!reached[succ[k]] || in != init_in[succ[k]]) {
					init_in[succ[k]] = in;
					reached[succ[k]] = true;
					changed = true;
				}
			}
		}
	}
}

/* The splice for the address load at @at; @sp[1] drops its second half. */
static int gl_splice(const struct np_object *o, u32 at, u16 spill, s32 slot,
		     struct np_splice *sp)
{
	const struct bpf_insn *ld = &o->insns[at];
	struct bpf_insn *p = sp[0].insns;
	s32 spill_off[6];
	u32 r, k = 0, n = 0;

	for (r = 0; r < 6; r++) {
		if (!(spill & (1U << r)))
			continue;
		spill_off[r] = slot - 8 * (s32)++k;
		p[n++] = (struct bpf_insn){
			.code = BPF_STX | BPF_MEM | BPF_DW,
			.dst_reg = BPF_REG_10, .src_reg = r,
			.off = spill_off[r] };
	}
	p[n++] = (struct bpf_insn){ .code = BPF_ST | BPF_MEM | BPF_W,
				    .dst_reg = BPF_REG_10, .off = slot };
	p[n++] = (struct bpf_insn){ .code = BPF_LD | BPF_IMM | BPF_DW,
				    .dst_reg = BPF_REG_1,
				    .src_reg = BPF_PSEUDO_MAP_FD,
				    .imm = ld->imm };
	p[n++] = (struct bpf_insn){ 0 };
	p[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_X,
				    .dst_reg = BPF_REG_2,
				    .src_reg = BPF_REG_10 };
	p[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_ADD | BPF_K,
				    .dst_reg = BPF_REG_2, .imm = slot };
	p[n++] = (struct bpf_insn){ .code = BPF_JMP | BPF_CALL,
				    .imm = BPF_FUNC_map_lookup_elem };
	p[n++] = (struct bpf_insn){ .code = BPF_JMP | BPF_JNE | BPF_K,
				    .dst_reg = BPF_REG_0, .off = 2 };
	p[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K,
				    .dst_reg = BPF_REG_0 };
	p[n++] = (struct bpf_insn){ .code = BPF_JMP | BPF_EXIT };
	if (ld[1].imm)
		p[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_ADD | BPF_K,
					    .dst_reg = BPF_REG_0,
					    .imm = ld[1].imm };
	if (ld->dst_reg != BPF_REG_0)
		p[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_X,
					    .dst_reg = ld->dst_reg,
					    .src_reg = BPF_REG_0 };
	for (r = 0; r < 6; r++)
		if (spill & (1U << r))
			p[n++] = (struct bpf_insn){
				.code = BPF_LDX | BPF_MEM | BPF_DW,
				.dst_reg = r, .src_reg = BPF_REG_10,
				.off = spill_off[r] };
	sp[0].at = at;
	sp[0].n = n;
	sp[0].kind = NP_SPLICE_GLOBAL;
	sp[1] = (struct np_splice){ .at = at + 1, .n = 0,
				    .kind = NP_SPLICE_GLOBAL };
	return 0;
}

/**
 * np_globals_rewrite() - turn global data address loads into lookups
 * @o: the program; its loads of writable global data's addresses are
 *	BPF_PSEUDO_MAP_IDX_VALUE with the section's map index as imm and the
 *	offset in the second half (object.c). The splices are added to
 *	@o->splices, not applied (np_redirect_rewrite() applies them all).
 * @err: why not, on failure
 * @err_len: bytes at @err
 *
 * Return: 0, -EOPNOTSUPP naming the instruction, -ENOMEM.
 */
int np_globals_rewrite(struct np_object *o, char *err, size_t err_len)
{
	u16 *live_out = NULL, *init_in = NULL, entry, spill;
	u32 i, first, end, done_first = U32_MAX, s, nargs;
	bool *reached = NULL;
	int ret = 0;
	s32 slot = 0;

	for (i = 0; i < o->len; i++)
		if (np_is_ldimm64(&o->insns[i]) &&
		    o->insns[i].src_reg == BPF_PSEUDO_MAP_IDX_VALUE)
			break;
	if (i == o->len)
		return 0;
	live_out = malloc(o->len * sizeof(*live_out));
	init_in = malloc(o->len * sizeof(*init_in));
	reached = malloc(o->len * sizeof(*reached));
	if (!o->splices)
		o->splices = calloc(o->len, sizeof(*o->splices));
	if (!live_out || !init_in || !reached || !o->splices) {
		ret = np_fail(err, err_len, "out of memory");
		goto out;
	}
	for (i = 0; i < o->len; i++) {
		const struct bpf_insn *in = &o->insns[i];

		if (!np_is_ldimm64(in))
			continue;
		if (in->src_reg != BPF_PSEUDO_MAP_IDX_VALUE) {
			i++;
			continue;
		}
		np_func_of(o, i, &first, &end, &s);
		if (first != done_first) {
			/* the program itself is called with the context */
			nargs = !s && o->sub_nargs[s] > 5 ? 1 : o->sub_nargs[s];
			if (nargs > 5) {
				ret = np_fail(err, err_len,
					      "insn %u loads the address of global data in function %s, whose arguments BTF does not give; the loader cannot tell which registers to keep",
					      i, o->sub_names[s]);
				goto out;
			}
			entry = (1U << BPF_REG_10) | (((1U << nargs) - 1) << 1);
			gl_flow(o->insns, first, end, entry, live_out, init_in,
				reached);
			slot = np_free_slot(o->insns, first, end);
			done_first = first;
		}
		if (slot - 6 * 8 < -512) {
			ret = np_fail(err, err_len,
				      "insn %u loads the address of global data in function %s, which uses too much of its 512 bytes of stack for the NIC's lookup (56 more)",
				      i, o->sub_names[s]);
			goto out;
		}
		spill = live_out[i] & init_in[i] & GL_R0_R5 &
			~(1U << in->dst_reg);
		gl_splice(o, i, spill, slot, &o->splices[o->n_splices]);
		o->n_splices += 2;
		i++;
	}
out:
	free(live_out);
	free(init_in);
	free(reached);
	return ret;
}
