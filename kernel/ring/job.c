// SPDX-License-Identifier: GPL-2.0
/*
 * Lookaside kernels (after RecoNIC's compute blocks): XDP programs loaded
 * for the NIC that run jobs a file posts -- a kernel id, windows of the
 * file's NIC buffers and scalars -- on the NIC's cores
 * (NICPROG_OP_KERNEL_LOAD, _UNLOAD, NICPROG_OP_JOB).
 *
 * A kernel is a program the verifier and nicprog's offload checks passed
 * for the NIC (prog_ifindex one of its ports): the executor runs it. It
 * keeps no maps and calls no helper only the host has, so it needs
 * nothing of the program's offload state once loaded: the file holds a
 * copy of its instructions and a reference to the program (which bpftool
 * shows), in its kernels, changed under the port's ring_lock.
 *
 * A job is checked, framed and run inside ring_lock, which keeps the
 * file's buffers and the driver: its windows are copied out of their
 * buffers into the frame (struct nicprog_job_frame, then each window),
 * the driver's core runs the kernel on it, and the written windows are
 * copied back. The CQE comes when the core would be done: an hrtimer,
 * then io_uring's task work, as a MEM_COPY completes (mem.c). Nothing of
 * the job but its timer outlives the command's issue, so a job in flight
 * holds no buffer, kernel or port.
 */
#include <linux/bpf.h>
#include <linux/filter.h>
#include <linux/hrtimer.h>
#include <linux/nospec.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <net/nicprog_compat.h>

#include "../nicprog.h"
#include "ring.h"

/**
 * struct nicprog_job_done - a NICPROG_OP_JOB whose core is still busy
 * @timer: fires when the NIC's core is done
 * @ioucmd: the command; its pdu points here
 * @res: its result
 * @frame: with written host windows, the frame they go back from, in the
 *	submitter's task at completion; else NULL
 * @n_host: entries in @host
 * @host: the written host windows: user address, place in @frame, bytes
 */
struct nicprog_job_done {
	struct hrtimer timer;
	struct io_uring_cmd *ioucmd;
	int res;
	u8 *frame;
	u32 n_host;
	struct {
		u64 addr;
		u32 off;
		u32 len;
	} host[NICPROG_JOB_BUFS];
};

static struct nicprog_job_done **job_of(struct io_uring_cmd *ioucmd)
{
	BUILD_BUG_ON(sizeof(struct nicprog_job_done *) > sizeof(ioucmd->pdu));
	return (struct nicprog_job_done **)ioucmd->pdu;
}

static void nicprog_kernel_free(struct nicprog_kernel *k)
{
	bpf_prog_put(k->prog);
	kvfree(k->exec.insns);
	kvfree(k->exec.flags);
	kfree(k);
}

/**
 * nicprog_kernel_insns() - a kernel's instructions, as verified
 * @k: the kernel
 * @len: out: their number
 *
 * For a driver whose cores run an instruction set of their own.
 * Context: any.
 * Return: the instructions, valid for the duration of the op's call.
 */
const struct bpf_insn *nicprog_kernel_insns(const struct nicprog_kernel *k,
					    u32 *len)
{
	*len = k->exec.len;
	return k->exec.insns;
}
EXPORT_SYMBOL_GPL(nicprog_kernel_insns);

static bool nicprog_jobs_offered(const struct nicprog_dev *nd)
{
	return nd->ops->job_ops && nd->ops->mem_ops &&
	       nd->ops->mem_ops->access;
}

/* Copy what the executor needs of @np: instructions and their flags. */
static int nicprog_kernel_fill(struct nicprog_ring_file *rf,
			       struct nicprog_kernel *k, struct bpf_prog *prog)
{
	struct nicprog_prog *np = prog->aux->offload->dev_priv;
	struct bpf_insn *insns;
	u8 *flags;

	if (!np || !np->insns) {
		ring_err(rf, "kernel load: program %u was not prepared for this NIC",
			 prog->aux->id);
		return -EINVAL;
	}
	if (np->n_maps || np->partial) {
		ring_err(rf, "kernel load: program %u uses %s: a kernel's state is its buffers, and it runs on the NIC alone",
			 prog->aux->id, np->n_maps ? "maps" :
			 "helpers only the host has");
		return -EINVAL;
	}
	insns = kvmalloc_array(np->len, sizeof(*insns), GFP_KERNEL);
	flags = kvmalloc(np->len, GFP_KERNEL);
	if (!insns || !flags) {
		kvfree(insns);
		kvfree(flags);
		return -ENOMEM;
	}
	memcpy(insns, np->insns, np->len * sizeof(*insns));
	memcpy(flags, np->flags, np->len);
	k->exec = np->exec;
	k->exec.insns = insns;
	k->exec.flags = flags;
	return 0;
}

