// SPDX-License-Identifier: GPL-2.0
/*
 * nicrdma - the host tool of a nicprog NIC's RoCEv2 engine, speaking to
 * rdma-core's tools on the other end (Documentation/nicprog/rdma.rst).
 *
 *   nicrdma pingpong -d IFNAME -a ADDR [-p PORT] [-s SIZE] [-n ITERS]
 *		      [-m MTU] [-r RX_DEPTH] [-M MAC] [-l LINGER_MS] [SERVER]
 *
 * ibv_rc_pingpong's role, with its connection exchange (TCP port 18515,
 * "LID:QPN:PSN:GID" in its text format, then "done") and its ping-pong of
 * SENDs: run against an unmodified ibv_rc_pingpong, as its server (no
 * SERVER) or its client. ADDR is the engine's IPv4 address on the port
 * (its GID ::ffff:ADDR); the peer's MAC is -M, or the kernel's neighbour
 * entry of the peer's address on IFNAME (/proc/net/arp).
 *
 *   nicrdma bw -w|-r -d IFNAME -a ADDR [-p PORT] [-s SIZE] [-n ITERS]
 *		[-t TX_DEPTH] [-M MAC] [SERVER]
 *
 * perftest's role (ib_write_bw -w, ib_read_bw -r; perftest 4.5, its
 * version "6.06"), with its exchange over TCP port 18515 as perftest
 * speaks it without rdma_cm: the 16-byte version, the two 4-byte values
 * (cycle buffer, cache line) and the MTU's exchanges, the 108-byte "LID:OUT_READS:QPN:PSN:RKEY:VADDR:GID:
 * SRQN:" key messages (four before the run, one at its end), the five
 * 8-byte report values, then "done". As the server the engine's region
 * is what the client writes or reads (give both the same SIZE, as two
 * perftest peers are given); as the client the engine writes or
 * reads ITERS messages of SIZE with TX_DEPTH in flight and prints
 * perftest's report line.
 *
 *   nicrdma check -d IFNAME -a ADDR [-p PORT] [-S SEED] [-s SIZE,...]
 *		   [-m MTU] [-M MAC] [SERVER]
 *
 * The byte-exact check (rdma_check.h) against `rdmapeer` on a libibverbs
 * device: WRITE with immediate, SEND and READ of seeded bytes of each
 * SIZE (1 B .. 1 MiB), each way; TCP port 18516; prints a TAP-like line a
 * step and exits 0 only when every step was byte-exact.
 *
 * The buffer is in NIC memory, as the engine's memory regions are.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "../lib/nicring/nicring.h"
#include "rdma_check.h"
#include "rdma_conn.h"

#define WRID_RECV	1
#define WRID_SEND	2
#define MSG_LEN		sizeof("0000:000000:000000:00000000000000000000000000000000")

struct dest {
	unsigned int lid, qpn, psn;
	unsigned char gid[16];
};

static void die(const char *what, int err)
{
	fprintf(stderr, "nicrdma: %s: %s\n", what, strerror(err < 0 ? -err : err));
	exit(1);
}

static void gid_to_wire(const unsigned char *gid, char *out)
{
	int i;

	for (i = 0; i < 16; i++)
		sprintf(out + 2 * i, "%02x", gid[i]);
}

static int wire_to_gid(const char *in, unsigned char *gid)
{
	unsigned int b;
	int i;

	for (i = 0; i < 16; i++) {
		if (sscanf(in + 2 * i, "%2x", &b) != 1)
			return -1;
		gid[i] = b;
	}
	return 0;
}

static void dest_msg(const struct dest *d, char *msg)
{
	char gid[33];

	gid_to_wire(d->gid, gid);
	snprintf(msg, MSG_LEN, "%04x:%06x:%06x:%s", d->lid, d->qpn, d->psn, gid);
}

static int msg_dest(const char *msg, struct dest *d)
{
	char gid[33];

	if (sscanf(msg, "%x:%x:%x:%32s", &d->lid, &d->qpn, &d->psn, gid) != 4)
		return -1;
	return wire_to_gid(gid, d->gid);
}

/* The exchange of ibv_rc_pingpong: returns the peer's; sock set. */
static int exchange(const char *server, int port, const struct dest *me,
		    struct dest *rem, int *sock)
{
	char msg[MSG_LEN];
	int fd = tcp_open(server, port);

