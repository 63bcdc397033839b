// SPDX-License-Identifier: GPL-2.0
/* Aborts on every frame: the NIC must count it and fire xdp_exception. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int abort_all(struct xdp_md *ctx)
{
	return XDP_ABORTED;
}

char LICENSE[] SEC("license") = "GPL";