/**
 * nicprog_kernel_load_cmd() - NICPROG_OP_KERNEL_LOAD
 * @rf: the file
 * @file: it, whose opener's privilege counts
 * @c: the command area
 *
 * Context: process, may sleep; no lock held.
 * Return: 0, or -errno with the cause traced.
 */
int nicprog_kernel_load_cmd(struct nicprog_ring_file *rf, struct file *file,
			    const struct nicprog_uring_cmd *c)
{
	struct nicprog_dev *nd = rf->nd;
	struct nicprog_kernel_load a;
	struct nicprog_kernel *k;
	struct bpf_prog *prog;
	int err;

	err = nicprog_ring_args(c, &a, sizeof(a));
	if (err)
		return err;
	if (a.flags || a.id || a.__rsvd) {
		ring_err(rf, "kernel load: flags and out fields must be 0");
		return -EINVAL;
	}
	prog = bpf_prog_get_type_dev(a.prog_fd, BPF_PROG_TYPE_XDP, true);
	if (IS_ERR(prog)) {
		ring_err(rf, "kernel load: fd %u is not an XDP program", a.prog_fd);
		return PTR_ERR(prog);
	}
	k = kzalloc(sizeof(*k), NICPROG_RING_GFP);
	if (!k) {
		bpf_prog_put(prog);
		return -ENOMEM;
	}
	k->prog = prog;
	/* RTNL: the program's offload state stays (it moves under RTNL) */
	if (rtnl_lock_killable()) {
		err = -EINTR;
		goto out_free;
	}
	err = nicprog_ring_enter(nd, false);
	if (err)
		goto out_rtnl;
	err = nicprog_ring_may_act(rf, file, "kernel load");
	if (err)
		goto out_leave;
	if (!nicprog_jobs_offered(nd)) {
		ring_err(rf, "kernel load: the NIC's driver runs no lookaside kernels");
		err = -EOPNOTSUPP;
		goto out_leave;
	}
	if (!bpf_offload_dev_match(prog, nd->netdev)) {
		ring_err(rf, "kernel load: program %u is not loaded for this NIC (prog_ifindex one of its ports)",
			 prog->aux->id);
		err = -EINVAL;
		goto out_leave;
	}
	if (rf->n_kernels >= NICPROG_KERNELS_MAX) {
		ring_err(rf, "kernel load: the file holds %u kernels already",
			 NICPROG_KERNELS_MAX);
		err = -EMFILE;
		goto out_leave;
	}
	err = nicprog_kernel_fill(rf, k, prog);
	if (err)
		goto out_leave;
	err = nicprog_alloc_kernel_get(nd);
	if (err) {
		ring_err(rf, "kernel load: every core of the NIC runs a plan, none is free for jobs (lower a port's cores: nicprog dev set dev IFNAME cores N)");
		goto out_leave;
	}
	err = xa_alloc(&rf->kernels, &k->id, k, xa_limit_31b, NICPROG_RING_GFP);
	if (err) {
		nicprog_alloc_kernel_put(nd);
		goto out_leave;
	}
	rf->n_kernels++;
	a.id = k->id;
	k = NULL;
out_leave:
	nicprog_ring_leave(nd);
out_rtnl:
	rtnl_unlock();
out_free:
	if (k)
		nicprog_kernel_free(k);
	if (!err)
		err = nicprog_ring_out(c, &a, sizeof(a));
	/* a kernel whose id could not be told stays the file's until close */
	return err;
}

/**
 * nicprog_kernel_unload_cmd() - NICPROG_OP_KERNEL_UNLOAD
 * @rf: the file
 * @c: the command area
 *
 * Context: process, may sleep; no lock held.
 * Return: 0, or -errno (-ENOENT: no such kernel of the file).
 */
