// SPDX-License-Identifier: GPL-2.0
/*
 * Notification rings and NICPROG_OP_WAIT (after Enso's reactive
 * notifications).
 *
 * Each open file has a ring of (pipe, tail) entries. An append to one of
 * its RX pipes posts one only if the application has consumed what the
 * pipe's previous notification announced: one that keeps up finds new
 * data by reading tails and gets a notification per burst, not per
 * record. A WAIT completes at once when entries wait, or parks until a
 * post, its timeout (always set, so that io_uring's teardown never waits
 * on it for long: Linux 6.1 cannot cancel a uring_cmd) or the port's
 * removal. Completions run in the submitter's task (io_uring's task work),
 * which frees the waiter after its timer.
 *
 * The file also polls: readable while entries wait, hung up once the port
 * is gone. That is the re-armable wait -- Linux 6.1's uring_cmd completes
 * once, but a multishot IORING_OP_POLL_ADD on the file posts a completion
 * per notification from one submission, as long as the stream lasts.
 *
 * Locking: a pipe's lock, then the file's notif_lock, which guards the
 * kernel's indices and the waiters; a waiter completes once (done).
 */
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/timer.h>
#include <net/nicprog_compat.h>

#include "../nicprog.h"
#include "ring.h"

/**
 * struct nicprog_waiter - a parked NICPROG_OP_WAIT
 * @node: in the file's waiters, under its notif_lock
 * @rf: the file
 * @ioucmd: the command; its pdu points here
 * @timer: its timeout
 * @done: set by whoever completes it first
 * @res: its result
 */
struct nicprog_waiter {
	struct list_head node;
	struct nicprog_ring_file *rf;
	struct io_uring_cmd *ioucmd;
	struct timer_list timer;
	atomic_t done;
	int res;
};

static struct nicprog_waiter **waiter_of(struct io_uring_cmd *ioucmd)
{
	BUILD_BUG_ON(sizeof(struct nicprog_waiter *) > sizeof(ioucmd->pdu));
	return (struct nicprog_waiter **)ioucmd->pdu;
}

/**
 * nicprog_notif_init() - give an open file its notification ring
 * @rf: the file
 *
 * Return: 0 or -ENOMEM.
 */
int nicprog_notif_init(struct nicprog_ring_file *rf)
{
	int i;

	spin_lock_init(&rf->notif_lock);
	INIT_LIST_HEAD(&rf->waiters);
	init_waitqueue_head(&rf->pollq);
	for (i = 0; i < 2; i++) {
		rf->notif_pages[i] = alloc_page(NICPROG_RING_GFP | __GFP_ZERO);
		if (!rf->notif_pages[i]) {
			nicprog_notif_free(rf);
			return -ENOMEM;
		}
	}
	BUILD_BUG_ON(NICPROG_NOTIF_ENTRIES * sizeof(struct nicprog_notif) !=
		     PAGE_SIZE || NICPROG_NOTIF_MMAP_LEN != 2 * PAGE_SIZE);
	rf->nctrl = page_address(rf->notif_pages[0]);
	rf->notifs = page_address(rf->notif_pages[1]);
	rf->nctrl->entries = NICPROG_NOTIF_ENTRIES;
	rf->nctrl->version = NICPROG_RING_VERSION;
	return 0;
}

/**
 * nicprog_notif_free() - free the notification ring; mappings keep theirs
 * @rf: the file, no command in flight
 */
void nicprog_notif_free(struct nicprog_ring_file *rf)
{
	int i;

	for (i = 0; i < 2; i++)
		if (rf->notif_pages[i])
			__free_page(rf->notif_pages[i]);
}

/**
 * nicprog_notif_mmap() - map the notification ring (offset 0)
 * @rf: the file
 * @vma: NICPROG_NOTIF_MMAP_LEN bytes, shared, not executable (checked)
 *
 * Return: 0 or the error of vm_insert_page().
 */
int nicprog_notif_mmap(struct nicprog_ring_file *rf,
		       struct vm_area_struct *vma)
{
	int err;

	nicprog_vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP);
	nicprog_vm_flags_clear(vma, VM_MAYEXEC);
	err = vm_insert_page(vma, vma->vm_start, rf->notif_pages[0]);
	if (!err)
		err = vm_insert_page(vma, vma->vm_start + PAGE_SIZE,
				     rf->notif_pages[1]);
	return err;
}

/* Entries waiting; takes the application's head if it is a valid one. */
static u64 nicprog_notif_pending(struct nicprog_ring_file *rf)
{
	u64 head = READ_ONCE(rf->nctrl->head);

	lockdep_assert_held(&rf->notif_lock);
	if (head - rf->nhead <= rf->ntail - rf->nhead)
		rf->nhead = head;
	return rf->ntail - rf->nhead;
}

static void nicprog_wait_done(struct io_uring_cmd *ioucmd,
			      unsigned int issue_flags)
{
	struct nicprog_waiter *w = *waiter_of(ioucmd);
	int res = w->res;

	del_timer_sync(&w->timer);
	kfree(w);
	io_uring_cmd_done(ioucmd, res, 0, issue_flags);
}

/* Complete @w with @res unless it is done already. notif_lock held. */
static void nicprog_wait_complete(struct nicprog_waiter *w, int res)
{
	list_del_init(&w->node);
	if (atomic_xchg(&w->done, 1))
		return;
	w->res = res;
	io_uring_cmd_complete_in_task(w->ioucmd, nicprog_wait_done);
}

