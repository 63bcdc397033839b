// SPDX-License-Identifier: GPL-2.0
/*
 * The NIC's RoCEv2 engine against itself: two wired ports of a nicsim
 * NIC, a QP on each (libnicring), regions over NIC buffers.
 *
 *   rdma_test P0 P1 cases SEED ROUNDS	the cases below, TAP
 *   rdma_test P0 P1 xfer SEED		only the byte-exact transfers (run
 *					again over a lossy wire)
 *   rdma_test P0 P1 hold SEED		WRITEs both ways until the device
 *					goes: "held QPN0 QPN1" first, "gone"
 *					then
 *   rdma_test P0 P1 kpost SEED OBJ	a lookaside kernel (OBJ:
 *					bpf/lookaside/sumwrite.o) posts RDMA
 *					work from its jobs, TAP
 *   rdma_test P0 P1 eperm SEED		exit 0 if QP_CREATE is EPERM (run
 *					without CAP_NET_ADMIN)
 *
 * Transfers are checked byte for byte against the bytes sent; refusals
 * for their errno or WC status; every case checks that nothing was
 * written to the peer's buffer outside the region it registered.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <net/if.h>

#include "check.h"
#include "../../tools/lib/nicring/nicring.h"

#define MiB		(1U << 20)
#define BUF		(2 * MiB + 8192)	/* region: [4096, 4096 + 2 MiB) */
#define ROFF		4096
#define RLEN		(2 * MiB)
#define IOVA		0x7f0000000000ULL

static uint64_t seed;

static uint32_t rnd(void)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return seed >> 33;
}

/* One side: a port's file, its buffer, region and QP. */
struct side {
	const char *ifname;
	struct nicring *r;
	uint32_t buf;
	struct nicprog_mr_reg mr;
	uint32_t qpn;
	uint8_t mac[6];
	uint8_t ip;
	uint8_t *mem;	/* the host's copy of what is sent or read back */
};

static struct side a, b;

static void side_open(struct side *s, const char *ifname, uint8_t ip)
{
	char path[128];
	FILE *f;
	int err;

	s->ifname = ifname;
	s->ip = ip;
	s->r = nicring_open(ifname, &err);
	if (!s->r)
		ksft_exit_fail_msg("open %s: %s\n", ifname, strerror(-err));
	snprintf(path, sizeof(path), "/sys/class/net/%s/address", ifname);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &s->mac[0],
			 &s->mac[1], &s->mac[2], &s->mac[3], &s->mac[4],
			 &s->mac[5]) != 6)
		ksft_exit_fail_msg("%s: no MAC\n", ifname);
	fclose(f);
	s->mem = calloc(1, BUF);
	if (!s->mem || nicring_mem_alloc(s->r, BUF, NICPROG_MEM_REGION_ANY,
					 &s->buf))
		ksft_exit_fail_msg("%s: no buffer\n", ifname);
	s->mr = (struct nicprog_mr_reg){
		.buf = s->buf, .access = NICPROG_ACCESS_ALL, .offset = ROFF,
		.len = RLEN, .iova = IOVA + ip * 0x100000000ULL,
	};
	err = nicring_mr_reg(s->r, &s->mr);
	if (err)
		ksft_exit_fail_msg("%s: region: %s\n", ifname, strerror(-err));
}

static void gid(uint8_t *g, uint8_t ip)
{
	memset(g, 0, 16);
	g[10] = g[11] = 0xff;
	g[12] = 10;
	g[13] = 88;
	g[15] = ip;
}

static int qp_new(struct side *s)
{
	struct nicprog_qp_create q = { .sq_depth = 64, .rq_depth = 64 };
	int err;

	gid(q.gid, s->ip);
	err = nicring_qp_create(s->r, &q);
	s->qpn = q.qpn;
	return err;
}

static int qp_connect(struct side *s, const struct side *peer, uint32_t sq,
		      uint32_t rq, uint32_t timeout_ms)
{
	struct nicprog_qp_connect c = {
		.qpn = s->qpn, .dest_qpn = peer->qpn, .sq_psn = sq,
		.rq_psn = rq, .mtu = 1024, .timeout_ms = timeout_ms,
		.retry_cnt = 7, .max_rd_atomic = NICPROG_RDMA_RD_ATOMIC_MAX,
	};

	gid(c.dgid, peer->ip);
	memcpy(c.dmac, peer->mac, 6);
	return nicring_qp_connect(s->r, &c);
}

/* A fresh connected pair (the old QPs destroyed). */
static void pair_new(void)
{
	uint32_t pa = rnd() & 0xffffff, pb = rnd() & 0xffffff;

	if (a.qpn)
		nicring_qp_destroy(a.r, a.qpn);
	if (b.qpn)
		nicring_qp_destroy(b.r, b.qpn);
	if (qp_new(&a) || qp_new(&b) || qp_connect(&a, &b, pa, pb, 50) ||
	    qp_connect(&b, &a, pb, pa, 50))
		ksft_exit_fail_msg("cannot connect a QP pair\n");
}

