// SPDX-License-Identifier: GPL-2.0
/*
 * Bounded loops written with bpf_loop(), as newer tutorials and
 * xdp_synproxy_kern.c's TCP option walk write them: a callback walks the
 * frame's bytes through a context on the caller's stack that holds packet
 * pointers, and stops early where the frame says. Every result goes into
 * the frame and a table, so that the oracle compares the call's edges as
 * the host runs it (its verifier inlines a call with flags 0): a count
 * the frame chooses (0 to 15), a count with upper 32 bits set and one
 * past BPF_MAX_LOOPS (-E2BIG, 32 bits of it).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 8);
} loop_stats SEC(".maps");

struct walk {
	__u8 *data;
	void *data_end;
	__u32 stop;
	__u32 zeros;
};

/* bpf_loop() as a program holding the count in a u64 would call it */
typedef long (*loop64_t)(__u64 nr, void *cb, void *ctx, __u64 flags);

static long count_zero(__u32 i, void *ctx)
{
	struct walk *w = ctx;
	__u8 *p;

	if (i == w->stop)
		return 1;
	p = w->data + (i & 63);	/* a bound the verifier sees */
	if ((void *)(p + 1) > w->data_end)
		return 1;
	if (!*p)
		w->zeros++;
	return 0;
}

static __always_inline void add(__u32 k, __u64 v)
{
	__u64 *c = bpf_map_lookup_elem(&loop_stats, &k);

	if (c)
		__sync_fetch_and_add(c, v);
}

/* the frame again: the host's verifier forgets its bounds across bpf_loop() */
static __always_inline __u8 *frame(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;

	if (data + ETH_HLEN + 8 > (void *)(long)ctx->data_end)
		return NULL;
	return data;
}

/* the walk's length and where it stops: the frame's choice */
SEC("xdp")
int loop_nr(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct walk w = { .data = data, .data_end = data_end };
	__u8 *b = data;
	long r;

	if (data + ETH_HLEN + 8 > data_end)
		return XDP_PASS;
	w.stop = b[11] & 31;
	r = bpf_loop(b[10] & 15, count_zero, &w, 0);
	b = frame(ctx);
	if (!b)
		return XDP_ABORTED;
	b[ETH_HLEN] = r;
	b[ETH_HLEN + 1] = w.zeros;
	add(6, r);
	add(7, w.zeros);
	return b[12] & 1 ? XDP_TX : XDP_PASS;
}

/* the helper's edges: a whole walk, the count's width, its limit */
SEC("xdp")
int loop_cb(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct walk w = { .data = data, .data_end = data_end, .stop = 99 };
	__u8 *b = data;
	long r[3];
	int k;

	if (data + ETH_HLEN + 8 > data_end)
		return XDP_PASS;
	r[0] = bpf_loop(14, count_zero, &w, 0);
	r[1] = ((loop64_t)(void *)bpf_loop)((1ULL << 32) | 3, count_zero,
					    &w, 0);
	r[2] = bpf_loop((1 << 23) + 1, count_zero, &w, 0);
	b = frame(ctx);
	if (!b)
		return XDP_ABORTED;
	for (k = 0; k < 3; k++) {
		b[ETH_HLEN + k] = r[k];
		add(k, r[k]);
	}
	b[ETH_HLEN + 3] = w.zeros;
	add(3, w.zeros);
	return b[12] & 1 ? XDP_TX : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
