// SPDX-License-Identifier: GPL-2.0
/*
 * Algorithm identification (kernel/offload/ident.c), natively:
 * - every reference body of nicprog_ident_bodies[] computes its engine
 *   function with the conventions its mark names: run in the executor
 *   against an independent implementation of the engine's function on
 *   lengths 0 to 4097, the region limits and their neighbours, 64-bit
 *   offsets and lengths, and seeds with garbage in R4's upper half -- a
 *   cross-check of the argument written above each body, which the
 *   identification itself does not rely on;
 * - every body is identified as itself, and with R6-R9 renamed, and not
 *   with its arguments' registers renamed;
 * - seeded near misses of every body -- one constant, one region limit,
 *   one jump offset, one jump condition, one register, one instruction
 *   less -- are never identified. The seed is printed; NICPROG_SEED=N
 *   replays a run.
 */
#include <stdio.h>
#include <time.h>

#include "compat.h"
#include "offload.h"

#include "kselftest_harness.h"

#define HEAD		256	/* headroom, as XDP_PACKET_HEADROOM */
#define FRAME_MAX	(NICPROG_AFN_LEN_MAX + 200)
#define BODY_MAX	1024
#define NEAR_PER_BODY	32

static u64 rng;

static u64 rnd64(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static u32 rnd(u32 n)
{
	return (u32)(rnd64() >> 11) % n;
}

static void seed_once(void)
{
	const char *s = getenv("NICPROG_SEED");

	if (rng)
		return;
	rng = s ? strtoull(s, NULL, 0) : (u64)time(NULL);
	printf("# ident_test seed %llu (NICPROG_SEED=%llu replays it)\n",
	       (unsigned long long)rng, (unsigned long long)rng);
	rng = rng * 2654435761ULL + 88172645463325252ULL;
}

/* CRC32C, table-driven: not the bitwise form the reference bodies use. */
static u32 crc32c_table[256];

static u32 crc32c(u32 crc, const u8 *p, u64 len)
{
	u32 i, k, c;

	if (!crc32c_table[1])
		for (i = 0; i < 256; i++) {
			for (c = i, k = 0; k < 8; k++)
				c = c & 1 ? (c >> 1) ^ 0x82f63b78 : c >> 1;
			crc32c_table[i] = c;
		}
	while (len--)
		crc = (crc >> 8) ^ crc32c_table[(crc ^ *p++) & 0xff];
	return crc;
}

/* The engine's result for a call's arguments, before conventions. */
static u64 engine(u8 accel, const u8 *frame, u64 frame_len, u64 off, u64 len,
		  u32 seed)
{
	if (off > NICPROG_AFN_LEN_MAX || len > NICPROG_AFN_LEN_MAX ||
	    off + len > frame_len)
		return NICPROG_EXEC_ACCEL_ERR;
	if ((accel & NICPROG_EXEC_AFN_MASK) == NICPROG_AFN_CSUM)
		return nicprog_csum_ref(frame + off, len, seed);
	return crc32c(seed, frame + off, len);
}

/*
 * The facts a body's instructions need for the shape check and the
 * executor: the loads from R1 before R1 is written read the context
 * (xdp_md's data and data_end), other loads the frame or the stack,
 * stores go to the stack.
 */
static void body_facts(const struct bpf_insn *insns, u32 len,
		       struct nicprog_insn_meta *meta, u8 *flags)
{
	bool ctx = true;
	u32 i;
	u8 cls;

	memset(meta, 0, len * sizeof(*meta));
	memset(flags, 0, len);
	for (i = 0; i < len; i++) {
		cls = BPF_CLASS(insns[i].code);
		if (cls == BPF_LDX) {
			meta[i].ptr = ctx && insns[i].src_reg == BPF_REG_1 ?
				      NICPROG_PTR_CTX : insns[i].src_reg ==
				      BPF_REG_10 ? NICPROG_PTR_STACK :
				      NICPROG_PTR_PACKET;
			if (meta[i].ptr == NICPROG_PTR_CTX)
				flags[i] = NICPROG_EXEC_INSN_CTX;
		} else if (cls == BPF_ST || cls == BPF_STX) {
			meta[i].ptr = NICPROG_PTR_STACK;
		}
		if (insns[i].dst_reg == BPF_REG_1 && cls != BPF_ST &&
		    cls != BPF_STX && cls != BPF_JMP && cls != BPF_JMP32)
			ctx = false;
	}
}

static struct nicprog_insn_meta meta[BODY_MAX];
static u8 flags[BODY_MAX];
static struct bpf_insn work[BODY_MAX];

static bool ident(const struct bpf_insn *insns, u32 len,
		  const struct nicprog_ident_body **body)
{
	const char *why = NULL;
	u32 same;

	body_facts(insns, len, meta, flags);
	return nicprog_ident_fn(insns, meta, 0, len, body, &same, &why);
}

/* One call of @b on a frame, against the engine. */
static void run_case(struct __test_metadata *_metadata,
		     const struct nicprog_ident_body *b,
		     struct nicprog_exec_state *st, u8 *buf, u64 frame_len,
		     u64 off, u64 len, u64 r4)
{
	static const struct nicprog_exec_ops no_ops;
	struct nicprog_exec_prog prog = {
		.insns = b->insns, .flags = flags, .len = b->len,
	};
	struct nicprog_exec_result res;
	struct nicprog_exec_pkt pkt = {
		.buf = buf, .buf_len = HEAD + FRAME_MAX, .data_meta = HEAD,
		.data = HEAD, .data_end = HEAD + frame_len,
	};
	u32 seed = b->accel & NICPROG_EXEC_ACCEL_SEED_INV ? ~(u32)r4 : r4;
	u64 want;

	want = nicprog_exec_accel_ret(b->accel,
				      engine(b->accel, buf + HEAD, frame_len,
					     off, len, seed));
	nicprog_exec_start(&st->ctx, &pkt);
	st->ctx.regs[BPF_REG_2] = off;
	st->ctx.regs[BPF_REG_3] = len;
	st->ctx.regs[BPF_REG_4] = r4;
	nicprog_exec_resume(&prog, &no_ops, NULL, st, &pkt, &st->ctx, &res);
	ASSERT_EQ(0, res.error)
		TH_LOG("%s of %s (%s): stopped at off %llu len %llu",
		       b->name, b->source, b->cc, (unsigned long long)off,
		       (unsigned long long)len);
	EXPECT_EQ(want, res.ret)
		TH_LOG("%s of %s (%s): frame %llu off %llu len %llu R4 0x%llx",
		       b->name, b->source, b->cc,
		       (unsigned long long)frame_len, (unsigned long long)off,
		       (unsigned long long)len, (unsigned long long)r4);
}

TEST(bodies_compute_their_engine_function)
{
	static const u64 lim = NICPROG_AFN_LEN_MAX;
	const struct {
		u64 frame_len, off, len;
	} edge[] = {
		{ lim, 0, lim }, { lim + 1, 1, lim }, { lim + 1, 0, lim + 1 },
		{ lim + 2, lim, 2 }, { lim + 2, lim + 1, 1 },
		{ lim + 50, lim + 1, 0 }, { 100, 40, 60 }, { 100, 40, 61 },
		{ 100, 101, 0 }, { 100, 100, 0 }, { 64, 1ULL << 32 | 8, 8 },
		{ 64, 8, 1ULL << 32 | 4 }, { 64, ~0ULL, 2 }, { 64, 2, ~0ULL },
		{ 64, ~0ULL - 3, 8 }, { 0, 0, 0 }, { 1, 0, 1 },
	};
	struct nicprog_exec_state *st = calloc(1, sizeof(*st));
	u8 *buf = calloc(1, HEAD + FRAME_MAX);
	const struct nicprog_ident_body *b;
	u64 len, off, frame_len, i;
	u32 k, step;

	ASSERT_TRUE(st && buf);
	seed_once();
	ASSERT_GT(nicprog_ident_n_bodies, 0);
	for (k = 0; k < nicprog_ident_n_bodies; k++) {
		b = &nicprog_ident_bodies[k];
		ASSERT_LE(b->len, BODY_MAX);
		body_facts(b->insns, b->len, meta, flags);
		for (len = 0; len <= lim + 1; len += step) {
			step = len < 300 ? 1 : len < lim - 8 ? 97 + rnd(40) : 1;
			off = rnd(64);
			frame_len = min_t(u64, off + len + rnd(9), FRAME_MAX);
			for (i = 0; i < frame_len; i++)
				buf[HEAD + i] = rnd64();
			run_case(_metadata, b, st, buf, frame_len, off, len,
				 rnd64());
		}
		for (i = 0; i < ARRAY_SIZE(edge); i++)
			run_case(_metadata, b, st, buf, edge[i].frame_len,
				 edge[i].off, edge[i].len,
				 i & 1 ? 0 : ~0ULL << 32 | rnd64());
	}
	free(buf);
	free(st);
}

/* Rename register @x to @y and back wherever a field names a register. */
static void swap_regs(struct bpf_insn *insns, u32 len, u8 x, u8 y)
{
	u32 i;

	for (i = 0; i < len; i++) {
		if (insns[i].dst_reg == x || insns[i].dst_reg == y)
			insns[i].dst_reg ^= x ^ y;
		if (insns[i].code == (BPF_LD | BPF_IMM | BPF_DW) ||
		    insns[i].code == (BPF_JMP | BPF_CALL))
			continue;
		if (insns[i].src_reg == x || insns[i].src_reg == y)
			insns[i].src_reg ^= x ^ y;
	}
}

TEST(bodies_identified_up_to_r6_r9)
{
	const struct nicprog_ident_body *b, *got;
	u32 k;

	for (k = 0; k < nicprog_ident_n_bodies; k++) {
		b = &nicprog_ident_bodies[k];
		memcpy(work, b->insns, b->len * sizeof(*work));
		ASSERT_TRUE(ident(work, b->len, &got)) TH_LOG("%s", b->name);
		EXPECT_EQ(b->accel, got->accel);
		swap_regs(work, b->len, BPF_REG_6, BPF_REG_9);
		swap_regs(work, b->len, BPF_REG_7, BPF_REG_8);
		ASSERT_TRUE(ident(work, b->len, &got))
			TH_LOG("%s with R6-R9 renamed", b->name);
		EXPECT_EQ(b->accel, got->accel);
		/* offset and length exchanged: another function */
		memcpy(work, b->insns, b->len * sizeof(*work));
		swap_regs(work, b->len, BPF_REG_2, BPF_REG_3);
		EXPECT_FALSE(ident(work, b->len, &got))
			TH_LOG("%s with R2 and R3 exchanged", b->name);
		/* a callee-saved register turned into an argument register */
		memcpy(work, b->insns, b->len * sizeof(*work));
		swap_regs(work, b->len, BPF_REG_6, BPF_REG_5);
		EXPECT_FALSE(ident(work, b->len, &got))
			TH_LOG("%s with R5 and R6 exchanged", b->name);
	}
}

static bool is_jump(u8 code)
{
	return (BPF_CLASS(code) == BPF_JMP || BPF_CLASS(code) == BPF_JMP32) &&
	       BPF_OP(code) != BPF_CALL && BPF_OP(code) != BPF_EXIT;
}

/* A condition's near miss: strict and not strict, equal and not. */
static u8 other_cond(u8 op)
{
	switch (op) {
	case BPF_JGT: return BPF_JGE;
	case BPF_JGE: return BPF_JGT;
	case BPF_JLT: return BPF_JLE;
	case BPF_JLE: return BPF_JLT;
	case BPF_JSGT: return BPF_JGT;
	case BPF_JSGE: return BPF_JGE;
	case BPF_JSLT: return BPF_JLT;
	case BPF_JSLE: return BPF_JLE;
	case BPF_JEQ: return BPF_JNE;
	case BPF_JNE: return BPF_JEQ;
	default: return BPF_JEQ;
	}
}

/*
 * One near miss of @b in work[]: kind @kind at a position drawn from the
 * instructions it applies to. Returns the new length, or 0 if @b has no
 * such instruction.
 */
static u32 near_miss(const struct nicprog_ident_body *b, u32 kind,
		     const char **what)
{
	u32 cand[BODY_MAX], n = 0, i, len = b->len;
	struct bpf_insn *in;
	u8 cls;

	memcpy(work, b->insns, len * sizeof(*work));
	for (i = 0; i < len; i++) {
		in = &work[i];
		cls = BPF_CLASS(in->code);
		switch (kind) {
		case 0:	/* a constant */
			if (((cls == BPF_ALU || cls == BPF_ALU64 ||
			      is_jump(in->code)) && BPF_SRC(in->code) == BPF_K &&
			     BPF_OP(in->code) != BPF_JA) ||
			    in->code == (BPF_LD | BPF_IMM | BPF_DW))
				cand[n++] = i;
			break;
		case 1:	/* a region limit */
			if (in->imm >= 1024 && in->imm <= 4096)
				cand[n++] = i;
			break;
		case 2:	/* where a jump goes */
			if (is_jump(in->code))
				cand[n++] = i;
			break;
		case 3:	/* a jump's condition */
			if (is_jump(in->code) && BPF_OP(in->code) != BPF_JA)
				cand[n++] = i;
			break;
		case 4:	/* one register */
			if (cls == BPF_ALU || cls == BPF_ALU64)
				cand[n++] = i;
			break;
		case 5:	/* one instruction less */
			if (i + 1 < len)
				cand[n++] = i;
			break;
		}
	}
	if (!n)
		return 0;
	i = cand[rnd(n)];
	in = &work[i];
	switch (kind) {
	case 0:
		*what = "a constant";
		in->imm ^= 1U << rnd(in->imm ? 32 : 4);
		break;
	case 1:
		*what = "a region limit";
		in->imm += rnd(2) ? 1 : -1;
		break;
	case 2:
		*what = "a jump offset";
		in->off += rnd(2) ? 1 : -1;
		break;
	case 3:
		*what = "a jump condition";
		in->code = BPF_CLASS(in->code) | BPF_SRC(in->code) |
			   other_cond(BPF_OP(in->code));
		break;
	case 4:
		*what = "a register";
		in->dst_reg = in->dst_reg == BPF_REG_0 ? BPF_REG_3 : BPF_REG_0;
		break;
	case 5:
		*what = "an instruction dropped";
		memmove(in, in + 1, (len - i - 1) * sizeof(*in));
		len--;
		break;
	}
	return len;
}

TEST(near_misses_never_identified)
{
	const struct nicprog_ident_body *b, *got;
	u32 k, t, len, tried, per_kind[6] = { 0 };
	const char *what = NULL;

	seed_once();
	for (k = 0; k < nicprog_ident_n_bodies; k++) {
		b = &nicprog_ident_bodies[k];
		for (t = tried = 0; t < 4 * NEAR_PER_BODY &&
		     tried < NEAR_PER_BODY; t++) {
			len = near_miss(b, t % 6, &what);
			if (!len)
				continue;
			tried++;
			per_kind[t % 6]++;
			EXPECT_FALSE(ident(work, len, &got))
				TH_LOG("%s of %s (%s), %s different, identified as %s of %s",
				       b->name, b->source, b->cc, what,
				       got->name, got->source);
		}
		EXPECT_EQ(NEAR_PER_BODY, tried) TH_LOG("%s", b->name);
	}
	for (t = 0; t < 6; t++)
		EXPECT_GT(per_kind[t], nicprog_ident_n_bodies)
			TH_LOG("kind %u", t);
}

TEST_HARNESS_MAIN
