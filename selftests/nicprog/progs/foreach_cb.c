// SPDX-License-Identifier: GPL-2.0
/*
 * A table walked with bpf_for_each_map_elem(): its callback is called
 * from the helper for every element, which the NIC's cores cannot do.
 * Refused, naming the helper.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 4);
} limits SEC(".maps");

struct sum {
	__u64 total;
};

static long add_limit(void *map, __u32 *key, __u64 *val, struct sum *s)
{
	s->total += *val;
	return 0;
}

SEC("xdp")
int foreach_cb(struct xdp_md *ctx)
{
	struct sum s = {};

	bpf_for_each_map_elem(&limits, add_limit, &s, 0);
	return s.total > 100 ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
