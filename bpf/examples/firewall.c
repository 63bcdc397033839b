// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause
/*
 * firewall - stateful per-flow firewall for IPv4 TCP and UDP with
 * connection tracking and idle-entry aging.
 *
 * A flow may open only towards an allowed destination port (TCP: with a
 * SYN that is not an ACK); the connection is then tracked and frames of
 * both directions pass until it has been idle longer than the timeout, or
 * a TCP FIN or RST closes it. Frames of untracked flows are dropped. Other
 * traffic (ARP, ICMP, IPv6, ...) passes untouched.
 *
 * Table "allow" (HASH): destination port (host order) -> unused.
 * Table "conns" (HASH): flow as its opener sent it -> connection state.
 * Table "config" (ARRAY): [0] idle timeout (0: 60 s), [1] clock: 0 uses
 * bpf_ktime_get_ns() in ns, 1 counts frames (a deterministic clock for
 * tests), [2] the frame clock.
 * Table "stats" (ARRAY): [0] new, [1] established, [2] dropped,
 * [3] expired, [4] closed, [5] untracked protocol.
 */
#include "parse.h"

struct flow {
	__be32 saddr;
	__be32 daddr;
	__u16 sport;
	__u16 dport;
	__u8 proto;
	__u8 pad[3];
};

struct conn {
	__u64 last_seen;
	__u64 packets;
};

enum { CFG_TIMEOUT, CFG_CLOCK, CFG_FRAMES, CFG_MAX };
enum { ST_NEW, ST_ESTABLISHED, ST_DROPPED, ST_EXPIRED, ST_CLOSED,
       ST_UNTRACKED, ST_MAX };

NICPROG_TABLE(allow, BPF_MAP_TYPE_HASH, __u16, __u8, 256);
NICPROG_TABLE(conns, BPF_MAP_TYPE_HASH, struct flow, struct conn, 65536);
NICPROG_TABLE(config, BPF_MAP_TYPE_ARRAY, __u32, __u64, CFG_MAX);
NICPROG_TABLE(stats, BPF_MAP_TYPE_ARRAY, __u32, __u64, ST_MAX);

static __always_inline void count(__u32 idx)
{
	__u64 *n = bpf_map_lookup_elem(&stats, &idx);

	if (n)
		__sync_fetch_and_add(n, 1);
}

static __always_inline __u64 *cfg(__u32 idx)
{
	return bpf_map_lookup_elem(&config, &idx);
}

SEC("xdp")
int firewall(struct xdp_md *ctx)
{
	__u64 now, timeout = 60000000000ULL, *c;
	struct flow key, rkey, *k;
	struct conn *ct, fresh;
	struct tcphdr *tcp = 0;
	struct pkt p;
	__u8 *ok;

	if (parse(ctx, &p) || !p.ip4 || !p.has_ports) {
		count(ST_UNTRACKED);
		return XDP_PASS;
	}
	if (p.l4proto == IPPROTO_TCP) {
		tcp = p.l4;
		if ((void *)(tcp + 1) > p.end) {
			count(ST_DROPPED);
			return XDP_DROP;
		}
	}

	c = cfg(CFG_TIMEOUT);
	if (c && *c)
		timeout = *c;
	c = cfg(CFG_CLOCK);
	if (c && *c == 1) {
		c = cfg(CFG_FRAMES);
		now = c ? __sync_fetch_and_add(c, 1) : 0;
	} else {
		now = bpf_ktime_get_ns();
	}

	__builtin_memset(&key, 0, sizeof(key));
	key.saddr = p.ip4->saddr;
	key.daddr = p.ip4->daddr;
	key.sport = p.sport;
	key.dport = p.dport;
	key.proto = p.l4proto;
	__builtin_memset(&rkey, 0, sizeof(rkey));
	rkey.saddr = key.daddr;
	rkey.daddr = key.saddr;
	rkey.sport = key.dport;
	rkey.dport = key.sport;
	rkey.proto = key.proto;

	k = &key;
	ct = bpf_map_lookup_elem(&conns, &key);
	if (!ct) {
		k = &rkey;
		ct = bpf_map_lookup_elem(&conns, &rkey);
	}
	if (ct && now - ct->last_seen > timeout) {
		bpf_map_delete_elem(&conns, k);
		count(ST_EXPIRED);
		ct = 0;
	}
	if (ct) {
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

	ok = bpf_map_lookup_elem(&allow, &key.dport);
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
