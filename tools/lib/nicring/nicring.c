// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause
/*
 * libnicring: see nicring.h. The kernel side is kernel/ring/.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "nicring.h"

#define NICRING_PIPES	64
#define REC_HDR		sizeof(struct nicprog_rec)
/*
 * user_data of our completions: a command's, the multishot poll's, and
 * NICRING_ASYNC | tag an asynchronous command's (nicring_command_post())
 */
#define NICRING_CMD	1
#define NICRING_POLL	2
#define NICRING_ASYNC	(1ULL << 63)
/* asynchronous commands in flight at most: the SQ's entries */
#define NICRING_ASYNC_MAX	16

struct nicring_pipe {
	struct nicring *r;
	uint32_t id;
	uint32_t size;
	uint32_t dir;
	uint32_t framing;
	uint8_t *map;
	uint64_t map_len;
	struct nicprog_pipe_ctrl *ctrl;
	uint8_t *data;
	uint64_t pos;	/* RX: head, released; TX: tail, appended */
	uint64_t peek;	/* RX: past the records peeked */
	uint64_t held;	/* RX: records peeked, not released */
	uint64_t sent;	/* TX: tail the NIC was given */
	struct nicring_pipe *share;
	int attached;	/* nicring_attach()'s: freeing only unmaps it */
};

struct nicring {
	int fd;
	struct io_uring ring;
	uint8_t *nmap;
	struct nicprog_notif_ctrl *nctrl;
	struct nicring_pipe *pipes[NICRING_PIPES];
	struct nicring_stats st;
	int armed;	/* the multishot poll is in flight */
	int fired;	/* it completed since the last wait began */
	int poll_err;	/* its error, or -ENODEV once the port hung up */
	uint32_t in_flight;	/* asynchronous commands not reaped */
	uint32_t n_done;	/* their completions taken from the ring */
	struct {
		uint64_t tag;
		int res;
	} done[NICRING_ASYNC_MAX];
};

static uint64_t rec_size(uint32_t len)
{
	return (REC_HDR + len + NICPROG_REC_ALIGN - 1) &
	       ~(uint64_t)(NICPROG_REC_ALIGN - 1);
}

/* Take a completion of the file's multishot poll. */
static void nicring_polled(struct nicring *r, const struct io_uring_cqe *cqe)
{
	if (!(cqe->flags & IORING_CQE_F_MORE))
		r->armed = 0;
	if (cqe->res < 0)
		r->poll_err = cqe->res;
	else if (cqe->res & (POLLHUP | POLLERR))
		r->poll_err = -ENODEV;
	else
		r->fired = 1;
}

/*
 * A completion that is not the command waited for: the multishot poll's,
 * or an asynchronous command's, kept until nicring_command_reap().
 */
static void nicring_cqe(struct nicring *r, const struct io_uring_cqe *cqe)
{
	if (cqe->user_data == NICRING_POLL) {
		nicring_polled(r, cqe);
	} else if ((cqe->user_data & NICRING_ASYNC) &&
		   r->n_done < NICRING_ASYNC_MAX) {
		r->done[r->n_done].tag = cqe->user_data & ~NICRING_ASYNC;
		r->done[r->n_done].res = cqe->res;
		r->n_done++;
	}
}

/* The SQE of command @op on @arg, or NULL with the SQ full. */
static struct io_uring_sqe *nicring_prep(struct nicring *r, uint32_t op,
					 void *arg, uint32_t len,
					 uint64_t user_data)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&r->ring);
	struct nicprog_uring_cmd *c;

	if (!sqe)
		return NULL;
	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = r->fd;
	sqe->cmd_op = op;
	c = (struct nicprog_uring_cmd *)sqe->cmd;
	c->arg = (uintptr_t)arg;
	c->arg_len = len;
	sqe->user_data = user_data;
	return sqe;
}

/**
 * nicring_command() - one command of the device, waited for
 * @r: the handle
 * @op: a NICPROG_U_OP_* code
 * @arg: its argument struct
 * @len: its size
 *
 * Return: the command's CQE's res.
 */
