// SPDX-License-Identifier: GPL-2.0
/*
 * What a wire does to the frames it carries: a rate, a propagation delay
 * and a seeded loss, each direction its own. Without them (the default) a
 * frame reaches the peer's NIC in the sender's call, as before.
 *
 * Rate and delay are in simulated time, which runs nicsim_dilation times
 * slower than the host's clock (time dilation): a 1 Gb/s wire under a
 * dilation of 100 carries 10 Mb/s of the host's time, so that a guest
 * under TCG, a hundred times slower than hardware, still sees the network,
 * not its own CPUs, as the bottleneck. A program that measures how long a
 * transfer took divides by the dilation it read from the bus.
 *
 * A shaped direction is a FIFO: a frame starts when the one before it has
 * left (or now, if the wire is idle), takes its bits over the rate, and
 * arrives the delay later, when the direction's hrtimer (softirq) hands
 * it to the peer's NIC. Frames that find NICSIM_WIRE_QUEUE_LEN waiting
 * are dropped and counted (a switch's buffer overflowing); the host stack
 * is held back before that, its queue stopped while the wire is full. A
 * frame keeps its socket's memory until it arrives, as a NIC completes a
 * transmit only once the frame has left, so that a sender is paced by its
 * send buffer rather than dropped.
 *
 * Loss is decided as the frame enters the wire, by a PRNG seeded at link
 * time, so that the same frames in the same order lose the same frames.
 */
#include <linux/hrtimer.h>
#include <linux/math64.h>

#include "nicsim.h"

/* Preamble, start delimiter and inter-frame gap the wire carries too. */
#define NICSIM_WIRE_OVERHEAD	20

/* The dilation new links take (bus attribute "dilation"). */
static u32 nicsim_dilation = 1;

/* struct sk_buff.cb of a frame on a shaped wire */
struct nicsim_wire_cb {
	u64 due;	/* host ns (CLOCK_MONOTONIC) it arrives at */
};

#define NICSIM_WIRE_CB(skb)	((struct nicsim_wire_cb *)(skb)->cb)

static struct nicsim_port *nicsim_wire_port(struct nicsim_wire *w)
{
	return container_of(w, struct nicsim_port, wire);
}

/*
 * Hands every frame that is due to the peer. Softirq context: BH is
 * disabled, as nicsim_wire_deliver() wants.
 */
static enum hrtimer_restart nicsim_wire_timer(struct hrtimer *timer)
{
	struct nicsim_wire *w = container_of(timer, struct nicsim_wire, timer);
	struct nicsim_port *port = nicsim_wire_port(w);
	enum hrtimer_restart ret = HRTIMER_NORESTART;
	struct sk_buff_head due;
	struct nicsim_port *peer;
	struct sk_buff *skb;
	u64 now = ktime_get_ns();
	bool wake;

	__skb_queue_head_init(&due);
	spin_lock(&w->lock);
	while ((skb = skb_peek(&w->queue)) && NICSIM_WIRE_CB(skb)->due <= now)
		__skb_queue_tail(&due, __skb_dequeue(&w->queue));
	if (skb) {
		hrtimer_set_expires(timer, ns_to_ktime(NICSIM_WIRE_CB(skb)->due));
		ret = HRTIMER_RESTART;
	}
	wake = skb_queue_len(&w->queue) <= NICSIM_WIRE_QUEUE_LEN / 2;
	spin_unlock(&w->lock);

	rcu_read_lock();
	peer = rcu_dereference(port->peer);
	while ((skb = __skb_dequeue(&due))) {
		/* cut meanwhile: what was in flight is lost */
		if (peer)
			nicsim_wire_deliver(port, peer, skb);
		else
			kfree_skb(skb);
	}
	rcu_read_unlock();
	if (wake && netif_running(port->netdev) &&
	    netif_queue_stopped(port->netdev))
		netif_wake_queue(port->netdev);
	return ret;
}

/**
 * nicsim_wire_init() - a port's outgoing direction, unshaped
 * @w: the port's wire
 *
 * Context: process.
 */
