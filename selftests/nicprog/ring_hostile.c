// SPDX-License-Identifier: GPL-2.0
/*
 * ring_hostile - the streaming-ring device as a hostile local user meets it
 * (selftests/nicprog/hostile.sh drives it):
 *
 *   ring_hostile --complete IN NF
 *	every command completes: issued inline, with IOSQE_ASYNC (io_uring's
 *	worker thread) and linked before a NOP, which runs when the command
 *	succeeded and is cancelled when it failed. NF runs progs/topipe.o,
 *	IN is wired to it.
 *   ring_hostile --churn IN NF SECONDS SEED
 *	threads race random commands (pipes, binds, waits, sends, NIC
 *	memory and its copies, QPs and polls), a third of them IOSQE_ASYNC, on one
 *	file and on files they open and close with a wait in flight, while
 *	frames arrive: every submission completes.
 *   ring_hostile --uffd OP IFNAME CMD
 *	command OP (send, bind, create, destroy, unbind, wait, alloc, copy,
 *	qp) reads its argument from a page userfaultfd holds back (copydata:
 *	a copy to the NIC whose data is that page); while the command
 *	waits for it, CMD runs (hostile.sh deletes the port and unloads its
 *	driver), then the page arrives. Prints "OP: RES".
 *   ring_hostile --create-race IFNAME
 *	a create whose result cannot be written back (its argument's page
 *	write-protected by userfaultfd, then made read-only) while the same
 *	file destroys the id it would have had and creates another pipe.
 *	Prints what each command returned.
 *   ring_hostile --cap IFNAME [FD]
 *	on a file it opens, or on the inherited FD: prints "send: RES" and
 *	"bind: RES".
 *   ring_hostile --delegate IN IFNAME
 *	an administrator's file: an RX pipe bound to output 1, a TX pipe,
 *	then restricted to NICPROG_ALLOW_RX; frames to output 1 arrive. A
 *	child that inherits it and drops to uid 65534 without capabilities
 *	(libnicring: nicring_open_fd(), nicring_attach()) tries every
 *	command of every other class, tries to widen the file again, and
 *	reads the pipe. Prints "denied D of N", "widen ALLOW", "read R of
 *	8", then "opener: RES" (the opener's own destroy on the file) and
 *	"mmap without RX or TX: RES" (a second file restricted to memory).
 *   ring_hostile --memcg IFNAME FILES
 *	creates 1 MiB pipes in FILES files until refused; prints
 *	"created N MiB: RES".
 *   ring_hostile --memcg-edge IFNAME CGROUP PAGES
 *	in an empty cgroup directory CGROUP (memory controller available):
 *	for k = 0..PAGES, a child creates (then destroys) a 64 KiB pipe from
 *	a cgroup limited to k pages, so that each of the create's
 *	allocations in turn is the one that crosses the limit. Prints
 *	"N creates: C made, E ENOMEM, O other, K oom events", the child's
 *	last create with no limit ("then: RES") and "opener: status S".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <liburing.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/if_packet.h>
#include <linux/userfaultfd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"
#include "ring_lib.h"
#include "../../tools/lib/nicring/nicring.h"

static char node[128];
static const char *port;

static int open_node(void)
{
	int fd = open(node, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		ksft_exit_fail_msg("open %s: %s\n", node, strerror(errno));
	return fd;
}

static void ring_init(struct io_uring *r, unsigned int entries)
{
	if (io_uring_queue_init(entries, r, 0))
		ksft_exit_fail_msg("io_uring_queue_init failed\n");
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

/* A pipe of @fd; its id, or the test ends. */
static uint32_t pipe_new(struct io_uring *r, int fd, uint32_t size,
			 uint32_t dir, struct nicprog_pipe_create *out)
{
	struct nicprog_pipe_create a = {
		.size = size, .dir = dir, .framing = NICPROG_FRAMING_RECORDS,
	};
	int res = rl_cmd(r, fd, NICPROG_U_OP_PIPE_CREATE, &a, sizeof(a), 0);

	if (res)
		ksft_exit_fail_msg("creating a pipe: %d\n", res);
	if (out)
		*out = a;
	return a.id;
}

static int pipe_bind(struct io_uring *r, int fd, uint32_t op, uint32_t id,
		     uint32_t out)
{
	struct nicprog_pipe_bind a = { .id = id, .output = out };

	return rl_cmd(r, fd, op, &a, sizeof(a), 0);
}

static int pipe_destroy(struct io_uring *r, int fd, uint32_t id)
{
	struct nicprog_pipe_destroy a = { .id = id };

	return rl_cmd(r, fd, NICPROG_U_OP_PIPE_DESTROY, &a, sizeof(a), 0);
}

static int pkt_fd, pkt_ifindex;

static void pkt_open(const char *in)
{
	pkt_ifindex = if_nametoindex(in);
	pkt_fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (!pkt_ifindex || pkt_fd < 0)
		ksft_exit_fail_msg("%s: no packet socket: %s\n", in,
				   strerror(errno));
}

/* One frame to UDP port 9000 + @out: topipe.o steers it to output @out. */
static void frame_to(uint32_t out, uint32_t seq)
{
	uint8_t f[128];

	fl_send(pkt_fd, pkt_ifindex, f,
		      fl_udp_frame(f, 9000 + out, sizeof(f), seq));
}

/* --complete: every command, every way io_uring issues it. */

#define POSITIVE	1000	/* an expected result: any positive one */

enum { C_CREATE, C_CREATE_BAD, C_DESTROY, C_DESTROY_BAD, C_BIND, C_UNBIND,
       C_WAIT_READY, C_WAIT_IDLE, C_SEND, C_SEND_BAD, C_UNKNOWN, C_MAX };

static const char *const case_names[C_MAX] = {
	"create", "create (bad size)", "destroy", "destroy (no such pipe)",
	"bind", "unbind", "wait (entries waiting)", "wait (times out)",
	"send (3 records)", "send (tail out of range)", "unknown command",
};

static const char *const way_names[4] = {
	"inline", "IOSQE_ASYNC", "inline, linked", "IOSQE_ASYNC, linked",
};

