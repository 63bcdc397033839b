// SPDX-License-Identifier: GPL-2.0
/*
 * dns_filter - drops DNS queries for names on a block list, as the DNS
 * filtering XDP examples do: a UDP datagram to port 53 has its question's
 * name walked byte by byte to its root label (one bounded loop over at
 * most MAX_NAME bytes: loops over labels and then their bytes give the
 * verifier a state per label length, past its limit), hashed with
 * FNV-1a over the wire form, and the hash looked up in a HASH of blocked
 * names. Names longer than MAX_NAME bytes, or cut short, pass; so
 * does everything that is not a query to port 53. Queries seen and
 * blocked are counted.
 *
 * Held out from the predictor (bpf/heldout/README).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define MAX_NAME	96	/* bytes of the wire form walked */

struct dnshdr {
	__be16 id;
	__be16 flags;
	__be16 qdcount;
	__be16 ancount;
	__be16 nscount;
	__be16 arcount;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);		/* FNV-1a of the name's wire form */
	__type(value, __u8);
	__uint(max_entries, 4096);
} blocked_names SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 2);		/* [0] queries, [1] blocked */
} dns_stats SEC(".maps");

static __always_inline void count(__u32 idx)
{
	__u64 *v = bpf_map_lookup_elem(&dns_stats, &idx);

	if (v)
		__sync_fetch_and_add(v, 1);
}

SEC("xdp")
int dns_filter(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph = (void *)(eth + 1);
	struct udphdr *uh = (void *)(iph + 1);
	struct dnshdr *dns = (void *)(uh + 1);
	__u32 hash = 2166136261u;
	__u8 *p = (void *)(dns + 1);
	__u32 i;

	if ((void *)(dns + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP) ||
	    iph->ihl != 5 || iph->protocol != IPPROTO_UDP ||
	    uh->dest != bpf_htons(53))
		return XDP_PASS;
	if (dns->flags & bpf_htons(0x8000))	/* a response */
		return XDP_PASS;
	count(0);
	/*
	 * The name ends at its root label, the first zero byte (hostname
	 * labels hold none); hash every byte up to it, lengths included.
	 */
	for (i = 0; i < MAX_NAME; i++) {
		__u8 c;

		if ((void *)(p + i + 1) > data_end)
			return XDP_PASS;
		c = p[i];
		hash = (hash ^ c) * 16777619u;
		if (!c)
			break;
	}
	if (i == MAX_NAME)
		return XDP_PASS;
	if (bpf_map_lookup_elem(&blocked_names, &hash)) {
		count(1);
		return XDP_DROP;
	}
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
