// SPDX-License-Identifier: GPL-2.0
/*
 * nicprog_ring.ko: what a port's device node /dev/nicprog/port<N> does.
 * The core owns the node (node.c) and swaps in these file operations when
 * it is opened; this module registers them at load and depends on the
 * core, never the other way.
 *
 * An open file owns the pipes it creates (pipe.c); nothing else reaches
 * them. Commands arrive as IORING_OP_URING_CMD (the layouts are in
 * include/uapi/linux/nicprog.h); each copies its arguments once, checks
 * every field and changes nothing unless all are valid. Commands that
 * allocate or free are slow-path: issued non-blocking they ask io_uring
 * to retry them from its worker (-EAGAIN), where they may sleep.
 *
 * Lifetime: an open file holds a reference to the port's class device,
 * so struct nicprog_dev outlives it, and one to this module (its file
 * operations' owner), but none to the port's driver: the driver may
 * unregister the port and be unloaded while files stay open. A command
 * reaches the driver -- its ops, the port's netdev -- only between
 * nicprog_ring_enter() and nicprog_ring_leave(), which hold ring_lock with
 * the port still registered: nicprog_ring_port_gone() marks it dead under
 * that lock before nicprog_unregister() returns and the driver may go.
 * Nothing in between touches user memory, so no fault can stretch the
 * section. Once the port is unregistered, commands fail with ENODEV while
 * existing mappings stay valid.
 */
#include <linux/cdev.h>
#include <linux/fs.h>
#include <linux/xarray.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/nospec.h>
#include <linux/rcupdate.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <net/nicprog_compat.h>

#include "../nicprog.h"
#include "ring.h"

static bool nicprog_ring_dead(struct nicprog_ring_file *rf)
{
	return READ_ONCE(rf->nd->ring_dead);
}

/*
 * Unbind @pipe from its output, if bound; true if the datapath may still
 * see it until a grace period passes.
 */
static bool nicprog_pipe_unbind(struct nicprog_dev *nd,
				struct nicprog_pipe *pipe)
{
	bool bound;

	mutex_lock(&nd->ring_lock);
	bound = pipe->output;
	if (bound)
		RCU_INIT_POINTER(nd->ring_out[pipe->output - 1], NULL);
	pipe->output = 0;
	WRITE_ONCE(pipe->backpressure, false);
	WRITE_ONCE(pipe->prefetch, false);
	WRITE_ONCE(pipe->ctrl->flags, 0);
	nicprog_pipe_coalesce(pipe, 0, 0);
	mutex_unlock(&nd->ring_lock);
	return bound;
}

/*
 * Destroy the file's pipe @id; false if it has none. An id a create has
 * reserved but not published yet is none: its reservation stays.
 */
static bool nicprog_pipe_destroy(struct nicprog_ring_file *rf, u32 id)
{
	struct nicprog_pipe *pipe;

	lockdep_assert_held(&rf->lock);
	if (!xa_load(&rf->pipes, id))
		return false;
	pipe = xa_erase(&rf->pipes, id);
	if (nicprog_pipe_unbind(rf->nd, pipe))
		synchronize_rcu();	/* no core appends to it any more */
	rf->bytes -= pipe->size;
	atomic_dec(&rf->nd->ring_pipes);
	nicprog_pipe_free(pipe);
	return true;
}