int nicring_command(struct nicring *r, uint32_t op, void *arg, uint32_t len)
{
	struct io_uring_cqe *cqe;
	int res;

	if (!nicring_prep(r, op, arg, len, NICRING_CMD))
		return -EBUSY;
	res = io_uring_submit_and_wait(&r->ring, 1);
	if (res < 0)
		return res;
	r->st.submits++;
	r->st.syscalls++;
	for (;;) {
		res = io_uring_wait_cqe(&r->ring, &cqe);
		if (res < 0)
			return res;
		if (cqe->user_data == NICRING_CMD)
			break;
		nicring_cqe(r, cqe);
		io_uring_cqe_seen(&r->ring, cqe);
	}
	res = cqe->res;
	io_uring_cqe_seen(&r->ring, cqe);
	r->st.commands++;
	return res;
}

/**
 * nicring_command_post() - submit a command of the device, not waiting
 * @r: the handle
 * @op: a NICPROG_U_OP_* code
 * @arg: its argument struct, which must stay as it is until the
 *	command's completion is reaped (the kernel may read it late)
 * @len: its size
 * @tag: the caller's, below 2^63, which nicring_command_reap() gives back
 *
 * Return: 0, -EBUSY with NICRING_ASYNC_MAX (16) in flight, or -errno.
 */
int nicring_command_post(struct nicring *r, uint32_t op, void *arg,
			 uint32_t len, uint64_t tag)
{
	int res;

	if (tag & NICRING_ASYNC)
		return -EINVAL;
	if (r->in_flight >= NICRING_ASYNC_MAX)
		return -EBUSY;
	if (!nicring_prep(r, op, arg, len, NICRING_ASYNC | tag))
		return -EBUSY;
	res = io_uring_submit(&r->ring);
	if (res < 0)
		return res;
	r->st.submits++;
	r->st.syscalls++;
	r->in_flight++;
	return 0;
}

/**
 * nicring_command_reap() - the next completion of a posted command
 * @r: the handle
 * @tag: out: its tag
 * @res: out: its CQE's res
 * @spin: busy-poll the completion ring (no system call, the CPU spent),
 *	for up to 10 s, rather than sleep until the kernel posts the
 *	completion and wakes the caller (io_uring_wait_cqe())
 *
 * Return: 1 with a completion, -ENOENT with none in flight, -ETIME when
 * spinning found none in 10 s, or -errno.
 */
int nicring_command_reap(struct nicring *r, uint64_t *tag, int *res,
			 int spin)
{
	struct io_uring_cqe *cqe;
	struct timespec t0, t;
	uint64_t n = 0;
	int err;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!r->n_done) {
		if (!r->in_flight)
			return -ENOENT;
		if (spin) {
			if (io_uring_peek_cqe(&r->ring, &cqe)) {
				if (++n % 4096)
					continue;
				clock_gettime(CLOCK_MONOTONIC, &t);
				if (t.tv_sec - t0.tv_sec > 10)
					return -ETIME;
				continue;
			}
		} else {
			r->st.waits++;
			r->st.syscalls++;
			err = io_uring_wait_cqe(&r->ring, &cqe);
			if (err < 0)
				return err;
		}
		nicring_cqe(r, cqe);
		io_uring_cqe_seen(&r->ring, cqe);
	}
	*tag = r->done[0].tag;
	*res = r->done[0].res;
	memmove(&r->done[0], &r->done[1], --r->n_done * sizeof(r->done[0]));
	r->in_flight--;
	r->st.commands++;
	return 1;
}

/**
 * nicring_open() - open a port's streaming-ring device
 * @ifname: the port's interface name in the caller's network namespace
 *	(nicring_node() finds its device), or the device's path (with a '/')
 * @err: set to -errno on failure
 *
 * Return: the handle, or NULL.
 */
struct nicring *nicring_open(const char *ifname, int *err)
{
	char path[128];
	struct nicring *r;
	int fd, e;

	if (strchr(ifname, '/')) {
		snprintf(path, sizeof(path), "%s", ifname);
	} else {
		e = nicring_node(ifname, path, sizeof(path));
		if (e) {
			*err = e;
			return NULL;
		}
	}
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		*err = -errno;
		return NULL;
	}
	r = nicring_open_fd(fd, err);
	if (!r)
		close(fd);
	return r;
}

