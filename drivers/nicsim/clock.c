// SPDX-License-Identifier: GPL-2.0
/*
 * nicsim's offered load: frames arrive on the NIC's clock, not the host's.
 *
 * Backlogged (the default), every frame from the wire waits in a core's
 * queue and the timing model tells how fast the NIC drains them; a queue
 * overflows only when the host's threads fall behind, which says nothing
 * of the NIC. With /sys/bus/nicsim/devices/nicsim<ID>/offered_rate set to
 * R frames per second, frames arrive 1/R seconds of the cores' clock
 * apart in the order they come from the wire, and one thread, the clock,
 * takes them in that order: it replays the timing model up to the frame's
 * arrival (nicsim_tm_arrive()), drops the frame if the queues into the
 * cores hold as many runs as the LNIC's hub into them, and otherwise runs
 * it -- every stage, on the cores the plan steers it to, with their
 * scratch -- and hands the runs to the model to arrive then. The
 * program's clock (bpf_ktime_get_ns()) reads the frame's arrival: frame
 * n of a stream n * 10^9 / R ns after its first. So which
 * frames are dropped, how long the rest wait and how busy each unit is
 * depend on the offered rate and the NF alone, never on the host, and a
 * dropped frame never runs, as on a NIC whose ingress overflows.
 *
 * A stream ends when its sender writes offered_end (bus.c), or after
 * NICSIM_CLOCK_IDLE without a frame: the runs are timed to the end, and
 * the next frame starts a new stream at the model's clock. A frame the
 * clock cannot queue (NICSIM_CLOCK_QUEUE_LEN waiting: the host fell
 * behind) is dropped in real time and counted like a full core queue.
 *
 * The cores' threads run nothing meanwhile; only the clock uses their
 * scratch. A full backpressure pipe holds the clock as it would the core.
 */
#include <linux/kthread.h>

#include "nicsim.h"

/**
 * nicsim_clock_steer() - a frame from the wire arrives under an offered
 *	load
 * @port: the port it arrived on
 * @skb: the frame; skb->dev is @port's netdev
 *
 * Context: BH disabled, RCU held.
 * Return: true if queued for the clock; false if its queue is full (the
 * caller drops and counts the frame).
 */
bool nicsim_clock_steer(struct nicsim_port *port, struct sk_buff *skb)
{
	struct nicsim_dev *ndev = port->ndev;

	return nicsim_frame_queue(&ndev->clock_queue, NICSIM_CLOCK_QUEUE_LEN,
				  &ndev->clock_wq, skb);
}

/*
 * The frame arrives: dropped for a full hub, or run. Returns the plan it
 * ran under, whose cores' pipe notifications the caller posts, or NULL.
 * BH disabled, RCU held.
 */
static const struct nicsim_plan_ref *
nicsim_clock_arrive(struct nicsim_dev *ndev, struct sk_buff *skb)
{
	struct nicsim_port *port = netdev_priv(skb->dev);
	const struct nicsim_plan_ref *ref = rcu_dereference(port->ref);
	struct nicsim_core *core;
	bool taken;
	u64 now;

	if (!ref) {		/* removed while the frame waited */
		nicsim_host_rx(port, skb);
		return NULL;
	}
	core = nicsim_cores_first(port, ref, skb);
	spin_lock(&ndev->tm_lock);
	taken = nicsim_tm_arrive(ndev->tm);
	now = ndev->tm->arrival_ns;
	ndev->tm_last_add = jiffies;
	spin_unlock(&ndev->tm_lock);
	if (!taken) {
		core->queue_drops++;
		nicsim_stats_inc(port, rx_fifo_errors);
		nicprog_event_overload(port->np, 0, 1);
		kfree_skb(skb);
		return NULL;
	}
	nicsim_core_run(core, port, skb, now);
	return ref;
}

static int nicsim_clock_thread(void *data)
{
	const struct nicsim_plan_ref *ref;
	struct nicsim_dev *ndev = data;
	struct nicsim_core *core;
	struct sk_buff *skb;
	u32 i, n;

	while (!kthread_should_stop()) {
		wait_event_interruptible_timeout(ndev->clock_wq,
						 !skb_queue_empty_lockless(&ndev->clock_queue) ||
						 kthread_should_stop(),
						 NICSIM_TM_IDLE);
		while ((skb = skb_dequeue(&ndev->clock_queue))) {
			local_bh_disable();
			rcu_read_lock();
			ref = nicsim_clock_arrive(ndev, skb);
			/* the plan's cores: the last stage's delivered it */
			n = ref ? nicprog_plan_cores(ref->plan) : 0;
			for (i = 0; i < n; i++)
				nicsim_core_ring_flush(ndev->cores[ref->base + i],
						       false);
			rcu_read_unlock();
			local_bh_enable();
			for (i = 0; i < ndev->n_cores; i++) {
				core = ndev->cores[i];
				if (READ_ONCE(core->held))
					nicsim_core_stall(core);
			}
			cond_resched();
		}
	}
	return 0;
}

/**
 * nicsim_clock_start() - put the NIC under its offered load, if it has one
 * @ndev: the NIC, its cores and timing model just started
 *
 * Context: process; under RTNL or before the device is live.
 * Return: 0 or -errno.
 */
int nicsim_clock_start(struct nicsim_dev *ndev)
{
	struct task_struct *task;

	if (!ndev->offered_rate)
		return 0;
	nicsim_tm_offer(ndev->tm, ndev->offered_rate);
	task = kthread_create(nicsim_clock_thread, ndev, NICSIM_DRV_NAME "%u/clock",
			      ndev->id);
	if (IS_ERR(task))
		return PTR_ERR(task);
	ndev->clock_task = task;
	wake_up_process(task);
	return 0;
}

/**
 * nicsim_clock_stop() - stop the clock, dropping the frames it holds
 * @ndev: the NIC, whose cores are about to stop
 *
 * Context: process.
 */
void nicsim_clock_stop(struct nicsim_dev *ndev)
{
	if (ndev->clock_task) {
		kthread_stop(ndev->clock_task);
		ndev->clock_task = NULL;
	}
	skb_queue_purge(&ndev->clock_queue);
}
