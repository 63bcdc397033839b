// SPDX-License-Identifier: GPL-2.0
/*
 * Forwarding that asks the devmap first, as samples/bpf's xdp_fwd (whose
 * devmap's name it keeps) and xdp-tutorial's router lesson do: an IPv4
 * frame goes out of the port its destination's last byte picks (a slot
 * of xdp_tx_ports) only if that slot holds one -- bpf_map_lookup_elem()
 * on the devmap finds no entry in an empty slot -- and is passed
 * otherwise; the redirect's own miss (flags 0) would abort it. Counts of
 * both in a per-CPU array.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
	__uint(max_entries, 8);
} xdp_tx_ports SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 2);
} fwd_stats SEC(".maps");

SEC("xdp")
int xdp_fwd_check(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph = data + sizeof(*eth);
	__u32 key, stat;
	__u64 *n;

	if ((void *)(iph + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	key = (bpf_ntohl(iph->daddr) & 0xff) % 8;
	stat = !!bpf_map_lookup_elem(&xdp_tx_ports, &key);
	n = bpf_map_lookup_elem(&fwd_stats, &stat);
	if (n)
		*n += 1;
	if (!stat)
		return XDP_PASS;
	return bpf_redirect_map(&xdp_tx_ports, key, 0);
}

char _license[] SEC("license") = "GPL";
