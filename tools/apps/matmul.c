// SPDX-License-Identifier: GPL-2.0
/*
 * matmul - RecoNIC's networked matrix multiplication on a nicprog NIC
 * (Documentation/nicprog/rdma.rst): the peer holds A and B (rdmapeer -x N
 * on any verbs device); the NIC's RoCE engine READs both into NIC memory,
 * the lookaside kernel bpf/lookaside/matmul.o multiplies them tile by
 * tile on the NIC's cores, the host is told by each job's CQE and copies
 * only C back.
 *
 *   matmul -d IFNAME -a ADDR [-k KERNEL_OBJ] [-n N] [-S SEED] [-p PORT]
 *	    [-M MAC] SERVER
 *
 * ADDR is the engine's IPv4 address on the port; SERVER the peer's TCP
 * address (port 18516, rdma_check.h's hello). N (a multiple of 16, at
 * most 256; default 64) and SEED must be the peer's. The host computes
 * the product too, from the same seeds, and the run fails unless the
 * NIC's C equals it. Prints the time of each phase and the bytes that
 * crossed the host's link, with the NIC computing and without it.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lookaside.h"
#include "matmul.h"
#include "rdma_check.h"
#include "rdma_conn.h"

static void die(const char *what, int err)
{
	fprintf(stderr, "matmul: %s: %s\n", what, strerror(err < 0 ? -err : err));
	exit(1);
}

/* C on the NIC's cores: a job per tile of C and step of k. */
static void mm_jobs(struct nicring *r, uint32_t kid, uint32_t n,
		    uint32_t abuf, uint32_t bbuf, uint32_t cbuf)
{
	uint32_t nt = n / MM_T, ti, tj, tk;
	int err;

	for (ti = 0; ti < nt; ti++)
		for (tj = 0; tj < nt; tj++)
			for (tk = 0; tk < nt; tk++) {
				struct nicprog_job jb = {
					.kernel = kid, .n_bufs = 3,
					.job_id = ((uint64_t)ti * nt + tj) * nt + tk,
					.args = { tk > 0 },
					.bufs = {
						{ abuf, 0, mm_tile_off(n, ti, tk), MM_TILE },
						{ bbuf, 0, mm_tile_off(n, tk, tj), MM_TILE },
						{ cbuf, NICPROG_JOB_BUF_WRITE,
						  mm_tile_off(n, ti, tj), MM_TILE },
					},
				};

				err = nicring_job(r, &jb);
				if (err)
					die("a job", err < 0 ? err : EPROTO);
			}
}

/* The host's product of @a and @b into @want (zeroed). */
static void mm_host(uint32_t n, const int32_t *a, const int32_t *b,
		    int32_t *want)
{
	uint32_t i, j, k;

	for (i = 0; i < n; i++)
		for (k = 0; k < n; k++) {
			int32_t aik = a[mm_index(n, i, k)];

			for (j = 0; j < n; j++)
				want[mm_index(n, i, j)] += aik * b[mm_index(n, k, j)];
		}
}

int main(int argc, char **argv)
{
	const char *ifname = NULL, *addr = NULL, *kobj = NULL, *mac = NULL;
	uint32_t n = 64, nt, abuf, bbuf, cbuf, kid, i;
	double t0, t_read, t_jobs, t_copy, t_host;
	int port = RC_PORT, opt, err, bad = 0;
	int32_t *a, *b, *c, *want;
	uint64_t seed = 1, mat;
	struct la_peer peer;
	struct nicring *r;
	char what[32];

	while ((opt = getopt(argc, argv, "d:a:k:n:S:p:M:")) != -1) {
		switch (opt) {
		case 'd': ifname = optarg; break;
		case 'a': addr = optarg; break;
		case 'k': kobj = optarg; break;
		case 'n': n = strtoul(optarg, NULL, 0); break;
		case 'S': seed = strtoull(optarg, NULL, 0); break;
		case 'p': port = atoi(optarg); break;
		case 'M': mac = optarg; break;
		default: return 2;
		}
	}
	if (!ifname || !addr || optind != argc - 1 || !n || n % MM_T ||
	    n > MM_N_MAX) {
		fprintf(stderr, "usage: matmul -d IFNAME -a ADDR [-k KERNEL_OBJ] [-n N] [-S SEED] [-p PORT] [-M MAC] SERVER\n");
		return 2;
	}
	nt = n / MM_T;
	mat = (uint64_t)n * n * 4;
	a = malloc(mat);
	b = malloc(mat);
	c = malloc(mat);
	want = calloc(1, mat);
	if (!a || !b || !c || !want)
		die("host memory", ENOMEM);
	r = nicring_open(ifname, &err);
	if (!r)
		die(ifname, err);
	if (la_kernel(r, ifname, "matmul.o", kobj, &kid))
		return 1;
	if ((err = nicring_mem_alloc(r, mat, NICPROG_MEM_REGION_ANY, &abuf)) ||
	    (err = nicring_mem_alloc(r, mat, NICPROG_MEM_REGION_ANY, &bbuf)) ||
	    (err = nicring_mem_alloc(r, mat, NICPROG_MEM_REGION_ANY, &cbuf)))
		die("NIC memory", err);
	snprintf(what, sizeof(what), "mm:%u", n);
	if (la_connect(r, ifname, addr, argv[optind], port, seed, what, mac,
		       &peer))
		return 1;

	/* A and B from the peer into NIC memory: one doorbell, two READs */
	t0 = now();
	{
		uint32_t bufs[2] = { abuf, bbuf };
		uint64_t roff[2] = { 0, mat }, len[2] = { mat, mat };

		if (la_read(r, &peer, bufs, roff, len, 2))
			return 1;
	}
	t_read = now() - t0;

	t0 = now();
	mm_jobs(r, kid, n, abuf, bbuf, cbuf);
	t_jobs = now() - t0;
	t0 = now();
	err = nicring_mem_copy(r, cbuf, NICPROG_MEM_FROM_NIC, 0, c, mat);
	if (err != (int)mat)
		die("copy C to the host", err < 0 ? err : EIO);
	t_copy = now() - t0;
	la_done(&peer);

	/* the host's product, from the same seeds */
	mm_make(seed, 0, n, a);
	mm_make(seed, 1, n, b);
	t0 = now();
	mm_host(n, a, b, want);
	t_host = now() - t0;
	for (i = 0; i < n * n; i++)
		bad += c[i] != want[i];
	printf("matmul %ux%u int32, seed %llu: %u jobs on the NIC\n", n, n,
	       (unsigned long long)seed, nt * nt * nt);
	printf("  RDMA READ of A and B: %.3f ms (%llu bytes from the peer)\n",
	       t_read * 1e3, (unsigned long long)(2 * mat));
	printf("  jobs: %.3f ms (%.1f us a job); C to the host: %.3f ms\n",
	       t_jobs * 1e3, t_jobs * 1e6 / (nt * nt * nt), t_copy * 1e3);
	printf("  the host's own product: %.3f ms\n", t_host * 1e3);
	printf("  bytes over the host's link: %llu with the NIC computing (C), %llu without (A and B)\n",
	       (unsigned long long)mat, (unsigned long long)(2 * mat));
	if (bad) {
		printf("  %d of %u elements differ from the host's product\n",
		       bad, n * n);
		return 1;
	}
	printf("  C equals the host's product\n");
	nicring_close(r);
	return 0;
}
