// SPDX-License-Identifier: GPL-2.0
/*
 * Host maps a NIC program redirects to: an XSKMAP (AF_XDP sockets) or a
 * CPUMAP (host CPUs) stays the host's -- Linux 6.1 binds neither to a
 * device, and its entries are host objects -- and a table of the HOST kind
 * stands for it on the NIC (table.c). Each such table takes one of the
 * port's slots, holding a reference to the host map; the table's values
 * are the targets that name the slot and the key, which the loader's
 * rewrite of bpf_redirect_map() passes to bpf_redirect(). The NIC hands a
 * frame with such a target to the host, and nicprog_host_redirect() does
 * there what the host's bpf_redirect_map() and xdp_do_redirect() would
 * have done with it: the map's entry for the key receives the frame, or
 * the action the program gave for a missing entry applies.
 *
 * Lifetime: a slot is written under RTNL (table-set, table free) and read
 * under RCU by the driver's receive path. A table's free clears its slot
 * and drops the map at once: XSKMAP's and CPUMAP's map_free wait for a
 * grace period before anything goes (xsk_map_free(), cpu_map_free()), as
 * the XDP programs that use them run under RCU too, and so does a reader
 * here. Slots are taken round-robin, so that a frame still queued for the
 * host when its table goes meets an empty slot rather than a new map.
 */
#include <linux/bpf.h>
#include <linux/filter.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/xdp.h>

#include "nicprog.h"

/**
 * nicprog_hostmap_get() - give a host map a slot of the port
 * @nd: the port
 * @map: the XSKMAP or CPUMAP; a reference is taken
 * @extack: where a refusal's reason goes
 *
 * Context: process, RTNL held.
 * Return: the slot, or -ENOSPC when every slot is taken.
 */
int nicprog_hostmap_get(struct nicprog_dev *nd, struct bpf_map *map,
			struct netlink_ext_ack *extack)
{
	u32 i, s;

	ASSERT_RTNL();
	for (i = 0; i < NICPROG_HOST_MAPS; i++) {
		s = (nd->host_map_next + i) % NICPROG_HOST_MAPS;
		if (rtnl_dereference(nd->host_maps[s]))
			continue;
		bpf_map_inc(map);
		rcu_assign_pointer(nd->host_maps[s], map);
		nd->host_map_next = (s + 1) % NICPROG_HOST_MAPS;
		return s;
	}
	NL_SET_ERR_MSG(extack, "every host map slot of the port is taken (256 XSKMAP and CPUMAP tables)");
	return -ENOSPC;
}

/**
 * nicprog_hostmap_put() - release a slot nicprog_hostmap_get() gave
 * @nd: the port
 * @slot: the slot
 *
 * Context: process, RTNL held.
 */
void nicprog_hostmap_put(struct nicprog_dev *nd, u32 slot)
{
	struct bpf_map *map = rtnl_dereference(nd->host_maps[slot]);

	RCU_INIT_POINTER(nd->host_maps[slot], NULL);
	/* the map's own free waits for readers (see the top) */
	if (map)
		bpf_map_put(map);
}

/**
 * nicprog_hostmap_id() - the ID of the host map in a slot
 * @nd: the port
 * @slot: the slot
 *
 * Context: RTNL held.
 * Return: the map's ID, 0 if the slot is empty.
 */
u32 nicprog_hostmap_id(struct nicprog_dev *nd, u32 slot)
{
	struct bpf_map *map = rtnl_dereference(nd->host_maps[slot]);

	return map ? map->id : 0;
}

/**
 * nicprog_host_target() - is a redirect target a host map's entry?
 * @target: bpf_redirect()'s ifindex as the NIC's program gave it
 *
 * Context: any.
 * Return: true for a target nicprog_host_redirect() takes.
 */
bool nicprog_host_target(u32 target)
{
	const u32 bits = NICPROG_PIPE_TARGET_BIT | NICPROG_HOST_TARGET_BIT;

	return (target & bits) == bits;
}
EXPORT_SYMBOL_GPL(nicprog_host_target);

/**
 * nicprog_host_redirect() - hand a frame to the host map entry it targets
 * @nd: the port the frame arrived on
 * @target: the target, nicprog_host_target()
 * @xdp: the frame in a host receive buffer, its rxq the port's
 * @prog: the program that chose the target, as xdp_do_redirect() and its
 *	tracepoints name it
 *
 * What bpf_redirect_map() and xdp_do_redirect() do on the host: an entry
 * for the key takes the frame (the caller then owns nothing and calls
 * xdp_do_flush() at the end of its poll), a missing one gives the action
 * the program chose for a miss.
 *
 * Context: the port's NAPI poll (BH disabled), RCU held.
 * Return: XDP_REDIRECT when the entry took the frame; the miss action
 * (XDP_ABORTED, XDP_DROP, XDP_PASS or XDP_TX) for the caller to act on as
 * on its native program's verdict; XDP_ABORTED when the slot's map is
 * gone or the entry refused the frame (an AF_XDP socket bound to another
 * queue, a full ring), which the caller traces and counts as its own.
 */
u32 nicprog_host_redirect(struct nicprog_dev *nd, u32 target,
			  struct xdp_buff *xdp, struct bpf_prog *prog)
{
	u32 slot = (target & NICPROG_HOST_TARGET_SLOT) >>
		   NICPROG_HOST_TARGET_SLOT_SHIFT;
	u32 act = (target & NICPROG_HOST_TARGET_ACT) >>
		  NICPROG_HOST_TARGET_ACT_SHIFT;
	struct bpf_map *map;
	u32 ret;

	map = rcu_dereference(nd->host_maps[slot]);
	if (unlikely(!map))
		return XDP_ABORTED;
	/* sets the CPU's redirect info, as the helper does */
	ret = map->ops->map_redirect(map, target & NICPROG_HOST_TARGET_KEY,
				     act);
	if (ret != XDP_REDIRECT)
		return ret;
	return likely(!xdp_do_redirect(nd->netdev, xdp, prog)) ?
	       XDP_REDIRECT : XDP_ABORTED;
}
EXPORT_SYMBOL_GPL(nicprog_host_redirect);