static int post1(struct side *s, uint8_t op, uint64_t id, uint32_t lkey,
		 uint64_t addr, uint32_t len, uint64_t raddr, uint32_t rkey,
		 uint32_t imm)
{
	struct nicprog_rdma_wr wr = {
		.wr_id = id, .qpn = s->qpn, .opcode = op,
		.flags = NICPROG_WR_SIGNALED, .lkey = lkey, .len = len,
		.addr = addr, .raddr = raddr, .rkey = rkey, .imm = imm,
	};

	return nicring_post(s->r, &wr, 1);
}

/* The next WC of @s within 10 s; status 0xff if none came. */
static struct nicprog_rdma_wc wc1(struct side *s)
{
	struct nicprog_rdma_wc wc = { .status = 0xff };
	int i;

	for (i = 0; i < 4; i++)
		if (nicring_poll_cq(s->r, &wc, 1, 2500) == 1)
			break;
	return wc;
}

static void fill(uint8_t *p, uint32_t n, uint32_t s)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)((i * 2654435761U + s * 40503U) >> 11);
}

static int to_nic(struct side *s, uint32_t off, uint32_t len)
{
	while (len) {
		uint32_t n = len < 4 * MiB ? len : 4 * MiB;

		if (nicring_mem_copy(s->r, s->buf, NICPROG_MEM_TO_NIC, off,
				     s->mem + off, n) != (int)n)
			return -1;
		off += n;
		len -= n;
	}
	return 0;
}

/* Does the NIC buffer of @s equal its host copy, all of it? */
static int same(struct side *s)
{
	uint8_t *got = malloc(BUF);
	int ok = got && nicring_mem_copy(s->r, s->buf, NICPROG_MEM_FROM_NIC,
					 0, got, 4 * MiB < BUF ? 4 * MiB : BUF)
		 >= 0;
	uint32_t i;

	ok = ok && nicring_mem_copy(s->r, s->buf, NICPROG_MEM_FROM_NIC, 0,
				    got, BUF) == BUF && !memcmp(got, s->mem, BUF);
	if (got && !ok)
		for (i = 0; i < BUF; i++)
			if (got[i] != s->mem[i]) {
				ksft_print_msg("%s: byte %u is %u, expected %u\n",
					       s->ifname, i, got[i], s->mem[i]);
				break;
			}
	free(got);
	return ok;
}

static const uint32_t sizes[] = { 1, 3, 1023, 1024, 1025, 4096, 65537,
				  MiB, 2 * MiB };

/*
 * READs, WRITEs and SENDs in flight together, one doorbell: a READ's
 * answer lost while later WRs are acknowledged must still be asked for
 * again. Disjoint ranges, each 64 KiB; the bytes are checked by same().
 */
static int batch(const char *what)
{
	struct nicprog_rdma_wr wr[24], rw[8];
	struct nicprog_rdma_wc wc[24];
	uint32_t k, len = 65536, off, n = 0, got = 0, r = 0;
	int bad = 0, m;

	pair_new();
	for (k = 0; k < 24; k++) {
		uint8_t op = k % 3 == 0 ? NICPROG_WR_READ :
			     k % 3 == 1 ? NICPROG_WR_WRITE : NICPROG_WR_SEND;

		off = ROFF + k * len;
		if (op == NICPROG_WR_READ) {
			fill(b.mem + off, len, rnd());
			to_nic(&b, off, len);
			memcpy(a.mem + off, b.mem + off, len);
		} else {
			fill(a.mem + off, len, rnd());
			to_nic(&a, off, len);
			memcpy(b.mem + off, a.mem + off, len);
		}
		if (op == NICPROG_WR_SEND)
			rw[r++] = (struct nicprog_rdma_wr){
				.wr_id = k, .qpn = b.qpn,
				.opcode = NICPROG_WR_RECV, .lkey = b.mr.lkey,
				.len = len, .addr = b.mr.iova + off - ROFF,
			};
		wr[n++] = (struct nicprog_rdma_wr){
			.wr_id = k, .qpn = a.qpn, .opcode = op,
			.flags = NICPROG_WR_SIGNALED, .lkey = a.mr.lkey,
			.len = len, .addr = a.mr.iova + off - ROFF,
			.raddr = b.mr.iova + off - ROFF, .rkey = b.mr.rkey,
		};
	}
	if (nicring_post(b.r, rw, r) != (int)r ||
	    nicring_post(a.r, wr, n) != (int)n)
		return 1;
	while (got < n) {
		m = nicring_poll_cq(a.r, wc, 24, 10000);
		if (m <= 0)
			break;
		for (k = 0; k < (uint32_t)m; k++)
			if (wc[k].status || wc[k].wr_id != wr[got + k].wr_id) {
				if (bad++ < 3)
					ksft_print_msg("%s: batch WC %u: wr %llu status %u, expected wr %llu\n",
						       what, got + k,
						       (unsigned long long)wc[k].wr_id,
						       wc[k].status,
						       (unsigned long long)wr[got + k].wr_id);
			}
		got += m;
	}
	for (k = 0; k < r; k++) {
		struct nicprog_rdma_wc v = wc1(&b);

		if (v.status && bad++ < 6)
			ksft_print_msg("%s: batch receive %u: status %u\n", what,
				       k, v.status);
	}
	if (got != n || bad)
		ksft_print_msg("%s: a batch of %u: %u completed, %d bad\n", what,
			       n, got, bad);
	return got != n || bad;
}

