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
 * The bodies repeat each other on purpose: identification compares a
 * function's own instructions, so each reference is a whole function.
 *
 * The XDP program writes both CRCs of the UDP payload over the first eight
 * payload bytes of IPv4 UDP frames and passes every frame.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/in.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#define CRC32C_POLY	0x82f63b78
#define REGION_MAX	4096

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

	asm volatile("" : "+r"(off), "+r"(len));
	if (off > REGION_MAX || len > REGION_MAX ||
	    off + len > (__u64)(end - p))
		return ~0ULL;
	p += off;
	for (i = 0; i < REGION_MAX; i++) {
		if (i >= len)
			break;
		/* keep the bounds check on the pointer the load uses */
		asm volatile("" : "+r"(p));
		if (p + 1 > end)
			return ~0ULL;
		crc ^= *p++;
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

	asm volatile("" : "+r"(off), "+r"(len));
	if (off > REGION_MAX || len > REGION_MAX ||
	    off + len > (__u64)(end - p))
		return 0;
	p += off;
	for (i = 0; i < REGION_MAX; i++) {
		if (i >= len)
			break;
		asm volatile("" : "+r"(p));
		if (p + 1 > end)
			return 0;
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (CRC32C_POLY & -(crc & 1));
	}
	return crc ^ 0xffffffff;
}

#define PAYLOAD_OFF	(ETH_HLEN + 20 + 8)

SEC("xdp")
int ident_crc32c(struct xdp_md *ctx)
{
	__u8 *d = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct iphdr *ip = (void *)(d + ETH_HLEN);
	__u64 len = end - d;
	__u32 a, b;

	if ((void *)(ip + 1) > (void *)end ||
	    ((struct ethhdr *)d)->h_proto != bpf_htons(ETH_P_IP) ||
	    ip->ihl != 5 || ip->protocol != IPPROTO_UDP ||
	    len < PAYLOAD_OFF + 8)
		return XDP_PASS;
	a = crc32c_bitwise(ctx, PAYLOAD_OFF + 8, len - PAYLOAD_OFF - 8, 0);
	b = crc32c_std(ctx, PAYLOAD_OFF + 8, len - PAYLOAD_OFF - 8, 0);
	d = (void *)(long)ctx->data;
	end = (void *)(long)ctx->data_end;
	if (d + PAYLOAD_OFF + 8 > end)
		return XDP_PASS;
	__builtin_memcpy(d + PAYLOAD_OFF, &a, sizeof(a));
	__builtin_memcpy(d + PAYLOAD_OFF + 4, &b, sizeof(b));
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
