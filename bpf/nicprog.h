/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * nicprog.h - for authors of network functions (NFs) that run on SmartNICs.
 *
 * An NF is an ordinary XDP program: the same object runs on the host (XDP,
 * BPF_PROG_TEST_RUN) and, offloaded, on any nicprog SmartNIC. Linux 6.1
 * lets a device own only HASH and ARRAY maps and refuses kfuncs in
 * offloaded programs, so everything here is plain BPF.
 *
 * Accelerator calls. Each accelerator is a global BPF function whose body
 * is the exact software semantics, so the object runs unchanged on the
 * host; on a NIC with the matching engine the offloader turns the call into
 * an engine job, elsewhere the body runs on a NIC core. An NF asks for the
 * ones it uses before including this header (unused ones would still be
 * verified and take instruction store):
 *
 *   #define NICPROG_USE_CSUM      nicprog_accel_csum()      csum engine
 *   #define NICPROG_USE_CRC32C    nicprog_accel_crc32c()    crc engine
 *   #define NICPROG_USE_TOEPLITZ  nicprog_accel_toeplitz()  hash engine
 *   #define NICPROG_USE_JHASH     nicprog_accel_jhash()     hash engine
 *      (at most NICPROG_JHASH_MAX_LEN bytes)
 *   #define NICPROG_USE_CHACHA20  nicprog_accel_chacha20()  crypto engine
 *
 * Every accelerator works on bytes [off, off + len) of the frame (offsets
 * from its start; 64-bit, so that the verifier sees their bounds checked)
 * and returns NICPROG_ACCEL_ERR when they are not all in the frame or
 * exceed its limit. The last argument is the accelerator's
 * id, NICPROG_AFN(NICPROG_AFN_*), which the wrappers pass: Linux 6.1 gives
 * a module no way to read a BTF function name, so the NIC recognizes an
 * accelerator call by this constant on a call to a global function, when
 * it is the same on every path (pass it as a literal, as the wrappers do).
 *
 * Identified code. Without this header, an Internet checksum or a CRC32C
 * written as a global function f(ctx, __u64 off, __u64 len, __u32 seed)
 * becomes an engine job too when its instructions are those of a
 * reference body (bpf/ident/, tools/ident/gen): identification is by
 * proof, so any other body stays a call. A longest-prefix match written
 * as one hash probe per prefix length, longest first, with a {__u32
 * prefixlen, address} key, is priced as one MAT lookup.
 * Documentation/nicprog/offloader.rst has the exact conditions; the
 * verifier log says what was recognised, or the nearest reference body.
 */
#ifndef __NICPROG_BPF_H
#define __NICPROG_BPF_H

#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

/* Declare a table the NIC may hold: only HASH and ARRAY can be offloaded. */
#define NICPROG_TABLE(name, map_type, key_t, value_t, entries)		\
	struct {							\
		__uint(type, map_type);					\
		__type(key, key_t);					\
		__type(value, value_t);					\
		__uint(max_entries, entries);				\
	} name SEC(".maps")

/*
 * Streaming rings: steer the frame to the port's NF output @out (below
 * NICPROG_RING_OUTPUTS); the NIC appends it to the RX pipe an application
 * bound to that output (Documentation/nicprog/rings.rst). Return this
 * from the program, as bpf_redirect()'s result. On the host the target is
 * no device, so host XDP drops the frame as an invalid redirect.
 */
#define NICPROG_PIPE_REDIRECT_BIT	0x80000000U
static __always_inline long nicprog_redirect_pipe(__u32 out)
{
	return bpf_redirect(NICPROG_PIPE_REDIRECT_BIT | out, 0);
}

/*
 * A switch's flood (<linux/nicprog.h>'s NICPROG_FLOOD_TARGET): a copy of
 * the frame out of every other port of the NIC, and out of the port it
 * came in on too with @ingress. Return this from the program. On the host
 * the target is no device, so host XDP drops the frame as an invalid
 * redirect.
 */
#define NICPROG_FLOOD_REDIRECT		0x90000000U
#define NICPROG_FLOOD_REDIRECT_INGRESS	0x1U
static __always_inline long nicprog_redirect_flood(int ingress)
{
	return bpf_redirect(NICPROG_FLOOD_REDIRECT |
			    (ingress ? NICPROG_FLOOD_REDIRECT_INGRESS : 0), 0);
}

