// SPDX-License-Identifier: GPL-2.0
/*
 * nicprog generic netlink family: what operators and tools see of the ports
 * (Documentation/netlink/specs/nicprog.yaml; the policies and the ops table
 * are generated from it into genl_gen.c). This file registers the family
 * and holds what every message family shares: finding the port a request
 * names, do and dump; the messages are in genl_dev.c (ports, their
 * settings, tables, profiles), genl_prog.c (plans, predictions),
 * genl_stats.c (counters) and genl_notify.c (the monitor group).
 *
 * Locking: every handler runs under RTNL, which protects the port registry
 * and what a port's messages show of its LNIC, program and plan; the
 * settings sysfs also writes are read and written under the port's
 * plan_lock as there. Ports are those of the requester's network
 * namespace; a dump resumes by the count of ports already sent, so a
 * port registered or removed between two parts of a dump may be missed or
 * repeated, as with other netdev dumps.
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

/* The port a request names by ifindex, ifname or both. RTNL held. */
struct nicprog_dev *nicprog_nl_port(struct net *net, struct nlattr **attrs,
				    u32 a_ifindex, u32 a_ifname,
				    struct netlink_ext_ack *extack)
{
	struct net_device *netdev = NULL, *named;
	struct nicprog_dev *nd;

	if (attrs[a_ifindex]) {
		netdev = __dev_get_by_index(net, nla_get_u32(attrs[a_ifindex]));
		if (!netdev) {
			NL_SET_ERR_MSG_ATTR(extack, attrs[a_ifindex],
					    "no interface has this index");
			return ERR_PTR(-ENODEV);
		}
	}
	if (attrs[a_ifname]) {
		named = __dev_get_by_name(net, nla_data(attrs[a_ifname]));
		if (!named) {
			NL_SET_ERR_MSG_ATTR(extack, attrs[a_ifname],
					    "no interface has this name");
			return ERR_PTR(-ENODEV);
		}
		if (netdev && netdev != named) {
			NL_SET_ERR_MSG_ATTR(extack, attrs[a_ifname],
					    "ifindex and ifname name different interfaces");
			return ERR_PTR(-EINVAL);
		}
		netdev = named;
	}
	if (!netdev) {
		NL_SET_ERR_MSG(extack, "name the port by ifindex or ifname");
		NL_SET_ERR_ATTR_MISS(extack, NULL, a_ifindex);
		return ERR_PTR(-EINVAL);
	}
	nd = nicprog_dev_find(netdev);
	if (!nd) {
		NL_SET_ERR_MSG_ATTR(extack,
				    attrs[a_ifindex] ?: attrs[a_ifname],
				    "the interface is not a nicprog port");
		return ERR_PTR(-EOPNOTSUPP);
	}
	return nd;
}

/*
 * A prog-get reply (or notification, or predict reply) for @plan at its
 * largest: the plan's fixed attributes within NLMSG_GOODSIZE, and per
 * stage, table (its region's name and its reason included), packet class,
 * pool of units and handover entry what its attributes take at most.
 */
size_t nicprog_nl_plan_size(const struct nicprog_plan *plan)
{
	if (!plan)
		return NLMSG_GOODSIZE;
	return NLMSG_GOODSIZE + (size_t)plan->lo.n_stages * 128 +
	       (size_t)plan->lo.n_tables * 320 + NICPROG_PKT_CLASSES * 128 +
	       NICPROG_NL_UNIT_POOLS * 64 + (size_t)plan->n_entries * 8;
}

/*
 * A do request: one port's reply, @size bytes, or as large as its plan
 * needs if @size is 0. A fill returns -ENODATA for a port it has nothing
 * to say about, which only prog-get's does: no program.
 */
