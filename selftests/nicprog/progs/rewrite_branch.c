// SPDX-License-Identifier: GPL-2.0
/*
 * Branches on a header field it has just rewritten: every frame's
 * EtherType becomes IPv6 before the program asks whether it is IPv4. A
 * walk that took an IPv4 frame's EtherType as known would send it down
 * the long IPv4 arm it never takes (nicprog-plan's per-class brackets,
 * cli_offline_test.sh); frames are dropped after the rewrite, IPv4 ones
 * (none, but for the walk) after summing their header.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int rewrite_branch(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph = (void *)(eth + 1);
	__u32 sum = 0;
	__u16 *w;
	int i;

	if ((void *)(iph + 1) > data_end)
		return XDP_PASS;
	eth->h_proto = bpf_htons(ETH_P_IPV6);
	/* read it back from the packet, not from the compiler's memory */
	asm volatile("" ::: "memory");
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_DROP;
	w = (void *)iph;
	for (i = 0; i < 10; i++)
		sum += w[i];
	return sum ? XDP_PASS : XDP_TX;
}

char _license[] SEC("license") = "GPL";
