// SPDX-License-Identifier: GPL-2.0
/*
 * BPF offload glue: the core's struct bpf_prog_offload_ops (its verifier
 * callbacks are in verifier.c), program lifecycle and the ndo_bpf
 * commands vendor drivers forward to nicprog_ndo_bpf().
 *
 * Locking: destroy runs under bpf_devs_lock (write); ndo_bpf runs under
 * RTNL. An installed program is owned by its port (one reference,
 * nd->xdp_prog, under RTNL).
 *
 * A NIC is one offload device: a program or map bound to one port is
 * usable on its siblings (and moves to one when its port goes), so
 * programs and tables belong to the NIC (struct nicprog_nic), never to a
 * port.
 */
#include <linux/bpf.h>
#include <linux/bpf_verifier.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>

#include "nicprog.h"

static int nicprog_translate(struct bpf_prog *prog)
{
	struct nicprog_prog *np = prog->aux->offload->dev_priv;

	/* finalize ran and succeeded, or the load failed before us. */
	return np->insns ? 0 : -EINVAL;
}

static void nicprog_destroy(struct bpf_prog *prog)
{
	struct nicprog_prog *np = prog->aux->offload->dev_priv;
	struct nicprog_nic *nic = np->nic;

	mutex_lock(&nic->lock);
	list_del_rcu(&np->node);
	mutex_unlock(&nic->lock);
	/* tail calls walking the list (hostmap.c) are past it */
	synchronize_rcu();
	nicprog_ir_free(&np->ir);
	kvfree(np->flags);
	kvfree(np->insns);
	kvfree(np->meta);
	kfree(np);
	mutex_lock(&nic->lock);
	nic->n_progs--;
	mutex_unlock(&nic->lock);
}

static const struct bpf_prog_offload_ops nicprog_bpf_prog_ops = {
	.insn_hook	= nicprog_insn_hook,
	.finalize	= nicprog_finalize,
	.prepare	= nicprog_prepare,
	.translate	= nicprog_translate,
	.destroy	= nicprog_destroy,
};

/* Install, replace or remove the port's program. RTNL held. */
static int nicprog_xdp_setup_hw(struct nicprog_dev *nd, struct netdev_bpf *bpf)
{
	struct nicprog_plan_settings set;
	struct nicprog_plan *plan = NULL;
	struct bpf_prog *prog = bpf->prog;
	struct nicprog_prog *np;
	u32 old_id = 0;
	int err;

	if (prog) {
		/* 6.1's dev_xdp_attach() leaves this check to drivers. */
		if (!bpf_offload_dev_match(prog, nd->netdev)) {
			NL_SET_ERR_MSG_MOD(bpf->extack,
					   "program is offloaded to another device");
			return -EINVAL;
		}
		np = prog->aux->offload->dev_priv;
		if (!np || !np->insns) {
			NL_SET_ERR_MSG_MOD(bpf->extack,
					   "program was not prepared for this NIC");
			return -EINVAL;
		}
		nicprog_plan_settings(nd, &set);
		plan = nicprog_plan_create(nd, np, &set, bpf->extack);
		if (IS_ERR(plan))
			return PTR_ERR(plan);
		err = nicprog_alloc_find(nd, plan, bpf->extack) ?:
		      nicprog_plan_translate(plan, bpf->extack) ?:
		      nd->ops->plan_load(nd, plan, bpf->extack);
		if (err) {
			nicprog_plan_destroy(plan);
			return err;
		}
	} else if (nd->xdp_prog) {
		nd->ops->plan_unload(nd);
	}
	/* No frame runs the old plan any more: its units are free. */
	nicprog_alloc_hold(nd, plan);
	nicprog_plan_destroy(nd->plan);
	nd->plan = plan;
	nicprog_plan_publish(nd, plan);
	/* dev_xdp_install() moved a reference to @prog to us. */
	if (nd->xdp_prog) {
		old_id = nd->xdp_prog->aux->id;
		bpf_prog_put(nd->xdp_prog);
	}
	nd->xdp_prog = prog;
	if (prog || old_id)
		nicprog_nl_notify_prog(nd, old_id);
	return 0;
}

/**
 * nicprog_ndo_bpf() - the core's handling of a port's ndo_bpf
 * @nd: the port
 * @bpf: the command
 *
 * Vendor drivers call this from their ndo_bpf for every command; they
 * implement none of it themselves.
 *
 * Context: RTNL held.
 * Return: 0 or -errno, with an extack message where the command has one.
 */
int nicprog_ndo_bpf(struct nicprog_dev *nd, struct netdev_bpf *bpf)
{
	ASSERT_RTNL();

	switch (bpf->command) {
	case XDP_SETUP_PROG:
		NL_SET_ERR_MSG_MOD(bpf->extack,
				   "native XDP is not supported; use xdpoffload to run on the NIC or xdpgeneric to run on the host");
		return -EOPNOTSUPP;
	case XDP_SETUP_PROG_HW:
		return nicprog_xdp_setup_hw(nd, bpf);
	case BPF_OFFLOAD_MAP_ALLOC:
		return nicprog_table_alloc(nd, bpf->offmap);
	case BPF_OFFLOAD_MAP_FREE:
		nicprog_table_free(bpf->offmap);
		return 0;
	default:
		return -EINVAL;
	}
}
EXPORT_SYMBOL_GPL(nicprog_ndo_bpf);

/**
 * nicprog_bpf_init() - make a NIC a BPF offload device
 * @nic: the NIC, being registered
 *
 * Its ports become targets of the device as they register.
 *
 * Context: RTNL held.
 * Return: 0 or -errno.
 */
int nicprog_bpf_init(struct nicprog_nic *nic)
{
	nic->offdev = bpf_offload_dev_create(&nicprog_bpf_prog_ops, nic);
	return PTR_ERR_OR_ZERO(nic->offdev);
}

/**
 * nicprog_bpf_exit() - undo nicprog_bpf_init()
 * @nic: the NIC, all its ports unregistered (the last took the programs
 *	and maps still bound to the NIC with it)
 *
 * Context: RTNL held.
 */
void nicprog_bpf_exit(struct nicprog_nic *nic)
{
	bpf_offload_dev_destroy(nic->offdev);
	WARN_ON(nic->mem_used || nic->n_tables);
}
