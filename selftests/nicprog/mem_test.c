// SPDX-License-Identifier: GPL-2.0
/*
 * NIC memory through a port's ring device (NICPROG_OP_MEM_*): buffers
 * allocated in the NIC's regions and copied to and from by its DMA
 * engines, through io_uring.
 *
 *   mem_test IFNAME cases SEED ROUNDS
 *	the cases below, TAP; ROUNDS of seeded fuzzing
 *   mem_test IFNAME hold SIZE COUNT [REGION]
 *	allocate COUNT buffers of SIZE bytes in REGION (default: any), fill
 *	them, say "held" and keep copying (if an engine reaches the region)
 *	until killed or the port goes (then say "gone" and exit 0)
 *   mem_test IFNAME eperm
 *	exit 0 if MEM_ALLOC fails with EPERM (run without CAP_NET_ADMIN)
 *   mem_test IFNAME time LEN N
 *	N copies of LEN bytes to the NIC in flight at once: print the
 *	microseconds from submitting them to the last completion
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"
#include "ring_lib.h"

#define RESULT(ok, ...) ksft_test_result(ok, __VA_ARGS__)
#define MiB (1U << 20)

static struct io_uring ring;
static uint64_t seed;

static uint32_t rnd(void)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return seed >> 33;
}

static int cmd(int fd, uint32_t op, void *arg, uint32_t len)
{
	return rl_cmd(&ring, fd, op, arg, len, 0);
}

static int mem_alloc(int fd, uint64_t size, uint32_t region, uint32_t *id)
{
	struct nicprog_mem_alloc a = { .size = size, .region = region };
	int res = cmd(fd, NICPROG_U_OP_MEM_ALLOC, &a, sizeof(a));

	if (!res)
		*id = a.id;
	return res;
}

static int mem_free(int fd, uint32_t id)
{
	struct nicprog_mem_free a = { .id = id };

	return cmd(fd, NICPROG_U_OP_MEM_FREE, &a, sizeof(a));
}

static int mem_copy(int fd, uint32_t id, uint32_t dir, uint64_t off,
		    void *p, uint64_t len)
{
	struct nicprog_mem_copy a = {
		.id = id, .dir = dir, .offset = off, .len = len,
		.addr = (uintptr_t)p,
	};

	return cmd(fd, NICPROG_U_OP_MEM_COPY, &a, sizeof(a));
}

static int open_port(const char *ifname)
{
	char path[64];
	int fd;

	if (rl_node(ifname, path, sizeof(path)))
		ksft_exit_fail_msg("%s has no ring device\n", ifname);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		ksft_exit_fail_msg("open %s: %s\n", path, strerror(errno));
	return fd;
}

static void fill(uint8_t *p, size_t n, uint32_t s)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)((i * 2654435761U) >> 13) ^ s;
}

/* Features: the memory commands and their limits. */
static void test_features(int fd)
{
	struct nicprog_features f = {};
	int res = cmd(fd, NICPROG_U_OP_FEATURES, &f, sizeof(f));

	RESULT(res == 0 &&
	       (f.ops >> NICPROG_OP_MEM_ALLOC & 7) == 7 &&
	       f.file_bufs == NICPROG_MEM_FILE_BUFS &&
	       f.copy_max == NICPROG_MEM_COPY_MAX &&
	       f.buf_max == NICPROG_MEM_BUF_MAX,
	       "features: the memory commands, %u buffers a file, %u-byte copies\n",
	       f.file_bufs, f.copy_max);
}

/*
 * Copies at seeded offsets and lengths (1 B to 4 MiB) write what is read
 * back, byte for byte, and a fresh buffer reads as zeros.
 */
