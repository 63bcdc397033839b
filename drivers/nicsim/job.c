// SPDX-License-Identifier: GPL-2.0
/*
 * nicsim's lookaside kernels (&nicprog_dev_ops.job_ops): a job runs on
 * the calling CPU as one of the LNIC's cores would run it -- the first
 * core unit's cost table, the latency of the largest region a core
 * reaches (where NIC buffers go) on every access to the job's frame --
 * and completes after its cycles at that core's clock, times the bus's
 * dilation. A port's jobs run one after another (the core runs them
 * under the port's ring_lock); the cores' plans do not slow them, nor
 * they the plans: the LNIC's cores are shared only in its prediction.
 */
#include <linux/math64.h>
#include <linux/slab.h>

#include "nicsim.h"

/* The first core unit, and the latency of the largest region it reaches. */
static const struct nicprog_lnic_unit *
nicsim_job_core(const struct nicprog_lnic *lnic, u32 *lat)
{
	const struct nicprog_lnic_unit *core = NULL;
	u32 u, r, best = 0;

	for (u = 0; u < lnic->n_units && !core; u++)
		if (lnic->units[u].type == NICPROG_UNIT_CORE)
			core = &lnic->units[u];
	if (!core)
		return NULL;
	for (r = 0; r < lnic->n_regions; r++)
		if ((!core->region_mask || (core->region_mask & BIT(r))) &&
		    lnic->regions[r].size > lnic->regions[best].size)
			best = r;
	*lat = lnic->regions[best].latency_cycles;
	return core;
}

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
	core = nicsim_job_core(ndev->lnic, &lat);
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

const struct nicprog_job_ops nicsim_job_ops = {
	.run	= nicsim_job_run,
};
