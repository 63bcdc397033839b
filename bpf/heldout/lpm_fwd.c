// SPDX-License-Identifier: GPL-2.0
/*
 * lpm_fwd - forwards IPv4 as the kernel's xdp_fwd sample does, with its
 * own table instead of the FIB: the longest prefix of the destination (an
 * LPM_TRIE) names a next hop, an ARRAY holds each next hop's MAC
 * addresses; the TTL drops by one with the checksum updated in place
 * (ip_decrease_ttl()) and the frame goes back out (XDP_TX). A route to
 * next hop BLACKHOLE drops; no route, a TTL that would expire, options
 * or a next hop with no address leave the frame to the host's stack.
 *
 * Held out from the predictor (bpf/heldout/README).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "../flow.h"

#define BLACKHOLE	0xffffffff
#define MAX_NEXTHOPS	16

struct lpm_key {
	__u32 prefixlen;
	__be32 addr;
};

struct nexthop {
	unsigned char dmac[ETH_ALEN];
	unsigned char smac[ETH_ALEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__type(key, struct lpm_key);
	__type(value, __u32);
	__uint(max_entries, 1024);
	__uint(map_flags, BPF_F_NO_PREALLOC);
} routes SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct nexthop);
	__uint(max_entries, MAX_NEXTHOPS);
} nexthops SEC(".maps");

static __always_inline int ip_decrease_ttl(struct iphdr *iph)
{
	__u32 check = (__u32)iph->check;

	check += (__u32)bpf_htons(0x0100);
	iph->check = (__sum16)(check + (check >= 0xFFFF));
	return --iph->ttl;
}

SEC("xdp")
int xdp_lpm_fwd(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct lpm_key key;
	struct nexthop *nh;
	struct iphdr *iph;
	__u32 *idx, i;
	int verdict;

	iph = eth_ipv4(data, data_end, &verdict);
	if (!iph)
		return verdict;
	if (iph->ihl != 5 || iph->ttl <= 1)
		return XDP_PASS;
	key.prefixlen = 32;
	key.addr = iph->daddr;
	idx = bpf_map_lookup_elem(&routes, &key);
	if (!idx)
		return XDP_PASS;
	if (*idx == BLACKHOLE)
		return XDP_DROP;
	i = *idx;
	nh = bpf_map_lookup_elem(&nexthops, &i);
	if (!nh || !(nh->dmac[0] | nh->dmac[1] | nh->dmac[2] | nh->dmac[3] |
		     nh->dmac[4] | nh->dmac[5]))
		return XDP_PASS;
	ip_decrease_ttl(iph);
	__builtin_memcpy(eth->h_dest, nh->dmac, ETH_ALEN);
	__builtin_memcpy(eth->h_source, nh->smac, ETH_ALEN);
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
