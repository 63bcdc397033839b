// SPDX-License-Identifier: GPL-2.0
/*
 * ipip_tx - IP-in-IP encapsulation to a tunnel endpoint per virtual IP,
 * in the manner of the kernel's samples/bpf xdp_tx_iptunnel: a frame for
 * a VIP (destination address, port and protocol, in a HASH) gets an outer
 * IPv4 header (bpf_xdp_adjust_head()), its Ethernet header rewritten
 * towards the endpoint's next hop, the outer header's checksum computed
 * word by word, and goes back out (XDP_TX); a per-CPU count per protocol
 * of the frames seen. Frames for no VIP, and anything not IPv4 TCP or
 * UDP, pass.
 *
 * Held out from the predictor (bpf/heldout/README, set 10).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

struct vip {
	__be32 daddr;
	__be16 dport;
	__u8 protocol;
	__u8 pad;
};

struct iptnl_info {
	__be32 saddr;
	__be32 daddr;
	__u8 dmac[ETH_ALEN];
	__u8 pad[2];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 256);
} rxcnt SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct vip);
	__type(value, struct iptnl_info);
	__uint(max_entries, 256);
} vip2tnl SEC(".maps");

static __always_inline void count_tx(__u32 protocol)
{
	__u64 *cnt = bpf_map_lookup_elem(&rxcnt, &protocol);

	if (cnt)
		*cnt += 1;
}

static __always_inline __u16 ipv4_csum(struct iphdr *iph)
{
	__u16 *next = (__u16 *)iph;
	__u32 csum = 0;
	int i;

#pragma clang loop unroll(disable)
	for (i = 0; i < (int)(sizeof(*iph) >> 1); i++)
		csum += *next++;
	csum = (csum & 0xffff) + (csum >> 16);
	csum = (csum & 0xffff) + (csum >> 16);
	return ~csum;
}

static __always_inline int encap_v4(struct xdp_md *xdp,
				    const struct iptnl_info *tnl,
				    __u16 payload_len)
{
	void *data, *data_end;
	struct ethhdr *new_eth, *old_eth;
	struct iphdr *iph;

	if (bpf_xdp_adjust_head(xdp, 0 - (int)sizeof(struct iphdr)))
		return XDP_DROP;
	data = (void *)(long)xdp->data;
	data_end = (void *)(long)xdp->data_end;
	new_eth = data;
	iph = data + sizeof(*new_eth);
	old_eth = data + sizeof(*iph);
	if ((void *)(new_eth + 1) > data_end ||
	    (void *)(old_eth + 1) > data_end ||
	    (void *)(iph + 1) > data_end)
		return XDP_DROP;

	__builtin_memcpy(new_eth->h_source, old_eth->h_dest,
			 sizeof(new_eth->h_source));
	__builtin_memcpy(new_eth->h_dest, tnl->dmac, sizeof(new_eth->h_dest));
	new_eth->h_proto = bpf_htons(ETH_P_IP);

	iph->version = 4;
	iph->ihl = sizeof(*iph) >> 2;
	iph->frag_off = 0;
	iph->protocol = IPPROTO_IPIP;
	iph->check = 0;
	iph->tos = 0;
	iph->tot_len = bpf_htons(payload_len + sizeof(*iph));
	iph->daddr = tnl->daddr;
	iph->saddr = tnl->saddr;
	iph->ttl = 8;
	iph->id = 0;
	iph->check = ipv4_csum(iph);
	return XDP_TX;
}

SEC("xdp")
int ipip_tx(struct xdp_md *xdp)
{
	void *data_end = (void *)(long)xdp->data_end;
	void *data = (void *)(long)xdp->data;
	struct ethhdr *eth = data;
	struct iptnl_info *tnl;
	struct vip vip = {};
	struct iphdr *iph;
	__u16 payload_len;
	__u32 protocol;

	if ((void *)(eth + 1) > data_end ||
	    eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end || iph->ihl != 5)
		return XDP_PASS;
	protocol = iph->protocol;
	count_tx(protocol);
	payload_len = bpf_ntohs(iph->tot_len);
	vip.protocol = iph->protocol;
	vip.daddr = iph->daddr;
	if (protocol == IPPROTO_TCP) {
		struct tcphdr *th = (void *)(iph + 1);

		if ((void *)(th + 1) > data_end)
			return XDP_DROP;
		vip.dport = th->dest;
	} else if (protocol == IPPROTO_UDP) {
		struct udphdr *uh = (void *)(iph + 1);

		if ((void *)(uh + 1) > data_end)
			return XDP_DROP;
		vip.dport = uh->dest;
	} else {
		return XDP_PASS;
	}
	tnl = bpf_map_lookup_elem(&vip2tnl, &vip);
	if (!tnl)
		return XDP_PASS;
	return encap_v4(xdp, tnl, payload_len);
}

char _license[] SEC("license") = "GPL";
