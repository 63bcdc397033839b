// SPDX-License-Identifier: GPL-2.0
/*
 * Connection tracking in an LRU_HASH as load balancers keep it (Katran's
 * conn table, xdp-tutorial's flow accounting): the 5-tuple looked up, a
 * new flow inserted -- the LRU makes room when the table is full -- and
 * every flow's packets counted; a flow past its budget of packets is
 * dropped, so verdicts depend on the table's state.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define FLOW_BUDGET	3

struct flow_key {
	__u32 saddr;
	__u32 daddr;
	__u16 sport;
	__u16 dport;
	__u8 proto;
	__u8 pad[3];
};

struct flow {
	__u64 packets;
	__u64 bytes;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, struct flow_key);
	__type(value, struct flow);
	__uint(max_entries, 16384);
} conntrack SEC(".maps");

SEC("xdp")
int xdp_conntrack(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct flow_key key = {};
	struct ethhdr *eth = data;
	struct flow *f, init;
	struct iphdr *iph;
	__u16 *ports;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end || iph->ihl != 5)
		return XDP_PASS;
	key.saddr = iph->saddr;
	key.daddr = iph->daddr;
	key.proto = iph->protocol;
	if (iph->protocol == IPPROTO_TCP || iph->protocol == IPPROTO_UDP) {
		ports = (void *)(iph + 1);
		if ((void *)(ports + 2) > data_end)
			return XDP_PASS;
		key.sport = ports[0];
		key.dport = ports[1];
	}
	f = bpf_map_lookup_elem(&conntrack, &key);
	if (!f) {
		init.packets = 1;
		init.bytes = data_end - data;
		bpf_map_update_elem(&conntrack, &key, &init, BPF_NOEXIST);
		return XDP_PASS;
	}
	f->packets++;
	f->bytes += data_end - data;
	return f->packets > FLOW_BUDGET ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
