/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every reference body of an engine function starts with: the
 * engine's own region test, so that a body fails exactly where the engine
 * does. One macro, not a function: a reference body is identified by its
 * instructions (tools/ident/gen), and a macro's text is the body's text,
 * so every body that uses it compiles as if it were written out in full.
 */
#ifndef __NICPROG_IDENT_REGION_H
#define __NICPROG_IDENT_REGION_H

#define REGION_MAX	4096

/*
 * REGION_ENTER(p, end, off, len, err): return @err unless [off, off + len)
 * lies in the frame [p, end) and neither @off nor @len exceeds REGION_MAX,
 * the engine's limits; else point @p at the region's first byte. The empty
 * asm hides what the caller knows of @off and @len from clang, so that the
 * test is always emitted whole.
 */
#define REGION_ENTER(p, end, off, len, err)				\
	do {								\
		asm volatile("" : "+r"(off), "+r"(len));		\
		if (off > REGION_MAX || len > REGION_MAX ||		\
		    off + len > (__u64)(end - p))			\
			return err;					\
		p += off;						\
	} while (0)

/*
 * REGION_CHECK(p, end, n, err): return @err unless the @n bytes at @p are
 * in the frame. Past REGION_ENTER it never fails; it is there for the
 * verifier, and the empty asm keeps clang from moving the check off the
 * pointer the load then uses.
 */
#define REGION_CHECK(p, end, n, err)					\
	do {								\
		asm volatile("" : "+r"(p));				\
		if (p + (n) > end)					\
			return err;					\
	} while (0)

/*
 * REGION_BYTE(p, end, err): the byte at @p, @p then past it; returns @err
 * from the body, as REGION_CHECK does, when it is not in the frame.
 */
#define REGION_BYTE(p, end, err)					\
	({								\
		REGION_CHECK(p, end, 1, err);				\
		*p++;							\
	})

#endif /* __NICPROG_IDENT_REGION_H */
