// SPDX-License-Identifier: GPL-2.0
/*
 * Lookaside kernels and jobs (NICPROG_OP_KERNEL_LOAD, _UNLOAD, _JOB) on a
 * nicsim port, through libnicring; BPF objects from BPFDIR (bpf/).
 *
 *   job_test IFNAME BPFDIR cases SEED ROUNDS	the cases below, TAP
 *   job_test IFNAME BPFDIR hold SEED		jobs until the device goes:
 *						"held" first, "gone" then
 *   job_test IFNAME BPFDIR eperm SEED		exit 0 if KERNEL_LOAD and
 *						JOB are EPERM (run without
 *						CAP_NET_ADMIN)
 *   job_test IFNAME BPFDIR kload SEED		load matmul's kernel and print
 *						"load 0" (then hold it until
 *						stdin ends) or "load -errno"
 *   job_test IFNAME BPFDIR one SEED OBJ LENS ARGS DATAFILE
 *	one job of OBJ's kernel (a path below BPFDIR) over windows of LENS
 *	bytes ("L,L,..."; the last one written) holding seeded bytes, which
 *	also go to DATAFILE back to back (for nicprog predict ... data), with
 *	the scalars ARGS ("A,A,..."); exit 0 when the NIC's result and
 *	written window equal the host's run of the same frame
 *
 * Windows may also be the opener's memory (NICPROG_JOB_BUF_HOST).
 *
 * The oracle is the host: every job's frame also runs through the same
 * object loaded for the host (BPF_PROG_TEST_RUN), and the NIC's written
 * windows must equal what the host's run left there; the product must
 * also equal a plain host computation.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "check.h"
#include "../../tools/lib/nicring/nicring.h"

#define T		16			/* matmul.c's MM_T */
#define TILE		(T * T * 4)
#define NT		3			/* tiles a side */
#define N		(NT * T)
#define MAT		(N * N * 4)
#define HDR		sizeof(struct nicprog_job_frame)

static uint64_t seed;
static const char *ifname, *bpfdir;
static struct nicring *r;
static int nic_fd, host_fd;	/* matmul.o for the NIC, for the host */
static uint32_t kid, abuf, bbuf, cbuf;

static uint32_t rnd(void)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return seed >> 33;
}

/* @obj's first program, loaded for the port (@offload) or the host. */
static int prog_load(const char *obj, int offload, struct bpf_object **o)
{
	char path[512];
	struct bpf_program *p;
	struct bpf_map *m;

	snprintf(path, sizeof(path), "%s/%s", bpfdir, obj);
	*o = bpf_object__open_file(path, NULL);
	if (libbpf_get_error(*o))
		ksft_exit_fail_msg("open %s\n", path);
	p = bpf_object__next_program(*o, NULL);
	if (offload) {
		bpf_program__set_ifindex(p, if_nametoindex(ifname));
		bpf_object__for_each_map(m, *o)
			bpf_map__set_ifindex(m, if_nametoindex(ifname));
	}
	if (bpf_object__load(*o))
		ksft_exit_fail_msg("load %s%s\n", path,
				   offload ? " for the NIC" : "");
	return bpf_program__fd(p);
}

static int to_nic(uint32_t id, uint64_t off, void *p, uint32_t len)
{
	return nicring_mem_copy(r, id, NICPROG_MEM_TO_NIC, off, p, len) ==
	       (int)len ? 0 : -1;
}

static int from_nic(uint32_t id, uint64_t off, void *p, uint32_t len)
{
	return nicring_mem_copy(r, id, NICPROG_MEM_FROM_NIC, off, p, len) ==
	       (int)len ? 0 : -1;
}

static uint64_t tile_off(uint32_t ti, uint32_t tj)
{
	return ((uint64_t)ti * NT + tj) * TILE;
}

/* Row-major @m to tile-major @t. */
static void to_tiles(const int32_t *m, int32_t *t)
{
	uint32_t i, j;

	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			t[tile_off(i / T, j / T) / 4 + (i % T) * T + j % T] =
				m[i * N + j];
}

