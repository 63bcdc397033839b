/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bpf_redirect_map() through a DEVMAP, rewritten for the NIC: Linux 6.1
 * binds no DEVMAP to a device, so the map becomes a table of ifindexes
 * and each call a lookup followed by bpf_redirect().
 */
#ifndef _NICPROG_REDIRECT_H
#define _NICPROG_REDIRECT_H

#include "offload.h"

/**
 * struct np_splice - one instruction replaced by several
 * @at: its index in the program before any splice
 * @n: instructions that replace it
 * @insns: them; jumps among them are relative to themselves, and
 *	@insns[0] keeps the replaced call's place for jumps into it
 */
struct np_splice {
	u32 at;
	u32 n;
	struct bpf_insn insns[12];
};

struct np_object;

int np_redirect_rewrite(struct np_object *o, char *err, size_t err_len);
int np_splice_apply(const struct bpf_insn *in, u32 len,
		    const struct np_splice *sp, u32 n_sp,
		    struct bpf_insn **out, u32 *out_len, u32 **map);

#endif /* _NICPROG_REDIRECT_H */
