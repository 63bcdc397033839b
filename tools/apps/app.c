// SPDX-License-Identifier: GPL-2.0
/*
 * The ring applications' shared set-up (app.h): each one's own work is
 * what it does with the records.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"

int app_options(struct app *a, int argc, char **argv, const char *more,
		int (*opt)(int c, const char *arg))
{
	char optstring[64];
	int c;

	snprintf(optstring, sizeof(optstring), "o:n:i:%s", more);
	while ((c = getopt(argc, argv, optstring)) != -1) {
		switch (c) {
		case 'o':
			a->output = strtoul(optarg, NULL, 0);
			break;
		case 'n':
			a->want = strtoul(optarg, NULL, 0);
			break;
		case 'i':
			a->idle_ms = strtoul(optarg, NULL, 0);
			break;
		case '?':
			return -1;
		default:
			if (!opt || opt(c, optarg))
				return -1;
		}
	}
	if (optind + 1 != argc)
		return -1;
	a->ifname = argv[optind];
	return 0;
}

int app_open(struct app *a, uint32_t framing, uint32_t bind_flags,
	     enum app_tx tx, const char *more)
{
	int err;

	a->r = nicring_open(a->ifname, &err);
	if (!a->r) {
		fprintf(stderr, "%s: %s's ring device: %s\n", a->name,
			a->ifname, strerror(-err));
		return 1;
	}
	a->rx = nicring_rx_flags(a->r, 1 << 20, framing, a->output,
				 bind_flags, &err);
	a->tx = NULL;
	if (a->rx && tx != APP_TX_NONE)
		a->tx = nicring_tx(a->r, 1 << 20,
				   tx == APP_TX_SHARED ? a->rx : NULL, &err);
	if (!a->rx || (tx != APP_TX_NONE && !a->tx)) {
		fprintf(stderr, "%s: %s on output %u: %s\n", a->name,
			tx == APP_TX_NONE ? "pipe" : "pipes", a->output,
			strerror(-err));
		nicring_close(a->r);
		return 1;
	}
	printf("%s: %s output %u%s\n", a->name, a->ifname, a->output, more);
	fflush(stdout);
	return 0;
}

int app_next(struct app *a, struct nicring_rec *recs, int max)
{
	int n;

	if (a->want && a->done >= a->want)
		return 0;
	n = nicring_next(a->rx, recs, max, a->idle_ms);
	if (n < 0)
		fprintf(stderr, "%s: wait: %s\n", a->name, strerror(-n));
	return n > 0 ? n : 0;
}

static int app_sent(struct app *a, int err)
{
	if (err >= 0)
		return 0;
	fprintf(stderr, "%s: send: %s\n", a->name, strerror(-err));
	return -1;
}

int app_send(struct app *a)
{
	return app_sent(a, nicring_send(a->tx));
}

int app_forward(struct app *a, int n)
{
	return app_sent(a, nicring_forward(a->tx, a->rx, n));
}
