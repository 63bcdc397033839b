// SPDX-License-Identifier: GPL-2.0
/*
 * Load one XDP program of a BPF ELF object bound to a nicprog port.
 *
 * Linux 6.1's core decides what a device may hold before any driver sees
 * it: only HASH and ARRAY maps, no BTF on them, no direct value access.
 * libbpf as ip link drives it therefore refuses most programs people
 * already have with "map 'X': failed to create: Invalid argument(-22)",
 * binds every map of the object to the device, used or not, and prints
 * "Retrying without BTF" for each map it does create. This loader checks
 * the whole object first (object.c, the same code the offline planner
 * reads objects with, so both refuse with the same sentence), then lets
 * libbpf load the chosen program with the maps it uses created here:
 * without BTF, of the type the NIC holds (a per-CPU map as its plain type
 * whose value holds every possible CPU's slot: the bytes a per-CPU reader
 * expects; a DEVMAP as the table of ifindexes it is; a PERF_EVENT_ARRAY
 * left to libbpf, unbound; an LRU_HASH, LPM_TRIE or per-CPU map given
 * its table kind over netlink, kind.c; a global data section as its
 * one-element array with its initial bytes), and nothing else. Loads of
 * read-only global data (".rodata", "volatile const" configuration) are
 * folded into constants (rodata.c), writable global data's address loads
 * turned into lookups (globals.c) and bpf_redirect_map() calls on devmaps
 * rewritten (redirect.c) in libbpf's copy of the program just before it
 * is loaded, by a handler that stands in for libbpf's own section one.
 * Objects libbpf 1.x will not open (legacy SEC("maps")) are loaded from
 * object.c's own linked copy. With ifindex 0 the program loads for the
 * host as the object defines it: the oracle's reference.
 *
 * libbpf's print callback is process-wide: nicprog_load() swaps it for the
 * duration of the call, so calls must not run concurrently.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/magic.h>
#include <sys/vfs.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "nicprog.h"
#include "object.h"

/* libbpf's messages during one load: what opts->log gets. */
static struct {
	char *buf;
	size_t len;
	size_t used;
	bool verbose;
} np_log;

static int np_print(enum libbpf_print_level level, const char *fmt,
		    va_list ap)
{
	va_list copy;
	int n;

	if (level == LIBBPF_DEBUG && !np_log.verbose)
		return 0;
	if (np_log.verbose) {
		va_copy(copy, ap);
		vfprintf(stderr, fmt, copy);
		va_end(copy);
	}
	if (!np_log.buf || np_log.used + 1 >= np_log.len)
		return 0;
	n = vsnprintf(np_log.buf + np_log.used, np_log.len - np_log.used,
		      fmt, ap);
	if (n > 0)
		np_log.used = np_log.used + n < np_log.len ?
			      np_log.used + n : np_log.len - 1;
	return 0;
}

#define NP_MAX_PROGS	16	/* a program and its tail call targets */
#define NP_MAX_TAILS	8	/* PROG_ARRAYs they use */

/*
 * The programs np_prepare() adapts -- the chosen one first, then the
 * other XDP programs of an object whose program makes tail calls -- and
 * what it leaves for after the load: the device tables standing for the
 * PROG_ARRAYs, given their host maps once libbpf created them.
 */
static struct {
	struct np_object *o[NP_MAX_PROGS];
	u32 n;
	u32 done;
	int ifindex;
	struct {
		struct bpf_map *map;	/* libbpf's, the host's */
		int proxy;		/* the device table */
		bool set;
	} tails[NP_MAX_TAILS];
	u32 n_tails;
	char why[256];
	void *func_info;	/* re-aimed copies, until the load is done */
	void *line_info;
} np_fold;

/* The PROG_ARRAYs' device tables given their host maps, once. */
static int np_tails_set(void)
{
	char why[120];
	u32 i;
	int err;

	for (i = 0; i < np_fold.n_tails; i++) {
		if (np_fold.tails[i].set)
			continue;
		err = nicprog_table_kind_set(np_fold.ifindex,
					     np_fold.tails[i].proxy,
					     NICPROG_TABLE_KIND_PROGS,
					     bpf_map__fd(np_fold.tails[i].map),
					     why, sizeof(why));
		if (err) {
			snprintf(np_fold.why, sizeof(np_fold.why),
				 "map %.15s: the NIC cannot make it a table of the progs kind: %s",
				 bpf_map__name(np_fold.tails[i].map), why);
			return err;
		}
		np_fold.tails[i].set = true;
	}
	return 0;
}

/* The device table of the PROG_ARRAY libbpf gave descriptor @fd, or -1. */
static int np_tail_proxy(int fd)
{
	u32 i;

	for (i = 0; i < np_fold.n_tails; i++)
		if (bpf_map__fd(np_fold.tails[i].map) == fd)
			return np_fold.tails[i].proxy;
	return -1;
}