static void nicprog_wait_timeout(struct timer_list *t)
{
	struct nicprog_waiter *w = from_timer(w, t, timer);
	struct nicprog_ring_file *rf = w->rf;
	unsigned long flags;

	spin_lock_irqsave(&rf->notif_lock, flags);
	nicprog_wait_complete(w, 0);
	spin_unlock_irqrestore(&rf->notif_lock, flags);
}

/* Wake every waiter and poller with @res. notif_lock held. */
static void nicprog_notif_wake(struct nicprog_ring_file *rf, int res)
{
	struct nicprog_waiter *w, *tmp;

	list_for_each_entry_safe(w, tmp, &rf->waiters, node)
		nicprog_wait_complete(w, res);
	/* pairs with the barrier in poll_wait()'s queueing */
	if (wq_has_sleeper(&rf->pollq))
		wake_up_poll(&rf->pollq, res < 0 ? EPOLLHUP | EPOLLERR :
						   EPOLLIN | EPOLLRDNORM);
}

/**
 * nicprog_notif_post() - notify a pipe's file of an append, reactively
 * @pipe: an RX pipe
 * @head: its consumer's head as the append took it
 * @tail: its new tail
 *
 * Context: the pipe's lock held, any context.
 */
void nicprog_notif_post(struct nicprog_pipe *pipe, u64 head, u64 tail)
{
	struct nicprog_ring_file *rf = pipe->rf;
	struct nicprog_notif *e;
	u64 n;

	if (head < pipe->notified)	/* not caught up: it will look */
		return;
	spin_lock(&rf->notif_lock);
	n = nicprog_notif_pending(rf);
	if (n >= NICPROG_NOTIF_ENTRIES) {
		WRITE_ONCE(rf->nctrl->full, ++rf->nfull);
	} else {
		e = &rf->notifs[rf->ntail % NICPROG_NOTIF_ENTRIES];
		e->pipe = pipe->id;
		e->flags = 0;
		e->tail = tail;
		/* the entry before the tail that announces it */
		smp_store_release(&rf->nctrl->tail, ++rf->ntail);
		pipe->notified = tail;
		n++;
	}
	nicprog_notif_wake(rf, min_t(u64, n, INT_MAX));
	spin_unlock(&rf->notif_lock);
}

/**
 * nicprog_notif_cancel() - complete every parked WAIT of a file, wake pollers
 * @rf: the file
 * @err: their result, -ENODEV when the port goes
 *
 * Context: process or softirq.
 */
void nicprog_notif_cancel(struct nicprog_ring_file *rf, int err)
{
	unsigned long flags;

	spin_lock_irqsave(&rf->notif_lock, flags);
	nicprog_notif_wake(rf, err);
	spin_unlock_irqrestore(&rf->notif_lock, flags);
}

/**
 * nicprog_notif_poll() - the file's poll mask
 * @rf: the file
 * @file: it
 * @pt: the caller's poll table
 *
 * Return: EPOLLIN | EPOLLRDNORM while notifications wait, EPOLLHUP |
 * EPOLLERR once the port is gone, else 0.
 */
__poll_t nicprog_notif_poll(struct nicprog_ring_file *rf, struct file *file,
			    poll_table *pt)
{
	__poll_t mask = 0;

	poll_wait(file, &rf->pollq, pt);
	spin_lock_irq(&rf->notif_lock);
	if (nicprog_notif_pending(rf))
		mask |= EPOLLIN | EPOLLRDNORM;
	/* ring_del() marks the port dead, then wakes under notif_lock */
	if (READ_ONCE(rf->nd->ring_dead))
		mask |= EPOLLHUP | EPOLLERR;
	spin_unlock_irq(&rf->notif_lock);
	return mask;
}

/**
 * nicprog_notif_wait() - NICPROG_OP_WAIT
 * @rf: the file
 * @ioucmd: the command
 * @timeout_ms: 1..NICPROG_WAIT_TIMEOUT_MAX, checked
 * @nonblock: issued non-blocking (IO_URING_F_NONBLOCK)
 *
 * Context: the command's issue.
 * Return: entries waiting, -EIOCBQUEUED when parked, -ENODEV when the port
 * is gone, -EAGAIN (@nonblock) to be retried where it may sleep, -ENOMEM.
 */
int nicprog_notif_wait(struct nicprog_ring_file *rf,
		       struct io_uring_cmd *ioucmd, u32 timeout_ms,
		       bool nonblock)
{
	struct nicprog_waiter *w;
	u64 n;

	w = kzalloc(sizeof(*w), nonblock ? GFP_NOWAIT | __GFP_ACCOUNT :
					   NICPROG_RING_GFP);
	if (!w)
		return nonblock ? -EAGAIN : -ENOMEM;
	w->rf = rf;
	w->ioucmd = ioucmd;
	timer_setup(&w->timer, nicprog_wait_timeout, 0);
	spin_lock_irq(&rf->notif_lock);
	n = nicprog_notif_pending(rf);
	/* ring_del() marks the port dead, then cancels under notif_lock */
	if (n || READ_ONCE(rf->nd->ring_dead)) {
		spin_unlock_irq(&rf->notif_lock);
		kfree(w);
		return n ? min_t(u64, n, INT_MAX) : -ENODEV;
	}
	*waiter_of(ioucmd) = w;
	list_add_tail(&w->node, &rf->waiters);
	mod_timer(&w->timer, jiffies + msecs_to_jiffies(timeout_ms));
	spin_unlock_irq(&rf->notif_lock);
	return -EIOCBQUEUED;
}