static void test_roundtrip(int fd)
{
	uint64_t size = 8 * MiB;
	uint8_t *src = malloc(size), *dst = malloc(size);
	uint32_t id, i, len, off;
	int ok, res, bad = 0;

	if (!src || !dst)
		ksft_exit_fail_msg("out of memory\n");
	res = mem_alloc(fd, size, NICPROG_MEM_REGION_ANY, &id);
	if (res) {
		RESULT(0, "round trip: alloc %llu bytes: %s\n",
		       (unsigned long long)size, strerror(-res));
		goto out;
	}
	memset(dst, 0xa5, MiB);
	res = mem_copy(fd, id, NICPROG_MEM_FROM_NIC, size - MiB, dst, MiB);
	ok = res == (int)MiB && !dst[0] && !memcmp(dst, dst + 1, MiB - 1);
	fill(src, size, 1);
	for (i = 0; i < 48; i++) {
		len = i < 4 ? (uint32_t[]){ 1, 7, MiB, 4 * MiB }[i] :
			      1 + rnd() % (i % 3 ? 70000 : 4 * MiB);
		off = rnd() % (size - len + 1);
		res = mem_copy(fd, id, NICPROG_MEM_TO_NIC, off, src + off,
			       len);
		if (res != (int)len && bad++ < 3)
			ksft_print_msg("to nic %u at %u: %d\n", len, off, res);
		memset(dst, 0, len);
		res = mem_copy(fd, id, NICPROG_MEM_FROM_NIC, off, dst, len);
		if ((res != (int)len || memcmp(dst, src + off, len)) &&
		    bad++ < 3)
			ksft_print_msg("from nic %u at %u: %d\n", len, off,
				       res);
	}
	RESULT(ok && !bad && !mem_free(fd, id),
	       "round trip: 48 copies of 1 B to 4 MiB each way, byte-exact; a new buffer is zeros\n");
out:
	free(src);
	free(dst);
}