/* SEND, SEND_IMM, WRITE, WRITE_IMM and READ, both ways, byte-exact. */
static int transfers(const char *what)
{
	struct side *x, *y;
	struct nicprog_rdma_wc w, v;
	unsigned int i, dir, op, bad = 0;
	uint32_t len, so, ro;

	pair_new();
	for (dir = 0; dir < 2; dir++) {
		x = dir ? &b : &a;
		y = dir ? &a : &b;
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
			for (op = NICPROG_WR_SEND; op <= NICPROG_WR_READ; op++) {
				len = sizes[i];
				so = ROFF + rnd() % (RLEN - len + 1);
				ro = ROFF + rnd() % (RLEN - len + 1);
				if (op == NICPROG_WR_READ) {
					fill(y->mem + ro, len, rnd());
					to_nic(y, ro, len);
					memcpy(x->mem + so, y->mem + ro, len);
				} else {
					fill(x->mem + so, len, rnd());
					to_nic(x, so, len);
					memcpy(y->mem + ro, x->mem + so, len);
				}
				if (op != NICPROG_WR_WRITE &&
				    op != NICPROG_WR_READ &&
				    post1(y, NICPROG_WR_RECV, 7, y->mr.lkey,
					  y->mr.iova + ro - ROFF,
					  op == NICPROG_WR_WRITE_IMM ? 0 : len,
					  0, 0, 0) != 1)
					bad++;
				if (post1(x, op, 9, x->mr.lkey,
					  x->mr.iova + so - ROFF, len,
					  y->mr.iova + ro - ROFF, y->mr.rkey,
					  0xabc000 + i) != 1)
					bad++;
				w = wc1(x);
				if (w.status || w.wr_id != 9) {
					if (bad++ < 4)
						ksft_print_msg("%s: %s op %u len %u: status %u\n",
							       what, x->ifname, op, len,
							       w.status);
					pair_new();
					continue;
				}
				if (op == NICPROG_WR_WRITE || op == NICPROG_WR_READ)
					continue;
				v = wc1(y);
				if (v.status || v.wr_id != 7 || v.byte_len != len ||
				    !!(v.flags & NICPROG_WC_IMM) !=
				    (op != NICPROG_WR_SEND) ||
				    (op != NICPROG_WR_SEND && v.imm != 0xabc000 + i) ||
				    v.opcode != (op == NICPROG_WR_WRITE_IMM ?
						 NICPROG_WR_WRITE_IMM :
						 NICPROG_WR_RECV)) {
					if (bad++ < 4)
						ksft_print_msg("%s: receiver of op %u len %u: status %u len %u flags %u imm %x\n",
							       what, op, len, v.status,
							       v.byte_len, v.flags, v.imm);
				}
			}
	}
	bad += batch(what);
	if (!same(&a) || !same(&b))
		bad++;
	return bad;
}

/* A WR the peer must refuse: its WC status, and the peer unchanged. */
static int refused(uint8_t op, uint64_t raddr, uint32_t rkey, uint32_t len,
		   uint8_t expect, const char *what)
{
	struct nicprog_rdma_wc w;
	int ok;

	pair_new();
	if (post1(&a, op, 5, a.mr.lkey, a.mr.iova, len, raddr, rkey, 0) != 1)
		return 0;
	w = wc1(&a);
	ok = w.status == expect && same(&b);
	if (!ok)
		ksft_print_msg("%s: status %u, expected %u\n", what, w.status,
			       expect);
	/* the QP failed: its next WR is refused at the doorbell */
	ok &= post1(&a, op, 6, a.mr.lkey, a.mr.iova, 8, raddr, rkey, 0) ==
	      -EINVAL;
	return ok;
}

static void test_remote_refusals(void)
{
	uint64_t end = b.mr.iova + RLEN;
	struct nicprog_mr_reg ro = {
		.buf = b.buf, .access = NICPROG_ACCESS_LOCAL_WRITE, .offset = 0,
		.len = 4096, .iova = 0x1000,
	};
	int ok = 1;

	ok &= refused(NICPROG_WR_WRITE, b.mr.iova, b.mr.rkey ^ 0x80, 64,
		      NICPROG_WC_REM_ACCESS_ERR, "WRITE, a wrong rkey");
	ok &= refused(NICPROG_WR_WRITE, end - 32, b.mr.rkey, 64,
		      NICPROG_WC_REM_ACCESS_ERR, "WRITE past the region");
	ok &= refused(NICPROG_WR_READ, end - 32, b.mr.rkey, 64,
		      NICPROG_WC_REM_ACCESS_ERR, "READ past the region");
	ok &= refused(NICPROG_WR_READ, b.mr.iova - 1, b.mr.rkey, 4,
		      NICPROG_WC_REM_ACCESS_ERR, "READ before the region");
	ok &= !nicring_mr_reg(b.r, &ro);
	ok &= refused(NICPROG_WR_WRITE, 0x1000, ro.rkey, 64,
		      NICPROG_WC_REM_ACCESS_ERR,
		      "WRITE to a region without remote write");
	ok &= refused(NICPROG_WR_READ, 0x1000, ro.rkey, 64,
		      NICPROG_WC_REM_ACCESS_ERR,
		      "READ of a region without remote read");
	ok &= !nicring_mr_dereg(b.r, ro.lkey);
	/* the local side: a key of the peer's file is not ours */
	pair_new();
	ok &= post1(&a, NICPROG_WR_SEND, 3, b.mr.lkey, b.mr.iova, 8, 0, 0, 0)
	      == 1 && wc1(&a).status == NICPROG_WC_LOC_PROT_ERR;
	RESULT(ok, "bad rkeys, ranges and access refused by the peer (REM_ACCESS_ERR), another file's lkey locally (LOC_PROT_ERR); the QP fails, nothing written\n");
}

