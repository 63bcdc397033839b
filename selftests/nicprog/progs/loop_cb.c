// SPDX-License-Identifier: GPL-2.0
/*
 * A header walk with bpf_loop(), as newer tutorials write bounded loops:
 * the callback's address goes to the helper.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct walk {
	void *data;
	void *data_end;
	__u32 zeros;
};

static long count_zero(__u32 i, void *ctx)
{
	struct walk *w = ctx;
	__u8 *p = w->data + i;

	if ((void *)(p + 1) > w->data_end)
		return 1;
	if (!*p)
		w->zeros++;
	return 0;
}

SEC("xdp")
int loop_cb(struct xdp_md *ctx)
{
	struct walk w = {
		.data = (void *)(long)ctx->data,
		.data_end = (void *)(long)ctx->data_end,
	};

	bpf_loop(14, count_zero, &w, 0);
	return w.zeros > 6 ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
