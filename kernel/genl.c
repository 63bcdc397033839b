// SPDX-License-Identifier: GPL-2.0
/*
 * nicprog generic netlink family: what operators and tools see of the ports
 * (Documentation/netlink/specs/nicprog.yaml; the policies and the ops table
 * are generated from it into genl_gen.c).
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

#include "genl_gen.h"
#include "nicprog.h"
#include "ring/ring.h"

NICPROG_IMPORT_BPF_MAP_GET;

static struct genl_family nicprog_nl_family;

/*
 * A stats-get reply at its largest: 32 cores, 16 stages, 64 tables, 64
 * bound outputs and 16 unit pools nested stay under 16 KiB by their
 * attribute sizes, but take more than NLMSG_GOODSIZE.
 */
#define NICPROG_NL_STATS_SIZE	(20 * 1024)

/* Pools of fixed-function units stats-get asks a driver for, at most. */
#define NICPROG_NL_UNIT_POOLS	16

/* The port a request names by ifindex, ifname or both. RTNL held. */
static struct nicprog_dev *nicprog_nl_port(struct net *net,
					   struct nlattr **attrs,
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

typedef int (*nicprog_nl_fill_t)(struct sk_buff *skb, struct nicprog_dev *nd,
				 const struct genl_info *info, u8 cmd,
				 int flags);

/*
 * A prog-get reply (or notification, or predict reply) for @plan at its
 * largest: the plan's fixed attributes within NLMSG_GOODSIZE, and per
 * stage, table (its region's name and its reason included), packet class,
 * pool of units and handover entry what its attributes take at most.
 */
static size_t nicprog_nl_plan_size(const struct nicprog_plan *plan)
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
static int nicprog_nl_do(struct genl_info *info, u32 a_ifindex, u32 a_ifname,
			 nicprog_nl_fill_t fill, size_t size)
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
	err = msg ? fill(msg, nd, info, info->genlhdr->cmd, 0) : -ENOMEM;
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
static int nicprog_nl_dump(struct sk_buff *skb, struct netlink_callback *cb,
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
		err = fill(skb, nd, &info, di->op.cmd, NLM_F_MULTI);
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

static int nicprog_nl_put_region(struct sk_buff *skb,
				 const struct nicprog_lnic_region *r)
{
	struct nlattr *nest = nla_nest_start(skb, NICPROG_A_DEV_REGION);

	if (!nest ||
	    nla_put_string(skb, NICPROG_A_REGION_NAME, r->name) ||
	    nla_put_u64_64bit(skb, NICPROG_A_REGION_BYTES, r->size,
			      NICPROG_A_REGION_PAD) ||
	    nla_put_u32(skb, NICPROG_A_REGION_LATENCY, r->latency_cycles) ||
	    nla_put_u32(skb, NICPROG_A_REGION_BANKS, r->banks) ||
	    nla_put_u64_64bit(skb, NICPROG_A_REGION_CACHE_BYTES,
			      r->cache_bytes, NICPROG_A_REGION_PAD) ||
	    nla_put_u32(skb, NICPROG_A_REGION_CACHE_LATENCY, r->cache_cycles) ||
	    nla_put_u32(skb, NICPROG_A_REGION_ISLAND, r->island) ||
	    nla_put_u32(skb, NICPROG_A_REGION_INTERLEAVE, r->interleave))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int nicprog_nl_dev_fill(struct sk_buff *skb, struct nicprog_dev *nd,
			       const struct genl_info *info, u8 cmd, int flags)
{
	const struct nicprog_lnic *lnic = nd->nic->lnic;
	const struct nicprog_lnic_summary *sum = &nd->nic->sum;
	char node[NICPROG_RING_NODE_MAX];
	struct nlattr *nest;
	u8 shape, partial;
	u32 cores, i;
	void *hdr;

	hdr = genlmsg_put(skb, info->snd_portid, info->snd_seq,
			  &nicprog_nl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	mutex_lock(&nd->plan_lock);
	shape = nd->plan_shape;
	cores = nd->plan_cores;
	partial = nd->plan_partial;
	mutex_unlock(&nd->plan_lock);
	if (nla_put_u32(skb, NICPROG_A_DEV_IFINDEX, nd->netdev->ifindex) ||
	    nla_put_string(skb, NICPROG_A_DEV_IFNAME, nd->netdev->name) ||
	    nla_put_string(skb, NICPROG_A_DEV_PROFILE, lnic->name) ||
	    nla_put_u32(skb, NICPROG_A_DEV_CORES, sum->cores) ||
	    nla_put_u32(skb, NICPROG_A_DEV_CORE_THREADS, sum->core_threads) ||
	    nla_put_u32(skb, NICPROG_A_DEV_PARSERS, sum->parsers) ||
	    nla_put_u32(skb, NICPROG_A_DEV_MAT_STAGES, sum->mat_stages) ||
	    nla_put_u32(skb, NICPROG_A_DEV_DMA_ENGINES, sum->dma_engines) ||
	    nla_put_u64_64bit(skb, NICPROG_A_DEV_MEM_BYTES, sum->mem_bytes,
			      NICPROG_A_DEV_PAD) ||
	    nla_put_u32(skb, NICPROG_A_DEV_INSN_STORE, sum->insn_store))
		goto cancel;
	for (i = 0; i < lnic->n_regions; i++)
		if (nicprog_nl_put_region(skb, &lnic->regions[i]))
			goto cancel;
	for (i = NICPROG_ACCEL_NONE + 1; i < __NICPROG_ACCEL_MAX; i++) {
		if (!sum->accels[i])
			continue;
		nest = nla_nest_start(skb, NICPROG_A_DEV_ACCEL);
		if (!nest ||
		    nla_put_u32(skb, NICPROG_A_ACCEL_TYPE, i) ||
		    nla_put_string(skb, NICPROG_A_ACCEL_NAME,
				   nicprog_accel_type_name(i)) ||
		    nla_put_u32(skb, NICPROG_A_ACCEL_COUNT, sum->accels[i]))
			goto cancel;
		nla_nest_end(skb, nest);
	}
	if (nla_put_u8(skb, NICPROG_A_DEV_PLAN_SHAPE, shape) ||
	    nla_put_u32(skb, NICPROG_A_DEV_PLAN_CORES, cores) ||
	    nla_put_u8(skb, NICPROG_A_DEV_PLAN_PARTIAL, partial) ||
	    (nd->xdp_prog &&
	     nla_put_u32(skb, NICPROG_A_DEV_PROG_ID, nd->xdp_prog->aux->id)) ||
	    nla_put_u32(skb, NICPROG_A_DEV_CORES_FREE,
			nicprog_alloc_free(nd, NICPROG_POOL_CORES)))
		goto cancel;
	nicprog_ring_node(nd, node);
	if (nla_put_string(skb, NICPROG_A_DEV_RING_DEV, node))
		goto cancel;
	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

int nicprog_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return nicprog_nl_do(info, NICPROG_A_DEV_IFINDEX, NICPROG_A_DEV_IFNAME,
			     nicprog_nl_dev_fill, NLMSG_GOODSIZE);
}

int nicprog_nl_dev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return nicprog_nl_dump(skb, cb, NICPROG_A_DEV_IFINDEX,
			       NICPROG_A_DEV_IFNAME, nicprog_nl_dev_fill);
}

/* A core count @attr (if given) asks of the port's NIC: no more than it has. */
static int nicprog_nl_cores_check(const struct nicprog_dev *nd,
				  const struct nlattr *attr,
				  struct netlink_ext_ack *extack)
{
	if (!attr || nla_get_u32(attr) <= nd->nic->sum.cores)
		return 0;
	NL_SET_ERR_MSG_ATTR(extack, attr, "more cores than the NIC has");
	return -ERANGE;
}

int nicprog_nl_dev_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct nicprog_dev *nd;
	int err = 0;

	if (!a[NICPROG_A_DEV_PLAN_SHAPE] && !a[NICPROG_A_DEV_PLAN_CORES] &&
	    !a[NICPROG_A_DEV_PLAN_PARTIAL]) {
		NL_SET_ERR_MSG(info->extack,
			       "nothing to set: give plan-shape, plan-cores or plan-partial");
		return -EINVAL;
	}
	rtnl_lock();
	nd = nicprog_nl_port(genl_info_net(info), a, NICPROG_A_DEV_IFINDEX,
			     NICPROG_A_DEV_IFNAME, info->extack);
	if (IS_ERR(nd)) {
		err = PTR_ERR(nd);
		goto out;
	}
	/* check everything first: a refused request changes nothing */
	mutex_lock(&nd->plan_lock);
	err = nicprog_nl_cores_check(nd, a[NICPROG_A_DEV_PLAN_CORES],
				     info->extack);
	if (!err) {
		if (a[NICPROG_A_DEV_PLAN_SHAPE])
			/* the policy bounds it; names are looked up by it */
			nd->plan_shape = array_index_nospec(nla_get_u8(a[NICPROG_A_DEV_PLAN_SHAPE]),
							    __NICPROG_SHAPE_MAX);
		if (a[NICPROG_A_DEV_PLAN_CORES])
			nd->plan_cores = nla_get_u32(a[NICPROG_A_DEV_PLAN_CORES]);
		if (a[NICPROG_A_DEV_PLAN_PARTIAL])
			nd->plan_partial =
				nla_get_u8(a[NICPROG_A_DEV_PLAN_PARTIAL]);
	}
	mutex_unlock(&nd->plan_lock);
out:
	rtnl_unlock();
	return err;
}

/*
 * The map is found by its file descriptor in the caller's table, then
 * only compared with the port's tables: whatever it is, nothing of it is
 * read. A host map (host kind) is checked and, if taken, referenced by
 * the table. Both references are dropped after RTNL: the last put of an
 * offloaded map frees it from a work item that takes RTNL.
 */
int nicprog_nl_table_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct bpf_map *map, *host_map = NULL;
	struct nlattr **a = info->attrs;
	struct nicprog_dev *nd;
	u8 kind;
	int err;

	if (!a[NICPROG_A_DEV_MAP_FD] || !a[NICPROG_A_DEV_TABLE_KIND]) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL,
				     a[NICPROG_A_DEV_MAP_FD] ?
				     NICPROG_A_DEV_TABLE_KIND :
				     NICPROG_A_DEV_MAP_FD);
		NL_SET_ERR_MSG(info->extack, "table-set needs map-fd and table-kind");
		return -EINVAL;
	}
	kind = array_index_nospec(nla_get_u8(a[NICPROG_A_DEV_TABLE_KIND]),
				  __NICPROG_TABLE_KIND_MAX);
	if (!a[NICPROG_A_DEV_HOST_MAP_FD] !=
	    (kind != NICPROG_TABLE_KIND_HOST && kind != NICPROG_TABLE_KIND_PROGS)) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[NICPROG_A_DEV_TABLE_KIND],
				    "host-map-fd goes with the host and progs kinds, and only with them");
		return -EINVAL;
	}
	map = bpf_map_get(nla_get_u32(a[NICPROG_A_DEV_MAP_FD]));
	if (IS_ERR(map)) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[NICPROG_A_DEV_MAP_FD],
				    "not a BPF map's file descriptor");
		return PTR_ERR(map);
	}
	if (a[NICPROG_A_DEV_HOST_MAP_FD]) {
		host_map = bpf_map_get(nla_get_u32(a[NICPROG_A_DEV_HOST_MAP_FD]));
		if (IS_ERR(host_map)) {
			NL_SET_ERR_MSG_ATTR(info->extack,
					    a[NICPROG_A_DEV_HOST_MAP_FD],
					    "not a BPF map's file descriptor");
			bpf_map_put(map);
			return PTR_ERR(host_map);
		}
	}
	rtnl_lock();
	nd = nicprog_nl_port(genl_info_net(info), a, NICPROG_A_DEV_IFINDEX,
			     NICPROG_A_DEV_IFNAME, info->extack);
	if (IS_ERR(nd))
		err = PTR_ERR(nd);
	else
		err = nicprog_table_set_kind(nd->nic, map, kind, host_map,
					     info->extack);
	rtnl_unlock();
	if (host_map)
		bpf_map_put(host_map);
	bpf_map_put(map);
	return err;
}

