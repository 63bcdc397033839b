// SPDX-License-Identifier: GPL-2.0
/*
 * Identified: sum16() is an Internet checksum in plain BPF (result
 * inverted, 0xffffffff when the region is not in the frame); the offloader
 * makes its call a csum engine job. The NF stores the checksum of an
 * IPv4 UDP payload (from its 3rd byte) in the payload's first two bytes
 * and sends the frame back; other frames pass.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/in.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#define L4_OFF		(ETH_HLEN + 20)
#define PAYLOAD_OFF	(L4_OFF + 8)

/*
 * A reference body of the csum engine's function (tools/ident/gen): the
 * region test is the engine's; 2048 word turns and the odd byte cover
 * len <= 4096; three folds of a sum below 2^33 leave at most 0xffff, whose
 * 16-bit complement is the result.
 */
/* nicprog-ident: csum 0xa0 */
__noinline __u32 sum16(struct xdp_md *ctx, __u64 off,
				      __u64 len, __u32 seed)
{
	__u8 *p = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	__u64 sum = seed;
	__u8 *q;
	__u32 i;

	/* bounds checks below test the registers later uses read */
	asm volatile("" : "+r"(off), "+r"(len));
	if (off > 4096 || len > 4096 || off + len > (__u64)(end - p))
		return 0xffffffff;
	p += off;
	for (i = 0; i < 2048; i++) {
		if (i * 2 + 2 > len)
			break;
		q = p + i * 2;
		if (q + 2 > end)
			return 0xffffffff;
		sum += (__u32)q[0] << 8 | q[1];
	}
	if (len & 1) {
		q = p + i * 2;
		if (q + 1 > end)
			return 0xffffffff;
		sum += (__u32)q[0] << 8;
	}
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return ~sum & 0xffff;
}

SEC("xdp")
int ident_csum(struct xdp_md *ctx)
{
	__u8 *d = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = (void *)d;
	struct iphdr *ip = (void *)(eth + 1);
	__u64 len = end - d;
	__u32 sum;

	if ((void *)(ip + 1) > (void *)end ||
	    eth->h_proto != bpf_htons(ETH_P_IP) || ip->ihl != 5 ||
	    ip->protocol != IPPROTO_UDP || len < PAYLOAD_OFF + 2)
		return XDP_PASS;
	sum = sum16(ctx, PAYLOAD_OFF + 2, len - PAYLOAD_OFF - 2, 0);
	d = (void *)(long)ctx->data;
	end = (void *)(long)ctx->data_end;
	if (sum == 0xffffffff || d + PAYLOAD_OFF + 2 > end)
		return XDP_PASS;
	*(__be16 *)(d + PAYLOAD_OFF) = bpf_htons(sum);
	*(__be16 *)(d + L4_OFF + 6) = 0;	/* no UDP checksum */
	return XDP_TX;
}

char LICENSE[] SEC("license") = "GPL";
