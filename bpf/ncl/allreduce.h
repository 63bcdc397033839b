/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * allreduce.h - the in-network AllReduce kernel's contract with its hosts
 * (bpf/ncl/allreduce.c, tools/apps/allreduce.c): types only.
 *
 * Each worker sends its int32 array in windows of NCL_AR_ELEMS elements,
 * window w covering elements [w * NCL_AR_ELEMS, ...), w its seq; the last
 * window's len may be less, its elements past len zero (every window has
 * the same size, so the kernel's loops have a constant count).
 * Window w accumulates in slot w % NCL_AR_SLOTS, version
 * (w / NCL_AR_SLOTS) % 2, of the switch's table ar_slots. A worker sends
 * window w only once it holds the result of window w - NCL_AR_SLOTS, so
 * that when every worker has sent w, every worker holds the result of
 * w - NCL_AR_SLOTS, and the slot's other version can be made ready for
 * w + NCL_AR_SLOTS by the window that finishes w (SwitchML's shadow
 * copies).
 */
#ifndef __NCL_ALLREDUCE_H
#define __NCL_ALLREDUCE_H

#include <linux/types.h>

#define NCL_AR_KERNEL	1	/* kernel id */
#define NCL_AR_ELEMS	256	/* int32 elements a window carries at most */
#define NCL_AR_SLOTS	32	/* windows in flight per worker */
#define NCL_AR_WORKERS	31	/* senders 1 .. 31: a bit each in a __u32 */

/**
 * struct ncl_ar_slot - one version of a slot of the switch's memory
 * @seq: the window it accumulates; a window for another is stale
 * @arrived: bit S set once sender S's window has been taken
 * @added: workers whose elements are in @acc
 * @done: @acc is the sum of every worker's window
 * @acc: the running sum, element by element (two's complement, wrapping)
 */
struct ncl_ar_slot {
	__u32 seq;
	__u32 arrived;
	__u32 added;
	__u32 done;
	__s32 acc[NCL_AR_ELEMS];
};

/* ar_ctrl's entries, written by the host runtime only */
enum {
	NCL_AR_CTRL_MEMBERS,	/* bit S for each worker S of the job */
	NCL_AR_CTRL_N,		/* how many workers: the bits set above */
	NCL_AR_CTRL_MAX,
};

#endif /* __NCL_ALLREDUCE_H */
