// SPDX-License-Identifier: GPL-2.0
/* Refused: Linux 6.1 cannot offload an LPM_TRIE map to any device. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct key {
	__u32 prefixlen;
	__u32 addr;
};

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__type(key, struct key);
	__type(value, __u32);
	__uint(max_entries, 16);
	__uint(map_flags, BPF_F_NO_PREALLOC);
} routes SEC(".maps");

SEC("xdp")
int lpm(struct xdp_md *ctx)
{
	struct key k = { .prefixlen = 32 };

	return bpf_map_lookup_elem(&routes, &k) ? XDP_PASS : XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