/* What every case of one way shares. */
struct complete_ctx {
	struct io_uring r;
	int fd;			/* NF's device: its pipes, its waits */
	int idle_fd;		/* a second file, nothing to wait for */
	uint32_t tx;		/* a TX pipe, mapped at tx_map */
	uint8_t *tx_map;
	uint32_t tx_size;
	uint64_t tx_tail;
	union {
		struct nicprog_pipe_create create;
		struct nicprog_pipe_destroy destroy;
		struct nicprog_pipe_bind bind;
		struct nicprog_pipe_send send;
		struct nicprog_wait wait;
	} a;
	int fd_of_case;
	uint32_t op;
	uint32_t len;
	uint32_t made;		/* a pipe the case made, to destroy after */
};

/* Prepare case @c: its op, argument and expected result. */
static int complete_prep(struct complete_ctx *x, int c)
{
	uint8_t f[100];
	int k;

	memset(&x->a, 0, sizeof(x->a));
	x->fd_of_case = x->fd;
	x->made = 0;
	switch (c) {
	case C_CREATE:
	case C_CREATE_BAD:
		x->op = NICPROG_U_OP_PIPE_CREATE;
		x->len = sizeof(x->a.create);
		x->a.create.size = c == C_CREATE ? 4096 : 1000;
		x->a.create.dir = NICPROG_PIPE_RX;
		x->a.create.framing = NICPROG_FRAMING_RECORDS;
		return c == C_CREATE ? 0 : -EINVAL;
	case C_DESTROY:
	case C_DESTROY_BAD:
		x->op = NICPROG_U_OP_PIPE_DESTROY;
		x->len = sizeof(x->a.destroy);
		x->a.destroy.id = c == C_DESTROY ?
			pipe_new(&x->r, x->fd, 4096, NICPROG_PIPE_RX, NULL) :
			999;
		return c == C_DESTROY ? 0 : -EINVAL;
	case C_BIND:
	case C_UNBIND:
		x->made = pipe_new(&x->r, x->fd, 4096, NICPROG_PIPE_RX, NULL);
		if (c == C_UNBIND &&
		    pipe_bind(&x->r, x->fd, NICPROG_U_OP_PIPE_BIND, x->made, 7))
			ksft_exit_fail_msg("binding a pipe to output 7 failed\n");
		x->op = c == C_BIND ? NICPROG_U_OP_PIPE_BIND :
				      NICPROG_U_OP_PIPE_UNBIND;
		x->len = sizeof(x->a.bind);
		x->a.bind.id = x->made;
		x->a.bind.output = 7;
		return 0;
	case C_WAIT_READY:
	case C_WAIT_IDLE:
		x->op = NICPROG_U_OP_WAIT;
		x->len = sizeof(x->a.wait);
		x->a.wait.timeout_ms = c == C_WAIT_READY ? 5000 : 1;
		if (c == C_WAIT_IDLE)
			x->fd_of_case = x->idle_fd;
		return c == C_WAIT_READY ? POSITIVE : 0;
	case C_SEND:
	case C_SEND_BAD:
		x->op = NICPROG_U_OP_PIPE_SEND;
		x->len = sizeof(x->a.send);
		x->a.send.id = x->tx;
		for (k = 0; c == C_SEND && k < 3; k++)
			x->tx_tail = rl_put_rec(x->tx_map + 4096, x->tx_size,
						x->tx_tail, f,
						fl_udp_frame(f, 7, sizeof(f), k));
		x->a.send.tail = c == C_SEND ? x->tx_tail :
					       x->tx_tail + 2 * x->tx_size;
		return c == C_SEND ? 3 : -EINVAL;
	default:
		x->op = 0x7f;
		x->len = 8;
		return -EINVAL;
	}
}

/* Case @c issued @way (bit 0: IOSQE_ASYNC, bit 1: linked): ok? */
static int complete_one(struct complete_ctx *x, int c, int way, int *res,
			int *nop)
{
	uint8_t fl = (way & 1 ? IOSQE_ASYNC : 0) | (way & 2 ? IOSQE_IO_LINK : 0);
	int expect = complete_prep(x, c), got = 0, err;
	struct io_uring_cqe cqe;
	struct io_uring_sqe *sqe;

	*res = -99999;
	*nop = -99999;
	/* one submission: a link ends with the submission */
	err = rl_queue(&x->r, x->fd_of_case, x->op, &x->a, x->len, 0, fl, 1);
	if (!err && (way & 2)) {
		sqe = io_uring_get_sqe(&x->r);
		io_uring_prep_nop(sqe);
		sqe->user_data = 2;
	}
	if (err || io_uring_submit(&x->r) != 1 + !!(way & 2))
		ksft_exit_fail_msg("submitting failed\n");
	while (got < 1 + !!(way & 2) && !rl_reap(&x->r, 5000, &cqe)) {
		got++;
		if (cqe.user_data == 1)
			*res = cqe.res;
		else
			*nop = cqe.res;
	}
	if (c == C_CREATE && *res == 0)
		x->made = x->a.create.id;
	if (x->made)
		pipe_destroy(&x->r, x->fd, x->made);
	if (got < 1 + !!(way & 2))
		return 0;
	if ((way & 2) && *nop != (*res >= 0 ? 0 : -ECANCELED))
		return 0;
	return expect == POSITIVE ? *res > 0 : *res == expect;
}

