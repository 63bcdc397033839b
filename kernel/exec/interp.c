// SPDX-License-Identifier: GPL-2.0
/*
 * The NIC-core executor's interpreter: the eBPF ISA of Linux 6.1 (ALU32,
 * ALU64, JMP, JMP32, LD imm64, LDX, ST, STX, atomics, bpf-to-bpf calls),
 * XDP context loads and helpers, with NIC-cycle accounting.
 *
 * Division semantics are the verifier's rewrites made explicit: x / 0 = 0,
 * x % 0 = x (truncated to 32 bits for ALU32).
 */
#include "../offload/compat.h"
#include <net/nicprog_exec.h>

#include "run.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the executor assumes a little-endian host, as BPF_TO_LE does"
#endif

#define XDP_MD_DATA		0
#define XDP_MD_DATA_END		4
#define XDP_MD_DATA_META	8
#define XDP_MD_SIZE		24

/* Little-endian host: the low bytes of v are the value of any width. */
static u64 load(const void *p, u8 size)
{
	u64 v = 0;

	memcpy(&v, p, nicprog_insn_bytes(size));
	return v;
}

static void store(void *p, u8 size, u64 v)
{
	memcpy(p, &v, nicprog_insn_bytes(size));
}

/* A context load: pointers for data fields, values for the others. */
static u64 ctx_load(const struct nicprog_exec_pkt *pkt, s16 off, u8 size)
{
	u32 fields[XDP_MD_SIZE / 4] = {
		0, 0, 0, pkt->ingress_ifindex, pkt->rx_queue_index, 0,
	};

	switch (off) {
	case XDP_MD_DATA:
		return (u64)(uintptr_t)(pkt->buf + pkt->data);
	case XDP_MD_DATA_END:
		return (u64)(uintptr_t)(pkt->buf + pkt->data_end);
	case XDP_MD_DATA_META:
		return (u64)(uintptr_t)(pkt->buf + pkt->data_meta);
	}
	if (off < 0 || off >= XDP_MD_SIZE)
		return 0;
	return load((const u8 *)fields + off, size);
}

/* Record an event of a traced run; past the trace's end, count it. */
void nicprog_exec_trace_event(struct nicprog_exec_trace *tr, u64 at, u8 kind,
			      u8 unit, u64 len, u64 addr)
{
	struct nicprog_exec_event *ev;

	if (tr->n == NICPROG_EXEC_TRACE_MAX) {
		tr->lost++;
		return;
	}
	ev = &tr->ev[tr->n++];
	ev->at = min_t(u64, at, U32_MAX);
	ev->kind = kind;
	ev->unit = unit;
	ev->len = min_t(u64, len, 0xffff);
	ev->addr = addr;
}

bool nicprog_exec_on_stack(const struct nicprog_exec_state *st,
			   const struct nicprog_exec_ctx *ctx, uintptr_t a)
{
	return (a >= (uintptr_t)st->stack &&
		a < (uintptr_t)st->stack + sizeof(st->stack)) ||
	       (a >= (uintptr_t)ctx->stack &&
		a < (uintptr_t)ctx->stack + sizeof(ctx->stack));
}

/**
 * nicprog_exec_nic_addr() - the NIC's address of what a run touches
 * @ctx: the run's context, with the values its last lookups returned
 * @pkt: the run's frame
 * @addr: the host's address, or a map's handle (a lookup that missed)
 *
 * Return: the address in a table's NIC memory (NICPROG_EXEC_NIC_TABLE()),
 * in the frame's buffer (@pkt->nic), or @addr for memory that is neither.
 */
u64 nicprog_exec_nic_addr(const struct nicprog_exec_ctx *ctx,
			  const struct nicprog_exec_pkt *pkt, u64 addr)
{
	const struct nicprog_exec_win *w;
	u32 i, n = ctx->n_win < NICPROG_EXEC_WINDOWS ? ctx->n_win :
		   NICPROG_EXEC_WINDOWS;

	if ((addr & ~NICPROG_EXEC_MAP_MASK) == NICPROG_EXEC_MAP_TAG)
		return NICPROG_EXEC_NIC_TABLE(addr & NICPROG_EXEC_MAP_MASK);
	if (addr - (uintptr_t)pkt->buf < pkt->buf_len)
		return pkt->nic + (addr - (uintptr_t)pkt->buf);
	/* the latest first: a slot reused since holds the newer value */
	for (i = 1; i <= n; i++) {
		w = &ctx->win[(ctx->n_win - i) % NICPROG_EXEC_WINDOWS];
		if (addr - w->host < w->len)
			return w->nic + (addr - w->host);
	}
	return addr;
}

