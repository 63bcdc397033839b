// SPDX-License-Identifier: GPL-2.0
/*
 * In the style of the kernel's samples/bpf/xdp1_kern.c: count frames per
 * IP protocol in a PERCPU_ARRAY of longs, VLAN tags skipped, in a section
 * of its own name ("xdp1"), which ip link loads as XDP when told the
 * program. Unlike the sample it passes TCP and drops the rest.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <bpf/bpf_helpers.h>

struct vlan_hdr {
	__be16 h_vlan_TCI;
	__be16 h_vlan_encapsulated_proto;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, long);
	__uint(max_entries, 256);
} rxcnt SEC(".maps");

static int parse_ipv4(void *data, __u64 nh_off, void *data_end)
{
	struct iphdr *iph = data + nh_off;

	if ((void *)(iph + 1) > data_end)
		return 0;
	return iph->protocol;
}

static int parse_ipv6(void *data, __u64 nh_off, void *data_end)
{
	struct ipv6hdr *ip6h = data + nh_off;

	if ((void *)(ip6h + 1) > data_end)
		return 0;
	return ip6h->nexthdr;
}

SEC("xdp1")
int xdp_prog1(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	int rc = XDP_DROP;
	long *value;
	__u16 h_proto;
	__u64 nh_off;
	__u32 ipproto;
	int i;

	nh_off = sizeof(*eth);
	if (data + nh_off > data_end)
		return rc;

	h_proto = eth->h_proto;

	/* up to two tags, as the sample's two copies of this block take */
	for (i = 0; i < 2; i++) {
		struct vlan_hdr *vhdr;

		if (h_proto != __builtin_bswap16(ETH_P_8021Q) &&
		    h_proto != __builtin_bswap16(ETH_P_8021AD))
			break;
		vhdr = data + nh_off;
		nh_off += sizeof(struct vlan_hdr);
		if (data + nh_off > data_end)
			return rc;
		h_proto = vhdr->h_vlan_encapsulated_proto;
	}

	if (h_proto == __builtin_bswap16(ETH_P_IP))
		ipproto = parse_ipv4(data, nh_off, data_end);
	else if (h_proto == __builtin_bswap16(ETH_P_IPV6))
		ipproto = parse_ipv6(data, nh_off, data_end);
	else
		ipproto = 0;

	value = bpf_map_lookup_elem(&rxcnt, &ipproto);
	if (value)
		*value += 1;
	if (ipproto == IPPROTO_TCP)
		rc = XDP_PASS;
	return rc;
}

char _license[] SEC("license") = "GPL";
