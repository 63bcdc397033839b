// SPDX-License-Identifier: GPL-2.0
/*
 * A per-source token bucket, as XDP rate limiters are written: each IPv4
 * source earns RATE_PPS tokens a second up to BURST, a frame spends one,
 * a frame finding none is dropped. Its verdicts depend on the clock
 * (bpf_ktime_get_ns()) and so on the rate frames arrive at: the NIC's
 * clock and an offline replay's must agree for its counts to be
 * predicted. The rate and burst are in the table "limit" ([0] tokens a
 * second, [1] burst; 0 takes the defaults), so a test can set them.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define RATE_PPS	1000
#define BURST		4
#define NSEC		1000000000ULL

struct bucket {
	__u64 last;	/* ns of the last refill */
	__u64 tokens;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, __u32);
	__type(value, struct bucket);
	__uint(max_entries, 1024);
} buckets SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 2);
} limit SEC(".maps");

static __always_inline __u64 param(__u32 i, __u64 dflt)
{
	__u64 *v = bpf_map_lookup_elem(&limit, &i);

	return v && *v ? *v : dflt;
}

SEC("xdp")
int ratelimit(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph = (void *)(eth + 1);
	struct bucket *b, nb;
	__u64 now, rate, burst, earned;

	if ((void *)(iph + 1) > data_end ||
	    eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	now = bpf_ktime_get_ns();
	rate = param(0, RATE_PPS);
	burst = param(1, BURST);
	b = bpf_map_lookup_elem(&buckets, &iph->saddr);
	if (!b) {
		nb.last = now;
		nb.tokens = burst - 1;
		bpf_map_update_elem(&buckets, &iph->saddr, &nb, BPF_ANY);
		return XDP_PASS;
	}
	earned = (now - b->last) * rate / NSEC;
	if (earned) {
		/* whole tokens only; the fraction's time stays unspent */
		b->last += earned * NSEC / rate;
		b->tokens += earned;
		if (b->tokens > burst)
			b->tokens = burst;
	}
	if (!b->tokens)
		return XDP_DROP;
	b->tokens--;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