	if (fd < 0)
		return -1;
	if (server) {
		dest_msg(me, msg);
		if (write(fd, msg, sizeof(msg)) != sizeof(msg) ||
		    read_full(fd, msg, sizeof(msg)) || msg_dest(msg, rem))
			return -1;
		if (write(fd, "done", sizeof("done")) != sizeof("done"))
			return -1;
	} else if (read_full(fd, msg, sizeof(msg)) || msg_dest(msg, rem)) {
		return -1;
	}
	*sock = fd;
	return 0;
}

/*
 * What every subcommand makes on the engine: a NIC buffer of @mr->len
 * bytes under a region (@mr's access and iova as the caller set them) and
 * a QP (@qc's depths likewise) whose GID is ::ffff:@in. Returns the first
 * PSN of the QP's requests, random as rdma-core's tools draw it.
 */
static uint32_t engine_open(struct nicring *r, struct in_addr in,
			    struct nicprog_mr_reg *mr,
			    struct nicprog_qp_create *qc)
{
	int err;

	err = nicring_mem_alloc(r, mr->len, NICPROG_MEM_REGION_ANY, &mr->buf);
	if (err)
		die("NIC memory", err);
	err = nicring_mr_reg(r, mr);
	if (err)
		die("memory region", err);
	qc->gid[10] = qc->gid[11] = 0xff;
	memcpy(qc->gid + 12, &in, 4);
	err = nicring_qp_create(r, qc);
	if (err)
		die("QP", err);
	srand48(getpid() * time(NULL));
	return lrand48() & 0xffffff;
}

/*
 * The QP @qn->qpn to RTS towards the peer's QP @dqpn at @dgid (its MAC
 * -M's, else the neighbour entry on @ifname), with @qn's MTU, timeout,
 * retries and READ depth as the caller set them.
 */
static int engine_connect(struct nicring *r, const char *ifname,
			  const char *mac, struct nicprog_qp_connect *qn,
			  uint32_t dqpn, uint32_t rq_psn, uint32_t sq_psn,
			  const unsigned char *dgid)
{
	char ip[INET_ADDRSTRLEN];
	int err;

	inet_ntop(AF_INET, dgid + 12, ip, sizeof(ip));
	if (peer_mac(mac, ifname, ip, qn->dmac))
		return -1;
	qn->dest_qpn = dqpn;
	qn->rq_psn = rq_psn;
	qn->sq_psn = sq_psn;
	memcpy(qn->dgid, dgid, 16);
	err = nicring_qp_connect(r, qn);
	if (err)
		die("connect", err);
	return 0;
}

/* @n receives of @size bytes into @mr's buffer on QP @qpn. */
static void post_recvs(struct nicring *r, uint32_t qpn,
		       const struct nicprog_mr_reg *mr, uint32_t size,
		       unsigned int n)
{
	struct nicprog_rdma_wr wr[64];
	unsigned int i, k;
	int err;

	for (; n; n -= k) {
		k = n < 64 ? n : 64;
		for (i = 0; i < k; i++)
			wr[i] = (struct nicprog_rdma_wr){
				.wr_id = WRID_RECV, .qpn = qpn,
				.opcode = NICPROG_WR_RECV, .lkey = mr->lkey,
				.len = size, .addr = mr->iova,
			};
		err = nicring_post(r, wr, k);
		if (err != (int)k)
			die("post receives", err);
	}
}

/* A pingpong's QP, buffer and counts, as pp_loop() runs it. */
struct pp_state {
	struct nicring *r;
	uint32_t qpn, size;
	const struct nicprog_mr_reg *mr;
	unsigned int iters, rx_depth, routs, bad;
};

/*
 * ibv_rc_pingpong's loop: a SEND whenever the last one and a receive
 * completed (the client, @send_first, sends first), receives reposted
 * as they run low. Return: 0, or 1 (said) on a failed or missing
 * completion.
 */
