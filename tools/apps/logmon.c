// SPDX-License-Identifier: GPL-2.0
/*
 * logmon - a log monitor over a byte stream: nf/syslog.o strips the
 * headers of syslog datagrams (UDP port 514) on the NIC and appends their
 * messages, one per line, to a stream pipe; logmon reads the stream in
 * place and counts the lines that contain each pattern.
 *
 *   logmon IFNAME [-o OUTPUT] [-p PATTERN]... [-v] [-B] [-n LINES] [-i IDLE_MS]
 *
 * -v prints every matching line. -B binds the pipe with backpressure: when
 * logmon falls behind, the NIC waits for it rather than drop lines. Ends after LINES lines or IDLE_MS
 * (default 5000) without a byte, and prints per pattern its count, then
 * the lines, bytes, stream drops and system calls.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"

#define PATTERNS	16

/* Whether @pat occurs in the @n bytes at @s (no NUL there). */
static int contains(const char *s, size_t n, const char *pat, size_t pn)
{
	size_t i;

	for (i = 0; pn && i + pn <= n; i++)
		if (s[i] == pat[0] && !memcmp(s + i, pat, pn))
			return 1;
	return 0;
}

static const char *pats[PATTERNS];
static size_t plen[PATTERNS];
static int n_pats, verbose;
static uint32_t bind_flags;

static int logmon_opt(int c, const char *arg)
{
	switch (c) {
	case 'p':
		if (n_pats == PATTERNS || !*arg)
			return -1;
		pats[n_pats] = arg;
		plen[n_pats++] = strlen(arg);
		return 0;
	case 'v':
		verbose = 1;
		return 0;
	case 'B':
		bind_flags = NICPROG_BIND_BACKPRESSURE;
		return 0;
	}
	return -1;
}

int main(int argc, char **argv)
{
	struct app a = { .name = "logmon", .output = 1, .idle_ms = 5000 };
	unsigned long lines = 0, hits[PATTERNS] = { 0 };
	uint64_t bytes = 0, last;
	struct nicring_stats st;
	int64_t avail;
	char *d, *nl;
	void *data;
	int i, err;

	if (app_options(&a, argc, argv, "p:vB", logmon_opt)) {
		fprintf(stderr, "usage: logmon IFNAME [-o OUTPUT] [-p PATTERN]... [-v] [-B] [-n LINES] [-i IDLE_MS]\n");
		return 2;
	}
	if (app_open(&a, NICPROG_FRAMING_STREAM, bind_flags, APP_TX_NONE, ""))
		return 1;
	last = nicring_now_ms();
	while (!a.want || lines < a.want) {
		avail = nicring_read(a.rx, &data);
		d = data;
		/* whole lines only; a partial one waits for its end */
		nl = avail > 0 ? memrchr(d, '\n', avail) : NULL;
		if (!nl) {
			err = nicring_wait_idle(a.r, last, a.idle_ms);
			if (err == -ETIMEDOUT)
				break;
			if (err < 0) {
				fprintf(stderr, "logmon: wait: %s\n",
					strerror(-err));
				break;
			}
			continue;
		}
		while (d <= nl && (!a.want || lines < a.want)) {
			char *e = memchr(d, '\n', nl + 1 - d);

			for (i = 0; i < n_pats; i++) {
				if (!contains(d, e - d, pats[i], plen[i]))
					continue;
				hits[i]++;
				if (verbose)
					printf("%.*s\n", (int)(e - d), d);
			}
			lines++;
			d = e + 1;
		}
		bytes += d - (char *)data;
		nicring_consume(a.rx, d - (char *)data);
		last = nicring_now_ms();
	}
	for (i = 0; i < n_pats; i++)
		printf("logmon: '%s' %lu\n", pats[i], hits[i]);
	nicring_get_stats(a.r, &st);
	printf("logmon: %lu lines, %llu bytes, %llu dropped, %llu commands\n",
	       lines, (unsigned long long)bytes,
	       (unsigned long long)nicring_drops(a.rx),
	       (unsigned long long)st.commands);
	nicring_close(a.r);
	return a.want && lines < a.want;
}
