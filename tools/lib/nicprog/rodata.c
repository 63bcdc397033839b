// SPDX-License-Identifier: GPL-2.0
/*
 * Fold a program's reads of read-only global data into constants.
 *
 * The marked loads of a .rodata address (BPF_LD_IMM64 with src_reg
 * BPF_PSEUDO_MAP_VALUE and imm the index of a struct np_rodata) are
 * followed through the registers by a forward data-flow analysis: a
 * register holds either "that address plus a known offset" on every path
 * that reaches an instruction, or nothing we track. A load through such a
 * register becomes a move of the bytes the object holds there; the address
 * loads become loads of 0. Anything else done with the address -- stored,
 * compared, offset by a variable, passed to a function -- cannot be
 * folded, and the program is refused naming the instruction. Host XDP
 * reads the same bytes: libbpf freezes .rodata before the program runs.
 *
 * The instruction count does not change, so jumps, calls and BTF line
 * information stay valid; a 64-bit value that does not fit a sign-extended
 * 32-bit immediate is refused rather than grown into two instructions.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redirect.h"
#include "rodata.h"
#include <net/nicprog_exec.h>

/*
 * A register's value: ref >= 0 is the address @off bytes into struct
 * np_rodata @ref on every path; RO_MIXED - ref that address on some paths
 * and something else on others (any use of it is refused); RO_NONE
 * nothing tracked; RO_TOP not reached yet.
 */
struct ro_val {
	s32 ref;
	s32 off;
};

#define RO_NONE		(-1)
#define RO_TOP		(-2)
#define RO_MIXED	(-3)
#define RO_REGS		11

static bool tracked(const struct ro_val *v)
{
	return v->ref >= 0 || v->ref <= RO_MIXED;
}

static u32 ref_of(const struct ro_val *v)
{
	return v->ref >= 0 ? v->ref : RO_MIXED - v->ref;
}

struct ro_state {
	struct ro_val r[RO_REGS];
};

static bool is_ro(const struct bpf_insn *in)
{
	return np_is_ldimm64(in) && in->src_reg == BPF_PSEUDO_MAP_VALUE;
}

/* Arguments a helper reads (R1..); 5 for one not listed. */
static u32 helper_args(s32 id)
{
	switch (id) {
	case BPF_FUNC_ktime_get_ns:
	case BPF_FUNC_get_prandom_u32:
	case BPF_FUNC_get_smp_processor_id:
		return 0;
	case BPF_FUNC_xdp_get_buff_len:
		return 1;
	case BPF_FUNC_map_lookup_elem:
	case BPF_FUNC_map_delete_elem:
	case BPF_FUNC_redirect:
	case BPF_FUNC_xdp_adjust_head:
	case BPF_FUNC_xdp_adjust_meta:
	case BPF_FUNC_xdp_adjust_tail:
		return 2;
	case BPF_FUNC_redirect_map:
	case BPF_FUNC_tail_call:
		return 3;
	case BPF_FUNC_map_update_elem:
	case BPF_FUNC_fib_lookup:
	case BPF_FUNC_xdp_load_bytes:
	case BPF_FUNC_xdp_store_bytes:
	case BPF_FUNC_ringbuf_output:
		return 4;
	default:
		return 5;
	}
}

static bool merge(struct ro_state *into, const struct ro_state *from)
{
	bool changed = false;
	u32 r;

	for (r = 0; r < RO_REGS; r++) {
		struct ro_val *a = &into->r[r];
		const struct ro_val *b = &from->r[r];

		struct ro_val m = { .ref = RO_NONE };

		if (b->ref == RO_TOP ||
		    (a->ref == b->ref && (a->ref < 0 || a->off == b->off)))
			continue;
		if (a->ref == RO_TOP) {
			*a = *b;
			changed = true;
			continue;
		}
		/* different on two paths: mixed if either was tracked */
		if (tracked(a))
			m.ref = RO_MIXED - ref_of(a);
		else if (tracked(b))
			m.ref = RO_MIXED - ref_of(b);
		if (m.ref != a->ref) {
			*a = m;
			changed = true;
		}
	}
	return changed;
}

