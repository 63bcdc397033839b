// SPDX-License-Identifier: GPL-2.0
/*
 * Forwarding through a DEVMAP as xdp-tutorial's packet03 redirect lesson
 * and samples/bpf's xdp_redirect_map do it: the egress port's ifindex in
 * tx_port, looked up by bpf_redirect_map() -- here keyed by the low bits
 * of the destination MAC's last byte, so that some frames find an empty
 * slot and take the action on a miss (XDP_PASS) -- with per-CPU counts of
 * the verdicts and the MACs rewritten before the redirect.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 8);
} tx_port SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 5);
} verdicts SEC(".maps");

SEC("xdp")
int xdp_redirect_map_func(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	__u32 key, action;
	__u64 *cnt;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	key = eth->h_dest[5] & 7;
	eth->h_source[0] = 0x02;
	action = bpf_redirect_map(&tx_port, key, XDP_PASS);
	cnt = bpf_map_lookup_elem(&verdicts, &action);
	if (cnt)
		*cnt += 1;
	return action;
}

char _license[] SEC("license") = "GPL";
