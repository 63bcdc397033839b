// SPDX-License-Identifier: GPL-2.0
/*
 * udp_stream - byte-exact UDP stream and flood generator for the selftests.
 *
 *   udp_stream recv PORT COUNT SEED     receive COUNT datagrams, in order,
 *                                       each byte checked; exit 0 if exact
 *   udp_stream send ADDR PORT COUNT SEED
 *   udp_stream flood ADDR PORT SECONDS  send as fast as possible, ignoring
 *                                       errors, for SECONDS; prints the count
 *
 * Datagram i carries a header (magic, seq, len) and len payload bytes that
 * are a function of (SEED, i); sizes vary from 1 to 8000 bytes, so many are
 * IP fragments on a 1500-byte MTU. The receiver acknowledges every WINDOW
 * datagrams and the sender waits for that before going on, so the stream is
 * lossless without depending on buffer sizes. Every wait is bounded.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAGIC		0x6e696370u	/* "nicp" */
#define WINDOW		16
#define MAX_PAYLOAD	8000
#define WAIT_MS		5000
/*
 * The receiver starts first and the sender may come much later on a busy
 * machine (the demo's, beside five other guests, came after WAIT_MS had
 * passed): the first datagram may take this long; a stream that stops,
 * WAIT_MS.
 */
#define FIRST_WAIT_MS	60000

struct hdr {
	uint32_t magic;
	uint32_t seq;
	uint32_t len;
};

static uint32_t mix(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352dU;
	x ^= x >> 15;
	x *= 0x846ca68bU;
	x ^= x >> 16;
	return x;
}

static uint32_t payload_len(uint32_t seed, uint32_t seq)
{
	return 1 + mix(seed * 31 + seq) % MAX_PAYLOAD;
}

static void fill(uint8_t *p, uint32_t len, uint32_t seed, uint32_t seq)
{
	uint32_t i, x = mix(seed ^ (seq * 2654435761U));

	for (i = 0; i < len; i++) {
		x = x * 1664525U + 1013904223U;
		p[i] = x >> 24;
	}
}

static int wait_readable(int fd, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	return poll(&pfd, 1, ms) == 1;
}

static int do_recv(int port, uint32_t count, uint32_t seed)
{
	static uint8_t buf[sizeof(struct hdr) + MAX_PAYLOAD + 1];
	static uint8_t want[MAX_PAYLOAD];
	struct sockaddr_in addr = { .sin_family = AF_INET,
				    .sin_port = htons(port) };
	struct sockaddr_in from;
	socklen_t flen;
	uint64_t bytes = 0;
	uint32_t seq = 0;
	struct hdr h;
	ssize_t n;
	int fd;

	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		perror("udp_stream: bind");
		return 1;
	}
	while (seq < count) {
		if (!wait_readable(fd, seq ? WAIT_MS : FIRST_WAIT_MS)) {
			fprintf(stderr, "udp_stream: timeout waiting for datagram %u of %u\n",
				seq, count);
			return 1;
		}
		flen = sizeof(from);
		n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from,
			     &flen);
		if (n < (ssize_t)sizeof(h)) {
			fprintf(stderr, "udp_stream: short datagram (%zd bytes)\n", n);
			return 1;
		}
		memcpy(&h, buf, sizeof(h));
		if (h.magic != MAGIC || h.seq != seq ||
		    h.len != payload_len(seed, seq) ||
		    (size_t)n != sizeof(h) + h.len) {
			fprintf(stderr, "udp_stream: datagram %u: bad header (seq %u len %u size %zd)\n",
				seq, h.seq, h.len, n);
			return 1;
		}
		fill(want, h.len, seed, seq);
		if (memcmp(want, buf + sizeof(h), h.len)) {
			fprintf(stderr, "udp_stream: datagram %u: payload differs\n", seq);
			return 1;
		}
		bytes += h.len;
		seq++;
		if (seq % WINDOW == 0 || seq == count) {
			h.seq = seq;
			if (sendto(fd, &h, sizeof(h), 0, (struct sockaddr *)&from,
				   flen) != sizeof(h)) {
				perror("udp_stream: ack");
				return 1;
			}
		}
	}
	printf("received %u datagrams, %llu payload bytes, byte-exact\n",
	       count, (unsigned long long)bytes);
	return 0;
}