/* RNR: a SEND with no RECV posted is retried, then completes when one is. */
static void test_rnr(void)
{
	struct nicprog_rdma_wc w, v;
	int ok;

	pair_new();
	fill(a.mem + ROFF, 100, 77);
	to_nic(&a, ROFF, 100);
	memcpy(b.mem + ROFF + 8192, a.mem + ROFF, 100);
	ok = post1(&a, NICPROG_WR_SEND, 1, a.mr.lkey, a.mr.iova, 100, 0, 0,
		   0) == 1;
	/* no receive for a few of the sender's RNR retries */
	ok &= nicring_poll_cq(a.r, &w, 1, 20) == 0;
	ok &= post1(&b, NICPROG_WR_RECV, 2, b.mr.lkey, b.mr.iova + 8192, 100,
		    0, 0, 0) == 1;
	w = wc1(&a);
	v = wc1(&b);
	ok &= !w.status && !v.status && v.byte_len == 100 && same(&b);
	RESULT(ok, "a SEND finding no RECV is NAKed (RNR) and lands once one is posted (%u, %u)\n",
	       w.status, v.status);
}

/* Commands that are refused before anything happens. */
/* Work requests a post refuses, each a near miss of the good @w. */
static int posts_refused(const struct nicprog_rdma_wr *w)
{
	struct {
		const char *what;
		struct nicprog_rdma_wr wr;
		int err;
	} bad[] = {
		{ "opcode 0", *w, -EINVAL }, { "opcode 7", *w, -EINVAL },
		{ "flags", *w, -EINVAL }, { "rsvd", *w, -EINVAL },
		{ "length past the largest message", *w, -EINVAL }, { "no such QP", *w, -ENOENT },
	};
	int ok = 1, err, i;

	bad[0].wr.opcode = 0;
	bad[1].wr.opcode = __NICPROG_WR_MAX;
	bad[2].wr.flags = 0x80;
	bad[3].wr.__rsvd = 1;
	bad[4].wr.len = NICPROG_RDMA_MSG_MAX + 1;
	bad[5].wr.qpn = 0xfffff0;
	for (i = 0; i < (int)(sizeof(bad) / sizeof(bad[0])); i++) {
		err = nicring_post(a.r, &bad[i].wr, 1);
		if (err != bad[i].err) {
			ksft_print_msg("post %s: %d, expected %d\n", bad[i].what,
				       err, bad[i].err);
			ok = 0;
		}
	}
	return ok;
}

