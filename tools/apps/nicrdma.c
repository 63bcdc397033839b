// SPDX-License-Identifier: GPL-2.0
/*
 * nicrdma - the host tool of a nicprog NIC's RoCEv2 engine, speaking to
 * rdma-core's tools on the other end (Documentation/nicprog/rdma.rst).
 *
 *   nicrdma pingpong -d IFNAME -a ADDR [-p PORT] [-s SIZE] [-n ITERS]
 *		      [-m MTU] [-r RX_DEPTH] [-M MAC] [SERVER]
 *
 * ibv_rc_pingpong's role, with its connection exchange (TCP port 18515,
 * "LID:QPN:PSN:GID" in its text format, then "done") and its ping-pong of
 * SENDs: run against an unmodified ibv_rc_pingpong, as its server (no
 * SERVER) or its client. ADDR is the engine's IPv4 address on the port
 * (its GID ::ffff:ADDR); the peer's MAC is -M, or the kernel's neighbour
 * entry of the peer's address on IFNAME (/proc/net/arp).
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
#include <time.h>
#include <unistd.h>

#include "../lib/nicring/nicring.h"

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

static int read_full(int fd, void *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = read(fd, (char *)buf + got, len - got);
		if (n <= 0)
			return -1;
		got += n;
	}
	return 0;
}

/* The exchange of ibv_rc_pingpong: returns the peer's; sock set. */
static int exchange(const char *server, int port, const struct dest *me,
		    struct dest *rem, int *sock)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC,
				  .ai_socktype = SOCK_STREAM }, *res, *t;
	char msg[MSG_LEN], service[8];
	int fd = -1, lfd, one = 1;

	snprintf(service, sizeof(service), "%d", port);
	if (server) {
		if (getaddrinfo(server, service, &hints, &res))
			return -1;
		for (t = res; t; t = t->ai_next) {
			fd = socket(t->ai_family, t->ai_socktype, t->ai_protocol);
			if (fd >= 0 && !connect(fd, t->ai_addr, t->ai_addrlen))
				break;
			if (fd >= 0)
				close(fd);
			fd = -1;
		}
		freeaddrinfo(res);
		if (fd < 0) {
			fprintf(stderr, "Couldn't connect to %s:%d\n", server, port);
			return -1;
		}
		dest_msg(me, msg);
		if (write(fd, msg, sizeof(msg)) != sizeof(msg) ||
		    read_full(fd, msg, sizeof(msg)) || msg_dest(msg, rem))
			return -1;
		if (write(fd, "done", sizeof("done")) != sizeof("done"))
			return -1;
		*sock = fd;
		return 0;
	}
	hints.ai_flags = AI_PASSIVE;
	if (getaddrinfo(NULL, service, &hints, &res))
		return -1;
	lfd = socket(res->ai_family, res->ai_socktype, res->ai_protocol);
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (lfd < 0 || bind(lfd, res->ai_addr, res->ai_addrlen) ||
	    listen(lfd, 1)) {
		freeaddrinfo(res);
		fprintf(stderr, "Couldn't listen to port %d\n", port);
		return -1;
	}
	freeaddrinfo(res);
	fd = accept(lfd, NULL, NULL);
	close(lfd);
	if (fd < 0 || read_full(fd, msg, sizeof(msg)) || msg_dest(msg, rem))
		return -1;
	*sock = fd;
	return 0;
}

