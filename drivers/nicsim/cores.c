// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated NIC's cores: one kthread per general-purpose core of the
 * LNIC (at most NICSIM_MAX_CORES), each with a bounded queue of frames, the
 * executor's scratch and an XDP frame buffer. A port with an installed
 * plan hands every frame from the wire to a core chosen by a flow hash, so
 * a flow's frames keep their order; the core runs the plan and acts on the
 * verdict as XDP defines it.
 *
 * The frame buffer is laid out as BPF_PROG_TEST_RUN lays out its frame on
 * the host (4096 bytes, XDP_PACKET_HEADROOM in front, shared-info tailroom
 * reserved), so head and tail adjustments succeed and fail alike.
 */
#include <linux/bpf.h>
#include <linux/etherdevice.h>
#include <linux/filter.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/jhash.h>
#include <linux/kthread.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/ip.h>
#include <net/xdp.h>
#include <trace/events/xdp.h>

#include "nicsim.h"

#define NICSIM_FRAME_SZ		4096
#define NICSIM_TAILROOM		SKB_DATA_ALIGN(sizeof(struct skb_shared_info))
#define NICSIM_FRAME_MAX	(NICSIM_FRAME_SZ - XDP_PACKET_HEADROOM - \
				 NICSIM_TAILROOM)

/*
 * RSS-like flow hash over addresses and ports, so that every frame of a
 * flow goes to the same core and keeps its order.
 */
static u32 nicsim_flow_hash(const u8 *d, u32 len)
{
	u32 off = ETH_HLEN, words[9] = { 0 }, n = 0;
	u16 proto;
	u8 l4 = 0;

	if (len < ETH_HLEN)
		return 0;
	proto = get_unaligned_be16(d + 12);
	if (proto == ETH_P_8021Q && len >= VLAN_ETH_HLEN) {
		proto = get_unaligned_be16(d + 16);
		off = VLAN_ETH_HLEN;
	}
	if (proto == ETH_P_IP && len >= off + sizeof(struct iphdr)) {
		const struct iphdr *ip = (const void *)(d + off);

		words[n++] = get_unaligned((u32 *)&ip->saddr);
		words[n++] = get_unaligned((u32 *)&ip->daddr);
		words[n++] = ip->protocol;
		if (!(get_unaligned_be16(&ip->frag_off) & (IP_MF | IP_OFFSET)))
			l4 = ip->protocol;
		off += ip->ihl * 4;
	} else if (proto == ETH_P_IPV6 && len >= off + sizeof(struct ipv6hdr)) {
		memcpy(words, d + off + 8, 32);	/* saddr, daddr */
		n = 8;
		l4 = d[off + 6];
		off += sizeof(struct ipv6hdr);
	} else {
		memcpy(words, d, 12);		/* MAC addresses */
		return jhash2(words, 3, proto);
	}
	if ((l4 == IPPROTO_TCP || l4 == IPPROTO_UDP) && len >= off + 4)
		words[n++] = get_unaligned((u32 *)(d + off));
	return jhash2(words, n, 0);
}

/* A new skb holding the frame as the program left it. */
static struct sk_buff *nicsim_frame_skb(struct nicsim_port *port,
					const struct nicprog_exec_pkt *pkt)
{
	u32 len = pkt->data_end - pkt->data;
	struct sk_buff *skb;

	skb = netdev_alloc_skb(port->netdev, len);
	if (!skb)
		return NULL;
	skb_put_data(skb, pkt->buf + pkt->data, len);
	return skb;
}

/* The port of this NIC that @ifindex names in @port's namespace. */
static struct nicsim_port *nicsim_redirect_target(struct nicsim_port *port,
						  u32 ifindex)
{
	struct nicsim_dev *ndev = port->ndev;
	struct nicsim_port *p;
	u32 i;

	for (i = 0; i < ndev->port_count; i++) {
		p = ndev->ports[i];
		if (p->netdev->ifindex == ifindex &&
		    net_eq(dev_net(p->netdev), dev_net(port->netdev)))
			return p;
	}
	return NULL;
}

static void nicsim_core_exception(struct nicsim_port *port,
				  const struct nicprog_plan *plan, u32 act)
{
	nicsim_stats_inc(port, xdp_aborted);
	trace_xdp_exception(port->netdev, nicprog_plan_prog(plan), act);
}

/* Run the port's plan on one frame. BH disabled, RCU held. */
static void nicsim_core_run(struct nicsim_core *core, struct nicsim_port *port,
			    struct sk_buff *skb)
{
	const struct nicprog_plan *plan = rcu_dereference(port->plan);
	struct nicprog_exec_pkt pkt;
	struct nicprog_exec_result res;
	struct nicsim_port *out;
	struct sk_buff *nskb;

	if (!plan) {		/* removed while the frame waited */
		nicsim_host_rx(port, skb);
		return;
	}
	if (skb->len > NICSIM_FRAME_MAX || skb_linearize(skb)) {
		nicsim_stats_inc(port, rx_length_errors);
		kfree_skb(skb);
		return;
	}
	pkt = (struct nicprog_exec_pkt){
		.buf = core->frame, .buf_len = NICSIM_FRAME_SZ,
		.head_reserved = sizeof(struct xdp_frame),
		.tail_reserved = NICSIM_TAILROOM,
		.data_meta = XDP_PACKET_HEADROOM, .data = XDP_PACKET_HEADROOM,
		.data_end = XDP_PACKET_HEADROOM + skb->len,
		.ingress_ifindex = port->netdev->ifindex,
	};
	memcpy(core->frame + XDP_PACKET_HEADROOM, skb->data, skb->len);
	consume_skb(skb);