static void clobber_calls(struct ro_state *s)
{
	u32 r;

	for (r = BPF_REG_0; r <= BPF_REG_5; r++)
		s->r[r].ref = RO_NONE;
}

/* @s after instruction @in (at @i), which the caller made sure is whole. */
static void transfer(const struct bpf_insn *in, const struct ro_state *s,
		     struct ro_state *out)
{
	u8 cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
	struct ro_val *d = &out->r[in->dst_reg % RO_REGS];

	*out = *s;
	switch (cls) {
	case BPF_LD:
		if (is_ro(in)) {
			d->ref = in->imm;
			d->off = 0;
		} else {
			d->ref = RO_NONE;
		}
		break;
	case BPF_LDX:
		d->ref = RO_NONE;
		break;
	case BPF_ALU64:
		if (op == BPF_MOV && BPF_SRC(in->code) == BPF_X)
			*d = s->r[in->src_reg % RO_REGS];
		else if (tracked(d) && BPF_SRC(in->code) == BPF_K &&
			 (op == BPF_ADD || op == BPF_SUB))
			d->off += op == BPF_ADD ? in->imm : -in->imm;
		else
			d->ref = RO_NONE;
		break;
	case BPF_ALU:
		d->ref = RO_NONE;
		break;
	case BPF_STX:
		if (BPF_MODE(in->code) == BPF_ATOMIC) {
			if (in->imm == BPF_CMPXCHG)
				out->r[BPF_REG_0].ref = RO_NONE;
			else if (in->imm & BPF_FETCH)
				out->r[in->src_reg % RO_REGS].ref = RO_NONE;
		}
		break;
	case BPF_JMP:
		if (op == BPF_CALL)
			clobber_calls(out);
		break;
	}
}

/* Successors of @i: up to two, U32_MAX for none. */
static void succs(const struct bpf_insn *insns, u32 len, u32 i, u32 *a,
		  u32 *b)
{
	const struct bpf_insn *in = &insns[i];
	u8 cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
	s64 t;

	*a = U32_MAX;
	*b = U32_MAX;
	if (np_is_ldimm64(in)) {
		*a = i + 2 < len ? i + 2 : U32_MAX;
		return;
	}
	if ((cls == BPF_JMP || cls == BPF_JMP32) && op == BPF_EXIT)
		return;
	if ((cls == BPF_JMP || cls == BPF_JMP32) && op != BPF_CALL) {
		t = (s64)i + 1 + in->off;
		if (t >= 0 && t < len)
			*b = t;
		if (op == BPF_JA)
			return;
	}
	if (i + 1 < len)
		*a = i + 1;
}

/* The bytes at @ro + @off, @size of them, as the load's value. */
static int ro_value(const struct np_rodata *ro, s64 off, u32 size, u64 *v)
{
	u8 b[8] = { 0 };

	if (off < 0 || off + size > ro->size)
		return -1;
	memcpy(b, ro->data + off, size);
	memcpy(v, b, 8);	/* BPF is little-endian here, as the host */
	return 0;
}

static int ro_use(const struct ro_val *v, u32 i, const struct np_rodata *ro,
		  char *err, size_t err_len, const char *how)
{
	u32 ref = ref_of(v);

	return np_fail(err, err_len,
		       "insn %u %s the address of read-only data '%s' (%s)%s: the NIC loader folds only loads from it into constants (Linux 6.1 gives device-bound maps no direct value access)",
		       i, how, ro[ref].name, ro[ref].sec,
		       v->ref < 0 ? " on some paths only" : "");
}