/**
 * nicring_open_fd() - a handle on a ring device's descriptor
 * @fd: an open /dev/nicprog/portN, passed to or inherited by the caller;
 *	the handle owns it from here (nicring_close() closes it), unless
 *	this fails
 * @err: set to -errno on failure
 *
 * The file's pipes stay its own: nicring_attach() maps one by its id.
 *
 * Return: the handle, or NULL.
 */
struct nicring *nicring_open_fd(int fd, int *err)
{
	struct nicring *r;
	int e;

	r = calloc(1, sizeof(*r));
	if (!r) {
		*err = -ENOMEM;
		return NULL;
	}
	r->fd = fd;
	e = io_uring_queue_init(16, &r->ring, 0);
	if (e)
		goto err_free;
	r->nmap = mmap(NULL, NICPROG_NOTIF_MMAP_LEN, PROT_READ | PROT_WRITE,
		       MAP_SHARED, r->fd, 0);
	if (r->nmap == MAP_FAILED) {
		e = -errno;
		io_uring_queue_exit(&r->ring);
		goto err_free;
	}
	r->nctrl = (struct nicprog_notif_ctrl *)r->nmap;
	return r;

err_free:
	free(r);
	*err = e;
	return NULL;
}

/**
 * nicring_restrict() - narrow the commands the file may issue
 * @r: the handle
 * @allow: the NICPROG_ALLOW_* classes to keep
 *
 * For every descriptor of the file, in every process: an administrator
 * calls it before handing the descriptor out (rings.rst, "Delegation").
 *
 * Return: the classes the file has now, or -errno.
 */
int nicring_restrict(struct nicring *r, uint32_t allow)
{
	struct nicprog_restrict a = { .allow = allow };
	int res = nicring_command(r, NICPROG_U_OP_RESTRICT, &a, sizeof(a));

	return res < 0 ? res : (int)a.allow;
}

/**
 * nicring_close() - free every pipe of @r and close it
 * @r: the handle, or NULL
 */
void nicring_close(struct nicring *r)
{
	int i;

	if (!r)
		return;
	for (i = 0; i < NICRING_PIPES; i++)
		if (r->pipes[i])
			nicring_pipe_free(r->pipes[i]);
	munmap(r->nmap, NICPROG_NOTIF_MMAP_LEN);
	io_uring_queue_exit(&r->ring);
	close(r->fd);
	free(r);
}

/*
 * Map the file's pipe @id of @size data bytes, @len bytes at @off (the
 * create's mmap_len and mmap_off); NULL with *err set.
 */
static struct nicring_pipe *pipe_map(struct nicring *r, uint32_t id,
				     uint32_t size, uint64_t off, uint64_t len,
				     int *err)
{
	struct nicring_pipe *p;

	if (r->pipes[id % NICRING_PIPES]) {
		*err = -EBUSY;	/* the handle keeps NICRING_PIPES at once */
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		*err = -ENOMEM;
		return NULL;
	}
	p->map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd,
		      (off_t)off);
	if (p->map == MAP_FAILED) {
		*err = -errno;
		free(p);
		return NULL;
	}
	p->r = r;
	p->id = id;
	p->size = size;
	p->map_len = len;
	p->ctrl = (struct nicprog_pipe_ctrl *)p->map;
	p->dir = p->ctrl->dir;
	p->framing = p->ctrl->framing;
	p->data = p->map + (len - 2ULL * size);
	r->pipes[id % NICRING_PIPES] = p;
	return p;
}

static struct nicring_pipe *pipe_new(struct nicring *r,
				     struct nicprog_pipe_create *a, int *err)
{
	struct nicring_pipe *p;
	int res;

	res = nicring_command(r, NICPROG_U_OP_PIPE_CREATE, a, sizeof(*a));
	if (res < 0) {
		*err = res;
		return NULL;
	}
	p = pipe_map(r, a->id, a->size, a->mmap_off, a->mmap_len, err);
	if (!p)
		goto err_destroy;
	return p;

err_destroy:
	nicring_command(r, NICPROG_U_OP_PIPE_DESTROY,
		    &(struct nicprog_pipe_destroy){ .id = a->id },
		    sizeof(struct nicprog_pipe_destroy));
	return NULL;
}