/* Record where the value a lookup in @map returned lies on the NIC. */
static void lookup_win(struct nicprog_exec_run *r, u32 map, u64 value)
{
	struct nicprog_exec_win *w;
	u32 len = 0;
	u64 off;

	off = r->ops->map_offset(r->priv, map, (void *)(uintptr_t)value, &len);
	w = &r->ctx->win[r->ctx->n_win++ % NICPROG_EXEC_WINDOWS];
	w->host = value;
	w->nic = NICPROG_EXEC_NIC_TABLE(map) + off;
	w->len = len;
}

/* Extra cycles of touching @addr: packet, stack (none) or map memory. */
u32 nicprog_exec_mem_latency(const struct nicprog_exec_prog *prog,
			     const struct nicprog_exec_state *st,
			     const struct nicprog_exec_ctx *ctx,
			     const struct nicprog_exec_pkt *pkt, u64 addr)
{
	uintptr_t a = (uintptr_t)addr;

	if (nicprog_exec_on_stack(st, ctx, a))
		return 0;
	if (a >= (uintptr_t)pkt->buf && a < (uintptr_t)pkt->buf + pkt->buf_len)
		return prog->lat_pkt;
	return prog->lat_map;
}

/* compat.h's operation number for a BPF atomic's imm. */
static int atomic_kind(s32 imm)
{
	switch (imm & ~BPF_FETCH) {
	case BPF_ADD:
		return 0;
	case BPF_OR:
		return 1;
	case BPF_AND:
		return 2;
	case BPF_XOR:
		return 3;
	default:
		return 4;	/* BPF_XCHG */
	}
}

static u64 atomic_op(const struct bpf_insn *insn, u64 *regs)
{
	void *p = (void *)(uintptr_t)(regs[insn->dst_reg] + insn->off);
	bool dw = BPF_SIZE(insn->code) == BPF_DW;
	u64 src = regs[insn->src_reg];
	int op;
	u64 old;

	if (insn->imm == BPF_CMPXCHG) {
		old = dw ? nicprog_cmpxchg64(p, regs[BPF_REG_0], src) :
			   nicprog_cmpxchg32(p, (u32)regs[BPF_REG_0], (u32)src);
		regs[BPF_REG_0] = old;
		return old;
	}
	op = atomic_kind(insn->imm);
	old = dw ? nicprog_atomic64(p, op, src) :
		   nicprog_atomic32(p, op, (u32)src);
	if (insn->imm & BPF_FETCH)
		regs[insn->src_reg] = old;
	return old;
}

/*
 * The NIC's random stream for the frame (struct nicprog_exec_pkt.rng):
 * xorshift64, seeded by splitmix64 of its arrival on the NIC's clock, so
 * that a frame arriving at the same time draws the same numbers on a
 * simulated NIC and in an offline replay.
 */
static u32 nic_prandom(struct nicprog_exec_pkt *pkt)
{
	u64 x = pkt->rng;

	if (!x) {
		x = pkt->now_ns + 0x9e3779b97f4a7c15ULL;
		x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
		x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
		x ^= x >> 31;
		x = x ?: 1;
	}
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	pkt->rng = x;
	return x >> 32;
}

static u64 call_helper(s32 id, u64 *r, const struct nicprog_exec_ops *ops,
		       void *priv, struct nicprog_exec_state *st,
		       struct nicprog_exec_pkt *pkt,
		       struct nicprog_exec_result *res)
{
	u32 map = r[1] & NICPROG_EXEC_MAP_MASK;
	u64 ret = 0;

