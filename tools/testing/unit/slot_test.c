// SPDX-License-Identifier: GPL-2.0
/*
 * np_free_slot() (tools/lib/nicprog/slot.c): the loader's splices keep
 * state in a stack slot below everything a function addresses, so the
 * slot must lie below every stack address any path can make -- through
 * chains of additions, copies, paths that meet, a spilled pointer filled
 * again -- and a constant added to a register that never held a stack
 * address must not count. The chained case is the near miss of the rule
 * that took any register plus a constant for a stack address: it would
 * have put the slot inside the buffer.
 */
#include <linux/bpf.h>

#include "kselftest_harness.h"
#include "redirect.h"

#define I(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })
#define MOVR(d, s)	I(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define MOVK(d, k)	I(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, k)
#define ADDK(d, k)	I(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, k)
#define STB(d, o)	I(BPF_ST | BPF_MEM | BPF_B, d, 0, o, 0)
#define EXIT		I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

#define SLOT(insns)	np_free_slot(insns, 0, ARRAY_SIZE(insns))

TEST(a_stack_address_and_its_chain)
{
	const struct bpf_insn one[] = {
		MOVR(BPF_REG_2, BPF_REG_10), ADDK(BPF_REG_2, -16), EXIT,
	};
	/* r2 = r10 - 16 - 100: the slot below -116, not below -100 */
	const struct bpf_insn chain[] = {
		MOVR(BPF_REG_2, BPF_REG_10), ADDK(BPF_REG_2, -16),
		ADDK(BPF_REG_2, -100), STB(BPF_REG_2, 0), EXIT,
	};
	const struct bpf_insn copy[] = {
		MOVR(BPF_REG_2, BPF_REG_10), MOVR(BPF_REG_3, BPF_REG_2),
		ADDK(BPF_REG_3, -200), EXIT,
	};

	EXPECT_EQ(-32, SLOT(one));
	EXPECT_EQ(-136, SLOT(chain));
	EXPECT_EQ(-216, SLOT(copy));
}

TEST(a_constant_added_to_a_scalar_is_no_address)
{
	const struct bpf_insn insns[] = {
		MOVK(BPF_REG_1, 5), ADDK(BPF_REG_1, -9000),
		MOVR(BPF_REG_2, BPF_REG_10), ADDK(BPF_REG_2, -8), EXIT,
	};

	EXPECT_EQ(-24, SLOT(insns));
}

TEST(paths_meet_and_spills_fill)
{
	/* r2 = r10 - 300 on one path only, then moved again */
	const struct bpf_insn join[] = {
		I(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_1, 0, 2, 0),
		MOVR(BPF_REG_2, BPF_REG_10), ADDK(BPF_REG_2, -300),
		ADDK(BPF_REG_2, -8), STB(BPF_REG_2, 0), EXIT,
	};
	/* r10 - 40 spilled, filled into r3, moved by -60 */
	const struct bpf_insn spill[] = {
		MOVR(BPF_REG_2, BPF_REG_10), ADDK(BPF_REG_2, -40),
		I(BPF_STX | BPF_MEM | BPF_DW, BPF_REG_10, BPF_REG_2, -8, 0),
		I(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_3, BPF_REG_10, -8, 0),
		ADDK(BPF_REG_3, -60), EXIT,
	};
	/* a loop moving the pointer down on every trip: no slot is safe */
	const struct bpf_insn loop[] = {
		MOVR(BPF_REG_2, BPF_REG_10),
		ADDK(BPF_REG_2, -8),
		I(BPF_JMP | BPF_JNE | BPF_K, BPF_REG_1, 0, -2, 0),
		EXIT,
	};

	EXPECT_EQ(-328, SLOT(join));
	EXPECT_EQ(-120, SLOT(spill));
	EXPECT_GT(-512, SLOT(loop));
}

TEST_HARNESS_MAIN
