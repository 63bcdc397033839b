// SPDX-License-Identifier: GPL-2.0
/*
 * acl - a stateless access list in the style of xdp-tutorial's parsing
 * lessons (libxdp's parsing_helpers.h): a header cursor walks Ethernet, up to two VLAN tags, IPv4 or
 * IPv6 and TCP/UDP; a HASH keyed by (protocol, destination port) says
 * drop or pass; an ARRAY counts frames and bytes per action.
 *
 * Held out from the predictor (bpf/heldout/README).
 */
#include <linux/bpf.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define VLAN_MAX_DEPTH 2
#include <xdp/parsing_helpers.h>
#include "parsing_min.h"

struct acl_key {
	__u8 proto;
	__u8 pad;
	__be16 port;
};

struct datarec {
	__u64 packets;
	__u64 bytes;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct acl_key);
	__type(value, __u32);		/* an XDP action */
	__uint(max_entries, 1024);
} acl SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct datarec);
	__uint(max_entries, XDP_REDIRECT + 1);
} acl_stats SEC(".maps");

static __always_inline int parse_ip6(struct hdr_cursor *nh, void *data_end)
{
	struct ipv6hdr *ip6h = nh->pos;

	if ((void *)(ip6h + 1) > data_end)
		return -1;
	nh->pos = ip6h + 1;
	return ip6h->nexthdr;
}

static __always_inline __u32 record(struct xdp_md *ctx, __u32 action)
{
	struct datarec *rec = bpf_map_lookup_elem(&acl_stats, &action);

	if (rec) {
		__sync_fetch_and_add(&rec->packets, 1);
		__sync_fetch_and_add(&rec->bytes, ctx->data_end - ctx->data);
	}
	return action;
}

SEC("xdp")
int acl_prog(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct hdr_cursor nh = { .pos = data };
	struct acl_key key = {};
	int eth_type, ip_type;
	struct ethhdr *eth;
	struct iphdr *iph;
	__u32 *action;

	eth_type = parse_ethhdr(&nh, data_end, &eth);
	if (eth_type == bpf_htons(ETH_P_IP))
		ip_type = parse_iphdr_min(&nh, data_end, &iph);
	else if (eth_type == bpf_htons(ETH_P_IPV6))
		ip_type = parse_ip6(&nh, data_end);
	else
		return record(ctx, XDP_PASS);
	if (ip_type == IPPROTO_TCP) {
		struct tcphdr *th = nh.pos;

		if ((void *)(th + 1) > data_end)
			return record(ctx, XDP_DROP);
		key.port = th->dest;
	} else if (ip_type == IPPROTO_UDP) {
		struct udphdr *uh = nh.pos;

		if ((void *)(uh + 1) > data_end)
			return record(ctx, XDP_DROP);
		key.port = uh->dest;
	} else if (ip_type < 0) {
		return record(ctx, XDP_DROP);
	}
	key.proto = ip_type;
	action = bpf_map_lookup_elem(&acl, &key);
	if (action && *action <= XDP_REDIRECT)
		return record(ctx, *action);
	return record(ctx, XDP_PASS);
}

char _license[] SEC("license") = "GPL";
