// SPDX-License-Identifier: GPL-2.0
/*
 * NIC memory for the host (after RecoNIC's memory API): buffers an open
 * file of /dev/nicprog/port<N> allocates in the NIC's memory regions, and
 * copies between them and the file's user memory by the NIC's DMA engines
 * (NICPROG_OP_MEM_ALLOC, _FREE, _COPY).
 *
 * The memory is the NIC's, shared with its programs' tables: a buffer is
 * charged to its region (nicprog_nic.buf_bytes, which alloc.c counts with
 * the plans' tables) and to the NIC's total (mem_used, which map creation
 * checks), under RTNL so that a plan placed meanwhile sees it. The storage
 * is the driver's (struct nicprog_mem_ops).
 *
 * Lifetime: a file's buffers live in its bufs, changed under the port's
 * ring_lock (after RTNL), which is also what keeps the driver: they are
 * freed by MEM_FREE, when the file closes, or -- the driver's memory going
 * with it -- when the port is unregistered (nicprog_ring_port_gone()). A copy
 * never holds a buffer or the driver across a fault: it moves the bytes
 * between user memory and a bounce buffer of its own outside ring_lock,
 * and between the bounce buffer and the NIC inside it. It then completes
 * when the engine would be done: an hrtimer, then io_uring's task work in
 * the submitter (where a FROM_NIC copy writes user memory). Timer and
 * bounce buffer are the command's, so a copy in flight outlives its
 * buffer, its file's other state and the port, never the file (io_uring
 * holds it until the CQE).
 */
#include <linux/hrtimer.h>
#include <linux/nospec.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <net/nicprog_compat.h>

#include "../nicprog.h"
#include "ring.h"

/**
 * struct nicprog_copy - a NICPROG_OP_MEM_COPY in flight
 * @timer: fires when the NIC's engine is done
 * @ioucmd: the command; its pdu points here
 * @addr: the user memory
 * @bounce: the bytes, on their way
 * @len: their length
 * @from_nic: a FROM_NIC copy: @bounce goes to @addr at completion
 */
struct nicprog_copy {
	struct hrtimer timer;
	struct io_uring_cmd *ioucmd;
	void __user *addr;
	void *bounce;
	u64 len;
	bool from_nic;
};

static struct nicprog_copy **copy_of(struct io_uring_cmd *ioucmd)
{
	BUILD_BUG_ON(sizeof(struct nicprog_copy *) > sizeof(ioucmd->pdu));
	return (struct nicprog_copy **)ioucmd->pdu;
}

/* The region an engine reaches with the most bytes, else the largest. */
static u32 nicprog_mem_region_any(const struct nicprog_lnic *lnic)
{
	u32 reach = 0, best = 0, r, u;

	for (u = 0; u < lnic->n_units; u++)
		if (lnic->units[u].type == NICPROG_UNIT_DMA)
			reach |= lnic->units[u].region_mask;
	if (!reach)
		reach = GENMASK(lnic->n_regions - 1, 0);
	for (r = 0; r < lnic->n_regions; r++)
		if ((reach & BIT(r)) &&
		    (!(reach & BIT(best)) ||
		     lnic->regions[r].size > lnic->regions[best].size))
			best = r;
	return best;
}

/* Free @b, which has left its file's bufs. RTNL and ring_lock held. */
static void nicprog_buf_free(struct nicprog_dev *nd, struct nicprog_buf *b)
{
	struct nicprog_nic *nic = nd->nic;

	ASSERT_RTNL();
	lockdep_assert_held(&nd->ring_lock);
	nd->ops->mem_ops->free(nic, b->drv);
	mutex_lock(&nic->lock);
	nic->buf_bytes[b->region] -= b->size;
	nic->mem_used -= b->size;
	nic->n_bufs--;
	mutex_unlock(&nic->lock);
	kfree(b);
}

/**
 * nicprog_mem_alloc_cmd() - NICPROG_OP_MEM_ALLOC
 * @rf: the file
 * @file: it, whose opener's privilege counts
 * @c: the command area
 *
 * Context: process, may sleep; no lock held.
 * Return: 0, or -errno with the cause traced.
 */