/*
 * A profile the driver reads from a file (nicsim: firmware file
 * nicsim/<name>.lnic) is read outside RTNL, which a slow file system
 * would otherwise hold: with the port found under RTNL, the driver's
 * module is pinned (its ops table lives), RTNL dropped for the read, and
 * the port looked up again after it (driver guide, Lifetime). NULL text
 * and 0: the driver knows the name without a file.
 */
static int nicprog_nl_profile_request(struct genl_info *info,
				      const char *name,
				      struct nicprog_lnic_text **text)
{
	const struct nicprog_dev_ops *ops;
	struct nicprog_dev *nd;
	int err;

	ASSERT_RTNL();
	nd = nicprog_nl_port(genl_info_net(info), info->attrs,
			     NICPROG_A_DEV_IFINDEX, NICPROG_A_DEV_IFNAME,
			     info->extack);
	if (IS_ERR(nd))
		return PTR_ERR(nd);
	ops = nd->ops;
	if (!ops->profile_request)
		return 0;
	if (!try_module_get(ops->owner))
		return -ENODEV;
	rtnl_unlock();
	err = ops->profile_request(name, text, info->extack);
	module_put(ops->owner);
	rtnl_lock();
	return err;
}

/*
 * The text is parsed here, before RTNL, so that every driver gets a
 * validated LNIC; the parser's reason names a line, which an extack
 * message (a static string) cannot carry, so it goes to the log.
 */
