// SPDX-License-Identifier: GPL-2.0
/*
 * oracle - the offloaded NF must do exactly what the same object does on
 * the host.
 *
 *   oracle OBJ IN NF OUT CAP SEED FRAMES [MAP:KEYHEX:VALHEX ...]
 *
 * IN, NF, OUT, CAP are nicsim ports: IN is wired to NF (which runs OBJ
 * offloaded), OUT to CAP. The oracle loads OBJ twice with libbpf, once
 * offloaded to NF and once on the host, applies the same initial map
 * entries to both, and sends FRAMES seeded frames (TCP, UDP, ICMP, ARP,
 * IPv6, VLAN tags, IP options, fragments, truncated and malformed headers,
 * 14 to 1514 bytes) one at a time from IN. The NIC's verdict comes from
 * NF's ethtool counters; its output from packet sockets: PASS arrives on
 * NF's host side, TX back on IN, REDIRECT (to OUT) on CAP. The host's
 * verdict and output come from BPF_PROG_TEST_RUN with NF as the ingress
 * device. Verdicts, output bytes and, at the end, every map's contents
 * must be equal. Prints TAP; exits 1 on any difference.
 *
 * The NIC side is loaded as ip link ... nicprog loads it (libnicprog,
 * tools/lib/nicprog): the first program in an XDP section, or the one
 * ORACLE_PROG names (ORACLE_SEC: the one in that section), as XDP; the
 * host side is the program of the same name, as XDP. Per-CPU maps are
 * compared by their sums over the CPUs, 64-bit word by word: the NIC's
 * cores fold onto the host's CPUs differently from where the host's test
 * runs ran, but every count must add up the same. A DEVMAP, an array of
 * ifindexes on the NIC, is compared by its non-empty slots. An XSKMAP or
 * CPUMAP stays the host's (the NIC's table of targets stands for it) and
 * is compared by the verdicts: a frame the NIC redirects to its entry is
 * what the host then did with it (xdp_redirect_host, rx_xdp_*), which for
 * an empty map is the action bpf_redirect_map() returns on a miss.
 *
 * XDP metadata a passed frame carries (bpf_xdp_adjust_meta()) is compared
 * too: the host's is what BPF_PROG_TEST_RUN returns before the frame, the
 * NIC's what a tc ingress program on NF (progs/meta_tap.o, next to the
 * oracle) finds before the frame the host stack received.
 *
 * Events the program writes with bpf_perf_event_output() are compared
 * too, frame by frame: every PERF_EVENT_ARRAY the NIC's program uses is
 * read with a perf buffer, as is the host's map of the same name, and
 * each frame must produce the same samples, byte for byte, on both. So
 * are the lines bpf_printk() writes to the trace buffer (trace_differ()).
 *
 * With ORACLE_ATTACHED set, the NIC side is the program already offloaded
 * to NF (by ip link ... nicprog obj OBJ, say), which must be the one
 * ORACLE_PROG names if set; it stays attached at the end.
 *
 * With ORACLE_HOOK set, the command it names runs once the program is
 * installed; "# plan: ok" or "# plan: not ok" reports its exit status.
 *
 * With ORACLE_BENCH set, it compares nothing: it sends the FRAMES frames
 * as fast as the NIC takes them, at most BENCH_WINDOW without a verdict
 * (so that no queue overflows), waits for the last verdict and detaches;
 * benchmarks read the NIC's counters around it. ORACLE_BENCH=flows draws
 * IPv4 source addresses from 10.128.0.0/9 instead of the small pool;
 * ORACLE_BENCH=biflows draws each IPv4 TCP and UDP frame from one of
 * BI_FLOWS connections (a source in 10.128.0.0/9 and its port, a
 * destination of the pool and its port) and sends half of them the other
 * way, addresses and ports swapped, as a stateful NF between two networks
 * sees both directions of each connection. ORACLE_BENCH=dests draws IPv4
 * destinations from MANY_DESTS addresses, 10.64.0.0 on (nf_entries.sh's
 * ESP_DESTS gives esp a security association for each).
 * ORACLE_FLOWS=flows, biflows or dests draws the frames compared so too.
 * With ORACLE_PCAP naming a capture file (pcap or pcapng, Ethernet), bench
 * mode sends its frames in order instead (again from the first when
 * FRAMES is more): a workload the predictor sees too.
 *
 * oracle --pcap-out FILE SEED FRAMES writes the frames bench mode would
 * send to a pcap file instead (pcap_out()).
 *
 * With ORACLE_HOST_CACHE naming a directory in a BPF file system, the
 * host's copy is kept there (pinned, by the object's bytes and the
 * program asked for) and the next run of the same object takes it instead
 * of loading it again: see host_prog().
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/if_packet.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <poll.h>
#include <stdbool.h>
#include <dirent.h>
#include <sys/stat.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
/* libpcap's own struct bpf_insn would clash with the kernel's */
#define PCAP_DONT_INCLUDE_PCAP_BPF_H
#include <pcap/dlt.h>
#include <pcap/pcap.h>

#include "csum.h"
#include "nicprog.h"

#define MAX_FRAME	1518
#define BENCH_WINDOW	256	/* frames in flight in bench mode */
#define BENCH_WAIT_MS	10000
/*
 * A frame's verdict and output: each comes within milliseconds, and the
 * loops end then; the bound is for one that never comes. 3 s cost a
 * verdict beside six other guests on two cores (2026-11-27).
 */
#define WAIT_MS		15000
/*
 * Between reads of the NIC's verdict counters: the verdict comes within
 * tens of microseconds, and 200 us here was a third of the oracle's time
 * (3000 frames in the test guest: 2.49 s at 200 us, 1.60 s at 10 us, the
 * same at 0).
 */
#define VERDICT_POLL_US	10
#define MAX_MAPS	16

static uint64_t rng;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng >> 16;
}

static uint32_t pick(uint32_t n)
{
	return rnd() % n;
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

/* Small address pools, so that flows, routes and ports repeat. */
static const uint32_t addrs[] = {
	0x0a000001, 0x0a000002, 0x0a010203, 0x0a0102fe, 0x0a020304,
	0xc0a80001, 0xc0a80102, 0x08080808, 0xac100001, 0x0a01ff01,
};
static const uint16_t ports[] = { 22, 53, 80, 443, 8080, 1234, 5353, 9 };
/* ORACLE_BENCH=flows: IPv4 sources from 10.128.0.0/9, for many flows */
static int many_sources;
/* ORACLE_BENCH=dests: IPv4 destinations 10.64.0.0 to 10.64.0.63 */
#define MANY_DESTS	64
static int many_dests;
/* ORACLE_BENCH=biflows: connections, seen from both sides */
#define BI_FLOWS	4096
static int bi_flows;

/* Fill @f with one corpus frame; return its length. */
static int make_frame(uint8_t *f)
{
	int len, off = 14, kind = pick(100), vlan = pick(5) == 0, l4len, ihl;
	uint32_t conn = 0, reply = 0, a, b;
	uint8_t proto;

	for (len = 0; len < MAX_FRAME; len++)
		f[len] = rnd();
	/* unicast, broadcast or random destination MAC; local source */
	if (pick(4) == 0)
		memset(f, 0xff, 6);
	f[6] = 0x02;
	len = 60 + pick(1514 - 60 + 1);
	if (vlan) {
		put16(f + 12, ETH_P_8021Q);
		put16(f + 14, pick(4096));
		off = 18;
	}
	if (kind < 3) {			/* runt: truncated headers */
		len = 14 + pick(46);
		put16(f + off - 2, pick(2) ? ETH_P_IP : ETH_P_IPV6);
		if (pick(2) && len > off)
			f[off] = 0x45;
		return len;
	}
	if (kind < 8) {			/* ARP */
		put16(f + off - 2, ETH_P_ARP);
		return len;
	}
	if (kind < 10) {		/* unknown EtherType */
		put16(f + off - 2, 0x88b5);
		return len;
	}
	if (kind < 25) {		/* IPv6 */
		static const uint8_t nh[] = { 6, 17, 58, 0, 43, 99 };

		put16(f + off - 2, ETH_P_IPV6);
		f[off] = 0x60;
		put16(f + off + 4, len - off - 40);
		f[off + 6] = nh[pick(sizeof(nh))];
		f[off + 7] = 1 + pick(64);
		put16(f + off + 40, ports[pick(8)]);
		put16(f + off + 42, ports[pick(8)]);
		return len;
	}

	/* IPv4 */
	put16(f + off - 2, ETH_P_IP);
	ihl = 5;
	if (kind < 32)
		ihl = 6 + pick(10);		/* options */
	f[off] = 0x40 | ihl;
	if (kind >= 32 && kind < 35)
		f[off] = pick(2) ? 0x44 : 0x55;	/* malformed ihl/version */
	put16(f + off + 2, kind < 38 ? pick(2000) : (uint32_t)(len - off));
	put16(f + off + 6, kind < 42 ? pick(0x4000) : 0x4000); /* frags */
	f[off + 8] = pick(4) == 0 ? pick(3) : 1 + pick(255);	/* TTL */
	proto = (uint8_t[]){ 6, 17, 1, 47 }[pick(4)];
	f[off + 9] = proto;
	memcpy(f + off + 12, &(uint32_t){ htonl(many_sources ?
		0x0a800000 | (rnd() & 0x7fffff) : addrs[pick(10)]) }, 4);
	memcpy(f + off + 16, &(uint32_t){ htonl(many_dests ?
		0x0a400000 | pick(MANY_DESTS) : addrs[pick(10)]) }, 4);
	if (bi_flows && (proto == 6 || proto == 17)) {
		conn = pick(BI_FLOWS);
		reply = pick(2);
		a = htonl(0x0a800000 | conn);
		b = htonl(addrs[conn % 10]);
		memcpy(f + off + (reply ? 16 : 12), &a, 4);
		memcpy(f + off + (reply ? 12 : 16), &b, 4);
	}
	f[off + 10] = f[off + 11] = 0;
	if ((f[off] >> 4) == 4 && ihl * 4 + off <= len) {
		uint16_t c = np_inet_csum(f + off, ihl * 4);

		if (pick(20))
			put16(f + off + 10, c);
	}
	l4len = off + ihl * 4;
	if (l4len + 20 > len)
		return len;
	if (proto == 6 || proto == 17) {
		put16(f + l4len, ports[pick(8)]);
		put16(f + l4len + 2, ports[pick(8)]);
		if (bi_flows) {
			/* the source's port from the connection, as a client's */
			put16(f + l4len + (reply ? 2 : 0), 1024 + conn);
			put16(f + l4len + (reply ? 0 : 2), ports[conn / 10 % 8]);
		}
		/* UDP: mostly the length that fits, so that NFs that trust it
		 * (esp) take their main path; else the random bytes
		 */
		if (proto == 17 && pick(4))
			put16(f + l4len + 4, len - l4len);
		if (proto == 6) {
			f[l4len + 12] = 0x50;
			/* SYN, SYN-ACK, ACK, FIN, RST, random */
			f[l4len + 13] = (uint8_t[]){ 0x02, 0x12, 0x10, 0x11,
						     0x04, rnd() }[pick(6)];
		}
	} else if (proto == 1) {
		f[l4len] = pick(3) ? 8 : pick(20);	/* echo request */
		f[l4len + 1] = pick(8) ? 0 : 1;
		f[l4len + 2] = f[l4len + 3] = 0;
		put16(f + l4len + 2, np_inet_csum(f + l4len, len - l4len));
	}
	return len;
}

static int ifindex_of(const char *name)
{
	int i = if_nametoindex(name);

	if (!i) {
		fprintf(stderr, "oracle: no interface %s\n", name);
		exit(2);
	}
	return i;
}

static int packet_socket(int ifindex)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL),
		.sll_ifindex = ifindex,
	};
	int fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK, htons(ETH_P_ALL));
	int one = 1;

	if (fd < 0 || bind(fd, (struct sockaddr *)&sll, sizeof(sll)) ||
	    setsockopt(fd, SOL_PACKET, PACKET_AUXDATA, &one, sizeof(one))) {
		perror("oracle: packet socket");
		exit(2);
	}
	return fd;
}