/* Every malformed command is refused with its errno, nothing changed. */
static void test_refusals(int fd, int fd2)
{
	uint8_t b[64];
	uint32_t id, id2, other;
	int good = 1, res;
	struct {
		const char *what;
		struct nicprog_mem_alloc a;
		uint32_t len;
		int err;
	} allocs[] = {
		{ "size 0", { .size = 0 }, 24, -EINVAL },
		{ "size past the max",
		  { .size = NICPROG_MEM_BUF_MAX + 1 }, 24, -EINVAL },
		{ "flags", { .size = 64, .flags = 1 }, 24, -EINVAL },
		{ "out id set", { .size = 64, .id = 3 }, 24, -EINVAL },
		{ "rsvd set", { .size = 64, .__rsvd = 1 }, 24, -EINVAL },
		{ "region 99", { .size = 64, .region = 99 }, 24, -EINVAL },
		{ "no room in lmem (region 0)",
		  { .size = 64 * 1024 + 1, .region = 0 }, 24, -ENOSPC },
		{ "zero length struct", { .size = 64 }, 0, -EINVAL },
	};
	unsigned int i;

	for (i = 0; i < sizeof(allocs) / sizeof(allocs[0]); i++) {
		res = cmd(fd, NICPROG_U_OP_MEM_ALLOC, &allocs[i].a,
			  allocs[i].len);
		if (res != allocs[i].err) {
			ksft_print_msg("alloc %s: %d, expected %d\n",
				       allocs[i].what, res, allocs[i].err);
			good = 0;
		}
	}
	if (mem_alloc(fd, 4096, NICPROG_MEM_REGION_ANY, &id) ||
	    mem_alloc(fd2, 4096, NICPROG_MEM_REGION_ANY, &other) ||
	    mem_alloc(fd, 4096, 0, &id2))
		ksft_exit_fail_msg("refusals: cannot allocate\n");
	memset(b, 1, sizeof(b));
	struct {
		const char *what;
		struct nicprog_mem_copy c;
		int err;
	} copies[] = {
		{ "no such buffer", { .id = 999, .dir = 1, .len = 8,
				      .addr = (uintptr_t)b }, -ENOENT },
		{ "dir 0", { .id = id, .dir = 0, .len = 8,
			     .addr = (uintptr_t)b }, -EINVAL },
		{ "dir 3", { .id = id, .dir = 3, .len = 8,
			     .addr = (uintptr_t)b }, -EINVAL },
		{ "len 0", { .id = id, .dir = 1, .len = 0,
			     .addr = (uintptr_t)b }, -EINVAL },
		{ "len past the max", { .id = id, .dir = 1,
					.len = NICPROG_MEM_COPY_MAX + 1,
					.addr = (uintptr_t)b }, -EINVAL },
		{ "past the end", { .id = id, .dir = 1, .offset = 4090,
				    .len = 8, .addr = (uintptr_t)b }, -EINVAL },
		{ "offset wraps", { .id = id, .dir = 1, .offset = ~0ULL - 3,
				    .len = 8, .addr = (uintptr_t)b }, -EINVAL },
		{ "flags", { .id = id, .dir = 1, .len = 8, .flags = 1,
			     .addr = (uintptr_t)b }, -EINVAL },
		{ "bad user address to the NIC", { .id = id, .dir = 1,
						   .len = 8, .addr = 8 },
		  -EFAULT },
		{ "bad user address from the NIC", { .id = id, .dir = 2,
						     .len = 8, .addr = 8 },
		  -EFAULT },
		{ "another file's buffer", { .id = other, .dir = 1, .len = 8,
					     .addr = (uintptr_t)b }, -ENOENT },
		{ "lmem, no DMA engine reaches it", { .id = id2, .dir = 1,
						      .len = 8,
						      .addr = (uintptr_t)b },
		  -EOPNOTSUPP },
	};

	/* another file's ids are its own: @other may equal @id */
	if (other == id)
		copies[10].c.id = 77;
	for (i = 0; i < sizeof(copies) / sizeof(copies[0]); i++) {
		res = cmd(fd, NICPROG_U_OP_MEM_COPY, &copies[i].c,
			  sizeof(copies[i].c));
		if (res != copies[i].err) {
			ksft_print_msg("copy %s: %d, expected %d\n",
				       copies[i].what, res, copies[i].err);
			good = 0;
		}
	}
	memset(b, 0, sizeof(b));
	res = mem_copy(fd, id, NICPROG_MEM_FROM_NIC, 0, b, sizeof(b));
	good &= res == sizeof(b) && !b[0] && !memcmp(b, b + 1, sizeof(b) - 1);
	good &= mem_free(fd, 999) == -ENOENT && mem_free(fd, id) == 0 &&
		mem_free(fd, id) == -ENOENT &&
		mem_copy(fd, id, 1, 0, b, 8) == -ENOENT &&
		mem_free(fd, id2) == 0 && mem_free(fd2, other) == 0;
	RESULT(good,
	       "refusals: bad sizes, regions, flags, ids, ranges, addresses and another file's buffer, each its errno; nothing written\n");
}

/* A file holds NICPROG_MEM_FILE_BUFS buffers, and no more. */
static void test_limit(int fd)
{
	uint32_t ids[NICPROG_MEM_FILE_BUFS], extra;
	int good = 1, res;
	unsigned int i;

	for (i = 0; i < NICPROG_MEM_FILE_BUFS; i++)
		if (mem_alloc(fd, 64, NICPROG_MEM_REGION_ANY, &ids[i])) {
			good = 0;
			break;
		}
	res = mem_alloc(fd, 64, NICPROG_MEM_REGION_ANY, &extra);
	good &= res == -EMFILE;
	while (i--)
		good &= !mem_free(fd, ids[i]);
	RESULT(good, "a file holds %u buffers, the next is EMFILE (%d)\n",
	       NICPROG_MEM_FILE_BUFS, res);
}