int nicprog_nl_do(const struct sk_buff *req, struct genl_info *info,
		  u32 a_ifindex, u32 a_ifname, nicprog_nl_fill_t fill,
		  size_t size)
{
	struct nicprog_dev *nd;
	struct sk_buff *msg = NULL;
	int err;

	rtnl_lock();
	nd = nicprog_nl_port(genl_info_net(info), info->attrs, a_ifindex,
			     a_ifname, info->extack);
	if (IS_ERR(nd)) {
		err = PTR_ERR(nd);
		goto out;
	}
	/* sized under RTNL, which keeps the plan */
	msg = genlmsg_new(size ?: nicprog_nl_plan_size(nd->plan), GFP_KERNEL);
	err = msg ? fill(msg, nd, info, info->genlhdr->cmd, 0, req) : -ENOMEM;
out:
	rtnl_unlock();
	if (err == -ENODATA) {
		NL_SET_ERR_MSG(info->extack, "the port runs no program");
		err = -ENOENT;
	}
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/*
 * A dump: every port of the namespace, or the one the request names.
 * A fill returns -ENODATA for a port it has nothing to say about.
 */
int nicprog_nl_dump(struct sk_buff *skb, struct netlink_callback *cb,
		    u32 a_ifindex, u32 a_ifname, nicprog_nl_fill_t fill)
{
	const struct genl_dumpit_info *di = genl_dumpit_info(cb);
	struct nlattr **attrs = nicprog_dumpit_attrs(di);
	struct net *net = sock_net(skb->sk);
	struct nicprog_dev *nd, *only = NULL;
	struct genl_info info = {
		.snd_portid = NETLINK_CB(cb->skb).portid,
		.snd_seq = cb->nlh->nlmsg_seq,
	};
	unsigned long n;
	int err = 0;

	rtnl_lock();
	if (attrs && (attrs[a_ifindex] || attrs[a_ifname])) {
		only = nicprog_nl_port(net, attrs, a_ifindex, a_ifname,
				       cb->extack);
		if (IS_ERR(only)) {
			err = PTR_ERR(only);
			goto out;
		}
	}
	for (n = cb->args[0]; (nd = nicprog_dev_nth(net, n)); n++) {
		if (only && nd != only)
			continue;
		err = fill(skb, nd, &info, di->op.cmd, NLM_F_MULTI, cb->skb);
		if (err == -ENODATA) {
			err = 0;
			continue;
		}
		if (err)
			break;
	}
	cb->args[0] = n;
out:
	rtnl_unlock();
	/* a full skb ends this part of the dump; the next resumes at n */
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}

/* A core count @attr (if given) asks of the port's NIC: no more than it has. */
int nicprog_nl_cores_check(const struct nicprog_dev *nd,
			   const struct nlattr *attr,
			   struct netlink_ext_ack *extack)
{
	if (!attr || nla_get_u32(attr) <= nd->nic->sum.cores)
		return 0;
	NL_SET_ERR_MSG_ATTR(extack, attr, "more cores than the NIC has");
	return -ERANGE;
}

/* by group, as genl_gen.h numbers them for genlmsg_multicast() */
static const struct genl_multicast_group nicprog_nl_mcgrps[] = {
	[NICPROG_NLGRP_MONITOR] = { .name = NICPROG_MCGRP_MONITOR, },
};

struct genl_family nicprog_nl_family __ro_after_init = {
	.name		= NICPROG_FAMILY_NAME,
	.version	= NICPROG_FAMILY_VERSION,
	.netnsok	= true,
	.parallel_ops	= true,
	.module		= THIS_MODULE,
	.ops		= nicprog_nl_ops,
	.n_ops		= ARRAY_SIZE(nicprog_nl_ops),
	.mcgrps		= nicprog_nl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(nicprog_nl_mcgrps),
	/* a new family: every op checks its header and attributes strictly */
	.resv_start_op	= NICPROG_CMD_DEV_GET,
};

/**
 * nicprog_nl_init() - register the generic netlink family
 *
 * Return: 0 or -errno.
 */
int nicprog_nl_init(void)
{
	return genl_register_family(&nicprog_nl_family);
}

/**
 * nicprog_nl_exit() - unregister the generic netlink family
 */
void nicprog_nl_exit(void)
{
	genl_unregister_family(&nicprog_nl_family);
}
