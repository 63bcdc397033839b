// SPDX-License-Identifier: GPL-2.0
/*
 * The telemetry collector's NF (tools/apps/sketch), on a mirror port: the
 * first 64 bytes of every IPv4 TCP or UDP frame -- the headers, as the
 * NIC cuts them with bpf_xdp_adjust_tail() -- go to output 3; the rest
 * pass to the host. The IPv4 total length still says how long the frame
 * was.
 */
#include "../../../bpf/examples/parse.h"

#define SLICE	64

SEC("xdp")
int mirror(struct xdp_md *ctx)
{
	struct pkt p;
	__u32 len;

	if (parse(ctx, &p) < 0 || !p.ip4 || !p.has_ports ||
	    (p.l4proto != IPPROTO_TCP && p.l4proto != IPPROTO_UDP))
		return XDP_PASS;
	len = (__u8 *)p.end - (__u8 *)p.data;
	if (len > SLICE && bpf_xdp_adjust_tail(ctx, -(int)(len - SLICE)))
		return XDP_DROP;
	return nicprog_redirect_pipe(3);
}

char LICENSE[] SEC("license") = "GPL";
