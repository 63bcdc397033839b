// SPDX-License-Identifier: GPL-2.0
/*
 * How far the clock moved since the frame before: a frame that finds
 * bpf_ktime_get_ns() less than MIN_STEP_NS past the last frame's reading
 * is dropped, the rest pass. Run on one core, its drops count the frames
 * that read the clock standing still (timing.sh).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define MIN_STEP_NS	2

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);
} last_ns SEC(".maps");

SEC("xdp")
int clock_step(struct xdp_md *ctx)
{
	__u64 now = bpf_ktime_get_ns(), prev, *last;
	__u32 zero = 0;

	last = bpf_map_lookup_elem(&last_ns, &zero);
	if (!last)
		return XDP_PASS;
	prev = *last;
	*last = now;
	return prev && now - prev < MIN_STEP_NS ? XDP_DROP : XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
