// SPDX-License-Identifier: GPL-2.0
/*
 * The log monitor's NF (tools/apps/logmon): the payloads of UDP datagrams
 * to port 514 (syslog) go to output 1 as a byte stream -- the NIC strips
 * the headers (bpf_xdp_adjust_head()) and ends each message with a
 * newline if it has none, so the stream is one message per line; bytes
 * past the UDP length (Ethernet padding) are cut. XDP keeps at least an
 * Ethernet header's worth of bytes after bpf_xdp_adjust_head(), so a
 * message shorter than 14 bytes (no RFC 3164 message is: PRI and
 * timestamp alone are longer) passes to the host instead, as does the
 * rest of the traffic.
 */
#include "../../../bpf/examples/parse.h"

#define MSG_MAX	2048

SEC("xdp")
int syslog(struct xdp_md *ctx)
{
	__u32 hdr, len, msg, off;
	struct udphdr *udp;
	struct pkt p;
	__u8 *d, *last;

	if (parse(ctx, &p) < 0 || !p.ip4 || p.l4proto != IPPROTO_UDP ||
	    !p.has_ports || p.dport != 514)
		return XDP_PASS;
	udp = p.l4;
	if ((void *)(udp + 1) > p.end)
		return XDP_PASS;
	msg = bpf_ntohs(udp->len);
	hdr = (__u8 *)(udp + 1) - (__u8 *)p.data;
	len = (__u8 *)p.end - (__u8 *)(udp + 1);
	if (msg < sizeof(*udp) + ETH_HLEN || msg - sizeof(*udp) > len ||
	    msg - sizeof(*udp) > MSG_MAX)
		return XDP_PASS;
	msg -= sizeof(*udp);
	if (len > msg && bpf_xdp_adjust_tail(ctx, -(int)(len - msg)))
		return XDP_DROP;
	if (bpf_xdp_adjust_head(ctx, hdr))
		return XDP_DROP;
	d = NICPROG_DATA(ctx);
	len = (__u8 *)NICPROG_DATA_END(ctx) - d;
	if (!len || len > MSG_MAX)
		return XDP_DROP;
	/* exact for len in 1..MSG_MAX; the mask bounds it for the verifier */
	off = (len - 1) & (MSG_MAX - 1);
	last = d + off;
	if ((void *)(last + 1) > NICPROG_DATA_END(ctx))
		return XDP_DROP;
	if (*last != '\n') {
		if (bpf_xdp_adjust_tail(ctx, 1))
			return XDP_DROP;
		d = NICPROG_DATA(ctx);
		last = d + off + 1;
		if ((void *)(last + 1) > NICPROG_DATA_END(ctx))
			return XDP_DROP;
		*last = '\n';
	}
	return nicprog_redirect_pipe(1);
}

char LICENSE[] SEC("license") = "GPL";
