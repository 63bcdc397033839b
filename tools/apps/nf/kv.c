// SPDX-License-Identifier: GPL-2.0
/*
 * The key-value server's NF (tools/apps/kvserver): UDP requests to port
 * 11211 go to output 0, whole, for the server's records pipe; the rest
 * pass to the host.
 */
#include "../../../bpf/examples/parse.h"

SEC("xdp")
int kv(struct xdp_md *ctx)
{
	struct pkt p;

	if (parse(ctx, &p) < 0 || !p.ip4 || p.l4proto != IPPROTO_UDP ||
	    !p.has_ports || p.dport != 11211)
		return XDP_PASS;
	return nicprog_redirect_pipe(0);
}

char LICENSE[] SEC("license") = "GPL";
