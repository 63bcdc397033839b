/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The networked matrix multiplication's matrices, as both ends make them
 * (tools/apps/matmul on the NIC's side, rdmapeer -m on the peer that
 * holds them): seeded N x N int32 in [-1000, 1000], stored tile by tile
 * (MM_T x MM_T tiles, row-major in a tile, tiles row-major), the layout
 * bpf/lookaside/matmul.c's jobs take.
 */
#ifndef MATMUL_H
#define MATMUL_H

#include <stdint.h>

#define MM_T		16
#define MM_TILE		(MM_T * MM_T * 4)
#define MM_N_MAX	256

static inline uint64_t mm_tile_off(uint32_t n, uint32_t ti, uint32_t tj)
{
	return ((uint64_t)ti * (n / MM_T) + tj) * MM_TILE;
}

/* Element (@i, @j) of matrix @which (0: A, 1: B): splitmix64 of both. */
static inline int32_t mm_elem(uint64_t seed, int which, uint32_t i, uint32_t j)
{
	uint64_t x = seed * 0x9e3779b97f4a7c15ULL ^
		     ((uint64_t)which << 62 | (uint64_t)i << 31 | j);

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return (int32_t)(x % 2001) - 1000;
}

/* Index in a tile-major N x N matrix of element (@i, @j). */
static inline uint64_t mm_index(uint32_t n, uint32_t i, uint32_t j)
{
	return mm_tile_off(n, i / MM_T, j / MM_T) / 4 + (i % MM_T) * MM_T +
	       j % MM_T;
}

/* Matrix @which, tile-major, into @m. */
static inline void mm_make(uint64_t seed, int which, uint32_t n, int32_t *m)
{
	uint32_t i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			m[mm_index(n, i, j)] = mm_elem(seed, which, i, j);
}

#endif /* MATMUL_H */
