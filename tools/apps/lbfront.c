// SPDX-License-Identifier: GPL-2.0
/*
 * lbfront - the front end of a Maglev-style load balancer: nf/vip.o steers
 * frames to the virtual IP 10.91.0.100 to a records pipe; lbfront picks a
 * backend per flow by Maglev consistent hashing (a lookup table of 65537
 * entries each backend fills from its own permutation, so backends get
 * equal shares and a backend's removal moves little else), remembers the
 * flow's backend, rewrites the destination (MAC and IPv4 address,
 * checksums updated incrementally) and sends the frame back out of the
 * port from a TX pipe sharing the RX pipe's memory: no copy.
 *
 *   lbfront IFNAME -b MAC,IPV4 [-b ...] [-o OUTPUT] [-n FRAMES] [-i IDLE_MS]
 *   lbfront --table N            (no device: the table's shares for N
 *                                 backends and what removing the last
 *                                 one moves)
 *
 * Ends after FRAMES frames or IDLE_MS (default 5000) without one, and
 * prints per backend its table entries, flows and frames.
 */
#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"

#define BATCH		64
#define M		65537		/* Maglev table size, a prime */
#define BACKENDS	16
#define FLOWS		65536		/* connection table, open addressing */

struct backend {
	uint8_t mac[6];
	uint32_t ip;		/* network order */
	char name[INET_ADDRSTRLEN];
	uint64_t frames, flows, entries;
};

struct conn {
	uint32_t src, dst;
	uint16_t sport, dport;
	uint8_t proto, used, backend;
};

static struct backend be[BACKENDS];
static int n_be;
static int16_t table[M];
static struct conn conns[FLOWS];

static uint32_t fnv(const void *p, size_t n, uint32_t h)
{
	const uint8_t *s = p;

	while (n--)
		h = (h ^ *s++) * 16777619u;
	return h;
}

/*
 * Maglev's population (Eisenbud et al., NSDI 2016, section 3.4): backend
 * i prefers slots offset_i, offset_i + skip_i, ... (mod M); in turns,
 * each takes its next preferred slot still free, until all are taken.
 * Backends with @alive[i] zero take none.
 */
static void populate(const int *alive)
{
	static uint32_t next[BACKENDS], offset[BACKENDS], skip[BACKENDS];
	uint32_t filled = 0, c;
	int i, any = 0;

	for (i = 0; i < M; i++)
		table[i] = -1;
	for (i = 0; i < n_be; i++) {
		offset[i] = fnv(be[i].name, strlen(be[i].name), 2166136261u) % M;
		skip[i] = fnv(be[i].name, strlen(be[i].name), 0x9747b28cu) %
			  (M - 1) + 1;
		next[i] = 0;
		be[i].entries = 0;
		any |= alive[i];
	}
	while (any && filled < M) {
		for (i = 0; i < n_be && filled < M; i++) {
			if (!alive[i])
				continue;
			do {
				c = (offset[i] + (uint64_t)next[i] * skip[i]) % M;
				next[i]++;
			} while (table[c] >= 0);
			table[c] = i;
			be[i].entries++;
			filled++;
		}
	}
}

static int table_check(int n)
{
	static int16_t before[M];
	int alive[BACKENDS] = { 0 }, i;
	uint64_t lo = M, hi = 0;
	uint32_t moved = 0;

	if (n < 2 || n > BACKENDS)
		return 2;
	for (i = 0; i < n; i++) {
		snprintf(be[i].name, sizeof(be[i].name), "10.92.0.%d", i + 1);
		alive[i] = 1;
	}
	n_be = n;
	populate(alive);
	for (i = 0; i < n; i++) {
		lo = be[i].entries < lo ? be[i].entries : lo;
		hi = be[i].entries > hi ? be[i].entries : hi;
	}
	memcpy(before, table, sizeof(table));
	alive[n - 1] = 0;
	populate(alive);
	for (i = 0; i < M; i++)
		moved += before[i] != table[i] && before[i] != n - 1;
	printf("lbfront: %d backends, entries per backend %llu..%llu of %d\n",
	       n, (unsigned long long)lo, (unsigned long long)hi, M);
	printf("lbfront: removing one moves %u entries of other backends (%.2f%% of the table)\n",
	       moved, 100.0 * moved / M);
	return 0;
}

static uint16_t fold(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return s;
}

/* RFC 1624: checksum @c after a 32-bit word changes from @from to @to. */
static uint16_t csum_replace(uint16_t c, uint32_t from, uint32_t to)
{
	uint32_t s = (uint16_t)~c;

	s += (uint16_t)~(from >> 16) + (uint16_t)~(from & 0xffff);
	s += (to >> 16) + (to & 0xffff);
	return ~fold(s);
}

