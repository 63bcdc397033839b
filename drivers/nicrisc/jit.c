// SPDX-License-Identifier: GPL-2.0
/*
 * nicrisc's translation (&nicprog_dev_ops.stage_translate): a plan's
 * stage, verified eBPF, into the cores' own instructions (isa.h), as a
 * NIC with an instruction set of its own translates when a plan is
 * installed. Each table a map load names becomes the handle of the
 * table in the NIC's memory (nicprog_plan_table_store()); what the cores
 * lack is refused naming the instruction, so the attach fails with the
 * reason on ip's stderr and the port keeps what it had.
 */
#include <linux/bpf.h>
#include <linux/err.h>
#include <linux/filter.h>
#include <linux/slab.h>
#include <linux/stddef.h>

#include "isa.h"
#include "nicrisc.h"

/*
 * The helpers the cores have in hardware, by the NIC's number for each,
 * ending with 0: the list the driver gives the core
 * (&nicprog_dev_ops.helpers), which refuses a program calling another
 * when it is verified.
 */
const s32 nicrisc_bpf_helpers[] = {
	[NR_H_MAP_LOOKUP]	= BPF_FUNC_map_lookup_elem,
	[NR_H_MAP_UPDATE]	= BPF_FUNC_map_update_elem,
	[NR_H_MAP_DELETE]	= BPF_FUNC_map_delete_elem,
	[NR_H_KTIME_NS]		= BPF_FUNC_ktime_get_ns,
	[NR_H_PRANDOM]		= BPF_FUNC_get_prandom_u32,
	[NR_H_REDIRECT]		= BPF_FUNC_redirect,
	[NR_H_ADJUST_HEAD]	= BPF_FUNC_xdp_adjust_head,
	[NR_H_ADJUST_META]	= BPF_FUNC_xdp_adjust_meta,
	[NR_H_ADJUST_TAIL]	= BPF_FUNC_xdp_adjust_tail,
	[__NR_H_MAX]		= 0,
};

static const struct {
	s16 off;
	u8 field;
} nicrisc_ctx_fields[] = {
	{ offsetof(struct xdp_md, data),		NR_CTX_DATA },
	{ offsetof(struct xdp_md, data_end),		NR_CTX_DATA_END },
	{ offsetof(struct xdp_md, data_meta),		NR_CTX_DATA_META },
	{ offsetof(struct xdp_md, ingress_ifindex),	NR_CTX_INGRESS_IFINDEX },
	{ offsetof(struct xdp_md, rx_queue_index),	NR_CTX_RX_QUEUE_INDEX },
	{ offsetof(struct xdp_md, egress_ifindex),	NR_CTX_EGRESS_IFINDEX },
};

/**
 * struct nicrisc_jit - one stage's translation in progress
 * @plan: the plan
 * @prog: the stage's program
 * @at: per eBPF instruction, the index of its translation (U32_MAX for
 *	the second half of a 64-bit load)
 * @img: the translation
 * @why: set, with @bad, when an instruction is refused: a static reason
 * @bad: the refused instruction
 */
struct nicrisc_jit {
	const struct nicprog_plan *plan;
	const struct nicprog_exec_prog *prog;
	u32 *at;
	struct nicrisc_image *img;
	const char *why;
	u32 bad;
};

static int nicrisc_refuse(struct nicrisc_jit *j, u32 pc, const char *why)
{
	j->why = why;
	j->bad = pc;
	return -EOPNOTSUPP;
}

static bool nicrisc_is_ctx(const struct nicrisc_jit *j, u32 pc)
{
	return j->prog->flags && (j->prog->flags[pc] & NICPROG_EXEC_INSN_CTX);
}

/* The index a jump or call of @pc by @delta lands on. */
static s32 nicrisc_target(const struct nicrisc_jit *j, u32 pc, s32 delta)
{
	return j->at[pc + 1 + delta];
}

static int nicrisc_emit_call(struct nicrisc_jit *j, u32 pc,
			     const struct bpf_insn *in, struct nicrisc_insn *out)
{
	u32 i;

	if (in->src_reg == BPF_PSEUDO_CALL) {
		out->op = NR_CALLSUB;
		out->off = nicrisc_target(j, pc, in->imm);
		return 0;
	}
	if (in->src_reg)
		return nicrisc_refuse(j, pc,
				      "nicrisc: kernel functions are the host's; the NIC calls only its own helpers");
	for (i = 0; i < __NR_H_MAX; i++)
		if (nicrisc_bpf_helpers[i] == in->imm) {
			out->op = NR_CALL;
			out->aux = i;
			return 0;
		}
	/* the core refuses what the list lacks: a host part's call */
	return nicrisc_refuse(j, pc,
			      "nicrisc: a helper the NIC lacks, which only a host part could run");
}

