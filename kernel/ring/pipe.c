// SPDX-License-Identifier: GPL-2.0
/*
 * Pipes: a control page and a power-of-two ring of data pages, mapped into
 * the owner's address space as the control page followed by the data twice
 * (so that a record the ring wraps reads contiguously).
 *
 * The pages are the pipe's; a mapping takes its own page references, so a
 * pipe destroyed (or its file closed) while mapped leaves the mapping
 * valid, with memory freed at munmap. Everything a pipe allocates is
 * charged to the memory cgroup of the process that creates it.
 *
 * An append decides when its notification is posted (notify.c): at once,
 * at the end of the driver's batch, or -- under moderation -- when enough
 * bytes wait or the pipe's hrtimer ends the hold.
 */
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <net/nicprog_compat.h>

#include "ring.h"

static ktime_t us_ktime(u32 usecs)
{
	return ns_to_ktime((u64)usecs * NSEC_PER_USEC);
}

/* Take the application's head, if it is one the kernel would believe. */
static void nicprog_pipe_take_head(struct nicprog_pipe *pipe)
{
	u64 head = READ_ONCE(pipe->ctrl->head);

	lockdep_assert_held(&pipe->lock);
	if (head - pipe->head <= pipe->tail - pipe->head)
		pipe->head = head;
}

/*
 * An append made a notification due, if the application caught up with
 * the last one: post it, or under moderation hold it until enough bytes
 * wait unread or the time bound passes -- unless the pipe is @full: an
 * application that is to make room must hear of it now.
 */
static void nicprog_pipe_announce(struct nicprog_pipe *pipe, bool full)
{
	lockdep_assert_held(&pipe->lock);
	if (pipe->head < pipe->notified)	/* not caught up: it will look */
		return;
	if (!full && pipe->coalesce_usecs &&
	    (!pipe->coalesce_bytes ||
	     pipe->tail - pipe->head < pipe->coalesce_bytes)) {
		if (!pipe->held) {
			pipe->held = true;
			hrtimer_start(&pipe->coalesce,
				      us_ktime(pipe->coalesce_usecs),
				      HRTIMER_MODE_REL_SOFT);
		}
		return;
	}
	if (pipe->held) {
		pipe->held = false;
		/* a callback already running finds nothing held */
		hrtimer_try_to_cancel(&pipe->coalesce);
	}
	nicprog_notif_post(pipe, pipe->head, pipe->tail);
}

/* Moderation's time bound passed: post what is held. */
static enum hrtimer_restart nicprog_pipe_coalesced(struct hrtimer *t)
{
	struct nicprog_pipe *pipe = container_of(t, struct nicprog_pipe,
						 coalesce);
	unsigned long flags;

	spin_lock_irqsave(&pipe->lock, flags);
	if (pipe->held) {
		pipe->held = false;
		nicprog_pipe_take_head(pipe);
		/* an application that read it all meanwhile needs no wakeup */
		if (pipe->head != pipe->tail)
			nicprog_notif_post(pipe, pipe->head, pipe->tail);
	}
	spin_unlock_irqrestore(&pipe->lock, flags);
	return HRTIMER_NORESTART;
}

/**
 * nicprog_pipe_alloc() - allocate a pipe
 * @size: data bytes, a power of two in NICPROG_PIPE_SIZE_MIN..MAX
 * @dir: enum nicprog_pipe_dir, valid
 * @framing: enum nicprog_pipe_framing, valid
 * @share: NULL, or a pipe of the same size whose data pages this one
 *	shares (each page referenced once more)
 *
 * The control page is filled in; indices start at 0.
 *
 * Context: process; sleeps.
 * Return: the pipe (id 0, for the caller to set), or NULL.
 */
