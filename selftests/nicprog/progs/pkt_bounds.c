// SPDX-License-Identifier: GPL-2.0
/*
 * Packet bounds at the edge, as the verifier proves them from comparisons
 * with data_end: reads up to the last byte a check proved load; one byte
 * further, or a pointer moved by a variable and not checked again, the
 * verifier refuses -- and so must the offline planner.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_helpers.h>

/* the last byte proved: byte 33 of a check of 34 */
SEC("xdp")
int bounds_exact(struct xdp_md *ctx)
{
	__u8 *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;

	if ((void *)(data + 34) > data_end)
		return XDP_PASS;
	return data[33] == 6 ? XDP_DROP : XDP_PASS;
}

/* one byte past what the check proved */
SEC("xdp")
int bounds_past(struct xdp_md *ctx)
{
	__u8 *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;

	if ((void *)(data + 34) > data_end)
		return XDP_PASS;
	return data[34] == 6 ? XDP_DROP : XDP_PASS;
}

/* data_end on the left, the comparison strict: one byte more is proved */
SEC("xdp")
int bounds_open(struct xdp_md *ctx)
{
	__u8 *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;

	if (data_end > (void *)(data + 34))
		return data[34] == 6 ? XDP_DROP : XDP_PASS;
	return XDP_PASS;
}

/* past an IPv4 header of its own length, read without a second check */
SEC("xdp")
int bounds_var(struct xdp_md *ctx)
{
	__u8 *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct iphdr *iph = (void *)(data + ETH_HLEN);
	__u8 *l4;

	if ((void *)(iph + 1) > data_end)
		return XDP_PASS;
	l4 = (__u8 *)iph + (iph->ihl & 15) * 4;
	return *l4 == 0x50 ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
