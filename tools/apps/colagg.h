/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reduction job's records, as both ends make them (tools/apps/colagg
 * on the NIC's side, rdmapeer -y on the peer that holds them), and its
 * result, as bpf/lookaside/colagg.c writes it: per group (a record's key
 * modulo CA_GROUPS), over the records whose value is at least a
 * threshold and whose flags hold a mask, the sum, count and largest of
 * the values.
 */
#ifndef COLAGG_H
#define COLAGG_H

#include <stdint.h>

#define CA_GROUPS	8
#define CA_JOB_RECS	1024		/* records a job: 16 KiB (bpf/lookaside/colagg.c) */
#define CA_RECS_MAX	65536		/* 1 MiB, rdmapeer's region half */

struct ca_rec {
	uint32_t key;
	int32_t value;
	uint32_t ts;
	uint32_t flags;
};

struct ca_group {
	int64_t sum;
	uint32_t count;
	int32_t max;
};

/* Record @i of seed @seed: splitmix64 of both. */
static inline struct ca_rec ca_make(uint64_t seed, uint32_t i)
{
	uint64_t x = (seed + 0x51ed27) * 0x9e3779b97f4a7c15ULL ^ i;
	struct ca_rec r;

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	x ^= x >> 31;
	r.key = x & 0xffff;
	r.value = (int32_t)((x >> 16) % 200001) - 100000;
	r.ts = i;
	r.flags = (x >> 40) & 0xf;
	return r;
}

/* The host's reduction of @n records, what the kernel must match. */
static inline void ca_reduce(const struct ca_rec *r, uint32_t n,
			     int32_t min_value, uint32_t mask,
			     struct ca_group *g)
{
	uint32_t i, k;

	for (k = 0; k < CA_GROUPS; k++)
		g[k] = (struct ca_group){ .max = INT32_MIN };
	for (i = 0; i < n; i++) {
		if (r[i].value < min_value || (r[i].flags & mask) != mask)
			continue;
		k = r[i].key % CA_GROUPS;
		g[k].sum += r[i].value;
		g[k].count++;
		if (r[i].value > g[k].max)
			g[k].max = r[i].value;
	}
}

#endif /* COLAGG_H */
