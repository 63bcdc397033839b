/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Frames on a port's wire (frame_lib.c), for the selftests that send and
 * catch them: the streaming-ring tests and the AF_XDP one.
 */
#ifndef _NICPROG_FRAME_LIB_H
#define _NICPROG_FRAME_LIB_H

#include <stdint.h>

int fl_udp_frame(uint8_t *f, uint16_t dport, int len, uint32_t seq);
void fl_send(int pkt_fd, int ifindex, const uint8_t *f, int len);
int fl_recv(int fd, uint8_t *buf, int ms);

#endif /* _NICPROG_FRAME_LIB_H */