static void test_commands(void)
{
	struct nicprog_rdma_wr wrs[2] = {}, w;
	struct nicprog_rdma_wc wc;
	struct nicprog_qp_create qc = { .sq_depth = 4, .rq_depth = 4 };
	struct nicprog_qp_connect qn = { .mtu = 1024, .timeout_ms = 10 };
	struct nicprog_mr_reg mr = { .buf = a.buf, .len = 16 };
	struct nicprog_post p = { .n = 1, .wr_size = sizeof(w) };
	struct nicring *c;
	int ok = 1, err, i;

	pair_new();
	w = (struct nicprog_rdma_wr){ .qpn = a.qpn, .opcode = NICPROG_WR_SEND,
				      .lkey = a.mr.lkey, .len = 8,
				      .addr = a.mr.iova };
	ok = posts_refused(&w);
	wrs[0] = w;
	wrs[1] = w;
	wrs[1].qpn = a.qpn + 1000;
	CHK(nicring_post(a.r, wrs, 2) == -EINVAL);	/* two QPs */
	p.wrs = (uintptr_t)&w;
	p.wr_size = sizeof(w) - 8;
	CHK(nicring_command(a.r, NICPROG_U_OP_POST, &p, sizeof(p)) == -EINVAL);
	p.wr_size = sizeof(w);
	p.n = NICPROG_RDMA_POST_MAX + 1;
	CHK(nicring_command(a.r, NICPROG_U_OP_POST, &p, sizeof(p)) == -EINVAL);
	p.n = 1;
	p.wrs = 8;
	CHK(nicring_command(a.r, NICPROG_U_OP_POST, &p, sizeof(p)) == -EFAULT);
	/* a queue of 4: the fifth is ENOSPC, with none of a post of 5 taken */
	qc.gid[10] = qc.gid[11] = 0xff;
	CHK(!nicring_qp_create(a.r, &qc));
	{
		struct nicprog_rdma_wr r5[5];

		for (i = 0; i < 5; i++)
			r5[i] = (struct nicprog_rdma_wr){
				.qpn = qc.qpn, .opcode = NICPROG_WR_RECV,
				.lkey = a.mr.lkey, .len = 8, .addr = a.mr.iova,
			};
		CHK(nicring_post(a.r, r5, 5) == -ENOSPC &&
		      nicring_post(a.r, r5, 4) == 4 &&
		      nicring_post(a.r, r5, 1) == -ENOSPC);
		/* not connected: a send-side WR is refused */
		r5[0].opcode = NICPROG_WR_SEND;
		CHK(nicring_post(a.r, r5, 1) == -EINVAL);
	}
	qn.qpn = qc.qpn;
	gid(qn.dgid, 2);
	memcpy(qn.dmac, b.mac, 6);
	qn.mtu = 1000;
	CHK(nicring_qp_connect(a.r, &qn) == -EINVAL);
	qn.mtu = 1024;
	qn.dgid[10] = 0;
	CHK(nicring_qp_connect(a.r, &qn) == -EINVAL);
	gid(qn.dgid, 2);
	qn.dmac[0] = 1;		/* multicast */
	CHK(nicring_qp_connect(a.r, &qn) == -EINVAL);
	memcpy(qn.dmac, b.mac, 6);
	qn.max_rd_atomic = NICPROG_RDMA_RD_ATOMIC_MAX + 1;
	CHK(nicring_qp_connect(a.r, &qn) == -EINVAL);
	qn.max_rd_atomic = 0;
	qn.dest_qpn = 1U << 24;
	CHK(nicring_qp_connect(a.r, &qn) == -EINVAL);
	qn.dest_qpn = 0x11;
	CHK(!nicring_qp_connect(a.r, &qn) &&
	      nicring_qp_connect(a.r, &qn) == -EBUSY);
	CHK(!nicring_qp_destroy(a.r, qc.qpn) &&
	      nicring_qp_destroy(a.r, qc.qpn) == -ENOENT);
	qc.gid[10] = 0;
	CHK(nicring_qp_create(a.r, &qc) == -EINVAL);
	qc.gid[10] = 0xff;
	qc.sq_depth = NICPROG_RDMA_QP_DEPTH + 1;
	CHK(nicring_qp_create(a.r, &qc) == -EINVAL);
	/* regions */
	mr.access = 8;
	CHK(nicring_mr_reg(a.r, &mr) == -EINVAL);
	mr.access = 0;
	mr.buf = 999;
	CHK(nicring_mr_reg(a.r, &mr) == -ENOENT);
	mr.buf = b.buf == a.buf ? 998 : b.buf;	/* another file's */
	CHK(nicring_mr_reg(a.r, &mr) == -ENOENT);
	mr.buf = a.buf;
	mr.offset = BUF - 8;
	CHK(nicring_mr_reg(a.r, &mr) == -EINVAL);
	mr.offset = 0;
	mr.len = 0;
	CHK(nicring_mr_reg(a.r, &mr) == -EINVAL);
	CHK(nicring_mr_dereg(a.r, 0x12345678) == -ENOENT);
	CHK(nicring_mem_free(a.r, a.buf) == -EBUSY);	/* a region is over it */
	/* polls */
	CHK(nicring_poll_cq(a.r, &wc, 0, 0) == -EINVAL &&
	      nicring_poll_cq(a.r, &wc, NICPROG_RDMA_POLL_MAX + 1, 0) == -EINVAL &&
	      nicring_poll_cq(a.r, &wc, 1, NICPROG_WAIT_TIMEOUT_MAX + 1) == -EINVAL &&
	      nicring_poll_cq(a.r, &wc, 1, 0) == 0);
	c = nicring_open(a.ifname, &err);
	CHK(c && nicring_poll_cq(c, &wc, 1, 0) == -ENOENT);	/* no QP */
	if (c)
		nicring_close(c);
	RESULT(ok, "malformed WRs, posts, QPs, connects, regions and polls refused with their errno; a full queue ENOSPC, all or none\n");
}

/*
 * Seeded random WRs on connected pairs: any result but a crash or a
 * write outside the peer's region. Each side's region is filled from
 * its host copy first; what random WRITEs and SENDs put there is not
 * checked, but the buffer outside the region stays as it was.
 */