/* BTF records (func_info, line_info) re-aimed at the spliced program. */
static void *np_btf_info_remap(const void *info, u32 cnt, u32 rec_size,
			       const u32 *map, u32 len)
{
	u8 *copy;
	u32 i, off;

	if (!info || !cnt || rec_size < sizeof(u32))
		return NULL;
	copy = malloc((size_t)cnt * rec_size);
	if (!copy)
		return NULL;
	memcpy(copy, info, (size_t)cnt * rec_size);
	for (i = 0; i < cnt; i++) {
		memcpy(&off, copy + (size_t)i * rec_size, sizeof(off));
		off = off <= len ? map[off] : off;
		memcpy(copy + (size_t)i * rec_size, &off, sizeof(off));
	}
	return copy;
}

/*
 * Our changes to libbpf's copy that keep its length: a PROG_ARRAY's loads
 * name the device table standing for it, and the folds. -EINVAL (said in
 * np_fold.why) where a fold's instruction is not the load it folds.
 */
static int np_patch_copy(const struct np_object *o, struct bpf_insn *copy,
			 size_t n)
{
	u32 i, at;
	int proxy;

	for (i = 0; i + 1 < n; i++) {
		if (!np_is_ldimm64(&copy[i]))
			continue;
		proxy = copy[i].src_reg == BPF_PSEUDO_MAP_FD ?
			np_tail_proxy(copy[i].imm) : -1;
		if (proxy >= 0)
			copy[i].imm = proxy;
		i++;
	}
	for (i = 0; i < o->n_patches; i++) {
		at = o->patches[i].at;
		if (BPF_CLASS(o->patches[i].insn.code) != BPF_LD &&
		    o->patches[i].insn.code &&
		    BPF_CLASS(copy[at].code) != BPF_LDX) {
			snprintf(np_fold.why, sizeof(np_fold.why),
				 "libbpf's insn %u is not the load the loader folds",
				 at);
			return -EINVAL;
		}
		copy[at] = o->patches[i].insn;
	}
	return 0;
}

/*
 * Each splice's instruction in libbpf's copy is the call or address load
 * the loader rewrites; a global data lookup names the map by libbpf's
 * descriptor for it. -EINVAL, said in np_fold.why, otherwise.
 */
static int np_splices_check(const struct np_object *o,
			    const struct bpf_insn *copy, struct np_splice *sp)
{
	u32 i, k, at;
	int helper;

	for (i = 0; i < o->n_splices; i++) {
		at = sp[i].at;
		helper = sp[i].kind == NP_SPLICE_REDIRECT ?
			 BPF_FUNC_redirect_map :
			 sp[i].kind == NP_SPLICE_LOOKUP ||
			 sp[i].kind == NP_SPLICE_GATE ?
			 BPF_FUNC_map_lookup_elem :
			 sp[i].kind == NP_SPLICE_TAIL ? BPF_FUNC_tail_call :
			 sp[i].kind == NP_SPLICE_LOOP ? BPF_FUNC_loop : -1;
		if (helper >= 0 &&
		    (copy[at].code != (BPF_JMP | BPF_CALL) ||
		     copy[at].imm != helper)) {
			snprintf(np_fold.why, sizeof(np_fold.why),
				 "libbpf's insn %u is not the helper call the loader rewrites",
				 at);
			return -EINVAL;
		}
		if (sp[i].kind == NP_SPLICE_FUNC && sp[i].n &&
		    (!np_is_ldimm64(&copy[at]) ||
		     copy[at].src_reg != BPF_PSEUDO_FUNC)) {
			snprintf(np_fold.why, sizeof(np_fold.why),
				 "libbpf's insn %u is not the callback address load the loader rewrites",
				 at);
			return -EINVAL;
		}
		if (sp[i].kind != NP_SPLICE_GLOBAL || !sp[i].n)
			continue;
		if (!np_is_ldimm64(&copy[at]) ||
		    copy[at].src_reg != BPF_PSEUDO_MAP_VALUE) {
			snprintf(np_fold.why, sizeof(np_fold.why),
				 "libbpf's insn %u is not the global data address load the loader rewrites",
				 at);
			return -EINVAL;
		}
		/* the lookup names the map by libbpf's descriptor for it */
		for (k = 0; k < sp[i].n; k++)
			if (np_is_ldimm64(&sp[i].insns[k]))
				sp[i].insns[k].imm = copy[at].imm;
	}
	return 0;
}

/*
 * libbpf's prog_prepare_load_fn: its copy of the chosen program, relocated,
 * gets the changes object.c made to ours -- read-only data folded
 * (patches), then bpf_redirect_map() and bpf_loop() calls spliced
 * (splices), its BTF function and line information re-aimed. The copies
 * must agree instruction for instruction (object.c links as libbpf
 * does); the address loads libbpf left for the .rodata map we do not
 * create are poisoned calls or loads, either way two instruction slots.
 */
