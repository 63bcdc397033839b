/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * libnicring - applications on nicprog's streaming rings
 * (Documentation/nicprog/rings.rst), on liburing (and libmnl, to find a
 * port's device by its interface name).
 *
 *   struct nicring *r = nicring_open("eth0", &err);
 *   struct nicring_pipe *rx = nicring_rx(r, 1 << 20, NICPROG_FRAMING_RECORDS, 0);
 *   struct nicring_rec recs[64];
 *
 *   for (;;) {
 *           int n = nicring_peek(rx, recs, 64);     // no system call
 *
 *           if (!n) {
 *                   nicring_wait(r, 1000);          // only when idle
 *                   continue;
 *           }
 *           ... recs[i].data, recs[i].len ...
 *           nicring_release(rx, n);
 *   }
 *
 * A stream pipe (NICPROG_FRAMING_STREAM) is read as bytes instead:
 * nicring_read() gives (pointer, length) of all that arrived, contiguous,
 * and nicring_consume() releases a prefix of it.
 *
 * Receiving costs no system call while records keep coming: the pipes'
 * tails are read from shared memory, and a wait enters the kernel only
 * when every pipe is drained. It sleeps on a multishot poll of the device,
 * submitted once: a steady stream needs no new submissions. A pipe bound
 * with notification moderation (nicring_rx_bind(), coalesce_usecs) wakes
 * its application once per batch of that many microseconds or bytes
 * instead of once per burst of the NIC's. Every function returns a
 * negative errno on failure. Not thread-safe: one thread per struct
 * nicring.
 */
#ifndef __NICRING_H
#define __NICRING_H

#include <stddef.h>
#include <stdint.h>
#include <linux/nicprog.h>

#ifdef __cplusplus
extern "C" {
#endif

struct nicring;
struct nicring_pipe;

/* One record of an RX pipe: a frame the NF steered there. */
struct nicring_rec {
	void *data;	/* in the pipe's mapping: may be rewritten in place */
	uint32_t len;
};

/* What the application cost the kernel so far. */
struct nicring_stats {
	uint64_t commands;	/* io_uring commands completed */
	uint64_t submits;	/* io_uring_enter() calls that submitted */
	uint64_t waits;		/* waits that slept (io_uring_enter() to reap) */
	uint64_t notifications;	/* notification entries read */
	uint64_t records;	/* records peeked (streams: reads finding bytes) */
	uint64_t syscalls;	/* io_uring_enter() calls in all */
};

int nicring_node(const char *ifname, char *path, size_t size);
struct nicring *nicring_open(const char *ifname, int *err);
struct nicring *nicring_open_fd(int fd, int *err);
void nicring_close(struct nicring *r);
int nicring_restrict(struct nicring *r, uint32_t allow);

struct nicring_pipe *nicring_rx(struct nicring *r, uint32_t size,
				uint32_t framing, uint32_t output, int *err);
struct nicring_pipe *nicring_rx_flags(struct nicring *r, uint32_t size,
				      uint32_t framing, uint32_t output,
				      uint32_t flags, int *err);
struct nicring_pipe *nicring_rx_bind(struct nicring *r, uint32_t size,
				     uint32_t framing,
				     const struct nicprog_pipe_bind *bind,
				     int *err);
struct nicring_pipe *nicring_tx(struct nicring *r, uint32_t size,
				struct nicring_pipe *share, int *err);
struct nicring_pipe *nicring_attach(struct nicring *r, uint32_t id,
				    uint32_t size, int *err);
int nicring_pipe_free(struct nicring_pipe *p);

int nicring_peek(struct nicring_pipe *p, struct nicring_rec *recs, int max);
void nicring_release(struct nicring_pipe *p, int n);
int64_t nicring_read(struct nicring_pipe *p, void **data);
void nicring_consume(struct nicring_pipe *p, uint64_t n);
int nicring_wait(struct nicring *r, uint32_t timeout_ms);
uint64_t nicring_now_ms(void);
int nicring_wait_idle(struct nicring *r, uint64_t since_ms, uint32_t idle_ms);
int nicring_next(struct nicring_pipe *p, struct nicring_rec *recs, int max,
		 uint32_t idle_ms);

int nicring_append(struct nicring_pipe *tx, const void *buf, uint32_t len);
int nicring_forward(struct nicring_pipe *tx, struct nicring_pipe *rx, int n);
int nicring_send(struct nicring_pipe *tx);

uint64_t nicring_drops(const struct nicring_pipe *p);
void nicring_get_stats(const struct nicring *r, struct nicring_stats *s);
int nicring_command(struct nicring *r, uint32_t op, void *arg, uint32_t len);

/*
 * NIC memory and RDMA (Documentation/nicprog/rdma.rst), on the same
 * device and ring: buffers in the NIC's memory, copied by its DMA
 * engines; QPs of its RoCEv2 engine, regions over the buffers, WRs posted
 * a batch per doorbell, completions polled (timeout 0: busy polling).
 */
int nicring_mem_alloc(struct nicring *r, uint64_t size, uint32_t region,
		      uint32_t *id);
int nicring_mem_free(struct nicring *r, uint32_t id);
int nicring_mem_copy(struct nicring *r, uint32_t id, uint32_t dir,
		     uint64_t offset, void *p, uint64_t len);
int nicring_qp_create(struct nicring *r, struct nicprog_qp_create *a);
int nicring_qp_connect(struct nicring *r, const struct nicprog_qp_connect *a);
int nicring_qp_destroy(struct nicring *r, uint32_t qpn);
int nicring_mr_reg(struct nicring *r, struct nicprog_mr_reg *a);
int nicring_mr_dereg(struct nicring *r, uint32_t lkey);
int nicring_post(struct nicring *r, const struct nicprog_rdma_wr *wrs,
		 uint32_t n);
int nicring_poll_cq(struct nicring *r, struct nicprog_rdma_wc *wcs,
		    uint32_t max, uint32_t timeout_ms);

/*
 * Lookaside kernels: an XDP program loaded for the NIC (prog_ifindex)
 * made a kernel of the handle's; a job run on it, waited for.
 */
int nicring_kernel_load(struct nicring *r, int prog_fd, uint32_t *id);
int nicring_kernel_unload(struct nicring *r, uint32_t id);
int nicring_job(struct nicring *r, const struct nicprog_job *job);
int nicring_command_post(struct nicring *r, uint32_t op, void *arg,
			 uint32_t len, uint64_t tag);
int nicring_command_reap(struct nicring *r, uint64_t *tag, int *res,
			 int spin);
int nicring_job_post(struct nicring *r, struct nicprog_job *job,
		     uint64_t tag);

#ifdef __cplusplus
}
#endif

#endif /* __NICRING_H */
