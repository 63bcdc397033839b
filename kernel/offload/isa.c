// SPDX-License-Identifier: GPL-2.0
/*
 * The instruction set every nicprog executor accepts: the eBPF ISA of
 * Linux 6.1, the XDP helpers NIC cores implement and those only the host
 * has. The verifier hooks and the offloader decide with it what a NIC may
 * run, whether a driver interprets the program (exec/) or translates it,
 * so it lives with the offloader: a translating driver never loads the
 * interpreter's module.
 */
#include "compat.h"
#include <net/nicprog_exec.h>

/* struct xdp_md's one field an offloaded program may write */
#define XDP_MD_RX_QUEUE		16

/**
 * nicprog_exec_helper_supported() - can the executor call this helper?
 * @func_id: enum bpf_func_id
 *
 * Context: any.
 * Return: true for the XDP helpers the executor implements.
 */
bool nicprog_exec_helper_supported(s32 func_id)
{
	switch (func_id) {
	case BPF_FUNC_map_lookup_elem:
	case BPF_FUNC_map_update_elem:
	case BPF_FUNC_map_delete_elem:
	case BPF_FUNC_ktime_get_ns:
	case BPF_FUNC_get_prandom_u32:
	case BPF_FUNC_redirect:
	case BPF_FUNC_csum_diff:
	case BPF_FUNC_xdp_adjust_head:
	case BPF_FUNC_xdp_adjust_meta:
	case BPF_FUNC_xdp_adjust_tail:
	case BPF_FUNC_perf_event_output:
	case BPF_FUNC_xdp_get_buff_len:
	case BPF_FUNC_xdp_load_bytes:
	case BPF_FUNC_xdp_store_bytes:
		return true;
	}
	return false;
}

/**
 * nicprog_exec_host_helper() - is this a helper only the host has?
 * @func_id: enum bpf_func_id
 *
 * Helpers that read host state -- the routing and neighbour tables, the
 * devices' MTUs -- or write it -- the trace buffer bpf_printk() writes,
 * whose lines and return value the kernel's bstr_printf() makes -- no NIC
 * core can run. The host part of a partial plan
 * calls the kernel's own implementation through
 * &nicprog_exec_ops.host_call, so their results are exactly the host's.
 * One exception: bpf_check_mtu() of the receiving port itself (ifindex
 * 0), whose MTU the NIC knows (&nicprog_exec_pkt.mtu); the offloader
 * leaves such a call on the NIC (nicprog_note_insn()).
 *
 * Context: any.
 * Return: the helper's name, or NULL if it is not one of them.
 */
const char *nicprog_exec_host_helper(s32 func_id)
{
	switch (func_id) {
	case BPF_FUNC_fib_lookup:
		return "bpf_fib_lookup";
	case BPF_FUNC_check_mtu:
		return "bpf_check_mtu";
	case BPF_FUNC_trace_printk:
		return "bpf_trace_printk";
	case BPF_FUNC_trace_vprintk:
		return "bpf_trace_vprintk";
	}
	return NULL;
}

static int exec_bad(u32 *bad_insn, const char **why, u32 insn, int err,
		    const char *reason)
{
	*bad_insn = insn;
	*why = reason;
	return err;
}

static bool size_ok(u8 code)
{
	return BPF_MODE(code) == BPF_MEM || BPF_MODE(code) == BPF_ATOMIC;
}

/* nicprog_exec_check() of a jump, call or exit at @i */
static int exec_check_jmp(const struct nicprog_exec_prog *prog, u32 i,
			  u32 *bad_insn, const char **why)
{
	const struct bpf_insn *insn = &prog->insns[i];
	u8 cls = BPF_CLASS(insn->code), op = BPF_OP(insn->code);
	s64 tgt;

	if (op == BPF_CALL) {
		if (cls == BPF_JMP32)
			return exec_bad(bad_insn, why, i, -EINVAL,
					"call in JMP32 class");
		if (insn->src_reg == BPF_PSEUDO_CALL) {
			tgt = (s64)i + 1 + insn->imm;
			if (tgt < 0 || tgt >= prog->len)
				return exec_bad(bad_insn, why, i, -EINVAL,
						"call target outside the program");
		} else if (insn->src_reg) {
			return exec_bad(bad_insn, why, i, -EOPNOTSUPP,
					"kfunc call");
		} else if (!nicprog_exec_helper_supported(insn->imm) &&
			   !nicprog_exec_host_helper(insn->imm)) {
			return exec_bad(bad_insn, why, i, -EOPNOTSUPP,
					"helper not implemented on the NIC");
		}
		return 0;
	}
	if (op == BPF_EXIT) {
		if (cls == BPF_JMP32)
			return exec_bad(bad_insn, why, i, -EINVAL,
					"exit in JMP32 class");
		return 0;
	}
	if (op > BPF_JSLE || (cls == BPF_JMP32 && op == BPF_JA))
		return exec_bad(bad_insn, why, i, -EOPNOTSUPP,
				"jump not in the 6.1 ISA");
	tgt = (s64)i + 1 + insn->off;
	if (tgt < 0 || tgt >= prog->len)
		return exec_bad(bad_insn, why, i, -EINVAL,
				"jump target outside the program");
	return 0;
}

