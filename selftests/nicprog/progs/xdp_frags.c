// SPDX-License-Identifier: GPL-2.0
/*
 * A multi-buffer aware program (SEC("xdp.frags"), as the kernel's
 * xdp_adjust_frags selftests and xdp-tools' newer programs are built):
 * the whole frame's length from bpf_xdp_get_buff_len(), the header read
 * with bpf_xdp_load_bytes() rather than direct access, since a frame in
 * fragments has only its first buffer linear; frames longer than a
 * threshold dropped and every length class counted.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 4);
} len_class SEC(".maps");

SEC("xdp.frags")
int xdp_frags_len(struct xdp_md *ctx)
{
	__u64 len = bpf_xdp_get_buff_len(ctx);
	struct ethhdr eth;
	__u32 key;
	__u64 *cnt;

	if (bpf_xdp_load_bytes(ctx, 0, &eth, sizeof(eth)))
		return XDP_DROP;
	key = len < 128 ? 0 : len < 512 ? 1 : len < 1024 ? 2 : 3;
	cnt = bpf_map_lookup_elem(&len_class, &key);
	if (cnt)
		__sync_fetch_and_add(cnt, 1);
	if (eth.h_proto == bpf_htons(ETH_P_ARP))
		return XDP_PASS;
	return key == 3 ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
