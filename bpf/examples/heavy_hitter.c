// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause
/*
 * heavy_hitter - count-min sketch of IPv4 sources; a source whose
 * estimated frame count exceeds a threshold is recorded and its frames
 * dropped.
 *
 * Each frame adds one to a counter in every row of the sketch, at a
 * column its source address hashes to with the row's seed (jhash, on the
 * hash engine when the NIC has one); the estimate is the smallest of
 * those counters. Non-IPv4 frames pass.
 *
 * Table "sketch" (ARRAY, CM_ROWS x CM_COLS counters): written by every
 * frame with keys that are no copy of header bytes: shared-mutable, so
 * its accessors stay on one core.
 * Table "config" (ARRAY): [0] threshold, 0 disables detection.
 * Table "heavy" (HASH): source address -> estimate when last dropped.
 */
#define NICPROG_USE_JHASH
#include "parse.h"

#define CM_ROWS		4
#define CM_COLS		1024

NICPROG_TABLE(sketch, BPF_MAP_TYPE_ARRAY, __u32, __u32, CM_ROWS * CM_COLS);
NICPROG_TABLE(config, BPF_MAP_TYPE_ARRAY, __u32, __u32, 1);
NICPROG_TABLE(heavy, BPF_MAP_TYPE_HASH, __be32, __u32, 1024);

SEC("xdp")
int heavy_hitter(struct xdp_md *ctx)
{
	struct ethhdr *eth = NICPROG_DATA(ctx);
	struct iphdr *ip = (void *)(eth + 1);
	__u32 row, idx, est = ~0U, zero = 0, *c, *thr, v;
	__be32 saddr;
	__u64 h;

	if ((void *)(ip + 1) > NICPROG_DATA_END(ctx) ||
	    eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	saddr = ip->saddr;
#pragma unroll
	for (row = 0; row < CM_ROWS; row++) {
		h = nicprog_accel_jhash(ctx, PKT4_IP_OFF + 12, 4,
					row * 0x9e3779b9,
					NICPROG_AFN(NICPROG_AFN_JHASH));
		if (h == NICPROG_ACCEL_ERR)
			return XDP_PASS;
		idx = row * CM_COLS + (h & (CM_COLS - 1));
		c = bpf_map_lookup_elem(&sketch, &idx);
		if (!c)
			return XDP_PASS;
		v = __sync_fetch_and_add(c, 1) + 1;
		if (v < est)
			est = v;
	}
	thr = bpf_map_lookup_elem(&config, &zero);
	if (!thr || !*thr || est <= *thr)
		return XDP_PASS;
	bpf_map_update_elem(&heavy, &saddr, &est, BPF_ANY);
	return XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