/* The packet bounds of an XDP context, as the verifier wants them. */
#define NICPROG_DATA(ctx)	((void *)(long)(ctx)->data)
#define NICPROG_DATA_END(ctx)	((void *)(long)(ctx)->data_end)

#define NICPROG_ACCEL_ERR	((__u64)-1)
#define NICPROG_ACCEL_MAX_LEN	4096	/* bytes per call; ChaCha20: 2048 */
#define NICPROG_CHACHA20_MAX_LEN 2048
/* enum nicprog_accel_fn of <linux/nicprog.h>, repeated for BPF builds */
#define NICPROG_AFN_CSUM	1
#define NICPROG_AFN_CRC32C	2
#define NICPROG_AFN_TOEPLITZ	3
#define NICPROG_AFN_JHASH	4
#define NICPROG_AFN_CHACHA20	5
#define NICPROG_AFN(fn)		(0x6e706100U | (fn))

#define __nicprog_accel __attribute__((noinline))

/*
 * Hide a value's origin from the compiler, so that the checks below test
 * the very register later uses read (the verifier knows the bounds of
 * that register, not of a copy spilled before the check).
 */
#define __nicprog_opaque(v)	asm volatile("" : "+r"(v))

/*
 * Point @p at the frame's byte @off, returning NICPROG_ACCEL_ERR unless
 * [off, off + len) is in the frame and within @max; every access still
 * checks itself against @end, as the verifier wants.
 */
#define __NICPROG_SPAN(ctx, off, len, max, p, end)			\
	do {								\
		(end) = NICPROG_DATA_END(ctx);				\
		(p) = NICPROG_DATA(ctx);				\
		__nicprog_opaque(off);					\
		__nicprog_opaque(len);					\
		if ((off) > (max) || (len) > (max) ||			\
		    (off) + (len) > (__u64)((long)(end) - (long)(p)))	\
			return NICPROG_ACCEL_ERR;			\
		(p) += (off);						\
	} while (0)

#ifdef NICPROG_USE_CSUM
/* Add the four 32-bit words at @q to @sum (64 bits: no carry out). */
#define __NICPROG_CSUM16(sum, q)					\
	do {								\
		(sum) += *(__u32 *)(q);					\
		(sum) += *(__u32 *)((q) + 4);				\
		(sum) += *(__u32 *)((q) + 8);				\
		(sum) += *(__u32 *)((q) + 12);				\
	} while (0)

/**
 * nicprog_accel_csum() - Internet checksum of a frame region
 * @ctx: the frame
 * @off: first byte
 * @len: bytes, at most NICPROG_ACCEL_MAX_LEN
 * @seed: a partial sum to add (a pseudo-header's, for TCP/UDP)
 * @afn: NICPROG_AFN(NICPROG_AFN_CSUM)
 *
 * Return: the 16-bit one's complement sum of the region's big-endian
 * 16-bit words (an odd last byte padded with zero) and @seed, folded, not
 * inverted; or NICPROG_ACCEL_ERR.
 */
__nicprog_accel __u64 nicprog_accel_csum(struct xdp_md *ctx, __u64 off,
					 __u64 len, __u32 seed, __u32 afn)
{
	__u8 *p, *end, *q;
	__u64 sum = 0, w;
	__u32 i, j;

	if (afn != NICPROG_AFN(NICPROG_AFN_CSUM))
		return NICPROG_ACCEL_ERR;
	__NICPROG_SPAN(ctx, off, len, NICPROG_ACCEL_MAX_LEN, p, end);
	/*
	 * 32 bytes a turn, eight 32-bit loads added into 64 bits (at most
	 * 1024 words: no carry out): the one's complement sum does not depend
	 * on the byte order (RFC 1071), so the frame's words are summed as the
	 * machine loads them (2^32 and 2^16 are 1 modulo 0xffff) and the folded
	 * sum swapped once at the end. A core runs this when the plan gives it
	 * a share of the calls (engine-share), so its cost per byte is what a
	 * share costs: a load and an add per four bytes.
	 */
	for (i = 0; i < NICPROG_ACCEL_MAX_LEN / 32; i++) {
		if (i * 32 + 32 > len)
			break;
		q = p + i * 32;
		if (q + 32 > end)
			return NICPROG_ACCEL_ERR;
		__NICPROG_CSUM16(sum, q);
		__NICPROG_CSUM16(sum, q + 16);
	}
	i *= 32;
	q = p + i;
	if (i + 16 <= len) {
		if (q + 16 > end)
			return NICPROG_ACCEL_ERR;
		__NICPROG_CSUM16(sum, q);
		i += 16;
		q += 16;
	}
	if (i + 8 <= len) {
		if (q + 8 > end)
			return NICPROG_ACCEL_ERR;
		sum += *(__u32 *)q;
		sum += *(__u32 *)(q + 4);
		i += 8;
		q += 8;
	}
	if (i + 4 <= len) {
		if (q + 4 > end)
			return NICPROG_ACCEL_ERR;
		sum += *(__u32 *)q;
		i += 4;
		q += 4;
	}
	for (j = 0; j < 3; j++) {	/* the rest; an odd byte pads */
		if (i + j >= len)
			break;
		if (q + j + 1 > end)
			return NICPROG_ACCEL_ERR;
		w = q[j];
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		sum += j & 1 ? w << 8 : w;
#else
		sum += j & 1 ? w : w << 8;
#endif
	}
	sum = (sum & 0xffffffff) + (sum >> 32);
	sum = (sum & 0xffffffff) + (sum >> 32);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	sum = (sum & 0xff) << 8 | sum >> 8;	/* the words big-endian */
#endif
	sum += seed;
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return sum;
}
#endif

