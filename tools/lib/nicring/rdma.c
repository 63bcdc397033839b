// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause
/*
 * libnicring's NIC memory and RDMA verbs: one command each, on the
 * handle's device and ring (nicring_command()). They live here rather
 * than in a library of their own because they are commands of the same
 * device: a second library would open it and keep an io_uring again.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "nicring.h"

int nicring_mem_alloc(struct nicring *r, uint64_t size, uint32_t region,
		      uint32_t *id)
{
	struct nicprog_mem_alloc a = { .size = size, .region = region };
	int res = nicring_command(r, NICPROG_U_OP_MEM_ALLOC, &a, sizeof(a));

	if (!res)
		*id = a.id;
	return res;
}

int nicring_mem_free(struct nicring *r, uint32_t id)
{
	struct nicprog_mem_free a = { .id = id };

	return nicring_command(r, NICPROG_U_OP_MEM_FREE, &a, sizeof(a));
}

/* Bytes copied, or -errno. */
int nicring_mem_copy(struct nicring *r, uint32_t id, uint32_t dir,
		     uint64_t offset, void *p, uint64_t len)
{
	struct nicprog_mem_copy a = {
		.id = id, .dir = dir, .offset = offset, .len = len,
		.addr = (uintptr_t)p,
	};

	return nicring_command(r, NICPROG_U_OP_MEM_COPY, &a, sizeof(a));
}

int nicring_qp_create(struct nicring *r, struct nicprog_qp_create *a)
{
	return nicring_command(r, NICPROG_U_OP_QP_CREATE, a, sizeof(*a));
}

int nicring_qp_connect(struct nicring *r, const struct nicprog_qp_connect *a)
{
	struct nicprog_qp_connect c = *a;

	return nicring_command(r, NICPROG_U_OP_QP_CONNECT, &c, sizeof(c));
}

int nicring_qp_destroy(struct nicring *r, uint32_t qpn)
{
	struct nicprog_qp_destroy a = { .qpn = qpn };

	return nicring_command(r, NICPROG_U_OP_QP_DESTROY, &a, sizeof(a));
}

int nicring_mr_reg(struct nicring *r, struct nicprog_mr_reg *a)
{
	return nicring_command(r, NICPROG_U_OP_MR_REG, a, sizeof(*a));
}

int nicring_mr_dereg(struct nicring *r, uint32_t lkey)
{
	struct nicprog_mr_dereg a = { .lkey = lkey };

	return nicring_command(r, NICPROG_U_OP_MR_DEREG, &a, sizeof(a));
}

/* WRs posted (all of them), or -errno: one doorbell. */
int nicring_post(struct nicring *r, const struct nicprog_rdma_wr *wrs,
		 uint32_t n)
{
	struct nicprog_post a = {
		.wrs = (uintptr_t)wrs, .n = n, .wr_size = sizeof(*wrs),
	};

	return nicring_command(r, NICPROG_U_OP_POST, &a, sizeof(a));
}

/* WCs taken, 0 if none came within @timeout_ms, or -errno. */
int nicring_poll_cq(struct nicring *r, struct nicprog_rdma_wc *wcs,
		    uint32_t max, uint32_t timeout_ms)
{
	struct nicprog_poll a = {
		.wcs = (uintptr_t)wcs, .max = max, .timeout_ms = timeout_ms,
	};

	return nicring_command(r, NICPROG_U_OP_POLL, &a, sizeof(a));
}
