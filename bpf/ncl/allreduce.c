// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause
/*
 * allreduce - synchronous in-network AllReduce of int32 arrays (sum), an
 * outgoing network kernel for the switch (bpf/ncl/allreduce.h has the
 * contract with the hosts).
 *
 * A window's sender claims its bit in the slot first, so that a resent
 * copy, even one a second core runs at the same moment, is never added
 * twice; then it adds its elements and counts itself in @added. The
 * window that brings @added to the number of workers finishes the slot:
 * it carries the sum to every worker, itself included (ncl_bcast_all()),
 * marks the slot done and makes the slot's other version ready for the
 * window NCL_AR_SLOTS later. A window resent after that (its result was
 * lost) gets the sum back alone (ncl_reflect()).
 */
#include "../ncl.h"
#include "allreduce.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct ncl_ar_slot);
	__uint(max_entries, 2 * NCL_AR_SLOTS);
	NCL_SHARED;
} ar_slots SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, NCL_AR_CTRL_MAX);
	NCL_CTRL;
} ar_ctrl SEC(".maps");

static __always_inline __u32 ar_ctrl_get(__u32 k)
{
	__u32 *v = bpf_map_lookup_elem(&ar_ctrl, &k);

	return v ? *v : 0;
}

/*
 * Windows carry NCL_AR_ELEMS elements each, zeros past @len (which
 * allreduce.h asks of the hosts): the loops run a constant count with one
 * bounds check before them, which the verifier follows in one pass.
 */
static __always_inline void ar_result(__s32 *v, struct ncl_ar_slot *e)
{
	__u32 i;

	for (i = 0; i < NCL_AR_ELEMS; i++)
		v[i] = e->acc[i];
}

static __always_inline int allreduce(struct ncl_ctx *c)
{
	__u32 members, bit, key, other, i;
	struct ncl_ar_slot *e, *next;
	__s32 *v = c->data;
	int r;

	r = ncl_args(c, 1, sizeof(__s32));
	if (r)
		return ncl_refuse(-r);
	if (c->len > NCL_AR_ELEMS)
		return ncl_refuse(NCL_ST_MALFORMED);
	if ((void *)(v + NCL_AR_ELEMS) > c->end)
		return ncl_refuse(NCL_ST_TRUNCATED);
	members = ar_ctrl_get(NCL_AR_CTRL_MEMBERS);
	if (!c->sender || c->sender > NCL_AR_WORKERS ||
	    !(members & (1U << c->sender)))
		return ncl_refuse(NCL_ST_MALFORMED);
	bit = 1U << c->sender;
	key = (c->seq % NCL_AR_SLOTS) * 2 + (c->seq / NCL_AR_SLOTS) % 2;
	e = bpf_map_lookup_elem(&ar_slots, &key);
	if (!e || e->seq != c->seq)
		return ncl_refuse(NCL_ST_STALE);
	if (e->done) {
		ar_result(v, e);
		return ncl_reflect(c);
	}
	if (__sync_fetch_and_or(&e->arrived, bit) & bit)
		return ncl_refuse(NCL_ST_DUP);
	for (i = 0; i < NCL_AR_ELEMS; i++)
		__sync_fetch_and_add(&e->acc[i], v[i]);
	if (__sync_add_and_fetch(&e->added, 1) !=
	    ar_ctrl_get(NCL_AR_CTRL_N))
		return ncl_drop(c);

	/* the last worker's window: the sum is whole */
	ar_result(v, e);
	other = key ^ 1;
	next = bpf_map_lookup_elem(&ar_slots, &other);
	if (next) {
		next->arrived = 0;
		next->added = 0;
		next->done = 0;
		/* (a loop clang would make a memset(), which BPF lacks) */
		for (i = 0; i < NCL_AR_ELEMS; i++) {
			asm volatile("" : "+r"(i));
			next->acc[i] = 0;
		}
		next->seq = c->seq + NCL_AR_SLOTS;
	}
	__sync_fetch_and_or(&e->done, 1);
	return ncl_bcast_all(c);
}

static int ncl_kernel(struct ncl_ctx *c)
{
	if (c->kernel == NCL_AR_KERNEL)
		return allreduce(c);
	return NCL_NOT_MINE;
}

NCL_OUT(ncl_allreduce)
NCL_PLACE("s1", "1");

char _license[] SEC("license") = "GPL";
