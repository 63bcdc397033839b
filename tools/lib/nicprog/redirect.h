/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Instructions replaced by several for the NIC (splices): bpf_redirect_map()
 * through a DEVMAP, which Linux 6.1 binds to no device, becomes a lookup in
 * a table of ifindexes and bpf_redirect(), and a lookup in it finds no
 * empty slot; bpf_tail_call() a lookup of the tail call target and
 * bpf_redirect() to it (redirect.c); a global data
 * address load, which 6.1 does not allow on a device-bound map, a lookup
 * of the section's one element (globals.c); bpf_loop(), whose callback
 * the NIC cannot call from a helper, the loop it runs (loop.c); a lookup
 * in a host XSKMAP that only gates a redirect to it, nothing (xskgate.c).
 */
#ifndef _NICPROG_REDIRECT_H
#define _NICPROG_REDIRECT_H

#include "offload.h"

/* What a splice replaces, for the loader to check libbpf's copy by. */
enum np_splice_kind {
	NP_SPLICE_REDIRECT,	/* a bpf_redirect_map() call (redirect.c) */
	NP_SPLICE_GLOBAL,	/* a global data address load (globals.c) */
	NP_SPLICE_LOOKUP,	/* a bpf_map_lookup_elem() on a devmap */
	NP_SPLICE_TAIL,		/* a bpf_tail_call() */
	NP_SPLICE_LOOP,		/* a bpf_loop() call (loop.c) */
	NP_SPLICE_FUNC,		/* the load of its callback's address */
	NP_SPLICE_GATE,		/* an XSKMAP lookup gating a redirect */
};

/**
 * struct np_splice - one instruction replaced by several (or by none)
 * @at: its index in the program before any splice
 * @n: instructions that replace it; 0 for the second half of a 64-bit
 *	load whose first half's splice replaces both
 * @kind: enum np_splice_kind
 * @insns: them; jumps among them are relative to themselves, and
 *	@insns[0] keeps the replaced instruction's place for jumps into it;
 *	a call among them (BPF_PSEUDO_CALL) is aimed as from the replaced
 *	instruction, at @at + 1 + imm of the program before any splice.
 *	A 64-bit map load among them names the map as the replaced
 *	instruction does (in libbpf's copy, its file descriptor)
 */
struct np_splice {
	u32 at;
	u32 n;
	u32 kind;
	struct bpf_insn insns[24];
};

struct np_object;

static inline bool np_is_ldimm64(const struct bpf_insn *in)
{
	return in->code == (BPF_LD | BPF_IMM | BPF_DW);
}

int np_fail(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int np_globals_rewrite(struct np_object *o, char *err, size_t err_len);
int np_redirect_rewrite(struct np_object *o, char *err, size_t err_len);
int np_loop_rewrite(struct np_object *o, char *err, size_t err_len);
bool np_xsk_gate(const struct np_object *o, u32 at, u32 m, u32 *redirect,
		 u32 *miss);
void np_func_of(const struct np_object *o, u32 i, u32 *first, u32 *end,
		u32 *sub);
s32 np_free_slot(const struct bpf_insn *insns, u32 first, u32 end);
u32 np_succ(const struct bpf_insn *insns, u32 i, u32 first, u32 end,
	    u32 *succ);
int np_splice_apply(const struct bpf_insn *in, u32 len,
		    const struct np_splice *sp, u32 n_sp,
		    struct bpf_insn **out, u32 *out_len, u32 **map);

#endif /* _NICPROG_REDIRECT_H */
