// SPDX-License-Identifier: GPL-2.0
/*
 * The AF_XDP program of older libbpf and xdp-tutorial's first AF_XDP
 * lesson: a frame goes to its queue's socket only if a lookup in the
 * XSKMAP finds one, every other frame of a queue counted and every second
 * one passed. The lookup is the host's alone: the NIC cannot see the
 * host's sockets (the refusal says so and names the way out).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 64);
} xsks_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 64);
} xdp_stats_map SEC(".maps");

SEC("xdp")
int xdp_sock_prog(struct xdp_md *ctx)
{
	int index = ctx->rx_queue_index;
	__u32 *pkt_count;

	pkt_count = bpf_map_lookup_elem(&xdp_stats_map, &index);
	if (pkt_count && (*pkt_count)++ & 1)
		return XDP_PASS;
	if (bpf_map_lookup_elem(&xsks_map, &index))
		return bpf_redirect_map(&xsks_map, index, 0);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