	switch (id) {
	case BPF_FUNC_map_lookup_elem:
		return (u64)(uintptr_t)ops->map_lookup(priv, map,
						       (void *)(uintptr_t)r[2]);
	case BPF_FUNC_map_update_elem:
		return ops->map_update(priv, map, (void *)(uintptr_t)r[2],
				       (void *)(uintptr_t)r[3], r[4]);
	case BPF_FUNC_map_delete_elem:
		return ops->map_delete(priv, map, (void *)(uintptr_t)r[2]);
	case BPF_FUNC_ktime_get_ns:
		/* a NIC's clock, not the host's, where the NIC keeps one */
		return pkt->now_ns ?: ops->ktime_ns(priv);
	case BPF_FUNC_get_prandom_u32:
		return pkt->now_ns ? nic_prandom(pkt) : ops->prandom(priv);
	case BPF_FUNC_redirect:
		if (r[2])
			return XDP_ABORTED;
		res->redirect_ifindex = (u32)r[1];
		return XDP_REDIRECT;
	case BPF_FUNC_csum_diff:
		return nicprog_exec_csum_diff(st, (const u32 *)(uintptr_t)r[1],
					      (u32)r[2],
					      (const u32 *)(uintptr_t)r[3],
					      (u32)r[4], (u32)r[5]);
	case BPF_FUNC_xdp_adjust_head:
		return nicprog_exec_adjust_head(pkt, (s32)r[2]);
	case BPF_FUNC_xdp_adjust_meta:
		return nicprog_exec_adjust_meta(pkt, (s32)r[2]);
	case BPF_FUNC_xdp_adjust_tail:
		return nicprog_exec_adjust_tail(pkt, (s32)r[2]);
	case BPF_FUNC_xdp_get_buff_len:
		return pkt->data_end - pkt->data;	/* linear: no frags */
	case BPF_FUNC_xdp_load_bytes:
		return nicprog_exec_load_bytes(pkt, (u32)r[2],
					       (void *)(uintptr_t)r[3],
					       (u32)r[4]);
	case BPF_FUNC_xdp_store_bytes:
		return nicprog_exec_store_bytes(pkt, (u32)r[2],
						(const void *)(uintptr_t)r[3],
						(u32)r[4]);
	case BPF_FUNC_perf_event_output:
		if (!ops->event_output) {
			res->error = -EOPNOTSUPP;
			return 0;
		}
		return ops->event_output(priv, r[2] & NICPROG_EXEC_MAP_MASK,
					 r[3], (const void *)(uintptr_t)r[4],
					 r[5], pkt);
	case BPF_FUNC_check_mtu:
	case BPF_FUNC_fib_lookup:	/* nicprog_exec_host_helper() */
	case BPF_FUNC_trace_printk:
	case BPF_FUNC_trace_vprintk:
		/* bpf_check_mtu() of the port's own MTU, where the NIC knows it */
		if (id == BPF_FUNC_check_mtu && !r[2] && pkt->mtu)
			return nicprog_exec_check_mtu(pkt,
						      (u32 *)(uintptr_t)r[3],
						      (s32)r[4], r[5]);
		if (!ops->host_call ||
		    ops->host_call(priv, id, pkt, &r[BPF_REG_1], &ret))
			res->error = -EOPNOTSUPP;	/* not on the host */
		return ret;
	}
	return 0;	/* unreachable after nicprog_exec_check() */
}

/**
 * nicprog_exec_start() - prepare a run of a program from its first insn
 * @ctx: the run's context
 * @pkt: the frame, which R1 (the XDP context) points to
 *
 * Context: any.
 */
void nicprog_exec_start(struct nicprog_exec_ctx *ctx,
			struct nicprog_exec_pkt *pkt)
{
	memset(ctx->regs, 0, sizeof(ctx->regs));
	ctx->regs[BPF_REG_1] = (u64)(uintptr_t)pkt;
	ctx->regs[BPF_REG_10] = (u64)(uintptr_t)(ctx->stack +
						 NICPROG_EXEC_STACK / 8);
	ctx->pc = 0;
	ctx->stage = 0;
	ctx->redirect_ifindex = 0;
	ctx->n_win = 0;
}

/*
 * Run a call on an engine: false if the engine refused it (none, or its
 * queue is full), and the called function's body runs instead.
 */
static bool accel_call(u8 accel, const struct nicprog_exec_ops *ops,
		       void *priv, struct nicprog_exec_state *st,
		       struct nicprog_exec_pkt *pkt, u64 *regs, u64 *cycles)
{
	u64 args[5], ret;
	s64 c;