/*
 * Receive one incoming frame within @ms; the stack moved a VLAN tag into
 * metadata, so put it back where it was on the wire. Return its length,
 * or -1 if none came.
 */
static int recv_frame(int fd, uint8_t *buf, int ms)
{
	char cbuf[CMSG_SPACE(sizeof(struct tpacket_auxdata))];
	struct sockaddr_ll from;
	struct iovec iov = { buf + 4, MAX_FRAME + 64 };
	struct msghdr m = {
		.msg_name = &from, .msg_namelen = sizeof(from),
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	struct cmsghdr *c;
	ssize_t n;

	for (;;) {
		if (poll(&pfd, 1, ms) != 1)
			return -1;
		m.msg_controllen = sizeof(cbuf);
		n = recvmsg(fd, &m, 0);
		if (n < 0)
			return -1;
		if (from.sll_pkttype == PACKET_OUTGOING)
			continue;
		break;
	}
	for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
		struct tpacket_auxdata *aux = (void *)CMSG_DATA(c);

		if (c->cmsg_level != SOL_PACKET || c->cmsg_type != PACKET_AUXDATA ||
		    !(aux->tp_status & TP_STATUS_VLAN_VALID))
			continue;
		memmove(buf, buf + 4, 12);
		put16(buf + 12, aux->tp_vlan_tpid ? aux->tp_vlan_tpid :
						    ETH_P_8021Q);
		put16(buf + 14, aux->tp_vlan_tci);
		return n + 4;
	}
	memmove(buf, buf + 4, n);
	return n;
}

static void drain(int fd)
{
	uint8_t buf[MAX_FRAME + 128];

	while (recv_frame(fd, buf, 0) >= 0)
		;
}

/* XDP verdict counters of a nicsim port, by ethtool -S names. */
struct verdicts {
	uint64_t v[5];	/* drop, pass, tx, redirect, aborted = XDP_* - 1 */
	uint64_t rerr;	/* redirects to a target the NIC lacks */
	uint64_t rhost;	/* redirects to a host map's entry */
	uint64_t h[5];	/* rx_xdp_*: what the host did with those */
};

static int ethtool_fd;
static int stat_idx[5], stat_rerr = -1, stat_rhost = -1, stat_host[5];
static uint32_t n_stats;

/* The index of ethtool -S counter @name of @gs, or -1. */
static int stat_find(const struct ethtool_gstrings *gs, const char *name)
{
	uint32_t i;

	for (i = 0; i < gs->len; i++)
		if (!strcmp((const char *)gs->data + i * ETH_GSTRING_LEN, name))
			return i;
	return -1;
}

static void ethtool_init(const char *dev)
{
	static const char *names[] = {
		"xdp_drop", "xdp_pass", "xdp_tx", "xdp_redirect", "xdp_aborted",
	};
	static const char *host_names[] = {
		"rx_xdp_drop", "rx_xdp_pass", "rx_xdp_tx", "rx_xdp_redirect",
		"rx_xdp_aborted",
	};
	struct ethtool_drvinfo di = { .cmd = ETHTOOL_GDRVINFO };
	struct ethtool_gstrings *gs;
	struct ifreq ifr = { 0 };
	uint32_t k;

	ethtool_fd = socket(AF_INET, SOCK_DGRAM, 0);
	snprintf(ifr.ifr_name, IFNAMSIZ, "%s", dev);
	ifr.ifr_data = (void *)&di;
	if (ioctl(ethtool_fd, SIOCETHTOOL, &ifr)) {
		perror("oracle: ETHTOOL_GDRVINFO");
		exit(2);
	}
	gs = calloc(1, sizeof(*gs) + di.n_stats * ETH_GSTRING_LEN);
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_STATS;
	gs->len = di.n_stats;
	ifr.ifr_data = (void *)gs;
	if (ioctl(ethtool_fd, SIOCETHTOOL, &ifr)) {
		perror("oracle: ETHTOOL_GSTRINGS");
		exit(2);
	}
	n_stats = di.n_stats;
	stat_rerr = stat_find(gs, "xdp_redirect_err");
	stat_rhost = stat_find(gs, "xdp_redirect_host");
	for (k = 0; k < 5; k++) {
		stat_idx[k] = stat_find(gs, names[k]);
		stat_host[k] = stat_find(gs, host_names[k]);
		if (stat_idx[k] < 0 ||
		    (stat_rhost >= 0 && stat_host[k] < 0)) {
			fprintf(stderr, "oracle: %s has no %s counter\n", dev,
				stat_idx[k] < 0 ? names[k] : host_names[k]);
			exit(2);
		}
	}
	free(gs);
}

static void read_verdicts(const char *dev, struct verdicts *out)
{
	static struct ethtool_stats *st;
	struct ifreq ifr = { 0 };
	int k;

	/* the device writes all its counters: room for every one */
	if (!st)
		st = calloc(1, sizeof(*st) + (n_stats + 1) * sizeof(uint64_t));
	st->cmd = ETHTOOL_GSTATS;
	st->n_stats = 0;	/* any other count than the device's yields none */
	snprintf(ifr.ifr_name, IFNAMSIZ, "%s", dev);
	ifr.ifr_data = (void *)st;
	if (ioctl(ethtool_fd, SIOCETHTOOL, &ifr)) {
		perror("oracle: ETHTOOL_GSTATS");
		exit(2);
	}
	for (k = 0; k < 5; k++) {
		out->v[k] = st->data[stat_idx[k]];
		out->h[k] = stat_rhost >= 0 ? st->data[stat_host[k]] : 0;
	}
	out->rerr = stat_rerr >= 0 ? st->data[stat_rerr] : 0;
	out->rhost = stat_rhost >= 0 ? st->data[stat_rhost] : 0;
}

