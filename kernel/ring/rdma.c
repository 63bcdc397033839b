// SPDX-License-Identifier: GPL-2.0
/*
 * RDMA through a port's ring device (after RecoNIC): an open file's
 * queue pairs on the NIC's RoCEv2 engine, its memory regions over its NIC
 * buffers (mem.c), work requests posted a batch per doorbell, and the
 * file's completion queue (NICPROG_OP_QP_*, _MR_*, _POST, _POLL).
 *
 * The engine is the driver's (struct nicprog_rdma_ops): it speaks RoCEv2
 * on the wire and checks keys on every access. The core checks the
 * commands, keeps what the file made -- QPs by number, regions by local
 * key, both changed under the port's ring_lock, which also keeps the
 * driver -- and gives them back when the file closes or the port goes,
 * QPs first (no completion after qp_destroy()), then regions, then the
 * buffers under them.
 *
 * Completions: the engine posts work completions to the file's CQ from
 * any context (nicprog_rdma_complete()). A POLL takes what is there at
 * once, or parks until a completion comes or its timeout passes; it then
 * completes in the submitter's task (io_uring's task work), which copies
 * the WCs out. A poll always ends: its timeout is at most
 * NICPROG_WAIT_TIMEOUT_MAX, and the port's removal ends it too.
 */
#include <linux/etherdevice.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <linux/timer.h>
#include <linux/uaccess.h>
#include <net/nicprog_compat.h>

#include "../nicprog.h"
#include "ring.h"

#define NICPROG_CQ_ENTRIES	4096	/* a power of two */

/**
 * struct nicprog_cq - the completion queue of an open file's QPs
 * @lock: protects everything below; taken in any context
 * @wcs: the completions, NICPROG_CQ_ENTRIES
 * @head: completions taken
 * @tail: completions posted
 * @overflow: completions lost to a full queue
 * @polls: parked NICPROG_OP_POLLs
 * @dead: the port is gone: a poll finding nothing ends with ENODEV
 */
struct nicprog_cq {
	spinlock_t lock;	/* see above */
	struct nicprog_rdma_wc *wcs;
	u64 head;
	u64 tail;
	u64 overflow;
	struct list_head polls;
	bool dead;
};

/**
 * struct nicprog_poller - a parked NICPROG_OP_POLL
 * @node: in the CQ's polls, under its lock
 * @cq: the CQ
 * @ioucmd: the command; its pdu points here
 * @timer: its timeout
 * @done: set by whoever completes it first, under the CQ's lock
 * @wcs: where the WCs go
 * @max: how many may
 */
struct nicprog_poller {
	struct list_head node;
	struct nicprog_cq *cq;
	struct io_uring_cmd *ioucmd;
	struct timer_list timer;
	bool done;
	u64 wcs;
	u32 max;
};

/**
 * struct nicprog_mr - a memory region of an open file
 * @drv: the driver's handle
 * @buf: the buffer it is over
 */
struct nicprog_mr {
	void *drv;
	struct nicprog_buf *buf;
};

static struct nicprog_poller **poller_of(struct io_uring_cmd *ioucmd)
{
	BUILD_BUG_ON(sizeof(struct nicprog_poller *) > sizeof(ioucmd->pdu));
	return (struct nicprog_poller **)ioucmd->pdu;
}

/* Take up to @max WCs into @out. The CQ's lock held. */
static u32 nicprog_cq_take(struct nicprog_cq *cq, struct nicprog_rdma_wc *out,
			   u32 max)
{
	u32 n = 0;

	while (n < max && cq->head != cq->tail)
		out[n++] = cq->wcs[cq->head++ % NICPROG_CQ_ENTRIES];
	return n;
}

/* Take up to @max WCs and copy them to @uaddr: the count or -errno. */
static int nicprog_cq_reap(struct nicprog_cq *cq, u64 uaddr, u32 max)
{
	struct nicprog_rdma_wc *wcs;
	unsigned long flags;
	bool dead;
	u32 n;

	wcs = kmalloc_array(max, sizeof(*wcs), NICPROG_RING_GFP);
	if (!wcs)
		return -ENOMEM;
	spin_lock_irqsave(&cq->lock, flags);
	n = nicprog_cq_take(cq, wcs, max);
	dead = cq->dead;
	spin_unlock_irqrestore(&cq->lock, flags);
	/* a WC taken is the caller's even if it cannot be told: as ibverbs */
	if (n && copy_to_user(u64_to_user_ptr(uaddr), wcs, n * sizeof(*wcs)))
		n = -EFAULT;
	kfree(wcs);
	return !n && dead ? -ENODEV : n;
}

