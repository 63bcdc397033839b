// SPDX-License-Identifier: GPL-2.0
/*
 * A per-flow state table sized for a server's memory (300,000 entries of
 * 4 KiB, 1.2 GB): more than a NIC holds.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct flow_state {
	__u8 bytes[4096];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct flow_state);
	__uint(max_entries, 300000);
} flow_states SEC(".maps");

SEC("xdp")
int huge_table(struct xdp_md *ctx)
{
	__u32 key = ctx->rx_queue_index;
	struct flow_state *st = bpf_map_lookup_elem(&flow_states, &key);

	if (st)
		st->bytes[0]++;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
