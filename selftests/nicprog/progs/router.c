// SPDX-License-Identifier: GPL-2.0
/*
 * An IPv4 router, routing as samples/bpf/xdp_fwd does: the host's FIB and
 * neighbour table say where a frame goes, the device's MTU whether it fits.
 * No NIC holds the host's FIB, so bpf_fib_lookup() and bpf_check_mtu() are
 * helpers only the host has: with plan_partial the NIC parses, drops what
 * it need not route and counts; the host looks routes up, rewrites and
 * forwards.
 *
 * Frames the stack could answer with an ICMP error (an expired TTL, no
 * route) are dropped here, so that the stack sends nothing of its own
 * while a test compares what leaves the ports.
 */
#include "../../../bpf/examples/parse.h"
#include "kinds.h"

#define AF_INET		2

enum { K_OTHER, K_TTL, K_HOST, K_FWD };

/* RFC 1624 update of the header checksum for a TTL one lower. */
static __always_inline void ttl_decrement(struct iphdr *ip)
{
	__be16 old = *(__be16 *)&ip->ttl;

	ip->ttl--;
	csum_replace2(&ip->check, old, *(__be16 *)&ip->ttl);
}

SEC("xdp")
int router(struct xdp_md *ctx)
{
	struct bpf_fib_lookup fib = {};
	struct iphdr *ip;
	struct pkt p;
	__u32 mtu = 0;
	long rc;

	if (parse(ctx, &p) < 0 || !p.ip4) {
		count(K_OTHER);
		return XDP_PASS;
	}
	ip = p.ip4;
	if (ip->ttl <= 1) {
		count(K_TTL);
		return XDP_DROP;
	}
	fib.family = AF_INET;
	fib.tos = ip->tos;
	fib.l4_protocol = ip->protocol;
	fib.tot_len = bpf_ntohs(ip->tot_len);
	fib.ipv4_src = ip->saddr;
	fib.ipv4_dst = ip->daddr;
	fib.ifindex = ctx->ingress_ifindex;

	rc = bpf_fib_lookup(ctx, &fib, sizeof(fib), 0);
	count(K_HOST);
	switch (rc) {
	case BPF_FIB_LKUP_RET_SUCCESS:
		break;
	case BPF_FIB_LKUP_RET_BLACKHOLE:
	case BPF_FIB_LKUP_RET_UNREACHABLE:
	case BPF_FIB_LKUP_RET_PROHIBIT:
	case BPF_FIB_LKUP_RET_NOT_FWDED:
		return XDP_DROP;
	default:	/* the stack fragments, resolves neighbours */
		return XDP_PASS;
	}
	if (bpf_check_mtu(ctx, fib.ifindex, &mtu, 0, 0))
		return XDP_PASS;
	ttl_decrement(ip);
	__builtin_memcpy(p.eth->h_dest, fib.dmac, ETH_ALEN);
	__builtin_memcpy(p.eth->h_source, fib.smac, ETH_ALEN);
	count(K_FWD);
	return bpf_redirect(fib.ifindex, 0);
}

char LICENSE[] SEC("license") = "GPL";
