// SPDX-License-Identifier: GPL-2.0
/* Refused on the NIC: more instructions than its cores hold (8192). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int big(struct xdp_md *ctx)
{
	volatile __u64 sink = 0;
	int i;

#pragma clang loop unroll(full)
	for (i = 0; i < 5000; i++)
		sink += i;
	return sink ? XDP_PASS : XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
