// SPDX-License-Identifier: GPL-2.0
/*
 * gap_hist - an inter-arrival histogram in the manner of the bcc and
 * libbpf-tools latency tools: per IPv4 destination, a HASH keeps when it
 * last received a frame (bpf_ktime_get_ns()); the gap since then goes, as
 * its log2 (the tools' branch-free log2l), into a power-of-two histogram
 * ARRAY shared by every frame, and bytes per destination are summed.
 * Monitoring only: every frame passes, but every IPv4 frame reads the
 * clock, writes its destination's entry and one shared slot.
 *
 * Held out from the predictor (bpf/heldout/README, set 5).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define MAX_SLOTS	32

struct dst_info {
	__u64 last_ns;
	__u64 bytes;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __be32);
	__type(value, struct dst_info);
	__uint(max_entries, 10240);
} last_seen SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, MAX_SLOTS);
} gaps SEC(".maps");

static __always_inline __u64 log2_u32(__u32 v)
{
	__u32 shift, r;

	r = (v > 0xFFFF) << 4; v >>= r;
	shift = (v > 0xFF) << 3; v >>= shift; r |= shift;
	shift = (v > 0xF) << 2; v >>= shift; r |= shift;
	shift = (v > 0x3) << 1; v >>= shift; r |= shift;
	r |= (v >> 1);
	return r;
}

static __always_inline __u64 log2l(__u64 v)
{
	__u32 hi = v >> 32;

	if (hi)
		return log2_u32(hi) + 32;
	return log2_u32(v);
}

SEC("xdp")
int xdp_gap_hist(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct dst_info *info, init = {};
	struct iphdr *iph;
	__u64 now, slot, *cnt;
	__be32 dst;
	__u32 key;

	if ((void *)(eth + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end)
		return XDP_PASS;

	dst = iph->daddr;
	now = bpf_ktime_get_ns();
	info = bpf_map_lookup_elem(&last_seen, &dst);
	if (!info) {
		init.last_ns = now;
		init.bytes = data_end - data;
		bpf_map_update_elem(&last_seen, &dst, &init, BPF_ANY);
		return XDP_PASS;
	}
	slot = log2l(now - info->last_ns);
	if (slot >= MAX_SLOTS)
		slot = MAX_SLOTS - 1;
	key = slot;
	cnt = bpf_map_lookup_elem(&gaps, &key);
	if (cnt)
		__sync_fetch_and_add(cnt, 1);
	info->last_ns = now;
	info->bytes += data_end - data;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