static void nicprog_poll_done(struct io_uring_cmd *ioucmd,
			      unsigned int issue_flags)
{
	struct nicprog_poller *p = *poller_of(ioucmd);
	int res;

	del_timer_sync(&p->timer);
	res = nicprog_cq_reap(p->cq, p->wcs, p->max);
	kfree(p);
	io_uring_cmd_done(ioucmd, res, 0, issue_flags);
}

/* Complete @p unless done. The CQ's lock held. */
static void nicprog_poll_wake(struct nicprog_poller *p)
{
	if (p->done)
		return;
	p->done = true;
	list_del_init(&p->node);
	io_uring_cmd_complete_in_task(p->ioucmd, nicprog_poll_done);
}

static void nicprog_poll_timeout(struct timer_list *t)
{
	struct nicprog_poller *p = from_timer(p, t, timer);
	unsigned long flags;

	spin_lock_irqsave(&p->cq->lock, flags);
	nicprog_poll_wake(p);
	spin_unlock_irqrestore(&p->cq->lock, flags);
}

/**
 * nicprog_rdma_complete() - the engine posts a work completion
 * @cq: what &nicprog_rdma_ops.qp_create was given for the WR's QP
 * @wc: the completion
 *
 * A full CQ loses it and counts it (an application that reaps too
 * slowly, as a real CQ overruns).
 *
 * Context: any; the QP not destroyed yet.
 */
void nicprog_rdma_complete(void *cq, const struct nicprog_rdma_wc *wc)
{
	struct nicprog_cq *q = cq;
	struct nicprog_poller *p;
	unsigned long flags;

	spin_lock_irqsave(&q->lock, flags);
	if (q->tail - q->head < NICPROG_CQ_ENTRIES)
		q->wcs[q->tail++ % NICPROG_CQ_ENTRIES] = *wc;
	else
		q->overflow++;
	p = list_first_entry_or_null(&q->polls, struct nicprog_poller, node);
	if (p)
		nicprog_poll_wake(p);
	spin_unlock_irqrestore(&q->lock, flags);
}
EXPORT_SYMBOL_GPL(nicprog_rdma_complete);

static int nicprog_poll_cmd(struct nicprog_ring_file *rf,
			    const struct nicprog_uring_cmd *c,
			    struct io_uring_cmd *ioucmd)
{
	struct nicprog_poller *p;
	struct nicprog_poll a;
	struct nicprog_cq *cq;
	int err;

	err = nicprog_ring_args(c, &a, sizeof(a));
	if (err)
		return err;
	if (!a.max || a.max > NICPROG_RDMA_POLL_MAX ||
	    a.timeout_ms > NICPROG_WAIT_TIMEOUT_MAX) {
		ring_err(rf, "poll: max 1..%u, timeout 0..%u ms",
			 NICPROG_RDMA_POLL_MAX, NICPROG_WAIT_TIMEOUT_MAX);
		return -EINVAL;
	}
	/* the CQ, once made, lives as long as the file; pairs with below */
	cq = smp_load_acquire(&rf->cq);
	if (!cq) {
		ring_err(rf, "poll: the file has no QP");
		return -ENOENT;
	}
	if (!a.timeout_ms)
		return nicprog_cq_reap(cq, a.wcs, a.max);
	p = kzalloc(sizeof(*p), NICPROG_RING_GFP);
	if (!p)
		return -ENOMEM;
	p->cq = cq;
	p->ioucmd = ioucmd;
	p->wcs = a.wcs;
	p->max = a.max;
	timer_setup(&p->timer, nicprog_poll_timeout, 0);
	spin_lock_irq(&cq->lock);
	if (cq->head != cq->tail || cq->dead) {
		spin_unlock_irq(&cq->lock);
		kfree(p);
		return nicprog_cq_reap(cq, a.wcs, a.max);
	}
	*poller_of(ioucmd) = p;
	list_add_tail(&p->node, &cq->polls);
	mod_timer(&p->timer, jiffies + msecs_to_jiffies(a.timeout_ms));
	spin_unlock_irq(&cq->lock);
	return -EIOCBQUEUED;
}

