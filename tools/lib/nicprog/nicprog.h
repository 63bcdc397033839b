/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libnicprog: load an XDP program's ELF object onto a nicprog port the
 * way any libbpf loader would, adapted for what Linux 6.1 lets a device
 * hold. ip link's "nicprog" keyword uses it; so can any libbpf loader.
 */
#ifndef _NICPROG_LIB_H
#define _NICPROG_LIB_H

#include <stdbool.h>
#include <stddef.h>

/**
 * struct nicprog_load_opts - what to load, and where to say why not
 * @sec: the program's section, or NULL
 * @prog: the program's function name, or NULL; with neither, the first
 *	program in an XDP section ("xdp", "xdp/...")
 * @verbose: copy libbpf's account of the load to stderr
 * @why: filled with one sentence naming the cause of a refusal
 * @why_len: bytes at @why
 * @log: filled with libbpf's messages, the kernel's verifier log among
 *	them (nicprog's reasons start "[nicprog]"), when the load fails
 * @log_len: bytes at @log
 * @pin_root: where libbpf pins maps defined with LIBBPF_PIN_BY_NAME, or
 *	NULL for its default (/sys/fs/bpf)
 */
struct nicprog_load_opts {
	const char *sec;
	const char *prog;
	bool verbose;
	char *why;
	size_t why_len;
	char *log;
	size_t log_len;
	const char *pin_root;
};

/* ifindex 0: for the host, as the object defines it (see load.c) */
int nicprog_load(const char *path, int ifindex,
		 const struct nicprog_load_opts *opts);

/*
 * give a map offloaded to @ifindex a kind (kernel/table.c); the host kind
 * names the host XSKMAP or CPUMAP it stands for, else @host_map_fd is -1
 */
int nicprog_table_kind_set(int ifindex, int map_fd, unsigned int kind,
			   int host_map_fd, char *why, size_t why_len);
/* mark it a counter table of @counters u64 a value (stats-get shows them) */
int nicprog_table_counters_set(int ifindex, int map_fd, unsigned int counters,
			       char *why, size_t why_len);

#endif /* _NICPROG_LIB_H */
