// SPDX-License-Identifier: GPL-2.0
/* Frames on a port's wire, for the selftests that send and catch them. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <linux/if_packet.h>
#include <sys/socket.h>

#include "kselftest.h"
#include "frame_lib.h"

/**
 * fl_udp_frame() - a UDP frame from 10.0.0.1 to 10.0.0.2
 * @f: at least @len bytes
 * @dport: its UDP destination port
 * @len: its length, at least 42
 * @seq: its payload, repeated
 *
 * Return: @len.
 */
int fl_udp_frame(uint8_t *f, uint16_t dport, int len, uint32_t seq)
{
	int i;

	memset(f, 0, len);
	memset(f, 0xff, 6);
	f[6] = 0x02;
	f[12] = 0x08;			/* IPv4 */
	f[14] = 0x45;
	f[16] = (len - 14) >> 8;
	f[17] = (len - 14) & 0xff;
	f[22] = 64;			/* TTL */
	f[23] = 17;			/* UDP */
	f[26] = 10, f[29] = 1, f[30] = 10, f[33] = 2;
	f[34] = 0x30, f[35] = 0x39;	/* source port 12345 */
	f[36] = dport >> 8, f[37] = dport & 0xff;
	f[38] = (len - 34) >> 8, f[39] = (len - 34) & 0xff;
	for (i = 42; i + 4 <= len; i += 4)
		memcpy(f + i, &seq, 4);
	return len;
}

/**
 * fl_send() - send a frame out of a port; the test fails if it cannot
 * @pkt_fd: an AF_PACKET raw socket
 * @ifindex: the port
 * @f: the frame
 * @len: its length
 */
void fl_send(int pkt_fd, int ifindex, const uint8_t *f, int len)
{
	struct sockaddr_ll to = {
		.sll_family = AF_PACKET, .sll_ifindex = ifindex,
		.sll_halen = 6,
	};

	if (sendto(pkt_fd, f, len, 0, (struct sockaddr *)&to, sizeof(to)) !=
	    len)
		ksft_exit_fail_msg("send: %s\n", strerror(errno));
}

/**
 * fl_recv() - the next frame that arrived at a packet socket from the wire
 * @fd: an AF_PACKET raw socket bound to the port
 * @buf: at least 2048 bytes
 * @ms: how long to wait for each frame
 *
 * Return: its length, or -1 after @ms without one (the port's own
 * transmissions, which the socket sees too, are skipped).
 */
int fl_recv(int fd, uint8_t *buf, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	struct sockaddr_ll from;
	socklen_t fl;
	int n;

	for (;;) {
		if (poll(&p, 1, ms) != 1)
			return -1;
		fl = sizeof(from);
		n = recvfrom(fd, buf, 2048, 0, (struct sockaddr *)&from, &fl);
		if (n >= 0 && from.sll_pkttype != PACKET_OUTGOING)
			return n;
	}
}