static int nicprog_pipe_create_cmd(struct nicprog_ring_file *rf,
				   const struct nicprog_uring_cmd *c)
{
	struct nicprog_pipe *pipe, *share;
	struct nicprog_pipe_create a;
	u32 id;
	int err;

	err = nicprog_ring_args(c, &a, sizeof(a));
	if (err)
		return err;
	if ((a.flags & ~NICPROG_PIPE_F_ALL) || a.id || a.mmap_off ||
	    a.mmap_len || (!(a.flags & NICPROG_PIPE_SHARE) && a.share)) {
		ring_err(rf, "pipe create: unknown flags, or out fields set");
		return -EINVAL;
	}
	if (!is_power_of_2(a.size) || a.size < NICPROG_PIPE_SIZE_MIN ||
	    a.size > NICPROG_PIPE_SIZE_MAX || a.size < PAGE_SIZE) {
		ring_err(rf, "pipe create: size %u is not a power of two in %u..%u",
			 a.size, NICPROG_PIPE_SIZE_MIN, NICPROG_PIPE_SIZE_MAX);
		return -EINVAL;
	}
	if (!a.dir || a.dir >= __NICPROG_PIPE_DIR_MAX ||
	    !a.framing || a.framing >= __NICPROG_FRAMING_MAX) {
		ring_err(rf, "pipe create: direction %u or framing %u unknown",
			 a.dir, a.framing);
		return -EINVAL;
	}

	mutex_lock(&rf->lock);
	if (a.flags & NICPROG_PIPE_SHARE) {
		/* under the lock: @share must not go while it is shared */
		share = xa_load(&rf->pipes, a.share);
		if (!share || a.dir != NICPROG_PIPE_TX ||
		    share->size != a.size || share->framing != a.framing) {
			ring_err(rf, "pipe create: a shared pipe is a TX pipe of the size and framing of a pipe of the file");
			mutex_unlock(&rf->lock);
			return -EINVAL;
		}
		pipe = nicprog_pipe_alloc(a.size, a.dir, a.framing, share);
	} else {
		/* allocated without the lock: mmap takes it under mmap_lock */
		mutex_unlock(&rf->lock);
		pipe = nicprog_pipe_alloc(a.size, a.dir, a.framing, NULL);
		mutex_lock(&rf->lock);
	}
	if (!pipe) {
		mutex_unlock(&rf->lock);
		return -ENOMEM;
	}
	if (nicprog_ring_dead(rf)) {
		err = -ENODEV;
		goto err_unlock;
	}
	if (rf->bytes + a.size > NICPROG_RING_FILE_BYTES) {
		ring_err(rf, "pipe create: the file's pipes would hold more than %llu bytes",
			 NICPROG_RING_FILE_BYTES);
		err = -ENOSPC;
		goto err_unlock;
	}
	/*
	 * Reserve the id (a NULL entry): no command of the file finds the
	 * pipe until the creator has been told its id, so a failed copy
	 * below frees a pipe nobody else could have reached.
	 */
	err = xa_alloc(&rf->pipes, &id, NULL,
		       XA_LIMIT(1, NICPROG_RING_FILE_PIPES),
		       NICPROG_RING_GFP);
	if (err) {
		if (err == -EBUSY) {
			ring_err(rf, "pipe create: the file has %u pipes already",
				 NICPROG_RING_FILE_PIPES);
			err = -ENOSPC;
		}
		goto err_unlock;
	}
	pipe->id = id;
	pipe->rf = rf;
	rf->bytes += a.size;
	mutex_unlock(&rf->lock);

	/* not under the lock: a fault takes the mmap lock */
	a.id = id;
	a.mmap_off = (u64)id << NICPROG_PIPE_MMAP_SHIFT;
	a.mmap_len = PAGE_SIZE + 2ULL * a.size;
	err = nicprog_ring_out(c, &a, sizeof(a));

	mutex_lock(&rf->lock);
	if (!err)	/* into the reserved slot: nothing to allocate */
		err = xa_err(xa_store(&rf->pipes, id, pipe, GFP_KERNEL));
	if (err) {
		xa_erase(&rf->pipes, id);
		rf->bytes -= a.size;
		goto err_unlock;
	}
	atomic_inc(&rf->nd->ring_pipes);
	mutex_unlock(&rf->lock);
	return 0;

err_unlock:
	mutex_unlock(&rf->lock);
	nicprog_pipe_free(pipe);
	return err;
}

static int nicprog_pipe_destroy_cmd(struct nicprog_ring_file *rf,
				    const struct nicprog_uring_cmd *c)
{
	struct nicprog_pipe_destroy a;
	int err;

	err = nicprog_ring_args(c, &a, sizeof(a));
	if (err)
		return err;
	if (a.flags) {
		ring_err(rf, "pipe destroy: flags must be 0");
		return -EINVAL;
	}
	mutex_lock(&rf->lock);
	if (!nicprog_pipe_destroy(rf, a.id)) {
		ring_err(rf, "pipe destroy: no pipe %u in this file", a.id);
		err = -EINVAL;
	}
	mutex_unlock(&rf->lock);
	return err;
}

