// SPDX-License-Identifier: GPL-2.0
/*
 * Native host XDP on nicsim ports: the program runs in the port's NAPI
 * poll on each frame the NIC hands to the host, before any skb exists for
 * the stack, as a NIC driver runs it on its receive ring. It is the
 * baseline an offloaded program is measured against on the same port, and
 * what AF_XDP in copy mode redirects from.
 *
 * The NIC writes a frame into a page fragment from the NAPI fragment cache
 * (MEM_TYPE_PAGE_SHARED): XDP_PACKET_HEADROOM in front, skb_shared_info
 * room behind, one page in all. There is no multi-buffer XDP, so while a
 * program is attached the MTU is at most what one page holds.
 *
 * Frames the NIC's own program passes reach it like any other; a partial
 * offload's host part runs in its place on handovers (hostpart.c), whose
 * verdicts it does not see, and frames the NIC's program redirected to a
 * host XSKMAP or CPUMAP entry go there through the same receive buffers
 * (nicsim_xdp_host_redirect()).
 *
 * Locking: the program pointer is written under RTNL (ndo_bpf) and read
 * under RCU by the NAPI poll. The port owns one reference to it, which the
 * core takes for the driver; the next XDP_SETUP_PROG (at the latest
 * dev_xdp_uninstall() at unregister) releases it, and the program is freed
 * only after a grace period, so a poll still running it is safe.
 */
#include <linux/bpf.h>
#include <linux/etherdevice.h>
#include <linux/filter.h>
#include <linux/if_vlan.h>
#include <linux/rtnetlink.h>
#include <net/xdp.h>
#include <trace/events/xdp.h>

#include "nicsim.h"

#define NICSIM_XDP_BUF_SZ	PAGE_SIZE
#define NICSIM_XDP_FRAME_MAX	(NICSIM_XDP_BUF_SZ - XDP_PACKET_HEADROOM - \
				 SKB_DATA_ALIGN(sizeof(struct skb_shared_info)))
#define NICSIM_XDP_MAX_MTU	(NICSIM_XDP_FRAME_MAX - ETH_HLEN - VLAN_HLEN)

/**
 * nicsim_xdp_setup() - attach, replace or detach a port's native program
 * @port: the port
 * @bpf: the XDP_SETUP_PROG command; @bpf->prog NULL detaches
 *
 * While a program is attached the port's maximum MTU is what one page
 * holds, so that the core refuses a larger one with its own message.
 *
 * Context: RTNL held.
 * Return: 0, or -EINVAL with an extack message if the MTU is too large.
 */
int nicsim_xdp_setup(struct nicsim_port *port, struct netdev_bpf *bpf)
{
	struct net_device *dev = port->netdev;
	struct bpf_prog *old;

	ASSERT_RTNL();
	/* the message names the limit */
	BUILD_BUG_ON(PAGE_SIZE == 4096 && NICSIM_XDP_MAX_MTU != 3502);
	if (bpf->prog && dev->mtu > NICSIM_XDP_MAX_MTU) {
		NL_SET_ERR_MSG_MOD(bpf->extack,
				   "MTU too large for native XDP: a frame must fit one page (MTU 3502 at most with 4 KiB pages)");
		return -EINVAL;
	}
	old = rtnl_dereference(port->xdp_prog);
	rcu_assign_pointer(port->xdp_prog, bpf->prog);
	dev->max_mtu = bpf->prog ? NICSIM_XDP_MAX_MTU : NICSIM_MAX_MTU;
	if (old)
		bpf_prog_put(old);
	return 0;
}

/* An skb over the fragment @xdp lives in; NULL (fragment freed) if none. */
static struct sk_buff *nicsim_xdp_skb(const struct xdp_buff *xdp)
{
	u32 meta = xdp->data - xdp->data_meta;
	struct sk_buff *skb;

	skb = napi_build_skb(xdp->data_hard_start, xdp->frame_sz);
	if (!skb) {
		page_frag_free(xdp->data_hard_start);
		return NULL;
	}
	skb_reserve(skb, xdp->data - xdp->data_hard_start);
	__skb_put(skb, xdp->data_end - xdp->data);
	if (meta)
		skb_metadata_set(skb, meta);
	return skb;
}

