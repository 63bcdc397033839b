// SPDX-License-Identifier: GPL-2.0
/*
 * Per-source packet counts in a small LRU_HASH, as rate limiters keep
 * them: the table is meant to fill up and forget the quiet sources.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 8);
} sources SEC(".maps");

SEC("xdp")
int lru_src(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph = (void *)(eth + 1);
	__u64 one = 1, *cnt;

	if ((void *)(iph + 1) > data_end ||
	    eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	cnt = bpf_map_lookup_elem(&sources, &iph->saddr);
	if (cnt)
		__sync_fetch_and_add(cnt, 1);
	else
		bpf_map_update_elem(&sources, &iph->saddr, &one, BPF_ANY);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