static int complete_mode(const char *in)
{
	struct nicprog_pipe_create tx, rx;
	struct nicprog_pipe_ctrl *ctrl;
	struct complete_ctx x = {};
	int c, way, res, nop, lost = 0;
	uint64_t end;

	ring_init(&x.r, 8);
	x.fd = open_node();
	x.idle_fd = open_node();
	pkt_open(in);
	/* an RX pipe on output 1 with a record: its notification waits */
	pipe_new(&x.r, x.fd, 4096, NICPROG_PIPE_RX, &rx);
	ctrl = rl_pipe_map(x.fd, &rx);
	if (pipe_bind(&x.r, x.fd, NICPROG_U_OP_PIPE_BIND, rx.id, 1))
		ksft_exit_fail_msg("binding a pipe to output 1 failed\n");
	frame_to(1, 1);
	for (end = now_ms() + 5000; !ctrl->tail && now_ms() < end;)
		usleep(1000);
	if (!ctrl->tail)
		ksft_exit_fail_msg("no frame reached output 1's pipe\n");
	x.tx_size = 16384;
	x.tx = pipe_new(&x.r, x.fd, x.tx_size, NICPROG_PIPE_TX, &tx);
	x.tx_map = rl_pipe_map(x.fd, &tx);

	ksft_print_header();
	ksft_set_plan(C_MAX * 4);
	for (c = 0; c < C_MAX; c++)
		for (way = 0; way < 4; way++) {
			int ok = complete_one(&x, c, way, &res, &nop);

			lost += res == -99999;
			if (way & 2)
				ksft_test_result(ok, "%s, %s: %d, the NOP after it %d\n",
						 case_names[c], way_names[way],
						 res, nop);
			else
				ksft_test_result(ok, "%s, %s: %d\n",
						 case_names[c], way_names[way],
						 res);
		}
	ksft_print_msg("%d commands lost\n", lost);
	close(x.idle_fd);
	close(x.fd);
	ksft_finished();
	return 0;
}

/* --churn: random commands from racing threads. */

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

#define CHURN_BATCH	8
/* junk can make a valid WAIT of up to NICPROG_WAIT_TIMEOUT_MAX */
#define CHURN_REAP_MS	(NICPROG_WAIT_TIMEOUT_MAX + 5000)

struct churn {
	pthread_t tid;
	uint64_t seed;
	int fd;			/* the shared file */
	uint64_t end;
	unsigned long submitted, completed, positive, zero, negative, async;
	unsigned long files;
	int lost;
};

union churn_arg {
	struct nicprog_pipe_create create;
	struct nicprog_pipe_destroy destroy;
	struct nicprog_pipe_bind bind;
	struct nicprog_pipe_send send;
	struct nicprog_wait wait;
	struct nicprog_mem_alloc alloc;
	struct nicprog_mem_copy copy;
	struct nicprog_qp_create qp;
	struct nicprog_poll poll;
	uint8_t junk[64];
};

/* what churned copies and polls point at: read and written, never checked */
static uint8_t churn_mem[8192];

/* A random command into @a: its op and length. */
static uint32_t churn_cmd(uint64_t *s, union churn_arg *a, uint32_t *len)
{
	uint32_t k = xorshift(s) % 12;

	memset(a, 0, sizeof(*a));
	switch (k) {
	case 8:		/* NIC memory, freed with the file */
		a->alloc.size = 4096 << (xorshift(s) % 3);
		*len = sizeof(a->alloc);
		return NICPROG_U_OP_MEM_ALLOC;
	case 9:
		a->copy.id = 1 + xorshift(s) % 4;
		a->copy.dir = 1 + xorshift(s) % 2;
		a->copy.len = xorshift(s) % sizeof(churn_mem);
		a->copy.addr = (uintptr_t)churn_mem;
		*len = sizeof(a->copy);
		return NICPROG_U_OP_MEM_COPY;
	case 10:	/* a QP, destroyed with the file */
		a->qp.sq_depth = 16;
		a->qp.rq_depth = 16;
		a->qp.gid[10] = 0xff, a->qp.gid[11] = 0xff, a->qp.gid[12] = 10;
		*len = sizeof(a->qp);
		return NICPROG_U_OP_QP_CREATE;
	case 11:
		a->poll.wcs = (uintptr_t)churn_mem;
		a->poll.max = 8;
		a->poll.timeout_ms = xorshift(s) % 3;
		*len = sizeof(a->poll);
		return NICPROG_U_OP_POLL;
	case 0:
		a->create.size = 4096u << (xorshift(s) % 5);
		a->create.dir = 1 + xorshift(s) % 2;
		a->create.framing = 1 + xorshift(s) % 2;
		*len = sizeof(a->create);
		return NICPROG_U_OP_PIPE_CREATE;
	case 1:
		a->destroy.id = 1 + xorshift(s) % 16;
		*len = sizeof(a->destroy);
		return NICPROG_U_OP_PIPE_DESTROY;
	case 2:
	case 3:
		a->bind.id = 1 + xorshift(s) % 16;
		a->bind.output = xorshift(s) % 8;
		a->bind.flags = xorshift(s) % 4;
		if (k == 3)
			a->bind.flags = 0;
		*len = sizeof(a->bind);
		return k == 2 ? NICPROG_U_OP_PIPE_BIND : NICPROG_U_OP_PIPE_UNBIND;
	case 4:
	case 5:
		a->wait.timeout_ms = 1 + xorshift(s) % 20;
		*len = sizeof(a->wait);
		return NICPROG_U_OP_WAIT;
	case 6:
		a->send.id = 1 + xorshift(s) % 16;
		a->send.tail = xorshift(s) % 8192;
		*len = sizeof(a->send);
		return NICPROG_U_OP_PIPE_SEND;
	default:
		for (k = 0; k < sizeof(a->junk); k++)
			a->junk[k] = xorshift(s);
		*len = xorshift(s) % (sizeof(a->junk) + 1);
		/* a known op's code, or its bare number (unknown now) */
		k = xorshift(s) % 16;
		return k < 8 ? NICPROG_U_OP_NR(k) : k - 8;
	}
}

/* what did not complete in time, to replay it from */
static void churn_lost(const union churn_arg *args, const uint32_t *op,
		       const uint32_t *len, const uint8_t *fl,
		       const uint8_t *seen, uint32_t n)
{
	char hex[3 * 24 + 1];
	uint32_t i, k;

	for (i = 0; i < n; i++) {
		if (seen[i])
			continue;
		for (k = 0; k < 24 && k < len[i]; k++)
			sprintf(hex + 3 * k, " %02x", args[i].junk[k]);
		hex[3 * k] = 0;
		ksft_print_msg("no completion in %u ms: command %u of %u, op %u%s, %u bytes:%s\n",
			       CHURN_REAP_MS, i + 1, n, op[i], fl[i] ? " (IOSQE_ASYNC)" : "",
			       len[i], hex);
	}
}

