/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The only header the offloader's algorithms include besides their own: it
 * maps the few kernel facilities they use onto libc when built in userspace
 * (unit tests, benchmarks, the CLI's offline planner), so one source serves
 * both.
 */
#ifndef _NICPROG_OFFLOAD_COMPAT_H
#define _NICPROG_OFFLOAD_COMPAT_H

#ifdef __KERNEL__
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/types.h>
#else
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* the compiler's fixed-width types, as <stdint.h> defines its own */
typedef __UINT8_TYPE__ u8;
typedef __UINT16_TYPE__ u16;
typedef __UINT32_TYPE__ u32;
typedef __UINT64_TYPE__ u64;
typedef __INT16_TYPE__ s16;
typedef __INT32_TYPE__ s32;
typedef __INT64_TYPE__ s64;

#include <stdlib.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif
#define BIT(n)			(1UL << (n))
#define BIT_ULL(n)		(1ULL << (n))
#define U32_MAX			((u32)~0U)
#define U64_MAX			((u64)~0ULL)
#define GFP_KERNEL		0
#define GFP_ATOMIC		0
#define kvcalloc(n, size, gfp)	((void)(gfp), calloc(n, size))
#define kvzalloc(size, gfp)	((void)(gfp), calloc(1, size))
#define kvfree(p)		free(p)
#define kmalloc(size, gfp)	((void)(gfp), malloc(size))
#define kfree(p)		free(p)
#define hweight16(w)		((unsigned int)__builtin_popcount((u16)(w)))
#define hweight64(w)		((unsigned int)__builtin_popcountll(w))
/* each argument evaluated once, as the kernel's own */
#define min(a, b) \
	({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a < _b ? _a : _b; })
#define max(a, b) \
	({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a > _b ? _a : _b; })
#define min_t(t, a, b) \
	({ __typeof__(t) _a = (a); __typeof__(t) _b = (b); _a < _b ? _a : _b; })
#define max_t(t, a, b) \
	({ __typeof__(t) _a = (a); __typeof__(t) _b = (b); _a > _b ? _a : _b; })
#define clamp_t(t, v, lo, hi) ({ \
	__typeof__(t) _v = (v); \
	__typeof__(t) _l = (lo); \
	__typeof__(t) _h = (hi); \
	_v = _v > _l ? _v : _l; \
	_v < _h ? _v : _h; \
})
#define DIV_ROUND_UP(n, d) \
	({ __typeof__(d) _d = (d); ((n) + _d - 1) / _d; })
#define div64_u64(a, b)		((u64)(a) / (u64)(b))
#define swap(a, b) \
	do { \
		__typeof__(a) *_pa = &(a), *_pb = &(b), _t = *_pa; \
		*_pa = *_pb; \
		*_pb = _t; \
	} while (0)

/* Userspace builds export nothing. */
#define EXPORT_SYMBOL_GPL(sym) extern int nicprog_unexported_##sym
#endif /* __KERNEL__ */

/*
 * Sequentially consistent read-modify-write on 32/64-bit words that other
 * cores may touch at the same time (BPF atomics on shared tables).
 * op: 0 add, 1 or, 2 and, 3 xor, 4 exchange; each returns the old value.
 */
#ifdef __KERNEL__
#include <linux/atomic.h>

static inline u64 nicprog_atomic64(u64 *p, int op, u64 v)
{
	atomic64_t *a = (atomic64_t *)p;

	switch (op) {
	case 0: return atomic64_fetch_add(v, a);
	case 1: return atomic64_fetch_or(v, a);
	case 2: return atomic64_fetch_and(v, a);
	case 3: return atomic64_fetch_xor(v, a);
	default: return atomic64_xchg(a, v);
	}
}

static inline u32 nicprog_atomic32(u32 *p, int op, u32 v)
{
	atomic_t *a = (atomic_t *)p;

	switch (op) {
	case 0: return atomic_fetch_add(v, a);
	case 1: return atomic_fetch_or(v, a);
	case 2: return atomic_fetch_and(v, a);
	case 3: return atomic_fetch_xor(v, a);
	default: return atomic_xchg(a, v);
	}
}

static inline u64 nicprog_cmpxchg64(u64 *p, u64 old, u64 new)
{
	return atomic64_cmpxchg((atomic64_t *)p, old, new);
}

static inline u32 nicprog_cmpxchg32(u32 *p, u32 old, u32 new)
{
	return atomic_cmpxchg((atomic_t *)p, old, new);
}
#else
/*
 * One operation for both widths, in a compare-and-swap loop: on values
 * below 2^32 the low 32 bits of each 64-bit result are the 32-bit one's.
 */
static inline u64 nicprog_rmw_apply(int op, u64 old, u64 v)
{
	switch (op) {
	case 0: return old + v;
	case 1: return old | v;
	case 2: return old & v;
	case 3: return old ^ v;
	default: return v;
	}
}

static inline u64 nicprog_atomic64(u64 *p, int op, u64 v)
{
	u64 old = __atomic_load_n(p, __ATOMIC_RELAXED);

	while (!__atomic_compare_exchange_n(p, &old,
					    nicprog_rmw_apply(op, old, v),
					    false, __ATOMIC_SEQ_CST,
					    __ATOMIC_RELAXED))
		;
	return old;
}

static inline u32 nicprog_atomic32(u32 *p, int op, u32 v)
{
	u32 old = __atomic_load_n(p, __ATOMIC_RELAXED);

	while (!__atomic_compare_exchange_n(p, &old,
					    (u32)nicprog_rmw_apply(op, old, v),
					    false, __ATOMIC_SEQ_CST,
					    __ATOMIC_RELAXED))
		;
	return old;
}

static inline u64 nicprog_cmpxchg64(u64 *p, u64 old, u64 new)
{
	__atomic_compare_exchange_n(p, &old, new, false, __ATOMIC_SEQ_CST,
				    __ATOMIC_SEQ_CST);
	return old;
}

static inline u32 nicprog_cmpxchg32(u32 *p, u32 old, u32 new)
{
	__atomic_compare_exchange_n(p, &old, new, false, __ATOMIC_SEQ_CST,
				    __ATOMIC_SEQ_CST);
	return old;
}
#endif

#endif /* _NICPROG_OFFLOAD_COMPAT_H */
