/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What nicprog-plan prints of a plan and a prediction: in words (the
 * kernel's own, which tests compare line for line), in JSON (-j/-p of
 * "nicprog plan" and "nicprog predict"), and the handler graph as DOT.
 */
#ifndef _NICPROG_PLAN_REPORT_H
#define _NICPROG_PLAN_REPORT_H

#include "compat.h"
#include "offload.h"
#include "hostrun.h"
#include "classbr.h"
#include "model.h"
#include "workload.h"

void np_print_fx(u64 fx);
void np_report_plan(const struct nicprog_ir *ir,
		    const struct nicprog_lnic *lnic,
		    const struct nicprog_layout *lo,
		    const struct nicprog_host_limits *lim);
/* A prediction and what it was made from, for np_report_prediction(). */
struct np_report_in {
	const struct np_workload *w;
	const struct nicprog_lnic *lnic;
	const struct nicprog_layout *lo;
	const struct np_hostrun *hr;
	const struct np_prediction *p;
	const struct np_draws *d;
	const struct np_class_bracket *cb;
};

void np_report_prediction(const struct np_report_in *in);
void np_report_dot(const char *name, const struct nicprog_ir *ir,
		   const struct nicprog_lnic *lnic,
		   const struct nicprog_layout *lo);

#endif /* _NICPROG_PLAN_REPORT_H */
