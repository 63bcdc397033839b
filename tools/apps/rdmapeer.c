// SPDX-License-Identifier: GPL-2.0
/*
 * rdmapeer - the libibverbs end of the byte-exact RDMA check
 * (rdma_check.h), run on any verbs device (rdma_rxe in the tests) against
 * `nicrdma check` on a nicprog NIC's engine, or against itself.
 *
 *   rdmapeer -d DEV [-i PORT_NUM] -g GID_INDEX [-p PORT] [-S SEED]
 *	      [-s SIZE,...] [-m MTU] [-x N | -y NREC] [SERVER]
 *
 * With -x N it is instead the peer that holds the matrices of the
 * networked matrix multiplication (tools/apps/matmul, matmul.h): its
 * region's first half holds A then B, N x N seeded int32 each, tile by
 * tile, for the other end to READ; it exits when that end says it is
 * done. With -y NREC it holds NREC records of the reduction job
 * (tools/apps/colagg, colagg.h) likewise.
 *
 * rdma-core's tools move bytes without looking at them; this is the least
 * code that does look, on the verbs every RNIC offers: an RC QP, one
 * region, one CQ, polled.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <sys/socket.h>
#include <time.h>

#include <infiniband/verbs.h>

#include "rdma_check.h"
#include "rdma_conn.h"
#include "colagg.h"
#include "matmul.h"

#define WRID_RECV	1
#define WRID_SEND	2

struct peer {
	struct ibv_qp *qp;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	unsigned char *buf;		/* area, then staging */
	struct rc_hello rem;
	uint64_t seed;
	struct ibv_wc recv;		/* a RECV's WC met while waiting */
	int has_recv;
};

static unsigned char *half(struct peer *p, int area)
{
	return p->buf + (area ? 0 : RC_MAX);
}

static int p_fill(void *ctx, int area, uint32_t len, uint32_t step)
{
	struct peer *p = ctx;

	rc_fill(half(p, area), len, p->seed, step);
	return 0;
}

static int p_check(void *ctx, int area, uint32_t len, uint32_t step,
		   uint32_t *bad)
{
	struct peer *p = ctx;

	*bad = rc_mismatch(half(p, area), len, p->seed, step);
	return 0;
}

static int p_post_recv(void *ctx)
{
	struct peer *p = ctx;
	struct ibv_sge sge = { (uintptr_t)half(p, 0), RC_MAX, p->mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = WRID_RECV, .sg_list = &sge,
				  .num_sge = 1 }, *bad;

	return -ibv_post_recv(p->qp, &wr, &bad);
}

/* The next WC of @wr_id, RC_WAIT_MS at most; a RECV's is kept for later. */
static int p_wait(struct peer *p, uint64_t wr_id, struct ibv_wc *wc)
{
	double end = now() + RC_WAIT_MS / 1e3;
	int n;

	if (wr_id == WRID_RECV && p->has_recv) {
		*wc = p->recv;
		p->has_recv = 0;
		return 0;
	}
	while (now() < end) {
		n = ibv_poll_cq(p->cq, 1, wc);
		if (n < 0)
			return -EIO;
		if (!n)
			continue;
		if (wc->wr_id == wr_id)
			return 0;
		if (wc->wr_id != WRID_RECV || p->has_recv)
			return -EPROTO;
		p->recv = *wc;
		p->has_recv = 1;
	}
	return -ETIMEDOUT;
}

static int p_post(void *ctx, enum rc_op op, uint32_t len, uint32_t imm)
{
	static const enum ibv_wr_opcode opcode[RC_OPS] = {
		[RC_WRITE] = IBV_WR_RDMA_WRITE_WITH_IMM,
		[RC_SEND] = IBV_WR_SEND, [RC_READ] = IBV_WR_RDMA_READ,
	};
	struct peer *p = ctx;
	struct ibv_sge sge = { (uintptr_t)half(p, 0), len, p->mr->lkey };
	struct ibv_send_wr wr = {
		.wr_id = WRID_SEND, .sg_list = &sge, .num_sge = 1,
		.opcode = opcode[op], .send_flags = IBV_SEND_SIGNALED,
		.imm_data = htonl(imm),
		.wr.rdma = { p->rem.vaddr, p->rem.rkey },
	}, *bad;
	struct ibv_wc wc;
	int err = ibv_post_send(p->qp, &wr, &bad);

	if (err)
		return -err;
	err = p_wait(p, WRID_SEND, &wc);
	return err ? err : (int)wc.status;
}

