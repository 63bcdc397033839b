// SPDX-License-Identifier: GPL-2.0
/* Refused on the NIC: calls a helper the NIC does not implement. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int bad_helper(struct xdp_md *ctx)
{
	return bpf_get_smp_processor_id() ? XDP_PASS : XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
