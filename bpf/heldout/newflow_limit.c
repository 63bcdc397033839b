// SPDX-License-Identifier: GPL-2.0
/*
 * newflow_limit - a new-connection rate limiter in the manner of the XDP
 * DDoS-mitigation examples, with the flows it has seen kept in a Bloom
 * filter (a bit array in an ARRAY of 64-bit words, NHASH bits a flow by
 * double hashing of a murmur3 finalizer): a frame of a flow the filter
 * knows passes; a frame of a new flow spends one of the window's budget
 * (a shared window on bpf_ktime_get_ns()) and is learnt, or, with the
 * budget spent, is dropped and not learnt, so the flow is tried again in
 * a later window. Config slot 0: {new flows a window, window in
 * microseconds}; with no budget every frame passes and nothing is learnt.
 * Only TCP and UDP over IPv4 are limited; verdicts counted per CPU. So its
 * verdicts depend on the clock and on every earlier frame.
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

#define BLOOM_BITS	(1 << 17)	/* 16 KiB */
#define NHASH		3

struct limit_cfg {
	__u32 budget;		/* new flows a window */
	__u32 window_us;
};

struct window {
	__u64 start_ns;
	__u64 spent;
};

enum { NF_KNOWN, NF_LEARNT, NF_OVER, NF_OTHER, NF_MAX };

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, BLOOM_BITS / 64);
} bloom SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct limit_cfg);
	__uint(max_entries, 1);
} limit_cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct window);
	__uint(max_entries, 1);
} limit_window SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, NF_MAX);
} limit_stats SEC(".maps");

static __always_inline __u32 fmix32(__u32 h)
{
	h ^= h >> 16;
	h *= 0x85ebca6b;
	h ^= h >> 13;
	h *= 0xc2b2ae35;
	h ^= h >> 16;
	return h;
}

static __always_inline int count(__u32 stat, int action)
{
	__u64 *cnt = bpf_map_lookup_elem(&limit_stats, &stat);

	if (cnt)
		*cnt += 1;
	return action;
}

SEC("xdp")
int xdp_newflow_limit(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	__u64 *word[NHASH], bit[NHASH];
	__u32 zero = 0, ports, h1, h2;
	struct limit_cfg *cfg;
	struct window *win;
	struct iphdr *iph;
	int i, known = 1;
	__u64 now;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return count(NF_OTHER, XDP_PASS);
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end)
		return XDP_DROP;
	if (iph->protocol == IPPROTO_TCP) {
		struct tcphdr *th = (void *)iph + iph->ihl * 4;

		if ((void *)(th + 1) > data_end)
			return XDP_DROP;
		ports = (__u32)th->source << 16 | th->dest;
	} else if (iph->protocol == IPPROTO_UDP) {
		struct udphdr *uh = (void *)iph + iph->ihl * 4;

		if ((void *)(uh + 1) > data_end)
			return XDP_DROP;
		ports = (__u32)uh->source << 16 | uh->dest;
	} else {
		return count(NF_OTHER, XDP_PASS);
	}

	cfg = bpf_map_lookup_elem(&limit_cfg, &zero);
	if (!cfg || !cfg->budget)
		return count(NF_KNOWN, XDP_PASS);

	/* Kirsch-Mitzenmacher: bit i at h1 + i * h2 */
	h1 = fmix32(iph->saddr ^ fmix32(iph->daddr ^ iph->protocol));
	h2 = fmix32(h1 ^ ports) | 1;
	h1 ^= ports;
#pragma unroll
	for (i = 0; i < NHASH; i++) {
		__u32 b = (h1 + i * h2) & (BLOOM_BITS - 1);
		__u32 idx = b / 64;

		word[i] = bpf_map_lookup_elem(&bloom, &idx);
		if (!word[i])
			return XDP_ABORTED;
		bit[i] = 1ULL << (b % 64);
		if (!(*word[i] & bit[i]))
			known = 0;
	}
	if (known)
		return count(NF_KNOWN, XDP_PASS);

	win = bpf_map_lookup_elem(&limit_window, &zero);
	if (!win)
		return XDP_ABORTED;
	now = bpf_ktime_get_ns();
	if (now - win->start_ns > cfg->window_us * 1000ULL) {
		win->start_ns = now;
		win->spent = 0;
	}
	if (win->spent >= cfg->budget)
		return count(NF_OVER, XDP_DROP);
	win->spent++;
#pragma unroll
	for (i = 0; i < NHASH; i++)
		*word[i] |= bit[i];
	return count(NF_LEARNT, XDP_PASS);
}

char _license[] SEC("license") = "GPL";