static int np_prepare(struct bpf_program *prog, struct bpf_prog_load_opts *lo,
		      long cookie)
{
	const struct bpf_insn *in = bpf_program__insns(prog);
	size_t n = bpf_program__insn_cnt(prog);
	struct bpf_insn *copy, *spliced = NULL;
	const struct np_object *o = NULL;
	struct np_splice *sp = NULL;
	u32 i, new_len, *map = NULL;
	int err;

	(void)cookie;
	for (i = 0; i < np_fold.n && !o; i++)
		if (!strcmp(bpf_program__name(prog), np_fold.o[i]->name))
			o = np_fold.o[i];
	if (!o)
		return 0;
	/* the previous program's load is done with its copies */
	free(np_fold.func_info);
	free(np_fold.line_info);
	np_fold.func_info = NULL;
	np_fold.line_info = NULL;
	err = np_tails_set();
	if (err)
		return err;
	/*
	 * Our handler stands in for libbpf's, which would set
	 * BPF_F_XDP_HAS_FRAGS for an xdp.frags section: 6.1's offload
	 * refuses every program flag, and the flag only lets a program see
	 * frames in fragments, where the NIC's are linear (its MTU fits one
	 * buffer).
	 */
	lo->prog_flags &= ~BPF_F_XDP_HAS_FRAGS;
	if (n != o->base_len) {
		snprintf(np_fold.why, sizeof(np_fold.why),
			 "libbpf linked %zu instructions where the loader counted %u",
			 n, o->base_len);
		return -EINVAL;
	}
	copy = malloc(n * sizeof(*copy));
	if (!copy)
		return -ENOMEM;
	memcpy(copy, in, n * sizeof(*copy));
	if (np_patch_copy(o, copy, n)) {
		free(copy);
		return -EINVAL;
	}
	if (o->n_splices) {
		sp = malloc(o->n_splices * sizeof(*sp));
		if (!sp) {
			free(copy);
			return -ENOMEM;
		}
		memcpy(sp, o->splices, o->n_splices * sizeof(*sp));
	}
	err = np_splices_check(o, copy, sp);
	if (err)
		goto out;
	new_len = n;
	if (o->n_splices) {
		err = np_splice_apply(copy, n, sp, o->n_splices,
				      &spliced, &new_len, &map);
		if (err)
			goto out;
		np_fold.func_info = np_btf_info_remap(lo->func_info,
						      lo->func_info_cnt,
						      lo->func_info_rec_size,
						      map, n);
		np_fold.line_info = np_btf_info_remap(lo->line_info,
						      lo->line_info_cnt,
						      lo->line_info_rec_size,
						      map, n);
		if (np_fold.func_info)
			lo->func_info = np_fold.func_info;
		if (np_fold.line_info)
			lo->line_info = np_fold.line_info;
		free(map);
	}
	err = bpf_program__set_insns(prog, spliced ? spliced : copy, new_len);
	np_fold.done += !err;
out:
	free(sp);
	free(spliced);
	free(copy);
	return err;
}

static int np_why(const struct nicprog_load_opts *opts, int err,
		  const char *fmt, ...)
{
	va_list ap;

	if (opts->why && opts->why_len) {
		va_start(ap, fmt);
		vsnprintf(opts->why, opts->why_len, fmt, ap);
		va_end(ap);
	}
	return err;
}

/* The end of the line @l starts. */
static const char *np_eol(const char *l)
{
	const char *e = strchr(l, '\n');

	return e ? e : l + strlen(l);
}

/*
 * The kernel refused the object: the cause is a map libbpf could not
 * create, or the verifier log's -- the last line nicprog's verifier hook
 * wrote ("[nicprog] insn N: ..."; those before it say what the offloader
 * made of the program's calls), else the verifier's own last line -- so
 * that the first line the user reads names it, libbpf's copy of the log
 * following.
 */
static void np_verifier_why(const struct nicprog_load_opts *opts, int err,
			    const char *path, const char *prog)
{
	const char *log = np_log.buf ? np_log.buf : "", *l, *end, *last = NULL;
	static const char mark[] = "[nicprog] ";
	static const char failed[] = "': failed to create: ";
	static const char plan_partial[] = "(plan_partial lets";
	size_t last_len = 0;

	/* libbpf creates the maps first: one it could not is the cause */
	l = strstr(log, failed);
	if (l) {
		for (last = l; last > log && last[-1] != '\''; last--)
			;
		end = np_eol(l);
		l += sizeof(failed) - 1;
		np_why(opts, err, "%s: map %.*s: the kernel refused to create it: %.*s",
		       path, (int)(l - (sizeof(failed) - 1) - last), last,
		       (int)(end - l), l);
		return;
	}
	for (l = strstr(log, mark); l && strstr(l + 1, mark);)
		l = strstr(l + 1, mark);
	if (l) {
		l += sizeof(mark) - 1;
		end = np_eol(l);
		/*
		 * the way out in the words of this loader's users (ip link
		 * ... nicprog, nicprog dev set): partial on, which sets the
		 * port's plan_partial the kernel names
		 */
		last = strstr(l, plan_partial);
		if (last && last < end) {
			np_why(opts, err, "%s: %.*s(partial on lets%.*s", path,
			       (int)(last - l), l,
			       (int)(end - last - (sizeof(plan_partial) - 1)),
			       last + sizeof(plan_partial) - 1);
			return;
		}
		np_why(opts, err, "%s: %.*s", path, (int)(end - l), l);
		return;
	}
	/*
	 * A walk the verifier gave up on fills any log before it ends: its
	 * last line is then an instruction of the walk, not the cause.
	 */
	if (err == -E2BIG && !strstr(log, "\nprocessed ")) {
		np_why(opts, err,
		       "%s: the verifier refused program %s: too complex to verify (it walks at most 1000000 instructions, with 8192 branches pending; its log ran out before saying which)",
		       path, prog);
		return;
	}
	/* the last line of the log libbpf quotes, bar its own markers */
	l = strstr(log, "-- BEGIN PROG LOAD LOG --");
	for (l = l ? np_eol(l) : log + strlen(log); *l; l = end) {
		l++;
		end = np_eol(l);
		if (!strncmp(l, "libbpf: ", 8) || !strncmp(l, "-- END", 6))
			break;
		if (end > l && strncmp(l, "processed ", 10) &&
		    strncmp(l, "verification time", 17)) {
			last = l;
			last_len = end - l;
		}
	}
	if (last)
		np_why(opts, err, "%s: the verifier refused program %s: %.*s",
		       path, prog, (int)last_len, last);
	else
		np_why(opts, err,
		       "%s: the kernel refused program %s: %s; the verifier log says why",
		       path, prog, strerror(-err));
}

