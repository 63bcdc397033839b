// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause
/*
 * esp - ESP-like encapsulation of IPv4 UDP traffic towards protected
 * destinations, in the manner of ESP in UDP (RFC 3948).
 *
 * For a destination with a security association the UDP payload is
 * encrypted in place with ChaCha20 (crypto engine when the NIC has one;
 * nonce: SPI and sequence number, counter from 1), an 8-byte header with
 * the SPI and the sequence number is inserted after the UDP header, the
 * UDP destination port becomes 4500, lengths grow by 8, the IP checksum
 * is computed anew (checksum engine) and the UDP checksum cleared; the
 * frame goes back out. Frames to port 4500 (already encapsulated) and
 * other traffic pass.
 *
 * Table "sas" (HASH): destination address -> SPI and key. Read-only and
 * keyed by header bytes: a MAT stage can serve it.
 * Table "seqs" (HASH): destination address -> last sequence number. Keyed
 * by the same header bytes at every access: sharded.
 */
#define NICPROG_USE_CSUM
#define NICPROG_USE_CHACHA20
#include "parse.h"

#define ESP_PORT	4500
#define ESP_HLEN	8
#define ESP_MAX_PAYLOAD	1400
#define ESP_HDRS	(PKT4_L4_OFF + 8)	/* Ethernet, IP, UDP */

struct sa {
	__u32 spi;
	__u32 pad;
	struct nicprog_chacha20_key key;
};

NICPROG_TABLE(sas, BPF_MAP_TYPE_HASH, __be32, struct sa, 64);
NICPROG_TABLE(seqs, BPF_MAP_TYPE_HASH, __be32, __u32, 64);

SEC("xdp")
int esp(struct xdp_md *ctx)
{
	struct nicprog_chacha20_key k;
	__u32 len, seq, spi, *seqp, i;
	struct udphdr *udp;
	struct sa *sa;
	struct pkt4 p;
	__be32 daddr;
	__u8 *d;
	__u64 s;

	if (parse4(ctx, &p) || p.ip->protocol != IPPROTO_UDP)
		return XDP_PASS;
	udp = (void *)p.ports;
	if ((void *)(udp + 1) > p.end || udp->dest == bpf_htons(ESP_PORT))
		return XDP_PASS;
	len = bpf_ntohs(udp->len) - sizeof(*udp);
	if (len > ESP_MAX_PAYLOAD || (void *)(udp + 1) + len > p.end)
		return XDP_PASS;
	daddr = p.ip->daddr;
	sa = bpf_map_lookup_elem(&sas, &daddr);
	if (!sa)
		return XDP_PASS;
	seqp = bpf_map_lookup_elem(&seqs, &daddr);
	if (!seqp)
		return XDP_PASS;
	seq = __sync_fetch_and_add(seqp, 1) + 1;
	spi = sa->spi;
	__builtin_memcpy(&k, &sa->key, sizeof(k));
	k.counter = 1;
	k.nonce[0] = spi;
	k.nonce[1] = seq;
	k.nonce[2] = 0;
	if (nicprog_accel_chacha20(ctx, ESP_HDRS, len, &k,
				   NICPROG_AFN(NICPROG_AFN_CHACHA20)))
		return XDP_PASS;

	/* room for the ESP header, then the headers move to the front */
	if (bpf_xdp_adjust_head(ctx, -ESP_HLEN))
		return XDP_DROP;
	d = NICPROG_DATA(ctx);
	if ((void *)(d + ESP_HDRS + ESP_HLEN) > NICPROG_DATA_END(ctx))
		return XDP_DROP;
#pragma unroll
	for (i = 0; i < ESP_HDRS; i++)
		d[i] = d[i + ESP_HLEN];
	*(__be32 *)(d + ESP_HDRS) = bpf_htonl(spi);
	*(__be32 *)(d + ESP_HDRS + 4) = bpf_htonl(seq);
	p.ip = (void *)(d + PKT4_IP_OFF);
	udp = (void *)(d + PKT4_L4_OFF);
	udp->dest = bpf_htons(ESP_PORT);
	udp->len = bpf_htons(bpf_ntohs(udp->len) + ESP_HLEN);
	udp->check = 0;
	p.ip->tot_len = bpf_htons(bpf_ntohs(p.ip->tot_len) + ESP_HLEN);
	p.ip->check = 0;
	s = nicprog_accel_csum(ctx, PKT4_IP_OFF, sizeof(struct iphdr), 0,
			       NICPROG_AFN(NICPROG_AFN_CSUM));
	d = NICPROG_DATA(ctx);
	if (s == NICPROG_ACCEL_ERR ||
	    (void *)(d + PKT4_L4_OFF) > NICPROG_DATA_END(ctx))
		return XDP_ABORTED;
	((struct iphdr *)(d + PKT4_IP_OFF))->check = bpf_htons(~s & 0xffff);
	return XDP_TX;
}

char LICENSE[] SEC("license") = "GPL";
