// SPDX-License-Identifier: GPL-2.0
/*
 * The executor's translated form: a stage decoded once, at plan load,
 * into operations that carry what the interpreter works out on every
 * instruction of every frame -- the opcode's kind, the immediate extended
 * to its width, the jump target, the cycles the plan prices it at, the
 * region it touches -- and grouped into runs: straight-line instructions
 * of one stage that the translated form charges and counts once, on
 * entry, and executes without a check between them.
 *
 * What a run may hold are the instructions whose effect is the ISA's
 * alone (ALU, byte swaps, 64-bit immediates, jumps, loads and stores of
 * memory the verifier proved in bounds). Every other one -- calls, exits,
 * context accesses, atomics -- goes to the interpreter's own step
 * (nicprog_exec_step()), on the same run state, so both forms give the
 * same verdicts, bytes, tables, cycles and trace events by construction;
 * tools/testing/unit/exec_test.c runs every case under both, and the
 * selftests run the oracle under both.
 *
 * Instructions a MAT stage serves (a lookup loop the plan gave to a table
 * unit) run inline too, in runs of their own: entering one from outside
 * a region is the one MAT lookup the step would count, and with a trace
 * the region costs the core nothing. A router's longest-prefix loop is
 * such a region; left to the step, it was half of a translated run's
 * time.
 *
 * It is the simulated NIC's second execution mode (nicsim's exec_mode),
 * and a model of what a vendor's stage_translate does for its own ISA.
 */
#include "../offload/compat.h"
#include <net/nicprog_exec.h>

#include "run.h"

/* struct nicprog_exec_op.kind */
enum {
	NICPROG_OP_STEP,	/* the interpreter's step runs it */
	NICPROG_OP_ALU64_K,
	NICPROG_OP_ALU64_X,
	NICPROG_OP_ALU32_K,
	NICPROG_OP_ALU32_X,
	NICPROG_OP_END,
	NICPROG_OP_LD64,
	NICPROG_OP_LDX,
	NICPROG_OP_ST,
	NICPROG_OP_STX,
	NICPROG_OP_JA,
	NICPROG_OP_JMP_K,
	NICPROG_OP_JMP_X,
	NICPROG_OP_JMP32_K,
	NICPROG_OP_JMP32_X,
};

/**
 * struct nicprog_exec_op - one instruction, decoded
 * @kind: NICPROG_OP_*
 * @bop: the BPF operation (BPF_OP()), or for loads and stores the size
 *	in bytes, for byte swaps the width with bit 7 set for BPF_TO_BE
 * @dst: destination register
 * @src: source register
 * @region: the LNIC region a traced access reports, or
 *	NICPROG_EXEC_REGION_NONE
 * @len: instructions it takes (2 for a 64-bit immediate)
 * @last: its run ends after it
 * @mat: a MAT stage serves it (NICPROG_EXEC_INSN_MAT_REGION); so does
 *	every other operation of its run
 * @off: the memory offset
 * @run_len: instructions from it to its run's end
 * @run_ct: cycles from it to its run's end, with a trace
 * @run_cn: the same without a trace
 * @after_ct: cycles of its run after it, with a trace: a traced event's
 *	time is the run's total less these
 * @target: where a jump goes
 * @imm: the immediate, extended to the operation's width
 */
struct nicprog_exec_op {
	u8 kind;
	u8 bop;
	u8 dst;
	u8 src;
	u8 region;
	u8 len;
	u8 last;
	u8 mat;
	s16 off;
	u32 run_len;
	u32 run_ct;
	u32 run_cn;
	u32 after_ct;
	u32 target;
	u64 imm;
};

/**
 * struct nicprog_exec_code - a stage in the translated form
 * @prog: the program, as the interpreter's step reads it
 * @stage: the stage; with @prog->stage NULL, the whole program
 * @ops: one per instruction of the program; instructions of other stages
 *	are NICPROG_OP_STEP (a run stops before it reaches one)
 */
struct nicprog_exec_code {
	struct nicprog_exec_prog prog;
	u32 stage;
	struct nicprog_exec_op ops[];
};

