// SPDX-License-Identifier: GPL-2.0
/*
 * Operator events the datapath raises: a stage of the port's plan dropping
 * frames because its cores' queues are full (stage-overload-ntf), and
 * streaming-ring pipes dropping records for want of room (ring-drops-ntf),
 * on the nicprog family's monitor group; overloads, and cores stalled on a
 * full backpressure pipe, go to the NIC's devlink health reporter
 * (devlink.c).
 *
 * Drops happen per frame, in BH or on NIC cores; events must not. The
 * datapath adds to counters under a spinlock and schedules one work item;
 * the work sends what gathered, at most once per NICPROG_EVENT_GAP, so a
 * flood costs the monitor one message per stage and second, each with the
 * frames it stands for. The messages name the port's netdev and go to its
 * namespace, which RTNL keeps still: the work takes it, with a trylock
 * (nicprog_events_stop() cancels the work under RTNL), and tries again
 * a tick later while RTNL is busy.
 */
#include <linux/jiffies.h>
#include <linux/rtnetlink.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "nicprog.h"

#define NICPROG_EVENT_GAP	HZ

/* Schedule the work: now if the last events went long enough ago. */
static void nicprog_events_kick(struct nicprog_events *ev)
{
	unsigned long due = ev->last + NICPROG_EVENT_GAP;

	schedule_delayed_work(&ev->work, time_after(jiffies, due) ? 0 :
			      due - jiffies);
}

/**
 * nicprog_event_overload() - a stage of the port's plan dropped frames
 * @nd: the port
 * @stage: the stage, in packet order; its cores' queues were full
 * @frames: frames dropped
 *
 * Drivers call this where a frame for the port's plan finds no room in
 * the queue of the core that should run it: in front of the first stage
 * (from the wire) or between stages.
 *
 * Context: any.
 */
void nicprog_event_overload(struct nicprog_dev *nd, u32 stage, u32 frames)
{
	struct nicprog_events *ev = &nd->events;
	unsigned long flags;

	if (stage >= NICPROG_EVENT_STAGES)
		stage = NICPROG_EVENT_STAGES - 1;
	spin_lock_irqsave(&ev->lock, flags);
	if (!ev->dead) {
		ev->overload[stage] += frames;
		nicprog_events_kick(ev);
	}
	spin_unlock_irqrestore(&ev->lock, flags);
}
EXPORT_SYMBOL_GPL(nicprog_event_overload);

/**
 * nicprog_event_stall() - a NIC core gave up on a frame it held
 * @nd: the port whose plan's frame it was
 * @core: the NIC core
 *
 * Drivers call this where a core that held a frame for an output that
 * could not take it (a full backpressure pipe), taking no other frame
 * meanwhile, gives up and drops it: the core was stalled. The NIC's
 * devlink health reporter hears of it.
 *
 * Context: any.
 */
void nicprog_event_stall(struct nicprog_dev *nd, u32 core)
{
	struct nicprog_events *ev = &nd->events;
	unsigned long flags;

	spin_lock_irqsave(&ev->lock, flags);
	if (!ev->dead) {
		ev->stalls++;
		ev->stall_core = core;
		nicprog_events_kick(ev);
	}
	spin_unlock_irqrestore(&ev->lock, flags);
}
EXPORT_SYMBOL_GPL(nicprog_event_stall);

/**
 * nicprog_event_ring_drop() - a pipe bound to output @out dropped a record
 * @nd: the port
 * @out: the NF output, below NICPROG_RING_OUTPUTS
 * @len: the record's bytes
 *
 * Context: any.
 */
void nicprog_event_ring_drop(struct nicprog_dev *nd, u32 out, u32 len)
{
	struct nicprog_events *ev = &nd->events;
	unsigned long flags;

	spin_lock_irqsave(&ev->lock, flags);
	if (!ev->dead) {
		ev->ring_drops++;
		ev->ring_drop_bytes += len;
		ev->ring_outputs |= BIT_ULL(out);
		nicprog_events_kick(ev);
	}
	spin_unlock_irqrestore(&ev->lock, flags);
}
EXPORT_SYMBOL_NS_GPL(nicprog_event_ring_drop, NICPROG_INTERNAL);

static void nicprog_events_work(struct work_struct *work)
{
	struct nicprog_events *ev = container_of(to_delayed_work(work),
						 struct nicprog_events, work);
	struct nicprog_dev *nd = container_of(ev, struct nicprog_dev, events);
	u64 overload[NICPROG_EVENT_STAGES], drops, bytes, outputs, stalls;
	u32 s, stall_core;

	if (!rtnl_trylock()) {
		schedule_delayed_work(&ev->work, 1);
		return;
	}
	spin_lock_irq(&ev->lock);
	memcpy(overload, ev->overload, sizeof(overload));
	memset(ev->overload, 0, sizeof(ev->overload));
	drops = ev->ring_drops;
	bytes = ev->ring_drop_bytes;
	outputs = ev->ring_outputs;
	ev->ring_drops = 0;
	ev->ring_drop_bytes = 0;
	ev->ring_outputs = 0;
	stalls = ev->stalls;
	stall_core = ev->stall_core;
	ev->stalls = 0;
	ev->last = jiffies;
	spin_unlock_irq(&ev->lock);

	for (s = 0; s < NICPROG_EVENT_STAGES; s++)
		if (overload[s]) {
			nicprog_nl_notify_overload(nd, s, overload[s]);
			nicprog_devlink_overload(nd, s, overload[s]);
		}
	if (drops)
		nicprog_nl_notify_ring_drops(nd, drops, bytes, outputs);
	if (stalls)
		nicprog_devlink_stall(nd, stall_core, stalls);
	rtnl_unlock();
}

/**
 * nicprog_events_init() - a new port's events
 * @nd: the port
 */
void nicprog_events_init(struct nicprog_dev *nd)
{
	spin_lock_init(&nd->events.lock);
	INIT_DELAYED_WORK(&nd->events.work, nicprog_events_work);
	nd->events.last = jiffies - NICPROG_EVENT_GAP;
}

/**
 * nicprog_events_stop() - no more events for a port going away
 * @nd: the port
 *
 * What gathered and was not sent is dropped with the port.
 *
 * Context: process, RTNL held (nicprog_unregister()): the work only
 * tries to take it, so it is cancelled, not waited for.
 */
void nicprog_events_stop(struct nicprog_dev *nd)
{
	spin_lock_irq(&nd->events.lock);
	nd->events.dead = true;
	spin_unlock_irq(&nd->events.lock);
	cancel_delayed_work_sync(&nd->events.work);
}
