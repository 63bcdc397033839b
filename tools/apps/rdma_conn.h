/* SPDX-License-Identifier: GPL-2.0 */
/* The RDMA tools' peer finding (rdma_conn.c). */
#ifndef RDMA_CONN_H
#define RDMA_CONN_H

#include <stddef.h>

int read_full(int fd, void *buf, size_t len);
int tcp_open(const char *server, int port);
int neigh_mac(const char *ifname, const char *ip, unsigned char *mac);
int peer_mac(const char *opt, const char *ifname, const char *ip,
	     unsigned char *mac);
double now(void);

#endif /* RDMA_CONN_H */
