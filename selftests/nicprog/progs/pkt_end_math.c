// SPDX-License-Identifier: GPL-2.0
/*
 * Arithmetic on the packet's end, which the verifier refuses ("R2 pointer
 * arithmetic on pkt_end prohibited"): what clang emits when it folds a
 * loop's per-byte bounds check into a trip count on data_end + 1.
 * nicprog-plan must refuse it offline as the kernel does, naming the
 * instruction (tools/testing/unit/cli_offline_test.sh).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int pkt_end_math(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;

	asm volatile("%[end] += 1" : [end] "+r"(end));
	if (data + 2 > end)
		return XDP_DROP;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