/* A counter of /sys/class/nicprog/DEV/statistics (not per namespace). */
/* The number in sysfs file @path; an unreadable one ends the run. */
static uint64_t sys_u64(const char *path)
{
	unsigned long long v = 0;
	FILE *f;

	f = fopen(path, "r");
	if (!f || fscanf(f, "%llu", &v) != 1) {
		fprintf(stderr, "oracle: cannot read %s\n", path);
		exit(2);
	}
	fclose(f);
	return v;
}

/* A nicprog port counter (/sys/class/nicprog/DEV/statistics/NAME). */
static uint64_t np_stat(const char *dev, const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "/sys/class/nicprog/%s/statistics/%s",
		 dev, name);
	return sys_u64(path);
}

/*
 * A VLAN-tagged frame too short for its tag: the receiving host stack
 * frees it in skb_vlan_untag() before any packet socket sees it, so its
 * bytes cannot be observed; its delivery and length can, from counters.
 * What the stack receives is the program's output, so a frame the
 * program shortened into such a runt (bpf_xdp_adjust_tail()) is one too.
 */
static int vlan_runt(const uint8_t *f, int len)
{
	int tpid = (f[12] << 8) | f[13];

	return len < 20 && (tpid == ETH_P_8021Q || tpid == ETH_P_8021AD);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

/*
 * The verdict the NIC gave the frame just sent: XDP_*, or -1. A redirect
 * to a host map's entry (an XSKMAP's socket, a CPUMAP's CPU) is what the
 * host then did with it: XDP_REDIRECT when the entry took it, the action
 * for a missing entry otherwise -- what bpf_redirect_map() returns on the
 * host, and BPF_PROG_TEST_RUN with it.
 */
static int nic_verdict(const char *dev, struct verdicts *prev)
{
	uint64_t end = now_ms() + WAIT_MS;
	bool host = false;
	struct verdicts cur;
	int k;

	do {
		read_verdicts(dev, &cur);
		for (k = 0; k < 5 && !host; k++) {
			if (cur.v[k] == prev->v[k])
				continue;
			if (k == 3 && cur.rhost != prev->rhost) {
				host = true;	/* the host's turn */
				break;
			}
			*prev = cur;
			return k == 4 ? XDP_ABORTED : k + 1;
		}
		for (k = 0; k < 5 && host; k++)
			if (cur.h[k] != prev->h[k]) {
				*prev = cur;
				return k == 4 ? XDP_ABORTED : k + 1;
			}
		usleep(VERDICT_POLL_US);
	} while (now_ms() < end);
	fprintf(stderr, "oracle: no verdict%s: counters %llu %llu %llu %llu %llu (idx %d %d %d %d %d)\n",
		host ? " from the host for a host map redirect" : "",
		(unsigned long long)cur.v[0], (unsigned long long)cur.v[1],
		(unsigned long long)cur.v[2], (unsigned long long)cur.v[3],
		(unsigned long long)cur.v[4], stat_idx[0], stat_idx[1],
		stat_idx[2], stat_idx[3], stat_idx[4]);
	return -1;
}

/*
 * Maps the object pins by name (a PROG_ARRAY must be pinned to keep its
 * slots) are pinned in a directory of the oracle's own for each side, so
 * that the host's copy does not take the NIC's pinned maps, nor the other
 * way round; emptied and removed at exit (bpffs takes no dots in names).
 * They are made in the BPF file
 * system ip uses (TC_BPF_MNT, else /sys/fs/bpf); NULL where that is none
 * (libbpf then refuses such an object on both sides).
 */
static char pin_dirs[2][256];

static void pin_dirs_remove(void)
{
	struct dirent *e;
	char path[sizeof(pin_dirs[0]) + 256 + 2];
	DIR *d;
	int i;

	for (i = 0; i < 2; i++) {
		if (!pin_dirs[i][0])
			continue;
		d = opendir(pin_dirs[i]);
		while (d && (e = readdir(d)))
			if (e->d_name[0] != '.' &&
			    snprintf(path, sizeof(path), "%s/%s", pin_dirs[i],
				     e->d_name) < (int)sizeof(path))
				unlink(path);
		if (d)
			closedir(d);
		rmdir(pin_dirs[i]);
	}
}

static const char *pin_dir(int host)
{
	char *dir = pin_dirs[host];

	if (!dir[0]) {
		snprintf(dir, sizeof(pin_dirs[0]), "%s/nicprog_oracle_%d_%s",
			 getenv("TC_BPF_MNT") ?: "/sys/fs/bpf", getpid(),
			 host ? "host" : "nic");
		if (mkdir(dir, 0700)) {
			dir[0] = '\0';
			return NULL;
		}
		if (!pin_dirs[!host][0])
			atexit(pin_dirs_remove);
	}
	return dir;
}

/*
 * The NIC's copy, loaded as ip link ... nicprog loads it; with @ifindex 0
 * the host's, the same program as the object defines it.
 */
static int load_prog(const char *path, int ifindex)
{
	static char why[512], log[65536];
	struct nicprog_load_opts opts = {
		.sec = getenv("ORACLE_SEC"), .prog = getenv("ORACLE_PROG"),
		.why = why, .why_len = sizeof(why),
		.log = log, .log_len = sizeof(log),
		.pin_root = pin_dir(!ifindex),
	};
	int fd = nicprog_load(path, ifindex, &opts);

	if (fd < 0) {
		fprintf(stderr, "%soracle: cannot load %s %s: %s\n", log, path,
			ifindex ? "offloaded" : "on the host", why);
		exit(2);
	}
	return fd;
}

/* The ids of the maps program @prog_fd uses, at most MAX_MAPS; -1 on error. */
static int prog_map_ids(int prog_fd, uint32_t *ids)
{
	struct bpf_prog_info info = {};
	uint32_t len = sizeof(info);

	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len) ||
	    info.nr_map_ids > MAX_MAPS)
		return -1;
	memset(&info, 0, sizeof(info));
	info.nr_map_ids = MAX_MAPS;
	info.map_ids = (uintptr_t)ids;
	len = sizeof(info);
	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len))
		return -1;
	return info.nr_map_ids;
}

/*
 * The host's copy, kept between runs of one test file (ORACLE_HOST_CACHE).
 * Its load is the same verification every run -- the same object, the
 * same program -- and it is much of a run where a program's verification
 * is long: digest.o's took 2 s on Debian's kernel and 70 s on the
 * sanitizer kernel (Documentation/nicprog/testing.rst), while the NIC's
 * copy, the one under test, is loaded anew each run. A kept copy is taken
 * only if every map it has is one that emptying returns to what a fresh
 * load gives -- an array zeroed, a hash emptied -- so that each run starts
 * as a fresh load would: maps that load with contents (.data, a
 * PROG_ARRAY's slots) or that hold more than their entries (LRU order,
 * perf events, sockets, devices) are not, and their objects load anew.
 * Read-only arrays (.rodata, frozen) stay as loaded.
 */
#define KEEP_MAX_BYTES	(64u << 20)

/* FNV-1a over @len bytes at @p, continuing @h. */
static uint64_t fnv1a(uint64_t h, const void *p, size_t len)
{
	const uint8_t *b = p;

	while (len--)
		h = (h ^ *b++) * 0x100000001b3ULL;
	return h;
}

/* Where the host's copy of @path is kept; false if nowhere. */
static bool host_cache_path(const char *path, char *out, size_t len)
{
	const char *dir = getenv("ORACLE_HOST_CACHE"), *e;
	uint64_t h = 0xcbf29ce484222325ULL;
	struct stat st;
	void *m;
	int fd;

	if (!dir || !*dir)
		return false;
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || !st.st_size) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	m = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return false;
	h = fnv1a(h, m, st.st_size);
	munmap(m, st.st_size);
	/* the program asked for, as load_prog() passes it */
	e = getenv("ORACLE_SEC");
	h = fnv1a(h, "sec=", 4);
	h = fnv1a(h, e ? e : "", e ? strlen(e) + 1 : 0);
	e = getenv("ORACLE_PROG");
	h = fnv1a(h, "prog=", 5);
	h = fnv1a(h, e ? e : "", e ? strlen(e) + 1 : 0);
	return snprintf(out, len, "%s/host_%016llx", dir,
			(unsigned long long)h) < (int)len;
}

/*
 * Return map @fd to what a fresh load gives it (@empty false: only say
 * whether it can). False for a map that emptying does not return there.
 */
