// SPDX-License-Identifier: GPL-2.0
/*
 * Native host XDP on a nicsim port, every verdict by UDP destination port:
 * 9000 + N (N < 4) to AF_XDP socket N of the XSKMAP (passed when there is
 * none), 8000 dropped, 8001 sent back out with the MACs swapped, 8002
 * aborted, 8003 redirected out of the port whose ifindex is cfg[0]; the
 * rest pass. Built with XSK_GATE (hostxdp_gate.c), a socket is looked up
 * before the redirect, as AF_XDP programs written before Linux 5.3 do.
 */
#include "../../../bpf/examples/parse.h"

struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u32);
} xsks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} cfg SEC(".maps");

SEC("xdp")
int hostxdp(struct xdp_md *ctx)
{
	unsigned char mac[ETH_ALEN];
	__u32 zero = 0, *ifindex;
	struct pkt p;

	if (parse(ctx, &p) < 0 || p.l4proto != IPPROTO_UDP || !p.has_ports)
		return XDP_PASS;
	if (p.dport >= 9000 && p.dport < 9004) {
#ifdef XSK_GATE
		/* as AF_XDP programs before Linux 5.3 ask first */
		__u32 q = p.dport - 9000;

		if (bpf_map_lookup_elem(&xsks, &q))
			return bpf_redirect_map(&xsks, q, 0);
		return XDP_PASS;
#else
		return bpf_redirect_map(&xsks, p.dport - 9000, XDP_PASS);
#endif
	}
	switch (p.dport) {
	case 8000:
		return XDP_DROP;
	case 8001:
		__builtin_memcpy(mac, p.eth->h_dest, ETH_ALEN);
		__builtin_memcpy(p.eth->h_dest, p.eth->h_source, ETH_ALEN);
		__builtin_memcpy(p.eth->h_source, mac, ETH_ALEN);
		return XDP_TX;
	case 8002:
		return XDP_ABORTED;
	case 8003:
		ifindex = bpf_map_lookup_elem(&cfg, &zero);
		return ifindex ? bpf_redirect(*ifindex, 0) : XDP_ABORTED;
	}
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
