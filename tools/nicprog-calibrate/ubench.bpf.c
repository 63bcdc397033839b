// SPDX-License-Identifier: GPL-2.0
/*
 * Micro-benchmarks that measure a SmartNIC's parameters (after Clara's
 * parameterisation): NF-independent XDP programs that nicprog-calibrate
 * offloads one at a time and runs one frame at a time, reading the NIC's
 * counters around each frame. See Documentation/nicprog/lnic.rst.
 *
 * The frame carries the parameters of one run (struct ub_params, after
 * the Ethernet header), so that one object serves every size and count.
 * Every program returns XDP_DROP, unless the frame is too short for its
 * parameters (XDP_ABORTED).
 */
#define NICPROG_USE_CSUM
#define NICPROG_USE_CRC32C
#define NICPROG_USE_JHASH
#define NICPROG_USE_CHACHA20
#include "../../bpf/nicprog.h"
#include "ubench.h"

/* Memory: random lookups in a table whose size the calibrator sets. */
NICPROG_TABLE(walk, BPF_MAP_TYPE_ARRAY, __u32, struct ub_line, 1);

static __always_inline struct ub_params *params(struct xdp_md *ctx)
{
	struct ub_params *p = NICPROG_DATA(ctx) + UB_PARAMS_OFF;

	if ((void *)(p + 1) > NICPROG_DATA_END(ctx))
		return NULL;
	return p;
}

/*
 * @steps lookups of lines drawn at random (xorshift32 from @seed) from the
 * first @lines entries; every lookup is one access to the table's memory.
 * The result is not looked at: a branch on it per step would make the
 * verifier follow 2^steps paths.
 */
SEC("xdp")
int ub_mem(struct xdp_md *ctx)
{
	struct ub_params *p = params(ctx);
	__u32 x, n, k, i, idx;

	if (!p)
		return XDP_ABORTED;
	x = p->seed | 1;
	n = p->lines;
	k = p->steps;
	for (i = 0; i < UB_STEPS_MAX && i < k; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		/* x * n / 2^32: no division, whose cost would crowd the
		 * waits (a thread count is measured against them)
		 */
		idx = ((__u64)x * n) >> 32;
		bpf_map_lookup_elem(&walk, &idx);
	}
	return XDP_DROP;
}

/* Accelerators: @steps (0 or 1) jobs of @len bytes from the frame's start. */
SEC("xdp")
int ub_csum(struct xdp_md *ctx)
{
	struct ub_params *p = params(ctx);

	if (!p)
		return XDP_ABORTED;
	if (p->steps)
		nicprog_accel_csum(ctx, 0, p->len, 0,
				   NICPROG_AFN(NICPROG_AFN_CSUM));
	return XDP_DROP;
}

SEC("xdp")
int ub_crc(struct xdp_md *ctx)
{
	struct ub_params *p = params(ctx);

	if (!p)
		return XDP_ABORTED;
	if (p->steps)
		nicprog_accel_crc32c(ctx, 0, p->len, ~0U,
				     NICPROG_AFN(NICPROG_AFN_CRC32C));
	return XDP_DROP;
}

SEC("xdp")
int ub_hash(struct xdp_md *ctx)
{
	struct ub_params *p = params(ctx);

	if (!p)
		return XDP_ABORTED;
	if (p->steps)
		nicprog_accel_jhash(ctx, 0, p->len, 0,
				    NICPROG_AFN(NICPROG_AFN_JHASH));
	return XDP_DROP;
}

SEC("xdp")
int ub_crypto(struct xdp_md *ctx)
{
	struct nicprog_chacha20_key k = { .counter = 1 };
	struct ub_params *p = params(ctx);

	if (!p)
		return XDP_ABORTED;
	if (p->steps)
		nicprog_accel_chacha20(ctx, 0, p->len, &k,
				       NICPROG_AFN(NICPROG_AFN_CHACHA20));
	return XDP_DROP;
}

/*
 * Instruction classes: UB_INSNS_LO or UB_INSNS_HI instructions of one
 * class in a row; the difference of their issue cycles over
 * UB_INSNS_HI - UB_INSNS_LO is the class's cost.
 */
#define UB_R2(s)	s s
#define UB_R4(s)	UB_R2(s) UB_R2(s)
#define UB_R16(s)	UB_R4(UB_R4(s))
#define UB_R256(s)	UB_R16(UB_R16(s))

#define UB_INSN(name, setup, op, ...)					\
SEC("xdp")								\
int ub_##name##_lo(struct xdp_md *ctx __attribute__((unused)))	\
{									\
	asm volatile(setup UB_R16(op) ::: __VA_ARGS__);			\
	return XDP_DROP;						\
}									\
SEC("xdp")								\
int ub_##name##_hi(struct xdp_md *ctx __attribute__((unused)))	\
{									\
	asm volatile(setup UB_R16(op) UB_R256(op) ::: __VA_ARGS__);	\
	return XDP_DROP;						\
}

#define UB_SETUP	"r6 = 7\n*(u64 *)(r10 - 8) = r6\n"
UB_INSN(alu, UB_SETUP, "r6 += 1\n", "r6")
UB_INSN(mul, UB_SETUP, "r6 *= 3\n", "r6")
UB_INSN(div, UB_SETUP, "r6 /= 3\n", "r6")
UB_INSN(branch, UB_SETUP, "if r6 == 1 goto +0\n", "r6")
UB_INSN(load, UB_SETUP, "r6 = *(u64 *)(r10 - 8)\n", "r6")
UB_INSN(store, UB_SETUP, "*(u64 *)(r10 - 8) = r6\n", "r6")
UB_INSN(atomic, UB_SETUP, "lock *(u64 *)(r10 - 8) += r6\n", "r6")
UB_INSN(call, UB_SETUP, "call 5\n", "r0", "r1", "r2", "r3", "r4", "r5", "r6")

char LICENSE[] SEC("license") = "GPL";
