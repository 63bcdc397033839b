// SPDX-License-Identifier: GPL-2.0
/*
 * rdmabench - doorbells on a nicprog NIC's RoCE engine, for
 * tools/bench/rdma: two wired ports of one NIC, a QP on each, and COUNT
 * RDMA WRITEs or READs of SIZE bytes from the first QP to the second's
 * region, posted as COUNT doorbells of one WR each ("single") or as one
 * doorbell of COUNT WRs ("batch"), then every completion polled.
 *
 *   rdmabench P0 P1 write|read SIZE COUNT single|batch REPEAT
 *
 * Prints the median over REPEAT runs of the time from the first post to
 * the last completion, per WR, in microseconds of the host's clock.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nicring.h"

#define MAX_COUNT	NICPROG_RDMA_POST_MAX

struct side {
	struct nicring *r;
	uint32_t buf, qpn;
	struct nicprog_mr_reg mr;
	uint8_t mac[6];
};

static void die(const char *what, int err)
{
	fprintf(stderr, "rdmabench: %s: %s\n", what, strerror(err < 0 ? -err : err));
	exit(1);
}

static void gid(uint8_t *g, uint8_t ip)
{
	memset(g, 0, 16);
	g[10] = g[11] = 0xff;
	g[12] = 10;
	g[13] = 99;
	g[15] = ip;
}

static void side_open(struct side *s, const char *ifname, uint8_t ip,
		      uint64_t len)
{
	struct nicprog_qp_create q = { .sq_depth = MAX_COUNT, .rq_depth = 1 };
	char path[128];
	FILE *f;
	int err;

	s->r = nicring_open(ifname, &err);
	if (!s->r)
		die(ifname, err);
	snprintf(path, sizeof(path), "/sys/class/net/%s/address", ifname);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &s->mac[0],
			 &s->mac[1], &s->mac[2], &s->mac[3], &s->mac[4],
			 &s->mac[5]) != 6)
		die("MAC", EINVAL);
	fclose(f);
	err = nicring_mem_alloc(s->r, len, NICPROG_MEM_REGION_ANY, &s->buf);
	if (err)
		die("NIC memory", err);
	s->mr = (struct nicprog_mr_reg){ .buf = s->buf, .len = len,
					 .access = NICPROG_ACCESS_ALL,
					 .iova = 0x10000000ULL * ip };
	err = nicring_mr_reg(s->r, &s->mr);
	if (err)
		die("region", err);
	gid(q.gid, ip);
	err = nicring_qp_create(s->r, &q);
	if (err)
		die("QP", err);
	s->qpn = q.qpn;
}

static void side_connect(struct side *s, const struct side *p, uint8_t pip)
{
	struct nicprog_qp_connect c = {
		.qpn = s->qpn, .dest_qpn = p->qpn, .sq_psn = 1000 * pip,
		.rq_psn = 1000 * (3 - pip), .mtu = 1024, .timeout_ms = 1000,
		.retry_cnt = 7, .max_rd_atomic = NICPROG_RDMA_RD_ATOMIC_MAX,
	};
	int err;

	gid(c.dgid, pip);
	memcpy(c.dmac, p->mac, 6);
	err = nicring_qp_connect(s->r, &c);
	if (err)
		die("connect", err);
}

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	static struct nicprog_rdma_wr wr[MAX_COUNT];
	static struct nicprog_rdma_wc wc[MAX_COUNT];
	uint32_t size, count, i, got, rep, repeat;
	struct side a = {}, b = {};
	double t[64], t0;
	int batch, write, n;

	if (argc != 8) {
		fprintf(stderr, "usage: rdmabench P0 P1 write|read SIZE COUNT single|batch REPEAT\n");
		return 2;
	}
	write = !strcmp(argv[3], "write");
	size = strtoul(argv[4], NULL, 0);
	count = strtoul(argv[5], NULL, 0);
	batch = !strcmp(argv[6], "batch");
	repeat = strtoul(argv[7], NULL, 0);
	if (!size || size > NICPROG_RDMA_MSG_MAX || !count ||
	    count > MAX_COUNT || !repeat || repeat > 64 ||
	    (uint64_t)size * count > 64ULL << 20)
		die("arguments", EINVAL);
	side_open(&a, argv[1], 1, (uint64_t)size * count);
	side_open(&b, argv[2], 2, (uint64_t)size * count);
	side_connect(&a, &b, 2);
	side_connect(&b, &a, 1);
	for (i = 0; i < count; i++)
		wr[i] = (struct nicprog_rdma_wr){
			.wr_id = i, .qpn = a.qpn,
			.opcode = write ? NICPROG_WR_WRITE : NICPROG_WR_READ,
			.flags = NICPROG_WR_SIGNALED, .lkey = a.mr.lkey,
			.len = size, .addr = a.mr.iova + (uint64_t)i * size,
			.raddr = b.mr.iova + (uint64_t)i * size,
			.rkey = b.mr.rkey,
		};
	for (rep = 0; rep < repeat; rep++) {
		t0 = now_us();
		if (batch) {
			n = nicring_post(a.r, wr, count);
			if (n != (int)count)
				die("post", n < 0 ? n : EIO);
		} else {
			for (i = 0; i < count; i++) {
				n = nicring_post(a.r, &wr[i], 1);
				if (n != 1)
					die("post", n < 0 ? n : EIO);
			}
		}
		for (got = 0; got < count; got += n) {
			n = nicring_poll_cq(a.r, wc, count - got, 10000);
			if (n <= 0)
				die("poll", n ? n : ETIMEDOUT);
			for (i = 0; i < (uint32_t)n; i++)
				if (wc[i].status)
					die("a WR failed", EIO);
		}
		t[rep] = (now_us() - t0) / count;
	}
	qsort(t, repeat, sizeof(t[0]), cmp);
	printf("%.2f\n", t[repeat / 2]);
	return 0;
}
