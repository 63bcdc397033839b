// SPDX-License-Identifier: GPL-2.0
/*
 * rxbench - receive frames in userspace on one core, one of four ways, and
 * say what it cost the application:
 *
 *   rxbench ring   IFNAME            nicprog pipe bound to NF output 0
 *                                    (libnicring)
 *   rxbench afxdp  IFNAME OBJ        AF_XDP socket in copy mode, OBJ
 *                                    (progs/hostxdp.o) attached natively
 *                                    redirecting UDP port 9000 to it
 *   rxbench packet IFNAME            AF_PACKET TPACKET_V3 ring
 *   rxbench udp    ADDR              UDP socket on ADDR:9000, recvmmsg()
 *
 * Each reads the first 8 bytes of every frame (a real consumer looks at
 * what it gets). -P binds the ring's pipe with notification prefetch
 * (NICPROG_BIND_PREFETCH); -c USECS and -b BYTES with notification
 * moderation (coalesce_usecs, coalesce_bytes). -L measures each frame's
 * latency from the timestamp kernel pktgen writes behind the UDP header
 * (CLOCK_REALTIME, microseconds; pktgen must build every frame:
 * clone_skb 0) and adds
 * "lat_p50_us P lat_p99_us Q lat_frames N" to the line.
 *
 * It prints "ready" once set up, then receives until
 * -n FRAMES arrived, or -i IDLE_MS passed without one after the first,
 * or -t LIMIT_MS in all, and prints one line:
 *
 *   frames N bytes B seconds S cpu_ns T syscalls C notifications K drops D
 *
 * seconds: end of the first batch to end of the last (the clock is read
 * once per batch); cpu_ns: the process's CPU time from
 * "ready" to the end (CLOCK_PROCESS_CPUTIME_ID: the scheduler's precise
 * runtime, not ticks); syscalls: the receive loop's system
 * calls (io_uring_enter, poll, recvmmsg; not the clock reads, one per
 * batch, the same for every way); notifications: nicprog
 * notification ring entries read (ring only); drops: frames the receive
 * path counted as dropped for want of room (pipe drops, AF_XDP RX ring
 * full or no fill entry, TPACKET_V3 tp_drops, UDP receive buffer errors
 * are read by the caller).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/mman.h>
#include <sys/socket.h>

#include "afxdp.h"
#include "nicring.h"

#define BATCH		256
#define UDP_PORT	9000

struct result {
	uint64_t frames, bytes, syscalls, notifications, drops;
	uint64_t first_ns, last_ns;	/* when the first and last batch ended */
	uint64_t seen;			/* frames when done() last looked */
	uint64_t sink;		/* keeps the reads of the frames */
};

static unsigned long want = ~0UL, idle_ms = 1000, limit_ms = 60000;
static struct nicprog_pipe_bind pipe_bind;	/* output 0 */
static int latency;

#define PGH_MAGIC	0xbe9be955	/* pktgen's header (net/core/pktgen.c) */
#define LAT_MAX		(1 << 20)
static uint32_t lat_us[LAT_MAX];
static uint32_t n_lat;
static struct timespec batch_ts;	/* CLOCK_REALTIME as the batch is read */
/* where pktgen's header starts: behind Ethernet, IPv4 and UDP headers,
 * or at the start of a UDP socket's payload
 */
static uint32_t pgh_off = 14 + 20 + 8;

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static uint64_t now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

static uint64_t cpu0_ns;

static void ready(void)
{
	printf("ready\n");
	fflush(stdout);
	cpu0_ns = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
}

static void die(const char *what, int err)
{
	fprintf(stderr, "rxbench: %s: %s\n", what, strerror(err));
	exit(1);
}