/* Seeded random memory commands: success or a refusal, never more. */
static void test_fuzz(int fd, unsigned long rounds)
{
	uint64_t buf[8], live = 0, made = 0, copies = 0;
	/* more than any buffer the fuzzer makes: no copy writes past it */
	static uint8_t data[1 << 17];
	unsigned long i, bad = 0;
	uint32_t op, len;
	int res;

	for (i = 0; i < rounds; i++) {
		struct nicprog_mem_alloc *a = (void *)buf;
		struct nicprog_mem_free *f = (void *)buf;
		struct nicprog_mem_copy *c = (void *)buf;

		memset(buf, 0, sizeof(buf));
		op = NICPROG_U_OP_MEM_ALLOC + (rnd() % 3) *
		     (NICPROG_U_OP_MEM_FREE - NICPROG_U_OP_MEM_ALLOC);
		len = rnd() % 8 ? 40 : rnd() % 72;
		if (op == NICPROG_U_OP_MEM_ALLOC) {
			a->size = rnd() % 4 ? 1 + rnd() % 70000 :
					      ((uint64_t)rnd() | 128) << 20;
			a->region = rnd() % 3 ? NICPROG_MEM_REGION_ANY :
						rnd() % 4;
		} else if (op == NICPROG_U_OP_MEM_FREE) {
			f->id = rnd() % 4 ? 1 + rnd() % 12 : rnd();
		} else {
			c->id = rnd() % 4 ? 1 + rnd() % 12 : rnd();
			c->dir = rnd() % 4;
			c->offset = rnd() % 4 ? rnd() % 70000 :
					       (uint64_t)rnd() << 32 | rnd();
			c->len = rnd() % 4 ? 1 + rnd() % 70000 : rnd();
			/* a wild address is never the test's own memory */
			c->addr = rnd() % 10 ? (uintptr_t)data :
					       (uint64_t)rnd() << 40 | rnd();
		}
		if (rnd() % 6 == 0)
			((uint32_t *)buf)[rnd() % 10] = rnd();
		res = cmd(fd, op, buf, len);
		if (op == NICPROG_U_OP_MEM_ALLOC && !res) {
			live++;
			made++;
		} else if (op == NICPROG_U_OP_MEM_FREE && !res) {
			live--;
		} else if (op == NICPROG_U_OP_MEM_COPY && res > 0) {
			copies++;
		} else if (res != -EINVAL && res != -E2BIG &&
			   res != -EFAULT && res != -ENOSPC &&
			   res != -ENOENT && res != -EOPNOTSUPP &&
			   res != -EMFILE) {
			if (bad++ < 5)
				ksft_print_msg("fuzz %lu: op %#x len %u: %d\n",
					       i, op, len, res);
		}
	}
	ksft_print_msg("fuzz: %lu commands, %llu buffers made, %llu live, %llu copies\n",
		       rounds, (unsigned long long)made,
		       (unsigned long long)live, (unsigned long long)copies);
	RESULT(!bad, "seeded fuzzer: %lu random memory commands, only success or a refusal\n",
	       rounds);
}

static int cases(const char *ifname, unsigned long rounds)
{
	int fd = open_port(ifname), fd2 = open_port(ifname);

	ksft_print_header();
	ksft_set_plan(5);
	test_features(fd);
	test_roundtrip(fd);
	test_refusals(fd, fd2);
	test_limit(fd);
	test_fuzz(fd2, rounds);
	close(fd2);
	close(fd);
	ksft_finished();
	return 0;
}

