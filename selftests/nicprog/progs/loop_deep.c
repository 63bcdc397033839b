// SPDX-License-Identifier: GPL-2.0
/*
 * A bounded loop too long for the verifier: it walks each of its 300000
 * iterations (the counter decides the exit) and gives up after 1000000
 * instructions. The refusal must say so, not quote the walk's last line.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int loop_deep(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	__u8 *b = data;
	__u32 i, sum = 0;

	if (data + 1 > (void *)(long)ctx->data_end)
		return XDP_PASS;
#pragma clang loop unroll(disable)
	for (i = 0; i < 300000; i++)
		sum += b[0] ^ i;
	return sum & 1 ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
