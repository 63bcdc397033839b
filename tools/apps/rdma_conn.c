// SPDX-License-Identifier: GPL-2.0
/*
 * What the RDMA tools of tools/apps share to find their peer: TCP for the
 * out-of-band exchange (as rdma-core's tools make it, without rdma_cm),
 * the peer's Ethernet address from the neighbour table, a clock.
 */
#define _GNU_SOURCE
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "rdma_conn.h"

/* Read exactly @len bytes; -1 on EOF or error. */
int read_full(int fd, void *buf, size_t len)
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

/* A TCP connection to @server:@port, or from a client to @port. */
int tcp_open(const char *server, int port)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC,
				  .ai_socktype = SOCK_STREAM }, *res, *t;
	int fd = -1, lfd, one = 1;
	char service[8];

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
		if (fd < 0)
			fprintf(stderr, "Couldn't connect to %s:%d\n", server, port);
		return fd;
	}
	hints.ai_flags = AI_PASSIVE;
	if (getaddrinfo(NULL, service, &hints, &res))
		return -1;
	lfd = socket(res->ai_family, res->ai_socktype, res->ai_protocol);
	if (lfd < 0 ||
	    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(lfd, res->ai_addr, res->ai_addrlen) || listen(lfd, 1)) {
		freeaddrinfo(res);
		fprintf(stderr, "Couldn't listen to port %d\n", port);
		return -1;
	}
	freeaddrinfo(res);
	fd = accept(lfd, NULL, NULL);
	close(lfd);
	return fd;
}

/* The MAC of @ip on @ifname from the neighbour table. */
int neigh_mac(const char *ifname, const char *ip, unsigned char *mac)
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

/* The peer's MAC: -M's, else the neighbour entry of @ip on @ifname. */
int peer_mac(const char *opt, const char *ifname, const char *ip,
		    unsigned char *mac)
{
	if (opt ? sscanf(opt, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &mac[0], &mac[1],
			 &mac[2], &mac[3], &mac[4], &mac[5]) == 6 :
		  !neigh_mac(ifname, ip, mac))
		return 0;
	fprintf(stderr, "no MAC for %s on %s (-M, or a neighbour entry)\n",
		ip, ifname);
	return -1;
}

double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}