int nicprog_kernel_unload_cmd(struct nicprog_ring_file *rf,
			      const struct nicprog_uring_cmd *c)
{
	struct nicprog_kernel_unload a;
	struct nicprog_kernel *k;
	int err;

	err = nicprog_ring_args(c, &a, sizeof(a));
	if (err)
		return err;
	if (a.flags) {
		ring_err(rf, "kernel unload: flags must be 0");
		return -EINVAL;
	}
	/* RTNL: the port's kernels' core goes with its last kernel */
	if (rtnl_lock_killable())
		return -EINTR;
	err = nicprog_ring_enter(rf->nd, false);
	if (err) {
		rtnl_unlock();
		return err;
	}
	k = xa_erase(&rf->kernels, a.id);
	if (k) {
		rf->n_kernels--;
		nicprog_alloc_kernel_put(rf->nd);
	} else {
		ring_err(rf, "kernel unload: the file has no kernel %u", a.id);
	}
	nicprog_ring_leave(rf->nd);
	rtnl_unlock();
	if (!k)
		return -ENOENT;
	/* no job runs it: jobs run inside ring_lock */
	nicprog_kernel_free(k);
	return 0;
}

/**
 * nicprog_kernel_release() - unload every kernel of a closing file
 * @rf: the file
 *
 * Context: process, no lock held (the last program reference may free
 * the program, which takes the BPF offload lock).
 */
void nicprog_kernel_release(struct nicprog_ring_file *rf)
{
	struct nicprog_kernel *k;
	unsigned long id;

	if (rf->n_kernels) {
		rtnl_lock();
		while (rf->n_kernels) {
			rf->n_kernels--;
			nicprog_alloc_kernel_put(rf->nd);
		}
		rtnl_unlock();
	}
	xa_for_each(&rf->kernels, id, k) {
		xa_erase(&rf->kernels, id);
		nicprog_kernel_free(k);
	}
	xa_destroy(&rf->kernels);
}

/*
 * In the submitter's task (a kworker's, without its memory, if the task
 * is exiting: the copy faults then): the written host windows go back.
 */
static void nicprog_job_done(struct io_uring_cmd *ioucmd,
			     unsigned int issue_flags)
{
	struct nicprog_job_done *jd = *job_of(ioucmd);
	int res = jd->res;
	u32 i;

	hrtimer_cancel(&jd->timer);	/* its callback has returned */
	for (i = 0; i < jd->n_host; i++)
		if (copy_to_user(u64_to_user_ptr(jd->host[i].addr),
				 jd->frame + jd->host[i].off, jd->host[i].len))
			res = -EFAULT;
	kvfree(jd->frame);
	kfree(jd);
	io_uring_cmd_done(ioucmd, res, 0, issue_flags);
}

static enum hrtimer_restart nicprog_job_timer(struct hrtimer *t)
{
	struct nicprog_job_done *jd =
		container_of(t, struct nicprog_job_done, timer);

	io_uring_cmd_complete_in_task(jd->ioucmd, nicprog_job_done);
	return HRTIMER_NORESTART;
}

/*
 * The windows' places in the frame, each at a multiple of 8 after the
 * header; the frame's length, or 0 when the windows are malformed.
 */
static u32 nicprog_job_layout(struct nicprog_ring_file *rf,
			      struct nicprog_job *a,
			      struct nicprog_job_frame *hdr)
{
	u64 off = sizeof(*hdr);
	u32 i, posts = 0;

	if (!a->n_bufs || a->n_bufs > NICPROG_JOB_BUFS) {
		ring_err(rf, "job: %u windows, not 1..%u", a->n_bufs,
			 NICPROG_JOB_BUFS);
		return 0;
	}
	/* every loop over the windows below runs to this user count */
	a->n_bufs = array_index_nospec(a->n_bufs, NICPROG_JOB_BUFS + 1);
	for (i = 0; i < a->n_bufs; i++) {
		const struct nicprog_job_buf *w = &a->bufs[i];

		if (w->flags & ~NICPROG_JOB_BUF_F_ALL) {
			ring_err(rf, "job: window %u: flags 0x%x unknown", i,
				 w->flags);
			return 0;
		}
		if ((w->flags & NICPROG_JOB_BUF_HOST) &&
		    (w->id || (w->flags & NICPROG_JOB_BUF_POST))) {
			ring_err(rf, "job: window %u: a host window names no buffer (id 0) and holds no WRs",
				 i);
			return 0;
		}
		if ((w->flags & NICPROG_JOB_BUF_POST) &&
		    (posts++ || w->len % sizeof(struct nicprog_rdma_wr) ||
		     w->len > NICPROG_RDMA_POST_MAX *
			      sizeof(struct nicprog_rdma_wr))) {
			ring_err(rf, "job: window %u: WRs to post: one window a job, of 1..%u WRs of %zu bytes",
				 i, NICPROG_RDMA_POST_MAX,
				 sizeof(struct nicprog_rdma_wr));
			return 0;
		}
		off = ALIGN(off, 8);
		if (!w->len || w->len > NICPROG_JOB_FRAME_MAX - off) {
			ring_err(rf, "job: window %u: %llu bytes; the frame holds %u in all",
				 i, w->len, NICPROG_JOB_FRAME_MAX);
			return 0;
		}
		hdr->bufs[i].off = off;
		hdr->bufs[i].len = w->len;
		off += w->len;
	}
	for (; i < NICPROG_JOB_BUFS; i++)
		if (a->bufs[i].id || a->bufs[i].flags || a->bufs[i].offset ||
		    a->bufs[i].len) {
			ring_err(rf, "job: window %u is past n_bufs (%u) and not zero",
				 i, a->n_bufs);
			return 0;
		}
	hdr->job_id = a->job_id;
	hdr->n_bufs = a->n_bufs;
	memcpy(hdr->args, a->args, sizeof(hdr->args));
	return off;
}

