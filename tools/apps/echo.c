// SPDX-License-Identifier: GPL-2.0
/*
 * echo - send every frame an NF steers to an output back out of the port,
 * Ethernet addresses swapped, without copying it: the TX pipe shares the
 * RX pipe's data (libnicring's nicring_forward()).
 *
 *   echo IFNAME [-o OUTPUT] [-n FRAMES] [-i IDLE_MS]
 *
 * Ends after FRAMES frames (default: never) or IDLE_MS without one
 * (default 5000), and prints what it cost: commands, waits and
 * notifications per frame.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/nicring/nicring.h"

#define BATCH	64

int main(int argc, char **argv)
{
	unsigned long want = 0, done = 0, idle_ms = 5000;
	struct nicring_rec recs[BATCH];
	struct nicring_pipe *rx, *tx;
	uint32_t output = 0;
	struct nicring_stats st;
	struct nicring *r;
	uint8_t mac[6];
	int c, n, i, err;

	while ((c = getopt(argc, argv, "o:n:i:")) != -1) {
		switch (c) {
		case 'o':
			output = strtoul(optarg, NULL, 0);
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
		fprintf(stderr, "echo: %s's ring device: %s\n", argv[optind],
			strerror(-err));
		return 1;
	}
	rx = nicring_rx(r, 1 << 20, NICPROG_FRAMING_RECORDS, output, &err);
	tx = rx ? nicring_tx(r, 1 << 20, rx, &err) : NULL;
	if (!tx) {
		fprintf(stderr, "echo: pipes on output %u: %s\n", output,
			strerror(-err));
		nicring_close(r);
		return 1;
	}
	printf("echo: %s output %u\n", argv[optind], output);
	fflush(stdout);
	while (!want || done < want) {
		n = nicring_next(rx, recs, BATCH, idle_ms);
		if (n <= 0) {
			if (n < 0)
				fprintf(stderr, "echo: wait: %s\n",
					strerror(-n));
			break;
		}
		for (i = 0; i < n; i++) {
			if (recs[i].len < 12)
				continue;
			memcpy(mac, recs[i].data, 6);
			memmove(recs[i].data, (uint8_t *)recs[i].data + 6, 6);
			memcpy((uint8_t *)recs[i].data + 6, mac, 6);
		}
		err = nicring_forward(tx, rx, n);
		if (err < 0) {
			fprintf(stderr, "echo: send: %s\n", strerror(-err));
			break;
		}
		done += n;
	}
	nicring_get_stats(r, &st);
	printf("echo: %lu frames, %llu commands (%.4f per frame), %llu waits, %llu notifications (%.4f per frame), %llu dropped\n",
	       done, (unsigned long long)st.commands,
	       done ? (double)st.commands / done : 0,
	       (unsigned long long)st.waits,
	       (unsigned long long)st.notifications,
	       done ? (double)st.notifications / done : 0,
	       (unsigned long long)nicring_drops(rx));
	nicring_close(r);
	return want && done < want;

usage:
	fprintf(stderr, "usage: echo IFNAME [-o OUTPUT] [-n FRAMES] [-i IDLE_MS]\n");
	return 2;
}