static int pp_loop(struct pp_state *p, int send_first)
{
	unsigned int rcnt = 0, scnt = 0, pending, i;
	struct nicprog_rdma_wr wr[1];
	struct nicprog_rdma_wc wc[16];
	int n;

	wr[0] = (struct nicprog_rdma_wr){
		.wr_id = WRID_SEND, .qpn = p->qpn, .opcode = NICPROG_WR_SEND,
		.flags = NICPROG_WR_SIGNALED, .lkey = p->mr->lkey, .len = p->size,
		.addr = p->mr->iova,
	};
	pending = WRID_RECV;
	if (send_first) {
		if (nicring_post(p->r, wr, 1) != 1)
			die("post send", EIO);
		pending |= WRID_SEND;
	}
	while (rcnt < p->iters || scnt < p->iters) {
		n = nicring_poll_cq(p->r, wc, 16, 5000);
		if (n < 0)
			die("poll", n);
		if (!n) {
			fprintf(stderr, "nicrdma: no completion in 5 s (%u sent, %u received)\n",
				scnt, rcnt);
			return 1;
		}
		for (i = 0; i < (unsigned int)n; i++) {
			if (wc[i].status) {
				fprintf(stderr, "Failed status %u for wr_id %d\n",
					wc[i].status, (int)wc[i].wr_id);
				return 1;
			}
			if (wc[i].wr_id == WRID_SEND) {
				++scnt;
			} else {
				p->bad += wc[i].byte_len != p->size;
				if (--p->routs <= 1) {
					post_recvs(p->r, p->qpn, p->mr, p->size,
						   p->rx_depth - p->routs);
					p->routs = p->rx_depth;
				}
				++rcnt;
			}
			pending &= ~(unsigned int)wc[i].wr_id;
			if (scnt < p->iters && !pending) {
				if (nicring_post(p->r, wr, 1) != 1)
					die("post send", EIO);
				pending = WRID_RECV | WRID_SEND;
			}
		}
	}
	return 0;
}

static int pingpong(int argc, char **argv)
{
	const char *ifname = NULL, *addr = NULL, *server = NULL, *mac = NULL;
	uint32_t size = 4096, iters = 1000, mtu = 1024, rx_depth = 500;
	unsigned int linger = 500;
	struct pp_state pp = { 0 };
	struct nicprog_qp_create qc = { .sq_depth = 16 };
	struct nicprog_qp_connect qn = { .timeout_ms = 100, .retry_cnt = 7 };
	struct nicprog_mr_reg mr = { .access = NICPROG_ACCESS_LOCAL_WRITE };
	struct dest me = {}, rem = {};
	int port = 18515, opt, err, sock;
	struct in_addr in;
	struct nicring *r;
	char rem_ip[32];
	double t0, t1;

	while ((opt = getopt(argc, argv, "d:a:p:s:n:m:r:M:l:")) != -1) {
		switch (opt) {
		case 'l': linger = strtoul(optarg, NULL, 0); break;
		case 'd': ifname = optarg; break;
		case 'a': addr = optarg; break;
		case 'p': port = atoi(optarg); break;
		case 's': size = strtoul(optarg, NULL, 0); break;
		case 'n': iters = strtoul(optarg, NULL, 0); break;
		case 'm': mtu = strtoul(optarg, NULL, 0); break;
		case 'r': rx_depth = strtoul(optarg, NULL, 0); break;
		case 'M': mac = optarg; break;
		default: return 2;
		}
	}
	if (optind < argc)
		server = argv[optind];
	if (!ifname || !addr || inet_pton(AF_INET, addr, &in) != 1 || !size ||
	    !iters || rx_depth < 2 || rx_depth > NICPROG_RDMA_QP_DEPTH) {
		fprintf(stderr, "usage: nicrdma pingpong -d IFNAME -a ADDR [-p PORT] [-s SIZE] [-n ITERS] [-m MTU] [-r RX_DEPTH] [-M MAC] [-l LINGER_MS] [SERVER]\n");
		return 2;
	}
	r = nicring_open(ifname, &err);
	if (!r)
		die(ifname, err);
	mr.len = size;
	mr.iova = 0x10000;
	qc.rq_depth = rx_depth;
	me.psn = engine_open(r, in, &mr, &qc);
	me.qpn = qc.qpn;
	memcpy(me.gid, qc.gid, 16);
	printf("  local address:  LID 0x%04x, QPN 0x%06x, PSN 0x%06x, GID ::ffff:%s\n",
	       me.lid, me.qpn, me.psn, addr);
	/* receives first, as ibv_rc_pingpong posts them before the exchange */
	post_recvs(r, qc.qpn, &mr, size, rx_depth);
	pp.routs = rx_depth;
	if (exchange(server, port, &me, &rem, &sock))
		die("exchange", EPROTO);
	if (memcmp(rem.gid, qc.gid, 10) || rem.gid[10] != 0xff ||
	    rem.gid[11] != 0xff) {
		fprintf(stderr, "nicrdma: the peer's GID is not IPv4-mapped (use -g with its IPv4 GID's index)\n");
		return 1;
	}
	inet_ntop(AF_INET, rem.gid + 12, rem_ip, sizeof(rem_ip));
	printf("  remote address: LID 0x%04x, QPN 0x%06x, PSN 0x%06x, GID ::ffff:%s\n",
	       rem.lid, rem.qpn, rem.psn, rem_ip);
	qn.qpn = qc.qpn;
	qn.mtu = mtu;
	if (engine_connect(r, ifname, mac, &qn, rem.qpn, rem.psn, me.psn,
			   rem.gid))
		return 1;
	if (!server) {
		char msg[MSG_LEN], done[8];

		dest_msg(&me, msg);
		if (write(sock, msg, sizeof(msg)) != sizeof(msg) ||
		    read(sock, done, sizeof(done)) != sizeof("done"))
			die("exchange", EPROTO);
	}
	pp.r = r;
	pp.qpn = qc.qpn;
	pp.mr = &mr;
	pp.size = size;
	pp.iters = iters;
	pp.rx_depth = rx_depth;
	t0 = now();
	if (pp_loop(&pp, server != NULL))
		return 1;
	t1 = now();
	printf("%llu bytes in %.2f seconds = %.2f Mbit/sec\n",
	       (unsigned long long)size * iters * 2, t1 - t0,
	       size * iters * 2 * 8 / (t1 - t0) / 1e6);
	printf("%u iters in %.2f seconds = %.2f usec/iter\n", iters, t1 - t0,
	       (t1 - t0) * 1e6 / iters);
	if (pp.bad) {
		fprintf(stderr, "nicrdma: %u messages of the wrong length\n", pp.bad);
		return 1;
	}
	/*
	 * The QP outlives the run by @linger ms: our last ACK may have been
	 * lost, and only this QP can answer the peer's resend of its last
	 * SEND. ibv_rc_pingpong closes the TCP connection right after the
	 * exchange, so that cannot say when the peer is done; 500 ms is
	 * seven of its resends (timeout 14: 67 ms).
	 */
	{
		struct timespec ts = { linger / 1000, linger % 1000 * 1000000L };

		nanosleep(&ts, NULL);
	}
	close(sock);
	nicring_close(r);
	return 0;
}

