// SPDX-License-Identifier: GPL-2.0
/*
 * flow_budget - gives every flow (its 5-tuple, an LRU_HASH as the
 * connection-tracking samples keep it) a budget of bytes from a config
 * ARRAY; a flow past it is dropped until the table forgets it. Frames
 * that are not IPv4 pass untouched, IPv4 fragments pass uncounted (their
 * ports are elsewhere), and a config of 0 counts without dropping.
 *
 * Held out from the predictor (bpf/heldout/README).
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

struct flow_val {
	__u64 bytes;
	__u64 packets;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, struct tuple4);
	__type(value, struct flow_val);
	__uint(max_entries, 4096);
} flows SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);		/* bytes a flow may send; 0: no limit */
	__uint(max_entries, 1);
} budget SEC(".maps");

SEC("xdp")
int xdp_flow_budget(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct tuple4 key = {};
	struct flow_val *val, init;
	struct iphdr *iph;
	__u64 len = data_end - data, *limit;
	__u32 zero = 0;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end)
		return XDP_DROP;
	if (iph->frag_off & bpf_htons(0x3fff))
		return XDP_PASS;
	key.saddr = iph->saddr;
	key.daddr = iph->daddr;
	key.proto = iph->protocol;
	if (iph->protocol == IPPROTO_TCP || iph->protocol == IPPROTO_UDP) {
		/* the ports sit at the same place in both */
		struct udphdr *uh = (void *)iph + iph->ihl * 4;

		if ((void *)(uh + 1) > data_end)
			return XDP_DROP;
		key.sport = uh->source;
		key.dport = uh->dest;
	}
	val = bpf_map_lookup_elem(&flows, &key);
	if (!val) {
		init.bytes = len;
		init.packets = 1;
		bpf_map_update_elem(&flows, &key, &init, BPF_ANY);
		return XDP_PASS;
	}
	__sync_fetch_and_add(&val->bytes, len);
	__sync_fetch_and_add(&val->packets, 1);
	limit = bpf_map_lookup_elem(&budget, &zero);
	if (limit && *limit && val->bytes > *limit)
		return XDP_DROP;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
