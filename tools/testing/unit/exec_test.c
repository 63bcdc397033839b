// SPDX-License-Identifier: GPL-2.0
/*
 * The NIC-core executor, natively: instruction semantics against an
 * independent reference written from the ISA document (not from the
 * executor), XDP context and helpers against Linux 6.1's definitions,
 * refusals of what it does not implement, and cycle accounting.
 */
#include "compat.h"
#include <net/nicprog_exec.h>

#include "kselftest_harness.h"

#ifdef EXEC_TRANSLATED
/*
 * exec_test_translated: every case again on the translated form
 * (kernel/exec/threaded.c), translated at each run, against the same
 * reference semantics and cycle counts.
 */
static void resume_translated(const struct nicprog_exec_prog *prog,
			      const struct nicprog_exec_ops *ops, void *priv,
			      struct nicprog_exec_state *st,
			      struct nicprog_exec_pkt *pkt,
			      struct nicprog_exec_ctx *ctx,
			      struct nicprog_exec_result *res)
{
	struct nicprog_exec_code *code = nicprog_exec_translate(prog, ctx->stage);

	if (!code)
		abort();
	nicprog_exec_code_resume(code, ops, priv, st, pkt, ctx, res);
	nicprog_exec_code_free(code);
}

static void run_translated(const struct nicprog_exec_prog *prog,
			   const struct nicprog_exec_ops *ops, void *priv,
			   struct nicprog_exec_state *st,
			   struct nicprog_exec_pkt *pkt,
			   struct nicprog_exec_result *res)
{
	struct nicprog_exec_code *code;
	struct nicprog_exec_prog whole = *prog;

	/* the whole program from its first instruction, stage or not */
	whole.stage = NULL;
	nicprog_exec_start(&st->ctx, pkt);
	code = nicprog_exec_translate(&whole, st->ctx.stage);
	if (!code)
		abort();
	nicprog_exec_code_resume(code, ops, priv, st, pkt, &st->ctx, res);
	nicprog_exec_code_free(code);
}

#define nicprog_exec_run	run_translated
#define nicprog_exec_resume	resume_translated
#endif

#define I(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })
#define LD64(d, v)	I(BPF_LD | BPF_DW | BPF_IMM, d, 0, 0, (u32)(u64)(v)), \
			I(0, 0, 0, 0, (u32)((u64)(v) >> 32))
#define MOV64(d, i)	I(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define MOV64R(d, s)	I(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define EXIT		I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
#define CALL(f)		I(BPF_JMP | BPF_CALL, 0, 0, 0, f)

static const struct nicprog_exec_ops no_ops;

static struct nicprog_exec_state state;

static struct nicprog_exec_result run_insns(const struct bpf_insn *insns,
					    u32 len)
{
	struct nicprog_exec_prog prog = { .insns = insns, .len = len };
	struct nicprog_exec_pkt pkt = { 0 };
	struct nicprog_exec_result res;
	const char *why;
	u32 bad;
	int c;

	for (c = 0; c < __NICPROG_IC_MAX; c++)
		prog.cost[c] = 1;
	if (nicprog_exec_check(&prog, &bad, &why)) {
		memset(&res, 0, sizeof(res));
		res.error = -999;
		return res;
	}
	nicprog_exec_run(&prog, &no_ops, NULL, &state, &pkt, &res);
	return res;
}

/* Reference semantics, per the BPF ISA as of Linux 6.1. */
static u64 ref_alu(int is64, u8 op, u64 a, u64 b)
{
	if (!is64) {
		u32 x = a, y = b;

		switch (op) {
		case BPF_ADD: return (u32)(x + y);
		case BPF_SUB: return (u32)(x - y);
		case BPF_MUL: return (u32)(x * y);
		case BPF_DIV: return y == 0 ? 0 : x / y;
		case BPF_MOD: return y == 0 ? x : x % y;
		case BPF_OR: return x | y;
		case BPF_AND: return x & y;
		case BPF_XOR: return x ^ y;
		case BPF_LSH: return (u32)(x << (y % 32));
		case BPF_RSH: return x >> (y % 32);
		case BPF_ARSH: return (u32)((int32_t)x >> (y % 32));
		case BPF_MOV: return y;
		case BPF_NEG: return (u32)(0 - x);
		}
	}
	switch (op) {
	case BPF_ADD: return a + b;
	case BPF_SUB: return a - b;
	case BPF_MUL: return a * b;
	case BPF_DIV: return b == 0 ? 0 : a / b;
	case BPF_MOD: return b == 0 ? a : a % b;
	case BPF_OR: return a | b;
	case BPF_AND: return a & b;
	case BPF_XOR: return a ^ b;
	case BPF_LSH: return a << (b % 64);
	case BPF_RSH: return a >> (b % 64);
	case BPF_ARSH: return (u64)((int64_t)a >> (b % 64));
	case BPF_MOV: return b;
	case BPF_NEG: return 0 - a;
	}
	return ~0ULL;
}

static const u64 values[] = {
	0, 1, 2, 3, 7, 31, 32, 33, 63, 64, 65, 0x7f, 0x80, 0xff,
	0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ULL,
	0x7fffffffffffffffULL, 0x8000000000000000ULL, 0xffffffffffffffffULL,
	0x123456789abcdef0ULL, 0xfffffffffffffff6ULL,
};

static const u8 alu_ops[] = {
	BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_MOD, BPF_OR, BPF_AND,
	BPF_XOR, BPF_LSH, BPF_RSH, BPF_ARSH, BPF_MOV, BPF_NEG,
};

/*
 * A straight line whose cycles pass U32_MAX: 70,000 additions at the
 * highest price a profile can give (65,535 each), counted in full (the
 * translated form splits such a run rather than wrap its sums).
 */
TEST(cycles_of_a_long_straight_line)
{
	enum { N = 70000 };
	struct nicprog_exec_prog prog = { .len = N + 1 };
	struct nicprog_exec_pkt pkt = { 0 };
	struct nicprog_exec_result res;
	struct bpf_insn *insns;
	const char *why;
	u32 i, bad;
	int c;

	insns = calloc(N + 1, sizeof(*insns));
	ASSERT_NE(NULL, insns);
	for (i = 0; i < N; i++)
		insns[i] = I(BPF_ALU64 | BPF_ADD | BPF_K, 0, 0, 0, 1);
	insns[N] = EXIT;
	prog.insns = insns;
	for (c = 0; c < __NICPROG_IC_MAX; c++)
		prog.cost[c] = 65535;
	ASSERT_EQ(0, nicprog_exec_check(&prog, &bad, &why));
	nicprog_exec_run(&prog, &no_ops, NULL, &state, &pkt, &res);
	EXPECT_EQ(0, res.error);
	EXPECT_EQ((u64)N, res.ret);
	EXPECT_EQ((u64)(N + 1) * 65535, res.cycles);
	free(insns);
}

TEST(alu_register_operands)
{
	u32 i, j, k, is64, fails = 0;

	for (is64 = 0; is64 < 2; is64++)
	for (k = 0; k < ARRAY_SIZE(alu_ops); k++)
	for (i = 0; i < ARRAY_SIZE(values); i++)
	for (j = 0; j < ARRAY_SIZE(values); j++) {
		struct bpf_insn p[] = {
			LD64(0, values[i]), LD64(1, values[j]),
			I((is64 ? BPF_ALU64 : BPF_ALU) | alu_ops[k] | BPF_X,
			  0, 1, 0, 0),
			EXIT,
		};
		struct nicprog_exec_result r = run_insns(p, ARRAY_SIZE(p));
		u64 want = ref_alu(is64, alu_ops[k], values[i], values[j]);

		if (r.error || r.ret != want) {
			if (fails++ < 5)
				TH_LOG("%s op 0x%x %llx, %llx: got %llx want %llx",
				       is64 ? "alu64" : "alu32", alu_ops[k],
				       (unsigned long long)values[i],
				       (unsigned long long)values[j],
				       (unsigned long long)r.ret,
				       (unsigned long long)want);
		}
	}
	EXPECT_EQ(0U, fails);
}

/* The immediate forms: imm is sign-extended to 64 bits, or taken as 32. */
TEST(alu_immediate_operands)
{
	u32 i, j, k, is64, fails = 0;

	for (is64 = 0; is64 < 2; is64++)
	for (k = 0; k < ARRAY_SIZE(alu_ops); k++)
	for (i = 0; i < ARRAY_SIZE(values); i++)
	for (j = 0; j < ARRAY_SIZE(values); j++) {
		s32 imm = (s32)values[j];
		struct bpf_insn p[] = {
			LD64(0, values[i]),
			I((is64 ? BPF_ALU64 : BPF_ALU) | alu_ops[k] | BPF_K,
			  0, 0, 0, imm),
			EXIT,
		};
		struct nicprog_exec_result r = run_insns(p, ARRAY_SIZE(p));
		u64 want = ref_alu(is64, alu_ops[k], values[i], (u64)(s64)imm);

		if (r.error || r.ret != want) {
			if (fails++ < 5)
				TH_LOG("%s op 0x%x %llx, imm %d: got %llx want %llx",
				       is64 ? "alu64" : "alu32", alu_ops[k],
				       (unsigned long long)values[i], imm,
				       (unsigned long long)r.ret,
				       (unsigned long long)want);
		}
	}
	EXPECT_EQ(0U, fails);
}

