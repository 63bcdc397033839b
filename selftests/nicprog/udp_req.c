// SPDX-License-Identifier: GPL-2.0
/*
 * udp_req - a UDP client for the ring applications' tests: each line of
 * stdin (its newline dropped) is one datagram to ADDR:PORT, from a socket
 * of the host stack. It prints each reply on a line of its own ("TIMEOUT"
 * after 2 s without one), or with -q expects none and paces the sends.
 *
 *   udp_req [-q] ADDR PORT < requests
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_in to = { .sin_family = AF_INET };
	int quiet = argc > 1 && !strcmp(argv[1], "-q");
	char line[2048], buf[2048];
	struct pollfd p;
	unsigned long n = 0;
	ssize_t len;
	int fd;

	if (argc != 3 + quiet ||
	    inet_pton(AF_INET, argv[1 + quiet], &to.sin_addr) != 1) {
		fprintf(stderr, "usage: udp_req [-q] ADDR PORT < requests\n");
		return 2;
	}
	to.sin_port = htons(atoi(argv[2 + quiet]));
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&to, sizeof(to))) {
		perror("udp_req: socket");
		return 1;
	}
	p.fd = fd;
	p.events = POLLIN;
	while (fgets(line, sizeof(line), stdin)) {
		len = strcspn(line, "\n");
		if (send(fd, line, len, 0) != len) {
			perror("udp_req: send");
			return 1;
		}
		if (quiet) {
			if (!(++n % 32))
				usleep(2000);
			continue;
		}
		if (poll(&p, 1, 2000) != 1) {
			printf("TIMEOUT\n");
			continue;
		}
		len = recv(fd, buf, sizeof(buf), 0);
		if (len < 0) {
			printf("ERROR %s\n", strerror(errno));
			continue;
		}
		while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
			len--;
		printf("%.*s\n", (int)len, buf);
		fflush(stdout);
	}
	return 0;
}
