// SPDX-License-Identifier: GPL-2.0
/*
 * nicprog netlink: ports (dev-get, dev-set), their tables (table-set) and
 * profiles (profile-set). Locking as genl.c says.
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

NICPROG_IMPORT_BPF_MAP_GET;

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
			       const struct genl_info *info, u8 cmd, int flags,
			       const struct sk_buff *req)
{
	const struct nicprog_lnic *lnic = nd->nic->lnic;
	const struct nicprog_lnic_summary *sum = &nd->nic->sum;
	char node[NICPROG_NODE_NAME_MAX];
	struct nlattr *nest;
	u8 shape, partial, body16[__NICPROG_ACCEL_MAX];
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
	memcpy(body16, nd->plan_body16, sizeof(body16));
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
		    nla_put_u32(skb, NICPROG_A_ACCEL_COUNT, sum->accels[i]) ||
		    nla_put_u8(skb, NICPROG_A_ACCEL_PLAN_SHARE,
			       NICPROG_SHARE_ALL - body16[i]))
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
	nicprog_node_name(nd, node);
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
	return nicprog_nl_do(skb, info, NICPROG_A_DEV_IFINDEX,
			     NICPROG_A_DEV_IFNAME, nicprog_nl_dev_fill,
			     NLMSG_GOODSIZE);
}

int nicprog_nl_dev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return nicprog_nl_dump(skb, cb, NICPROG_A_DEV_IFINDEX,
			       NICPROG_A_DEV_IFNAME, nicprog_nl_dev_fill);
}

/* plan-share is in the uapi's sixteenths, the offloader's */
static_assert(NICPROG_PLAN_SHARE_ALL == NICPROG_SHARE_ALL);

/*
 * dev-set's accel nests, each a type and its plan-share, onto @body16 (the
 * port's, copied): every one checked before anything is set.
 */
static int nicprog_nl_shares(struct nicprog_dev *nd, struct genl_info *info,
			     u8 *body16)
{
	const struct nicprog_lnic_summary *sum = &nd->nic->sum;
	struct nlattr *tb[NICPROG_A_ACCEL_PLAN_SHARE + 1], *attr;
	int rem, err;
	u32 t;

	nlmsg_for_each_attr(attr, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(attr) != NICPROG_A_DEV_ACCEL)
			continue;
		err = nla_parse_nested(tb, NICPROG_A_ACCEL_PLAN_SHARE, attr,
				       nicprog_accel_nl_policy, info->extack);
		if (err)
			return err;
		if (!tb[NICPROG_A_ACCEL_TYPE] ||
		    !tb[NICPROG_A_ACCEL_PLAN_SHARE] ||
		    tb[NICPROG_A_ACCEL_NAME] || tb[NICPROG_A_ACCEL_COUNT]) {
			NL_SET_ERR_MSG_ATTR(info->extack, attr,
					    "accel in dev-set takes type and plan-share, only them");
			return -EINVAL;
		}
		/* the policy bounds the type */
		t = array_index_nospec(nla_get_u32(tb[NICPROG_A_ACCEL_TYPE]),
				       __NICPROG_ACCEL_MAX);
		if (t == NICPROG_ACCEL_NONE || !sum->accels[t]) {
			NL_SET_ERR_MSG_ATTR(info->extack,
					    tb[NICPROG_A_ACCEL_TYPE],
					    "the NIC has no engine of this accelerator type");
			return -EOPNOTSUPP;
		}
		body16[t] = NICPROG_SHARE_ALL -
			    nla_get_u8(tb[NICPROG_A_ACCEL_PLAN_SHARE]);
	}
	return 0;
}

int nicprog_nl_dev_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	u8 body16[__NICPROG_ACCEL_MAX];
	struct nlattr **a = info->attrs;
	struct nicprog_dev *nd;
	int err = 0;

	if (!a[NICPROG_A_DEV_PLAN_SHAPE] && !a[NICPROG_A_DEV_PLAN_CORES] &&
	    !a[NICPROG_A_DEV_PLAN_PARTIAL] && !a[NICPROG_A_DEV_ACCEL]) {
		NL_SET_ERR_MSG(info->extack,
			       "nothing to set: give plan-shape, plan-cores, plan-partial or accel");
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
	memcpy(body16, nd->plan_body16, sizeof(body16));
	err = nicprog_nl_cores_check(nd, a[NICPROG_A_DEV_PLAN_CORES],
				     info->extack);
	if (!err && a[NICPROG_A_DEV_PLAN_SHAPE] &&
	    !nicprog_shape_runs(nd->nic,
				nla_get_u8(a[NICPROG_A_DEV_PLAN_SHAPE]))) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[NICPROG_A_DEV_PLAN_SHAPE],
				    "the NIC's driver runs no plan of this shape (plan_shapes lists those it runs)");
		err = -EOPNOTSUPP;
	}
	if (!err)
		err = nicprog_nl_shares(nd, info, body16);
	if (!err) {
		memcpy(nd->plan_body16, body16, sizeof(body16));
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

	if (!a[NICPROG_A_DEV_MAP_FD] ||
	    (!a[NICPROG_A_DEV_TABLE_KIND] && !a[NICPROG_A_DEV_TABLE_COUNTERS])) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL,
				     a[NICPROG_A_DEV_MAP_FD] ?
				     NICPROG_A_DEV_TABLE_KIND :
				     NICPROG_A_DEV_MAP_FD);
		NL_SET_ERR_MSG(info->extack,
			       "table-set needs map-fd and table-kind or table-counters");
		return -EINVAL;
	}
	kind = a[NICPROG_A_DEV_TABLE_KIND] ?
	       array_index_nospec(nla_get_u8(a[NICPROG_A_DEV_TABLE_KIND]),
				  __NICPROG_TABLE_KIND_MAX) :
	       NICPROG_TABLE_KIND_PLAIN;
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
	else if (a[NICPROG_A_DEV_TABLE_KIND])
		err = nicprog_table_set_kind(nd->nic, map, kind, host_map,
					     info->extack);
	else
		err = 0;
	if (!err && a[NICPROG_A_DEV_TABLE_COUNTERS])
		err = nicprog_table_set_counters(nd->nic, map,
						 nla_get_u8(a[NICPROG_A_DEV_TABLE_COUNTERS]),
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
	if (a_name && !nicprog_profile_name_ok(nla_data(a_name))) {
		NL_SET_ERR_MSG_ATTR(info->extack, a_name,
				    NICPROG_PROFILE_NAME_RULE);
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
			NL_SET_BAD_ATTR(info->extack, a_text);
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
