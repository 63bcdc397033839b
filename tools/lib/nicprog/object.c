// SPDX-License-Identifier: GPL-2.0
/*
 * Read one XDP program out of a BPF ELF object the way libbpf hands it to
 * the kernel: the program's function, then each subprogram it calls,
 * appended depth first in the order of the calls (libbpf's
 * bpf_object__reloc_code()), call offsets fixed up. libelf reads the
 * sections and relocations, libbpf's BTF parser the maps' definitions and
 * the functions' types. (Not bpf_object__open(): Debian's libbpf 1.1
 * crashes on some corrupted objects, tools/testing/unit/plan_test.sh.)
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "object.h"
#include "rodata.h"
#include <net/nicprog_exec.h>

#define OBJ_MAX_FUNCS	512
#define OBJ_MAX_RODATA	256

struct obj_func {
	char name[NP_OBJ_NAME];
	u32 sec;	/* ELF section index */
	u32 first;	/* instruction index in its section */
	u32 len;
	bool global;
	s32 at;		/* where it went in the program, or -1 */
};

struct obj_rel {
	u32 sec;	/* section the relocation applies to */
	u32 insn;	/* instruction index in it */
	u32 sym;
};

struct obj {
	Elf *elf;
	Elf_Data *symtab;
	u32 symtab_strndx;
	u32 n_syms;
	u32 maps_sec;
	u32 legacy_sec;	/* SEC("maps"), struct bpf_map_def / bpf_elf_map */
	u32 cpus;
	struct obj_func funcs[OBJ_MAX_FUNCS];
	u32 n_funcs;
	struct obj_rel *rels;
	u32 n_rels;
	const struct bpf_insn *sec_insns[256];
	u32 sec_len[256];	/* instructions */
	struct np_rodata ro[OBJ_MAX_RODATA];
	u32 n_ro;
	Elf_Data *license;
	bool ro_tables;	/* read-only data as tables: it does not fold */
	bool ro_unfolded;
	const char *path;
	char *err;
	size_t err_len;
};