/* A pktgen frame's age: IPv4 without options, UDP, then pktgen's header. */
static void sample(const uint8_t *d, uint32_t len)
{
	uint32_t magic, sec, usec;
	int64_t age;

	if (len < pgh_off + 16 ||
	    (pgh_off && (d[23] != 17 || (d[14] & 15) != 5)))
		return;
	d += pgh_off;
	memcpy(&magic, d, 4);
	memcpy(&sec, d + 8, 4);
	memcpy(&usec, d + 12, 4);
	if (ntohl(magic) != PGH_MAGIC || n_lat == LAT_MAX)
		return;
	age = ((int64_t)batch_ts.tv_sec - ntohl(sec)) * 1000000 +
	      batch_ts.tv_nsec / 1000 - ntohl(usec);
	if (age >= 0)
		lat_us[n_lat++] = age;
}

static int by_value(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static void got(struct result *r, const void *data, uint32_t len)
{
	uint64_t v;

	if (latency)
		sample(data, len);
	memcpy(&v, data, sizeof(v));
	r->sink += v;
	r->frames++;
	r->bytes += len;
}

/*
 * A batch has arrived and is read now: the time its frames' ages are
 * taken at. Once per batch, as done() reads the clock: a clock read per
 * frame would cost more than the receive paths measured (in a guest whose
 * clocksource is the HPET it is a system call).
 */
static void batch_clock(void)
{
	if (latency)
		clock_gettime(CLOCK_REALTIME, &batch_ts);
}

/*
 * Whether to stop: enough frames, idle after the first, or out of time.
 * Called once before each batch, and the batch before it ended then.
 */
static int done(struct result *r, uint64_t start)
{
	uint64_t t = now_ns();

	if (r->frames != r->seen) {
		/* the batch before this one ended just now */
		if (!r->seen)
			r->first_ns = t;
		r->seen = r->frames;
		r->last_ns = t;
	}
	return r->frames >= want ||
	       (r->frames && t - r->last_ns > idle_ms * 1000000ULL) ||
	       t - start > limit_ms * 1000000ULL;
}

static void run_ring(const char *ifname, struct result *res)
{
	struct nicring_rec recs[BATCH];
	struct nicring_pipe *rx;
	struct nicring_stats st;
	struct nicring *r;
	uint64_t start;
	int err, n, i;

	r = nicring_open(ifname, &err);
	if (!r)
		die("nicring_open", -err);
	rx = nicring_rx_bind(r, 1 << 22, NICPROG_FRAMING_RECORDS, &pipe_bind,
			     &err);
	if (!rx)
		die("nicring_rx", -err);
	ready();
	start = now_ns();
	while (!done(res, start)) {
		n = nicring_peek(rx, recs, BATCH);
		if (n <= 0) {
			nicring_wait(r, 100);
			continue;
		}
		batch_clock();
		for (i = 0; i < n; i++)
			got(res, recs[i].data, recs[i].len);
		nicring_release(rx, n);
	}
	nicring_get_stats(r, &st);
	res->syscalls = st.syscalls;
	res->notifications = st.notifications;
	res->drops = nicring_drops(rx);
	nicring_close(r);
}

static void run_afxdp(const char *ifname, const char *obj_path,
		      struct result *res)
{
	struct afxdp_frame f[BATCH];
	struct bpf_program *prog;
	struct bpf_object *obj;
	int ifindex = if_nametoindex(ifname), fd, err;
	uint32_t n, i, k = 0;
	char msg[256];
	struct afxdp x;
	uint64_t start;

	obj = bpf_object__open_file(obj_path, NULL);
	if (!obj || libbpf_get_error(obj))
		die(obj_path, ENOENT);
	err = bpf_object__load(obj);
	prog = bpf_object__find_program_by_name(obj, "hostxdp");
	if (err || !prog)
		die("loading the XDP program", err ? -err : ENOENT);
	err = bpf_xdp_attach(ifindex, bpf_program__fd(prog),
			     XDP_FLAGS_DRV_MODE, NULL);
	if (err)
		die("attaching it natively", -err);
	if (afxdp_open(&x, ifname, 0, 4096, msg, sizeof(msg))) {
		fprintf(stderr, "rxbench: %s\n", msg);
		exit(1);
	}
	fd = afxdp_fd(&x);
	if (bpf_map_update_elem(bpf_object__find_map_fd_by_name(obj, "xsks"),
				&k, &fd, 0))
		die("XSKMAP", errno);
	ready();
	start = now_ns();
	while (!done(res, start)) {
		n = afxdp_peek(&x, f, BATCH);
		if (!n) {
			afxdp_wait(&x, 100);
			continue;
		}
		batch_clock();
		for (i = 0; i < n; i++)
			got(res, f[i].data, f[i].len);
		afxdp_release(&x);
	}
	res->syscalls = x.polls;
	afxdp_dropped(&x, &res->drops);
	bpf_xdp_detach(ifindex, XDP_FLAGS_DRV_MODE, NULL);
	afxdp_close(&x);
	bpf_object__close(obj);
}

#define TP_BLOCK	(1 << 20)
#define TP_BLOCKS	16
#define TP_FRAME	2048

static void run_packet(const char *ifname, struct result *res)
{
	struct tpacket_req3 req = {
		.tp_block_size = TP_BLOCK, .tp_block_nr = TP_BLOCKS,
		.tp_frame_size = TP_FRAME,
		.tp_frame_nr = TP_BLOCK / TP_FRAME * TP_BLOCKS,
		.tp_retire_blk_tov = 10,
	};
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
				   .sll_protocol = htons(ETH_P_ALL) };
	struct pollfd p = { .events = POLLIN | POLLERR };
	struct tpacket_stats_v3 st;
	socklen_t sl = sizeof(st);
	int v = TPACKET_V3, one = 1, fd;
	uint32_t blk = 0, i;
	uint64_t start;
	uint8_t *map;

	fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	if (fd < 0)
		die("socket(AF_PACKET)", errno);
	/* the frames the port receives, not the host's replies */
	if (setsockopt(fd, SOL_PACKET, PACKET_VERSION, &v, sizeof(v)) ||
	    setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one,
		       sizeof(one)) ||
	    setsockopt(fd, SOL_PACKET, PACKET_RX_RING, &req, sizeof(req)))
		die("TPACKET_V3 ring", errno);
	map = mmap(NULL, (size_t)TP_BLOCK * TP_BLOCKS, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_LOCKED, fd, 0);
	if (map == MAP_FAILED)
		die("mapping the ring", errno);
	sll.sll_ifindex = if_nametoindex(ifname);
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)))
		die("bind", errno);
	getsockopt(fd, SOL_PACKET, PACKET_STATISTICS, &st, &sl);
	p.fd = fd;
	ready();
	start = now_ns();
	while (!done(res, start)) {
		struct tpacket_block_desc *bd =
			(void *)(map + (size_t)blk * TP_BLOCK);
		struct tpacket3_hdr *h;

		if (!(__atomic_load_n(&bd->hdr.bh1.block_status,
				      __ATOMIC_ACQUIRE) & TP_STATUS_USER)) {
			res->syscalls++;
			poll(&p, 1, 100);
			continue;
		}
		batch_clock();
		h = (void *)((uint8_t *)bd + bd->hdr.bh1.offset_to_first_pkt);
		for (i = 0; i < bd->hdr.bh1.num_pkts; i++) {
			got(res, (uint8_t *)h + h->tp_mac, h->tp_snaplen);
			h = (void *)((uint8_t *)h + h->tp_next_offset);
		}
		__atomic_store_n(&bd->hdr.bh1.block_status, TP_STATUS_KERNEL,
				 __ATOMIC_RELEASE);
		blk = (blk + 1) % TP_BLOCKS;
	}
	sl = sizeof(st);
	if (!getsockopt(fd, SOL_PACKET, PACKET_STATISTICS, &st, &sl))
		res->drops = st.tp_drops;
	munmap(map, (size_t)TP_BLOCK * TP_BLOCKS);
	close(fd);
}

