// SPDX-License-Identifier: GPL-2.0
/*
 * Shortens every VLAN-tagged frame to its Ethernet header and tag
 * (bpf_xdp_adjust_tail()) and sends it back; other frames pass. The
 * receiving host stack discards such a runt before any capture point,
 * so the oracle judges its delivery and length by the NIC's counters.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#define TAG_END	(ETH_HLEN + 4)

SEC("xdp")
int vlan_trim(struct xdp_md *ctx)
{
	void *d = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = d;
	int len = end - d;

	if (d + ETH_HLEN > end ||
	    (eth->h_proto != bpf_htons(ETH_P_8021Q) &&
	     eth->h_proto != bpf_htons(ETH_P_8021AD)))
		return XDP_PASS;
	if (len > TAG_END && bpf_xdp_adjust_tail(ctx, TAG_END - len))
		return XDP_DROP;
	return XDP_TX;
}

char LICENSE[] SEC("license") = "GPL";
