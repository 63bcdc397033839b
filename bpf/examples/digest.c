// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause
/*
 * digest - tags IPv4 UDP frames with digests of themselves and sends them
 * back: the first 16 payload bytes become the CRC32C of the rest of the
 * payload, the Toeplitz (RSS) hash and the jhash of the addresses and
 * ports, and the standard CRC32C of the addresses and ports, each
 * big-endian. It exercises the CRC and hash engines; the UDP checksum is
 * cleared. Other frames, and payloads under 16 bytes, pass.
 *
 * The last digest comes from crc32c_std(), plain BPF as an author writes
 * it without bpf/nicprog.h: the offloader identifies it as CRC32C and
 * makes its calls CRC engine jobs (kernel/offload/ident.c).
 */
#define NICPROG_USE_CRC32C
#define NICPROG_USE_TOEPLITZ
#define NICPROG_USE_JHASH
#include "parse.h"

#define DIGEST_OFF	(PKT4_L4_OFF + 8)
#define DIGEST_LEN	16
#define CRC32C_POLY	0x82f63b78

/* One reflected CRC step per bit of the low byte(s) already XORed in. */
#define CRC32C_BITS(crc, n)						\
	do {								\
		int __k;						\
		_Pragma("unroll")					\
		for (__k = 0; __k < (n); __k++)				\
			crc = (crc >> 1) ^ (CRC32C_POLY & -(crc & 1));	\
	} while (0)

/*
 * Standard CRC32C (~0 in, inverted out when @seed is 0) of the frame's
 * bytes [off, off + len), a 32-bit word per turn; 0 if they are not all
 * in the frame or there are more than 4096. A reference body of the CRC
 * engine's function (tools/ident/gen): the region test is the engine's;
 * past it no bounds check fails; the 1024 word turns and at most three
 * byte turns take every byte of len <= 4096 in order, and XORing a
 * little-endian word in before 32 bit steps is four byte turns of the
 * reflected CRC, as the steps are linear and take the low bit first.
 * With 32-bit ALU instructions (-mcpu=v3, as bpf/Makefile builds it) crc
 * lives in a 32-bit register, so R0's upper half is zero, as the engine's
 * result's is; earlier CPU versions compute it in 64 bits and leave R4's
 * upper half there, so the mark covers v3 only.
 */
/* nicprog-ident: crc32c 0x70 v3 */
__noinline __u32 crc32c_std(struct xdp_md *ctx, __u64 off,
					   __u64 len, __u32 seed)
{
	__u8 *p = NICPROG_DATA(ctx), *end = NICPROG_DATA_END(ctx), *q;
	__u32 crc = ~seed, i, j;

	__nicprog_opaque(off);
	__nicprog_opaque(len);
	if (off > 4096 || len > 4096 || off + len > (__u64)(end - p))
		return 0;
	p += off;
	for (i = 0; i < 1024; i++) {
		if (i * 4 + 4 > len)
			break;
		q = p + i * 4;
		if (q + 4 > end)
			return 0;
		crc ^= q[0] | q[1] << 8 | q[2] << 16 | (__u32)q[3] << 24;
		CRC32C_BITS(crc, 32);
	}
	for (j = 0; j < 3; j++) {
		if (i * 4 + j >= len)
			break;
		q = p + i * 4 + j;
		if (q + 1 > end)
			return 0;
		crc ^= *q;
		CRC32C_BITS(crc, 8);
	}
	return ~crc;
}

SEC("xdp")
int digest(struct xdp_md *ctx)
{
	__u64 crc, rss, jh, std;
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
	std = crc32c_std(ctx, PKT4_IP_OFF + 12, 12, 0);
	if (crc == NICPROG_ACCEL_ERR || rss == NICPROG_ACCEL_ERR ||
	    jh == NICPROG_ACCEL_ERR)
		return XDP_PASS;
	d = NICPROG_DATA(ctx);
	if ((void *)(d + DIGEST_OFF + DIGEST_LEN) > NICPROG_DATA_END(ctx))
		return XDP_PASS;
	*(__be32 *)(d + DIGEST_OFF) = bpf_htonl(~(__u32)crc);
	*(__be32 *)(d + DIGEST_OFF + 4) = bpf_htonl((__u32)rss);
	*(__be32 *)(d + DIGEST_OFF + 8) = bpf_htonl((__u32)jh);
	*(__be32 *)(d + DIGEST_OFF + 12) = bpf_htonl((__u32)std);
	*(__be16 *)(d + PKT4_L4_OFF + 6) = 0;
	return XDP_TX;
}

char LICENSE[] SEC("license") = "GPL";