static int parse_addr(const char *ip, int port, struct sockaddr_in *addr)
{
	memset(addr, 0, sizeof(*addr));
	addr->sin_family = AF_INET;
	addr->sin_port = htons(port);
	if (inet_pton(AF_INET, ip, &addr->sin_addr) != 1) {
		fprintf(stderr, "udp_stream: bad address %s\n", ip);
		return -1;
	}
	return 0;
}

static int do_send(const char *ip, int port, uint32_t count, uint32_t seed)
{
	static uint8_t buf[sizeof(struct hdr) + MAX_PAYLOAD];
	struct sockaddr_in addr;
	struct hdr h;
	uint32_t seq;
	int fd;

	if (parse_addr(ip, port, &addr))
		return 1;
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		perror("udp_stream: connect");
		return 1;
	}
	for (seq = 0; seq < count; seq++) {
		h.magic = MAGIC;
		h.seq = seq;
		h.len = payload_len(seed, seq);
		memcpy(buf, &h, sizeof(h));
		fill(buf + sizeof(h), h.len, seed, seq);
		if (send(fd, buf, sizeof(h) + h.len, 0) < 0) {
			perror("udp_stream: send");
			return 1;
		}
		if ((seq + 1) % WINDOW && seq + 1 != count)
			continue;
		if (!wait_readable(fd, WAIT_MS) ||
		    recv(fd, &h, sizeof(h), 0) != sizeof(h) ||
		    h.magic != MAGIC || h.seq != seq + 1) {
			fprintf(stderr, "udp_stream: no acknowledgement of datagram %u\n",
				seq);
			return 1;
		}
	}
	printf("sent %u datagrams\n", count);
	return 0;
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

/*
 * Sends for @seconds by the monotonic clock, and at least once: time()'s
 * whole seconds made a one-second flood anything from a full second to
 * none at all (offload.sh's blocked-port check saw no frame once, in a
 * make check of 5ab67d9).
 */
static int do_flood(const char *ip, int port, int seconds)
{
	static uint8_t buf[1024];
	struct sockaddr_in addr;
	unsigned long long sent = 0, failed = 0;
	uint64_t end = mono_ms() + seconds * 1000ULL;
	int fd;

	if (parse_addr(ip, port, &addr))
		return 1;
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0) {
		perror("udp_stream: socket");
		return 1;
	}
	do {
		/* The device may vanish under us: that is the point. */
		if (sendto(fd, buf, sizeof(buf), MSG_DONTWAIT,
			   (struct sockaddr *)&addr, sizeof(addr)) < 0)
			failed++;
		else
			sent++;
	} while (mono_ms() < end);
	printf("flood: %llu sent, %llu failed\n", sent, failed);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "recv"))
		return do_recv(atoi(argv[2]), strtoul(argv[3], NULL, 0),
			       strtoul(argv[4], NULL, 0));
	if (argc == 6 && !strcmp(argv[1], "send"))
		return do_send(argv[2], atoi(argv[3]),
			       strtoul(argv[4], NULL, 0),
			       strtoul(argv[5], NULL, 0));
	if (argc == 5 && !strcmp(argv[1], "flood"))
		return do_flood(argv[2], atoi(argv[3]), atoi(argv[4]));
	fprintf(stderr,
		"usage: udp_stream recv PORT COUNT SEED\n"
		"       udp_stream send ADDR PORT COUNT SEED\n"
		"       udp_stream flood ADDR PORT SECONDS\n");
	return 2;
}