TEST(alu_immediates_sign_extend)
{
	struct bpf_insn p[] = {
		MOV64(0, -1),					/* all ones */
		I(BPF_ALU64 | BPF_AND | BPF_K, 0, 0, 0, 0x7ffffff0),
		I(BPF_ALU64 | BPF_ADD | BPF_K, 0, 0, 0, -16),	/* -16 */
		EXIT,
	};
	struct bpf_insn q[] = {
		MOV64(0, -1),
		I(BPF_ALU | BPF_ADD | BPF_K, 0, 0, 0, 1),	/* 32-bit: 0 */
		I(BPF_ALU64 | BPF_SUB | BPF_K, 0, 0, 0, 1),
		EXIT,
	};

	EXPECT_EQ(0x7fffffe0ULL, run_insns(p, ARRAY_SIZE(p)).ret);
	EXPECT_EQ(~0ULL, run_insns(q, ARRAY_SIZE(q)).ret);
}

TEST(byte_swaps)
{
	struct { u8 src; s32 width; u64 want; } c[] = {
		{ BPF_TO_BE, 16, 0xf0de },
		{ BPF_TO_BE, 32, 0xf0debc9a },
		{ BPF_TO_BE, 64, 0xf0debc9a78563412ULL },
		{ BPF_TO_LE, 16, 0xdef0 },
		{ BPF_TO_LE, 32, 0x9abcdef0 },
		{ BPF_TO_LE, 64, 0x123456789abcdef0ULL },
	};
	u32 i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		struct bpf_insn p[] = {
			LD64(0, 0x123456789abcdef0ULL),
			I(BPF_ALU | BPF_END | c[i].src, 0, 0, 0, c[i].width),
			EXIT,
		};
		EXPECT_EQ(c[i].want, run_insns(p, ARRAY_SIZE(p)).ret);
	}
}

/*
 * The reference derives every outcome from one three-way comparison, and
 * signed order from unsigned order with the sign bit flipped, so that it
 * shares no case with the executor's switch.
 */
static int ref_cond(int is64, u8 op, u64 a, u64 b)
{
	u64 mask = is64 ? ~0ULL : 0xffffffffULL;
	u64 sign = is64 ? 1ULL << 63 : 1ULL << 31;
	u64 x = a & mask, y = b & mask;
	int u = (x > y) - (x < y);
	int s = ((x ^ sign) > (y ^ sign)) - ((x ^ sign) < (y ^ sign));

	switch (op) {
	case BPF_JEQ: return u == 0;
	case BPF_JNE: return u != 0;
	case BPF_JGT: return u > 0;
	case BPF_JGE: return u >= 0;
	case BPF_JLT: return u < 0;
	case BPF_JLE: return u <= 0;
	case BPF_JSET: return (x & y) != 0;
	case BPF_JSGT: return s > 0;
	case BPF_JSGE: return s >= 0;
	case BPF_JSLT: return s < 0;
	case BPF_JSLE: return s <= 0;
	}
	return -1;
}

TEST(conditional_jumps)
{
	static const u8 ops[] = {
		BPF_JEQ, BPF_JNE, BPF_JGT, BPF_JGE, BPF_JLT, BPF_JLE,
		BPF_JSET, BPF_JSGT, BPF_JSGE, BPF_JSLT, BPF_JSLE,
	};
	u32 i, j, k, is64, x, fails = 0;

	for (x = 0; x < 2; x++)
	for (is64 = 0; is64 < 2; is64++)
	for (k = 0; k < ARRAY_SIZE(ops); k++)
	for (i = 0; i < ARRAY_SIZE(values); i++)
	for (j = 0; j < ARRAY_SIZE(values); j++) {
		s32 imm = (s32)values[j];
		struct bpf_insn p[] = {
			LD64(1, values[i]), LD64(2, values[j]), MOV64(0, 0),
			I((is64 ? BPF_JMP : BPF_JMP32) | ops[k] |
			  (x ? BPF_X : BPF_K), 1, x ? 2 : 0, 1, x ? 0 : imm),
			EXIT,
			MOV64(0, 1),
			EXIT,
		};
		struct nicprog_exec_result r = run_insns(p, ARRAY_SIZE(p));
		u64 b = x ? values[j] : (u64)(s64)imm;

		if (r.error || (int)r.ret != ref_cond(is64, ops[k], values[i],
						      b))
			fails++;
	}
	EXPECT_EQ(0U, fails);
}

TEST(memory_sizes_and_stack)
{
	struct bpf_insn p[] = {
		LD64(1, 0x1122334455667788ULL),
		I(BPF_STX | BPF_MEM | BPF_DW, 10, 1, -8, 0),
		I(BPF_ST | BPF_MEM | BPF_W, 10, 0, -16, -2),	/* fffffffe */
		I(BPF_LDX | BPF_MEM | BPF_B, 2, 10, -8, 0),	/* 88 */
		I(BPF_LDX | BPF_MEM | BPF_H, 3, 10, -6, 0),	/* 5566 */
		I(BPF_LDX | BPF_MEM | BPF_W, 4, 10, -16, 0),	/* fffffffe */
		MOV64R(0, 2),
		I(BPF_ALU64 | BPF_LSH | BPF_K, 0, 0, 0, 16),
		I(BPF_ALU64 | BPF_OR | BPF_X, 0, 3, 0, 0),
		I(BPF_ALU64 | BPF_LSH | BPF_K, 0, 0, 0, 32),
		I(BPF_ALU64 | BPF_OR | BPF_X, 0, 4, 0, 0),
		EXIT,
	};

	EXPECT_EQ(0x885566fffffffeULL, run_insns(p, ARRAY_SIZE(p)).ret);
}

TEST(atomics)
{
	struct bpf_insn p[] = {
		MOV64(1, 10),
		I(BPF_STX | BPF_MEM | BPF_DW, 10, 1, -8, 0),		/* m = 10 */
		MOV64(2, 5),
		I(BPF_STX | BPF_ATOMIC | BPF_DW, 10, 2, -8, BPF_ADD | BPF_FETCH),
		/* r2 = 10, m = 15 */
		MOV64(3, 3),
		I(BPF_STX | BPF_ATOMIC | BPF_DW, 10, 3, -8, BPF_XCHG),
		/* r3 = 15, m = 3 */
		MOV64(0, 3),
		MOV64(4, 99),
		I(BPF_STX | BPF_ATOMIC | BPF_DW, 10, 4, -8, BPF_CMPXCHG),
		/* r0 = 3, m = 99 */
		I(BPF_LDX | BPF_MEM | BPF_DW, 5, 10, -8, 0),
		MOV64(6, 0xff00),
		I(BPF_STX | BPF_ATOMIC | BPF_W, 10, 6, -8, BPF_OR),	/* m |= ff00 */
		I(BPF_LDX | BPF_MEM | BPF_DW, 7, 10, -8, 0),
		/* r0 = r2 + r3 + r0 + r5 + r7 = 10 + 15 + 3 + 99 + 0xff63 */
		I(BPF_ALU64 | BPF_ADD | BPF_X, 0, 2, 0, 0),
		I(BPF_ALU64 | BPF_ADD | BPF_X, 0, 3, 0, 0),
		I(BPF_ALU64 | BPF_ADD | BPF_X, 0, 5, 0, 0),
		I(BPF_ALU64 | BPF_ADD | BPF_X, 0, 7, 0, 0),
		EXIT,
	};

	EXPECT_EQ(10ULL + 15 + 3 + 99 + 0xff63, run_insns(p, ARRAY_SIZE(p)).ret);
}

/*
 * Each read-modify-write at both widths, with operands whose bits overlap
 * (so that OR, XOR and ADD differ): the old value fetched and the word
 * left behind, against the operation written out here.
 */
TEST(atomic_ops_each_width)
{
	static const s32 ops[] = {
		BPF_ADD | BPF_FETCH, BPF_OR | BPF_FETCH, BPF_AND | BPF_FETCH,
		BPF_XOR | BPF_FETCH, BPF_XCHG,
	};
	const u64 m0 = 0xf0f0f0f0ff00ff0fULL, v = 0x0ff00ff00ff0f0ffULL;
	u32 k, dw, fails = 0;

	for (dw = 0; dw < 2; dw++)
	for (k = 0; k < ARRAY_SIZE(ops); k++) {
		u64 mask = dw ? ~0ULL : 0xffffffffULL, m = m0 & mask;
		u64 a = v & mask, want;
		struct bpf_insn p[] = {
			LD64(1, m0),
			I(BPF_STX | BPF_MEM | BPF_DW, 10, 1, -8, 0),
			LD64(2, v),
			I(BPF_STX | BPF_ATOMIC | (dw ? BPF_DW : BPF_W), 10, 2,
			  -8, ops[k]),
			I(BPF_LDX | BPF_MEM | (dw ? BPF_DW : BPF_W), 0, 10, -8,
			  0),
			/* r0 = new value << 1 ^ fetched old value */
			I(BPF_ALU64 | BPF_LSH | BPF_K, 0, 0, 0, 1),
			I(BPF_ALU64 | BPF_XOR | BPF_X, 0, 2, 0, 0),
			EXIT,
		};

		switch (ops[k] & ~BPF_FETCH) {
		case BPF_ADD: want = m + a; break;
		case BPF_OR: want = m | a; break;
		case BPF_AND: want = m & a; break;
		case BPF_XOR: want = m ^ a; break;
		default: want = a; break;	/* BPF_XCHG */
		}
		want = ((want & mask) << 1) ^ m;
		if (run_insns(p, ARRAY_SIZE(p)).ret != want) {
			TH_LOG("%s op 0x%x", dw ? "64-bit" : "32-bit", ops[k]);
			fails++;
		}
	}
	EXPECT_EQ(0U, fails);
}