void nicsim_wire_init(struct nicsim_wire *w)
{
	spin_lock_init(&w->lock);
	skb_queue_head_init(&w->queue);
	hrtimer_init(&w->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	w->timer.function = nicsim_wire_timer;
	w->p.dilation = 1;
}

/**
 * nicsim_wire_set() - give a direction its rate, delay and loss
 * @w: the port's wire
 * @p: the parameters; the dilation is the bus's now
 * @seed: this direction's loss seed
 *
 * Context: RTNL held, the port not linked (nothing is in flight).
 */
void nicsim_wire_set(struct nicsim_wire *w,
		     const struct nicsim_wire_params *p, u64 seed)
{
	spin_lock_bh(&w->lock);
	w->p = *p;
	w->p.seed = seed;
	w->p.dilation = READ_ONCE(nicsim_dilation);
	/*
	 * 2^32 * loss / 10^6, at most 2^32 - 1: a u32 draw below it loses;
	 * 0 only without loss. Read without the lock by the transmit path's
	 * test for a wire that does nothing (a transmit that still sees the
	 * old peer may be in it while an unlink clears them).
	 */
	WRITE_ONCE(w->loss_below,
		   min_t(u64, div_u64((u64)p->loss << 32, NICSIM_LOSS_ONE),
			 U32_MAX));
	WRITE_ONCE(w->shaped, p->rate || p->delay_ns);
	prandom_seed_state(&w->rnd, seed);
	w->busy = 0;
	spin_unlock_bh(&w->lock);
}

/**
 * nicsim_wire_stop() - drop what a direction carries
 * @w: the port's wire
 *
 * Called once the port has no peer: a transmit that still saw the old
 * one may add a frame after this returns, which the timer then frees
 * (no peer); the port's destruction calls this again once nothing
 * transmits (unregistered).
 *
 * Context: process.
 */
void nicsim_wire_stop(struct nicsim_wire *w)
{
	struct net_device *dev = nicsim_wire_port(w)->netdev;
	struct sk_buff_head gone;

	__skb_queue_head_init(&gone);
	hrtimer_cancel(&w->timer);
	spin_lock_bh(&w->lock);
	skb_queue_splice_init(&w->queue, &gone);
	spin_unlock_bh(&w->lock);
	__skb_queue_purge(&gone);
	/* what the host held back for a full wire may go now (to no peer) */
	if (netif_running(dev) && netif_queue_stopped(dev))
		netif_wake_queue(dev);
}

/**
 * nicsim_wire_send() - a frame enters a port's wire
 * @port: the sending port
 * @peer: the port at the other end
 * @skb: the frame, counted as sent
 *
 * Context: BH disabled, RCU held (which keeps @peer).
 */
void nicsim_wire_send(struct nicsim_port *port, struct nicsim_port *peer,
		      struct sk_buff *skb)
{
	struct nicsim_wire *w = &port->wire;
	u64 now, start, bits_ns;
	bool lost, full;

	if (!READ_ONCE(w->loss_below) && !READ_ONCE(w->shaped)) {
		nicsim_wire_deliver(port, peer, skb);
		return;
	}

	spin_lock(&w->lock);
	lost = w->loss_below && prandom_u32_state(&w->rnd) < w->loss_below;
	full = !lost && w->shaped &&
	       skb_queue_len(&w->queue) >= NICSIM_WIRE_QUEUE_LEN;
	if (lost || full || !w->shaped) {
		spin_unlock(&w->lock);
		if (lost) {
			nicsim_stats_inc(port, wire_lost);
			kfree_skb(skb);
		} else if (full) {
			nicsim_stats_inc(port, wire_queue_drops);
			kfree_skb(skb);
		} else {
			nicsim_wire_deliver(port, peer, skb);
		}
		return;
	}

	now = ktime_get_ns();
	start = max(now, w->busy);
	bits_ns = 0;
	if (w->p.rate)
		bits_ns = mul_u64_u64_div_u64((u64)(skb->len + NICSIM_WIRE_OVERHEAD) *
					      BITS_PER_BYTE * w->p.dilation,
					      NSEC_PER_SEC, w->p.rate);
	w->busy = start + bits_ns;
	NICSIM_WIRE_CB(skb)->due = w->busy + w->p.delay_ns * w->p.dilation;
	__skb_queue_tail(&w->queue, skb);
	if (skb_queue_len(&w->queue) == 1)
		hrtimer_start(&w->timer, ns_to_ktime(NICSIM_WIRE_CB(skb)->due),
			      HRTIMER_MODE_ABS_SOFT);
	/* the host stack waits (its qdisc holds the frames) rather than lose */
	if (skb_queue_len(&w->queue) >= NICSIM_WIRE_QUEUE_LEN)
		netif_stop_queue(port->netdev);
	spin_unlock(&w->lock);
}

/**
 * nicsim_wire_dilation_get() - the dilation new links take
 *
 * Return: simulated time runs this many times slower than the host's.
 */
u32 nicsim_wire_dilation_get(void)
{
	return READ_ONCE(nicsim_dilation);
}

/**
 * nicsim_wire_dilation_set() - set the dilation new links take
 * @dilation: 1 to NICSIM_DILATION_MAX
 */
void nicsim_wire_dilation_set(u32 dilation)
{
	WRITE_ONCE(nicsim_dilation, dilation);
}

/*
 * /sys/class/net/<port>/wire/: what the port's direction of its wire does,
 * as link_device set it: rate, delay and loss 0 while the port is not
 * linked, or linked without them.
 */
enum {
	NICSIM_WA_RATE,
	NICSIM_WA_DELAY,
	NICSIM_WA_LOSS,
	NICSIM_WA_SEED,
	NICSIM_WA_DILATION,
	NICSIM_WA_N
};

static ssize_t nicsim_wire_show(struct device *d, struct device_attribute *a,
				char *buf);

static struct device_attribute nicsim_wire_dev_attrs[NICSIM_WA_N] = {
	[NICSIM_WA_RATE]	= __ATTR(rate, 0444, nicsim_wire_show, NULL),
	[NICSIM_WA_DELAY]	= __ATTR(delay_ns, 0444, nicsim_wire_show, NULL),
	[NICSIM_WA_LOSS]	= __ATTR(loss_ppm, 0444, nicsim_wire_show, NULL),
	[NICSIM_WA_SEED]	= __ATTR(seed, 0444, nicsim_wire_show, NULL),
	[NICSIM_WA_DILATION]	= __ATTR(dilation, 0444, nicsim_wire_show, NULL),
};

static ssize_t nicsim_wire_show(struct device *d, struct device_attribute *a,
				char *buf)
{
	struct nicsim_port *port = netdev_priv(to_net_dev(d));
	struct nicsim_wire_params p;
	u64 v[NICSIM_WA_N];

	spin_lock_bh(&port->wire.lock);
	p = port->wire.p;
	spin_unlock_bh(&port->wire.lock);
	v[NICSIM_WA_RATE] = p.rate;
	v[NICSIM_WA_DELAY] = p.delay_ns;
	v[NICSIM_WA_LOSS] = p.loss;
	v[NICSIM_WA_SEED] = p.seed;
	v[NICSIM_WA_DILATION] = p.dilation;
	return sysfs_emit(buf, "%llu\n", v[a - nicsim_wire_dev_attrs]);
}

static struct attribute *nicsim_wire_attrs[] = {
	&nicsim_wire_dev_attrs[NICSIM_WA_RATE].attr,
	&nicsim_wire_dev_attrs[NICSIM_WA_DELAY].attr,
	&nicsim_wire_dev_attrs[NICSIM_WA_LOSS].attr,
	&nicsim_wire_dev_attrs[NICSIM_WA_SEED].attr,
	&nicsim_wire_dev_attrs[NICSIM_WA_DILATION].attr,
	NULL,
};

const struct attribute_group nicsim_wire_group = {
	.name	= "wire",
	.attrs	= nicsim_wire_attrs,
};
