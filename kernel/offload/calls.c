// SPDX-License-Identifier: GPL-2.0
/*
 * Which subprogram calls become engine jobs. The verifier's facts say
 * which accelerator id a call passes; BTF says what the callee is. The
 * kernel (bpf_offload.c) and the offline planner (an ELF object's BTF)
 * describe the subprograms the same way, so both decide alike.
 *
 * The verifier's facts cover the paths it explored, and it prunes a path
 * at a state equivalent to one it explored, where scalars nothing made
 * precise -- an accelerator id passed to a global function is one --
 * may differ. So an id is also required to be the same constant on every
 * path of the control-flow graph, feasible or not (calls_r5_ids()):
 * a call whose id may differ between paths stays a call.
 */
#include "offload.h"

static void calls_log(nicprog_log_fn log, void *priv, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	if (!log)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	log(priv, buf);
}

static const struct nicprog_subprog *calls_find(const struct nicprog_subprog *subs,
						u32 n_subs, u32 start)
{
	u32 s;

	for (s = 0; s < n_subs; s++)
		if (subs[s].start == start)
			return &subs[s];
	return NULL;
}

#define CALLS_UNSEEN	0xff	/* no path reaches the block yet */

static s64 calls_jump_target(const struct bpf_insn *insn, u32 i)
{
	if (insn->code == (BPF_JMP32 | BPF_JA))
		return (s64)i + 1 + insn->imm;
	return (s64)i + 1 + insn->off;
}

/*
 * One instruction's effect on @reg, each register's accelerator id or
 * NICPROG_AFN_NONE: an id is made only by a constant move or load, kept
 * only by a register move, and anything else that writes a register
 * (calls write R0-R5) leaves none in it.
 */
static void calls_step(const struct bpf_insn *insns, u32 i, u8 *reg)
{
	const struct bpf_insn *insn = &insns[i];
	u8 cls = BPF_CLASS(insn->code), dst = insn->dst_reg, k;

	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		if (dst >= MAX_BPF_REG - 1)
			return;
		/* a MOV with an offset sign-extends part of its source */
		if (BPF_OP(insn->code) != BPF_MOV || insn->off)
			reg[dst] = NICPROG_AFN_NONE;
		else if (BPF_SRC(insn->code) == BPF_X)
			reg[dst] = insn->src_reg < MAX_BPF_REG - 1 ?
				   reg[insn->src_reg] : NICPROG_AFN_NONE;
		else
			reg[dst] = nicprog_afn_of(cls == BPF_ALU64 ?
						(u64)(s64)insn->imm :
						(u32)insn->imm);
		return;
	case BPF_LDX:
		if (dst < MAX_BPF_REG - 1)
			reg[dst] = NICPROG_AFN_NONE;
		return;
	case BPF_LD:
		if (insn->code == (BPF_LD | BPF_IMM | BPF_DW)) {
			if (dst < MAX_BPF_REG - 1)
				reg[dst] = insn->src_reg ? NICPROG_AFN_NONE :
					   nicprog_afn_of((u32)insn->imm |
							(u64)insns[i + 1].imm << 32);
			return;
		}
		break;		/* LD_ABS, LD_IND: R0-R5 as a call */
	case BPF_STX:
		if (BPF_MODE(insn->code) != BPF_ATOMIC)
			return;
		if ((insn->imm & BPF_FETCH) && insn->src_reg < MAX_BPF_REG - 1)
			reg[insn->src_reg] = NICPROG_AFN_NONE;
		if (insn->imm == BPF_CMPXCHG)
			reg[BPF_REG_0] = NICPROG_AFN_NONE;
		return;
	case BPF_JMP:
		if (BPF_OP(insn->code) == BPF_CALL)
			break;
		return;
	default:
		return;
	}
	for (k = BPF_REG_0; k <= BPF_REG_5; k++)
		reg[k] = NICPROG_AFN_NONE;
}