#define PT_VERSION	"6.06"	/* perftest 4.5's, which the peer checks */
#define PT_KEY_LEN	108

static void pt_key(char *msg, const struct dest *d, unsigned int out_reads,
		   uint32_t rkey, uint64_t vaddr)
{
	int i, n;

	n = snprintf(msg, PT_KEY_LEN, "%04x:%04x:%06x:%06x:%08x:%016llx:",
		     d->lid, out_reads, d->qpn, d->psn, rkey,
		     (unsigned long long)vaddr);
	for (i = 0; i < 16; i++)
		n += snprintf(msg + n, PT_KEY_LEN - n, "%02x:", d->gid[i]);
	snprintf(msg + n, PT_KEY_LEN - n, "%08x:", 0);
}

static int pt_parse(const char *msg, struct dest *d, uint32_t *rkey,
		    uint64_t *vaddr, unsigned int *out)
{
	unsigned long long va;
	unsigned int g[16];
	int i;

	if (sscanf(msg, "%x:%x:%x:%x:%x:%llx:%x:%x:%x:%x:%x:%x:%x:%x:%x:%x:%x:%x:%x:%x:%x:%x:",
		   &d->lid, out, &d->qpn, &d->psn, rkey, &va, &g[0], &g[1],
		   &g[2], &g[3], &g[4], &g[5], &g[6], &g[7], &g[8], &g[9],
		   &g[10], &g[11], &g[12], &g[13], &g[14], &g[15]) != 22)
		return -1;
	for (i = 0; i < 16; i++)
		d->gid[i] = g[i];
	*vaddr = va;
	return 0;
}

/* Send @n bytes then read as many (client), or the other way round. */
static int pt_xchg(int fd, int client, const void *out, void *in, size_t n)
{
	if (client)
		return write(fd, out, n) != (ssize_t)n || read_full(fd, in, n);
	return read_full(fd, in, n) || write(fd, out, n) != (ssize_t)n;
}

static uint64_t be64(uint64_t v)
{
	return ((uint64_t)htonl(v & 0xffffffff) << 32) | htonl(v >> 32);
}

