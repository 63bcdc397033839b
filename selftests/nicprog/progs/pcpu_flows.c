// SPDX-License-Identifier: GPL-2.0
/*
 * Per-destination-port counters in a PERCPU_HASH whose keys user space
 * creates (the ports to watch), the program only looking them up and
 * adding, as xdp-tutorial's and load balancers' statistics do: the NIC
 * keeps the per-CPU table, the host reads every CPU's slot.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

struct flow_stat {
	__u64 packets;
	__u64 bytes;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__type(key, __u16);
	__type(value, struct flow_stat);
	__uint(max_entries, 64);
} port_stats SEC(".maps");

SEC("xdp")
int pcpu_flows(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph = (void *)(eth + 1);
	struct udphdr *uh = (void *)(iph + 1);
	struct flow_stat *st;
	__u16 port;

	if ((void *)(uh + 1) > data_end ||
	    eth->h_proto != bpf_htons(ETH_P_IP) || iph->ihl != 5 ||
	    iph->protocol != IPPROTO_UDP)
		return XDP_PASS;
	port = bpf_ntohs(uh->dest);
	st = bpf_map_lookup_elem(&port_stats, &port);
	if (!st)
		return XDP_PASS;
	st->packets++;
	st->bytes += data_end - data;
	return port & 1 ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
