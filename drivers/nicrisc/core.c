// SPDX-License-Identifier: GPL-2.0
/*
 * A nicrisc core: runs a translated stage (isa.h) on a frame in its frame
 * buffer, with its own stack, and returns the program's verdict. The
 * code was translated from a program the kernel verified, so every
 * address it forms is one the verifier proved in bounds: the frame, the
 * stack, or a table value the NIC's own lookups returned. What each
 * operation computes is eBPF's, from <net/nicprog_exec.h>, as every
 * executor of nicprog shares it; the helpers are the NIC's.
 */
#include <linux/atomic.h>
#include <linux/bpf.h>
#include <linux/filter.h>
#include <linux/random.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "isa.h"
#include "nicrisc.h"

/*
 * A bound no verified program reaches in practice: the verifier's own is
 * a million instructions explored, and a frame that still runs here has
 * held the port's core too long; it is aborted and counted.
 */
#define NICRISC_MAX_STEPS	BIT(22)

struct nicrisc_frame {
	u32 ret;
	u64 saved[4];	/* R6-R9 */
};

static u64 nicrisc_load(const void *p, u8 size)
{
	switch (size) {
	case 1:
		return *(const u8 *)p;
	case 2:
		return get_unaligned((const u16 *)p);
	case 4:
		return get_unaligned((const u32 *)p);
	default:
		return get_unaligned((const u64 *)p);
	}
}

static void nicrisc_store(void *p, u8 size, u64 v)
{
	switch (size) {
	case 1:
		*(u8 *)p = v;
		break;
	case 2:
		put_unaligned((u16)v, (u16 *)p);
		break;
	case 4:
		put_unaligned((u32)v, (u32 *)p);
		break;
	default:
		put_unaligned(v, (u64 *)p);
	}
}

/* The verifier checked the operand aligned (atomics are strict). */
static u64 nicrisc_atomic32(u8 op, void *p, u64 *src, u64 *r0)
{
	atomic_t *a = p;

	switch (op) {
	case BPF_ADD:
		return (u32)atomic_fetch_add((u32)*src, a);
	case BPF_AND:
		return (u32)atomic_fetch_and((u32)*src, a);
	case BPF_OR:
		return (u32)atomic_fetch_or((u32)*src, a);
	case BPF_XOR:
		return (u32)atomic_fetch_xor((u32)*src, a);
	case BPF_XCHG & ~BPF_FETCH:
		return (u32)atomic_xchg(a, (u32)*src);
	default:
		*r0 = (u32)atomic_cmpxchg(a, (u32)*r0, (u32)*src);
		return *src;
	}
}

static u64 nicrisc_atomic64(u8 op, void *p, u64 *src, u64 *r0)
{
	atomic64_t *a = p;

	switch (op) {
	case BPF_ADD:
		return atomic64_fetch_add(*src, a);
	case BPF_AND:
		return atomic64_fetch_and(*src, a);
	case BPF_OR:
		return atomic64_fetch_or(*src, a);
	case BPF_XOR:
		return atomic64_fetch_xor(*src, a);
	case BPF_XCHG & ~BPF_FETCH:
		return atomic64_xchg(a, *src);
	default:
		*r0 = atomic64_cmpxchg(a, *r0, *src);
		return *src;
	}
}

/* BPF_ATOMIC: a fetching operation leaves the old value in src. */
static void nicrisc_atomic(const struct nicrisc_insn *in, u64 *r)
{
	void *p = (void *)(uintptr_t)(r[in->dst] + in->off);
	u64 old;

	if (in->size == 4)
		old = nicrisc_atomic32(in->aux, p, &r[in->src], &r[BPF_REG_0]);
	else
		old = nicrisc_atomic64(in->aux, p, &r[in->src], &r[BPF_REG_0]);
	if (in->flags & NR_F_FETCH)
		r[in->src] = old;
}

static u64 nicrisc_ctx_load(const struct nicprog_exec_pkt *pkt, u8 field)
{
	switch (field) {
	case NR_CTX_DATA:
		return (uintptr_t)(pkt->buf + pkt->data);
	case NR_CTX_DATA_END:
		return (uintptr_t)(pkt->buf + pkt->data_end);
	case NR_CTX_DATA_META:
		return (uintptr_t)(pkt->buf + pkt->data_meta);
	case NR_CTX_INGRESS_IFINDEX:
		return pkt->ingress_ifindex;
	case NR_CTX_RX_QUEUE_INDEX:
		return pkt->rx_queue_index;
	default:
		return 0;	/* egress_ifindex: 0 on receive */
	}
}

/* A helper's result in R0: a negative errno sign-extended, as a long. */
static u64 nicrisc_helper(u8 helper, const u64 *r,
			  struct nicprog_exec_pkt *pkt, u32 *redirect)
{
	void *store = (void *)(uintptr_t)r[BPF_REG_1];
	void *key = (void *)(uintptr_t)r[BPF_REG_2];

