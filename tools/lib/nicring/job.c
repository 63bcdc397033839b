// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause
/*
 * libnicring's lookaside kernels and jobs (Documentation/nicprog/rdma.rst):
 * one command each, on the handle's device and ring, as its NIC memory
 * commands (rdma.c).
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "nicring.h"

int nicring_kernel_load(struct nicring *r, int prog_fd, uint32_t *id)
{
	struct nicprog_kernel_load a = { .prog_fd = prog_fd };
	int res;

	if (prog_fd < 0)
		return -EBADF;
	res = nicring_command(r, NICPROG_U_OP_KERNEL_LOAD, &a, sizeof(a));
	if (!res)
		*id = a.id;
	return res;
}

int nicring_kernel_unload(struct nicring *r, uint32_t id)
{
	struct nicprog_kernel_unload a = { .id = id };

	return nicring_command(r, NICPROG_U_OP_KERNEL_UNLOAD, &a, sizeof(a));
}

/* The kernel's return value (0..INT_MAX), or -errno. */
int nicring_job(struct nicring *r, const struct nicprog_job *job)
{
	struct nicprog_job j = *job;

	return nicring_command(r, NICPROG_U_OP_JOB, &j, sizeof(j));
}

/*
 * Post a job without waiting: @job stays the caller's, untouched, until
 * nicring_command_reap() gives back @tag (with the kernel's return value
 * or -errno), by sleeping or busy polling the completion ring.
 */
int nicring_job_post(struct nicring *r, struct nicprog_job *job, uint64_t tag)
{
	return nicring_command_post(r, NICPROG_U_OP_JOB, job, sizeof(*job),
				    tag);
}
