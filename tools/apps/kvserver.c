// SPDX-License-Identifier: GPL-2.0
/*
 * kvserver - a small key-value server over UDP, entirely on nicprog's
 * rings: nf/kv.o steers requests (UDP port 11211) to an output, the server
 * reads them from a records pipe and sends each reply from a TX pipe. The
 * host stack never sees a request.
 *
 *   kvserver IFNAME [-o OUTPUT] [-n REQUESTS] [-i IDLE_MS]
 *
 * One request per datagram, text, a final newline optional:
 *   get KEY          ->  VALUE KEY DATA | END
 *   set KEY DATA     ->  STORED
 *   delete KEY       ->  DELETED | NOT_FOUND
 *   anything else    ->  ERROR <reason>
 * Keys are 1..250 bytes without blanks, values up to 1024 bytes. A reply
 * goes to the request's source, Ethernet, IPv4 and UDP addresses swapped
 * (UDP checksum 0, as IPv4 allows). Ends after REQUESTS requests or
 * IDLE_MS (default 5000) without one, and prints what it served and what
 * it cost.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"

#define BATCH		64
#define KEY_MAX		250
#define VAL_MAX		1024
#define BUCKETS		4096
#define ETH_LEN		14
#define IP_LEN		20
#define UDP_LEN		8
#define HDRS		(ETH_LEN + IP_LEN + UDP_LEN)

struct item {
	struct item *next;
	uint32_t klen, vlen;
	char key[KEY_MAX];
	char val[VAL_MAX];
};

static struct item *table[BUCKETS];
static unsigned long n_get, n_hit, n_set, n_del, n_err, n_bad;

static uint32_t hash(const char *k, uint32_t n)
{
	uint32_t h = 2166136261u;

	while (n--)
		h = (h ^ (uint8_t)*k++) * 16777619u;
	return h % BUCKETS;
}

static struct item **find(const char *k, uint32_t n)
{
	struct item **p = &table[hash(k, n)];

	while (*p && ((*p)->klen != n || memcmp((*p)->key, k, n)))
		p = &(*p)->next;
	return p;
}

/* The next blank-separated word of [*s, end), or length 0. */
static uint32_t word(const char **s, const char *end, const char **w)
{
	while (*s < end && (**s == ' ' || **s == '\r' || **s == '\n'))
		(*s)++;
	*w = *s;
	while (*s < end && **s != ' ' && **s != '\r' && **s != '\n')
		(*s)++;
	return *s - *w;
}

