// SPDX-License-Identifier: GPL-2.0
/*
 * Tail-call dispatch as protocol parsers chain programs (xdp-tutorial's
 * and Cilium's style): the entry program counts the frame and tail-calls
 * the handler of its EtherType's slot in a PROG_ARRAY that libbpf fills
 * from the declaration (IPv4 in slot 0, IPv6 in slot 1, slot 2 left empty
 * for ARP: the tail call fails and the entry program goes on). The IPv4
 * handler drops UDP to port 9 and passes the rest; the IPv6 one drops
 * ICMPv6 echo requests and sends the rest back with the MACs swapped.
 * The map is pinned by name, as ip link's tail call maps must be to
 * outlive the loader.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

enum { SLOT_IPV4, SLOT_IPV6, SLOT_ARP, SLOTS };

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, SLOTS + 1);
} tail_stats SEC(".maps");

static __always_inline void count(__u32 slot)
{
	__u64 *n = bpf_map_lookup_elem(&tail_stats, &slot);

	if (n)
		*n += 1;
}

SEC("xdp")
int handle_ipv4(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct iphdr *iph = data + sizeof(struct ethhdr);
	struct udphdr *udp;

	count(SLOT_IPV4);
	if ((void *)(iph + 1) > data_end || iph->ihl != 5 ||
	    iph->protocol != IPPROTO_UDP)
		return XDP_PASS;
	udp = (void *)(iph + 1);
	if ((void *)(udp + 1) > data_end)
		return XDP_PASS;
	return udp->dest == bpf_htons(9) ? XDP_DROP : XDP_PASS;
}

SEC("xdp")
int handle_ipv6(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct ipv6hdr *ip6 = data + sizeof(*eth);
	unsigned char mac[ETH_ALEN];
	__u8 *icmp;

	count(SLOT_IPV6);
	if ((void *)(ip6 + 1) > data_end)
		return XDP_PASS;
	icmp = (void *)(ip6 + 1);
	if (ip6->nexthdr == IPPROTO_ICMPV6 && (void *)(icmp + 1) <= data_end &&
	    *icmp == 128)
		return XDP_DROP;
	__builtin_memcpy(mac, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, mac, ETH_ALEN);
	return XDP_TX;
}

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, SLOTS);
	__uint(key_size, sizeof(__u32));
	__uint(pinning, LIBBPF_PIN_BY_NAME);
	__array(values, int (void *));
} jmp_table SEC(".maps") = {
	.values = {
		[SLOT_IPV4] = (void *)&handle_ipv4,
		[SLOT_IPV6] = (void *)&handle_ipv6,
	},
};

SEC("xdp")
int xdp_tail_entry(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	__u32 slot;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	switch (eth->h_proto) {
	case bpf_htons(ETH_P_IP):
		slot = SLOT_IPV4;
		break;
	case bpf_htons(ETH_P_IPV6):
		slot = SLOT_IPV6;
		break;
	case bpf_htons(ETH_P_ARP):
		slot = SLOT_ARP;
		break;
	default:
		return XDP_PASS;
	}
	bpf_tail_call(ctx, &jmp_table, slot);
	/* no program in the slot */
	count(SLOTS);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
