// SPDX-License-Identifier: GPL-2.0
/*
 * pkt_cap - print the IPv4 TCP/UDP frames that arrive at IFNAME from its
 * wire, one line each, until COUNT did or TIMEOUT_MS passed without one:
 *
 *   DSTMAC SRC:SPORT DST:DPORT ip=ok|bad l4=ok|bad|none
 *
 * (l4: the TCP or UDP checksum over the pseudo-header; none for UDP's 0).
 *
 *   pkt_cap IFNAME COUNT TIMEOUT_MS
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

static uint32_t sum16(const uint8_t *d, uint32_t n, uint32_t s)
{
	uint32_t i;

	for (i = 0; i + 1 < n; i += 2)
		s += d[i] << 8 | d[i + 1];
	if (n & 1)
		s += d[n - 1] << 8;
	return s;
}

static int folds_to_ffff(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return s == 0xffff;
}

static void show(const uint8_t *f, int len)
{
	char src[INET_ADDRSTRLEN], dst[INET_ADDRSTRLEN];
	uint32_t ihl, tot, l4len, s;
	const uint8_t *l4;
	const char *l4ok;

	if (len < 34 || f[12] != 0x08 || f[13] != 0 || f[14] >> 4 != 4)
		return;
	ihl = (f[14] & 15) * 4;
	tot = f[16] << 8 | f[17];
	if (ihl < 20 || tot < ihl + 8 || 14 + tot > (uint32_t)len ||
	    (f[23] != 6 && f[23] != 17))
		return;
	l4 = f + 14 + ihl;
	l4len = tot - ihl;
	s = sum16(f + 26, 8, f[23] + l4len);	/* pseudo-header */
	if (f[23] == 17 && !(l4[6] | l4[7]))
		l4ok = "none";
	else
		l4ok = folds_to_ffff(sum16(l4, l4len, s)) ? "ok" : "bad";
	inet_ntop(AF_INET, f + 26, src, sizeof(src));
	inet_ntop(AF_INET, f + 30, dst, sizeof(dst));
	printf("%02x:%02x:%02x:%02x:%02x:%02x %s:%u %s:%u ip=%s l4=%s\n",
	       f[0], f[1], f[2], f[3], f[4], f[5], src, l4[0] << 8 | l4[1],
	       dst, l4[2] << 8 | l4[3],
	       folds_to_ffff(sum16(f + 14, ihl, 0)) ? "ok" : "bad", l4ok);
}

int main(int argc, char **argv)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
				   .sll_protocol = htons(ETH_P_ALL) };
	struct pollfd p = { .events = POLLIN };
	struct sockaddr_ll from;
	unsigned long want, got = 0;
	uint8_t buf[2048];
	socklen_t fl;
	int n, ms, rcvbuf = 8 << 20;

	if (argc != 4) {
		fprintf(stderr, "usage: pkt_cap IFNAME COUNT TIMEOUT_MS\n");
		return 2;
	}
	want = strtoul(argv[2], NULL, 0);
	ms = atoi(argv[3]);
	p.fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	sll.sll_ifindex = if_nametoindex(argv[1]);
	if (p.fd < 0 || !sll.sll_ifindex ||
	    bind(p.fd, (struct sockaddr *)&sll, sizeof(sll))) {
		perror("pkt_cap");
		return 1;
	}
	/*
	 * Room for every frame of a burst while this process waits for a
	 * CPU on a busy machine (with the default, 589 of 600 were captured
	 * beside six other guests); as root, past net.core.rmem_max.
	 */
	if (setsockopt(p.fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf,
		       sizeof(rcvbuf)))
		setsockopt(p.fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf,
			   sizeof(rcvbuf));
	printf("capturing\n");
	fflush(stdout);
	while (got < want && poll(&p, 1, ms) == 1) {
		fl = sizeof(from);
		n = recvfrom(p.fd, buf, sizeof(buf), 0, (struct sockaddr *)&from,
			     &fl);
		if (n < 0 || from.sll_pkttype == PACKET_OUTGOING)
			continue;
		show(buf, n);
		got++;
	}
	return 0;
}