/* Entries of @xa (a file's few QPs or regions). */
static u32 nicprog_xa_count(struct xarray *xa)
{
	unsigned long id;
	void *e;
	u32 n = 0;

	xa_for_each(xa, id, e)
		n++;
	return n;
}

/* The IPv4 address of an IPv4-mapped GID, or false. */
static bool nicprog_gid_ipv4(const u8 *gid, __be32 *addr)
{
	static const u8 prefix[12] = { [10] = 0xff, [11] = 0xff };

	if (memcmp(gid, prefix, sizeof(prefix)))
		return false;
	memcpy(addr, gid + 12, 4);
	return true;
}

static int nicprog_qp_create_cmd(struct nicprog_ring_file *rf,
				 const struct nicprog_qp_create *a,
				 struct nicprog_qp_create *out)
{
	const struct nicprog_rdma_ops *ops = rf->nd->ops->rdma_ops;
	struct nicprog_rdma_qp_attr attr = {
		.sq_depth = a->sq_depth, .rq_depth = a->rq_depth,
	};
	struct nicprog_cq *cq = rf->cq;
	void *qp;
	int err;

	if (a->qpn || a->flags || a->__rsvd ||
	    !a->sq_depth || a->sq_depth > NICPROG_RDMA_QP_DEPTH ||
	    !a->rq_depth || a->rq_depth > NICPROG_RDMA_QP_DEPTH ||
	    !nicprog_gid_ipv4(a->gid, &attr.saddr)) {
		ring_err(rf, "qp create: depths 1..%u, an IPv4-mapped GID, the rest 0",
			 NICPROG_RDMA_QP_DEPTH);
		return -EINVAL;
	}
	if (nicprog_xa_count(&rf->qps) >= NICPROG_RDMA_FILE_QPS) {
		ring_err(rf, "qp create: the file holds %u QPs already",
			 NICPROG_RDMA_FILE_QPS);
		return -EMFILE;
	}
	if (!cq) {
		cq = kzalloc(sizeof(*cq), NICPROG_RING_GFP);
		if (!cq)
			return -ENOMEM;
		cq->wcs = kvcalloc(NICPROG_CQ_ENTRIES, sizeof(*cq->wcs),
				   NICPROG_RING_GFP);
		if (!cq->wcs) {
			kfree(cq);
			return -ENOMEM;
		}
		spin_lock_init(&cq->lock);
		INIT_LIST_HEAD(&cq->polls);
		/* a POLL finds it made: pairs with smp_load_acquire() */
		smp_store_release(&rf->cq, cq);
	}
	qp = ops->qp_create(rf->nd, rf, cq, &attr);
	if (IS_ERR(qp)) {
		ring_err(rf, "qp create: the engine refused: %ld", PTR_ERR(qp));
		return PTR_ERR(qp);
	}
	err = xa_insert(&rf->qps, attr.qpn, qp, NICPROG_RING_GFP);
	if (err) {
		ops->qp_destroy(qp);
		return err;
	}
	*out = *a;
	out->qpn = attr.qpn;
	return 0;
}

static int nicprog_qp_connect_cmd(struct nicprog_ring_file *rf,
				  const struct nicprog_qp_connect *a)
{
	struct nicprog_rdma_conn conn = {
		.dest_qpn = a->dest_qpn, .rq_psn = a->rq_psn,
		.sq_psn = a->sq_psn, .mtu = a->mtu,
		.timeout_ms = a->timeout_ms, .retry_cnt = a->retry_cnt,
		.max_rd_atomic = max_t(u8, a->max_rd_atomic, 1),
	};
	void *qp;

	if (a->flags || a->__pad ||
	    a->max_rd_atomic > NICPROG_RDMA_RD_ATOMIC_MAX ||
	    a->dest_qpn >> 24 || a->rq_psn >> 24 || a->sq_psn >> 24 ||
	    a->mtu < 256 || a->mtu > 4096 || !is_power_of_2(a->mtu) ||
	    !a->timeout_ms || a->timeout_ms > NICPROG_WAIT_TIMEOUT_MAX ||
	    a->retry_cnt > 7 || !nicprog_gid_ipv4(a->dgid, &conn.daddr) ||
	    !is_valid_ether_addr(a->dmac)) {
		ring_err(rf, "qp connect: a 24-bit QPN and PSNs, MTU 256..4096, timeout 1..%u ms, retries 0..7, READs outstanding 0..%u, an IPv4-mapped GID and a unicast MAC",
			 NICPROG_WAIT_TIMEOUT_MAX, NICPROG_RDMA_RD_ATOMIC_MAX);
		return -EINVAL;
	}
	memcpy(conn.dmac, a->dmac, ETH_ALEN);
	qp = xa_load(&rf->qps, a->qpn);
	if (!qp) {
		ring_err(rf, "qp connect: the file has no QP %u", a->qpn);
		return -ENOENT;
	}
	return rf->nd->ops->rdma_ops->qp_connect(qp, &conn);
}