static int nicprog_pipe_bind_cmd(struct nicprog_ring_file *rf,
				 struct file *file,
				 const struct nicprog_uring_cmd *c, bool bind)
{
	struct nicprog_dev *nd = rf->nd;
	struct nicprog_pipe_bind a;
	struct nicprog_pipe *pipe;
	int err;

	err = nicprog_ring_args(c, &a, sizeof(a));
	if (err)
		return err;
	if ((a.flags & ~(bind ? NICPROG_BIND_F_ALL : 0)) || a.__pad ||
	    a.output >= NICPROG_RING_OUTPUTS) {
		ring_err(rf, "pipe bind: flags must be 0 or (bind) NICPROG_BIND_BACKPRESSURE and/or NICPROG_BIND_PREFETCH, the output below %u",
			 NICPROG_RING_OUTPUTS);
		return -EINVAL;
	}
	a.output = array_index_nospec(a.output, NICPROG_RING_OUTPUTS);
	if ((!bind && (a.coalesce_usecs || a.coalesce_bytes)) ||
	    a.coalesce_usecs > NICPROG_COALESCE_USECS_MAX ||
	    (a.coalesce_bytes && !a.coalesce_usecs)) {
		ring_err(rf, "pipe bind: coalesce_usecs is 0..%u, a byte threshold needs it, unbind takes neither",
			 NICPROG_COALESCE_USECS_MAX);
		return -EINVAL;
	}
	mutex_lock(&rf->lock);
	pipe = xa_load(&rf->pipes, a.id);
	if (!pipe || pipe->dir != NICPROG_PIPE_RX) {
		ring_err(rf, "pipe bind: no RX pipe %u in this file", a.id);
		err = -EINVAL;
		goto out_unlock;
	}
	if (a.coalesce_bytes > pipe->size / 2) {
		ring_err(rf, "pipe bind: coalesce_bytes %u is more than half of pipe %u's %u bytes",
			 a.coalesce_bytes, a.id, pipe->size);
		err = -EINVAL;
		goto out_unlock;
	}
	if (!bind) {
		if (nicprog_ring_dead(rf)) {
			err = -ENODEV;
		} else if (pipe->output != a.output + 1) {
			ring_err(rf, "pipe unbind: pipe %u is not bound to output %u",
				 a.id, a.output);
			err = -EINVAL;
		} else if (nicprog_pipe_unbind(nd, pipe)) {
			synchronize_rcu();
			/* no flush will find it: announce what it holds */
			nicprog_pipe_notify(pipe);
		}
		goto out_unlock;
	}
	err = nicprog_ring_enter(nd, false);
	if (err)
		goto out_unlock;
	err = nicprog_ring_may_act(rf, file, "pipe bind");
	if (err)
		goto out_leave;
	if (pipe->output) {
		ring_err(rf, "pipe bind: pipe %u is bound to output %u",
			 a.id, pipe->output - 1);
		err = -EBUSY;
	} else if (rcu_access_pointer(nd->ring_out[a.output])) {
		ring_err(rf, "pipe bind: output %u has a pipe", a.output);
		err = -EBUSY;
	} else {
		pipe->output = a.output + 1;
		WRITE_ONCE(pipe->backpressure,
			   !!(a.flags & NICPROG_BIND_BACKPRESSURE));
		WRITE_ONCE(pipe->prefetch, !!(a.flags & NICPROG_BIND_PREFETCH));
		WRITE_ONCE(pipe->ctrl->flags, a.flags);
		nicprog_pipe_coalesce(pipe, a.coalesce_usecs,
				      a.coalesce_bytes);
		rcu_assign_pointer(nd->ring_out[a.output], pipe);
	}
out_leave:
	nicprog_ring_leave(nd);
out_unlock:
	mutex_unlock(&rf->lock);
	return err;
}

/*
 * NICPROG_OP_PIPE_SEND: every record up to the application's tail is
 * checked, its length read once, before the first is sent; the NIC's head
 * then moves past each sent record.
 */
static int nicprog_pipe_send_cmd(struct nicprog_ring_file *rf,
				 struct file *file,
				 const struct nicprog_uring_cmd *c,
				 bool nonblock)
{
	struct nicprog_dev *nd = rf->nd;
	struct nicprog_pipe_send a;
	struct nicprog_pipe *pipe;
	struct nicprog_rec *rec;
	u32 n = 0, i, len;
	int err, xerr;
	u64 h, need;

	err = nicprog_ring_args(c, &a, sizeof(a));
	if (err)
		return err;
	if (a.flags) {
		ring_err(rf, "pipe send: flags must be 0");
		return -EINVAL;
	}
	if (nonblock) {
		if (!mutex_trylock(&rf->lock))
			return -EAGAIN;
	} else {
		mutex_lock(&rf->lock);
	}
	err = -EINVAL;
	pipe = xa_load(&rf->pipes, a.id);
	if (!pipe || pipe->dir != NICPROG_PIPE_TX ||
	    pipe->framing != NICPROG_FRAMING_RECORDS) {
		ring_err(rf, "pipe send: no TX records pipe %u in this file",
			 a.id);
		goto out_unlock;
	}
	if (a.tail - pipe->head > pipe->size) {
		ring_err(rf, "pipe send: tail %llu is not within the pipe past its head %llu",
			 a.tail, pipe->head);
		goto out_unlock;
	}
	for (h = pipe->head; h != a.tail && n < NICPROG_SEND_BATCH; n++) {
		rec = (struct nicprog_rec *)(pipe->data +
					     (h & (pipe->size - 1)));
		len = READ_ONCE(rec->len);
		need = ALIGN((u64)sizeof(*rec) + len, NICPROG_REC_ALIGN);
		if (len < NICPROG_FRAME_MIN || len > NICPROG_FRAME_MAX ||
		    need > a.tail - h) {
			ring_err(rf, "pipe send: record at %llu of %u bytes is not a frame within the tail",
				 h, len);
			goto out_unlock;
		}
		rf->send_lens[n] = len;
		h += need;
	}
	/* the records are in the pipe's pages: no user memory from here */
	err = nicprog_ring_enter(nd, nonblock);
	if (err)
		goto out_unlock;
	xerr = nicprog_ring_may_act(rf, file, "pipe send");
	if (!xerr && !nd->ops->ring_xmit)
		xerr = -EOPNOTSUPP;
	for (i = 0; i < n && !xerr; i++) {
		h = pipe->head & (pipe->size - 1);
		xerr = nd->ops->ring_xmit(nd, pipe->data + h + sizeof(*rec),
					  rf->send_lens[i]);
		if (xerr)
			break;
		pipe->head += ALIGN(sizeof(*rec) + rf->send_lens[i],
				    NICPROG_REC_ALIGN);
	}
	nicprog_ring_leave(nd);
	/* the head after the sends: the space is the application's again */
	smp_store_release(&pipe->ctrl->head, pipe->head);
	/* records sent; the NIC's refusal only if it took none */
	err = i ? i : xerr;
out_unlock:
	mutex_unlock(&rf->lock);
	return err;
}

