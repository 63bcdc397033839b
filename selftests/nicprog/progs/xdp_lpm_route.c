// SPDX-License-Identifier: GPL-2.0
/*
 * A routing table in an LPM_TRIE as samples/bpf's xdp_router_ipv4 and
 * Cilium's CIDR prefilter keep one: the IPv4 destination looked up with a
 * /32 key, the longest matching prefix's entry deciding the verdict and
 * counting the frame. Prefixes nest (10/8, 10.1/16, 10.1.2/24, hosts), so
 * the match has to be the longest, not any.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

struct lpm_v4_key {
	__u32 prefixlen;
	__u8 addr[4];
};

struct route {
	__u64 packets;
	__u64 bytes;
	__u32 action;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__type(key, struct lpm_v4_key);
	__type(value, struct route);
	__uint(max_entries, 64);
	__uint(map_flags, BPF_F_NO_PREALLOC);
} routes SEC(".maps");

SEC("xdp")
int xdp_lpm_route(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct lpm_v4_key key;
	struct iphdr *iph;
	struct route *r;
	__u16 h_proto;
	__u64 nh_off;

	nh_off = sizeof(*eth);
	if (data + nh_off > data_end)
		return XDP_DROP;
	h_proto = eth->h_proto;
	if (h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = data + nh_off;
	if ((void *)(iph + 1) > data_end)
		return XDP_DROP;
	key.prefixlen = 32;
	__builtin_memcpy(key.addr, &iph->daddr, sizeof(key.addr));
	r = bpf_map_lookup_elem(&routes, &key);
	if (!r)
		return XDP_PASS;
	__sync_fetch_and_add(&r->packets, 1);
	__sync_fetch_and_add(&r->bytes, data_end - data);
	return r->action;
}

char _license[] SEC("license") = "GPL";
