// SPDX-License-Identifier: GPL-2.0
/*
 * A tail call from a function the program calls, not from the program's
 * main function: the NIC cannot end the program there (the refusal names
 * the function and the way out).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 2);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} progs SEC(".maps");

static __attribute__((noinline)) int dispatch(struct xdp_md *ctx, __u32 slot)
{
	bpf_tail_call(ctx, &progs, slot);
	return XDP_PASS;
}

SEC("xdp")
int tail_sub(struct xdp_md *ctx)
{
	return dispatch(ctx, ctx->rx_queue_index & 1);
}

char _license[] SEC("license") = "GPL";
