// SPDX-License-Identifier: GPL-2.0
/*
 * udp_portmap - a UDP port translator in the manner of the XDP port
 * forwarding examples that do not use bpf_csum_diff(): a datagram to a
 * mapped port (a HASH of destination port to new port) has its port
 * rewritten and its checksum computed anew over the whole datagram,
 * pseudo-header included, and filled in where none was sent (as a
 * translator to IPv6 must) -- by a ones' complement loop in a global
 * function that only reads the frame, which a NIC may give to its
 * checksum engine -- and it goes back out (XDP_TX, addresses swapped, as
 * a reflector in front of a service would). Unmapped ports and
 * everything else pass; per-CPU counts.
 *
 * Held out from the predictor (bpf/heldout/README, set 8).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define MAX_SUM_LEN	2048

enum { PM_OTHER, PM_UNMAPPED, PM_MAPPED, PM_FILLED, PM_MAX };

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __be16);
	__type(value, __be16);
	__uint(max_entries, 256);
} port_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, PM_MAX);
} pm_stats SEC(".maps");

/* ones' complement sum of [off, off + len) from @seed, folded; ~0U if out */
__noinline __u32 csum_region(struct xdp_md *ctx, __u64 off, __u64 len,
			     __u32 seed)
{
	__u8 *data = (void *)(long)ctx->data;
	__u8 *data_end = (void *)(long)ctx->data_end;
	__u64 acc = seed;
	__u32 i;
	__u8 *p;

	asm volatile("" : "+r"(off), "+r"(len));
	if (off > MAX_SUM_LEN || len > MAX_SUM_LEN ||
	    off + len > (__u64)(data_end - data))
		return ~0U;
	p = data + off;
	for (i = 0; i < MAX_SUM_LEN / 2; i++) {
		if (i * 2 + 2 > len)
			break;
		asm volatile("" : "+r"(p));
		if (p + 2 > data_end)
			return ~0U;
		acc += ((__u32)p[0] << 8) | p[1];
		p += 2;
	}
	if (len & 1) {
		asm volatile("" : "+r"(p));
		if (p + 1 > data_end)
			return ~0U;
		acc += (__u32)p[0] << 8;
	}
	acc = (acc & 0xffffffff) + (acc >> 32);
	acc = (acc & 0xffff) + (acc >> 16);
	acc = (acc & 0xffff) + (acc >> 16);
	acc = (acc & 0xffff) + (acc >> 16);
	return (__u32)acc;
}

static __always_inline int count(__u32 what, int action)
{
	__u64 *c = bpf_map_lookup_elem(&pm_stats, &what);

	if (c)
		*c += 1;
	return action;
}

SEC("xdp")
int xdp_udp_portmap(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	__u8 mac[ETH_ALEN];
	struct udphdr *uh;
	struct iphdr *iph;
	__u32 seed, sum, l4off, ulen;
	__be16 *to;
	__be32 addr;
	int fill;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return count(PM_OTHER, XDP_PASS);
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end || iph->ihl != 5 ||
	    iph->protocol != IPPROTO_UDP || (iph->frag_off & bpf_htons(0x3fff)))
		return count(PM_OTHER, XDP_PASS);
	uh = (void *)(iph + 1);
	if ((void *)(uh + 1) > data_end)
		return count(PM_OTHER, XDP_PASS);
	to = bpf_map_lookup_elem(&port_map, &uh->dest);
	if (!to)
		return count(PM_UNMAPPED, XDP_PASS);

	ulen = bpf_ntohs(uh->len);
	l4off = sizeof(*eth) + sizeof(*iph);
	if (ulen > MAX_SUM_LEN)
		return XDP_DROP;
	/* else clang merges the two tests into one on a copy of ulen */
	asm volatile("" : "+r"(ulen));
	if (ulen < sizeof(*uh) || data + l4off + ulen > data_end)
		return XDP_DROP;

	/* the reply: addresses and ports swapped, the mapped port its source */
	__builtin_memcpy(mac, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, mac, ETH_ALEN);
	addr = iph->saddr;
	iph->saddr = iph->daddr;
	iph->daddr = addr;
	uh->dest = uh->source;
	uh->source = *to;
	fill = !uh->check;
	uh->check = 0;
	seed = (bpf_ntohl(iph->saddr) >> 16) + (bpf_ntohl(iph->saddr) & 0xffff) +
	       (bpf_ntohl(iph->daddr) >> 16) + (bpf_ntohl(iph->daddr) & 0xffff) +
	       IPPROTO_UDP + ulen;
	sum = csum_region(ctx, l4off, ulen, seed);
	if (sum == ~0U)
		return XDP_DROP;
	sum = ~sum & 0xffff;
	uh->check = sum ? bpf_htons(sum) : 0xffff;
	return count(fill ? PM_FILLED : PM_MAPPED, XDP_TX);
}

char _license[] SEC("license") = "GPL";
