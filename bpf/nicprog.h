/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * nicprog.h - for authors of network functions (NFs) that run on SmartNICs.
 *
 * An NF is an ordinary XDP program: the same object runs on the host (XDP,
 * BPF_PROG_TEST_RUN) and, offloaded, on any nicprog SmartNIC. Linux 6.1
 * lets a device own only HASH and ARRAY maps and refuses kfuncs in
 * offloaded programs, so everything here is plain BPF. Later additions
 * (accelerator calls as named subprograms, pipe redirects, windows) keep
 * that rule.
 */
#ifndef __NICPROG_BPF_H
#define __NICPROG_BPF_H

#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

/* Declare a table the NIC may hold: only HASH and ARRAY can be offloaded. */
#define NICPROG_TABLE(name, map_type, key_t, value_t, entries)		\
	struct {							\
		__uint(type, map_type);					\
		__type(key, key_t);					\
		__type(value, value_t);					\
		__uint(max_entries, entries);				\
	} name SEC(".maps")

/* The packet bounds of an XDP context, as the verifier wants them. */
#define NICPROG_DATA(ctx)	((void *)(long)(ctx)->data)
#define NICPROG_DATA_END(ctx)	((void *)(long)(ctx)->data_end)

#endif /* __NICPROG_BPF_H */
