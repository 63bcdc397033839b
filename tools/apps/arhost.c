// SPDX-License-Identifier: GPL-2.0
/*
 * arhost - the AllReduce job of tools/apps/allreduce.c done by the hosts
 * alone, over TCP through the same switch: the peers of the in-network
 * AllReduce in tools/bench/ncl. Same seeded inputs, same exact check.
 *
 *   arhost ring RANK N ELEMS SEED ADDR1 .. ADDRN [-S START_NS]
 *	worker RANK (1 .. N) of a ring AllReduce: it listens on port
 *	9500 + RANK, connects to the next worker's (RANK % N + 1, at its
 *	ADDR) and takes the previous one's connection; then N - 1 reduce-scatter steps and N - 1
 *	all-gather steps, each sending one of N chunks to the next worker
 *	while receiving one from the previous (Gloo's and NCCL's ring: every
 *	worker sends and receives 2 (N - 1) / N of the array)
 *   arhost ps-server N ELEMS
 *	a parameter server on port 9479 for N workers: it sums what they
 *	send as it arrives and streams each element of the sum back to every
 *	worker once all N have sent it (N arrays in and N out on its link)
 *   arhost ps RANK N ELEMS SEED SERVER [-S START_NS]
 *	worker RANK's part against the parameter server at SERVER
 *
 * Workers start at START_NS (CLOCK_REALTIME; the job's start line, after
 * their connections are up), print "arhost: <method> worker R of N, E
 * elements: exact" (or the first wrong element) and "arhost: start_ns S
 * end_ns E", and exit 0 only if every element is right. Every wait is
 * bounded: no progress on the sockets for AR_STALL_MS is an error.
 *
 * Plain TCP sockets and poll(), not a collective library: Debian's Gloo
 * or MPI would bring their own transports and start-up, and what the
 * comparison needs is the ring's and the server's traffic, exactly.
 */
#define _GNU_SOURCE	/* accept4() */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ar_input.h"

#define AR_RING_PORT	9500	/* + rank: workers may share an address */
#define AR_PS_PORT	9479
#define AR_STALL_MS	30000
#define AR_MAX_N	16

/*
 * One transfer: send @slen bytes of @sbuf on @sfd while receiving @rlen
 * bytes into @rbuf from @rfd (either may be empty; the fds may be one).
 */
struct xfer {
	int sfd, rfd;
	const char *sbuf;
	size_t slen, sdone;
	char *rbuf;
	size_t rlen, rdone;
};

static int fail(const char *what)
{
	fprintf(stderr, "arhost: %s: %s\n", what, strerror(errno));
	return -1;
}

/*
 * Move every transfer of @x forward until all are done. @on_recv (if
 * any) runs after each read, with the transfer's index; @on_send_room
 * may grow a transfer's slen (the server's stream) and is called before
 * each poll. Returns 0, or -1 (said on stderr) on an error or a stall.
 */
