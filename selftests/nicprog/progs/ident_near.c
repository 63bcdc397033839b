// SPDX-License-Identifier: GPL-2.0
/*
 * Not identified: crc_first1000() is CRC32C of at most the first 1000
 * bytes of its region, which no engine function is, so its call runs on a
 * core. The NF stores the CRC of an IPv4 frame's bytes after the IPv4
 * header (but its last four) over the first four bytes of its source MAC
 * address and passes it.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>


__noinline __u32 crc_first1000(struct xdp_md *ctx, __u64 off,
					      __u64 len, __u32 crc)
{
	__u8 *p = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	__u32 i, k;

	/* bounds checks below test the registers later uses read */
	asm volatile("" : "+r"(off), "+r"(len));
	if (off > 4096 || len > 4096 || off + len > (__u64)(end - p))
		return 0;
	p += off;
	for (i = 0; i < 1000 && i < len; i++) {
		if (p + i + 1 > end)
			return 0;
		crc ^= p[i];
#pragma unroll
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (-(crc & 1) & 0x82f63b78);
	}
	return crc;
}

SEC("xdp")
int ident_near(struct xdp_md *ctx)
{
	__u8 *d = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = (void *)d;
	__u64 len = end - d;
	__u32 crc;

	if ((void *)(eth + 1) > (void *)end ||
	    eth->h_proto != bpf_htons(ETH_P_IP) || len < ETH_HLEN + 24)
		return XDP_PASS;
	crc = crc_first1000(ctx, ETH_HLEN + 20, len - ETH_HLEN - 24, 0);
	d = (void *)(long)ctx->data;
	end = (void *)(long)ctx->data_end;
	if (d + ETH_HLEN > end)
		return XDP_PASS;
	__builtin_memcpy(d + ETH_ALEN, &crc, sizeof(crc));
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