/* The MAC of @ip on @ifname from the neighbour table. */
static int neigh_mac(const char *ifname, const char *ip, unsigned char *mac)
{
	char line[256], a[64], hw[32], dev[64];
	unsigned int m[6];
	FILE *f = fopen("/proc/net/arp", "r");
	int i, err = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %*s %*s %31s %*s %63s", a, hw, dev) == 3 &&
		    !strcmp(a, ip) && !strcmp(dev, ifname) &&
		    sscanf(hw, "%x:%x:%x:%x:%x:%x", &m[0], &m[1], &m[2], &m[3],
			   &m[4], &m[5]) == 6) {
			for (i = 0; i < 6; i++)
				mac[i] = m[i];
			err = (m[0] | m[1] | m[2] | m[3] | m[4] | m[5]) ? 0 : -1;
		}
	fclose(f);
	return err;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static int pingpong(int argc, char **argv)
{
	const char *ifname = NULL, *addr = NULL, *server = NULL, *mac = NULL;
	uint32_t size = 4096, iters = 1000, mtu = 1024, rx_depth = 500;
	unsigned int routs, rcnt = 0, scnt = 0, pending, i, bad = 0;
	struct nicprog_qp_create qc = { .sq_depth = 16 };
	struct nicprog_qp_connect qn = { .timeout_ms = 100, .retry_cnt = 7 };
	struct nicprog_mr_reg mr = { .access = NICPROG_ACCESS_LOCAL_WRITE };
	struct nicprog_rdma_wr wr[64];
	struct nicprog_rdma_wc wc[16];
	struct dest me = {}, rem = {};
	int port = 18515, opt, err, sock, n;
	unsigned char peer_mac[6];
	struct in_addr in;
	uint32_t buf_id;
	struct nicring *r;
	char rem_ip[32];
	double t0, t1;

	while ((opt = getopt(argc, argv, "d:a:p:s:n:m:r:M:")) != -1) {
		switch (opt) {
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
		fprintf(stderr, "usage: nicrdma pingpong -d IFNAME -a ADDR [-p PORT] [-s SIZE] [-n ITERS] [-m MTU] [-r RX_DEPTH] [-M MAC] [SERVER]\n");
		return 2;
	}
	r = nicring_open(ifname, &err);
	if (!r)
		die(ifname, err);
	err = nicring_mem_alloc(r, size, NICPROG_MEM_REGION_ANY, &buf_id);
	if (err)
		die("NIC memory", err);
	mr.buf = buf_id;
	mr.len = size;
	mr.iova = 0x10000;
	err = nicring_mr_reg(r, &mr);
	if (err)
		die("memory region", err);
	qc.rq_depth = rx_depth;
	qc.gid[10] = qc.gid[11] = 0xff;
	memcpy(qc.gid + 12, &in, 4);
	err = nicring_qp_create(r, &qc);
	if (err)
		die("QP", err);
	srand48(getpid() * time(NULL));
	me.qpn = qc.qpn;
	me.psn = lrand48() & 0xffffff;
	memcpy(me.gid, qc.gid, 16);
	printf("  local address:  LID 0x%04x, QPN 0x%06x, PSN 0x%06x, GID ::ffff:%s\n",
	       me.lid, me.qpn, me.psn, addr);
	/* receives first, as ibv_rc_pingpong posts them before the exchange */
	for (routs = 0; routs < rx_depth; routs += n) {
		n = rx_depth - routs < 64 ? rx_depth - routs : 64;
		for (i = 0; i < (unsigned int)n; i++)
			wr[i] = (struct nicprog_rdma_wr){
				.wr_id = WRID_RECV, .qpn = qc.qpn,
				.opcode = NICPROG_WR_RECV, .lkey = mr.lkey,
				.len = size, .addr = mr.iova,
			};
		err = nicring_post(r, wr, n);
		if (err != n)
			die("post receives", err);
	}
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
	if (mac ? sscanf(mac, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &peer_mac[0],
			 &peer_mac[1], &peer_mac[2], &peer_mac[3],
			 &peer_mac[4], &peer_mac[5]) != 6 :
		  neigh_mac(ifname, rem_ip, peer_mac)) {
		fprintf(stderr, "nicrdma: no MAC for %s on %s (-M, or a neighbour entry)\n",
			rem_ip, ifname);
		return 1;
	}
	qn.qpn = qc.qpn;
	qn.dest_qpn = rem.qpn;
	qn.rq_psn = rem.psn;
	qn.sq_psn = me.psn;
	qn.mtu = mtu;
	memcpy(qn.dgid, rem.gid, 16);
	memcpy(qn.dmac, peer_mac, 6);
	err = nicring_qp_connect(r, &qn);
	if (err)
		die("connect", err);
	if (!server) {
		char msg[MSG_LEN], done[8];

		dest_msg(&me, msg);
		if (write(sock, msg, sizeof(msg)) != sizeof(msg) ||
		    read(sock, done, sizeof(done)) != sizeof("done"))
			die("exchange", EPROTO);
	}
	wr[0] = (struct nicprog_rdma_wr){
		.wr_id = WRID_SEND, .qpn = qc.qpn, .opcode = NICPROG_WR_SEND,
		.flags = NICPROG_WR_SIGNALED, .lkey = mr.lkey, .len = size,
		.addr = mr.iova,
	};
	pending = WRID_RECV;
	t0 = now();
	if (server == NULL)
		goto loop;
	if (nicring_post(r, wr, 1) != 1)
		die("post send", EIO);
	pending |= WRID_SEND;
loop:
	while (rcnt < iters || scnt < iters) {
		n = nicring_poll_cq(r, wc, 16, 5000);
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
				bad += wc[i].byte_len != size;
				if (--routs <= 1) {
					wr[1] = (struct nicprog_rdma_wr){
						.wr_id = WRID_RECV,
						.qpn = qc.qpn,
						.opcode = NICPROG_WR_RECV,
						.lkey = mr.lkey, .len = size,
						.addr = mr.iova,
					};
					for (; routs < rx_depth; routs++)
						if (nicring_post(r, &wr[1], 1) != 1)
							die("post receive", EIO);
				}
				++rcnt;
			}
			pending &= ~(unsigned int)wc[i].wr_id;
			if (scnt < iters && !pending) {
				if (nicring_post(r, wr, 1) != 1)
					die("post send", EIO);
				pending = WRID_RECV | WRID_SEND;
			}
		}
	}
	t1 = now();
	printf("%llu bytes in %.2f seconds = %.2f Mbit/sec\n",
	       (unsigned long long)size * iters * 2, t1 - t0,
	       size * iters * 2 * 8 / (t1 - t0) / 1e6);
	printf("%u iters in %.2f seconds = %.2f usec/iter\n", iters, t1 - t0,
	       (t1 - t0) * 1e6 / iters);
	if (bad) {
		fprintf(stderr, "nicrdma: %u messages of the wrong length\n", bad);
		return 1;
	}
	close(sock);
	nicring_close(r);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "pingpong"))
		return pingpong(argc - 1, argv + 1);
	fprintf(stderr, "usage: nicrdma pingpong ...\n");
	return 2;
}
