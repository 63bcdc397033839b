// SPDX-License-Identifier: GPL-2.0
/*
 * udp_req - a UDP client for the ring applications' tests: each line of
 * stdin (its newline dropped) is one datagram to ADDR:PORT, from a socket
 * of the host stack. It prints each reply on a line of its own ("TIMEOUT"
 * after 2 s without one), or with -q expects none and paces the sends;
 * with -f (implies -q) each line is "SPORT PAYLOAD" and goes from that
 * source port, one flow per port.
 *
 *   udp_req [-q|-f] ADDR PORT < requests
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

#define FLOWS	512

static struct sockaddr_in to = { .sin_family = AF_INET };
static int flow_fd[FLOWS];
static unsigned short flow_port[FLOWS];

/* A socket connected to the server from source port @sport. */
static int flow_socket(unsigned short sport)
{
	struct sockaddr_in from = { .sin_family = AF_INET,
				    .sin_port = htons(sport) };
	int i, fd;

	for (i = 0; i < FLOWS && flow_port[i]; i++)
		if (flow_port[i] == sport)
			return flow_fd[i];
	if (i == FLOWS)
		return -1;
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&from, sizeof(from)) ||
	    connect(fd, (struct sockaddr *)&to, sizeof(to)))
		return -1;
	flow_port[i] = sport;
	flow_fd[i] = fd;
	return fd;
}

int main(int argc, char **argv)
{
	int quiet = argc > 1 && !strcmp(argv[1], "-q");
	int flows = argc > 1 && !strcmp(argv[1], "-f");
	char line[2048], buf[2048], *msg;
	struct pollfd p;
	unsigned long n = 0;
	ssize_t len;
	int fd;

	quiet |= flows;
	if (argc != 3 + quiet ||
	    inet_pton(AF_INET, argv[1 + quiet], &to.sin_addr) != 1) {
		fprintf(stderr, "usage: udp_req [-q|-f] ADDR PORT < requests\n");
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
		msg = line;
		if (flows) {
			fd = flow_socket(strtoul(line, &msg, 10));
			if (fd < 0 || *msg++ != ' ') {
				fprintf(stderr, "udp_req: bad flow line or socket: %s", line);
				return 1;
			}
		}
		len = strcspn(msg, "\n");
		if (send(fd, msg, len, 0) != len) {
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
