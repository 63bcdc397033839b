// SPDX-License-Identifier: GPL-2.0
/*
 * Frame access through helpers instead of direct packet pointers, as
 * frags-aware programs and the kernel's xdp_adjust_frags selftests do:
 * bpf_xdp_get_buff_len(), bpf_xdp_load_bytes() (the Ethernet header, and
 * 4 bytes at an offset the frame itself chooses, which may lie beyond
 * it), bpf_xdp_store_bytes() (the header back with its MACs swapped).
 * Each helper's return value is counted, so the errors must match too.
 */
#include <linux/bpf.h>
#include <linux/errno.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 8);
} byte_stats SEC(".maps");

static __always_inline void count(__u32 k)
{
	__u64 *v = bpf_map_lookup_elem(&byte_stats, &k);

	if (v)
		__sync_fetch_and_add(v, 1);
}

SEC("xdp")
int xdp_bytes(struct xdp_md *ctx)
{
	__u8 hdr[ETH_HLEN], tmp[ETH_ALEN];
	__u32 len = bpf_xdp_get_buff_len(ctx), off, word = 0;
	long err;

	err = bpf_xdp_load_bytes(ctx, 0, hdr, sizeof(hdr));
	if (err) {
		count(err == -EINVAL ? 1 : 2);
		return XDP_DROP;
	}
	/* 4 bytes at the offset the last byte of the source MAC names */
	off = hdr[11];
	err = bpf_xdp_load_bytes(ctx, off, &word, sizeof(word));
	count(err ? 3 : 4);
	if (!err && (word & 0xff) == 0x45)
		return XDP_DROP;
	__builtin_memcpy(tmp, hdr, ETH_ALEN);
	__builtin_memcpy(hdr, hdr + ETH_ALEN, ETH_ALEN);
	__builtin_memcpy(hdr + ETH_ALEN, tmp, ETH_ALEN);
	err = bpf_xdp_store_bytes(ctx, 0, hdr, sizeof(hdr));
	count(err ? 5 : 6);
	return len > 300 ? XDP_TX : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
