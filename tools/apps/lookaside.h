/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the lookaside applications share (matmul, colagg): their kernel
 * loaded for the NIC, a QP to the peer that serves their data (rdmapeer
 * -x or -y, rdma_check.h's hello), and READs of it into NIC buffers.
 */
#ifndef LOOKASIDE_H
#define LOOKASIDE_H

#include <stdint.h>

#include "../lib/nicring/nicring.h"

struct la_peer {
	int fd;			/* the TCP connection, open until done */
	uint32_t qpn;		/* our QP */
	uint64_t vaddr;		/* the peer's region */
	uint32_t rkey;
};

int la_kernel(struct nicring *r, const char *ifname, const char *obj,
	      const char *path, uint32_t *kid);
int la_connect(struct nicring *r, const char *ifname, const char *addr,
	       const char *server, int port, uint64_t seed, const char *what,
	       const char *mac, struct la_peer *p);
int la_read(struct nicring *r, const struct la_peer *p, const uint32_t *bufs,
	    const uint64_t *roff, const uint64_t *len, int n);
void la_done(const struct la_peer *p);

#endif /* LOOKASIDE_H */