static int nicprog_wait_cmd(struct nicprog_ring_file *rf,
			    const struct nicprog_uring_cmd *c,
			    struct io_uring_cmd *ioucmd, bool nonblock)
{
	struct nicprog_wait a;
	int err;

	err = nicprog_ring_args(c, &a, sizeof(a));
	if (err)
		return err;
	if (a.flags || !a.timeout_ms || a.timeout_ms > NICPROG_WAIT_TIMEOUT_MAX) {
		ring_err(rf, "wait: flags must be 0, the timeout 1..%u ms",
			 NICPROG_WAIT_TIMEOUT_MAX);
		return -EINVAL;
	}
	return nicprog_notif_wait(rf, ioucmd, a.timeout_ms, nonblock);
}

/*
 * NICPROG_OP_FEATURES: what this kernel takes, from the same constants
 * the commands check against. Touches no driver: answers on a dead port.
 */
static int nicprog_features_cmd(struct nicprog_ring_file *rf,
				const struct nicprog_uring_cmd *c)
{
	struct nicprog_features a;
	int err;

	err = nicprog_ring_args(c, &a, sizeof(a));
	if (err)
		return err;
	if (memchr_inv(&a, 0, sizeof(a))) {
		ring_err(rf, "features: every field is out, pass them zero");
		return -EINVAL;
	}
	a.ops = GENMASK_ULL(__NICPROG_OP_MAX - 1, NICPROG_OP_UNSPEC + 1);
	a.cmd_flags = NICPROG_CMD_F_ALL;
	a.pipe_flags = NICPROG_PIPE_F_ALL;
	a.bind_flags = NICPROG_BIND_F_ALL;
	a.dirs = GENMASK(__NICPROG_PIPE_DIR_MAX - 1, NICPROG_PIPE_DIR_UNSPEC + 1);
	a.framings = GENMASK(__NICPROG_FRAMING_MAX - 1,
			     NICPROG_FRAMING_UNSPEC + 1);
	a.ring_version = NICPROG_RING_VERSION;
	a.outputs = NICPROG_RING_OUTPUTS;
	a.pipe_size_min = max_t(u32, NICPROG_PIPE_SIZE_MIN, PAGE_SIZE);
	a.pipe_size_max = NICPROG_PIPE_SIZE_MAX;
	a.file_pipes = NICPROG_RING_FILE_PIPES;
	a.file_bytes = NICPROG_RING_FILE_BYTES;
	a.file_bufs = NICPROG_MEM_FILE_BUFS;
	a.copy_max = NICPROG_MEM_COPY_MAX;
	a.buf_max = NICPROG_MEM_BUF_MAX;
	return nicprog_ring_out(c, &a, sizeof(a));
}

/*
 * NICPROG_OP_RESTRICT: the file keeps what it had of @allow. Any file
 * may narrow itself; nothing ever widens one.
 */
static int nicprog_restrict_cmd(struct nicprog_ring_file *rf,
				const struct nicprog_uring_cmd *c)
{
	struct nicprog_restrict a;
	int err;

	err = nicprog_ring_args(c, &a, sizeof(a));
	if (err)
		return err;
	if (a.flags || (a.allow & ~NICPROG_ALLOW_ALL)) {
		ring_err(rf, "restrict: flags must be 0, allow within NICPROG_ALLOW_ALL (%#x)",
			 (u32)NICPROG_ALLOW_ALL);
		return -EINVAL;
	}
	mutex_lock(&rf->lock);
	WRITE_ONCE(rf->allow, rf->allow & a.allow);
	a.allow = rf->allow;
	mutex_unlock(&rf->lock);
	return nicprog_ring_out(c, &a, sizeof(a));
}

