/* SPDX-License-Identifier: GPL-2.0 */
/* Streaming rings (Enso pipes): private definitions of kernel/ring/. */
#ifndef _NICPROG_RING_H
#define _NICPROG_RING_H

#include <linux/gfp.h>
#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/xarray.h>
#include <uapi/linux/nicprog.h>

struct io_uring_cmd;
struct nicprog_dev;
struct page;
struct vm_area_struct;

#define NICPROG_RING_FILE_PIPES	64		/* pipes per open file */
#define NICPROG_RING_FILE_BYTES	(256ULL << 20)	/* their data, at most */
/*
 * What an opener's command allocates is charged to its memory cgroup; at
 * the cgroup's limit the command fails with ENOMEM. Without
 * __GFP_RETRY_MAYFAIL the charge would wake the cgroup's OOM killer, which
 * kills the opener (or a bystander in its cgroup) for asking.
 */
#define NICPROG_RING_GFP	(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | \
				 __GFP_NOWARN)

/**
 * struct nicprog_pipe - one pipe of an open file
 * @id: its id within the file, from 1
 * @size: data bytes, a power of two
 * @dir: enum nicprog_pipe_dir
 * @framing: enum nicprog_pipe_framing
 * @n_pages: data pages
 * @ctrl_page: the control page (struct nicprog_pipe_ctrl)
 * @pages: the data pages
 * @ctrl: @ctrl_page's kernel address
 * @data: the data pages mapped twice in the kernel, as in userspace
 * @output: the NF output it is bound to plus one, 0 if none; under the
 *	port's ring_lock
 * @lock: serializes producers (the NIC's cores append concurrently)
 * @tail: bytes appended, the kernel's copy; under @lock
 * @head: bytes the consumer released, the kernel's copy; under @lock
 * @drops: records dropped for want of room; under @lock
 * @drop_bytes: their bytes; under @lock
 * @rf: the file that owns it
 * @notified: the tail its last notification announced; under @lock
 * @due: an append deferred its notification (nicprog_pipe_notify());
 *	under @lock
 * @backpressure: bound with NICPROG_BIND_BACKPRESSURE: an append that does
 *	not fit is refused, not dropped; written under the port's ring_lock
 *	before the pipe is published to the datapath
 * @prefetch: bound with NICPROG_BIND_PREFETCH: appends never defer their
 *	notification; written as @backpressure is
 * @coalesce_usecs: notification moderation's time bound, 0 for none;
 *	under @lock
 * @coalesce_bytes: and its byte threshold; under @lock
 * @held: a notification fell due and waits for moderation; under @lock
 * @coalesce: posts it when the time bound passes (softirq); cancelled
 *	before the pipe is freed, which no append reaches then
 */
struct nicprog_pipe {
	u32 id;
	u32 size;
	u32 dir;
	u32 framing;
	u32 n_pages;
	struct page *ctrl_page;
	struct page **pages;
	struct nicprog_pipe_ctrl *ctrl;
	u8 *data;
	u32 output;
	spinlock_t lock;		/* producers; see above */
	u64 tail;
	u64 head;
	u64 drops;
	u64 drop_bytes;
	struct nicprog_ring_file *rf;
	u64 notified;
	bool due;
	bool backpressure;
	bool prefetch;
	u32 coalesce_usecs;
	u32 coalesce_bytes;
	bool held;
	struct hrtimer coalesce;
};

/**
 * struct nicprog_ring_file - an open file of /dev/nicprog/port<N>
 * @nd: the port, one device reference held
 * @node: in the port's ring_files, under its ring_lock
 * @lock: serializes changes to @pipes and the byte count, and mmap
 * @pipes: the file's pipes by id
 * @bytes: their data bytes
 * @notif_pages: the notification ring's control page and entries
 * @nctrl: the control page
 * @notifs: the entries
 * @notif_lock: serializes posting (taken inside a pipe's lock), @waiters
 * @ntail: entries posted, the kernel's copy; under @notif_lock
 * @nhead: entries the application read, the kernel's copy; likewise
 * @nfull: notifications a full ring refused; likewise
 * @waiters: parked NICPROG_OP_WAIT commands; under @notif_lock
 * @pollq: poll()ers and io_uring poll requests; woken under @notif_lock
 * @send_lens: NICPROG_OP_PIPE_SEND's record lengths; under @lock
 * @bufs: its buffers in NIC memory (mem.c) by id; changed under the
 *	port's ring_lock and RTNL
 * @n_bufs: entries in @bufs; likewise
 * @qps: its QPs (rdma.c) by number, under the port's ring_lock
 * @mrs: its memory regions by local key, likewise
 * @cq: the completion queue of its QPs, made with the first QP
 * @kernels: its lookaside kernels (job.c) by id, under the port's
 *	ring_lock
 * @n_kernels: entries in @kernels; likewise
 * @allow: the NICPROG_ALLOW_* classes of commands the file may issue;
 *	only ever narrowed (NICPROG_OP_RESTRICT, under @lock), read without
 */
struct nicprog_ring_file {
	struct nicprog_dev *nd;
	struct list_head node;
	struct mutex lock;		/* @pipes, @bytes, mmap */
	struct xarray pipes;
	u64 bytes;
	struct page *notif_pages[2];
	struct nicprog_notif_ctrl *nctrl;
	struct nicprog_notif *notifs;
	spinlock_t notif_lock;		/* posting, @waiters */
	u64 ntail;
	u64 nhead;
	u64 nfull;
	struct list_head waiters;
	wait_queue_head_t pollq;
	u32 *send_lens;
	struct xarray bufs;
	u32 n_bufs;
	struct xarray qps;
	struct xarray mrs;
	struct nicprog_cq *cq;
	struct xarray kernels;
	u32 n_kernels;
	u32 allow;
};

