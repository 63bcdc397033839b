/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The workload predictor's performance model: from the paths an offline
 * run recorded (hostrun.h) and the LNIC's parameters, the throughput,
 * latency and utilisation a plan will have -- analytically, by queueing
 * formulas, not by replaying the runs.
 */
#ifndef _NICPROG_PLAN_MODEL_H
#define _NICPROG_PLAN_MODEL_H

#include "hostrun.h"

/**
 * struct np_pred_class - prediction for one packet class
 * @frames: its frames in the workload
 * @runs: stage runs per frame (passes included)
 * @cycles: instruction cycles per frame
 * @lat: mean cycles from a thread taking the frame to its verdict, summed
 *	over its stages
 * @mem: memory accesses per frame (stack apart)
 * @hit: share of them a cache serves
 * @jobs: engine jobs per frame
 * @mat: MAT lookups per frame
 * @verdict: the verdict most of its frames get
 */
struct np_pred_class {
	u32 frames;
	double runs;
	double cycles;
	double lat;
	double mem;
	double hit;
	double jobs;
	double mat;
	u32 verdict;
};

#define NP_PRED_MAX_UNITS	(NICPROG_MAX_STAGES + NICPROG_LNIC_MAX_REGIONS + \
				 __NICPROG_ACCEL_MAX + 1)

/**
 * struct np_pred_unit - the load of one unit
 * @name: e.g. "core3", "dram banks", "csum engine", "mat"
 * @util: share of the time it is busy (cores: issuing instructions)
 */
struct np_pred_unit {
	char name[32];
	double util;
};

/**
 * struct np_bank_spread - the prediction over single bank interleavings
 * @trials: interleavings the expectation is over; 0: the plan uses no
 *	region with several banks whose interleaving the profile does not
 *	give, and the rest is unset
 * @known: regions with several banks the plan uses whose interleaving
 *	the profile gives (NICPROG_IL_HASH): priced at the NIC's own
 * @tput_min: the lowest throughput of the least and the most loaded
 *	interleaving and the expectation
 * @tput_max: the highest
 * @lat_min: the lowest mean latency of the three
 * @lat_max: the highest
 */
struct np_bank_spread {
	u32 trials;
	u32 known;
	double tput_min;
	double tput_max;
	double lat_min;
	double lat_max;
};

/**
 * struct np_prediction - what a plan will do with a workload
 * @tput: frames per million core cycles
 * @mpps: the same in millions of frames per second at the core clock
 * @lat: mean latency per frame in core cycles (see struct np_pred_class)
 * @bottleneck: the unit that limits @tput
 * @units: per unit, its utilisation at @tput
 * @n_units: entries in @units
 * @offered: at the workload's rate, the share of @tput it asks for (0:
 *	no rate given)
 * @drops: at the workload's rate, frames dropped for full queues
 * @cls: per enum np_wl_class
 * @iterations: rounds the fixed point of queue waits took
 * @bank: the spread over bank interleavings (np_predict())
 */
struct np_prediction {
	double tput;
	double mpps;
	double lat;
	char bottleneck[32];
	struct np_pred_unit units[NP_PRED_MAX_UNITS];
	u32 n_units;
	double offered;
	u32 drops;
	struct np_pred_class cls[__NP_WL_CLASS_MAX];
	u32 iterations;
	struct np_bank_spread bank;
};

/**
 * struct np_draws - a prediction over several samples of one description
 * @n: samples; 1 is the description's own seed alone
 * @step: seed step from one sample to the next
 * @tput_min: lowest throughput of a sample
 * @tput_max: highest
 * @lat_min: lowest mean latency of a sample
 * @lat_max: highest
 *
 * A description fixes the flows' popularity, not which flows share a core:
 * under skew the busiest core, so the throughput, differs from one sample
 * to the next (dns.wl's 3000 flows, Zipf 0.9, on 16 cores: 107,919 to
 * 148,294 frames per million cycles over six seeds, 2026-11-28). The
 * prediction is the samples' mean; their range is what the description
 * leaves open.
 */
struct np_draws {
	u32 n;
	u64 step;
	double tput_min;
	double tput_max;
	double lat_min;
	double lat_max;
};

int np_predict(const struct nicprog_lnic *lnic,
	       const struct nicprog_layout *lo, const struct np_hostrun *hr,
	       u64 rate_kpps, bool spread, struct np_prediction *p);

#endif /* _NICPROG_PLAN_MODEL_H */