int nicprog_nl_profile_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *a_name = info->attrs[NICPROG_A_DEV_PROFILE];
	struct nlattr *a_text = info->attrs[NICPROG_A_DEV_LNIC_TEXT];
	struct nicprog_lnic_text *text = NULL;
	const char *name = NULL;
	struct nicprog_dev *nd;
	char why[128];
	int err;

	if (!a_name == !a_text) {
		NL_SET_ERR_MSG(info->extack,
			       "give the profile by name (profile) or as text (lnic-text), one of them");
		return -EINVAL;
	}
	if (a_text) {
		text = kvzalloc(sizeof(*text), GFP_KERNEL);
		if (!text)
			return -ENOMEM;
		/* a NUL-terminated string (the policy): the text before it */
		err = nicprog_lnic_parse(nla_data(a_text), nla_len(a_text) - 1,
					 text, why, sizeof(why));
		if (err) {
			nicprog_bad_arg("profile-set",
					"profile text refused: %s", why);
			NICPROG_ERR_MSG_FMT(info->extack,
					    "the profile text does not parse (the tracepoint nicprog:nicprog_bad_arg says where)",
					    "the profile text does not parse: %s",
					    why);
			info->extack->bad_attr = a_text;
			kvfree(text);
			return err;
		}
	}
	rtnl_lock();
	if (a_name) {
		err = nicprog_nl_profile_request(info, nla_data(a_name),
						 &text);
		if (err)
			goto out;
		name = text ? NULL : nla_data(a_name);
	}
	/* found again: RTNL may have been dropped for the driver's read */
	nd = nicprog_nl_port(genl_info_net(info), info->attrs,
			     NICPROG_A_DEV_IFINDEX, NICPROG_A_DEV_IFNAME,
			     info->extack);
	if (IS_ERR(nd)) {
		err = PTR_ERR(nd);
	} else if (!nd->ops->profile_set) {
		NL_SET_ERR_MSG(info->extack,
			       "the port's driver cannot change its NIC's profile");
		err = -EOPNOTSUPP;
	} else {
		err = nd->ops->profile_set(nd->nic, name, text, info->extack);
		text = NULL;	/* the driver's now */
	}
out:
	rtnl_unlock();
	kvfree(text);
	return err;
}