/* The classes of which a command needs one (0: any file may issue it). */
static const u8 nicprog_op_classes[__NICPROG_OP_MAX] = {
	[NICPROG_OP_PIPE_CREATE]	= NICPROG_ALLOW_PIPES,
	[NICPROG_OP_PIPE_DESTROY]	= NICPROG_ALLOW_PIPES,
	[NICPROG_OP_PIPE_BIND]		= NICPROG_ALLOW_STEER,
	[NICPROG_OP_PIPE_UNBIND]	= NICPROG_ALLOW_STEER,
	[NICPROG_OP_WAIT]		= NICPROG_ALLOW_RX | NICPROG_ALLOW_TX,
	[NICPROG_OP_PIPE_SEND]		= NICPROG_ALLOW_TX,
	[NICPROG_OP_MEM_ALLOC]		= NICPROG_ALLOW_MEM,
	[NICPROG_OP_MEM_FREE]		= NICPROG_ALLOW_MEM,
	[NICPROG_OP_MEM_COPY]		= NICPROG_ALLOW_MEM,
	[NICPROG_OP_QP_CREATE]		= NICPROG_ALLOW_RDMA,
	[NICPROG_OP_QP_CONNECT]		= NICPROG_ALLOW_RDMA,
	[NICPROG_OP_QP_DESTROY]		= NICPROG_ALLOW_RDMA,
	[NICPROG_OP_MR_REG]		= NICPROG_ALLOW_RDMA,
	[NICPROG_OP_MR_DEREG]		= NICPROG_ALLOW_RDMA,
	[NICPROG_OP_POST]		= NICPROG_ALLOW_RDMA,
	[NICPROG_OP_POLL]		= NICPROG_ALLOW_RDMA,
	[NICPROG_OP_KERNEL_LOAD]	= NICPROG_ALLOW_JOBS,
	[NICPROG_OP_KERNEL_UNLOAD]	= NICPROG_ALLOW_JOBS,
	[NICPROG_OP_JOB]		= NICPROG_ALLOW_JOBS,
};

/*
 * The operation a cmd_op encodes (enum nicprog_ring_op), or
 * NICPROG_OP_UNSPEC for anything that is not exactly one of the
 * NICPROG_U_OP_* codes.
 */
static unsigned int nicprog_ring_op(u32 cmd_op)
{
	unsigned int nr = _IOC_NR(cmd_op);

	if (nr == NICPROG_OP_UNSPEC || nr >= __NICPROG_OP_MAX ||
	    cmd_op != _IOWR(NICPROG_RING_IOC_MAGIC, nr,
			    struct nicprog_uring_cmd))
		return NICPROG_OP_UNSPEC;
	/* it indexes nicprog_op_classes[] */
	return array_index_nospec(nr, __NICPROG_OP_MAX);
}

static int nicprog_ring_cmd(struct io_uring_cmd *ioucmd,
			    unsigned int issue_flags)
{
	struct nicprog_ring_file *rf = ioucmd->file->private_data;
	bool nonblock = issue_flags & IO_URING_F_NONBLOCK;
	unsigned int op = nicprog_ring_op(ioucmd->cmd_op);
	struct nicprog_uring_cmd c;

	/* the command area of the SQE, 16 bytes in a 64-byte SQE */
	BUILD_BUG_ON(sizeof(c) != 16);
	BUILD_BUG_ON(_IOC_SIZE(NICPROG_U_OP_PIPE_SEND) != sizeof(c));
	/* every argument struct fits what nicprog_ring_args() copies */
	BUILD_BUG_ON(sizeof(struct nicprog_pipe_create) > PAGE_SIZE);
	BUILD_BUG_ON(sizeof(struct nicprog_features) > PAGE_SIZE);
	BUILD_BUG_ON(__NICPROG_OP_MAX > 64);
	BUILD_BUG_ON(NICPROG_ALLOW_ALL > U8_MAX);

	if (op == NICPROG_OP_UNSPEC) {
		ring_err(rf, "command 0x%x unknown (not a NICPROG_U_OP_* code)",
			 ioucmd->cmd_op);
		return -EINVAL;
	}
	/* the command area may be the submission ring, which userspace writes */
	memcpy(&c, nicprog_uring_cmd_payload(ioucmd), sizeof(c));
	if (c.flags & ~NICPROG_CMD_F_ALL) {
		ring_err(rf, "command %u: flags 0x%x unknown", op, c.flags);
		return -EINVAL;
	}
	if (nicprog_op_classes[op] &&
	    !(nicprog_op_classes[op] & READ_ONCE(rf->allow))) {
		ring_err(rf, "command %u: the file was restricted to classes %#x, not %#x",
			 op, READ_ONCE(rf->allow), nicprog_op_classes[op]);
		return -EPERM;
	}
	if (op == NICPROG_OP_FEATURES)
		return nicprog_features_cmd(rf, &c);
	if (op == NICPROG_OP_RESTRICT)
		return nicprog_restrict_cmd(rf, &c);
	if (nicprog_ring_dead(rf))
		return -ENODEV;
	switch (op) {
	case NICPROG_OP_PIPE_CREATE:
		if (nonblock)
			return -EAGAIN;
		return nicprog_pipe_create_cmd(rf, &c);
	case NICPROG_OP_PIPE_DESTROY:
		if (nonblock)
			return -EAGAIN;
		return nicprog_pipe_destroy_cmd(rf, &c);
	case NICPROG_OP_PIPE_BIND:
	case NICPROG_OP_PIPE_UNBIND:
		if (nonblock)
			return -EAGAIN;
		return nicprog_pipe_bind_cmd(rf, ioucmd->file, &c,
					     op == NICPROG_OP_PIPE_BIND);
	case NICPROG_OP_WAIT:
		return nicprog_wait_cmd(rf, &c, ioucmd, nonblock);
	case NICPROG_OP_PIPE_SEND:
		return nicprog_pipe_send_cmd(rf, ioucmd->file, &c, nonblock);
	}
	if (op >= NICPROG_OP_QP_CREATE && op <= NICPROG_OP_POLL)
		return nicprog_rdma_cmd(rf, ioucmd->file, op, &c, ioucmd,
					nonblock);
	/* NIC memory and jobs: slow path, may fault and sleep */
	if (nonblock)
		return -EAGAIN;
	switch (op) {
	case NICPROG_OP_KERNEL_LOAD:
		return nicprog_kernel_load_cmd(rf, ioucmd->file, &c);
	case NICPROG_OP_KERNEL_UNLOAD:
		return nicprog_kernel_unload_cmd(rf, &c);
	case NICPROG_OP_JOB:
		return nicprog_job_cmd(rf, ioucmd->file, &c, ioucmd);
	case NICPROG_OP_MEM_ALLOC:
		return nicprog_mem_alloc_cmd(rf, ioucmd->file, &c);
	case NICPROG_OP_MEM_FREE:
		return nicprog_mem_free_cmd(rf, &c);
	case NICPROG_OP_MEM_COPY:
		return nicprog_mem_copy_cmd(rf, &c, ioucmd);
	}
	return -EINVAL;	/* not reached: nicprog_ring_op() knows every op */
}