TEST(bpf_to_bpf_call_keeps_callee_saved_and_stack)
{
	struct bpf_insn p[] = {
		MOV64(6, 7),
		I(BPF_ST | BPF_MEM | BPF_DW, 10, 0, -8, 40),
		MOV64(1, 2),
		I(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 4),	/* -> sub */
		I(BPF_LDX | BPF_MEM | BPF_DW, 1, 10, -8, 0),		/* 40 */
		I(BPF_ALU64 | BPF_ADD | BPF_X, 0, 1, 0, 0),
		I(BPF_ALU64 | BPF_ADD | BPF_X, 0, 6, 0, 0),
		EXIT,
		/* sub(r1): its own stack slot, clobbers r6, returns r1 * 100 */
		I(BPF_ST | BPF_MEM | BPF_DW, 10, 0, -8, 1000),
		MOV64(6, 0),
		MOV64R(0, 1),
		I(BPF_ALU64 | BPF_MUL | BPF_K, 0, 0, 0, 100),
		EXIT,
	};

	EXPECT_EQ(200ULL + 40 + 7, run_insns(p, ARRAY_SIZE(p)).ret);
}

TEST(bounded_loop)
{
	struct bpf_insn p[] = {
		MOV64(0, 0), MOV64(1, 1),
		I(BPF_ALU64 | BPF_ADD | BPF_X, 0, 1, 0, 0),
		I(BPF_ALU64 | BPF_ADD | BPF_K, 1, 0, 0, 1),
		I(BPF_JMP | BPF_JLE | BPF_K, 1, 0, -3, 100),
		EXIT,
	};
	struct nicprog_exec_result r = run_insns(p, ARRAY_SIZE(p));

	EXPECT_EQ(5050ULL, r.ret);
	EXPECT_EQ(2ULL + 3 * 100 + 1, r.insns);
}

TEST(step_bound_stops_a_runaway)
{
	struct bpf_insn p[] = { I(BPF_JMP | BPF_JA, 0, 0, -1, 0), EXIT };
	struct nicprog_exec_result r = run_insns(p, ARRAY_SIZE(p));

	EXPECT_EQ(-E2BIG, r.error);
	EXPECT_EQ((u32)XDP_ABORTED, r.action);
}

TEST(cycle_accounting)
{
	struct bpf_insn p[] = {
		MOV64(0, 6),					/* alu 1 */
		I(BPF_ALU64 | BPF_MUL | BPF_K, 0, 0, 0, 7),	/* mul 3 */
		I(BPF_ALU64 | BPF_DIV | BPF_K, 0, 0, 0, 2),	/* div 20 */
		I(BPF_STX | BPF_MEM | BPF_DW, 10, 0, -8, 0),	/* store 2 */
		I(BPF_LDX | BPF_MEM | BPF_DW, 0, 10, -8, 0),	/* load 2 */
		EXIT,						/* branch 1 */
	};
	struct nicprog_exec_prog prog = {
		.insns = p, .len = ARRAY_SIZE(p),
		.cost = { 1, 3, 20, 1, 2, 2, 10, 5 },
		.lat_pkt = 50, .lat_map = 200,
	};
	struct nicprog_exec_pkt pkt = { 0 };
	struct nicprog_exec_result r;

	nicprog_exec_run(&prog, &no_ops, NULL, &state, &pkt, &r);
	EXPECT_EQ(21ULL, r.ret);
	EXPECT_EQ(1ULL + 3 + 20 + 2 + 2 + 1, r.cycles);	/* stack: no latency */
}

/*
 * With a trace, a run costs its instruction classes only and records, in
 * order, each access outside the stack with the region the plan gave it.
 */
TEST(trace_records_accesses_in_order)
{
	static u64 mem[2];
	struct bpf_insn p[] = {
		I(BPF_LD | BPF_DW | BPF_IMM, 1, 0, 0, (u32)(uintptr_t)mem),
		I(0, 0, 0, 0, (u32)((u64)(uintptr_t)mem >> 32)),
		I(BPF_STX | BPF_MEM | BPF_DW, 10, 1, -8, 0),	/* stack: none */
		I(BPF_LDX | BPF_MEM | BPF_DW, 0, 1, 0, 0),	/* region 3 */
		I(BPF_LDX | BPF_MEM | BPF_DW, 0, 1, 8, 0),	/* no region */
		I(BPF_STX | BPF_MEM | BPF_DW, 1, 0, 8, 0),	/* region 1 */
		EXIT,
	};
	static const u8 region[] = { 0xff, 0xff, 0xff, 3, 0xff, 1, 0xff };
	struct nicprog_exec_prog prog = {
		.insns = p, .len = ARRAY_SIZE(p),
		.cost = { 1, 3, 20, 1, 2, 2, 10, 5 },
		.lat_pkt = 50, .lat_map = 200, .region = region,
	};
	static struct nicprog_exec_trace tr;
	struct nicprog_exec_pkt pkt = { 0 };
	struct nicprog_exec_result r;

	tr.n = 99;
	state.trace = &tr;
	nicprog_exec_run(&prog, &no_ops, NULL, &state, &pkt, &r);
	state.trace = NULL;
	EXPECT_EQ(0, r.error);
	/* ld_imm64 (alu) 1, store 2, load 2, load 2, store 2, exit 1 */
	EXPECT_EQ(1ULL + 2 + 2 + 2 + 2 + 1, r.cycles);
	ASSERT_EQ(2, tr.n);
	EXPECT_EQ(0, tr.lost);
	EXPECT_EQ(NICPROG_EXEC_EV_MEM, tr.ev[0].kind);
	EXPECT_EQ(3, tr.ev[0].unit);
	EXPECT_EQ((uintptr_t)&mem[0], tr.ev[0].addr);
	EXPECT_EQ(5, tr.ev[0].at);
	EXPECT_EQ(1, tr.ev[1].unit);
	EXPECT_EQ((uintptr_t)&mem[1], tr.ev[1].addr);
	EXPECT_EQ(9, tr.ev[1].at);
}

/*
 * Instructions a MAT stage serves (a lookup loop the plan gave to a
 * table unit): each entry into such a region is one MAT lookup, recorded
 * as one event when traced, however many instructions and iterations the
 * region runs; with a trace they cost the core nothing, without one they
 * cost what the plan priced them at.
 */
static const struct bpf_insn mat_prog[] = {
	I(BPF_LD | BPF_DW | BPF_IMM, 3, 0, 0, 0),	/* 0: r3 = &mat_mem */
	I(0, 0, 0, 0, 0),
	MOV64(0, 0),					/* 2 */
	MOV64(1, 0),					/* 3 */
	I(BPF_ALU64 | BPF_ADD | BPF_K, 0, 0, 0, 3),	/* 4: region */
	I(BPF_LDX | BPF_MEM | BPF_DW, 4, 3, 0, 0),	/* 5: region, mem 2 */
	I(BPF_ALU64 | BPF_ADD | BPF_X, 0, 4, 0, 0),	/* 6: region */
	I(BPF_ALU64 | BPF_ADD | BPF_K, 1, 0, 0, 1),	/* 7: region */
	I(BPF_JMP | BPF_JLT | BPF_K, 1, 0, -5, 4),	/* 8: region */
	MOV64(2, 1),					/* 9 */
	I(BPF_ALU64 | BPF_ADD | BPF_X, 0, 2, 0, 0),	/* 10: region */
	EXIT,						/* 11 */
};

static u64 mat_mem[1] = { 10 };

static void mat_prog_init(struct nicprog_exec_prog *prog, struct bpf_insn *p,
			  u8 *flags, u8 *region)
{
	u32 pc;

	memcpy(p, mat_prog, sizeof(mat_prog));
	p[0].imm = (u32)(uintptr_t)mat_mem;
	p[1].imm = (u32)((u64)(uintptr_t)mat_mem >> 32);
	memset(flags, 0, ARRAY_SIZE(mat_prog));
	memset(region, NICPROG_EXEC_REGION_NONE, ARRAY_SIZE(mat_prog));
	for (pc = 4; pc <= 8; pc++)
		flags[pc] = NICPROG_EXEC_INSN_MAT_REGION;
	flags[10] = NICPROG_EXEC_INSN_MAT_REGION;
	region[5] = 2;
	*prog = (struct nicprog_exec_prog){
		.insns = p, .len = ARRAY_SIZE(mat_prog), .flags = flags,
		.region = region,
		.cost = { [NICPROG_IC_ALU] = 1, [NICPROG_IC_MUL] = 30,
			  [NICPROG_IC_DIV] = 40, [NICPROG_IC_LOAD] = 50,
			  [NICPROG_IC_STORE] = 60, [NICPROG_IC_BRANCH] = 7,
			  [NICPROG_IC_CALL] = 80, [NICPROG_IC_ATOMIC] = 90 },
	};
}

