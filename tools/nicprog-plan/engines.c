// SPDX-License-Identifier: GPL-2.0
/*
 * The accelerator functions of bpf/nicprog.h, in userspace, for running a
 * plan offline as the NIC would (engines instead of the BPF bodies). Each
 * has the semantics of its BPF body, which the kernel's engines (nicsim's
 * accel.c) share; hostrun.c checks them against the bodies on every frame
 * it predicts from.
 */
#include <linux/nicprog.h>

#include "engines.h"

static const u8 rss_key[40] = NICPROG_AFN_TOEPLITZ_KEY;

static u32 rol32(u32 w, u32 s)
{
	return (w << s) | (w >> (32 - s));
}

static u32 crc32c(u32 crc, const u8 *p, u32 len)
{
	u32 b;

	while (len--) {
		crc ^= *p++;
		for (b = 0; b < 8; b++)
			crc = (crc >> 1) ^ (0x82f63b78 & -(crc & 1));
	}
	return crc;
}

static u32 toeplitz(const u8 *p, u32 len)
{
	u64 w = 0;
	u32 i, b, h = 0;

	for (i = 0; i < 8; i++)
		w = (w << 8) | rss_key[i];
	for (i = 0; i < len; i++) {
		for (b = 0; b < 8; b++) {
			if (p[i] & (0x80 >> b))
				h ^= w >> 32;
			w <<= 1;
		}
		w |= i + 8 < sizeof(rss_key) ? rss_key[i + 8] : 0;
	}
	return h;
}

/*
 * lookup3's mix() and final(), on the three words of the hash's state:
 * functions, not the macros linux/jhash.h has, so that the types are
 * checked.
 */
static void jhash_mix(u32 *a, u32 *b, u32 *c)
{
	*a -= *c; *a ^= rol32(*c, 4); *c += *b;
	*b -= *a; *b ^= rol32(*a, 6); *a += *c;
	*c -= *b; *c ^= rol32(*b, 8); *b += *a;
	*a -= *c; *a ^= rol32(*c, 16); *c += *b;
	*b -= *a; *b ^= rol32(*a, 19); *a += *c;
	*c -= *b; *c ^= rol32(*b, 4); *b += *a;
}

static void jhash_final(u32 *a, u32 *b, u32 *c)
{
	*c ^= *b; *c -= rol32(*b, 14);
	*a ^= *c; *a -= rol32(*c, 11);
	*b ^= *a; *b -= rol32(*a, 25);
	*c ^= *b; *c -= rol32(*b, 16);
	*a ^= *c; *a -= rol32(*c, 4);
	*b ^= *a; *b -= rol32(*a, 14);
	*c ^= *b; *c -= rol32(*b, 24);
}

static u32 le32_at(const u8 *p)
{
	return p[0] | (p[1] << 8) | (p[2] << 16) | ((u32)p[3] << 24);
}

/**
 * np_jhash() - Bob Jenkins' lookup3 as Linux's jhash() computes it
 * @p: the bytes
 * @len: how many
 * @seed: the initial value
 *
 * Return: the hash.
 */
u32 np_jhash(const u8 *p, u32 len, u32 seed)
{
	u32 a, b, c, i, w[3];

	a = b = c = 0xdeadbeef + len + seed;
	while (len > 12) {
		a += le32_at(p);
		b += le32_at(p + 4);
		c += le32_at(p + 8);
		jhash_mix(&a, &b, &c);
		len -= 12;
		p += 12;
	}
	if (!len)
		return c;
	memset(w, 0, sizeof(w));
	for (i = 0; i < len; i++)
		w[i / 4] |= (u32)p[i] << (8 * (i % 4));
	a += w[0];
	b += w[1];
	c += w[2];
	jhash_final(&a, &b, &c);
	return c;
}

/**
 * np_jhash2() - Linux's jhash2(): lookup3 over 32-bit words
 * @k: the words
 * @n: how many
 * @seed: the initial value
 *
 * Return: the hash.
 */