struct nicprog_pipe *nicprog_pipe_alloc(u32 size, u32 dir, u32 framing,
					const struct nicprog_pipe *share)
{
	struct nicprog_pipe_ctrl *ctrl;
	struct nicprog_pipe *pipe;
	struct page **twice;
	u32 i;

	pipe = kzalloc(sizeof(*pipe), NICPROG_RING_GFP);
	if (!pipe)
		return NULL;
	spin_lock_init(&pipe->lock);
	hrtimer_init(&pipe->coalesce, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	pipe->coalesce.function = nicprog_pipe_coalesced;
	pipe->size = size;
	pipe->dir = dir;
	pipe->framing = framing;
	pipe->n_pages = size >> PAGE_SHIFT;
	pipe->pages = kvcalloc(pipe->n_pages, sizeof(*pipe->pages),
			       NICPROG_RING_GFP);
	pipe->ctrl_page = alloc_page(NICPROG_RING_GFP | __GFP_ZERO);
	if (!pipe->pages || !pipe->ctrl_page)
		goto err;
	for (i = 0; i < pipe->n_pages; i++) {
		if (share) {
			get_page(share->pages[i]);
			pipe->pages[i] = share->pages[i];
			continue;
		}
		pipe->pages[i] = alloc_page(NICPROG_RING_GFP | __GFP_ZERO);
		if (!pipe->pages[i])
			goto err;
	}
	/* the kernel writes records across the end as userspace reads them */
	twice = kvmalloc_array(2 * pipe->n_pages, sizeof(*twice),
			       NICPROG_RING_GFP);
	if (!twice)
		goto err;
	for (i = 0; i < 2 * pipe->n_pages; i++)
		twice[i] = pipe->pages[i & (pipe->n_pages - 1)];
	pipe->data = vmap(twice, 2 * pipe->n_pages, VM_MAP, PAGE_KERNEL);
	kvfree(twice);
	if (!pipe->data)
		goto err;
	ctrl = page_address(pipe->ctrl_page);
	pipe->ctrl = ctrl;
	ctrl->version = NICPROG_RING_VERSION;
	ctrl->dir = dir;
	ctrl->framing = framing;
	ctrl->size = size;
	return pipe;

err:
	nicprog_pipe_free(pipe);
	return NULL;
}

/**
 * nicprog_pipe_free() - drop the pipe's pages and free it
 * @pipe: the pipe, or a partly allocated one; mappings (and a pipe that
 *	shares them) keep their pages
 *
 * Context: process.
 */
void nicprog_pipe_free(struct nicprog_pipe *pipe)
{
	u32 i;

	hrtimer_cancel(&pipe->coalesce);
	if (pipe->data)
		vunmap(pipe->data);
	if (pipe->pages)
		for (i = 0; i < pipe->n_pages && pipe->pages[i]; i++)
			__free_page(pipe->pages[i]);
	if (pipe->ctrl_page)
		__free_page(pipe->ctrl_page);
	kvfree(pipe->pages);
	kfree(pipe);
}

/**
 * nicprog_pipe_mmap() - map a pipe into @vma
 * @pipe: the pipe
 * @vma: a mapping of exactly a page plus twice the pipe's size, shared,
 *	not executable (the caller checked)
 *
 * Context: process, the mmap lock held for writing.
 * Return: 0 or the error of vm_insert_page().
 */
int nicprog_pipe_mmap(struct nicprog_pipe *pipe, struct vm_area_struct *vma)
{
	unsigned long addr = vma->vm_start;
	u32 i;
	int err;

	nicprog_vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP);
	nicprog_vm_flags_clear(vma, VM_MAYEXEC);
	err = vm_insert_page(vma, addr, pipe->ctrl_page);
	for (i = 0; !err && i < 2 * pipe->n_pages; i++) {
		addr += PAGE_SIZE;
		err = vm_insert_page(vma, addr,
				     pipe->pages[i & (pipe->n_pages - 1)]);
	}
	return err;
}

/**
 * nicprog_pipe_append() - append a record (or bytes) to a pipe
 * @pipe: an RX pipe
 * @buf: the bytes
 * @len: their length
 *
 * The consumer's head in the control page is taken if it lies between the
 * kernel's head and tail, and ignored otherwise: userspace cannot make the
 * producer overwrite what it has not released, nor skip past what was
 * written. A record is appended whole or dropped and counted; in a
 * records pipe it is a struct nicprog_rec, the bytes, and zeros up to
 * NICPROG_REC_ALIGN. The new tail is published after the bytes, then
 * the file is notified if its application has caught up (notify.c) --
 * unless @defer: then nicprog_pipe_notify() does that later, once for a
 * batch of appends, as a NIC writes back a batch of descriptors.
 *
 * Context: any; BH or process.
 * Return: 0, -ENOSPC if it did not fit (counted in the control page), or
 * -EAGAIN if it did not fit a backpressure pipe (not counted: the caller
 * holds it and retries, or gives up with nicprog_pipe_drop()).
 */
