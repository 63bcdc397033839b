// SPDX-License-Identifier: GPL-2.0
/*
 * Reference bodies of the Internet checksum (RFC 1071) in plain BPF:
 * functions the offloader may hand to the csum engine. How marks work:
 * crc32c.c beside this file.
 *
 * The csum engine computes nicprog_csum_ref(frame + off, len, seed)
 * (<net/nicprog_exec.h>): @seed plus the big-endian 16-bit words of the
 * region (an odd last byte padded with zero) in 64 bits, folded three
 * times to 16 bits; it fails when off > 4096, len > 4096 or off + len is
 * past the frame's end.
 *
 * Identification compares a function's own instructions, so each
 * reference is a whole function; the region test and the bounds checks
 * they all make are region.h's macros, whose text is the body's.
 *
 * The XDP program writes both sums of the UDP payload over the first four
 * payload bytes of IPv4 UDP frames, clears the UDP checksum and passes
 * every frame.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/in.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "region.h"

/*
 * csum_fold: conventions 0 (raw seed, raw result, error ~0).
 * The region test is the engine's, word for word; past it the per-word
 * bounds checks never fail. The loop adds word i for every i with
 * 2i + 2 <= len, and 2048 turns cover len <= 4096; an odd last byte is
 * added shifted left by 8 (padded with zero). The sum is at most
 * 2^32 - 1 + 2048 * 65535 < 2^33, so 64 bits hold it, and the three folds
 * are the engine's, so the result is equal (and at most 0xffff).
 */
/* nicprog-ident: csum 0x00 */
__attribute__((noinline)) __u64 csum_fold(struct xdp_md *ctx, __u64 off,
					  __u64 len, __u32 seed)
{
	__u8 *p = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	__u64 sum = seed;
	__u32 i;

	REGION_ENTER(p, end, off, len, ~0ULL);
	for (i = 0; i < REGION_MAX / 2; i++) {
		if (i * 2 + 2 > len)
			break;
		REGION_CHECK(p, end, 2, ~0ULL);
		sum += ((__u32)p[0] << 8) | p[1];
		p += 2;
	}
	if (len & 1) {
		REGION_CHECK(p, end, 1, ~0ULL);
		sum += (__u32)p[0] << 8;
	}
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (sum & 0xffff) + (sum >> 16);
}

/*
 * csum_inet: conventions 0xa0 (result inverted, error 0xffffffff).
 * The checksum field's value: the body above with the folded sum
 * (at most 0xffff) complemented in 16 bits, and 0xffffffff -- no
 * 16-bit value -- on an error.
 */
/* nicprog-ident: csum 0xa0 */
__attribute__((noinline)) __u32 csum_inet(struct xdp_md *ctx, __u64 off,
					  __u64 len, __u32 seed)
{
	__u8 *p = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	__u64 sum = seed;
	__u32 i;

	REGION_ENTER(p, end, off, len, 0xffffffff);
	for (i = 0; i < REGION_MAX / 2; i++) {
		if (i * 2 + 2 > len)
			break;
		REGION_CHECK(p, end, 2, 0xffffffff);
		sum += ((__u32)p[0] << 8) | p[1];
		p += 2;
	}
	if (len & 1) {
		REGION_CHECK(p, end, 1, 0xffffffff);
		sum += (__u32)p[0] << 8;
	}
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return ~sum & 0xffff;
}

#define PAYLOAD_OFF	(ETH_HLEN + 20 + 8)

SEC("xdp")
int ident_csum_ref(struct xdp_md *ctx)
{
	__u8 *d = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct iphdr *ip = (void *)(d + ETH_HLEN);
	__u64 len = end - d;
	__u16 a, b;

	if ((void *)(ip + 1) > (void *)end ||
	    ((struct ethhdr *)d)->h_proto != bpf_htons(ETH_P_IP) ||
	    ip->ihl != 5 || ip->protocol != IPPROTO_UDP ||
	    len < PAYLOAD_OFF + 4)
		return XDP_PASS;
	a = csum_fold(ctx, PAYLOAD_OFF + 4, len - PAYLOAD_OFF - 4, 0);
	b = csum_inet(ctx, PAYLOAD_OFF + 4, len - PAYLOAD_OFF - 4, 0);
	d = (void *)(long)ctx->data;
	end = (void *)(long)ctx->data_end;
	if (d + PAYLOAD_OFF + 4 > end)
		return XDP_PASS;
	*(__u16 *)(d + PAYLOAD_OFF) = a;
	*(__u16 *)(d + PAYLOAD_OFF + 2) = b;
	*(__u16 *)(d + PAYLOAD_OFF - 2) = 0;	/* no UDP checksum */
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