/* nicprog_exec_check() of a load, store or atomic at @i */
static int exec_check_mem(const struct nicprog_exec_prog *prog, u32 i,
			  u32 *bad_insn, const char **why)
{
	const struct bpf_insn *insn = &prog->insns[i];
	u8 cls = BPF_CLASS(insn->code);

	if (!size_ok(insn->code))
		return exec_bad(bad_insn, why, i, -EOPNOTSUPP,
				"memory access mode not in the 6.1 ISA");
	if (BPF_MODE(insn->code) == BPF_ATOMIC) {
		if (cls != BPF_STX ||
		    (BPF_SIZE(insn->code) != BPF_W &&
		     BPF_SIZE(insn->code) != BPF_DW))
			return exec_bad(bad_insn, why, i, -EINVAL,
					"atomic of an invalid class or size");
		switch (insn->imm) {
		case BPF_ADD: case BPF_ADD | BPF_FETCH:
		case BPF_OR: case BPF_OR | BPF_FETCH:
		case BPF_AND: case BPF_AND | BPF_FETCH:
		case BPF_XOR: case BPF_XOR | BPF_FETCH:
		case BPF_XCHG: case BPF_CMPXCHG:
			break;
		default:
			return exec_bad(bad_insn, why, i, -EOPNOTSUPP,
					"atomic operation not in the 6.1 ISA");
		}
	} else if (cls == BPF_LDX && BPF_MODE(insn->code) != BPF_MEM) {
		return exec_bad(bad_insn, why, i, -EOPNOTSUPP,
				"load mode not in the 6.1 ISA");
	}
	/* xdp_is_valid_access(): an offloaded program's one write */
	if (cls != BPF_LDX && prog->flags &&
	    (prog->flags[i] & NICPROG_EXEC_INSN_CTX) &&
	    (BPF_MODE(insn->code) != BPF_MEM ||
	     insn->off != XDP_MD_RX_QUEUE ||
	     BPF_SIZE(insn->code) != BPF_W))
		return exec_bad(bad_insn, why, i, -EOPNOTSUPP,
				"context write other than rx_queue_index");
	return 0;
}

/**
 * nicprog_exec_check() - validate a program before it may run
 * @prog: the program
 * @bad_insn: set to the offending instruction on failure
 * @why: set to a static reason on failure
 *
 * Checks what the executor relies on beyond the verifier: every opcode is
 * one it implements, jumps and calls land inside the program, maps are in
 * range, helpers are implemented (those only the host has run where
 * &nicprog_exec_ops.host_call is set: the host part of a partial plan).
 *
 * Context: any.
 * Return: 0, -EOPNOTSUPP for an instruction or helper the executor does
 * not implement, -EINVAL for a malformed one.
 */
int nicprog_exec_check(const struct nicprog_exec_prog *prog, u32 *bad_insn,
		       const char **why)
{
	const struct bpf_insn *insn;
	u32 i;
	u8 cls, op;
	int err;

	for (i = 0; i < prog->len; i++) {
		insn = &prog->insns[i];
		cls = BPF_CLASS(insn->code);
		op = BPF_OP(insn->code);
		if (insn->dst_reg > BPF_REG_10 || insn->src_reg > BPF_REG_10)
			return exec_bad(bad_insn, why, i, -EINVAL, "register out of range");
		switch (cls) {
		case BPF_ALU:
		case BPF_ALU64:
			if (op > BPF_END || insn->off)
				return exec_bad(bad_insn, why, i, -EOPNOTSUPP,
						"ALU operation not in the 6.1 ISA");
			if (op == BPF_END &&
			    (cls == BPF_ALU64 || (insn->imm != 16 &&
						  insn->imm != 32 &&
						  insn->imm != 64)))
				return exec_bad(bad_insn, why, i, -EINVAL,
						"byte swap of an invalid width");
			break;
		case BPF_JMP:
		case BPF_JMP32:
			err = exec_check_jmp(prog, i, bad_insn, why);
			if (err)
				return err;
			break;
		case BPF_LD:
			if (insn->code != (BPF_LD | BPF_IMM | BPF_DW))
				return exec_bad(bad_insn, why, i, -EOPNOTSUPP,
						"legacy packet load (LD_ABS/LD_IND)");
			if (i + 1 >= prog->len || prog->insns[i + 1].code ||
			    prog->insns[i + 1].dst_reg ||
			    prog->insns[i + 1].src_reg || prog->insns[i + 1].off)
				return exec_bad(bad_insn, why, i, -EINVAL,
						"malformed 64-bit immediate load");
			if (insn->src_reg == BPF_PSEUDO_MAP_FD) {
				if ((u32)insn->imm >= prog->n_maps)
					return exec_bad(bad_insn, why, i, -EINVAL,
							"map index out of range");
			} else if (insn->src_reg) {
				return exec_bad(bad_insn, why, i, -EOPNOTSUPP,
						"64-bit load of a global variable, BTF object or callback");
			}
			i++;
			break;
		case BPF_LDX:
		case BPF_ST:
		case BPF_STX:
			err = exec_check_mem(prog, i, bad_insn, why);
			if (err)
				return err;
			break;
		}
	}
	return 0;
}
