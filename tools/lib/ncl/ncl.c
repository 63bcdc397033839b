// SPDX-License-Identifier: GPL-2.0
/*
 * libncl: NCP on UDP sockets, and invocations of outgoing kernels that
 * resend what goes unanswered (ncl.h).
 *
 * A window is a frame: its arrays' elements fit NCL_WIN_BYTES. A window
 * larger than a frame would need a fragment number in struct ncl_window
 * and a kernel that keeps partial windows in switch memory until every
 * fragment arrived; no kernel here needs it.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "ncl.h"
#include "ring.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* @err, with @fmt's message in @buf (ring.c's too). */
int ncl_why(char *buf, size_t len, int err, const char *fmt, ...)
{
	va_list ap;

	if (buf && len) {
		va_start(ap, fmt);
		vsnprintf(buf, len, fmt, ap);
		va_end(ap);
	}
	return err;
}

/* Bytes of the elements a frame carries. */
static size_t ncl_elems_bytes(uint8_t mask, const uint32_t *elem_bytes,
			      uint32_t len)
{
	size_t n = 0;
	int i;

	for (i = 0; i < NCL_ARGS_MAX; i++)
		if (mask & (1u << i))
			n += (size_t)elem_bytes[i] * len;
	return n;
}

size_t ncl_encode(void *buf, size_t cap, const struct ncl_frame *f)
{
	struct ncp_hdr *h = buf;
	struct ncl_window *w = (struct ncl_window *)(h + 1);
	uint8_t *d = (uint8_t *)(w + 1);
	uint32_t slots = f->pad_len > f->len ? f->pad_len : f->len;
	size_t n = ncl_elems_bytes(f->mask, f->elem_bytes, slots), b;
	int i;

	if (n > NCL_WIN_BYTES || sizeof(*h) + sizeof(*w) + n > cap)
		return 0;
	memset(h, 0, sizeof(*h) + sizeof(*w));
	h->version = NCL_VERSION;
	h->kernel = f->kernel;
	h->flags = f->flags;
	h->mask = f->mask;
	for (i = 0; i < NCL_ARGS_MAX; i++)
		h->offset[i] = htonl(f->offset[i]);
	w->seq = htonl(f->seq);
	w->sender = htons(f->sender);
	w->len = htons(f->len);
	w->user[0] = htonl(f->user[0]);
	w->user[1] = htonl(f->user[1]);
	for (i = 0; i < NCL_ARGS_MAX; i++) {
		if (!(f->mask & (1u << i)))
			continue;
		b = (size_t)f->elem_bytes[i] * f->len;
		memcpy(d, f->data[i], b);
		memset(d + b, 0, (size_t)f->elem_bytes[i] * slots - b);
		d += (size_t)f->elem_bytes[i] * slots;
	}
	return sizeof(*h) + sizeof(*w) + n;
}

int ncl_decode(const void *buf, size_t n, const uint32_t *elem_bytes,
	       struct ncl_frame *f)
{
	const struct ncp_hdr *h = buf;
	const struct ncl_window *w = (const struct ncl_window *)(h + 1);
	const uint8_t *d = (const uint8_t *)(w + 1);
	int i;

	if (n < sizeof(*h) + sizeof(*w) || h->version != NCL_VERSION)
		return -EINVAL;
	memset(f, 0, sizeof(*f));
	f->kernel = h->kernel;
	f->flags = h->flags;
	f->mask = h->mask;
	for (i = 0; i < NCL_ARGS_MAX; i++)
		f->offset[i] = ntohl(h->offset[i]);
	f->seq = ntohl(w->seq);
	f->sender = ntohs(w->sender);
	f->len = ntohs(w->len);
	f->user[0] = ntohl(w->user[0]);
	f->user[1] = ntohl(w->user[1]);
	if (sizeof(*h) + sizeof(*w) +
	    ncl_elems_bytes(f->mask, elem_bytes, f->len) > n)
		return -EMSGSIZE;
	for (i = 0; i < NCL_ARGS_MAX; i++) {
		f->elem_bytes[i] = elem_bytes[i];
		if (!(f->mask & (1u << i)))
			continue;
		f->data[i] = d;
		d += (size_t)elem_bytes[i] * f->len;
	}
	return 0;
}

