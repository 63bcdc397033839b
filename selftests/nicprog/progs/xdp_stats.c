// SPDX-License-Identifier: GPL-2.0
/*
 * Per-verdict statistics the way xdp-tutorial's packet lessons keep them:
 * a PERCPU_ARRAY of struct datarec indexed by the XDP action, updated
 * without atomics (each CPU owns its slot), read by a user-space tool that
 * sums the CPUs. The parser drops UDP to port 9 (discard) and passes the
 * rest.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

struct datarec {
	__u64 rx_packets;
	__u64 rx_bytes;
};

#ifndef XDP_ACTION_MAX
#define XDP_ACTION_MAX (XDP_REDIRECT + 1)
#endif

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct datarec);
	__uint(max_entries, XDP_ACTION_MAX);
} xdp_stats_map SEC(".maps");

/* xdp-tutorial's common/xdp_stats_kern.h, as lessons 3 and 4 include it */
static __always_inline
__u32 xdp_stats_record_action(struct xdp_md *ctx, __u32 action)
{
	if (action >= XDP_ACTION_MAX)
		return XDP_ABORTED;

	struct datarec *rec = bpf_map_lookup_elem(&xdp_stats_map, &action);
	if (!rec)
		return XDP_ABORTED;

	rec->rx_packets++;
	rec->rx_bytes += (ctx->data_end - ctx->data);

	return action;
}

SEC("xdp")
int xdp_stats_func(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph;
	struct udphdr *udph;
	__u32 action = XDP_PASS;

	if ((void *)(eth + 1) > data_end)
		goto out;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		goto out;
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end || iph->ihl < 5)
		goto out;
	if (iph->protocol != IPPROTO_UDP)
		goto out;
	udph = (void *)iph + iph->ihl * 4;
	if ((void *)(udph + 1) > data_end)
		goto out;
	if (udph->dest == bpf_htons(9))
		action = XDP_DROP;
out:
	return xdp_stats_record_action(ctx, action);
}

char _license[] SEC("license") = "GPL";