static int nicprog_qp_destroy_cmd(struct nicprog_ring_file *rf,
				  const struct nicprog_qp_destroy *a)
{
	void *qp;

	if (a->flags)
		return -EINVAL;
	qp = xa_erase(&rf->qps, a->qpn);
	if (!qp) {
		ring_err(rf, "qp destroy: the file has no QP %u", a->qpn);
		return -ENOENT;
	}
	rf->nd->ops->rdma_ops->qp_destroy(qp);
	return 0;
}

static int nicprog_mr_reg_cmd(struct nicprog_ring_file *rf,
			      const struct nicprog_mr_reg *a,
			      struct nicprog_mr_reg *out)
{
	struct nicprog_dev *nd = rf->nd;
	struct nicprog_buf *b;
	struct nicprog_mr *mr;
	u32 lkey, rkey;
	void *drv;
	int err;

	if ((a->access & ~NICPROG_ACCESS_ALL) || a->lkey || a->rkey ||
	    !a->len) {
		ring_err(rf, "mr reg: access 0x%x unknown, or no length, or keys set",
			 a->access);
		return -EINVAL;
	}
	b = xa_load(&rf->bufs, a->buf);
	if (!b) {
		ring_err(rf, "mr reg: the file has no buffer %u", a->buf);
		return -ENOENT;
	}
	if (a->offset > b->size || a->len > b->size - a->offset ||
	    a->iova + a->len < a->iova) {
		ring_err(rf, "mr reg: %llu bytes at %llu pass the end of buffer %u (%llu bytes)",
			 a->len, a->offset, a->buf, b->size);
		return -EINVAL;
	}
	if (nicprog_xa_count(&rf->mrs) >= NICPROG_RDMA_FILE_MRS) {
		ring_err(rf, "mr reg: the file holds %u regions already",
			 NICPROG_RDMA_FILE_MRS);
		return -EMFILE;
	}
	mr = kzalloc(sizeof(*mr), NICPROG_RING_GFP);
	if (!mr)
		return -ENOMEM;
	drv = nd->ops->rdma_ops->mr_reg(nd->nic, rf, b->drv, a->offset,
					a->len, a->iova, a->access, &lkey,
					&rkey);
	if (IS_ERR(drv)) {
		kfree(mr);
		return PTR_ERR(drv);
	}
	mr->drv = drv;
	mr->buf = b;
	err = xa_insert(&rf->mrs, lkey, mr, NICPROG_RING_GFP);
	if (err) {
		nd->ops->rdma_ops->mr_dereg(nd->nic, drv);
		kfree(mr);
		return err;
	}
	b->mrs++;
	b->had_mrs = true;
	*out = *a;
	out->lkey = lkey;
	out->rkey = rkey;
	return 0;
}

static void nicprog_mr_free(struct nicprog_ring_file *rf,
			    struct nicprog_mr *mr)
{
	rf->nd->ops->rdma_ops->mr_dereg(rf->nd->nic, mr->drv);
	mr->buf->mrs--;
	kfree(mr);
}

static int nicprog_mr_dereg_cmd(struct nicprog_ring_file *rf,
				const struct nicprog_mr_dereg *a)
{
	struct nicprog_mr *mr;

	if (a->flags)
		return -EINVAL;
	mr = xa_erase(&rf->mrs, a->lkey);
	if (!mr) {
		ring_err(rf, "mr dereg: the file has no region of key 0x%x",
			 a->lkey);
		return -ENOENT;
	}
	nicprog_mr_free(rf, mr);
	return 0;
}

