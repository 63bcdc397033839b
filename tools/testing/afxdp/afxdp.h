/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal AF_XDP receive socket, on the system calls alone (Debian 12's
 * libbpf 1.1 no longer has xsk.h and libxdp is not packaged): one UMEM of
 * equal frames, fill and RX rings, bound to one queue of a device. It is
 * the AF_XDP baseline of the tests and the benchmarks; a host XDP program
 * redirects to it through an XSKMAP (afxdp_fd() is the map value).
 */
#ifndef _NICPROG_AFXDP_H
#define _NICPROG_AFXDP_H

#include <stddef.h>
#include <stdint.h>

struct afxdp_ring {
	uint32_t *producer;
	uint32_t *consumer;
	void *descs;
	uint32_t mask;
	void *map;
	size_t map_len;
};

struct afxdp {
	int fd;
	uint8_t *umem;
	size_t umem_len;
	uint32_t frame_size;
	uint32_t n_frames;
	struct afxdp_ring fill;
	struct afxdp_ring comp;
	struct afxdp_ring rx;
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
