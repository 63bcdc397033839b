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

#include <bpf/libbpf.h>

#include "../lib/nicring/nicring.h"
#include "matmul.h"
#include "rdma_check.h"
#include "rdma_conn.h"

static void die(const char *what, int err)
{
	fprintf(stderr, "matmul: %s: %s\n", what, strerror(err < 0 ? -err : err));
	exit(1);
}

/* bpf/lookaside/matmul.o beside this binary's tree, unless -k says. */
static int kernel_fd(const char *path, const char *ifname)
{
	char self[PATH_MAX], def[PATH_MAX + 64];
	struct bpf_object *o;
	struct bpf_program *p;
	ssize_t n;

	if (!path) {
		n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		if (n < 0)
			return -1;
		self[n] = 0;
		*strrchr(self, '/') = 0;
		snprintf(def, sizeof(def), "%s/../../bpf/lookaside/matmul.o",
			 self);
		path = def;
	}
	o = bpf_object__open_file(path, NULL);
	if (libbpf_get_error(o))
		return -1;
	p = bpf_object__next_program(o, NULL);
	bpf_program__set_ifindex(p, if_nametoindex(ifname));
	if (bpf_object__load(o))
		return -1;
	return bpf_program__fd(p);
}

/* READ @len bytes of the peer's @raddr into the region @mr at @iova. */
static struct nicprog_rdma_wr rd(uint32_t qpn, const struct nicprog_mr_reg *mr,
				 uint64_t raddr, uint32_t rkey, uint32_t len)
{
	return (struct nicprog_rdma_wr){
		.wr_id = mr->buf, .qpn = qpn, .opcode = NICPROG_WR_READ,
		.flags = NICPROG_WR_SIGNALED, .lkey = mr->lkey, .len = len,
		.addr = mr->iova, .raddr = raddr, .rkey = rkey,
	};
}