#ifdef NICPROG_USE_CRC32C
/**
 * nicprog_accel_crc32c() - CRC32C (Castagnoli) of a frame region
 * @ctx: the frame
 * @off: first byte
 * @len: bytes, at most NICPROG_ACCEL_MAX_LEN
 * @crc: the CRC so far (~0 to start a standard CRC32C)
 * @afn: NICPROG_AFN(NICPROG_AFN_CRC32C)
 *
 * Reflected, polynomial 0x82f63b78, no final inversion (as the kernel's
 * crc32c()): the standard value of a buffer is ~crc32c(~0, buffer).
 *
 * Return: the updated CRC, or NICPROG_ACCEL_ERR.
 */
__nicprog_accel __u64 nicprog_accel_crc32c(struct xdp_md *ctx, __u64 off,
					   __u64 len, __u32 crc, __u32 afn)
{
	__u8 *p, *end, *q;
	__u32 i, j, k;

	if (afn != NICPROG_AFN(NICPROG_AFN_CRC32C))
		return NICPROG_ACCEL_ERR;
	__NICPROG_SPAN(ctx, off, len, NICPROG_ACCEL_MAX_LEN, p, end);
	for (i = 0; i < NICPROG_ACCEL_MAX_LEN / 4; i++) {
		if (i * 4 + 4 > len)
			break;
		q = p + i * 4;
		if (q + 4 > end)
			return NICPROG_ACCEL_ERR;
#pragma unroll
		for (j = 0; j < 4; j++) {
			crc ^= q[j];
#pragma unroll
			for (k = 0; k < 8; k++)
				crc = (crc >> 1) ^ (0x82f63b78 & (0 - (crc & 1)));
		}
	}
	q = p + i * 4;
	for (j = 0; j < 3; j++) {
		if (i * 4 + j >= len)
			break;
		if (q + j + 1 > end)
			return NICPROG_ACCEL_ERR;
		crc ^= q[j];
#pragma unroll
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0x82f63b78 & (0 - (crc & 1)));
	}
	return crc;
}
#endif

#ifdef NICPROG_USE_TOEPLITZ
/**
 * nicprog_accel_toeplitz() - Toeplitz (RSS) hash of a frame region
 * @ctx: the frame
 * @off: first byte
 * @len: bytes, at most 36 (an IPv6 4-tuple)
 * @flags: 0
 * @afn: NICPROG_AFN(NICPROG_AFN_TOEPLITZ)
 *
 * With the 40-byte key of Microsoft's RSS specification, which NICs use
 * by default.
 *
 * Return: the 32-bit hash, or NICPROG_ACCEL_ERR.
 */