static int nicprog_nl_put_stage(struct sk_buff *skb,
				const struct nicprog_layout *lo, u32 s)
{
	const struct nicprog_stage *st = &lo->stages[s];
	struct nlattr *nest = nla_nest_start(skb, NICPROG_A_PROG_STAGE);

	if (!nest ||
	    nla_put_u32(skb, NICPROG_A_STAGE_INDEX, s) ||
	    nla_put_u32(skb, NICPROG_A_STAGE_FIRST_CORE, st->first_core) ||
	    nla_put_u32(skb, NICPROG_A_STAGE_REPLICAS, st->replicas) ||
	    nla_put_u8(skb, NICPROG_A_STAGE_STEER, st->steer) ||
	    (st->steer == NICPROG_STEER_KEY &&
	     nla_put_u32(skb, NICPROG_A_STAGE_SHARD_TABLE, st->shard_table)) ||
	    nla_put_u32(skb, NICPROG_A_STAGE_NODES, st->n_nodes) ||
	    nla_put_u32(skb, NICPROG_A_STAGE_STATE_BYTES, st->in_bytes) ||
	    nla_put_u64_64bit(skb, NICPROG_A_STAGE_COST,
			      div64_u64(st->cost_fx * 100, NICPROG_FX),
			      NICPROG_A_STAGE_PAD))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int nicprog_nl_put_table(struct sk_buff *skb, struct nicprog_dev *nd,
				const struct nicprog_plan *plan,
				const struct nicprog_prog *np, u32 t)
{
	const struct nicprog_layout *lo = &plan->lo;
	const struct nicprog_table_info *ti = &lo->tables[t];
	struct nlattr *nest = nla_nest_start(skb, NICPROG_A_PROG_TABLE);
	bool host = nicprog_table_in_host(plan->tables[t]) ||
		    (lo->host_tables & BIT_ULL(t));

	if (!nest ||
	    nla_put_u32(skb, NICPROG_A_TABLE_INDEX, t) ||
	    nla_put_string(skb, NICPROG_A_TABLE_NAME, np->maps[t]->name) ||
	    nla_put_u8(skb, NICPROG_A_TABLE_CLASS, ti->cls) ||
	    (ti->mat && lo->mat_units &&
	     nla_put_flag(skb, NICPROG_A_TABLE_MAT)) ||
	    nla_put_string(skb, NICPROG_A_TABLE_REGION,
			   host ? "host" : nd->nic->lnic->regions[ti->region].name) ||
	    nla_put_u64_64bit(skb, NICPROG_A_TABLE_ACCESSES,
			      div64_u64(ti->acc_fx * 100, NICPROG_FX),
			      NICPROG_A_TABLE_PAD) ||
	    (ti->why && nla_put_string(skb, NICPROG_A_TABLE_REASON, ti->why)) ||
	    (nicprog_table_kind(plan->tables[t]) &&
	     nla_put_u8(skb, NICPROG_A_TABLE_KIND,
			nicprog_table_kind(plan->tables[t]))) ||
	    (nicprog_table_host_map_id(plan->tables[t]) &&
	     nla_put_u32(skb, NICPROG_A_TABLE_HOST_MAP_ID,
			 nicprog_table_host_map_id(plan->tables[t]))))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int nicprog_nl_put_host(struct sk_buff *skb,
			       const struct nicprog_plan *plan)
{
	const struct nicprog_layout *lo = &plan->lo;
	struct nlattr *nest = nla_nest_start(skb, NICPROG_A_PROG_HOST);
	u32 n;

	if (!nest ||
	    nla_put_u32(skb, NICPROG_A_HOST_NODES, lo->host_nodes) ||
	    nla_put_u32(skb, NICPROG_A_HOST_INSNS, lo->host_insns) ||
	    nla_put_u32(skb, NICPROG_A_HOST_NIC_INSNS, lo->nic_insns) ||
	    nla_put_u32(skb, NICPROG_A_HOST_SHARE,
			div64_u64(lo->host_share_fx * 10000, NICPROG_FX)) ||
	    nla_put_u32(skb, NICPROG_A_HOST_STATE_BYTES, lo->host_bytes))
		return -EMSGSIZE;
	for (n = 0; n < plan->n_entries; n++)
		if (nla_put_u32(skb, NICPROG_A_HOST_ENTRY,
				nicprog_handover_pc(plan, n)))
			return -EMSGSIZE;
	if (lo->host_why &&
	    nla_put_string(skb, NICPROG_A_HOST_REASON, lo->host_why))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* The plan's static bracket over packet class @c's frames. */
static int nicprog_nl_put_class_bracket(struct sk_buff *skb,
					const struct nicprog_layout *lo,
					u32 c, u32 n_blocks)
{
	const struct nicprog_class_bracket *cb = &lo->cls_br[c];
	struct nlattr *nest;

	nest = nla_nest_start(skb, NICPROG_A_PROG_CLASS_BRACKET);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, NICPROG_A_CLASS_BRACKET_CLASS, c) ||
	    nla_put_string(skb, NICPROG_A_CLASS_BRACKET_NAME,
			   nicprog_pkt_class_name(c)) ||
	    nla_put_u64_64bit(skb, NICPROG_A_CLASS_BRACKET_TPUT_MIN,
			      cb->br.tput_min, NICPROG_A_CLASS_BRACKET_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_CLASS_BRACKET_TPUT_MAX,
			      cb->br.tput_max, NICPROG_A_CLASS_BRACKET_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_CLASS_BRACKET_LATENCY_MIN,
			      cb->br.lat_min, NICPROG_A_CLASS_BRACKET_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_CLASS_BRACKET_LATENCY_MAX,
			      cb->br.lat_max, NICPROG_A_CLASS_BRACKET_PAD) ||
	    nla_put_u32(skb, NICPROG_A_CLASS_BRACKET_BLOCKS, cb->blocks) ||
	    nla_put_u32(skb, NICPROG_A_CLASS_BRACKET_OF_BLOCKS, n_blocks)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int nicprog_nl_put_plan_unit(struct sk_buff *skb, u8 type, u8 accel,
				    u32 count, u32 total)
{
	struct nlattr *nest = nla_nest_start(skb, NICPROG_A_PROG_UNIT);

	if (!nest ||
	    nla_put_u8(skb, NICPROG_A_PLAN_UNIT_TYPE, type) ||
	    (accel != NICPROG_ACCEL_NONE &&
	     nla_put_u8(skb, NICPROG_A_PLAN_UNIT_ACCEL, accel)) ||
	    nla_put_u32(skb, NICPROG_A_PLAN_UNIT_COUNT, count) ||
	    nla_put_u32(skb, NICPROG_A_PLAN_UNIT_TOTAL, total))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* The plan's slice of each pool of units it uses. */
static int nicprog_nl_put_plan_units(struct sk_buff *skb,
				     const struct nicprog_dev *nd,
				     const struct nicprog_layout *lo)
{
	u32 t;

	for (t = NICPROG_ACCEL_NONE + 1; t < __NICPROG_ACCEL_MAX; t++)
		if (lo->accel_count[t] &&
		    nicprog_nl_put_plan_unit(skb, NICPROG_UNIT_ACCEL, t,
					     lo->accel_count[t],
					     nd->nic->sum.accels[t]))
			return -EMSGSIZE;
	if (lo->mat_units &&
	    nicprog_nl_put_plan_unit(skb, NICPROG_UNIT_MAT, NICPROG_ACCEL_NONE,
				     lo->mat_units, nd->nic->sum.mat_stages))
		return -EMSGSIZE;
	return 0;
}

/*
 * @plan of @nd's program, as prog-get, predict and notifications show it,
 * with @old_id for a replacement. Leaves the message open for more.
 * RTNL held.
 */
static int nicprog_nl_plan_put(struct sk_buff *skb, struct nicprog_dev *nd,
			       const struct nicprog_plan *plan, u32 old_id)
{
	const struct nicprog_layout *lo = &plan->lo;
	const struct nicprog_prog *np = plan->prog->aux->offload->dev_priv;
	u32 i;

	if (nla_put_u32(skb, NICPROG_A_PROG_IFINDEX, nd->netdev->ifindex) ||
	    nla_put_string(skb, NICPROG_A_PROG_IFNAME, nd->netdev->name) ||
	    nla_put_u32(skb, NICPROG_A_PROG_ID, plan->prog->aux->id) ||
	    nla_put_string(skb, NICPROG_A_PROG_NAME, plan->prog->aux->name) ||
	    nla_put_u32(skb, NICPROG_A_PROG_INSNS, np->len) ||
	    nla_put_string(skb, NICPROG_A_PROG_SHAPE,
			   nicprog_layout_shape(lo)) ||
	    nla_put_u8(skb, NICPROG_A_PROG_SHAPE_ASKED, lo->shape) ||
	    nla_put_u32(skb, NICPROG_A_PROG_CORES, lo->cores) ||
	    nla_put_u32(skb, NICPROG_A_PROG_BUDGET, lo->budget) ||
	    nla_put_u64_64bit(skb, NICPROG_A_PROG_TPUT, lo->tput,
			      NICPROG_A_PROG_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_PROG_LATENCY, lo->lat,
			      NICPROG_A_PROG_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_PROG_TPUT_MIN, lo->br_tput_min,
			      NICPROG_A_PROG_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_PROG_TPUT_MAX, lo->br_tput_max,
			      NICPROG_A_PROG_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_PROG_LATENCY_MIN, lo->br_lat_min,
			      NICPROG_A_PROG_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_PROG_LATENCY_MAX, lo->br_lat_max,
			      NICPROG_A_PROG_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_PROG_VERIFY_NS, np->verify_ns,
			      NICPROG_A_PROG_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_PROG_PLAN_NS,
			      np->ir_ns + plan->plan_ns, NICPROG_A_PROG_PAD) ||
	    (old_id && nla_put_u32(skb, NICPROG_A_PROG_OLD_ID, old_id)) ||
	    ((np->sources & NICPROG_IR_READS_CLOCK) &&
	     nla_put_flag(skb, NICPROG_A_PROG_READS_CLOCK)) ||
	    ((np->sources & NICPROG_IR_READS_RANDOM) &&
	     nla_put_flag(skb, NICPROG_A_PROG_READS_RANDOM)))
		return -EMSGSIZE;
	for (i = 0; i < NICPROG_PKT_CLASSES; i++)
		if (nicprog_nl_put_class_bracket(skb, lo, i, np->ir.n_blocks))
			return -EMSGSIZE;
	for (i = 0; i < lo->n_stages; i++)
		if (nicprog_nl_put_stage(skb, lo, i))
			return -EMSGSIZE;
	for (i = 0; i < lo->n_tables; i++)
		if (nicprog_nl_put_table(skb, nd, plan, np, i))
			return -EMSGSIZE;
	if (lo->node_host && nicprog_nl_put_host(skb, plan))
		return -EMSGSIZE;
	return nicprog_nl_put_plan_units(skb, nd, lo);
}

/* The program and plan of @nd, with @old_id for a replacement. RTNL held. */
static int nicprog_nl_prog_put(struct sk_buff *skb, struct nicprog_dev *nd,
			       const struct genl_info *info, u8 cmd, int flags,
			       u32 old_id)
{
	void *hdr;

	if (!nd->plan)
		return -ENODATA;
	hdr = genlmsg_put(skb, info->snd_portid, info->snd_seq,
			  &nicprog_nl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (nicprog_nl_plan_put(skb, nd, nd->plan, old_id)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static int nicprog_nl_prog_fill(struct sk_buff *skb, struct nicprog_dev *nd,
				const struct genl_info *info, u8 cmd, int flags)
{
	return nicprog_nl_prog_put(skb, nd, info, cmd, flags, 0);
}

int nicprog_nl_prog_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return nicprog_nl_do(info, NICPROG_A_PROG_IFINDEX,
			     NICPROG_A_PROG_IFNAME, nicprog_nl_prog_fill, 0);
}

int nicprog_nl_prog_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return nicprog_nl_dump(skb, cb, NICPROG_A_PROG_IFINDEX,
			       NICPROG_A_PROG_IFNAME, nicprog_nl_prog_fill);
}

/* Frames per second the plan's cores reach: its rate is per million cycles. */
static u64 nicprog_nl_capacity(const struct nicprog_dev *nd,
			       const struct nicprog_plan *plan)
{
	u32 mhz = nd->nic->lnic->units[plan->lo.core_unit].clock_mhz;

	if (plan->lo.tput >= div64_u64(U64_MAX, max(mhz, 1U)))
		return U64_MAX;
	return plan->lo.tput * mhz;
}

/* The predict reply for @plan and the workload's @rate (0: none). */
static int nicprog_nl_predict_put(struct sk_buff *msg, struct nicprog_dev *nd,
				  const struct nicprog_plan *plan, u64 rate,
				  const struct genl_info *info)
{
	u64 cap = nicprog_nl_capacity(nd, plan), load;
	void *hdr;

	hdr = genlmsg_put(msg, info->snd_portid, info->snd_seq,
			  &nicprog_nl_family, 0, NICPROG_CMD_PREDICT);
	if (!hdr)
		return -EMSGSIZE;
	load = !rate ? 0 : cap ? mul_u64_u64_div_u64(rate, 10000, cap) :
	       U32_MAX;
	if (nicprog_nl_plan_put(msg, nd, plan, 0) ||
	    nla_put_u64_64bit(msg, NICPROG_A_PROG_CAPACITY, cap,
			      NICPROG_A_PROG_PAD) ||
	    (rate && nla_put_u32(msg, NICPROG_A_PROG_LOAD,
				 min_t(u64, load, U32_MAX)))) {
		genlmsg_cancel(msg, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return 0;
}

/*
 * The plan a program would have if attached now, made as attaching makes
 * it and then freed: nothing of the port changes. The program's reference
 * keeps it; RTNL keeps the port and the program's offload state.
 */
int nicprog_nl_predict_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct nicprog_plan_settings set;
	struct nicprog_plan *plan = NULL;
	struct nicprog_prog *np;
	struct nicprog_dev *nd;
	struct bpf_prog *prog;
	struct sk_buff *msg = NULL;
	int err;

	if (!a[NICPROG_A_PROG_FD]) {
		NL_SET_ERR_MSG(info->extack,
			       "give the program as a file descriptor (fd)");
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, NICPROG_A_PROG_FD);
		return -EINVAL;
	}
	prog = bpf_prog_get_type_dev(nla_get_u32(a[NICPROG_A_PROG_FD]),
				     BPF_PROG_TYPE_XDP, true);
	if (IS_ERR(prog)) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[NICPROG_A_PROG_FD],
				    "fd is not an XDP program");
		return PTR_ERR(prog);
	}
	rtnl_lock();
	nd = nicprog_nl_port(genl_info_net(info), a, NICPROG_A_PROG_IFINDEX,
			     NICPROG_A_PROG_IFNAME, info->extack);
	if (IS_ERR(nd)) {
		err = PTR_ERR(nd);
		goto out_unlock;
	}
	np = bpf_offload_dev_match(prog, nd->netdev) ?
	     prog->aux->offload->dev_priv : NULL;
	if (!np || !np->insns) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[NICPROG_A_PROG_FD],
				    "the program is not loaded for offload to this port's NIC");
		err = -EINVAL;
		goto out_unlock;
	}
	nicprog_plan_settings(nd, &set);
	if (a[NICPROG_A_PROG_SHAPE_ASKED])
		set.shape = array_index_nospec(nla_get_u8(a[NICPROG_A_PROG_SHAPE_ASKED]),
					       __NICPROG_SHAPE_MAX);
	err = nicprog_nl_cores_check(nd, a[NICPROG_A_PROG_BUDGET],
				     info->extack);
	if (err)
		goto out_unlock;
	if (a[NICPROG_A_PROG_BUDGET])
		set.cores = nla_get_u32(a[NICPROG_A_PROG_BUDGET]);
	plan = nicprog_plan_create(nd, np, &set, info->extack);
	if (IS_ERR(plan)) {
		err = PTR_ERR(plan);
		plan = NULL;
		goto out_unlock;
	}
	msg = genlmsg_new(nicprog_nl_plan_size(plan), GFP_KERNEL);
	if (!msg) {
		err = -ENOMEM;
		goto out_unlock;
	}
	err = nicprog_nl_predict_put(msg, nd, plan,
				     a[NICPROG_A_PROG_RATE] ?
				     nla_get_u64(a[NICPROG_A_PROG_RATE]) : 0,
				     info);
out_unlock:
	rtnl_unlock();
	nicprog_plan_destroy(plan);
	bpf_prog_put(prog);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/* A stage's cores' counters, summed for stats-get. */
struct nicprog_nl_stage_sum {
	u64 packets;
	u64 busy;
	u64 drops;
	u32 cores;
};

/* The stage of the port's plan NIC core @cs runs, or NICPROG_CORE_NONE. */
static u32 nicprog_nl_core_stage(const struct nicprog_plan *plan,
				 const struct nicprog_core_stats *cs)
{
	if (!plan || cs->plan_core >= nicprog_plan_cores(plan))
		return NICPROG_CORE_NONE;
	return nicprog_plan_core_stage(plan, cs->plan_core);
}

static int nicprog_nl_put_core(struct sk_buff *skb, u32 i,
			       const struct nicprog_core_stats *cs, u32 stage)
{
	struct nlattr *nest = nla_nest_start(skb, NICPROG_A_STATS_CORE);

	if (!nest ||
	    nla_put_u32(skb, NICPROG_A_CORE_STATS_INDEX, i) ||
	    nla_put_u64_64bit(skb, NICPROG_A_CORE_STATS_PACKETS, cs->packets,
			      NICPROG_A_CORE_STATS_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_CORE_STATS_BUSY, cs->busy,
			      NICPROG_A_CORE_STATS_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_CORE_STATS_ELAPSED, cs->elapsed,
			      NICPROG_A_CORE_STATS_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_CORE_STATS_DROPS, cs->drops,
			      NICPROG_A_CORE_STATS_PAD) ||
	    (stage != NICPROG_CORE_NONE &&
	     nla_put_u32(skb, NICPROG_A_CORE_STATS_STAGE, stage)))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int nicprog_nl_put_stage_sum(struct sk_buff *skb, u32 s,
				    const struct nicprog_nl_stage_sum *sum)
{
	struct nlattr *nest = nla_nest_start(skb, NICPROG_A_STATS_STAGE);

	if (!nest ||
	    nla_put_u32(skb, NICPROG_A_STAGE_STATS_INDEX, s) ||
	    nla_put_u32(skb, NICPROG_A_STAGE_STATS_CORES, sum->cores) ||
	    nla_put_u64_64bit(skb, NICPROG_A_STAGE_STATS_PACKETS, sum->packets,
			      NICPROG_A_STAGE_STATS_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_STAGE_STATS_BUSY, sum->busy,
			      NICPROG_A_STAGE_STATS_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_STAGE_STATS_DROPS, sum->drops,
			      NICPROG_A_STAGE_STATS_PAD))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * The cores' counters, nested per core, and per stage of the port's plan
 * those of its cores summed. RTNL held: the plan is the one the driver
 * says its cores run.
 */
static int nicprog_nl_put_cores(struct sk_buff *skb, struct nicprog_dev *nd)
{
	struct nicprog_nl_stage_sum sum[NICPROG_MAX_STAGES] = {};
	const struct nicprog_plan *plan = nd->plan;
	struct nicprog_core_stats *cs;
	u32 n, i, s;
	int err = 0;

	cs = nicprog_cores_read(nd, &n);
	if (IS_ERR(cs))
		return PTR_ERR(cs) == -EOPNOTSUPP ? 0 : PTR_ERR(cs);
	for (i = 0; i < n && !err; i++) {
		s = nicprog_nl_core_stage(plan, &cs[i]);
		err = nicprog_nl_put_core(skb, i, &cs[i], s);
		if (s >= NICPROG_MAX_STAGES)
			continue;
		sum[s].packets += cs[i].packets;
		sum[s].busy += cs[i].busy;
		sum[s].drops += cs[i].drops;
		sum[s].cores++;
	}
	for (s = 0; plan && s < plan->lo.n_stages && !err; s++)
		if (sum[s].cores)
			err = nicprog_nl_put_stage_sum(skb, s, &sum[s]);
	kfree(cs);
	return err;
}

/* How full the tables of the port's program are. RTNL held. */
static int nicprog_nl_put_table_stats(struct sk_buff *skb,
				      struct nicprog_dev *nd)
{
	const struct nicprog_plan *plan = nd->plan;
	const struct nicprog_prog *np;
	struct nlattr *nest;
	u32 t, entries, max;
	u64 bytes;

	if (!plan)
		return 0;
	np = plan->prog->aux->offload->dev_priv;
	for (t = 0; t < plan->lo.n_tables; t++) {
		bytes = nicprog_table_usage(plan->tables[t], &entries, &max);
		nest = nla_nest_start(skb, NICPROG_A_STATS_TABLE);
		if (!nest ||
		    nla_put_u32(skb, NICPROG_A_TABLE_STATS_INDEX, t) ||
		    nla_put_string(skb, NICPROG_A_TABLE_STATS_NAME,
				   np->maps[t]->name) ||
		    nla_put_u32(skb, NICPROG_A_TABLE_STATS_ENTRIES, entries) ||
		    nla_put_u32(skb, NICPROG_A_TABLE_STATS_MAX_ENTRIES, max) ||
		    nla_put_u64_64bit(skb, NICPROG_A_TABLE_STATS_BYTES, bytes,
				      NICPROG_A_TABLE_STATS_PAD))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
}

/* The NF outputs with an RX pipe bound, and what each pipe saw. */
static int nicprog_nl_put_ring_stats(struct sk_buff *skb,
				     struct nicprog_dev *nd)
{
	struct nicprog_pipe_stats st;
	struct nlattr *nest;
	u32 out;

	for (out = 0; out < NICPROG_RING_OUTPUTS; out++) {
		if (!nicprog_ring_output_stats(nd, out, &st))
			continue;
		nest = nla_nest_start(skb, NICPROG_A_STATS_RING);
		if (!nest ||
		    nla_put_u32(skb, NICPROG_A_RING_STATS_OUTPUT, out) ||
		    nla_put_u32(skb, NICPROG_A_RING_STATS_SIZE, st.size) ||
		    nla_put_u64_64bit(skb, NICPROG_A_RING_STATS_BYTES, st.bytes,
				      NICPROG_A_RING_STATS_PAD) ||
		    nla_put_u64_64bit(skb, NICPROG_A_RING_STATS_CONSUMED,
				      st.consumed, NICPROG_A_RING_STATS_PAD) ||
		    nla_put_u64_64bit(skb, NICPROG_A_RING_STATS_DROPS, st.drops,
				      NICPROG_A_RING_STATS_PAD) ||
		    nla_put_u64_64bit(skb, NICPROG_A_RING_STATS_DROP_BYTES,
				      st.drop_bytes, NICPROG_A_RING_STATS_PAD) ||
		    (st.backpressure &&
		     nla_put_flag(skb, NICPROG_A_RING_STATS_BACKPRESSURE)) ||
		    nla_put_u32(skb, NICPROG_A_RING_STATS_COALESCE_USECS,
				st.coalesce_usecs) ||
		    nla_put_u32(skb, NICPROG_A_RING_STATS_COALESCE_BYTES,
				st.coalesce_bytes))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
}

static int nicprog_nl_put_unit(struct sk_buff *skb,
			       const struct nicprog_unit_stats *us)
{
	struct nlattr *nest = nla_nest_start(skb, NICPROG_A_STATS_UNIT);

	if (!nest ||
	    nla_put_u8(skb, NICPROG_A_UNIT_STATS_TYPE, us->type) ||
	    (us->accel != NICPROG_ACCEL_NONE &&
	     nla_put_u8(skb, NICPROG_A_UNIT_STATS_ACCEL, us->accel)) ||
	    nla_put_u32(skb, NICPROG_A_UNIT_STATS_COUNT, us->count) ||
	    nla_put_u64_64bit(skb, NICPROG_A_UNIT_STATS_JOBS, us->jobs,
			      NICPROG_A_UNIT_STATS_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_UNIT_STATS_BUSY, us->busy,
			      NICPROG_A_UNIT_STATS_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_UNIT_STATS_WAIT, us->wait,
			      NICPROG_A_UNIT_STATS_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_UNIT_STATS_ELAPSED, us->elapsed,
			      NICPROG_A_UNIT_STATS_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_UNIT_STATS_REFUSED, us->refused,
			      NICPROG_A_UNIT_STATS_PAD))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* The NIC's pools of fixed-function units, when the driver counts them. */
static int nicprog_nl_put_units(struct sk_buff *skb, struct nicprog_dev *nd)
{
	struct nicprog_unit_stats *us;
	u32 n, i;
	int err = 0;

	if (!nd->ops->unit_stats)
		return 0;
	us = kcalloc(NICPROG_NL_UNIT_POOLS, sizeof(*us), GFP_KERNEL);
	if (!us)
		return -ENOMEM;
	n = min_t(u32, nd->ops->unit_stats(nd->nic, us, NICPROG_NL_UNIT_POOLS),
		  NICPROG_NL_UNIT_POOLS);
	for (i = 0; i < n && !err; i++)
		err = nicprog_nl_put_unit(skb, &us[i]);
	kfree(us);
	return err;
}

static int nicprog_nl_stats_fill(struct sk_buff *skb, struct nicprog_dev *nd,
				 const struct genl_info *info, u8 cmd,
				 int flags)
{
	struct nicprog_port_stats st = {};
	void *hdr;
	int err;

	nd->ops->port_stats(nd, &st);
	hdr = genlmsg_put(skb, info->snd_portid, info->snd_seq,
			  &nicprog_nl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, NICPROG_A_STATS_IFINDEX, nd->netdev->ifindex) ||
	    nla_put_string(skb, NICPROG_A_STATS_IFNAME, nd->netdev->name) ||
	    nla_put_u64_64bit(skb, NICPROG_A_STATS_WIRE_RX_PACKETS,
			      st.wire_rx_packets, NICPROG_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_STATS_WIRE_RX_BYTES,
			      st.wire_rx_bytes, NICPROG_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_STATS_WIRE_TX_PACKETS,
			      st.wire_tx_packets, NICPROG_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_STATS_WIRE_TX_BYTES,
			      st.wire_tx_bytes, NICPROG_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_STATS_HOST_RX_PACKETS,
			      st.host_rx_packets, NICPROG_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_STATS_HOST_RX_BYTES,
			      st.host_rx_bytes, NICPROG_A_STATS_PAD) ||
	    nla_put_u64_64bit(skb, NICPROG_A_STATS_NIC_DROPS, st.nic_drops,
			      NICPROG_A_STATS_PAD) ||
	    nla_put_u32(skb, NICPROG_A_STATS_RING_PIPES,
			atomic_read(&nd->ring_pipes))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	err = nicprog_nl_put_cores(skb, nd) ?:
	      nicprog_nl_put_table_stats(skb, nd) ?:
	      nicprog_nl_put_ring_stats(skb, nd) ?:
	      nicprog_nl_put_units(skb, nd);
	if (err) {
		genlmsg_cancel(skb, hdr);
		return err;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

int nicprog_nl_stats_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return nicprog_nl_do(info, NICPROG_A_STATS_IFINDEX,
			     NICPROG_A_STATS_IFNAME, nicprog_nl_stats_fill,
			     NICPROG_NL_STATS_SIZE);
}

int nicprog_nl_stats_get_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb)
{
	return nicprog_nl_dump(skb, cb, NICPROG_A_STATS_IFINDEX,
			       NICPROG_A_STATS_IFNAME, nicprog_nl_stats_fill);
}

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

/* by group, as genl_gen.h numbers them for genlmsg_multicast() */
static const struct genl_multicast_group nicprog_nl_mcgrps[] = {
	[NICPROG_NLGRP_MONITOR] = { .name = NICPROG_MCGRP_MONITOR, },
};

static struct genl_family nicprog_nl_family __ro_after_init = {
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