static void test_fuzz(unsigned long rounds)
{
	struct nicprog_rdma_wr w;
	struct nicprog_rdma_wc wc[16];
	unsigned long i, posted = 0, errs = 0, wcs = 0;
	uint8_t *got = malloc(BUF);
	int res, ok = 1, n;

	pair_new();
	for (i = 0; i < rounds; i++) {
		struct side *x = rnd() % 2 ? &a : &b, *y = x == &a ? &b : &a;

		w = (struct nicprog_rdma_wr){
			.wr_id = i, .qpn = x->qpn,
			.opcode = 1 + rnd() % (__NICPROG_WR_MAX - 1),
			.flags = rnd() % 2, .lkey = rnd() % 4 ? x->mr.lkey : rnd(),
			.len = rnd() % 3 ? rnd() % 5000 : rnd() % (3 * MiB),
			.addr = x->mr.iova + (rnd() % 3 ? (int64_t)(rnd() % RLEN) :
					      (int32_t)rnd()),
			.raddr = y->mr.iova + (rnd() % 3 ? (int64_t)(rnd() % RLEN) :
					       (int32_t)rnd()),
			.rkey = rnd() % 4 ? y->mr.rkey : rnd(),
			.imm = rnd(),
		};
		if (rnd() % 16 == 0)
			((uint32_t *)&w)[rnd() % 12] = rnd();
		res = nicring_post(x->r, &w, 1);
		if (res == 1)
			posted++;
		else if (res != -EINVAL && res != -ENOSPC && res != -ENOENT)
			ok = 0;
		if (res == -EINVAL && w.qpn == x->qpn &&
		    w.opcode && w.opcode < __NICPROG_WR_MAX && !w.__rsvd &&
		    w.flags < 2 && w.len <= NICPROG_RDMA_MSG_MAX)
			pair_new();	/* a QP failed: fresh ones */
		while ((n = nicring_poll_cq(x->r, wc, 16, 0)) > 0)
			wcs += n;
		if (rnd() % 64 == 0) {
			while ((n = nicring_poll_cq(y->r, wc, 16, 5)) > 0)
				wcs += n;
			pair_new();
		}
		errs += res < 0;
	}
	pair_new();
	/* outside the regions: as the host copies say */
	for (i = 0; i < 2; i++) {
		struct side *s = i ? &b : &a;

		ok &= got && nicring_mem_copy(s->r, s->buf,
					      NICPROG_MEM_FROM_NIC, 0, got,
					      ROFF) == ROFF &&
		      !memcmp(got, s->mem, ROFF) &&
		      nicring_mem_copy(s->r, s->buf, NICPROG_MEM_FROM_NIC,
				       ROFF + RLEN, got, BUF - ROFF - RLEN) ==
		      BUF - ROFF - RLEN &&
		      !memcmp(got, s->mem + ROFF + RLEN, BUF - ROFF - RLEN);
	}
	free(got);
	ksft_print_msg("fuzz: %lu WRs, %lu posted, %lu refused, %lu completions\n",
		       rounds, posted, errs, wcs);
	RESULT(ok, "seeded fuzzer: %lu random WRs on both sides, only success, refusal or error status; nothing written outside a region\n",
	       rounds);
}

/* WRITEs in flight both ways until the port goes. */
static int hold(void)
{
	struct nicprog_rdma_wc wc[16];
	unsigned long i;
	int res;

	pair_new();
	printf("held %u %u\n", a.qpn, b.qpn);
	fflush(stdout);
	for (i = 0;; i++) {
		struct side *x = i % 2 ? &a : &b, *y = x == &a ? &b : &a;

		res = post1(x, NICPROG_WR_WRITE, i, x->mr.lkey, x->mr.iova,
			    65536, y->mr.iova, y->mr.rkey, 0);
		if (res == 1)
			res = nicring_poll_cq(x->r, wc, 16, 100);
		if (res == -ENODEV) {
			printf("gone\n");
			return 0;
		}
		if (res == -EINVAL)	/* the peer's QP failed first */
			continue;
		if (res < 0) {
			fprintf(stderr, "hold: %s\n", strerror(-res));
			return 1;
		}
	}
}

static int eperm(const char *ifname)
{
	struct nicprog_qp_create q = { .sq_depth = 4, .rq_depth = 4 };
	struct nicring *r;
	int err;

	r = nicring_open(ifname, &err);
	if (!r)
		return 1;
	gid(q.gid, 1);
	err = nicring_qp_create(r, &q);
	printf("qp create without CAP_NET_ADMIN: %d\n", err);
	return err == -EPERM ? 0 : 1;
}

/* Where sumwrite's windows lie in a's buffer, and its sum lands in b's. */
#define KP_WORDS	(ROFF + 0)
#define KP_NWORDS	1024
#define KP_SUM		(ROFF + 8192)
#define KP_WR		(ROFF + 16384)
#define KP_DST		(ROFF + 65536)
#define KP_HDR		sizeof(struct nicprog_job_frame)

/* @path's first program, loaded for port @ifname (NULL: the host). */
static int kp_load(const char *path, const char *ifname)
{
	struct bpf_object *o = bpf_object__open_file(path, NULL);
	struct bpf_program *p;

	if (libbpf_get_error(o))
		ksft_exit_fail_msg("open %s\n", path);
	p = bpf_object__next_program(o, NULL);
	if (ifname)
		bpf_program__set_ifindex(p, if_nametoindex(ifname));
	if (bpf_object__load(o))
		ksft_exit_fail_msg("load %s%s\n", path,
				   ifname ? " for the NIC" : "");
	return bpf_program__fd(p);
}