static int nicrisc_emit_jmp(struct nicrisc_jit *j, u32 pc,
			    const struct bpf_insn *in, struct nicrisc_insn *out)
{
	u8 op = BPF_OP(in->code);

	if (op == BPF_CALL)
		return nicrisc_emit_call(j, pc, in, out);
	if (op == BPF_EXIT) {
		out->op = NR_EXIT;
		return 0;
	}
	out->op = NR_JMP;
	out->aux = op;
	out->dst = in->dst_reg;
	out->src = in->src_reg;
	out->imm = (u64)(s64)in->imm;
	out->off = nicrisc_target(j, pc, in->off);
	if (BPF_CLASS(in->code) == BPF_JMP32)
		out->flags |= NR_F_W32;
	if (BPF_SRC(in->code) == BPF_K)
		out->flags |= NR_F_IMM;
	return 0;
}

static int nicrisc_emit_alu(struct nicrisc_jit *j, u32 pc,
			    const struct bpf_insn *in, struct nicrisc_insn *out)
{
	u8 op = BPF_OP(in->code);

	if (in->off)
		return nicrisc_refuse(j, pc,
				      "nicrisc: signed division and sign-extending moves are not in the NIC's instruction set");
	out->dst = in->dst_reg;
	out->src = in->src_reg;
	out->imm = (u64)(s64)in->imm;
	if (op == BPF_END) {
		if (BPF_CLASS(in->code) == BPF_ALU64)
			return nicrisc_refuse(j, pc,
					      "nicrisc: an unconditional byte swap is not in the NIC's instruction set");
		out->op = NR_BSWAP;
		out->aux = BPF_SRC(in->code) == BPF_TO_BE;
		return 0;
	}
	out->op = NR_ALU;
	out->aux = op;
	if (BPF_CLASS(in->code) == BPF_ALU)
		out->flags |= NR_F_W32;
	if (BPF_SRC(in->code) == BPF_K)
		out->flags |= NR_F_IMM;
	return 0;
}

/* A 64-bit constant, or the handle of a table in the NIC's memory. */
static int nicrisc_emit_ld(struct nicrisc_jit *j, u32 pc,
			   const struct bpf_insn *in, struct nicrisc_insn *out)
{
	void *store;

	if (in->code != (BPF_LD | BPF_IMM | BPF_DW))
		return nicrisc_refuse(j, pc,
				      "nicrisc: legacy packet loads are not in the NIC's instruction set");
	out->op = NR_LDI;
	out->dst = in->dst_reg;
	switch (in->src_reg) {
	case 0:
		out->imm = (u64)(u32)in[0].imm | (u64)(u32)in[1].imm << 32;
		return 0;
	case BPF_PSEUDO_MAP_FD:
		store = nicprog_plan_table_store(j->plan, in->imm);
		if (!store)
			return nicrisc_refuse(j, pc,
					      "nicrisc: the program uses a table the core keeps, the stand-in of a host map (XSKMAP, CPUMAP) or of a PROG_ARRAY (tail calls); the NIC reaches only tables in its own memory");
		out->imm = (uintptr_t)store;
		return 0;
	}
	return nicrisc_refuse(j, pc,
			      "nicrisc: a map value's address is not in the NIC's instruction set");
}

static int nicrisc_emit_ctx(struct nicrisc_jit *j, u32 pc,
			    const struct bpf_insn *in, struct nicrisc_insn *out)
{
	u32 i;

	if (BPF_CLASS(in->code) != BPF_LDX) {
		/* an offloaded program's one context write */
		if (in->off != offsetof(struct xdp_md, rx_queue_index) ||
		    BPF_SIZE(in->code) != BPF_W ||
		    BPF_MODE(in->code) != BPF_MEM)
			return nicrisc_refuse(j, pc,
					      "nicrisc: a context write other than rx_queue_index");
		out->op = NR_STCTX;
		out->src = in->src_reg;
		out->imm = (u64)(s64)in->imm;
		if (BPF_CLASS(in->code) == BPF_ST)
			out->flags |= NR_F_IMM;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(nicrisc_ctx_fields); i++)
		if (nicrisc_ctx_fields[i].off == in->off &&
		    BPF_SIZE(in->code) == BPF_W) {
			out->op = NR_LDCTX;
			out->dst = in->dst_reg;
			out->aux = nicrisc_ctx_fields[i].field;
			return 0;
		}
	return nicrisc_refuse(j, pc,
			      "nicrisc: a context read of a field the NIC does not keep");
}

static int nicrisc_emit_mem(struct nicrisc_jit *j, u32 pc,
			    const struct bpf_insn *in, struct nicrisc_insn *out)
{
	u8 cls = BPF_CLASS(in->code), mode = BPF_MODE(in->code);

	if (nicrisc_is_ctx(j, pc))
		return nicrisc_emit_ctx(j, pc, in, out);
	out->dst = in->dst_reg;
	out->src = in->src_reg;
	out->off = in->off;
	out->imm = (u64)(s64)in->imm;
	out->size = nicprog_insn_bytes(in->code);
	if (mode == BPF_MEM) {
		out->op = cls == BPF_LDX ? NR_LD : NR_ST;
		if (cls == BPF_ST)
			out->flags |= NR_F_IMM;
		return 0;
	}
	if (cls != BPF_STX || mode != BPF_ATOMIC ||
	    (out->size != 4 && out->size != 8))
		return nicrisc_refuse(j, pc,
				      "nicrisc: a load or store mode not in the NIC's instruction set");
	switch (in->imm & ~BPF_FETCH) {
	case BPF_ADD:
	case BPF_AND:
	case BPF_OR:
	case BPF_XOR:
		break;
	case BPF_XCHG & ~BPF_FETCH:
	case BPF_CMPXCHG & ~BPF_FETCH:
		if (!(in->imm & BPF_FETCH))
			return nicrisc_refuse(j, pc,
					      "nicrisc: an atomic operation not in the NIC's instruction set");
		break;
	default:
		return nicrisc_refuse(j, pc,
				      "nicrisc: an atomic operation not in the NIC's instruction set");
	}
	out->op = NR_ATOMIC;
	out->aux = in->imm & ~BPF_FETCH;
	if (in->imm & BPF_FETCH)
		out->flags |= NR_F_FETCH;
	return 0;
}

