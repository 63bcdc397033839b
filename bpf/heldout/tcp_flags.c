// SPDX-License-Identifier: GPL-2.0
/*
 * tcp_flags - drops TCP frames whose flags no stack sends (no flag at
 * all, SYN with FIN or RST, FIN without ACK: scans and fingerprinting)
 * and counts, per CPU, frames and bytes per action, as the xdp-tutorial
 * lessons keep their statistics (a PERCPU_ARRAY indexed by the action);
 * the headers are walked with a cursor through any VLAN tags (libxdp's
 * parsing_helpers.h).
 *
 * Held out from the predictor (bpf/heldout/README).
 */
#include <linux/bpf.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define VLAN_MAX_DEPTH 2
#include <xdp/parsing_helpers.h>
#include "parsing_min.h"

struct datarec {
	__u64 rx_packets;
	__u64 rx_bytes;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct datarec);
	__uint(max_entries, XDP_REDIRECT + 1);
} xdp_stats_map SEC(".maps");

static __always_inline __u32 xdp_stats_record_action(struct xdp_md *ctx,
						     __u32 action)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct datarec *rec;

	if (action > XDP_REDIRECT)
		return XDP_ABORTED;
	rec = bpf_map_lookup_elem(&xdp_stats_map, &action);
	if (!rec)
		return XDP_ABORTED;
	rec->rx_packets++;
	rec->rx_bytes += (data_end - data);
	return action;
}

SEC("xdp")
int xdp_tcp_flags(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct hdr_cursor nh = { .pos = data };
	__u32 action = XDP_PASS;
	struct ethhdr *eth;
	struct iphdr *iph;
	struct tcphdr *tcph;
	int eth_type, ip_type;

	eth_type = parse_ethhdr(&nh, data_end, &eth);
	if (eth_type != bpf_htons(ETH_P_IP))
		goto out;
	ip_type = parse_iphdr_min(&nh, data_end, &iph);
	if (ip_type != IPPROTO_TCP)
		goto out;
	if (parse_tcphdr_min(&nh, data_end, &tcph) < 0) {
		action = XDP_DROP;
		goto out;
	}
	if (!(tcph->fin || tcph->syn || tcph->rst || tcph->psh ||
	      tcph->ack || tcph->urg))
		action = XDP_DROP;		/* NULL scan */
	else if (tcph->syn && (tcph->fin || tcph->rst))
		action = XDP_DROP;
	else if (tcph->fin && !tcph->ack)
		action = XDP_DROP;		/* FIN scan, XMAS */
out:
	return xdp_stats_record_action(ctx, action);
}

char _license[] SEC("license") = "GPL";