/* sumwrite's job on a's file: 3 windows, the last @wr_len bytes of WRs. */
static struct nicprog_job kp_job(uint32_t kid, uint32_t qpn, uint32_t rkey,
				 uint64_t flags, uint64_t none, uint32_t wr_len)
{
	return (struct nicprog_job){
		.kernel = kid, .n_bufs = 3, .job_id = 1,
		.args = { qpn, a.mr.lkey, a.mr.iova + (KP_SUM - ROFF),
			  b.mr.iova + (KP_DST - ROFF), rkey, 77, flags, none },
		.bufs = {
			{ .id = a.buf, .offset = KP_WORDS, .len = KP_NWORDS * 4 },
			{ .id = a.buf, .offset = KP_SUM, .len = 8,
			  .flags = NICPROG_JOB_BUF_WRITE },
			{ .id = a.buf, .offset = KP_WR, .len = wr_len,
			  .flags = NICPROG_JOB_BUF_POST },
		},
	};
}

/* The NIC's 8 bytes at @off of @s's buffer. */
static uint64_t kp_read(struct side *s, uint32_t off)
{
	uint64_t v = 0;

	if (nicring_mem_copy(s->r, s->buf, NICPROG_MEM_FROM_NIC, off, &v,
			     sizeof(v)) != sizeof(v))
		return ~0ULL;
	return v;
}

/*
 * The host's run of @j's frame (BPF_PROG_TEST_RUN of the same object):
 * the sum and the WR it leaves, and its return value.
 */
static int kp_host(int fd, const struct nicprog_job *j, uint64_t *sum,
		   struct nicprog_rdma_wr *wr, uint32_t *ret)
{
	static uint8_t in[KP_HDR + KP_NWORDS * 4 + 8 + 48];
	static uint8_t out[sizeof(in) + 256];
	struct nicprog_job_frame h = { .job_id = j->job_id, .n_bufs = 3 };
	LIBBPF_OPTS(bpf_test_run_opts, t, .data_in = in,
		    .data_size_in = sizeof(in), .data_out = out,
		    .data_size_out = sizeof(out), .repeat = 1);

	memcpy(h.args, j->args, sizeof(h.args));
	h.bufs[0].off = KP_HDR;
	h.bufs[0].len = KP_NWORDS * 4;
	h.bufs[1].off = KP_HDR + KP_NWORDS * 4;
	h.bufs[1].len = 8;
	h.bufs[2].off = h.bufs[1].off + 8;
	h.bufs[2].len = 48;
	memset(in, 0, sizeof(in));
	memcpy(in, &h, sizeof(h));
	memcpy(in + KP_HDR, a.mem + KP_WORDS, KP_NWORDS * 4);
	if (bpf_prog_test_run_opts(fd, &t))
		return -1;
	memcpy(sum, out + h.bufs[1].off, 8);
	memcpy(wr, out + h.bufs[2].off, sizeof(*wr));
	*ret = t.retval;
	return 0;
}

/*
 * NICPROG_JOB_BUF_POST: sumwrite on a's file sums seeded words in a's
 * buffer and WRITEs the sum, the count its immediate, into b's; the
 * host's run of the same frame is the oracle of the sum and the WR.
 */