/**
 * nicring_rx_bind() - an RX pipe, bound as @bind says
 * @r: the handle
 * @size: data bytes, a power of two, 4 KiB..64 MiB
 * @framing: NICPROG_FRAMING_RECORDS or NICPROG_FRAMING_STREAM
 * @bind: the output, flags and notification moderation
 *	(include/uapi/linux/nicprog.h); its id is the new pipe's
 * @err: set to -errno on failure
 *
 * Binding needs CAP_NET_ADMIN in the port's network namespace.
 *
 * Return: the pipe, or NULL.
 */
struct nicring_pipe *nicring_rx_bind(struct nicring *r, uint32_t size,
				     uint32_t framing,
				     const struct nicprog_pipe_bind *bind,
				     int *err)
{
	struct nicprog_pipe_create a = {
		.size = size, .dir = NICPROG_PIPE_RX, .framing = framing,
	};
	struct nicprog_pipe_bind b = *bind;
	struct nicring_pipe *p = pipe_new(r, &a, err);
	int res;

	if (!p)
		return NULL;
	b.id = p->id;
	res = nicring_command(r, NICPROG_U_OP_PIPE_BIND, &b, sizeof(b));
	if (res < 0) {
		nicring_pipe_free(p);
		*err = res;
		return NULL;
	}
	return p;
}

/**
 * nicring_rx_flags() - an RX pipe bound to the NF's output @output
 * @r: the handle
 * @size: data bytes, a power of two, 4 KiB..64 MiB
 * @framing: NICPROG_FRAMING_RECORDS or NICPROG_FRAMING_STREAM
 * @output: the NF's output (nicprog_redirect_pipe() in bpf/nicprog.h)
 * @flags: 0 (a full pipe drops and counts) or NICPROG_BIND_BACKPRESSURE
 *	(a full pipe holds the NIC until the application makes room), and/or
 *	NICPROG_BIND_PREFETCH
 * @err: set to -errno on failure
 *
 * Return: the pipe, or NULL.
 */
struct nicring_pipe *nicring_rx_flags(struct nicring *r, uint32_t size,
				      uint32_t framing, uint32_t output,
				      uint32_t flags, int *err)
{
	struct nicprog_pipe_bind b = { .output = output, .flags = flags };

	return nicring_rx_bind(r, size, framing, &b, err);
}

/**
 * nicring_rx() - nicring_rx_flags() with flags 0
 * @r: the handle
 * @size: data bytes
 * @framing: NICPROG_FRAMING_RECORDS or NICPROG_FRAMING_STREAM
 * @output: the NF's output
 * @err: set to -errno on failure
 *
 * Return: the pipe, or NULL.
 */
struct nicring_pipe *nicring_rx(struct nicring *r, uint32_t size,
				uint32_t framing, uint32_t output, int *err)
{
	return nicring_rx_flags(r, size, framing, output, 0, err);
}

/**
 * nicring_tx() - a TX records pipe
 * @r: the handle
 * @size: data bytes, a power of two, 4 KiB..64 MiB
 * @share: NULL, or an RX records pipe of @size whose data the TX pipe
 *	shares, for nicring_forward(); create it before @share receives
 * @err: set to -errno on failure
 *
 * Return: the pipe, or NULL.
 */
struct nicring_pipe *nicring_tx(struct nicring *r, uint32_t size,
				struct nicring_pipe *share, int *err)
{
	struct nicprog_pipe_create a = {
		.size = size, .dir = NICPROG_PIPE_TX,
		.framing = NICPROG_FRAMING_RECORDS,
	};
	struct nicring_pipe *p;

	if (share) {
		a.flags = NICPROG_PIPE_SHARE;
		a.share = share->id;
	}
	p = pipe_new(r, &a, err);
	if (p)
		p->share = share;
	return p;
}

/**
 * nicring_attach() - map a pipe the file already has
 * @r: the handle (nicring_open_fd() on a descriptor handed over)
 * @id: the pipe's id, from whoever created it
 * @size: its data bytes, likewise; the mapping's length follows from it
 * @err: set to -errno on failure (-EINVAL: no such pipe of that size)
 *
 * An RX pipe is read from where its reader left it (the control page's
 * head). nicring_pipe_free() on it only unmaps it: the file keeps it.
 *
 * Return: the pipe, or NULL.
 */