/* Check every use of a tracked address at @i; fold its loads. */
static int ro_check(struct bpf_insn *insns, u32 i, const struct ro_state *s,
		    const struct np_rodata *ro, struct np_patch *p,
		    u32 *n, char *err, size_t err_len)
{
	const struct bpf_insn *in = &insns[i];
	u8 cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
	const struct ro_val *src = &s->r[in->src_reg % RO_REGS];
	const struct ro_val *dst = &s->r[in->dst_reg % RO_REGS];
	u32 size, r;
	u64 v;
	s64 off;

	switch (cls) {
	case BPF_LD:
		return 0;
	case BPF_LDX:
		if (!tracked(src))
			return 0;
		if (src->ref < 0)
			return ro_use(src, i, ro, err, err_len, "reads through");
		size = nicprog_insn_bytes(in->code);
		off = (s64)ro[src->ref].off + src->off + in->off;
		if (BPF_MODE(in->code) != BPF_MEM ||
		    ro_value(&ro[src->ref], off, size, &v))
			return np_fail(err, err_len,
				       "insn %u reads %u bytes at offset %lld of read-only data '%s' (%s), outside it",
				       i, size, (long long)off,
				       ro[src->ref].name, ro[src->ref].sec);
		p[*n].at = i;
		p[*n].insn = (struct bpf_insn){
			.code = (size == 8 ? BPF_ALU64 : BPF_ALU) | BPF_MOV |
				BPF_K,
			.dst_reg = in->dst_reg, .imm = (s32)v,
		};
		if (size == 8 && (s64)(s32)v != (s64)v)
			return np_fail(err, err_len,
				       "insn %u reads a 64-bit constant of read-only data '%s' (%s) that does not fit 32 bits; the NIC loader cannot fold it",
				       i, ro[src->ref].name, ro[src->ref].sec);
		(*n)++;
		return 0;
	case BPF_ST:
	case BPF_STX:
		if (tracked(dst))
			return ro_use(dst, i, ro, err, err_len, "writes through");
		if (cls == BPF_STX && tracked(src))
			return ro_use(src, i, ro, err, err_len, "stores");
		return 0;
	case BPF_ALU64:
		if (BPF_SRC(in->code) == BPF_X && tracked(src) &&
		    op != BPF_MOV)
			return ro_use(src, i, ro, err, err_len, "computes with");
		if (tracked(dst) && op != BPF_MOV &&
		    !(BPF_SRC(in->code) == BPF_K &&
		      (op == BPF_ADD || op == BPF_SUB)))
			return ro_use(dst, i, ro, err, err_len, "computes with");
		return 0;
	case BPF_ALU:
		if (tracked(dst) && op != BPF_MOV)
			return ro_use(dst, i, ro, err, err_len, "computes with");
		if (BPF_SRC(in->code) == BPF_X && tracked(src))
			return ro_use(src, i, ro, err, err_len, "computes with");
		return 0;
	case BPF_JMP:
	case BPF_JMP32:
		if (op == BPF_CALL) {
			u32 args = in->src_reg ? 5 : helper_args(in->imm);

			for (r = BPF_REG_1; r <= args; r++)
				if (tracked(&s->r[r]))
					return ro_use(&s->r[r], i, ro, err,
						      err_len, in->src_reg ?
						      "passes a function" :
						      "passes a helper");
			return 0;
		}
		if (op == BPF_EXIT)
			return tracked(&s->r[BPF_REG_0]) ?
			       ro_use(&s->r[BPF_REG_0], i, ro, err, err_len,
				      "returns") : 0;
		if (op == BPF_JA)
			return 0;
		if (tracked(dst))
			return ro_use(dst, i, ro, err, err_len, "compares");
		if (BPF_SRC(in->code) == BPF_X && tracked(src))
			return ro_use(src, i, ro, err, err_len, "compares");
		return 0;
	}
	return 0;
}