	memcpy(args, &regs[BPF_REG_1], sizeof(args));
	if (accel & NICPROG_EXEC_ACCEL_SEED_INV)
		args[3] = (u32)~args[3];
	c = ops->accel(priv, accel & NICPROG_EXEC_AFN_MASK, pkt, args, &ret);
	if (c < 0)
		return false;
	regs[BPF_REG_0] = nicprog_exec_accel_ret(accel, ret);
	if (st->trace)
		nicprog_exec_trace_event(st->trace, *cycles,
					 NICPROG_EXEC_EV_ACCEL,
					 accel & NICPROG_EXEC_AFN_MASK,
					 args[2], 0);
	else
		*cycles += c;
	return true;
}

/**
 * nicprog_exec_step() - run the instruction at @pc
 * @r: the run
 * @pc: the instruction; the caller counted it in @r->steps
 *
 * Return: the next instruction, NICPROG_EXEC_STEP_EXIT when the program
 * returned (@r->res has its verdict) or NICPROG_EXEC_STEP_BAD.
 */
u32 nicprog_exec_step(struct nicprog_exec_run *r, u32 pc)
{
	const struct nicprog_exec_prog *prog = r->prog;
	const struct bpf_insn *insn = &prog->insns[pc];
	struct nicprog_exec_trace *tr = r->tr;
	struct nicprog_exec_result *res = r->res;
	struct nicprog_exec_frame *f;
	u8 cls = BPF_CLASS(insn->code);
	u8 op = BPF_OP(insn->code);
	u8 size = BPF_SIZE(insn->code);
	u64 *regs = r->regs;
	u8 region = prog->region ? prog->region[pc] :
				   NICPROG_EXEC_REGION_NONE;
	u32 next = pc + 1;
	u64 addr, src;

	if (prog->flags && (prog->flags[pc] & NICPROG_EXEC_INSN_MAT_REGION)) {
		/* a MAT stage runs the region, not the core */
		if (!r->in_region) {
			res->mat_lookups++;
			if (tr)
				nicprog_exec_trace_event(tr, r->cycles,
							 NICPROG_EXEC_EV_MAT,
							 0, 0, 0);
		}
		r->in_region = true;
	} else {
		r->in_region = false;
	}
	if (!tr)
		r->cycles += prog->cycles ? prog->cycles[pc] :
			     prog->cost[nicprog_insn_class(insn->code)];
	else if (!r->in_region)
		r->cycles += prog->cost[nicprog_insn_class(insn->code)];

	switch (cls) {
	case BPF_ALU64:
		if (op == BPF_END)	/* rejected by the check */
			return NICPROG_EXEC_STEP_BAD;
		src = BPF_SRC(insn->code) == BPF_X ? regs[insn->src_reg] :
						     (u64)(s64)insn->imm;
		regs[insn->dst_reg] = nicprog_exec_alu64(op, regs[insn->dst_reg],
							 src);
		break;
	case BPF_ALU:
		if (op == BPF_END) {
			regs[insn->dst_reg] =
				nicprog_exec_bswap(regs[insn->dst_reg],
						   insn->imm,
						   BPF_SRC(insn->code) == BPF_TO_BE);
			break;
		}
		src = BPF_SRC(insn->code) == BPF_X ? regs[insn->src_reg] :
						     (u32)insn->imm;
		regs[insn->dst_reg] =
			nicprog_exec_alu32(op, (u32)regs[insn->dst_reg],
					   (u32)src);
		break;
	case BPF_LD:
		if (insn->src_reg == BPF_PSEUDO_MAP_FD)
			regs[insn->dst_reg] = NICPROG_EXEC_MAP_TAG |
					      (u32)insn->imm;
		else
			regs[insn->dst_reg] = (u64)(u32)insn->imm |
					      ((u64)(u32)insn[1].imm << 32);
		next = pc + 2;
		break;
	case BPF_LDX:
		if (prog->flags && (prog->flags[pc] & NICPROG_EXEC_INSN_CTX)) {
			regs[insn->dst_reg] = ctx_load(r->pkt, insn->off, size);
			break;
		}
		addr = regs[insn->src_reg] + insn->off;
		nicprog_exec_touch(r, region, r->cycles, addr);
		regs[insn->dst_reg] = load((void *)(uintptr_t)addr, size);
		break;
	case BPF_ST:
	case BPF_STX:
		if (prog->flags && (prog->flags[pc] & NICPROG_EXEC_INSN_CTX)) {
			/* rx_queue_index: the host queue a PASS takes */
			r->pkt->rx_queue_index = cls == BPF_ST ?
						 (u32)insn->imm :
						 (u32)regs[insn->src_reg];
			break;
		}
		addr = regs[insn->dst_reg] + insn->off;
		nicprog_exec_touch(r, region, r->cycles, addr);
		if (BPF_MODE(insn->code) == BPF_ATOMIC) {
			atomic_op(insn, regs);
			break;
		}
		store((void *)(uintptr_t)addr, size,
		      cls == BPF_ST ? (u64)(s64)insn->imm :
				      regs[insn->src_reg]);
		break;
	case BPF_JMP:
		if (op == BPF_EXIT) {
			if (!r->depth) {
				res->ret = regs[BPF_REG_0];
				res->action = (u32)res->ret;
				return NICPROG_EXEC_STEP_EXIT;
			}
			f = &r->frames[--r->depth];
			memcpy(&regs[BPF_REG_6], f->saved, sizeof(f->saved));
			regs[BPF_REG_10] = f->fp;
			return f->ret_pc;
		}
		if (op == BPF_CALL && insn->src_reg == BPF_PSEUDO_CALL &&
		    prog->accel && prog->accel[pc] && r->ops->accel &&
		    accel_call(prog->accel[pc], r->ops, r->priv, r->st, r->pkt,
			       regs, &r->cycles)) {
			res->accel_jobs++;
			break;
		}
		if (op == BPF_CALL && insn->src_reg == BPF_PSEUDO_CALL) {
			if (r->depth + 1 >= NICPROG_EXEC_MAX_FRAMES)
				goto bad;
			f = &r->frames[r->depth++];
			f->ret_pc = pc + 1;
			memcpy(f->saved, &regs[BPF_REG_6], sizeof(f->saved));
			f->fp = regs[BPF_REG_10];
			regs[BPF_REG_10] = (u64)(uintptr_t)
				(r->st->stack[r->depth] + NICPROG_EXEC_STACK / 8);
			return pc + 1 + insn->imm;
		}
		if (op == BPF_CALL) {
			bool mat = prog->flags &&
				   (prog->flags[pc] & NICPROG_EXEC_INSN_MAT);
			bool map = insn->imm >= BPF_FUNC_map_lookup_elem &&
				   insn->imm <= BPF_FUNC_map_delete_elem;

			if (mat)
				res->mat_lookups++;
			if (mat && tr)
				nicprog_exec_trace_event(tr, r->cycles,
							 NICPROG_EXEC_EV_MAT,
							 0, 0, 0);
			else if (map && !tr && !prog->cycles)
				r->cycles += prog->lat_map;
			addr = regs[BPF_REG_1];	/* the map */
			regs[BPF_REG_0] = call_helper(insn->imm, regs, r->ops,
						      r->priv, r->st, r->pkt,
						      res);
			if (res->error)
				return NICPROG_EXEC_STEP_BAD;
			if (tr && r->ops->map_offset && regs[BPF_REG_0] &&
			    insn->imm == BPF_FUNC_map_lookup_elem)
				lookup_win(r, addr & NICPROG_EXEC_MAP_MASK,
					   regs[BPF_REG_0]);
			/* a hit touches its element, else the map */
			if (map && !mat && tr)
				nicprog_exec_touch(r, region, r->cycles,
						   insn->imm == BPF_FUNC_map_lookup_elem &&
						   regs[BPF_REG_0] ?
						   regs[BPF_REG_0] : addr);
			break;
		}
		src = BPF_SRC(insn->code) == BPF_X ? regs[insn->src_reg] :
						     (u64)(s64)insn->imm;
		if (nicprog_exec_cond64(op, regs[insn->dst_reg], src))
			next = pc + 1 + insn->off;
		break;
	case BPF_JMP32:
		src = BPF_SRC(insn->code) == BPF_X ? regs[insn->src_reg] :
						     (u32)insn->imm;
		if (nicprog_exec_cond32(op, (u32)regs[insn->dst_reg],
					(u32)src))
			next = pc + 1 + insn->off;
		break;
	}
	return next;
bad:
	res->error = -EOPNOTSUPP;
	return NICPROG_EXEC_STEP_BAD;
}

