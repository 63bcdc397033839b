// SPDX-License-Identifier: GPL-2.0
/*
 * Counters in a map another object defines, as samples/bpf's programs
 * share xdp_sample.bpf.c's (xdp_sample.bpf.h: "extern array_map rx_cnt"),
 * to be linked with bpftool gen object before loading.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

typedef struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
} array_map;

extern array_map rx_cnt;

SEC("xdp")
int extern_map(struct xdp_md *ctx)
{
	__u32 key = 0;
	__u64 *n = bpf_map_lookup_elem(&rx_cnt, &key);

	if (n)
		__sync_fetch_and_add(n, 1);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
