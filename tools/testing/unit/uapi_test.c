// SPDX-License-Identifier: GPL-2.0
/*
 * The uapi header is self-contained (this file includes nothing before
 * it), compiles as pedantic C99 and C++11, and keeps its ABI values.
 */
#include <linux/nicprog.h>

#ifndef __cplusplus
#include <stddef.h>

#include "kselftest.h"

/* A group of values: passed, or "<what> changed". */
static void abi_result(int ok, const char *what)
{
	if (ok)
		ksft_test_result_pass("%s\n", what);
	else
		ksft_test_result_fail("%s changed\n", what);
}

int main(void)
{
	int ok;

	ksft_print_header();
	ksft_set_plan(8);
	/* Values are ABI: appending is allowed, renumbering is not. */
	ok = NICPROG_UNIT_CORE == 1 && NICPROG_UNIT_DMA == 5 &&
	    __NICPROG_UNIT_MAX == 6;
	abi_result(ok, "unit type values");
	ok = NICPROG_ACCEL_CSUM == 1 && NICPROG_ACCEL_REGEX == 6;
	abi_result(ok, "accelerator type values");
	ok = NICPROG_IC_ALU == 0 && NICPROG_IC_CALL == 7 &&
	    __NICPROG_IC_MAX == 8;
	abi_result(ok, "instruction class values");
	/* ring ABI: cache-line separated indices, 8-byte multiples */
	ok = offsetof(struct nicprog_pipe_ctrl, tail) == 0 &&
	    offsetof(struct nicprog_pipe_ctrl, head) == 64 &&
	    sizeof(struct nicprog_pipe_ctrl) == 200 &&
	    sizeof(struct nicprog_rec) == NICPROG_REC_ALIGN &&
	    sizeof(struct nicprog_pipe_create) == 40 &&
	    sizeof(struct nicprog_pipe_destroy) == 8 &&
	    offsetof(struct nicprog_notif_ctrl, head) == 64 &&
	    sizeof(struct nicprog_notif) == 16 &&
	    NICPROG_NOTIF_ENTRIES * sizeof(struct nicprog_notif) +
	    4096 == NICPROG_NOTIF_MMAP_LEN &&
	    sizeof(struct nicprog_wait) == 8;
	abi_result(ok, "ring layouts");
	/* the command area of a 64-byte SQE is 16 bytes */
	ok = sizeof(struct nicprog_uring_cmd) == 16 &&
	    NICPROG_OP_PIPE_CREATE == 1 && NICPROG_OP_PIPE_DESTROY == 2 &&
	    NICPROG_OP_PIPE_BIND == 3 && NICPROG_OP_PIPE_UNBIND == 4 &&
	    NICPROG_OP_WAIT == 5 && NICPROG_OP_PIPE_SEND == 6 &&
	    NICPROG_OP_FEATURES == 7 &&
	    NICPROG_U_OP_PIPE_CREATE == 0xc010b901U &&
	    NICPROG_U_OP_PIPE_DESTROY == 0xc010b902U &&
	    NICPROG_U_OP_PIPE_BIND == 0xc010b903U &&
	    NICPROG_U_OP_PIPE_UNBIND == 0xc010b904U &&
	    NICPROG_U_OP_WAIT == 0xc010b905U &&
	    NICPROG_U_OP_PIPE_SEND == 0xc010b906U &&
	    NICPROG_U_OP_FEATURES == 0xc010b907U &&
	    NICPROG_CMD_F_ALL == 0 && NICPROG_PIPE_F_ALL == 1 &&
	    NICPROG_BIND_F_ALL == 3 &&
	    sizeof(struct nicprog_features) == 72 &&
	    offsetof(struct nicprog_features, file_bytes) == 48 &&
	    offsetof(struct nicprog_features, buf_max) == 64 &&
	    sizeof(struct nicprog_pipe_send) == 16 &&
	    offsetof(struct nicprog_pipe_create, share) == 20 &&
	    sizeof(struct nicprog_pipe_bind) == 24 &&
	    offsetof(struct nicprog_pipe_bind, coalesce_usecs) == 16 &&
	    NICPROG_PIPE_TARGET(5) == 0x80000005U &&
	    /* bpf/nicprog.h (the outputs: bpf/ncl.h) repeats these for BPF builds */
	    NICPROG_FLOOD_TARGET == 0x90000000U &&
	    NICPROG_FLOOD_INGRESS == 1 &&
	    NICPROG_RING_OUTPUTS == 64 &&
	    NICPROG_PIPE_RX == 1 && NICPROG_PIPE_TX == 2 &&
	    NICPROG_FRAMING_RECORDS == 1 && NICPROG_FRAMING_STREAM == 2;
	abi_result(ok, "ring command values");
	/* NIC memory and RDMA (Documentation/nicprog/rdma.rst) */
	ok = NICPROG_OP_MEM_ALLOC == 8 && NICPROG_OP_MEM_FREE == 9 &&
	    NICPROG_OP_MEM_COPY == 10 && NICPROG_OP_QP_CREATE == 11 &&
	    NICPROG_OP_QP_CONNECT == 12 && NICPROG_OP_QP_DESTROY == 13 &&
	    NICPROG_OP_MR_REG == 14 && NICPROG_OP_MR_DEREG == 15 &&
	    NICPROG_OP_POST == 16 && NICPROG_OP_POLL == 17 &&
	    NICPROG_U_OP_MEM_ALLOC == 0xc010b908U &&
	    NICPROG_U_OP_POLL == 0xc010b911U &&
	    sizeof(struct nicprog_mem_alloc) == 24 &&
	    sizeof(struct nicprog_mem_copy) == 40 &&
	    sizeof(struct nicprog_qp_create) == 36 &&
	    sizeof(struct nicprog_qp_connect) == 56 &&
	    sizeof(struct nicprog_mr_reg) == 40 &&
	    sizeof(struct nicprog_rdma_wr) == 48 &&
	    offsetof(struct nicprog_rdma_wr, raddr) == 32 &&
	    sizeof(struct nicprog_rdma_wc) == 24 &&
	    sizeof(struct nicprog_post) == 16 &&
	    sizeof(struct nicprog_poll) == 16 &&
	    NICPROG_MEM_TO_NIC == 1 && NICPROG_MEM_FROM_NIC == 2 &&
	    NICPROG_WR_SEND == 1 && NICPROG_WR_RECV == 6 &&
	    /* as enum ibv_wc_status */
	    NICPROG_WC_REM_ACCESS_ERR == 10 && NICPROG_WC_RETRY_EXC_ERR == 12;
	abi_result(ok, "memory and RDMA command values");
	/* lookaside kernels: the frame is what BPF programs compile against */
	ok = NICPROG_OP_KERNEL_LOAD == 18 && NICPROG_OP_KERNEL_UNLOAD == 19 &&
	    NICPROG_OP_JOB == 20 && NICPROG_U_OP_JOB == 0xc010b914U &&
	    sizeof(struct nicprog_kernel_load) == 16 &&
	    sizeof(struct nicprog_kernel_unload) == 8 &&
	    sizeof(struct nicprog_job_buf) == 24 &&
	    sizeof(struct nicprog_job) == 272 &&
	    offsetof(struct nicprog_job, bufs) == 80 &&
	    sizeof(struct nicprog_job_frame) == 144 &&
	    offsetof(struct nicprog_job_frame, args) == 16 &&
	    offsetof(struct nicprog_job_frame, bufs) == 80 &&
	    NICPROG_JOB_BUFS == 8 && NICPROG_JOB_ARGS == 8 &&
	    NICPROG_JOB_BUF_WRITE == 1 && NICPROG_JOB_BUF_POST == 2 &&
	    NICPROG_JOB_BUF_HOST == 4 &&
	    NICPROG_KERNELS_MAX == 16 &&
	    NICPROG_JOB_FRAME_MAX == 4U << 20;
	abi_result(ok, "lookaside kernel command values");
	/* a file's command classes */
	ok = NICPROG_OP_RESTRICT == 21 && NICPROG_U_OP_RESTRICT == 0xc010b915U &&
	    sizeof(struct nicprog_restrict) == 8 &&
	    NICPROG_ALLOW_RX == 1 && NICPROG_ALLOW_TX == 2 &&
	    NICPROG_ALLOW_PIPES == 4 && NICPROG_ALLOW_STEER == 8 &&
	    NICPROG_ALLOW_MEM == 16 && NICPROG_ALLOW_RDMA == 32 &&
	    NICPROG_ALLOW_JOBS == 64 && NICPROG_ALLOW_ALL == 127 &&
	    NICPROG_PIPE_MMAP_SHIFT == 32;
	abi_result(ok, "command class values");
	ksft_finished();
}
#endif
