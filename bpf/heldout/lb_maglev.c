// SPDX-License-Identifier: GPL-2.0
/*
 * lb_maglev - a layer-4 load balancer in the manner of Katran: a frame
 * to a virtual IP (HASH vips: address, port, protocol -> VIP number)
 * picks a backend from the VIP's consistent-hashing ring (ARRAY ring,
 * RING_SIZE slots per VIP) by a jhash of its source address and ports,
 * and is sent back out rewritten to the backend (ARRAY reals: address
 * and MAC), its IP checksum updated incrementally and its TCP checksum
 * likewise (a UDP checksum of 0 stays 0). Frames to no VIP pass.
 *
 * Held out from the predictor (bpf/heldout/README).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define RING_SIZE	61
#define MAX_VIPS	16
#define MAX_REALS	64

struct vip_key {
	__be32 addr;
	__be16 port;
	__u8 proto;
	__u8 pad;
};

struct real {
	__be32 addr;
	__u8 mac[ETH_ALEN];
	__u16 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct vip_key);
	__type(value, __u32);
	__uint(max_entries, MAX_VIPS);
} vips SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, MAX_VIPS * RING_SIZE);
} ring SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct real);
	__uint(max_entries, MAX_REALS);
} reals SEC(".maps");

/* Bob Jenkins' lookup3 final mix, as the kernel's jhash_3words() */
static __always_inline __u32 rol32(__u32 w, unsigned int s)
{
	return (w << s) | (w >> (32 - s));
}

static __always_inline __u32 jhash_3words(__u32 a, __u32 b, __u32 c,
					  __u32 initval)
{
	a += 0xdeadbeef + (3 << 2) + initval;
	b += 0xdeadbeef + (3 << 2) + initval;
	c += 0xdeadbeef + (3 << 2) + initval;
	c ^= b; c -= rol32(b, 14);
	a ^= c; a -= rol32(c, 11);
	b ^= a; b -= rol32(a, 25);
	c ^= b; c -= rol32(b, 16);
	a ^= c; a -= rol32(c, 4);
	b ^= a; b -= rol32(a, 14);
	c ^= b; c -= rol32(b, 24);
	return c;
}

/* RFC 1624 update of a 16-bit ones' complement sum for a 32-bit change */
static __always_inline __u16 csum_replace4(__u16 check, __be32 from, __be32 to)
{
	__u32 s = (__u16)~bpf_ntohs(check);

	s += (__u16)~(bpf_ntohl(from) >> 16) + (__u16)~(bpf_ntohl(from) & 0xffff);
	s += (bpf_ntohl(to) >> 16) + (bpf_ntohl(to) & 0xffff);
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return bpf_htons(~s & 0xffff);
}

SEC("xdp")
int lb_maglev(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph = data + sizeof(*eth);
	struct vip_key vk = {};
	__u32 *vip, *idx, slot;
	__be16 sport, *l4check = NULL;
	struct real *r;
	__be32 old;

	if ((void *)(iph + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	if (iph->ihl != 5 || iph->frag_off & bpf_htons(0x3fff))
		return XDP_PASS;
	if (iph->protocol == IPPROTO_TCP) {
		struct tcphdr *th = (void *)(iph + 1);

		if ((void *)(th + 1) > data_end)
			return XDP_PASS;
		sport = th->source;
		vk.port = th->dest;
		l4check = &th->check;
	} else if (iph->protocol == IPPROTO_UDP) {
		struct udphdr *uh = (void *)(iph + 1);

		if ((void *)(uh + 1) > data_end)
			return XDP_PASS;
		sport = uh->source;
		vk.port = uh->dest;
		if (uh->check)
			l4check = &uh->check;
	} else {
		return XDP_PASS;
	}
	vk.addr = iph->daddr;
	vk.proto = iph->protocol;
	vip = bpf_map_lookup_elem(&vips, &vk);
	if (!vip || *vip >= MAX_VIPS)
		return XDP_PASS;
	slot = jhash_3words(iph->saddr, ((__u32)sport << 16) | vk.port,
			    vk.proto, 0x4b617472) % RING_SIZE;
	slot += *vip * RING_SIZE;
	idx = bpf_map_lookup_elem(&ring, &slot);
	if (!idx)
		return XDP_PASS;
	r = bpf_map_lookup_elem(&reals, idx);
	if (!r || !r->addr)
		return XDP_PASS;
	old = iph->daddr;
	iph->daddr = r->addr;
	iph->check = csum_replace4(iph->check, old, r->addr);
	if (l4check)
		*l4check = csum_replace4(*l4check, old, r->addr);
	__builtin_memcpy(eth->h_source, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, r->mac, ETH_ALEN);
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
