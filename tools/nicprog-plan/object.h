/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A BPF ELF object as the kernel would receive it from libbpf: one XDP
 * program with its subprograms appended in libbpf's order, its maps and
 * what BTF says of its functions.
 */
#ifndef _NICPROG_PLAN_OBJECT_H
#define _NICPROG_PLAN_OBJECT_H

#include "offload.h"

#define NP_OBJ_NAME	64

/* A global function's argument, as the verifier types it from BTF. */
enum np_arg {
	NP_ARG_NONE,
	NP_ARG_SCALAR,
	NP_ARG_CTX,	/* struct xdp_md * */
	NP_ARG_MEM,	/* another pointer: memory of its size, maybe NULL */
};

/**
 * struct np_object - a program read from an ELF object
 * @insns: linked instructions; a map load is BPF_PSEUDO_MAP_FD with the
 *	map's index in @maps as imm
 * @len: instructions
 * @maps: the object's maps (type, sizes, capacity, bytes)
 * @map_names: their names
 * @n_maps: entries in @maps
 * @subs: subprograms by ascending start, the program first
 * @sub_names: their function names
 * @sub_args: global functions' arguments R1-R5, enum np_arg
 * @n_subs: entries in @subs
 * @name: the program's function name
 * @sec: its section
 */
struct np_object {
	struct bpf_insn *insns;
	u32 len;
	struct nicprog_ir_table maps[NICPROG_MAX_TABLES];
	char map_names[NICPROG_MAX_TABLES][NP_OBJ_NAME];
	u32 n_maps;
	struct nicprog_subprog subs[NICPROG_MAX_SUBPROGS];
	char sub_names[NICPROG_MAX_SUBPROGS][NP_OBJ_NAME];
	u8 sub_args[NICPROG_MAX_SUBPROGS][5];
	u32 n_subs;
	char name[NP_OBJ_NAME];
	char sec[NP_OBJ_NAME];
};

int np_object_read(const char *path, const char *sec, struct np_object *o,
		   char *err, size_t err_len);
void np_object_free(struct np_object *o);

#endif /* _NICPROG_PLAN_OBJECT_H */
