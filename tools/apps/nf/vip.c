// SPDX-License-Identifier: GPL-2.0
/*
 * The load balancer front end's NF (tools/apps/lbfront): IPv4 TCP and UDP
 * frames to the virtual IP 10.91.0.100 go to output 2, whole; the rest
 * pass to the host.
 */
#include "../../../bpf/examples/parse.h"

#define VIP	0x0a5b0064	/* 10.91.0.100 */

SEC("xdp")
int vip(struct xdp_md *ctx)
{
	struct pkt p;

	if (parse(ctx, &p) < 0 || !p.ip4 || !p.has_ports ||
	    (p.l4proto != IPPROTO_TCP && p.l4proto != IPPROTO_UDP) ||
	    p.ip4->daddr != bpf_htonl(VIP))
		return XDP_PASS;
	return nicprog_redirect_pipe(2);
}

char LICENSE[] SEC("license") = "GPL";