/* A batch of random commands on @fd, every one reaped. */
static void churn_batch(struct churn *t, struct io_uring *r, int fd,
			union churn_arg *args)
{
	uint32_t n = 1 + xorshift(&t->seed) % CHURN_BATCH, i, op[CHURN_BATCH];
	uint32_t len[CHURN_BATCH];
	uint8_t fl[CHURN_BATCH], seen[CHURN_BATCH] = {};
	struct io_uring_cqe cqe;

	for (i = 0; i < n; i++) {
		op[i] = churn_cmd(&t->seed, &args[i], &len[i]);
		fl[i] = xorshift(&t->seed) % 3 ? 0 : IOSQE_ASYNC;
		t->async += !!fl[i];
		if (rl_submit(r, fd, op[i], &args[i], len[i], 0, fl[i], i)) {
			t->lost = 1;
			return;
		}
		t->submitted++;
	}
	for (i = 0; i < n; i++) {
		if (rl_reap(r, CHURN_REAP_MS, &cqe)) {
			churn_lost(args, op, len, fl, seen, n);
			t->lost = 1;
			return;
		}
		if (cqe.user_data < n)
			seen[cqe.user_data] = 1;
		t->completed++;
		if (cqe.res > 0)
			t->positive++;
		else if (cqe.res)
			t->negative++;
		else
			t->zero++;
	}
}

/*
 * A file of its own: a pipe bound to an output, a wait in flight when the
 * file is closed; the wait still completes.
 */
static void churn_file(struct churn *t, struct io_uring *r,
		       union churn_arg *args)
{
	int fd = open(node, O_RDWR | O_CLOEXEC);
	struct io_uring_cqe cqe;

	if (fd < 0) {
		t->lost = 1;
		return;
	}
	t->files++;
	churn_batch(t, r, fd, args);
	args[0].wait = (struct nicprog_wait){ .timeout_ms = 30 };
	if (rl_submit(r, fd, NICPROG_U_OP_WAIT, &args[0], sizeof(args[0].wait),
		      0, xorshift(&t->seed) & 1 ? IOSQE_ASYNC : 0, 0)) {
		t->lost = 1;
		close(fd);
		return;
	}
	t->submitted++;
	close(fd);
	if (rl_reap(r, CHURN_REAP_MS, &cqe)) {
		ksft_print_msg("no completion in %u ms: a wait on a file closed under it\n",
			       CHURN_REAP_MS);
		t->lost = 1;
	} else
		t->completed++;
}

static void *churn_thread(void *p)
{
	union churn_arg args[CHURN_BATCH];
	struct churn *t = p;
	struct io_uring r;

	ring_init(&r, 2 * CHURN_BATCH);
	while (!t->lost && now_ms() < t->end) {
		if (xorshift(&t->seed) % 16)
			churn_batch(t, &r, t->fd, args);
		else
			churn_file(t, &r, args);
	}
	io_uring_queue_exit(&r);
	return NULL;
}

#define CHURN_THREADS	4

static int churn_mode(const char *in, unsigned int secs, uint64_t seed)
{
	struct churn t[CHURN_THREADS] = {};
	unsigned long sub = 0, done = 0, frames = 0;
	uint64_t end = now_ms() + secs * 1000ULL, s = seed;
	int i, fd, lost = 0;

	pkt_open(in);
	fd = open_node();
	ksft_print_header();
	ksft_set_plan(1);
	ksft_print_msg("churn: seed %llu, %u s, %d threads\n",
		       (unsigned long long)seed, secs, CHURN_THREADS);
	for (i = 0; i < CHURN_THREADS; i++) {
		t[i].seed = seed * 7919 + i + 1;
		t[i].fd = fd;
		t[i].end = end;
		if (pthread_create(&t[i].tid, NULL, churn_thread, &t[i]))
			ksft_exit_fail_msg("pthread_create failed\n");
	}
	/* frames to random outputs, for the pipes bound to them */
	while (now_ms() < end) {
		struct sockaddr_ll to = {
			.sll_family = AF_PACKET, .sll_ifindex = pkt_ifindex,
			.sll_halen = 6,
		};
		uint8_t f[128];

		/* background: a full transmit queue only skips a frame */
		fl_udp_frame(f, 9000 + xorshift(&s) % 8, sizeof(f), frames);
		frames += sendto(pkt_fd, f, sizeof(f), 0,
				 (struct sockaddr *)&to, sizeof(to)) > 0;
		usleep(500);
	}
	for (i = 0; i < CHURN_THREADS; i++) {
		pthread_join(t[i].tid, NULL);
		sub += t[i].submitted;
		done += t[i].completed;
		lost |= t[i].lost;
		ksft_print_msg("thread %d: %lu submitted (%lu IOSQE_ASYNC), %lu completed: %lu positive, %lu zero, %lu refused; %lu files opened and closed with a wait in flight\n",
			       i, t[i].submitted, t[i].async, t[i].completed,
			       t[i].positive, t[i].zero, t[i].negative,
			       t[i].files);
	}
	close(fd);
	ksft_print_msg("%lu frames sent\n", frames);
	ksft_test_result(!lost && sub == done && sub > 0,
			 "churn: %lu commands submitted, %lu completed (seed %llu)\n",
			 sub, done, (unsigned long long)seed);
	ksft_finished();
	return 0;
}

/* userfaultfd: a page whose first touch waits for the test. */

static int uffd_open(void)
{
	struct uffdio_api api = { .api = UFFD_API };
	int uffd = syscall(__NR_userfaultfd, O_CLOEXEC);

	if (uffd < 0 || ioctl(uffd, UFFDIO_API, &api))
		ksft_exit_skip("userfaultfd: %s\n", strerror(errno));
	return uffd;
}

