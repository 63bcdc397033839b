/* SPDX-License-Identifier: GPL-2.0 */
/* Per-kind frame counters of the partial-offload test programs. */
#ifndef __NICPROG_TEST_KINDS_H
#define __NICPROG_TEST_KINDS_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} kinds SEC(".maps");

static __always_inline void count(__u32 kind)
{
	__u64 *c = bpf_map_lookup_elem(&kinds, &kind);

	if (c)
		__sync_fetch_and_add(c, 1);
}

#endif /* __NICPROG_TEST_KINDS_H */