/**
 * np_rodata_fold() - fold a program's loads of read-only data
 * @insns: the linked program, .rodata addresses marked; rewritten
 * @len: instructions
 * @subs: its subprograms (entry points)
 * @n_subs: entries in @subs
 * @ro: the marked addresses' data, by the index the marks carry
 * @n_ro: entries in @ro
 * @patches: set to the replaced instructions (free() it), so that the
 *	same change can be made to another copy of the program (libbpf's)
 * @n_patches: entries in *@patches
 * @err: why not, on failure
 * @err_len: bytes at @err
 *
 * Return: 0, -EOPNOTSUPP with @err naming the instruction, -ENOMEM.
 */
int np_rodata_fold(struct bpf_insn *insns, u32 len,
		   const struct nicprog_subprog *subs, u32 n_subs,
		   const struct np_rodata *ro, u32 n_ro,
		   struct np_patch **patches, u32 *n_patches,
		   char *err, size_t err_len)
{
	struct ro_state *in = NULL, out;
	struct np_patch *p = NULL;
	u32 *work = NULL, n_work = 0, i, a, b, r, n = 0, s;
	bool *queued = NULL;
	int ret = -ENOMEM;

	*patches = NULL;
	*n_patches = 0;
	for (i = 0; i < len; i++)
		if (is_ro(&insns[i]) && (u32)insns[i].imm >= n_ro)
			return np_fail(err, err_len, "insn %u: bad read-only data mark", i);
	for (i = 0, r = 0; i < len; i++)
		r += is_ro(&insns[i]);
	if (!r)
		return 0;
	in = malloc((size_t)len * sizeof(*in));
	work = malloc((size_t)(len + 1) * sizeof(*work));
	queued = calloc(len, sizeof(*queued));
	p = calloc((size_t)len + 1, sizeof(*p));
	if (!in || !work || !queued || !p)
		goto out;
	for (i = 0; i < len; i++)
		for (r = 0; r < RO_REGS; r++)
			in[i].r[r] = (struct ro_val){ .ref = RO_TOP };
	/* every function is entered with nothing tracked */
	for (s = 0; s < n_subs; s++) {
		if (subs[s].start >= len)
			continue;
		for (r = 0; r < RO_REGS; r++)
			in[subs[s].start].r[r].ref = RO_NONE;
		work[n_work++] = subs[s].start;
		queued[subs[s].start] = true;
	}
	while (n_work) {
		i = work[--n_work];
		queued[i] = false;
		if (np_is_ldimm64(&insns[i]) && i + 1 == len)
			continue;
		transfer(&insns[i], &in[i], &out);
		succs(insns, len, i, &a, &b);
		if (a != U32_MAX && merge(&in[a], &out) && !queued[a]) {
			work[n_work++] = a;
			queued[a] = true;
		}
		if (b != U32_MAX && merge(&in[b], &out) && !queued[b]) {
			work[n_work++] = b;
			queued[b] = true;
		}
	}
	for (i = 0; i < len; i++) {
		if (in[i].r[0].ref == RO_TOP && in[i].r[1].ref == RO_TOP &&
		    in[i].r[10].ref == RO_TOP)
			continue;	/* not reached */
		ret = ro_check(insns, i, &in[i], ro, p, &n, err, err_len);
		if (ret)
			goto out;
		if (np_is_ldimm64(&insns[i]))
			i++;
	}
	for (i = 0; i < len; i++) {
		if (!is_ro(&insns[i]))
			continue;
		p[n].at = i;
		p[n].insn = (struct bpf_insn){
			.code = BPF_LD | BPF_IMM | BPF_DW,
			.dst_reg = insns[i].dst_reg,
		};
		p[n + 1].at = i + 1;
		p[n + 1].insn = (struct bpf_insn){ 0 };
		n += 2;
		i++;
	}
	for (i = 0; i < n; i++)
		insns[p[i].at] = p[i].insn;
	*patches = p;
	*n_patches = n;
	p = NULL;
	ret = 0;
out:
	if (ret == -ENOMEM)
		np_fail(err, err_len, "out of memory");
	free(in);
	free(work);
	free(queued);
	free(p);
	return ret;
}
