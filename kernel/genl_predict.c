// SPDX-License-Identifier: GPL-2.0
/*
 * nicprog netlink: predict, the plan a program would get if attached now
 * and its capacity, without attaching it. Locking as genl.c says.
 */
#include <linux/bpf.h>
#include <linux/math64.h>
#include <linux/netdevice.h>
#include <linux/nospec.h>
#include <linux/rtnetlink.h>
#include <net/genetlink.h>

#include "genl.h"
#include "genl_gen.h"
#include "nicprog.h"

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
