// SPDX-License-Identifier: GPL-2.0
/*
 * matmul - a lookaside kernel (Documentation/nicprog/rdma.rst): one tile
 * of a blocked int32 matrix product, C = A x B (args[0] == 0) or
 * C += A x B (args[0] == 1), each tile MM_T x MM_T row-major.
 *
 * Windows: 0 the tile of A, 1 the tile of B, 2 the tile of C (written).
 * A product of matrices MM_T wide or wider is a job per tile of C and
 * step of the inner dimension, the matrices stored tile by tile, as the
 * host application (tools/apps/matmul) lays them out.
 *
 * Returns 0, or 1 when the windows are not three tiles.
 */
#include <linux/bpf.h>
#include <linux/nicprog.h>
#include <bpf/bpf_helpers.h>

#define MM_T		16
#define MM_ROW		(MM_T * 4)
#define MM_TILE		(MM_T * MM_ROW)

SEC("xdp")
int matmul(struct xdp_md *ctx)
{
	struct nicprog_job_frame h;
	__s32 a[MM_T], b[MM_T], c[MM_T];
	__u32 i, k, j;

	if (bpf_xdp_load_bytes(ctx, 0, &h, sizeof(h)))
		return 1;
	if (h.n_bufs != 3 || h.bufs[0].len != MM_TILE ||
	    h.bufs[1].len != MM_TILE || h.bufs[2].len != MM_TILE)
		return 1;
	for (i = 0; i < MM_T; i++) {
		if (h.args[0]) {
			if (bpf_xdp_load_bytes(ctx, h.bufs[2].off + i * MM_ROW,
					       c, sizeof(c)))
				return 1;
		} else {
			__builtin_memset(c, 0, sizeof(c));
		}
		if (bpf_xdp_load_bytes(ctx, h.bufs[0].off + i * MM_ROW, a,
				       sizeof(a)))
			return 1;
		for (k = 0; k < MM_T; k++) {
			if (bpf_xdp_load_bytes(ctx, h.bufs[1].off + k * MM_ROW,
					       b, sizeof(b)))
				return 1;
			for (j = 0; j < MM_T; j++)
				c[j] += a[k] * b[j];
		}
		if (bpf_xdp_store_bytes(ctx, h.bufs[2].off + i * MM_ROW, c,
					sizeof(c)))
			return 1;
	}
	return 0;
}

char _license[] SEC("license") = "GPL";