__nicprog_accel __u64 nicprog_accel_toeplitz(struct xdp_md *ctx, __u64 off,
					     __u64 len, __u32 flags,
					     __u32 afn)
{
	__u64 key[6], w;
	__u8 *p, *end;
	__u32 i, b, h = 0;

	if (afn != NICPROG_AFN(NICPROG_AFN_TOEPLITZ) || flags)
		return NICPROG_ACCEL_ERR;
	__NICPROG_SPAN(ctx, off, len, 36, p, end);
	/* the key's bytes in order, as little-endian words */
	key[0] = 0xc20e5b25da565a6dULL;
	key[1] = 0xb08fa3433d256741ULL;
	key[2] = 0xb4307baecb2bcad0ULL;
	key[3] = 0x0cf23080a32dcb77ULL;
	key[4] = 0xfa01acbe3bb7426aULL;
	key[5] = 0;
	w = __builtin_bswap64(key[0]);	/* key bits [0, 64) */
	for (i = 0; i < 36; i++) {
		if (i >= len)
			break;
		if (p + i + 1 > end)
			return NICPROG_ACCEL_ERR;
		/*
		 * Without a branch per bit: Linux 6.12's verifier explores
		 * both sides of each and gives up on the 2^8 paths per byte
		 * (E2BIG), where 6.1's pruned them.
		 */
#pragma unroll
		for (b = 0; b < 8; b++) {
			h ^= (__u32)(w >> 32) & -(__u32)((p[i] >> (7 - b)) & 1);
			w <<= 1;
		}
		w |= ((__u8 *)key)[i + 8];
	}
	return h;
}
#endif

#ifdef NICPROG_USE_JHASH
static __always_inline __u32 __nicprog_rol32(__u32 w, unsigned int s)
{
	return (w << s) | (w >> (32 - s));
}

#define NICPROG_JHASH_MAX_LEN	60

/**
 * nicprog_accel_jhash() - Bob Jenkins' lookup3 hash of a frame region
 * @ctx: the frame
 * @off: first byte
 * @len: bytes, at most NICPROG_JHASH_MAX_LEN (keys, tuples)
 * @initval: the hash's seed
 * @afn: NICPROG_AFN(NICPROG_AFN_JHASH)
 *
 * The same function as the kernel's jhash() on a little-endian machine.
 * Unrolled, so that every offset is a constant the verifier follows.
 *
 * Return: the 32-bit hash, or NICPROG_ACCEL_ERR.
 */
__nicprog_accel __u64 nicprog_accel_jhash(struct xdp_md *ctx, __u64 off,
					  __u64 len, __u32 initval, __u32 afn)
{
	__u32 a, b, c, w[3], blk, j;
	__u8 *p, *end, *q;

	if (afn != NICPROG_AFN(NICPROG_AFN_JHASH))
		return NICPROG_ACCEL_ERR;
	__NICPROG_SPAN(ctx, off, len, NICPROG_JHASH_MAX_LEN, p, end);
	a = b = c = 0xdeadbeef + (__u32)len + initval;
#pragma unroll
	for (blk = 0; blk < NICPROG_JHASH_MAX_LEN / 12; blk++) {
		q = p + blk * 12;
		if (len - blk * 12 <= 12) {	/* the last block, maybe short */
			if (len == blk * 12)
				return c;
			w[0] = w[1] = w[2] = 0;
#pragma unroll
			for (j = 0; j < 12; j++) {
				if (blk * 12 + j < len) {
					if (q + j + 1 > end)
						return NICPROG_ACCEL_ERR;
					w[j / 4] += (__u32)q[j] << (8 * (j % 4));
				}
			}
			a += w[0];
			b += w[1];
			c += w[2];
			c ^= b; c -= __nicprog_rol32(b, 14);
			a ^= c; a -= __nicprog_rol32(c, 11);
			b ^= a; b -= __nicprog_rol32(a, 25);
			c ^= b; c -= __nicprog_rol32(b, 16);
			a ^= c; a -= __nicprog_rol32(c, 4);
			b ^= a; b -= __nicprog_rol32(a, 14);
			c ^= b; c -= __nicprog_rol32(b, 24);
			return c;
		}
		if (q + 12 > end)
			return NICPROG_ACCEL_ERR;
#pragma unroll
		for (j = 0; j < 3; j++)
			w[j] = q[4 * j] | (__u32)q[4 * j + 1] << 8 |
			       (__u32)q[4 * j + 2] << 16 |
			       (__u32)q[4 * j + 3] << 24;
		a += w[0];
		b += w[1];
		c += w[2];
		a -= c; a ^= __nicprog_rol32(c, 4); c += b;
		b -= a; b ^= __nicprog_rol32(a, 6); a += c;
		c -= b; c ^= __nicprog_rol32(b, 8); b += a;
		a -= c; a ^= __nicprog_rol32(c, 16); c += b;
		b -= a; b ^= __nicprog_rol32(a, 19); a += c;
		c -= b; c ^= __nicprog_rol32(b, 4); b += a;
	}
	return c;	/* len is at most NICPROG_JHASH_MAX_LEN: not reached */
}
#endif

