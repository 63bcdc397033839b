// SPDX-License-Identifier: GPL-2.0
/*
 * Lookups in an XSKMAP that look like the gate before a redirect (see
 * tools/lib/nicprog/xskgate.c) but are not: each would tell the host's
 * sockets apart on the NIC, so each is refused. The socket's queue read
 * through the lookup's result; a miss counted; a redirect to another
 * key than the one looked up; a redirect whose own action on a miss
 * (XDP_DROP) is not the program's; the gate in a subprogram whose
 * caller counts what it returned.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* as libbpf's own XDP program for AF_XDP declared it */
struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__uint(key_size, sizeof(int));
	__uint(value_size, sizeof(int));
	__uint(max_entries, 64);
} xsks_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);
} misses SEC(".maps");

SEC("xdp")
int xsk_queue(struct xdp_md *ctx)
{
	__u32 index = ctx->rx_queue_index;
	struct bpf_xdp_sock *xs = bpf_map_lookup_elem(&xsks_map, &index);

	if (xs && xs->queue_id == index)
		return bpf_redirect_map(&xsks_map, index, 0);
	return XDP_PASS;
}

SEC("xdp")
int xsk_count_miss(struct xdp_md *ctx)
{
	__u32 index = ctx->rx_queue_index, zero = 0;
	__u64 *n;

	if (bpf_map_lookup_elem(&xsks_map, &index))
		return bpf_redirect_map(&xsks_map, index, 0);
	n = bpf_map_lookup_elem(&misses, &zero);
	if (n)
		__sync_fetch_and_add(n, 1);
	return XDP_PASS;
}

SEC("xdp")
int xsk_other_key(struct xdp_md *ctx)
{
	__u32 index = ctx->rx_queue_index;

	if (bpf_map_lookup_elem(&xsks_map, &index))
		return bpf_redirect_map(&xsks_map, index ^ 1, 0);
	return XDP_PASS;
}

SEC("xdp")
int xsk_drop_flags(struct xdp_md *ctx)
{
	__u32 index = ctx->rx_queue_index;

	if (bpf_map_lookup_elem(&xsks_map, &index))
		return bpf_redirect_map(&xsks_map, index, XDP_DROP);
	return XDP_PASS;
}

static __attribute__((noinline)) int gate(__u32 index)
{
	if (bpf_map_lookup_elem(&xsks_map, &index))
		return bpf_redirect_map(&xsks_map, index, 0);
	return XDP_PASS;
}

SEC("xdp")
int xsk_in_sub(struct xdp_md *ctx)
{
	__u32 zero = 0;
	__u64 *n;
	int ret = gate(ctx->rx_queue_index);

	if (ret == XDP_PASS) {
		n = bpf_map_lookup_elem(&misses, &zero);
		if (n)
			__sync_fetch_and_add(n, 1);
	}
	return ret;
}

char _license[] SEC("license") = "GPL";