/*
 * Every command completes here, whatever path io_uring issued it on.
 * Linux 6.1 posts a result returned from ->uring_cmd() only when it is
 * issued inline, and then as a failure (which cancels the commands linked
 * after it, success or not); from its worker thread (IOSQE_ASYNC, or a
 * retry after -EAGAIN) it posts negative results only, so a positive one
 * -- records sent, entries waiting -- would never complete and its request
 * would hold the file for good. io_uring_cmd_done() posts any result on
 * both paths, as ublk completes its commands.
 */
static int nicprog_ring_uring_cmd(struct io_uring_cmd *ioucmd,
				  unsigned int issue_flags)
{
	int res = nicprog_ring_cmd(ioucmd, issue_flags);

	/* parked (notify.c completes it), or to be retried where it may sleep */
	if (res == -EIOCBQUEUED ||
	    (res == -EAGAIN && (issue_flags & IO_URING_F_NONBLOCK)))
		return res;
	io_uring_cmd_done(ioucmd, res, 0, issue_flags);
	return -EIOCBQUEUED;
}

static int nicprog_ring_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct nicprog_ring_file *rf = file->private_data;
	u64 off = (u64)vma->vm_pgoff << PAGE_SHIFT;
	struct nicprog_pipe *pipe;
	int err = -EINVAL;

	if (!(vma->vm_flags & VM_SHARED) || (vma->vm_flags & VM_EXEC) ||
	    off & (BIT_ULL(NICPROG_PIPE_MMAP_SHIFT) - 1)) {
		ring_err(rf, "mmap: a pipe maps shared, not executable, at its mmap_off");
		return -EINVAL;
	}
	if (!(READ_ONCE(rf->allow) & (NICPROG_ALLOW_RX | NICPROG_ALLOW_TX))) {
		ring_err(rf, "mmap: the file was restricted to classes %#x, without RX or TX",
			 READ_ONCE(rf->allow));
		return -EPERM;
	}
	if (!off) {		/* the notification ring */
		if (vma->vm_end - vma->vm_start != NICPROG_NOTIF_MMAP_LEN) {
			ring_err(rf, "mmap: the notification ring maps %u bytes",
				 NICPROG_NOTIF_MMAP_LEN);
			return -EINVAL;
		}
		return nicprog_notif_mmap(rf, vma);
	}
	mutex_lock(&rf->lock);
	pipe = xa_load(&rf->pipes, off >> NICPROG_PIPE_MMAP_SHIFT);
	if (!pipe)
		ring_err(rf, "mmap: no pipe at offset %#llx", off);
	else if (vma->vm_end - vma->vm_start != PAGE_SIZE + 2UL * pipe->size)
		ring_err(rf, "mmap: pipe %u maps %lu bytes, not %lu",
			 pipe->id, PAGE_SIZE + 2UL * pipe->size,
			 vma->vm_end - vma->vm_start);
	else
		err = nicprog_pipe_mmap(pipe, vma);
	mutex_unlock(&rf->lock);
	return err;
}