/* Can the translated form run instruction @pc of @stage without the step? */
static bool op_inline(const struct nicprog_exec_prog *prog, u32 stage, u32 pc)
{
	const struct bpf_insn *insn = &prog->insns[pc];
	u8 op = BPF_OP(insn->code);

	if (prog->stage && prog->stage[pc] != stage &&
	    prog->stage[pc] != NICPROG_EXEC_STAGE_ANY)
		return false;
	if (prog->flags && (prog->flags[pc] & NICPROG_EXEC_INSN_CTX))
		return false;
	switch (BPF_CLASS(insn->code)) {
	case BPF_ALU64:
		return op != BPF_END;
	case BPF_ALU:
	case BPF_LD:
	case BPF_JMP32:
		return true;
	case BPF_LDX:
	case BPF_ST:
	case BPF_STX:
		return BPF_MODE(insn->code) == BPF_MEM;
	default:	/* BPF_JMP */
		return op != BPF_CALL && op != BPF_EXIT;
	}
}

static void op_decode(struct nicprog_exec_op *o, const struct bpf_insn *insn,
		      u32 pc)
{
	u8 cls = BPF_CLASS(insn->code), op = BPF_OP(insn->code);
	bool x = BPF_SRC(insn->code) == BPF_X;

	o->bop = op;
	o->dst = insn->dst_reg;
	o->src = insn->src_reg;
	o->off = insn->off;
	o->imm = (u64)(s64)insn->imm;
	o->target = pc + 1 + insn->off;
	switch (cls) {
	case BPF_ALU64:
		o->kind = x ? NICPROG_OP_ALU64_X : NICPROG_OP_ALU64_K;
		break;
	case BPF_ALU:
		if (op == BPF_END) {
			o->kind = NICPROG_OP_END;
			o->bop = insn->imm | (x ? 0x80 : 0);	/* BPF_TO_BE */
			break;
		}
		o->kind = x ? NICPROG_OP_ALU32_X : NICPROG_OP_ALU32_K;
		o->imm = (u32)insn->imm;
		break;
	case BPF_LD:
		o->kind = NICPROG_OP_LD64;
		o->len = 2;
		o->imm = insn->src_reg == BPF_PSEUDO_MAP_FD ?
			 NICPROG_EXEC_MAP_TAG | (u32)insn->imm :
			 (u64)(u32)insn->imm | ((u64)(u32)insn[1].imm << 32);
		break;
	case BPF_LDX:
	case BPF_ST:
	case BPF_STX:
		o->kind = cls == BPF_LDX ? NICPROG_OP_LDX :
			  cls == BPF_ST ? NICPROG_OP_ST : NICPROG_OP_STX;
		o->bop = nicprog_insn_bytes(insn->code);
		break;
	case BPF_JMP32:
		o->kind = x ? NICPROG_OP_JMP32_X : NICPROG_OP_JMP32_K;
		o->imm = (u32)insn->imm;
		o->last = 1;
		break;
	default:
		o->kind = op == BPF_JA ? NICPROG_OP_JA :
			  x ? NICPROG_OP_JMP_X : NICPROG_OP_JMP_K;
		o->last = 1;
		break;
	}
}

/**
 * nicprog_exec_translate() - translate one stage of a program
 * @prog: a program that passed nicprog_exec_check(); it must outlive the
 *	translation, which points into it
 * @stage: the stage, as in @prog->stage; ignored without one
 *
 * Context: process; allocates.
 * Return: the stage's translated form, or NULL without memory.
 */