TEST(mat_region_traced_is_one_event_per_entry)
{
	struct bpf_insn p[ARRAY_SIZE(mat_prog)];
	u8 flags[ARRAY_SIZE(mat_prog)], region[ARRAY_SIZE(mat_prog)];
	static struct nicprog_exec_trace tr;
	struct nicprog_exec_pkt pkt = { 0 };
	struct nicprog_exec_prog prog;
	struct nicprog_exec_result r;
	u32 i;

	mat_prog_init(&prog, p, flags, region);
	state.trace = &tr;
	nicprog_exec_run(&prog, &no_ops, NULL, &state, &pkt, &r);
	state.trace = NULL;
	EXPECT_EQ(0, r.error);
	EXPECT_EQ(4ULL * (3 + 10) + 1, r.ret);
	EXPECT_EQ(26U, r.insns);
	EXPECT_EQ(2U, r.mat_lookups);
	/* ld_imm64 and three moves 1 each, exit 7: the regions nothing */
	EXPECT_EQ(1ULL + 1 + 1 + 1 + 7, r.cycles);
	ASSERT_EQ(6, tr.n);
	EXPECT_EQ(NICPROG_EXEC_EV_MAT, tr.ev[0].kind);
	EXPECT_EQ(3, tr.ev[0].at);
	for (i = 1; i <= 4; i++) {
		EXPECT_EQ(NICPROG_EXEC_EV_MEM, tr.ev[i].kind);
		EXPECT_EQ(2, tr.ev[i].unit);
		EXPECT_EQ((uintptr_t)mat_mem, tr.ev[i].addr);
		EXPECT_EQ(3, tr.ev[i].at);
	}
	EXPECT_EQ(NICPROG_EXEC_EV_MAT, tr.ev[5].kind);
	EXPECT_EQ(4, tr.ev[5].at);
}

TEST(mat_region_untraced_costs_the_plan_s_cycles)
{
	struct bpf_insn p[ARRAY_SIZE(mat_prog)];
	u8 flags[ARRAY_SIZE(mat_prog)], region[ARRAY_SIZE(mat_prog)];
	u16 cycles[ARRAY_SIZE(mat_prog)];
	struct nicprog_exec_pkt pkt = { 0 };
	struct nicprog_exec_prog prog;
	struct nicprog_exec_result r;
	u32 pc;

	mat_prog_init(&prog, p, flags, region);
	for (pc = 0; pc < ARRAY_SIZE(mat_prog); pc++)
		cycles[pc] = pc + 1;
	prog.cycles = cycles;
	nicprog_exec_run(&prog, &no_ops, NULL, &state, &pkt, &r);
	EXPECT_EQ(0, r.error);
	EXPECT_EQ(4ULL * (3 + 10) + 1, r.ret);
	EXPECT_EQ(2U, r.mat_lookups);
	/* pcs 0, 2, 3; four times 4..8; 9, 10, 11 */
	EXPECT_EQ(1ULL + 3 + 4 + 4 * (5 + 6 + 7 + 8 + 9) + 10 + 11 + 12,
		  r.cycles);
}

/* An XDP frame laid out as BPF_PROG_TEST_RUN lays it out on x86_64. */
#define FRAME_SZ	4096
#define HEADROOM	256
#define XDP_FRAME_SZ	40
#define SHINFO_SZ	320

static u8 frame[FRAME_SZ];

static void pkt_init(struct nicprog_exec_pkt *pkt, u32 len)
{
	u32 i;

	for (i = 0; i < len; i++)
		frame[HEADROOM + i] = i;
	*pkt = (struct nicprog_exec_pkt){
		.buf = frame, .buf_len = FRAME_SZ,
		.head_reserved = XDP_FRAME_SZ, .tail_reserved = SHINFO_SZ,
		.data_meta = HEADROOM, .data = HEADROOM,
		.data_end = HEADROOM + len, .ingress_ifindex = 7,
		.rx_queue_index = 3,
	};
}

static struct nicprog_exec_result run_pkt(const struct bpf_insn *insns,
					  u32 len, u8 ctx_insn,
					  struct nicprog_exec_pkt *pkt)
{
	u8 flags[64] = { 0 };
	struct nicprog_exec_prog prog = {
		.insns = insns, .len = len, .flags = flags,
	};
	struct nicprog_exec_result res;

	flags[ctx_insn] = NICPROG_EXEC_INSN_CTX;
	nicprog_exec_run(&prog, &no_ops, NULL, &state, pkt, &res);
	return res;
}

TEST(context_loads_give_packet_pointers_and_fields)
{
	struct bpf_insn p[] = {
		I(BPF_LDX | BPF_MEM | BPF_W, 2, 1, 4, 0),	/* data_end */
		I(BPF_LDX | BPF_MEM | BPF_W, 3, 1, 0, 0),	/* data */
		I(BPF_LDX | BPF_MEM | BPF_W, 4, 1, 12, 0),	/* ingress_ifindex */
		MOV64R(0, 2),
		I(BPF_ALU64 | BPF_SUB | BPF_X, 0, 3, 0, 0),	/* length */
		I(BPF_LDX | BPF_MEM | BPF_B, 5, 3, 9, 0),	/* byte 9 */
		I(BPF_ALU64 | BPF_LSH | BPF_K, 0, 0, 0, 8),
		I(BPF_ALU64 | BPF_OR | BPF_X, 0, 5, 0, 0),
		I(BPF_ALU64 | BPF_LSH | BPF_K, 0, 0, 0, 8),
		I(BPF_ALU64 | BPF_OR | BPF_X, 0, 4, 0, 0),
		EXIT,
	};
	u8 flags[ARRAY_SIZE(p)] = {
		NICPROG_EXEC_INSN_CTX, NICPROG_EXEC_INSN_CTX,
		NICPROG_EXEC_INSN_CTX,
	};
	struct nicprog_exec_prog prog = {
		.insns = p, .len = ARRAY_SIZE(p), .flags = flags,
	};
	struct nicprog_exec_pkt pkt;
	struct nicprog_exec_result r;

	pkt_init(&pkt, 60);
	nicprog_exec_run(&prog, &no_ops, NULL, &state, &pkt, &r);
	EXPECT_EQ((60ULL << 16) | (9 << 8) | 7, r.ret);
}

TEST(context_write_sets_the_host_queue_and_nothing_else)
{
	struct bpf_insn p[] = {
		MOV64(2, 5),
		I(BPF_STX | BPF_MEM | BPF_W, 1, 2, 16, 0),	/* rx_queue_index */
		I(BPF_LDX | BPF_MEM | BPF_W, 0, 1, 16, 0),	/* read back */
		EXIT,
	};
	struct bpf_insn bad[] = {
		MOV64(2, 3),
		I(BPF_STX | BPF_MEM | BPF_W, 1, 2, 12, 0),	/* ingress_ifindex */
		EXIT,
	};
	u8 flags[ARRAY_SIZE(p)] = { 0, NICPROG_EXEC_INSN_CTX,
				    NICPROG_EXEC_INSN_CTX };
	struct nicprog_exec_prog prog = {
		.insns = p, .len = ARRAY_SIZE(p), .flags = flags,
	};
	struct nicprog_exec_pkt pkt;
	struct nicprog_exec_result r;
	const char *why;
	u32 at;

	pkt_init(&pkt, 60);
	ASSERT_EQ(0, nicprog_exec_check(&prog, &at, &why));
	nicprog_exec_run(&prog, &no_ops, NULL, &state, &pkt, &r);
	EXPECT_EQ(5, r.ret);
	EXPECT_EQ(5, pkt.rx_queue_index);
	EXPECT_EQ(7, pkt.ingress_ifindex);	/* the packet struct untouched */
	prog.insns = bad;
	prog.len = ARRAY_SIZE(bad);
	EXPECT_EQ(-EOPNOTSUPP, nicprog_exec_check(&prog, &at, &why));
	EXPECT_EQ(1, at);
}

static long fake_event(void *priv, u32 map, u64 flags, const void *data,
		       u64 size, struct nicprog_exec_pkt *pkt)
{
	u64 *seen = priv;

	(void)pkt;
	seen[0] = map;
	seen[1] = flags;
	seen[2] = *(const u8 *)data;
	seen[3] = size;
	return 0;
}

TEST(perf_event_output_reaches_the_event_op)
{
	struct bpf_insn q[] = {
		MOV64(3, 0x2a),
		I(BPF_STX | BPF_MEM | BPF_B, 10, 3, -8, 0),
		I(BPF_LD | BPF_DW | BPF_IMM, 2, BPF_PSEUDO_MAP_FD, 0, 0),
		I(0, 0, 0, 0, 0),
		LD64(3, 0x1000000ffffffffULL),		/* CURRENT_CPU, 1 byte */
		MOV64R(4, 10),
		I(BPF_ALU64 | BPF_ADD | BPF_K, 4, 0, 0, -8),
		MOV64(5, 1),
		CALL(BPF_FUNC_perf_event_output),
		EXIT,
	};
	struct nicprog_exec_prog prog = {
		.insns = q, .len = ARRAY_SIZE(q), .n_maps = 1,
	};
	struct nicprog_exec_ops ops = { .event_output = fake_event };
	struct nicprog_exec_pkt pkt;
	struct nicprog_exec_result r;
	u64 seen[4] = { 0 };
	const char *why;
	u32 at;

	pkt_init(&pkt, 60);
	ASSERT_EQ(0, nicprog_exec_check(&prog, &at, &why));
	nicprog_exec_run(&prog, &ops, seen, &state, &pkt, &r);
	EXPECT_EQ(0, r.error);
	EXPECT_EQ(0, seen[0]);
	EXPECT_EQ(0x1000000ffffffffULL, seen[1]);
	EXPECT_EQ(0x2a, seen[2]);
	EXPECT_EQ(1, seen[3]);
	/* without the op (the offline planner's world has it): stopped */
	nicprog_exec_run(&prog, &no_ops, NULL, &state, &pkt, &r);
	EXPECT_EQ(-EOPNOTSUPP, r.error);
}

