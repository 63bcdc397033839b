/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The AllReduce workers' seeded inputs and their start line, shared by
 * the in-network worker (allreduce.c) and its host peers (arhost.c) so
 * that every method sums the same arrays and starts together.
 */
#ifndef AR_INPUT_H
#define AR_INPUT_H

#include <errno.h>
#include <stdint.h>
#include <time.h>

static inline uint64_t ar_splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* Worker @sender's element @k of the job seeded @seed. */
static inline int32_t ar_input(uint64_t seed, uint32_t sender, uint64_t k)
{
	return (int32_t)(uint32_t)ar_splitmix64(seed ^ ((uint64_t)sender << 40) ^ k);
}

/* The element every worker must end with: the sum of the N inputs. */
static inline int32_t ar_sum(uint64_t seed, uint32_t n, uint64_t k)
{
	uint32_t sum = 0, j;

	for (j = 1; j <= n; j++)
		sum += (uint32_t)ar_input(seed, j, k);
	return (int32_t)sum;
}

static inline uint64_t ar_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* a start line further ahead is a mistake, not a wait */
#define AR_START_MAX_NS	(60ull * 1000000000ull)

/*
 * Wait for the job's start line, @at ns of CLOCK_REALTIME (0: none), so
 * that setup (connections, sockets) is not timed and no worker starts
 * sending before the others are ready. Returns when the worker started,
 * or 0 (not waiting) if @at is more than AR_START_MAX_NS ahead.
 */
static inline uint64_t ar_start(uint64_t at)
{
	struct timespec ts = {
		.tv_sec = (time_t)(at / 1000000000ull),
		.tv_nsec = (long)(at % 1000000000ull),
	};

	if (at > ar_now_ns() + AR_START_MAX_NS)
		return 0;
	while (at && ar_now_ns() < at &&
	       clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
	return ar_now_ns();
}

#endif
