// SPDX-License-Identifier: GPL-2.0
/*
 * Per-source counters in a PERCPU_HASH, created on first sight with
 * bpf_map_update_elem() as many tutorials do. Linux 6.1 checks the value
 * passed against the map's value size, which for a per-CPU map bound to
 * a device is every CPU's slot: refused, naming the call and the map.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1024);
} src_count SEC(".maps");

SEC("xdp")
int pcpu_update(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph = (void *)(eth + 1);
	__u64 one = 1, *v;
	__u32 src;

	if ((void *)(iph + 1) > data_end ||
	    eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	src = iph->saddr;
	v = bpf_map_lookup_elem(&src_count, &src);
	if (v)
		*v += 1;
	else
		bpf_map_update_elem(&src_count, &src, &one, BPF_NOEXIST);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