struct nicring_pipe *nicring_attach(struct nicring *r, uint32_t id,
				    uint32_t size, int *err)
{
	/* what the create would have said (rings.rst, "A pipe's mapping") */
	struct nicring_pipe *p = pipe_map(r, id, size,
					  (uint64_t)id << NICPROG_PIPE_MMAP_SHIFT,
					  sysconf(_SC_PAGESIZE) + 2ULL * size,
					  err);

	if (!p)
		return NULL;
	p->attached = 1;
	/*
	 * Both directions go on from the head: what an RX pipe's reader
	 * released, what a TX pipe's NIC sent (anything appended past it
	 * and not sent is lost)
	 */
	p->pos = p->ctrl->head;
	p->peek = p->pos;
	p->sent = p->pos;
	return p;
}

/**
 * nicring_pipe_free() - unmap and destroy a pipe (an RX one is unbound)
 * @p: the pipe
 *
 * Return: 0 or -errno.
 */
int nicring_pipe_free(struct nicring_pipe *p)
{
	struct nicring *r = p->r;
	int res;

	r->pipes[p->id % NICRING_PIPES] = NULL;
	munmap(p->map, p->map_len);
	if (p->attached) {
		free(p);
		return 0;
	}
	res = nicring_command(r, NICPROG_U_OP_PIPE_DESTROY,
			  &(struct nicprog_pipe_destroy){ .id = p->id },
			  sizeof(struct nicprog_pipe_destroy));
	free(p);
	return res;
}

/**
 * nicring_peek() - the records that arrived since the last peek
 * @p: an RX records pipe
 * @recs: filled, in order
 * @max: room in @recs
 *
 * No system call: the tail is read from the pipe's control page. A
 * record's bytes are contiguous even where the ring wraps.
 *
 * Return: records filled.
 */
int nicring_peek(struct nicring_pipe *p, struct nicring_rec *recs, int max)
{
	uint64_t tail = __atomic_load_n(&p->ctrl->tail, __ATOMIC_ACQUIRE);
	struct nicprog_rec *h;
	int n = 0;

	while (n < max && p->peek != tail) {
		h = (struct nicprog_rec *)(p->data + (p->peek & (p->size - 1)));
		recs[n].data = h + 1;
		recs[n].len = h->len;
		p->peek += rec_size(h->len);
		n++;
	}
	p->held += n;
	p->r->st.records += n;
	return n;
}

/**
 * nicring_release() - give the NIC back the space of @n peeked records
 * @p: an RX records pipe
 * @n: the oldest records peeked and not yet released
 */
void nicring_release(struct nicring_pipe *p, int n)
{
	struct nicprog_rec *h;

	if (n <= 0)
		return;
	if ((uint64_t)n >= p->held) {	/* all of them: no walk */
		p->pos = p->peek;
		p->held = 0;
	} else {
		p->held -= n;
		while (n-- > 0) {
			h = (struct nicprog_rec *)(p->data +
						   (p->pos & (p->size - 1)));
			p->pos += rec_size(h->len);
		}
	}
	/* after the reads of what it releases */
	__atomic_store_n(&p->ctrl->head, p->pos, __ATOMIC_RELEASE);
}

/**
 * nicring_read() - the bytes of a stream pipe that arrived, not released
 * @p: an RX stream pipe (NICPROG_FRAMING_STREAM)
 * @data: set to the first of them, in the mapping
 *
 * No system call. The bytes are contiguous even where the ring wraps (the
 * data is mapped twice); they stay until nicring_consume().
 *
 * Return: how many, or -EINVAL for a pipe that is not an RX stream.
 */
int64_t nicring_read(struct nicring_pipe *p, void **data)
{
	uint64_t tail;

	if (p->dir != NICPROG_PIPE_RX || p->framing != NICPROG_FRAMING_STREAM)
		return -EINVAL;
	tail = __atomic_load_n(&p->ctrl->tail, __ATOMIC_ACQUIRE);
	*data = p->data + (p->pos & (p->size - 1));
	p->r->st.records += tail != p->peek;
	p->peek = tail;
	return tail - p->pos;
}

/**
 * nicring_consume() - give the NIC back the first @n bytes nicring_read()
 *	returned
 * @p: an RX stream pipe
 * @n: at most what nicring_read() returned
 */
void nicring_consume(struct nicring_pipe *p, uint64_t n)
{
	if (n > p->peek - p->pos)
		n = p->peek - p->pos;
	p->pos += n;
	/* after the reads of what it releases */
	__atomic_store_n(&p->ctrl->head, p->pos, __ATOMIC_RELEASE);
}