struct nicprog_exec_code *
nicprog_exec_translate(const struct nicprog_exec_prog *prog, u32 stage)
{
	struct nicprog_exec_code *code;
	struct nicprog_exec_op *o, *n;
	u32 pc, i, nxt, ct, cn;

	code = kvzalloc(sizeof(*code) + (size_t)prog->len * sizeof(code->ops[0]),
			GFP_KERNEL);
	if (!code)
		return NULL;
	code->prog = *prog;
	code->stage = stage;
	for (pc = 0; pc < prog->len; pc++) {
		o = &code->ops[pc];
		o->len = 1;
		o->region = prog->region ? prog->region[pc] :
					   NICPROG_EXEC_REGION_NONE;
		if (op_inline(prog, stage, pc)) {
			op_decode(o, &prog->insns[pc], pc);
			o->mat = prog->flags &&
				 (prog->flags[pc] & NICPROG_EXEC_INSN_MAT_REGION);
		}
		if (prog->insns[pc].code == (BPF_LD | BPF_IMM | BPF_DW))
			pc++;	/* its second half is no instruction */
	}
	/*
	 * Runs, from the end: an inline operation continues into the next
	 * one unless it jumps, the next must go to the step, the next is
	 * another stage's (where a run stops), or one of the two is in a MAT
	 * region and the other is not. Traced, a region's operations cost
	 * nothing, as in the step.
	 */
	for (i = prog->len; i-- > 0;) {
		o = &code->ops[i];
		if (o->kind == NICPROG_OP_STEP)
			continue;	/* or the second half of a 64-bit immediate */
		ct = prog->cost[nicprog_insn_class(prog->insns[i].code)];
		cn = prog->cycles ? prog->cycles[i] : ct;
		if (o->mat)
			ct = 0;
		nxt = i + o->len;
		n = nxt < prog->len ? &code->ops[nxt] : NULL;
		if (!n || n->kind == NICPROG_OP_STEP || n->mat != o->mat ||
		    (prog->stage && prog->stage[nxt] != prog->stage[i]) ||
		    /* a run's sums fit their u32: a longer one is two */
		    (u64)n->run_ct + ct > U32_MAX ||
		    (u64)n->run_cn + cn > U32_MAX)
			o->last = 1;
		o->run_len = 1;
		o->run_ct = ct;
		o->run_cn = cn;
		if (!o->last) {
			o->run_len += n->run_len;
			o->run_ct += n->run_ct;
			o->run_cn += n->run_cn;
			o->after_ct = n->run_ct;
		}
	}
	return code;
}
EXPORT_SYMBOL_GPL(nicprog_exec_translate);

/**
 * nicprog_exec_code_free() - free a translated stage
 * @code: from nicprog_exec_translate(), or NULL
 *
 * Context: process.
 */
void nicprog_exec_code_free(struct nicprog_exec_code *code)
{
	kvfree(code);
}
EXPORT_SYMBOL_GPL(nicprog_exec_code_free);

static u64 op_load(uintptr_t a, u8 bytes)
{
	u8 b;
	u16 h;
	u32 w;
	u64 d;

	switch (bytes) {
	case 1:
		memcpy(&b, (void *)a, 1);
		return b;
	case 2:
		memcpy(&h, (void *)a, 2);
		return h;
	case 4:
		memcpy(&w, (void *)a, 4);
		return w;
	default:
		memcpy(&d, (void *)a, 8);
		return d;
	}
}

static void op_store(uintptr_t a, u8 bytes, u64 v)
{
	u8 b = v;
	u16 h = v;
	u32 w = v;

	switch (bytes) {
	case 1:
		memcpy((void *)a, &b, 1);
		break;
	case 2:
		memcpy((void *)a, &h, 2);
		break;
	case 4:
		memcpy((void *)a, &w, 4);
		break;
	default:
		memcpy((void *)a, &v, 8);
		break;
	}
}

/*
 * Execute the run starting at @o; return the instruction after it. The
 * caller charged and counted the whole run.
 */
