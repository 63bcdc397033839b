// SPDX-License-Identifier: GPL-2.0
/*
 * XDP metadata for tc, as samples/bpf/xdp2skb_meta_kern.c passes it: the
 * XDP program (SEC("xdp_mark")) reserves 4 bytes before the frame with
 * bpf_xdp_adjust_meta() and stores a mark there; the tc program of the
 * same object (SEC("tc_mark")) copies it to skb->mark. Frames whose first
 * byte is odd get no metadata.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

struct meta_info {
	__u32 mark;
} __attribute__((aligned(4)));

SEC("xdp_mark")
int _xdp_mark(struct xdp_md *ctx)
{
	struct meta_info *meta;
	void *data, *data_end;
	__u8 first;
	int ret;

	data = (void *)(unsigned long)ctx->data;
	data_end = (void *)(unsigned long)ctx->data_end;
	if (data + 1 > data_end)
		return XDP_PASS;
	first = *(__u8 *)data;
	if (first & 1)
		return XDP_PASS;

	/* Reserve space in-front of data pointer for our meta info. */
	ret = bpf_xdp_adjust_meta(ctx, -(int)sizeof(*meta));
	if (ret < 0)
		return XDP_ABORTED;

	/* The verifier wants the pointers reloaded after the adjustment. */
	data = (void *)(unsigned long)ctx->data;
	meta = (void *)(unsigned long)ctx->data_meta;
	if ((void *)(meta + 1) > data)
		return XDP_ABORTED;

	meta->mark = 42 + first;
	return XDP_PASS;
}

SEC("tc_mark")
int _tc_mark(struct __sk_buff *ctx)
{
	void *data = (void *)(unsigned long)ctx->data;
	void *data_meta = (void *)(unsigned long)ctx->data_meta;
	struct meta_info *meta = data_meta;

	/* Check XDP gave us some data_meta */
	if ((void *)(meta + 1) > data) {
		ctx->mark = 41;
		return TC_ACT_OK;
	}
	ctx->mark = meta->mark;
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
