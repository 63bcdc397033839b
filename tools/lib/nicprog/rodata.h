/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Read-only global data folded into the program: Linux 6.1 gives a
 * device-bound map no direct value access, so a program reading its
 * ".rodata" configuration ("volatile const") cannot offload as written;
 * its reads become the constants the object holds.
 */
#ifndef _NICPROG_RODATA_H
#define _NICPROG_RODATA_H

#include "offload.h"

/**
 * struct np_rodata - one read-only variable (or section) a program loads
 * @data: its section's bytes
 * @size: bytes at @data
 * @off: where the loaded address points, in the section
 * @name: the symbol, for a refusal
 * @sec: the section
 */
struct np_rodata {
	const u8 *data;
	u32 size;
	u32 off;
	char name[64];
	char sec[64];
};

/**
 * struct np_patch - one instruction of the program replaced
 * @at: its index
 * @insn: what it becomes
 */
struct np_patch {
	u32 at;
	struct bpf_insn insn;
};

int np_rodata_fold(struct bpf_insn *insns, u32 len,
		   const struct nicprog_subprog *subs, u32 n_subs,
		   const struct np_rodata *ro, u32 n_ro,
		   struct np_patch **patches, u32 *n_patches,
		   char *err, size_t err_len);

#endif /* _NICPROG_RODATA_H */
