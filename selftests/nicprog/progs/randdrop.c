// SPDX-License-Identifier: GPL-2.0
/*
 * Loss injection, as XDP test tools do it: drop a random tenth of the
 * IPv4 frames (bpf_get_prandom_u32()), pass the rest. Which frames go
 * depends on the random stream: on a NIC that keeps a clock the stream
 * is seeded by the frame's arrival on it, so that an offline replay at
 * the same rate drops the same frames.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define LOSS_PERCENT	10

SEC("xdp")
int randdrop(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;

	if ((void *)(eth + 1) > data_end ||
	    eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	if (bpf_get_prandom_u32() % 100 < LOSS_PERCENT)
		return XDP_DROP;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
