/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NIC-core executor (kernel/exec/): an eBPF-ISA interpreter with cycle accounting, for
 * SmartNIC cores that run eBPF directly (hXDP-style) and for the simulated
 * NIC. It runs the program exactly as the verifier saw it (a copy taken at
 * finalize time, before the kernel's own rewrites), so its semantics are
 * the ISA's and the XDP helpers' as of Linux 6.1; the same file builds in
 * userspace for unit tests.
 *
 * Memory safety rests on the verifier, as for the kernel's interpreter:
 * every pointer the program dereferences was proven in bounds. Context
 * loads are the exception: an offloaded program's context accesses are not
 * rewritten, so the caller marks them (NICPROG_EXEC_INSN_CTX) and the
 * executor serves them from the packet state.
 */
#ifndef _NET_NICPROG_EXEC_H
#define _NET_NICPROG_EXEC_H

/* In userspace, include the offloader's compat.h first (u8..u64). */
#ifdef __KERNEL__
#include <linux/types.h>
#endif
#include <linux/bpf.h>
#include <linux/nicprog.h>

#define NICPROG_EXEC_MAX_FRAMES	8	/* MAX_CALL_FRAMES */
#define NICPROG_EXEC_STACK	512	/* MAX_BPF_STACK, per frame */
/* A verified program terminates; this bounds a buggy executor, not it. */
#define NICPROG_EXEC_MAX_STEPS	0x400000U	/* 2^22 */

/* Handle the executor puts in a register for "ld_imm64 map". */
#define NICPROG_EXEC_MAP_TAG	0x6e70000000000000ULL
#define NICPROG_EXEC_MAP_MASK	0xffffULL

/* Per-instruction facts from the verifier: enum nicprog_exec_insn_flags. */
enum nicprog_exec_insn_flags {
	NICPROG_EXEC_INSN_CTX = 1 << 0,	/* LDX whose source is the context */
	NICPROG_EXEC_INSN_MAT = 1 << 1,	/* lookup a MAT stage serves */
	/*
	 * part of a region a MAT stage serves as one lookup (an identified
	 * longest-prefix match): entering it from outside is one MAT lookup
	 */
	NICPROG_EXEC_INSN_MAT_REGION = 1 << 2,
};

/*
 * struct nicprog_exec_prog.accel: the accelerator function in the low
 * bits; above them, how the call's own conventions differ from the
 * engine's (an identified function: kernel/offload/ident.c).
 */
#define NICPROG_EXEC_AFN_MASK		0x0f
#define NICPROG_EXEC_ACCEL_SEED_INV	0x10	/* engine gets ~R4 (32 bits) */
#define NICPROG_EXEC_ACCEL_RET_INV	0x20	/* R0 is the result inverted */
#define NICPROG_EXEC_ACCEL_ERR_ZERO	0x40	/* R0 on an error: 0 */
#define NICPROG_EXEC_ACCEL_ERR_U32	0x80	/* R0 on an error: U32_MAX */
#define NICPROG_EXEC_ACCEL_ERR		(~0ULL)	/* an engine's error result */

/**
 * nicprog_csum_ref() - the csum engine's function (nicprog_accel_csum())
 * @p: the bytes
 * @len: how many
 * @seed: a sum to add to
 *
 * Return: the ones' complement sum of the big-endian 16-bit words of @p
 * (an odd last byte padded with zero) and @seed, folded to 16 bits.
 */
static inline u64 nicprog_csum_ref(const u8 *p, u32 len, u32 seed)
{
	u64 sum = seed;
	u32 i;

	for (i = 0; i + 2 <= len; i += 2)
		sum += ((u32)p[i] << 8) | p[i + 1];
	if (len & 1)
		sum += (u32)p[len - 1] << 8;
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (sum & 0xffff) + (sum >> 16);
}

/**
 * nicprog_exec_accel_ret() - a call's R0 from its engine's result
 * @accel: struct nicprog_exec_prog.accel of the call
 * @ret: the engine's result, NICPROG_EXEC_ACCEL_ERR on an error
 *
 * Return: what the called function returns.
 */
static inline u64 nicprog_exec_accel_ret(u8 accel, u64 ret)
{
	u64 width = (accel & NICPROG_EXEC_AFN_MASK) == NICPROG_AFN_CSUM ?
		    0xffff : 0xffffffff;

	if (ret == NICPROG_EXEC_ACCEL_ERR)
		return accel & NICPROG_EXEC_ACCEL_ERR_ZERO ? 0 :
		       accel & NICPROG_EXEC_ACCEL_ERR_U32 ? 0xffffffff : ret;
	return accel & NICPROG_EXEC_ACCEL_RET_INV ? ret ^ width : ret;
}

/* struct nicprog_exec_prog.stage of a subprogram's instructions */
#define NICPROG_EXEC_STAGE_ANY	0xff
/* struct nicprog_exec_prog.stage of the part the host runs (partial offload) */
#define NICPROG_EXEC_STAGE_HOST	0xfe

/**
 * struct nicprog_exec_prog - a program prepared for the executor
 * @insns: instructions as verified; ld_imm64 of a map carries
 *	src_reg BPF_PSEUDO_MAP_FD and the map's index in @imm of the first half
 * @flags: per instruction, enum nicprog_exec_insn_flags
 * @len: instructions
 * @n_maps: maps the program references, indices 0..@n_maps - 1
 * @cost: cycles per instruction class (enum nicprog_insn_class)
 * @lat_pkt: extra cycles of a packet access
 * @lat_map: extra cycles of a map value access or map helper call
 * @cycles: if set, per instruction, cycles that replace the class cost and
 *	latencies above (the plan priced each access where it placed it)
 * @stage: if set, per instruction, the plan stage it runs in, or
 *	NICPROG_EXEC_STAGE_ANY; nicprog_exec_resume() stops where control
 *	passes from one stage to another
 * @accel: if set, per instruction, the enum nicprog_accel_fn an engine
 *	runs instead of the called subprogram (ops->accel), or 0; with
 *	NICPROG_EXEC_ACCEL_* conventions in the high bits
 * @region: if set, per instruction, the LNIC memory region a packet or
 *	map access (or map helper call) of it touches, where the plan put
 *	the packet and the tables; NICPROG_EXEC_REGION_NONE otherwise
 */
struct nicprog_exec_prog {
	const struct bpf_insn *insns;
	const u8 *flags;
	u32 len;
	u32 n_maps;
	u16 cost[__NICPROG_IC_MAX];
	u32 lat_pkt;
	u32 lat_map;
	const u16 *cycles;
	const u8 *stage;
	const u8 *accel;
	const u8 *region;
};

#define NICPROG_EXEC_REGION_NONE	0xff

/*
 * The addresses a timing model sees (struct nicprog_exec_event.addr) are
 * the NIC's, not the host's: which accesses share a cache line, set or
 * bank must not depend on where the host's allocator put an element (a
 * kernel with KASAN redzones spread the same elements over other lines,
 * and the simulated NIC ran 11% slower than the same plan predicted).
 * Table @m of the program lies at NICPROG_EXEC_NIC_TABLE(@m): its first
 * line is the table's own (a lookup that misses reads it), its values
 * follow at NICPROG_EXEC_NIC_VALUES, an array's side by side as the host
 * keeps them, a hash table's in slots of whole lines
 * (nicprog_exec_nic_slot()), numbered as elements come: the slot last
 * freed first, else the next never used, so that one sequence of
 * updates gives one layout wherever it runs. The frame lies in its
 * buffer of the NIC's packet memory, below the first table: buffer @n of
 * a driver's numbering at NICPROG_EXEC_NIC_FRAME(@n) (struct
 * nicprog_exec_pkt.nic).
 */
#define NICPROG_EXEC_NIC_TABLE(m)	(((u64)(m) + 1) << 36)
#define NICPROG_EXEC_NIC_VALUES		64ULL
#define NICPROG_EXEC_NIC_LINE		64U
#define NICPROG_EXEC_NIC_FRAME_SZ	4096ULL
#define NICPROG_EXEC_NIC_FRAME(n)	((u64)(n) * NICPROG_EXEC_NIC_FRAME_SZ)

/*
 * A simulated NIC's clock, and an offline replay's, reads this at the
 * model's cycle 0: never 0, which NFs take for "never seen".
 */
#define NICPROG_EXEC_NIC_EPOCH_NS	1000000000ULL

/**
 * nicprog_exec_nic_slot() - offset of a hash table's slot in the table
 * @slot: the element's slot number
 * @value_bytes: bytes of its value (with any padding the table keeps)
 *
 * Return: the offset from NICPROG_EXEC_NIC_TABLE() of the slot's value.
 */
static inline u64 nicprog_exec_nic_slot(u32 slot, u32 value_bytes)
{
	u64 stride = ((u64)value_bytes + NICPROG_EXEC_NIC_LINE - 1) &
		     ~(u64)(NICPROG_EXEC_NIC_LINE - 1);

	return NICPROG_EXEC_NIC_VALUES + slot * stride;
}

/* struct nicprog_exec_event.kind */
enum nicprog_exec_event_kind {
	NICPROG_EXEC_EV_MEM,	/* @unit: region, @addr: address touched */
	NICPROG_EXEC_EV_ACCEL,	/* @unit: accelerator type, @len: bytes */
	NICPROG_EXEC_EV_MAT,	/* a lookup a MAT stage serves */
};

/**
 * struct nicprog_exec_event - one thing a run waited for, in order
 * @at: the run's instruction cycles before it
 * @kind: enum nicprog_exec_event_kind
 * @unit: the region or accelerator type
 * @len: bytes an accelerator job processes
 * @addr: the address a memory access touched (its cache line and bank):
 *	the NIC's (NICPROG_EXEC_NIC_TABLE()) for a table
 */
struct nicprog_exec_event {
	u32 at;
	u8 kind;
	u8 unit;
	u16 len;
	u64 addr;
};

#define NICPROG_EXEC_TRACE_MAX	512

/**
 * struct nicprog_exec_trace - what a run waited for, for a timing model
 * @n: entries in @ev
 * @lost: events past NICPROG_EXEC_TRACE_MAX, not recorded
 * @ev: the events, in program order
 *
 * With a trace, a run's cycles are its instructions' class costs alone:
 * memory latency, engine and MAT time are the timing model's to add.
 */
struct nicprog_exec_trace {
	u32 n;
	u32 lost;
	struct nicprog_exec_event ev[NICPROG_EXEC_TRACE_MAX];
};

/**
 * struct nicprog_exec_win - a value a lookup returned, host and NIC side
 * @host: its address in the host's memory
 * @nic: its NIC address (NICPROG_EXEC_NIC_TABLE())
 * @len: bytes from there a program may reach
 */
struct nicprog_exec_win {
	u64 host;
	u64 nic;
	u32 len;
};

/* the last lookups of a run whose values a traced run maps to the NIC */
#define NICPROG_EXEC_WINDOWS	8

/**
 * struct nicprog_exec_ctx - a run in progress: the live state a stage
 *	hands to the next one with the packet
 * @regs: R0-R10; R10 points into @stack
 * @pc: next instruction
 * @stage: the stage that runs from @pc
 * @redirect_ifindex: target of a bpf_redirect() an earlier stage called
 * @stack: the main program's stack frame
 * @n_win: lookups recorded in @win (a traced run's), the last at
 *	(@n_win - 1) % NICPROG_EXEC_WINDOWS
 * @win: where the values the run's last lookups returned lie on the NIC
 */
struct nicprog_exec_ctx {
	u64 regs[MAX_BPF_REG];
	u32 pc;
	u32 stage;
	u32 redirect_ifindex;
	u64 stack[NICPROG_EXEC_STACK / 8];
	u32 n_win;
	struct nicprog_exec_win win[NICPROG_EXEC_WINDOWS];
};

/**
 * struct nicprog_exec_pkt - the frame a program runs on, XDP style
 * @buf: buffer holding headroom, frame and tailroom
 * @buf_len: size of @buf (the XDP frame size)
 * @head_reserved: bytes at the start of @buf no adjustment may reach
 *	(sizeof(struct xdp_frame) on the host)
 * @tail_reserved: bytes at the end of @buf no adjustment may reach
 *	(the skb_shared_info tailroom on the host)
 * @data_meta: offset of the metadata in @buf (== @data without metadata)
 * @data: offset of the frame's first byte in @buf
 * @data_end: offset just past the frame's last byte
 * @ingress_ifindex: xdp_md.ingress_ifindex
 * @rx_queue_index: xdp_md.rx_queue_index
 * @mtu: the receiving port's MTU, which bpf_check_mtu() of that port
 *	(ifindex 0) reads on the NIC as the host reads dev->mtu; 0: the NIC
 *	does not know it, and &nicprog_exec_ops.host_call answers
 * @nic: where @buf lies in the NIC's packet memory
 *	(NICPROG_EXEC_NIC_FRAME()), the address a timing model sees
 * @now_ns: the NIC's clock when the frame arrived, what
 *	bpf_ktime_get_ns() reads on the NIC (from NICPROG_EXEC_NIC_EPOCH_NS
 *	on); 0: the NIC keeps no clock, and &nicprog_exec_ops.ktime_ns
 *	is read
 * @rng: with @now_ns, the NIC's random stream bpf_get_prandom_u32()
 *	reads, seeded from @now_ns at the run's first read (0 until then),
 *	so that what the program draws follows the NIC's clock too; without
 *	@now_ns, &nicprog_exec_ops.prandom is read
 */
struct nicprog_exec_pkt {
	u8 *buf;
	u32 buf_len;
	u32 head_reserved;
	u32 tail_reserved;
	u32 data_meta;
	u32 data;
	u32 data_end;
	u32 ingress_ifindex;
	u32 rx_queue_index;
	u32 mtu;
	u64 nic;
	u64 now_ns;
	u64 rng;
};

/**
 * struct nicprog_exec_ops - what the executor asks of its environment
 * @map_lookup: value of @key in map @map, or NULL
 * @map_update: bpf_map_update_elem() semantics, returns 0 or -errno
 * @map_delete: bpf_map_delete_elem() semantics, returns 0 or -errno
 * @ktime_ns: the clock bpf_ktime_get_ns() reads
 * @prandom: the source bpf_get_prandom_u32() reads
 * @accel: run accelerator function @afn on an engine with the call's
 *	arguments @args (R1-R5; R1 is the context, that is @pkt); set *@ret
 *	to its R0 and return the cycles the core waited, or -errno to run the
 *	subprogram's body instead. Optional.
 * @event_output: bpf_perf_event_output() into map @map (a host map the
 *	program may use from the NIC: a PERF_EVENT_ARRAY), @flags as the
 *	helper's, @data/@size the sample, @pkt the frame whose first bytes
 *	BPF_F_CTXLEN_MASK asks for; returns the helper's result. Optional:
 *	without it the run stops with -EOPNOTSUPP.
 * @map_offset: where the value @value that @map_lookup returned for map
 *	@map lies in the table's NIC memory: its offset from
 *	NICPROG_EXEC_NIC_TABLE(@map), and in *@len the bytes from there the
 *	program may reach. Optional: without it a timing model sees the
 *	host's addresses of values.
 * @host_call: call helper @func_id, one nicprog_exec_host_helper() names,
 *	with the call's arguments @args (R1-R5; R1 is the context, that is
 *	@pkt, for a helper that takes one); set *@ret to its R0 and return
 *	0, or -errno to stop the run with -EOPNOTSUPP. Only the host sets
 *	it. Optional.
 *
 * All are called from the executing context and must not sleep.
 */
struct nicprog_exec_ops {
	void *(*map_lookup)(void *priv, u32 map, const void *key);
	long (*map_update)(void *priv, u32 map, const void *key,
			   const void *value, u64 flags);
	long (*map_delete)(void *priv, u32 map, const void *key);
	u64 (*ktime_ns)(void *priv);
	u32 (*prandom)(void *priv);
	s64 (*accel)(void *priv, u32 afn, struct nicprog_exec_pkt *pkt,
		     const u64 *args, u64 *ret);
	long (*event_output)(void *priv, u32 map, u64 flags, const void *data,
			     u64 size, struct nicprog_exec_pkt *pkt);
	long (*host_call)(void *priv, s32 func_id,
			  struct nicprog_exec_pkt *pkt, const u64 *args,
			  u64 *ret);
	u64 (*map_offset)(void *priv, u32 map, const void *value, u32 *len);
};

/**
 * struct nicprog_exec_state - scratch memory of one executing core
 * @stack: one stack per call frame; frame 0 lives in the run's context
 * @diff: scratch of bpf_csum_diff(), as the kernel's per-CPU scratchpad
 * @ctx: the context of nicprog_exec_run()
 * @trace: if set, each run (or stage of one) records its events here
 *	instead of pricing them; set by the owner of the state
 */
struct nicprog_exec_state {
	u64 stack[NICPROG_EXEC_MAX_FRAMES][NICPROG_EXEC_STACK / 8];
	u32 diff[NICPROG_EXEC_STACK / 4];
	struct nicprog_exec_ctx ctx;
	struct nicprog_exec_trace *trace;
};

/**
 * struct nicprog_exec_result - what one run did
 * @ret: R0 at exit, all 64 bits
 * @action: the XDP verdict, R0's low 32 bits (XDP_ABORTED when @error is set)
 * @redirect_ifindex: target of bpf_redirect() when @action is XDP_REDIRECT
 * @cycles: NIC cycles the run took, from the cost table and latencies
 *	(or, with a trace, the cost table alone)
 * @insns: instructions executed
 * @error: 0, or why the executor stopped the program itself: -E2BIG (step
 *	bound), -EOPNOTSUPP (helper or instruction it does not implement),
 *	-EINVAL (malformed instruction)
 * @error_insn: index of the instruction @error refers to
 * @done: the program exited (or was stopped); otherwise it reached another
 *	stage, whose number and live state are in the context
 * @mat_lookups: lookups a MAT stage served
 * @accel_jobs: accelerator calls engines ran
 */
struct nicprog_exec_result {
	u64 ret;
	u32 action;
	u32 redirect_ifindex;
	u64 cycles;
	u64 insns;
	int error;
	u32 error_insn;
	bool done;
	u32 mat_lookups;
	u32 accel_jobs;
};

/**
 * nicprog_insn_class() - the cost-table class of an opcode
 * @code: bpf_insn.code
 *
 * Return: enum nicprog_insn_class.
 */
static inline u8 nicprog_insn_class(u8 code)
{
	u8 op = BPF_OP(code);

	switch (BPF_CLASS(code)) {
	case BPF_ALU:
	case BPF_ALU64:
		if (op == BPF_MUL)
			return NICPROG_IC_MUL;
		if (op == BPF_DIV || op == BPF_MOD)
			return NICPROG_IC_DIV;
		return NICPROG_IC_ALU;
	case BPF_JMP:
	case BPF_JMP32:
		return op == BPF_CALL ? NICPROG_IC_CALL : NICPROG_IC_BRANCH;
	case BPF_LD:
		return NICPROG_IC_ALU;
	case BPF_LDX:
		return NICPROG_IC_LOAD;
	default:
		if (BPF_MODE(code) == BPF_ATOMIC)
			return NICPROG_IC_ATOMIC;
		return NICPROG_IC_STORE;
	}
}

/**
 * nicprog_insn_bytes() - bytes a load or store of an opcode moves
 * @code: bpf_insn.code
 *
 * Return: 1, 2, 4 or 8.
 */
static inline u32 nicprog_insn_bytes(u8 code)
{
	switch (BPF_SIZE(code)) {
	case BPF_B:
		return 1;
	case BPF_H:
		return 2;
	case BPF_W:
		return 4;
	default:
		return 8;
	}
}

/*
 * The XDP helpers that move a frame's bounds, as Linux 6.1's
 * net/core/filter.c does them for a linear xdp_buff, return values
 * included: every executor's, the core's and a driver's own.
 */
#define NICPROG_ETH_HLEN	14
#define NICPROG_META_MAX	32

/**
 * nicprog_exec_adjust_head() - bpf_xdp_adjust_head()
 * @pkt: the frame
 * @offset: bytes to move its start by, metadata carried along
 *
 * Return: 0, or -EINVAL past the buffer's reserved head or the Ethernet
 * header's end.
 */
static inline long nicprog_exec_adjust_head(struct nicprog_exec_pkt *pkt,
					    s32 offset)
{
	u32 metalen = pkt->data - pkt->data_meta;
	s64 data = (s64)pkt->data + offset;

	if (data < (s64)(pkt->head_reserved + metalen) ||
	    data > (s64)pkt->data_end - NICPROG_ETH_HLEN)
		return -EINVAL;
	if (metalen)
		memmove(pkt->buf + pkt->data_meta + offset,
			pkt->buf + pkt->data_meta, metalen);
	pkt->data_meta += offset;
	pkt->data = data;
	return 0;
}

/**
 * nicprog_exec_adjust_meta() - bpf_xdp_adjust_meta()
 * @pkt: the frame
 * @offset: bytes to grow (negative) or shrink the metadata by
 *
 * Return: 0, -EINVAL past the reserved head or the frame's start, or
 * -EACCES for metadata not a multiple of 4 or over NICPROG_META_MAX.
 */
static inline long nicprog_exec_adjust_meta(struct nicprog_exec_pkt *pkt,
					    s32 offset)
{
	s64 meta = (s64)pkt->data_meta + offset;
	s64 metalen = (s64)pkt->data - meta;

	if (meta < (s64)pkt->head_reserved || meta > (s64)pkt->data)
		return -EINVAL;
	if ((metalen & 3) || metalen > NICPROG_META_MAX)
		return -EACCES;
	pkt->data_meta = meta;
	return 0;
}

/**
 * nicprog_exec_adjust_tail() - bpf_xdp_adjust_tail()
 * @pkt: the frame
 * @offset: bytes to move its end by; grown bytes read as zero
 *
 * Return: 0, or -EINVAL past the buffer's reserved tail or into the
 * Ethernet header.
 */
static inline long nicprog_exec_adjust_tail(struct nicprog_exec_pkt *pkt,
					    s32 offset)
{
	s64 hard_end = (s64)pkt->buf_len - pkt->tail_reserved;
	s64 data_end = (s64)pkt->data_end + offset;

	if (data_end > hard_end)
		return -EINVAL;
	if (data_end < (s64)pkt->data + NICPROG_ETH_HLEN)
		return -EINVAL;
	if (offset > 0)
		memset(pkt->buf + pkt->data_end, 0, offset);
	pkt->data_end = data_end;
	return 0;
}

/*
 * The ISA's operations: what every executor of the 6.1 ISA computes, the
 * core's interpreter and translated form and a driver's own code alike,
 * one definition for all.
 */

/**
 * nicprog_exec_alu64() - a 64-bit ALU operation
 * @op: BPF_OP() of the instruction
 * @dst: the destination's value
 * @src: the source's value (the immediate sign-extended)
 *
 * Division by zero gives 0 and modulo by zero leaves @dst, as the
 * kernel's interpreter and JITs do; shift counts are masked to 63.
 *
 * Return: the destination's new value.
 */
static inline u64 nicprog_exec_alu64(u8 op, u64 dst, u64 src)
{
	switch (op) {
	case BPF_ADD: return dst + src;
	case BPF_SUB: return dst - src;
	case BPF_MUL: return dst * src;
	case BPF_DIV:
		return src ? dst / src : 0;
	case BPF_MOD:
		return src ? dst % src : dst;
	case BPF_OR: return dst | src;
	case BPF_AND: return dst & src;
	case BPF_XOR: return dst ^ src;
	case BPF_LSH: return dst << (src & 63);
	case BPF_RSH: return dst >> (src & 63);
	case BPF_ARSH: return (u64)((s64)dst >> (src & 63));
	case BPF_NEG: return -dst;
	case BPF_MOV: return src;
	}
	return dst;
}

/**
 * nicprog_exec_alu32() - a 32-bit ALU operation
 * @op: BPF_OP() of the instruction
 * @dst: the destination's low half
 * @src: the source's low half (the immediate's 32 bits)
 *
 * The 64-bit form on zero-extended operands, low half kept: sums,
 * products, logic, quotients and remainders of values below 2^32 agree
 * in their low 32 bits (a quotient or remainder is itself below 2^32);
 * only the shift count (masked to 31, not 63) and the arithmetic shift
 * (which needs bit 31 as the sign) differ.
 *
 * Return: the destination's new value, to be zero-extended.
 */
static inline u32 nicprog_exec_alu32(u8 op, u32 dst, u32 src)
{
	switch (op) {
	case BPF_LSH:
	case BPF_RSH:
		src &= 31;
		break;
	case BPF_ARSH:
		return (u32)((s32)dst >> (src & 31));
	}
	return (u32)nicprog_exec_alu64(op, dst, src);
}

/**
 * nicprog_exec_bswap() - BPF_END: a byte order conversion
 * @v: the value
 * @width: 16, 32 or 64 (the instruction's immediate)
 * @to_be: BPF_TO_BE, else BPF_TO_LE (on a little-endian host: a
 *	truncation)
 *
 * Return: the converted value, zero-extended from @width.
 */
static inline u64 nicprog_exec_bswap(u64 v, s32 width, bool to_be)
{
	switch (width) {
	case 16:
		return to_be ? __builtin_bswap16((u16)v) : (u16)v;
	case 32:
		return to_be ? __builtin_bswap32((u32)v) : (u32)v;
	default:
		return to_be ? __builtin_bswap64(v) : v;
	}
}

/**
 * nicprog_exec_cond64() - whether a 64-bit conditional jump is taken
 * @op: BPF_OP() of the instruction
 * @a: the destination's value
 * @b: the source's value (the immediate sign-extended)
 *
 * Return: true to jump.
 */
static inline bool nicprog_exec_cond64(u8 op, u64 a, u64 b)
{
	switch (op) {
	case BPF_JA: return true;
	case BPF_JEQ: return a == b;
	case BPF_JNE: return a != b;
	case BPF_JGT: return a > b;
	case BPF_JGE: return a >= b;
	case BPF_JLT: return a < b;
	case BPF_JLE: return a <= b;
	case BPF_JSET: return a & b;
	case BPF_JSGT: return (s64)a > (s64)b;
	case BPF_JSGE: return (s64)a >= (s64)b;
	case BPF_JSLT: return (s64)a < (s64)b;
	case BPF_JSLE: return (s64)a <= (s64)b;
	}
	return false;
}

/**
 * nicprog_exec_cond32() - whether a JMP32 conditional jump is taken
 * @op: BPF_OP() of the instruction
 * @a: the destination's low half
 * @b: the source's low half
 *
 * Unsigned order and bit tests of zero-extended values are those of the
 * 32-bit values; signed order is kept by sign-extending both from bit
 * 31. JMP32 has no JA of this form (the loader refuses it).
 *
 * Return: true to jump.
 */
static inline bool nicprog_exec_cond32(u8 op, u32 a, u32 b)
{
	switch (op) {
	case BPF_JA:
		return false;
	case BPF_JSGT:
	case BPF_JSGE:
	case BPF_JSLT:
	case BPF_JSLE:
		return nicprog_exec_cond64(op, (u64)(s64)(s32)a,
					   (u64)(s64)(s32)b);
	}
	return nicprog_exec_cond64(op, a, b);
}

int nicprog_exec_check(const struct nicprog_exec_prog *prog, u32 *bad_insn,
		       const char **why);
void nicprog_exec_run(const struct nicprog_exec_prog *prog,
		      const struct nicprog_exec_ops *ops, void *priv,
		      struct nicprog_exec_state *st,
		      struct nicprog_exec_pkt *pkt,
		      struct nicprog_exec_result *res);
void nicprog_exec_start(struct nicprog_exec_ctx *ctx,
			struct nicprog_exec_pkt *pkt);
void nicprog_exec_resume(const struct nicprog_exec_prog *prog,
			 const struct nicprog_exec_ops *ops, void *priv,
			 struct nicprog_exec_state *st,
			 struct nicprog_exec_pkt *pkt,
			 struct nicprog_exec_ctx *ctx,
			 struct nicprog_exec_result *res);
bool nicprog_exec_helper_supported(s32 func_id);

/* threaded.c: the translated form of a stage (nicsim's exec_mode) */
struct nicprog_exec_code;
struct nicprog_exec_code *
nicprog_exec_translate(const struct nicprog_exec_prog *prog, u32 stage);
void nicprog_exec_code_free(struct nicprog_exec_code *code);
void nicprog_exec_code_resume(const struct nicprog_exec_code *code,
			      const struct nicprog_exec_ops *ops, void *priv,
			      struct nicprog_exec_state *st,
			      struct nicprog_exec_pkt *pkt,
			      struct nicprog_exec_ctx *ctx,
			      struct nicprog_exec_result *res);
const char *nicprog_exec_host_helper(s32 func_id);

/**
 * struct nicprog_exec_live - what a run's live state is at one instruction,
 *	where a run may be handed over (partial offload)
 * @pc: the instruction, at depth 0
 * @regs: registers R0-R9 live there, bit per register
 * @ptr_regs: of them, context, packet or stack pointers
 * @slots: main-frame stack slots live there, bit i for bytes
 *	[-8(i+1), -8i) of the frame pointer
 * @ptr_slots: of them, spilled context, packet or stack pointers
 */
struct nicprog_exec_live {
	u32 pc;
	u16 regs;
	u16 ptr_regs;
	u64 slots;
	u64 ptr_slots;
};

/* handover.c: a stopped run's state as bytes, and back */
const struct nicprog_exec_live *
nicprog_exec_live_find(const struct nicprog_exec_live *lv, u32 n, u32 pc);
u32 nicprog_exec_state_size(const struct nicprog_exec_live *lv,
			    const struct nicprog_exec_pkt *pkt);
int nicprog_exec_state_out(const struct nicprog_exec_live *lv, u32 cookie,
			   const struct nicprog_exec_pkt *pkt,
			   const struct nicprog_exec_ctx *ctx,
			   void *out, u32 size);
int nicprog_exec_state_in(const struct nicprog_exec_live *lv, u32 n_lv,
			  u32 cookie, const void *in, u32 len, u8 *buf,
			  u32 buf_len, struct nicprog_exec_pkt *pkt,
			  struct nicprog_exec_ctx *ctx);

/* helpers.c: XDP helpers that act on the frame, shared with the run loop */
long nicprog_exec_load_bytes(const struct nicprog_exec_pkt *pkt, u32 offset,
			     void *buf, u32 len);
long nicprog_exec_store_bytes(struct nicprog_exec_pkt *pkt, u32 offset,
			      const void *buf, u32 len);
long nicprog_exec_check_mtu(const struct nicprog_exec_pkt *pkt, u32 *mtu_len,
			    s32 len_diff, u64 flags);
u64 nicprog_exec_csum_diff(struct nicprog_exec_state *st, const u32 *from,
			   u32 from_size, const u32 *to, u32 to_size,
			   u32 seed);

#endif /* _NET_NICPROG_EXEC_H */
