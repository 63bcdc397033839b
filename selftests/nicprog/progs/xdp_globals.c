// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics and settings in global variables, as skeleton-based tools
 * keep them (xdp-tools, libbpf-bootstrap): packet and byte totals in
 * .bss, per-protocol counts indexed by the frame, a port to drop that
 * the host may change in .data, and a function of its own that updates
 * them, called with arguments. Headers are walked as xdp-tools walks
 * them, with libxdp's parsing_helpers.h.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>
#include <xdp/parsing_helpers.h>

struct proto_stats {
	__u64 packets;
	__u64 bytes;
};

__u64 rx_packets;
__u64 rx_bytes;
struct proto_stats per_proto[4];
__u16 drop_port = 53;
__u32 dropped = 0;

static __attribute__((noinline)) int count(__u32 slot, __u64 len)
{
	struct proto_stats *ps = &per_proto[slot & 3];

	ps->packets++;
	ps->bytes += len;
	return ps->packets & 1;
}

SEC("xdp")
int xdp_globals(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	__u64 len = data_end - data;
	struct hdr_cursor nh = { .pos = data };
	struct ethhdr *eth;
	struct iphdr *iph;
	struct udphdr *uh;
	int proto;

	__sync_fetch_and_add(&rx_packets, 1);
	__sync_fetch_and_add(&rx_bytes, len);
	if (parse_ethhdr(&nh, data_end, &eth) != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	proto = parse_iphdr(&nh, data_end, &iph);
	if (proto < 0)
		return XDP_PASS;
	count(proto, len);
	if (proto != IPPROTO_UDP || parse_udphdr(&nh, data_end, &uh) < 0)
		return XDP_PASS;
	if (uh->dest == bpf_htons(drop_port)) {
		dropped++;
		return XDP_DROP;
	}
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