/* Mark the notifications read; they only say "look at the tails". */
static void nicring_notified(struct nicring *r)
{
	uint64_t tail = __atomic_load_n(&r->nctrl->tail, __ATOMIC_ACQUIRE);

	r->st.notifications += tail - r->nctrl->head;
	__atomic_store_n(&r->nctrl->head, tail, __ATOMIC_RELEASE);
}

/**
 * nicring_wait() - wait until a pipe of @r has records to peek
 * @r: the handle
 * @timeout_ms: 1..NICPROG_WAIT_TIMEOUT_MAX
 *
 * Returns at once, without a system call, if one has. Otherwise it sleeps
 * in io_uring until the NIC notifies a drained pipe of @r: on a multishot
 * poll of the device, armed by the first wait and re-armed only if it
 * ends, so that a steady stream costs no submission -- a wait is one
 * io_uring_enter() that only reaps. It may return early (a notification
 * whose records were read already); callers peek again.
 *
 * Return: >0 when records may wait, 0 on timeout, -ENODEV once the port
 * is gone, -errno.
 */
int nicring_wait(struct nicring *r, uint32_t timeout_ms)
{
	struct __kernel_timespec ts = {
		.tv_sec = timeout_ms / 1000,
		.tv_nsec = (timeout_ms % 1000) * 1000000LL,
	};
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	int i, res;

	if (!timeout_ms || timeout_ms > NICPROG_WAIT_TIMEOUT_MAX)
		return -EINVAL;
	/* what the poll said before now is in the tails read below */
	nicring_notified(r);
	while (!io_uring_peek_cqe(&r->ring, &cqe)) {
		nicring_cqe(r, cqe);
		io_uring_cqe_seen(&r->ring, cqe);
	}
	r->fired = 0;
	for (i = 0; i < NICRING_PIPES; i++)
		if (r->pipes[i] && r->pipes[i]->dir == NICPROG_PIPE_RX &&
		    __atomic_load_n(&r->pipes[i]->ctrl->tail,
				    __ATOMIC_ACQUIRE) != r->pipes[i]->peek)
			return 1;
	if (r->poll_err) {
		res = r->poll_err;
		if (res != -ENODEV)
			r->poll_err = 0;
		return res;
	}
	if (!r->armed) {
		sqe = io_uring_get_sqe(&r->ring);
		if (!sqe)
			return -EBUSY;
		io_uring_prep_poll_multishot(sqe, r->fd, POLLIN);
		sqe->user_data = NICRING_POLL;
		res = io_uring_submit(&r->ring);
		if (res < 0)
			return res;
		r->armed = 1;
		r->st.submits++;
		r->st.syscalls++;
	}
	r->st.waits++;
	r->st.syscalls++;
	res = io_uring_wait_cqe_timeout(&r->ring, &cqe, &ts);
	if (res == -ETIME)
		return 0;
	if (res < 0)
		return res;
	/* a command's completion is never left in the ring */
	nicring_cqe(r, cqe);
	io_uring_cqe_seen(&r->ring, cqe);
	nicring_notified(r);
	if (r->fired)
		return 1;
	res = r->poll_err;
	if (res != -ENODEV)
		r->poll_err = 0;
	return res;
}

/**
 * nicring_now_ms() - CLOCK_MONOTONIC in milliseconds, for idle bounds
 */
uint64_t nicring_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/**
 * nicring_wait_idle() - wait for the NIC unless the application has idled
 *	long enough
 * @r: the handle
 * @since_ms: when the application last had something to do
 *	(nicring_now_ms())
 * @idle_ms: how long with nothing to do ends its loop
 *
 * The receive loop every application has: look, and if there is nothing,
 * either stop (idle for @idle_ms) or wait up to 100 ms and look again.
 *
 * Return: 0 after a wait (look again), -ETIMEDOUT once @idle_ms passed
 * since @since_ms, or nicring_wait()'s -errno.
 */
int nicring_wait_idle(struct nicring *r, uint64_t since_ms, uint32_t idle_ms)
{
	int res;

	if (nicring_now_ms() - since_ms >= idle_ms)
		return -ETIMEDOUT;
	res = nicring_wait(r, 100);
	return res < 0 ? res : 0;
}