/* Do two windows' bytes meet? Without overflow: host addresses are any. */
static bool nicprog_job_overlap(const struct nicprog_job_buf *w,
				const struct nicprog_job_buf *v)
{
	return w->offset >= v->offset ? w->offset - v->offset < v->len :
					v->offset - w->offset < w->len;
}

/*
 * Windows in their buffers (host windows are copied in already); a
 * written one overlaps no other of its buffer, or of host memory.
 * ring_lock.
 */
static int nicprog_job_windows(struct nicprog_ring_file *rf,
			       const struct nicprog_job *a,
			       struct nicprog_buf **bufs)
{
	u32 i, j;

	for (i = 0; i < a->n_bufs; i++) {
		const struct nicprog_job_buf *w = &a->bufs[i];

		bufs[i] = NULL;
		if (w->flags & NICPROG_JOB_BUF_HOST)
			continue;	/* copied in already */
		bufs[i] = xa_load(&rf->bufs, w->id);
		if (!bufs[i]) {
			ring_err(rf, "job: window %u: the file has no buffer %u",
				 i, w->id);
			return -ENOENT;
		}
		if (w->offset > bufs[i]->size ||
		    w->len > bufs[i]->size - w->offset) {
			ring_err(rf, "job: window %u: %llu bytes at %llu pass the end of buffer %u (%llu bytes)",
				 i, w->len, w->offset, w->id, bufs[i]->size);
			return -EINVAL;
		}
	}
	for (i = 0; i < a->n_bufs; i++)
		for (j = 0; j < a->n_bufs; j++) {
			const struct nicprog_job_buf *w = &a->bufs[i];
			const struct nicprog_job_buf *v = &a->bufs[j];

			if (i == j || !(w->flags & NICPROG_JOB_BUF_WRITE) ||
			    w->id != v->id ||
			    ((w->flags ^ v->flags) & NICPROG_JOB_BUF_HOST) ||
			    !nicprog_job_overlap(w, v))
				continue;
			ring_err(rf, "job: window %u is written and overlaps window %u of %s",
				 i, j, w->flags & NICPROG_JOB_BUF_HOST ?
				 "host memory" : "its buffer");
			return -EINVAL;
		}
	return 0;
}

/*
 * The WRs a kernel left in its job's POST window, those with an opcode,
 * checked as NICPROG_OP_POST checks them and their QP the file's: into
 * *@out (kfree() it; NULL for none), their number into *@n. ring_lock.
 */
static int nicprog_job_wrs(struct nicprog_ring_file *rf,
			   const struct nicprog_job *a,
			   const struct nicprog_job_frame *hdr, const u8 *frame,
			   struct nicprog_rdma_wr **out, u32 *n)
{
	struct nicprog_rdma_wr *wrs = NULL, wr;
	u32 i, j, max = 0, off = 0;