static void test_kernel_post(const char *obj)
{
	uint64_t sum = 0, hsum = 0, sentinel = 0x5a5a5a5a5a5a5a5aULL;
	struct nicprog_rdma_wr hwr = {}, want;
	struct nicprog_rdma_wc w, v;
	uint32_t kid, i, hret = 0;
	struct nicprog_job j;
	int host_fd, res, ok = 1;

	pair_new();
	if (nicring_kernel_load(a.r, kp_load(obj, a.ifname), &kid))
		ksft_exit_fail_msg("kernel load\n");
	host_fd = kp_load(obj, NULL);
	fill(a.mem + KP_WORDS, KP_NWORDS * 4, 31);
	for (i = 0; i < KP_NWORDS; i++)
		sum += ((uint32_t *)(a.mem + KP_WORDS))[i];
	CHK(!to_nic(&a, KP_WORDS, KP_NWORDS * 4));
	CHK(post1(&b, NICPROG_WR_RECV, 5, b.mr.lkey, b.mr.iova, 0, 0, 0, 0) == 1);
	j = kp_job(kid, a.qpn, b.mr.rkey, 0, 0, 48);
	res = nicring_job(a.r, &j);
	w = wc1(&a);
	v = wc1(&b);
	want = (struct nicprog_rdma_wr){
		.wr_id = 77, .qpn = a.qpn, .opcode = NICPROG_WR_WRITE_IMM,
		.flags = NICPROG_WR_SIGNALED, .lkey = a.mr.lkey, .len = 8,
		.addr = a.mr.iova + (KP_SUM - ROFF),
		.raddr = b.mr.iova + (KP_DST - ROFF), .rkey = b.mr.rkey,
		.imm = KP_NWORDS,
	};
	CHK(!kp_host(host_fd, &j, &hsum, &hwr, &hret));
	CHK(res == KP_NWORDS && hret == KP_NWORDS);
	CHK(w.wr_id == 77 && !w.status && w.opcode == NICPROG_WR_WRITE_IMM);
	CHK(!v.status && v.opcode == NICPROG_WR_WRITE_IMM &&
	    (v.flags & NICPROG_WC_IMM) && v.imm == KP_NWORDS);
	CHK(kp_read(&a, KP_SUM) == sum && kp_read(&b, KP_DST) == sum);
	CHK(hsum == sum && !memcmp(&hwr, &want, sizeof(want)));
	RESULT(ok, "a kernel's WRITE_IMM: job %d, its WC %u, the peer's %u imm %u; the peer holds the host's sum; the host's run leaves the same sum and WR\n",
	       res, w.status, v.status, v.imm);

	/* refused after the run: nothing written back, nothing posted */
	ok = 1;
	CHK(nicring_mem_copy(a.r, a.buf, NICPROG_MEM_TO_NIC, KP_SUM, &sentinel,
			     8) == 8);
	j = kp_job(kid, a.qpn + 1000, b.mr.rkey, 0, 0, 48);
	CHK(nicring_job(a.r, &j) == -ENOENT);
	j = kp_job(kid, a.qpn, b.mr.rkey, 0x80, 0, 48);
	CHK(nicring_job(a.r, &j) == -EINVAL);
	CHK(kp_read(&a, KP_SUM) == sentinel);
	CHK(nicring_poll_cq(a.r, &w, 1, 200) == 0);
	/* refused before it runs: WRs not whole, two windows of them */
	j = kp_job(kid, a.qpn, b.mr.rkey, 0, 0, 40);
	CHK(nicring_job(a.r, &j) == -EINVAL);
	j = kp_job(kid, a.qpn, b.mr.rkey, 0, 0, 48);
	j.bufs[1].flags |= NICPROG_JOB_BUF_POST;
	CHK(nicring_job(a.r, &j) == -EINVAL);
	CHK(kp_read(&a, KP_SUM) == sentinel);
	RESULT(ok, "refused: a QP the file lacks (ENOENT), an unknown WR flag (EINVAL) -- nothing written back, nothing posted; WRs not whole, two windows of them (EINVAL)\n");

	/* the window starts as its buffer's bytes: zeros post nothing */
	ok = 1;
	memset(a.mem + KP_WR, 0, 48);
	CHK(!to_nic(&a, KP_WR, 48));
	j = kp_job(kid, a.qpn, b.mr.rkey, 0, 1, 48);
	CHK(nicring_job(a.r, &j) == KP_NWORDS);
	CHK(kp_read(&a, KP_SUM) == sum);
	CHK(nicring_poll_cq(a.r, &w, 1, 200) == 0);
	RESULT(ok, "a POST window the kernel leaves empty: the job runs, its sum goes back, no WR is posted\n");

	/* the peer checks the key the kernel used (a RECV there: no RNR) */
	ok = 1;
	CHK(post1(&b, NICPROG_WR_RECV, 6, b.mr.lkey, b.mr.iova, 0, 0, 0, 0) == 1);
	j = kp_job(kid, a.qpn, b.mr.rkey ^ 0x100, 0, 0, 48);
	CHK(nicring_job(a.r, &j) == KP_NWORDS);
	w = wc1(&a);
	CHK(w.wr_id == 77 && w.status == NICPROG_WC_REM_ACCESS_ERR);
	CHK(kp_read(&b, KP_DST) == sum);
	RESULT(ok, "a kernel's WR with a bad rkey: the peer refuses it, its WC says REM_ACCESS_ERR (%u); the peer's bytes unchanged\n",
	       w.status);
	nicring_kernel_unload(a.r, kid);
	close(host_fd);
}

int main(int argc, char **argv)
{
	int xfer;

	if (argc < 5 || (!strcmp(argv[3], "cases") && argc != 6) ||
	    (!strcmp(argv[3], "kpost") && argc != 6)) {
		fprintf(stderr, "usage: rdma_test P0 P1 cases SEED ROUNDS | xfer SEED | hold SEED | kpost SEED OBJ | eperm SEED\n");
		return 2;
	}
	if (!strcmp(argv[3], "eperm"))
		return eperm(argv[1]);
	xfer = !strcmp(argv[3], "xfer");
	seed = strtoull(argv[4], NULL, 0);
	side_open(&a, argv[1], 1);
	side_open(&b, argv[2], 2);
	fill(a.mem, BUF, 1);
	fill(b.mem, BUF, 2);
	if (to_nic(&a, 0, BUF) || to_nic(&b, 0, BUF))
		ksft_exit_fail_msg("cannot fill the buffers\n");
	if (!strcmp(argv[3], "hold"))
		return hold();
	ksft_print_header();
	if (!strcmp(argv[3], "kpost")) {
		ksft_set_plan(4);
		test_kernel_post(argv[5]);
		ksft_finished();
		return 0;
	}
	ksft_set_plan(xfer ? 1 : 5);
	RESULT(!transfers("xfer"),
	       "SEND, SEND_IMM, WRITE, WRITE_IMM, READ of 1 B to 2 MiB both ways, byte-exact, WCs as sent\n");
	if (!xfer) {
		test_remote_refusals();
		test_rnr();
		test_commands();
		test_fuzz(strtoul(argv[5], NULL, 0));
	}
	ksft_finished();
	return 0;
}