/*
 * Our index of libbpf's @map: by name, or for a global data section's
 * internal map, whose name libbpf prefixes with (part of) the object's,
 * by the section its name ends with.
 */
static int np_map_index(const struct np_object *o, const struct bpf_map *map)
{
	const char *name = bpf_map__name(map);
	size_t len = strlen(name), sl;
	u32 m;

	for (m = 0; m < o->n_maps; m++)
		if (!strcmp(o->map_names[m], name))
			return m;
	if (!bpf_map__is_internal(map))
		return -1;
	for (m = 0; m < o->n_maps; m++) {
		sl = strlen(o->map_names[m]);
		if (o->map_names[m][0] == '.' && sl <= len &&
		    !strcmp(name + len - sl, o->map_names[m]))
			return m;
	}
	return -1;
}

/*
 * A global data section's map gets the section's initial bytes; a
 * read-only one (.rodata bound as a table, object.c) is then frozen, as
 * libbpf freezes the host's: user space can no more change what the
 * NIC's program reads than what the host's does.
 */
static int np_map_init(const struct np_object *o, u32 m, int fd,
		       const struct nicprog_load_opts *opts)
{
	u32 zero = 0;

	if (!o->map_init[m])
		return 0;
	if (bpf_map_update_elem(fd, &zero, o->map_init[m], BPF_ANY))
		return np_why(opts, -errno, "map %s: its initial values cannot be written: %s",
			      o->map_names[m], strerror(errno));
	if ((o->map_defs[m].flags & BPF_F_RDONLY_PROG) && bpf_map_freeze(fd))
		return np_why(opts, -errno, "map %s: it cannot be frozen: %s",
			      o->map_names[m], strerror(errno));
	return 0;
}

/*
 * A map created on the device gets the kind of table its type needs
 * (LRU_HASH, LPM_TRIE, the per-CPU types; an XSKMAP's or CPUMAP's stands
 * for @host_fd), a statistics map is marked a counter table; the caller
 * closes @fd either way.
 */
static int np_map_kind_set(const struct np_object *o, u32 m, int fd,
			   int host_fd, int ifindex,
			   const struct nicprog_load_opts *opts)
{
	u32 kind = np_map_kind(o->map_defs[m].type);
	u32 type = o->map_defs[m].type;
	char why[160];
	int err;

	if (kind != NICPROG_TABLE_KIND_PLAIN) {
		err = nicprog_table_kind_set(ifindex, fd, kind, host_fd, why,
					     sizeof(why));
		if (err)
			return np_why(opts, err, "map %s: the NIC cannot make it a table of the %s kind: %s",
				      o->map_names[m],
				      kind == NICPROG_TABLE_KIND_LRU ? "LRU" :
				      kind == NICPROG_TABLE_KIND_LPM ? "LPM" :
				      kind == NICPROG_TABLE_KIND_PERCPU ? "per-CPU" :
				      kind == NICPROG_TABLE_KIND_HOST ? "host" :
				      "LRU per-CPU", why);
	}
	/*
	 * A statistics map (an array of u64 counters by its BTF), once of its
	 * kind, is marked so that nicprog stats shows it; a kernel that cannot
	 * mark it (one before table-counters) still runs the program: only
	 * the view is missing, no reason to refuse the load.
	 */
	if (o->map_defs[m].counters && o->map_defs[m].key_size == sizeof(u32) &&
	    (type == BPF_MAP_TYPE_ARRAY || type == BPF_MAP_TYPE_PERCPU_ARRAY))
		nicprog_table_counters_set(ifindex, fd, o->map_defs[m].counters,
					   NULL, 0);
	return 0;
}

/*
 * Map @m created on the device as the NIC holds it, of its kind, with its
 * initial bytes; for an XSKMAP or CPUMAP, the host map the object defines
 * too, which the device's table then holds (and user space finds by name).
 * Returns the device map's fd, or a negative errno with opts->why filled.
 */
