// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause
/*
 * switch - what a nicsim NIC playing a top-of-rack switch runs when no
 * network kernel is deployed on it: L2 forwarding through ncl_fdb
 * (ncl.h), on every port; windows for kernels the network runs elsewhere
 * go on, others are dropped and counted.
 */
#include "../ncl.h"

static int ncl_kernel(struct ncl_ctx *c)
{
	(void)c;
	return NCL_NOT_MINE;
}

NCL_OUT(ncl_switch)

char _license[] SEC("license") = "GPL";