static bool map_fresh(int fd, bool empty)
{
	struct bpf_map_info mi = {};
	uint32_t len = sizeof(mi), k, n, vs;
	uint8_t next[512];
	size_t bytes;
	void *keys, *vals;
	bool ok;
	int ncpu;

	if (bpf_obj_get_info_by_fd(fd, &mi, &len) || mi.key_size > sizeof(next))
		return false;
	switch (mi.type) {
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_LPM_TRIE:
		/*
		 * Emptied, these are as they were loaded. Not an LRU_HASH:
		 * its free lists keep the order of its past, and a full
		 * table evicts by it.
		 */
		if (!empty)
			return true;
		/* the first key each time: its successor may go with it */
		while (!bpf_map_get_next_key(fd, NULL, next))
			if (bpf_map_delete_elem(fd, next))
				return false;
		return errno == ENOENT;
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
		if (mi.map_flags & BPF_F_RDONLY_PROG)
			return true;	/* .rodata: the program cannot write it */
		/* .data, .data.*: loads with the object's values */
		if (strstr(mi.name, ".data"))
			return false;
		ncpu = mi.type == BPF_MAP_TYPE_PERCPU_ARRAY ?
		       libbpf_num_possible_cpus() : 1;
		vs = mi.type == BPF_MAP_TYPE_PERCPU_ARRAY ?
		     (mi.value_size + 7) / 8 * 8 : mi.value_size;
		if (ncpu < 1)
			return false;
		bytes = (size_t)mi.max_entries * (vs * ncpu + sizeof(uint32_t));
		if (bytes > KEEP_MAX_BYTES)
			return false;
		if (!empty || !mi.max_entries)
			return true;
		keys = calloc(mi.max_entries, sizeof(uint32_t));
		vals = calloc(mi.max_entries, (size_t)vs * ncpu);
		ok = keys && vals;
		for (k = 0; ok && k < mi.max_entries; k++)
			((uint32_t *)keys)[k] = k;
		n = mi.max_entries;
		ok = ok && !bpf_map_update_batch(fd, keys, vals, &n, NULL) &&
		     n == mi.max_entries;
		free(keys);
		free(vals);
		return ok;
	default:
		return false;
	}
}

/* Every map of program @fd returned to its fresh state (@empty), or can be. */
static bool maps_fresh(int prog_fd, bool empty)
{
	uint32_t ids[MAX_MAPS];
	int i, fd, n = prog_map_ids(prog_fd, ids);
	bool ok = n >= 0;

	for (i = 0; ok && i < n; i++) {
		fd = bpf_map_get_fd_by_id(ids[i]);
		ok = fd >= 0 && map_fresh(fd, empty);
		if (fd >= 0)
			close(fd);
	}
	return ok;
}

/*
 * The host's copy of @path: the kept one, its maps emptied, if there is
 * one; else loaded, and kept if its maps allow. Says which.
 */
static int host_prog(const char *path)
{
	char keep[512];
	bool cache = host_cache_path(path, keep, sizeof(keep));
	int fd;

	if (cache) {
		fd = bpf_obj_get(keep);
		if (fd >= 0 && maps_fresh(fd, true)) {
			printf("# host copy: kept from an earlier run, its maps emptied\n");
			return fd;
		}
		if (fd >= 0) {
			fprintf(stderr, "oracle: cannot empty the maps of the kept %s; loading it again\n",
				keep);
			close(fd);
			unlink(keep);
		}
	}
	fd = load_prog(path, 0);
	if (cache && maps_fresh(fd, false) && !bpf_obj_pin(fd, keep))
		printf("# host copy: loaded, kept for the next run\n");
	return fd;
}

/* The kernel's name of program @fd. */
static void prog_name(int fd, char *name)
{
	struct bpf_prog_info info = {};
	uint32_t len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
		fprintf(stderr, "oracle: cannot read the program's name\n");
		exit(2);
	}
	memcpy(name, info.name, BPF_OBJ_NAME_LEN);
}

static int hexbytes(const char *s, uint8_t *out, size_t max)
{
	size_t n = 0;
	unsigned int b;

	while (*s && n < max && sscanf(s, "%2x", &b) == 1) {
		out[n++] = b;
		s += 2;
	}
	return *s ? -1 : (int)n;
}

/* Samples one side's perf buffers gave for the current frame. */
#define MAX_EVENTS	8
#define EVENT_MAX	512
struct events {
	struct perf_buffer *pb[4];
	int n_pb;
	int n;
	uint32_t len[MAX_EVENTS];
	uint8_t data[MAX_EVENTS][EVENT_MAX];
	unsigned long total;
};

static struct events ev_nic, ev_host;

static void on_sample(void *ctx, int cpu, void *data, __u32 size)
{
	struct events *ev = ctx;

	(void)cpu;
	ev->total++;
	if (ev->n == MAX_EVENTS)
		return;
	ev->len[ev->n] = size;
	memcpy(ev->data[ev->n], data, size < EVENT_MAX ? size : EVENT_MAX);
	ev->n++;
}

static void events_open(struct events *ev, int map_fd, const char *name)
{
	struct perf_buffer *pb;

	if (ev->n_pb == 4) {
		fprintf(stderr, "oracle: more than 4 perf event maps\n");
		exit(2);
	}
	pb = perf_buffer__new(map_fd, 8, on_sample, NULL, ev, NULL);
	if (!pb) {
		fprintf(stderr, "oracle: cannot read perf event map %s: %s\n",
			name, strerror(errno));
		exit(2);
	}
	ev->pb[ev->n_pb++] = pb;
}

/* Poll @ev's buffers until it holds @want samples or @ms pass. */
static void events_poll(struct events *ev, int want, int ms)
{
	uint64_t end = now_ms() + ms;
	int p;

	do {
		for (p = 0; p < ev->n_pb; p++)
			perf_buffer__poll(ev->pb[p], 0);
		if (ev->n >= want)
			break;
		usleep(100);
	} while (now_ms() < end);
}

/* A counter of @dev's in /sys/class/net/DEV/statistics, or its mtu. */
/* A netdev attribute ("mtu") or counter (statistics/NAME) in sysfs. */
static uint64_t net_stat(const char *dev, const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "/sys/class/net/%s/%s%s", dev,
		 strcmp(name, "mtu") ? "statistics/" : "", name);
	return sys_u64(path);
}

/*
 * Does a frame of @len bytes (@out its bytes) exceed what a port of MTU
 * @mtu takes from the wire: the MTU plus the Ethernet header, plus a VLAN
 * tag's 4 if it carries one (nicsim_wire_rx(), as a NIC's receive length
 * check)?
 */
static bool too_long(uint32_t mtu, const uint8_t *out, uint32_t len)
{
	uint32_t max = mtu + ETH_HLEN;

	if (len >= ETH_HLEN && ((out[12] == 0x81 && out[13] == 0x00) ||
				(out[12] == 0x88 && out[13] == 0xa8)))
		max += 4;
	return len > max;
}

/* The two sides' samples of one frame: equal, or a difference printed. */
static int events_differ(unsigned long frame)
{
	int e;

	if (!ev_nic.n_pb)
		return 0;
	events_poll(&ev_host, MAX_EVENTS, 0);
	events_poll(&ev_nic, ev_host.n ? ev_host.n : 1, ev_host.n ? 500 : 2);
	/*
	 * A raw sample is padded to 8 bytes with its size word, and perf
	 * skips the padding without writing it: up to 7 trailing bytes are
	 * whatever the ring held, not the program's. They are not compared.
	 */
	e = ev_nic.n != ev_host.n;
	for (int k = 0; !e && k < ev_nic.n; k++) {
		uint32_t n = ev_nic.len[k] < EVENT_MAX ? ev_nic.len[k] : EVENT_MAX;

		e = ev_nic.len[k] != ev_host.len[k] ||
		    memcmp(ev_nic.data[k], ev_host.data[k], n > 7 ? n - 7 : 0);
	}
	if (e)
		printf("# frame %lu: %d samples from the NIC, %d from the host, or their bytes differ\n",
		       frame, ev_nic.n, ev_host.n);
	ev_nic.n = 0;
	ev_host.n = 0;
	return e;
}

/*
 * bpf_printk() lines, frame by frame: the host's BPF_PROG_TEST_RUN and
 * the NIC's host part both write the kernel's trace buffer through
 * bpf_trace_printk(), so the trace pipe gives the host's lines after its
 * test run and the NIC's once its verdict is counted (a host part runs
 * before the driver counts the verdict). Only the text after the event's
 * name is compared: the writing task and CPU differ.
 */
#define MAX_LINES	8
#define TRACE_LINE	192
struct lines {
	int n;
	unsigned long total;
	char text[MAX_LINES][TRACE_LINE];
};

static struct lines tr_nic, tr_host;
static int trace_fd = -1;

/*
 * The trace pipe, or a line saying why not. ip netns exec gives the run a
 * sysfs of its own, without the tracefs mounted on the host's: mounted
 * again where it belongs, in the run's own mount namespace.
 */
