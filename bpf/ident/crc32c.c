// SPDX-License-Identifier: GPL-2.0
/*
 * Reference bodies of CRC32C in plain BPF: functions the offloader may
 * hand to the CRC engine (Documentation/nicprog/offloader.rst, "Algorithm
 * identification"). A function is identified only when its instructions
 * are, up to the renaming of R6-R9, those clang emitted for one of the
 * bodies marked "nicprog-ident" in the tree (kernel/offload/ident_bodies.c,
 * made by tools/ident/gen). Each mark names the engine function and the
 * conventions the body keeps around it (NICPROG_EXEC_ACCEL_* of
 * <net/nicprog_exec.h>), and the comment above it argues that the body
 * computes exactly that for every input.
 *
 * The CRC engine computes crc32c_le(seed, frame + off, len) -- reflected,
 * polynomial 0x82f63b78, no inversions -- and fails when off > 4096,
 * len > 4096 or off + len is past the frame's end.
 *
 * Identification compares a function's own instructions, so each
 * reference is a whole function; the region test and the bounds checks
 * they all make are region.h's macros, whose text is the body's.
 *
 * The XDP program writes the three CRCs of the UDP payload over its first
 * twelve bytes in IPv4 UDP frames and passes every frame.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/in.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "region.h"

#define CRC32C_POLY	0x82f63b78

/*
 * crc32c_bitwise: conventions 0 (raw seed, raw result, error ~0).
 * The region test is the engine's, word for word; past it every byte of
 * [off, off + len) is in the frame, so the per-byte bounds check never
 * fails (it is there for the verifier). The loop runs for i < len and
 * len <= 4096, so the 4096 cap never cuts it short. Each turn is one
 * byte of the bitwise reflected CRC: XOR the byte into the low bits,
 * then eight steps of shift right, XOR the polynomial when the bit
 * shifted out was set -- crc32c_le()'s definition.
 */
/* nicprog-ident: crc32c 0x00 */
__attribute__((noinline)) __u64 crc32c_bitwise(struct xdp_md *ctx,
					       __u64 off, __u64 len,
					       __u32 seed)
{
	__u8 *p = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	__u32 crc = seed, i, k;

	REGION_ENTER(p, end, off, len, ~0ULL);
	for (i = 0; i < REGION_MAX; i++) {
		if (i >= len)
			break;
		crc ^= REGION_BYTE(p, end, ~0ULL);
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (CRC32C_POLY & -(crc & 1));
	}
	return crc;
}

/*
 * crc32c_std: conventions 0x70 (seed inverted, result inverted, error 0).
 * The CRC32C of RFC 3720 (~0 in, inverted out when @seed is 0), the form
 * iSCSI and ext4 use: the body above with crc = ~seed on entry, crc
 * inverted in its low 32 bits on return and 0 instead of ~0 on an
 * error. crc is 64 bits wide and below 2^32 throughout (the seed is
 * zero-extended, every step shifts right or XORs values below 2^32), and
 * the function returns 64 bits, so R0 is exact whatever the ALU width:
 * a 32-bit result in a 32-bit variable would leave R0's upper half to
 * the compiler (with -mcpu=v1 it keeps R4's).
 */
/* nicprog-ident: crc32c 0x70 */
__attribute__((noinline)) __u64 crc32c_std(struct xdp_md *ctx, __u64 off,
					   __u64 len, __u32 seed)
{
	__u8 *p = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	__u64 crc = (__u32)~seed;
	__u32 i, k;

	REGION_ENTER(p, end, off, len, 0);
	for (i = 0; i < REGION_MAX; i++) {
		if (i >= len)
			break;
		crc ^= REGION_BYTE(p, end, 0);
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (CRC32C_POLY & -(crc & 1));
	}
	return crc ^ 0xffffffff;
}

/*
 * crc32c_nibble: conventions 0x00, table-driven as much public code is.
 * tab[n] is n after four steps of the bitwise CRC above (computed by
 * hand: four shifts right, the polynomial XORed in when the bit shifted
 * out was set). The steps are linear over GF(2), so four steps of crc
 * are four steps of its low nibble XORed into crc >> 4, and a byte's
 * eight steps are two such turns. The region test, the loop bounds and
 * the 64-bit crc, always below 2^32, are crc32c_std's. The table lives
 * on the stack, an entry a store (else clang builds it from .rodata,
 * a map load).
 */
/* nicprog-ident: crc32c 0x00 */
__attribute__((noinline)) __u64 crc32c_nibble(struct xdp_md *ctx,
					      __u64 off, __u64 len,
					      __u32 seed)
{
	__u8 *p = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	volatile __u32 tab[16];
	__u64 crc = seed;
	__u32 i;

	tab[0] = 0x00000000; tab[1] = 0x105ec76f;
	tab[2] = 0x20bd8ede; tab[3] = 0x30e349b1;
	tab[4] = 0x417b1dbc; tab[5] = 0x5125dad3;
	tab[6] = 0x61c69362; tab[7] = 0x7198540d;
	tab[8] = 0x82f63b78; tab[9] = 0x92a8fc17;
	tab[10] = 0xa24bb5a6; tab[11] = 0xb21572c9;
	tab[12] = 0xc38d26c4; tab[13] = 0xd3d3e1ab;
	tab[14] = 0xe330a81a; tab[15] = 0xf36e6f75;
	REGION_ENTER(p, end, off, len, ~0ULL);
	for (i = 0; i < REGION_MAX; i++) {
		if (i >= len)
			break;
		crc ^= REGION_BYTE(p, end, ~0ULL);
		crc = (crc >> 4) ^ tab[crc & 0xf];
		crc = (crc >> 4) ^ tab[crc & 0xf];
	}
	return crc;
}

#define PAYLOAD_OFF	(ETH_HLEN + 20 + 8)

SEC("xdp")
int ident_crc32c(struct xdp_md *ctx)
{
	__u8 *d = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct iphdr *ip = (void *)(d + ETH_HLEN);
	__u64 len = end - d;
	__u32 a, b, c;

	if ((void *)(ip + 1) > (void *)end ||
	    ((struct ethhdr *)d)->h_proto != bpf_htons(ETH_P_IP) ||
	    ip->ihl != 5 || ip->protocol != IPPROTO_UDP ||
	    len < PAYLOAD_OFF + 12)
		return XDP_PASS;
	a = crc32c_bitwise(ctx, PAYLOAD_OFF + 12, len - PAYLOAD_OFF - 12, 0);
	b = crc32c_std(ctx, PAYLOAD_OFF + 12, len - PAYLOAD_OFF - 12, 0);
	c = crc32c_nibble(ctx, PAYLOAD_OFF + 12, len - PAYLOAD_OFF - 12, ~0U);
	d = (void *)(long)ctx->data;
	end = (void *)(long)ctx->data_end;
	if (d + PAYLOAD_OFF + 12 > end)
		return XDP_PASS;
	__builtin_memcpy(d + PAYLOAD_OFF, &a, sizeof(a));
	__builtin_memcpy(d + PAYLOAD_OFF + 4, &b, sizeof(b));
	__builtin_memcpy(d + PAYLOAD_OFF + 8, &c, sizeof(c));
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