	switch (helper) {
	case NR_H_MAP_LOOKUP:
		return (uintptr_t)nicprog_table_lib_lookup(store, key);
	case NR_H_MAP_UPDATE:
		return nicprog_table_lib_update(store, key,
						(void *)(uintptr_t)r[BPF_REG_3],
						r[BPF_REG_4]);
	case NR_H_MAP_DELETE:
		return nicprog_table_lib_delete(store, key);
	case NR_H_KTIME_NS:
		return ktime_get_mono_fast_ns();
	case NR_H_PRANDOM:
		return get_random_u32();
	case NR_H_REDIRECT:
		/* bpf_xdp_redirect(): no flags in XDP */
		if (r[BPF_REG_2])
			return XDP_ABORTED;
		*redirect = r[BPF_REG_1];
		return XDP_REDIRECT;
	case NR_H_ADJUST_HEAD:
		return nicprog_exec_adjust_head(pkt, (s32)r[BPF_REG_2]);
	case NR_H_ADJUST_META:
		return nicprog_exec_adjust_meta(pkt, (s32)r[BPF_REG_2]);
	default:
		return nicprog_exec_adjust_tail(pkt, (s32)r[BPF_REG_2]);
	}
}

static bool nicrisc_cond(const struct nicrisc_insn *in, u64 dst, u64 src)
{
	if (in->flags & NR_F_W32)
		return nicprog_exec_cond32(in->aux, dst, src);
	return nicprog_exec_cond64(in->aux, dst, src);
}

static u64 nicrisc_alu(const struct nicrisc_insn *in, u64 dst, u64 src)
{
	if (in->flags & NR_F_W32)
		return nicprog_exec_alu32(in->aux, dst, src);
	return nicprog_exec_alu64(in->aux, dst, src);
}

/**
 * nicrisc_core_run() - run a translated stage on a frame
 * @image: the stage, from nicrisc_stage_translate()
 * @pkt: the frame, in the core's buffer
 * @redirect: set to bpf_redirect()'s ifindex
 * @stack: the core's stack, NICRISC_STACK_SZ bytes
 * @insns: set to the instructions it ran
 *
 * Context: the port's NAPI poll, under rcu_read_lock() (the tables'
 * values are valid until it ends).
 * Return: the program's verdict, or XDP_ABORTED if it ran past
 * NICRISC_MAX_STEPS.
 */
u32 nicrisc_core_run(const void *image, struct nicprog_exec_pkt *pkt,
		     u32 *redirect, u8 *stack, u64 *insns)
{
	const struct nicrisc_image *img = image;
	struct nicrisc_frame frames[NICRISC_MAX_FRAMES];
	u64 r[MAX_BPF_REG] = {}, src;
	const struct nicrisc_insn *in;
	u32 pc = 0, depth = 0, steps;

	/* the context is only ever read through NR_LDCTX */
	r[BPF_REG_1] = (uintptr_t)pkt;
	r[BPF_REG_10] = (uintptr_t)(stack + MAX_BPF_STACK);
	for (steps = 1; steps <= NICRISC_MAX_STEPS; steps++) {
		in = &img->insns[pc++];
		src = in->flags & NR_F_IMM ? in->imm : r[in->src];
		switch (in->op) {
		case NR_ALU:
			r[in->dst] = nicrisc_alu(in, r[in->dst], src);
			break;
		case NR_BSWAP:
			r[in->dst] = nicprog_exec_bswap(r[in->dst], in->imm,
							in->aux);
			break;
		case NR_JMP:
			if (nicrisc_cond(in, r[in->dst], src))
				pc = in->off;
			break;
		case NR_LD:
			r[in->dst] = nicrisc_load((void *)(uintptr_t)
						  (r[in->src] + in->off),
						  in->size);
			break;
		case NR_ST:
			nicrisc_store((void *)(uintptr_t)(r[in->dst] + in->off),
				      in->size, src);
			break;
		case NR_ATOMIC:
			nicrisc_atomic(in, r);
			break;
		case NR_LDI:
			r[in->dst] = in->imm;
			break;
		case NR_LDCTX:
			r[in->dst] = nicrisc_ctx_load(pkt, in->aux);
			break;
		case NR_STCTX:
			pkt->rx_queue_index = src;
			break;
		case NR_CALL:
			r[BPF_REG_0] = nicrisc_helper(in->aux, r, pkt, redirect);
			break;
		case NR_CALLSUB:
			/* the verifier bounds the depth: a frame is always free */
			if (WARN_ON_ONCE(depth + 1 >= NICRISC_MAX_FRAMES))
				goto out;
			frames[depth].ret = pc;
			memcpy(frames[depth].saved, &r[BPF_REG_6],
			       sizeof(frames[depth].saved));
			depth++;
			r[BPF_REG_10] += MAX_BPF_STACK;
			pc = in->off;
			break;
		default:	/* NR_EXIT */
			if (!depth) {
				*insns = steps;
				return r[BPF_REG_0];
			}
			depth--;
			pc = frames[depth].ret;
			memcpy(&r[BPF_REG_6], frames[depth].saved,
			       sizeof(frames[depth].saved));
			r[BPF_REG_10] -= MAX_BPF_STACK;
		}
	}
out:
	*insns = steps;
	return XDP_ABORTED;
}
