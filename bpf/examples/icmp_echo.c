// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause
/*
 * icmp_echo - answers IPv4 ICMP echo requests on the NIC (XDP_TX): swaps
 * MAC and IP addresses, turns the request into a reply and updates the
 * ICMP checksum incrementally. Everything else goes to the host.
 *
 * Table "stats" (ARRAY): [0] echo requests answered.
 */
#include "parse.h"

/* linux/icmp.h pulls in libc headers, so the few fields needed: */
#define ICMP_ECHOREPLY	0
#define ICMP_ECHO	8

struct icmphdr {
	__u8 type;
	__u8 code;
	__sum16 checksum;
	__be16 id;
	__be16 sequence;
};

NICPROG_TABLE(stats, BPF_MAP_TYPE_ARRAY, __u32, __u64, 1);

SEC("xdp")
int icmp_echo(struct xdp_md *ctx)
{
	unsigned char mac[ETH_ALEN];
	struct icmphdr *icmp;
	__u32 zero = 0;
	__be32 addr;
	__u64 *n;
	struct pkt p;

	if (parse(ctx, &p) || !p.ip4 || p.l4proto != IPPROTO_ICMP)
		return XDP_PASS;
	icmp = p.l4;
	if ((void *)(icmp + 1) > p.end || icmp->type != ICMP_ECHO ||
	    icmp->code != 0)
		return XDP_PASS;

	__builtin_memcpy(mac, p.eth->h_source, ETH_ALEN);
	__builtin_memcpy(p.eth->h_source, p.eth->h_dest, ETH_ALEN);
	__builtin_memcpy(p.eth->h_dest, mac, ETH_ALEN);
	addr = p.ip4->saddr;
	p.ip4->saddr = p.ip4->daddr;
	p.ip4->daddr = addr;	/* the IP checksum is unchanged by a swap */
	icmp->type = ICMP_ECHOREPLY;
	csum_replace2(&icmp->checksum, bpf_htons(ICMP_ECHO << 8),
		      bpf_htons(ICMP_ECHOREPLY << 8));

	n = bpf_map_lookup_elem(&stats, &zero);
	if (n)
		__sync_fetch_and_add(n, 1);
	return XDP_TX;
}

char LICENSE[] SEC("license") = "GPL";