static void trace_open(void)
{
	static const char dir[] = "/sys/kernel/tracing";

	trace_fd = open("/sys/kernel/tracing/trace_pipe",
			O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (trace_fd < 0 && !mount("tracefs", dir, "tracefs", 0, NULL))
		trace_fd = open("/sys/kernel/tracing/trace_pipe",
				O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (trace_fd < 0)
		printf("# bpf_printk: cannot read %s/trace_pipe (%s): trace lines not compared\n",
		       dir, strerror(errno));
}

/* What the pipe holds now, its bpf_printk() lines into @l (NULL: dropped). */
static void trace_read(struct lines *l)
{
	static const char tag[] = "bpf_trace_printk: ";
	static char buf[16384];
	static size_t have;
	char *line, *nl, *t;
	ssize_t n;

	if (trace_fd < 0)
		return;
	for (;;) {
		n = read(trace_fd, buf + have, sizeof(buf) - 1 - have);
		if (n <= 0)
			break;
		have += n;
		buf[have] = 0;
		line = buf;
		while ((nl = strchr(line, '\n'))) {
			*nl = 0;
			t = strstr(line, tag);
			if (t && l) {
				l->total++;
				if (l->n < MAX_LINES)
					snprintf(l->text[l->n++], TRACE_LINE,
						 "%s", t + sizeof(tag) - 1);
			}
			line = nl + 1;
		}
		have -= line - buf;
		memmove(buf, line, have);
		if (have == sizeof(buf) - 1)
			have = 0;	/* a line longer than the buffer */
	}
}

/* The two sides' trace lines of one frame: equal, or a difference printed. */
static int trace_differ(unsigned long frame)
{
	uint64_t end = now_ms() + (tr_host.n ? 500 : 0);
	int e, k;

	for (;;) {
		trace_read(&tr_nic);
		if (tr_nic.n >= tr_host.n || now_ms() >= end)
			break;
		usleep(200);
	}
	e = tr_nic.n != tr_host.n;
	for (k = 0; !e && k < tr_nic.n; k++)
		e = strcmp(tr_nic.text[k], tr_host.text[k]);
	if (e) {
		printf("# frame %lu: %d trace lines from the NIC, %d from the host, or their text differs\n",
		       frame, tr_nic.n, tr_host.n);
		for (k = 0; k < tr_host.n; k++)
			printf("#   host: %s\n", tr_host.text[k]);
		for (k = 0; k < tr_nic.n; k++)
			printf("#   NIC:  %s\n", tr_nic.text[k]);
	}
	tr_nic.n = 0;
	tr_host.n = 0;
	return e;
}

/* The tc ingress program that records each passed frame's metadata. */
struct meta_rec {
	uint32_t seq;
	uint32_t len;
	uint8_t data[32];
};

static struct {
	struct bpf_object *obj;
	struct bpf_tc_hook hook;
	struct bpf_tc_opts opts;
	bool own_hook;
	int map_fd;
	uint32_t seq;
	unsigned long compared;
	unsigned long carried;
} tap;

static void meta_tap_open(const char *argv0, int ifindex)
{
	char path[4096];
	struct bpf_program *prog;
	int err;

	snprintf(path, sizeof(path), "%s", argv0);
	snprintf(strrchr(path, '/') ? strrchr(path, '/') + 1 : path,
		 sizeof(path) - (strrchr(path, '/') ?
				 strrchr(path, '/') + 1 - path : 0),
		 "progs/meta_tap.o");
	if (access(path, R_OK)) {
		printf("# metadata: not compared (no %s)\n", path);
		return;
	}
	tap.obj = bpf_object__open_file(path, NULL);
	if (!tap.obj || bpf_object__load(tap.obj)) {
		fprintf(stderr, "oracle: cannot load %s\n", path);
		exit(2);
	}
	prog = bpf_object__next_program(tap.obj, NULL);
	tap.map_fd = bpf_object__find_map_fd_by_name(tap.obj, "meta_seen");
	tap.hook = (struct bpf_tc_hook){ .sz = sizeof(tap.hook),
		.ifindex = ifindex, .attach_point = BPF_TC_INGRESS };
	err = bpf_tc_hook_create(&tap.hook);
	tap.own_hook = !err;
	tap.opts = (struct bpf_tc_opts){ .sz = sizeof(tap.opts),
		.prog_fd = bpf_program__fd(prog) };
	if ((err && err != -EEXIST) || tap.map_fd < 0 ||
	    bpf_tc_attach(&tap.hook, &tap.opts)) {
		fprintf(stderr, "oracle: cannot attach the metadata tap\n");
		exit(2);
	}
}

static void meta_tap_close(void)
{
	if (!tap.obj)
		return;
	printf("# metadata: %lu passed frames compared, %lu of them carried some\n",
	       tap.compared, tap.carried);
	tap.opts.prog_fd = 0;
	tap.opts.prog_id = 0;
	tap.opts.flags = 0;
	bpf_tc_detach(&tap.hook, &tap.opts);
	if (tap.own_hook)
		bpf_tc_hook_destroy(&tap.hook);
	bpf_object__close(tap.obj);
}

/* Did the host stack get @meta (@len bytes) before the last passed frame? */
static int meta_differs(const uint8_t *meta, uint32_t len,
			unsigned long frame)
{
	struct meta_rec r = { 0 };
	uint64_t end = now_ms() + 500;
	uint32_t key = 0;

	if (!tap.obj)
		return 0;
	do {
		bpf_map_lookup_elem(tap.map_fd, &key, &r);
		if (r.seq != tap.seq)
			break;
		usleep(100);
	} while (now_ms() < end);
	if (r.seq == tap.seq) {
		printf("# frame %lu: the metadata tap saw no frame\n", frame);
		return 1;
	}
	tap.seq = r.seq;
	tap.compared++;
	tap.carried += len != 0;
	if (r.len == (len < 32 ? len : 32) &&
	    !memcmp(r.data, meta, r.len))
		return 0;
	printf("# frame %lu: %u bytes of metadata reached the host, the host's run left %u\n",
	       frame, r.len, len);
	return 1;
}

/* A map one side's program uses. */
struct nic_map {
	char name[BPF_OBJ_NAME_LEN];
	int fd;
	uint32_t ks, vs;
	uint32_t type;
};

static struct nic_map nic_maps[MAX_MAPS], host_maps[MAX_MAPS];
static int n_nic_maps, n_host_maps;
static bool attached;	/* ORACLE_ATTACHED */

/* The maps program @prog_fd uses, by the ids the kernel gives. */
static void maps_of_prog(int prog_fd, struct nic_map *maps, int *n_maps)
{
	uint32_t ids[MAX_MAPS];
	int i, n = prog_map_ids(prog_fd, ids);

	if (n < 0) {
		fprintf(stderr, "oracle: cannot list the attached program's maps\n");
		exit(2);
	}
	for (i = 0; i < n; i++) {
		struct nic_map *m = &maps[*n_maps];
		struct bpf_map_info mi = {};
		uint32_t mlen = sizeof(mi);

		m->fd = bpf_map_get_fd_by_id(ids[i]);
		if (m->fd < 0 || bpf_obj_get_info_by_fd(m->fd, &mi, &mlen)) {
			fprintf(stderr, "oracle: cannot open map id %u\n", ids[i]);
			exit(2);
		}
		snprintf(m->name, sizeof(m->name), "%s", mi.name);
		m->ks = mi.key_size;
		m->vs = mi.value_size;
		m->type = mi.type;
		(*n_maps)++;
	}
}

/* The map named @name (as the kernel names it: 15 bytes) in @maps. */
static struct nic_map *map_named(struct nic_map *maps, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strncmp(maps[i].name, name, BPF_OBJ_NAME_LEN - 1))
			return &maps[i];
	return NULL;
}

/* MAP:KEYHEX:VALHEX into the same map on the NIC and on the host. */
static void init_entry(char *spec)
{
	uint8_t key[256], val[4096];
	char *name = strtok(spec, ":"), *k = strtok(NULL, ":"),
	     *v = strtok(NULL, ":");
	struct nic_map *mn, *mh;

	mn = name ? map_named(nic_maps, n_nic_maps, name) : NULL;
	mh = name ? map_named(host_maps, n_host_maps, name) : NULL;
	if (!mn || !mh || !k || !v ||
	    hexbytes(k, key, sizeof(key)) != (int)mn->ks ||
	    hexbytes(v, val, sizeof(val)) != (int)mn->vs ||
	    bpf_map_update_elem(mn->fd, key, val, BPF_ANY) ||
	    bpf_map_update_elem(mh->fd, key, val, BPF_ANY)) {
		fprintf(stderr, "oracle: bad map entry %s\n", name ? name : "");
		exit(2);
	}
}

static size_t entry_len;

static int cmp_entry(const void *a, const void *b)
{
	return memcmp(a, b, entry_len);
}

/* All (key, value) pairs of a map, each ks + vs bytes, sorted. */
static uint8_t *dump_map(int fd, uint32_t ks, uint32_t vs, int *n)
{
	size_t len = ks + vs, cap = 0;
	uint8_t key[256], next[256], *e = NULL;
	int have = 0, cnt = 0;

	while (!bpf_map_get_next_key(fd, have ? key : NULL, next) &&
	       cnt < 70000) {
		if ((size_t)cnt == cap) {
			cap = cap ? 2 * cap : 64;
			e = realloc(e, cap * len);
			if (!e) {
				fprintf(stderr, "oracle: out of memory\n");
				exit(2);
			}
		}
		memcpy(e + cnt * len, next, ks);
		if (bpf_map_lookup_elem(fd, next, e + cnt * len + ks) == 0)
			cnt++;
		memcpy(key, next, ks);
		have = 1;
	}
	entry_len = len;
	if (cnt)
		qsort(e, cnt, len, cmp_entry);
	*n = cnt;
	return e;
}

static bool percpu(enum bpf_map_type t)
{
	return t == BPF_MAP_TYPE_PERCPU_ARRAY || t == BPF_MAP_TYPE_PERCPU_HASH ||
	       t == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

/* Each value of a per-CPU dump: its CPUs' slots summed into the first. */
static void fold_cpus(uint8_t *e, int n, uint32_t ks, uint32_t vs)
{
	int cpus = libbpf_num_possible_cpus(), i, c;
	uint32_t slot = vs / (cpus > 0 ? cpus : 1), w;
	uint64_t sum, x;
	uint8_t *v;

	for (i = 0; i < n; i++) {
		v = e + (size_t)i * (ks + vs) + ks;
		for (w = 0; w + 8 <= slot; w += 8) {
			for (c = 0, sum = 0; c < cpus; c++) {
				memcpy(&x, v + (size_t)c * slot + w, 8);
				sum += x;
			}
			memcpy(v + w, &sum, 8);
		}
		memset(v + slot, 0, vs - slot);
	}
	entry_len = ks + vs;
	if (n)
		qsort(e, n, ks + vs, cmp_entry);
}

/* The entries of a dump whose value is not all zeros, in place. */
static int drop_empty(uint8_t *e, int n, uint32_t ks, uint32_t vs)
{
	int i, k = 0;
	uint32_t b;

	for (i = 0; i < n; i++) {
		const uint8_t *v = e + (size_t)i * (ks + vs) + ks;

		for (b = 0; b < vs && !v[b]; b++)
			;
		if (b == vs)
			continue;
		memmove(e + (size_t)k * (ks + vs), e + (size_t)i * (ks + vs),
			ks + vs);
		k++;
	}
	return k;
}

static int compare_maps(void)
{
	struct nic_map *mh;
	int diffs = 0, m;

	for (m = 0; m < n_nic_maps; m++) {
		const struct nic_map *mn = &nic_maps[m];
		uint32_t ks = mn->ks, vs = mn->vs;
		uint8_t *a, *b;
		int na, nb, i;

		mh = map_named(host_maps, n_host_maps, mn->name);
		if (mn->type == BPF_MAP_TYPE_PERF_EVENT_ARRAY)
			continue;	/* its events are compared per frame */
		/*
		 * The NIC's stand-in for a host map: its values are targets,
		 * the host's entries sockets or CPUs; the verdicts compared
		 * what each did with the frames.
		 */
		if (mh && (mh->type == BPF_MAP_TYPE_XSKMAP ||
			   mh->type == BPF_MAP_TYPE_CPUMAP ||
			   mh->type == BPF_MAP_TYPE_PROG_ARRAY)) {
			printf("# map %s: a host %s, its verdicts compared\n",
			       mn->name, mh->type == BPF_MAP_TYPE_XSKMAP ?
			       "XSKMAP" : mh->type == BPF_MAP_TYPE_CPUMAP ?
			       "CPUMAP" : "PROG_ARRAY");
			continue;
		}
		if (!mh || ks > 256) {
			printf("# map %s: cannot compare\n", mn->name);
			diffs++;
			continue;
		}
		a = dump_map(mn->fd, ks, vs, &na);
		b = dump_map(mh->fd, ks, vs, &nb);
		/* a devmap's empty slots are an array's zero entries */
		if (mh->type == BPF_MAP_TYPE_DEVMAP)
			na = drop_empty(a, na, ks, vs);
		if (percpu(mh->type)) {
			fold_cpus(a, na, ks, vs);
			fold_cpus(b, nb, ks, vs);
		}
		if (na != nb) {
			printf("# map %s: %d entries on the NIC, %d on the host\n",
			       mn->name, na, nb);
			diffs++;
		} else {
			for (i = 0; i < na; i++)
				if (memcmp(a + (size_t)i * (ks + vs),
					   b + (size_t)i * (ks + vs), ks + vs)) {
					printf("# map %s: entry %d differs\n",
					       mn->name, i);
					diffs++;
					break;
				}
		}
		printf("# map %s: %d entries compared\n", mn->name, na);
		free(a);
		free(b);
	}
	return diffs;
}

static void hexdump(const char *what, const uint8_t *p, int len)
{
	int i;

	printf("# %s (%d bytes):", what, len);
	for (i = 0; i < len && i < 64; i++)
		printf(" %02x", p[i]);
	printf("\n");
}

static uint64_t verdict_sum(const char *nf)
{
	struct verdicts v;
	uint64_t s = 0;
	int k;

	read_verdicts(nf, &v);
	for (k = 0; k < 5; k++)
		s += v.v[k];
	return s;
}

/* Frames the NIC dropped at a full queue (rx_fifo_errors). */
static uint64_t fifo_drops(const char *nf)
{
	char path[256];
	unsigned long long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/rx_fifo_errors",
		 nf);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%llu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

/* Of @sent frames, those not @settled (none if other frames were too). */
static uint64_t in_flight(uint64_t sent, uint64_t settled)
{
	return settled < sent ? sent - settled : 0;
}

/*
 * The frames of a capture file (pcap or pcapng, through libpcap), packed,
 * with their offsets; NULL on an error.
 */
static uint8_t *pcap_frames(const char *path, uint32_t **off, uint32_t *n)
{
	char errbuf[PCAP_ERRBUF_SIZE] = "";
	size_t used = 0, cap = 0, n_cap = 0;
	struct pcap_pkthdr *h;
	const u_char *data;
	uint8_t *buf = NULL, *p;
	pcap_t *pc;
	uint32_t *o;
	int rc = 0;

	*off = NULL;
	*n = 0;
	pc = pcap_open_offline(path, errbuf);
	if (!pc || pcap_datalink(pc) != DLT_EN10MB)
		goto bad;
	while ((rc = pcap_next_ex(pc, &h, &data)) == 1) {
		if (h->caplen != h->len || h->len > MAX_FRAME || h->len < 14)
			goto bad;
		if (used + h->len > cap) {
			cap = cap ? 2 * cap : 1 << 20;
			p = realloc(buf, cap);
			if (!p)
				goto bad;
			buf = p;
		}
		if (*n + 1 >= n_cap) {
			n_cap = n_cap ? 2 * n_cap : 1024;
			o = realloc(*off, n_cap * sizeof(*o));
			if (!o)
				goto bad;
			*off = o;
		}
		memcpy(buf + used, data, h->len);
		(*off)[(*n)++] = used;
		used += h->len;
		(*off)[*n] = used;
	}
	if (rc == PCAP_ERROR_BREAK && *n) {	/* the end of the file */
		pcap_close(pc);
		return buf;
	}
bad:
	fprintf(stderr, "oracle: %s: not a whole pcap or pcapng file of Ethernet frames of 14 to %d bytes%s%s\n",
		path, MAX_FRAME, pc ? "" : ": ", pc ? "" : errbuf);
	if (pc)
		pcap_close(pc);
	free(buf);
	free(*off);
	return NULL;
}

/* The frame mix @mix names (ORACLE_BENCH, ORACLE_FLOWS): see the top. */
static void set_mix(const char *mix)
{
	many_sources = !strcmp(mix, "flows");
	bi_flows = !strcmp(mix, "biflows");
	many_dests = !strcmp(mix, "dests");
}

/*
 * Send @frames frames, keeping at most BENCH_WINDOW without a verdict; a
 * frame the NIC dropped at a full queue (under an offered load, say) is
 * done too.
 */
static int bench(int fd, const struct sockaddr_ll *to, const char *nf,
		 int nf_idx, unsigned long frames)
{
	const char *pcap = getenv("ORACLE_PCAP");
	uint8_t frame[MAX_FRAME], *pf = NULL, *p = frame;
	uint32_t *off = NULL, n_pf = 0;
	uint64_t base, drops, done, end, settled = 0;
	unsigned long i;
	int len;

	set_mix(getenv("ORACLE_BENCH"));
	if (pcap && !(pf = pcap_frames(pcap, &off, &n_pf)))
		return 2;
	ethtool_init(nf);
	base = verdict_sum(nf);
	drops = fifo_drops(nf);
	for (i = 0; i < frames; i++) {
		if (pf) {
			p = pf + off[i % n_pf];
			len = off[i % n_pf + 1] - off[i % n_pf];
		} else {
			len = make_frame(frame);
		}
		if (sendto(fd, p, len, 0, (const struct sockaddr *)to,
			   sizeof(*to)) != len) {
			perror("oracle: send");
			return 2;
		}
		/*
		 * Frames settled (a verdict, or dropped at a full queue) as
		 * last read: the counters only grow, so an old read can only
		 * overstate what is in flight, and they are read again only
		 * when it says the window is full, not once or twice per
		 * frame: each ETHTOOL_GSTATS vzalloc()s room for the
		 * device's whole table: 22% of the samples over an oracle
		 * run on the sanitizer kernel (testing.rst). The drops are
		 * read only when the verdicts lag.
		 */
		end = now_ms() + BENCH_WAIT_MS;
		while (in_flight(i + 1, settled) > BENCH_WINDOW) {
			settled = verdict_sum(nf) - base;
			if (in_flight(i + 1, settled) > BENCH_WINDOW)
				settled += fifo_drops(nf) - drops;
			if (in_flight(i + 1, settled) <= BENCH_WINDOW)
				break;
			if (now_ms() > end) {
				fprintf(stderr, "oracle: no verdicts for %d ms\n",
					BENCH_WAIT_MS);
				return 2;
			}
			usleep(50);
		}
	}
	end = now_ms() + BENCH_WAIT_MS;
	while ((done = verdict_sum(nf) - base + fifo_drops(nf) - drops) <
	       frames && now_ms() < end)
		usleep(200);
	drops = fifo_drops(nf) - drops;
	if (!attached)
		bpf_xdp_detach(nf_idx, XDP_FLAGS_HW_MODE, NULL);
	free(pf);
	free(off);
	printf("# bench: %lu frames sent, %llu verdicts, %llu dropped\n",
	       frames, (unsigned long long)(done - drops),
	       (unsigned long long)drops);
	return done == frames ? 0 : 1;
}

/*
 * oracle --pcap-out FILE SEED FRAMES: the FRAMES frames bench mode sends
 * for SEED (ORACLE_BENCH's mix), written to a pcap file instead, on any
 * machine, no NIC needed: the traffic a model may choose from (re-seeded,
 * so that it is not judged on the frames it replays).
 */
#define PCAP_OUT_MAX	10000000	/* frames: at most 15 GB of them */
static int pcap_out(const char *path, const char *seed, const char *count)
{
	struct pcap_pkthdr h = {};
	uint8_t frame[MAX_FRAME];
	unsigned long frames, i;
	pcap_dumper_t *d;
	pcap_t *pc;
	char *e;
	int err;

	rng = strtoull(seed, &e, 0) * 0x9e3779b97f4a7c15ULL | 1;
	if (*e || !*seed || *seed == '-') {
		fprintf(stderr, "oracle: --pcap-out: SEED must be a number\n");
		return 2;
	}
	frames = strtoul(count, &e, 0);
	if (*e || !frames || *count == '-' || frames > PCAP_OUT_MAX) {
		fprintf(stderr, "oracle: --pcap-out: FRAMES must be a number from 1 to %d\n",
			PCAP_OUT_MAX);
		return 2;
	}
	set_mix(getenv("ORACLE_BENCH") ?: "");
	pc = pcap_open_dead(DLT_EN10MB, MAX_FRAME);
	d = pc ? pcap_dump_open(pc, path) : NULL;
	if (!d) {
		fprintf(stderr, "oracle: --pcap-out %s: %s\n", path,
			pc ? pcap_geterr(pc) : "no pcap handle");
		if (pc)
			pcap_close(pc);
		return 2;
	}
	for (i = 0; i < frames; i++) {
		h.len = make_frame(frame);
		h.caplen = h.len;
		h.ts.tv_usec = i % 1000000;
		h.ts.tv_sec = i / 1000000;
		pcap_dump((u_char *)d, &h, frame);
	}
	err = pcap_dump_flush(d);
	pcap_dump_close(d);
	pcap_close(pc);
	if (err) {
		fprintf(stderr, "oracle: --pcap-out %s: cannot write\n", path);
		return 2;
	}
	return 0;
}

/*
 * ORACLE_ATTACHED: the program something else (ip link ... nicprog)
 * offloaded to NF; it must be the object's, by name.
 */
static int attached_prog(int nf_idx, const char *want)
{
	struct bpf_prog_info info = {};
	uint32_t id = 0, len = sizeof(info);
	int fd;

	if (bpf_xdp_query_id(nf_idx, XDP_FLAGS_HW_MODE, &id) || !id) {
		fprintf(stderr, "oracle: no program offloaded to the NF port\n");
		exit(2);
	}
	fd = bpf_prog_get_fd_by_id(id);
	if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len)) {
		fprintf(stderr, "oracle: cannot open program id %u\n", id);
		exit(2);
	}
	if (want && strncmp(info.name, want, BPF_OBJ_NAME_LEN - 1)) {
		fprintf(stderr, "oracle: the NF port runs %s, not %s\n",
			info.name, want);
		exit(2);
	}
	return fd;
}

