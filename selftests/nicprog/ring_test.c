// SPDX-License-Identifier: GPL-2.0
/*
 * ring_test - a port's streaming-ring device, /dev/nicprog/port<N>, through
 * io_uring (liburing): pipes are created, mapped (control page, data
 * twice), isolated per open file, bounded, destroyed; hostile commands
 * and mappings are refused with EINVAL (E2BIG, EFAULT, ENOSPC where those
 * say more) and change nothing; a seeded fuzzer of random commands never
 * breaks that; mappings outlive their pipes and files.
 *
 *   ring_test IFNAME [SEED [FUZZ_ROUNDS]]
 *   ring_test --hold IFNAME   (open, map a pipe, wait for a line on stdin,
 *                             then check every command fails with ENODEV
 *                             and the mapping still reads back)
 *   ring_test --bind IFNAME   (prints the result of binding a pipe)
 *   ring_test --park IFNAME   (a pipe bound to output 5 with backpressure,
 *                             a wait in flight, then sleeps until
 *                             killed)
 *   ring_test --fill IN NF    (NF runs progs/topipe.o: a 4 KiB pipe bound
 *                             to output 1 fills up and drops, 5 records
 *                             are released, then sleeps until killed)
 *   ring_test --echo-peer IN COUNT  (the far end of tools/apps/ringecho)
 *   ring_test --replace IN NF OBJ   (bound pipes across program replacement)
 *   ring_test --backpressure IN NF  (NF runs progs/topipe.o: a full pipe
 *                             bound with NICPROG_BIND_BACKPRESSURE)
 *   ring_test --pipe IN NF    (NF runs progs/topipe.o, IN is wired to it:
 *                             frames sent from IN to UDP port 9000 + N
 *                             arrive in the pipe bound to NF's output N)
 *
 * Pipes in use are read from /sys/class/nicprog/IFNAME/statistics/ring_pipes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <linux/nicprog.h>

#include "kselftest.h"
#include "ring_lib.h"

static struct io_uring ring;
static const char *ifname;
static char devpath[128];

/* One command through io_uring; returns the CQE's res. */
static int cmd(int fd, uint32_t op, void *arg, uint32_t len, uint32_t flags)
{
	return rl_cmd(&ring, fd, op, arg, len, flags);
}

/* A WAIT submitted and left in flight; reap() collects its result. */
static void submit_wait(int fd, uint32_t timeout_ms)
{
	static struct nicprog_wait w;
	int err;

	w.timeout_ms = timeout_ms;
	err = rl_submit(&ring, fd, NICPROG_U_OP_WAIT, &w, sizeof(w), 0, 0, 0);
	if (err)
		ksft_exit_fail_msg("io_uring_submit: %s\n", strerror(-err));
}

/* The next completion's res, or -ETIMEDOUT after @ms. */
static int reap(unsigned int ms)
{
	struct io_uring_cqe cqe;
	int err = rl_reap(&ring, ms, &cqe);

	return err ? err : cqe.res;
}

/* The next completion, copied to @out: 0, or -ETIMEDOUT after @ms. */
static int reap_cqe(unsigned int ms, struct io_uring_cqe *out)
{
	return rl_reap(&ring, ms, out);
}

#define POLL_TAG	0x706f6c6cULL

/* poll()'s revents for @fd without waiting, or -1. */
static int readable(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int n = poll(&pfd, 1, 0);

	return n < 0 ? -1 : n ? pfd.revents : 0;
}

static int do_wait(int fd, uint32_t timeout_ms)
{
	struct nicprog_wait w = { .timeout_ms = timeout_ms };

	return cmd(fd, NICPROG_U_OP_WAIT, &w, sizeof(w), 0);
}

static int create(int fd, uint32_t size, uint32_t dir, uint32_t framing,
		  struct nicprog_pipe_create *out)
{
	struct nicprog_pipe_create a = {
		.size = size, .dir = dir, .framing = framing,
	};
	int res = cmd(fd, NICPROG_U_OP_PIPE_CREATE, &a, sizeof(a), 0);

	if (out)
		*out = a;
	return res;
}

static int destroy(int fd, uint32_t id)
{
	struct nicprog_pipe_destroy a = { .id = id };

	return cmd(fd, NICPROG_U_OP_PIPE_DESTROY, &a, sizeof(a), 0);
}

/* A counter of the port's /sys/class/nicprog/IFNAME/statistics/. */
static long port_stat(const char *name)
{
	return rl_port_stat(ifname, name);
}

static long ring_pipes(void)
{
	return port_stat("ring_pipes");
}

static int open_dev(void)
{
	int fd = open(devpath, O_RDWR);

	if (fd < 0)
		ksft_exit_fail_msg("open %s: %s\n", devpath, strerror(errno));
	return fd;
}

/* devpath: the device node of port @name */
static void node_of(const char *name)
{
	if (rl_node(name, devpath, sizeof(devpath)))
		ksft_exit_fail_msg("%s has no streaming-ring device\n", name);
}

#define RESULT(cond, ...) ksft_test_result(cond, __VA_ARGS__)

static void test_node(void)
{
	char path[160], want[32];
	unsigned int ma, mi;
	struct stat st;
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/sys/class/nicprog/%s/dev", ifname);
	f = fopen(path, "r");
	ok = f && fscanf(f, "%u:%u", &ma, &mi) == 2;
	if (f)
		fclose(f);
	snprintf(want, sizeof(want), "%u:%u", ma, mi);
	ok = ok && !stat(devpath, &st) && S_ISCHR(st.st_mode) &&
	     major(st.st_rdev) == ma && minor(st.st_rdev) == mi;
	RESULT(ok, "%s is the char device %s of the port's class device\n",
	       devpath, ok ? want : "?");
}

/* A pipe maps as its control page, then its data twice. */
static void test_create_map(int fd)
{
	static const uint32_t sizes[] = { 4096, 65536, 1 << 20 };
	struct nicprog_pipe_create a;
	struct nicprog_pipe_ctrl *ctrl;
	unsigned int i, ok = 1;
	uint8_t *m, *data;
	long before = ring_pipes();

	for (i = 0; i < 3; i++) {
		uint32_t dir = i == 1 ? NICPROG_PIPE_TX : NICPROG_PIPE_RX;
		uint32_t fr = i == 2 ? NICPROG_FRAMING_STREAM :
				       NICPROG_FRAMING_RECORDS;
		int res = create(fd, sizes[i], dir, fr, &a);

		if (res || !a.id || a.mmap_off != (uint64_t)a.id << 32 ||
		    a.mmap_len != 4096 + 2ULL * sizes[i]) {
			ksft_print_msg("create %u: res %d id %u off %#llx len %llu\n",
				       sizes[i], res, a.id,
				       (unsigned long long)a.mmap_off,
				       (unsigned long long)a.mmap_len);
			ok = 0;
			continue;
		}
		m = mmap(NULL, a.mmap_len, PROT_READ | PROT_WRITE, MAP_SHARED,
			 fd, a.mmap_off);
		if (m == MAP_FAILED) {
			ksft_print_msg("mmap: %s\n", strerror(errno));
			ok = 0;
			continue;
		}
		ctrl = (void *)m;
		data = m + 4096;
		if (ctrl->version != NICPROG_RING_VERSION || ctrl->dir != dir ||
		    ctrl->framing != fr || ctrl->size != sizes[i] ||
		    ctrl->head || ctrl->tail || data[0] || data[sizes[i] - 1])
			ok = 0;
		/* the data twice: a write shows at both places */
		data[5] = 0xa5;
		data[sizes[i] + sizes[i] - 1] = 0x5a;
		if (data[sizes[i] + 5] != 0xa5 || data[sizes[i] - 1] != 0x5a)
			ok = 0;
		munmap(m, a.mmap_len);
		if (destroy(fd, a.id))
			ok = 0;
	}
	RESULT(ok && ring_pipes() == before,
	       "create, map (control page, data twice), destroy\n");
}

/* create_bad DESC EXPECT FIELDS...: a refused create changes nothing */
static int bad_create(int fd, const char *desc, int expect,
		      struct nicprog_pipe_create a, uint32_t len)
{
	long before = ring_pipes();
	int res = cmd(fd, NICPROG_U_OP_PIPE_CREATE, &a, len, 0);

	if (res == expect && ring_pipes() == before)
		return 1;
	ksft_print_msg("%s: res %d, expected %d\n", desc, res, expect);
	return 0;
}

/*
 * The features query answers what the kernel takes, and what it does not
 * take is refused with EINVAL: an opcode that is not exactly a
 * NICPROG_U_OP_* code (a bare number, another ioctl type, size or
 * direction, a number past the last), a flag of the command area, a pipe
 * or a binding outside its F_ALL mask, a framing or direction outside the
 * features' masks. ring.sh checks that none of it reached the kernel log.
 */
static void test_features(int fd)
{
	struct nicprog_features f = {}, g;
	struct nicprog_pipe_create a = {
		.size = 65536, .dir = NICPROG_PIPE_RX,
		.framing = NICPROG_FRAMING_RECORDS,
	}, b;
	struct nicprog_pipe_bind bind = {};
	long before = ring_pipes();
	uint32_t ops[] = {
		NICPROG_OP_PIPE_CREATE,		/* bare numbers */
		NICPROG_OP_FEATURES,
		_IOWR('u', NICPROG_OP_PIPE_CREATE, struct nicprog_uring_cmd),
		_IOR(NICPROG_RING_IOC_MAGIC, NICPROG_OP_PIPE_CREATE,
		     struct nicprog_uring_cmd),
		_IOWR(NICPROG_RING_IOC_MAGIC, NICPROG_OP_PIPE_CREATE,
		      struct nicprog_pipe_create),
		NICPROG_U_OP_NR(NICPROG_OP_UNSPEC),
		NICPROG_U_OP_NR(__NICPROG_OP_MAX),
		NICPROG_U_OP_NR(0xff),
	};
	int good, res;
	unsigned int i;

	res = cmd(fd, NICPROG_U_OP_FEATURES, &f, sizeof(f), 0);
	good = res == 0 &&
	       f.ops == ((1ULL << __NICPROG_OP_MAX) - 2) &&
	       f.cmd_flags == NICPROG_CMD_F_ALL &&
	       f.pipe_flags == NICPROG_PIPE_F_ALL &&
	       f.bind_flags == NICPROG_BIND_F_ALL &&
	       f.dirs == (1U << NICPROG_PIPE_RX | 1U << NICPROG_PIPE_TX) &&
	       f.framings == (1U << NICPROG_FRAMING_RECORDS |
			      1U << NICPROG_FRAMING_STREAM) &&
	       f.ring_version == NICPROG_RING_VERSION &&
	       f.outputs == NICPROG_RING_OUTPUTS &&
	       f.pipe_size_min >= NICPROG_PIPE_SIZE_MIN &&
	       f.pipe_size_max == NICPROG_PIPE_SIZE_MAX && f.file_pipes &&
	       f.file_bytes >= f.pipe_size_max;
	if (!good)
		ksft_print_msg("features: res %d ops 0x%llx flags %u/%u/%u dirs 0x%x framings 0x%x\n",
			       res, (unsigned long long)f.ops, f.cmd_flags,
			       f.pipe_flags, f.bind_flags, f.dirs, f.framings);
	/* every field is out; a short struct is zero-extended */
	memset(&g, 0, sizeof(g));
	g.outputs = 1;
	good &= cmd(fd, NICPROG_U_OP_FEATURES, &g, sizeof(g), 0) == -EINVAL;
	memset(&g, 0, sizeof(g));
	good &= cmd(fd, NICPROG_U_OP_FEATURES, &g, 8, 0) == 0 &&
		g.ops == f.ops && !g.outputs;
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		b = a;
		res = cmd(fd, ops[i], &b, sizeof(b), 0);
		if (res != -EINVAL) {
			ksft_print_msg("cmd_op 0x%x: res %d, expected EINVAL\n",
				       ops[i], res);
			good = 0;
		}
	}
	/* the command area's flags, a pipe's and a binding's */
	b = a;
	good &= cmd(fd, NICPROG_U_OP_PIPE_CREATE, &b, sizeof(b),
		    ~NICPROG_CMD_F_ALL) == -EINVAL;
	b = a;
	b.flags = (uint32_t)~NICPROG_PIPE_F_ALL;
	good &= cmd(fd, NICPROG_U_OP_PIPE_CREATE, &b, sizeof(b), 0) == -EINVAL;
	bind.flags = (uint32_t)~NICPROG_BIND_F_ALL;
	good &= cmd(fd, NICPROG_U_OP_PIPE_BIND, &bind, sizeof(bind), 0) ==
		-EINVAL;
	/* framings and directions past the features' masks */
	for (i = 0; i < 32; i++) {
		b = a;
		b.framing = i;
		res = cmd(fd, NICPROG_U_OP_PIPE_CREATE, &b, sizeof(b), 0);
		if ((res == -EINVAL) == !!(f.framings & (1U << i)))
			good = 0;
		if (!res)
			destroy(fd, b.id);
		b = a;
		b.dir = i;
		res = cmd(fd, NICPROG_U_OP_PIPE_CREATE, &b, sizeof(b), 0);
		if ((res == -EINVAL) == !!(f.dirs & (1U << i)))
			good = 0;
		if (!res)
			destroy(fd, b.id);
	}
	RESULT(good && ring_pipes() == before,
	       "features query; unknown opcodes, flags, framings, directions: EINVAL\n");
}