static int pump(struct xfer *x, int nx, void (*on_recv)(void *, int),
		void (*on_room)(void *), void *arg)
{
	struct pollfd pfd[2 * AR_MAX_N];
	int i, n, left;
	ssize_t r;

	for (;;) {
		if (on_room)
			on_room(arg);
		n = 0;
		left = 0;
		for (i = 0; i < nx; i++) {
			if (x[i].sdone < x[i].slen) {
				pfd[n].fd = x[i].sfd;
				pfd[n++].events = POLLOUT;
			}
			if (x[i].rdone < x[i].rlen) {
				pfd[n].fd = x[i].rfd;
				pfd[n++].events = POLLIN;
			}
			left |= x[i].sdone < x[i].slen || x[i].rdone < x[i].rlen;
		}
		if (!left)
			return 0;
		if (!n) {	/* waiting on data no one can send: a bug */
			fprintf(stderr, "arhost: stuck with nothing to poll\n");
			return -1;
		}
		r = poll(pfd, (nfds_t)n, AR_STALL_MS);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return fail("poll");
		if (!r) {
			fprintf(stderr, "arhost: no progress for %d ms\n", AR_STALL_MS);
			return -1;
		}
		for (i = 0; i < nx; i++) {
			if (x[i].sdone < x[i].slen) {
				r = send(x[i].sfd, x[i].sbuf + x[i].sdone,
					 x[i].slen - x[i].sdone, MSG_DONTWAIT | MSG_NOSIGNAL);
				if (r < 0 && errno != EAGAIN && errno != EINTR)
					return fail("send");
				if (r > 0)
					x[i].sdone += (size_t)r;
			}
			if (x[i].rdone < x[i].rlen) {
				r = recv(x[i].rfd, x[i].rbuf + x[i].rdone,
					 x[i].rlen - x[i].rdone, MSG_DONTWAIT);
				if (r == 0) {
					fprintf(stderr, "arhost: peer closed early\n");
					return -1;
				}
				if (r < 0 && errno != EAGAIN && errno != EINTR)
					return fail("recv");
				if (r > 0) {
					x[i].rdone += (size_t)r;
					if (on_recv)
						on_recv(arg, i);
				}
			}
		}
	}
}

static int listen_on(uint16_t port)
{
	struct sockaddr_in a = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(INADDR_ANY),
	};
	int fd, one = 1;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return fail("socket");
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) || listen(fd, AR_MAX_N)) {
		fail("bind/listen");
		close(fd);
		return -1;
	}
	return fd;
}

/* Accept one connection within the stall bound. */
static int accept_one(int lfd)
{
	struct pollfd p = { .fd = lfd, .events = POLLIN };
	int r, fd;

	r = poll(&p, 1, AR_STALL_MS);
	if (r <= 0) {
		fprintf(stderr, "arhost: no connection within %d ms\n", AR_STALL_MS);
		return -1;
	}
	fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	return fd < 0 ? fail("accept") : fd;
}

/* Connect to @addr:@port, retrying while it is not listening yet. */
static int connect_to(const char *addr, uint16_t port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	uint64_t until = ar_now_ns() + AR_STALL_MS * 1000000ull;
	int fd;

	if (inet_pton(AF_INET, addr, &a.sin_addr) != 1) {
		fprintf(stderr, "arhost: %s is no IPv4 address\n", addr);
		return -1;
	}
	do {
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return fail("socket");
		if (!connect(fd, (struct sockaddr *)&a, sizeof(a)))
			return fd;
		close(fd);
		if (errno != ECONNREFUSED && errno != ENETUNREACH)
			break;
		usleep(20000);
	} while (ar_now_ns() < until);
	fprintf(stderr, "arhost: cannot connect to %s:%u: %s\n", addr, port,
		strerror(errno));
	return -1;
}

/* Compare with the sum; print the verdict line. */
static int check(const char *method, uint32_t rank, uint32_t n,
		 const int32_t *got, uint64_t count, uint64_t seed)
{
	uint64_t k;

	for (k = 0; k < count; k++) {
		if (got[k] != ar_sum(seed, n, k)) {
			printf("arhost: %s worker %u of %u, %llu elements: element %llu is %d, not %d\n",
			       method, rank, n, (unsigned long long)count,
			       (unsigned long long)k, got[k], ar_sum(seed, n, k));
			return 1;
		}
	}
	printf("arhost: %s worker %u of %u, %llu elements: exact\n", method,
	       rank, n, (unsigned long long)count);
	return 0;
}

static uint64_t chunk_lo(uint64_t count, uint32_t n, uint32_t c)
{
	return count * c / n;
}