static void uffd_register(int uffd, void *page, uint64_t mode)
{
	struct uffdio_register reg = {
		.range = { .start = (uintptr_t)page, .len = 4096 },
		.mode = mode,
	};

	if (ioctl(uffd, UFFDIO_REGISTER, &reg))
		ksft_exit_skip("userfaultfd register: %s\n", strerror(errno));
}

/* The next fault on a registered page, within 10 s: its flags, or -1. */
static long uffd_fault(int uffd)
{
	struct pollfd p = { .fd = uffd, .events = POLLIN };
	struct uffd_msg msg;

	if (poll(&p, 1, 10000) != 1 || read(uffd, &msg, sizeof(msg)) !=
	    sizeof(msg) || msg.event != UFFD_EVENT_PAGEFAULT)
		return -1;
	return msg.arg.pagefault.flags;
}

struct submitter {
	pthread_t tid;
	struct io_uring *r;
	int fd;
	uint32_t op;
	void *arg;
	uint32_t len;
	int err;
	int res;
};

/* Submit (the issue waits for the page) and reap, in a thread. */
static void *submitter(void *p)
{
	struct submitter *s = p;
	struct io_uring_cqe cqe;

	s->res = -99999;
	s->err = rl_submit(s->r, s->fd, s->op, s->arg, s->len, 0, 0, 0);
	if (!s->err)
		s->err = rl_reap(s->r, RL_CMD_BOUND_MS, &cqe);
	if (!s->err)
		s->res = cqe.res;
	return NULL;
}

static void submit_in_thread(struct submitter *s)
{
	if (pthread_create(&s->tid, NULL, submitter, s))
		ksft_exit_fail_msg("pthread_create failed\n");
}

/* What --uffd's page receives once the port is gone. */
static uint8_t uffd_src[4096] __attribute__((aligned(4096)));

/* Command @k of uffd_mode()'s list, its argument made ready in @a. */
static void uffd_arg(int k, struct io_uring *r, struct submitter *s,
		     union churn_arg *a)
{
	struct nicprog_pipe_create p;
	uint8_t *map, f[64];

	switch (k) {
	case 0:
		pipe_new(r, s->fd, 4096, NICPROG_PIPE_TX, &p);
		map = rl_pipe_map(s->fd, &p);
		a->send = (struct nicprog_pipe_send){
			.id = p.id,
			.tail = rl_put_rec(map + 4096, 4096, 0, f,
					   fl_udp_frame(f, 7, sizeof(f), 1)),
		};
		s->op = NICPROG_U_OP_PIPE_SEND;
		s->len = sizeof(a->send);
		break;
	case 1:
	case 4:
		a->bind.id = pipe_new(r, s->fd, 4096, NICPROG_PIPE_RX, NULL);
		a->bind.output = 3;
		if (k == 4 && pipe_bind(r, s->fd, NICPROG_U_OP_PIPE_BIND,
					a->bind.id, 3))
			ksft_exit_fail_msg("binding a pipe to output 3 failed\n");
		s->op = k == 1 ? NICPROG_U_OP_PIPE_BIND : NICPROG_U_OP_PIPE_UNBIND;
		s->len = sizeof(a->bind);
		break;
	case 2:
		a->create = (struct nicprog_pipe_create){
			.size = 4096, .dir = NICPROG_PIPE_RX,
			.framing = NICPROG_FRAMING_RECORDS,
		};
		s->op = NICPROG_U_OP_PIPE_CREATE;
		s->len = sizeof(a->create);
		break;
	case 3:
		a->destroy.id = pipe_new(r, s->fd, 4096, NICPROG_PIPE_RX, NULL);
		s->op = NICPROG_U_OP_PIPE_DESTROY;
		s->len = sizeof(a->destroy);
		break;
	case 5:
		a->wait.timeout_ms = 100;
		s->op = NICPROG_U_OP_WAIT;
		s->len = sizeof(a->wait);
		break;
	case 6:
		a->alloc.size = 4096;
		s->op = NICPROG_U_OP_MEM_ALLOC;
		s->len = sizeof(a->alloc);
		break;
	case 9:
		a->qp.sq_depth = 16;
		a->qp.rq_depth = 16;
		s->op = NICPROG_U_OP_QP_CREATE;
		s->len = sizeof(a->qp);
		break;
	}
}

static int uffd_mode(const char *opname, const char *cmdline)
{
	static const char *const ops[] = {
		"send", "bind", "create", "destroy", "unbind", "wait",
		"alloc", "copy", "copydata", "qp",
	};
	static uint8_t data[4096];
	const int n_ops = sizeof(ops) / sizeof(ops[0]);
	struct nicprog_mem_alloc ma = { .size = 4096 };
	union churn_arg a = {};
	struct uffdio_copy copy;
	struct submitter s = {};
	struct io_uring r;
	uint8_t *page;
	int k, uffd;

	for (k = 0; k < n_ops && strcmp(opname, ops[k]); k++)
		;
	if (k == n_ops)
		ksft_exit_fail_msg("unknown command %s\n", opname);
	ring_init(&r, 4);
	s.r = &r;
	s.fd = open_node();
	if (k == 7 || k == 8) {		/* a buffer in NIC memory to copy to */
		if (rl_cmd(&r, s.fd, NICPROG_U_OP_MEM_ALLOC, &ma, sizeof(ma), 0))
			ksft_exit_fail_msg("allocating NIC memory failed\n");
		a.copy = (struct nicprog_mem_copy){
			.id = ma.id, .dir = NICPROG_MEM_TO_NIC, .len = 4096,
			.addr = (uintptr_t)data,
		};
		s.op = NICPROG_U_OP_MEM_COPY;
		s.len = sizeof(a.copy);
	}
	uffd_arg(k, &r, &s, &a);
	uffd = uffd_open();
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	uffd_register(uffd, page, UFFDIO_REGISTER_MODE_MISSING);
	s.arg = page;
	if (k == 8) {	/* the argument is at hand; the data it names is not */
		a.copy.addr = (uintptr_t)page;
		memcpy(data, &a, sizeof(a.copy));
		s.arg = data;
	}
	submit_in_thread(&s);
	if (uffd_fault(uffd) < 0)
		ksft_exit_fail_msg("%s: the kernel never read its argument\n",
				   opname);
	/* the command waits for its argument: the port goes meanwhile */
	if (system(cmdline))
		ksft_print_msg("%s: exit status not 0\n", cmdline);
	memcpy(uffd_src, &a, sizeof(a));
	copy = (struct uffdio_copy){
		.dst = (uintptr_t)page, .src = (uintptr_t)uffd_src,
		.len = 4096,
	};
	if (ioctl(uffd, UFFDIO_COPY, &copy))
		ksft_exit_fail_msg("UFFDIO_COPY: %s\n", strerror(errno));
	pthread_join(s.tid, NULL);
	/* the file and the ring go with the driver gone, too */
	close(s.fd);
	io_uring_queue_exit(&r);
	if (s.err)
		ksft_print_msg("%s: %s\n", opname, strerror(-s.err));
	printf("%s: %d\n", opname, s.res);
	return 0;
}

