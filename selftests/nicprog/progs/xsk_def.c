// SPDX-License-Identifier: GPL-2.0
/*
 * The AF_XDP program libxdp loads for xsk_socket__create() when the
 * application brings none, and xdp-tutorial's AF_XDP lesson after it: every
 * frame to the socket of its receive queue, passed to the stack when that
 * queue has none (the XDP_PASS flag of bpf_redirect_map()); libxdp's run
 * configuration section beside it, as libxdp builds the program.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define XSK_MAX_QUEUES 64

struct {
	__uint(priority, 20);
	__uint(XDP_PASS, 1);
} _xsk_def_prog SEC(".xdp_run_config");

struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__uint(max_entries, XSK_MAX_QUEUES);
	__uint(key_size, sizeof(int));
	__uint(value_size, sizeof(int));
} xsks_map SEC(".maps");

SEC("xdp")
int xsk_def_prog(struct xdp_md *ctx)
{
	return bpf_redirect_map(&xsks_map, ctx->rx_queue_index, XDP_PASS);
}

char _license[] SEC("license") = "GPL";