/* Serve one request of @len bytes; the reply's text into @out. */
static int serve(const char *req, uint32_t len, char *out, uint32_t room)
{
	const char *s = req, *end = req + len, *cmd, *key, *val;
	uint32_t cl, kl, vl;
	struct item **p, *it;

	while (end > s && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	cl = word(&s, end, &cmd);
	kl = word(&s, end, &key);
	if (!kl || kl > KEY_MAX)
		goto bad;
	if (cl == 3 && !memcmp(cmd, "get", 3) && s == end) {
		n_get++;
		it = *find(key, kl);
		if (!it)
			return snprintf(out, room, "END\r\n");
		n_hit++;
		return snprintf(out, room, "VALUE %.*s %.*s\r\n", (int)kl, key,
				(int)it->vlen, it->val);
	}
	if (cl == 3 && !memcmp(cmd, "set", 3)) {
		if (s < end)	/* one blank, then the value to the end */
			s++;
		val = s;
		vl = end - s;
		if (!vl || vl > VAL_MAX)
			goto bad;
		p = find(key, kl);
		it = *p;
		if (!it) {
			it = calloc(1, sizeof(*it));
			if (!it)
				return snprintf(out, room, "SERVER_ERROR out of memory\r\n");
			memcpy(it->key, key, kl);
			it->klen = kl;
			*p = it;
		}
		memcpy(it->val, val, vl);
		it->vlen = vl;
		n_set++;
		return snprintf(out, room, "STORED\r\n");
	}
	if (cl == 6 && !memcmp(cmd, "delete", 6) && s == end) {
		n_del++;
		p = find(key, kl);
		if (!*p)
			return snprintf(out, room, "NOT_FOUND\r\n");
		it = *p;
		*p = it->next;
		free(it);
		return snprintf(out, room, "DELETED\r\n");
	}
bad:
	n_err++;
	return snprintf(out, room, "ERROR expected get KEY, set KEY DATA or delete KEY\r\n");
}

static uint16_t csum(const uint8_t *d, uint32_t n)
{
	uint32_t s = 0, i;

	for (i = 0; i + 1 < n; i += 2)
		s += d[i] << 8 | d[i + 1];
	if (n & 1)
		s += d[n - 1] << 8;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return ~s;
}

/*
 * Build the reply to request frame @f of @len bytes into @r; its length,
 * 0 if @f is not an IPv4 UDP frame this server answers.
 */
static uint32_t reply(const uint8_t *f, uint32_t len, uint8_t *r)
{
	uint32_t ihl, ulen, n;
	uint16_t c;

	if (len < HDRS || f[12] != 0x08 || f[13] != 0 || (f[14] >> 4) != 4)
		return 0;
	ihl = (f[14] & 15) * 4;
	if (ihl < IP_LEN || len < ETH_LEN + ihl + UDP_LEN || f[23] != 17)
		return 0;
	ulen = f[ETH_LEN + ihl + 4] << 8 | f[ETH_LEN + ihl + 5];
	if (ulen < UDP_LEN || ETH_LEN + ihl + ulen > len)
		return 0;
	n = serve((const char *)f + ETH_LEN + ihl + UDP_LEN, ulen - UDP_LEN,
		  (char *)r + HDRS, VAL_MAX + KEY_MAX + 64);
	memcpy(r, f + 6, 6);
	memcpy(r + 6, f, 6);
	r[12] = 0x08, r[13] = 0;
	memset(r + ETH_LEN, 0, IP_LEN);
	r[14] = 0x45;
	r[16] = (IP_LEN + UDP_LEN + n) >> 8;
	r[17] = (IP_LEN + UDP_LEN + n) & 0xff;
	r[22] = 64;
	r[23] = 17;
	memcpy(r + 26, f + 30, 4);	/* source: the request's destination */
	memcpy(r + 30, f + 26, 4);
	c = csum(r + ETH_LEN, IP_LEN);
	r[24] = c >> 8, r[25] = c & 0xff;
	memcpy(r + 34, f + ETH_LEN + ihl + 2, 2);
	memcpy(r + 36, f + ETH_LEN + ihl, 2);
	r[38] = (UDP_LEN + n) >> 8, r[39] = (UDP_LEN + n) & 0xff;
	r[40] = r[41] = 0;
	if (HDRS + n >= 60)
		return HDRS + n;
	memset(r + HDRS + n, 0, 60 - HDRS - n);	/* Ethernet's minimum */
	return 60;
}

int main(int argc, char **argv)
{
	struct app a = { .name = "kvserver", .idle_ms = 5000 };
	static uint8_t out[HDRS + VAL_MAX + KEY_MAX + 64];
	struct nicring_rec recs[BATCH];
	struct nicring_stats st;
	uint32_t len;
	int n, i, err;

	if (app_options(&a, argc, argv, "", NULL)) {
		fprintf(stderr, "usage: kvserver IFNAME [-o OUTPUT] [-n REQUESTS] [-i IDLE_MS]\n");
		return 2;
	}
	if (app_open(&a, NICPROG_FRAMING_RECORDS, 0, APP_TX_OWN, ""))
		return 1;
	while ((n = app_next(&a, recs, BATCH))) {
		for (i = 0; i < n; i++) {
			len = reply(recs[i].data, recs[i].len, out);
			if (!len) {
				n_bad++;
				continue;
			}
			err = nicring_append(a.tx, out, len);
			if (err == -ENOBUFS) {	/* send what waits, then retry */
				nicring_send(a.tx);
				err = nicring_append(a.tx, out, len);
			}
			if (err)
				fprintf(stderr, "kvserver: reply: %s\n",
					strerror(-err));
		}
		nicring_release(a.rx, n);
		if (app_send(&a))
			break;
		a.done += n;
	}
	nicring_get_stats(a.r, &st);
	printf("kvserver: %lu requests: %lu get (%lu hits), %lu set, %lu delete, %lu errors, %lu not UDP/IPv4; %llu commands (%.4f per request), %llu dropped\n",
	       a.done, n_get, n_hit, n_set, n_del, n_err, n_bad,
	       (unsigned long long)st.commands,
	       a.done ? (double)st.commands / a.done : 0,
	       (unsigned long long)nicring_drops(a.rx));
	nicring_close(a.r);
	return a.want && a.done < a.want;
}