static int create_race_mode(void)
{
	struct nicprog_pipe_create b = {
		.size = 4096, .dir = NICPROG_PIPE_RX,
		.framing = NICPROG_FRAMING_RECORDS,
	};
	struct uffdio_writeprotect wp;
	struct uffdio_range range;
	struct submitter s = {};
	struct io_uring r, r2;
	int uffd, d, c, after;
	uint8_t *page;
	long fl;

	ring_init(&r, 4);
	ring_init(&r2, 4);
	s.r = &r;
	s.fd = open_node();
	uffd = uffd_open();
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	memcpy(page, &b, sizeof(b));
	uffd_register(uffd, page, UFFDIO_REGISTER_MODE_WP);
	range = (struct uffdio_range){ .start = (uintptr_t)page, .len = 4096 };
	wp = (struct uffdio_writeprotect){ .range = range,
					   .mode = UFFDIO_WRITEPROTECT_MODE_WP };
	if (ioctl(uffd, UFFDIO_WRITEPROTECT, &wp))
		ksft_exit_skip("userfaultfd write-protect: %s\n",
			       strerror(errno));
	s.op = NICPROG_U_OP_PIPE_CREATE;
	s.arg = page;
	s.len = sizeof(b);
	submit_in_thread(&s);
	fl = uffd_fault(uffd);
	if (fl < 0 || !(fl & UFFD_PAGEFAULT_FLAG_WP))
		ksft_exit_fail_msg("the create never wrote its result back\n");
	/* pipe 1 would be the create's: destroy it, make another */
	d = pipe_destroy(&r2, s.fd, 1);
	c = rl_cmd(&r2, s.fd, NICPROG_U_OP_PIPE_CREATE, &b, sizeof(b), 0);
	/* the result cannot be written: the create fails */
	if (mprotect(page, 4096, PROT_READ) ||
	    ioctl(uffd, UFFDIO_WAKE, &range))
		ksft_exit_fail_msg("ending the write: %s\n", strerror(errno));
	pthread_join(s.tid, NULL);
	printf("pipes: %ld\n", rl_port_stat(port, "ring_pipes"));
	after = pipe_destroy(&r2, s.fd, b.id);
	printf("create: %d; meanwhile destroy 1: %d, create: %d (pipe %u); then destroy %u: %d\n",
	       s.res, d, c, b.id, b.id, after);
	close(s.fd);
	return 0;
}

/* --cap: the two commands that act on the network. */
static int cap_mode(int fd)
{
	struct nicprog_pipe_create p;
	struct nicprog_pipe_send a;
	struct io_uring r;
	uint8_t *map, f[64];
	uint32_t rx;

	ring_init(&r, 4);
	if (fd < 0)
		fd = open_node();
	pipe_new(&r, fd, 4096, NICPROG_PIPE_TX, &p);
	map = rl_pipe_map(fd, &p);
	a = (struct nicprog_pipe_send){
		.id = p.id,
		.tail = rl_put_rec(map + 4096, 4096, 0, f,
				   fl_udp_frame(f, 7, sizeof(f), 1)),
	};
	printf("send: %d\n", rl_cmd(&r, fd, NICPROG_U_OP_PIPE_SEND, &a,
				     sizeof(a), 0));
	rx = pipe_new(&r, fd, 4096, NICPROG_PIPE_RX, NULL);
	printf("bind: %d\n", pipe_bind(&r, fd, NICPROG_U_OP_PIPE_BIND, rx, 2));
	close(fd);
	return 0;
}

/* the commands a file restricted to NICPROG_ALLOW_RX may not issue */
static const uint32_t delegate_denied[] = {
	NICPROG_OP_PIPE_CREATE, NICPROG_OP_PIPE_DESTROY, NICPROG_OP_PIPE_BIND,
	NICPROG_OP_PIPE_UNBIND, NICPROG_OP_PIPE_SEND, NICPROG_OP_MEM_ALLOC,
	NICPROG_OP_MEM_FREE, NICPROG_OP_MEM_COPY, NICPROG_OP_QP_CREATE,
	NICPROG_OP_QP_CONNECT, NICPROG_OP_QP_DESTROY, NICPROG_OP_MR_REG,
	NICPROG_OP_MR_DEREG, NICPROG_OP_POST, NICPROG_OP_POLL,
	NICPROG_OP_KERNEL_LOAD, NICPROG_OP_KERNEL_UNLOAD, NICPROG_OP_JOB,
};

/*
 * The delegate: uid 65534, no capabilities, the inherited @fd. Every
 * command it may not issue is tried with arguments that would be valid
 * (the RX pipe, output 2, the TX pipe) or zeros: EPERM, whatever they are.
 */
