/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A BPF ELF object as the kernel would receive it from libbpf: one XDP
 * program with its subprograms appended in libbpf's order, the maps it
 * uses as the NIC holds them and what BTF says of its functions. Shared by
 * the loader (load.c) and the offline planner, so that both choose the
 * same program and refuse an object with the same sentence.
 */
#ifndef _NICPROG_OBJECT_H
#define _NICPROG_OBJECT_H

#include "offload.h"
#include "redirect.h"
#include "rodata.h"

#define NP_OBJ_NAME	64

/* A global function's argument, as the verifier types it from BTF. */
enum np_arg {
	NP_ARG_NONE,
	NP_ARG_SCALAR,
	NP_ARG_CTX,	/* struct xdp_md * */
	NP_ARG_MEM,	/* another pointer: memory of its size, maybe NULL */
};

/**
 * struct np_map_def - a map as the object defines it
 * @type: enum bpf_map_type
 * @key_size: bytes of a key
 * @value_size: bytes of a value (of one CPU's, for a per-CPU map)
 * @max_entries: capacity
 * @flags: map_flags
 */
struct np_map_def {
	u32 type;
	u32 key_size;
	u32 value_size;
	u32 max_entries;
	u32 flags;
	u8 counters;	/* u64 counters a value by its BTF (0: none) */
};

/**
 * struct np_object_opts - which program, for which machine
 * @sec: its section, or NULL
 * @prog: its function name, or NULL; with neither, the first program in
 *	a section libbpf names XDP ("xdp", "xdp/...", "xdp.frags..."), else
 *	the first BTF types as XDP, else a function alone in .text
 *	(object.c's obj_choose())
 * @cpus: possible CPUs whose per-CPU layout user space expects of a
 *	per-CPU map (libbpf_num_possible_cpus()); 0 refuses per-CPU maps
 *
 * A program chosen by name or section is loaded as XDP whatever its
 * section, as ip link does.
 */
struct np_object_opts {
	const char *sec;
	const char *prog;
	u32 cpus;
};

/**
 * struct np_object - a program read from an ELF object
 * @insns: linked instructions; a map load is BPF_PSEUDO_MAP_FD with the
 *	map's index in @maps as imm
 * @len: instructions
 * @maps: the maps the program uses, as the NIC holds them (type, sizes,
 *	capacity, bytes): a per-CPU map is its non-per-CPU type with one
 *	value of @cpus slots of round_up(value_size, 8) bytes
 * @map_defs: the same maps as the object defines them
 * @map_names: their names; a global data section's map is named by the
 *	section (".bss")
 * @map_init: a global data section's initial bytes (value_size of them),
 *	NULL for zeros and for other maps
 * @n_maps: entries in @maps
 * @subs: subprograms by ascending start, the program first
 * @sub_names: their function names
 * @sub_args: global functions' arguments R1-R5, enum np_arg
 * @sub_nargs: every function's argument count as BTF gives it, 0xff if
 *	BTF does not
 * @n_subs: entries in @subs
 * @name: the program's function name
 * @sec: its section
 * @patches: instructions np_rodata_fold() replaced (loads of read-only
 *	data become constants), to make the same change to libbpf's copy
 * @n_patches: entries in @patches
 * @splices: instructions replaced by several (np_globals_rewrite(): loads
 *	of global data addresses; np_redirect_rewrite(): bpf_redirect_map()
 *	calls on devmaps), indexed as before any splice, by ascending @at
 * @n_splices: entries in @splices
 * @base_len: instructions before the splices: libbpf's count
 * @legacy: a map the program uses is defined in SEC("maps"), which libbpf
 *	1.x does not open: load.c loads the program itself
 * @license: the object's license section
 */
struct np_object {
	struct bpf_insn *insns;
	u32 len;
	struct nicprog_ir_table maps[NICPROG_MAX_TABLES];
	struct np_map_def map_defs[NICPROG_MAX_TABLES];
	char map_names[NICPROG_MAX_TABLES][NP_OBJ_NAME];
	u8 *map_init[NICPROG_MAX_TABLES];
	u32 n_maps;
	struct nicprog_subprog subs[NICPROG_MAX_SUBPROGS];
	char sub_names[NICPROG_MAX_SUBPROGS][NP_OBJ_NAME];
	u8 sub_args[NICPROG_MAX_SUBPROGS][5];
	u8 sub_nargs[NICPROG_MAX_SUBPROGS];
	u32 n_subs;
	char name[NP_OBJ_NAME];
	char sec[NP_OBJ_NAME];
	struct np_patch *patches;
	u32 n_patches;
	struct np_splice *splices;
	u32 n_splices;
	u32 base_len;
	bool legacy;
	char license[128];
};

int np_object_read(const char *path, const struct np_object_opts *opts,
		   struct np_object *o, char *err, size_t err_len);
void np_object_free(struct np_object *o);
int np_object_programs(const char *path,
		       void (*fn)(void *arg, const char *name,
				  const char *sec, bool xdp),
		       void *arg, char *err, size_t err_len);
const char *np_helper_name(s32 id);
bool np_map_percpu(u32 type);
bool np_map_host(u32 type);
bool np_map_host_target(u32 type);
u32 np_map_kind(u32 type);
u32 np_map_nic_type(u32 type);
u32 np_map_create_flags(const struct np_map_def *def);

#endif /* _NICPROG_OBJECT_H */