static u32 op_run(struct nicprog_exec_run *r, const struct nicprog_exec_op *ops,
		  const struct nicprog_exec_op *o)
{
	u64 *regs = r->regs;
	uintptr_t a;

	for (;;) {
		switch (o->kind) {
		case NICPROG_OP_ALU64_K:
			regs[o->dst] = nicprog_exec_alu64(o->bop, regs[o->dst],
							  o->imm);
			break;
		case NICPROG_OP_ALU64_X:
			regs[o->dst] = nicprog_exec_alu64(o->bop, regs[o->dst],
							  regs[o->src]);
			break;
		case NICPROG_OP_ALU32_K:
			regs[o->dst] = nicprog_exec_alu32(o->bop,
							  (u32)regs[o->dst],
							  (u32)o->imm);
			break;
		case NICPROG_OP_ALU32_X:
			regs[o->dst] = nicprog_exec_alu32(o->bop,
							  (u32)regs[o->dst],
							  (u32)regs[o->src]);
			break;
		case NICPROG_OP_END:
			regs[o->dst] = nicprog_exec_bswap(regs[o->dst],
							  o->bop & 0x7f,
							  o->bop & 0x80);
			break;
		case NICPROG_OP_LD64:
			regs[o->dst] = o->imm;
			break;
		case NICPROG_OP_LDX:
			a = (uintptr_t)(regs[o->src] + o->off);
			nicprog_exec_touch(r, o->region, r->cycles - o->after_ct, a);
			regs[o->dst] = op_load(a, o->bop);
			break;
		case NICPROG_OP_ST:
			a = (uintptr_t)(regs[o->dst] + o->off);
			nicprog_exec_touch(r, o->region, r->cycles - o->after_ct, a);
			op_store(a, o->bop, o->imm);
			break;
		case NICPROG_OP_STX:
			a = (uintptr_t)(regs[o->dst] + o->off);
			nicprog_exec_touch(r, o->region, r->cycles - o->after_ct, a);
			op_store(a, o->bop, regs[o->src]);
			break;
		case NICPROG_OP_JA:
			return o->target;
		case NICPROG_OP_JMP_K:
			if (nicprog_exec_cond64(o->bop, regs[o->dst], o->imm))
				return o->target;
			break;
		case NICPROG_OP_JMP_X:
			if (nicprog_exec_cond64(o->bop, regs[o->dst],
						regs[o->src]))
				return o->target;
			break;
		case NICPROG_OP_JMP32_K:
			if (nicprog_exec_cond32(o->bop, (u32)regs[o->dst],
						(u32)o->imm))
				return o->target;
			break;
		case NICPROG_OP_JMP32_X:
			if (nicprog_exec_cond32(o->bop, (u32)regs[o->dst],
						(u32)regs[o->src]))
				return o->target;
			break;
		}
		if (o->last)
			return o - ops + o->len;
		o += o->len;
	}
}

/**
 * nicprog_exec_code_resume() - nicprog_exec_resume() of a translated stage
 * @code: the stage, from nicprog_exec_translate()
 * @ops: the environment's maps, clock and random source
 * @priv: passed to @ops
 * @st: scratch of the executing core; not shared while running
 * @pkt: the frame, as for nicprog_exec_resume()
 * @ctx: where to resume; @ctx->stage must be @code's stage
 * @res: what this part of the run did, exactly as nicprog_exec_resume()
 *	of the program would have filled it
 *
 * Context: any; does not sleep unless @ops do.
 */
void nicprog_exec_code_resume(const struct nicprog_exec_code *code,
			      const struct nicprog_exec_ops *ops, void *priv,
			      struct nicprog_exec_state *st,
			      struct nicprog_exec_pkt *pkt,
			      struct nicprog_exec_ctx *ctx,
			      struct nicprog_exec_result *res)
{
	const struct nicprog_exec_prog *prog = &code->prog;
	const struct nicprog_exec_op *o;
	struct nicprog_exec_run r;
	u32 pc = ctx->pc;

	nicprog_exec_run_init(&r, prog, ops, priv, st, pkt, ctx, res);
	for (;;) {
		o = pc < prog->len ? &code->ops[pc] : NULL;
		if (!o || o->kind == NICPROG_OP_STEP ||
		    r.steps + o->run_len > NICPROG_EXEC_MAX_STEPS) {
			/* the step's own bounds, as the interpreter's */
			if (nicprog_exec_step_one(&r, &pc))
				return;
			continue;
		}
		if (o->mat && !r.in_region) {
			/* as the step counts the region's first instruction */
			res->mat_lookups++;
			if (r.tr)
				nicprog_exec_trace_event(r.tr, r.cycles,
							 NICPROG_EXEC_EV_MAT,
							 0, 0, 0);
		}
		r.in_region = o->mat;
		r.steps += o->run_len;
		r.cycles += r.tr ? o->run_ct : o->run_cn;
		pc = op_run(&r, code->ops, o);
		if (nicprog_exec_stage_left(&r, pc))
			return;
	}
}
EXPORT_SYMBOL_GPL(nicprog_exec_code_resume);
