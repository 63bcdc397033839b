// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause
/*
 * router - IPv4 forwarding with longest-prefix match built from a HASH
 * table: one probe per prefix length, longest first. A matching route
 * rewrites the MAC addresses, decrements the TTL with an incremental
 * checksum update and sends the frame out of the route's port (XDP_TX when
 * that is the port it came in on, bpf_redirect() otherwise). Frames it
 * cannot route (no route, TTL expiring, not IPv4) go to the host, which
 * answers with ICMP or handles them.
 *
 * Table "routes" (HASH): {prefix length, network address} -> next hop.
 * Table "stats" (ARRAY): [0] forwarded, [1] no route, [2] TTL expired,
 * [3] not IPv4.
 */
#include "parse.h"

struct route_key {
	__u32 prefixlen;
	__be32 addr;		/* masked to prefixlen */
};

struct nexthop {
	__u32 ifindex;
	__u8 dmac[ETH_ALEN];
	__u8 smac[ETH_ALEN];
};

NICPROG_TABLE(routes, BPF_MAP_TYPE_HASH, struct route_key, struct nexthop,
	      4096);
NICPROG_TABLE(stats, BPF_MAP_TYPE_ARRAY, __u32, __u64, 4);

static __always_inline int count(__u32 idx, int action)
{
	__u64 *n = bpf_map_lookup_elem(&stats, &idx);

	if (n)
		__sync_fetch_and_add(n, 1);
	return action;
}

SEC("xdp")
int router(struct xdp_md *ctx)
{
	struct nexthop *nh = NULL;
	struct route_key key;
	__be16 old, new;
	struct pkt p;
	__u32 dst;
	int plen;

	if (parse(ctx, &p) || !p.ip4)
		return count(3, XDP_PASS);
	if (p.ip4->ttl <= 1)
		return count(2, XDP_PASS);

	dst = bpf_ntohl(p.ip4->daddr);
	for (plen = 32; plen >= 0; plen--) {
		key.prefixlen = plen;
		key.addr = bpf_htonl(plen ? dst & (~0U << (32 - plen)) : 0);
		nh = bpf_map_lookup_elem(&routes, &key);
		if (nh)
			break;
	}
	if (!nh)
		return count(1, XDP_PASS);

	/* TTL and protocol share a 16-bit word of the header checksum. */
	old = *(__be16 *)&p.ip4->ttl;
	p.ip4->ttl--;
	new = *(__be16 *)&p.ip4->ttl;
	csum_replace2(&p.ip4->check, old, new);
	__builtin_memcpy(p.eth->h_dest, nh->dmac, ETH_ALEN);
	__builtin_memcpy(p.eth->h_source, nh->smac, ETH_ALEN);
	count(0, 0);
	if (nh->ifindex == ctx->ingress_ifindex)
		return XDP_TX;
	return bpf_redirect(nh->ifindex, 0);
}

char LICENSE[] SEC("license") = "GPL";
