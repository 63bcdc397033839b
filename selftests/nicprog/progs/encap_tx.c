// SPDX-License-Identifier: GPL-2.0
/*
 * IP-in-IP encapsulation sent back out (XDP_TX), in the style of
 * samples/bpf's xdp_tx_iptunnel: every IPv4 frame grows by an outer IPv4
 * header of 20 bytes, so frames already near the MTU leave the NIC longer
 * than the receiving port takes; the rest pass.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int encap_tx(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data, *neth;
	struct iphdr *iph = (void *)(eth + 1), *outer;
	__u16 inner_len;

	if ((void *)(iph + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	inner_len = bpf_ntohs(iph->tot_len);
	if (bpf_xdp_adjust_head(ctx, -(int)sizeof(struct iphdr)))
		return XDP_DROP;
	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	neth = data;
	eth = data + sizeof(struct iphdr);
	outer = (void *)(neth + 1);
	if ((void *)(eth + 1) > data_end || (void *)(outer + 1) > data_end)
		return XDP_DROP;
	__builtin_memcpy(neth->h_dest, eth->h_source, ETH_ALEN);
	__builtin_memcpy(neth->h_source, eth->h_dest, ETH_ALEN);
	neth->h_proto = bpf_htons(ETH_P_IP);
	outer->version = 4;
	outer->ihl = 5;
	outer->tos = 0;
	outer->tot_len = bpf_htons(inner_len + sizeof(struct iphdr));
	outer->id = 0;
	outer->frag_off = 0;
	outer->ttl = 64;
	outer->protocol = IPPROTO_IPIP;
	outer->check = 0;
	outer->saddr = bpf_htonl(0x0a000001);
	outer->daddr = bpf_htonl(0x0a000002);
	return XDP_TX;
}

char _license[] SEC("license") = "GPL";
