// SPDX-License-Identifier: GPL-2.0
/*
 * A map its own tool sizes before loading (bpf_map__set_max_entries(),
 * as samples/bpf's xdp_redirect_cpu sizes cpus_available to the CPUs):
 * the object alone gives it no max_entries.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
} cpus_available SEC(".maps");

SEC("xdp")
int unsized_map(struct xdp_md *ctx)
{
	__u32 key = 0, *cpu = bpf_map_lookup_elem(&cpus_available, &key);

	return cpu && *cpu ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
