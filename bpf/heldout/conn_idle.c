// SPDX-License-Identifier: GPL-2.0
/*
 * conn_idle - a connection tracker with idle timeouts in the manner of the
 * conntrack examples (a CT tuple in an LRU_HASH, a last-seen stamp from
 * bpf_ktime_get_ns() refreshed by every frame): a TCP SYN or any UDP frame
 * opens a connection; a TCP frame with no open connection, or one idle past
 * its protocol's timeout, is dropped as out of state; FIN or RST closes it.
 * Everything that is not TCP or UDP over IPv4 passes untracked. Outcomes
 * are counted per CPU. So its verdicts depend on the clock and on every
 * earlier frame of the flow.
 *
 * Held out from the predictor (bpf/heldout/README, set 5).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define TCP_IDLE_NS	(200 * 1000ULL)	/* 200 us: short, so it bites */
#define UDP_IDLE_NS	(50 * 1000ULL)

enum ct_outcome {
	CT_UNTRACKED,
	CT_NEW,
	CT_ESTABLISHED,
	CT_CLOSED,
	CT_INVALID,
	CT_EXPIRED,
	CT_MAX,
};

struct ct_tuple {
	__be32 saddr;
	__be32 daddr;
	__be16 sport;
	__be16 dport;
	__u8 nexthdr;
	__u8 pad[3];
};

struct ct_entry {
	__u64 last_seen;
	__u32 packets;
	__u32 bytes;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, struct ct_tuple);
	__type(value, struct ct_entry);
	__uint(max_entries, 8192);
} ct_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, CT_MAX);
} ct_stats SEC(".maps");

static __always_inline int account(__u32 outcome, int action)
{
	__u64 *cnt = bpf_map_lookup_elem(&ct_stats, &outcome);

	if (cnt)
		*cnt += 1;
	return action;
}

SEC("xdp")
int xdp_conn_idle(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct ct_tuple tuple = {};
	struct ct_entry *ct, fresh;
	struct iphdr *iph;
	__u64 now, idle;
	int open = 0, close = 0;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return account(CT_UNTRACKED, XDP_PASS);
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end || iph->ihl < 5)
		return XDP_DROP;
	/* ports live only in the first fragment */
	if (iph->frag_off & bpf_htons(0x1fff))
		return account(CT_UNTRACKED, XDP_PASS);

	tuple.saddr = iph->saddr;
	tuple.daddr = iph->daddr;
	tuple.nexthdr = iph->protocol;
	if (iph->protocol == IPPROTO_TCP) {
		struct tcphdr *th = (void *)iph + iph->ihl * 4;

		if ((void *)(th + 1) > data_end)
			return XDP_DROP;
		tuple.sport = th->source;
		tuple.dport = th->dest;
		open = th->syn && !th->ack;
		close = th->fin || th->rst;
		idle = TCP_IDLE_NS;
	} else if (iph->protocol == IPPROTO_UDP) {
		struct udphdr *uh = (void *)iph + iph->ihl * 4;

		if ((void *)(uh + 1) > data_end)
			return XDP_DROP;
		tuple.sport = uh->source;
		tuple.dport = uh->dest;
		open = 1;
		idle = UDP_IDLE_NS;
	} else {
		return account(CT_UNTRACKED, XDP_PASS);
	}

	now = bpf_ktime_get_ns();
	ct = bpf_map_lookup_elem(&ct_map, &tuple);
	if (ct && now - ct->last_seen > idle) {
		bpf_map_delete_elem(&ct_map, &tuple);
		if (!open)
			return account(CT_EXPIRED, XDP_DROP);
		ct = NULL;
	}
	if (!ct) {
		if (!open)
			return account(CT_INVALID, XDP_DROP);
		fresh.last_seen = now;
		fresh.packets = 1;
		fresh.bytes = data_end - data;
		bpf_map_update_elem(&ct_map, &tuple, &fresh, BPF_NOEXIST);
		return account(CT_NEW, XDP_PASS);
	}
	if (close) {
		bpf_map_delete_elem(&ct_map, &tuple);
		return account(CT_CLOSED, XDP_PASS);
	}
	ct->last_seen = now;
	ct->packets++;
	ct->bytes += data_end - data;
	return account(CT_ESTABLISHED, XDP_PASS);
}

char _license[] SEC("license") = "GPL";
