// SPDX-License-Identifier: GPL-2.0
/*
 * l4_csum_check - receive checksum validation of IPv4 TCP and UDP in XDP,
 * in the manner of the checksum-verifying samples: the pseudo-header is
 * summed inline, the L4 header and payload by a ones' complement loop
 * over 16-bit words (a global function, so a NIC may give it to a
 * checksum engine); a segment or datagram whose checksum is wrong is
 * dropped, a UDP datagram whose checksum is zero (none sent) or one that
 * is right passes, and each outcome is counted per CPU. Fragments and
 * other protocols pass uncounted.
 *
 * Held out from the predictor (bpf/heldout/README, set 4).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define MAX_CSUM_LEN	2048

enum { CSUM_NONE, CSUM_GOOD, CSUM_BAD, CSUM_SHORT, CSUM_MAX };

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, CSUM_MAX);
} csum_stats SEC(".maps");

/* ones' complement sum of [off, off + len), folded; ~0U if not in frame */
__noinline __u32 ones_sum(struct xdp_md *ctx, __u64 off, __u64 len,
			  __u32 seed)
{
	__u8 *data = (void *)(long)ctx->data;
	__u8 *data_end = (void *)(long)ctx->data_end;
	__u64 acc = seed;
	__u8 *pos;
	__u32 w;

	/* keep the compared registers the ones used below */
	asm volatile("" : "+r"(off), "+r"(len));
	if (off > MAX_CSUM_LEN || len > MAX_CSUM_LEN ||
	    off + len > (__u64)(data_end - data))
		return ~0U;
	pos = data + off;
	for (w = 0; w < MAX_CSUM_LEN / 2; w++) {
		if ((__u64)w * 2 + 2 > len)
			break;
		if (pos + 2 > data_end)
			return ~0U;
		acc += ((__u32)pos[0] << 8) + pos[1];
		pos += 2;
	}
	if (len & 1) {
		if (pos + 1 > data_end)
			return ~0U;
		acc += (__u32)pos[0] << 8;
	}
	acc = (acc & 0xffffffff) + (acc >> 32);
	acc = (acc & 0xffff) + (acc >> 16);
	acc = (acc & 0xffff) + (acc >> 16);
	acc = (acc & 0xffff) + (acc >> 16);
	return (__u32)acc;
}

static __always_inline void count(__u32 what)
{
	__u64 *c = bpf_map_lookup_elem(&csum_stats, &what);

	if (c)
		*c += 1;
}

SEC("xdp")
int l4_csum_check(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph = (void *)(eth + 1);
	struct udphdr *udph;
	__u32 seed, sum, l4len, l4off;
	__u8 proto;

	if ((void *)(iph + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	proto = iph->protocol;
	if ((proto != IPPROTO_UDP && proto != IPPROTO_TCP) || iph->ihl < 5 ||
	    (iph->frag_off & bpf_htons(0x3fff)))
		return XDP_PASS;
	l4off = sizeof(*eth) + iph->ihl * 4;
	if (bpf_ntohs(iph->tot_len) < iph->ihl * 4 + sizeof(*udph)) {
		count(CSUM_SHORT);
		return XDP_DROP;
	}
	l4len = bpf_ntohs(iph->tot_len) - iph->ihl * 4;
	if (proto == IPPROTO_UDP) {
		udph = data + l4off;
		if ((void *)(udph + 1) > data_end)
			return XDP_PASS;
		if (!udph->check) {
			count(CSUM_NONE);
			return XDP_PASS;
		}
		l4len = bpf_ntohs(udph->len);
	}
	if (l4len < sizeof(*udph) || data + l4off + l4len > data_end) {
		count(CSUM_SHORT);
		return XDP_DROP;
	}
	/* pseudo-header: addresses, protocol, L4 length */
	seed = (bpf_ntohl(iph->saddr) >> 16) + (bpf_ntohl(iph->saddr) & 0xffff) +
	       (bpf_ntohl(iph->daddr) >> 16) + (bpf_ntohl(iph->daddr) & 0xffff) +
	       proto + l4len;
	sum = ones_sum(ctx, l4off, l4len, seed);
	if (sum == ~0U) {
		count(CSUM_SHORT);
		return XDP_DROP;
	}
	if (sum != 0xffff) {
		count(CSUM_BAD);
		return XDP_DROP;
	}
	count(CSUM_GOOD);
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