	*out = NULL;
	*n = 0;
	for (i = 0; i < a->n_bufs; i++)
		if (a->bufs[i].flags & NICPROG_JOB_BUF_POST) {
			off = hdr->bufs[i].off;
			max = hdr->bufs[i].len / sizeof(wr);
		}
	for (j = 0; j < max; j++) {
		memcpy(&wr, frame + off + j * sizeof(wr), sizeof(wr));
		if (!wr.opcode)
			continue;
		if (!wrs) {
			wrs = kmalloc_array(max, sizeof(wr), NICPROG_RING_GFP);
			if (!wrs)
				return -ENOMEM;
		}
		wrs[(*n)++] = wr;
	}
	if (!*n)
		return 0;
	if (!rf->nd->ops->rdma_ops) {
		ring_err(rf, "job: kernel %u posts WRs; the NIC's driver has no RDMA engine",
			 a->kernel);
		kfree(wrs);
		return -EOPNOTSUPP;
	}
	if (nicprog_wrs_check(rf, "job", wrs, *n)) {
		kfree(wrs);
		return -EINVAL;
	}
	if (!xa_load(&rf->qps, wrs[0].qpn)) {
		ring_err(rf, "job: kernel %u posts on QP %u, which the file does not have",
			 a->kernel, wrs[0].qpn);
		kfree(wrs);
		return -ENOENT;
	}
	*out = wrs;
	return 0;
}

/* Frame, run and write back; the core's nanoseconds, or -errno. ring_lock. */
static s64 nicprog_job_run(struct nicprog_ring_file *rf,
			   const struct nicprog_job *a,
			   const struct nicprog_job_frame *hdr, u8 *frame,
			   u32 len, int *res)
{
	const struct nicprog_mem_ops *mops = rf->nd->ops->mem_ops;
	struct nicprog_buf *bufs[NICPROG_JOB_BUFS];
	struct nicprog_nic *nic = rf->nd->nic;
	struct nicprog_exec_result r = {};
	struct nicprog_exec_pkt pkt = {
		.buf = frame, .buf_len = len, .data_end = len,
		.ingress_ifindex = rf->nd->netdev->ifindex,
		.now_ns = NICPROG_EXEC_NIC_EPOCH_NS,
	};
	const struct nicprog_job_ops *jops = rf->nd->ops->job_ops;
	struct nicprog_rdma_wr *wrs;
	struct nicprog_kernel *k;
	u32 i, n_wrs;
	s64 ns, dma;
	u64 host = 0;
	int err;

	k = xa_load(&rf->kernels, a->kernel);
	if (!k) {
		ring_err(rf, "job: the file has no kernel %u", a->kernel);
		return -ENOENT;
	}
	err = nicprog_job_windows(rf, a, bufs);
	if (err)
		return err;
	for (i = 0; i < a->n_bufs; i++)
		if (a->bufs[i].flags & NICPROG_JOB_BUF_HOST)
			host += a->bufs[i].len *
				(a->bufs[i].flags & NICPROG_JOB_BUF_WRITE ? 2 : 1);
	if (host && !jops->host_dma) {
		ring_err(rf, "job: the NIC's driver moves no host memory to its cores (host windows)");
		return -EOPNOTSUPP;
	}
	memcpy(frame, hdr, sizeof(*hdr));
	for (i = 0; i < a->n_bufs; i++)
		if (bufs[i])
			mops->access(nic, bufs[i]->drv, a->bufs[i].offset,
				     frame + hdr->bufs[i].off, a->bufs[i].len,
				     false);
	dma = host ? jops->host_dma(nic, host) : 0;
	if (dma < 0) {
		ring_err(rf, "job: the NIC's DMA refused %llu bytes of host windows: %lld",
			 host, dma);
		return dma;
	}
	ns = jops->run(nic, k, &pkt, &r);
	if (ns < 0) {
		ring_err(rf, "job: the NIC's driver refused kernel %u: %lld",
			 a->kernel, ns);
		return ns;
	}
	/* the host windows cross before and after the core's run */
	ns += dma;
	if (r.error || !r.done) {
		ring_err(rf, "job: the NIC stopped kernel %u at instruction %u: %d",
			 a->kernel, r.error_insn, r.error);
		*res = -EFAULT;
		return ns;
	}
	/* nothing goes back when its WRs would be refused */
	err = nicprog_job_wrs(rf, a, hdr, frame, &wrs, &n_wrs);
	if (err) {
		*res = err;
		return ns;
	}
	/* written host windows go back at completion (nicprog_job_done()) */
	for (i = 0; i < a->n_bufs; i++)
		if ((a->bufs[i].flags & NICPROG_JOB_BUF_WRITE) && bufs[i])
			mops->access(nic, bufs[i]->drv, a->bufs[i].offset,
				     frame + hdr->bufs[i].off, a->bufs[i].len,
				     true);
	*res = r.ret & INT_MAX;
	/* after the windows went back: a WRITE of them sends what they hold */
	if (n_wrs) {
		err = nicprog_wrs_post(rf, "job", wrs, n_wrs);
		if (err < 0)
			*res = err;
		kfree(wrs);
	}
	return ns;
}