/*
 * The client's run: @iters copies of @wr (its wr_id the count), at most
 * @tx_depth outstanding. Return: 0, or 1 (said) on a failed completion.
 */
static int bw_run(struct nicring *r, const struct nicprog_rdma_wr *wr,
		  uint32_t iters, uint32_t tx_depth)
{
	unsigned int posted = 0, done = 0, i;
	struct nicprog_rdma_wc wc[64];
	struct nicprog_rdma_wr w;
	int err, n;

	while (done < iters) {
		while (posted < iters && posted - done < tx_depth) {
			w = *wr;
			w.wr_id = posted;
			err = nicring_post(r, &w, 1);
			if (err != 1)
				die("post", err);
			posted++;
		}
		n = nicring_poll_cq(r, wc, 64, 5000);
		if (n <= 0)
			die("no completion in 5 s", n ? n : ETIMEDOUT);
		for (i = 0; i < (unsigned int)n; i++)
			if (wc[i].status) {
				fprintf(stderr, "Completion with error at client: status %u, wr_id %llu\n",
					wc[i].status,
					(unsigned long long)wc[i].wr_id);
				return 1;
			}
		done += n;
	}
	return 0;
}

/*
 * The report perftest's peer prints (size, iterations, peak, average,
 * rate), the last key exchange and "done"; the client prints its line.
 */
static void pt_report(int fd, int client, uint32_t size, uint32_t iters,
		      double secs, const char *key)
{
	double mbs = client ? size * (double)iters / secs / 1e6 : 0;
	double mpps = client ? iters / secs / 1e6 : 0;
	double v[3] = { mbs, mbs, mpps };
	uint64_t bits, rep[5], rrep[5];
	char rkey_msg[PT_KEY_LEN];
	unsigned int i;

	rep[0] = be64(size);
	rep[1] = be64(client ? iters : 0);
	for (i = 0; i < 3; i++) {
		memcpy(&bits, &v[i], 8);
		rep[2 + i] = be64(bits);
	}
	for (i = 0; i < 5; i++)
		if (pt_xchg(fd, client, &rep[i], &rrep[i], 8))
			die("perftest report", EPROTO);
	if (pt_xchg(fd, client, key, rkey_msg, PT_KEY_LEN) ||
	    write(fd, "done", sizeof("done")) != sizeof("done"))
		die("perftest close", EPROTO);
	if (client) {
		printf(" #bytes     #iterations    BW average[MB/sec]   MsgRate[Mpps]\n");
		printf(" %-10u %-14u %-20.2f %.6f\n", size, iters, mbs, mpps);
	}
}

