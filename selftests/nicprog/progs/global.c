// SPDX-License-Identifier: GPL-2.0
/* Refused on the NIC: a global variable needs an mmapable map. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

__u64 seen;

SEC("xdp")
int global(struct xdp_md *ctx)
{
	__sync_fetch_and_add(&seen, 1);
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