TEST(load_and_store_bytes_follow_linux_6_1)
{
	struct nicprog_exec_pkt pkt;
	u8 buf[8] = { 0 };

	pkt_init(&pkt, 60);
	EXPECT_EQ(0, nicprog_exec_load_bytes(&pkt, 10, buf, 4));
	EXPECT_EQ(10, buf[0]);
	EXPECT_EQ(13, buf[3]);
	EXPECT_EQ(0, nicprog_exec_load_bytes(&pkt, 56, buf, 4));	/* last 4 */
	EXPECT_EQ(-EINVAL, nicprog_exec_load_bytes(&pkt, 57, buf, 4));
	EXPECT_EQ(-EFAULT, nicprog_exec_load_bytes(&pkt, 0x10000, buf, 1));
	EXPECT_EQ(-EFAULT, nicprog_exec_load_bytes(&pkt, 0, buf, 0x10000));
	buf[0] = 0xaa;
	EXPECT_EQ(0, nicprog_exec_store_bytes(&pkt, 59, buf, 1));
	EXPECT_EQ(0xaa, frame[HEADROOM + 59]);
	EXPECT_EQ(-EINVAL, nicprog_exec_store_bytes(&pkt, 59, buf, 2));
	EXPECT_EQ(0xaa, frame[HEADROOM + 59]);	/* nothing written */
}

TEST(adjust_head_meta_tail_follow_linux_6_1)
{
	struct nicprog_exec_pkt pkt;

	pkt_init(&pkt, 60);
	/* head: cannot go below the reserved xdp_frame, nor leave < ETH_HLEN */
	EXPECT_EQ(-EINVAL, nicprog_exec_adjust_head(&pkt, -(HEADROOM - XDP_FRAME_SZ + 1)));
	EXPECT_EQ(0, nicprog_exec_adjust_head(&pkt, -(HEADROOM - XDP_FRAME_SZ)));
	EXPECT_EQ((u32)XDP_FRAME_SZ, pkt.data);
	pkt_init(&pkt, 60);
	EXPECT_EQ(-EINVAL, nicprog_exec_adjust_head(&pkt, 60 - 14 + 1));
	EXPECT_EQ(0, nicprog_exec_adjust_head(&pkt, 60 - 14));
	/* meta: multiple of 4, at most 32, not past data */
	pkt_init(&pkt, 60);
	EXPECT_EQ(-EACCES, nicprog_exec_adjust_meta(&pkt, -6));
	EXPECT_EQ(-EACCES, nicprog_exec_adjust_meta(&pkt, -36));
	EXPECT_EQ(-EINVAL, nicprog_exec_adjust_meta(&pkt, 4));
	EXPECT_EQ(0, nicprog_exec_adjust_meta(&pkt, -8));
	EXPECT_EQ(8U, pkt.data - pkt.data_meta);
	/* metadata moves with the head */
	memcpy(frame + pkt.data_meta, "METADATA", 8);
	EXPECT_EQ(0, nicprog_exec_adjust_head(&pkt, -20));
	EXPECT_EQ(0, memcmp(frame + pkt.data_meta, "METADATA", 8));
	/* tail: grown bytes are zero; limit is frame_sz - shared info */
	pkt_init(&pkt, 60);
	EXPECT_EQ(0, nicprog_exec_adjust_tail(&pkt, 10));
	EXPECT_EQ(0, frame[HEADROOM + 65]);
	EXPECT_EQ(-EINVAL, nicprog_exec_adjust_tail(&pkt, -(70 - 14 + 1)));
	EXPECT_EQ(-EINVAL, nicprog_exec_adjust_tail(&pkt,
		  FRAME_SZ - SHINFO_SZ - HEADROOM - 70 + 1));
	EXPECT_EQ(0, nicprog_exec_adjust_tail(&pkt,
		  FRAME_SZ - SHINFO_SZ - HEADROOM - 70));
}

/* Folded one's complement sum, computed the slow, obvious way. */
static u16 ref_fold(const u32 *w, u32 n, u32 seed)
{
	u64 s = seed;
	u32 i;

	for (i = 0; i < n; i++)
		s += (w[i] & 0xffff) + (w[i] >> 16);
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return s;
}

static u16 fold32(u32 s)
{
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return s;
}

TEST(csum_diff_folds_like_the_reference_for_every_length)
{
	u32 from[64], to[64], words[128], n, m, seed = 0xdeadbeef;
	u64 r;

	for (n = 0; n < 64; n++) {
		from[n] = 0x9e3779b9U * (n + 1);
		to[n] = 0x85ebca6bU * (n + 3);
	}
	for (n = 0; n <= 64; n += 3) {
		for (m = 0; m <= 64; m += 5) {
			u32 k;

			for (k = 0; k < n; k++)
				words[k] = ~from[k];
			for (k = 0; k < m; k++)
				words[n + k] = to[k];
			r = nicprog_exec_csum_diff(&state, from, 4 * n, to,
						   4 * m, seed);
			ASSERT_EQ(0ULL, r >> 32);
			ASSERT_EQ(ref_fold(words, n + m, seed), fold32(r));
		}
	}
	EXPECT_EQ((u64)(s64)-EINVAL,
		  nicprog_exec_csum_diff(&state, from, 6, to, 4, 0));
	EXPECT_EQ((u64)(s64)-EINVAL,
		  nicprog_exec_csum_diff(&state, from, 256, to, 260, 0));
}

TEST(csum_partial_represents_zero_as_x86_does)
{
	/*
	 * Folding cannot tell 0 from 0xffffffff; x86's add-with-carry chain
	 * keeps an all-ones word as 0xffffffff and zeroes as 0, and so must
	 * we, since an NF may store the unfolded value. (Bit-exactness on
	 * real traffic is what the guest oracle checks against the host.)
	 */
	u32 ones[16], zero = 0;

	memset(ones, 0xff, sizeof(ones));
	/* ~0 of each becomes 0: the sum of zeroes plus seed is the seed. */
	EXPECT_EQ(0x12345678ULL, nicprog_exec_csum_diff(&state, ones, 64, NULL, 0, 0x12345678));
	EXPECT_EQ(0xffffffffULL, nicprog_exec_csum_diff(&state, NULL, 0, ones, 4, 0));
	EXPECT_EQ(0ULL, nicprog_exec_csum_diff(&state, NULL, 0, &zero, 4, 0));
}

static u64 fake_map[4];

static void *fake_lookup(void *priv, u32 map, const void *key)
{
	u32 k;

	(void)priv;
	memcpy(&k, key, 4);
	return map == 1 && k < 4 ? &fake_map[k] : NULL;
}

static long fake_update(void *priv, u32 map, const void *key,
			const void *value, u64 flags)
{
	u32 k;

	(void)priv;
	memcpy(&k, key, 4);
	if (map != 1 || k >= 4 || flags > 2)
		return -E2BIG;
	memcpy(&fake_map[k], value, 8);
	return 0;
}

static long fake_delete(void *priv, u32 map, const void *key)
{
	(void)priv; (void)map; (void)key;
	return -EINVAL;
}

static u64 fake_ktime(void *priv) { (void)priv; return 123456789; }
static u32 fake_prandom(void *priv) { (void)priv; return 42; }

static const struct nicprog_exec_ops fake_ops = {
	.map_lookup = fake_lookup, .map_update = fake_update,
	.map_delete = fake_delete, .ktime_ns = fake_ktime,
	.prandom = fake_prandom,
};

static const struct bpf_insn map_prog[] = {
	I(BPF_ST | BPF_MEM | BPF_W, 10, 0, -4, 2),		/* key 2 */
	I(BPF_ST | BPF_MEM | BPF_DW, 10, 0, -16, 77),		/* value */
	I(BPF_LD | BPF_DW | BPF_IMM, 1, BPF_PSEUDO_MAP_FD, 0, 1),
	I(0, 0, 0, 0, 0),
	MOV64R(2, 10), I(BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -4),
	MOV64R(3, 10), I(BPF_ALU64 | BPF_ADD | BPF_K, 3, 0, 0, -16),
	MOV64(4, 0),
	CALL(BPF_FUNC_map_update_elem),
	I(BPF_JMP | BPF_JNE | BPF_K, 0, 0, 9, 0),
	I(BPF_LD | BPF_DW | BPF_IMM, 1, BPF_PSEUDO_MAP_FD, 0, 1),
	I(0, 0, 0, 0, 0),
	MOV64R(2, 10), I(BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -4),
	CALL(BPF_FUNC_map_lookup_elem),
	I(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 3, 0),
	I(BPF_LDX | BPF_MEM | BPF_DW, 1, 0, 0, 0),		/* 77 */
	I(BPF_STX | BPF_ATOMIC | BPF_DW, 0, 1, 0, BPF_ADD),	/* 154 */
	I(BPF_LDX | BPF_MEM | BPF_DW, 0, 0, 0, 0),
	EXIT,
};