static int np_map_nic(const struct np_object *o, u32 m, const char *name,
		      int ifindex, const struct nicprog_load_opts *opts)
{
	const struct np_map_def *def = &o->map_defs[m];
	const struct nicprog_ir_table *t = &o->maps[m];
	int fd, host_fd = -1, err;

	if (np_map_host_target(def->type)) {
		LIBBPF_OPTS(bpf_map_create_opts, ho, .map_flags = def->flags);

		host_fd = bpf_map_create(def->type, name, def->key_size,
					 def->value_size, def->max_entries,
					 &ho);
		if (host_fd < 0)
			return np_why(opts, -errno,
				      "map %s: the kernel refused to create it for the host: %s",
				      o->map_names[m], strerror(errno));
	}
	LIBBPF_OPTS(bpf_map_create_opts, mo,
		    .map_flags = host_fd < 0 ? np_map_create_flags(def) : 0,
		    .map_ifindex = ifindex);
	fd = bpf_map_create(np_map_nic_type(t->type), name, t->key_size,
			    t->value_size, t->max_entries, &mo);
	if (fd < 0) {
		err = np_why(opts, -errno,
			     "map %s: the kernel refused to create it on the device: %s%s",
			     o->map_names[m], strerror(errno),
			     errno == ENOSPC ?
			     " (the NIC's memory cannot hold it; the kernel log gives the sizes)" : "");
		goto out;
	}
	err = np_map_kind_set(o, m, fd, host_fd, ifindex, opts);
	if (!err)
		err = np_map_init(o, m, fd, opts);
	if (err)
		close(fd);
out:
	if (host_fd >= 0)
		close(host_fd);	/* the device's table holds it */
	return err ? err : fd;
}

/*
 * A PROG_ARRAY stays libbpf's, created for the host with its initial
 * slots; the device gets an ARRAY of as many entries to stand for it,
 * given the progs kind once libbpf made the host's (np_tails_set()).
 */
static int np_tail_map(const struct np_object *o, u32 m, struct bpf_map *map,
		       int ifindex, const struct nicprog_load_opts *opts)
{
	LIBBPF_OPTS(bpf_map_create_opts, mo, .map_ifindex = ifindex);
	int fd;

	if (np_fold.n_tails == NP_MAX_TAILS)
		return np_why(opts, -E2BIG, "map %s: the loader takes %u PROG_ARRAYs at most",
			      o->map_names[m], NP_MAX_TAILS);
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, bpf_map__name(map),
			    sizeof(u32), sizeof(u32), o->maps[m].max_entries,
			    &mo);
	if (fd < 0)
		return np_why(opts, -errno,
			      "map %s: the kernel refused to create it on the device: %s",
			      o->map_names[m], strerror(errno));
	np_fold.tails[np_fold.n_tails].map = map;
	np_fold.tails[np_fold.n_tails].proxy = fd;
	np_fold.tails[np_fold.n_tails].set = false;
	np_fold.n_tails++;
	return 0;
}

/*
 * The maps the programs use (np_fold.o), created as the NIC holds them;
 * no others.
 */
static int np_maps(struct bpf_object *obj, int ifindex,
		   const struct nicprog_load_opts *opts)
{
	const struct np_object *o = NULL;
	struct bpf_map *map;
	int m = -1, fd, err;
	u32 i;

	bpf_object__for_each_map(map, obj) {
		for (i = 0, m = -1; i < np_fold.n && m < 0; i++) {
			o = np_fold.o[i];
			m = np_map_index(o, map);
		}
		if (m < 0) {
			bpf_map__set_autocreate(map, false);
			continue;
		}
		if (np_map_host(o->maps[m].type))
			continue;	/* libbpf creates it, the host's */
		if (o->map_defs[m].type == BPF_MAP_TYPE_PROG_ARRAY) {
			err = np_tail_map(o, m, map, ifindex, opts);
			if (err)
				return err;
			continue;
		}
		/*
		 * A map pinned by name that another load already pinned is
		 * that map (libbpf reuses the pin): creating one first would
		 * take the NIC's memory twice. Sibling ports of a NIC share
		 * tables this way (network kernels' switch memory).
		 */
		fd = bpf_map__pin_path(map) ? bpf_obj_get(bpf_map__pin_path(map)) : -1;
		if (fd < 0)
			fd = np_map_nic(o, m, bpf_map__name(map), ifindex, opts);
		if (fd < 0)
			return fd;
		err = bpf_map__reuse_fd(map, fd);
		close(fd);
		if (err)
			return np_why(opts, err, "map %s: libbpf cannot use it: %s",
				      o->map_names[m], strerror(-err));
	}
	return 0;
}

/*
 * Objects libbpf 1.x will not open -- maps in the legacy SEC("maps")
 * section, as samples/bpf, Netronome's samples and iproute2's examples
 * define them -- are loaded from object.c's copy of the program, linked as
 * libbpf would: the maps it uses created here, their loads relocated, no
 * BTF (such objects carry none for their maps; a global function, which
 * needs it, is refused by the verifier). With @ifindex 0, for the host,
 * with the maps as the object defines them.
 */