static uint16_t get16(const uint8_t *p)
{
	return p[0] << 8 | p[1];
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

/* The backend of the flow of frame @d; -1 if it is not IPv4 TCP/UDP. */
static int pick(const uint8_t *d, uint32_t len)
{
	struct conn k = { 0 }, *c;
	uint32_t ihl, h, i;

	if (len < 34 || get16(d + 12) != 0x0800 || d[14] >> 4 != 4)
		return -1;
	ihl = (d[14] & 15) * 4;
	if (ihl < 20 || len < 14 + ihl + 8 || (d[23] != 6 && d[23] != 17))
		return -1;
	memcpy(&k.src, d + 26, 4);
	memcpy(&k.dst, d + 30, 4);
	k.sport = get16(d + 14 + ihl);
	k.dport = get16(d + 16 + ihl);
	k.proto = d[23];
	h = fnv(&k.src, 4, fnv(&k.dst, 4, fnv(&k.sport, 2,
			fnv(&k.dport, 2, fnv(&k.proto, 1, 2166136261u)))));
	for (i = 0; i < FLOWS; i++) {
		c = &conns[(h + i) % FLOWS];
		if (!c->used)
			break;
		if (c->src == k.src && c->dst == k.dst && c->sport == k.sport &&
		    c->dport == k.dport && c->proto == k.proto)
			return c->backend;
	}
	k.backend = table[h % M];
	k.used = 1;
	if (i < FLOWS)		/* a full table forgets nothing, keeps no more */
		*c = k;
	be[k.backend].flows++;
	return k.backend;
}

/* Send the frame to backend @b: its MAC, its address, checksums fixed. */
static void rewrite(uint8_t *d, const uint8_t *mac, int b)
{
	uint32_t ihl = (d[14] & 15) * 4, from, to = ntohl(be[b].ip);
	uint8_t *l4 = d + 14 + ihl;
	uint16_t c;

	memcpy(d + 6, mac, 6);
	memcpy(d, be[b].mac, 6);
	from = (uint32_t)get16(d + 30) << 16 | get16(d + 32);
	put16(d + 24, csum_replace(get16(d + 24), from, to));
	/* the L4 checksum covers the address too; UDP's 0 means none */
	if (d[23] == 6) {
		put16(l4 + 16, csum_replace(get16(l4 + 16), from, to));
	} else {
		c = get16(l4 + 6);
		if (c) {
			c = csum_replace(c, from, to);
			put16(l4 + 6, c ? c : 0xffff);
		}
	}
	memcpy(d + 30, &be[b].ip, 4);
	be[b].frames++;
}

static int parse_backend(const char *s)
{
	unsigned int m[6];
	char ip[INET_ADDRSTRLEN];
	int i;

	if (n_be == BACKENDS ||
	    sscanf(s, "%x:%x:%x:%x:%x:%x,%15s", &m[0], &m[1], &m[2], &m[3],
		   &m[4], &m[5], ip) != 7 ||
	    inet_pton(AF_INET, ip, &be[n_be].ip) != 1)
		return -1;
	for (i = 0; i < 6; i++)
		be[n_be].mac[i] = m[i];
	strcpy(be[n_be].name, ip);
	n_be++;
	return 0;
}

static int port_mac(const char *ifname, uint8_t *mac)
{
	unsigned int m[6];
	char path[128];
	FILE *f;
	int i, ok;

	snprintf(path, sizeof(path), "/sys/class/net/%s/address", ifname);
	f = fopen(path, "r");
	if (!f)
		return -1;
	ok = fscanf(f, "%x:%x:%x:%x:%x:%x", &m[0], &m[1], &m[2], &m[3],
		    &m[4], &m[5]) == 6;
	fclose(f);
	for (i = 0; i < 6; i++)
		mac[i] = m[i];
	return ok ? 0 : -1;
}

static int lbfront_opt(int c, const char *arg)
{
	return c == 'b' ? parse_backend(arg) : -1;
}

int main(int argc, char **argv)
{
	struct app a = { .name = "lbfront", .output = 2, .idle_ms = 5000 };
	unsigned long bad = 0;
	struct nicring_rec recs[BATCH];
	int alive[BACKENDS], n, i, b;
	char more[32];
	uint8_t mac[6];

	if (argc == 3 && !strcmp(argv[1], "--table"))
		return table_check(atoi(argv[2]));
	if (app_options(&a, argc, argv, "b:", lbfront_opt) || !n_be) {
		fprintf(stderr, "usage: lbfront IFNAME -b MAC,IPV4 [-b ...] [-o OUTPUT] [-n FRAMES] [-i IDLE_MS] | --table N\n");
		return 2;
	}
	if (port_mac(a.ifname, mac)) {
		fprintf(stderr, "lbfront: no address for %s\n", a.ifname);
		return 1;
	}
	for (i = 0; i < n_be; i++)
		alive[i] = 1;
	populate(alive);
	snprintf(more, sizeof(more), ", %d backends", n_be);
	if (app_open(&a, NICPROG_FRAMING_RECORDS, 0, APP_TX_SHARED, more))
		return 1;
	while ((n = app_next(&a, recs, BATCH))) {
		/* every record is forwarded, in order; a foreign one as is */
		for (i = 0; i < n; i++) {
			b = pick(recs[i].data, recs[i].len);
			if (b < 0)
				bad++;
			else
				rewrite(recs[i].data, mac, b);
		}
		if (app_forward(&a, n))
			break;
		a.done += n;
	}
	printf("lbfront: %lu frames, %lu not IPv4 TCP/UDP, %llu dropped\n",
	       a.done, bad, (unsigned long long)nicring_drops(a.rx));
	for (i = 0; i < n_be; i++)
		printf("lbfront: backend %s entries %llu flows %llu frames %llu\n",
		       be[i].name, (unsigned long long)be[i].entries,
		       (unsigned long long)be[i].flows,
		       (unsigned long long)be[i].frames);
	nicring_close(a.r);
	return a.want && a.done < a.want;
}