static struct nicprog_job mm_job(uint32_t ti, uint32_t tj, uint32_t tk)
{
	return (struct nicprog_job){
		.kernel = kid, .n_bufs = 3, .job_id = ti * 100 + tj * 10 + tk,
		.args = { tk > 0 },
		.bufs = {
			{ .id = abuf, .offset = tile_off(ti, tk), .len = TILE },
			{ .id = bbuf, .offset = tile_off(tk, tj), .len = TILE },
			{ .id = cbuf, .offset = tile_off(ti, tj), .len = TILE,
			  .flags = NICPROG_JOB_BUF_WRITE },
		},
	};
}

/*
 * The host's run of @j's frame: @at, @bt, @ct the tile-major matrices,
 * @ct's tile updated as the written window comes out.
 */
static int host_job(const struct nicprog_job *j, const int32_t *at,
		    const int32_t *bt, int32_t *ct, uint32_t *ret)
{
	static uint8_t in[HDR + 3 * TILE], out[HDR + 3 * TILE + 256];
	struct nicprog_job_frame h = { .job_id = j->job_id, .n_bufs = 3 };
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = in,
		    .data_size_in = sizeof(in), .data_out = out,
		    .data_size_out = sizeof(out), .repeat = 1);
	uint32_t i;

	memcpy(h.args, j->args, sizeof(h.args));
	for (i = 0; i < 3; i++) {
		h.bufs[i].off = HDR + i * TILE;
		h.bufs[i].len = TILE;
	}
	memcpy(in, &h, HDR);
	memcpy(in + HDR, (uint8_t *)at + j->bufs[0].offset, TILE);
	memcpy(in + HDR + TILE, (uint8_t *)bt + j->bufs[1].offset, TILE);
	memcpy(in + HDR + 2 * TILE, (uint8_t *)ct + j->bufs[2].offset, TILE);
	if (bpf_prog_test_run_opts(host_fd, &o) || o.data_size_out != sizeof(in))
		return -1;
	memcpy((uint8_t *)ct + j->bufs[2].offset, out + HDR + 2 * TILE, TILE);
	*ret = o.retval;
	return 0;
}

/* Seeded A and B into the NIC; the host's product in @want (row-major). */
static void mm_setup(int32_t *a, int32_t *b, int32_t *at, int32_t *bt,
		     int32_t *want)
{
	uint32_t i, j, k;

	for (i = 0; i < N * N; i++) {
		a[i] = (int32_t)(rnd() % 2001) - 1000;
		b[i] = (int32_t)(rnd() % 2001) - 1000;
	}
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++) {
			int64_t s = 0;

			for (k = 0; k < N; k++)
				s += (int64_t)a[i * N + k] * b[k * N + j];
			want[i * N + j] = (int32_t)s;
		}
	to_tiles(a, at);
	to_tiles(b, bt);
	if (to_nic(abuf, 0, at, MAT) || to_nic(bbuf, 0, bt, MAT))
		ksft_exit_fail_msg("cannot copy the matrices in\n");
}

static void test_matmul(void)
{
	int32_t *a = malloc(MAT), *b = malloc(MAT), *at = malloc(MAT);
	int32_t *bt = malloc(MAT), *want = malloc(MAT), *wt = malloc(MAT);
	int32_t *ct = calloc(1, MAT), *got = malloc(MAT);
	uint32_t ti, tj, tk, hret, jobs = 0, diff = 0;
	int ok = 1, res;

	if (!a || !b || !at || !bt || !want || !wt || !ct || !got)
		ksft_exit_fail_msg("no memory\n");
	mm_setup(a, b, at, bt, want);
	to_tiles(want, wt);
	for (ti = 0; ti < NT; ti++)
		for (tj = 0; tj < NT; tj++)
			for (tk = 0; tk < NT; tk++) {
				struct nicprog_job j = mm_job(ti, tj, tk);

				res = nicring_job(r, &j);
				CHK(res == 0);
				CHK(!host_job(&j, at, bt, ct, &hret) && hret == 0);
				jobs++;
			}
	CHK(!from_nic(cbuf, 0, got, MAT));
	for (ti = 0; ti < N * N; ti++)
		diff += got[ti] != ct[ti];
	CHK(!diff);
	CHK(!memcmp(got, wt, MAT));
	ksft_print_msg("%u jobs; %u of %u elements differ from the host's runs\n",
		       jobs, diff, N * N);
	RESULT(ok, "matmul %ux%u int32 in %u tile jobs: the NIC's C equals the host's runs of the same object and the host's product\n",
	       N, N, jobs);
	free(a);
	free(b);
	free(at);
	free(bt);
	free(want);
	free(wt);
	free(ct);
	free(got);
}

