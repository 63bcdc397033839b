// SPDX-License-Identifier: GPL-2.0
/*
 * The fact recorder: what the offloader needs to know of one instruction
 * on one explored path, merged into its struct nicprog_insn_meta, and the
 * refusals that follow from what a path shows. Two walkers feed it: the
 * kernel's verifier, through nicprog's insn_hook (kernel/verifier.c), and
 * nicprog-plan's abstract interpreter (tools/nicprog-plan/absint.c), which
 * plans an object offline exactly as the kernel would. Each turns its
 * register state into struct nicprog_reg_view; the facts and their
 * messages are then the same by construction.
 */
#include "offload.h"

#define NOTE_STACK_BYTES	512	/* MAX_BPF_STACK */

static const char * const kind_names[] = {
	[NICPROG_PTR_NONE]	= "none",
	[NICPROG_PTR_SCALAR]	= "scalar",
	[NICPROG_PTR_CTX]	= "context",
	[NICPROG_PTR_PACKET]	= "packet",
	[NICPROG_PTR_MAP_VALUE]	= "map value",
	[NICPROG_PTR_STACK]	= "stack",
	[NICPROG_PTR_OTHER]	= "other",
};

/**
 * nicprog_note_sort() - sort a value of the live state by what it holds
 * @reg: a register, or a spilled one
 * @bit: its bit in @m
 * @m: pointers a handover to the host rebases, data, anything else
 */
void nicprog_note_sort(const struct nicprog_reg_view *reg, u64 bit,
		       struct nicprog_note_masks *m)
{
	if (reg->flags & NICPROG_REG_UNINIT)	/* no path reads it */
		return;
	switch (reg->kind) {
	case NICPROG_PTR_CTX:
	case NICPROG_PTR_PACKET:
	case NICPROG_PTR_STACK:
		m->ptr |= bit;
		break;
	case NICPROG_PTR_SCALAR:
		m->data |= bit;
		break;
	default:
		m->other |= bit;
	}
}

/* Merge one path's view of a map into what other paths said. */
static void note_map(struct nicprog_insn_meta *meta,
		     const struct nicprog_reg_view *reg,
		     nicprog_table_fn table, void *priv)
{
	u8 t;

	if (!reg->map)
		return;
	t = table(priv, reg->map);
	if (meta->map == NICPROG_MAP_NONE)
		meta->map = t;
	else if (meta->map != t)
		meta->map = NICPROG_MAP_MANY;
}

/*
 * Merge one path's frame pointer offset of a stack pointer into @off: the
 * @fixed flag says some path gave one, @var that paths disagree or one had
 * a variable offset or another frame's stack.
 */
static void note_stack(struct nicprog_insn_meta *meta, s16 *off, u16 fixed,
		       u16 var, const struct nicprog_reg_view *reg,
		       s32 insn_off)
{
	const u8 need = NICPROG_REG_MAIN_STACK | NICPROG_REG_CONST;
	s64 o;

	if (reg->kind != NICPROG_PTR_STACK || (reg->flags & need) != need) {
		meta->flags |= var;
		return;
	}
	o = (s64)reg->off + (s64)reg->var + insn_off;
	if (o < -NOTE_STACK_BYTES || o >= 0) {
		meta->flags |= var;
		return;
	}
	if ((meta->flags & fixed) && *off != o)
		meta->flags |= var;
	meta->flags |= fixed;
	*off = o;
}

/*
 * The accelerator id a subprogram call passes in R5 (bpf/nicprog.h), if it
 * is the same constant on every path.
 */
static void note_afn(struct nicprog_insn_meta *meta,
		     const struct nicprog_reg_view *r5)
{
	u8 fn = NICPROG_AFN_NONE;

	if (r5->kind == NICPROG_PTR_SCALAR && (r5->flags & NICPROG_REG_CONST))
		fn = nicprog_afn_of(r5->var);
	if ((meta->flags & NICPROG_META_AFN) && meta->afn != fn)
		meta->flags |= NICPROG_META_AFN_VAR;
	meta->flags |= NICPROG_META_AFN;
	meta->afn = fn;
}

