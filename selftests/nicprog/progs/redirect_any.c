// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_redirect() to an ifindex taken from the frame or from configuration:
 * the configured egress port (out_cfg[0]) for frames whose destination MAC
 * ends in an odd byte, an ifindex no device has (4242) for the others -- a
 * redirect the host's program also returns XDP_REDIRECT for, which then
 * fails in xdp_do_redirect().
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 1);
} out_cfg SEC(".maps");

SEC("xdp")
int redirect_any(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	__u32 key = 0, *out;

	if ((void *)(eth + 1) > data_end)
		return XDP_PASS;
	out = bpf_map_lookup_elem(&out_cfg, &key);
	if (!out)
		return XDP_ABORTED;
	if (eth->h_dest[5] & 1)
		return bpf_redirect(*out, 0);
	return bpf_redirect(4242, 0);
}

char _license[] SEC("license") = "GPL";
