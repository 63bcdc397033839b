// SPDX-License-Identifier: GPL-2.0
/*
 * A minimal AF_XDP receive socket in copy mode (afxdp.h), on libxdp's xsk
 * API: libxdp sets up the UMEM, maps the rings and binds; this file keeps
 * every frame either in the fill ring, in the RX ring or handed out.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <linux/if_xdp.h>

#include "afxdp.h"

#ifndef SOL_XDP
#define SOL_XDP 283
#endif

#define AFXDP_FRAME_SIZE 4096

static int fail(char *err, size_t errlen, int e, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < errlen)
		snprintf(err + n, errlen - n, ": %s", strerror(e));
	return -e;
}

int afxdp_open(struct afxdp *x, const char *ifname, uint32_t queue,
	       uint32_t n_frames, char *err, size_t errlen)
{
	struct xsk_umem_config ucfg = { 0 };
	struct xsk_socket_config scfg = { 0 };
	uint32_t i, idx = 0;
	int e;

	memset(x, 0, sizeof(*x));
	if (!n_frames || (n_frames & (n_frames - 1)))
		return fail(err, errlen, EINVAL, "%u frames: not a power of two",
			    n_frames);
	x->frame_size = AFXDP_FRAME_SIZE;
	x->n_frames = n_frames;
	x->area_len = (size_t)n_frames * x->frame_size;
	x->area = mmap(NULL, x->area_len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (x->area == MAP_FAILED) {
		x->area = NULL;
		return fail(err, errlen, errno, "UMEM of %zu bytes", x->area_len);
	}
	ucfg.fill_size = n_frames;
	ucfg.comp_size = n_frames;
	ucfg.frame_size = x->frame_size;
	e = xsk_umem__create(&x->umem, x->area, x->area_len, &x->fill,
			     &x->comp, &ucfg);
	if (e) {
		x->umem = NULL;
		e = fail(err, errlen, -e, "AF_XDP UMEM and rings");
		goto out;
	}
	scfg.rx_size = n_frames;
	scfg.libxdp_flags = XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD;
	scfg.bind_flags = XDP_COPY;
	e = xsk_socket__create(&x->xsk, ifname, queue, x->umem, &x->rx, NULL,
			       &scfg);
	if (e) {
		x->xsk = NULL;
		e = fail(err, errlen, -e, "bind to %s queue %u in copy mode",
			 ifname, queue);
		goto out;
	}
	if (xsk_ring_prod__reserve(&x->fill, n_frames, &idx) != n_frames) {
		e = fail(err, errlen, ENOSPC, "the fill ring");
		goto out;
	}
	for (i = 0; i < n_frames; i++)
		*xsk_ring_prod__fill_addr(&x->fill, idx + i) =
			(uint64_t)i * x->frame_size;
	xsk_ring_prod__submit(&x->fill, n_frames);
	return 0;
out:
	afxdp_close(x);
	return e;
}

void afxdp_close(struct afxdp *x)
{
	if (x->xsk)
		xsk_socket__delete(x->xsk);
	if (x->umem)
		xsk_umem__delete(x->umem);
	if (x->area)
		munmap(x->area, x->area_len);
	memset(x, 0, sizeof(*x));
}

int afxdp_fd(const struct afxdp *x)
{
	return x->xsk ? xsk_socket__fd(x->xsk) : -1;
}

uint32_t afxdp_peek(struct afxdp *x, struct afxdp_frame *f, uint32_t max)
{
	const struct xdp_desc *d;
	uint32_t n, i, idx = 0;

	n = xsk_ring_cons__peek(&x->rx, max, &idx);
	if (!x->rx_seen)
		x->rx_idx = idx;
	for (i = 0; i < n; i++) {
		d = xsk_ring_cons__rx_desc(&x->rx, idx + i);
		f[i].data = xsk_umem__get_data(x->area, d->addr);
		f[i].len = d->len;
	}
	x->rx_seen += n;
	return n;
}

void afxdp_release(struct afxdp *x)
{
	uint32_t i, idx = 0;

	if (!x->rx_seen)
		return;
	/* every frame is in the fill ring, the RX ring or here: room */
	xsk_ring_prod__reserve(&x->fill, x->rx_seen, &idx);
	for (i = 0; i < x->rx_seen; i++)
		*xsk_ring_prod__fill_addr(&x->fill, idx + i) =
			xsk_ring_cons__rx_desc(&x->rx, x->rx_idx + i)->addr &
			~(uint64_t)(x->frame_size - 1);
	xsk_ring_prod__submit(&x->fill, x->rx_seen);
	xsk_ring_cons__release(&x->rx, x->rx_seen);
	x->rx_seen = 0;
}

int afxdp_wait(struct afxdp *x, int timeout_ms)
{
	struct pollfd p = { .fd = afxdp_fd(x), .events = POLLIN };
	int n;

	if (xsk_cons_nb_avail(&x->rx, 1))
		return 1;
	x->polls++;
	n = poll(&p, 1, timeout_ms);
	if (n < 0)
		return -errno;
	return n > 0;
}

int afxdp_dropped(const struct afxdp *x, uint64_t *dropped)
{
	struct xdp_statistics st;
	socklen_t len = sizeof(st);

	if (getsockopt(afxdp_fd(x), SOL_XDP, XDP_STATISTICS, &st, &len))
		return -errno;
	*dropped = st.rx_dropped + st.rx_ring_full;
	return 0;
}
