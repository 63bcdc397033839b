// SPDX-License-Identifier: GPL-2.0
/*
 * sketch - sketch-based telemetry on a mirror port: nf/mirror.o sends the
 * first 64 bytes of each IPv4 TCP/UDP frame to a records pipe; sketch
 * counts frames and bytes per flow (5-tuple) in a count-min sketch (4 rows
 * of 4096 counters: estimates never under the truth, over it by at most
 * e/4096 of the frames with probability 1 - e^-4) and keeps the flows
 * with the largest estimates as heavy-hitter candidates.
 *
 *   sketch IFNAME [-o OUTPUT] [-k TOP] [-n FRAMES] [-i IDLE_MS]
 *
 * Ends after FRAMES frames or IDLE_MS (default 5000) without one, and
 * prints the totals and the TOP (default 10) heaviest flows by estimated
 * frames, one per line:
 *
 *   sketch: PROTO SRC:SPORT > DST:DPORT frames N bytes B
 */
#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"

#define BATCH		64
#define ROWS		4
#define WIDTH		4096
#define CANDIDATES	1024

struct flow {
	uint32_t src, dst;	/* network order */
	uint16_t sport, dport;	/* host order */
	uint8_t proto;
};

struct cand {
	struct flow f;
	uint64_t frames, bytes;	/* the sketch's estimates when last seen */
	int used;
};

static uint64_t cm_frames[ROWS][WIDTH], cm_bytes[ROWS][WIDTH];
static struct cand cands[CANDIDATES];

static uint32_t hash(const struct flow *f, uint32_t seed)
{
	uint32_t w[4] = { f->src, f->dst,
			  (uint32_t)f->sport << 16 | f->dport, f->proto };
	uint32_t h = seed * 0x9e3779b9u ^ 2166136261u;
	int i;

	for (i = 0; i < 4; i++) {
		h ^= w[i];
		h *= 0x85ebca6bu;
		h ^= h >> 13;
		h *= 0xc2b2ae35u;
		h ^= h >> 16;
	}
	return h;
}

static int same(const struct flow *a, const struct flow *b)
{
	return a->src == b->src && a->dst == b->dst && a->sport == b->sport &&
	       a->dport == b->dport && a->proto == b->proto;
}

/*
 * Count a frame of @len bytes of @f; update its candidate entry, taking a
 * free one or the one with the smallest estimate if @f's is larger.
 */
static void count(const struct flow *f, uint32_t len)
{
	uint64_t fr = UINT64_MAX, by = UINT64_MAX;
	struct cand *c, *min = NULL;
	uint32_t h, i;
	int r;

	for (r = 0; r < ROWS; r++) {
		h = hash(f, r + 1) % WIDTH;
		cm_frames[r][h]++;
		cm_bytes[r][h] += len;
		if (cm_frames[r][h] < fr)
			fr = cm_frames[r][h];
		if (cm_bytes[r][h] < by)
			by = cm_bytes[r][h];
	}
	h = hash(f, 0) % CANDIDATES;
	for (i = 0; i < CANDIDATES; i++) {
		c = &cands[(h + i) % CANDIDATES];
		if (!c->used || same(&c->f, f))
			break;
		if (!min || c->frames < min->frames)
			min = c;
		c = NULL;
	}
	if (!c) {
		if (min->frames >= fr)
			return;
		c = min;
	}
	c->f = *f;
	c->used = 1;
	c->frames = fr;
	c->bytes = by;
}

/* The flow of a frame's first bytes; 0 if it is not IPv4 TCP/UDP. */
static int parse(const uint8_t *d, uint32_t len, struct flow *f,
		 uint32_t *bytes)
{
	uint32_t ihl;

	if (len < 34 || d[12] != 0x08 || d[13] != 0 || d[14] >> 4 != 4)
		return 0;
	ihl = (d[14] & 15) * 4;
	if (ihl < 20 || len < 14 + ihl + 4 || (d[23] != 6 && d[23] != 17))
		return 0;
	memcpy(&f->src, d + 26, 4);
	memcpy(&f->dst, d + 30, 4);
	f->sport = d[14 + ihl] << 8 | d[15 + ihl];
	f->dport = d[16 + ihl] << 8 | d[17 + ihl];
	f->proto = d[23];
	*bytes = 14 + (d[16] << 8 | d[17]);
	return 1;
}

static int by_frames(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->used != y->used)
		return y->used - x->used;
	return x->frames < y->frames ? 1 : x->frames > y->frames ? -1 : 0;
}

static unsigned long top = 10;

static int sketch_opt(int c, const char *arg)
{
	if (c != 'k')
		return -1;
	top = strtoul(arg, NULL, 0);
	return 0;
}

int main(int argc, char **argv)
{
	struct app a = { .name = "sketch", .output = 3, .idle_ms = 5000 };
	char src[INET_ADDRSTRLEN], dst[INET_ADDRSTRLEN];
	unsigned long bad = 0, i;
	struct nicring_rec recs[BATCH];
	uint64_t total_bytes = 0;
	struct flow f;
	uint32_t len;
	int n, j;

	if (app_options(&a, argc, argv, "k:", sketch_opt)) {
		fprintf(stderr, "usage: sketch IFNAME [-o OUTPUT] [-k TOP] [-n FRAMES] [-i IDLE_MS]\n");
		return 2;
	}
	if (app_open(&a, NICPROG_FRAMING_RECORDS, 0, APP_TX_NONE, ""))
		return 1;
	while ((n = app_next(&a, recs, BATCH))) {
		for (j = 0; j < n; j++) {
			if (!parse(recs[j].data, recs[j].len, &f, &len)) {
				bad++;
				continue;
			}
			count(&f, len);
			total_bytes += len;
		}
		nicring_release(a.rx, n);
		a.done += n;
	}
	printf("sketch: %lu frames, %llu bytes, %lu not IPv4 TCP/UDP, %llu dropped\n",
	       a.done, (unsigned long long)total_bytes, bad,
	       (unsigned long long)nicring_drops(a.rx));
	qsort(cands, CANDIDATES, sizeof(cands[0]), by_frames);
	for (i = 0; i < top && i < CANDIDATES && cands[i].used; i++) {
		inet_ntop(AF_INET, &cands[i].f.src, src, sizeof(src));
		inet_ntop(AF_INET, &cands[i].f.dst, dst, sizeof(dst));
		printf("sketch: %s %s:%u > %s:%u frames %llu bytes %llu\n",
		       cands[i].f.proto == 6 ? "tcp" : "udp", src,
		       cands[i].f.sport, dst, cands[i].f.dport,
		       (unsigned long long)cands[i].frames,
		       (unsigned long long)cands[i].bytes);
	}
	nicring_close(a.r);
	return a.want && a.done < a.want;
}
