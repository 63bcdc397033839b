// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause
/*
 * nat - source NAT of IPv4 TCP and UDP flows to one external address.
 *
 * A new flow gets an external port from a hash of its addresses and ports
 * (jhash); the choice is kept per flow. The frame goes back out with the
 * external address and port, its IP and TCP/UDP checksums computed anew
 * over the whole header and segment (checksum engine when the NIC has
 * one). Frames whose lengths do not add up, and other traffic, pass.
 *
 * Table "nat_conns" (HASH): 5-tuple as sent -> external port. Keyed by
 * the same header bytes everywhere, before they are rewritten: sharded.
 * Table "nat_cfg" (ARRAY): [0] external address (network order), 0
 * disables the NAT.
 */
#define NICPROG_USE_CSUM
#define NICPROG_USE_JHASH
#include "parse.h"

#define NAT_PORT_MIN	1024
#define NAT_PORTS	64000

NICPROG_TABLE(nat_conns, BPF_MAP_TYPE_HASH, struct tuple4, __u32, 4096);
NICPROG_TABLE(nat_cfg, BPF_MAP_TYPE_ARRAY, __u32, __be32, 1);

SEC("xdp")
int nat(struct xdp_md *ctx)
{
	__u32 zero = 0, port, l4len, seed, *v;
	__be32 *ext, daddr;
	struct tuple4 t;
	struct pkt4 p;
	__u16 sumoff;
	__u64 h, s;
	__u8 proto;

	if (parse4(ctx, &p))
		return XDP_PASS;
	ext = bpf_map_lookup_elem(&nat_cfg, &zero);
	if (!ext || !*ext)
		return XDP_PASS;
	l4len = bpf_ntohs(p.ip->tot_len) - sizeof(struct iphdr);
	proto = p.ip->protocol;
	sumoff = proto == IPPROTO_TCP ? 16 : 6;
	if (l4len > 4096 || l4len < sumoff + 2u ||
	    (void *)p.ports + l4len > p.end)
		return XDP_PASS;
	tuple4(&p, &t);
	v = bpf_map_lookup_elem(&nat_conns, &t);
	if (v) {
		port = *v;
	} else {
		h = nicprog_accel_jhash(ctx, PKT4_IP_OFF + 12, 12, 0,
					NICPROG_AFN(NICPROG_AFN_JHASH));
		if (h == NICPROG_ACCEL_ERR)
			return XDP_PASS;
		port = NAT_PORT_MIN + (__u32)h % NAT_PORTS;
		bpf_map_update_elem(&nat_conns, &t, &port, BPF_ANY);
	}

	if (parse4(ctx, &p) || (void *)p.ports + sumoff + 2 > p.end)
		return XDP_PASS;
	p.ip->saddr = *ext;
	p.ports[0] = bpf_htons(port);
	p.ip->check = 0;
	s = nicprog_accel_csum(ctx, PKT4_IP_OFF, sizeof(struct iphdr), 0,
			       NICPROG_AFN(NICPROG_AFN_CSUM));
	if (s == NICPROG_ACCEL_ERR || parse4(ctx, &p) ||
	    (void *)p.ports + sumoff + 2 > p.end)
		return XDP_ABORTED;
	p.ip->check = bpf_htons(~s & 0xffff);
	if (proto == IPPROTO_UDP && !*(__u16 *)((void *)p.ports + sumoff))
		return XDP_TX;		/* UDP without a checksum */
	*(__u16 *)((void *)p.ports + sumoff) = 0;
	daddr = p.ip->daddr;
	seed = (bpf_ntohl(*ext) >> 16) + (bpf_ntohl(*ext) & 0xffff) +
	       (bpf_ntohl(daddr) >> 16) + (bpf_ntohl(daddr) & 0xffff) +
	       proto + l4len;
	s = nicprog_accel_csum(ctx, PKT4_L4_OFF, l4len, seed,
			       NICPROG_AFN(NICPROG_AFN_CSUM));
	if (s == NICPROG_ACCEL_ERR)
		return XDP_ABORTED;
	s = ~s & 0xffff;
	if (proto == IPPROTO_UDP && !s)
		s = 0xffff;
	if (parse4(ctx, &p) || (void *)p.ports + sumoff + 2 > p.end)
		return XDP_ABORTED;
	*(__u16 *)((void *)p.ports + sumoff) = bpf_htons(s);
	return XDP_TX;
}

char LICENSE[] SEC("license") = "GPL";