static int bw(int argc, char **argv)
{
	unsigned int out_reads = 1;
	const char *ifname = NULL, *addr = NULL, *server = NULL, *mac = NULL;
	uint32_t size = 65536, iters = 1000, tx_depth = 64, rkey = 0;
	unsigned int k, mtu_enum = 3;
	struct nicprog_qp_create qc = { .rq_depth = 1 };
	struct nicprog_qp_connect qn = { .timeout_ms = 100, .retry_cnt = 7 };
	struct nicprog_mr_reg mr = { .access = NICPROG_ACCESS_ALL,
				     .iova = 0x20000000 };
	char ver[16] = PT_VERSION, rver[16], key[PT_KEY_LEN], rkey_msg[PT_KEY_LEN];
	int port = 18515, opt, err, fd, write_test = -1, client;
	uint32_t ours[2], theirs[2];
	struct nicprog_rdma_wr wr;
	struct dest me = {}, rem = {};
	uint64_t rvaddr = 0;
	char mtu_s[2], rmtu_s[2];
	struct in_addr in;
	struct nicring *r;
	char rem_ip[32];
	double t0, t1;

	while ((opt = getopt(argc, argv, "wrd:a:p:s:n:t:M:")) != -1) {
		switch (opt) {
		case 'w': write_test = 1; break;
		case 'r': write_test = 0; break;
		case 'd': ifname = optarg; break;
		case 'a': addr = optarg; break;
		case 'p': port = atoi(optarg); break;
		case 's': size = strtoul(optarg, NULL, 0); break;
		case 'n': iters = strtoul(optarg, NULL, 0); break;
		case 't': tx_depth = strtoul(optarg, NULL, 0); break;
		case 'M': mac = optarg; break;
		default: return 2;
		}
	}
	if (optind < argc)
		server = argv[optind];
	client = server != NULL;
	if (write_test < 0 || !ifname || !addr ||
	    inet_pton(AF_INET, addr, &in) != 1 || !size || !iters ||
	    !tx_depth || tx_depth > 64) {
		fprintf(stderr, "usage: nicrdma bw -w|-r -d IFNAME -a ADDR [-p PORT] [-s SIZE] [-n ITERS] [-t TX_DEPTH (1..64)] [-M MAC] [SERVER]\n");
		return 2;
	}
	r = nicring_open(ifname, &err);
	if (!r)
		die(ifname, err);
	fd = tcp_open(server, port);
	if (fd < 0)
		return 1;
	/*
	 * The version, then the two values perftest checks are alike on
	 * both sides -- its cycle buffer (a page) and the cache line -- and
	 * the MTU. Each side keeps its own message size, as perftest's do.
	 */
	ours[0] = htonl(4096);
	ours[1] = htonl(64);
	snprintf(mtu_s, sizeof(mtu_s), "%u", mtu_enum);
	if (pt_xchg(fd, client, ver, rver, sizeof(ver)) ||
	    pt_xchg(fd, client, &ours[0], &theirs[0], 4) ||
	    pt_xchg(fd, client, &ours[1], &theirs[1], 4) ||
	    pt_xchg(fd, client, mtu_s, rmtu_s, 2))
		die("perftest exchange", EPROTO);
	if (!client && rmtu_s[0] >= '1' && rmtu_s[0] <= '5')
		mtu_enum = rmtu_s[0] - '0';	/* the client's */
	if (theirs[0] != ours[0] || theirs[1] != ours[1])
		fprintf(stderr, "nicrdma: the peer's cycle buffer and cache line are %u and %u\n",
			ntohl(theirs[0]), ntohl(theirs[1]));
	if (strncmp(rver, PT_VERSION, sizeof(ver)))
		fprintf(stderr, "nicrdma: the peer is perftest %.16s, not %s\n",
			rver, PT_VERSION);
	if (!size)
		die("size", EINVAL);
	/* perftest cycles its messages through twice its size or 4 KiB */
	mr.len = 2 * (size > 4096 ? (uint64_t)size : 4096);
	qc.sq_depth = tx_depth;
	me.psn = engine_open(r, in, &mr, &qc);
	me.qpn = qc.qpn;
	memcpy(me.gid, qc.gid, 16);
	pt_key(key, &me, write_test ? 1 : 0x80, mr.rkey, mr.iova);
	/* four key exchanges before the run; the QP connects after the first */
	for (k = 0; k < 4; k++) {
		if (pt_xchg(fd, client, key, rkey_msg, PT_KEY_LEN) ||
		    pt_parse(rkey_msg, &rem, &rkey, &rvaddr, &out_reads))
			die("perftest keys", EPROTO);
		if (k)
			continue;
		inet_ntop(AF_INET, rem.gid + 12, rem_ip, sizeof(rem_ip));
		printf(" local address: QPN 0x%04x PSN 0x%06x RKey 0x%08x VAddr 0x%016llx GID ::ffff:%s\n",
		       me.qpn, me.psn, mr.rkey, (unsigned long long)mr.iova, addr);
		printf(" remote address: QPN 0x%04x PSN 0x%06x RKey 0x%08x VAddr 0x%016llx GID ::ffff:%s\n",
		       rem.qpn, rem.psn, rkey, (unsigned long long)rvaddr, rem_ip);
		qn.qpn = qc.qpn;
		/* its responder keeps its OUT_READS answers, as perftest sets */
		qn.max_rd_atomic = out_reads < NICPROG_RDMA_RD_ATOMIC_MAX ?
				   out_reads : NICPROG_RDMA_RD_ATOMIC_MAX;
		qn.mtu = 128U << mtu_enum;
		if (engine_connect(r, ifname, mac, &qn, rem.qpn, rem.psn,
				   me.psn, rem.gid))
			return 1;
	}
	wr = (struct nicprog_rdma_wr){
		.qpn = qc.qpn,
		.opcode = write_test ? NICPROG_WR_WRITE : NICPROG_WR_READ,
		.flags = NICPROG_WR_SIGNALED, .lkey = mr.lkey, .len = size,
		.addr = mr.iova, .raddr = rvaddr, .rkey = rkey,
	};
	t0 = now();
	if (client && bw_run(r, &wr, iters, tx_depth))
		return 1;
	t1 = now();
	pt_report(fd, client, size, iters, t1 - t0, key);
	close(fd);
	nicring_close(r);
	return 0;
}