int ncl_udp_open(struct ncl_endpoint *ep, uint16_t sender, uint8_t kernel,
		 const char *to, char *why_buf, size_t why_len)
{
	struct sockaddr_in me = {
		.sin_family = AF_INET,
		.sin_port = htons(NCL_UDP_PORT),
		.sin_addr.s_addr = htonl(INADDR_ANY),
	};
	int one = 1, size = 4 << 20, err;

	memset(ep, 0, sizeof(*ep));
	ep->fd = -1;	/* ncl_close() after a failed open closes nothing */
	ep->sender = sender;
	ep->kernel = kernel;
	ep->to.sin_family = AF_INET;
	ep->to.sin_port = htons(NCL_UDP_PORT);
	if (inet_pton(AF_INET, to, &ep->to.sin_addr) != 1)
		return ncl_why(why_buf, why_len, -EINVAL,
			       "%s is not an IPv4 address", to);
	ep->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (ep->fd < 0)
		return ncl_why(why_buf, why_len, -errno, "socket: %s",
			       strerror(errno));
	setsockopt(ep->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/* results of every window in flight may arrive at once */
	if (setsockopt(ep->fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)))
		setsockopt(ep->fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	if (bind(ep->fd, (struct sockaddr *)&me, sizeof(me))) {
		err = -errno;
		close(ep->fd);
		ep->fd = -1;
		return ncl_why(why_buf, why_len, err, "bind to UDP port %u: %s",
			       NCL_UDP_PORT, strerror(-err));
	}
	return 0;
}

void ncl_close(struct ncl_endpoint *ep)
{
	ncl_ring_free(ep->ring);
	ep->ring = NULL;
	if (ep->fd >= 0)
		close(ep->fd);
	ep->fd = -1;
}

/* what one window of a call is doing */
struct ncl_win_state {
	uint64_t sent_ns;	/* last send */
	uint32_t tries;
	uint8_t answered;
};

static int ncl_send_window(struct ncl_endpoint *ep, const struct ncl_call *c,
			   uint64_t w, int resend)
{
	uint8_t buf[NCL_FRAME_MAX];
	struct ncl_frame f = {
		.kernel = ep->kernel,
		.flags = resend ? NCP_F_RESEND : 0,
		.mask = c->mask,
		.seq = (uint32_t)w,
		.sender = ep->sender,
	};
	uint64_t first = w * c->win_elems;
	size_t n;
	int i;

	f.len = (uint16_t)(c->count - first < c->win_elems ?
			   c->count - first : c->win_elems);
	if (c->pad)
		f.pad_len = (uint16_t)c->win_elems;
	for (i = 0; i < NCL_ARGS_MAX; i++) {
		f.elem_bytes[i] = c->elem_bytes[i];
		if (!(c->mask & (1u << i)))
			continue;
		f.offset[i] = (uint32_t)first;
		f.data[i] = (const uint8_t *)c->in[i] + first * c->elem_bytes[i];
	}
	n = ncl_encode(buf, sizeof(buf), &f);
	if (!n)
		return -EINVAL;
	for (;;) {
		if (sendto(ep->fd, buf, n, 0, (struct sockaddr *)&ep->to,
			   sizeof(ep->to)) == (ssize_t)n)
			return 0;
		/* a full queue on the way: the wire paces us */
		if (errno != ENOBUFS && errno != EAGAIN && errno != EINTR)
			return -errno;
		usleep(100);
	}
}

/* What answers are taken into. */
struct ncl_take {
	struct ncl_endpoint *ep;
	const struct ncl_call *c;
	struct ncl_win_state *ws;
	uint64_t windows;
	struct ncl_call_stats *st;
};

/* One answer's NCP payload @buf of @n bytes (NULL: no NCP frame). */
static void ncl_answer(void *arg, const void *buf, size_t n)
{
	struct ncl_take *t = arg;
	struct ncl_frame f;

	if (!buf || ncl_decode(buf, n, t->c->elem_bytes, &f) ||
	    f.kernel != t->ep->kernel || !(f.flags & NCP_F_RESULT) ||
	    f.seq >= t->windows) {
		t->st->stray++;
		return;
	}
	if (t->ws[f.seq].answered) {
		t->st->dups++;
		return;
	}
	t->ws[f.seq].answered = 1;
	t->st->answers++;
	if (t->c->on_answer)
		t->c->on_answer(t->c->arg, &f);
}

/* Take every answer waiting at the socket. */
static void ncl_take_socket(struct ncl_take *t)
{
	uint8_t buf[2048];
	ssize_t n;

	while ((n = recv(t->ep->fd, buf, sizeof(buf), MSG_DONTWAIT)) >= 0)
		ncl_answer(t, buf, (size_t)n);
}

int ncl_invoke(struct ncl_endpoint *ep, const struct ncl_call *c,
	       struct ncl_call_stats *st)
{
	uint64_t windows, next = 0, base = 0, w, start, now, due;
	struct pollfd pfd = { .fd = ep->fd, .events = POLLIN };
	struct ncl_take t = { .ep = ep, .c = c, .st = st };
	struct ncl_win_state *ws;
	int err = 0, timeout, n;

	memset(st, 0, sizeof(*st));
	if (!c->win_elems || !c->inflight || !c->count || !c->max_tries ||
	    ncl_elems_bytes(c->mask, c->elem_bytes, c->win_elems) > NCL_WIN_BYTES ||
	    c->win_elems > UINT16_MAX)
		return -EINVAL;
	windows = (c->count + c->win_elems - 1) / c->win_elems;
	if (windows > UINT32_MAX)
		return -EINVAL;
	ws = calloc(windows, sizeof(*ws));
	if (!ws)
		return -ENOMEM;
	st->windows = windows;
	t.ws = ws;
	t.windows = windows;
	start = now_ns();
	while (st->answers < windows) {
		/* new windows, each once the one @inflight before is answered */
		while (next < windows &&
		       (next < c->inflight || ws[next - c->inflight].answered)) {
			err = ncl_send_window(ep, c, next, 0);
			if (err)
				goto out;
			ws[next].sent_ns = now_ns();
			ws[next].tries = 1;
			st->sent++;
			next++;
		}
		while (base < next && ws[base].answered)
			base++;
		/* resend what waited too long; sleep until the next is due */
		now = now_ns();
		due = now + (uint64_t)c->rto_ms * 1000000;
		for (w = base; w < next; w++) {
			if (ws[w].answered)
				continue;
			if (now - ws[w].sent_ns >= (uint64_t)c->rto_ms * 1000000) {
				if (ws[w].tries >= c->max_tries) {
					err = -ETIMEDOUT;
					goto out;
				}
				err = ncl_send_window(ep, c, w, 1);
				if (err)
					goto out;
				ws[w].sent_ns = now_ns();
				ws[w].tries++;
				st->sent++;
				st->resent++;
			}
			if (ws[w].sent_ns + (uint64_t)c->rto_ms * 1000000 < due)
				due = ws[w].sent_ns + (uint64_t)c->rto_ms * 1000000;
		}
		now = now_ns();
		timeout = due > now ? (int)((due - now) / 1000000) + 1 : 0;
		if (ep->ring) {
			n = ncl_ring_take(ep->ring, timeout, ncl_answer, &t);
			if (n < 0) {
				err = n;
				goto out;
			}
			st->piped += (uint64_t)n;
			continue;
		}
		if (poll(&pfd, 1, timeout) < 0 && errno != EINTR) {
			err = -errno;
			goto out;
		}
		if (pfd.revents & POLLIN)
			ncl_take_socket(&t);
	}
	st->ns = now_ns() - start;
out:
	free(ws);
	return err;
}