/* A window of the opener's memory for @j's window @k. */
static void host_win(struct nicprog_job *j, uint32_t k, const void *p,
		     uint32_t flags)
{
	j->bufs[k] = (struct nicprog_job_buf){
		.flags = NICPROG_JOB_BUF_HOST | flags,
		.offset = (uintptr_t)p, .len = TILE,
	};
}

/*
 * Windows of the opener's memory (NICPROG_JOB_BUF_HOST): tiles of A and B
 * read from the host and C written back there, alone and beside NIC
 * buffers, equal to the host's runs; refusals; a C the NIC cannot write
 * back to (read-only memory) is EFAULT.
 */
static void test_host_windows(void)
{
	static int32_t at[MAT / 4], bt[MAT / 4], ct[MAT / 4], hc[TILE / 4];
	struct nicprog_job j, m;
	uint32_t hret = 1;
	int ok = 1, res;
	void *ro;

	CHK(!from_nic(abuf, 0, at, MAT) && !from_nic(bbuf, 0, bt, MAT));
	/* C(1,2) = A(1,0) B(0,2), all three in host memory */
	m = mm_job(1, 2, 0);
	j = m;
	host_win(&j, 0, (uint8_t *)at + tile_off(1, 0), 0);
	host_win(&j, 1, (uint8_t *)bt + tile_off(0, 2), 0);
	host_win(&j, 2, hc, NICPROG_JOB_BUF_WRITE);
	memset(hc, 0x5a, TILE);
	res = nicring_job(r, &j);
	CHK(!host_job(&m, at, bt, ct, &hret) && hret == 0);
	CHK(res == 0 && !memcmp(hc, (uint8_t *)ct + tile_off(1, 2), TILE));
	/* C(1,2) += A(1,1) B(1,2): A from the NIC, B and C from the host */
	m = mm_job(1, 2, 1);
	j = m;
	host_win(&j, 1, (uint8_t *)bt + tile_off(1, 2), 0);
	host_win(&j, 2, hc, NICPROG_JOB_BUF_WRITE);
	res = nicring_job(r, &j);
	CHK(!host_job(&m, at, bt, ct, &hret) && hret == 0);
	CHK(res == 0 && !memcmp(hc, (uint8_t *)ct + tile_off(1, 2), TILE));
	RESULT(ok, "host windows: tiles of A and B read from the opener's memory and C written back there, alone and beside NIC buffers, equal the host's runs\n");

	ok = 1;
	j = mm_job(0, 0, 0);
	j.bufs[0].flags = NICPROG_JOB_BUF_HOST;		/* names a buffer */
	CHK(nicring_job(r, &j) == -EINVAL);
	j = mm_job(0, 0, 0);
	host_win(&j, 0, at, NICPROG_JOB_BUF_POST);
	CHK(nicring_job(r, &j) == -EINVAL);
	j = mm_job(0, 0, 0);
	host_win(&j, 0, (void *)8, 0);			/* not mapped */
	CHK(nicring_job(r, &j) == -EFAULT);
	j = mm_job(0, 0, 0);
	host_win(&j, 0, (uint8_t *)hc + 64, 0);
	host_win(&j, 2, hc, NICPROG_JOB_BUF_WRITE);	/* over window 0 */
	CHK(nicring_job(r, &j) == -EINVAL);
	ro = mmap(NULL, TILE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHK(ro != MAP_FAILED);
	j = mm_job(0, 0, 0);
	host_win(&j, 2, ro, NICPROG_JOB_BUF_WRITE);
	CHK(nicring_job(r, &j) == -EFAULT);
	munmap(ro, TILE);
	RESULT(ok, "host windows refused: one naming a buffer, one of WRs (EINVAL), one not mapped (EFAULT), a written one over another (EINVAL); read-only memory to write back to: the job's res is EFAULT\n");
}

/*
 * Jobs posted without waiting (nicring_job_post()), their CQEs reaped by
 * busy polling the completion ring -- no system call while reaping -- and
 * by sleeping until the kernel wakes the caller: each tag once, each
 * job's C tile the host's run.
 */
static void test_async(void)
{
	static int32_t at[MAT / 4], bt[MAT / 4], ct[MAT / 4], got[MAT / 4];
	static struct nicprog_job jobs[2][NT * NT];
	struct nicring_stats s0, s1;
	uint32_t hret = 1, k, n, mode;
	uint64_t seen, tag = 0;
	int ok = 1, res = -1;

	CHK(!from_nic(abuf, 0, at, MAT) && !from_nic(bbuf, 0, bt, MAT) &&
	    !from_nic(cbuf, 0, ct, MAT));
	for (mode = 0; mode < 2; mode++) {
		for (k = 0; k < NT * NT; k++) {
			jobs[mode][k] = mm_job(k / NT, k % NT, mode);
			CHK(!nicring_job_post(r, &jobs[mode][k], k));
		}
		nicring_get_stats(r, &s0);
		for (n = 0, seen = 0; n < NT * NT; n++) {
			CHK(nicring_command_reap(r, &tag, &res, !mode) == 1);
			CHK(res == 0 && tag < NT * NT && !(seen & (1ULL << tag)));
			seen |= 1ULL << tag;
		}
		nicring_get_stats(r, &s1);
		CHK(mode ? s1.waits > s0.waits : s1.syscalls == s0.syscalls);
		CHK(nicring_command_reap(r, &tag, &res, 1) == -ENOENT);
		for (k = 0; k < NT * NT; k++)
			CHK(!host_job(&jobs[mode][k], at, bt, ct, &hret) &&
			    hret == 0);
	}
	CHK(!from_nic(cbuf, 0, got, MAT) && !memcmp(got, ct, MAT));
	RESULT(ok, "%u jobs posted at once, reaped by busy polling the completion ring (no system call) and by sleeping until woken: each once, C the host's runs\n",
	       2 * NT * NT);
}

/* Only written windows change; a window the job does not mark stays. */
static void test_windows(void)
{
	static uint8_t before[MAT], after[MAT];
	struct nicprog_job j = mm_job(0, 0, 0);
	int ok = 1;

	CHK(!from_nic(cbuf, 0, before, MAT));
	j.bufs[2].flags = 0;
	CHK(nicring_job(r, &j) == 0);
	CHK(!from_nic(cbuf, 0, after, MAT));
	CHK(!memcmp(before, after, MAT));
	/* the kernel's own refusal: two windows, not three */
	j = mm_job(0, 0, 0);
	j.n_bufs = 2;
	memset(&j.bufs[2], 0, sizeof(j.bufs[2]));
	CHK(nicring_job(r, &j) == 1);
	CHK(!from_nic(cbuf, 0, after, MAT));
	CHK(!memcmp(before, after, MAT));
	RESULT(ok, "a window not marked written keeps its bytes though the kernel stores into it; the kernel's return value is the CQE's\n");
}

static int job_err(struct nicprog_job j)
{
	return nicring_job(r, &j);
}

static void test_refusals(void)
{
	struct bpf_object *mo, *ho;
	struct nicprog_job j;
	struct nicring *r2;
	uint32_t id, other = 0, i;
	int ok = 1, err, mfd;

	/* jobs */
	j = mm_job(0, 0, 0);
	j.kernel = kid + 100;
	CHK(job_err(j) == -ENOENT);
	j = mm_job(0, 0, 0);
	j.bufs[1].id = 999;
	CHK(job_err(j) == -ENOENT);
	j = mm_job(0, 0, 0);
	j.bufs[0].offset = MAT - TILE + 4;
	CHK(job_err(j) == -EINVAL);
	j.bufs[0].offset = ~0ULL;
	CHK(job_err(j) == -EINVAL);
	j = mm_job(0, 0, 0);
	j.bufs[0].len = 0;
	CHK(job_err(j) == -EINVAL);
	j.bufs[0].len = 5U << 20;
	CHK(job_err(j) == -EINVAL);
	j = mm_job(0, 0, 0);
	j.n_bufs = 0;
	CHK(job_err(j) == -EINVAL);
	j.n_bufs = NICPROG_JOB_BUFS + 1;
	CHK(job_err(j) == -EINVAL);
	j = mm_job(0, 0, 0);
	j.bufs[1].flags = 0x80;
	CHK(job_err(j) == -EINVAL);
	j = mm_job(0, 0, 0);
	j.bufs[5].len = 1;		/* past n_bufs */
	CHK(job_err(j) == -EINVAL);
	j = mm_job(0, 0, 0);		/* written C over A's bytes */
	j.bufs[2].id = abuf;
	j.bufs[2].offset = tile_off(0, 0) + 8;
	CHK(job_err(j) == -EINVAL);
	/* another opener's buffer is not ours, whatever its number */
	r2 = nicring_open(ifname, &err);
	CHK(r2);
	for (i = 0; r2 && i < 8; i++)
		CHK(!nicring_mem_alloc(r2, 4096, NICPROG_MEM_REGION_ANY, &other));
	j = mm_job(0, 0, 0);
	j.bufs[0].id = other;
	CHK(other > cbuf && job_err(j) == -ENOENT);
	/* a buffer freed */
	CHK(!nicring_mem_alloc(r, TILE, NICPROG_MEM_REGION_ANY, &id));
	CHK(!nicring_mem_free(r, id));
	j.bufs[0].id = id;
	CHK(job_err(j) == -ENOENT);
	/* kernels: not for this NIC, not XDP, with maps, unknown */
	ho = NULL;
	mfd = prog_load("lookaside/matmul.o", 0, &ho);
	CHK(nicring_kernel_load(r, mfd, &id) == -EINVAL);
	CHK(nicring_kernel_load(r, 0, &id) < 0);	/* stdin */
	CHK(nicring_kernel_load(r, -1, &id) == -EBADF);
	bpf_object__close(ho);
	/* libbpf says the NIC's map takes no BTF, then retries: not ours */
	libbpf_set_print(NULL);
	mfd = prog_load("examples/count.o", 1, &mo);
	CHK(nicring_kernel_load(r, mfd, &id) == -EINVAL);
	bpf_object__close(mo);
	CHK(nicring_kernel_unload(r, kid + 100) == -ENOENT);
	/* the file's limit */
	for (i = 1, err = 0; i < NICPROG_KERNELS_MAX && !err; i++)
		err = nicring_kernel_load(r, nic_fd, &id);
	CHK(!err && nicring_kernel_load(r, nic_fd, &id) == -EMFILE);
	CHK(nicring_kernel_unload(r, id) == 0);
	j = mm_job(0, 0, 0);
	j.kernel = id;
	CHK(job_err(j) == -ENOENT);
	if (r2)
		nicring_close(r2);
	RESULT(ok, "refused: unknown kernel, freed or another opener's buffer, windows past their buffer or the frame, empty, too many, unknown flags, stray, a written window over another; kernels not for this NIC, not XDP, with maps, past the file's %u\n",
	       NICPROG_KERNELS_MAX);
}

/* Seeded jobs of random windows: errnos only, no byte outside a write. */
static void test_fuzz(uint32_t rounds)
{
	static uint8_t before[3][MAT], after[MAT];
	uint32_t bufs[3] = { abuf, bbuf, cbuf }, i, k, n_ok = 0, n_err = 0;
	int ok = 1, res, c_written = 0;

	for (k = 0; k < 3; k++)
		CHK(!from_nic(bufs[k], 0, before[k], MAT));
	for (i = 0; i < rounds; i++) {
		struct nicprog_job j = { .kernel = rnd() % 8 ? kid : rnd(),
					 .n_bufs = rnd() % 10,
					 .job_id = rnd() };

		for (k = 0; k < NICPROG_JOB_BUFS; k++) {
			struct nicprog_job_buf *w = &j.bufs[k];
			uint32_t b = rnd() % 4, bad = rnd() % 16;

			if (k >= j.n_bufs && bad)
				continue;
			/* one field in 16 hostile, the rest in range */
			w->id = b < 3 ? bufs[b] : rnd() % 64;
			w->len = bad == 1 ? rnd() : 1 + rnd() % TILE;
			w->offset = bad == 2 ? (uint64_t)rnd() << 32 | rnd() :
				    rnd() % (MAT - w->len + (bad == 3 ? 64 : 1));
			/* written only into C, so A and B must not change */
			w->flags = bad == 4 ? rnd() :
				   b == 2 && rnd() % 2 ? NICPROG_JOB_BUF_WRITE : 0;
		}
		if (rnd() % 4 == 0)	/* matmul's own shape, so that it runs */
			j = mm_job(rnd() % NT, rnd() % NT, rnd() % NT);
		res = nicring_job(r, &j);
		if (res == 0 || res == 1) {
			n_ok++;
			for (k = 0; k < j.n_bufs; k++)
				if (j.bufs[k].flags & NICPROG_JOB_BUF_WRITE)
					c_written = 1;
		} else {
			n_err++;
			CHK(res == -EINVAL || res == -ENOENT);
		}
	}
	for (k = 0; k < 2; k++) {
		CHK(!from_nic(bufs[k], 0, after, MAT));
		CHK(!memcmp(before[k], after, MAT));
	}
	ksft_print_msg("fuzz: %u jobs ran, %u refused; C written: %d\n", n_ok,
		       n_err, c_written);
	RESULT(ok && n_ok && n_err,
	       "fuzz: %u seeded jobs, each run or refused (EINVAL, ENOENT); the buffers no job wrote unchanged\n",
	       rounds);
}

static void setup(void)
{
	struct bpf_object *o;
	int err;

	r = nicring_open(ifname, &err);
	if (!r)
		ksft_exit_fail_msg("open %s: %s\n", ifname, strerror(-err));
	nic_fd = prog_load("lookaside/matmul.o", 1, &o);
	host_fd = prog_load("lookaside/matmul.o", 0, &o);
	err = nicring_kernel_load(r, nic_fd, &kid);
	if (err)
		ksft_exit_fail_msg("kernel load: %s\n", strerror(-err));
	if (nicring_mem_alloc(r, MAT, NICPROG_MEM_REGION_ANY, &abuf) ||
	    nicring_mem_alloc(r, MAT, NICPROG_MEM_REGION_ANY, &bbuf) ||
	    nicring_mem_alloc(r, MAT, NICPROG_MEM_REGION_ANY, &cbuf))
		ksft_exit_fail_msg("no NIC buffers\n");
}

static int hold(void)
{
	static int32_t hc[TILE / 4];
	struct nicprog_job j;
	int res;

	printf("held\n");
	fflush(stdout);
	for (;;) {
		j = mm_job(rnd() % NT, rnd() % NT, rnd() % NT);
		/* half of them write C to host memory, at kill -9 too */
		if (rnd() % 2)
			host_win(&j, 2, hc, NICPROG_JOB_BUF_WRITE);
		res = nicring_job(r, &j);
		if (res == -ENODEV) {
			printf("gone\n");
			return 0;
		}
		if (res) {
			fprintf(stderr, "hold: %d\n", res);
			return 1;
		}
	}
}

static int eperm(void)
{
	struct nicprog_job j = { .kernel = 1, .n_bufs = 1,
				 .bufs = { { .id = 1, .len = 1 } } };
	struct bpf_object *o;
	uint32_t id;
	int err, err2;

	r = nicring_open(ifname, &err);
	if (!r)
		return 1;
	err = nicring_kernel_load(r, prog_load("lookaside/matmul.o", 1, &o),
				  &id);
	err2 = nicring_job(r, &j);
	printf("kernel load and job without CAP_NET_ADMIN: %d %d\n", err,
	       err2);
	return err == -EPERM && err2 == -EPERM ? 0 : 1;
}

/* @obj for the host, run once on @in; what it left in @out, its R0. */
static int host_run(const char *obj, uint8_t *in, uint32_t len, uint8_t *out,
		    uint32_t out_len, uint32_t *ret)
{
	LIBBPF_OPTS(bpf_test_run_opts, t, .data_in = in, .data_size_in = len,
		    .data_out = out, .data_size_out = out_len, .repeat = 1);
	struct bpf_object *o;

	if (bpf_prog_test_run_opts(prog_load(obj, 0, &o), &t))
		return -1;
	*ret = t.retval;
	return 0;
}

/* "N,N,...": at most @max numbers into @v; their count, or 0. */
static uint32_t numbers(const char *s, __u64 *v, uint32_t max)
{
	uint32_t n = 0;
	char *end;

	while (*s && n < max) {
		v[n++] = strtoull(s, &end, 0);
		if (end == s || (*end && *end != ','))
			return 0;
		s = *end ? end + 1 : end;
	}
	return *s ? 0 : n;
}

static int one(const char *obj, const char *lens, const char *args,
	       const char *file)
{
	struct nicprog_job j = { .job_id = seed };
	struct nicprog_job_frame h = { .job_id = seed };
	__u64 len[NICPROG_JOB_BUFS], off = HDR;
	uint8_t *in, *out, *back;
	struct bpf_object *o;
	uint32_t i, n, k, w, ret;
	int fd, res, err;
	bool same;
	FILE *f;

	n = numbers(lens, len, NICPROG_JOB_BUFS);
	if (!n || !numbers(args, j.args, NICPROG_JOB_ARGS)) {
		fprintf(stderr, "one: bad LENS or ARGS\n");
		return 2;
	}
	for (i = 0; i < n; i++) {
		off = (off + 7) & ~7ULL;
		h.bufs[i].off = off;
		h.bufs[i].len = len[i];
		off += len[i];
	}
	h.n_bufs = n;
	memcpy(h.args, j.args, sizeof(h.args));
	in = calloc(1, off);
	out = calloc(1, off + 256);
	back = calloc(1, len[n - 1]);
	f = fopen(file, "w");
	r = nicring_open(ifname, &err);
	if (!in || !out || !back || !f || !r) {
		fprintf(stderr, "one: setup failed\n");
		return 1;
	}
	memcpy(in, &h, HDR);
	j.kernel = 0;
	j.n_bufs = n;
	for (i = 0; i < n; i++) {
		for (k = 0; k < len[i]; k++)
			in[h.bufs[i].off + k] = rnd() >> 8;
		if (fwrite(in + h.bufs[i].off, 1, len[i], f) != len[i] ||
		    nicring_mem_alloc(r, len[i], NICPROG_MEM_REGION_ANY,
				      &j.bufs[i].id) ||
		    to_nic(j.bufs[i].id, 0, in + h.bufs[i].off, len[i])) {
			fprintf(stderr, "one: window %u not set up\n", i);
			return 1;
		}
		j.bufs[i].len = len[i];
	}
	j.bufs[n - 1].flags = NICPROG_JOB_BUF_WRITE;
	fclose(f);
	fd = prog_load(obj, 1, &o);
	if (nicring_kernel_load(r, fd, &j.kernel)) {
		fprintf(stderr, "one: kernel load failed\n");
		return 1;
	}
	res = nicring_job(r, &j);
	w = n - 1;
	if (host_run(obj, in, off, out, off + 256, &ret) ||
	    from_nic(j.bufs[w].id, 0, back, len[w])) {
		fprintf(stderr, "one: host run or copy back failed\n");
		return 1;
	}
	same = !memcmp(back, out + h.bufs[w].off, len[w]);
	printf("res %d host %u written %s\n", res, ret & 0x7fffffff,
	       same ? "same" : "differs");
	return res >= 0 && (uint32_t)res == (ret & 0x7fffffff) && same ? 0 : 1;
}

static int kload(void)
{
	struct bpf_object *o;
	char line[64];
	uint32_t id;
	int err;

	r = nicring_open(ifname, &err);
	if (!r)
		return 1;
	err = nicring_kernel_load(r, prog_load("lookaside/matmul.o", 1, &o),
				  &id);
	printf("load %d\n", err);
	fflush(stdout);
	while (!err && fgets(line, sizeof(line), stdin))
		;
	return err ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc < 5 || (!strcmp(argv[3], "cases") && argc != 6) ||
	    (!strcmp(argv[3], "one") && argc != 9)) {
		fprintf(stderr, "usage: job_test IFNAME BPFDIR cases SEED ROUNDS | hold SEED | eperm SEED | kload SEED | one SEED OBJ LENS ARGS DATAFILE\n");
		return 2;
	}
	ifname = argv[1];
	bpfdir = argv[2];
	seed = strtoull(argv[4], NULL, 0);
	if (!strcmp(argv[3], "eperm"))
		return eperm();
	if (!strcmp(argv[3], "kload"))
		return kload();
	if (!strcmp(argv[3], "one"))
		return one(argv[5], argv[6], argv[7], argv[8]);
	setup();
	if (!strcmp(argv[3], "hold"))
		return hold();
	ksft_print_header();
	ksft_set_plan(7);
	test_matmul();
	test_host_windows();
	test_async();
	test_windows();
	test_refusals();
	test_fuzz(strtoul(argv[5], NULL, 0));
	ksft_finished();
	return 0;
}