static int np_load_own(const char *path, const struct np_object *o,
		       int ifindex, const struct nicprog_load_opts *opts)
{
	int fds[NICPROG_MAX_TABLES], fd = -1, err = 0;
	const struct np_map_def *def;
	struct bpf_insn *insns;
	char name[BPF_OBJ_NAME_LEN];
	u32 m, i, vs;

	insns = malloc((size_t)o->len * sizeof(*insns));
	if (!insns)
		return np_why(opts, -ENOMEM, "out of memory");
	for (m = 0; m < o->n_maps; m++)
		fds[m] = -1;
	for (m = 0; m < o->n_maps && !err; m++) {
		def = &o->map_defs[m];
		if (ifindex && !np_map_host(o->maps[m].type)) {
			fds[m] = np_map_nic(o, m, o->map_names[m], ifindex,
					    opts);
			err = fds[m] < 0 ? fds[m] : 0;
			continue;
		}
		vs = ifindex ? o->maps[m].value_size : def->value_size;
		LIBBPF_OPTS(bpf_map_create_opts, mo, .map_flags = def->flags);
		fds[m] = bpf_map_create(def->type, o->map_names[m],
					o->maps[m].key_size, vs,
					o->maps[m].max_entries, &mo);
		if (fds[m] < 0)
			err = np_why(opts, -errno,
				     "map %s: the kernel refused to create it: %s",
				     o->map_names[m], strerror(errno));
		else
			err = np_map_init(o, m, fds[m], opts);
	}
	if (err)
		goto out;
	memcpy(insns, o->insns, (size_t)o->len * sizeof(*insns));
	for (i = 0; i + 1 < o->len; i++) {
		if (insns[i].code != (BPF_LD | BPF_IMM | BPF_DW))
			continue;
		if (insns[i].src_reg == BPF_PSEUDO_MAP_FD &&
		    (u32)insns[i].imm < o->n_maps)
			insns[i].imm = fds[insns[i].imm];
		i++;
	}
	memset(name, 0, sizeof(name));
	memcpy(name, o->name, strnlen(o->name, sizeof(name) - 1));
	{
		LIBBPF_OPTS(bpf_prog_load_opts, po, .prog_ifindex = ifindex);

		fd = bpf_prog_load(BPF_PROG_TYPE_XDP, name, o->license, insns,
				   o->len, &po);
		if (fd < 0 && opts->log && opts->log_len > 1) {
			/* again, for the verifier's account of why */
			po.log_buf = opts->log;
			po.log_size = opts->log_len;
			po.log_level = 1;
			fd = bpf_prog_load(BPF_PROG_TYPE_XDP, name, o->license,
					   insns, o->len, &po);
		}
	}
	if (fd < 0)
		err = np_why(opts, -errno,
			     "%s: the kernel refused program %s: %s; the verifier log says why",
			     path, o->name, strerror(errno));
	else
		fcntl(fd, F_SETFD, FD_CLOEXEC);
out:
	for (m = 0; m < o->n_maps; m++)
		if (fds[m] >= 0)
			close(fds[m]);	/* the program holds them */
	free(insns);
	return err ? err : fd;
}

/**
 * nicprog_load() - load an object's XDP program bound to a nicprog port
 * @path: the BPF ELF object
 * @ifindex: the port
 * @opts: which program; where the reasons go
 *
 * The object is checked whole before anything is created: a map, helper
 * or instruction the NIC cannot take is refused naming it, the reason and
 * the way out. The program is loaded as XDP whatever its section, as ip
 * link does. Per-CPU maps are bound as their plain type with a value of
 * libbpf_num_possible_cpus() slots of round_up(value_size, 8) bytes, so
 * that bpf_map_lookup_elem() from user space returns the per-CPU layout.
 *
 * With @ifindex 0 the program is loaded for the host, as the object
 * defines it (the oracle's reference): libbpf's own load of the chosen
 * program as XDP, maps as defined.
 *
 * A program that makes tail calls (uses a PROG_ARRAY) is loaded with the
 * object's other XDP programs, which libbpf puts in the PROG_ARRAY's
 * initial slots; on the device each is adapted as the chosen one, and
 * the PROG_ARRAY stays the host's (redirect.c). A pinned PROG_ARRAY
 * (LIBBPF_PIN_BY_NAME, under @opts->pin_root if set) outlives the call,
 * as it must on the host: its slots empty when its last file goes.
 *
 * Return: the program's fd (the caller's, close-on-exec), or a negative
 * errno with @opts->why (and @opts->log when the kernel refused) filled.
 */
/*
 * For the host, the maps as the object defines them, but for a PROG_ARRAY
 * the chosen program does not use: libbpf would fill its slots with
 * programs it does not load, and fail.
 */
static int np_host_maps(struct bpf_object *obj, const struct np_object *o)
{
	struct bpf_map *map;

	bpf_object__for_each_map(map, obj)
		if (bpf_map__type(map) == BPF_MAP_TYPE_PROG_ARRAY &&
		    np_map_index(o, map) < 0)
			bpf_map__set_autocreate(map, false);
	return 0;
}

/*
 * Does the kernel put a program offloaded to @ifindex in a PROG_ARRAY?
 * Linux 6.3 and later do not (bpf_prog_map_compatible(): "until device
 * checks are implemented, prohibit adding dev-bound programs to program
 * maps"), so tail calls cannot be offloaded there. Asked by trying it,
 * with a two-instruction program, once a load with tail calls failed; a
 * probe that cannot be set up answers yes, claiming nothing.
 */
