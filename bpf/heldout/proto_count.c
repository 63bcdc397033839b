// SPDX-License-Identifier: GPL-2.0
/*
 * proto_count - in the manner of the kernel's samples/bpf xdp1 and xdp2:
 * the Ethernet header parsed through up to two VLAN tags (802.1Q and
 * 802.1ad), the IPv4 or IPv6 header's protocol counted in a 256-entry
 * ARRAY every core shares (one hot line per protocol; the samples count
 * per CPU, which a shared NIC table with atomics stands in for), then
 * UDP sent back where it came from with the MAC addresses swapped, as
 * xdp2 does, and everything else dropped, as xdp1 does. A frame too
 * short for its headers is dropped uncounted.
 *
 * Held out from the predictor (bpf/heldout/README, set 9).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define MAX_VLANS	2

struct vlan_hdr {
	__be16 tci;
	__be16 encap_proto;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 256);
} rxcnt SEC(".maps");

static __always_inline int parse_ipv4(void *data, __u64 nh_off,
				      void *data_end)
{
	struct iphdr *iph = data + nh_off;

	if ((void *)(iph + 1) > data_end)
		return -1;
	return iph->protocol;
}

static __always_inline int parse_ipv6(void *data, __u64 nh_off,
				      void *data_end)
{
	struct ipv6hdr *ip6h = data + nh_off;

	if ((void *)(ip6h + 1) > data_end)
		return -1;
	return ip6h->nexthdr;
}

static __always_inline void swap_src_dst_mac(void *data)
{
	unsigned short *p = data;
	unsigned short dst[3];

	dst[0] = p[0];
	dst[1] = p[1];
	dst[2] = p[2];
	p[0] = p[3];
	p[1] = p[4];
	p[2] = p[5];
	p[3] = dst[0];
	p[4] = dst[1];
	p[5] = dst[2];
}

SEC("xdp")
int xdp_proto_count(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct vlan_hdr *vhdr;
	__u64 nh_off;
	__u16 h_proto;
	__u64 *value;
	__u32 ipproto;
	int i, proto;

	nh_off = sizeof(*eth);
	if (data + nh_off > data_end)
		return XDP_DROP;
	h_proto = eth->h_proto;

#pragma unroll
	for (i = 0; i < MAX_VLANS; i++) {
		if (h_proto != bpf_htons(ETH_P_8021Q) &&
		    h_proto != bpf_htons(ETH_P_8021AD))
			break;
		vhdr = data + nh_off;
		nh_off += sizeof(struct vlan_hdr);
		if (data + nh_off > data_end)
			return XDP_DROP;
		h_proto = vhdr->encap_proto;
	}

	if (h_proto == bpf_htons(ETH_P_IP))
		proto = parse_ipv4(data, nh_off, data_end);
	else if (h_proto == bpf_htons(ETH_P_IPV6))
		proto = parse_ipv6(data, nh_off, data_end);
	else
		proto = 0;
	if (proto < 0)
		return XDP_DROP;

	ipproto = proto;
	value = bpf_map_lookup_elem(&rxcnt, &ipproto);
	if (value)
		__sync_fetch_and_add(value, 1);

	if (proto == IPPROTO_UDP) {
		swap_src_dst_mac(data);
		return XDP_TX;
	}
	return XDP_DROP;
}

char _license[] SEC("license") = "GPL";
