// SPDX-License-Identifier: GPL-2.0
/*
 * flow_meter - per-source accounting with a packet budget, in the style
 * of the DDoS blocklist samples: a HASH keyed by IPv4 source address
 * counts each source's frames and bytes; once a source has sent more
 * than the budget (config[0]; 0 = no budget) its frames are dropped.
 * New sources are added while the table has room; past that, they pass
 * uncounted. Non-IPv4 frames pass.
 *
 * Held out from the predictor (bpf/heldout/README).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

struct flow_stats {
	__u64 packets;
	__u64 bytes;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, struct flow_stats);
	__uint(max_entries, 8192);
} sources SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);
} config SEC(".maps");

SEC("xdp")
int flow_meter(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph = data + sizeof(*eth);
	struct flow_stats *st, init = {};
	__u64 len = data_end - data;
	__u64 *budget;
	__u32 zero = 0, src;

	if ((void *)(iph + 1) > data_end)
		return XDP_PASS;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	src = iph->saddr;
	st = bpf_map_lookup_elem(&sources, &src);
	if (!st) {
		init.packets = 1;
		init.bytes = len;
		bpf_map_update_elem(&sources, &src, &init, BPF_NOEXIST);
		return XDP_PASS;
	}
	__sync_fetch_and_add(&st->packets, 1);
	__sync_fetch_and_add(&st->bytes, len);
	budget = bpf_map_lookup_elem(&config, &zero);
	if (budget && *budget && st->packets > *budget)
		return XDP_DROP;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