static bool np_prog_array_takes_offloaded(int ifindex)
{
	const struct bpf_insn pass[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0,
		  .imm = XDP_PASS },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, po, .prog_ifindex = ifindex);
	int prog, map, err;
	u32 k = 0;

	prog = bpf_prog_load(BPF_PROG_TYPE_XDP, "np_tail_probe", "GPL", pass,
			     2, &po);
	map = bpf_map_create(BPF_MAP_TYPE_PROG_ARRAY, "np_tail_probe", 4, 4, 1,
			     NULL);
	err = prog < 0 || map < 0 ? 0 : bpf_map_update_elem(map, &k, &prog, 0);
	if (prog >= 0)
		close(prog);
	if (map >= 0)
		close(map);
	return !err;
}

/* Does the program @o use a PROG_ARRAY (does it make tail calls)? */
static bool np_tails(const struct np_object *o)
{
	u32 m;

	for (m = 0; m < o->n_maps; m++)
		if (o->map_defs[m].type == BPF_MAP_TYPE_PROG_ARRAY)
			return true;
	return false;
}

/*
 * Another XDP program @p of an object whose chosen program makes tail
 * calls: loaded beside it, for the PROG_ARRAY's slots (for the device,
 * adapted as the chosen one, refused naming it).
 */
static int np_tail_target(const char *path, struct bpf_program *p,
			  const struct np_object_opts *sel, int ifindex,
			  const struct nicprog_load_opts *opts)
{
	struct np_object_opts tsel = *sel;
	struct np_object *t;
	char err[512];
	int ret;

	bpf_program__set_autoload(p, true);
	/* the PROG_ARRAY takes programs of the chosen one's attach type */
	bpf_program__set_expected_attach_type(p, 0);
	if (!ifindex)
		return 0;
	if (np_fold.n == NP_MAX_PROGS)
		return np_why(opts, -E2BIG, "%s: the loader takes %u programs of an object at most",
			      path, NP_MAX_PROGS);
	t = calloc(1, sizeof(*t));
	if (!t)
		return np_why(opts, -ENOMEM, "out of memory");
	tsel.prog = bpf_program__name(p);
	tsel.sec = bpf_program__section_name(p);
	ret = np_object_read(path, &tsel, t, err, sizeof(err));
	if (ret) {
		free(t);
		return np_why(opts, ret, "%s: tail call target %s: %s", path,
			      tsel.prog, err);
	}
	np_fold.o[np_fold.n++] = t;
	bpf_program__set_ifindex(p, ifindex);
	return 0;
}

/*
 * libbpf calls np_prepare() for the chosen program's section and, for an
 * object whose program makes tail calls, for every XDP section, where the
 * targets are ("xdp", "xdp/...", "xdp.frags", "xdp.frags/..."). Before
 * the object is opened: libbpf gives programs their handlers then.
 */
static int np_handlers(int *handlers, const char *path, const char *sec,
		       bool tails, const struct nicprog_load_opts *opts)
{
	LIBBPF_OPTS(libbpf_prog_handler_opts, hopts,
		    .prog_prepare_load_fn = np_prepare);
	const char *secs[] = { sec, "xdp+", "xdp.frags+" };
	u32 i;

	for (i = 0; i < (tails ? 3 : 1); i++) {
		handlers[i] = libbpf_register_prog_handler(secs[i],
							   BPF_PROG_TYPE_XDP,
							   0, &hopts);
		if (handlers[i] < 0)
			return np_why(opts, handlers[i],
				      "%s: libbpf will not let the loader adapt the programs in section %s: %s",
				      path, secs[i], strerror(-handlers[i]));
	}
	return 0;
}

/*
 * Maps pinned by name (LIBBPF_PIN_BY_NAME) need their directory on a BPF
 * filesystem; else libbpf's load fails late and reads as the kernel
 * refusing the program. Say the cause first.
 */
static int np_pins_ok(struct bpf_object *obj, const char *path,
		      const struct nicprog_load_opts *opts)
{
	struct bpf_map *map;
	struct statfs st;
	const char *pin;
	char dir[256], *slash;

	bpf_object__for_each_map(map, obj) {
		pin = bpf_map__pin_path(map);
		if (!pin)
			continue;
		snprintf(dir, sizeof(dir), "%s", pin);
		slash = strrchr(dir, '/');
		if (slash && slash != dir)
			*slash = '\0';
		if (!statfs(dir, &st) && st.f_type == BPF_FS_MAGIC)
			continue;
		return np_why(opts, -ENOENT,
			      "%s: map %s is pinned by name at %s, and %s is not a BPF filesystem in this mount namespace (mount -t bpf bpf %s)",
			      path, bpf_map__name(map), pin, dir, dir);
	}
	return 0;
}

/*
 * The opened object's maps made and checked, then loaded: a descriptor of
 * the chosen program, or -errno with the cause said in @opts->why.
 */
