// SPDX-License-Identifier: GPL-2.0
/*
 * nicprog netlink: notifications to the monitor group (programs coming
 * and going, overload, ring drops).
 */
#include <linux/bpf.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/nospec.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/nicprog_compat.h>
#include <net/sock.h>

#include "genl.h"
#include "genl_gen.h"
#include "nicprog.h"
#include "ring/ring.h"

/* @msg to the monitor group; NULL: listeners learn one was lost. */
static void nicprog_nl_monitor_send(struct net *net, struct sk_buff *msg)
{
	if (msg)
		genlmsg_multicast_netns(&nicprog_nl_family, net, msg, 0,
					NICPROG_NLGRP_MONITOR, GFP_KERNEL);
	else
		genl_set_err(&nicprog_nl_family, net, 0,
			     NICPROG_NLGRP_MONITOR, -ENOBUFS);
}

/**
 * nicprog_nl_notify_prog() - tell the monitor group a port's program changed
 * @nd: the port, its new program and plan installed (none: removed)
 * @old_id: the ID of the program it had, 0 for none
 *
 * Sent to listeners in the port's network namespace. A notification that
 * cannot be made is reported to them as ENOBUFS on their sockets, as an
 * overrun is, so that they know to dump again.
 *
 * Context: process, RTNL held.
 */
void nicprog_nl_notify_prog(struct nicprog_dev *nd, u32 old_id)
{
	struct net *net = dev_net(nd->netdev);
	struct genl_info info = {};
	struct sk_buff *msg;
	void *hdr;
	int err;

	ASSERT_RTNL();
	if (!genl_has_listeners(&nicprog_nl_family, net, NICPROG_NLGRP_MONITOR))
		return;
	msg = genlmsg_new(nicprog_nl_plan_size(nd->plan), GFP_KERNEL);
	if (!msg)
		goto lost;
	if (nd->plan) {
		err = nicprog_nl_prog_put(msg, nd, &info,
					  NICPROG_CMD_PROG_ATTACH_NTF, 0,
					  old_id);
	} else {
		err = -EMSGSIZE;
		hdr = genlmsg_put(msg, 0, 0, &nicprog_nl_family, 0,
				  NICPROG_CMD_PROG_DETACH_NTF);
		if (hdr &&
		    !nla_put_u32(msg, NICPROG_A_PROG_IFINDEX,
				 nd->netdev->ifindex) &&
		    !nla_put_string(msg, NICPROG_A_PROG_IFNAME,
				    nd->netdev->name) &&
		    !nla_put_u32(msg, NICPROG_A_PROG_ID, old_id)) {
			genlmsg_end(msg, hdr);
			err = 0;
		}
	}
	if (err) {
		nlmsg_free(msg);
		msg = NULL;
	}
lost:
	nicprog_nl_monitor_send(net, msg);
}

/*
 * An event of the datapath (events.c) to the monitor group: @put adds the
 * attributes after the port's. RTNL held: the netdev's name and namespace
 * hold still, and the port is registered until nicprog_events_stop().
 */
static void nicprog_nl_notify_event(struct nicprog_dev *nd, u8 cmd,
				    int (*put)(struct sk_buff *msg,
					       const u64 *v),
				    const u64 *v)
{
	struct net *net = dev_net(nd->netdev);
	struct sk_buff *msg;
	void *hdr;

	ASSERT_RTNL();
	if (!genl_has_listeners(&nicprog_nl_family, net, NICPROG_NLGRP_MONITOR))
		return;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		goto lost;
	hdr = genlmsg_put(msg, 0, 0, &nicprog_nl_family, 0, cmd);
	if (!hdr || nla_put_u32(msg, NICPROG_A_EVENT_IFINDEX,
				nd->netdev->ifindex) ||
	    nla_put_string(msg, NICPROG_A_EVENT_IFNAME, nd->netdev->name) ||
	    put(msg, v)) {
		nlmsg_free(msg);
		msg = NULL;
	} else {
		genlmsg_end(msg, hdr);
	}
lost:
	nicprog_nl_monitor_send(net, msg);
}

static int nicprog_nl_put_overload(struct sk_buff *msg, const u64 *v)
{
	return nla_put_u32(msg, NICPROG_A_EVENT_STAGE, v[0]) ||
	       nla_put_u64_64bit(msg, NICPROG_A_EVENT_DROPS, v[1],
				 NICPROG_A_EVENT_PAD);
}

/**
 * nicprog_nl_notify_overload() - stage-overload-ntf to the monitor group
 * @nd: the port
 * @stage: the stage whose cores' queues were full
 * @frames: frames they dropped since the last event
 *
 * Context: process, RTNL held.
 */
void nicprog_nl_notify_overload(struct nicprog_dev *nd, u32 stage, u64 frames)
{
	u64 v[] = { stage, frames };

	nicprog_nl_notify_event(nd, NICPROG_CMD_STAGE_OVERLOAD_NTF,
				nicprog_nl_put_overload, v);
}

static int nicprog_nl_put_ring_drops(struct sk_buff *msg, const u64 *v)
{
	return nla_put_u64_64bit(msg, NICPROG_A_EVENT_DROPS, v[0],
				 NICPROG_A_EVENT_PAD) ||
	       nla_put_u64_64bit(msg, NICPROG_A_EVENT_DROP_BYTES, v[1],
				 NICPROG_A_EVENT_PAD) ||
	       nla_put_u64_64bit(msg, NICPROG_A_EVENT_OUTPUTS, v[2],
				 NICPROG_A_EVENT_PAD);
}

/**
 * nicprog_nl_notify_ring_drops() - ring-drops-ntf to the monitor group
 * @nd: the port
 * @drops: records pipes dropped since the last event
 * @bytes: their bytes
 * @outputs: the outputs whose pipes dropped, bit per output
 *
 * Context: process, RTNL held.
 */
void nicprog_nl_notify_ring_drops(struct nicprog_dev *nd, u64 drops,
				  u64 bytes, u64 outputs)
{
	u64 v[] = { drops, bytes, outputs };

	nicprog_nl_notify_event(nd, NICPROG_CMD_RING_DROPS_NTF,
				nicprog_nl_put_ring_drops, v);
}