/*
 * Act on a verdict for the frame in @buf (@xdp), as the port's native
 * program gave it or a host map redirect's miss (@redirected: the frame
 * is already gone to the map's entry). Returns whether it was redirected.
 */
static bool nicsim_xdp_act(struct nicsim_port *port, struct bpf_prog *prog,
			   struct xdp_buff *xdp, void *buf, u32 act,
			   bool redirected)
{
	struct net_device *dev = port->netdev;
	struct sk_buff *skb;

	switch (act) {
	case XDP_PASS:
		skb = nicsim_xdp_skb(xdp);
		if (unlikely(!skb))
			break;
		nicsim_stats_inc(port, rx_xdp_pass);
		skb->protocol = eth_type_trans(skb, dev);
		nicsim_stats_frame(port, rx_packets, rx_bytes,
				   skb->len + ETH_HLEN);
		netif_receive_skb(skb);
		return false;
	case XDP_TX:
		skb = nicsim_xdp_skb(xdp);
		if (unlikely(!skb))
			break;
		nicsim_stats_inc(port, rx_xdp_tx);
		nicsim_wire_tx(port, skb);
		return false;
	case XDP_REDIRECT:
		if (unlikely(!redirected && xdp_do_redirect(dev, xdp, prog)))
			goto aborted;
		nicsim_stats_inc(port, rx_xdp_redirect);
		return true;
	case XDP_DROP:
		nicsim_stats_inc(port, rx_xdp_drop);
		page_frag_free(buf);
		return false;
	default:
		bpf_warn_invalid_xdp_action(dev, prog, act);
		fallthrough;
	case XDP_ABORTED:
		goto aborted;
	}
	/* no skb for the frame */
	nicsim_stats_inc(port, rx_fifo_errors);
	return false;

aborted:
	trace_xdp_exception(dev, prog, act);
	nicsim_stats_inc(port, rx_xdp_aborted);
	page_frag_free(buf);
	return false;
}

/*
 * The NIC's DMA of @skb into a receive buffer @xdp describes, with the
 * metadata in front of it if @meta; NULL (@skb freed and counted) if it
 * cannot.
 */
static void *nicsim_xdp_buff(struct nicsim_port *port, struct sk_buff *skb,
			     struct xdp_buff *xdp, bool meta)
{
	u32 len = skb->len, metalen = meta ? skb_metadata_len(skb) : 0;
	void *buf;

	/* queued before the MTU was lowered for the program */
	if (unlikely(len > NICSIM_XDP_FRAME_MAX)) {
		nicsim_stats_inc(port, rx_length_errors);
		kfree_skb(skb);
		return NULL;
	}
	buf = napi_alloc_frag(NICSIM_XDP_BUF_SZ);
	if (unlikely(!buf)) {
		nicsim_stats_inc(port, rx_fifo_errors);
		kfree_skb(skb);
		return NULL;
	}
	if (unlikely(skb_copy_bits(skb, 0, buf + XDP_PACKET_HEADROOM, len))) {
		page_frag_free(buf);
		kfree_skb(skb);
		return NULL;
	}
	/* the metadata the NIC's program left, right before the frame */
	memcpy(buf + XDP_PACKET_HEADROOM - metalen, skb->data - metalen,
	       metalen);
	consume_skb(skb);
	xdp_init_buff(xdp, NICSIM_XDP_BUF_SZ, &port->xdp_rxq);
	xdp_prepare_buff(xdp, buf, XDP_PACKET_HEADROOM, len, true);
	xdp->data_meta = xdp->data - metalen;
	return buf;
}

/**
 * nicsim_xdp_rx() - run the port's native program on a received frame
 * @port: the port
 * @prog: its program, under RCU
 * @skb: the frame as the NIC received it, at its Ethernet header; consumed
 *
 * Context: the port's NAPI poll, RCU held.
 * Return: whether the frame was redirected, so that the poll flushes.
 */
bool nicsim_xdp_rx(struct nicsim_port *port, struct bpf_prog *prog,
		   struct sk_buff *skb)
{
	struct xdp_buff xdp;
	void *buf;

	buf = nicsim_xdp_buff(port, skb, &xdp, false);
	if (!buf)
		return false;
	return nicsim_xdp_act(port, prog, &xdp, buf,
			      bpf_prog_run_xdp(prog, &xdp), false);
}

