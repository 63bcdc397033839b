// SPDX-License-Identifier: GPL-2.0
/*
 * dst_guard - per-destination SYN-flood protection in the manner of the
 * XDP DDoS-mitigation examples: every IPv4 destination seen gets an entry
 * in a HASH (added with BPF_NOEXIST, as the samples do, so that two cores
 * racing on a new key keep one) counting its frames, bytes and SYNs;
 * once a destination has taken more SYNs than the limit in a config ARRAY,
 * SYNs to it are dropped unless their source has completed a handshake
 * before (it is in an LRU_HASH of sources that sent a non-SYN TCP
 * segment, which also counts that source's segments). Everything else
 * passes; non-IPv4 and frames too short for their headers pass
 * uncounted. With no limit configured, no SYN is dropped.
 *
 * Held out from the predictor (bpf/heldout/README, set 9).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

struct dst_stats {
	__u64 frames;
	__u64 bytes;
	__u64 syns;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);	/* SYNs a destination takes; 0: no limit */
	__uint(max_entries, 1);
} guard_cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __be32);
	__type(value, struct dst_stats);
	__uint(max_entries, 1024);
} dst_table SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, __be32);
	__type(value, __u64);
	__uint(max_entries, 8192);
} good_src SEC(".maps");

SEC("xdp")
int xdp_dst_guard(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct dst_stats *ds, fresh = {};
	struct ethhdr *eth = data;
	__u64 *limit, *seen, one = 1;
	struct iphdr *iph;
	struct tcphdr *th;
	__u32 zero = 0;
	int syn;

	if ((void *)(eth + 1) > data_end)
		return XDP_PASS;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end)
		return XDP_PASS;

	syn = 0;
	if (iph->protocol == IPPROTO_TCP) {
		th = (void *)iph + iph->ihl * 4;
		if ((void *)(th + 1) > data_end)
			return XDP_PASS;
		syn = th->syn && !th->ack;
		if (!syn) {
			seen = bpf_map_lookup_elem(&good_src, &iph->saddr);
			if (seen)
				__sync_fetch_and_add(seen, 1);
			else
				bpf_map_update_elem(&good_src, &iph->saddr,
						    &one, BPF_NOEXIST);
		}
	}

	ds = bpf_map_lookup_elem(&dst_table, &iph->daddr);
	if (!ds) {
		bpf_map_update_elem(&dst_table, &iph->daddr, &fresh,
				    BPF_NOEXIST);
		ds = bpf_map_lookup_elem(&dst_table, &iph->daddr);
		if (!ds)
			return XDP_PASS;
	}
	__sync_fetch_and_add(&ds->frames, 1);
	__sync_fetch_and_add(&ds->bytes, data_end - data);
	if (!syn)
		return XDP_PASS;
	__sync_fetch_and_add(&ds->syns, 1);

	limit = bpf_map_lookup_elem(&guard_cfg, &zero);
	if (!limit || !*limit || ds->syns <= *limit)
		return XDP_PASS;
	if (bpf_map_lookup_elem(&good_src, &iph->saddr))
		return XDP_PASS;
	return XDP_DROP;
}

char _license[] SEC("license") = "GPL";