/* What a call passes: stack arguments, its accelerator, key and value. */
static void note_call(struct nicprog_insn_meta *meta,
		      const struct bpf_insn *insn,
		      const struct nicprog_reg_view *regs,
		      nicprog_table_fn table, void *priv)
{
	u32 r;

	for (r = BPF_REG_1; r <= BPF_REG_5; r++)
		if (regs[r].kind == NICPROG_PTR_STACK)
			meta->stack_args |= BIT(r - 1);
	if (insn->src_reg == BPF_PSEUDO_CALL) {
		note_afn(meta, &regs[BPF_REG_5]);
		return;
	}
	if (insn->src_reg)
		return;
	/*
	 * Only the host answers it -- on some path: bpf_check_mtu() of the
	 * receiving port (ifindex 0) the NIC answers itself
	 */
	if (nicprog_exec_host_helper(insn->imm) &&
	    !(insn->imm == BPF_FUNC_check_mtu &&
	      regs[BPF_REG_2].kind == NICPROG_PTR_SCALAR &&
	      (regs[BPF_REG_2].flags & NICPROG_REG_CONST) &&
	      !regs[BPF_REG_2].var))
		meta->flags |= NICPROG_META_HOST_CALL;
	/* the memory it reads, for the liveness of a handover */
	if (insn->imm == BPF_FUNC_fib_lookup ||
	    insn->imm == BPF_FUNC_check_mtu) {
		note_stack(meta, &meta->key_off, NICPROG_META_KEY,
			   NICPROG_META_KEY_VAR,
			   &regs[insn->imm == BPF_FUNC_fib_lookup ?
				 BPF_REG_2 : BPF_REG_3], 0);
		return;
	}
	if (insn->imm < BPF_FUNC_map_lookup_elem ||
	    insn->imm > BPF_FUNC_map_delete_elem)
		return;
	note_map(meta, &regs[BPF_REG_1], table, priv);
	note_stack(meta, &meta->key_off, NICPROG_META_KEY, NICPROG_META_KEY_VAR,
		   &regs[BPF_REG_2], 0);
	if (insn->imm == BPF_FUNC_map_update_elem)
		note_stack(meta, &meta->val_off, NICPROG_META_VAL,
			   NICPROG_META_VAL_VAR, &regs[BPF_REG_3], 0);
}

/* What a load or store addresses: its table, its stack slot. */
static void note_access(struct nicprog_insn_meta *meta,
			const struct bpf_insn *insn,
			const struct nicprog_reg_view *regs,
			const struct nicprog_reg_view *reg,
			nicprog_table_fn table, void *priv)
{
	if (reg->flags & NICPROG_REG_MAP_VALUE)
		note_map(meta, reg, table, priv);
	if (reg->kind != NICPROG_PTR_STACK)
		return;
	note_stack(meta, &meta->stack_off, NICPROG_META_STACK,
		   NICPROG_META_STACK_VAR, reg, insn->off);
	if (BPF_CLASS(insn->code) == BPF_STX &&
	    (regs[insn->src_reg].flags & NICPROG_REG_MAP_VALUE))
		meta->flags |= NICPROG_META_SPILL_PTR;
}

/*
 * Packet bytes a packet access touches, for the offloader's parse and
 * placement decisions: the pointer's fixed offset plus the instruction's,
 * widened by the variable part's bound. Metadata and end pointers address
 * no bytes of the frame.
 */
static void note_pkt_range(struct nicprog_insn_meta *meta,
			   const struct bpf_insn *insn,
			   const struct nicprog_reg_view *reg)
{
	s64 lo = (s64)reg->off + insn->off;
	s64 hi = lo + nicprog_insn_bytes(insn->code) + min_t(u64, reg->umax,
							      0xffff);

	if (!(reg->flags & NICPROG_REG_FRAME))
		return;
	if (!meta->pkt_hi || lo < meta->pkt_lo)
		meta->pkt_lo = lo;
	if (hi > meta->pkt_hi)
		meta->pkt_hi = hi;
}