static int np_load_chosen(struct bpf_object *obj, const struct np_object *o,
			  struct bpf_program *chosen, bool tails,
			  const char *path, int ifindex,
			  const struct nicprog_load_opts *opts)
{
	int ret;

	ret = ifindex ? np_maps(obj, ifindex, opts) : np_host_maps(obj, o);
	if (!ret)
		ret = np_pins_ok(obj, path, opts);
	if (ret)
		return ret;
	ret = bpf_object__load(obj);
	if (ret && np_fold.why[0])
		return np_why(opts, ret, "%s: %s", path, np_fold.why);
	if (ret && ifindex && tails && !np_prog_array_takes_offloaded(ifindex)) {
		np_why(opts, -EOPNOTSUPP,
		       "%s: program %s makes tail calls, and this kernel puts no offloaded program in a PROG_ARRAY (Linux 6.3 and later); run it on the host",
		       path, o->name);
		return ret;
	}
	if (ret) {
		np_verifier_why(opts, ret, path, o->name);
		return ret;
	}
	if (ifindex && np_fold.done != np_fold.n)
		return np_why(opts, -EINVAL,
			      "%s: libbpf loaded %s without letting the loader adapt it",
			      path, o->name);
	ret = fcntl(bpf_program__fd(chosen), F_DUPFD_CLOEXEC, 0);
	if (ret < 0)
		ret = np_why(opts, -errno, "%s", strerror(errno));
	return ret;
}

int nicprog_load(const char *path, int ifindex,
		 const struct nicprog_load_opts *opts)
{
	struct np_object_opts sel = {
		.sec = opts->sec, .prog = opts->prog,
	};
	LIBBPF_OPTS(bpf_object_open_opts, oo, .pin_root_path = opts->pin_root);
	int handlers[NP_MAX_PROGS], ret, cpus;
	struct bpf_program *p, *chosen = NULL;
	libbpf_print_fn_t old;
	struct bpf_object *obj;
	struct np_object *o;
	char err[512];
	bool tails;
	u32 i;

	if (opts->why && opts->why_len)
		opts->why[0] = '\0';
	if (opts->log && opts->log_len)
		opts->log[0] = '\0';
	cpus = libbpf_num_possible_cpus();
	if (cpus <= 0)
		return np_why(opts, cpus ?: -EINVAL,
			      "cannot read the host's possible CPUs: %s",
			      strerror(cpus ? -cpus : EINVAL));
	sel.cpus = cpus;
	o = calloc(1, sizeof(*o));
	if (!o)
		return np_why(opts, -ENOMEM, "out of memory");
	ret = np_object_read(path, &sel, o, err, sizeof(err));
	if (ret) {
		np_why(opts, ret, "%s: %s", path, err);
		free(o);
		return ret;
	}
	tails = np_tails(o);
	if (o->legacy) {
		ret = tails ? np_why(opts, -EOPNOTSUPP, "%s: tail calls of objects with maps in SEC(\"maps\"), which libbpf 1.x does not open, are not offloaded; define the maps in SEC(\".maps\")",
				     path) :
			      np_load_own(path, o, ifindex, opts);
		np_object_free(o);
		free(o);
		return ret;
	}
	for (i = 0; i < NP_MAX_PROGS; i++)
		handlers[i] = -1;
	np_log.buf = opts->log;
	np_log.len = opts->log_len;
	np_log.used = 0;
	np_log.verbose = opts->verbose;
	old = libbpf_set_print(np_print);
	memset(&np_fold, 0, sizeof(np_fold));
	np_fold.ifindex = ifindex;
	if (ifindex) {
		np_fold.o[np_fold.n++] = o;
		ret = np_handlers(handlers, path, o->sec, tails, opts);
		if (ret)
			goto out;
	}
	obj = bpf_object__open_file(path, &oo);
	if (!obj) {
		ret = np_why(opts, -errno, "%s: libbpf cannot open it: %s",
			     path, strerror(errno));
		goto out;
	}
	ret = 0;
	bpf_object__for_each_program(p, obj) {
		if (!chosen && !strcmp(bpf_program__name(p), o->name) &&
		    !strcmp(bpf_program__section_name(p), o->sec)) {
			chosen = p;
			bpf_program__set_autoload(p, true);
			bpf_program__set_type(p, BPF_PROG_TYPE_XDP);
			bpf_program__set_expected_attach_type(p, 0);
			if (ifindex)
				bpf_program__set_ifindex(p, ifindex);
		} else if (tails && !ret &&
			   bpf_program__type(p) == BPF_PROG_TYPE_XDP) {
			ret = np_tail_target(path, p, &sel, ifindex, opts);
		} else {
			bpf_program__set_autoload(p, false);
		}
	}
	if (ret)
		goto out_close;
	if (!chosen) {
		ret = np_why(opts, -ENOENT, "%s: libbpf found no program %s in section %s",
			     path, o->name, o->sec);
		goto out_close;
	}
	ret = np_load_chosen(obj, o, chosen, tails, path, ifindex, opts);
out_close:
	bpf_object__close(obj);
out:
	for (i = 0; i < NP_MAX_PROGS; i++)
		if (handlers[i] >= 0)
			libbpf_unregister_prog_handler(handlers[i]);
	for (i = 0; i < np_fold.n_tails; i++)
		close(np_fold.tails[i].proxy);	/* the programs hold them */
	for (i = 1; i < np_fold.n; i++) {
		np_object_free(np_fold.o[i]);
		free(np_fold.o[i]);
	}
	free(np_fold.func_info);
	free(np_fold.line_info);
	memset(&np_fold, 0, sizeof(np_fold));
	libbpf_set_print(old);
	np_log.buf = NULL;
	np_object_free(o);
	free(o);
	return ret;
}
