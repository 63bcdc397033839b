// SPDX-License-Identifier: GPL-2.0
/*
 * A read-only table indexed by a value of the frame: its address plus a
 * variable offset cannot be folded into one constant, so the loader binds
 * .rodata as the read-only array libbpf makes of it, read by a lookup.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>

const volatile __u8 weights[16] = { 1, 2, 3, 4, 5, 6, 7, 8 };

SEC("xdp")
int rodata_idx(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	__u8 *p = (void *)(long)ctx->data;

	if ((void *)(p + ETH_HLEN) > data_end)
		return XDP_PASS;
	return weights[p[0] & 15] > 4 ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