/**
 * nicprog_note_insn() - record one path's facts of an instruction
 * @meta: the instruction's facts, merged over the paths seen so far
 * @insn: the instruction
 * @idx: its index, for messages
 * @regs: the registers before it, MAX_BPF_REG of them
 * @table: numbers the maps registers name
 * @priv: passed to @table
 * @why: filled with the cause of a refusal
 * @len: bytes at @why
 *
 * Whether the NIC has a helper the instruction calls is the caller's to
 * refuse: the kernel may hand the call to the host's own implementation.
 *
 * Return: 0, or -EOPNOTSUPP with @why naming the instruction and what the
 * NIC cannot run.
 */
int nicprog_note_insn(struct nicprog_insn_meta *meta,
		      const struct bpf_insn *insn, u32 idx,
		      const struct nicprog_reg_view *regs,
		      nicprog_table_fn table, void *priv,
		      char *why, size_t len)
{
	struct nicprog_note_masks m = {};
	u8 cls = BPF_CLASS(insn->code);
	const struct nicprog_reg_view *reg = NULL;
	u8 kind = NICPROG_PTR_NONE;
	u32 r;

	if (meta->visits < U32_MAX)
		meta->visits++;
	for (r = 0; r < BPF_REG_10; r++)
		nicprog_note_sort(&regs[r], BIT(r), &m);
	meta->ptr_regs |= m.ptr;
	meta->data_regs |= m.data;
	meta->other_regs |= m.other;
	for (r = 0; r < MAX_BPF_REG; r++)
		if (regs[r].flags & NICPROG_REG_MAP_VALUE)
			meta->mapval_regs |= BIT(r);
	if (cls == BPF_LDX)
		reg = &regs[insn->src_reg];
	else if (cls == BPF_ST || cls == BPF_STX)
		reg = &regs[insn->dst_reg];
	if (insn->code == (BPF_JMP | BPF_CALL))
		note_call(meta, insn, regs, table, priv);
	else if (reg)
		note_access(meta, insn, regs, reg, table, priv);
	meta->dst_kinds |= BIT(regs[insn->dst_reg].kind);
	if (BPF_SRC(insn->code) == BPF_X || cls == BPF_LDX)
		meta->src_kinds |= BIT(regs[insn->src_reg].kind);

	if (insn->code == (BPF_JMP | BPF_CALL)) {
		if (insn->src_reg == BPF_PSEUDO_KFUNC_CALL) {
			snprintf(why, len,
				 "insn %u: calls a kernel function (kfunc); Linux 6.1 cannot offload kfunc calls",
				 idx);
			return -EOPNOTSUPP;
		}
		meta->helper = insn->imm;
		return 0;
	}
	if (!reg)
		return 0;
	kind = reg->kind;
	/*
	 * The verifier lets an offloaded program write one field, the host
	 * queue of a frame it passes (xdp_is_valid_access()); nfp steers by
	 * it, and so does the executor.
	 */
	if (kind == NICPROG_PTR_CTX && cls != BPF_LDX &&
	    (BPF_MODE(insn->code) != BPF_MEM ||
	     (s64)reg->off + insn->off !=
	     (s64)offsetof(struct xdp_md, rx_queue_index))) {
		snprintf(why, len,
			 "insn %u: writes to the context other than rx_queue_index are not supported on the NIC",
			 idx);
		return -EOPNOTSUPP;
	}
	/* One instruction, one kind of memory: the NIC compiles it once. */
	if (meta->ptr && meta->ptr != kind) {
		snprintf(why, len,
			 "insn %u: accesses %s memory on one path and %s memory on another; the NIC needs one kind per instruction",
			 idx, kind_names[meta->ptr], kind_names[kind]);
		return -EOPNOTSUPP;
	}
	meta->ptr = kind;
	if (kind == NICPROG_PTR_PACKET)
		note_pkt_range(meta, insn, reg);
	return 0;
}