/**
 * nicring_next() - the next records of an RX records pipe, waiting for them
 * @p: the pipe
 * @recs: filled with up to @max records, as nicring_peek() fills them
 * @max: at most this many
 * @idle_ms: none for this long, from the call after the last batch (the
 *	application's work on a batch does not count), ends the wait
 *
 * Return: the records (>0); 0 once none came for @idle_ms; -errno when a
 * wait failed (-ENODEV: the port is gone).
 */
int nicring_next(struct nicring_pipe *p, struct nicring_rec *recs, int max,
		 uint32_t idle_ms)
{
	uint64_t since = nicring_now_ms();
	int n, res;

	while (!(n = nicring_peek(p, recs, max))) {
		res = nicring_wait_idle(p->r, since, idle_ms);
		if (res)
			return res == -ETIMEDOUT ? 0 : res;
	}
	return n;
}

/**
 * nicring_append() - copy a frame into a TX pipe as a record
 * @tx: a TX pipe that shares no RX pipe's data
 * @buf: the frame
 * @len: its length, NICPROG_FRAME_MIN..NICPROG_FRAME_MAX
 *
 * Return: 0, -ENOBUFS when the pipe has no room until nicring_send(), or
 * -EINVAL.
 */
int nicring_append(struct nicring_pipe *tx, const void *buf, uint32_t len)
{
	uint64_t head = __atomic_load_n(&tx->ctrl->head, __ATOMIC_ACQUIRE);
	struct nicprog_rec *h;

	if (tx->share || len < NICPROG_FRAME_MIN || len > NICPROG_FRAME_MAX)
		return -EINVAL;
	if (rec_size(len) > tx->size - (tx->pos - head))
		return -ENOBUFS;
	h = (struct nicprog_rec *)(tx->data + (tx->pos & (tx->size - 1)));
	h->len = len;
	h->flags = 0;
	h->__rsvd = 0;
	memcpy(h + 1, buf, len);
	tx->pos += rec_size(len);
	return 0;
}

/**
 * nicring_forward() - send the @n oldest peeked records of @rx, in place
 * @tx: the TX pipe that shares @rx's data (nicring_tx())
 * @rx: the RX pipe; every record it receives must be forwarded, in order,
 *	as the two pipes' indices are the same
 * @n: how many
 *
 * The records (rewritten in place, if the application did) are sent
 * without a copy, then released.
 *
 * Return: records sent, or -errno.
 */
int nicring_forward(struct nicring_pipe *tx, struct nicring_pipe *rx, int n)
{
	uint64_t end = rx->pos;
	struct nicprog_rec *h;
	int i, res;

	if (tx->share != rx)
		return -EINVAL;
	for (i = 0; i < n && end != rx->peek; i++) {
		h = (struct nicprog_rec *)(rx->data + (end & (rx->size - 1)));
		end += rec_size(h->len);
	}
	tx->pos = end;
	res = nicring_send(tx);
	if (res >= 0)
		nicring_release(rx, i);
	return res;
}

/**
 * nicring_send() - ring the doorbell: send what was appended
 * @tx: a TX pipe
 *
 * Return: records sent, or -errno (those before the error were sent).
 */
int nicring_send(struct nicring_pipe *tx)
{
	struct nicprog_pipe_send a = { .id = tx->id, .tail = tx->pos };
	int res, total = 0;

	while (__atomic_load_n(&tx->ctrl->head, __ATOMIC_ACQUIRE) != tx->pos) {
		res = nicring_command(tx->r, NICPROG_U_OP_PIPE_SEND, &a, sizeof(a));
		if (res <= 0)
			return total ? total : res;
		total += res;
	}
	tx->sent = tx->pos;
	return total;
}

/**
 * nicring_drops() - records the NIC dropped for a full pipe
 * @p: an RX pipe
 *
 * Return: the count in the pipe's control page.
 */
uint64_t nicring_drops(const struct nicring_pipe *p)
{
	return __atomic_load_n(&p->ctrl->drops, __ATOMIC_RELAXED);
}

/**
 * nicring_get_stats() - what @r cost the kernel so far
 * @r: the handle
 * @s: filled
 */
void nicring_get_stats(const struct nicring *r, struct nicring_stats *s)
{
	*s = r->st;
}