static int delegate_child(int fd, uint32_t rx, uint32_t size, uint32_t tx)
{
	union {
		struct nicprog_pipe_bind b;
		struct nicprog_pipe_destroy d;
		struct nicprog_pipe_send s;
		uint8_t raw[512];
	} a;
	struct nicring_rec recs[16];
	struct nicring_pipe *p;
	unsigned int i, denied = 0, got = 0;
	uint64_t end;
	struct nicring *r;
	int err, res;

	if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
	    setresuid(65534, 65534, 65534)) {
		printf("cannot drop to uid 65534: %s\n", strerror(errno));
		return 1;
	}
	r = nicring_open_fd(fd, &err);
	if (!r) {
		printf("nicring_open_fd: %d\n", err);
		return 1;
	}
	for (i = 0; i < ARRAY_SIZE(delegate_denied); i++) {
		memset(&a, 0, sizeof(a));
		a.b.id = rx;		/* bind, unbind, destroy: the RX pipe */
		a.b.output = 2;
		if (delegate_denied[i] == NICPROG_OP_PIPE_SEND)
			a.s.id = tx;
		res = nicring_command(r, NICPROG_U_OP_NR(delegate_denied[i]), &a,
				      sizeof(a));
		if (res == -EPERM)
			denied++;
		else
			printf("op %u: %d\n", delegate_denied[i], res);
	}
	printf("denied %u of %zu\n", denied, ARRAY_SIZE(delegate_denied));
	printf("widen %#x\n", nicring_restrict(r, NICPROG_ALLOW_ALL));
	p = nicring_attach(r, rx, size, &err);
	if (!p) {
		printf("nicring_attach: %d\n", err);
		return 1;
	}
	for (end = now_ms() + 5000; got < 8 && now_ms() < end;) {
		res = nicring_peek(p, recs, 16);
		for (i = 0; i < (unsigned int)res; i++) {
			uint32_t seq;

			memcpy(&seq, (uint8_t *)recs[i].data + 42, 4);
			if (seq == got + 1)
				got++;
		}
		nicring_release(p, res);
		if (!res)
			nicring_wait(r, 100);
	}
	printf("read %u of 8\n", got);
	nicring_close(r);
	return 0;
}

/* --delegate: a file restricted to RX, handed to an unprivileged child. */
static int delegate_mode(const char *in)
{
	struct nicprog_restrict w = { .allow = NICPROG_ALLOW_RX };
	struct nicprog_pipe_create rp;
	struct io_uring r;
	uint32_t tx, i;
	int fd, fd2, status, res;
	pid_t pid;
	void *m;

	ring_init(&r, 4);
	pkt_open(in);
	fd = open_node();
	pipe_new(&r, fd, 65536, NICPROG_PIPE_RX, &rp);
	tx = pipe_new(&r, fd, 4096, NICPROG_PIPE_TX, NULL);
	if (pipe_bind(&r, fd, NICPROG_U_OP_PIPE_BIND, rp.id, 1))
		ksft_exit_fail_msg("binding pipe %u to output 1\n", rp.id);
	res = rl_cmd(&r, fd, NICPROG_U_OP_RESTRICT, &w, sizeof(w), 0);
	if (res || w.allow != NICPROG_ALLOW_RX)
		ksft_exit_fail_msg("restrict: %d, allow %#x\n", res, w.allow);
	for (i = 1; i <= 8; i++)
		frame_to(1, i);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid) {
		io_uring_queue_exit(&r);	/* the child's own ring */
		res = delegate_child(fd, rp.id, rp.size, tx);
		fflush(stdout);
		_exit(res);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		ksft_exit_fail_msg("the delegate failed: status %#x\n", status);
	printf("opener: %d\n", pipe_destroy(&r, fd, tx));
	close(fd);

	/* a file left no class that maps */
	fd2 = open_node();
	w.allow = NICPROG_ALLOW_MEM;
	rl_cmd(&r, fd2, NICPROG_U_OP_RESTRICT, &w, sizeof(w), 0);
	m = mmap(NULL, NICPROG_NOTIF_MMAP_LEN, PROT_READ, MAP_SHARED, fd2, 0);
	printf("mmap without RX or TX: %s\n",
	       m == MAP_FAILED ? strerror(errno) : "mapped");
	close(fd2);
	return 0;
}

/* --memcg: pipes until the kernel refuses one. */
static int memcg_mode(int files)
{
	struct nicprog_pipe_create a;
	unsigned long mib = 0;
	struct io_uring r;
	int fds[16], i, n, res = 0;

	ring_init(&r, 4);
	for (i = 0; i < files && i < 16 && !res; i++) {
		fds[i] = open_node();
		for (n = 0; n < 64 && !res; n++) {
			a = (struct nicprog_pipe_create){
				.size = 1 << 20, .dir = NICPROG_PIPE_RX,
				.framing = NICPROG_FRAMING_RECORDS,
			};
			res = rl_cmd(&r, fds[i], NICPROG_U_OP_PIPE_CREATE, &a,
				     sizeof(a), 0);
			mib += !res;
		}
	}
	printf("created %lu MiB: %d\n", mib, res);
	while (i--)
		close(fds[i]);
	return 0;
}

static void cg_write(const char *dir, const char *file, const char *val)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, val, strlen(val)) != (ssize_t)strlen(val))
		ksft_exit_fail_msg("%s: %s\n", path, strerror(errno));
	close(fd);
}

static void cg_enter(const char *dir, pid_t pid)
{
	char val[16];

	snprintf(val, sizeof(val), "%d", pid);
	cg_write(dir, "cgroup.procs", val);
}

/* memory.events' "oom" and "oom_kill" of cgroup @dir, summed */
static long cg_ooms(const char *dir)
{
	char path[256], key[32];
	long v, sum = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/memory.events", dir);
	f = fopen(path, "r");
	if (!f)
		ksft_exit_fail_msg("%s: %s\n", path, strerror(errno));
	while (fscanf(f, "%31s %ld", key, &v) == 2)
		if (!strcmp(key, "oom") || !strcmp(key, "oom_kill"))
			sum += v;
	fclose(f);
	return sum;
}

static int edge_create(struct io_uring *r, int fd)
{
	struct nicprog_pipe_create a = {
		.size = 64 << 10, .dir = NICPROG_PIPE_RX,
		.framing = NICPROG_FRAMING_RECORDS,
	};
	int res;

	res = rl_cmd(r, fd, NICPROG_U_OP_PIPE_CREATE, &a, sizeof(a), 0);
	if (!res && pipe_destroy(r, fd, a.id))
		ksft_exit_fail_msg("destroy of pipe %u failed\n", a.id);
	return res;
}