static int ring(uint32_t rank, uint32_t n, uint64_t count, uint64_t seed,
		char **addr, uint64_t at)
{
	uint32_t r = rank - 1, s, sc, rc;
	int lfd, nfd = -1, pfd = -1, ret = 1;
	int32_t *buf, *tmp;
	uint64_t k, t0, t1;

	buf = malloc(count * sizeof(*buf));
	tmp = malloc((count / n + 1) * sizeof(*tmp));
	if (!buf || !tmp)
		goto out;
	for (k = 0; k < count; k++)
		buf[k] = ar_input(seed, rank, k);
	lfd = listen_on(AR_RING_PORT + rank);
	if (lfd < 0)
		goto out;
	nfd = connect_to(addr[(r + 1) % n], AR_RING_PORT + (r + 1) % n + 1);
	if (nfd >= 0)
		pfd = accept_one(lfd);
	close(lfd);
	if (nfd < 0 || pfd < 0)
		goto out;
	t0 = ar_start(at);
	if (!t0)
		goto late;
	/* reduce-scatter, then all-gather; step s of each moves one chunk */
	for (s = 0; s < 2 * (n - 1); s++) {
		bool gather = s >= n - 1;
		uint32_t g = gather ? s - (n - 1) : s;
		struct xfer x = { .sfd = nfd, .rfd = pfd };

		sc = (r + n - g + (gather ? 1 : 0)) % n;
		rc = (r + 2 * n - g - (gather ? 0 : 1)) % n;
		x.sbuf = (const char *)(buf + chunk_lo(count, n, sc));
		x.slen = (chunk_lo(count, n, sc + 1) - chunk_lo(count, n, sc)) * sizeof(*buf);
		x.rbuf = gather ? (char *)(buf + chunk_lo(count, n, rc)) : (char *)tmp;
		x.rlen = (chunk_lo(count, n, rc + 1) - chunk_lo(count, n, rc)) * sizeof(*buf);
		if (pump(&x, 1, NULL, NULL, NULL))
			goto out;
		if (!gather)
			for (k = 0; k < x.rlen / sizeof(*buf); k++)
				buf[chunk_lo(count, n, rc) + k] =
					(int32_t)((uint32_t)buf[chunk_lo(count, n, rc) + k] +
						  (uint32_t)tmp[k]);
	}
	t1 = ar_now_ns();
	ret = check("ring", rank, n, buf, count, seed);
	printf("arhost: start_ns %llu end_ns %llu\n", (unsigned long long)t0,
	       (unsigned long long)t1);
	goto out;
late:
	fprintf(stderr, "arhost: the start line is more than a minute away\n");
out:
	if (nfd >= 0)
		close(nfd);
	if (pfd >= 0)
		close(pfd);
	free(buf);
	free(tmp);
	return ret;
}

/* The parameter server's state: what each worker sent, and the sum. */
struct ps {
	uint32_t n;
	uint64_t count;
	struct xfer x[AR_MAX_N];
	uint64_t added[AR_MAX_N];	/* elements of worker i in sum */
	uint32_t *sum;
};

static void ps_recv(void *arg, int i)
{
	struct ps *ps = arg;
	const uint32_t *in = (const uint32_t *)ps->x[i].rbuf;
	uint64_t k, upto = ps->x[i].rdone / sizeof(uint32_t);

	for (k = ps->added[i]; k < upto; k++)
		ps->sum[k] += in[k];
	ps->added[i] = upto;
}

/* Every element all workers sent is final: stream it back to each. */
static void ps_room(void *arg)
{
	struct ps *ps = arg;
	uint64_t ready = ps->count;
	uint32_t i;

	for (i = 0; i < ps->n; i++)
		if (ps->added[i] < ready)
			ready = ps->added[i];
	for (i = 0; i < ps->n; i++)
		ps->x[i].slen = ready * sizeof(uint32_t);
}