static int nicprog_ring_open(struct inode *inode, struct file *file)
{
	struct nicprog_dev *nd = container_of(inode->i_cdev, struct nicprog_dev,
					      cdev);
	struct nicprog_ring_file *rf;

	if (READ_ONCE(nd->ring_dead))
		return -ENODEV;
	/* the opener's memory cgroup pays for the file and its pipes */
	rf = kzalloc(sizeof(*rf), NICPROG_RING_GFP);
	if (!rf)
		return -ENOMEM;
	rf->send_lens = kcalloc(NICPROG_SEND_BATCH, sizeof(u32),
				NICPROG_RING_GFP);
	if (!rf->send_lens || nicprog_notif_init(rf)) {
		kfree(rf->send_lens);
		kfree(rf);
		return -ENOMEM;
	}
	rf->nd = nd;
	rf->allow = NICPROG_ALLOW_ALL;
	mutex_init(&rf->lock);
	xa_init_flags(&rf->pipes, XA_FLAGS_ALLOC1 | XA_FLAGS_ACCOUNT);
	xa_init_flags(&rf->bufs, XA_FLAGS_ALLOC1 | XA_FLAGS_ACCOUNT);
	xa_init_flags(&rf->qps, XA_FLAGS_ACCOUNT);
	xa_init_flags(&rf->mrs, XA_FLAGS_ACCOUNT);
	xa_init_flags(&rf->kernels, XA_FLAGS_ALLOC1 | XA_FLAGS_ACCOUNT);
	mutex_lock(&nd->ring_lock);
	if (nd->ring_dead) {
		mutex_unlock(&nd->ring_lock);
		nicprog_notif_free(rf);
		kfree(rf->send_lens);
		kfree(rf);
		return -ENODEV;
	}
	list_add_tail(&rf->node, &nd->ring_files);
	mutex_unlock(&nd->ring_lock);
	get_device(&nd->dev);
	file->private_data = rf;
	return nonseekable_open(inode, file);
}

static int nicprog_ring_release(struct inode *inode, struct file *file)
{
	struct nicprog_ring_file *rf = file->private_data;
	struct nicprog_pipe *pipe;
	unsigned long id;

	/* RTNL: the NIC's memory accounting (mem.c) */
	rtnl_lock();
	mutex_lock(&rf->nd->ring_lock);
	list_del(&rf->node);
	if (!rf->nd->ring_dead)
		nicprog_mem_release(rf);
	mutex_unlock(&rf->nd->ring_lock);
	rtnl_unlock();
	nicprog_rdma_free(rf);
	nicprog_kernel_release(rf);
	xa_destroy(&rf->bufs);
	mutex_lock(&rf->lock);
	xa_for_each(&rf->pipes, id, pipe)
		nicprog_pipe_destroy(rf, id);
	mutex_unlock(&rf->lock);
	xa_destroy(&rf->pipes);
	mutex_destroy(&rf->lock);
	/* no command is in flight: io_uring holds the file until done */
	nicprog_notif_free(rf);
	kfree(rf->send_lens);
	put_device(&rf->nd->dev);
	kfree(rf);
	return 0;
}

static __poll_t nicprog_ring_poll(struct file *file, poll_table *pt)
{
	return nicprog_notif_poll(file->private_data, file, pt);
}

static const struct file_operations nicprog_ring_fops = {
	.owner		= THIS_MODULE,
	.open		= nicprog_ring_open,
	.release	= nicprog_ring_release,
	.mmap		= nicprog_ring_mmap,
	.poll		= nicprog_ring_poll,
	.uring_cmd	= nicprog_ring_uring_cmd,
};

/*
 * &nicprog_ring_ops.port_gone: open files stay open; parked waits
 * complete with ENODEV, and so does every command from here on.
 */
static void nicprog_ring_port_gone(struct nicprog_dev *nd)
{
	struct nicprog_ring_file *rf;
	struct nicprog_pipe *pipe;
	u32 i;

	mutex_lock(&nd->ring_lock);
	WRITE_ONCE(nd->ring_dead, true);
	/* the driver no longer delivers: the pipes stay their files' */
	for (i = 0; i < NICPROG_RING_OUTPUTS; i++) {
		pipe = rcu_dereference_protected(nd->ring_out[i],
						 lockdep_is_held(&nd->ring_lock));
		if (pipe)
			pipe->output = 0;
		RCU_INIT_POINTER(nd->ring_out[i], NULL);
	}
	/* no datapath append to a pipe its file may free from here on */
	synchronize_rcu();
	/*
	 * parked waits end now: their files are the applications' still;
	 * their buffers in NIC memory go with the driver
	 */
	list_for_each_entry(rf, &nd->ring_files, node) {
		nicprog_notif_cancel(rf, -ENODEV);
		nicprog_mem_release(rf);
	}
	mutex_unlock(&nd->ring_lock);
}

/*
 * The pipe bound to a program's redirect target, under the caller's RCU
 * read side; *@out is the output. The target is a user's value on the
 * datapath: the index is clamped against speculation too.
 */
static struct nicprog_pipe *nicprog_ring_target(struct nicprog_dev *nd,
						u32 target, u32 *out)
{
	u32 o = target & ~NICPROG_PIPE_TARGET_BIT;

	if (!(target & NICPROG_PIPE_TARGET_BIT) || o >= NICPROG_RING_OUTPUTS)
		return NULL;
	*out = array_index_nospec(o, NICPROG_RING_OUTPUTS);
	return rcu_dereference(nd->ring_out[*out]);
}

