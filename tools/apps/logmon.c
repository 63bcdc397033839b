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

#include "../lib/nicring/nicring.h"

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

int main(int argc, char **argv)
{
	unsigned long want = 0, lines = 0, idle_ms = 5000, hits[PATTERNS] = { 0 };
	const char *pats[PATTERNS];
	size_t plen[PATTERNS];
	int n_pats = 0, verbose = 0, c, i, err;
	uint32_t bind_flags = 0;
	uint64_t bytes = 0, last;
	struct nicring_stats st;
	struct nicring_pipe *rx;
	uint32_t output = 1;
	struct nicring *r;
	int64_t avail;
	char *d, *nl;
	void *data;

	while ((c = getopt(argc, argv, "o:p:vBn:i:")) != -1) {
		switch (c) {
		case 'o':
			output = strtoul(optarg, NULL, 0);
			break;
		case 'p':
			if (n_pats == PATTERNS || !*optarg)
				goto usage;
			pats[n_pats] = optarg;
			plen[n_pats++] = strlen(optarg);
			break;
		case 'v':
			verbose = 1;
			break;
		case 'B':
			bind_flags = NICPROG_BIND_BACKPRESSURE;
			break;
		case 'n':
			want = strtoul(optarg, NULL, 0);
			break;
		case 'i':
			idle_ms = strtoul(optarg, NULL, 0);
			break;
		default:
			goto usage;
		}
	}
	if (optind + 1 != argc)
		goto usage;
	r = nicring_open(argv[optind], &err);
	if (!r) {
		fprintf(stderr, "logmon: %s's ring device: %s\n", argv[optind],
			strerror(-err));
		return 1;
	}
	rx = nicring_rx_flags(r, 1 << 20, NICPROG_FRAMING_STREAM, output,
			      bind_flags, &err);
	if (!rx) {
		fprintf(stderr, "logmon: stream pipe on output %u: %s\n",
			output, strerror(-err));
		nicring_close(r);
		return 1;
	}
	printf("logmon: %s output %u\n", argv[optind], output);
	fflush(stdout);
	last = nicring_now_ms();
	while (!want || lines < want) {
		avail = nicring_read(rx, &data);
		d = data;
		/* whole lines only; a partial one waits for its end */
		nl = avail > 0 ? memrchr(d, '\n', avail) : NULL;
		if (!nl) {
			err = nicring_wait_idle(r, last, idle_ms);
			if (err == -ETIMEDOUT)
				break;
			if (err < 0) {
				fprintf(stderr, "logmon: wait: %s\n",
					strerror(-err));
				break;
			}
			continue;
		}
		while (d <= nl && (!want || lines < want)) {
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
		nicring_consume(rx, d - (char *)data);
		last = nicring_now_ms();
	}
	for (i = 0; i < n_pats; i++)
		printf("logmon: '%s' %lu\n", pats[i], hits[i]);
	nicring_get_stats(r, &st);
	printf("logmon: %lu lines, %llu bytes, %llu dropped, %llu commands\n",
	       lines, (unsigned long long)bytes,
	       (unsigned long long)nicring_drops(rx),
	       (unsigned long long)st.commands);
	nicring_close(r);
	return want && lines < want;

usage:
	fprintf(stderr, "usage: logmon IFNAME [-o OUTPUT] [-p PATTERN]... [-v] [-B] [-n LINES] [-i IDLE_MS]\n");
	return 2;
}
