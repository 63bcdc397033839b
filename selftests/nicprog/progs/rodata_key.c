// SPDX-License-Identifier: GPL-2.0
/*
 * Configuration in .rodata handed to helpers, as skeleton-configured
 * programs do: the key of the port to count is a const volatile user
 * space sets before loading, its address given to bpf_map_lookup_elem(),
 * and a MAC address prefix compared with bpf_csum_diff() over .rodata
 * bytes (the broadcast prefix: a quarter of the oracle's frames).
 * Neither folds into a constant: .rodata becomes a read-only table.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>

const volatile __u32 watch_slot = 2;
const volatile __u8 mac_prefix[4] = { 0xff, 0xff, 0xff, 0xff };

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 4);
} hits SEC(".maps");

SEC("xdp")
int rodata_key(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = (void *)(long)ctx->data;
	__u8 dst[4];
	__u64 *n;
	__s64 d;

	if ((void *)(eth + 1) > data_end)
		return XDP_PASS;
	n = bpf_map_lookup_elem(&hits, (void *)&watch_slot);
	if (n)
		__sync_fetch_and_add(n, 1);
	__builtin_memcpy(dst, eth->h_dest, 4);
	d = bpf_csum_diff((void *)mac_prefix, 4, (__be32 *)dst, 4, 0);
	/* equal words: their difference folds to zero, one's complement */
	d = (d & 0xffff) + ((d >> 16) & 0xffff);
	d = (d & 0xffff) + (d >> 16);
	return d == 0xffff || !d ? XDP_TX : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
