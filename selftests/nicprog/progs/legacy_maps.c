// SPDX-License-Identifier: GPL-2.0
/*
 * Maps defined the way samples/bpf, Netronome's bpf-samples and older
 * tutorials define them: struct bpf_map_def in SEC("maps"), which libbpf
 * 1.x no longer opens (iproute2 still does). A per-CPU counter per IP
 * protocol; frames whose protocol has a nonzero entry in the "blocked"
 * array are dropped.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

struct bpf_map_def {
	unsigned int type;
	unsigned int key_size;
	unsigned int value_size;
	unsigned int max_entries;
	unsigned int map_flags;
};

struct bpf_map_def SEC("maps") proto_cnt = {
	.type = BPF_MAP_TYPE_PERCPU_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(__u64),
	.max_entries = 256,
};

struct bpf_map_def SEC("maps") blocked = {
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = sizeof(__u32),
	.value_size = sizeof(__u32),
	.max_entries = 256,
};

SEC("xdp")
int legacy_maps(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph = data + sizeof(*eth);
	__u32 proto, *drop;
	__u64 *cnt;

	if ((void *)(iph + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	proto = iph->protocol;
	cnt = bpf_map_lookup_elem(&proto_cnt, &proto);
	if (cnt)
		*cnt += 1;
	drop = bpf_map_lookup_elem(&blocked, &proto);
	return drop && *drop ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