/* A post's WRs, copied in and checked: the count, or -errno. */
/**
 * nicprog_wrs_check() - WRs a post may carry
 * @rf: the file, whose trace names a refusal
 * @what: the command, for the trace
 * @wrs: the WRs
 * @n: their number, 1..NICPROG_RDMA_POST_MAX
 *
 * Context: any.
 * Return: 0, or -EINVAL (opcode, flags, length, or not all on one QP).
 */
int nicprog_wrs_check(struct nicprog_ring_file *rf, const char *what,
		      const struct nicprog_rdma_wr *wrs, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (!wrs[i].opcode || wrs[i].opcode >= __NICPROG_WR_MAX ||
		    (wrs[i].flags & ~NICPROG_WR_F_ALL) || wrs[i].__rsvd ||
		    wrs[i].len > NICPROG_RDMA_MSG_MAX ||
		    wrs[i].qpn != wrs[0].qpn)
			break;
	if (i == n)
		return 0;
	ring_err(rf, "%s: WR %u: opcode %u, flags 0x%x, %u bytes, QP %u (the post's is %u)",
		 what, i, wrs[i].opcode, wrs[i].flags, wrs[i].len, wrs[i].qpn,
		 wrs[0].qpn);
	return -EINVAL;
}

/**
 * nicprog_wrs_post() - post checked WRs on the file's QP they name
 * @rf: the file
 * @what: the command, for the trace
 * @wrs: the WRs, nicprog_wrs_check()ed
 * @n: their number
 *
 * One doorbell: all of them or none.
 *
 * Context: inside the ring (nicprog_ring_enter()).
 * Return: @n, or -ENOENT (no such QP of the file), or the driver's -errno.
 */
int nicprog_wrs_post(struct nicprog_ring_file *rf, const char *what,
		     const struct nicprog_rdma_wr *wrs, u32 n)
{
	void *qp = xa_load(&rf->qps, wrs[0].qpn);
	int err;

	if (!qp) {
		ring_err(rf, "%s: the file has no QP %u", what, wrs[0].qpn);
		return -ENOENT;
	}
	err = rf->nd->ops->rdma_ops->post(qp, wrs, n);
	if (err)
		ring_err(rf, "%s: QP %u refused %u WRs: %d", what, wrs[0].qpn,
			 n, err);
	return err ? err : n;
}

static int nicprog_post_args(struct nicprog_ring_file *rf,
			     const struct nicprog_post *a,
			     struct nicprog_rdma_wr **out)
{
	struct nicprog_rdma_wr *wrs;

	if (!a->n || a->n > NICPROG_RDMA_POST_MAX ||
	    a->wr_size != sizeof(*wrs)) {
		ring_err(rf, "post: 1..%u WRs of %zu bytes", NICPROG_RDMA_POST_MAX,
			 sizeof(*wrs));
		return -EINVAL;
	}
	wrs = memdup_user(u64_to_user_ptr(a->wrs), a->n * sizeof(*wrs));
	if (IS_ERR(wrs))
		return PTR_ERR(wrs);
	if (nicprog_wrs_check(rf, "post", wrs, a->n)) {
		kfree(wrs);
		return -EINVAL;
	}
	*out = wrs;
	return a->n;
}

/* RDMA commands but POLL, inside the ring: @a is the op's struct. */
static int nicprog_rdma_op(struct nicprog_ring_file *rf, unsigned int op,
			   void *a, void *out, struct nicprog_rdma_wr *wrs)
{
	const struct nicprog_post *post = a;

	switch (op) {
	case NICPROG_OP_QP_CREATE:
		return nicprog_qp_create_cmd(rf, a, out);
	case NICPROG_OP_QP_CONNECT:
		return nicprog_qp_connect_cmd(rf, a);
	case NICPROG_OP_QP_DESTROY:
		return nicprog_qp_destroy_cmd(rf, a);
	case NICPROG_OP_MR_REG:
		return nicprog_mr_reg_cmd(rf, a, out);
	case NICPROG_OP_MR_DEREG:
		return nicprog_mr_dereg_cmd(rf, a);
	case NICPROG_OP_POST:
		return nicprog_wrs_post(rf, "post", wrs, post->n);
	}
	return -EINVAL;
}

