// SPDX-License-Identifier: GPL-2.0
/*
 * syn_cookie - the ACK side of SYN-cookie protection in the manner of the
 * XDP SYN-proxy examples, written for a NIC with a hash engine: the host
 * answers a SYN with a SYN-ACK whose sequence number is a keyed hash of
 * the connection (here jhash of its addresses and ports with the secret in
 * a config ARRAY, through nicprog_accel_jhash()), keeping no state; the
 * handshake's ACK then proves itself by acknowledging that number plus
 * one. So a SYN passes; a TCP segment of a connection in the LRU_HASH of
 * established ones passes; any other segment costs a hash: its ACK, if
 * it acknowledges the cookie, establishes the connection and passes, and
 * everything else is dropped. With no secret configured every frame
 * passes unchecked. Non-TCP passes; outcomes are counted per CPU.
 *
 * Held out from the predictor (bpf/heldout/README, set 8).
 */
#define NICPROG_USE_JHASH
#include "../nicprog.h"
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define ADDRS_OFF	(ETH_HLEN + 12)	/* saddr, daddr, then the ports */

enum { SC_OTHER, SC_SYN, SC_KNOWN, SC_VALID, SC_INVALID, SC_MAX };

struct conn {
	__be32 saddr;
	__be32 daddr;
	__be16 sport;
	__be16 dport;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);	/* the secret; 0: off */
	__uint(max_entries, 1);
} cookie_cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, struct conn);
	__type(value, __u64);	/* segments since established */
	__uint(max_entries, 16384);
} established SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, SC_MAX);
} cookie_stats SEC(".maps");

static __always_inline int count(__u32 what, int action)
{
	__u64 *c = bpf_map_lookup_elem(&cookie_stats, &what);

	if (c)
		*c += 1;
	return action;
}

SEC("xdp")
int xdp_syn_cookie(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct conn cn = {};
	__u32 zero = 0, *secret;
	__u64 *segs, one = 1, h;
	struct tcphdr *th;
	struct iphdr *iph;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return count(SC_OTHER, XDP_PASS);
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end || iph->protocol != IPPROTO_TCP)
		return count(SC_OTHER, XDP_PASS);
	if (iph->ihl != 5)
		return XDP_DROP;	/* options: not one of ours */
	th = (void *)(iph + 1);
	if ((void *)(th + 1) > data_end)
		return XDP_DROP;

	secret = bpf_map_lookup_elem(&cookie_cfg, &zero);
	if (!secret || !*secret)
		return count(SC_OTHER, XDP_PASS);
	if (th->syn && !th->ack)
		return count(SC_SYN, XDP_PASS);

	cn.saddr = iph->saddr;
	cn.daddr = iph->daddr;
	cn.sport = th->source;
	cn.dport = th->dest;
	segs = bpf_map_lookup_elem(&established, &cn);
	if (segs) {
		__sync_fetch_and_add(segs, 1);
		return count(SC_KNOWN, XDP_PASS);
	}
	if (!th->ack || th->syn || th->rst)
		return count(SC_INVALID, XDP_DROP);
	h = nicprog_accel_jhash(ctx, ADDRS_OFF, 12, *secret,
				NICPROG_AFN(NICPROG_AFN_JHASH));
	if (h == NICPROG_ACCEL_ERR ||
	    bpf_ntohl(th->ack_seq) - 1 != (__u32)h)
		return count(SC_INVALID, XDP_DROP);
	bpf_map_update_elem(&established, &cn, &one, BPF_NOEXIST);
	return count(SC_VALID, XDP_PASS);
}

char _license[] SEC("license") = "GPL";