/**
 * nicprog_ring_deliver() - append a frame an NF steered to an output
 * @nd: the port whose program steered it
 * @target: the program's redirect target, NICPROG_PIPE_TARGET(output)
 * @buf: the frame's bytes
 * @len: their length
 * @more: the caller has more frames to deliver and will call
 *	nicprog_ring_flush(): the notification waits for it (as
 *	XDP_XMIT_FLUSH waits for the last frame of a batch), unless the
 *	pipe was bound with NICPROG_BIND_PREFETCH
 *
 * The driver's datapath calls this for an XDP_REDIRECT whose target has
 * NICPROG_PIPE_TARGET_BIT set, as it would DMA the frame into host memory.
 * The bytes are visible to the application at once either way.
 *
 * Context: BH or process, under rcu_read_lock().
 * Return: 0; -ENOENT if no pipe is bound to the output (the frame is an
 * invalid redirect), -ENOSPC if the pipe had no room (counted there),
 * -EAGAIN if it had none and is bound with NICPROG_BIND_BACKPRESSURE: the
 * driver holds the frame, taking no other, and delivers it again, or
 * gives up on it with nicprog_ring_drop() after a bound of its own.
 */
int nicprog_ring_deliver(struct nicprog_dev *nd, u32 target,
			 const void *buf, u32 len, bool more)
{
	struct nicprog_pipe *pipe;
	u32 out;
	int err;

	pipe = nicprog_ring_target(nd, target, &out);
	if (!pipe)
		return -ENOENT;
	more &= !READ_ONCE(pipe->prefetch);
	err = nicprog_pipe_append(pipe, buf, len, more);
	if (!err && more && !test_bit(out, nd->ring_due))
		set_bit(out, nd->ring_due);
	if (err == -ENOSPC)
		nicprog_event_ring_drop(nd, out, len);
	return err;
}
EXPORT_SYMBOL_GPL(nicprog_ring_deliver);

/**
 * nicprog_ring_drop() - count a frame for an output the driver gave up on
 * @nd: the port
 * @target: the program's redirect target, NICPROG_PIPE_TARGET(output)
 * @len: the frame's length
 *
 * For a frame nicprog_ring_deliver() refused with -EAGAIN: counted in the
 * drops of the pipe bound to the output, if one still is.
 *
 * Context: BH or process, under rcu_read_lock().
 * Return: 0, or -ENOENT if no pipe is bound to the output.
 */
int nicprog_ring_drop(struct nicprog_dev *nd, u32 target, u32 len)
{
	struct nicprog_pipe *pipe;
	u32 out;

	pipe = nicprog_ring_target(nd, target, &out);
	if (!pipe)
		return -ENOENT;
	nicprog_pipe_drop(pipe, len);
	nicprog_event_ring_drop(nd, out, len);
	return 0;
}
EXPORT_SYMBOL_GPL(nicprog_ring_drop);

/**
 * nicprog_ring_flush() - post the notifications deliveries deferred
 * @nd: the port
 *
 * A driver that passed @more to nicprog_ring_deliver() calls this at the
 * end of its batch at the latest; it may flush others' deferred
 * notifications early, which only wakes their applications sooner.
 *
 * Context: BH or process, under rcu_read_lock().
 */
void nicprog_ring_flush(struct nicprog_dev *nd)
{
	struct nicprog_pipe *pipe;
	u32 out;

	for_each_set_bit(out, nd->ring_due, NICPROG_RING_OUTPUTS) {
		if (!test_and_clear_bit(out, nd->ring_due))
			continue;
		pipe = rcu_dereference(nd->ring_out[out]);
		if (pipe)
			nicprog_pipe_notify(pipe);
	}
}
EXPORT_SYMBOL_GPL(nicprog_ring_flush);

/* &nicprog_ring_ops.output_stats */
static bool nicprog_ring_output_stats(struct nicprog_dev *nd, u32 out,
				      struct nicprog_pipe_stats *st)
{
	struct nicprog_pipe *pipe;

	rcu_read_lock();
	pipe = rcu_dereference(nd->ring_out[out]);
	if (pipe)
		nicprog_pipe_stats(pipe, st);
	rcu_read_unlock();
	return pipe;
}

static const struct nicprog_ring_ops nicprog_ring_module_ops = {
	.owner		= THIS_MODULE,
	.fops		= &nicprog_ring_fops,
	.port_gone	= nicprog_ring_port_gone,
	.output_stats	= nicprog_ring_output_stats,
};

static int __init nicprog_ring_init(void)
{
	return nicprog_ring_ops_register(&nicprog_ring_module_ops);
}

static void __exit nicprog_ring_exit(void)
{
	nicprog_ring_ops_unregister(&nicprog_ring_module_ops);
}

module_init(nicprog_ring_init);
module_exit(nicprog_ring_exit);
MODULE_DESCRIPTION("nicprog: streaming rings, NIC memory, lookaside jobs and RDMA on a port's device node");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(NICPROG_INTERNAL);