/**
 * nicprog_exec_stage_left() - does the run stop before @pc?
 * @r: the run
 * @pc: the next instruction
 *
 * Return: true if @pc is a main-program instruction of another stage;
 * the live state then says where the run resumes.
 */
bool nicprog_exec_stage_left(const struct nicprog_exec_run *r, u32 pc)
{
	const struct nicprog_exec_prog *prog = r->prog;
	struct nicprog_exec_ctx *ctx = r->ctx;

	if (!prog->stage || r->depth || pc >= prog->len ||
	    prog->stage[pc] == ctx->stage ||
	    prog->stage[pc] == NICPROG_EXEC_STAGE_ANY)
		return false;
	ctx->pc = pc;
	ctx->stage = prog->stage[pc];
	ctx->redirect_ifindex = r->res->redirect_ifindex;
	r->res->cycles = r->cycles;
	r->res->insns = r->steps;
	return true;
}

/**
 * nicprog_exec_run_end() - finish a run that did not change stage
 * @r: the run
 * @pc: the instruction it ended at
 * @how: NICPROG_EXEC_STEP_EXIT, or NICPROG_EXEC_STEP_BAD with
 *	@r->res->error set (-EOPNOTSUPP if not)
 */
void nicprog_exec_run_end(struct nicprog_exec_run *r, u32 pc, u32 how)
{
	struct nicprog_exec_result *res = r->res;

	if (how != NICPROG_EXEC_STEP_EXIT) {
		if (!res->error)
			res->error = -EOPNOTSUPP;
		res->error_insn = pc;
		res->action = XDP_ABORTED;
	}
	res->done = true;
	res->cycles = r->cycles;
	res->insns = r->steps;
}