static int ps_server(uint32_t n, uint64_t count)
{
	struct ps ps = { .n = n, .count = count };
	int lfd, ret = 1;
	uint32_t i, got = 0;

	ps.sum = calloc(count, sizeof(*ps.sum));
	if (!ps.sum)
		return 1;
	for (i = 0; i < n; i++) {
		ps.x[i].sfd = ps.x[i].rfd = -1;
		ps.x[i].rbuf = malloc(count * sizeof(uint32_t));
		if (!ps.x[i].rbuf)
			goto out;
		ps.x[i].rlen = count * sizeof(uint32_t);
		ps.x[i].sbuf = (const char *)ps.sum;
	}
	lfd = listen_on(AR_PS_PORT);
	if (lfd < 0)
		goto out;
	printf("arhost: ps-server ready\n");
	fflush(stdout);
	for (got = 0; got < n; got++) {
		ps.x[got].sfd = ps.x[got].rfd = accept_one(lfd);
		if (ps.x[got].sfd < 0)
			break;
	}
	close(lfd);
	if (got == n && !pump(ps.x, (int)n, ps_recv, ps_room, &ps)) {
		printf("arhost: ps-server summed %u arrays of %llu elements\n",
		       n, (unsigned long long)count);
		ret = 0;
	}
out:
	for (i = 0; i < n; i++) {
		if (i < got)
			close(ps.x[i].sfd);
		free(ps.x[i].rbuf);
	}
	free(ps.sum);
	return ret;
}

static int ps_worker(uint32_t rank, uint32_t n, uint64_t count, uint64_t seed,
		     const char *server, uint64_t at)
{
	struct xfer x = { .sdone = 0 };
	int32_t *in, *out;
	uint64_t k, t0, t1;
	int fd, ret = 1;

	in = malloc(count * sizeof(*in));
	out = malloc(count * sizeof(*out));
	fd = in && out ? connect_to(server, AR_PS_PORT) : -1;
	if (fd < 0)
		goto out;
	for (k = 0; k < count; k++)
		in[k] = ar_input(seed, rank, k);
	x.sfd = x.rfd = fd;
	x.sbuf = (const char *)in;
	x.slen = x.rlen = count * sizeof(*in);
	x.rbuf = (char *)out;
	t0 = ar_start(at);
	if (!t0) {
		fprintf(stderr, "arhost: the start line is more than a minute away\n");
		goto out;
	}
	if (pump(&x, 1, NULL, NULL, NULL))
		goto out;
	t1 = ar_now_ns();
	ret = check("ps", rank, n, out, count, seed);
	printf("arhost: start_ns %llu end_ns %llu\n", (unsigned long long)t0,
	       (unsigned long long)t1);
out:
	if (fd >= 0)
		close(fd);
	free(in);
	free(out);
	return ret;
}

static int usage(void)
{
	fprintf(stderr, "usage: arhost ring RANK N ELEMS SEED ADDR1 .. ADDRN [-S START_NS]\n"
			"       arhost ps-server N ELEMS\n"
			"       arhost ps RANK N ELEMS SEED SERVER [-S START_NS]\n");
	return 2;
}

int main(int argc, char **argv)
{
	uint64_t at = 0, count;
	uint32_t n, rank;
	const char *m;

	if (argc > 3 && !strcmp(argv[argc - 2], "-S")) {
		at = strtoull(argv[argc - 1], NULL, 0);
		argc -= 2;
	}
	if (argc < 4)
		return usage();
	m = argv[1];
	if (!strcmp(m, "ps-server")) {
		n = strtoul(argv[2], NULL, 0);
		count = strtoull(argv[3], NULL, 0);
		if (argc != 4 || !n || n > AR_MAX_N || !count)
			return usage();
		return ps_server(n, count);
	}
	if (argc < 6)
		return usage();
	rank = strtoul(argv[2], NULL, 0);
	n = strtoul(argv[3], NULL, 0);
	count = strtoull(argv[4], NULL, 0);
	if (n < 2 || n > AR_MAX_N || !rank || rank > n || count < n) {
		fprintf(stderr, "arhost: N is 2 to %u, RANK 1 to N, ELEMS at least N\n",
			AR_MAX_N);
		return 2;
	}
	if (!strcmp(m, "ring") && argc == 6 + (int)n)
		return ring(rank, n, count, strtoull(argv[5], NULL, 0), argv + 6, at);
	if (!strcmp(m, "ps") && argc == 7)
		return ps_worker(rank, n, count, strtoull(argv[5], NULL, 0), argv[6], at);
	return usage();
}