/* --memcg-edge: the parent moves the opener; they meet in shared memory */
struct edge_turn {
	volatile int go;	/* try k + 1; -1: done */
	volatile int done;	/* try k + 1 ran */
	volatile int res;
};

static const struct timespec edge_tick = { .tv_nsec = 1000000 };

/*
 * The opener: everything it will touch (the file, the ring, io_uring's
 * request cache and worker, its stack and the shared page) exists before
 * it is first moved, so what crosses a limit is the create's own.
 */
static int edge_opener(struct edge_turn *t, const char *home)
{
	struct io_uring r;
	int fd, k;

	cg_enter(home, getpid());
	ring_init(&r, 4);
	fd = open_node();
	t->res = edge_create(&r, fd);
	t->done = -1;
	for (k = 1;; k++) {
		while (t->go != k && t->go != -1)
			nanosleep(&edge_tick, NULL);
		if (t->go == -1)
			break;
		t->res = edge_create(&r, fd);
		t->done = k;
	}
	printf("then: %d\n", edge_create(&r, fd));
	close(fd);
	return 0;
}

/*
 * The parent waits for the opener at most 20 s a step. Return: 0 when it
 * is there, -ETIMEDOUT, or -ECHILD when it is gone (and reaped).
 */
static int edge_wait(struct edge_turn *t, int k, pid_t pid)
{
	int i, status;

	for (i = 0; i < 20000 && t->done != k; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid) {
			printf("opener gone at try %d: status %d\n", k,
			       WIFSIGNALED(status) ? 128 + WTERMSIG(status) :
			       WEXITSTATUS(status));
			return -ECHILD;
		}
		nanosleep(&edge_tick, NULL);
	}
	if (t->done != k)
		printf("opener stuck at try %d\n", k);
	return t->done == k ? 0 : -ETIMEDOUT;
}

/*
 * --memcg-edge: memory.current counts the per-CPU charge stock a cgroup
 * keeps, so a limit "k pages above it" is not k pages away. Each try
 * runs in a new cgroup, which holds nothing: its limit of k pages is
 * exactly k pages. The opener is moved by its parent because a process
 * at its limit cannot move itself (the write allocates, and is charged).
 */
static int memcg_edge_mode(const char *cg, int pages)
{
	int k, made = 0, nomem = 0, other = 0, status, err = 0;
	long page = sysconf(_SC_PAGESIZE), ooms = 0;
	char home[200], edge[200], val[32];
	struct edge_turn *t;
	pid_t pid;

	snprintf(home, sizeof(home), "%s/home", cg);
	snprintf(edge, sizeof(edge), "%s/edge", cg);
	cg_write(cg, "cgroup.subtree_control", "+memory");
	if (mkdir(home, 0755))
		ksft_exit_fail_msg("%s: %s\n", home, strerror(errno));
	t = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		 -1, 0);
	if (t == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	t->go = 0;
	t->done = 0;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid)
		exit(edge_opener(t, home));
	if (edge_wait(t, -1, pid))
		ksft_exit_fail_msg("the opener did not start\n");
	for (k = 0; k <= pages; k++) {
		if (mkdir(edge, 0755))
			ksft_exit_fail_msg("%s: %s\n", edge, strerror(errno));
		snprintf(val, sizeof(val), "%ld", k * page);
		cg_write(edge, "memory.max", val);
		cg_enter(edge, pid);
		t->go = k + 1;
		err = edge_wait(t, k + 1, pid);
		if (err) {
			ooms += cg_ooms(edge);
			break;
		}
		cg_enter(home, pid);
		ooms += cg_ooms(edge);
		if (rmdir(edge))
			ksft_exit_fail_msg("%s: %s\n", edge, strerror(errno));
		made += !t->res;
		nomem += t->res == -ENOMEM;
		if (t->res && t->res != -ENOMEM && other++ < 5)
			printf("limit of %d pages: create: %d\n", k, t->res);
	}
	printf("%d creates: %d made, %d ENOMEM, %d other, %ld oom events\n",
	       k, made, nomem, other, ooms);
	fflush(stdout);
	t->go = -1;
	if (err == -ETIMEDOUT)
		kill(pid, SIGKILL);
	if (err != -ECHILD && waitpid(pid, &status, 0) == pid)
		printf("opener: status %d\n", WIFSIGNALED(status) ?
		       128 + WTERMSIG(status) : WEXITSTATUS(status));
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int nf_arg = !strcmp(mode, "--complete") || !strcmp(mode, "--churn") ?
		     3 : 2;

	if (argc <= nf_arg)
		ksft_exit_fail_msg("usage: see the comment at the top of ring_hostile.c\n");
	if (!strcmp(mode, "--uffd") || !strcmp(mode, "--delegate"))
		nf_arg = 3;
	port = argv[nf_arg];
	if (rl_node(port, node, sizeof(node)))
		ksft_exit_fail_msg("%s has no streaming-ring device\n", port);
	if (!strcmp(mode, "--complete"))
		return complete_mode(argv[2]);
	if (!strcmp(mode, "--churn") && argc == 6)
		return churn_mode(argv[2], atoi(argv[4]),
				  strtoull(argv[5], NULL, 0));
	if (!strcmp(mode, "--uffd") && argc == 5)
		return uffd_mode(argv[2], argv[4]);
	if (!strcmp(mode, "--create-race"))
		return create_race_mode();
	if (!strcmp(mode, "--cap"))
		return cap_mode(argc > 3 ? atoi(argv[3]) : -1);
	if (!strcmp(mode, "--delegate") && argc == 4)
		return delegate_mode(argv[2]);
	if (!strcmp(mode, "--memcg") && argc == 4)
		return memcg_mode(atoi(argv[3]));
	if (!strcmp(mode, "--memcg-edge") && argc == 5)
		return memcg_edge_mode(argv[3], atoi(argv[4]));
	ksft_exit_fail_msg("usage: see the comment at the top of ring_hostile.c\n");
}