static void test_hostile(int fd)
{
	struct nicprog_pipe_create ok = {
		.size = 65536, .dir = NICPROG_PIPE_RX,
		.framing = NICPROG_FRAMING_RECORDS,
	}, a;
	struct {
		struct nicprog_pipe_create c;
		uint64_t extra;
	} big;
	long before = ring_pipes();
	int good = 1, res;
	void *m;

#define BAD(desc, err, field, val) \
	do { a = ok; a.field = val; good &= bad_create(fd, desc, err, a, sizeof(a)); } while (0)
	BAD("size 0", -EINVAL, size, 0);
	BAD("size 3000", -EINVAL, size, 3000);
	BAD("size not a power of two", -EINVAL, size, 65536 + 4096);
	BAD("size 2048", -EINVAL, size, 2048);
	BAD("size 128 MiB", -EINVAL, size, 128U << 20);
	BAD("size 2^31", -EINVAL, size, 1U << 31);
	BAD("direction 0", -EINVAL, dir, 0);
	BAD("direction 3", -EINVAL, dir, 3);
	BAD("direction ~0", -EINVAL, dir, ~0U);
	BAD("framing 0", -EINVAL, framing, 0);
	BAD("framing 3", -EINVAL, framing, 3);
	BAD("flags", -EINVAL, flags, 1);
	BAD("id set", -EINVAL, id, 7);
	BAD("mmap_off set", -EINVAL, mmap_off, 4096);
	BAD("mmap_len set", -EINVAL, mmap_len, 1);
	good &= bad_create(fd, "arg_len 0", -EINVAL, ok, 0);
	good &= bad_create(fd, "arg_len past a page", -EINVAL, ok, 8192);
	memset(&big, 0, sizeof(big));
	big.c = ok;
	big.extra = 1;
	res = cmd(fd, NICPROG_U_OP_PIPE_CREATE, &big, sizeof(big), 0);
	good &= res == -E2BIG;
	res = cmd(fd, NICPROG_U_OP_PIPE_CREATE, NULL, sizeof(ok), 0);
	good &= res == -EFAULT;
	res = cmd(fd, NICPROG_U_OP_PIPE_CREATE, (void *)16, sizeof(ok), 0);
	good &= res == -EFAULT;
	a = ok;
	good &= cmd(fd, NICPROG_U_OP_PIPE_CREATE, &a, sizeof(a), 1) == -EINVAL;
	good &= cmd(fd, 0, &a, sizeof(a), 0) == -EINVAL;
	good &= cmd(fd, __NICPROG_OP_MAX, &a, sizeof(a), 0) == -EINVAL;
	good &= cmd(fd, 0xffffffffU, &a, sizeof(a), 0) == -EINVAL;
	good &= destroy(fd, 0) == -EINVAL;
	good &= destroy(fd, 999) == -EINVAL;
	good &= destroy(fd, ~0U) == -EINVAL;
	RESULT(good && ring_pipes() == before,
	       "hostile commands: EINVAL/E2BIG/EFAULT, nothing changed\n");

	/* mappings: only a pipe's own offset and length, shared, no exec */
	good = !create(fd, 65536, NICPROG_PIPE_RX, NICPROG_FRAMING_RECORDS, &a);
	m = mmap(NULL, a.mmap_len, PROT_READ, MAP_SHARED, fd, a.mmap_off + 4096);
	good &= m == MAP_FAILED && errno == EINVAL;
	m = mmap(NULL, a.mmap_len - 4096, PROT_READ, MAP_SHARED, fd, a.mmap_off);
	good &= m == MAP_FAILED && errno == EINVAL;
	m = mmap(NULL, a.mmap_len + 4096, PROT_READ, MAP_SHARED, fd, a.mmap_off);
	good &= m == MAP_FAILED && errno == EINVAL;
	m = mmap(NULL, a.mmap_len, PROT_READ, MAP_PRIVATE, fd, a.mmap_off);
	good &= m == MAP_FAILED && errno == EINVAL;
	m = mmap(NULL, a.mmap_len, PROT_READ | PROT_EXEC, MAP_SHARED, fd,
		 a.mmap_off);
	good &= m == MAP_FAILED && errno == EINVAL;
	m = mmap(NULL, a.mmap_len, PROT_READ, MAP_SHARED, fd,
		 (uint64_t)(a.id + 1) << 32);
	good &= m == MAP_FAILED && errno == EINVAL;
	m = mmap(NULL, a.mmap_len, PROT_READ, MAP_SHARED, fd, a.mmap_off);
	good &= m != MAP_FAILED;
	if (m != MAP_FAILED) {
		/* growing the mapping past the pipe is refused */
		good &= mremap(m, a.mmap_len, a.mmap_len + 4096, 0) ==
			MAP_FAILED;
		munmap(m, a.mmap_len);
	}
	good &= !destroy(fd, a.id);
	good &= destroy(fd, a.id) == -EINVAL;	/* twice */
	m = mmap(NULL, a.mmap_len, PROT_READ, MAP_SHARED, fd, a.mmap_off);
	good &= m == MAP_FAILED && errno == EINVAL;
	RESULT(good && ring_pipes() == before,
	       "hostile mappings refused; a destroyed pipe no longer maps\n");
}

static void test_limits(int fd)
{
	struct nicprog_pipe_create a;
	long before = ring_pipes();
	uint32_t ids[64];
	int i, n = 0, ok;

	for (i = 0; i < 64; i++)
		if (!create(fd, 4096, NICPROG_PIPE_RX, NICPROG_FRAMING_STREAM,
			    &a))
			ids[n++] = a.id;
	ok = n == 64 && create(fd, 4096, NICPROG_PIPE_RX,
			       NICPROG_FRAMING_STREAM, NULL) == -ENOSPC &&
	     ring_pipes() == before + 64;
	for (i = 0; i < n; i++)
		ok &= !destroy(fd, ids[i]);
	RESULT(ok && ring_pipes() == before,
	       "64 pipes per file, the 65th ENOSPC\n");

	n = 0;
	for (i = 0; i < 4; i++)
		if (!create(fd, 64U << 20, NICPROG_PIPE_RX,
			    NICPROG_FRAMING_STREAM, &a))
			ids[n++] = a.id;
	ok = n == 4 && create(fd, 4096, NICPROG_PIPE_RX,
			      NICPROG_FRAMING_STREAM, NULL) == -ENOSPC;
	for (i = 0; i < n; i++)
		ok &= !destroy(fd, ids[i]);
	RESULT(ok && ring_pipes() == before,
	       "256 MiB of pipes per file, more ENOSPC\n");
}

/* Only the opener reaches its pipes. */
static void test_isolation(int fd)
{
	struct nicprog_pipe_create a;
	int other = open_dev(), ok;
	void *m;

	ok = !create(fd, 4096, NICPROG_PIPE_RX, NICPROG_FRAMING_RECORDS, &a);
	ok &= destroy(other, a.id) == -EINVAL;
	m = mmap(NULL, a.mmap_len, PROT_READ, MAP_SHARED, other, a.mmap_off);
	ok &= m == MAP_FAILED;
	close(other);
	ok &= !destroy(fd, a.id);
	RESULT(ok, "another open file cannot destroy or map the opener's pipes\n");
}

/*
 * A mapping holds its file (as any mapping of a file does): closing the
 * descriptor leaves the pipe and its data until the munmap, which frees
 * them.
 */
static void test_close_mapped(void)
{
	struct nicprog_pipe_create a;
	long before = ring_pipes();
	int fd = open_dev(), ok;
	uint8_t *m;

	ok = !create(fd, 65536, NICPROG_PIPE_TX, NICPROG_FRAMING_STREAM, &a);
	m = mmap(NULL, a.mmap_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 a.mmap_off);
	ok &= m != MAP_FAILED;
	if (m != MAP_FAILED)
		memset(m + 4096, 0x3c, 65536);
	close(fd);
	ok &= ring_pipes() == before + 1;
	if (m != MAP_FAILED) {
		ok &= m[4096 + 100] == 0x3c && m[4096 + 65536 + 100] == 0x3c;
		munmap(m, a.mmap_len);
	}
	ok &= ring_pipes() == before;
	RESULT(ok, "a mapping keeps its closed file's pipe; munmap frees it\n");
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

static uint64_t rng;

static uint32_t rnd(void)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return rng >> 33;
}

/* A value a careless or hostile caller might pass. */
static uint32_t wild(void)
{
	static const uint32_t v[] = { 0, 1, 2, 3, 4095, 4096, 8192, 65536,
				      1 << 20, 64 << 20, 128 << 20, 0x7fffffff,
				      0x80000000, 0xffffffff };

	return rnd() % 4 ? v[rnd() % (sizeof(v) / sizeof(v[0]))] : rnd();
}

/* The fuzzer's slowest command so far. */
struct fuzz_slow {
	uint64_t ms;
	unsigned long round;
	uint32_t op;
	int res;
};

/*
 * One fuzzed command and its result, timed. A command not complete in
 * RL_CMD_BOUND_MS is lost: the test fails naming the round, the command
 * and its argument bytes, so that a failure seen once can be read (and
 * replayed with its seed) rather than guessed at.
 */
static int fuzz_cmd(int fd, unsigned long round, uint32_t op,
		    const uint8_t *buf, void *arg, uint32_t len,
		    uint32_t flags, struct fuzz_slow *slow)
{
	struct io_uring_cqe cqe;
	uint64_t t0 = now_ms(), ms;
	uint32_t w[4];
	int err;

	err = rl_submit(&ring, fd, op, arg, len, flags, 0, 0);
	if (err)
		ksft_exit_fail_msg("fuzz round %lu: op %u len %u flags %u: io_uring_submit: %s\n",
				   round, op, len, flags, strerror(-err));
	err = rl_reap(&ring, RL_CMD_BOUND_MS, &cqe);
	ms = now_ms() - t0;
	if (err) {
		memcpy(w, buf, sizeof(w));
		ksft_exit_fail_msg("fuzz round %lu: op %u len %u flags %u arg %s, buf %08x %08x %08x %08x: no completion in %llu ms (%s)\n",
				   round, op, len, flags,
				   arg == buf ? "buf" : "wild", w[0], w[1],
				   w[2], w[3], (unsigned long long)ms,
				   strerror(-err));
	}
	if (ms >= slow->ms) {
		slow->ms = ms;
		slow->round = round;
		slow->op = op;
		slow->res = cqe.res;
	}
	return cqe.res;
}

