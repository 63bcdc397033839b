// SPDX-License-Identifier: GPL-2.0
/*
 * filter_ports - deny lists in the manner of xdp-tools' xdp-filter: a
 * configuration word of features (which lists apply), per-port flags in
 * an ARRAY of all 65,536 ports (source or destination, TCP or UDP), and
 * IPv4 addresses in a HASH (as a source or a destination), each list's
 * entry counting the frames it matched; a frame any applying list matches
 * is dropped, the rest pass, and a per-CPU count per verdict. The header
 * cursor parses through up to two VLAN tags. Without configuration
 * nothing is filtered.
 *
 * Held out from the predictor (bpf/heldout/README, set 10).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define FEAT_TCP	(1U << 0)
#define FEAT_UDP	(1U << 1)
#define FEAT_IPV4	(1U << 2)

#define MODE_SRC	(1ULL << 0)
#define MODE_DST	(1ULL << 1)
#define MODE_TCP	(1ULL << 2)
#define MODE_UDP	(1ULL << 3)
#define MODE_FLAGS	0xffULL
#define COUNTER_SHIFT	8

struct vlan_hdr {
	__be16 h_vlan_TCI;
	__be16 h_vlan_encapsulated_proto;
};

struct hdr_cursor {
	void *pos;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 1);
} filter_features SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 65536);
} filter_ports SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1024);
} filter_ipv4 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, XDP_REDIRECT + 1);
} xdp_stats SEC(".maps");

static __always_inline int parse_ethhdr(struct hdr_cursor *nh,
					void *data_end)
{
	struct ethhdr *eth = nh->pos;
	struct vlan_hdr *vlh;
	__u16 h_proto;
	int i;

	if ((void *)(eth + 1) > data_end)
		return -1;
	nh->pos = eth + 1;
	vlh = nh->pos;
	h_proto = eth->h_proto;
#pragma unroll
	for (i = 0; i < 2; i++) {
		if (h_proto != bpf_htons(ETH_P_8021Q) &&
		    h_proto != bpf_htons(ETH_P_8021AD))
			break;
		if ((void *)(vlh + 1) > data_end)
			return -1;
		h_proto = vlh->h_vlan_encapsulated_proto;
		vlh++;
	}
	nh->pos = vlh;
	return h_proto;
}

/* A list's entry for @key matched: count it, and say whether it applies. */
static __always_inline int matched(__u64 *value, __u64 mode)
{
	if (!value || (*value & mode) != mode)
		return 0;
	__sync_fetch_and_add(value, 1ULL << COUNTER_SHIFT);
	return 1;
}

static __always_inline int check_port(__u16 port, __u64 mode)
{
	__u32 key = port;

	return matched(bpf_map_lookup_elem(&filter_ports, &key), mode);
}

static __always_inline int check_ipv4(__u32 addr, __u64 mode)
{
	return matched(bpf_map_lookup_elem(&filter_ipv4, &addr), mode);
}

static __always_inline int stats_action(int action)
{
	__u32 key = action;
	__u64 *cnt = bpf_map_lookup_elem(&xdp_stats, &key);

	if (cnt)
		*cnt += 1;
	return action;
}

SEC("xdp")
int filter_ports_prog(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	struct hdr_cursor nh = { .pos = (void *)(long)ctx->data };
	__u32 zero = 0, features, *feat;
	struct iphdr *iph;
	struct tcphdr *th;
	struct udphdr *uh;
	int proto;

	feat = bpf_map_lookup_elem(&filter_features, &zero);
	features = feat ? *feat : 0;
	proto = parse_ethhdr(&nh, data_end);
	if (proto != bpf_htons(ETH_P_IP))
		return stats_action(XDP_PASS);
	iph = nh.pos;
	if ((void *)(iph + 1) > data_end || iph->ihl < 5 ||
	    (void *)iph + iph->ihl * 4 > data_end)
		return stats_action(XDP_PASS);
	nh.pos = (void *)iph + iph->ihl * 4;
	if (features & FEAT_IPV4) {
		if (check_ipv4(iph->saddr, MODE_SRC) ||
		    check_ipv4(iph->daddr, MODE_DST))
			return stats_action(XDP_DROP);
	}
	if (iph->protocol == IPPROTO_TCP && (features & FEAT_TCP)) {
		th = nh.pos;
		if ((void *)(th + 1) > data_end)
			return stats_action(XDP_ABORTED);
		if (check_port(bpf_ntohs(th->source), MODE_SRC | MODE_TCP) ||
		    check_port(bpf_ntohs(th->dest), MODE_DST | MODE_TCP))
			return stats_action(XDP_DROP);
	} else if (iph->protocol == IPPROTO_UDP && (features & FEAT_UDP)) {
		uh = nh.pos;
		if ((void *)(uh + 1) > data_end)
			return stats_action(XDP_ABORTED);
		if (check_port(bpf_ntohs(uh->source), MODE_SRC | MODE_UDP) ||
		    check_port(bpf_ntohs(uh->dest), MODE_DST | MODE_UDP))
			return stats_action(XDP_DROP);
	}
	return stats_action(XDP_PASS);
}

char _license[] SEC("license") = "GPL";
