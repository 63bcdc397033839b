// SPDX-License-Identifier: GPL-2.0
/*
 * flow_police - a per-flow token-bucket policer in the manner of the XDP
 * rate-limiting examples, for a NIC with a hash engine: a flow's IPv4
 * addresses and ports are hashed (nicprog_accel_jhash(), as Katran hashes
 * flows with jhash) into one of NBUCKETS buckets of an ARRAY; each bucket
 * refills at the configured bytes per microsecond of bpf_ktime_get_ns()
 * up to a burst, and a frame it cannot pay for is dropped. So its verdicts
 * depend on the clock. Config slot 0: {rate bytes per ms, burst bytes};
 * with no config every frame passes. Non-IPv4 passes unpoliced.
 *
 * Held out from the predictor (bpf/heldout/README, set 4).
 */
#define NICPROG_USE_JHASH
#include "../nicprog.h"
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define NBUCKETS	4096
#define ADDRS_OFF	(ETH_HLEN + 12)	/* saddr, daddr, then the ports */

struct bucket {
	__u64 stamp_ns;
	__u64 tokens;
};

struct police_cfg {
	__u32 rate;	/* bytes per microsecond */
	__u32 burst;	/* bytes */
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct bucket);
	__uint(max_entries, NBUCKETS);
} buckets SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct police_cfg);
	__uint(max_entries, 1);
} police_cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 2);	/* passed, dropped */
} police_stats SEC(".maps");

static __always_inline int verdict(__u32 dropped)
{
	__u64 *c = bpf_map_lookup_elem(&police_stats, &dropped);

	if (c)
		__sync_fetch_and_add(c, 1);
	return dropped ? XDP_DROP : XDP_PASS;
}

SEC("xdp")
int flow_police(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph = (void *)(eth + 1);
	struct police_cfg *cfg;
	__u64 now, fill, len, h;
	struct bucket *b;
	__u32 zero = 0, idx, span;

	if ((void *)(iph + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	cfg = bpf_map_lookup_elem(&police_cfg, &zero);
	if (!cfg || !cfg->rate)
		return verdict(0);
	len = (__u64)(data_end - data);
	/* addresses, and the ports when the header has no options */
	span = 8;
	if (iph->ihl == 5 && (iph->protocol == IPPROTO_TCP ||
			      iph->protocol == IPPROTO_UDP))
		span = 12;
	h = nicprog_accel_jhash(ctx, ADDRS_OFF, span, 0x5eed,
				NICPROG_AFN(NICPROG_AFN_JHASH));
	if (h == NICPROG_ACCEL_ERR)
		return verdict(0);
	idx = (__u32)h & (NBUCKETS - 1);
	b = bpf_map_lookup_elem(&buckets, &idx);
	if (!b)
		return verdict(0);
	now = bpf_ktime_get_ns();
	if (!b->stamp_ns) {
		b->stamp_ns = now;
		b->tokens = cfg->burst;
	} else if (now > b->stamp_ns) {
		fill = (now - b->stamp_ns) / 1000 * cfg->rate;
		if (fill) {
			b->tokens += fill;
			if (b->tokens > cfg->burst)
				b->tokens = cfg->burst;
			/* whole microseconds only: the rest carries over */
			b->stamp_ns += fill / cfg->rate * 1000;
		}
	}
	if (b->tokens < len)
		return verdict(1);
	b->tokens -= len;
	return verdict(0);
}

char LICENSE[] SEC("license") = "GPL";