static size_t nicprog_rdma_arg_size(unsigned int op)
{
	switch (op) {
	case NICPROG_OP_QP_CREATE:
		return sizeof(struct nicprog_qp_create);
	case NICPROG_OP_QP_CONNECT:
		return sizeof(struct nicprog_qp_connect);
	case NICPROG_OP_QP_DESTROY:
		return sizeof(struct nicprog_qp_destroy);
	case NICPROG_OP_MR_REG:
		return sizeof(struct nicprog_mr_reg);
	case NICPROG_OP_MR_DEREG:
		return sizeof(struct nicprog_mr_dereg);
	case NICPROG_OP_POST:
		return sizeof(struct nicprog_post);
	}
	return 0;
}

/**
 * nicprog_rdma_cmd() - an RDMA command (NICPROG_OP_QP_CREATE to _POLL)
 * @rf: the file
 * @file: it, whose opener's privilege counts
 * @op: the command
 * @c: its command area
 * @ioucmd: the command, for POLL's completion
 * @nonblock: issued non-blocking: POST and POLL go on, the others are
 *	retried where they may sleep
 *
 * Context: the command's issue.
 * Return: the command's result, -EIOCBQUEUED for a parked POLL, -EAGAIN.
 */
int nicprog_rdma_cmd(struct nicprog_ring_file *rf, struct file *file,
		     unsigned int op, const struct nicprog_uring_cmd *c,
		     struct io_uring_cmd *ioucmd, bool nonblock)
{
	union {
		struct nicprog_qp_create qc;
		struct nicprog_qp_connect qn;
		struct nicprog_qp_destroy qd;
		struct nicprog_mr_reg mr;
		struct nicprog_mr_dereg md;
		struct nicprog_post post;
	} a, out;
	struct nicprog_rdma_wr *wrs = NULL;
	size_t size = nicprog_rdma_arg_size(op);
	int err;

	if (op == NICPROG_OP_POLL)
		return nicprog_poll_cmd(rf, c, ioucmd);
	if (nonblock && op != NICPROG_OP_POST)
		return -EAGAIN;
	err = nicprog_ring_args(c, &a, size);
	if (err)
		return err;
	if (op == NICPROG_OP_POST) {
		err = nicprog_post_args(rf, &a.post, &wrs);
		if (err < 0)
			return err;
	}
	err = nicprog_ring_enter(rf->nd, nonblock);
	if (err)
		goto out;
	err = nicprog_ring_may_act(rf, file, "rdma");
	if (!err && !rf->nd->ops->rdma_ops) {
		ring_err(rf, "rdma: the NIC's driver has no RDMA engine");
		err = -EOPNOTSUPP;
	}
	if (!err)
		err = nicprog_rdma_op(rf, op, &a, &out, wrs);
	nicprog_ring_leave(rf->nd);
	if (!err && (op == NICPROG_OP_QP_CREATE || op == NICPROG_OP_MR_REG))
		err = nicprog_ring_out(c, &out, size);
out:
	kfree(wrs);
	return err;
}

/**
 * nicprog_rdma_release() - destroy a file's QPs and regions
 * @rf: the file, closing, or of a port going
 *
 * Parked polls end (with what the CQ holds, or ENODEV).
 *
 * Context: process, the port's ring_lock held, the port not dead yet.
 */
void nicprog_rdma_release(struct nicprog_ring_file *rf)
{
	const struct nicprog_rdma_ops *ops = rf->nd->ops->rdma_ops;
	struct nicprog_poller *p, *tmp;
	struct nicprog_mr *mr;
	unsigned long id;
	void *qp;

	xa_for_each(&rf->qps, id, qp) {
		xa_erase(&rf->qps, id);
		ops->qp_destroy(qp);
	}
	xa_for_each(&rf->mrs, id, mr) {
		xa_erase(&rf->mrs, id);
		nicprog_mr_free(rf, mr);
	}
	if (!rf->cq)
		return;
	spin_lock_irq(&rf->cq->lock);
	rf->cq->dead = true;
	list_for_each_entry_safe(p, tmp, &rf->cq->polls, node)
		nicprog_poll_wake(p);
	spin_unlock_irq(&rf->cq->lock);
}

/**
 * nicprog_rdma_free() - free a closing file's CQ
 * @rf: the file; no command is in flight (io_uring holds the file)
 */
void nicprog_rdma_free(struct nicprog_ring_file *rf)
{
	xa_destroy(&rf->qps);
	xa_destroy(&rf->mrs);
	if (rf->cq) {
		kvfree(rf->cq->wcs);
		kfree(rf->cq);
	}
}
