// SPDX-License-Identifier: GPL-2.0
/*
 * Programmable RSS as offloaded programs do it (Netronome's
 * programmable_rss, and the examples that copy it): hash the flow's
 * addresses and ports, pick a host queue through an indirection table, and
 * write it to ctx->rx_queue_index -- a write the verifier allows only an
 * offloaded program -- counting the frames per queue with atomic adds.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define MAX_RSS_QUEUES	16

struct indirect_queue {
	__u32 queue_num;
	__u32 pad;
	__u64 packet_cnt;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct indirect_queue);
	__uint(max_entries, MAX_RSS_QUEUES);
} indirect_map SEC(".maps");

/* jhash_3words() as the kernel's linux/jhash.h and bitops.h write it */
#define JHASH_INITVAL		0xdeadbeef

static __always_inline __u32 rol32(__u32 word, unsigned int shift)
{
	return (word << (shift & 31)) | (word >> ((-shift) & 31));
}

#define __jhash_final(a, b, c)			\
{						\
	c ^= b; c -= rol32(b, 14);		\
	a ^= c; a -= rol32(c, 11);		\
	b ^= a; b -= rol32(a, 25);		\
	c ^= b; c -= rol32(b, 16);		\
	a ^= c; a -= rol32(c, 4);		\
	b ^= a; b -= rol32(a, 14);		\
	c ^= b; c -= rol32(b, 24);		\
}

static __always_inline __u32 __jhash_nwords(__u32 a, __u32 b, __u32 c,
					    __u32 initval)
{
	a += initval;
	b += initval;
	c += initval;

	__jhash_final(a, b, c);

	return c;
}

static __always_inline __u32 jhash_3words(__u32 a, __u32 b, __u32 c,
					  __u32 initval)
{
	return __jhash_nwords(a, b, c, initval + JHASH_INITVAL + (3 << 2));
}

SEC("xdp")
int rss_queue(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph = (void *)(eth + 1);
	struct udphdr *udph = (void *)(iph + 1);
	struct indirect_queue *dest_q;
	__u32 key = 0, ports = 0;

	if ((void *)(iph + 1) > data_end ||
	    eth->h_proto != bpf_htons(ETH_P_IP) || iph->ihl != 5)
		goto steer;
	if ((iph->protocol == IPPROTO_UDP || iph->protocol == IPPROTO_TCP) &&
	    (void *)(udph + 1) <= data_end)
		ports = (__u32)udph->source << 16 | udph->dest;
	key = jhash_3words(iph->saddr, iph->daddr, ports, 0xeb0f) %
	      MAX_RSS_QUEUES;
steer:
	/* HW cannot perform modulus on varying values: indirection table */
	dest_q = bpf_map_lookup_elem(&indirect_map, &key);
	if (!dest_q)
		return XDP_PASS;
	ctx->rx_queue_index = dest_q->queue_num;
	__sync_fetch_and_add(&dest_q->packet_cnt, 1);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
