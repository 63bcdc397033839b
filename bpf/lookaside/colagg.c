// SPDX-License-Identifier: GPL-2.0
/*
 * colagg - a lookaside kernel (Documentation/nicprog/rdma.rst): filter
 * and aggregate a column of records in NIC memory, so that the host gets
 * the result, not the records.
 *
 * Window 0: records of 16 bytes (key, value, ts, flags; at most
 * CA_JOB_RECS: a loop the verifier follows to its end, its jumps under
 * its limit of 8192 a path); window 1 (written): CA_GROUPS results of 16 bytes (sum
 * s64, count u32, max s32) for the groups key % CA_GROUPS, over the
 * records with value >= args[0] (s32) and (flags & args[1]) == args[1].
 * args[2] == 1 adds to the results window 1 holds (the jobs of one
 * column in turn); 0 starts afresh.
 *
 * Returns 0, or 1 when the windows have the wrong shapes.
 */
#include <linux/bpf.h>
#include <linux/nicprog.h>
#include <bpf/bpf_helpers.h>

#define CA_GROUPS	8
#define CA_JOB_RECS	1024

struct rec {
	__u32 key;
	__s32 value;
	__u32 ts;
	__u32 flags;
};

struct group {
	__s64 sum;
	__u32 count;
	__s32 max;
};

SEC("xdp")
int colagg(struct xdp_md *ctx)
{
	struct group g[CA_GROUPS], gr;
	struct nicprog_job_frame h;
	__u32 i, n, k, mask, off;
	struct rec r;
	__s32 min;

	if (bpf_xdp_load_bytes(ctx, 0, &h, sizeof(h)))
		return 1;
	if (h.n_bufs != 2 || h.bufs[0].len % sizeof(r) ||
	    h.bufs[0].len > CA_JOB_RECS * sizeof(r) ||
	    h.bufs[1].len != sizeof(g))
		return 1;
	n = h.bufs[0].len / sizeof(r);
	min = (__s32)h.args[0];
	mask = (__u32)h.args[1];
	if (!h.args[2]) {
		for (k = 0; k < CA_GROUPS; k++) {
			g[k].sum = 0;
			g[k].count = 0;
			g[k].max = -2147483647 - 1;
		}
		if (bpf_xdp_store_bytes(ctx, h.bufs[1].off, g, sizeof(g)))
			return 1;
	}
	/*
	 * A group's accumulators live in the written window itself, reached
	 * through the helpers at a computed offset: the frame is bounds
	 * checked at run time, where a stack slot picked by a record's key
	 * would be a variable-offset stack access the verifier refuses
	 */
	for (i = 0; i < CA_JOB_RECS && i < n; i++) {
		if (bpf_xdp_load_bytes(ctx, h.bufs[0].off + i * sizeof(r), &r,
				       sizeof(r)))
			return 1;
		if (r.value < min || (r.flags & mask) != mask)
			continue;
		off = h.bufs[1].off + (r.key % CA_GROUPS) * sizeof(gr);
		if (bpf_xdp_load_bytes(ctx, off, &gr, sizeof(gr)))
			return 1;
		gr.sum += r.value;
		gr.count++;
		if (r.value > gr.max)
			gr.max = r.value;
		if (bpf_xdp_store_bytes(ctx, off, &gr, sizeof(gr)))
			return 1;
	}
	return 0;
}

char _license[] SEC("license") = "GPL";
