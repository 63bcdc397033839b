// SPDX-License-Identifier: GPL-2.0
/*
 * syn_guard - a SYN-flood guard in the manner of the rate-limiting XDP
 * samples: per IPv4 source, a HASH keeps how many SYNs it sent in the
 * current window of WINDOW_NS (bpf_ktime_get_ns()); past SYN_LIMIT in a
 * window its SYNs are dropped until the window turns. Other TCP, and
 * everything else, passes; drops are counted.
 *
 * Held out from the predictor (bpf/heldout/README).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define WINDOW_NS	(100 * 1000ULL)	/* 100 us */
#define SYN_LIMIT	4

struct window {
	__u64 start;
	__u32 syns;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __be32);
	__type(value, struct window);
	__uint(max_entries, 16384);
} syn_windows SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);
} syn_drops SEC(".maps");

SEC("xdp")
int syn_guard(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph = (void *)(eth + 1);
	struct window *w, fresh = {};
	struct tcphdr *th;
	__u64 now, *drops;
	__u32 zero = 0;
	__be32 src;

	if ((void *)(iph + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	if (iph->protocol != IPPROTO_TCP)
		return XDP_PASS;
	th = (void *)iph + iph->ihl * 4;
	if ((void *)(th + 1) > data_end)
		return XDP_PASS;
	if (!th->syn || th->ack)
		return XDP_PASS;
	src = iph->saddr;
	now = bpf_ktime_get_ns();
	w = bpf_map_lookup_elem(&syn_windows, &src);
	if (!w) {
		fresh.start = now;
		fresh.syns = 1;
		bpf_map_update_elem(&syn_windows, &src, &fresh, BPF_ANY);
		return XDP_PASS;
	}
	if (now - w->start > WINDOW_NS) {
		w->start = now;
		w->syns = 1;
		return XDP_PASS;
	}
	if (++w->syns <= SYN_LIMIT)
		return XDP_PASS;
	drops = bpf_map_lookup_elem(&syn_drops, &zero);
	if (drops)
		__sync_fetch_and_add(drops, 1);
	return XDP_DROP;
}

char _license[] SEC("license") = "GPL";
