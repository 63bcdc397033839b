// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause
/*
 * firewall - stateful per-flow firewall for IPv4 TCP and UDP with
 * connection tracking and idle-entry aging.
 *
 * A flow may open only towards an allowed destination port (TCP: with a
 * SYN that is not an ACK); the connection is then tracked and frames of
 * both directions pass until it has been idle longer than the timeout, or
 * a TCP FIN or RST closes it. Frames of untracked flows are dropped.
 * Connections are tracked on untagged frames with a plain 20-byte IPv4
 * header; TCP and UDP in any other layout (a VLAN tag, IP options, a
 * first fragment) are dropped, not let through untracked. Other traffic
 * (ARP, ICMP, IPv6, later fragments, ...) passes untouched.
 *
 * The connection table is keyed by the 5-tuple as the opener sent it, and
 * looked up by the frame's tuple and by it reversed: a flow and its
 * reverse reach one element, which the offloader shards with a symmetric
 * steering hash (Documentation/nicprog/offloader.rst, "Scaling").
 *
 * Table "allow" (HASH): destination port (host order) -> unused.
 * Table "conns" (HASH): flow as its opener sent it -> connection state.
 * Table "config" (ARRAY): [0] idle timeout in ns (0: 60 s), [1] 1 turns
 * aging off (connections end only with FIN or RST; the clock is not read,
 * so that the NIC's results equal the host's, whose clock differs).
 * Table "stats" (ARRAY): [0] new, [1] established, [2] dropped,
 * [3] expired, [4] closed, [5] untracked protocol.
 */
#include "parse.h"

struct conn {
	__u64 last_seen;
	__u64 packets;
};

enum { CFG_TIMEOUT, CFG_AGING_OFF, CFG_MAX };
enum { ST_NEW, ST_ESTABLISHED, ST_DROPPED, ST_EXPIRED, ST_CLOSED,
       ST_UNTRACKED, ST_MAX };

NICPROG_TABLE(allow, BPF_MAP_TYPE_HASH, __u16, __u8, 256);
NICPROG_TABLE(conns, BPF_MAP_TYPE_HASH, struct tuple4, struct conn, 65536);
NICPROG_TABLE(config, BPF_MAP_TYPE_ARRAY, __u32, __u64, CFG_MAX);
NICPROG_TABLE(stats, BPF_MAP_TYPE_ARRAY, __u32, __u64, ST_MAX);

static __always_inline void count(__u32 idx)
{
	__u64 *n = bpf_map_lookup_elem(&stats, &idx);

	if (n)
		__sync_fetch_and_add(n, 1);
}

/*
 * A frame of a tracked connection, found by @k (the frame's tuple or it
 * reversed): expire it, close it, or let the frame through. Each call
 * site keeps its own key, so every access's key is one copy of the
 * frame's bytes.
 */
static __always_inline int tracked(struct conn *ct, const struct tuple4 *k,
				   const struct tcphdr *tcp, __u64 now,
				   __u64 timeout)
{
	if (now - ct->last_seen > timeout) {
		bpf_map_delete_elem(&conns, k);
		count(ST_EXPIRED);
		return -1;
	}
	ct->last_seen = now;
	__sync_fetch_and_add(&ct->packets, 1);
	if (tcp && (tcp->fin || tcp->rst)) {
		bpf_map_delete_elem(&conns, k);
		count(ST_CLOSED);
	} else {
		count(ST_ESTABLISHED);
	}
	return XDP_PASS;
}

SEC("xdp")
int firewall(struct xdp_md *ctx)
{
	__u64 now, timeout = 60000000000ULL, *c;
	struct tuple4 key, rkey;
	struct conn *ct, fresh;
	struct tcphdr *tcp = 0;
	__u32 cfg = CFG_TIMEOUT;
	struct pkt p;
	struct pkt4 p4;
	__u16 dport;
	__u8 *ok;
	int v;

	if (parse(ctx, &p) || !p.ip4 || !p.has_ports) {
		count(ST_UNTRACKED);
		return XDP_PASS;
	}
	if (parse4(ctx, &p4)) {
		count(ST_DROPPED);	/* a layout it does not track */
		return XDP_DROP;
	}
	if (p4.ip->protocol == IPPROTO_TCP) {
		tcp = (void *)p4.ports;
		if ((void *)(tcp + 1) > p4.end) {
			count(ST_DROPPED);
			return XDP_DROP;
		}
	}

	c = bpf_map_lookup_elem(&config, &cfg);
	if (c && *c)
		timeout = *c;
	cfg = CFG_AGING_OFF;
	c = bpf_map_lookup_elem(&config, &cfg);
	now = c && *c ? 0 : bpf_ktime_get_ns();

	tuple4(&p4, &key);
	__builtin_memset(&rkey, 0, sizeof(rkey));
	rkey.saddr = p4.ip->daddr;
	rkey.daddr = p4.ip->saddr;
	rkey.sport = p4.ports[1];
	rkey.dport = p4.ports[0];
	rkey.proto = p4.ip->protocol;
	dport = bpf_ntohs(p4.ports[1]);

	ct = bpf_map_lookup_elem(&conns, &key);
	if (ct) {
		v = tracked(ct, &key, tcp, now, timeout);
		if (v >= 0)
			return v;
	} else {
		ct = bpf_map_lookup_elem(&conns, &rkey);
		if (ct) {
			v = tracked(ct, &rkey, tcp, now, timeout);
			if (v >= 0)
				return v;
		}
	}

	ok = bpf_map_lookup_elem(&allow, &dport);
	if (!ok || (tcp && (!tcp->syn || tcp->ack))) {
		count(ST_DROPPED);
		return XDP_DROP;
	}
	fresh.last_seen = now;
	fresh.packets = 1;
	if (bpf_map_update_elem(&conns, &key, &fresh, BPF_NOEXIST)) {
		count(ST_DROPPED);	/* table full */
		return XDP_DROP;
	}
	count(ST_NEW);
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
