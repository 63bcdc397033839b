// SPDX-License-Identifier: GPL-2.0
/*
 * kern_wordstat - a lookaside kernel written the way XDP programs read
 * packets: direct access through ctx->data and ctx->data_end, bounds
 * checked at every step, rather than bpf_xdp_load_bytes(). Window 0: u32
 * words, scanned up to the first word w with (w & args[0]) == 0 (a
 * terminator: how far it runs depends on the data); window 1 (written,
 * 16 bytes): the words before it, their sum (u64) and their xor. Returns
 * that count.
 */
#include <linux/bpf.h>
#include <linux/nicprog.h>
#include <bpf/bpf_helpers.h>

#define WS_WORDS	1024

struct ws_out {
	__u32 count;
	__u32 xor;
	__u64 sum;
};

SEC("xdp")
int wordstat(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct nicprog_job_frame *h = data;
	__u32 i, n, off, mask, x = 0;
	struct ws_out *out;
	__u64 sum = 0;
	__u32 *w;

	if ((void *)(h + 1) > end || h->n_bufs != 2 ||
	    h->bufs[1].len != sizeof(*out))
		return 0xffff;
	off = h->bufs[0].off;
	n = h->bufs[0].len / 4;
	mask = (__u32)h->args[0];
	if (off > 4096)
		return 0xffff;
	w = data + off;
	for (i = 0; i < WS_WORDS && i < n; i++, w++) {
		/*
		 * else clang counts the trips from end - w: arithmetic on
		 * pkt_end, which the verifier refuses
		 */
		barrier_var(w);
		if ((void *)(w + 1) > end)
			return 0xffff;
		if (!(*w & mask))
			break;
		sum += *w;
		x ^= *w;
	}
	off = h->bufs[1].off;
	if (off > 8192)
		return 0xffff;
	out = data + off;
	if ((void *)(out + 1) > end)
		return 0xffff;
	out->count = i;
	out->xor = x;
	out->sum = sum;
	return i;
}

char _license[] SEC("license") = "GPL";
