// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause
/*
 * ar_dedup - an incoming kernel for AllReduce workers: each result window
 * reaches the application once. A worker whose window was resent may get
 * its result twice (the broadcast, then the switch's answer to the resend);
 * this kernel, on the worker's NIC or its CPU, passes the first copy of
 * each window to the host and drops the others (NCL_ST_DUP).
 *
 * ar_seen is a bitmap of the windows seen, in the worker's NIC memory (or
 * its host's), cleared by a new deployment.
 */
#include "../ncl.h"
#include "allreduce.h"

#define AR_SEEN_WORDS	1024	/* 32768 windows: 32 MiB of int32 */

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, AR_SEEN_WORDS);
	NCL_SHARED;
} ar_seen SEC(".maps");

static int ncl_kernel(struct ncl_ctx *c)
{
	__u32 word = c->seq / 32, bit = 1U << (c->seq % 32), *w;

	if (c->kernel != NCL_AR_KERNEL)
		return NCL_NOT_MINE;
	if (!(c->ncp->flags & NCP_F_RESULT))
		return ncl_deliver(c);
	w = bpf_map_lookup_elem(&ar_seen, &word);
	if (!w)
		return ncl_deliver(c);
	if (__sync_fetch_and_or(w, bit) & bit)
		return ncl_refuse(NCL_ST_DUP);
	return ncl_deliver(c);
}

NCL_IN(ncl_ar_dedup)
NCL_PLACE("hosts", "1");

char _license[] SEC("license") = "GPL";