static void run_udp(const char *addr, struct result *res)
{
	static uint8_t bufs[BATCH][2048];
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_port = htons(UDP_PORT) };
	struct timeval tv = { .tv_sec = 0, .tv_usec = 100000 };
	struct mmsghdr msgs[BATCH];
	struct iovec iov[BATCH];
	int fd, n, i, sz = 8 << 20;
	uint64_t start;

	pgh_off = 0;
	if (inet_pton(AF_INET, addr, &sin.sin_addr) != 1)
		die(addr, EINVAL);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz)) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    bind(fd, (struct sockaddr *)&sin, sizeof(sin)))
		die("UDP socket", errno);
	for (i = 0; i < BATCH; i++) {
		iov[i].iov_base = bufs[i];
		iov[i].iov_len = sizeof(bufs[i]);
		memset(&msgs[i], 0, sizeof(msgs[i]));
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	ready();
	start = now_ns();
	while (!done(res, start)) {
		res->syscalls++;
		n = recvmmsg(fd, msgs, BATCH, MSG_WAITFORONE, NULL);
		batch_clock();
		for (i = 0; i < n; i++)
			got(res, bufs[i], msgs[i].msg_len);
	}
	close(fd);
}

int main(int argc, char **argv)
{
	struct result res = { 0 };
	const char *mode;
	int c;

	while ((c = getopt(argc, argv, "n:i:t:c:b:PL")) != -1) {
		switch (c) {
		case 'P':
			pipe_bind.flags = NICPROG_BIND_PREFETCH;
			break;
		case 'c':
			pipe_bind.coalesce_usecs = strtoul(optarg, NULL, 0);
			break;
		case 'b':
			pipe_bind.coalesce_bytes = strtoul(optarg, NULL, 0);
			break;
		case 'L':
			latency = 1;
			break;
		case 'n':
			want = strtoul(optarg, NULL, 0);
			break;
		case 'i':
			idle_ms = strtoul(optarg, NULL, 0);
			break;
		case 't':
			limit_ms = strtoul(optarg, NULL, 0);
			break;
		default:
			goto usage;
		}
	}
	if (argc - optind < 2)
		goto usage;
	mode = argv[optind];
	if (!strcmp(mode, "ring"))
		run_ring(argv[optind + 1], &res);
	else if (!strcmp(mode, "afxdp") && argc - optind == 3)
		run_afxdp(argv[optind + 1], argv[optind + 2], &res);
	else if (!strcmp(mode, "packet"))
		run_packet(argv[optind + 1], &res);
	else if (!strcmp(mode, "udp"))
		run_udp(argv[optind + 1], &res);
	else
		goto usage;
	printf("frames %llu bytes %llu seconds %.6f cpu_ns %llu syscalls %llu notifications %llu drops %llu sink %llu",
	       (unsigned long long)res.frames, (unsigned long long)res.bytes,
	       (res.last_ns - res.first_ns) / 1e9,
	       (unsigned long long)(clock_ns(CLOCK_PROCESS_CPUTIME_ID) -
				    cpu0_ns),
	       (unsigned long long)res.syscalls,
	       (unsigned long long)res.notifications,
	       (unsigned long long)res.drops,
	       (unsigned long long)(res.sink & 0xff));
	if (n_lat) {
		qsort(lat_us, n_lat, sizeof(lat_us[0]), by_value);
		printf(" lat_p50_us %u lat_p99_us %u lat_frames %u",
		       lat_us[n_lat / 2], lat_us[(uint64_t)n_lat * 99 / 100],
		       n_lat);
	}
	printf("\n");
	return 0;
usage:
	fprintf(stderr, "usage: rxbench [-n FRAMES] [-i IDLE_MS] [-t LIMIT_MS] [-P] [-c USECS [-b BYTES]] [-L] ring IFNAME | afxdp IFNAME OBJ | packet IFNAME | udp ADDR\n");
	return 2;
}