int main(int argc, char **argv)
{
	const char *ifname = NULL, *addr = NULL, *kobj = NULL, *mac = NULL;
	struct nicprog_qp_create qc = { .sq_depth = 16, .rq_depth = 1 };
	/* two READs at once: rdmapeer keeps 16 answers (max_dest_rd_atomic) */
	struct nicprog_qp_connect qn = { .timeout_ms = 100, .retry_cnt = 7,
					 .mtu = 1024, .max_rd_atomic = 2 };
	struct nicprog_mr_reg mra = { .access = NICPROG_ACCESS_LOCAL_WRITE,
				      .iova = 0x40000000 };
	struct nicprog_mr_reg mrb = { .access = NICPROG_ACCESS_LOCAL_WRITE,
				      .iova = 0x50000000 };
	uint32_t n = 64, nt, abuf, bbuf, cbuf, kid, ti, tj, tk, i, j, k;
	char hello[RC_HELLO_LEN], peer_ip[INET_ADDRSTRLEN];
	double t0, t_read, t_jobs, t_copy, t_host;
	int32_t *a, *b, *c, *want;
	struct nicprog_rdma_wr wr[2];
	struct nicprog_rdma_wc wc[2];
	struct rc_hello me = {}, peer;
	int port = RC_PORT, opt, err, fd, got, bad = 0;
	uint64_t seed = 1, mat;
	unsigned char dmac[6];
	struct nicring *r;
	struct in_addr in;

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
	if (!ifname || !addr || inet_pton(AF_INET, addr, &in) != 1 ||
	    optind != argc - 1 || !n || n % MM_T || n > MM_N_MAX) {
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
	err = nicring_kernel_load(r, kernel_fd(kobj, ifname), &kid);
	if (err)
		die("the kernel (bpf/lookaside/matmul.o for the NIC)", err);
	if ((err = nicring_mem_alloc(r, mat, NICPROG_MEM_REGION_ANY, &abuf)) ||
	    (err = nicring_mem_alloc(r, mat, NICPROG_MEM_REGION_ANY, &bbuf)) ||
	    (err = nicring_mem_alloc(r, mat, NICPROG_MEM_REGION_ANY, &cbuf)))
		die("NIC memory", err);
	mra.buf = abuf;
	mrb.buf = bbuf;
	mra.len = mrb.len = mat;
	if ((err = nicring_mr_reg(r, &mra)) || (err = nicring_mr_reg(r, &mrb)))
		die("memory region", err);
	qc.gid[10] = qc.gid[11] = 0xff;
	memcpy(qc.gid + 12, &in, 4);
	err = nicring_qp_create(r, &qc);
	if (err)
		die("QP", err);
	srand48(getpid() * time(NULL));
	me = (struct rc_hello){ .qpn = qc.qpn, .psn = lrand48() & 0xffffff,
				.seed = seed };
	memcpy(me.gid, qc.gid, 16);
	snprintf(me.sizes, sizeof(me.sizes), "mm:%u", n);
	rc_hello_fmt(&me, hello);
	fd = tcp_open(argv[optind], port);
	if (fd < 0 || write(fd, hello, RC_HELLO_LEN) != RC_HELLO_LEN ||
	    read_full(fd, hello, RC_HELLO_LEN) || rc_hello_parse(hello, &peer))
		die("the exchange with the peer", EPROTO);
	if (peer.seed != seed || strcmp(peer.sizes, me.sizes)) {
		fprintf(stderr, "matmul: the peer holds seed %llu %s, we want %llu %s\n",
			(unsigned long long)peer.seed, peer.sizes,
			(unsigned long long)seed, me.sizes);
		return 1;
	}
	inet_ntop(AF_INET, peer.gid + 12, peer_ip, sizeof(peer_ip));
	if (peer_mac(mac, ifname, peer_ip, dmac))
		return 1;
	qn.qpn = qc.qpn;
	qn.dest_qpn = peer.qpn;
	qn.rq_psn = peer.psn;
	qn.sq_psn = me.psn;
	memcpy(qn.dgid, peer.gid, 16);
	memcpy(qn.dmac, dmac, 6);
	err = nicring_qp_connect(r, &qn);
	if (err)
		die("connect", err);

	/* A and B from the peer into NIC memory: one doorbell, two READs */
	t0 = now();
	wr[0] = rd(qc.qpn, &mra, peer.vaddr, peer.rkey, mat);
	wr[1] = rd(qc.qpn, &mrb, peer.vaddr + mat, peer.rkey, mat);
	if (nicring_post(r, wr, 2) != 2)
		die("post the READs", EIO);
	for (got = 0; got < 2; got += err) {
		err = nicring_poll_cq(r, wc + got, 2 - got, 10000);
		if (err <= 0)
			die("the READs' completions", err ? err : ETIMEDOUT);
	}
	for (i = 0; i < 2; i++)
		if (wc[i].status) {
			fprintf(stderr, "matmul: the READ of %c failed: status %u (enum ibv_wc_status)\n",
				wc[i].wr_id == abuf ? 'A' : 'B', wc[i].status);
			return 1;
		}
	t_read = now() - t0;

	/* C on the NIC's cores: a job per tile of C and step of k */
	t0 = now();
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
	t_jobs = now() - t0;
	t0 = now();
	err = nicring_mem_copy(r, cbuf, NICPROG_MEM_FROM_NIC, 0, c, mat);
	if (err != (int)mat)
		die("copy C to the host", err < 0 ? err : EIO);
	t_copy = now() - t0;
	if (write(fd, "k", 1) != 1)
		die("tell the peer", EPROTO);

	/* the host's product, from the same seeds */
	mm_make(seed, 0, n, a);
	mm_make(seed, 1, n, b);
	t0 = now();
	for (i = 0; i < n; i++)
		for (k = 0; k < n; k++) {
			int32_t aik = a[mm_index(n, i, k)];

			for (j = 0; j < n; j++)
				want[mm_index(n, i, j)] += aik * b[mm_index(n, k, j)];
		}
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
	close(fd);
	nicring_close(r);
	return 0;
}