TEST(map_helpers_and_map_handles)
{
	struct bpf_insn p[ARRAY_SIZE(map_prog)];
	struct nicprog_exec_prog prog = {
		.insns = p, .len = ARRAY_SIZE(p), .n_maps = 2,
		.lat_map = 100,
	};
	struct nicprog_exec_pkt pkt = { 0 };
	struct nicprog_exec_result r;
	const char *why;
	u32 bad;

	memcpy(p, map_prog, sizeof(p));
	ASSERT_EQ(0, nicprog_exec_check(&prog, &bad, &why));
	nicprog_exec_run(&prog, &fake_ops, NULL, &state, &pkt, &r);
	EXPECT_EQ(0, r.error);
	EXPECT_EQ(154ULL, r.ret);
	EXPECT_EQ(154ULL, fake_map[2]);
	/* two map helper calls and three map value accesses, no insn cost */
	EXPECT_EQ(5ULL * 100, r.cycles);
}

/* fake_map's values on the NIC: 16 bytes apart, 8 of them reachable */
static u64 fake_offset(void *priv, u32 map, const void *value, u32 *len)
{
	(void)priv;
	(void)map;
	*len = 8;
	return NICPROG_EXEC_NIC_VALUES +
	       16 * (u64)((const u64 *)value - fake_map);
}

/*
 * A timing model sees the NIC's addresses of what a traced run touches:
 * a hit's value where map_offset puts it (the lookup, the loads and the
 * atomic), a map handle at its table's own line (the update); without
 * map_offset, the host's.
 */
TEST(traced_map_accesses_are_at_nic_addresses)
{
	struct nicprog_exec_ops ops = fake_ops;
	static struct nicprog_exec_trace tr;
	struct bpf_insn p[ARRAY_SIZE(map_prog)];
	u8 region[ARRAY_SIZE(map_prog)];
	struct nicprog_exec_prog prog = {
		.insns = p, .len = ARRAY_SIZE(map_prog), .n_maps = 2,
		.region = region,
	};
	u64 nic = NICPROG_EXEC_NIC_TABLE(1) + NICPROG_EXEC_NIC_VALUES + 32;
	struct nicprog_exec_pkt pkt = { 0 };
	struct nicprog_exec_result r;
	int pass, i;

	memcpy(p, map_prog, sizeof(p));
	memset(region, 2, sizeof(region));
	ops.map_offset = fake_offset;
	for (pass = 0; pass < 2; pass++) {
		state.trace = &tr;
		nicprog_exec_run(&prog, pass ? &fake_ops : &ops, NULL, &state,
				 &pkt, &r);
		state.trace = NULL;
		EXPECT_EQ(0, r.error);
		EXPECT_EQ(154ULL, r.ret);
		ASSERT_EQ(5, tr.n);
		for (i = 0; i < 5; i++) {
			EXPECT_EQ(NICPROG_EXEC_EV_MEM, tr.ev[i].kind);
			EXPECT_EQ(2, tr.ev[i].unit);
		}
		EXPECT_EQ(NICPROG_EXEC_NIC_TABLE(1), tr.ev[0].addr);
		for (i = 1; i < 5; i++)
			EXPECT_EQ(pass ? (u64)(uintptr_t)&fake_map[2] : nic,
				  tr.ev[i].addr);
	}
}

TEST(clock_random_and_redirect)
{
	struct bpf_insn p[] = {
		CALL(BPF_FUNC_ktime_get_ns), MOV64R(6, 0),
		CALL(BPF_FUNC_get_prandom_u32),
		I(BPF_ALU64 | BPF_ADD | BPF_X, 6, 0, 0, 0),
		I(BPF_JMP | BPF_JNE | BPF_K, 6, 0, 2, 123456789 + 42),
		MOV64(1, 9), MOV64(2, 0),
		CALL(BPF_FUNC_redirect),
		EXIT,
	};
	struct bpf_insn q[] = {
		MOV64(1, 9), MOV64(2, 1), CALL(BPF_FUNC_redirect), EXIT,
	};
	struct nicprog_exec_prog prog = { .insns = p, .len = ARRAY_SIZE(p) };
	struct nicprog_exec_pkt pkt = { 0 };
	struct nicprog_exec_result r;

	nicprog_exec_run(&prog, &fake_ops, NULL, &state, &pkt, &r);
	EXPECT_EQ((u32)XDP_REDIRECT, r.action);
	EXPECT_EQ(9U, r.redirect_ifindex);
	prog.insns = q;
	prog.len = ARRAY_SIZE(q);
	nicprog_exec_run(&prog, &fake_ops, NULL, &state, &pkt, &r);
	EXPECT_EQ((u32)XDP_ABORTED, r.action);	/* flags must be 0 in 6.1 */
	EXPECT_EQ(0, r.error);
}

/* A NIC that keeps a clock gives the frame's time, not the host's. */
TEST(the_clock_is_the_nic_s_where_it_keeps_one)
{
	struct bpf_insn p[] = { CALL(BPF_FUNC_ktime_get_ns), EXIT };
	struct nicprog_exec_prog prog = { .insns = p, .len = ARRAY_SIZE(p) };
	struct nicprog_exec_pkt pkt = { 0 };
	struct nicprog_exec_result r;

	nicprog_exec_run(&prog, &fake_ops, NULL, &state, &pkt, &r);
	EXPECT_EQ(123456789ULL, r.ret);
	pkt.now_ns = NICPROG_EXEC_NIC_EPOCH_NS + 42;
	nicprog_exec_run(&prog, &fake_ops, NULL, &state, &pkt, &r);
	EXPECT_EQ(0, r.error);
	EXPECT_EQ(NICPROG_EXEC_NIC_EPOCH_NS + 42, r.ret);
}

/*
 * So is the random stream: seeded by the frame's time on the NIC, the
 * same for the same time, another for another; each draw a new number.
 */
TEST(the_random_stream_follows_the_nic_s_clock)
{
	struct bpf_insn p[] = {
		CALL(BPF_FUNC_get_prandom_u32), MOV64R(6, 0),
		CALL(BPF_FUNC_get_prandom_u32),
		I(BPF_ALU64 | BPF_LSH | BPF_K, 6, 0, 0, 32),
		I(BPF_ALU64 | BPF_OR | BPF_X, 0, 6, 0, 0),
		EXIT,
	};
	struct nicprog_exec_prog prog = { .insns = p, .len = ARRAY_SIZE(p) };
	struct nicprog_exec_pkt pkt = { 0 };
	struct nicprog_exec_result r;
	u64 a, b;

	nicprog_exec_run(&prog, &fake_ops, NULL, &state, &pkt, &r);
	EXPECT_EQ(0, r.error);
	EXPECT_EQ((42ULL << 32) | 42, r.ret);	/* the host's: fake_ops' */
	pkt.now_ns = NICPROG_EXEC_NIC_EPOCH_NS + 7;
	nicprog_exec_run(&prog, &fake_ops, NULL, &state, &pkt, &r);
	a = r.ret;
	EXPECT_NE((u32)(a >> 32), (u32)a);
	EXPECT_NE(0ULL, pkt.rng);
	pkt.rng = 0;
	nicprog_exec_run(&prog, &fake_ops, NULL, &state, &pkt, &r);
	EXPECT_EQ(a, r.ret);
	pkt.rng = 0;
	pkt.now_ns++;
	nicprog_exec_run(&prog, &fake_ops, NULL, &state, &pkt, &r);
	b = r.ret;
	EXPECT_NE(a, b);
}

TEST(packet_program_reads_and_writes_through_pointers)
{
	/* swap the first two bytes of the frame, return XDP_TX */
	struct bpf_insn p[] = {
		I(BPF_LDX | BPF_MEM | BPF_W, 2, 1, 0, 0),
		I(BPF_LDX | BPF_MEM | BPF_B, 3, 2, 0, 0),
		I(BPF_LDX | BPF_MEM | BPF_B, 4, 2, 1, 0),
		I(BPF_STX | BPF_MEM | BPF_B, 2, 4, 0, 0),
		I(BPF_STX | BPF_MEM | BPF_B, 2, 3, 1, 0),
		MOV64(0, XDP_TX),
		EXIT,
	};
	struct nicprog_exec_pkt pkt;
	struct nicprog_exec_result r;

	pkt_init(&pkt, 60);
	r = run_pkt(p, ARRAY_SIZE(p), 0, &pkt);
	EXPECT_EQ((u32)XDP_TX, r.action);
	EXPECT_EQ(1, frame[HEADROOM]);
	EXPECT_EQ(0, frame[HEADROOM + 1]);
}

/*
 * A traced run sees the frame at its buffer's NIC address (pkt.nic), not
 * the host's: which packet lines share a cache set must not depend on
 * where the host's allocator put a frame.
 */
