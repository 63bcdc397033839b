// SPDX-License-Identifier: GPL-2.0
/*
 * How far the clock moved since the frame before: a frame that finds
 * bpf_ktime_get_ns() less than a step past the last frame's reading is
 * dropped, the rest pass. The step is min_step[0] in ns, 2 if that is 0.
 * Run on one core, or as a pipeline (the per-flow counts before the clock
 * give the planner stages to cut), its drops count the frames that read
 * the clock moving slower than that (timing.sh).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_helpers.h>

#define MIN_STEP_NS	2

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);
} last_ns SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);
} min_step SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1024);
} flows SEC(".maps");

static __always_inline void count(__u32 key)
{
	__u64 one = 1, *v = bpf_map_lookup_elem(&flows, &key);

	if (v)
		*v += 1;
	else
		bpf_map_update_elem(&flows, &key, &one, BPF_ANY);
}

SEC("xdp")
int clock_step(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct iphdr *iph = data + sizeof(struct ethhdr);
	__u64 now, prev, step = MIN_STEP_NS, *last, *cfg;
	__u32 zero = 0;

	if ((void *)(iph + 1) <= data_end) {
		count(iph->saddr ^ iph->daddr);
		count(iph->saddr * 7 + 1);
	}
	now = bpf_ktime_get_ns();
	cfg = bpf_map_lookup_elem(&min_step, &zero);
	if (cfg && *cfg)
		step = *cfg;
	last = bpf_map_lookup_elem(&last_ns, &zero);
	if (!last)
		return XDP_PASS;
	prev = *last;
	*last = now;
	return prev && now - prev < step ? XDP_DROP : XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
