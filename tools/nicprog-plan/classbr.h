/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The plan's static bracket per packet class of a workload: over the
 * frames of that class only, what the plan's throughput and latency can
 * be, whatever flows, tables and payload they come with.
 */
#ifndef _NICPROG_PLAN_CLASSBR_H
#define _NICPROG_PLAN_CLASSBR_H

#include "object.h"
#include "workload.h"

/**
 * struct np_class_bracket - one class's bracket
 * @frames: the workload's frames of the class; 0: none, the rest unset
 * @len_min: their least length
 * @len_max: their most
 * @differs: a frame differs from the class in a byte the class fixes:
 *	only the lengths narrow the walk
 * @blocks: blocks a frame of the class can reach
 * @of_blocks: the program's blocks
 * @br: the bracket over those blocks
 */
struct np_class_bracket {
	u32 frames;
	u32 len_min;
	u32 len_max;
	bool differs;
	u32 blocks;
	u32 of_blocks;
	struct nicprog_bracket br;
};

int np_class_brackets(const struct np_object *obj,
		      const struct nicprog_ir *ir,
		      const struct nicprog_lnic *lnic,
		      const struct nicprog_layout *lo,
		      const struct np_frames *fr,
		      struct np_class_bracket cb[__NP_WL_CLASS_MAX]);

#endif /* _NICPROG_PLAN_CLASSBR_H */
