// SPDX-License-Identifier: GPL-2.0
/*
 * Streaming rings: UDP frames to port 9000 + N (N < 4) go to the port's
 * NF output N, whatever pipe an application bound to it; the rest pass.
 */
#include "../../../bpf/examples/parse.h"

SEC("xdp")
int topipe(struct xdp_md *ctx)
{
	struct pkt p;

	if (parse(ctx, &p) < 0 || p.l4proto != IPPROTO_UDP || !p.has_ports ||
	    p.dport < 9000 || p.dport >= 9004)
		return XDP_PASS;
	return nicprog_redirect_pipe(p.dport - 9000);
}

char LICENSE[] SEC("license") = "GPL";
