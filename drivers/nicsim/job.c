// SPDX-License-Identifier: GPL-2.0
/*
 * nicsim's lookaside kernels (&nicprog_dev_ops.job_ops): a job runs on
 * the calling CPU as one of the LNIC's cores would run it -- the core
 * and frame latency nicprog_lnic_job_core() names, as the predictor
 * prices it -- and completes after its cycles at that core's clock,
 * times the bus's dilation. A port's jobs run one after another, on the
 * core its kernels hold, which no plan has (kernel/alloc.c), queued
 * there by the core (kernel/ring/job.c): jobs and plans do not slow each
 * other. A job's host windows take the DMA engine free first.
 */
#include <linux/math64.h>
#include <linux/slab.h>

#include "nicsim.h"

static s64 nicsim_job_run(struct nicprog_nic *nic,
			  const struct nicprog_kernel *k,
			  struct nicprog_exec_pkt *pkt,
			  struct nicprog_exec_result *res)
{
	struct nicsim_dev *ndev = nicprog_nic_priv(nic);
	const struct nicprog_lnic_unit *core;
	struct nicprog_exec_state *st;
	u64 ns = 0;
	u32 lat = 0;

	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	mutex_lock(&ndev->lnic_lock);
	core = nicprog_lnic_job_core(ndev->lnic, &lat);
	if (core) {
		nicprog_kernel_run(k, core->cost, lat, st, pkt, res);
		ns = div_u64(res->cycles * 1000 * nicsim_wire_dilation_get(),
			     max(core->clock_mhz, 1U));
	}
	mutex_unlock(&ndev->lnic_lock);
	kfree(st);
	if (!core)
		return -EOPNOTSUPP;
	atomic64_inc(&ndev->jobs);
	atomic64_add(res->cycles, &ndev->job_cycles);
	return ns;
}

/* A job's host windows: a transfer on the DMA engine free first. */
static s64 nicsim_job_host_dma(struct nicprog_nic *nic, u64 len)
{
	struct nicsim_dev *ndev = nicprog_nic_priv(nic);
	struct nicprog_lnic_unit unit;
	const struct nicprog_lnic_unit *u;
	u64 now = ktime_get_ns();

	mutex_lock(&ndev->lnic_lock);
	u = nicsim_dma_unit(ndev->lnic, U32_MAX);
	if (u)
		unit = *u;
	mutex_unlock(&ndev->lnic_lock);
	if (!u)
		return -EOPNOTSUPP;
	return nicsim_dma_reserve(ndev, &unit, len) - now;
}

const struct nicprog_job_ops nicsim_job_ops = {
	.run		= nicsim_job_run,
	.host_dma	= nicsim_job_host_dma,
};