/* `nicrdma check`: the engine's end of rdma_check.h's protocol. */
struct chk {
	struct nicring *r;
	struct rc_hello peer;
	uint64_t seed, iova;
	uint32_t buf, qpn, lkey;
	unsigned char *host;
	struct nicprog_rdma_wc recv;	/* a RECV's WC met while waiting */
	int has_recv;
};

static int chk_fill(void *ctx, int area, uint32_t len, uint32_t step)
{
	struct chk *c = ctx;
	int n;

	rc_fill(c->host, len, c->seed, step);
	n = nicring_mem_copy(c->r, c->buf, NICPROG_MEM_TO_NIC,
			     area ? 0 : RC_MAX, c->host, len);
	return n == (int)len ? 0 : n < 0 ? n : -EIO;
}

static int chk_check(void *ctx, int area, uint32_t len, uint32_t step,
		     uint32_t *bad)
{
	struct chk *c = ctx;
	int n;

	n = nicring_mem_copy(c->r, c->buf, NICPROG_MEM_FROM_NIC,
			     area ? 0 : RC_MAX, c->host, len);
	if (n != (int)len)
		return n < 0 ? n : -EIO;
	*bad = rc_mismatch(c->host, len, c->seed, step);
	return 0;
}

static int chk_post_recv(void *ctx)
{
	struct chk *c = ctx;
	struct nicprog_rdma_wr wr = {
		.wr_id = WRID_RECV, .qpn = c->qpn, .opcode = NICPROG_WR_RECV,
		.lkey = c->lkey, .len = RC_MAX, .addr = c->iova + RC_MAX,
	};
	int n = nicring_post(c->r, &wr, 1);

	return n == 1 ? 0 : n < 0 ? n : -EIO;
}

/* The next WC of @wr_id, RC_WAIT_MS at most; a RECV's is kept for later. */
static int chk_wait(struct chk *c, uint64_t wr_id, struct nicprog_rdma_wc *wc)
{
	double end = now() + RC_WAIT_MS / 1e3;
	int n;

	if (wr_id == WRID_RECV && c->has_recv) {
		*wc = c->recv;
		c->has_recv = 0;
		return 0;
	}
	while (now() < end) {
		n = nicring_poll_cq(c->r, wc, 1, 100);
		if (n < 0)
			return n;
		if (!n)
			continue;
		if (wc->wr_id == wr_id)
			return 0;
		if (wc->wr_id != WRID_RECV || c->has_recv)
			return -EPROTO;
		c->recv = *wc;
		c->has_recv = 1;
	}
	return -ETIMEDOUT;
}

static int chk_post(void *ctx, enum rc_op op, uint32_t len, uint32_t imm)
{
	static const uint8_t opcode[RC_OPS] = {
		[RC_WRITE] = NICPROG_WR_WRITE_IMM, [RC_SEND] = NICPROG_WR_SEND,
		[RC_READ] = NICPROG_WR_READ,
	};
	struct chk *c = ctx;
	struct nicprog_rdma_wr wr = {
		.wr_id = WRID_SEND, .qpn = c->qpn, .opcode = opcode[op],
		.flags = NICPROG_WR_SIGNALED, .lkey = c->lkey, .len = len,
		.addr = c->iova + RC_MAX, .raddr = c->peer.vaddr,
		.rkey = c->peer.rkey, .imm = imm,
	};
	struct nicprog_rdma_wc wc;
	int n = nicring_post(c->r, &wr, 1);

	if (n != 1)
		return n < 0 ? n : -EIO;
	n = chk_wait(c, WRID_SEND, &wc);
	return n ? n : wc.status;
}

static int chk_wait_recv(void *ctx, uint32_t *byte_len, uint32_t *imm,
			 int *has_imm)
{
	struct chk *c = ctx;
	struct nicprog_rdma_wc wc;
	int err = chk_wait(c, WRID_RECV, &wc);

	if (err)
		return err;
	*byte_len = wc.byte_len;
	*imm = wc.imm;
	*has_imm = !!(wc.flags & NICPROG_WC_IMM);
	return wc.status;
}

static const struct rc_ops chk_ops = {
	.post_recv = chk_post_recv, .fill = chk_fill, .check = chk_check,
	.post = chk_post, .wait_recv = chk_wait_recv,
};

