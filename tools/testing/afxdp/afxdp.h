/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal AF_XDP receive socket, on libxdp's xsk API (<xdp/xsk.h>,
 * Debian's libxdp-dev): one UMEM of equal frames, fill and RX rings,
 * bound to one queue of a device in copy mode. It is the AF_XDP baseline
 * of the tests and the benchmarks; their host XDP program redirects to it
 * through an XSKMAP (afxdp_fd() is the map value), so libxdp loads no
 * program of its own.
 */
#ifndef _NICPROG_AFXDP_H
#define _NICPROG_AFXDP_H

#include <stddef.h>
#include <stdint.h>
#include <xdp/xsk.h>

struct afxdp {
	struct xsk_umem *umem;
	struct xsk_socket *xsk;
	struct xsk_ring_prod fill;
	struct xsk_ring_cons comp;
	struct xsk_ring_cons rx;
	uint8_t *area;
	size_t area_len;
	uint32_t frame_size;
	uint32_t n_frames;
	uint32_t rx_idx;	/* first RX entry handed out, not yet released */
	uint32_t rx_seen;	/* RX entries handed out, not yet released */
	uint64_t polls;		/* poll() calls made */
};

/* One received frame: in the UMEM, valid until afxdp_release(). */
struct afxdp_frame {
	const uint8_t *data;
	uint32_t len;
};

/*
 * Create the socket on @ifname's queue @queue in copy mode (XDP_COPY) with
 * @n_frames frames of 4096 bytes (a power of two), all given to the fill
 * ring. Return 0, or -errno with a message in @err.
 */
int afxdp_open(struct afxdp *x, const char *ifname, uint32_t queue,
	       uint32_t n_frames, char *err, size_t errlen);
void afxdp_close(struct afxdp *x);
int afxdp_fd(const struct afxdp *x);

/* Up to @max frames received and not yet seen; no system call. */
uint32_t afxdp_peek(struct afxdp *x, struct afxdp_frame *f, uint32_t max);
/* Give back every frame afxdp_peek() handed out (to the fill ring). */
void afxdp_release(struct afxdp *x);
/* Wait up to @timeout_ms for a frame: 1 if one is there, 0, -errno. */
int afxdp_wait(struct afxdp *x, int timeout_ms);
/* Frames the socket dropped for want of a fill entry or RX room. */
int afxdp_dropped(const struct afxdp *x, uint64_t *dropped);

#endif