int nicprog_pipe_append(struct nicprog_pipe *pipe, const void *buf, u32 len,
			bool defer)
{
	struct nicprog_pipe_ctrl *ctrl = pipe->ctrl;
	bool rec = pipe->framing == NICPROG_FRAMING_RECORDS;
	struct nicprog_rec *h;
	unsigned long flags;
	u64 need;
	u8 *p;

	need = rec ? ALIGN((u64)sizeof(*h) + len, NICPROG_REC_ALIGN) : len;
	spin_lock_irqsave(&pipe->lock, flags);
	nicprog_pipe_take_head(pipe);
	if (need > pipe->size - (pipe->tail - pipe->head)) {
		if (pipe->held || pipe->due) {
			pipe->due = false;
			nicprog_pipe_announce(pipe, true);
		}
		if (READ_ONCE(pipe->backpressure)) {
			spin_unlock_irqrestore(&pipe->lock, flags);
			return -EAGAIN;
		}
		pipe->drops++;
		pipe->drop_bytes += len;
		WRITE_ONCE(ctrl->drops, pipe->drops);
		WRITE_ONCE(ctrl->drop_bytes, pipe->drop_bytes);
		spin_unlock_irqrestore(&pipe->lock, flags);
		return -ENOSPC;
	}
	p = pipe->data + (pipe->tail & (pipe->size - 1));
	if (rec) {
		h = (struct nicprog_rec *)p;
		h->len = len;
		h->flags = 0;
		h->__rsvd = 0;
		p += sizeof(*h);
		memset(p + len, 0, need - sizeof(*h) - len);
	}
	memcpy(p, buf, len);
	pipe->tail += need;
	/* the bytes before the tail that announces them */
	smp_store_release(&ctrl->tail, pipe->tail);
	if (defer) {
		pipe->due = true;
	} else {
		pipe->due = false;
		nicprog_pipe_announce(pipe, false);
	}
	spin_unlock_irqrestore(&pipe->lock, flags);
	return 0;
}

/**
 * nicprog_pipe_drop() - count a record the producer gave up on
 * @pipe: an RX pipe
 * @len: its length
 *
 * Context: any; BH or process.
 */
void nicprog_pipe_drop(struct nicprog_pipe *pipe, u32 len)
{
	unsigned long flags;

	spin_lock_irqsave(&pipe->lock, flags);
	pipe->drops++;
	pipe->drop_bytes += len;
	WRITE_ONCE(pipe->ctrl->drops, pipe->drops);
	WRITE_ONCE(pipe->ctrl->drop_bytes, pipe->drop_bytes);
	spin_unlock_irqrestore(&pipe->lock, flags);
}

/**
 * nicprog_pipe_stats() - what an RX pipe has seen, for stats-get
 * @pipe: the pipe
 * @st: filled in
 *
 * Context: any; the caller keeps @pipe (RCU, as the datapath does).
 */
void nicprog_pipe_stats(struct nicprog_pipe *pipe, struct nicprog_pipe_stats *st)
{
	unsigned long flags;

	spin_lock_irqsave(&pipe->lock, flags);
	st->size = pipe->size;
	st->bytes = pipe->tail;
	/* the application's head, if it is one the kernel would believe */
	st->consumed = READ_ONCE(pipe->ctrl->head);
	if (st->consumed - pipe->head > pipe->tail - pipe->head)
		st->consumed = pipe->head;
	st->drops = pipe->drops;
	st->drop_bytes = pipe->drop_bytes;
	st->backpressure = READ_ONCE(pipe->backpressure);
	st->coalesce_usecs = pipe->coalesce_usecs;
	st->coalesce_bytes = pipe->coalesce_bytes;
	spin_unlock_irqrestore(&pipe->lock, flags);
}

/**
 * nicprog_pipe_notify() - post the notification appends deferred
 * @pipe: an RX pipe
 *
 * Reactive as an append's own: posted only if the application has
 * consumed what the previous one announced, and held by moderation as an
 * append's is (one held already is posted if moderation is off now).
 *
 * Context: any; BH or process.
 */
void nicprog_pipe_notify(struct nicprog_pipe *pipe)
{
	unsigned long flags;

	spin_lock_irqsave(&pipe->lock, flags);
	if (pipe->due || pipe->held) {
		pipe->due = false;
		nicprog_pipe_take_head(pipe);
		nicprog_pipe_announce(pipe, false);
	}
	spin_unlock_irqrestore(&pipe->lock, flags);
}

/**
 * nicprog_pipe_coalesce() - set a pipe's notification moderation
 * @pipe: an RX pipe
 * @usecs: the time bound, 0 for none (checked by the caller)
 * @bytes: the byte threshold, 0 for none
 *
 * Context: any; BH or process.
 */
void nicprog_pipe_coalesce(struct nicprog_pipe *pipe, u32 usecs, u32 bytes)
{
	unsigned long flags;

	spin_lock_irqsave(&pipe->lock, flags);
	pipe->coalesce_usecs = usecs;
	pipe->coalesce_bytes = bytes;
	spin_unlock_irqrestore(&pipe->lock, flags);
}
