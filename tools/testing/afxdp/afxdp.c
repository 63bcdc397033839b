// SPDX-License-Identifier: GPL-2.0
/*
 * A minimal AF_XDP receive socket in copy mode (afxdp.h). The rings follow
 * Documentation/networking/af_xdp.rst: the kernel produces RX entries and
 * consumes fill entries; indices are free-running, read with acquire and
 * published with release ordering.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <net/if.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/if_xdp.h>

#include "afxdp.h"

#ifndef AF_XDP
#define AF_XDP 44
#endif
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

static uint32_t load_acquire(const uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void store_release(uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

static int ring_map(struct afxdp *x, struct afxdp_ring *r,
		    const struct xdp_ring_offset *off, uint32_t n,
		    size_t desc_size, off_t pgoff)
{
	r->map_len = off->desc + n * desc_size;
	r->map = mmap(NULL, r->map_len, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_POPULATE, x->fd, pgoff);
	if (r->map == MAP_FAILED) {
		r->map = NULL;
		return -errno;
	}
	r->producer = (uint32_t *)((uint8_t *)r->map + off->producer);
	r->consumer = (uint32_t *)((uint8_t *)r->map + off->consumer);
	r->descs = (uint8_t *)r->map + off->desc;
	r->mask = n - 1;
	return 0;
}

int afxdp_open(struct afxdp *x, const char *ifname, uint32_t queue,
	       uint32_t n_frames, char *err, size_t errlen)
{
	struct xdp_umem_reg reg = { 0 };
	struct xdp_mmap_offsets off;
	struct sockaddr_xdp sxdp = { 0 };
	socklen_t optlen = sizeof(off);
	unsigned int ifindex;
	uint64_t *fill;
	uint32_t i;
	int e;

	memset(x, 0, sizeof(*x));
	x->fd = -1;
	if (!n_frames || (n_frames & (n_frames - 1)))
		return fail(err, errlen, EINVAL, "%u frames: not a power of two",
			    n_frames);
	ifindex = if_nametoindex(ifname);
	if (!ifindex)
		return fail(err, errlen, errno, "%s", ifname);
	x->frame_size = AFXDP_FRAME_SIZE;
	x->n_frames = n_frames;
	x->umem_len = (size_t)n_frames * x->frame_size;
	x->umem = mmap(NULL, x->umem_len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (x->umem == MAP_FAILED) {
		x->umem = NULL;
		return fail(err, errlen, errno, "UMEM of %zu bytes", x->umem_len);
	}
	x->fd = socket(AF_XDP, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (x->fd < 0) {
		e = fail(err, errlen, errno, "socket(AF_XDP)");
		goto out;
	}
	reg.addr = (uintptr_t)x->umem;
	reg.len = x->umem_len;
	reg.chunk_size = x->frame_size;
	if (setsockopt(x->fd, SOL_XDP, XDP_UMEM_REG, &reg, sizeof(reg)) ||
	    setsockopt(x->fd, SOL_XDP, XDP_UMEM_FILL_RING, &n_frames,
		       sizeof(n_frames)) ||
	    setsockopt(x->fd, SOL_XDP, XDP_UMEM_COMPLETION_RING, &n_frames,
		       sizeof(n_frames)) ||
	    setsockopt(x->fd, SOL_XDP, XDP_RX_RING, &n_frames,
		       sizeof(n_frames))) {
		e = fail(err, errlen, errno, "AF_XDP UMEM and rings");
		goto out;
	}
	if (getsockopt(x->fd, SOL_XDP, XDP_MMAP_OFFSETS, &off, &optlen)) {
		e = fail(err, errlen, errno, "XDP_MMAP_OFFSETS");
		goto out;
	}
	e = ring_map(x, &x->fill, &off.fr, n_frames, sizeof(uint64_t),
		     XDP_UMEM_PGOFF_FILL_RING);
	if (!e)
		e = ring_map(x, &x->comp, &off.cr, n_frames, sizeof(uint64_t),
			     XDP_UMEM_PGOFF_COMPLETION_RING);
	if (!e)
		e = ring_map(x, &x->rx, &off.rx, n_frames,
			     sizeof(struct xdp_desc), XDP_PGOFF_RX_RING);
	if (e) {
		e = fail(err, errlen, -e, "mapping the AF_XDP rings");
		goto out;
	}
	fill = x->fill.descs;
	for (i = 0; i < n_frames; i++)
		fill[i] = (uint64_t)i * x->frame_size;
	store_release(x->fill.producer, n_frames);

	sxdp.sxdp_family = AF_XDP;
	sxdp.sxdp_flags = XDP_COPY;
	sxdp.sxdp_ifindex = ifindex;
	sxdp.sxdp_queue_id = queue;
	if (bind(x->fd, (struct sockaddr *)&sxdp, sizeof(sxdp))) {
		e = fail(err, errlen, errno, "bind to %s queue %u in copy mode",
			 ifname, queue);
		goto out;
	}
	return 0;
out:
	afxdp_close(x);
	return e;
}

void afxdp_close(struct afxdp *x)
{
	struct afxdp_ring *r[] = { &x->fill, &x->comp, &x->rx };
	unsigned int i;

	for (i = 0; i < sizeof(r) / sizeof(r[0]); i++)
		if (r[i]->map)
			munmap(r[i]->map, r[i]->map_len);
	if (x->fd >= 0)
		close(x->fd);
	if (x->umem)
		munmap(x->umem, x->umem_len);
	memset(x, 0, sizeof(*x));
	x->fd = -1;
}

int afxdp_fd(const struct afxdp *x)
{
	return x->fd;
}

uint32_t afxdp_peek(struct afxdp *x, struct afxdp_frame *f, uint32_t max)
{
	const struct xdp_desc *d = x->rx.descs;
	uint32_t cons = *x->rx.consumer + x->rx_seen;
	uint32_t n = load_acquire(x->rx.producer) - cons, i;

	if (n > max)
		n = max;
	for (i = 0; i < n; i++) {
		const struct xdp_desc *e = &d[(cons + i) & x->rx.mask];

		f[i].data = x->umem + e->addr;
		f[i].len = e->len;
	}
	x->rx_seen += n;
	return n;
}

void afxdp_release(struct afxdp *x)
{
	const struct xdp_desc *d = x->rx.descs;
	uint32_t cons = *x->rx.consumer, prod = *x->fill.producer, i;
	uint64_t *fill = x->fill.descs;

	/* every frame is in the fill ring, the RX ring or here: room */
	for (i = 0; i < x->rx_seen; i++)
		fill[(prod + i) & x->fill.mask] =
			d[(cons + i) & x->rx.mask].addr &
			~(uint64_t)(x->frame_size - 1);
	store_release(x->fill.producer, prod + x->rx_seen);
	store_release(x->rx.consumer, cons + x->rx_seen);
	x->rx_seen = 0;
}

int afxdp_wait(struct afxdp *x, int timeout_ms)
{
	struct pollfd p = { .fd = x->fd, .events = POLLIN };
	int n;

	if (load_acquire(x->rx.producer) != *x->rx.consumer + x->rx_seen)
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

	if (getsockopt(x->fd, SOL_XDP, XDP_STATISTICS, &st, &len))
		return -errno;
	*dropped = st.rx_dropped + st.rx_ring_full;
	return 0;
}