/* One oracle run's ports, sockets and counts, as one_frame() uses them. */
struct oracle_io {
	int in_fd, tx_fd, pass_fd, redir_fd, prog_host, nf_idx;
	struct sockaddr_ll to;
	const char *nf, *in, *out, *ports[3];
	uint32_t mtu_in, mtu_out;
	struct verdicts prev;
	unsigned long diffs, seen[6], runts, redirect_lost, oversize;
};

static const char *const vnames[] = { "ABORTED", "DROP", "PASS", "TX",
				      "REDIRECT" };

/*
 * Frame @i: run on the host (BPF_PROG_TEST_RUN), sent through the NIC,
 * its verdict, output, events, trace lines and metadata compared.
 * Return: 0, or 2 (said) when the run cannot go on.
 */
/* The host's output: metadata and frame, as BPF_PROG_TEST_RUN writes them */
#define HOST_OUT	4096

/*
 * @frame through the host's copy (BPF_PROG_TEST_RUN), its trace lines
 * read; the output without its metadata in @hout (*@hlen bytes), the
 * metadata's first bytes in @meta (*@meta_len bytes were there).
 * Return: the verdict, or -1 (said).
 */
static int host_run(int prog, int nf_idx, uint8_t *frame, int len,
		    uint8_t *hout, uint32_t *hlen, uint8_t *meta,
		    uint32_t *meta_len)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	/*
	 * data_end is the linear part in 6.1's test_run; the rest
	 * would become fragments the program cannot read directly.
	 */
	struct xdp_md ctx = { .data_end = len, .ingress_ifindex = nf_idx };
	struct xdp_md ctx_out = { 0 };
	uint32_t hmeta;

	opts.data_in = frame;
	opts.data_size_in = len;
	opts.data_out = hout;
	opts.data_size_out = HOST_OUT;
	opts.ctx_in = &ctx;
	opts.ctx_size_in = sizeof(ctx);
	opts.ctx_out = &ctx_out;
	opts.ctx_size_out = sizeof(ctx_out);
	opts.repeat = 1;
	if (bpf_prog_test_run_opts(prog, &opts)) {
		perror("oracle: BPF_PROG_TEST_RUN");
		return -1;
	}
	trace_read(&tr_host);
	/* the output starts at data_meta; ctx_out.data is the gap */
	hmeta = ctx_out.data <= opts.data_size_out ? ctx_out.data : 0;
	memcpy(meta, hout, hmeta < 32 ? hmeta : 32);
	memmove(hout, hout + hmeta, opts.data_size_out - hmeta);
	*hlen = opts.data_size_out - hmeta;
	*meta_len = hmeta;
	return opts.retval;
}

