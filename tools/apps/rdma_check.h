/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The byte-exact RDMA check's protocol, run by both of its ends: `nicrdma
 * check` on a nicprog NIC's RoCEv2 engine and `rdmapeer` on any libibverbs
 * device (rdma_rxe in the tests). rdma-core's own tools move bytes but do
 * not look at them (ibv_rc_pingpong checks lengths, perftest nothing), so
 * this is ours; see Documentation/nicprog/rdma.rst.
 *
 * TCP (port 18516): each end sends one RC_HELLO_LEN-byte hello, "NRCHK1
 * QPN PSN GID RKEY VADDR SEED SIZES" (hex but the sizes, a comma list),
 * and refuses a peer whose seed or sizes are not its own. Each end has
 * one region of 2 x RC_MAX bytes: the first half is what the peer writes
 * and reads (the "area"), the second its own staging for SENDs, RECVs and
 * READs' answers. Then for each size, steps in this order, each made by
 * the TCP server's end (the "A" end) then by the client's (B):
 *   RDMA WRITE with immediate into the peer's area (the immediate names
 *   the step; the peer checks the area and the immediate), SEND into the
 *   peer's staging (the peer checks the length and the bytes), RDMA READ
 *   of the peer's area which the peer filled (the reader checks).
 * Per step: the passive end prepares (a RECV posted, or its area filled)
 * and sends 'R'; the active end acts, waits for its completion (a READ:
 * checks the bytes) and sends 'k' or 'x'; the passive end checks what it
 * received and sends 'k' or 'x'. The step passes when both are 'k'.
 */
#ifndef RDMA_CHECK_H
#define RDMA_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RC_PORT		18516
#define RC_HELLO_LEN	192
#define RC_MAX		(1u << 20)	/* the largest size a step moves */
#define RC_SIZES_MAX	16
#define RC_WAIT_MS	30000		/* one completion, at 1% loss too */

enum rc_op { RC_WRITE, RC_SEND, RC_READ, RC_OPS };

static const char *const rc_op_name[RC_OPS] = { "WRITE_IMM", "SEND", "READ" };

struct rc_hello {
	uint32_t qpn, psn, rkey;
	uint64_t vaddr, seed;
	unsigned char gid[16];
	char sizes[64];
};

/* The step's number: the immediate and the pattern's salt. */
static inline uint32_t rc_step(unsigned int size_idx, enum rc_op op, int b_end)
{
	return size_idx * 2 * RC_OPS + op * 2 + !!b_end;
}

/* The bytes step @step of @len carries: xorshift64 from seed and step. */
static inline void rc_fill(unsigned char *p, uint32_t len, uint64_t seed,
			   uint32_t step)
{
	uint64_t x = (seed + 1) * 0x9e3779b97f4a7c15ULL ^
		     ((uint64_t)step << 32 | len);
	uint32_t i;

	for (i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		p[i] = x >> 56;
	}
}

/* The first byte of @p that is not step @step's, or @len. */
static inline uint32_t rc_mismatch(const unsigned char *p, uint32_t len,
				   uint64_t seed, uint32_t step)
{
	unsigned char *want = malloc(len ? len : 1);
	uint32_t i = 0;

	if (!want)
		return 0;
	rc_fill(want, len, seed, step);
	while (i < len && p[i] == want[i])
		i++;
	free(want);
	return i;
}

/* "1,4097,65536" into @sizes (each 1..RC_MAX); the count, or -1. */
static inline int rc_parse_sizes(const char *s, uint32_t *sizes)
{
	int n = 0;
	char *end;

	while (*s && n < RC_SIZES_MAX) {
		unsigned long v = strtoul(s, &end, 0);

		if (end == s || !v || v > RC_MAX || (*end && *end != ','))
			return -1;
		sizes[n++] = v;
		s = *end ? end + 1 : end;
	}
	return *s ? -1 : n;
}

static inline void rc_hello_fmt(const struct rc_hello *h, char *msg)
{
	int i, n;

	memset(msg, 0, RC_HELLO_LEN);
	n = snprintf(msg, RC_HELLO_LEN, "NRCHK1 %06x %06x ", h->qpn, h->psn);
	for (i = 0; i < 16; i++)
		n += snprintf(msg + n, RC_HELLO_LEN - n, "%02x", h->gid[i]);
	snprintf(msg + n, RC_HELLO_LEN - n, " %08x %016llx %016llx %s",
		 h->rkey, (unsigned long long)h->vaddr,
		 (unsigned long long)h->seed, h->sizes);
}

static inline int rc_hello_parse(const char *msg, struct rc_hello *h)
{
	unsigned long long va, seed;
	char gid[33], buf[RC_HELLO_LEN + 1];
	unsigned int b;
	int i;

	memcpy(buf, msg, RC_HELLO_LEN);
	buf[RC_HELLO_LEN] = 0;
	if (sscanf(buf, "NRCHK1 %x %x %32s %x %llx %llx %63s", &h->qpn,
		   &h->psn, gid, &h->rkey, &va, &seed, h->sizes) != 7 ||
	    strlen(gid) != 32)
		return -1;
	for (i = 0; i < 16; i++) {
		if (sscanf(gid + 2 * i, "%2x", &b) != 1)
			return -1;
		h->gid[i] = b;
	}
	h->vaddr = va;
	h->seed = seed;
	return 0;
}

/*
 * An end's verbs, for rc_run(): each returns 0 or a negative errno, a
 * completion's error status as a positive number.
 */
struct rc_ops {
	/* one RECV of RC_MAX bytes into the staging half */
	int (*post_recv)(void *ctx);
	/* step @step's bytes into the area (@area) or the staging half */
	int (*fill)(void *ctx, int area, uint32_t len, uint32_t step);
	/* *bad: the first byte that is not step @step's, or @len */
	int (*check)(void *ctx, int area, uint32_t len, uint32_t step,
		     uint32_t *bad);
	/* @op of @len from/to the staging half, to/from the peer's area (a
	 * SEND: to its staging), and its completion waited for
	 */
	int (*post)(void *ctx, enum rc_op op, uint32_t len, uint32_t imm);
	/* the next RECV's completion: its length, and its immediate */
	int (*wait_recv)(void *ctx, uint32_t *byte_len, uint32_t *imm,
			 int *has_imm);
};

static inline int rc_read_token(int fd)
{
	char c;

	return read(fd, &c, 1) == 1 ? c : -1;
}

static inline int rc_write_token(int fd, char c)
{
	return write(fd, &c, 1) == 1 ? 0 : -1;
}

/* One step as the end that moves the bytes; a reason is put in @why. */
static inline int rc_active(int fd, const struct rc_ops *o, void *ctx,
			    enum rc_op op, uint32_t len, uint32_t step,
			    char *why, size_t wlen)
{
	uint32_t bad = len;
	int err;

	if (rc_read_token(fd) != 'R') {
		snprintf(why, wlen, "the peer did not get ready");
		return -1;
	}
	err = op == RC_READ ? 0 : o->fill(ctx, 0, len, step);
	if (!err)
		err = o->post(ctx, op, len, step);
	if (!err && op == RC_READ)
		err = o->check(ctx, 0, len, step, &bad);
	if (err)
		snprintf(why, wlen, "our %s: %s %d", rc_op_name[op],
			 err > 0 ? "completion status" : "error", err);
	else if (bad != len)
		snprintf(why, wlen, "what we read differs at byte %u", bad);
	err = err || bad != len;
	if (rc_write_token(fd, err ? 'x' : 'k'))
		return -1;
	if (err)
		return -1;
	if (rc_read_token(fd) != 'k') {
		snprintf(why, wlen, "the peer found the bytes wrong");
		return -1;
	}
	return 0;
}

/* One step as the end that is written, sent to or read from. */
static inline int rc_passive(int fd, const struct rc_ops *o, void *ctx,
			     enum rc_op op, uint32_t len, uint32_t step,
			     char *why, size_t wlen)
{
	uint32_t got = 0, imm = 0, bad = len;
	int err, has_imm = 0;

	err = op == RC_READ ? o->fill(ctx, 1, len, step) : o->post_recv(ctx);
	if (err) {
		snprintf(why, wlen, "cannot prepare: %d", err);
		return -1;
	}
	if (rc_write_token(fd, 'R'))
		return -1;
	if (rc_read_token(fd) != 'k') {
		snprintf(why, wlen, "the peer's %s failed", rc_op_name[op]);
		return -1;
	}
	if (op != RC_READ) {
		err = o->wait_recv(ctx, &got, &imm, &has_imm);
		if (err) {
			snprintf(why, wlen, "our RECV: %s %d",
				 err > 0 ? "completion status" : "error", err);
		} else if (op == RC_WRITE && (!has_imm || imm != step)) {
			snprintf(why, wlen, "immediate %s0x%x, not 0x%x",
				 has_imm ? "" : "missing, ", imm, step);
			err = -1;
		} else if (op == RC_SEND && got != len) {
			snprintf(why, wlen, "received %u bytes, not %u", got,
				 len);
			err = -1;
		} else {
			err = o->check(ctx, op == RC_WRITE, len, step, &bad);
			if (err)
				snprintf(why, wlen, "cannot read our buffer: %d",
					 err);
			else if (bad != len)
				snprintf(why, wlen,
					 "what we received differs at byte %u",
					 bad);
			err = err || bad != len;
		}
	}
	if (rc_write_token(fd, err ? 'x' : 'k'))
		return -1;
	return err ? -1 : 0;
}

/*
 * The whole check over the connected @fd; @a_end: this end is the TCP
 * server's. Prints one line a step; returns 0 when every step passed
 * (it stops at the first that does not).
 */
static inline int rc_run(int fd, int a_end, const uint32_t *sizes, int n,
			 const struct rc_ops *o, void *ctx,
			 const char *who)
{
	char why[160];
	int i, op, b, err;

	for (i = 0; i < n; i++)
		for (op = 0; op < RC_OPS; op++)
			for (b = 0; b < 2; b++) {
				uint32_t step = rc_step(i, op, b);
				int active = b != a_end;

				why[0] = 0;
				err = active ?
				      rc_active(fd, o, ctx, op, sizes[i], step,
						why, sizeof(why)) :
				      rc_passive(fd, o, ctx, op, sizes[i], step,
						 why, sizeof(why));
				printf("%s %u - %s %s %s %s %u B%s%s\n",
				       err ? "not ok" : "ok", step + 1,
				       active ? who : "peer", rc_op_name[op],
				       op == RC_READ ? "from" : "to",
				       active ? "peer" : "us", sizes[i],
				       why[0] ? ": " : "", why);
				if (err)
					return -1;
			}
	return 0;
}

#endif /* RDMA_CHECK_H */
