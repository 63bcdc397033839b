// SPDX-License-Identifier: GPL-2.0
/*
 * Two tables of one shape that a walk meets in an order that depends on
 * the kernel: 6.1's verifier walks the global function first and meets
 * verdict_tx there, 6.12's walks the entry program first and meets
 * verdict_drop. nicprog numbers tables in instruction order (the entry
 * program's instructions come first: verdict_drop is table 0) on every
 * kernel and offline. An entry given by a table's name must land in that
 * table: drop if verdict_drop[0] is set, else tx if verdict_tx[0] is,
 * else pass.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} verdict_drop SEC(".maps"), verdict_tx SEC(".maps");

__noinline int want_tx(struct xdp_md *ctx)
{
	__u32 k = 0, *v = bpf_map_lookup_elem(&verdict_tx, &k);

	return ctx && v && *v;
}

SEC("xdp")
int map_order(struct xdp_md *ctx)
{
	__u32 k = 0, *v = bpf_map_lookup_elem(&verdict_drop, &k);

	if (v && *v)
		return XDP_DROP;
	return want_tx(ctx) ? XDP_TX : XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