static int one_frame(struct oracle_io *io, unsigned long i)
{
	uint8_t frame[MAX_FRAME + 64], hout[HOST_OUT], nout[MAX_FRAME + 128];
	uint64_t rerr, len_err = 0, rx_bytes[3];
	const char *big;
	int k, a, runt;

	int len = make_frame(frame), hv, nv, nlen = -1, fd;
	uint8_t hmeta_bytes[32];
	uint32_t hmeta, hlen;

	drain(io->pass_fd);
	drain(io->tx_fd);
	drain(io->redir_fd);
	trace_read(NULL);
	hv = host_run(io->prog_host, io->nf_idx, frame, len, hout, &hlen,
		      hmeta_bytes, &hmeta);
	if (hv < 0)
		return 2;
	runt = vlan_runt(frame, len) ||
	       ((hv == XDP_PASS || hv == XDP_TX || hv == XDP_REDIRECT) &&
		vlan_runt(hout, hlen));
	if (runt)
		for (k = 0; k < 3; k++)
			rx_bytes[k] = np_stat(io->ports[k], "host_rx_bytes");

	/*
	 * A frame the program grew past what the receiving port takes
	 * (encapsulation): the wire drops it there, counted in that
	 * port's rx_length_errors; the host's run has no wire.
	 */
	big = NULL;
	if ((hv == XDP_TX || hv == XDP_REDIRECT) &&
	    too_long(hv == XDP_TX ? io->mtu_in : io->mtu_out, hout,
		     hlen)) {
		big = hv == XDP_TX ? io->in : io->out;
		len_err = net_stat(big, "rx_length_errors");
	}
	if (sendto(io->in_fd, frame, len, 0, (struct sockaddr *)&io->to,
		   sizeof(io->to)) != len) {
		perror("oracle: send");
		return 2;
	}
	rerr = io->prev.rerr;
	nv = nic_verdict(io->nf, &io->prev);
	k = nv == XDP_PASS ? 0 : nv == XDP_TX ? 1 : 2;
	fd = nv == XDP_PASS ? io->pass_fd : nv == XDP_TX ? io->tx_fd :
	     nv == XDP_REDIRECT ? io->redir_fd : -1;
	/*
	 * A redirect to an ifindex the NIC lacks: the verdict is the
	 * host's, and the frame goes nowhere, as when a host's
	 * xdp_do_redirect() fails; the NIC counts it apart.
	 */
	if (nv == XDP_REDIRECT && io->prev.rerr > rerr) {
		fd = -1;
		io->redirect_lost++;
	}
	if (big && nv == hv) {
		uint64_t end = now_ms() + WAIT_MS;

		while (net_stat(big, "rx_length_errors") == len_err &&
		       now_ms() < end)
			usleep(200);
		if (net_stat(big, "rx_length_errors") == len_err) {
			printf("# frame %lu: %u bytes out of the NIC, over %s's MTU, yet not counted in its rx_length_errors\n",
			       i, hlen, big);
			io->diffs++;
		}
		fd = -1;
		io->oversize++;
	}
	if (fd >= 0 && !runt)
		nlen = recv_frame(fd, nout, WAIT_MS);
	if (fd >= 0 && runt) {
		uint64_t end = now_ms() + WAIT_MS, want;

		want = rx_bytes[k] + hlen;
		while (np_stat(io->ports[k], "host_rx_bytes") != want &&
		       now_ms() < end)
			usleep(200);
		if (np_stat(io->ports[k], "host_rx_bytes") == want) {
			nlen = hlen;
			memcpy(nout, hout, nlen);	/* by length only */
			io->runts++;
		}
	}

	a = nv >= 0 && nv <= XDP_REDIRECT ? nv : 5;
	io->seen[a]++;
	if (events_differ(i) && io->diffs++ < 5)
		hexdump("sent", frame, len);
	if (trace_differ(i) && io->diffs++ < 5)
		hexdump("sent", frame, len);
	if (nv == XDP_PASS && hv == XDP_PASS && !runt && nlen >= 0 &&
	    meta_differs(hmeta_bytes, hmeta, i) && io->diffs++ < 5)
		hexdump("sent", frame, len);
	if (nv != hv || (fd >= 0 && (nlen != (int)hlen ||
				     memcmp(nout, hout, nlen)))) {
		if (io->diffs++ < 5) {
			printf("# frame %lu: NIC %s (%d bytes out), host %s (%u bytes out)\n",
			       i, a < 5 ? vnames[a] : "none", nlen,
			       hv <= XDP_REDIRECT ? vnames[hv] : "?",
			       hlen);
			hexdump("sent", frame, len);
			if (nlen > 0)
				hexdump("NIC out", nout, nlen);
			hexdump("host out", hout, hlen);
		}
	}
	return 0;
}

