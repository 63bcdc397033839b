// SPDX-License-Identifier: GPL-2.0
/*
 * cm_sketch - a heavy-hitter filter on a count-min sketch, in the manner
 * of the eBPF sketch papers' and projects' XDP programs: a flow's 5-tuple
 * is hashed DEPTH times (fasthash64 with a seed per row), each row's
 * counter at its hash is incremented, and the flow's estimate is the
 * smallest of its DEPTH counters. A flow whose estimate passes the
 * configured threshold is dropped; with threshold 0 (or no config) the
 * sketch only counts. Every TCP or UDP frame over IPv4 touches DEPTH
 * counters scattered over a 64 KiB ARRAY; verdicts per CPU.
 *
 * Held out from the predictor (bpf/heldout/README, set 6).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "../flow.h"

#define DEPTH		4
#define COLUMNS		4096	/* a power of two: the hash is masked */

enum { STAT_PASS, STAT_DROP, STAT_OTHER, STAT_MAX };

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, DEPTH * COLUMNS);
} sketch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);	/* threshold, frames a flow */
	__uint(max_entries, 1);
} cms_cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, STAT_MAX);
} cms_stats SEC(".maps");

/* fasthash64's mixing step and its two-word body, unrolled for the key */
static __always_inline __u64 fh_mix(__u64 h)
{
	h ^= h >> 23;
	h *= 0x2127599bf4325c37ULL;
	h ^= h >> 47;
	return h;
}

static __always_inline __u64 fasthash64_16(const __u64 *w, __u64 seed)
{
	const __u64 m = 0x880355f21e6d1965ULL;
	__u64 h = seed ^ (16 * m);

	h ^= fh_mix(w[0]);
	h *= m;
	h ^= fh_mix(w[1]);
	h *= m;
	return fh_mix(h);
}

static __always_inline int verdict(__u32 stat, int action)
{
	__u64 *cnt = bpf_map_lookup_elem(&cms_stats, &stat);

	if (cnt)
		*cnt += 1;
	return action;
}

SEC("xdp")
int xdp_cm_sketch(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct tuple4 key = {};
	__u32 zero = 0, est = ~0U;
	struct iphdr *iph;
	__u32 *threshold;
	int row;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return verdict(STAT_OTHER, XDP_PASS);
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end)
		return XDP_DROP;

	key.saddr = iph->saddr;
	key.daddr = iph->daddr;
	key.proto = iph->protocol;
	if (iph->protocol == IPPROTO_TCP) {
		struct tcphdr *th = (void *)iph + iph->ihl * 4;

		if ((void *)(th + 1) > data_end)
			return XDP_DROP;
		key.sport = th->source;
		key.dport = th->dest;
	} else if (iph->protocol == IPPROTO_UDP) {
		struct udphdr *uh = (void *)iph + iph->ihl * 4;

		if ((void *)(uh + 1) > data_end)
			return XDP_DROP;
		key.sport = uh->source;
		key.dport = uh->dest;
	} else {
		return verdict(STAT_OTHER, XDP_PASS);
	}

#pragma unroll
	for (row = 0; row < DEPTH; row++) {
		__u64 h = fasthash64_16((const __u64 *)&key,
					0x9e3779b97f4a7c15ULL * (row + 1));
		__u32 idx = row * COLUMNS + (h & (COLUMNS - 1));
		__u32 *c = bpf_map_lookup_elem(&sketch, &idx);

		if (!c)
			return XDP_ABORTED;
		*c += 1;
		if (*c < est)
			est = *c;
	}

	threshold = bpf_map_lookup_elem(&cms_cfg, &zero);
	if (threshold && *threshold && est > *threshold)
		return verdict(STAT_DROP, XDP_DROP);
	return verdict(STAT_PASS, XDP_PASS);
}

char _license[] SEC("license") = "GPL";