/*
 * User memory the fuzzer's memory copies, WRs and completions point at:
 * FUZZ_MEM bytes with an inaccessible page after them, so that a length
 * past the end faults in the kernel (EFAULT) rather than writing over
 * the test.
 */
#define FUZZ_MEM	(64 << 10)
static uint8_t *fuzz_mem;

static void fuzz_mem_map(void)
{
	fuzz_mem = mmap(NULL, FUZZ_MEM + 4096, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (fuzz_mem == MAP_FAILED ||
	    mprotect(fuzz_mem + FUZZ_MEM, 4096, PROT_NONE))
		ksft_exit_fail_msg("fuzz memory: %s\n", strerror(errno));
}

/* ids and keys earlier commands returned: buffers, QPs, regions */
static uint32_t fuzz_ids[32];

/* Mostly what earlier commands made, so that later ones meet it. */
static uint32_t fuzz_id(void)
{
	if (rnd() % 2)
		return fuzz_ids[rnd() % 32];
	return rnd() % 4 ? rnd() % 8 : wild();
}

/* Keep what a command that went returned, for fuzz_id(). */
static void fuzz_keep(uint32_t op, const uint8_t *buf)
{
	switch (_IOC_NR(op)) {
	case NICPROG_OP_MEM_ALLOC:
		fuzz_ids[rnd() % 32] = ((struct nicprog_mem_alloc *)buf)->id;
		break;
	case NICPROG_OP_QP_CREATE:
		fuzz_ids[rnd() % 32] = ((struct nicprog_qp_create *)buf)->qpn;
		break;
	case NICPROG_OP_MR_REG:
		fuzz_ids[rnd() % 32] = ((struct nicprog_mr_reg *)buf)->lkey;
		fuzz_ids[rnd() % 32] = ((struct nicprog_mr_reg *)buf)->rkey;
		break;
	}
}

/*
 * The commands past the pipes' -- NIC memory, RDMA, lookaside kernels and
 * jobs, restrict, features: @buf filled for @op as a caller near the
 * rules would, or not. Waits for completions stay short, and a restrict
 * never narrows the file (the fuzzer would lose every other command).
 */
static void fuzz_args_more(uint32_t op, uint8_t *buf)
{
	struct nicprog_mem_alloc *ma = (void *)buf;
	struct nicprog_mem_free *mf = (void *)buf;
	struct nicprog_mem_copy *mc = (void *)buf;
	struct nicprog_qp_create *qc = (void *)buf;
	struct nicprog_qp_connect *qn = (void *)buf;
	struct nicprog_qp_destroy *qd = (void *)buf;
	struct nicprog_mr_reg *mr = (void *)buf;
	struct nicprog_mr_dereg *md = (void *)buf;
	struct nicprog_post *po = (void *)buf;
	struct nicprog_poll *pl = (void *)buf;
	struct nicprog_kernel_load *kl = (void *)buf;
	struct nicprog_kernel_unload *ku = (void *)buf;
	struct nicprog_job *jb = (void *)buf;
	struct nicprog_restrict *rs = (void *)buf;
	struct nicprog_rdma_wr *wr = (void *)fuzz_mem;
	uint32_t i;

	switch (_IOC_NR(op)) {
	case NICPROG_OP_MEM_ALLOC:
		ma->size = rnd() % 4 ? 4096ULL << (rnd() % 8) : wild();
		ma->region = rnd() % 4 ? rnd() % 3 : wild();
		break;
	case NICPROG_OP_MEM_FREE:
		mf->id = fuzz_id();
		break;
	case NICPROG_OP_MEM_COPY:
		mc->id = fuzz_id();
		mc->dir = rnd() % 4 ? 1 + rnd() % 2 : wild();
		mc->offset = rnd() % 4 ? rnd() % 8192 : wild();
		mc->len = rnd() % 4 ? rnd() % FUZZ_MEM : wild();
		mc->addr = rnd() % 8 ? (uintptr_t)fuzz_mem : wild();
		break;
	case NICPROG_OP_QP_CREATE:
		qc->qpn = rnd() % 2 ? 0 : fuzz_id();
		qc->sq_depth = rnd() % 4 ? 1U << (rnd() % 10) : wild();
		qc->rq_depth = rnd() % 4 ? 1U << (rnd() % 10) : wild();
		qc->gid[10] = 0xff, qc->gid[11] = 0xff;
		qc->gid[12] = 10, qc->gid[15] = rnd();
		break;
	case NICPROG_OP_QP_CONNECT:
		qn->qpn = fuzz_id();
		qn->dest_qpn = fuzz_id();
		qn->mtu = rnd() % 4 ? 256U << (rnd() % 5) : wild();
		qn->timeout_ms = rnd() % 4 ? 1 + rnd() % 100 : wild();
		qn->retry_cnt = rnd() % 8;
		qn->dgid[10] = 0xff, qn->dgid[11] = 0xff;
		qn->dgid[12] = 10, qn->dgid[15] = rnd();
		qn->dmac[0] = 2, qn->dmac[5] = rnd();
		break;
	case NICPROG_OP_QP_DESTROY:
		qd->qpn = fuzz_id();
		break;
	case NICPROG_OP_MR_REG:
		mr->buf = fuzz_id();
		mr->access = rnd() % 16;
		mr->offset = rnd() % 4 ? rnd() % 8192 : wild();
		mr->len = rnd() % 4 ? rnd() % 65536 : wild();
		mr->iova = rnd() % 2 ? 0 : (uint64_t)rnd() << 12;
		break;
	case NICPROG_OP_MR_DEREG:
		md->lkey = rnd() % 2 ? fuzz_id() : rnd();
		break;
	case NICPROG_OP_POST:
		po->wrs = rnd() % 8 ? (uintptr_t)fuzz_mem : wild();
		po->n = rnd() % 4 ? rnd() % 16 : wild();
		po->wr_size = rnd() % 4 ? sizeof(*wr) : wild() % 128;
		for (i = 0; i < 16; i++) {
			wr[i] = (struct nicprog_rdma_wr){
				.wr_id = i, .qpn = fuzz_id(),
				.opcode = rnd() % 10, .flags = rnd() % 4,
				.lkey = fuzz_id(), .len = rnd() % 8192,
				.addr = rnd() % 8192, .raddr = rnd() % 8192,
				.rkey = fuzz_id(),
			};
		}
		break;
	case NICPROG_OP_POLL:
		pl->wcs = rnd() % 8 ? (uintptr_t)fuzz_mem : wild();
		pl->max = rnd() % 4 ? rnd() % 64 : wild();
		pl->timeout_ms = rnd() % 3;	/* a poll may wait that long */
		break;
	case NICPROG_OP_KERNEL_LOAD:
		kl->prog_fd = rnd() % 4 ? rnd() % 16 : wild();
		break;
	case NICPROG_OP_KERNEL_UNLOAD:
		ku->id = fuzz_id();
		break;
	case NICPROG_OP_JOB:
		jb->kernel = fuzz_id();
		jb->n_bufs = rnd() % 4 ? rnd() % (NICPROG_JOB_BUFS + 1) : wild();
		jb->job_id = rnd();
		for (i = 0; i < NICPROG_JOB_BUFS; i++) {
			jb->bufs[i].id = fuzz_id();
			jb->bufs[i].flags = rnd() % 8;
			jb->bufs[i].len = rnd() % 8192;
		}
		break;
	case NICPROG_OP_RESTRICT:
		rs->allow = NICPROG_ALLOW_ALL | (rnd() % 2 ? 0 : wild() << 7);
		break;
	}
}

#define ARG(op, type) { NICPROG_OP_##op, sizeof(struct type) }
/* The argument struct's size of each command, as a caller would pass it. */
static const struct { uint32_t nr, len; } fuzz_lens[] = {
	{ NICPROG_OP_PIPE_DESTROY, 8 },
	{ NICPROG_OP_WAIT, 8 },
	{ NICPROG_OP_PIPE_CREATE, 40 },
	ARG(MEM_ALLOC, nicprog_mem_alloc),
	ARG(MEM_FREE, nicprog_mem_free),
	ARG(MEM_COPY, nicprog_mem_copy),
	ARG(QP_CREATE, nicprog_qp_create),
	ARG(QP_CONNECT, nicprog_qp_connect),
	ARG(QP_DESTROY, nicprog_qp_destroy),
	ARG(MR_REG, nicprog_mr_reg),
	ARG(MR_DEREG, nicprog_mr_dereg),
	ARG(POST, nicprog_post),
	ARG(POLL, nicprog_poll),
	ARG(KERNEL_LOAD, nicprog_kernel_load),
	ARG(KERNEL_UNLOAD, nicprog_kernel_unload),
	ARG(JOB, nicprog_job),
	ARG(RESTRICT, nicprog_restrict),
	ARG(FEATURES, nicprog_features),
};
#undef ARG

static uint32_t fuzz_len(uint32_t op)
{
	size_t i;

	for (i = 0; i < sizeof(fuzz_lens) / sizeof(fuzz_lens[0]); i++)
		if (fuzz_lens[i].nr == _IOC_NR(op))
			return fuzz_lens[i].len;
	return 16;
}

/* A refusal the commands document, which the fuzzer may meet. */
static bool fuzz_refusal(int res)
{
	switch (-res) {
	case EINVAL: case E2BIG: case EFAULT: case ENOSPC: case EBUSY:
	case ENOENT: case ENOMEM: case EOPNOTSUPP: case EMFILE: case EBADF:
		return true;
	}
	return false;
}

/*
 * Seeded random commands, every one of them: every result is success or
 * a refusal, and the pipes in use are exactly those created and not
 * destroyed. Per command, how often it succeeded and how often it was
 * refused are printed: a command the fuzzer never got past its argument
 * checks shows.
 */
static void test_fuzz(int fd, unsigned long rounds)
{
	unsigned long ok_by[__NICPROG_OP_MAX] = {}, no_by[__NICPROG_OP_MAX] = {};
	uint8_t buf[512];
	long before = ring_pipes(), live = 0;
	unsigned long i, bad = 0, made = 0, binds = 0, waits = 0;
	uint32_t op, len, flags;
	struct fuzz_slow slow = {};
	void *arg;
	int res;

	for (i = 0; i < rounds; i++) {
		struct nicprog_pipe_create *c = (void *)buf;
		struct nicprog_pipe_destroy *d = (void *)buf;
		struct nicprog_pipe_bind *b = (void *)buf;
		struct nicprog_wait *w = (void *)buf;
		struct nicprog_pipe_send *sd = (void *)buf;

		memset(buf, 0, sizeof(buf));
		op = rnd() % 3 ? NICPROG_U_OP_NR(1 + rnd() % 4) : wild();
		if (rnd() % 50 == 0)	/* waits park: short timeouts */
			op = NICPROG_U_OP_WAIT;
		else if (rnd() % 30 == 0)
			op = NICPROG_U_OP_PIPE_SEND;
		else if (rnd() % 2 == 0)	/* every other command */
			op = NICPROG_U_OP_NR(NICPROG_OP_FEATURES +
					     rnd() % (__NICPROG_OP_MAX -
						      NICPROG_OP_FEATURES));
		fuzz_args_more(op, buf);
		if (op == NICPROG_U_OP_PIPE_CREATE && rnd() % 2) {
			c->size = 4096 << (rnd() % 5);
			c->dir = 1 + rnd() % 2;
			c->framing = 1 + rnd() % 2;
		} else if (op == NICPROG_U_OP_PIPE_DESTROY) {
			d->id = rnd() % 4 ? rnd() % 70 : wild();
		} else if (op == NICPROG_U_OP_PIPE_BIND ||
			   op == NICPROG_U_OP_PIPE_UNBIND) {
			b->id = rnd() % 4 ? rnd() % 70 : wild();
			b->output = rnd() % 4 ? rnd() % 70 : wild();
		} else if (op == NICPROG_U_OP_WAIT) {
			w->timeout_ms = rnd() % 3;
			w->flags = rnd() % 4 ? 0 : wild();
		} else if (op == NICPROG_U_OP_PIPE_SEND) {
			sd->id = rnd() % 4 ? rnd() % 70 : wild();
			sd->tail = rnd() % 2 ? 8 * (rnd() % 64) :
					       ((uint64_t)wild() << 32 | wild());
		}
		if (rnd() % 5 == 0)
			for (len = 0; len < 40; len++)
				buf[len] = rnd();
		if (rnd() % 8 == 0)
			((uint32_t *)buf)[rnd() % 8] = wild();
		len = rnd() % 6 ? fuzz_len(op) : wild() % 300;
		/*
		 * A valid wait parks: keep it short, the run bounded. The
		 * kernel reads the timeout as it reads any argument struct,
		 * zero-extended past @len: judge the bytes it reads.
		 */
		if (op == NICPROG_U_OP_WAIT) {
			uint32_t t = 0, n = len < sizeof(t) ? len : sizeof(t);

			memcpy(&t, buf, n);
			if (t > 2 && t <= NICPROG_WAIT_TIMEOUT_MAX) {
				memset(buf, 0, n);
				w->timeout_ms = 2;
			}
		}
		/* likewise a poll's timeout, and a restrict's classes */
		if (op == NICPROG_U_OP_POLL)
			((struct nicprog_poll *)buf)->timeout_ms %= 3;
		if (op == NICPROG_U_OP_RESTRICT)
			((struct nicprog_restrict *)buf)->allow |= NICPROG_ALLOW_ALL;
		flags = rnd() % 10 ? 0 : wild();
		arg = rnd() % 20 ? buf : (void *)(uintptr_t)wild();
		res = fuzz_cmd(fd, i, op, buf, arg, len, flags, &slow);
		if (res == 0 && op == NICPROG_U_OP_PIPE_CREATE) {
			live++;
			made++;
		} else if (res == 0 && op == NICPROG_U_OP_PIPE_DESTROY) {
			live--;
		} else if (res == 0 && (op == NICPROG_U_OP_PIPE_BIND ||
					op == NICPROG_U_OP_PIPE_UNBIND)) {
			binds++;
		} else if (res >= 0 && (op == NICPROG_U_OP_WAIT ||
					op == NICPROG_U_OP_PIPE_SEND)) {
			waits++;
		} else if (res < 0 && !fuzz_refusal(res)) {
			if (bad++ < 5)
				ksft_print_msg("fuzz %lu: op %u len %u flags %u: res %d\n",
					       i, op, len, flags, res);
		}
		if (op == NICPROG_U_OP_NR(_IOC_NR(op)) &&
		    _IOC_NR(op) < __NICPROG_OP_MAX) {
			if (res >= 0 && arg == buf)
				fuzz_keep(op, buf);
			if (res >= 0)
				ok_by[_IOC_NR(op)]++;
			else
				no_by[_IOC_NR(op)]++;
		}
	}
	for (op = 1; op < __NICPROG_OP_MAX; op++)
		ksft_print_msg("fuzz: op %2u: %lu went, %lu refused\n", op,
			       ok_by[op], no_by[op]);
	ksft_print_msg("fuzz: %lu commands, %lu pipes made, %ld live, %lu binds and unbinds, %lu waits and sends\n",
		       rounds, made, live, binds, waits);
	ksft_print_msg("fuzz: slowest command %llu ms (round %lu, op %u, res %d)\n",
		       (unsigned long long)slow.ms, slow.round, slow.op,
		       slow.res);
	RESULT(!bad && ring_pipes() == before + live,
	       "seeded fuzzer: %lu random commands, only success or a refusal, pipes accounted\n",
	       rounds);
}

/* --hold: the port goes away while a file is open and a pipe mapped. */
static int hold(void)
{
	struct nicprog_pipe_create a;
	char line[16];
	uint8_t *m;
	int fd, ok;

	ksft_print_header();
	ksft_set_plan(1);
	fd = open_dev();
	if (create(fd, 65536, NICPROG_PIPE_RX, NICPROG_FRAMING_RECORDS, &a))
		ksft_exit_fail_msg("create failed\n");
	m = mmap(NULL, a.mmap_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 a.mmap_off);
	if (m == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	m[4096] = 0x77;
	submit_wait(fd, NICPROG_WAIT_TIMEOUT_MAX);	/* parked */
	printf("# holding\n");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		ksft_exit_fail_msg("no line on stdin\n");
	/* the port went: the parked wait ended with ENODEV, not its timeout */
	ok = reap(2000) == -ENODEV;
	ok &= readable(fd) == (POLLHUP | POLLERR);
	ok &= create(fd, 4096, NICPROG_PIPE_RX, NICPROG_FRAMING_RECORDS,
		     NULL) == -ENODEV;
	ok &= destroy(fd, a.id) == -ENODEV;
	ok &= m[4096] == 0x77 && m[4096 + 65536] == 0x77;
	munmap(m, a.mmap_len);
	close(fd);
	ksft_test_result(ok, "after the port went: the parked wait and every command ENODEV, poll() hung up, the mapping readable, close clean\n");
	ksft_finished();
	return 0;
}

static int bind_flags(int fd, uint32_t op, uint32_t id, uint32_t out,
		      uint32_t flags)
{
	struct nicprog_pipe_bind a = { .id = id, .output = out, .flags = flags };

	return cmd(fd, op, &a, sizeof(a), 0);
}

static int bind_pipe(int fd, uint32_t op, uint32_t id, uint32_t out)
{
	return bind_flags(fd, op, id, out, 0);
}

static int pkt_fd, pkt_ifindex;

static void send_frame(const uint8_t *f, int len)
{
	fl_send(pkt_fd, pkt_ifindex, f, len);
}

/* Wait until the pipe's tail reaches @want (bounded), return the tail. */
static uint64_t tail_at(volatile struct nicprog_pipe_ctrl *ctrl, uint64_t want)
{
	uint64_t end = now_ms() + 5000;

	while (__atomic_load_n(&ctrl->tail, __ATOMIC_ACQUIRE) < want &&
	       now_ms() < end)
		usleep(1000);
	return __atomic_load_n(&ctrl->tail, __ATOMIC_ACQUIRE);
}

/*
 * Wait until the pipe's count of delivered and dropped bytes has moved
 * from @tail + @drops and then stayed put for 200 ms (bounded).
 */
static void settle(volatile struct nicprog_pipe_ctrl *ctrl, uint64_t tail,
		   uint64_t drops)
{
	uint64_t end = now_ms() + 5000, last = tail + drops, cur;

	while (now_ms() < end) {
		usleep(200000);
		cur = ctrl->tail + ctrl->drops;
		if (cur != tail + drops && cur == last)
			break;
		last = cur;
	}
}


static int send_pipe(int fd, uint32_t id, uint64_t tail)
{
	struct nicprog_pipe_send a = { .id = id, .tail = tail };

	return cmd(fd, NICPROG_U_OP_PIPE_SEND, &a, sizeof(a), 0);
}

/* The NIC's count of frames it put on the port's wire. */
static long wire_tx(void)
{
	return port_stat("wire_tx_packets");
}

/* TX pipes: records sent out of the port; shared with RX, no copy. */
/* At most NICPROG_SEND_BATCH records a command: 1500 go in two sends. */
static void tx_batch(int fd, int rfd)
{
	struct nicprog_pipe_create big;
	uint8_t f[1514], g[2048], *bm;
	int ok, i, n;
	uint64_t tail;
	long wire;

	ok = !create(fd, 262144, NICPROG_PIPE_TX, NICPROG_FRAMING_RECORDS,
		     &big);
	bm = mmap(NULL, big.mmap_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		  big.mmap_off);
	ok &= bm != MAP_FAILED;
	for (i = 0, tail = 0; ok && i < 1500; i++)
		tail = rl_put_rec(bm + 4096, 262144, tail, f,
			       fl_udp_frame(f, 7001, 60, i));
	wire = wire_tx();
	ok &= send_pipe(fd, big.id, tail) == NICPROG_SEND_BATCH;
	ok &= send_pipe(fd, big.id, tail) == 1500 - NICPROG_SEND_BATCH;
	ok &= ((struct nicprog_pipe_ctrl *)bm)->head == tail;
	ok &= wire_tx() - wire == 1500;
	/* what the receiving stack kept of the burst arrived in order */
	for (i = 0, n = -1; fl_recv(rfd, g, 300) == 60; i++) {
		if ((int)*(uint32_t *)(g + 42) <= n)
			ok = 0;
		n = *(uint32_t *)(g + 42);
	}
	ksft_test_result(ok, "1500 records go in two sends of %u and %u, all on the wire (%d received in order)\n",
			 NICPROG_SEND_BATCH, 1500 - NICPROG_SEND_BATCH, i);
	if (bm != MAP_FAILED)
		munmap(bm, big.mmap_len);

}

/* Zero-copy echo: TX over the RX pipe's data. */
static void tx_echo(int fd, int rfd)
{
	struct nicprog_pipe_create r, x;
	struct nicprog_pipe_ctrl *rc;
	uint8_t f[1514], g[2048], *rm;
	uint64_t tail, head;
	int ok, i, len;

	ok = !create(fd, 65536, NICPROG_PIPE_RX, NICPROG_FRAMING_RECORDS, &r);
	ok &= !bind_pipe(fd, NICPROG_U_OP_PIPE_BIND, r.id, 0);
	x = (struct nicprog_pipe_create){ .size = 65536, .dir = NICPROG_PIPE_RX,
		.framing = NICPROG_FRAMING_RECORDS,
		.flags = NICPROG_PIPE_SHARE, .share = r.id };
	ok &= cmd(fd, NICPROG_U_OP_PIPE_CREATE, &x, sizeof(x), 0) == -EINVAL;
	x.dir = NICPROG_PIPE_TX;
	x.size = 4096;
	ok &= cmd(fd, NICPROG_U_OP_PIPE_CREATE, &x, sizeof(x), 0) == -EINVAL;
	x.size = 65536;
	x.share = 999;
	ok &= cmd(fd, NICPROG_U_OP_PIPE_CREATE, &x, sizeof(x), 0) == -EINVAL;
	x.share = r.id;
	ok &= cmd(fd, NICPROG_U_OP_PIPE_CREATE, &x, sizeof(x), 0) == 0;
	rm = mmap(NULL, r.mmap_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		  r.mmap_off);
	ok &= rm != MAP_FAILED;
	rc = (void *)rm;
	for (i = 0, tail = 0; ok && i < 20; i++) {
		send_frame(f, fl_udp_frame(f, 9000, FLEN(i), 500 + i));
		tail += REC(FLEN(i));
	}
	ok &= tail_at(rc, tail) == tail;
	/* rewrite in place: the echo's destination MAC */
	for (head = 0; ok && head < tail;) {
		struct nicprog_rec *rec = (void *)(rm + 4096 + (head & 65535));

		memset(rec + 1, 0x0e, 6);
		head += REC(rec->len);
	}
	ok &= send_pipe(fd, x.id, tail) == 20;
	for (i = 0; ok && i < 20; i++) {
		len = fl_udp_frame(f, 9000, FLEN(i), 500 + i);
		memset(f, 0x0e, 6);
		ok &= fl_recv(rfd, g, 2000) == len && !memcmp(f, g, len);
	}
	__atomic_store_n(&rc->head, tail, __ATOMIC_RELEASE);
	ksft_test_result(ok, "zero-copy echo: 20 frames received, rewritten in place and sent from a TX pipe sharing the RX pipe's data\n");
	if (rm != MAP_FAILED)
		munmap(rm, r.mmap_len);
}

static void tx_tests(const char *in)
{
	struct nicprog_pipe_create t, st;
	struct nicprog_pipe_ctrl *tc;
	uint8_t f[1514], g[2048], *tm;
	uint64_t tail, head;
	int fd = open_dev(), rfd, ok, i, n, len;
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
				   .sll_protocol = htons(ETH_P_ALL) };

	rfd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	sll.sll_ifindex = if_nametoindex(in);
	if (rfd < 0 || bind(rfd, (struct sockaddr *)&sll, sizeof(sll)))
		ksft_exit_fail_msg("receive socket on %s: %s\n", in,
				   strerror(errno));
	ok = !create(fd, 65536, NICPROG_PIPE_TX, NICPROG_FRAMING_RECORDS, &t);
	tm = mmap(NULL, t.mmap_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		  t.mmap_off);
	if (!ok || tm == MAP_FAILED)
		ksft_exit_fail_msg("TX pipe setup failed\n");
	tc = (void *)tm;

	/* 50 frames of 60..1013 bytes, sent and received in order */
	for (i = 0, tail = 0; i < 50; i++)
		tail = rl_put_rec(tm + 4096, 65536, tail, f,
			       fl_udp_frame(f, 7000, FLEN(i), i));
	ok = send_pipe(fd, t.id, tail) == 50 && tc->head == tail;
	for (i = 0; ok && i < 50; i++) {
		len = fl_udp_frame(f, 7000, FLEN(i), i);
		n = fl_recv(rfd, g, 2000);
		if (n != len || memcmp(f, g, len)) {
			ksft_print_msg("frame %d: %d bytes, expected %d\n", i,
				       n, len);
			ok = 0;
		}
	}
	ksft_test_result(ok, "a TX pipe's 50 records leave the port in order; the NIC's head follows\n");

	/* hostile sends change nothing */
	head = tc->head;
	ok = send_pipe(fd, t.id, head + 65536 + 8) == -EINVAL;
	ok &= send_pipe(fd, t.id, head - 8) == -EINVAL;
	tail = rl_put_rec(tm + 4096, 65536, head, f, fl_udp_frame(f, 7000, 100, 1));
	tail = rl_put_rec(tm + 4096, 65536, tail, f, fl_udp_frame(f, 7000, 100, 2));
	((struct nicprog_rec *)(tm + 4096 + (tail & 65535) - REC(100)))->len = 5;
	ok &= send_pipe(fd, t.id, tail) == -EINVAL;	/* second malformed */
	ok &= send_pipe(fd, t.id, tail - 8) == -EINVAL;	/* crosses tail */
	ok &= cmd(fd, NICPROG_U_OP_PIPE_SEND,
		  &(struct nicprog_pipe_send){ t.id, 1, head },
		  sizeof(struct nicprog_pipe_send), 0) == -EINVAL;
	ok &= send_pipe(fd, 999, head) == -EINVAL;
	ok &= !create(fd, 4096, NICPROG_PIPE_TX, NICPROG_FRAMING_STREAM, &st);
	ok &= send_pipe(fd, st.id, 0) == -EINVAL;
	ok &= send_pipe(fd, t.id, head) == 0;		/* nothing to send */
	ok &= tc->head == head && fl_recv(rfd, g, 300) < 0;
	ksft_test_result(ok, "hostile sends (tail out of range, malformed or crossing record, flags, RX, stream) refused; nothing sent\n");

	tx_batch(fd, rfd);
	tx_echo(fd, rfd);
	munmap(tm, t.mmap_len);
	close(rfd);
	close(fd);
}

/* The file's notification ring, mapped; the test ends if it is not. */
static uint8_t *notif_map(int fd)
{
	void *nm = mmap(NULL, NICPROG_NOTIF_MMAP_LEN, PROT_READ | PROT_WRITE,
			MAP_SHARED, fd, 0);

	if (nm == MAP_FAILED)
		ksft_exit_fail_msg("mapping the notification ring: %s\n",
				   strerror(errno));
	return nm;
}

/* Notifications: reactive, waited for through io_uring. */
/*
 * Re-armable: one multishot poll on the file, a completion per
 * notification; the file is readable exactly while entries wait.
 */
static int notif_multishot(int fd, struct nicprog_pipe_ctrl *ctrl,
			   struct nicprog_notif_ctrl *nc)
{
	struct io_uring_cqe cqe;
	struct io_uring_sqe *sqe;
	uint8_t f[1514];
	uint64_t tail;
	int ok, i, res;

	__atomic_store_n(&ctrl->head, ctrl->tail, __ATOMIC_RELEASE);
	__atomic_store_n(&nc->head, nc->tail, __ATOMIC_RELEASE);
	ok = readable(fd) == 0;
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_poll_multishot(sqe, fd, POLLIN);
	sqe->user_data = POLL_TAG;
	ok &= io_uring_submit(&ring) == 1;
	ok &= reap_cqe(200, &cqe) == -ETIMEDOUT;
	for (i = 0; i < 3; i++) {
		send_frame(f, fl_udp_frame(f, 9000, 100, 30 + i));
		res = reap_cqe(3000, &cqe);
		ok &= !res && cqe.user_data == POLL_TAG &&
		      (cqe.res & POLLIN) && (cqe.flags & IORING_CQE_F_MORE);
		ok &= readable(fd) == POLLIN && nc->tail == nc->head + 1;
		__atomic_store_n(&ctrl->head, ctrl->tail, __ATOMIC_RELEASE);
		__atomic_store_n(&nc->head, nc->tail, __ATOMIC_RELEASE);
		ok &= readable(fd) == 0;
	}
	/* removed, it ends with -ECANCELED and no further completion */
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_poll_remove(sqe, POLL_TAG);
	sqe->user_data = 2;
	ok &= io_uring_submit(&ring) == 1;
	for (i = 0, res = 0; i < 2 && !reap_cqe(1000, &cqe); i++)
		res |= cqe.user_data == POLL_TAG ?
		       (cqe.res == -ECANCELED && !(cqe.flags & IORING_CQE_F_MORE)) :
		       (cqe.user_data == 2 && !cqe.res) << 1;
	ok &= i == 2 && res == 3;
	tail = ctrl->tail + REC(100);
	send_frame(f, fl_udp_frame(f, 9000, 100, 40));
	ok &= tail_at(ctrl, tail) == tail && nc->tail == nc->head + 1;
	ok &= reap_cqe(200, &cqe) == -ETIMEDOUT;
	return ok;
}

static void notif_tests(void)
{
	struct nicprog_notif_ctrl *nc;
	struct nicprog_pipe_ctrl *ctrl;
	struct nicprog_pipe_create a;
	struct nicprog_notif *ne;
	uint8_t f[1514], *m, *nm;
	uint64_t t0, tail;
	int fd = open_dev(), ok, i, res;

	ok = !create(fd, 65536, NICPROG_PIPE_RX, NICPROG_FRAMING_RECORDS, &a);
	ok &= !bind_pipe(fd, NICPROG_U_OP_PIPE_BIND, a.id, 0);
	m = mmap(NULL, a.mmap_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 a.mmap_off);
	nm = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ok &= nm == MAP_FAILED && errno == EINVAL;
	nm = notif_map(fd);
	if (!ok || m == MAP_FAILED)
		ksft_exit_fail_msg("notification setup failed\n");
	ctrl = (void *)m;
	nc = (void *)nm;
	ne = (void *)(nm + 4096);
	ok = nc->entries == NICPROG_NOTIF_ENTRIES &&
	     nc->version == NICPROG_RING_VERSION && !nc->tail && !nc->head;
	ok &= do_wait(fd, 0) == -EINVAL;
	ok &= do_wait(fd, NICPROG_WAIT_TIMEOUT_MAX + 1) == -EINVAL;
	ok &= cmd(fd, NICPROG_U_OP_WAIT, &(struct nicprog_wait){ 10, 1 },
		  sizeof(struct nicprog_wait), 0) == -EINVAL;
	t0 = now_ms();
	res = do_wait(fd, 200);
	ok &= res == 0 && now_ms() - t0 >= 150;
	ksft_test_result(ok, "the notification ring maps at offset 0; a wait with nothing to wait for times out (%d after %llu ms)\n",
			 res, (unsigned long long)(now_ms() - t0));

	/* one frame: one notification, and a wait returns at once */
	send_frame(f, fl_udp_frame(f, 9000, 100, 1));
	ok = tail_at(ctrl, REC(100)) == REC(100);
	t0 = now_ms();
	ok &= do_wait(fd, 5000) == 1 && now_ms() - t0 < 1000;
	ok &= nc->tail == 1 && ne[0].pipe == a.id && ne[0].tail == REC(100);
	/* not caught up: ten more frames, no more notifications */
	for (i = 0; i < 10; i++)
		send_frame(f, fl_udp_frame(f, 9000, 100, 2 + i));
	ok &= tail_at(ctrl, 11 * REC(100)) == 11 * REC(100);
	ok &= nc->tail == 1;
	ksft_test_result(ok, "reactive: one notification for a frame, none while the application has not caught up\n");

	/* caught up (pipe and ring read): the next frame notifies again */
	__atomic_store_n(&ctrl->head, ctrl->tail, __ATOMIC_RELEASE);
	__atomic_store_n(&nc->head, 1, __ATOMIC_RELEASE);
	/* a parked wait ends when the frame arrives */
	submit_wait(fd, 5000);
	usleep(100000);
	t0 = now_ms();
	send_frame(f, fl_udp_frame(f, 9000, 100, 20));
	res = reap(3000);
	ok = res == 1 && now_ms() - t0 < 1000 && nc->tail == 2 &&
	     ne[1].tail == 12 * REC(100);
	ksft_test_result(ok, "a parked wait completes when a caught-up pipe gets a frame (res %d)\n",
			 res);

	ok = notif_multishot(fd, ctrl, nc);
	ksft_test_result(ok, "re-armable wait: one multishot IORING_OP_POLL_ADD, a completion per notification; poll() readable only while entries wait\n");

	/* a head past the tail is ignored; a full ring counts */
	__atomic_store_n(&ctrl->head, ctrl->tail, __ATOMIC_RELEASE);
	__atomic_store_n(&nc->head, 1000, __ATOMIC_RELEASE);
	ok = do_wait(fd, 10) == 1;	/* the entry is still unread */
	__atomic_store_n(&nc->head, nc->tail, __ATOMIC_RELEASE);
	tail = ctrl->tail;
	for (i = 0; i < 300; i++) {
		__atomic_store_n(&ctrl->head, tail, __ATOMIC_RELEASE);
		send_frame(f, fl_udp_frame(f, 9000, 64, i));
		tail += REC(64);
		if (tail_at(ctrl, tail) != tail)
			break;
	}
	ok &= i == 300 && nc->tail == nc->head + NICPROG_NOTIF_ENTRIES &&
	     nc->full == 300 - NICPROG_NOTIF_ENTRIES;
	ok &= do_wait(fd, 10) == NICPROG_NOTIF_ENTRIES;
	ksft_test_result(ok, "a bogus ring head is ignored; a full ring refuses and counts (tail %llu, full %llu)\n",
			 (unsigned long long)nc->tail,
			 (unsigned long long)nc->full);
	munmap(m, a.mmap_len);
	munmap(nm, NICPROG_NOTIF_MMAP_LEN);
	close(fd);
	ksft_test_result(1, "notification tests left no mapping behind\n");
}

static int bind_co(int fd, uint32_t op, uint32_t id, uint32_t usecs,
		   uint32_t bytes)
{
	struct nicprog_pipe_bind a = { .id = id, .coalesce_usecs = usecs,
				       .coalesce_bytes = bytes };

	return cmd(fd, op, &a, sizeof(a), 0);
}

/* A caught-up application: everything in the pipe and the ring read. */
static void catch_up(struct nicprog_pipe_ctrl *ctrl,
		     struct nicprog_notif_ctrl *nc)
{
	__atomic_store_n(&ctrl->head, ctrl->tail, __ATOMIC_RELEASE);
	__atomic_store_n(&nc->head, nc->tail, __ATOMIC_RELEASE);
}

/*
 * Notification moderation (coalesce_usecs, coalesce_bytes): a due
 * notification is held until enough bytes wait or the time bound passes.
 */
/*
 * Moderation refused, binding nothing (a later bind finds the output
 * free); then bound with the most a 64 KiB pipe takes. Unbind takes no
 * moderation: refused, the pipe stays bound.
 */
static int moderation_refused(int fd, uint32_t id)
{
	int ok;

	ok = bind_co(fd, NICPROG_U_OP_PIPE_BIND, id,
		     NICPROG_COALESCE_USECS_MAX + 1, 0) == -EINVAL;
	ok &= bind_co(fd, NICPROG_U_OP_PIPE_BIND, id, 0, 1024) == -EINVAL;
	ok &= bind_co(fd, NICPROG_U_OP_PIPE_BIND, id, 1000,
		      65536 / 2 + 1) == -EINVAL;
	ok &= !bind_co(fd, NICPROG_U_OP_PIPE_BIND, id, 300000, 65536 / 2);
	ok &= bind_co(fd, NICPROG_U_OP_PIPE_UNBIND, id, 1000, 0) == -EINVAL;
	ok &= bind_co(fd, NICPROG_U_OP_PIPE_BIND, id, 300000, 0) == -EBUSY;
	return ok;
}

static void moderation_tests(void)
{
	struct nicprog_pipe_create a, b;
	struct nicprog_notif_ctrl *nc;
	struct nicprog_pipe_ctrl *ctrl;
	struct nicprog_notif *ne;
	uint8_t f[1514], *m, *nm;
	uint64_t t0, el, base, n0;
	int fd = open_dev(), ok, i, res;

	if (create(fd, 65536, NICPROG_PIPE_RX, NICPROG_FRAMING_RECORDS, &a))
		ksft_exit_fail_msg("moderation setup failed\n");
	m = rl_pipe_map(fd, &a);
	nm = notif_map(fd);
	ctrl = (void *)m;
	nc = (void *)nm;
	ne = (void *)(nm + 4096);
	ok = moderation_refused(fd, a.id);
	ksft_test_result(ok, "moderation: a time bound past %u us, bytes without one or past half the pipe, and any on unbind are EINVAL\n",
			 NICPROG_COALESCE_USECS_MAX);

	/* time bound 300 ms: a frame's notification waits for it */
	t0 = now_ms();
	send_frame(f, fl_udp_frame(f, 9000, 100, 1));
	ok = tail_at(ctrl, REC(100)) == REC(100) && nc->tail == 0;
	res = do_wait(fd, 5000);
	el = now_ms() - t0;
	ok &= res == 1 && el >= 300 && ne[0].pipe == a.id &&
	      ne[0].tail == REC(100);
	ksft_test_result(ok, "moderation: a frame's notification is held for the time bound (posted after %llu ms of 300, res %d)\n",
			 (unsigned long long)el, res);

	/* 1 s or 1000 bytes: four 200-byte frames wait, the fifth posts */
	ok = !bind_pipe(fd, NICPROG_U_OP_PIPE_UNBIND, a.id, 0);
	ok &= !bind_co(fd, NICPROG_U_OP_PIPE_BIND, a.id, 1000000, 1000);
	catch_up(ctrl, nc);
	base = ctrl->tail;
	n0 = nc->tail;
	t0 = now_ms();
	for (i = 0; i < 4; i++)
		send_frame(f, fl_udp_frame(f, 9000, 200, 2 + i));
	ok &= tail_at(ctrl, base + 4 * REC(200)) == base + 4 * REC(200) &&
	      nc->tail == n0;
	send_frame(f, fl_udp_frame(f, 9000, 200, 6));
	res = do_wait(fd, 5000);
	el = now_ms() - t0;
	ok &= res == 1 && el < 900 && nc->tail == n0 + 1 &&
	      ne[n0 % NICPROG_NOTIF_ENTRIES].tail == base + 5 * REC(200);
	ksft_test_result(ok, "moderation: held below the byte threshold, posted on the frame that reaches it (%llu ms)\n",
			 (unsigned long long)el);

	/* read before the bound passes: nothing to announce, no wakeup */
	catch_up(ctrl, nc);
	n0 = nc->tail;
	send_frame(f, fl_udp_frame(f, 9000, 100, 7));
	ok = tail_at(ctrl, ctrl->head + REC(100)) == ctrl->head + REC(100);
	catch_up(ctrl, nc);
	ok &= do_wait(fd, 1500) == 0 && nc->tail == n0;
	/* unbinding posts what is held at once */
	send_frame(f, fl_udp_frame(f, 9000, 100, 8));
	ok &= tail_at(ctrl, ctrl->head + REC(100)) == ctrl->head + REC(100);
	t0 = now_ms();
	ok &= !bind_pipe(fd, NICPROG_U_OP_PIPE_UNBIND, a.id, 0);
	ok &= do_wait(fd, 5000) == 1 && now_ms() - t0 < 900 &&
	      nc->tail == n0 + 1;
	ksft_test_result(ok, "moderation: no notification for records read within the bound; unbinding posts a held one\n");

	/* destroyed while one is held: its timer goes with it */
	catch_up(ctrl, nc);
	n0 = nc->tail;
	ok = !bind_co(fd, NICPROG_U_OP_PIPE_BIND, a.id, 500000, 0);
	send_frame(f, fl_udp_frame(f, 9000, 100, 9));
	ok &= tail_at(ctrl, ctrl->head + REC(100)) == ctrl->head + REC(100);
	ok &= !destroy(fd, a.id);
	ok &= do_wait(fd, 1000) == 0 && nc->tail == n0;
	/* a 16-byte bind (the ABI before moderation) posts at once */
	ok &= !create(fd, 65536, NICPROG_PIPE_RX, NICPROG_FRAMING_RECORDS, &b);
	ok &= !cmd(fd, NICPROG_U_OP_PIPE_BIND,
		   &(struct nicprog_pipe_bind){ .id = b.id }, 16, 0);
	t0 = now_ms();
	send_frame(f, fl_udp_frame(f, 9000, 100, 10));
	ok &= do_wait(fd, 5000) == 1 && now_ms() - t0 < 1000 &&
	      ne[n0 % NICPROG_NOTIF_ENTRIES].pipe == b.id;
	munmap(m, a.mmap_len);
	ksft_test_result(ok, "moderation: a pipe destroyed with a notification held posts nothing; a 16-byte bind has no moderation\n");

	/* a full pipe does not wait for the bound: room is wanted now */
	if (destroy(fd, b.id) ||
	    create(fd, 4096, NICPROG_PIPE_RX, NICPROG_FRAMING_RECORDS, &a))
		ksft_exit_fail_msg("moderation setup failed\n");
	m = rl_pipe_map(fd, &a);
	ctrl = (void *)m;
	__atomic_store_n(&nc->head, nc->tail, __ATOMIC_RELEASE);
	n0 = nc->tail;
	ok = !bind_co(fd, NICPROG_U_OP_PIPE_BIND, a.id, 1000000, 0);
	t0 = now_ms();
	for (i = 0; i < 25; i++)
		send_frame(f, fl_udp_frame(f, 9000, 200, 20 + i));
	res = do_wait(fd, 5000);
	el = now_ms() - t0;
	settle(ctrl, 0, 0);
	base = ctrl->tail;
	ok &= res == 1 && el < 900 && base == 19 * REC(200) &&
	      ctrl->drops == 6 && nc->tail == n0 + 1;
	ksft_test_result(ok, "moderation: a pipe with no room posts its held notification at once (%llu ms of a 1 s bound; %llu kept, %llu dropped)\n",
			 (unsigned long long)el,
			 (unsigned long long)base / REC(200),
			 (unsigned long long)ctrl->drops);
	munmap(m, a.mmap_len);
	munmap(nm, NICPROG_NOTIF_MMAP_LEN);
	close(fd);
}

/* --pipe: frames the NF steers to an output arrive in the bound pipe. */
/*
 * 200 frames of 60..1013 bytes to output 0, read in order, 20 at a time,
 * from the 64 KiB pipe @ctrl (data at @data); *@bytes: what went through.
 */
static int rx_in_order(struct nicprog_pipe_ctrl *ctrl, uint8_t *data,
		       uint64_t *bytes)
{
	uint64_t head = 0, tail = 0;
	int i, rd, ok = 1, len;
	uint8_t f[1514];

	for (i = 0, rd = 0; ok && i < 200; i++) {
		send_frame(f, fl_udp_frame(f, 9000, FLEN(i), i));
		tail += REC(FLEN(i));
		if (i % 20 != 19)
			continue;
		ok = tail_at(ctrl, tail) == tail;
		for (; ok && rd <= i; rd++) {
			struct nicprog_rec *r = (void *)(data + (head & 65535));

			len = fl_udp_frame(f, 9000, FLEN(rd), rd);
			if (r->len != (uint32_t)len || memcmp(r + 1, f, len)) {
				ksft_print_msg("record %d: len %u, expected %d\n",
					       rd, r->len, len);
				ok = 0;
			}
			head += REC(len);
			/* released as read: the NIC may reuse the space */
			__atomic_store_n(&ctrl->head, head, __ATOMIC_RELEASE);
		}
	}
	ok &= !ctrl->drops && rd == 200;
	*bytes = tail;
	return ok;
}

/*
 * The stream framing: bytes back to back, in a new 4 KiB pipe @a bound to
 * output 3, mapped at *@m (the old 64 KiB pipe's mapping @old unmapped).
 */
static int stream_pipe(int fd, struct nicprog_pipe_create *a, uint8_t *old,
		       uint8_t **m)
{
	struct nicprog_pipe_ctrl *ctrl;
	uint8_t f[1514];
	int ok;

	ok = !create(fd, 4096, NICPROG_PIPE_RX, NICPROG_FRAMING_STREAM, a);
	ok &= !bind_pipe(fd, NICPROG_U_OP_PIPE_BIND, a->id, 3);
	munmap(old, 4096 + 2 * 65536);
	*m = mmap(NULL, a->mmap_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		  a->mmap_off);
	ok &= *m != MAP_FAILED;
	if (*m != MAP_FAILED) {
		ctrl = (void *)*m;
		send_frame(f, fl_udp_frame(f, 9003, 100, 1));
		send_frame(f, fl_udp_frame(f, 9003, 64, 2));
		ok &= tail_at(ctrl, 164) == 164;
		fl_udp_frame(f, 9003, 100, 1);
		ok &= !memcmp(*m + 4096, f, 100);
		fl_udp_frame(f, 9003, 64, 2);
		ok &= !memcmp(*m + 4096 + 100, f, 64);
	}
	return ok;
}

static int pipe_mode(const char *in)
{
	struct nicprog_pipe_create a, b, t;
	struct nicprog_pipe_ctrl *ctrl, *ctrl2;
	uint8_t f[1514], *m, *m2, *data;
	uint64_t tail, drops;
	int fd, i, ok;

	ksft_print_header();
	ksft_set_plan(24);
	pkt_ifindex = if_nametoindex(in);
	pkt_fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (!pkt_ifindex || pkt_fd < 0)
		ksft_exit_fail_msg("%s: %s\n", in, strerror(errno));
	fd = open_dev();
	if (create(fd, 65536, NICPROG_PIPE_RX, NICPROG_FRAMING_RECORDS, &a) ||
	    create(fd, 4096, NICPROG_PIPE_RX, NICPROG_FRAMING_RECORDS, &b) ||
	    create(fd, 4096, NICPROG_PIPE_TX, NICPROG_FRAMING_RECORDS, &t))
		ksft_exit_fail_msg("create failed\n");
	m = mmap(NULL, a.mmap_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 a.mmap_off);
	m2 = mmap(NULL, b.mmap_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		  b.mmap_off);
	if (m == MAP_FAILED || m2 == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	ctrl = (void *)m;
	ctrl2 = (void *)m2;
	data = m + 4096;

	ok = !bind_pipe(fd, NICPROG_U_OP_PIPE_BIND, a.id, 0);
	ok &= bind_pipe(fd, NICPROG_U_OP_PIPE_BIND, b.id, 0) == -EBUSY;
	ok &= bind_pipe(fd, NICPROG_U_OP_PIPE_BIND, a.id, 3) == -EBUSY;
	ok &= bind_pipe(fd, NICPROG_U_OP_PIPE_BIND, t.id, 3) == -EINVAL;
	ok &= bind_pipe(fd, NICPROG_U_OP_PIPE_BIND, b.id,
			NICPROG_RING_OUTPUTS) == -EINVAL;
	ok &= bind_pipe(fd, NICPROG_U_OP_PIPE_BIND, 99, 3) == -EINVAL;
	ok &= bind_pipe(fd, NICPROG_U_OP_PIPE_UNBIND, b.id, 1) == -EINVAL;
	ok &= !bind_pipe(fd, NICPROG_U_OP_PIPE_BIND, b.id, 1);
	ksft_test_result(ok, "bind: one pipe per output, one output per pipe, RX only; refusals change nothing\n");

	ok = rx_in_order(ctrl, data, &tail);
	ksft_test_result(ok, "200 frames arrive in order as records, the ring wrapping (%llu bytes through 64 KiB)\n",
			 (unsigned long long)tail);

	/* a full pipe drops whole records and counts them */
	for (i = 0; i < 100; i++)
		send_frame(f, fl_udp_frame(f, 9001, 200, i));
	settle(ctrl2, 0, 0);
	tail = ctrl2->tail;
	drops = ctrl2->drops;
	ok = tail == 19 * REC(200) && drops == 100 - 19 &&
	     ctrl2->drop_bytes == drops * 200;
	ksft_test_result(ok, "a full 4 KiB pipe keeps 19 records and counts 81 drops (tail %llu, drops %llu)\n",
			 (unsigned long long)tail, (unsigned long long)drops);

	/* a head past the tail is no release: nothing is overwritten */
	ctrl2->head = tail + 4096;
	for (i = 0; i < 5; i++)
		send_frame(f, fl_udp_frame(f, 9001, 200, 1000 + i));
	settle(ctrl2, tail, drops);
	ok = ctrl2->tail == tail && ctrl2->drops == drops + 5;
	/* a real release makes room again */
	ctrl2->head = tail;
	for (i = 0; i < 5; i++)
		send_frame(f, fl_udp_frame(f, 9001, 200, 2000 + i));
	ok &= tail_at(ctrl2, tail + 5 * REC(200)) == tail + 5 * REC(200);
	ksft_test_result(ok, "a bogus head frees nothing; a release makes room\n");

	/* unbound outputs: invalid redirects, nothing delivered */
	ok = !bind_pipe(fd, NICPROG_U_OP_PIPE_UNBIND, b.id, 1);
	ok &= bind_pipe(fd, NICPROG_U_OP_PIPE_UNBIND, b.id, 1) == -EINVAL;
	tail = ctrl2->tail;
	drops = ctrl2->drops;
	for (i = 0; i < 5; i++) {
		send_frame(f, fl_udp_frame(f, 9001, 100, i));
		send_frame(f, fl_udp_frame(f, 9002, 100, i));
	}
	usleep(300000);
	ok &= ctrl2->tail == tail && ctrl2->drops == drops;
	printf("# unbound: 10 frames sent to outputs 1 and 2\n");
	ksft_test_result(ok, "after unbind the pipe gets nothing\n");

	/* destroying a bound pipe unbinds it; the output takes another */
	ok = !destroy(fd, a.id);
	ok &= !bind_pipe(fd, NICPROG_U_OP_PIPE_BIND, b.id, 0);
	tail = ctrl2->tail;
	send_frame(f, fl_udp_frame(f, 9000, 300, 7));
	ok &= tail_at(ctrl2, tail + REC(300)) == tail + REC(300);
	ksft_test_result(ok, "destroying a bound pipe unbinds it; the output takes another\n");

	ok = stream_pipe(fd, &a, m, &m);
	ksft_test_result(ok, "a stream pipe holds the bytes back to back\n");

	/* closing the file unbinds; frames go nowhere, nothing breaks */
	munmap(m, a.mmap_len);
	munmap(m2, b.mmap_len);
	close(fd);
	for (i = 0; i < 5; i++)
		send_frame(f, fl_udp_frame(f, 9000 + i % 4, 80, i));
	fd = open_dev();
	for (i = 0, ok = 1; i < 4; i++) {
		ok &= !create(fd, 4096, NICPROG_PIPE_RX,
			      NICPROG_FRAMING_RECORDS, &a);
		ok &= !bind_pipe(fd, NICPROG_U_OP_PIPE_BIND, a.id, i);
	}
	close(fd);
	ksft_test_result(ok, "closing the file unbinds its pipes: the outputs are free\n");
	notif_tests();
	moderation_tests();
	tx_tests(in);
	ksft_finished();
	return 0;
}

/* Records of a pipe from @head to its tail, each a fl_udp_frame() of @dport. */
static int check_records(const uint8_t *data, uint32_t size, uint64_t head,
			 uint64_t tail, uint16_t dport, int *count)
{
	uint8_t f[1514];
	uint32_t seq;

	for (*count = 0; head < tail; (*count)++) {
		const struct nicprog_rec *r = (const void *)(data +
							     (head & (size - 1)));

		if (r->len < 46 || r->len > 1514)
			return 0;
		memcpy(&seq, (const uint8_t *)(r + 1) + 42, 4);
		if (fl_udp_frame(f, dport, r->len, seq) != (int)r->len ||
		    memcmp(r + 1, f, r->len))
			return 0;
		head += REC(r->len);
	}
	return 1;
}

/* The NIC port's count of frames dropped at its ingress. */
static long ingress_drops(const char *nf)
{
	char path[160];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/rx_fifo_errors",
		 nf);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%ld", &v) != 1)
		ksft_exit_fail_msg("%s\n", path);
	fclose(f);
	return v;
}

/*
 * Read every record of the pipe until @want arrived, or nothing did for
 * @idle_ms; check each is fl_udp_frame(9001, 200, seq) with seqs increasing from
 * *@seq. Return the records read, -1 on a wrong one.
 */
static int drain(volatile struct nicprog_pipe_ctrl *ctrl, uint8_t *data,
		 uint32_t size, int want, int idle_ms, uint32_t *seq)
{
	uint64_t head = ctrl->head, tail, last = now_ms();
	uint8_t f[256];
	uint32_t v;
	int got = 0;

	while (got < want && now_ms() - last < (uint64_t)idle_ms) {
		tail = __atomic_load_n(&ctrl->tail, __ATOMIC_ACQUIRE);
		if (head == tail) {
			usleep(1000);
			continue;
		}
		for (; head != tail; got++) {
			struct nicprog_rec *r = (void *)(data + (head & (size - 1)));

			memcpy(&v, (uint8_t *)(r + 1) + 42, 4);
			if (r->len != 200 || v < *seq ||
			    (fl_udp_frame(f, 9001, 200, v),
			     memcmp(r + 1, f, 200))) {
				ksft_print_msg("record %d: len %u seq %u (after %u)\n",
					       got, r->len, v, *seq);
				return -1;
			}
			*seq = v + 1;
			head += REC(200);
		}
		__atomic_store_n(&ctrl->head, head, __ATOMIC_RELEASE);
		last = now_ms();
	}
	return got;
}

/*
 * Frames are sent from @in; a 4 KiB RX pipe of records is created on a new
 * file of the NF port's device (*@fd) and mapped. Exits on failure.
 * Return: the mapping (control page, then data).
 */
static uint8_t *rx_pipe_4k(const char *in, int *fd,
			   struct nicprog_pipe_create *a)
{
	uint8_t *m;

	pkt_ifindex = if_nametoindex(in);
	pkt_fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (!pkt_ifindex || pkt_fd < 0)
		ksft_exit_fail_msg("%s: %s\n", in, strerror(errno));
	*fd = open_dev();
	if (create(*fd, 4096, NICPROG_PIPE_RX, NICPROG_FRAMING_RECORDS, a))
		ksft_exit_fail_msg("create failed\n");
	m = mmap(NULL, a->mmap_len, PROT_READ | PROT_WRITE, MAP_SHARED, *fd,
		 a->mmap_off);
	if (m == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	return m;
}

/*
 * --backpressure IN NF: a pipe bound with NICPROG_BIND_BACKPRESSURE holds
 * the NIC when full instead of dropping: frames wait, then arrive; only a
 * consumer that makes no room for the bound loses the held frame (counted
 * in the pipe), and what the stalled NIC cannot take is counted at its
 * ingress.
 */
static int bp_mode(const char *in, const char *nf)
{
	struct nicprog_pipe_create b;
	struct nicprog_pipe_ctrl *ctrl;
	uint64_t d0, d;
	long ing0, ing;
	uint8_t f[256], *m;
	uint32_t seq = 0;
	int fd, i, ok, got;
	pid_t pid;

	ksft_print_header();
	ksft_set_plan(4);
	m = rx_pipe_4k(in, &fd, &b);
	ctrl = (void *)m;

	ok = bind_flags(fd, NICPROG_U_OP_PIPE_BIND, b.id, 1, 4) == -EINVAL;
	ok &= bind_flags(fd, NICPROG_U_OP_PIPE_UNBIND, b.id, 1,
			 NICPROG_BIND_BACKPRESSURE) == -EINVAL;
	ok &= !bind_flags(fd, NICPROG_U_OP_PIPE_BIND, b.id, 1,
			  NICPROG_BIND_BACKPRESSURE | NICPROG_BIND_PREFETCH);
	ok &= ctrl->flags == (NICPROG_BIND_BACKPRESSURE | NICPROG_BIND_PREFETCH);
	ok &= !bind_pipe(fd, NICPROG_U_OP_PIPE_UNBIND, b.id, 1) && !ctrl->flags;
	ok &= !bind_flags(fd, NICPROG_U_OP_PIPE_BIND, b.id, 1,
			  NICPROG_BIND_BACKPRESSURE);
	ok &= ctrl->flags == NICPROG_BIND_BACKPRESSURE;
	ksft_test_result(ok, "bind flags BACKPRESSURE and PREFETCH, shown in the control page; unknown flags and flags on unbind are EINVAL\n");

	/*
	 * 100 frames through a pipe that holds 19: none lost. A child sends
	 * while this process drains, so that the consumer makes room within
	 * the NIC's bound however long the sends take (a sanitizer kernel
	 * took past 100 ms for them, and a held frame went).
	 */
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid) {
		for (i = 0; i < 100; i++)
			send_frame(f, fl_udp_frame(f, 9001, 200, i));
		_exit(0);
	}
	got = drain(ctrl, m + 4096, 4096, 100, 2000, &seq);
	waitpid(pid, NULL, 0);
	ksft_test_result(got == 100 && !ctrl->drops,
			 "100 frames through a 4 KiB backpressure pipe all arrive, in order, none dropped (%d, drops %llu)\n",
			 got, (unsigned long long)ctrl->drops);

	/*
	 * no room for 1 s: held frames go after 100 ms each, counted (from
	 * here: a frame the case before lost is its failure, not this one's)
	 */
	d0 = ctrl->drops;
	for (i = 0; i < 40; i++)
		send_frame(f, fl_udp_frame(f, 9001, 200, 100 + i));
	usleep(1000000);
	got = drain(ctrl, m + 4096, 4096, 40, 1000, &seq);
	d = ctrl->drops - d0;
	ok = got >= 0 && d >= 3 && d <= 15 && got + d == 40 &&
	     ctrl->drop_bytes == ctrl->drops * 200;
	ksft_test_result(ok, "no room for 1 s: the held frame is dropped after 100 ms and counted; the rest arrive (%d + %llu dropped of 40)\n",
			 got, (unsigned long long)d);

	/* the stalled NIC's queue fills: the rest is counted at its ingress */
	ing0 = ingress_drops(nf);
	i = ctrl->drops;
	for (int k = 0; k < 1000; k++)
		send_frame(f, fl_udp_frame(f, 9001, 200, 1000 + k));
	usleep(200000);
	got = drain(ctrl, m + 4096, 4096, 1000, 1000, &seq);
	ing = ingress_drops(nf) - ing0;
	ok = got >= 0 && ing > 0 && got + (ctrl->drops - i) + ing == 1000;
	ksft_test_result(ok, "1000 frames into a stalled NIC: %d arrive, %llu dropped by the pipe, %ld at the NIC's ingress, all counted\n",
			 got, (unsigned long long)(ctrl->drops - i), ing);
	munmap(m, b.mmap_len);
	close(fd);
	ksft_finished();
	return 0;
}

/*
 * --replace IN NF OBJ: outputs belong to the port, not to its program: a
 * bound pipe keeps receiving across program replacement, gets nothing
 * while no program runs, and replacement under traffic leaves only whole,
 * correct records.
 */
static int replace_mode(const char *in, const char *nf, const char *obj)
{
	struct nicprog_pipe_create a;
	struct nicprog_pipe_ctrl *ctrl;
	char attach[512], detach[256];
	uint8_t f[1514], *m;
	uint64_t tail;
	int fd, i, k, n, ok;
	pid_t pid;

	ksft_print_header();
	ksft_set_plan(3);
	snprintf(attach, sizeof(attach),
		 "ip -force link set dev %s xdpoffload obj %s sec xdp", nf, obj);
	snprintf(detach, sizeof(detach), "ip link set dev %s xdpoffload off",
		 nf);
	pkt_ifindex = if_nametoindex(in);
	pkt_fd = socket(AF_PACKET, SOCK_RAW, 0);
	fd = open_dev();
	if (!pkt_ifindex || pkt_fd < 0 ||
	    create(fd, 1 << 20, NICPROG_PIPE_RX, NICPROG_FRAMING_RECORDS, &a) ||
	    bind_pipe(fd, NICPROG_U_OP_PIPE_BIND, a.id, 0))
		ksft_exit_fail_msg("setup failed\n");
	m = mmap(NULL, a.mmap_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 a.mmap_off);
	if (m == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	ctrl = (void *)m;

	ok = !system(attach);
	for (i = 0, tail = 0; i < 100; i++) {
		send_frame(f, fl_udp_frame(f, 9000, FLEN(i), i));
		tail += REC(FLEN(i));
	}
	ok &= tail_at(ctrl, tail) == tail;
	ok &= !system(attach);		/* the same object: a new plan */
	for (i = 100; i < 200; i++) {
		send_frame(f, fl_udp_frame(f, 9000, FLEN(i), i));
		tail += REC(FLEN(i));
	}
	ok &= tail_at(ctrl, tail) == tail;
	ok &= check_records(m + 4096, 1 << 20, 0, tail, 9000, &n) && n == 200;
	ksft_test_result(ok, "a bound pipe receives across a program replacement (%d records)\n",
			 n);

	ok = !system(detach);
	for (i = 0; i < 50; i++)
		send_frame(f, fl_udp_frame(f, 9000, 100, 1000 + i));
	usleep(300000);
	ok &= ctrl->tail == tail;
	ok &= !system(attach);
	for (i = 0; i < 50; i++)
		send_frame(f, fl_udp_frame(f, 9000, 100, 2000 + i));
	tail += 50 * REC(100);
	ok &= tail_at(ctrl, tail) == tail;
	ksft_test_result(ok, "without a program the pipe gets nothing; reattached, it receives again\n");

	/* replacements while a child floods */
	pid = fork();
	if (!pid) {
		for (i = 0; i < 3000; i++)
			send_frame(f, fl_udp_frame(f, 9000, FLEN(i), 5000 + i));
		_exit(0);
	}
	for (k = 0, ok = 1; k < 5; k++) {
		ok &= !system(attach);
		usleep(50000);
	}
	waitpid(pid, NULL, 0);
	usleep(500000);
	ok &= check_records(m + 4096, 1 << 20, tail, ctrl->tail, 9000, &n);
	ksft_print_msg("replacements under traffic: %d of 3000 frames as records, %llu dropped by the pipe\n",
		       n, (unsigned long long)ctrl->drops);
	ok &= n > 0 && n + ctrl->drops <= 3000;
	ksft_test_result(ok, "five replacements under traffic: every record whole and correct\n");
	munmap(m, a.mmap_len);
	close(fd);
	ksft_finished();
	return 0;
}

/*
 * --fill: 100 frames of 200 bytes to a 4 KiB pipe bound to NF's output 1,
 * which keeps 19 and drops 81; the first 5 are released. Prints what the
 * pipe's control page then says, "filled", and sleeps until killed, so
 * that stats-get can be compared with it.
 */
static int fill_mode(const char *in)
{
	struct nicprog_pipe_ctrl *ctrl;
	struct nicprog_pipe_create a;
	uint8_t f[256], *m;
	int fd, i;

	m = rx_pipe_4k(in, &fd, &a);
	ctrl = (void *)m;
	if (bind_pipe(fd, NICPROG_U_OP_PIPE_BIND, a.id, 1))
		ksft_exit_fail_msg("bind failed\n");
	for (i = 0; i < 100; i++)
		send_frame(f, fl_udp_frame(f, 9001, 200, i));
	settle(ctrl, 0, 0);
	__atomic_store_n(&ctrl->head, 5 * REC(200), __ATOMIC_RELEASE);
	printf("# tail %llu head %llu drops %llu drop_bytes %llu\nfilled\n",
	       (unsigned long long)ctrl->tail, (unsigned long long)ctrl->head,
	       (unsigned long long)ctrl->drops,
	       (unsigned long long)ctrl->drop_bytes);
	fflush(stdout);
	pause();	/* until killed */
	return 0;
}

/*
 * --echo-peer: the far end of tools/apps/ringecho. Frames to UDP port 9000 go
 * out of IN 32 at a time; each must come back, in order, byte for byte,
 * its Ethernet addresses swapped. Prints TAP; exits 0 if all did.
 */
static int echo_peer(const char *in, int count)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
				   .sll_protocol = htons(ETH_P_ALL) };
	uint8_t f[1514], g[2048], mac[6];
	int rfd, i, j, len, got = 0, bad = 0;

	ksft_print_header();
	ksft_set_plan(1);
	pkt_ifindex = if_nametoindex(in);
	pkt_fd = socket(AF_PACKET, SOCK_RAW, 0);
	rfd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	sll.sll_ifindex = pkt_ifindex;
	if (!pkt_ifindex || pkt_fd < 0 || rfd < 0 ||
	    bind(rfd, (struct sockaddr *)&sll, sizeof(sll)))
		ksft_exit_fail_msg("%s: %s\n", in, strerror(errno));
	for (i = 0; i < count && !bad; i += 32) {
		for (j = i; j < count && j < i + 32; j++)
			send_frame(f, fl_udp_frame(f, 9000, FLEN(j), j));
		for (j = i; j < count && j < i + 32; j++) {
			len = fl_udp_frame(f, 9000, FLEN(j), j);
			memcpy(mac, f, 6);
			memcpy(f, f + 6, 6);
			memcpy(f + 6, mac, 6);
			if (fl_recv(rfd, g, 3000) != len || memcmp(f, g, len)) {
				ksft_print_msg("frame %d not echoed as expected\n",
					       j);
				bad = 1;
				break;
			}
			got++;
		}
	}
	ksft_test_result(!bad && got == count,
			 "%d of %d frames echoed in order, addresses swapped\n",
			 got, count);
	ksft_finished();
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long rounds = 20000;
	int fd, held = argc > 1 && !strcmp(argv[1], "--hold");
	int piped = argc > 1 && !strcmp(argv[1], "--pipe");

	if (argc < 2 + held + 2 * piped)
		ksft_exit_fail_msg("usage: ring_test IFNAME [SEED [ROUNDS]] | --hold IFNAME | --pipe IN NF\n");
	ifname = argv[1 + held + 2 * piped];
	if (held || piped || argv[1][0] != '-')
		node_of(ifname);
	if (io_uring_queue_init(8, &ring, 0))
		ksft_exit_fail_msg("io_uring_queue_init failed\n");
	if (held)
		return hold();
	if (piped)
		return pipe_mode(argv[2]);
	if (!strcmp(argv[1], "--park")) {	/* ring_test --park IFNAME */
		ifname = argv[2];
		node_of(ifname);
		fd = open_dev();
		if (create(fd, 65536, NICPROG_PIPE_RX, NICPROG_FRAMING_RECORDS,
			   NULL))
			ksft_exit_fail_msg("create failed\n");
		/* bound, for stats-get to show: pipe 1 of the file */
		if (cmd(fd, NICPROG_U_OP_PIPE_BIND, &(struct nicprog_pipe_bind){
				.id = 1, .output = 5,
				.flags = NICPROG_BIND_BACKPRESSURE,
				.coalesce_usecs = 5000,
				.coalesce_bytes = 4096,
			}, sizeof(struct nicprog_pipe_bind), 0))
			ksft_exit_fail_msg("bind failed\n");
		submit_wait(fd, NICPROG_WAIT_TIMEOUT_MAX);
		printf("parked\n");
		fflush(stdout);
		pause();	/* until killed */
		return 0;
	}
	if (!strcmp(argv[1], "--replace") && argc == 5) {
		ifname = argv[3];
		node_of(ifname);
		return replace_mode(argv[2], argv[3], argv[4]);
	}
	if (!strcmp(argv[1], "--backpressure") && argc == 4) {
		ifname = argv[3];
		node_of(ifname);
		return bp_mode(argv[2], argv[3]);
	}
	if (!strcmp(argv[1], "--fill") && argc == 4) {
		ifname = argv[3];
		node_of(ifname);
		return fill_mode(argv[2]);
	}
	if (!strcmp(argv[1], "--echo-peer"))	/* --echo-peer IN COUNT */
		return echo_peer(argv[2], argc > 3 ? atoi(argv[3]) : 1000);
	if (!strcmp(argv[1], "--bind")) {	/* ring_test --bind IFNAME */
		struct nicprog_pipe_create a;

		ifname = argv[2];
		node_of(ifname);
		fd = open_dev();
		if (create(fd, 4096, NICPROG_PIPE_RX, NICPROG_FRAMING_RECORDS,
			   &a))
			ksft_exit_fail_msg("create failed\n");
		printf("bind: %d\n", bind_pipe(fd, NICPROG_U_OP_PIPE_BIND, a.id, 5));
		close(fd);
		return 0;
	}
	rng = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
	if (argc > 3)
		rounds = strtoul(argv[3], NULL, 0);

	ksft_print_header();
	ksft_set_plan(10);
	test_node();
	fd = open_dev();
	test_create_map(fd);
	test_features(fd);
	test_hostile(fd);
	test_limits(fd);
	test_isolation(fd);
	test_close_mapped();
	fuzz_mem_map();
	test_fuzz(fd, rounds);
	close(fd);
	ksft_finished();
	return 0;
}