/*
 * The program on both sides: offloaded (or the one ip link attached) and
 * the host's copy, the same by name, their perf event maps opened.
 * Return: 0, or 2 (said).
 */
static int oracle_programs(const char *obj, int nf_idx, int *prog_nic,
			   int *prog_host)
{
	char name[BPF_OBJ_NAME_LEN], hname[BPF_OBJ_NAME_LEN];
	int k;

	attached = getenv("ORACLE_ATTACHED") != NULL;
	/* the program the loader chooses, by the name the kernel keeps */
	*prog_nic = attached ? attached_prog(nf_idx, getenv("ORACLE_PROG")) :
			       load_prog(obj, nf_idx);
	prog_name(*prog_nic, name);
	maps_of_prog(*prog_nic, nic_maps, &n_nic_maps);
	*prog_host = host_prog(obj);
	prog_name(*prog_host, hname);
	if (strcmp(name, hname)) {
		fprintf(stderr, "oracle: the NIC runs %s, the host would run %s\n",
			name, hname);
		return 2;
	}
	maps_of_prog(*prog_host, host_maps, &n_host_maps);
	for (k = 0; k < n_nic_maps; k++) {
		struct nic_map *mh = map_named(host_maps, n_host_maps,
					       nic_maps[k].name);

		if (nic_maps[k].type != BPF_MAP_TYPE_PERF_EVENT_ARRAY)
			continue;
		if (!mh) {
			fprintf(stderr, "oracle: no host map %s\n",
				nic_maps[k].name);
			return 2;
		}
		events_open(&ev_nic, nic_maps[k].fd, nic_maps[k].name);
		events_open(&ev_host, mh->fd, nic_maps[k].name);
	}
	return 0;
}

/* The run's counts and the TAP results; nonzero if anything differed. */
static int oracle_report(const struct oracle_io *io, const char *obj,
			 unsigned long frames)
{
	int k;

	printf("# %lu frames: PASS %lu, DROP %lu, TX %lu, REDIRECT %lu, ABORTED %lu, no verdict %lu\n",
	       frames, io->seen[XDP_PASS], io->seen[XDP_DROP],
	       io->seen[XDP_TX], io->seen[XDP_REDIRECT],
	       io->seen[XDP_ABORTED], io->seen[5]);
	printf("# %lu redirects to an ifindex the NIC lacks: verdict compared, the frame dropped and counted in xdp_redirect_err, as a failed xdp_do_redirect() on the host\n",
	       io->redirect_lost);
	printf("# %lu frames grown past the receiving port's MTU: verdict compared, dropped at that port and counted in its rx_length_errors\n",
	       io->oversize);
	printf("# %lu VLAN runts: verdict compared, delivery and length checked by counters (the receiving stack discards them before capture)\n",
	       io->runts);
	if (ev_nic.n_pb)
		printf("# events: %lu samples from the NIC, %lu from the host\n",
		       ev_nic.total, ev_host.total);
	if (tr_nic.total || tr_host.total)
		printf("# bpf_printk: %lu trace lines from the NIC, %lu from the host\n",
		       tr_nic.total, tr_host.total);
	printf("%s 1 %s: verdicts and output bytes equal on NIC and host for %lu frames (%lu differ)\n",
	       io->diffs ? "not ok" : "ok", obj, frames, io->diffs);
	k = compare_maps();
	printf("%s 2 %s: final map contents equal\n", k ? "not ok" : "ok", obj);
	meta_tap_close();
	printf("1..2\n");
	return io->diffs || k;
}

int main(int argc, char **argv)
{
	struct oracle_io io = { .to = { .sll_family = AF_PACKET } };
	unsigned long frames, i;
	int prog_nic, k;

	if (argc == 5 && !strcmp(argv[1], "--pcap-out"))
		return pcap_out(argv[2], argv[3], argv[4]);
	if (argc < 8) {
		fprintf(stderr, "usage: oracle OBJ IN NF OUT CAP SEED FRAMES [MAP:KEYHEX:VALHEX ...]\n"
				"       oracle --pcap-out FILE SEED FRAMES\n");
		return 2;
	}
	io.nf = argv[3];
	io.in = argv[2];
	io.out = argv[5];
	io.ports[0] = io.nf;	/* PASS: delivered to NF's host side */
	io.ports[1] = io.in;	/* TX: back on the wire to IN */
	io.ports[2] = io.out;	/* REDIRECT: out of OUT to CAP */
	rng = strtoull(argv[6], NULL, 0) * 0x9e3779b97f4a7c15ULL | 1;
	frames = strtoul(argv[7], NULL, 0);
	io.nf_idx = ifindex_of(io.nf);
	io.to.sll_ifindex = ifindex_of(io.in);
	ifindex_of(argv[4]);
	libbpf_set_print(NULL);

	if (oracle_programs(argv[1], io.nf_idx, &prog_nic, &io.prog_host))
		return 2;
	for (k = 8; k < argc; k++)
		init_entry(argv[k]);
	if (!attached &&
	    bpf_xdp_attach(io.nf_idx, prog_nic, XDP_FLAGS_HW_MODE, NULL)) {
		perror("oracle: attach offloaded");
		return 2;
	}
	/* ORACLE_HOOK: a command that inspects the installed plan */
	if (getenv("ORACLE_HOOK")) {
		fflush(stdout);
		printf("# plan: %s\n",
		       system(getenv("ORACLE_HOOK")) ? "not ok" : "ok");
	}

	if (getenv("ORACLE_FLOWS"))
		set_mix(getenv("ORACLE_FLOWS"));
	io.in_fd = packet_socket(io.to.sll_ifindex);
	if (getenv("ORACLE_BENCH"))
		return bench(io.in_fd, &io.to, io.nf, io.nf_idx, frames);
	io.tx_fd = io.in_fd;
	trace_open();
	io.pass_fd = packet_socket(io.nf_idx);
	io.redir_fd = packet_socket(ifindex_of(io.out));
	ethtool_init(io.nf);
	read_verdicts(io.nf, &io.prev);
	meta_tap_open(argv[0], io.nf_idx);
	/* where a grown frame arrives: IN for TX, OUT for a redirect */
	io.mtu_in = net_stat(io.in, "mtu");
	io.mtu_out = net_stat(io.out, "mtu");

	printf("TAP version 13\n");
	for (i = 0; i < frames; i++)
		if (one_frame(&io, i))
			return 2;
	if (!attached)
		bpf_xdp_detach(io.nf_idx, XDP_FLAGS_HW_MODE, NULL);
	k = oracle_report(&io, argv[1], frames);
	if (!attached)
		close(prog_nic);
	close(io.prog_host);
	return k;
}
