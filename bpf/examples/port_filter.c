// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause
/*
 * port_filter - drops TCP and UDP traffic to blocked destination ports.
 *
 * Table "blocked" (HASH): destination port (host order) -> frames dropped.
 * Table "stats" (ARRAY): [0] frames passed, [1] frames dropped.
 *
 *   ip link set dev X xdpoffload obj port_filter.o sec xdp
 *   bpftool map update name blocked key 0x35 0x00 value 0 0 0 0 0 0 0 0
 */
#include "parse.h"

NICPROG_TABLE(blocked, BPF_MAP_TYPE_HASH, __u16, __u64, 1024);
NICPROG_TABLE(stats, BPF_MAP_TYPE_ARRAY, __u32, __u64, 2);

static __always_inline int verdict(__u32 idx, int action)
{
	__u64 *n = bpf_map_lookup_elem(&stats, &idx);

	if (n)
		__sync_fetch_and_add(n, 1);
	return action;
}

SEC("xdp")
int port_filter(struct xdp_md *ctx)
{
	struct pkt p;
	__u64 *hits;
	__u16 port;

	if (parse(ctx, &p) || !p.has_ports)
		return verdict(0, XDP_PASS);
	port = p.dport;
	hits = bpf_map_lookup_elem(&blocked, &port);
	if (!hits)
		return verdict(0, XDP_PASS);
	__sync_fetch_and_add(hits, 1);
	return verdict(1, XDP_DROP);
}

char LICENSE[] SEC("license") = "GPL";