#ifdef NICPROG_USE_CHACHA20
/**
 * struct nicprog_chacha20_key - a ChaCha20 key and where in its stream
 * @key: the 256-bit key, as eight little-endian words
 * @counter: the first block's counter
 * @nonce: the 96-bit nonce, as three little-endian words
 */
struct nicprog_chacha20_key {
	__u32 key[8];
	__u32 counter;
	__u32 nonce[3];
};

#define __NICPROG_QR(x, a, b, c, d)					\
	do {								\
		x[a] += x[b]; x[d] ^= x[a];				\
		x[d] = (x[d] << 16) | (x[d] >> 16);			\
		x[c] += x[d]; x[b] ^= x[c];				\
		x[b] = (x[b] << 12) | (x[b] >> 20);			\
		x[a] += x[b]; x[d] ^= x[a];				\
		x[d] = (x[d] << 8) | (x[d] >> 24);			\
		x[c] += x[d]; x[b] ^= x[c];				\
		x[b] = (x[b] << 7) | (x[b] >> 25);			\
	} while (0)

/**
 * nicprog_accel_chacha20() - encrypt or decrypt a frame region in place
 * @ctx: the frame
 * @off: first byte
 * @len: bytes, at most NICPROG_CHACHA20_MAX_LEN
 * @k: key, counter and nonce (RFC 8439)
 * @afn: NICPROG_AFN(NICPROG_AFN_CHACHA20)
 *
 * XORs the region with the ChaCha20 keystream of @k from its counter on.
 *
 * Return: 0, or NICPROG_ACCEL_ERR (nothing changed).
 */
__nicprog_accel __u64 nicprog_accel_chacha20(struct xdp_md *ctx, __u64 off,
					     __u64 len,
					     const struct nicprog_chacha20_key *k,
					     __u32 afn)
{
	__u32 s[16], x[16], blk, r, j, n;
	__u8 *p, *end, *q;

	if (afn != NICPROG_AFN(NICPROG_AFN_CHACHA20) || !k)
		return NICPROG_ACCEL_ERR;
	__NICPROG_SPAN(ctx, off, len, NICPROG_CHACHA20_MAX_LEN, p, end);
	s[0] = 0x61707865;
	s[1] = 0x3320646e;
	s[2] = 0x79622d32;
	s[3] = 0x6b206574;
#pragma unroll
	for (j = 0; j < 8; j++)
		s[4 + j] = k->key[j];
	s[12] = k->counter;
	s[13] = k->nonce[0];
	s[14] = k->nonce[1];
	s[15] = k->nonce[2];
	for (blk = 0; blk < NICPROG_CHACHA20_MAX_LEN / 64; blk++) {
		n = blk * 64;
		if (n >= len)
			break;
#pragma unroll
		for (j = 0; j < 16; j++)
			x[j] = s[j];
		for (r = 0; r < 10; r++) {
			__NICPROG_QR(x, 0, 4, 8, 12);
			__NICPROG_QR(x, 1, 5, 9, 13);
			__NICPROG_QR(x, 2, 6, 10, 14);
			__NICPROG_QR(x, 3, 7, 11, 15);
			__NICPROG_QR(x, 0, 5, 10, 15);
			__NICPROG_QR(x, 1, 6, 11, 12);
			__NICPROG_QR(x, 2, 7, 8, 13);
			__NICPROG_QR(x, 3, 4, 9, 14);
		}
#pragma unroll
		for (j = 0; j < 16; j++)
			x[j] += s[j];
		q = p + n;
		if (n + 64 <= len) {		/* a whole block */
			if (q + 64 > end)
				return NICPROG_ACCEL_ERR;
#pragma unroll
			for (j = 0; j < 64; j++)
				q[j] ^= (__u8)(x[j / 4] >> (8 * (j % 4)));
		} else {
			for (j = 0; j < 63; j++) {
				if (n + j >= len)
					break;
				if (q + j + 1 > end)
					return NICPROG_ACCEL_ERR;
				q[j] ^= (__u8)(x[j / 4] >> (8 * (j % 4)));
			}
		}
		s[12]++;
	}
	return 0;
}
#endif

#endif /* __NICPROG_BPF_H */