static int obj_fail(struct obj *ob, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ob->err, ob->err_len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static const struct obj_rel *obj_rel_at(const struct obj *ob, u32 sec,
					u32 insn)
{
	u32 r;

	for (r = 0; r < ob->n_rels; r++)
		if (ob->rels[r].sec == sec && ob->rels[r].insn == insn)
			return &ob->rels[r];
	return NULL;
}

static int obj_sym(const struct obj *ob, u32 i, GElf_Sym *sym)
{
	return gelf_getsym(ob->symtab, i, sym) ? 0 : -EINVAL;
}

static struct obj_func *obj_func_at(struct obj *ob, u32 sec, u32 first)
{
	u32 f;

	for (f = 0; f < ob->n_funcs; f++)
		if (ob->funcs[f].sec == sec && ob->funcs[f].first == first)
			return &ob->funcs[f];
	return NULL;
}

/* Sections, function symbols and relocations. */
static int obj_scan(struct obj *ob)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	GElf_Sym sym;
	GElf_Rel rel;
	Elf_Data *d;
	const char *name;
	u32 i, n;

	if (elf_getshdrstrndx(ob->elf, &shstrndx))
		return obj_fail(ob, "not an ELF object");
	if (!gelf_getehdr(ob->elf, &eh) || eh.e_machine != EM_BPF)
		return obj_fail(ob, "not a BPF object (ELF machine %u)",
				eh.e_machine);
	while ((scn = elf_nextscn(ob->elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			return obj_fail(ob, "bad section header");
		name = elf_strptr(ob->elf, shstrndx, sh.sh_name);
		d = elf_getdata(scn, NULL);
		if (sh.sh_type == SHT_SYMTAB) {
			if (!d || !sh.sh_entsize)
				return obj_fail(ob, "bad symbol table");
			ob->symtab = d;
			ob->symtab_strndx = sh.sh_link;
			ob->n_syms = sh.sh_size / sh.sh_entsize;
		} else if (name && !strcmp(name, ".maps")) {
			ob->maps_sec = elf_ndxscn(scn);
		} else if (name && !strcmp(name, "maps") &&
			   sh.sh_type == SHT_PROGBITS) {
			ob->legacy_sec = elf_ndxscn(scn);
		} else if (name && !strcmp(name, "license") && d &&
			   d->d_buf && d->d_size) {
			ob->license = d;
		} else if (sh.sh_type == SHT_PROGBITS &&
			   (sh.sh_flags & SHF_EXECINSTR) && d &&
			   elf_ndxscn(scn) < ARRAY_SIZE(ob->sec_insns)) {
			ob->sec_insns[elf_ndxscn(scn)] = d->d_buf;
			ob->sec_len[elf_ndxscn(scn)] =
				d->d_size / sizeof(struct bpf_insn);
		}
	}
	if (!ob->symtab)
		return obj_fail(ob, "the object has no symbol table");
	for (i = 0; i < ob->n_syms; i++) {
		if (obj_sym(ob, i, &sym))
			return obj_fail(ob, "bad symbol %u", i);
		if (GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    sym.st_shndx >= ARRAY_SIZE(ob->sec_insns) ||
		    !ob->sec_insns[sym.st_shndx] || !sym.st_size)
			continue;
		if (sym.st_value % sizeof(struct bpf_insn) ||
		    sym.st_size % sizeof(struct bpf_insn) ||
		    sym.st_value / sizeof(struct bpf_insn) >
		    ob->sec_len[sym.st_shndx] ||
		    sym.st_size / sizeof(struct bpf_insn) >
		    ob->sec_len[sym.st_shndx] -
		    sym.st_value / sizeof(struct bpf_insn))
			return obj_fail(ob, "function symbol %u lies outside its section",
					i);
		if (ob->n_funcs == OBJ_MAX_FUNCS)
			return obj_fail(ob, "more than %d functions",
					OBJ_MAX_FUNCS);
		ob->funcs[ob->n_funcs] = (struct obj_func){
			.sec = sym.st_shndx,
			.first = sym.st_value / sizeof(struct bpf_insn),
			.len = sym.st_size / sizeof(struct bpf_insn),
			.global = GELF_ST_BIND(sym.st_info) == STB_GLOBAL,
			.at = -1,
		};
		snprintf(ob->funcs[ob->n_funcs].name, NP_OBJ_NAME, "%s",
			 elf_strptr(ob->elf, ob->symtab_strndx, sym.st_name));
		ob->n_funcs++;
	}
	scn = NULL;
	while ((scn = elf_nextscn(ob->elf, scn))) {
		gelf_getshdr(scn, &sh);
		if (sh.sh_type != SHT_REL || sh.sh_info >=
		    ARRAY_SIZE(ob->sec_insns) || !ob->sec_insns[sh.sh_info])
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !sh.sh_entsize)
			return obj_fail(ob, "bad relocation section");
		n = sh.sh_size / sh.sh_entsize;
		ob->rels = realloc(ob->rels, (ob->n_rels + n) * sizeof(*ob->rels));
		if (!ob->rels)
			return obj_fail(ob, "out of memory");
		for (i = 0; i < n; i++) {
			if (!gelf_getrel(d, i, &rel))
				return obj_fail(ob, "bad relocation");
			ob->rels[ob->n_rels++] = (struct obj_rel){
				.sec = sh.sh_info,
				.insn = rel.r_offset / sizeof(struct bpf_insn),
				.sym = GELF_R_SYM(rel.r_info),
			};
		}
	}
	return 0;
}

/* @id's type with typedefs and qualifiers peeled off, or NULL. */
static const struct btf_type *obj_btf_resolve(const struct btf *btf, u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	u32 depth;

	for (depth = 0; t && depth < 16; depth++) {
		if (!btf_is_typedef(t) && !btf_is_volatile(t) &&
		    !btf_is_const(t) && !btf_is_restrict(t) &&
		    !btf_is_type_tag(t))
			return t;
		t = btf__type_by_id(btf, t->type);
	}
	return NULL;
}

static bool obj_btf_int(const struct btf *btf, u32 id, u32 size)
{
	const struct btf_type *t = obj_btf_resolve(btf, id);

	return t && btf_is_int(t) && t->size == size;
}

/* __uint(name, val) is a pointer to an array of val elements. */
static bool obj_btf_uint(const struct btf *btf, u32 type, u32 *val)
{
	const struct btf_type *t = btf__type_by_id(btf, type), *arr;

	if (!t || !btf_is_ptr(t))
		return false;
	arr = btf__type_by_id(btf, t->type);
	if (!arr || !btf_is_array(arr))
		return false;
	*val = btf_array(arr)->nelems;
	return true;
}

/* __type(name, T) is a pointer to T: its size. */
static bool obj_btf_size(const struct btf *btf, u32 type, u32 *val)
{
	const struct btf_type *t = btf__type_by_id(btf, type);
	s64 sz;

	if (!t || !btf_is_ptr(t))
		return false;
	sz = btf__resolve_size(btf, t->type);
	if (sz <= 0 || sz > U32_MAX)
		return false;
	*val = sz;
	return true;
}

/*
 * The u64 counters in the value a __type(value, ...) member points to: 1
 * for a u64, 1 or 2 for a struct of that many (packets, bytes), else 0 --
 * what makes an array a counter table for stats-get.
 */
static u8 obj_btf_counters(const struct btf *btf, u32 type)
{
	const struct btf_type *t = btf__type_by_id(btf, type);
	const struct btf_member *m;
	u32 i, n;

	if (!t || !btf_is_ptr(t))
		return 0;
	t = obj_btf_resolve(btf, t->type);
	if (t && btf_is_int(t) && t->size == 8)
		return 1;
	if (!t || !btf_is_struct(t))
		return 0;
	n = btf_vlen(t);
	if (n < 1 || n > 2 || t->size != n * 8)
		return 0;
	for (i = 0, m = btf_members(t); i < n; i++, m++)
		if (!obj_btf_int(btf, m->type, 8))
			return 0;
	return (u8)n;
}

/*
 * A map definition the loader can create as it stands. Skeleton users
 * (samples/bpf's xdp_sample.bpf.c) leave max_entries out and set it from
 * their tool before loading: no loader of the bare object can size it.
 */
static int obj_map_sized(struct obj *ob, const char *name,
			 const struct nicprog_ir_table *t)
{
	if (!t->type || !t->value_size)
		return obj_fail(ob, "map %s: its definition lacks a type or a value",
				name);
	/* libbpf sizes a perf event array by the CPUs */
	if (!t->max_entries && t->type != BPF_MAP_TYPE_PERF_EVENT_ARRAY)
		return obj_fail(ob, "map %s: the object gives it no max_entries; its own tool sets them before loading (bpf_map__set_max_entries()): give the definition a max_entries to load the object by itself",
				name);
	return 0;
}

/*
 * A BTF-defined map (SEC(".maps")), read as libbpf reads it: the variable
 * named @name in the .maps data section, a struct of __uint() and
 * __type() members.
 */
static int obj_map_def(struct obj *ob, const struct btf *btf,
		       const char *name, struct nicprog_ir_table *t,
		       u32 *flags, u8 *counters)
{
	const struct btf_type *sec, *var, *def;
	const struct btf_var_secinfo *vs;
	const struct btf_member *m;
	bool ok, values = false;
	const char *mn;
	s32 id;
	u32 i, v;

	id = btf ? btf__find_by_name_kind(btf, ".maps", BTF_KIND_DATASEC) : -1;
	sec = id > 0 ? btf__type_by_id(btf, id) : NULL;
	if (!sec)
		return obj_fail(ob, "map %s: the object has no BTF map definitions (.maps)",
				name);
	vs = btf_var_secinfos(sec);
	for (i = 0, var = NULL; i < btf_vlen(sec) && !var; i++, vs++) {
		var = btf__type_by_id(btf, vs->type);
		if (!var || !btf_is_var(var) ||
		    strcmp(btf__name_by_offset(btf, var->name_off) ?: "", name))
			var = NULL;
	}
	def = var ? obj_btf_resolve(btf, var->type) : NULL;
	if (!def || !btf_is_struct(def))
		return obj_fail(ob, "map %s: no BTF definition in .maps", name);
	memset(t, 0, sizeof(*t));
	*flags = 0;
	*counters = 0;
	m = btf_members(def);
	for (i = 0; i < btf_vlen(def); i++, m++) {
		mn = btf__name_by_offset(btf, m->name_off) ?: "";
		if (!strcmp(mn, "type"))
			ok = obj_btf_uint(btf, m->type, &t->type);
		else if (!strcmp(mn, "max_entries"))
			ok = obj_btf_uint(btf, m->type, &t->max_entries);
		else if (!strcmp(mn, "key_size"))
			ok = obj_btf_uint(btf, m->type, &t->key_size);
		else if (!strcmp(mn, "value_size"))
			ok = obj_btf_uint(btf, m->type, &t->value_size);
		else if (!strcmp(mn, "map_flags"))
			ok = obj_btf_uint(btf, m->type, flags);
		else if (!strcmp(mn, "key"))
			ok = obj_btf_size(btf, m->type, &t->key_size);
		else if (!strcmp(mn, "value")) {
			ok = obj_btf_size(btf, m->type, &t->value_size);
			*counters = obj_btf_counters(btf, m->type);
		}
		else if (!strcmp(mn, "values"))
			ok = values = true;	/* initial slots: libbpf's */
		else
			ok = obj_btf_uint(btf, m->type, &v);	/* numa_node, ... */
		if (!ok)
			return obj_fail(ob, "map %s: its definition's member %s is not understood",
					name, mn);
	}
	/* as libbpf: a PROG_ARRAY's initial slots make its sizes file descriptors' */
	if (values && t->type == BPF_MAP_TYPE_PROG_ARRAY) {
		t->key_size = t->key_size ?: sizeof(u32);
		t->value_size = t->value_size ?: sizeof(u32);
	}
	return obj_map_sized(ob, name, t);
}

/**
 * np_map_percpu() - whether a map type keeps one value per possible CPU
 * @type: enum bpf_map_type
 *
 * Return: true for the per-CPU types.
 */
bool np_map_percpu(u32 type)
{
	return type == BPF_MAP_TYPE_PERCPU_ARRAY ||
	       type == BPF_MAP_TYPE_PERCPU_HASH ||
	       type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

/**
 * np_map_host() - whether a map the program uses stays on the host
 * @type: enum bpf_map_type, as the NIC holds the map
 *
 * Return: true for PERF_EVENT_ARRAY, which the offload core lets a
 * device-bound program use unbound; the loader creates it for the host.
 */
bool np_map_host(u32 type)
{
	return type == BPF_MAP_TYPE_PERF_EVENT_ARRAY;
}

/**
 * np_map_kind() - the kind of NIC table a map type becomes
 * @type: enum bpf_map_type, as the object defines the map
 *
 * Return: enum nicprog_table_kind; the loader sets a kind other than
 * plain over netlink (nicprog_table_kind_set()) once the map exists.
 */
u32 np_map_kind(u32 type)
{
	switch (type) {
	case BPF_MAP_TYPE_LRU_HASH:
		return NICPROG_TABLE_KIND_LRU;
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
		return NICPROG_TABLE_KIND_LRU_PERCPU;
	case BPF_MAP_TYPE_LPM_TRIE:
		return NICPROG_TABLE_KIND_LPM;
	case BPF_MAP_TYPE_PERCPU_ARRAY:
	case BPF_MAP_TYPE_PERCPU_HASH:
		return NICPROG_TABLE_KIND_PERCPU;
	case BPF_MAP_TYPE_XSKMAP:
	case BPF_MAP_TYPE_CPUMAP:
		return NICPROG_TABLE_KIND_HOST;
	case BPF_MAP_TYPE_PROG_ARRAY:
		return NICPROG_TABLE_KIND_PROGS;
	default:
		return NICPROG_TABLE_KIND_PLAIN;
	}
}

/**
 * np_map_host_target() - whether a map's entries are host targets
 * @type: enum bpf_map_type, as the object defines the map
 *
 * Return: true for XSKMAP and CPUMAP: the map is created for the host and
 * an ARRAY of the host kind stands for it on the NIC.
 */
bool np_map_host_target(u32 type)
{
	return type == BPF_MAP_TYPE_XSKMAP || type == BPF_MAP_TYPE_CPUMAP;
}

/**
 * np_map_nic_type() - the map type a table is created with on the device
 * @type: the table's type, as the NIC holds it (struct np_object.maps)
 *
 * Return: BPF_MAP_TYPE_HASH for the LRU and LPM kinds, else @type.
 */
u32 np_map_nic_type(u32 type)
{
	return type == BPF_MAP_TYPE_LRU_HASH ||
	       type == BPF_MAP_TYPE_LPM_TRIE ? BPF_MAP_TYPE_HASH : type;
}

/**
 * np_map_create_flags() - map_flags a map is created with on the NIC
 * @def: the map as the object defines it
 *
 * Return: @def's flags less BPF_F_NO_COMMON_LRU: per-CPU LRU lists are
 * the host's; a NIC table has one.
 */
u32 np_map_create_flags(const struct np_map_def *def)
{
	return def->flags & ~BPF_F_NO_COMMON_LRU;
}

static const char *obj_map_type(u32 type)
{
	return libbpf_bpf_map_type_str(type) ?: "unknown type";
}

/*
 * What the NIC makes of a map the program uses, or why it cannot take it:
 * the map named, the reason, and the way out. Linux 6.1 binds only HASH
 * and ARRAY maps to a device (kernel/bpf/offload.c); a per-CPU map is
 * bound as its plain type whose value holds every possible CPU's slot, the
 * layout user space reads and writes for a per-CPU map anyway. A
 * PERF_EVENT_ARRAY stays the host's (np_map_host()).
 */
static int obj_map_adapt(struct obj *ob, const char *name,
			 const struct np_map_def *def,
			 struct nicprog_ir_table *t)
{
	const char *type = obj_map_type(def->type);
	u64 vs;

	memset(t, 0, sizeof(*t));
	t->key_size = def->key_size;
	t->value_size = def->value_size;
	t->max_entries = def->max_entries;
	switch (def->type) {
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_ARRAY:
		t->type = def->type;
		break;
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
		if (!ob->cpus)
			return obj_fail(ob, "map %s (%s): per-CPU maps need the host's CPU count, which was not given",
					name, type);
		t->type = def->type == BPF_MAP_TYPE_PERCPU_ARRAY ?
			  BPF_MAP_TYPE_ARRAY :
			  def->type == BPF_MAP_TYPE_LRU_PERCPU_HASH ?
			  BPF_MAP_TYPE_LRU_HASH : BPF_MAP_TYPE_HASH;
		vs = (u64)ob->cpus * ((def->value_size + 7) & ~7ULL);
		if (vs > U32_MAX)
			return obj_fail(ob, "map %s (%s): %u CPUs of %u-byte values do not fit a map value",
					name, type, ob->cpus, def->value_size);
		t->value_size = vs;
		break;
	case BPF_MAP_TYPE_LRU_HASH:
		/* a HASH map on the device, a table of the LRU kind */
		t->type = def->type;
		break;
	case BPF_MAP_TYPE_LPM_TRIE:
		/* a HASH map on the device, a table of the LPM kind */
		if (def->key_size <= NICPROG_LPM_DATA_OFF ||
		    def->key_size > NICPROG_LPM_DATA_OFF + NICPROG_LPM_DATA_MAX)
			return obj_fail(ob, "map %s (%s): a key of %u bytes is not struct bpf_lpm_trie_key with 1 to 256 bytes of data",
					name, type, def->key_size);
		t->type = def->type;
		break;
	case BPF_MAP_TYPE_DEVMAP:
	case BPF_MAP_TYPE_DEVMAP_HASH:
		/* ifindexes, as user space fills them; redirect.c */
		if (def->value_size != 4 && def->value_size != 8)
			return obj_fail(ob, "map %s (%s): a value of %u bytes is neither an ifindex nor struct bpf_devmap_val",
					name, type, def->value_size);
		t->type = def->type == BPF_MAP_TYPE_DEVMAP ?
			  BPF_MAP_TYPE_ARRAY : BPF_MAP_TYPE_HASH;
		break;
	case BPF_MAP_TYPE_CPUMAP:
	case BPF_MAP_TYPE_XSKMAP:
	case BPF_MAP_TYPE_PROG_ARRAY:
		/*
		 * The host's, where its sockets, CPUs or programs are; on the
		 * NIC an ARRAY of the host (progs) kind stands for it, whose
		 * values are the targets that reach them (redirect.c,
		 * kernel/hostmap.c).
		 */
		if (def->key_size != sizeof(u32) ||
		    def->max_entries > NICPROG_HOST_TARGET_KEY + 1)
			return obj_fail(ob, "map %s (%s): the NIC reaches host maps of 4-byte keys and at most %u entries",
					name, type, NICPROG_HOST_TARGET_KEY + 1);
		t->type = BPF_MAP_TYPE_ARRAY;
		t->key_size = sizeof(u32);
		t->value_size = sizeof(u32);
		t->bytes = nicprog_ir_table_bytes(t->type, t->key_size,
						  t->value_size,
						  t->max_entries);
		return 0;
	case BPF_MAP_TYPE_PERF_EVENT_ARRAY:
		/*
		 * The host's: the offload core lets a device-bound program
		 * use it, and the NIC's events reach it as nfp's do.
		 */
		t->type = def->type;
		t->key_size = sizeof(u32);
		t->value_size = sizeof(u32);
		if (!t->max_entries)
			t->max_entries = ob->cpus;	/* libbpf's default */
		return 0;
	case BPF_MAP_TYPE_RINGBUF:
		return obj_fail(ob, "map %s (%s): Linux 6.1 lets a device-bound program use no ring buffer; use a PERF_EVENT_ARRAY with bpf_perf_event_output(), whose events reach the host from the NIC",
				name, type);
	default:
		return obj_fail(ob, "map %s (%s): the NIC holds hash and array maps (and their per-CPU kinds) only; attach the program to the host (xdpdrv)",
				name, type);
	}
	/* nicprog_table_alloc(), given np_map_create_flags() */
	if (np_map_create_flags(def) & ~(BPF_F_NO_PREALLOC | BPF_F_ZERO_SEED |
					 BPF_F_NUMA_NODE | BPF_F_RDONLY_PROG))
		return obj_fail(ob, "map %s (%s): its flags 0x%x are not supported on the NIC (it takes BPF_F_NO_PREALLOC, BPF_F_ZERO_SEED, BPF_F_NUMA_NODE and BPF_F_RDONLY_PROG)",
				name, type, def->flags);
	if (t->type == BPF_MAP_TYPE_ARRAY)
		t->key_size = sizeof(u32);
	t->bytes = nicprog_ir_table_bytes(t->type, t->key_size,
					  t->value_size, t->max_entries);
	return 0;
}

/* The name of the data section @shndx, for a refusal; NULL if none. */
static const char *obj_sec_name(struct obj *ob, u32 shndx)
{
	size_t shstrndx;
	GElf_Shdr sh;
	Elf_Scn *scn;

	if (elf_getshdrstrndx(ob->elf, &shstrndx))
		return NULL;
	scn = elf_getscn(ob->elf, shndx);
	if (!scn || !gelf_getshdr(scn, &sh))
		return NULL;
	return elf_strptr(ob->elf, shstrndx, sh.sh_name);
}

/*
 * A map of the legacy SEC("maps") section: libbpf's struct bpf_map_def
 * (type, key_size, value_size, max_entries, map_flags) or iproute2's
 * struct bpf_elf_map, which begins with the same five words; a shorter
 * definition reads the missing words as 0, as iproute2 does. libbpf 1.x
 * no longer opens such objects; load.c loads them itself.
 */
static int obj_legacy_def(struct obj *ob, const GElf_Sym *sym,
			  const char *name, struct nicprog_ir_table *t,
			  u32 *flags)
{
	Elf_Scn *scn = elf_getscn(ob->elf, ob->legacy_sec);
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
	u32 w[5] = { 0 };
	size_t len;

	if (!d || !d->d_buf || sym->st_value >= d->d_size)
		return obj_fail(ob, "map %s: its definition lies outside the maps section",
				name);
	len = sym->st_size ? sym->st_size : sizeof(w);
	if (len > d->d_size - sym->st_value)
		len = d->d_size - sym->st_value;
	memcpy(w, (const u8 *)d->d_buf + sym->st_value,
	       len < sizeof(w) ? len : sizeof(w));
	memset(t, 0, sizeof(*t));
	t->type = w[0];
	t->key_size = w[1];
	t->value_size = w[2];
	t->max_entries = w[3];
	*flags = w[4];
	return obj_map_sized(ob, name, t);
}

/*
 * The data section BTF puts extern @name in when libbpf fills it itself
 * (.kconfig, .ksyms), or NULL: an extern another object defines.
 */
static const char *obj_extern_sec(const struct btf *btf, const char *name)
{
	const struct btf_var_secinfo *vs;
	const struct btf_type *t, *v;
	const char *sn;
	u32 id, n, i;

	if (!btf || !name)
		return NULL;
	n = btf__type_cnt(btf);
	for (id = 1; id < n; id++) {
		t = btf__type_by_id(btf, id);
		sn = btf_is_datasec(t) ? btf__name_by_offset(btf, t->name_off) : NULL;
		if (!sn || (strcmp(sn, ".kconfig") && strcmp(sn, ".ksyms")))
			continue;
		vs = btf_var_secinfos(t);
		for (i = 0; i < btf_vlen(t); i++, vs++) {
			v = btf__type_by_id(btf, vs->type);
			if (v && !strcmp(btf__name_by_offset(btf, v->name_off) ?: "",
					 name))
				return sn;
		}
	}
	return NULL;
}

/*
 * Externs another object defines (samples/bpf's share xdp_sample.bpf.o's
 * maps): libbpf opens no object with one, whichever program is asked for.
 */
static int obj_externs(struct obj *ob, const struct btf *btf)
{
	const char *name;
	GElf_Sym sym;
	u32 i;

	for (i = 0; i < ob->n_syms; i++) {
		if (obj_sym(ob, i, &sym) || sym.st_shndx != SHN_UNDEF ||
		    GELF_ST_BIND(sym.st_info) == STB_LOCAL)
			continue;
		name = elf_strptr(ob->elf, ob->symtab_strndx, sym.st_name);
		if (!name || !*name || obj_extern_sec(btf, name))
			continue;
		return obj_fail(ob, "the object declares '%s' extern, defined in another object (samples/bpf's xdp_sample.bpf.o, say), and libbpf opens no object with one; link them first: bpftool gen object linked.o %s OTHER.o",
				name, ob->path);
	}
	return 0;
}

static int obj_map(struct obj *ob, struct np_object *o, const struct btf *btf,
		   u32 sym_idx, u32 at, u32 *idx)
{
	struct nicprog_ir_table *t;
	struct np_map_def def = { 0 };
	const char *name, *sec;
	bool legacy;
	GElf_Sym sym;
	u32 m;
	int err;

	if (obj_sym(ob, sym_idx, &sym))
		return obj_fail(ob, "insn %u: bad relocation symbol", at);
	name = elf_strptr(ob->elf, ob->symtab_strndx, sym.st_name);
	/* obj_externs() let only those libbpf fills in through */
	if (sym.st_shndx == SHN_UNDEF)
		return obj_fail(ob, "insn %u loads the address of '%s' (%s), which libbpf resolves from the running kernel: Linux 6.1 gives a device-bound program no such value; keep it in an array map that user space fills",
				at, name ?: "?", obj_extern_sec(btf, name) ?: "extern");
	legacy = name && *name && ob->legacy_sec &&
		 sym.st_shndx == ob->legacy_sec;
	if (!legacy &&
	    (!name || sym.st_shndx != ob->maps_sec || !ob->maps_sec)) {
		sec = sym.st_shndx < SHN_LORESERVE ?
		      obj_sec_name(ob, sym.st_shndx) : NULL;
		return obj_fail(ob, "insn %u loads the address of global data%s%s%s (%s): Linux 6.1 gives device-bound maps no direct value access; keep the value in an array map and look it up",
				at, name && *name ? " '" : "",
				name && *name ? name : "", name && *name ? "'" : "",
				sec && *sec ? sec : "a data section");
	}
	for (m = 0; m < o->n_maps; m++)
		if (!strcmp(o->map_names[m], name))
			break;
	if (m < o->n_maps) {
		*idx = m;
		return 0;
	}
	if (m == NICPROG_MAX_TABLES)
		return obj_fail(ob, "the program uses more than %d maps",
				NICPROG_MAX_TABLES);
	t = &o->maps[m];
	if (legacy) {
		err = obj_legacy_def(ob, &sym, name, t, &def.flags);
		o->legacy = true;
	} else {
		err = obj_map_def(ob, btf, name, t, &def.flags,
				  &def.counters);
	}
	if (err)
		return err;
	def.type = t->type;
	def.key_size = t->key_size;
	def.value_size = t->value_size;
	def.max_entries = t->max_entries;
	err = obj_map_adapt(ob, name, &def, t);
	if (err)
		return err;
	o->map_defs[m] = def;
	snprintf(o->map_names[m], NP_OBJ_NAME, "%s", name);
	o->n_maps++;
	*idx = m;
	return 0;
}

/* A writable global data section, as libbpf makes internal maps of them. */
static bool obj_data_sec(const char *sec, const GElf_Shdr *sh)
{
	return sec && (sh->sh_flags & SHF_WRITE) &&
	       (sh->sh_type == SHT_PROGBITS || sh->sh_type == SHT_NOBITS) &&
	       ((!strncmp(sec, ".data", 5) && (!sec[5] || sec[5] == '.')) ||
		(!strncmp(sec, ".bss", 4) && (!sec[4] || sec[4] == '.')));
}

/* A read-only global data section, as libbpf names them (.rodata, .rodata.*). */
static bool obj_ro_sec(const char *sec, const GElf_Shdr *sh)
{
	return sec && !strncmp(sec, ".rodata", 7) &&
	       (!sec[7] || sec[7] == '.') && !(sh->sh_flags & SHF_WRITE) &&
	       sh->sh_type == SHT_PROGBITS;
}

/*
 * A load of a writable global variable's address (.data, .bss, .data.*):
 * the section becomes a map the program uses -- the one-element ARRAY
 * libbpf would make of it, named by the section, with its initial bytes
 * -- and the load is marked for np_globals_rewrite(): imm the map's
 * index, the variable's offset in the second half. Read-only data that
 * does not fold into constants (np_rodata_fold()) is bound so too, its
 * table read-only to programs, as libbpf makes .rodata's. Returns 1 if it
 * was one, 0 if not, or a negative errno.
 */
static int obj_global(struct obj *ob, struct np_object *o, u32 sym_idx,
		      struct bpf_insn *insn, u32 at)
{
	struct nicprog_ir_table *t;
	const char *sec;
	Elf_Scn *scn;
	Elf_Data *d;
	GElf_Shdr sh;
	GElf_Sym sym;
	bool ro;
	u32 m;

	if (obj_sym(ob, sym_idx, &sym) || sym.st_shndx >= SHN_LORESERVE ||
	    sym.st_shndx == ob->maps_sec || sym.st_shndx == ob->legacy_sec)
		return 0;
	sec = obj_sec_name(ob, sym.st_shndx);
	scn = elf_getscn(ob->elf, sym.st_shndx);
	if (!scn || !gelf_getshdr(scn, &sh))
		return 0;
	ro = ob->ro_tables && obj_ro_sec(sec, &sh);
	if (!ro && !obj_data_sec(sec, &sh))
		return 0;
	if (!sh.sh_size || sh.sh_size > U32_MAX / 2)
		return obj_fail(ob, "insn %u: section %s has a size no map value has",
				at, sec);
	for (m = 0; m < o->n_maps; m++)
		if (!strcmp(o->map_names[m], sec))
			break;
	if (m == NICPROG_MAX_TABLES)
		return obj_fail(ob, "the program uses more than %d maps",
				NICPROG_MAX_TABLES);
	if (m == o->n_maps) {
		t = &o->maps[m];
		memset(t, 0, sizeof(*t));
		t->type = BPF_MAP_TYPE_ARRAY;
		t->key_size = sizeof(u32);
		t->value_size = sh.sh_size;
		t->max_entries = 1;
		t->bytes = nicprog_ir_table_bytes(t->type, t->key_size,
						  t->value_size, 1);
		o->map_defs[m] = (struct np_map_def){
			.type = t->type, .key_size = t->key_size,
			.value_size = t->value_size, .max_entries = 1,
			.flags = ro ? BPF_F_RDONLY_PROG : 0,
		};
		snprintf(o->map_names[m], NP_OBJ_NAME, "%s", sec);
		if (sh.sh_type == SHT_PROGBITS) {
			d = elf_getdata(scn, NULL);
			if (!d || !d->d_buf || d->d_size != sh.sh_size)
				return obj_fail(ob, "insn %u: section %s has no data",
						at, sec);
			o->map_init[m] = malloc(sh.sh_size);
			if (!o->map_init[m])
				return obj_fail(ob, "out of memory");
			memcpy(o->map_init[m], d->d_buf, sh.sh_size);
		}
		o->n_maps++;
	}
	/* libbpf: the address is the symbol's value plus the insn's addend */
	insn[1].imm = (s32)(sym.st_value + (s64)insn->imm);
	insn->src_reg = BPF_PSEUDO_MAP_IDX_VALUE;
	insn->imm = m;
	return 1;
}

/*
 * A load of read-only global data's address (.rodata, .rodata.*, as
 * libbpf names its read-only internal maps): marked with the variable's
 * bytes for np_rodata_fold(). Returns 1 if it was one, 0 if not, or a
 * negative errno.
 */
static int obj_rodata(struct obj *ob, u32 sym_idx, struct bpf_insn *insn,
		      u32 at)
{
	const char *sec, *name;
	struct np_rodata *ro;
	Elf_Data *d;
	Elf_Scn *scn;
	GElf_Shdr sh;
	GElf_Sym sym;

	if (ob->ro_tables || obj_sym(ob, sym_idx, &sym) ||
	    sym.st_shndx >= SHN_LORESERVE || sym.st_shndx == ob->maps_sec)
		return 0;
	sec = obj_sec_name(ob, sym.st_shndx);
	scn = elf_getscn(ob->elf, sym.st_shndx);
	if (!scn || !gelf_getshdr(scn, &sh) || !obj_ro_sec(sec, &sh))
		return 0;
	d = elf_getdata(scn, NULL);
	if (!d || !d->d_buf || d->d_size != sh.sh_size)
		return obj_fail(ob, "insn %u: section %s has no data", at, sec);
	if (ob->n_ro == OBJ_MAX_RODATA)
		return obj_fail(ob, "more than %d loads of read-only data addresses",
				OBJ_MAX_RODATA);
	name = elf_strptr(ob->elf, ob->symtab_strndx, sym.st_name);
	ro = &ob->ro[ob->n_ro];
	ro->data = d->d_buf;
	ro->size = d->d_size;
	/* libbpf: the address is the symbol's value plus the insn's addend */
	ro->off = sym.st_value + (s64)insn->imm;
	snprintf(ro->name, sizeof(ro->name), "%s",
		 name && *name ? name : sec);
	snprintf(ro->sec, sizeof(ro->sec), "%s", sec);
	insn->src_reg = BPF_PSEUDO_MAP_VALUE;
	insn->imm = ob->n_ro++;
	insn[1].imm = 0;
	return 1;
}

#define OBJ_FN_NAME(x)	[BPF_FUNC_ ## x] = "bpf_" #x
static const char * const obj_helper_names[] = {
	__BPF_FUNC_MAPPER(OBJ_FN_NAME)
};

/**
 * np_helper_name() - a helper's name, as bpf_helper_defs.h spells it
 * @id: enum bpf_func_id
 *
 * Return: "bpf_..." or NULL for an id Linux 6.1 does not know.
 */
const char *np_helper_name(s32 id)
{
	return id >= 0 && id < (s32)ARRAY_SIZE(obj_helper_names) ?
	       obj_helper_names[id] : NULL;
}

/* Whether relocation symbol @sym_idx is code: a function's address. */
static bool obj_callback(struct obj *ob, u32 sym_idx)
{
	GElf_Sym sym;

	return !obj_sym(ob, sym_idx, &sym) &&
	       sym.st_shndx < ARRAY_SIZE(ob->sec_insns) &&
	       ob->sec_insns[sym.st_shndx];
}

static int obj_append(struct obj *ob, struct np_object *o,
		      const struct btf *btf, struct obj_func *fn);

/*
 * A function's address taken at @at (a callback, given to bpf_loop() or
 * another helper: loop.c decides) is linked as libbpf links it: the
 * function appended, the load a BPF_PSEUDO_FUNC aimed as a call is. The
 * relocation's symbol plus the load's imm is the byte offset of the
 * function in its section.
 */
static int obj_func_addr(struct obj *ob, struct np_object *o,
			 const struct btf *btf, const struct obj_rel *r,
			 u32 at)
{
	struct obj_func *callee;
	GElf_Sym sym;
	s64 off;
	int err;

	if (!r || obj_sym(ob, r->sym, &sym))
		return obj_fail(ob, "insn %u: a function's address without a relocation",
				at);
	off = (s64)sym.st_value + o->insns[at].imm;
	callee = off >= 0 && !(off % sizeof(struct bpf_insn)) ?
		 obj_func_at(ob, sym.st_shndx,
			     off / sizeof(struct bpf_insn)) : NULL;
	if (!callee)
		return obj_fail(ob, "insn %u takes the address of an instruction that starts no function",
				at);
	if (callee->at < 0) {
		err = obj_append(ob, o, btf, callee);
		if (err)
			return err;
	}
	o->insns[at].src_reg = BPF_PSEUDO_FUNC;
	o->insns[at].imm = callee->at - (s32)(at + 1);
	o->insns[at + 1].imm = 0;
	return 0;
}

/* Append @fn to the program, then what it calls, depth first (libbpf). */
static int obj_append(struct obj *ob, struct np_object *o,
		      const struct btf *btf, struct obj_func *fn)
{
	const struct obj_rel *r;
	struct obj_func *callee;
	struct bpf_insn *insn;
	u32 base = o->len, i, tsec, tidx, m = 0;
	GElf_Sym sym;
	int err;

	if (o->n_subs == NICPROG_MAX_SUBPROGS)
		return obj_fail(ob, "more than %d subprograms",
				NICPROG_MAX_SUBPROGS);
	insn = realloc(o->insns, (o->len + fn->len) * sizeof(*insn));
	if (!insn)
		return obj_fail(ob, "out of memory");
	o->insns = insn;
	memcpy(o->insns + base, ob->sec_insns[fn->sec] + fn->first,
	       fn->len * sizeof(*insn));
	o->len += fn->len;
	fn->at = base;
	o->subs[o->n_subs].start = base;
	snprintf(o->sub_names[o->n_subs], NP_OBJ_NAME, "%s", fn->name);
	o->n_subs++;

	for (i = 0; i < fn->len; i++) {
		insn = &o->insns[base + i];
		r = obj_rel_at(ob, fn->sec, fn->first + i);
		if (insn->code == (BPF_LD | BPF_IMM | BPF_DW)) {
			if (i + 1 == fn->len)
				return obj_fail(ob, "insn %u: a 64-bit load cut in half",
						base + i);
			if (insn->src_reg == BPF_PSEUDO_FUNC ||
			    (r && obj_callback(ob, r->sym))) {
				err = obj_func_addr(ob, o, btf, r, base + i);
				if (err)
					return err;
				i++;
				continue;
			}
			err = r ? obj_rodata(ob, r->sym, insn, base + i) : 0;
			if (!err && r)
				err = obj_global(ob, o, r->sym, insn, base + i);
			if (err < 0)
				return err;
			if (r && !err) {
				err = obj_map(ob, o, btf, r->sym, base + i, &m);
				if (err)
					return err;
				insn->src_reg = BPF_PSEUDO_MAP_FD;
				insn->imm = m;
				insn[1].imm = 0;
			}
			i++;
			continue;
		}
		if (insn->code != (BPF_JMP | BPF_CALL) ||
		    insn->src_reg != BPF_PSEUDO_CALL)
			continue;
		if (r) {
			if (obj_sym(ob, r->sym, &sym))
				return obj_fail(ob, "insn %u: bad relocation symbol",
						base + i);
			if (sym.st_shndx == SHN_UNDEF)
				return obj_fail(ob, "insn %u: calls a kernel function (kfunc) %s; Linux 6.1 cannot offload kfunc calls, nor run one on the host for a partial plan; attach the program to the host (xdpdrv)",
						base + i,
						elf_strptr(ob->elf, ob->symtab_strndx,
							   sym.st_name));
			tsec = sym.st_shndx;
			tidx = sym.st_value / sizeof(*insn) + insn->imm + 1;
		} else {
			tsec = fn->sec;
			tidx = fn->first + i + insn->imm + 1;
		}
		if (tsec >= ARRAY_SIZE(ob->sec_insns))
			return obj_fail(ob, "insn %u calls into a section that holds no code",
					base + i);
		callee = obj_func_at(ob, tsec, tidx);
		if (!callee)
			return obj_fail(ob, "insn %u calls an instruction that starts no function",
					base + i);
		if (callee->at < 0) {
			err = obj_append(ob, o, btf, callee);
			if (err)
				return err;
		}
		o->insns[base + i].imm = callee->at - (s32)(base + i + 1);
	}
	return 0;
}

/* btf_prepare_func_args(): how the verifier types an argument */
static u8 obj_btf_arg(const struct btf *btf, u32 id)
{
	const struct btf_type *t = obj_btf_resolve(btf, id), *to;
	const char *name;

	if (!t)
		return NP_ARG_NONE;
	if (btf_is_int(t) || btf_is_enum(t))
		return NP_ARG_SCALAR;
	if (!btf_is_ptr(t))
		return NP_ARG_NONE;
	to = obj_btf_resolve(btf, t->type);
	name = to ? btf__name_by_offset(btf, to->name_off) : NULL;
	if (to && btf_is_struct(to) && name && !strcmp(name, "xdp_md"))
		return NP_ARG_CTX;
	return NP_ARG_MEM;
}

/* What BTF says of each subprogram: as bpf_offload.c reads func_info. */
static void obj_btf(const struct btf *btf, struct np_object *o)
{
	const struct btf_type *fn, *proto, *ctx;
	const struct btf_param *arg;
	s32 id;
	u32 s, a;

	for (s = 0; s < o->n_subs; s++) {
		id = btf__find_by_name_kind(btf, o->sub_names[s],
					    BTF_KIND_FUNC);
		fn = id > 0 ? btf__type_by_id(btf, id) : NULL;
		proto = fn ? btf__type_by_id(btf, fn->type) : NULL;
		if (!proto || !btf_is_func_proto(proto))
			continue;
		o->sub_nargs[s] = btf_vlen(proto);
		if (btf_vlen(fn) != BTF_FUNC_GLOBAL)
			continue;
		o->subs[s].global = true;
		arg = btf_params(proto);
		for (a = 0; a < btf_vlen(proto) && a < 5; a++)
			o->sub_args[s][a] = obj_btf_arg(btf, arg[a].type);
		if (btf_vlen(proto) != 4)
			continue;
		ctx = obj_btf_resolve(btf, arg[0].type);
		o->subs[s].engine_shape = ctx && btf_is_ptr(ctx) &&
			obj_btf_int(btf, arg[1].type, 8) &&
			obj_btf_int(btf, arg[2].type, 8) &&
			obj_btf_int(btf, arg[3].type, 4) &&
			(obj_btf_int(btf, proto->type, 4) ||
			 obj_btf_int(btf, proto->type, 8));
	}
}

/*
 * Linux 6.1 checks the value bpf_map_update_elem() is given against the
 * map's value size, which for a per-CPU map bound to a device is every
 * CPU's slot: the program's one-CPU value is refused as a short read of
 * the stack. Say so naming the call and the map, where R1 is plainly the
 * map (the map's address loaded into it, as compilers emit the call); the
 * verifier's log catches any other form.
 */
static int obj_percpu_updates(struct obj *ob, const struct np_object *o)
{
	const struct bpf_insn *in;
	u32 i, j;

	for (i = 0; i < o->len; i++) {
		in = &o->insns[i];
		if (in->code != (BPF_JMP | BPF_CALL) || in->src_reg ||
		    in->imm != BPF_FUNC_map_update_elem)
			continue;
		for (j = i; j-- > 0 && i - j <= 16;) {
			in = &o->insns[j];
			if (BPF_CLASS(in->code) == BPF_JMP ||
			    BPF_CLASS(in->code) == BPF_JMP32)
				break;
			if (j && o->insns[j - 1].code == (BPF_LD | BPF_IMM | BPF_DW))
				continue;	/* second half of a 64-bit load */
			if (in->dst_reg != BPF_REG_1 ||
			    BPF_CLASS(in->code) == BPF_STX ||
			    BPF_CLASS(in->code) == BPF_ST)
				continue;
			if (in->code == (BPF_LD | BPF_IMM | BPF_DW) &&
			    in->src_reg == BPF_PSEUDO_MAP_FD &&
			    (u32)in->imm < o->n_maps &&
			    np_map_percpu(o->map_defs[in->imm].type))
				return obj_fail(ob, "insn %u: bpf_map_update_elem() on per-CPU map %s: Linux 6.1 checks its value against every CPU's slot on a device; create the entry from user space (or make the map a hash with atomic adds)",
						i, o->map_names[in->imm]);
			break;
		}
	}
	return 0;
}

/*
 * Helpers neither the NIC's cores nor the host part of a partial plan can
 * run: refused before anything is created, by name, with the same sentence
 * from the loader and the planner (the verifier's log says it too, for
 * xdpoffload). Helpers only the host has are left to the kernel, which
 * runs them in the host part when the port's plan_partial is set.
 */
static int obj_helpers(struct obj *ob, const struct np_object *o,
		       bool rewritten)
{
	const struct bpf_insn *in;
	const char *name;
	u32 i;

	for (i = 0; i < o->len; i++) {
		in = &o->insns[i];
		if (in->code == (BPF_LD | BPF_IMM | BPF_DW)) {
			i++;
			continue;
		}
		if (in->code != (BPF_JMP | BPF_CALL) || in->src_reg ||
		    nicprog_exec_helper_supported(in->imm) ||
		    nicprog_exec_host_helper(in->imm))
			continue;
		/* what redirect.c and loop.c turn into what the NIC has */
		if (!rewritten && (in->imm == BPF_FUNC_redirect_map ||
				   in->imm == BPF_FUNC_tail_call ||
				   in->imm == BPF_FUNC_loop))
			continue;
		name = np_helper_name(in->imm);
		return obj_fail(ob, "insn %u: helper %s (%d) is not supported on the NIC; attach the program to the host (xdpdrv)",
				i, name ? name : "unknown", in->imm);
	}
	return 0;
}

/* libbpf's section names for XDP programs (libbpf.c section_defs) */
static bool obj_sec_xdp(const char *sec)
{
	return !strcmp(sec, "xdp") || !strcmp(sec, "xdp.frags") ||
	       !strncmp(sec, "xdp/", 4) || !strncmp(sec, "xdp.frags/", 10);
}

static const char *obj_func_sec(struct obj *ob, const struct obj_func *fn)
{
	return obj_sec_name(ob, fn->sec) ?: "";
}

/* Whether BTF gives @fn the prototype of an XDP program: (struct xdp_md *) */
static bool obj_func_xdp_ctx(const struct btf *btf, const struct obj_func *fn)
{
	const struct btf_type *t, *proto;
	s32 id;

	id = btf ? btf__find_by_name_kind(btf, fn->name, BTF_KIND_FUNC) : -1;
	t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	proto = t ? btf__type_by_id(btf, t->type) : NULL;
	return proto && btf_is_func_proto(proto) && btf_vlen(proto) == 1 &&
	       obj_btf_arg(btf, btf_params(proto)[0].type) == NP_ARG_CTX;
}

/*
 * Programs are the functions outside .text; libbpf makes a function in
 * .text a program too when it is the object's only code (the kernel's
 * test_offload objects: stock "xdpoffload ... sec .text" loads them).
 */
static bool obj_func_prog(struct obj *ob, const struct obj_func *fn)
{
	return strcmp(obj_func_sec(ob, fn), ".text") || ob->n_funcs == 1;
}

/* Which of obj_choose()'s rules takes @fn unnamed, or 4: none. */
static u32 obj_func_rank(struct obj *ob, const struct btf *btf,
			 const struct obj_func *fn)
{
	const char *sname = obj_func_sec(ob, fn);

	if (obj_sec_xdp(sname))
		return 0;
	if (obj_func_xdp_ctx(btf, fn))
		return 1;
	if (!btf && !strncmp(sname, "xdp", 3))
		return 2;
	if (!strcmp(sname, ".text"))
		return 3;
	return 4;
}

/*
 * The program @opts names: by function name, by section, or else, as
 * libbpf-based loaders would find it, the first of
 *  1. a program in a section libbpf names XDP (stock ip's "xdp");
 *  2. a program BTF types as XDP (its one argument a struct xdp_md *),
 *     whatever its section: the kernel samples' SEC("xdp1"), the
 *     selftests' SEC("redirect_to_111"), iproute2's SEC("prog");
 *  3. without BTF, a program in a section named "xdp..." (the legacy
 *     names libbpf once knew);
 *  4. a function alone in .text.
 * A tc or tracing program is never chosen by itself: its BTF says so.
 */
static struct obj_func *obj_choose(struct obj *ob,
				   const struct np_object_opts *opts,
				   const struct btf *btf, struct np_object *o)
{
	struct obj_func *fn, *pick[4] = { NULL };
	bool named = opts->sec || opts->prog;
	const char *sname;
	size_t len = 0;
	char list[160];
	u32 f, r;

	for (f = 0; f < ob->n_funcs; f++) {
		fn = &ob->funcs[f];
		sname = obj_func_sec(ob, fn);
		if (!obj_func_prog(ob, fn) ||
		    (opts->sec && strcmp(sname, opts->sec)) ||
		    (opts->prog && strcmp(fn->name, opts->prog)))
			continue;
		r = named ? 0 : obj_func_rank(ob, btf, fn);
		if (r < ARRAY_SIZE(pick) && !pick[r])
			pick[r] = fn;
	}
	for (r = 0; r < ARRAY_SIZE(pick); r++) {
		if (!pick[r])
			continue;
		snprintf(o->sec, NP_OBJ_NAME, "%s", obj_func_sec(ob, pick[r]));
		return pick[r];
	}
	if (opts->prog && opts->sec)
		obj_fail(ob, "no program %s in section %s", opts->prog,
			 opts->sec);
	else if (opts->prog)
		obj_fail(ob, "no program %s (a function in a section other than .text)",
			 opts->prog);
	else if (opts->sec)
		obj_fail(ob, "no program in section %s", opts->sec);
	if (named)
		return NULL;
	/* name what there is: the user's way out is one of these names */
	list[0] = '\0';
	for (f = 0; f < ob->n_funcs && len < sizeof(list); f++) {
		fn = &ob->funcs[f];
		if (!obj_func_prog(ob, fn))
			continue;
		len += snprintf(list + len, sizeof(list) - len, "%s%s (%s)",
				len ? ", " : "", fn->name, obj_func_sec(ob, fn));
	}
	if (len >= sizeof(list))
		snprintf(list + sizeof(list) - 5, 5, "...");
	if (len)
		obj_fail(ob, "no XDP program: neither an XDP section (\"xdp\", \"xdp/...\") nor a struct xdp_md argument in %s; name one with program NAME",
			 list);
	else
		obj_fail(ob, "the object has no program");
	return NULL;
}

/* A reader of @path whose refusals go to @err; NULL (said) without memory. */
static struct obj *obj_new(const char *path, char *err, size_t err_len)
{
	struct obj *ob = calloc(1, sizeof(*ob));

	if (!ob) {
		snprintf(err, err_len, "out of memory");
		return NULL;
	}
	ob->path = path;
	ob->err = err;
	ob->err_len = err_len;
	return ob;
}

/* Undo obj_new() and obj_open(), whatever of the latter was done. */
static void obj_close(struct obj *ob, int fd, struct btf *btf)
{
	btf__free(btf);
	if (ob->elf)
		elf_end(ob->elf);
	if (fd >= 0)
		close(fd);
	free(ob->rels);
	free(ob);
}

/* Open @ob->path: its ELF in @ob (on @fd), scanned, and its BTF if any. */
static int obj_open(struct obj *ob, int *fd, struct btf **btf)
{
	int err;

	elf_version(EV_CURRENT);
	*fd = open(ob->path, O_RDONLY);
	if (*fd < 0) {
		err = errno;
		snprintf(ob->err, ob->err_len, "%s", strerror(err));
		return -err;
	}
	ob->elf = elf_begin(*fd, ELF_C_READ, NULL);
	if (!ob->elf || elf_kind(ob->elf) != ELF_K_ELF ||
	    gelf_getclass(ob->elf) != ELFCLASS64)
		return obj_fail(ob, "not a 64-bit ELF object");
	*btf = btf__parse_elf(ob->path, NULL);
	if (libbpf_get_error(*btf))
		*btf = NULL;
	return obj_scan(ob);
}

/**
 * np_object_programs() - the programs of a BPF ELF object
 * @path: the object file
 * @fn: called for each program with its name, its section, and whether
 *	np_object_read() would take it as an XDP program when none is named
 *	(whether it would load one named is np_object_read()'s to say)
 * @arg: passed to @fn
 * @err: set to why not, on failure
 * @err_len: bytes at @err
 *
 * Return: how many programs, or a negative errno.
 */
int np_object_programs(const char *path,
		       void (*fn)(void *arg, const char *name,
				  const char *sec, bool xdp),
		       void *arg, char *err, size_t err_len)
{
	struct obj *ob = obj_new(path, err, err_len);
	struct btf *btf = NULL;
	int fd = -1, ret, n = 0;
	u32 f;

	if (!ob)
		return -ENOMEM;
	ret = obj_open(ob, &fd, &btf);
	for (f = 0; !ret && f < ob->n_funcs; f++) {
		if (!obj_func_prog(ob, &ob->funcs[f]))
			continue;
		fn(arg, ob->funcs[f].name, obj_func_sec(ob, &ob->funcs[f]),
		   obj_func_rank(ob, btf, &ob->funcs[f]) < 4);
		n++;
	}
	obj_close(ob, fd, btf);
	return ret ?: n;
}

static int obj_read(const char *path, const struct np_object_opts *opts,
		    struct np_object *o, char *err, size_t err_len,
		    bool ro_tables, bool *unfolded)
{
	struct obj *ob = obj_new(path, err, err_len);
	struct obj_func *main_fn = NULL;
	struct btf *btf = NULL;
	int fd = -1, ret;

	memset(o, 0, sizeof(*o));
	if (!ob)
		return -ENOMEM;
	ob->ro_tables = ro_tables;
	ob->cpus = opts->cpus;
	ret = obj_open(ob, &fd, &btf) ?: obj_externs(ob, btf);
	if (ret)
		goto out;
	main_fn = obj_choose(ob, opts, btf, o);
	if (!main_fn) {
		ret = -ENOENT;
		goto out;
	}
	snprintf(o->name, NP_OBJ_NAME, "%s", main_fn->name);
	ret = obj_append(ob, o, btf, main_fn);
	o->base_len = o->len;
	/* which registers a function's callers set: globals.c needs it */
	memset(o->sub_nargs, 0xff, sizeof(o->sub_nargs));
	if (!ret && btf)
		obj_btf(btf, o);
	/* a callback's helper is named before it is found missing */
	if (!ret)
		ret = np_loop_rewrite(o, err, err_len);
	/*
	 * a helper no one runs is the cause, whatever the rewrites below
	 * would make of the arguments it is given (bpf_printk()'s format)
	 */
	if (!ret)
		ret = obj_helpers(ob, o, false);
	if (!ret && ob->n_ro) {
		ret = np_rodata_fold(o->insns, o->len, o->subs, o->n_subs,
				     ob->ro, ob->n_ro, &o->patches,
				     &o->n_patches, err, err_len);
		*unfolded = ret == -EOPNOTSUPP;
	}
	if (!ret)
		ret = obj_percpu_updates(ob, o);
	if (!ret)
		ret = np_globals_rewrite(o, err, err_len);
	if (!ret)
		ret = np_redirect_rewrite(o, err, err_len);
	/* after the rewrite: bpf_redirect_map() on a devmap is gone */
	if (!ret)
		ret = obj_helpers(ob, o, true);
	/* libbpf 1.x will not open the object, used maps or not */
	o->legacy |= ob->legacy_sec != 0;
	if (!ret && ob->license)
		snprintf(o->license, sizeof(o->license), "%.*s",
			 (int)ob->license->d_size,
			 (const char *)ob->license->d_buf);
out:
	obj_close(ob, fd, btf);
	if (ret)
		np_object_free(o);
	return ret;
}

/**
 * np_object_read() - read an XDP program out of a BPF ELF object
 * @path: the object file
 * @opts: which program, for which machine
 * @o: filled in; np_object_free() it
 * @err: set to why not, on failure
 * @err_len: bytes at @err
 *
 * Return: 0 or a negative errno.
 */
int np_object_read(const char *path, const struct np_object_opts *opts,
		   struct np_object *o, char *err, size_t err_len)
{
	bool unfolded = false;
	int ret;

	ret = obj_read(path, opts, o, err, err_len, false, &unfolded);
	/*
	 * Read-only data used other than by loads (given to a helper, held
	 * on some paths only) is bound as a read-only table instead: every
	 * address of it then goes through the table, as .data's do.
	 */
	if (ret && unfolded)
		ret = obj_read(path, opts, o, err, err_len, true, &unfolded);
	return ret;
}

/**
 * np_object_free() - free what np_object_read() allocated
 * @o: the object
 */
void np_object_free(struct np_object *o)
{
	u32 m;

	for (m = 0; m < NICPROG_MAX_TABLES; m++) {
		free(o->map_init[m]);
		o->map_init[m] = NULL;
	}
	free(o->patches);
	o->patches = NULL;
	free(o->splices);
	o->splices = NULL;
	free(o->insns);
	o->insns = NULL;
	o->len = 0;
}
