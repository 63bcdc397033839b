// SPDX-License-Identifier: GPL-2.0
/*
 * Configuration the way xdp-tools and libbpf skeletons pass it: "const
 * volatile" globals in .rodata, set before load (here: the object's
 * defaults), read by the program at run time -- a struct, a 64-bit
 * threshold, a flag -- plus per-CPU statistics. Blocks UDP to the
 * configured port, counts bytes only when told to, and sends frames larger
 * than the threshold back out (XDP_TX) with their MACs swapped.
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

struct config {
	__u16 port;
	__u8 action_hit;
	__u8 action_miss;
	__u32 mark;
};

const volatile struct config cfg = {
	.port = 53,
	.action_hit = XDP_DROP,
	.action_miss = XDP_PASS,
	.mark = 0xfeed,
};
const volatile __u64 tx_threshold = 1200;
const volatile bool count_bytes = true;

struct stats {
	__u64 packets;
	__u64 bytes;
	__u64 marked;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct stats);
	__uint(max_entries, 2);
} cfg_stats SEC(".maps");

static __always_inline void swap_mac(struct ethhdr *eth)
{
	__u8 tmp[ETH_ALEN];

	__builtin_memcpy(tmp, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, tmp, ETH_ALEN);
}

SEC("xdp")
int xdp_cfg(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph = (void *)(eth + 1);
	__u32 key = 0, action = cfg.action_miss;
	struct stats *st;
	struct udphdr *udph;

	if ((void *)(iph + 1) > data_end ||
	    eth->h_proto != bpf_htons(ETH_P_IP) || iph->ihl != 5)
		goto out;
	udph = (void *)(iph + 1);
	if (iph->protocol == IPPROTO_UDP && (void *)(udph + 1) <= data_end &&
	    udph->dest == bpf_htons(cfg.port)) {
		action = cfg.action_hit;
		key = 1;
	}
	if (action == XDP_PASS && data_end - data > tx_threshold) {
		swap_mac(eth);
		action = XDP_TX;
	}
out:
	st = bpf_map_lookup_elem(&cfg_stats, &key);
	if (st) {
		st->packets++;
		if (count_bytes)
			st->bytes += data_end - data;
		if (action == XDP_DROP)
			st->marked += cfg.mark;
	}
	return action;
}

char _license[] SEC("license") = "GPL";
