// SPDX-License-Identifier: GPL-2.0
/*
 * udp_pinhole - a stateful UDP firewall between an inside network and the
 * outside, in the manner of the home-router pinhole filters written for
 * XDP: a datagram from the inside (10.128.0.0/9) opens a pinhole keyed by
 * the remote address and port and the local port, and refreshes it; a
 * datagram from the outside passes only through an open pinhole, looked up
 * with its fields the other way round, and is counted on it; a pinhole
 * holds for a budget of datagrams from the outside, then closes until the
 * inside sends again. TCP, ICMP and everything not IPv4 pass. Verdicts
 * per CPU in an ARRAY of counters.
 *
 * Held out from the predictor (bpf/heldout/README, set 11).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define INSIDE_NET	0x0a800000	/* 10.128.0.0/9 */
#define INSIDE_MASK	0xff800000
#define PINHOLE_BUDGET	8

struct pinhole_key {
	__be32 remote_addr;
	__be16 remote_port;
	__be16 local_port;
};

struct pinhole {
	__be32 local_addr;
	__u32 budget;
	__u64 in_bytes;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct pinhole_key);
	__type(value, struct pinhole);
	__uint(max_entries, 4096);
} pinholes SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, XDP_REDIRECT + 1);
} verdicts SEC(".maps");

static __always_inline int verdict(int action)
{
	__u32 key = action;
	__u64 *cnt = bpf_map_lookup_elem(&verdicts, &key);

	if (cnt)
		__sync_fetch_and_add(cnt, 1);
	return action;
}

SEC("xdp")
int xdp_udp_pinhole(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct pinhole_key key;
	struct pinhole *ph;
	struct udphdr *udp;
	struct iphdr *iph;
	__u64 off;

	off = sizeof(*eth);
	if (data + off > data_end)
		return verdict(XDP_DROP);
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return verdict(XDP_PASS);
	iph = data + off;
	if ((void *)(iph + 1) > data_end)
		return verdict(XDP_DROP);
	if (iph->protocol != IPPROTO_UDP)
		return verdict(XDP_PASS);
	off += iph->ihl * 4;
	if (off < sizeof(*eth) + sizeof(*iph) || off > 60 + sizeof(*eth))
		return verdict(XDP_DROP);
	udp = data + off;
	if ((void *)(udp + 1) > data_end)
		return verdict(XDP_DROP);

	if ((bpf_ntohl(iph->saddr) & INSIDE_MASK) == INSIDE_NET) {
		struct pinhole fresh = {
			.local_addr = iph->saddr,
			.budget = PINHOLE_BUDGET,
		};

		key.remote_addr = iph->daddr;
		key.remote_port = udp->dest;
		key.local_port = udp->source;
		ph = bpf_map_lookup_elem(&pinholes, &key);
		if (ph) {
			ph->local_addr = iph->saddr;
			ph->budget = PINHOLE_BUDGET;
		} else {
			bpf_map_update_elem(&pinholes, &key, &fresh, BPF_ANY);
		}
		return verdict(XDP_PASS);
	}

	key.remote_addr = iph->saddr;
	key.remote_port = udp->source;
	key.local_port = udp->dest;
	ph = bpf_map_lookup_elem(&pinholes, &key);
	if (!ph || ph->local_addr != iph->daddr || !ph->budget)
		return verdict(XDP_DROP);
	ph->budget--;
	ph->in_bytes += data_end - data;
	return verdict(XDP_PASS);
}

char _license[] SEC("license") = "GPL";
