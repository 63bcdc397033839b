/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the ring applications share: the options each takes (-o OUTPUT,
 * -n COUNT, -i IDLE_MS, and its own), the port's ring device and pipes,
 * and the wait for the next records, with the same messages.
 */
#ifndef _NICPROG_APP_H
#define _NICPROG_APP_H

#include <stdint.h>

#include "../lib/nicring/nicring.h"

/* The TX pipe an application sends from, if any. */
enum app_tx {
	APP_TX_NONE,
	APP_TX_OWN,		/* a pipe of its own: replies */
	APP_TX_SHARED,		/* over the RX pipe's data: frames sent back */
};

struct app {
	const char *name;	/* the program's, first on every line */
	const char *ifname;
	uint32_t output;	/* the NF's output the RX pipe binds to */
	unsigned long want;	/* records (lines) to take; 0: no end */
	unsigned long done;	/* taken so far: the application counts */
	unsigned long idle_ms;	/* end after this long without one */
	struct nicring *r;
	struct nicring_pipe *rx, *tx;
};

/*
 * Parse -o, -n and -i, and the letters in @more (getopt(3) syntax), each
 * given to @opt; then the interface, the one operand. Returns 0, or -1
 * when the command line is not the program's usage.
 */
int app_options(struct app *a, int argc, char **argv, const char *more,
		int (*opt)(int c, const char *arg));

/*
 * Open the interface's ring device, a 1 MiB RX pipe of @framing bound to
 * the output with @bind_flags, and the TX pipe @tx asks for, and say so
 * on stdout ("NAME: IFNAME output N" and @more) for whoever waits for
 * the application to start. Returns 0, or 1 after saying why on stderr
 * (nothing left open).
 */
int app_open(struct app *a, uint32_t framing, uint32_t bind_flags,
	     enum app_tx tx, const char *more);

/*
 * The next records, at most @max; 0 when the run ends: @want taken, none
 * for @idle_ms, or an error (said).
 */
int app_next(struct app *a, struct nicring_rec *recs, int max);

/* Send what the TX pipe holds; 0, or -1 after saying why. */
int app_send(struct app *a);

/* Send the @n records last taken back out (APP_TX_SHARED); as app_send(). */
int app_forward(struct app *a, int n);

#endif /* _NICPROG_APP_H */