	nicprog_plan_run(plan, core->state, &pkt, &res);
	core->packets++;
	core->cycles += res.cycles;
	if (res.error)
		core->errors++;

	switch (res.action) {
	case XDP_DROP:
		nicsim_stats_inc(port, xdp_drop);
		return;
	case XDP_PASS:
		nskb = nicsim_frame_skb(port, &pkt);
		if (!nskb)
			break;
		nicsim_stats_inc(port, xdp_pass);
		nicsim_host_rx(port, nskb);
		return;
	case XDP_TX:
		nskb = nicsim_frame_skb(port, &pkt);
		if (!nskb)
			break;
		nicsim_stats_inc(port, xdp_tx);
		nicsim_wire_tx(port, nskb);
		return;
	case XDP_REDIRECT:
		out = res.redirect_ifindex ?
		      nicsim_redirect_target(port, res.redirect_ifindex) : NULL;
		if (!out)
			goto exception;
		nskb = nicsim_frame_skb(out, &pkt);
		if (!nskb)
			break;
		nicsim_stats_inc(port, xdp_redirect);
		nicsim_wire_tx(out, nskb);
		return;
	case XDP_ABORTED:
		goto exception;
	default:
		bpf_warn_invalid_xdp_action(port->netdev,
					    nicprog_plan_prog(plan), res.action);
		goto exception;
	}
	/* no memory for the output frame */
	nicsim_stats_inc(port, rx_fifo_errors);
	return;

exception:
	nicsim_core_exception(port, plan, res.action);
}

static int nicsim_core_thread(void *data)
{
	struct nicsim_core *core = data;
	struct sk_buff *skb;

	while (!kthread_should_stop()) {
		wait_event_interruptible(core->wq,
					 !skb_queue_empty(&core->queue) ||
					 kthread_should_stop());
		while ((skb = skb_dequeue(&core->queue))) {
			local_bh_disable();
			rcu_read_lock();
			nicsim_core_run(core, netdev_priv(skb->dev), skb);
			rcu_read_unlock();
			local_bh_enable();
			cond_resched();
		}
	}
	return 0;
}

/**
 * nicsim_cores_steer() - hand a frame from the wire to a NIC core
 * @port: the port it arrived on, which has a plan
 * @skb: the frame; skb->dev is @port's netdev
 *
 * Context: BH disabled.
 * Return: true if queued; false if the core's queue is full (the caller
 * drops and counts the frame).
 */
bool nicsim_cores_steer(struct nicsim_port *port, struct sk_buff *skb)
{
	struct nicsim_dev *ndev = port->ndev;
	struct nicsim_core *core;
	bool queued = false;

	core = ndev->cores[nicsim_flow_hash(skb->data, skb_headlen(skb)) %
			   ndev->n_cores];
	spin_lock(&core->queue.lock);
	if (skb_queue_len(&core->queue) < NICSIM_CORE_QUEUE_LEN) {
		__skb_queue_tail(&core->queue, skb);
		queued = true;
	}
	spin_unlock(&core->queue.lock);
	if (queued)
		wake_up(&core->wq);
	return queued;
}

static void nicsim_core_free(struct nicsim_core *core)
{
	skb_queue_purge(&core->queue);
	kfree(core->state);
	kfree(core->frame);
	kfree(core);
}

/**
 * nicsim_cores_start() - start the NIC's cores
 * @ndev: the NIC, its LNIC set
 *
 * Context: process.
 * Return: 0 or -errno; on error no core runs.
 */
int nicsim_cores_start(struct nicsim_dev *ndev)
{
	const struct nicprog_lnic *lnic = ndev->lnic;
	struct nicsim_core *core;
	u32 i, n = 0;
	int err;

	for (i = 0; i < lnic->n_units; i++)
		if (lnic->units[i].type == NICPROG_UNIT_CORE)
			n += lnic->units[i].count;
	n = clamp_t(u32, n, 1, NICSIM_MAX_CORES);

	for (i = 0; i < n; i++) {
		core = kzalloc(sizeof(*core), GFP_KERNEL);
		if (!core)
			goto err_nomem;
		core->state = kzalloc(sizeof(*core->state), GFP_KERNEL);
		core->frame = kzalloc(NICSIM_FRAME_SZ, GFP_KERNEL);
		if (!core->state || !core->frame) {
			nicsim_core_free(core);
			goto err_nomem;
		}
		core->index = i;
		skb_queue_head_init(&core->queue);
		init_waitqueue_head(&core->wq);
		core->task = kthread_run(nicsim_core_thread, core,
					 NICSIM_DRV_NAME "%u/core%u", ndev->id, i);
		if (IS_ERR(core->task)) {
			err = PTR_ERR(core->task);
			nicsim_core_free(core);
			goto err_stop;
		}
		ndev->cores[i] = core;
		ndev->n_cores = i + 1;
	}
	return 0;

err_nomem:
	err = -ENOMEM;
err_stop:
	nicsim_cores_stop(ndev);
	return err;
}

/**
 * nicsim_cores_stop() - stop the NIC's cores, dropping queued frames
 * @ndev: the NIC; no frame can reach a core any more (its ports are
 *	unlinked and have no plan)
 *
 * Context: process.
 */
void nicsim_cores_stop(struct nicsim_dev *ndev)
{
	while (ndev->n_cores) {
		struct nicsim_core *core = ndev->cores[--ndev->n_cores];

		kthread_stop(core->task);
		nicsim_core_free(core);
	}
}