static int nicrisc_emit(struct nicrisc_jit *j, u32 pc, struct nicrisc_insn *out)
{
	const struct bpf_insn *in = &j->prog->insns[pc];

	if (j->prog->accel && j->prog->accel[pc])
		return nicrisc_refuse(j, pc,
				      "nicrisc: the NIC has no accelerator engines");
	if (j->prog->flags && (j->prog->flags[pc] &
			       (NICPROG_EXEC_INSN_MAT | NICPROG_EXEC_INSN_MAT_REGION)))
		return nicrisc_refuse(j, pc, "nicrisc: the NIC has no MAT stages");
	switch (BPF_CLASS(in->code)) {
	case BPF_ALU:
	case BPF_ALU64:
		return nicrisc_emit_alu(j, pc, in, out);
	case BPF_JMP:
	case BPF_JMP32:
		return nicrisc_emit_jmp(j, pc, in, out);
	case BPF_LD:
		return nicrisc_emit_ld(j, pc, in, out);
	default:
		return nicrisc_emit_mem(j, pc, in, out);
	}
}

/*
 * Number the translation: every instruction of the stage has one, but the
 * second half of a 64-bit load, which the first half's carries.
 */
static int nicrisc_number(struct nicrisc_jit *j,
			  const struct nicprog_stage_code *code, u32 *n)
{
	const struct nicprog_exec_prog *prog = j->prog;
	u32 pc;

	*n = 0;
	for (pc = 0; pc < prog->len; pc++) {
		if (prog->stage && prog->stage[pc] != code->stage &&
		    prog->stage[pc] != NICPROG_EXEC_STAGE_ANY)
			return nicrisc_refuse(j, pc,
					      "nicrisc: a program runs on one core, as one stage");
		j->at[pc] = (*n)++;
		if (prog->insns[pc].code == (BPF_LD | BPF_IMM | BPF_DW) &&
		    pc + 1 < prog->len)
			j->at[++pc] = U32_MAX;
	}
	return 0;
}

static int nicrisc_translate(struct nicrisc_jit *j,
			     const struct nicprog_stage_code *code)
{
	u32 pc, n;
	int err;

	if (code->stage || code->n_entries != 1 || code->entries[0])
		return nicrisc_refuse(j, 0,
				      "nicrisc: a program runs on one core, as one stage");
	err = nicrisc_number(j, code, &n);
	if (err)
		return err;
	j->img = kvzalloc(struct_size(j->img, insns, n), GFP_KERNEL);
	if (!j->img)
		return -ENOMEM;
	j->img->len = n;
	for (pc = 0; pc < j->prog->len; pc++) {
		if (j->at[pc] == U32_MAX)
			continue;
		err = nicrisc_emit(j, pc, &j->img->insns[j->at[pc]]);
		if (err)
			return err;
	}
	return 0;
}

/**
 * nicrisc_stage_translate() - &nicprog_dev_ops.stage_translate
 * @nd: the port
 * @plan: the plan being installed
 * @code: its stage
 * @extack: where a refusal goes
 *
 * Context: RTNL held; may sleep.
 * Return: the stage in the cores' instruction set, or an ERR_PTR.
 */
void *nicrisc_stage_translate(struct nicprog_dev *nd,
			      const struct nicprog_plan *plan,
			      const struct nicprog_stage_code *code,
			      struct netlink_ext_ack *extack)
{
	struct nicrisc_jit j = { .plan = plan, .prog = code->prog };
	int err;

	j.at = kvcalloc(code->prog->len, sizeof(*j.at), GFP_KERNEL);
	if (!j.at)
		return ERR_PTR(-ENOMEM);
	err = nicrisc_translate(&j, code);
	kvfree(j.at);
	if (!err)
		return j.img;
	kvfree(j.img);
	if (j.why)
		return nicprog_stage_refuse(nd, code, j.bad, j.why, extack);
	return ERR_PTR(err);
}

/**
 * nicrisc_stage_release() - &nicprog_dev_ops.stage_release
 * @nd: the port
 * @stage: the stage
 * @image: what nicrisc_stage_translate() returned for it
 *
 * Context: RTNL held; no core runs the plan any more.
 */
void nicrisc_stage_release(struct nicprog_dev *nd, u32 stage, void *image)
{
	kvfree(image);
}