static int p_wait_recv(void *ctx, uint32_t *byte_len, uint32_t *imm,
		       int *has_imm)
{
	struct peer *p = ctx;
	struct ibv_wc wc;
	int err = p_wait(p, WRID_RECV, &wc);

	if (err)
		return err;
	*byte_len = wc.byte_len;
	*has_imm = !!(wc.wc_flags & IBV_WC_WITH_IMM);
	*imm = ntohl(wc.imm_data);
	return wc.status;
}

static const struct rc_ops peer_ops = {
	.post_recv = p_post_recv, .fill = p_fill, .check = p_check,
	.post = p_post, .wait_recv = p_wait_recv,
};

static int modify(struct ibv_qp *qp, struct ibv_qp_attr *a, int mask,
		  const char *state)
{
	int err = ibv_modify_qp(qp, a, mask);

	if (err)
		fprintf(stderr, "rdmapeer: QP to %s: %s\n", state, strerror(err));
	return err;
}

/* RESET -> INIT -> RTR -> RTS towards @rem, as ibv_rc_pingpong does. */
static int connect_qp(struct ibv_qp *qp, int ib_port, int gidx,
		      enum ibv_mtu mtu, uint32_t psn, const struct rc_hello *rem)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT, .port_num = ib_port,
		.qp_access_flags = IBV_ACCESS_LOCAL_WRITE |
				   IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ,
	};

	if (modify(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
		   IBV_QP_ACCESS_FLAGS, "INIT"))
		return -1;
	a = (struct ibv_qp_attr){
		.qp_state = IBV_QPS_RTR, .path_mtu = mtu,
		.dest_qp_num = rem->qpn, .rq_psn = rem->psn,
		.max_dest_rd_atomic = 16, .min_rnr_timer = 12,
		.ah_attr = { .is_global = 1, .port_num = ib_port,
			     .grh = { .hop_limit = 1, .sgid_index = gidx } },
	};
	memcpy(a.ah_attr.grh.dgid.raw, rem->gid, 16);
	if (modify(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
		   IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
		   IBV_QP_MIN_RNR_TIMER, "RTR"))
		return -1;
	a = (struct ibv_qp_attr){
		.qp_state = IBV_QPS_RTS, .timeout = 14, .retry_cnt = 7,
		.rnr_retry = 7, .sq_psn = psn, .max_rd_atomic = 1,
	};
	return modify(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT |
		      IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
		      IBV_QP_MAX_QP_RD_ATOMIC, "RTS");
}

static struct ibv_context *open_dev(const char *name)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *ctx = NULL;
	int i;

	for (i = 0; list && list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			ctx = ibv_open_device(list[i]);
	if (list)
		ibv_free_device_list(list);
	return ctx;
}

/*
 * The peer's buffer (twice RC_MAX), region, CQ and RC QP on @ctx. Return:
 * the PD, or NULL (said).
 */
static struct ibv_pd *peer_verbs(struct ibv_context *ctx, const char *dev,
				 struct peer *p)
{
	struct ibv_qp_init_attr qia = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 16, .max_recv_wr = 16,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_pd *pd;

	p->buf = aligned_alloc(4096, 2 * RC_MAX);
	pd = ibv_alloc_pd(ctx);
	p->mr = pd && p->buf ? ibv_reg_mr(pd, p->buf, 2 * RC_MAX,
					  IBV_ACCESS_LOCAL_WRITE |
					  IBV_ACCESS_REMOTE_WRITE |
					  IBV_ACCESS_REMOTE_READ) : NULL;
	p->cq = ibv_create_cq(ctx, 64, NULL, NULL, 0);
	qia.send_cq = qia.recv_cq = p->cq;
	p->qp = p->mr && p->cq ? ibv_create_qp(pd, &qia) : NULL;
	if (!p->qp) {
		fprintf(stderr, "rdmapeer: cannot make a PD, region, CQ or QP on %s: %s\n",
			dev, strerror(errno));
		return NULL;
	}
	return pd;
}