/**
 * nicprog_exec_resume() - run a program until it exits or changes stage
 * @prog: a program that passed nicprog_exec_check()
 * @ops: the environment's maps, clock and random source
 * @priv: passed to @ops
 * @st: scratch of the executing core; not shared while running
 * @pkt: the frame; the program may move its bounds and rewrite it. It
 *	must stay at the address it had when the run started: the live
 *	state may hold pointers into it, as into @ctx's stack.
 * @ctx: where to resume, from nicprog_exec_start() or from the stage
 *	before; updated to where the next stage resumes
 * @res: filled with what this part of the run did; @res->done tells
 *	whether the program finished
 *
 * Without @prog->stage the program runs to its end. With it, the run
 * stops before the first main-program instruction of a stage other than
 * @ctx->stage; subprograms run wholly in the stage that calls them.
 *
 * Context: any; does not sleep unless @ops do.
 */
void nicprog_exec_resume(const struct nicprog_exec_prog *prog,
			 const struct nicprog_exec_ops *ops, void *priv,
			 struct nicprog_exec_state *st,
			 struct nicprog_exec_pkt *pkt,
			 struct nicprog_exec_ctx *ctx,
			 struct nicprog_exec_result *res)
{
	struct nicprog_exec_run r;
	u32 pc = ctx->pc;

	nicprog_exec_run_init(&r, prog, ops, priv, st, pkt, ctx, res);
	while (!nicprog_exec_step_one(&r, &pc))
		;
}

/**
 * nicprog_exec_run() - run a program on one frame, start to end
 * @prog: a program that passed nicprog_exec_check()
 * @ops: the environment's maps, clock and random source
 * @priv: passed to @ops
 * @st: scratch of the executing core; not shared while running
 * @pkt: the frame; the program may move its bounds and rewrite it
 * @res: filled with the verdict, cycles and instructions
 *
 * Stages are ignored: the whole program runs here.
 *
 * Context: any; does not sleep unless @ops do.
 */
void nicprog_exec_run(const struct nicprog_exec_prog *prog,
		      const struct nicprog_exec_ops *ops, void *priv,
		      struct nicprog_exec_state *st,
		      struct nicprog_exec_pkt *pkt,
		      struct nicprog_exec_result *res)
{
	struct nicprog_exec_prog whole = *prog;

	whole.stage = NULL;
	nicprog_exec_start(&st->ctx, pkt);
	nicprog_exec_resume(&whole, ops, priv, st, pkt, &st->ctx, res);
}