u32 np_jhash2(const u32 *k, u32 n, u32 seed)
{
	u32 a, b, c;

	a = b = c = 0xdeadbeef + (n << 2) + seed;
	while (n > 3) {
		a += k[0];
		b += k[1];
		c += k[2];
		jhash_mix(&a, &b, &c);
		n -= 3;
		k += 3;
	}
	switch (n) {
	case 3:
		c += k[2];
		/* fall through */
	case 2:
		b += k[1];
		/* fall through */
	case 1:
		a += k[0];
		jhash_final(&a, &b, &c);
	}
	return c;
}

#define QR(x, a, b, c, d) do {					\
	x[a] += x[b]; x[d] = rol32(x[d] ^ x[a], 16);		\
	x[c] += x[d]; x[b] = rol32(x[b] ^ x[c], 12);		\
	x[a] += x[b]; x[d] = rol32(x[d] ^ x[a], 8);		\
	x[c] += x[d]; x[b] = rol32(x[b] ^ x[c], 7);		\
} while (0)

static void chacha20(u8 *p, u32 len, const u32 *k)
{
	u32 s[16], x[16], i, j;
	u8 blk[64];

	s[0] = 0x61707865;
	s[1] = 0x3320646e;
	s[2] = 0x79622d32;
	s[3] = 0x6b206574;
	memcpy(&s[4], k, 12 * sizeof(u32));
	while (len) {
		memcpy(x, s, sizeof(x));
		for (i = 0; i < 10; i++) {
			QR(x, 0, 4, 8, 12);
			QR(x, 1, 5, 9, 13);
			QR(x, 2, 6, 10, 14);
			QR(x, 3, 7, 11, 15);
			QR(x, 0, 5, 10, 15);
			QR(x, 1, 6, 11, 12);
			QR(x, 2, 7, 8, 13);
			QR(x, 3, 4, 9, 14);
		}
		for (i = 0; i < 16; i++)
			for (j = 0; j < 4; j++)
				blk[4 * i + j] = (x[i] + s[i]) >> (8 * j);
		s[12]++;
		for (i = 0; i < 64 && len; i++, len--)
			*p++ ^= blk[i];
	}
}

/**
 * np_engine_run() - what an engine computes for a call
 * @afn: enum nicprog_accel_fn
 * @pkt: the frame
 * @args: the call's R1-R5
 * @ret: its result, NICPROG_EXEC_ACCEL_ERR where the body fails
 *
 * Return: 0, or -EOPNOTSUPP for a function no engine has.
 */
int np_engine_run(u32 afn, struct nicprog_exec_pkt *pkt, const u64 *args,
		  u64 *ret)
{
	u64 off = args[1], n = args[2], room = pkt->data_end - pkt->data;
	u32 a3 = args[3], max;
	u8 *p;

	switch (afn) {
	case NICPROG_AFN_CSUM:
	case NICPROG_AFN_CRC32C:
		max = NICPROG_AFN_LEN_MAX;
		break;
	case NICPROG_AFN_TOEPLITZ:
		max = NICPROG_AFN_TOEPLITZ_LEN_MAX;
		break;
	case NICPROG_AFN_JHASH:
		max = NICPROG_AFN_JHASH_LEN_MAX;
		break;
	case NICPROG_AFN_CHACHA20:
		max = NICPROG_AFN_CHACHA20_LEN_MAX;
		break;
	default:
		return -EOPNOTSUPP;
	}
	*ret = NICPROG_EXEC_ACCEL_ERR;
	if (off > max || n > max || off + n > room)
		return 0;
	p = pkt->buf + pkt->data + off;
	switch (afn) {
	case NICPROG_AFN_CSUM:
		*ret = nicprog_csum_ref(p, n, a3);
		break;
	case NICPROG_AFN_CRC32C:
		*ret = crc32c(a3, p, n);
		break;
	case NICPROG_AFN_TOEPLITZ:
		if (!a3)
			*ret = toeplitz(p, n);
		break;
	case NICPROG_AFN_JHASH:
		*ret = np_jhash(p, n, a3);
		break;
	case NICPROG_AFN_CHACHA20:
		if (args[3]) {
			chacha20(p, n, (const u32 *)(uintptr_t)args[3]);
			*ret = 0;
		}
		break;
	}
	return 0;
}
