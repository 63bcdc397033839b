/* SPDX-License-Identifier: GPL-2.0 */
/* libncl's own: its nicprog-ring backend (ring.c) as ncl.c uses it. */
#ifndef _NCL_RING_H
#define _NCL_RING_H

#include <stddef.h>

struct ncl_ring;

/*
 * Wait up to @timeout_ms for frames in the pipe, and give each one's NCP
 * payload (after its Ethernet, IPv4 and UDP headers) to @each. Returns
 * the frames taken, or a negative errno (-ENODEV: the port is gone).
 */
int ncl_ring_take(struct ncl_ring *r, int timeout_ms,
		  void (*each)(void *arg, const void *payload, size_t n),
		  void *arg);
void ncl_ring_free(struct ncl_ring *r);

/* @err, with @fmt's message in @buf if it has room (ncl.c). */
int ncl_why(char *buf, size_t len, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
