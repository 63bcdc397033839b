// SPDX-License-Identifier: GPL-2.0
/*
 * Host maps a NIC program redirects to: an XSKMAP (AF_XDP sockets) or a
 * CPUMAP (host CPUs) stays the host's -- Linux 6.1 binds neither to a
 * device, and its entries are host objects -- and a table of the HOST kind
 * stands for it on the NIC (table.c; the core keeps it, table_lib.c). A
 * PROG_ARRAY of tail call targets does too (the PROGS kind): its entries
 * hold programs, of which the NIC runs those prepared for the NIC
 * (nicprog_tail_prog()). Each such table
 * takes one of the NIC's slots, holding a reference to the host map; the
 * table's values are the targets that name the slot and the key, which
 * the loader's rewrite of bpf_redirect_map() passes to bpf_redirect() (for
 * a PROG_ARRAY, lookups compute them, nicprog_hostmap_tail()). The NIC
 * hands a frame with a host map's target to the host, and
 * nicprog_host_redirect() does there what the host's bpf_redirect_map()
 * and xdp_do_redirect() would have done with it: the map's entry for the
 * key receives the frame, or the action the program gave for a missing
 * entry applies.
 *
 * Lifetime: a slot is written under RTNL (table-set, table free) and read
 * under RCU by the driver's receive path. A table's free clears its slot
 * and drops the map at once: XSKMAP's and CPUMAP's map_free wait for a
 * grace period before anything goes (xsk_map_free(), cpu_map_free()), as
 * the XDP programs that use them run under RCU too, and so does a reader
 * here. Slots are taken round-robin, so that a frame still queued for the
 * host when its table goes meets an empty slot rather than a new map.
 *
 * A PROG_ARRAY's slot is only read while a program that uses its table
 * runs (the program holds the table's map, so the table and its slot), and
 * its entries under RCU as bpf_tail_call() reads them: a program leaves an
 * entry before its last reference goes, and is freed a grace period after
 * that. Whether an entry's program is one of the
 * NIC's is found in the NIC's list of prepared programs (@progs of
 * struct nicprog_nic), never through the program itself, which may be
 * bound to another device that is going.
 */
#include <linux/bpf.h>
#include <linux/filter.h>
#include <linux/netdevice.h>
#include <linux/nospec.h>
#include <linux/rtnetlink.h>
#include <net/xdp.h>

#include "nicprog.h"

/**
 * nicprog_hostmap_get() - give a host map a slot of the NIC
 * @nic: the NIC
 * @map: the XSKMAP, CPUMAP or PROG_ARRAY; a reference is taken
 * @extack: where a refusal's reason goes
 *
 * Context: process, RTNL held.
 * Return: the slot, or -ENOSPC when every slot is taken.
 */
int nicprog_hostmap_get(struct nicprog_nic *nic, struct bpf_map *map,
			struct netlink_ext_ack *extack)
{
	u32 i, s;

	ASSERT_RTNL();
	for (i = 0; i < NICPROG_HOST_MAPS; i++) {
		s = (nic->host_map_next + i) % NICPROG_HOST_MAPS;
		if (rtnl_dereference(nic->host_maps[s]))
			continue;
		bpf_map_inc(map);
		rcu_assign_pointer(nic->host_maps[s], map);
		nic->host_map_next = (s + 1) % NICPROG_HOST_MAPS;
		return s;
	}
	NL_SET_ERR_MSG(extack,
		       "every host map slot of the NIC is taken (256 XSKMAP, CPUMAP and PROG_ARRAY tables)");
	return -ENOSPC;
}

/**
 * nicprog_hostmap_put() - release a slot nicprog_hostmap_get() gave
 * @nic: the NIC
 * @slot: the slot
 *
 * Context: process, RTNL held.
 */
void nicprog_hostmap_put(struct nicprog_nic *nic, u32 slot)
{
	struct bpf_map *map = rtnl_dereference(nic->host_maps[slot]);

	RCU_INIT_POINTER(nic->host_maps[slot], NULL);
	/* the map's own free waits for readers (see the top) */
	if (map)
		bpf_map_put(map);
}

/**
 * nicprog_hostmap_id() - the ID of the host map in a slot
 * @nic: the NIC
 * @slot: the slot
 *
 * Context: RTNL held.
 * Return: the map's ID, 0 if the slot is empty.
 */
