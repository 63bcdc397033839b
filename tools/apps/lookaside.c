// SPDX-License-Identifier: GPL-2.0
/*
 * The lookaside applications' common part (lookaside.h): the kernel, the
 * peer, the READs. Errors are printed here, with what failed.
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

#include "lookaside.h"
#include "rdma_check.h"
#include "rdma_conn.h"

/* bpf/lookaside/@obj beside this binary's tree, unless @path says. */
int la_kernel(struct nicring *r, const char *ifname, const char *obj,
	      const char *path, uint32_t *kid)
{
	char self[PATH_MAX], def[PATH_MAX + 64];
	struct bpf_program *p;
	struct bpf_object *o;
	ssize_t n;
	int err;

	if (!path) {
		n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		if (n < 0)
			return -errno;
		self[n] = 0;
		*strrchr(self, '/') = 0;
		snprintf(def, sizeof(def), "%s/../../bpf/lookaside/%s", self,
			 obj);
		path = def;
	}
	o = bpf_object__open_file(path, NULL);
	if (libbpf_get_error(o)) {
		fprintf(stderr, "%s: cannot open\n", path);
		return -ENOENT;
	}
	p = bpf_object__next_program(o, NULL);
	bpf_program__set_ifindex(p, if_nametoindex(ifname));
	if (bpf_object__load(o)) {
		fprintf(stderr, "%s: cannot load it for %s\n", path, ifname);
		return -EINVAL;
	}
	err = nicring_kernel_load(r, bpf_program__fd(p), kid);
	if (err)
		fprintf(stderr, "%s: not taken as a kernel: %s\n", path,
			strerror(-err));
	return err;
}

/*
 * A QP with the peer at @server:@port that serves @what (its hello's
 * "sizes") of @seed; ADDR is ours on @ifname.
 */
int la_connect(struct nicring *r, const char *ifname, const char *addr,
	       const char *server, int port, uint64_t seed, const char *what,
	       const char *mac, struct la_peer *p)
{
	/* READs at once: rdmapeer keeps 16 answers (max_dest_rd_atomic) */
	struct nicprog_qp_connect qn = { .timeout_ms = 100, .retry_cnt = 7,
					 .mtu = 1024, .max_rd_atomic = 4 };
	struct nicprog_qp_create qc = { .sq_depth = 16, .rq_depth = 1 };
	char hello[RC_HELLO_LEN], peer_ip[INET_ADDRSTRLEN];
	struct rc_hello me = {}, peer;
	unsigned char dmac[6];
	struct in_addr in;
	int err;

	if (inet_pton(AF_INET, addr, &in) != 1)
		return -EINVAL;
	qc.gid[10] = qc.gid[11] = 0xff;
	memcpy(qc.gid + 12, &in, 4);
	err = nicring_qp_create(r, &qc);
	if (err) {
		fprintf(stderr, "QP: %s\n", strerror(-err));
		return err;
	}
	srand48(getpid() * time(NULL));
	me = (struct rc_hello){ .qpn = qc.qpn, .psn = lrand48() & 0xffffff,
				.seed = seed };
	memcpy(me.gid, qc.gid, 16);
	snprintf(me.sizes, sizeof(me.sizes), "%s", what);
	rc_hello_fmt(&me, hello);
	p->fd = tcp_open(server, port);
	if (p->fd < 0 || write(p->fd, hello, RC_HELLO_LEN) != RC_HELLO_LEN ||
	    read_full(p->fd, hello, RC_HELLO_LEN) ||
	    rc_hello_parse(hello, &peer)) {
		fprintf(stderr, "the exchange with %s:%d failed\n", server, port);
		return -EPROTO;
	}
	if (peer.seed != seed || strcmp(peer.sizes, me.sizes)) {
		fprintf(stderr, "the peer holds seed %llu %s, we want %llu %s\n",
			(unsigned long long)peer.seed, peer.sizes,
			(unsigned long long)seed, me.sizes);
		return -EPROTO;
	}
	inet_ntop(AF_INET, peer.gid + 12, peer_ip, sizeof(peer_ip));
	if (peer_mac(mac, ifname, peer_ip, dmac))
		return -EHOSTUNREACH;
	qn.qpn = qc.qpn;
	qn.dest_qpn = peer.qpn;
	qn.rq_psn = peer.psn;
	qn.sq_psn = me.psn;
	memcpy(qn.dgid, peer.gid, 16);
	memcpy(qn.dmac, dmac, 6);
	err = nicring_qp_connect(r, &qn);
	if (err) {
		fprintf(stderr, "connect: %s\n", strerror(-err));
		return err;
	}
	p->qpn = qc.qpn;
	p->vaddr = peer.vaddr;
	p->rkey = peer.rkey;
	return 0;
}

/*
 * READ @len[i] bytes at @roff[i] of the peer's region into buffer
 * @bufs[i], all in one doorbell, and wait for them.
 */
int la_read(struct nicring *r, const struct la_peer *p, const uint32_t *bufs,
	    const uint64_t *roff, const uint64_t *len, int n)
{
	struct nicprog_rdma_wr wr[8] = {};
	struct nicprog_rdma_wc wc[8];
	int i, got, err;

	if (n < 1 || n > 8)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		struct nicprog_mr_reg mr = {
			.buf = bufs[i], .len = len[i],
			.access = NICPROG_ACCESS_LOCAL_WRITE,
			.iova = 0x40000000ULL * (i + 1),
		};

		err = nicring_mr_reg(r, &mr);
		if (err) {
			fprintf(stderr, "memory region: %s\n", strerror(-err));
			return err;
		}
		wr[i] = (struct nicprog_rdma_wr){
			.wr_id = i, .qpn = p->qpn, .opcode = NICPROG_WR_READ,
			.flags = NICPROG_WR_SIGNALED, .lkey = mr.lkey,
			.len = len[i], .addr = mr.iova,
			.raddr = p->vaddr + roff[i], .rkey = p->rkey,
		};
	}
	if (nicring_post(r, wr, n) != n)
		return -EIO;
	for (got = 0; got < n; got += err) {
		err = nicring_poll_cq(r, wc + got, n - got, 10000);
		if (err <= 0) {
			fprintf(stderr, "the READs' completions: %s\n",
				err ? strerror(-err) : "none in 10 s");
			return err ? err : -ETIMEDOUT;
		}
	}
	for (i = 0; i < n; i++)
		if (wc[i].status) {
			fprintf(stderr, "READ %d failed: status %u (enum ibv_wc_status)\n",
				(int)wc[i].wr_id, wc[i].status);
			return -EIO;
		}
	return 0;
}

/* Tell the peer we are done with its data. */
void la_done(const struct la_peer *p)
{
	if (write(p->fd, "k", 1) != 1)
		fprintf(stderr, "could not tell the peer we are done\n");
	close(p->fd);
}
