/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the streaming-ring selftests (ring_test, ring_hostile) share:
 * finding a port's device node, one command through io_uring, TX records;
 * frames come from frame_lib.h.
 */
#ifndef _NICPROG_RING_LIB_H
#define _NICPROG_RING_LIB_H

#include <liburing.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/nicprog.h>

#include "frame_lib.h"

/* A record's bytes in a pipe, header and padding included. */
#define REC(len)	(((8 + (len)) + 7) & ~7)
/* Frame lengths of 60 to 1013 bytes, varying with @i. */
#define FLEN(i)		(60 + ((i) * 37) % 954)

/* The cmd_op of enum nicprog_ring_op @nr, for tables and fuzzers. */
#define NICPROG_U_OP_NR(nr) \
	_IOWR(NICPROG_RING_IOC_MAGIC, (nr), struct nicprog_uring_cmd)
/* A command not complete after this long is lost: the test fails. */
#define RL_CMD_BOUND_MS	10000

int rl_node(const char *ifname, char *path, size_t size);
int rl_queue(struct io_uring *r, int fd, uint32_t op, void *arg,
	     uint32_t len, uint32_t cflags, uint8_t sqe_flags, uint64_t data);
int rl_submit(struct io_uring *r, int fd, uint32_t op, void *arg,
	      uint32_t len, uint32_t cflags, uint8_t sqe_flags,
	      uint64_t data);
int rl_reap(struct io_uring *r, unsigned int ms, struct io_uring_cqe *out);
int rl_cmd(struct io_uring *r, int fd, uint32_t op, void *arg, uint32_t len,
	   uint32_t cflags);
long rl_port_stat(const char *port, const char *name);
void *rl_pipe_map(int fd, const struct nicprog_pipe_create *a);
uint64_t rl_put_rec(uint8_t *data, uint32_t size, uint64_t tail,
		    const uint8_t *f, int len);

#endif /* _NICPROG_RING_LIB_H */