int nicprog_mem_alloc_cmd(struct nicprog_ring_file *rf, struct file *file,
			  const struct nicprog_uring_cmd *c)
{
	struct nicprog_dev *nd = rf->nd;
	const struct nicprog_lnic *lnic;
	struct nicprog_mem_alloc a;
	struct nicprog_nic *nic;
	struct nicprog_buf *b;
	u64 room;
	int err;

	err = nicprog_ring_args(c, &a, sizeof(a));
	if (err)
		return err;
	if (a.flags || a.id || a.__rsvd) {
		ring_err(rf, "mem alloc: flags and out fields must be 0");
		return -EINVAL;
	}
	if (!a.size || a.size > NICPROG_MEM_BUF_MAX) {
		ring_err(rf, "mem alloc: size %llu is not in 1..%llu",
			 a.size, NICPROG_MEM_BUF_MAX);
		return -EINVAL;
	}
	b = kzalloc(sizeof(*b), NICPROG_RING_GFP);
	if (!b)
		return -ENOMEM;
	if (rtnl_lock_killable()) {
		kfree(b);
		return -EINTR;
	}
	err = nicprog_ring_enter(nd, false);
	if (err)
		goto out_rtnl;
	err = nicprog_ring_may_act(rf, file, "mem alloc");
	if (err)
		goto out_leave;
	nic = nd->nic;
	lnic = nic->lnic;
	if (!nd->ops->mem_ops) {
		ring_err(rf, "mem alloc: the NIC's driver offers no memory to the host");
		err = -EOPNOTSUPP;
		goto out_leave;
	}
	if (a.region == NICPROG_MEM_REGION_ANY) {
		a.region = nicprog_mem_region_any(lnic);
	} else if (a.region >= lnic->n_regions) {
		ring_err(rf, "mem alloc: the NIC has no region %u (it has %u)",
			 a.region, lnic->n_regions);
		err = -EINVAL;
		goto out_leave;
	}
	a.region = array_index_nospec(a.region, lnic->n_regions);
	if (nic->lnic_frozen) {
		ring_err(rf, "mem alloc: the NIC is taking another profile");
		err = -EBUSY;
		goto out_leave;
	}
	if (rf->n_bufs >= NICPROG_MEM_FILE_BUFS) {
		ring_err(rf, "mem alloc: the file holds %u buffers already",
			 NICPROG_MEM_FILE_BUFS);
		err = -EMFILE;
		goto out_leave;
	}
	room = lnic->regions[a.region].size -
	       min(lnic->regions[a.region].size,
		   nicprog_alloc_region_used(nic, a.region));
	if (a.size > room || a.size > nic->sum.mem_bytes - nic->mem_used) {
		ring_err(rf, "mem alloc: region %s has %llu bytes free of tables and buffers, %llu asked",
			 lnic->regions[a.region].name,
			 min(room, nic->sum.mem_bytes - nic->mem_used),
			 a.size);
		err = -ENOSPC;
		goto out_leave;
	}
	b->region = a.region;
	b->size = a.size;
	err = xa_alloc(&rf->bufs, &b->id, b, xa_limit_31b, NICPROG_RING_GFP);
	if (err)
		goto out_leave;
	b->drv = nd->ops->mem_ops->alloc(nic, a.region, a.size, NULL);
	if (IS_ERR_OR_NULL(b->drv)) {
		err = b->drv ? PTR_ERR(b->drv) : -ENOMEM;
		xa_erase(&rf->bufs, b->id);
		ring_err(rf, "mem alloc: the driver refused %llu bytes of %s: %d",
			 a.size, lnic->regions[a.region].name, err);
		goto out_leave;
	}
	mutex_lock(&nic->lock);
	nic->buf_bytes[a.region] += a.size;
	nic->mem_used += a.size;
	nic->n_bufs++;
	mutex_unlock(&nic->lock);
	rf->n_bufs++;
	a.id = b->id;
	b = NULL;
out_leave:
	nicprog_ring_leave(nd);
out_rtnl:
	rtnl_unlock();
	kfree(b);
	if (!err)
		err = nicprog_ring_out(c, &a, sizeof(a));
	/* a buffer whose id could not be told stays the file's until close */
	return err;
}

/**
 * nicprog_mem_free_cmd() - NICPROG_OP_MEM_FREE
 * @rf: the file
 * @c: the command area
 *
 * Context: process, may sleep; no lock held.
 * Return: 0, or -errno (-ENOENT: no such buffer of the file).
 */
int nicprog_mem_free_cmd(struct nicprog_ring_file *rf,
			 const struct nicprog_uring_cmd *c)
{
	struct nicprog_dev *nd = rf->nd;
	struct nicprog_mem_free a;
	struct nicprog_buf *b;
	int err;

	err = nicprog_ring_args(c, &a, sizeof(a));
	if (err)
		return err;
	if (a.flags) {
		ring_err(rf, "mem free: flags must be 0");
		return -EINVAL;
	}
	if (rtnl_lock_killable())
		return -EINTR;
	err = nicprog_ring_enter(nd, false);
	if (err)
		goto out_rtnl;
	b = xa_load(&rf->bufs, a.id);
	if (!b) {
		ring_err(rf, "mem free: the file has no buffer %u", a.id);
		err = -ENOENT;
	} else if (b->mrs) {
		ring_err(rf, "mem free: buffer %u has %u memory regions registered",
			 a.id, b->mrs);
		err = -EBUSY;
	} else {
		xa_erase(&rf->bufs, a.id);
		rf->n_bufs--;
		/* the engine's readers of a region that was over it (rdma.c) */
		if (b->had_mrs)
			synchronize_rcu();
		nicprog_buf_free(nd, b);
	}
	nicprog_ring_leave(nd);
out_rtnl:
	rtnl_unlock();
	return err;
}

/**
 * nicprog_mem_release() - free every buffer of a file
 * @rf: the file, closing, or of a port going (its files stay open)
 *
 * Its QPs and memory regions (rdma.c) go first.
 *
 * Context: process, RTNL and the port's ring_lock held, the port not dead
 * yet (its driver is there).
 */