TEST(traced_packet_accesses_are_at_the_buffer_s_nic_address)
{
	struct bpf_insn p[] = {
		I(BPF_LDX | BPF_MEM | BPF_W, 2, 1, 0, 0),
		I(BPF_LDX | BPF_MEM | BPF_B, 3, 2, 12, 0),
		I(BPF_STX | BPF_MEM | BPF_B, 2, 3, 70, 0),
		MOV64(0, XDP_TX),
		EXIT,
	};
	u8 flags[ARRAY_SIZE(p)] = { NICPROG_EXEC_INSN_CTX };
	u8 region[ARRAY_SIZE(p)] = { 0xff, 1, 1, 0xff, 0xff };
	struct nicprog_exec_prog prog = {
		.insns = p, .len = ARRAY_SIZE(p), .flags = flags,
		.region = region,
	};
	static struct nicprog_exec_trace tr;
	struct nicprog_exec_pkt pkt;
	struct nicprog_exec_result r;

	pkt_init(&pkt, 60);
	pkt.nic = NICPROG_EXEC_NIC_FRAME(5);
	state.trace = &tr;
	nicprog_exec_run(&prog, &no_ops, NULL, &state, &pkt, &r);
	state.trace = NULL;
	EXPECT_EQ(0, r.error);
	ASSERT_EQ(2, tr.n);
	EXPECT_EQ(5 * NICPROG_EXEC_NIC_FRAME_SZ + HEADROOM + 12, tr.ev[0].addr);
	EXPECT_EQ(5 * NICPROG_EXEC_NIC_FRAME_SZ + HEADROOM + 70, tr.ev[1].addr);
	EXPECT_LT(tr.ev[1].addr, NICPROG_EXEC_NIC_TABLE(0));
}

#define EXPECT_REFUSED(err, text, ...)					\
	do {								\
		struct bpf_insn p[] = { __VA_ARGS__ };			\
		struct nicprog_exec_prog prog = {			\
			.insns = p, .len = ARRAY_SIZE(p), .n_maps = 1,	\
		};							\
		const char *why = "";					\
		u32 bad = ~0U;						\
		EXPECT_EQ(err, nicprog_exec_check(&prog, &bad, &why));	\
		EXPECT_STREQ(text, why);				\
		EXPECT_EQ(0U, bad);					\
	} while (0)

TEST(refusals_name_the_instruction)
{
	EXPECT_REFUSED(-EOPNOTSUPP, "kfunc call",
		       I(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, 5), EXIT);
	EXPECT_REFUSED(-EOPNOTSUPP, "helper not implemented on the NIC",
		       CALL(BPF_FUNC_skc_lookup_tcp), EXIT);
	EXPECT_REFUSED(-EOPNOTSUPP, "legacy packet load (LD_ABS/LD_IND)",
		       I(BPF_LD | BPF_ABS | BPF_W, 0, 0, 0, 12), EXIT);
	EXPECT_REFUSED(-EINVAL, "jump target outside the program",
		       I(BPF_JMP | BPF_JA, 0, 0, 5, 0), EXIT);
	EXPECT_REFUSED(-EINVAL, "map index out of range",
		       I(BPF_LD | BPF_DW | BPF_IMM, 1, BPF_PSEUDO_MAP_FD, 0, 1),
		       I(0, 0, 0, 0, 0), EXIT);
	EXPECT_REFUSED(-EOPNOTSUPP, "64-bit load of a global variable, BTF object or callback",
		       I(BPF_LD | BPF_DW | BPF_IMM, 1, BPF_PSEUDO_MAP_VALUE, 0, 0),
		       I(0, 0, 0, 0, 0), EXIT);
	EXPECT_REFUSED(-EOPNOTSUPP, "ALU operation not in the 6.1 ISA",
		       I(BPF_ALU64 | BPF_MOV | BPF_X, 0, 1, 8, 0), EXIT);
	EXPECT_REFUSED(-EINVAL, "byte swap of an invalid width",
		       I(BPF_ALU64 | BPF_END | BPF_TO_LE, 0, 0, 0, 16), EXIT);
	EXPECT_REFUSED(-EOPNOTSUPP, "memory access mode not in the 6.1 ISA",
		       I(BPF_LDX | (0x80) | BPF_W, 0, 1, 0, 0), EXIT);
}

static long fake_host_call(void *priv, s32 func_id,
			   struct nicprog_exec_pkt *pkt, const u64 *args,
			   u64 *ret)
{
	int *calls = priv;

	(*calls)++;
	if (func_id != BPF_FUNC_fib_lookup ||
	    args[0] != (u64)(uintptr_t)pkt)
		return -EINVAL;
	*ret = args[1] * 1000 + args[3];	/* R2, R4 */
	return 0;
}

/*
 * Helpers only the host has pass the check, run where host_call is set
 * (the host part of a partial plan) with the context and arguments as
 * called, and elsewhere stop the run at the call.
 */
TEST(host_helpers_run_only_on_the_host)
{
	const struct bpf_insn insns[] = {
		MOV64(BPF_REG_2, 7),
		MOV64(BPF_REG_3, 64),
		MOV64(BPF_REG_4, 9),
		CALL(BPF_FUNC_fib_lookup),
		EXIT,
	};
	struct nicprog_exec_prog prog = {
		.insns = insns, .len = ARRAY_SIZE(insns),
	};
	struct nicprog_exec_ops host = { .host_call = fake_host_call };
	struct nicprog_exec_pkt pkt = { 0 };
	struct nicprog_exec_result res;
	const char *why;
	int calls = 0;
	u32 bad;

	ASSERT_STREQ("bpf_fib_lookup", nicprog_exec_host_helper(BPF_FUNC_fib_lookup));
	ASSERT_STREQ("bpf_check_mtu", nicprog_exec_host_helper(BPF_FUNC_check_mtu));
	EXPECT_EQ(NULL, nicprog_exec_host_helper(BPF_FUNC_redirect));
	EXPECT_FALSE(nicprog_exec_helper_supported(BPF_FUNC_fib_lookup));
	ASSERT_EQ(0, nicprog_exec_check(&prog, &bad, &why));

	nicprog_exec_run(&prog, &host, &calls, &state, &pkt, &res);
	EXPECT_EQ(1, calls);
	EXPECT_EQ(0, res.error);
	EXPECT_EQ(7009U, res.ret);

	nicprog_exec_run(&prog, &no_ops, NULL, &state, &pkt, &res);
	EXPECT_EQ(-EOPNOTSUPP, res.error);
	EXPECT_EQ(3U, res.error_insn);
	EXPECT_EQ(XDP_ABORTED, res.action);

	/* the helper's own refusal stops the run too */
	prog.insns = (const struct bpf_insn[]){
		MOV64(BPF_REG_2, 7), CALL(BPF_FUNC_check_mtu), EXIT,
	};
	prog.len = 3;
	nicprog_exec_run(&prog, &host, &calls, &state, &pkt, &res);
	EXPECT_EQ(2, calls);
	EXPECT_EQ(-EOPNOTSUPP, res.error);
	EXPECT_EQ(1U, res.error_insn);
}

static long printk_host_call(void *priv, s32 func_id,
			     struct nicprog_exec_pkt *pkt, const u64 *args,
			     u64 *ret)
{
	const char *fmt = (const char *)(uintptr_t)args[0];
	int *calls = priv;

	(void)pkt;
	(*calls)++;
	/* the format as the program left it on its stack, the values as set */
	if (func_id != BPF_FUNC_trace_printk || args[1] != 4 ||
	    memcmp(fmt, "n%d", 4) || args[2] != 42)
		return -EINVAL;
	*ret = 4;
	return 0;
}

/*
 * bpf_trace_printk() is the host's: its format and %s strings are memory
 * the program points to, not the context, and reach host_call as they are;
 * without host_call the run stops at the call.
 */
TEST(trace_printk_runs_on_the_host)
{
	const struct bpf_insn insns[] = {
		/* *(u32 *)(r10 - 8) = "n%d" */
		I(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -8, 0x0064256e),
		MOV64R(BPF_REG_1, BPF_REG_10),
		I(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_1, 0, 0, -8),
		MOV64(BPF_REG_2, 4),
		MOV64(BPF_REG_3, 42),
		CALL(BPF_FUNC_trace_printk),
		EXIT,
	};
	struct nicprog_exec_prog prog = {
		.insns = insns, .len = ARRAY_SIZE(insns),
	};
	struct nicprog_exec_ops host = { .host_call = printk_host_call };
	struct nicprog_exec_pkt pkt = { 0 };
	struct nicprog_exec_result res;
	const char *why;
	int calls = 0;
	u32 bad;

	ASSERT_STREQ("bpf_trace_printk",
		     nicprog_exec_host_helper(BPF_FUNC_trace_printk));
	ASSERT_STREQ("bpf_trace_vprintk",
		     nicprog_exec_host_helper(BPF_FUNC_trace_vprintk));
	EXPECT_FALSE(nicprog_exec_helper_supported(BPF_FUNC_trace_printk));
	ASSERT_EQ(0, nicprog_exec_check(&prog, &bad, &why));

	nicprog_exec_run(&prog, &host, &calls, &state, &pkt, &res);
	EXPECT_EQ(1, calls);
	EXPECT_EQ(0, res.error);
	EXPECT_EQ(4U, res.ret);

	nicprog_exec_run(&prog, &no_ops, NULL, &state, &pkt, &res);
	EXPECT_EQ(-EOPNOTSUPP, res.error);
	EXPECT_EQ(5U, res.error_insn);
}