/**
 * struct nicprog_buf - a buffer in NIC memory, of one open file (mem.c)
 * @id: its id in the file's bufs
 * @region: its LNIC region
 * @size: its bytes
 * @drv: the driver's handle (&nicprog_mem_ops.alloc)
 * @mrs: memory regions registered over it (rdma.c), under ring_lock
 * @had_mrs: one was: the engine may read it under RCU until a grace
 *	period passes after the region went
 */
struct nicprog_buf {
	u32 id;
	u32 region;
	u64 size;
	void *drv;
	u32 mrs;
	bool had_mrs;
};

/* a user's refused argument: for the tracepoint, not the log (trace.h) */
#define ring_err(rf, fmt, ...) \
	nicprog_bad_arg(dev_name(&(rf)->nd->dev), "ring: " fmt, ##__VA_ARGS__)

struct nicprog_uring_cmd;

/* cmd.c: around every command; the rings and the engine build on it */
int nicprog_ring_enter(struct nicprog_dev *nd, bool nonblock);
void nicprog_ring_leave(struct nicprog_dev *nd);
int nicprog_ring_may_act(struct nicprog_ring_file *rf, struct file *file,
			 const char *cmd);
int nicprog_ring_args(const struct nicprog_uring_cmd *c, void *args,
		      size_t size);
int nicprog_ring_out(const struct nicprog_uring_cmd *c, const void *args,
		     size_t size);

/* mem.c */
int nicprog_mem_alloc_cmd(struct nicprog_ring_file *rf, struct file *file,
			  const struct nicprog_uring_cmd *c);
int nicprog_mem_free_cmd(struct nicprog_ring_file *rf,
			 const struct nicprog_uring_cmd *c);
int nicprog_mem_copy_cmd(struct nicprog_ring_file *rf,
			 const struct nicprog_uring_cmd *c,
			 struct io_uring_cmd *ioucmd);
void nicprog_mem_release(struct nicprog_ring_file *rf);

/* rdma.c */
struct nicprog_cq;
int nicprog_rdma_cmd(struct nicprog_ring_file *rf, struct file *file,
		     unsigned int op, const struct nicprog_uring_cmd *c,
		     struct io_uring_cmd *ioucmd, bool nonblock);
void nicprog_rdma_release(struct nicprog_ring_file *rf);
void nicprog_rdma_free(struct nicprog_ring_file *rf);

/* job.c */
int nicprog_kernel_load_cmd(struct nicprog_ring_file *rf, struct file *file,
			    const struct nicprog_uring_cmd *c);
int nicprog_kernel_unload_cmd(struct nicprog_ring_file *rf,
			      const struct nicprog_uring_cmd *c);
void nicprog_kernel_release(struct nicprog_ring_file *rf);
int nicprog_wrs_check(struct nicprog_ring_file *rf, const char *what,
		      const struct nicprog_rdma_wr *wrs, u32 n);
int nicprog_wrs_post(struct nicprog_ring_file *rf, const char *what,
		     const struct nicprog_rdma_wr *wrs, u32 n);
int nicprog_job_cmd(struct nicprog_ring_file *rf, struct file *file,
		    const struct nicprog_uring_cmd *c,
		    struct io_uring_cmd *ioucmd);

/* pipe.c */
/**
 * struct nicprog_pipe_stats - an RX pipe bound to an NF output
 * @size: its data bytes
 * @bytes: bytes appended, record headers and padding included
 * @consumed: of them, bytes the application released
 * @drops: records dropped for want of room
 * @drop_bytes: their bytes
 * @backpressure: a full pipe holds the NIC back instead
 * @coalesce_usecs: notification moderation's time bound, 0 for none
 * @coalesce_bytes: its byte threshold
 */
struct nicprog_pipe_stats {
	u32 size;
	u64 bytes;
	u64 consumed;
	u64 drops;
	u64 drop_bytes;
	bool backpressure;
	u32 coalesce_usecs;
	u32 coalesce_bytes;
};

void nicprog_pipe_stats(struct nicprog_pipe *pipe,
			struct nicprog_pipe_stats *st);
struct nicprog_pipe *nicprog_pipe_alloc(u32 size, u32 dir, u32 framing,
					const struct nicprog_pipe *share);
void nicprog_pipe_free(struct nicprog_pipe *pipe);
int nicprog_pipe_mmap(struct nicprog_pipe *pipe, struct vm_area_struct *vma);
int nicprog_pipe_append(struct nicprog_pipe *pipe, const void *buf, u32 len,
			bool defer);
void nicprog_pipe_notify(struct nicprog_pipe *pipe);
void nicprog_pipe_coalesce(struct nicprog_pipe *pipe, u32 usecs, u32 bytes);
void nicprog_pipe_drop(struct nicprog_pipe *pipe, u32 len);

/* notify.c */
int nicprog_notif_init(struct nicprog_ring_file *rf);
void nicprog_notif_free(struct nicprog_ring_file *rf);
int nicprog_notif_mmap(struct nicprog_ring_file *rf,
		       struct vm_area_struct *vma);
void nicprog_notif_post(struct nicprog_pipe *pipe, u64 head, u64 tail);
void nicprog_notif_cancel(struct nicprog_ring_file *rf, int err);
int nicprog_notif_wait(struct nicprog_ring_file *rf,
		       struct io_uring_cmd *ioucmd, u32 timeout_ms,
		       bool nonblock);
__poll_t nicprog_notif_poll(struct nicprog_ring_file *rf, struct file *file,
			    poll_table *pt);

#endif /* _NICPROG_RING_H */
