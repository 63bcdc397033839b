// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause
/*
 * digest - tags IPv4 UDP frames with digests of themselves and sends them
 * back: the first 12 payload bytes become the CRC32C of the rest of the
 * payload, the Toeplitz (RSS) hash and the jhash of the addresses and
 * ports, each big-endian. It exercises the CRC and hash engines; the
 * UDP checksum is cleared. Other frames, and payloads under 12 bytes,
 * pass.
 */
#define NICPROG_USE_CRC32C
#define NICPROG_USE_TOEPLITZ
#define NICPROG_USE_JHASH
#include "parse.h"

#define DIGEST_OFF	(PKT4_L4_OFF + 8)
#define DIGEST_LEN	12

SEC("xdp")
int digest(struct xdp_md *ctx)
{
	__u64 crc, rss, jh;
	struct pkt4 p;
	__u32 len;
	__u8 *d;

	if (parse4(ctx, &p) || p.ip->protocol != IPPROTO_UDP)
		return XDP_PASS;
	len = (__u32)((long)p.end - (long)p.eth);
	if (len < DIGEST_OFF + DIGEST_LEN || len > 4096)
		return XDP_PASS;
	crc = nicprog_accel_crc32c(ctx, DIGEST_OFF + DIGEST_LEN,
				   len - DIGEST_OFF - DIGEST_LEN, ~0U,
				   NICPROG_AFN(NICPROG_AFN_CRC32C));
	rss = nicprog_accel_toeplitz(ctx, PKT4_IP_OFF + 12, 12, 0,
				     NICPROG_AFN(NICPROG_AFN_TOEPLITZ));
	jh = nicprog_accel_jhash(ctx, PKT4_IP_OFF + 12, 12, 0x1234,
				 NICPROG_AFN(NICPROG_AFN_JHASH));
	if (crc == NICPROG_ACCEL_ERR || rss == NICPROG_ACCEL_ERR ||
	    jh == NICPROG_ACCEL_ERR)
		return XDP_PASS;
	d = NICPROG_DATA(ctx);
	if ((void *)(d + DIGEST_OFF + DIGEST_LEN) > NICPROG_DATA_END(ctx))
		return XDP_PASS;
	*(__be32 *)(d + DIGEST_OFF) = bpf_htonl(~(__u32)crc);
	*(__be32 *)(d + DIGEST_OFF + 4) = bpf_htonl((__u32)rss);
	*(__be32 *)(d + DIGEST_OFF + 8) = bpf_htonl((__u32)jh);
	*(__be16 *)(d + PKT4_L4_OFF + 6) = 0;
	return XDP_TX;
}

char LICENSE[] SEC("license") = "GPL";
