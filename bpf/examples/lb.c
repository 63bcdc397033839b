// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause
/*
 * lb - Maglev-style layer-4 load balancer for IPv4 TCP and UDP.
 *
 * A new flow hashes its addresses and ports (jhash, on the hash engine when
 * the NIC has one) into a lookup ring whose slots name backends; the
 * choice is remembered per flow, so a flow keeps its backend when the ring
 * changes. The frame goes back out with the backend's MAC and address,
 * checksums updated. Other frames pass.
 *
 * Table "ring" (ARRAY, LB_RING slots): slot -> backend index. Read-only
 * from the datapath: replicated.
 * Table "backends" (ARRAY): index -> MAC and address. Read-only.
 * Table "conns" (HASH): 5-tuple -> backend index. Every access is keyed by
 * the same header bytes: sharded, packets steered by those bytes.
 */
#define NICPROG_USE_JHASH
#include "parse.h"

#define LB_RING		251	/* prime, as Maglev wants */

struct backend {
	__u8 mac[ETH_ALEN];
	__u16 pad;
	__be32 addr;
};

NICPROG_TABLE(ring, BPF_MAP_TYPE_ARRAY, __u32, __u32, LB_RING);
NICPROG_TABLE(backends, BPF_MAP_TYPE_ARRAY, __u32, struct backend, 16);
NICPROG_TABLE(conns, BPF_MAP_TYPE_HASH, struct tuple4, __u32, 4096);

SEC("xdp")
int lb(struct xdp_md *ctx)
{
	struct backend *be;
	struct tuple4 t;
	struct pkt4 p;
	__u32 idx, slot, *v;
	__u64 h;
	__sum16 *l4sum;

	if (parse4(ctx, &p))
		return XDP_PASS;
	tuple4(&p, &t);
	v = bpf_map_lookup_elem(&conns, &t);
	if (v) {
		idx = *v;
	} else {
		/* addresses and ports: bytes 26..37 */
		h = nicprog_accel_jhash(ctx, PKT4_IP_OFF + 12, 12, 0,
					NICPROG_AFN(NICPROG_AFN_JHASH));
		if (h == NICPROG_ACCEL_ERR)
			return XDP_PASS;
		slot = (__u32)h % LB_RING;
		v = bpf_map_lookup_elem(&ring, &slot);
		if (!v)
			return XDP_PASS;
		idx = *v;
		bpf_map_update_elem(&conns, &t, &idx, BPF_ANY);
	}
	be = bpf_map_lookup_elem(&backends, &idx);
	if (!be)
		return XDP_DROP;

	if (parse4(ctx, &p))	/* pointers again, after the calls */
		return XDP_PASS;
	if (p.ip->protocol == IPPROTO_TCP) {
		if ((void *)p.ports + 18 > p.end)
			return XDP_PASS;
		l4sum = (void *)p.ports + 16;
	} else {
		if ((void *)p.ports + 8 > p.end)
			return XDP_PASS;
		l4sum = (void *)p.ports + 6;
	}
	if (p.ip->protocol == IPPROTO_TCP || *l4sum)
		csum_replace4(l4sum, p.ip->daddr, be->addr);
	csum_replace4(&p.ip->check, p.ip->daddr, be->addr);
	p.ip->daddr = be->addr;
	__builtin_memcpy(p.eth->h_source, p.eth->h_dest, ETH_ALEN);
	__builtin_memcpy(p.eth->h_dest, be->mac, ETH_ALEN);
	return XDP_TX;
}

char LICENSE[] SEC("license") = "GPL";