int main(int argc, char **argv)
{
	const char *dev = NULL, *server = NULL, *sizes_arg = "1,4097,65536,1048576";
	int port = RC_PORT, ib_port = 1, gidx = -1, opt, fd, n, err;
	unsigned int mm_n = 0, nrec = 0, ri;
	uint32_t sizes[RC_SIZES_MAX], mtu = 1024;
	char hello[RC_HELLO_LEN];
	struct ibv_context *ctx;
	struct peer p = { .seed = 1 };
	struct rc_hello me = {};
	union ibv_gid gid;
	struct ibv_pd *pd;
	enum ibv_mtu m;

	while ((opt = getopt(argc, argv, "d:i:g:p:S:s:m:x:y:")) != -1) {
		switch (opt) {
		case 'y': nrec = strtoul(optarg, NULL, 0); break;
		case 'x': mm_n = strtoul(optarg, NULL, 0); break;
		case 'd': dev = optarg; break;
		case 'i': ib_port = atoi(optarg); break;
		case 'g': gidx = atoi(optarg); break;
		case 'p': port = atoi(optarg); break;
		case 'S': p.seed = strtoull(optarg, NULL, 0); break;
		case 's': sizes_arg = optarg; break;
		case 'm': mtu = strtoul(optarg, NULL, 0); break;
		default: return 2;
		}
	}
	if (optind < argc)
		server = argv[optind];
	n = rc_parse_sizes(sizes_arg, sizes);
	m = mtu == 256 ? IBV_MTU_256 : mtu == 512 ? IBV_MTU_512 :
	    mtu == 1024 ? IBV_MTU_1024 : mtu == 2048 ? IBV_MTU_2048 :
	    mtu == 4096 ? IBV_MTU_4096 : 0;
	if (!dev || gidx < 0 || n <= 0 || !m ||
	    strlen(sizes_arg) >= sizeof(me.sizes) ||
	    (mm_n && (mm_n % MM_T || mm_n > MM_N_MAX)) ||
	    nrec > CA_RECS_MAX || (mm_n && nrec)) {
		fprintf(stderr, "usage: rdmapeer -d DEV [-i PORT_NUM] -g GID_INDEX [-p PORT] [-S SEED] [-s SIZE,...] [-m MTU] [-x N | -y NREC] [SERVER]\n");
		return 2;
	}
	ctx = open_dev(dev);
	if (!ctx) {
		fprintf(stderr, "rdmapeer: no verbs device %s\n", dev);
		return 1;
	}
	if (ibv_query_gid(ctx, ib_port, gidx, &gid)) {
		fprintf(stderr, "rdmapeer: %s port %d has no GID %d\n", dev,
			ib_port, gidx);
		return 1;
	}
	pd = peer_verbs(ctx, dev, &p);
	if (!pd)
		return 1;
	srand48(getpid() * time(NULL));
	me = (struct rc_hello){ .qpn = p.qp->qp_num, .psn = lrand48() & 0xffffff,
				.rkey = p.mr->rkey, .vaddr = (uintptr_t)p.buf,
				.seed = p.seed };
	memcpy(me.gid, gid.raw, 16);
	if (mm_n) {
		snprintf(me.sizes, sizeof(me.sizes), "mm:%u", mm_n);
		mm_make(p.seed, 0, mm_n, (int32_t *)p.buf);
		mm_make(p.seed, 1, mm_n, (int32_t *)(p.buf + mm_n * mm_n * 4));
	} else if (nrec) {
		snprintf(me.sizes, sizeof(me.sizes), "rec:%u", nrec);
		for (ri = 0; ri < nrec; ri++)
			((struct ca_rec *)p.buf)[ri] = ca_make(p.seed, ri);
	} else {
		strcpy(me.sizes, sizes_arg);
	}
	rc_hello_fmt(&me, hello);
	fd = tcp_open(server, port);
	if (fd < 0 || write(fd, hello, RC_HELLO_LEN) != RC_HELLO_LEN ||
	    read_full(fd, hello, RC_HELLO_LEN) || rc_hello_parse(hello, &p.rem)) {
		fprintf(stderr, "rdmapeer: the check's exchange with %s:%d failed\n",
			server ? server : "a client", port);
		return 1;
	}
	if (p.rem.seed != p.seed || strcmp(p.rem.sizes, me.sizes)) {
		fprintf(stderr, "rdmapeer: the peer checks seed %llu sizes %s, we %llu %s\n",
			(unsigned long long)p.rem.seed, p.rem.sizes,
			(unsigned long long)p.seed, me.sizes);
		return 1;
	}
	if (connect_qp(p.qp, ib_port, gidx, m, me.psn, &p.rem))
		return 1;
	printf("# %s QPN 0x%06x, peer QPN 0x%06x, seed %llu, sizes %s\n", dev,
	       p.qp->qp_num, p.rem.qpn, (unsigned long long)p.seed, me.sizes);
	if (mm_n || nrec) {
		/* the other end READs; its one byte says it is done */
		err = rc_read_token(fd) != 'k';
		printf("# served %s, the peer %s\n", me.sizes,
		       err ? "failed" : "done");
	} else {
		err = rc_run(fd, !server, sizes, n, &peer_ops, &p, dev);
		if (!err)
			printf("# all %d steps byte-exact\n", n * 2 * RC_OPS);
	}
	close(fd);
	ibv_destroy_qp(p.qp);
	ibv_destroy_cq(p.cq);
	ibv_dereg_mr(p.mr);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	free(p.buf);
	return err ? 1 : 0;
}
