// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause
/*
 * count - the smallest useful NF: counts frames and bytes per class
 * (IPv4, IPv6, ARP, other) in an ARRAY table and passes every frame.
 *
 *   ip link set dev X xdpgeneric obj count.o sec xdp
 *   bpftool map dump name counts
 */
#include "../nicprog.h"
#include <linux/if_ether.h>

enum { CLASS_IPV4, CLASS_IPV6, CLASS_ARP, CLASS_OTHER, CLASS_MAX };

struct count {
	__u64 packets;
	__u64 bytes;
};

NICPROG_TABLE(counts, BPF_MAP_TYPE_ARRAY, __u32, struct count, CLASS_MAX);

SEC("xdp")
int count(struct xdp_md *ctx)
{
	void *data = NICPROG_DATA(ctx);
	void *data_end = NICPROG_DATA_END(ctx);
	struct ethhdr *eth = data;
	__u32 class = CLASS_OTHER;
	struct count *c;

	if ((void *)(eth + 1) <= data_end) {
		switch (bpf_ntohs(eth->h_proto)) {
		case ETH_P_IP:
			class = CLASS_IPV4;
			break;
		case ETH_P_IPV6:
			class = CLASS_IPV6;
			break;
		case ETH_P_ARP:
			class = CLASS_ARP;
			break;
		}
	}
	c = bpf_map_lookup_elem(&counts, &class);
	if (c) {
		__sync_fetch_and_add(&c->packets, 1);
		__sync_fetch_and_add(&c->bytes, data_end - data);
	}
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
