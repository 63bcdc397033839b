/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The nicrisc cores' instruction set: what jit.c emits and core.c runs.
 * It is not eBPF's encoding: a 64-bit constant is one instruction, jumps
 * and calls name their target's index, a table is named by the NIC's
 * handle for it, a context field by its own opcode, and a helper by the
 * NIC's number for the function it has in hardware. What an operation
 * computes is eBPF's (the ISA's operations of <net/nicprog_exec.h>).
 */
#ifndef _NICRISC_ISA_H
#define _NICRISC_ISA_H

#include <linux/types.h>

enum nicrisc_op {
	NR_ALU,		/* dst = dst aux src; aux a BPF_OP() */
	NR_BSWAP,	/* dst = byte order of dst; imm the width, aux to BE */
	NR_JMP,		/* if (dst aux src) goto off; aux a BPF_OP() */
	NR_LD,		/* dst = *(size *)(src + off), zero-extended */
	NR_ST,		/* *(size *)(dst + off) = src */
	NR_ATOMIC,	/* atomic aux (BPF_ADD, ..., BPF_CMPXCHG) at dst + off */
	NR_LDI,		/* dst = imm */
	NR_LDCTX,	/* dst = the frame's field aux (enum nicrisc_ctx) */
	NR_STCTX,	/* the frame's rx_queue_index = src */
	NR_CALL,	/* R0 = helper aux (enum nicrisc_helper)(R1, ..., R5) */
	NR_CALLSUB,	/* call the function at off */
	NR_EXIT,	/* return R0 */
};

/* struct nicrisc_insn.flags */
#define NR_F_W32	0x01	/* 32-bit operation: JMP32, ALU32 */
#define NR_F_IMM	0x02	/* the source is imm, not register src */
#define NR_F_FETCH	0x04	/* an atomic returns the old value */

enum nicrisc_ctx {
	NR_CTX_DATA,
	NR_CTX_DATA_END,
	NR_CTX_DATA_META,
	NR_CTX_INGRESS_IFINDEX,
	NR_CTX_RX_QUEUE_INDEX,
	NR_CTX_EGRESS_IFINDEX,
};

enum nicrisc_helper {
	NR_H_MAP_LOOKUP,
	NR_H_MAP_UPDATE,
	NR_H_MAP_DELETE,
	NR_H_KTIME_NS,
	NR_H_PRANDOM,
	NR_H_REDIRECT,
	NR_H_ADJUST_HEAD,
	NR_H_ADJUST_META,
	NR_H_ADJUST_TAIL,

	__NR_H_MAX
};

/**
 * struct nicrisc_insn - one instruction
 * @op: enum nicrisc_op
 * @aux: the operation, condition, context field or helper
 * @dst: destination register, R0-R10
 * @src: source register
 * @size: bytes a load or store moves
 * @flags: NR_F_*
 * @off: a memory offset, or the index a jump or call goes to
 * @imm: the immediate operand (sign-extended), a constant, or a table's
 *	handle
 */
struct nicrisc_insn {
	u8 op;
	u8 aux;
	u8 dst;
	u8 src;
	u8 size;
	u8 flags;
	s32 off;
	u64 imm;
};

/**
 * struct nicrisc_image - a translated stage, as a core's instruction
 *	store holds it
 * @len: instructions
 * @insns: them, the program's entry first
 */
struct nicrisc_image {
	u32 len;
	struct nicrisc_insn insns[];
};

#endif /* _NICRISC_ISA_H */
