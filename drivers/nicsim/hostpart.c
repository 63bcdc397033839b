// SPDX-License-Identifier: GPL-2.0
/*
 * The host side of partial offload: a frame the NIC handed over (its run's
 * state in front of it, cores.c) reaches the port's NAPI instance like any
 * received frame, and there -- where a driver runs native XDP, before the
 * stack sees the frame -- the host part of the plan runs on the host CPU.
 * Its verdict is acted on as a NIC core's is: dropped, passed to the
 * stack, sent back out of the port or out of another.
 */
#include <linux/netdevice.h>
#include <linux/timekeeping.h>

#include "nicsim.h"

/**
 * nicsim_host_part() - run the host part of a handed-over frame
 * @port: the port the frame arrived on
 * @skb: the handover, NICSIM_RX_CB(@skb)->ref set; consumed
 *
 * A handover of a plan no longer installed is dropped and counted: its
 * state belongs to a program that is gone.
 *
 * Context: the port's NAPI poll.
 */
void nicsim_host_part(struct nicsim_port *port, struct sk_buff *skb)
{
	const struct nicsim_plan_ref *ref;
	struct nicprog_exec_result res;
	struct nicprog_exec_pkt *pkt;
	u64 t0;
	int err;

	rcu_read_lock();
	ref = rcu_dereference(port->ref);
	if (ref != NICSIM_RX_CB(skb)->ref || !ref->host ||
	    skb_linearize(skb))
		goto drop;
	t0 = ktime_get_ns();
	err = nicprog_plan_host_run(ref->plan, ref->host, skb->data, skb->len,
				    port->netdev->ifindex, &pkt, &res);
	if (err)
		goto drop;
	nicsim_verdict(port, ref->plan, pkt, &res, NULL);
	nicsim_stats_frame(port, host_runs, host_ns, ktime_get_ns() - t0);
	nicsim_stats_add(port, host_insns, res.insns);
	rcu_read_unlock();
	/* the verdict acted on a copy of the frame */
	consume_skb(skb);
	return;
drop:
	rcu_read_unlock();
	nicsim_stats_inc(port, host_errors);
	kfree_skb(skb);
}