u32 nicprog_hostmap_id(struct nicprog_nic *nic, u32 slot)
{
	struct bpf_map *map = rtnl_dereference(nic->host_maps[slot]);

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
 * gone (or is no XSKMAP or CPUMAP) or the entry refused the frame (an
 * AF_XDP socket bound to another queue, a full ring), which the caller
 * traces and counts as its own.
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

	map = rcu_dereference(nd->nic->host_maps[slot]);
	/* a target a program made up may name a PROG_ARRAY's slot */
	if (unlikely(!map || (map->map_type != BPF_MAP_TYPE_XSKMAP &&
			      map->map_type != BPF_MAP_TYPE_CPUMAP)))
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

/**
 * nicprog_hostmap_tail() - the tail call target of a PROG_ARRAY entry
 * @nic: the NIC
 * @slot: the PROG_ARRAY's slot
 * @idx: the entry
 *
 * Context: the datapath, RCU held.
 * Return: the target (NICPROG_TAIL_TARGET_BIT) if the entry holds a
 * program, 0 for an empty entry or one past the end (the tail call fails
 * and the program goes on, as on the host).
 */
u32 nicprog_hostmap_tail(struct nicprog_nic *nic, u32 slot, u32 idx)
{
	struct bpf_map *map = rcu_dereference(nic->host_maps[slot]);
	struct bpf_array *array;

	if (!map || map->map_type != BPF_MAP_TYPE_PROG_ARRAY ||
	    idx >= map->max_entries)
		return 0;
	array = container_of(map, struct bpf_array, map);
	/* @idx is the program's, as bpf_tail_call()'s index is */
	if (!READ_ONCE(array->ptrs[array_index_nospec(idx, map->max_entries)]))
		return 0;
	return NICPROG_PIPE_TARGET_BIT | NICPROG_TAIL_TARGET_BIT |
	       slot << NICPROG_HOST_TARGET_SLOT_SHIFT | idx;
}

/**
 * nicprog_tail_target() - is a redirect target a tail call's?
 * @target: bpf_redirect()'s ifindex as the NIC's program gave it
 *
 * Context: any.
 * Return: true for a target nicprog_tail_prog() takes.
 */
bool nicprog_tail_target(u32 target)
{
	const u32 bits = NICPROG_PIPE_TARGET_BIT | NICPROG_HOST_TARGET_BIT |
			 NICPROG_TAIL_TARGET_BIT;

	return (target & bits) == (NICPROG_PIPE_TARGET_BIT |
				   NICPROG_TAIL_TARGET_BIT);
}
EXPORT_SYMBOL_NS_GPL(nicprog_tail_target, NICPROG_INTERNAL);

/**
 * nicprog_tail_prog() - the program a tail call target runs
 * @nic: the NIC
 * @target: the target, nicprog_tail_target()
 *
 * Context: the datapath, RCU held; the result is valid until it drops it.
 * Return: the NIC's program the entry holds now, or NULL: the entry was
 * emptied since the lookup, or holds a program the NIC does not run (one
 * for the host or another device).
 */
struct nicprog_prog *nicprog_tail_prog(struct nicprog_nic *nic, u32 target)
{
	u32 slot = (target & NICPROG_HOST_TARGET_SLOT) >>
		   NICPROG_HOST_TARGET_SLOT_SHIFT;
	u32 idx = target & NICPROG_HOST_TARGET_KEY;
	struct bpf_map *map = rcu_dereference(nic->host_maps[slot]);
	struct nicprog_prog *np;
	struct bpf_prog *prog;

	if (!map || map->map_type != BPF_MAP_TYPE_PROG_ARRAY ||
	    idx >= map->max_entries)
		return NULL;
	idx = array_index_nospec(idx, map->max_entries);
	prog = READ_ONCE(container_of(map, struct bpf_array, map)->ptrs[idx]);
	if (!prog)
		return NULL;
	list_for_each_entry_rcu(np, &nic->progs, node)
		if (np->prog == prog)
			return np->insns ? np : NULL;
	return NULL;
}
EXPORT_SYMBOL_NS_GPL(nicprog_tail_prog, NICPROG_INTERNAL);