static int hold(const char *ifname, uint64_t size, unsigned int count,
		uint32_t region)
{
	int fd = open_port(ifname), res;
	uint8_t *p = malloc(size);
	uint32_t id = 0, len = size < MiB ? size : MiB;
	unsigned int i;
	int copies = 1;

	if (!p)
		return 1;
	fill(p, size, 3);
	for (i = 0; i < count; i++) {
		res = mem_alloc(fd, size, region, &id);
		if (res) {
			fprintf(stderr, "alloc %u: %s\n", i, strerror(-res));
			return 1;
		}
		res = mem_copy(fd, id, NICPROG_MEM_TO_NIC, 0, p, len);
		if (res == -EOPNOTSUPP)	/* no engine reaches the region */
			copies = 0;
		else if (res < 0)
			return 1;
	}
	printf("held\n");
	fflush(stdout);
	/* copies in flight until killed, or until the port goes */
	for (;;) {
		if (copies) {
			res = mem_copy(fd, id, NICPROG_MEM_FROM_NIC, 0, p, len);
		} else {
			usleep(10000);
			res = mem_free(fd, 0);	/* no such buffer: ENOENT */
			res = res == -ENOENT ? 0 : res;
		}
		if (res == -ENODEV) {
			printf("gone\n");
			return 0;
		}
		if (res < 0) {
			fprintf(stderr, "copy: %s\n", strerror(-res));
			return 1;
		}
	}
}

static int eperm(const char *ifname)
{
	int fd = open_port(ifname);
	uint32_t id;
	int res = mem_alloc(fd, 4096, NICPROG_MEM_REGION_ANY, &id);

	printf("alloc without CAP_NET_ADMIN: %d\n", res);
	return res == -EPERM ? 0 : 1;
}

static int timed(const char *ifname, uint32_t len, unsigned int n)
{
	int fd = open_port(ifname), res;
	struct io_uring_cqe cqe;
	struct nicprog_mem_copy c[64];
	struct timespec t0, t1;
	uint8_t *p = calloc(1, len);
	unsigned int i;
	uint32_t id;

	if (!p || n > 64 || mem_alloc(fd, len, NICPROG_MEM_REGION_ANY, &id))
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < n; i++) {
		c[i] = (struct nicprog_mem_copy){
			.id = id, .dir = NICPROG_MEM_TO_NIC, .len = len,
			.addr = (uintptr_t)p,
		};
		if (rl_queue(&ring, fd, NICPROG_U_OP_MEM_COPY, &c[i],
			     sizeof(c[i]), 0, 0, i))
			return 1;
	}
	if (io_uring_submit(&ring) != (int)n)
		return 1;
	for (i = 0; i < n; i++) {
		res = rl_reap(&ring, RL_CMD_BOUND_MS, &cqe);
		if (res || cqe.res != (int)len) {
			fprintf(stderr, "copy: %d %d\n", res, cqe.res);
			return 1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%lld\n", ((t1.tv_sec - t0.tv_sec) * 1000000000LL +
			  t1.tv_nsec - t0.tv_nsec) / 1000);
	return 0;
}

int main(int argc, char **argv)
{
	int err;

	if (argc < 3)
		goto usage;
	err = io_uring_queue_init(128, &ring, 0);
	if (err)
		ksft_exit_fail_msg("io_uring_queue_init: %s\n", strerror(-err));
	if (!strcmp(argv[2], "cases") && argc == 5) {
		seed = strtoull(argv[3], NULL, 0);
		return cases(argv[1], strtoul(argv[4], NULL, 0));
	}
	if (!strcmp(argv[2], "hold") && (argc == 5 || argc == 6))
		return hold(argv[1], strtoull(argv[3], NULL, 0),
			    strtoul(argv[4], NULL, 0),
			    argc == 6 ? strtoul(argv[5], NULL, 0) :
					NICPROG_MEM_REGION_ANY);
	if (!strcmp(argv[2], "eperm") && argc == 3)
		return eperm(argv[1]);
	if (!strcmp(argv[2], "time") && argc == 5)
		return timed(argv[1], strtoul(argv[3], NULL, 0),
			     strtoul(argv[4], NULL, 0));
usage:
	fprintf(stderr, "usage: mem_test IFNAME cases SEED ROUNDS | hold SIZE COUNT [REGION] | eperm | time LEN N\n");
	return 2;
}
