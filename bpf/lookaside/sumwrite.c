// SPDX-License-Identifier: GPL-2.0
/*
 * sumwrite - a lookaside kernel that posts RDMA work
 * (Documentation/nicprog/rdma.rst): the sum (u64) of window 0's u32 words
 * goes into window 1 (written, 8 bytes), and window 2
 * (NICPROG_JOB_BUF_POST, one WR) gets a WRITE_IMM of it to the peer, the
 * number of words its immediate: the NIC sends the result on; the host
 * hears of it by the WR's completion.
 *
 * args: 0 the QP, 1 the local region's lkey, 2 window 1's iova in that
 * region, 3 the peer's iova, 4 its rkey, 5 the WR's wr_id, 6 more WR
 * flags (beside NICPROG_WR_SIGNALED), 7 non-zero: post nothing.
 * Window 0: SW_CHUNK-byte chunks, at most SW_CHUNKS of them.
 *
 * Returns the number of words, or 0x7fffffff when the windows have the
 * wrong shapes.
 */
#include <linux/bpf.h>
#include <linux/nicprog.h>
#include <bpf/bpf_helpers.h>

#define SW_CHUNK	256
#define SW_CHUNKS	16

SEC("xdp")
int sumwrite(struct xdp_md *ctx)
{
	struct nicprog_rdma_wr wr = {};
	struct nicprog_job_frame h;
	__u32 w[SW_CHUNK / 4];
	__u32 c, i, n;
	__u64 sum = 0;

	if (bpf_xdp_load_bytes(ctx, 0, &h, sizeof(h)))
		return 0x7fffffff;
	if (h.n_bufs != 3 || h.bufs[0].len % SW_CHUNK ||
	    h.bufs[0].len > SW_CHUNK * SW_CHUNKS || h.bufs[1].len != 8 ||
	    h.bufs[2].len != sizeof(wr))
		return 0x7fffffff;
	n = h.bufs[0].len / SW_CHUNK;
	for (c = 0; c < SW_CHUNKS && c < n; c++) {
		if (bpf_xdp_load_bytes(ctx, h.bufs[0].off + c * SW_CHUNK, w,
				       sizeof(w)))
			return 0x7fffffff;
		for (i = 0; i < SW_CHUNK / 4; i++)
			sum += w[i];
	}
	if (bpf_xdp_store_bytes(ctx, h.bufs[1].off, &sum, sizeof(sum)))
		return 0x7fffffff;
	if (h.args[7])
		return n * (SW_CHUNK / 4);
	wr.wr_id = h.args[5];
	wr.qpn = (__u32)h.args[0];
	wr.opcode = NICPROG_WR_WRITE_IMM;
	wr.flags = NICPROG_WR_SIGNALED | (__u8)h.args[6];
	wr.lkey = (__u32)h.args[1];
	wr.len = sizeof(sum);
	wr.addr = h.args[2];
	wr.raddr = h.args[3];
	wr.rkey = (__u32)h.args[4];
	wr.imm = n * (SW_CHUNK / 4);
	if (bpf_xdp_store_bytes(ctx, h.bufs[2].off, &wr, sizeof(wr)))
		return 0x7fffffff;
	return n * (SW_CHUNK / 4);
}

char _license[] SEC("license") = "GPL";
