/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * Header parsing shared by the example NFs: Ethernet with at most one VLAN
 * tag, IPv4 (with options) or IPv6 (no extension headers), TCP/UDP ports.
 * Every read is bounds-checked, so truncated and malformed frames parse as
 * far as they are valid and no further.
 */
#ifndef __NICPROG_EXAMPLES_PARSE_H
#define __NICPROG_EXAMPLES_PARSE_H

#include "../flow.h"
#include "../nicprog.h"
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>
#include <linux/udp.h>

struct vlan_hdr {
	__be16 tci;
	__be16 proto;
};

struct pkt {
	void *data;
	void *end;
	struct ethhdr *eth;
	__u16 proto;		/* EtherType after any VLAN tag, host order */
	struct iphdr *ip4;	/* when proto is IPv4 and the header fits */
	struct ipv6hdr *ip6;	/* when proto is IPv6 and the header fits */
	__u8 l4proto;		/* IPPROTO_*, 0 if unknown */
	void *l4;		/* start of the L4 header, if it fits */
	__u16 sport, dport;	/* host order, when TCP/UDP ports fit */
	int has_ports;
};

static __always_inline int parse(struct xdp_md *ctx, struct pkt *p)
{
	void *cur;

	__builtin_memset(p, 0, sizeof(*p));
	p->data = NICPROG_DATA(ctx);
	p->end = NICPROG_DATA_END(ctx);
	p->eth = p->data;
	if ((void *)(p->eth + 1) > p->end)
		return -1;
	p->proto = bpf_ntohs(p->eth->h_proto);
	cur = p->eth + 1;
	if (p->proto == ETH_P_8021Q || p->proto == ETH_P_8021AD) {
		struct vlan_hdr *vh = cur;

		if ((void *)(vh + 1) > p->end)
			return -1;
		p->proto = bpf_ntohs(vh->proto);
		cur = vh + 1;
	}
	if (p->proto == ETH_P_IP) {
		struct iphdr *ip = cur;
		__u32 ihl;

		if ((void *)(ip + 1) > p->end)
			return 0;
		ihl = ip->ihl * 4;
		if (ip->version != 4 || ihl < sizeof(*ip) || cur + ihl > p->end)
			return 0;
		p->ip4 = ip;
		/* Only first fragments carry the L4 header. */
		if (ip->frag_off & bpf_htons(0x1fff))
			return 0;
		p->l4proto = ip->protocol;
		cur += ihl;
	} else if (p->proto == ETH_P_IPV6) {
		struct ipv6hdr *ip6 = cur;

		if ((void *)(ip6 + 1) > p->end || ip6->version != 6)
			return 0;
		p->ip6 = ip6;
		p->l4proto = ip6->nexthdr;
		cur = ip6 + 1;
	} else {
		return 0;
	}
	p->l4 = cur;
	if (p->l4proto == IPPROTO_TCP || p->l4proto == IPPROTO_UDP) {
		__be16 *ports = cur;

		if ((void *)(ports + 2) > p->end)
			return 0;
		p->sport = bpf_ntohs(ports[0]);
		p->dport = bpf_ntohs(ports[1]);
		p->has_ports = 1;
	}
	return 0;
}

/* RFC 1624 incremental update of a 16-bit one's complement checksum. */
static __always_inline void csum_replace2(__sum16 *sum, __be16 from, __be16 to)
{
	__u32 s = (__u16)~*sum + (__u16)~from + (__u16)to;

	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	*sum = ~s;
}

/* RFC 1624 update of a checksum for a 32-bit field changed in place. */
static __always_inline void csum_replace4(__sum16 *sum, __be32 from, __be32 to)
{
	csum_replace2(sum, (__be16)(from >> 16), (__be16)(to >> 16));
	csum_replace2(sum, (__be16)from, (__be16)to);
}

/*
 * Fixed-layout IPv4: untagged Ethernet, a 20-byte IPv4 header, not a
 * fragment, TCP or UDP ports present. NFs that shard a table by header
 * bytes parse this way: the bytes sit at fixed offsets, so the offloader
 * sees the key copy them (other frames the NF lets pass).
 */
struct pkt4 {
	struct ethhdr *eth;
	struct iphdr *ip;
	__be16 *ports;		/* source, destination */
	void *end;
};

#define PKT4_IP_OFF	14
#define PKT4_L4_OFF	34

static __always_inline int parse4(struct xdp_md *ctx, struct pkt4 *p)
{
	p->eth = NICPROG_DATA(ctx);
	p->end = NICPROG_DATA_END(ctx);
	p->ip = (void *)(p->eth + 1);
	p->ports = (void *)(p->ip + 1);
	if ((void *)(p->ports + 2) > p->end ||
	    p->eth->h_proto != bpf_htons(ETH_P_IP) || p->ip->version != 4 ||
	    p->ip->ihl != 5 || (p->ip->frag_off & bpf_htons(0x3fff)))
		return -1;
	if (p->ip->protocol != IPPROTO_TCP && p->ip->protocol != IPPROTO_UDP)
		return -1;
	return 0;
}

static __always_inline void tuple4(const struct pkt4 *p, struct tuple4 *t)
{
	__builtin_memset(t, 0, sizeof(*t));
	t->saddr = p->ip->saddr;
	t->daddr = p->ip->daddr;
	t->sport = p->ports[0];
	t->dport = p->ports[1];
	t->proto = p->ip->protocol;
}

#endif /* __NICPROG_EXAMPLES_PARSE_H */