/*
 * bpf_check_mtu() of the receiving port (ifindex 0) runs on the NIC from
 * the port's MTU, at net/core/filter.c's edges: a frame of MTU + ETH_HLEN
 * bytes passes, one byte more (len_diff 1) needs fragments, an L3 length
 * given in *mtu_len replaces the frame's, flags are -EINVAL, and the MTU
 * is written back; another ifindex, or a NIC not knowing the MTU, is the
 * host's to answer.
 */
TEST(check_mtu_of_the_port_runs_on_the_nic)
{
	u8 buf[2048] = { 0 };
	struct nicprog_exec_pkt pkt = {
		.buf = buf, .buf_len = sizeof(buf),
		.data = 0, .data_end = 1514, .mtu = 1500,
	};
	u32 mtu_len = 0;

	EXPECT_EQ(BPF_MTU_CHK_RET_SUCCESS,
		  nicprog_exec_check_mtu(&pkt, &mtu_len, 0, 0));
	EXPECT_EQ(1500U, mtu_len);
	mtu_len = 0;
	EXPECT_EQ(BPF_MTU_CHK_RET_FRAG_NEEDED,
		  nicprog_exec_check_mtu(&pkt, &mtu_len, 1, 0));
	mtu_len = 1500;		/* the L3 length: 1514 bytes with the header */
	EXPECT_EQ(BPF_MTU_CHK_RET_SUCCESS,
		  nicprog_exec_check_mtu(&pkt, &mtu_len, 0, 0));
	mtu_len = 1501;
	EXPECT_EQ(BPF_MTU_CHK_RET_FRAG_NEEDED,
		  nicprog_exec_check_mtu(&pkt, &mtu_len, 0, 0));
	mtu_len = 1501;
	EXPECT_EQ(BPF_MTU_CHK_RET_SUCCESS,
		  nicprog_exec_check_mtu(&pkt, &mtu_len, -1, 0));
	mtu_len = 7;
	EXPECT_EQ(-EINVAL, nicprog_exec_check_mtu(&pkt, &mtu_len, 0, 1));
	EXPECT_EQ(7U, mtu_len);	/* untouched, as the host's */
	pkt.data_end = 1515;
	mtu_len = 0;
	EXPECT_EQ(BPF_MTU_CHK_RET_FRAG_NEEDED,
		  nicprog_exec_check_mtu(&pkt, &mtu_len, 0, 0));
	EXPECT_EQ(BPF_MTU_CHK_RET_SUCCESS,
		  nicprog_exec_check_mtu(&pkt, &mtu_len, -1, 0));
}

TEST(check_mtu_of_another_port_is_the_hosts)
{
	struct bpf_insn insns[] = {
		I(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -4, 0),
		MOV64(BPF_REG_2, 0),
		MOV64R(BPF_REG_3, BPF_REG_10),
		I(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_3, 0, 0, -4),
		MOV64(BPF_REG_4, 0),
		MOV64(BPF_REG_5, 0),
		CALL(BPF_FUNC_check_mtu),
		I(BPF_LDX | BPF_MEM | BPF_W, BPF_REG_1, BPF_REG_10, -4, 0),
		I(BPF_ALU64 | BPF_LSH | BPF_K, BPF_REG_0, 0, 0, 16),
		I(BPF_ALU64 | BPF_OR | BPF_X, BPF_REG_0, BPF_REG_1, 0, 0),
		EXIT,
	};
	struct nicprog_exec_prog prog = {
		.insns = insns, .len = ARRAY_SIZE(insns),
	};
	u8 buf[2048] = { 0 };
	struct nicprog_exec_pkt pkt = {
		.buf = buf, .buf_len = sizeof(buf),
		.data = 0, .data_end = 1515, .mtu = 1500,
	};
	struct nicprog_exec_result res;

	nicprog_exec_run(&prog, &no_ops, NULL, &state, &pkt, &res);
	EXPECT_EQ(0, res.error);
	EXPECT_EQ(((u64)BPF_MTU_CHK_RET_FRAG_NEEDED << 16) | 1500, res.ret);
	/* without the port's MTU the NIC cannot answer */
	pkt.mtu = 0;
	nicprog_exec_run(&prog, &no_ops, NULL, &state, &pkt, &res);
	EXPECT_EQ(-EOPNOTSUPP, res.error);
	EXPECT_EQ(6U, res.error_insn);
	/* nor for another port */
	pkt.mtu = 1500;
	insns[1].imm = 7;
	nicprog_exec_run(&prog, &no_ops, NULL, &state, &pkt, &res);
	EXPECT_EQ(-EOPNOTSUPP, res.error);
	EXPECT_EQ(6U, res.error_insn);
}

static s64 fake_engine(void *priv, u32 afn, struct nicprog_exec_pkt *pkt,
			const u64 *args, u64 *ret)
{
	(void)priv;
	(void)pkt;
	if (afn != 3)
		return -EOPNOTSUPP;
	*ret = args[1] * 1000 + args[2];	/* R2, R3 */
	return 77;
}

/*
 * A run cut into stages, each resumed on another core's scratch with the
 * live state carried in the context, ends as the whole run does: stack
 * contents, callee frames, a redirect from an earlier stage.
 */
TEST(staged_run_equals_whole_run)
{
	const struct bpf_insn insns[] = {
		/* stage 0 */
		MOV64(BPF_REG_6, 5),
		I(BPF_ST | BPF_MEM | BPF_DW, BPF_REG_10, 0, -8, 40),
		MOV64(BPF_REG_1, 9),
		MOV64(BPF_REG_2, 0),
		CALL(BPF_FUNC_redirect),
		/* stage 1 */
		I(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_7, BPF_REG_10, -8, 0),
		I(BPF_ALU64 | BPF_ADD | BPF_X, BPF_REG_7, BPF_REG_6, 0, 0),
		MOV64R(BPF_REG_1, BPF_REG_7),
		I(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 3),
		/* stage 2 */
		I(BPF_ALU64 | BPF_ADD | BPF_X, BPF_REG_0, BPF_REG_7, 0, 0),
		I(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 1, 92),
		MOV64(BPF_REG_0, XDP_DROP),
		EXIT,
		/* subprogram, runs within the stage calling it */
		MOV64R(BPF_REG_0, BPF_REG_1),
		I(BPF_STX | BPF_MEM | BPF_DW, BPF_REG_10, BPF_REG_1, -8, 0),
		EXIT,
	};
	u8 stage[ARRAY_SIZE(insns)] = { 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
					NICPROG_EXEC_STAGE_ANY,
					NICPROG_EXEC_STAGE_ANY,
					NICPROG_EXEC_STAGE_ANY };
	struct nicprog_exec_prog prog = {
		.insns = insns, .len = ARRAY_SIZE(insns), .stage = stage,
	};
	static struct nicprog_exec_state cores[3];
	static struct nicprog_exec_ctx ctx;
	struct nicprog_exec_pkt pkt = { 0 };
	struct nicprog_exec_result whole, part;
	u32 hops = 0;
	const char *why;
	u32 bad;

	/* r0 = r7 (45) + r7 after the call (45): 90 != 92, so DROP */
	ASSERT_EQ(0, nicprog_exec_check(&prog, &bad, &why));
	nicprog_exec_run(&prog, &no_ops, NULL, &state, &pkt, &whole);
	EXPECT_EQ(XDP_DROP, whole.action);
	EXPECT_EQ(9, whole.redirect_ifindex);

	nicprog_exec_start(&ctx, &pkt);
	do {
		ASSERT_TRUE(hops < 3);
		nicprog_exec_resume(&prog, &no_ops, NULL, &cores[hops], &pkt,
				    &ctx, &part);
		ASSERT_EQ(0, part.error);
		if (!part.done)
			EXPECT_EQ(hops + 1, ctx.stage);
		hops++;
	} while (!part.done);
	EXPECT_EQ(3, hops);
	EXPECT_EQ(whole.action, part.action);
	EXPECT_EQ(whole.ret, part.ret);
	EXPECT_EQ(whole.redirect_ifindex, part.redirect_ifindex);
}

TEST(accelerated_call_skips_the_body)
{
	const struct bpf_insn insns[] = {
		MOV64(BPF_REG_2, 4),
		MOV64(BPF_REG_3, 2),
		I(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 1),
		EXIT,
		MOV64(BPF_REG_0, 1),		/* the body: returns 1 */
		EXIT,
	};
	u8 accel[ARRAY_SIZE(insns)] = { [2] = 3 };
	struct nicprog_exec_ops ops = { .accel = fake_engine };
	struct nicprog_exec_prog prog = {
		.insns = insns, .len = ARRAY_SIZE(insns), .accel = accel,
	};
	struct nicprog_exec_pkt pkt = { 0 };
	struct nicprog_exec_result res;

	nicprog_exec_run(&prog, &ops, NULL, &state, &pkt, &res);
	EXPECT_EQ(4002, res.ret);
	EXPECT_EQ(1, res.accel_jobs);
	EXPECT_GE(res.cycles, 77);
	/* an engine that refuses leaves the body to run */
	accel[2] = 2;
	nicprog_exec_run(&prog, &ops, NULL, &state, &pkt, &res);
	EXPECT_EQ(1, res.ret);
	EXPECT_EQ(0, res.accel_jobs);
}

TEST_HARNESS_MAIN
