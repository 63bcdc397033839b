// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause
/*
 * switch - what a nicsim NIC playing a top-of-rack switch runs when no
 * network kernel is deployed on it: L2 forwarding through ncl_fdb
 * (ncl.h), on every port.
 */
#include "../ncl.h"

SEC("xdp")
int ncl_switch(struct xdp_md *ctx)
{
	return ncl_forward(ctx);
}

char _license[] SEC("license") = "GPL";
