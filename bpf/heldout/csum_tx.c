// SPDX-License-Identifier: GPL-2.0
/*
 * csum_tx - a reflector that fills in transport checksums, as software
 * checksum offload does for a sender that leaves them to the NIC: an
 * IPv4 TCP or UDP frame has its L4 checksum computed over the pseudo
 * header and the whole segment, its TTL decremented (IP checksum updated
 * incrementally, RFC 1624), its MAC addresses swapped, and goes back out.
 * An ICMP frame whose checksum does not verify is dropped; anything else
 * passes. Frames per IP protocol are counted.
 *
 * inet_sum() is a plain Internet checksum over frame bytes, the shape an
 * offloader may recognise and give to a checksum engine.
 *
 * Held out from the predictor (bpf/heldout/README).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define MAX_SEG 1500

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 256);
} proto_count SEC(".maps");

__noinline __u32 inet_sum(struct xdp_md *ctx, __u64 off, __u64 len,
			  __u32 seed)
{
	__u8 *data = (void *)(long)ctx->data;
	__u8 *data_end = (void *)(long)ctx->data_end;
	__u64 acc = seed;
	__u8 *p, *w;
	__u32 n;

	asm volatile("" : "+r"(off), "+r"(len));
	if (off > 2048 || len > MAX_SEG || off + len > (__u64)(data_end - data))
		return 0xffffffff;
	p = data + off;
	for (n = 0; n < MAX_SEG / 2; n++) {
		if (2 * n + 2 > len)
			break;
		w = p + 2 * n;
		if (w + 2 > data_end)
			return 0xffffffff;
		acc += ((__u32)w[0] << 8) + w[1];
	}
	if (len & 1) {
		w = p + 2 * n;
		if (w + 1 > data_end)
			return 0xffffffff;
		acc += (__u32)w[0] << 8;
	}
	while (acc >> 16)
		acc = (acc & 0xffff) + (acc >> 16);
	return acc;
}

static __always_inline __u16 fold(__u32 s)
{
	s = (s & 0xffff) + (s >> 16);
	return (s & 0xffff) + (s >> 16);
}

SEC("xdp")
int csum_tx(struct xdp_md *ctx)
{
	__u8 *data = (void *)(long)ctx->data;
	__u8 *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = (void *)data;
	struct iphdr *iph = (void *)(eth + 1);
	__u8 mac[ETH_ALEN];
	__u32 key, seg, off, ck, sum;
	__u16 old, new;
	__u64 *cnt;

	if ((void *)(iph + 1) > (void *)data_end ||
	    eth->h_proto != bpf_htons(ETH_P_IP) || iph->ihl != 5)
		return XDP_PASS;
	key = iph->protocol;
	cnt = bpf_map_lookup_elem(&proto_count, &key);
	if (cnt)
		__sync_fetch_and_add(cnt, 1);
	seg = bpf_ntohs(iph->tot_len);
	if (seg < sizeof(*iph) || seg > MAX_SEG)
		return XDP_PASS;
	seg -= sizeof(*iph);
	off = sizeof(*eth) + sizeof(*iph);
	if (key == IPPROTO_ICMP)
		return inet_sum(ctx, off, seg, 0) == 0xffff ? XDP_PASS : XDP_DROP;
	if (key == IPPROTO_TCP)
		ck = off + 16;
	else if (key == IPPROTO_UDP)
		ck = off + 6;
	else
		return XDP_PASS;
	if (seg < ck - off + 2)
		return XDP_PASS;

	/* zero the field, then sum the pseudo header and the segment */
	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	if (data + ck + 2 > data_end)
		return XDP_PASS;
	*(__u16 *)(data + ck) = 0;
	iph = (void *)(data + sizeof(*eth));
	sum = (bpf_ntohl(iph->saddr) >> 16) + (bpf_ntohl(iph->saddr) & 0xffff) +
	      (bpf_ntohl(iph->daddr) >> 16) + (bpf_ntohl(iph->daddr) & 0xffff) +
	      key + seg;
	sum = inet_sum(ctx, off, seg, fold(sum));
	if (sum == 0xffffffff)
		return XDP_ABORTED;
	sum = ~sum & 0xffff;
	if (key == IPPROTO_UDP && !sum)
		sum = 0xffff;

	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	eth = (void *)data;
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > (void *)data_end || data + ck + 2 > data_end)
		return XDP_ABORTED;
	*(__be16 *)(data + ck) = bpf_htons(sum);
	if (iph->ttl <= 1)
		return XDP_DROP;
	/* RFC 1624: HC' = ~(~HC + ~m + m') over the TTL/protocol word */
	old = bpf_ntohs(*(__be16 *)&iph->ttl);
	iph->ttl--;
	new = bpf_ntohs(*(__be16 *)&iph->ttl);
	iph->check = bpf_htons(~fold((__u16)~bpf_ntohs(iph->check) +
				     (__u16)~old + new) & 0xffff);
	__builtin_memcpy(mac, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, mac, ETH_ALEN);
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
