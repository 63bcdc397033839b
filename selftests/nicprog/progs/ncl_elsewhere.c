// SPDX-License-Identifier: GPL-2.0
/* A network kernel placed at a label no description names (s9). */
#include "../../../bpf/ncl.h"

static int ncl_kernel(struct ncl_ctx *c)
{
	return c->kernel == 8 ? ncl_reflect(c) : NCL_NOT_MINE;
}

NCL_OUT(ncl_elsewhere)
NCL_PLACE("s9", "8");

char _license[] SEC("license") = "GPL";