static int check(int argc, char **argv)
{
	const char *ifname = NULL, *addr = NULL, *server = NULL, *mac = NULL;
	const char *sizes_arg = "1,4097,65536,1048576";
	struct nicprog_qp_create qc = { .sq_depth = 16, .rq_depth = 16 };
	struct nicprog_qp_connect qn = { .timeout_ms = 100, .retry_cnt = 7 };
	struct nicprog_mr_reg mr = { .access = NICPROG_ACCESS_ALL,
				     .iova = 0x30000000 };
	char hello[RC_HELLO_LEN], peer_ip[INET_ADDRSTRLEN];
	int port = RC_PORT, opt, err, fd, n;
	uint32_t sizes[RC_SIZES_MAX], mtu = 1024;
	struct chk c = { .seed = 1 };
	struct rc_hello me = {};
	struct in_addr in;

	while ((opt = getopt(argc, argv, "d:a:p:S:s:m:M:")) != -1) {
		switch (opt) {
		case 'd': ifname = optarg; break;
		case 'a': addr = optarg; break;
		case 'p': port = atoi(optarg); break;
		case 'S': c.seed = strtoull(optarg, NULL, 0); break;
		case 's': sizes_arg = optarg; break;
		case 'm': mtu = strtoul(optarg, NULL, 0); break;
		case 'M': mac = optarg; break;
		default: return 2;
		}
	}
	if (optind < argc)
		server = argv[optind];
	n = rc_parse_sizes(sizes_arg, sizes);
	if (!ifname || !addr || inet_pton(AF_INET, addr, &in) != 1 || n <= 0 ||
	    strlen(sizes_arg) >= sizeof(me.sizes)) {
		fprintf(stderr, "usage: nicrdma check -d IFNAME -a ADDR [-p PORT] [-S SEED] [-s SIZE,...] [-m MTU] [-M MAC] [SERVER]\n");
		return 2;
	}
	c.host = malloc(RC_MAX);
	c.r = nicring_open(ifname, &err);
	if (!c.host || !c.r)
		die(ifname, c.host ? err : ENOMEM);
	mr.len = 2 * RC_MAX;
	me.psn = engine_open(c.r, in, &mr, &qc);
	c.buf = mr.buf;
	c.qpn = qc.qpn;
	c.lkey = mr.lkey;
	c.iova = mr.iova;
	me.qpn = qc.qpn;
	me.rkey = mr.rkey;
	me.vaddr = mr.iova;
	me.seed = c.seed;
	memcpy(me.gid, qc.gid, 16);
	strcpy(me.sizes, sizes_arg);
	rc_hello_fmt(&me, hello);
	fd = tcp_open(server, port);
	if (fd < 0 || write(fd, hello, RC_HELLO_LEN) != RC_HELLO_LEN ||
	    read_full(fd, hello, RC_HELLO_LEN) ||
	    rc_hello_parse(hello, &c.peer))
		die("the check's exchange", EPROTO);
	if (c.peer.seed != c.seed || strcmp(c.peer.sizes, me.sizes)) {
		fprintf(stderr, "nicrdma: the peer checks seed %llu sizes %s, we %llu %s\n",
			(unsigned long long)c.peer.seed, c.peer.sizes,
			(unsigned long long)c.seed, me.sizes);
		return 1;
	}
	inet_ntop(AF_INET, c.peer.gid + 12, peer_ip, sizeof(peer_ip));
	qn.qpn = qc.qpn;
	qn.mtu = mtu;
	if (engine_connect(c.r, ifname, mac, &qn, c.peer.qpn, c.peer.psn,
			   me.psn, c.peer.gid))
		return 1;
	printf("# engine QPN 0x%06x, peer QPN 0x%06x at %s, seed %llu, sizes %s\n",
	       qc.qpn, c.peer.qpn, peer_ip, (unsigned long long)c.seed,
	       me.sizes);
	err = rc_run(fd, !server, sizes, n, &chk_ops, &c, "engine");
	if (!err)
		printf("# all %d steps byte-exact\n", n * 2 * RC_OPS);
	close(fd);
	nicring_close(c.r);
	free(c.host);
	return err ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "pingpong"))
		return pingpong(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "bw"))
		return bw(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "check"))
		return check(argc - 1, argv + 1);
	fprintf(stderr, "usage: nicrdma pingpong|bw|check ...\n");
	return 2;
}
