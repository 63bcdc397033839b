// SPDX-License-Identifier: GPL-2.0
/*
 * traj_sample - trajectory sampling (Duffield and Grossglauser; RFC 5474's
 * hash-based selection) in XDP: every router on a path hashes the same
 * invariant bytes of a packet -- here the IPv4 addresses and protocol as
 * the seed, then up to HASH_SPAN bytes from the transport header on --
 * with CRC32C, and selects the packet when the hash falls under the
 * configured fraction, so that all of them select the same packets. The
 * CRC is a plain bitwise loop in a global function that only reads the
 * frame (a NIC with a CRC engine may run it there). Selected packets are
 * counted per flow in an LRU_HASH and dropped when their flow is one the
 * block ARRAY names by its hash bucket (a sampled blocklist); everything
 * else passes. Config slot 0: the selection threshold out of 2^32; with
 * none, nothing is selected (the hash still runs). Counts per CPU.
 *
 * Held out from the predictor (bpf/heldout/README, set 7).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define HASH_SPAN	96
#define MAX_CRC_LEN	2048
#define BLOCK_BUCKETS	256

enum { TS_OTHER, TS_SKIPPED, TS_SELECTED, TS_BLOCKED, TS_MAX };

struct flow {
	__be32 saddr;
	__be32 daddr;
	__u32 proto;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 1);
} ts_cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);	/* nonzero: block */
	__uint(max_entries, BLOCK_BUCKETS);
} ts_block SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, struct flow);
	__type(value, __u64);
	__uint(max_entries, 4096);
} ts_flows SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, TS_MAX);
} ts_stats SEC(".maps");

/* CRC32C (Castagnoli, reflected) of [off, off + len); 0 if not in frame */
__noinline __u32 crc32c_bytes(struct xdp_md *ctx, __u64 off, __u64 len,
			      __u32 seed)
{
	__u8 *data = (void *)(long)ctx->data;
	__u8 *data_end = (void *)(long)ctx->data_end;
	__u32 crc = ~seed;
	__u8 *pos;
	__u32 i, k;

	asm volatile("" : "+r"(off), "+r"(len));
	if (off > MAX_CRC_LEN || len > MAX_CRC_LEN ||
	    off + len > (__u64)(data_end - data))
		return 0;
	pos = data + off;
	for (i = 0; i < MAX_CRC_LEN; i++) {
		if (i >= len)
			break;
		/* else clang folds the check into a trip count on data_end + 1,
		 * arithmetic on the packet's end the verifier refuses
		 */
		asm volatile("" : "+r"(pos));
		if (pos + 1 > data_end)
			return 0;
		crc ^= *pos++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0x82F63B78 & -(crc & 1));
	}
	return ~crc;
}

static __always_inline int count(__u32 what, int action)
{
	__u64 *c = bpf_map_lookup_elem(&ts_stats, &what);

	if (c)
		*c += 1;
	return action;
}

SEC("xdp")
int xdp_traj_sample(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	__u32 zero = 0, *threshold, *block, hash, l4off, span, bucket;
	struct flow fl = {};
	struct iphdr *iph;
	__u64 *n, one = 1;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return count(TS_OTHER, XDP_PASS);
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end || iph->ihl < 5)
		return XDP_DROP;

	l4off = sizeof(*eth) + iph->ihl * 4;
	if (data + l4off > data_end)
		return XDP_DROP;
	span = data_end - data - l4off;
	if (span > HASH_SPAN)
		span = HASH_SPAN;
	hash = crc32c_bytes(ctx, l4off, span,
			    iph->saddr ^ iph->daddr ^ iph->protocol);

	threshold = bpf_map_lookup_elem(&ts_cfg, &zero);
	if (!threshold || hash >= *threshold)
		return count(TS_SKIPPED, XDP_PASS);

	fl.saddr = iph->saddr;
	fl.daddr = iph->daddr;
	fl.proto = iph->protocol;
	n = bpf_map_lookup_elem(&ts_flows, &fl);
	if (n)
		__sync_fetch_and_add(n, 1);
	else
		bpf_map_update_elem(&ts_flows, &fl, &one, BPF_ANY);

	bucket = (iph->saddr ^ iph->daddr) % BLOCK_BUCKETS;
	block = bpf_map_lookup_elem(&ts_block, &bucket);
	if (block && *block)
		return count(TS_BLOCKED, XDP_DROP);
	return count(TS_SELECTED, XDP_PASS);
}

char _license[] SEC("license") = "GPL";