/*
 * A port's jobs share the one core its kernels hold (alloc.c): a job
 * starts when the one before it is done, so jobs from several threads or
 * files queue rather than finish together. @ns: the job's own time;
 * returns the nanoseconds until it completes. Inside the ring.
 */
static s64 nicprog_job_queue(struct nicprog_dev *nd, s64 ns)
{
	u64 now = ktime_get_ns();

	nd->job_busy = max(nd->job_busy, now) + ns;
	return nd->job_busy - now;
}

/*
 * Copy the host windows into @frame, and note the written ones in @jd for
 * the way back. Process context, no lock held.
 */
static int nicprog_job_host_in(struct nicprog_ring_file *rf,
			       const struct nicprog_job *a,
			       const struct nicprog_job_frame *hdr, u8 *frame,
			       struct nicprog_job_done *jd)
{
	const struct nicprog_job_buf *w;
	u32 i;

	for (i = 0; i < a->n_bufs; i++) {
		w = &a->bufs[i];
		if (!(w->flags & NICPROG_JOB_BUF_HOST))
			continue;
		if (copy_from_user(frame + hdr->bufs[i].off,
				   u64_to_user_ptr(w->offset), w->len)) {
			ring_err(rf, "job: window %u: %llu bytes of host memory at 0x%llx cannot be read",
				 i, w->len, w->offset);
			return -EFAULT;
		}
		if (w->flags & NICPROG_JOB_BUF_WRITE)
			jd->host[jd->n_host++] = (typeof(jd->host[0])){
				.addr = w->offset, .off = hdr->bufs[i].off,
				.len = w->len,
			};
	}
	return 0;
}

/**
 * nicprog_job_cmd() - NICPROG_OP_JOB
 * @rf: the file
 * @file: it, whose opener's privilege counts
 * @c: the command area
 * @ioucmd: the command, completed when the NIC's core is done
 *
 * Context: process, may sleep (io_uring's worker); no lock held.
 * Return: -EIOCBQUEUED when in flight, else -errno.
 */
int nicprog_job_cmd(struct nicprog_ring_file *rf, struct file *file,
		    const struct nicprog_uring_cmd *c,
		    struct io_uring_cmd *ioucmd)
{
	struct nicprog_job_frame hdr = {};
	struct nicprog_job_done *jd, *d;
	struct nicprog_job *a;
	u8 *frame = NULL;
	s64 ns = 0;
	int err;
	u32 len;

	a = kmalloc(sizeof(*a), NICPROG_RING_GFP);
	jd = kzalloc(sizeof(*jd), NICPROG_RING_GFP);
	if (!a || !jd) {
		err = -ENOMEM;
		goto out;
	}
	err = nicprog_ring_args(c, a, sizeof(*a));
	if (err)
		goto out;
	len = nicprog_job_layout(rf, a, &hdr);
	if (!len) {
		err = -EINVAL;
		goto out;
	}
	frame = kvzalloc(len, NICPROG_RING_GFP);
	if (!frame) {
		err = -ENOMEM;
		goto out;
	}
	/* before the ring: a fault here holds nothing of the driver's */
	err = nicprog_job_host_in(rf, a, &hdr, frame, jd);
	if (err)
		goto out;
	err = nicprog_ring_enter(rf->nd, false);
	if (err)
		goto out;
	err = nicprog_ring_may_act(rf, file, "job");
	if (!err && !nicprog_jobs_offered(rf->nd)) {
		ring_err(rf, "job: the NIC's driver runs no lookaside kernels");
		err = -EOPNOTSUPP;
	}
	if (!err) {
		ns = nicprog_job_run(rf, a, &hdr, frame, len, &jd->res);
		if (ns < 0)
			err = ns;
		else
			ns = nicprog_job_queue(rf->nd, ns);
	}
	nicprog_ring_leave(rf->nd);
	if (err)
		goto out;
	if (jd->n_host && jd->res >= 0) {
		jd->frame = frame;	/* for nicprog_job_done() */
		frame = NULL;
	} else {
		jd->n_host = 0;
	}
	d = jd;
	jd = NULL;
	d->ioucmd = ioucmd;
	*job_of(ioucmd) = d;
	hrtimer_init(&d->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	d->timer.function = nicprog_job_timer;
	hrtimer_start(&d->timer, ns_to_ktime(ns), HRTIMER_MODE_REL_SOFT);
	err = -EIOCBQUEUED;
out:
	kvfree(frame);
	kfree(jd);
	kfree(a);
	return err;
}
