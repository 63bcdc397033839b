/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A lookaside kernel's job priced offline on every NIC profile: the
 * predictor's side of NICPROG_OP_JOB (Documentation/nicprog/rdma.rst).
 */
#ifndef _NICPROG_PLAN_JOB_H
#define _NICPROG_PLAN_JOB_H

#include "compat.h"
#include <linux/nicprog.h>
#include <net/nicprog_exec.h>
#include <net/nicprog_lnic.h>

/**
 * struct np_job - the job to price, as NICPROG_OP_JOB would hand it over
 * @n_bufs: windows, 1..NICPROG_JOB_BUFS
 * @len: each window's bytes
 * @args: the scalars (struct nicprog_job.args)
 * @data: the windows' bytes back to back, or NULL: seeded random bytes,
 *	anew for every sample
 * @data_len: bytes at @data
 */
struct np_job {
	u32 n_bufs;
	u64 len[NICPROG_JOB_BUFS];
	u64 args[NICPROG_JOB_ARGS];
	u8 *data;
	u64 data_len;
};

int np_job_parse(const char *bufs, const char *args, const char *data,
		 struct np_job *job, char *why, size_t why_len);
int np_job_exec(const struct bpf_insn *insns, u32 len,
		struct nicprog_exec_prog *exec, char *why, size_t why_len);
int np_job_predict(const struct nicprog_exec_prog *exec,
		   const struct np_job *job, const struct nicprog_lnic *only,
		   u32 samples, const char *obj, const char *prog);

#endif /* _NICPROG_PLAN_JOB_H */
