// SPDX-License-Identifier: GPL-2.0
/* What the streaming-ring selftests share (ring_lib.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/if_packet.h>
#include <sys/mman.h>
#include <sys/socket.h>

#include "kselftest.h"
#include "ring_lib.h"

/**
 * rl_node() - the path of a port's streaming-ring device node
 * @ifname: the port's class device, /sys/class/nicprog/@ifname
 * @path: filled with /dev/ and the class device's DEVNAME
 * @size: bytes at @path
 *
 * Return: 0, or -errno if the class device has no node.
 */
int rl_node(const char *ifname, char *path, size_t size)
{
	char line[256], *nl;
	int err = -ENOENT;
	FILE *f;

	snprintf(line, sizeof(line), "/sys/class/nicprog/%s/uevent", ifname);
	f = fopen(line, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "DEVNAME=", 8))
			continue;
		nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		snprintf(path, size, "/dev/%s", line + 8);
		err = 0;
		break;
	}
	fclose(f);
	return err;
}

/**
 * rl_queue() - queue one command, for io_uring_submit()
 * @r: the ring
 * @fd: the device
 * @op: NICPROG_OP_*
 * @arg: its argument struct
 * @len: its length
 * @cflags: struct nicprog_uring_cmd's flags
 * @sqe_flags: IOSQE_*
 * @data: the completion's user_data
 *
 * Return: 0, or -EBUSY if the submission queue is full.
 */
int rl_queue(struct io_uring *r, int fd, uint32_t op, void *arg,
	     uint32_t len, uint32_t cflags, uint8_t sqe_flags, uint64_t data)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(r);
	struct nicprog_uring_cmd *c;

	if (!sqe)
		return -EBUSY;
	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = fd;
	sqe->cmd_op = op;
	sqe->flags = sqe_flags;
	sqe->user_data = data;
	c = (struct nicprog_uring_cmd *)sqe->cmd;
	c->arg = (uintptr_t)arg;
	c->arg_len = len;
	c->flags = cflags;
	return 0;
}

/**
 * rl_submit() - submit one command
 * @r: the ring
 * @fd: the device
 * @op: NICPROG_OP_*
 * @arg: its argument struct
 * @len: its length
 * @cflags: struct nicprog_uring_cmd's flags
 * @sqe_flags: IOSQE_*
 * @data: the completion's user_data
 *
 * Return: 0, or -errno.
 */
int rl_submit(struct io_uring *r, int fd, uint32_t op, void *arg,
	      uint32_t len, uint32_t cflags, uint8_t sqe_flags,
	      uint64_t data)
{
	int n = rl_queue(r, fd, op, arg, len, cflags, sqe_flags, data);

	if (n)
		return n;
	n = io_uring_submit(r);
	return n == 1 ? 0 : n < 0 ? n : -EIO;
}

/**
 * rl_reap() - the next completion
 * @r: the ring
 * @ms: how long to wait for it
 * @out: the completion, copied
 *
 * Return: 0, -ETIMEDOUT, or another error of io_uring_wait_cqe_timeout().
 */
int rl_reap(struct io_uring *r, unsigned int ms, struct io_uring_cqe *out)
{
	struct __kernel_timespec ts = { .tv_sec = ms / 1000,
					.tv_nsec = (ms % 1000) * 1000000LL };
	struct io_uring_cqe *cqe;
	int err;

	do
		err = io_uring_wait_cqe_timeout(r, &cqe, &ts);
	while (err == -EINTR);
	if (err)
		return err == -ETIME ? -ETIMEDOUT : err;
	*out = *cqe;
	io_uring_cqe_seen(r, cqe);
	return 0;
}

/**
 * rl_cmd() - one command, inline, and its result
 * @r: the ring, nothing else in flight
 * @fd: the device
 * @op: NICPROG_OP_*
 * @arg: its argument struct
 * @len: its length
 * @cflags: struct nicprog_uring_cmd's flags
 *
 * The test fails if the command is not complete within RL_CMD_BOUND_MS.
 *
 * Return: the completion's res.
 */
int rl_cmd(struct io_uring *r, int fd, uint32_t op, void *arg, uint32_t len,
	   uint32_t cflags)
{
	struct io_uring_cqe cqe;
	int err;

	err = rl_submit(r, fd, op, arg, len, cflags, 0, 0);
	if (err)
		ksft_exit_fail_msg("io_uring_submit: %s\n", strerror(-err));
	if (rl_reap(r, RL_CMD_BOUND_MS, &cqe))
		ksft_exit_fail_msg("command %#x: no completion in %u ms\n", op,
				   RL_CMD_BOUND_MS);
	return cqe.res;
}

/**
 * rl_put_rec() - append a record to a TX pipe's data
 * @data: the pipe's data, mapped
 * @size: its size
 * @tail: where the record goes
 * @f: its bytes
 * @len: their length
 *
 * Return: the tail after it.
 */
uint64_t rl_put_rec(uint8_t *data, uint32_t size, uint64_t tail,
		    const uint8_t *f, int len)
{
	struct nicprog_rec *r = (void *)(data + (tail & (size - 1)));

	r->len = len;
	r->flags = 0;
	r->__rsvd = 0;
	memcpy(r + 1, f, len);
	return tail + REC(len);
}

/**
 * rl_pipe_map() - map a pipe of a file; the test fails if it cannot
 * @fd: the device
 * @a: the pipe's create command, as it completed
 *
 * Return: the mapping: the control page, then the data twice.
 */
void *rl_pipe_map(int fd, const struct nicprog_pipe_create *a)
{
	void *m = mmap(NULL, a->mmap_len, PROT_READ | PROT_WRITE, MAP_SHARED,
		       fd, a->mmap_off);

	if (m == MAP_FAILED)
		ksft_exit_fail_msg("mapping pipe %u: %s\n", a->id,
				   strerror(errno));
	return m;
}

/**
 * rl_port_stat() - a counter of /sys/class/nicprog/@port/statistics/
 * @port: the port's class device
 * @name: the counter
 *
 * Return: its value; the test fails if there is none.
 */
long rl_port_stat(const char *port, const char *name)
{
	char path[160];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/nicprog/%s/statistics/%s",
		 port, name);
	f = fopen(path, "r");
	if (!f)
		ksft_exit_fail_msg("%s: %s\n", path, strerror(errno));
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}