void nicprog_mem_release(struct nicprog_ring_file *rf)
{
	struct nicprog_buf *b;
	bool had_mrs = false;
	unsigned long id;

	/* QPs and regions first: they use the buffers */
	nicprog_rdma_release(rf);
	xa_for_each(&rf->bufs, id, b)
		had_mrs |= b->had_mrs;
	/* one grace period for the engine's readers of every region */
	if (had_mrs)
		synchronize_rcu();
	xa_for_each(&rf->bufs, id, b) {
		xa_erase(&rf->bufs, id);
		nicprog_buf_free(rf->nd, b);
	}
	rf->n_bufs = 0;
}

static void nicprog_copy_done(struct io_uring_cmd *ioucmd,
			      unsigned int issue_flags)
{
	struct nicprog_copy *cp = *copy_of(ioucmd);
	int res = cp->len;

	hrtimer_cancel(&cp->timer);	/* its callback has returned */
	/* the submitter's task: its memory */
	if (cp->from_nic && copy_to_user(cp->addr, cp->bounce, cp->len))
		res = -EFAULT;
	kvfree(cp->bounce);
	kfree(cp);
	io_uring_cmd_done(ioucmd, res, 0, issue_flags);
}

static enum hrtimer_restart nicprog_copy_timer(struct hrtimer *t)
{
	struct nicprog_copy *cp = container_of(t, struct nicprog_copy, timer);

	io_uring_cmd_complete_in_task(cp->ioucmd, nicprog_copy_done);
	return HRTIMER_NORESTART;
}

/**
 * nicprog_mem_copy_cmd() - NICPROG_OP_MEM_COPY
 * @rf: the file
 * @c: the command area
 * @ioucmd: the command, completed when the NIC's engine is done
 *
 * Context: process, may sleep (io_uring's worker); no lock held.
 * Return: -EIOCBQUEUED when in flight, else -errno.
 */
int nicprog_mem_copy_cmd(struct nicprog_ring_file *rf,
			 const struct nicprog_uring_cmd *c,
			 struct io_uring_cmd *ioucmd)
{
	struct nicprog_dev *nd = rf->nd;
	struct nicprog_mem_copy a;
	struct nicprog_copy *cp;
	struct nicprog_buf *b;
	s64 ns = 0;
	int err;

	err = nicprog_ring_args(c, &a, sizeof(a));
	if (err)
		return err;
	if (a.flags || a.__rsvd || !a.dir || a.dir >= __NICPROG_MEM_DIR_MAX) {
		ring_err(rf, "mem copy: direction %u unknown, or flags set",
			 a.dir);
		return -EINVAL;
	}
	if (!a.len || a.len > NICPROG_MEM_COPY_MAX) {
		ring_err(rf, "mem copy: length %llu is not in 1..%u", a.len,
			 NICPROG_MEM_COPY_MAX);
		return -EINVAL;
	}
	cp = kzalloc(sizeof(*cp), NICPROG_RING_GFP);
	if (!cp)
		return -ENOMEM;
	cp->bounce = kvmalloc(a.len, NICPROG_RING_GFP);
	if (!cp->bounce) {
		kfree(cp);
		return -ENOMEM;
	}
	cp->ioucmd = ioucmd;
	cp->addr = u64_to_user_ptr(a.addr);
	cp->len = a.len;
	cp->from_nic = a.dir == NICPROG_MEM_FROM_NIC;
	if (!cp->from_nic && copy_from_user(cp->bounce, cp->addr, a.len)) {
		err = -EFAULT;
		goto out_free;
	}
	err = nicprog_ring_enter(nd, false);
	if (err)
		goto out_free;
	b = xa_load(&rf->bufs, a.id);
	if (!b) {
		ring_err(rf, "mem copy: the file has no buffer %u", a.id);
		err = -ENOENT;
	} else if (a.offset > b->size || a.len > b->size - a.offset) {
		ring_err(rf, "mem copy: %llu bytes at %llu pass the end of buffer %u (%llu bytes)",
			 a.len, a.offset, a.id, b->size);
		err = -EINVAL;
	} else {
		ns = nd->ops->mem_ops->dma(nd->nic, b->drv, a.offset,
					   cp->bounce, a.len, !cp->from_nic);
		if (ns < 0) {
			err = ns;
			if (err == -EOPNOTSUPP)
				ring_err(rf, "mem copy: no DMA engine of the NIC reaches buffer %u's region %s",
					 a.id, nd->nic->lnic->regions[b->region].name);
			else
				ring_err(rf, "mem copy: the NIC's DMA engines refused buffer %u: %d",
					 a.id, err);
		}
	}
	nicprog_ring_leave(nd);
	if (err)
		goto out_free;
	*copy_of(ioucmd) = cp;
	hrtimer_init(&cp->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	cp->timer.function = nicprog_copy_timer;
	hrtimer_start(&cp->timer, ns_to_ktime(ns), HRTIMER_MODE_REL_SOFT);
	return -EIOCBQUEUED;

out_free:
	kvfree(cp->bounce);
	kfree(cp);
	return err;
}