static u32 calls_block_of(const u32 *lead, u32 n, u32 insn)
{
	u32 lo = 0, hi = n;

	while (hi - lo > 1) {
		u32 mid = lo + (hi - lo) / 2;

		if (lead[mid] <= insn)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Join @in into block @b's entry state; true if it changed. */
static bool calls_join(u8 *state, u32 b, const u8 *in)
{
	u8 *st = &state[b * (MAX_BPF_REG - 1)];
	bool changed = false;
	u32 k;

	for (k = 0; k < MAX_BPF_REG - 1; k++) {
		if (st[k] == in[k])
			continue;
		if (st[k] == CALLS_UNSEEN) {
			st[k] = in[k];
			changed = true;
		} else if (st[k] != NICPROG_AFN_NONE) {
			st[k] = NICPROG_AFN_NONE;
			changed = true;
		}
	}
	return changed;
}

/*
 * Per instruction, the accelerator id R5 holds there on every path of the
 * control-flow graph from a subprogram's entry (where no register holds
 * one), or NICPROG_AFN_NONE: constant propagation over R0-R9 at block
 * entries, to a fixed point. Its own blocks: the IR's are built after
 * this, from facts that say which calls are accelerator calls. Returns
 * a kvcalloc()ed array, NULL on no memory.
 */
static u8 *calls_r5_ids(const struct bpf_insn *insns, u32 len,
			const struct nicprog_subprog *subs, u32 n_subs)
{
	const u32 nr = MAX_BPF_REG - 1;
	u32 i, b, n = 0, end, s, *lead = NULL;
	u8 *r5, *state = NULL, *dirty = NULL, reg[MAX_BPF_REG - 1];
	bool again;
	s64 t;

	r5 = kvcalloc(len + 1, 1, GFP_KERNEL);
	if (!r5)
		return NULL;
	/* leaders, marked in r5[] for now */
	r5[0] = 1;
	for (s = 0; s < n_subs; s++)
		if (subs[s].start < len)
			r5[subs[s].start] = 1;
	for (i = 0; i < len; i++) {
		if (insns[i].code == (BPF_LD | BPF_IMM | BPF_DW)) {
			i++;
			continue;
		}
		if (nicprog_insn_is_jump(&insns[i])) {
			t = calls_jump_target(&insns[i], i);
			if (t >= 0 && t < len)
				r5[t] = 1;
			r5[i + 1] = 1;
		} else if (insns[i].code == (BPF_JMP | BPF_EXIT)) {
			r5[i + 1] = 1;
		}
	}
	for (i = 0; i < len; i++)
		n += r5[i];
	lead = kvcalloc(n, sizeof(*lead), GFP_KERNEL);
	state = kvcalloc(n, nr, GFP_KERNEL);
	dirty = kvcalloc(n, 1, GFP_KERNEL);
	if (!lead || !state || !dirty) {
		kvfree(r5);
		r5 = NULL;
		goto out;
	}
	for (i = b = 0; i < len; i++)
		if (r5[i])
			lead[b++] = i;
	/* what no path reaches holds no id */
	memset(r5, NICPROG_AFN_NONE, len + 1);
	memset(state, CALLS_UNSEEN, n * nr);
	memset(reg, NICPROG_AFN_NONE, sizeof(reg));
	calls_join(state, 0, reg);
	dirty[0] = 1;
	for (s = 0; s < n_subs; s++) {
		if (subs[s].start >= len)
			continue;
		b = calls_block_of(lead, n, subs[s].start);
		calls_join(state, b, reg);
		dirty[b] = 1;
	}
	do {
		again = false;
		for (b = 0; b < n; b++) {
			if (!dirty[b])
				continue;
			dirty[b] = 0;
			memcpy(reg, &state[b * nr], nr);
			end = b + 1 < n ? lead[b + 1] : len;
			for (i = lead[b]; i < end; i++) {
				r5[i] = reg[BPF_REG_5];
				calls_step(insns, i, reg);
				if (insns[i].code == (BPF_LD | BPF_IMM | BPF_DW))
					r5[++i] = reg[BPF_REG_5];
			}
			i = end - 1;
			if (insns[i].code == (BPF_JMP | BPF_EXIT))
				continue;
			if (nicprog_insn_is_jump(&insns[i])) {
				t = calls_jump_target(&insns[i], i);
				if (t >= 0 && t < len &&
				    calls_join(state, calls_block_of(lead, n, t), reg)) {
					dirty[calls_block_of(lead, n, t)] = 1;
					again = true;
				}
				if (BPF_OP(insns[i].code) == BPF_JA)
					continue;
			}
			if (end < len && calls_join(state, b + 1, reg)) {
				dirty[b + 1] = 1;
				again = true;
			}
		}
	} while (again);
out:
	kvfree(dirty);
	kvfree(state);
	kvfree(lead);
	return r5;
}

/**
 * nicprog_calls_check_accel() - drop accelerator ids the NIC cannot honour
 * @insns: the program
 * @meta: its facts; afn cleared where the call stays a call
 * @len: instructions
 * @subs: its subprograms
 * @n_subs: entries in @subs
 * @log: where to say why (may be NULL)
 * @priv: for @log
 *
 * An accelerator call is a call to a global function passing an
 * accelerator id; a static function passing one is called as it is, and
 * so is a call whose id differs between paths -- the paths the verifier
 * explored, and every path of the control-flow graph.
 *
 * Context: any; allocates. Without memory every call stays a call.
 */
void nicprog_calls_check_accel(const struct bpf_insn *insns,
			       struct nicprog_insn_meta *meta, u32 len,
			       const struct nicprog_subprog *subs, u32 n_subs,
			       nicprog_log_fn log, void *priv)
{
	const struct nicprog_subprog *sp;
	bool any = false;
	u8 *r5 = NULL;
	u32 i;

	for (i = 0; i < len; i++)
		any |= meta[i].afn != NICPROG_AFN_NONE;
	if (any)
		r5 = calls_r5_ids(insns, len, subs, n_subs);
	for (i = 0; i < len; i++) {
		if (!meta[i].afn)
			continue;
		if ((meta[i].flags & NICPROG_META_AFN_VAR) || !r5 ||
		    r5[i] != meta[i].afn) {
			calls_log(log, priv,
				  "insn %u: the accelerator id this call passes %s; it runs on a core\n",
				  i, r5 ? "is not the same constant on every path" :
				  "could not be followed (out of memory)");
			meta[i].afn = NICPROG_AFN_NONE;
			continue;
		}
		sp = calls_find(subs, n_subs, i + 1 + insns[i].imm);
		if (sp && sp->global)
			continue;
		calls_log(log, priv,
			  "insn %u: call passes accelerator id %s but its target is not a global function; it runs on a core\n",
			  i, nicprog_accel_fn_name(meta[i].afn));
		meta[i].afn = NICPROG_AFN_NONE;
	}
	kvfree(r5);
}

/**
 * nicprog_calls_ident() - turn calls of plain-BPF engine functions into
 *	engine jobs (ident.c)
 * @exec: the program, as the executor runs it
 * @meta: its facts; afn, ident and NICPROG_META_IDENT set per call
 * @subs: its subprograms, by ascending start
 * @n_subs: entries in @subs
 * @res: NICPROG_IDENT_MAX entries for what was made of each function
 *	tried, or NULL
 * @n_res: set to the entries of @res filled (with @res)
 * @log: where to say what was found, or why not (may be NULL)
 * @priv: for @log
 *
 * Context: any; does not sleep.
 */
void nicprog_calls_ident(const struct nicprog_exec_prog *exec,
			 struct nicprog_insn_meta *meta,
			 const struct nicprog_subprog *subs, u32 n_subs,
			 struct nicprog_ident_result *res, u32 *n_res,
			 nicprog_log_fn log, void *priv)
{
	const struct bpf_insn *insns = exec->insns;
	struct nicprog_ident_result done[NICPROG_IDENT_MAX], *d;
	const struct nicprog_subprog *sp;
	u32 i, s, target, end, n_done = 0;

	for (i = 0; i < exec->len; i++) {
		if (insns[i].code != (BPF_JMP | BPF_CALL) ||
		    insns[i].src_reg != BPF_PSEUDO_CALL || meta[i].afn)
			continue;
		target = i + 1 + insns[i].imm;
		for (s = 0; s < n_done && done[s].target != target; s++)
			;
		if (s == n_done) {
			sp = calls_find(subs, n_subs, target);
			if (n_done == ARRAY_SIZE(done) || !sp ||
			    !sp->global || !sp->engine_shape)
				continue;
			end = sp + 1 < subs + n_subs ? sp[1].start : exec->len;
			d = &done[n_done++];
			d->target = target;
			d->why = NULL;
			if (nicprog_ident_fn(insns, meta, target, end, &d->body,
					     &d->same, &d->why)) {
				d->why = NULL;
				calls_log(log, priv,
					  "insn %u: function at insn %u identified as %s (conventions 0x%02x): %s of %s (%s)\n",
					  i, target,
					  nicprog_accel_fn_name(d->body->accel),
					  d->body->accel & ~NICPROG_EXEC_AFN_MASK,
					  d->body->name, d->body->source,
					  d->body->cc);
			} else if (d->body) {
				calls_log(log, priv,
					  "insn %u: function at insn %u is not an engine function: %s (nearest %s of %s: %u of %u instructions alike)\n",
					  i, target, d->why, d->body->name,
					  d->body->source, d->same,
					  d->body->len);
			} else {
				calls_log(log, priv,
					  "insn %u: function at insn %u is not an engine function: %s\n",
					  i, target, d->why);
			}
		}
		d = &done[s];
		if (d->why)
			continue;
		meta[i].afn = d->body->accel & NICPROG_EXEC_AFN_MASK;
		meta[i].ident = d->body->accel & ~NICPROG_EXEC_AFN_MASK;
		meta[i].flags |= NICPROG_META_IDENT;
	}
	if (res) {
		memcpy(res, done, n_done * sizeof(*res));
		*n_res = n_done;
	}
}
