// SPDX-License-Identifier: GPL-2.0
/*
 * ct_reply - a connection tracker that knows both directions of a
 * connection, in the manner of the conntrack programs of the XDP and tc
 * examples (and Cilium's CT): the tuple of the frame is looked up as sent,
 * then turned round (the reply direction); a hit in reverse marks the
 * connection as having seen a reply (conntrack's ASSURED). A TCP SYN
 * without ACK or any UDP frame opens a connection; TCP outside a
 * connection is dropped, RST closes; a connection idle past its timeout
 * on bpf_ktime_get_ns() is forgotten. Non-IPv4, fragments and other
 * protocols pass. Outcomes per CPU. Its verdicts depend on the clock and
 * on the frames of both directions before.
 *
 * Held out from the predictor (bpf/heldout/README, set 11).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define CT_IDLE_NS	(400 * 1000ULL)

enum { CT_ORIG, CT_REPLY };

enum ct_stat {
	ST_PASS_OTHER,
	ST_NEW,
	ST_ORIG,
	ST_REPLY,
	ST_ASSURED,
	ST_RST,
	ST_INVALID,
	ST_IDLE,
	ST_MAX,
};

struct ipv4_ct_tuple {
	__be32 daddr;
	__be32 saddr;
	__be16 dport;
	__be16 sport;
	__u8 nexthdr;
	__u8 flags;
	__u16 pad;
};

struct ct_entry {
	__u64 lifetime;
	__u32 tx_packets;
	__u32 rx_packets;
	__u8 seen_reply;
	__u8 pad[7];
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, struct ipv4_ct_tuple);
	__type(value, struct ct_entry);
	__uint(max_entries, 16384);
} ct4_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, ST_MAX);
} ct_stats SEC(".maps");

static __always_inline int stat_ret(__u32 idx, int verdict)
{
	__u64 *v = bpf_map_lookup_elem(&ct_stats, &idx);

	if (v)
		(*v)++;
	return verdict;
}

static __always_inline void ct_reverse(struct ipv4_ct_tuple *t)
{
	__be32 a = t->daddr;
	__be16 p = t->dport;

	t->daddr = t->saddr;
	t->saddr = a;
	t->dport = t->sport;
	t->sport = p;
}

SEC("xdp")
int xdp_ct_reply(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ipv4_ct_tuple tuple = {};
	struct ethhdr *eth = data;
	struct ct_entry *entry;
	int dir = CT_ORIG, syn = 0, rst = 0;
	struct iphdr *ip4;
	__u64 now;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return stat_ret(ST_PASS_OTHER, XDP_PASS);
	ip4 = (void *)(eth + 1);
	if ((void *)(ip4 + 1) > data_end)
		return XDP_DROP;
	if (ip4->ihl != 5 || (ip4->frag_off & bpf_htons(0x3fff)))
		return stat_ret(ST_PASS_OTHER, XDP_PASS);

	tuple.daddr = ip4->daddr;
	tuple.saddr = ip4->saddr;
	tuple.nexthdr = ip4->protocol;
	if (ip4->protocol == IPPROTO_TCP) {
		struct tcphdr *th = (void *)(ip4 + 1);

		if ((void *)(th + 1) > data_end)
			return XDP_DROP;
		tuple.dport = th->dest;
		tuple.sport = th->source;
		syn = th->syn && !th->ack;
		rst = th->rst;
	} else if (ip4->protocol == IPPROTO_UDP) {
		struct udphdr *uh = (void *)(ip4 + 1);

		if ((void *)(uh + 1) > data_end)
			return XDP_DROP;
		tuple.dport = uh->dest;
		tuple.sport = uh->source;
		syn = 1;
	} else {
		return stat_ret(ST_PASS_OTHER, XDP_PASS);
	}

	now = bpf_ktime_get_ns();
	entry = bpf_map_lookup_elem(&ct4_map, &tuple);
	if (!entry) {
		ct_reverse(&tuple);
		entry = bpf_map_lookup_elem(&ct4_map, &tuple);
		if (entry)
			dir = CT_REPLY;
		else
			ct_reverse(&tuple);
	}
	if (entry && entry->lifetime < now) {
		bpf_map_delete_elem(&ct4_map, &tuple);
		entry = NULL;
		if (!syn || dir == CT_REPLY)
			return stat_ret(ST_IDLE, XDP_DROP);
		dir = CT_ORIG;
	}
	if (!entry) {
		struct ct_entry fresh = {
			.lifetime = now + CT_IDLE_NS,
			.tx_packets = 1,
		};

		if (!syn)
			return stat_ret(ST_INVALID, XDP_DROP);
		bpf_map_update_elem(&ct4_map, &tuple, &fresh, BPF_ANY);
		return stat_ret(ST_NEW, XDP_PASS);
	}
	if (rst) {
		bpf_map_delete_elem(&ct4_map, &tuple);
		return stat_ret(ST_RST, XDP_PASS);
	}
	entry->lifetime = now + CT_IDLE_NS;
	if (dir == CT_REPLY) {
		entry->rx_packets++;
		if (!entry->seen_reply) {
			entry->seen_reply = 1;
			return stat_ret(ST_ASSURED, XDP_PASS);
		}
		return stat_ret(ST_REPLY, XDP_PASS);
	}
	entry->tx_packets++;
	return stat_ret(ST_ORIG, XDP_PASS);
}

char _license[] SEC("license") = "GPL";