/**
 * nicsim_xdp_host_redirect() - hand a frame to the host map entry the
 *	NIC's program redirected it to
 * @port: the port
 * @skb: the frame, NICSIM_RX_CB(@skb)->host_target set, the NIC's
 *	metadata in front of it; consumed
 *
 * The frame enters a receive buffer as for native XDP, and the core hands
 * it to the XSKMAP's socket or the CPUMAP's CPU (nicprog_host_redirect());
 * a missing entry's action is taken as a native program's verdict. The
 * port's native program does not run: on the host too a frame is
 * redirected by one program. A frame of a plan no longer installed is
 * dropped and counted as a handover is.
 *
 * Context: the port's NAPI poll, RCU held.
 * Return: whether the frame was redirected, so that the poll flushes.
 */
bool nicsim_xdp_host_redirect(struct nicsim_port *port, struct sk_buff *skb)
{
	const struct nicsim_plan_ref *ref = rcu_dereference(port->ref);
	u32 target = NICSIM_RX_CB(skb)->host_target;
	struct bpf_prog *prog;
	struct xdp_buff xdp;
	u32 act;
	void *buf;

	if (!ref || ref != NICSIM_RX_CB(skb)->ref) {
		nicsim_stats_inc(port, host_errors);
		kfree_skb(skb);
		return false;
	}
	buf = nicsim_xdp_buff(port, skb, &xdp, true);
	if (!buf)
		return false;
	prog = nicprog_plan_prog(ref->plan);
	act = nicprog_host_redirect(port->np, target, &xdp, prog);
	return nicsim_xdp_act(port, prog, &xdp, buf, act, true);
}

/**
 * nicsim_xdp_xmit() - &net_device_ops.ndo_xdp_xmit: frames redirected to
 *	the port by another device's XDP program
 * @dev: the port
 * @n: frames in @frames
 * @frames: the frames; those sent are returned to their owner here
 * @flags: XDP_XMIT_FLUSH or 0 (the wire needs no doorbell)
 *
 * The NIC reads each frame from host memory (here: copies it into a new
 * frame) and puts it on the wire.
 *
 * Context: BH disabled (xdp_do_flush()).
 * Return: frames sent, from the first (the caller frees the rest), or
 * -EINVAL for unknown flags, -ENETDOWN if the port is down.
 */
int nicsim_xdp_xmit(struct net_device *dev, int n, struct xdp_frame **frames,
		    u32 flags)
{
	struct nicsim_port *port = netdev_priv(dev);
	struct sk_buff *skb;
	int i;

	if (unlikely(flags & ~XDP_XMIT_FLAGS_MASK))
		return -EINVAL;
	if (unlikely(!netif_running(dev))) {
		nicsim_stats_add(port, xdp_xmit_errors, n);
		return -ENETDOWN;
	}
	for (i = 0; i < n; i++) {
		skb = netdev_alloc_skb(dev, frames[i]->len);
		if (unlikely(!skb))
			break;
		skb_put_data(skb, frames[i]->data, frames[i]->len);
		xdp_return_frame(frames[i]);
		nicsim_wire_tx(port, skb);
	}
	nicsim_stats_add(port, xdp_xmit, i);
	if (unlikely(i < n))
		nicsim_stats_add(port, xdp_xmit_errors, n - i);
	return i;
}

/**
 * nicsim_xdp_init() - register a port's XDP receive queue
 * @port: the port, its NAPI instance added
 *
 * Context: process.
 * Return: 0 or -errno.
 */
int nicsim_xdp_init(struct nicsim_port *port)
{
	int err;

	err = xdp_rxq_info_reg(&port->xdp_rxq, port->netdev, 0,
			       port->napi.napi_id);
	if (err)
		return err;
	err = xdp_rxq_info_reg_mem_model(&port->xdp_rxq, MEM_TYPE_PAGE_SHARED,
					 NULL);
	if (err)
		xdp_rxq_info_unreg(&port->xdp_rxq);
	return err;
}

/**
 * nicsim_xdp_fini() - undo nicsim_xdp_init()
 * @port: the port, unregistered (no poll runs, its program is detached)
 */
void nicsim_xdp_fini(struct nicsim_port *port)
{
	xdp_rxq_info_unreg(&port->xdp_rxq);
}
