// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_loop() with flags read from the frame: whether the host's verifier
 * inlines the call, and so what it returns at its edges, depends on what
 * the verifier knows of them. Refused, naming the flags.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static long nop(__u32 i, void *ctx)
{
	return 0;
}

SEC("xdp")
int loop_flags(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	__u8 *b = data;
	long r;

	if (data + 1 > (void *)(long)ctx->data_end)
		return XDP_PASS;
	r = bpf_loop(4, nop, NULL, b[0] & 1);
	return r == 4 ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
