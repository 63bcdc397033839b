/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Internet checksum (RFC 1071) over bytes in network order, for the
 * tools that build frames: nicprog-plan's workloads and the selftests'
 * oracle write the same IPv4 headers.
 */
#ifndef _NICPROG_CSUM_H
#define _NICPROG_CSUM_H

#include <stdint.h>

static inline uint16_t np_inet_csum(const uint8_t *p, uint32_t len)
{
	uint32_t s = 0, i;

	for (i = 0; i + 1 < len; i += 2)
		s += (p[i] << 8) | p[i + 1];
	if (len & 1)
		s += p[len - 1] << 8;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return ~s;
}

#endif /* _NICPROG_CSUM_H */
