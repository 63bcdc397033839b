// SPDX-License-Identifier: GPL-2.0
/*
 * A program slow on purpose: some 12,000 instructions a frame (a bounded
 * loop the compiler keeps), so that one NIC core cannot keep up with a
 * flood and its queue overflows (netlink.sh: stage-overload events).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int slow(struct xdp_md *ctx)
{
	volatile __u32 sink = 0;
	__u32 i;

#pragma clang loop unroll(disable)
	for (i = 0; i < 3000; i++)
		sink += i;
	return sink ? XDP_DROP : XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
