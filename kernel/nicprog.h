/* SPDX-License-Identifier: GPL-2.0 */
/* nicprog core: private definitions shared by the core's files. */
#ifndef _NICPROG_CORE_H
#define _NICPROG_CORE_H

#include <linux/device.h>
#include <linux/list.h>
#include <net/nicprog.h>
#include <net/nicprog_exec.h>

struct bpf_offload_dev;
struct bpf_offloaded_map;
struct bpf_prog;
struct nicprog_table;

/**
 * struct nicprog_dev - one registered SmartNIC port
 * @dev: class device /sys/class/nicprog/<ifname>; its refcount owns this
 *	structure, which is freed by its release callback
 * @netdev: the port; the driver unregisters us before unregistering it, so
 *	no reference is held
 * @lnic: the driver's description of the NIC, driver-owned and constant
 * @ops: the driver's operations
 * @sum: @lnic summarized once at registration
 * @list: entry in nicprog_devs, under RTNL
 * @offdev: the port's BPF offload device
 * @xdp_prog: the installed program, one reference owned; under RTNL
 * @mem_used: bytes of NIC memory tables hold; under RTNL (map alloc/free)
 */
struct nicprog_dev {
	struct device dev;
	struct net_device *netdev;
	const struct nicprog_lnic *lnic;
	const struct nicprog_dev_ops *ops;
	struct nicprog_lnic_summary sum;
	struct list_head list;
	struct bpf_offload_dev *offdev;
	struct bpf_prog *xdp_prog;
	u64 mem_used;
};

/* The kind of memory an instruction accesses, from the verifier. */
enum nicprog_ptr_kind {
	NICPROG_PTR_NONE,
	NICPROG_PTR_SCALAR,
	NICPROG_PTR_CTX,
	NICPROG_PTR_PACKET,
	NICPROG_PTR_MAP_VALUE,
	NICPROG_PTR_STACK,
	NICPROG_PTR_OTHER,
};

/**
 * struct nicprog_insn_meta - what the verifier told us of one instruction,
 *	over every path that reaches it
 * @ptr: enum nicprog_ptr_kind of the memory a load or store accesses
 * @dst_kinds: kinds the destination register held, bit per
 *	enum nicprog_ptr_kind
 * @src_kinds: kinds the source register held, likewise
 * @helper: helper id of a call, recorded before fixups rewrite it
 * @pkt_lo: lowest packet byte a packet access touches, from the frame start
 * @pkt_hi: one past the highest packet byte it touches
 */
struct nicprog_insn_meta {
	u8 ptr;
	u8 dst_kinds;
	u8 src_kinds;
	s32 helper;
	s32 pkt_lo;
	s32 pkt_hi;
};

#define NICPROG_PROG_MAX_MAPS	64

/**
 * struct nicprog_plan - what a driver installs (opaque to drivers)
 * @exec: the program as the executor runs it
 * @tables: the program's tables, by index
 * @prog: the BPF program
 */
struct nicprog_plan {
	const struct nicprog_exec_prog *exec;
	struct nicprog_table **tables;
	struct bpf_prog *prog;
};

/**
 * struct nicprog_prog - a program offloaded to a port, the offload's
 *	dev_priv, freed by the destroy callback
 * @nd: the port
 * @prog: the BPF program
 * @len: instructions, as verified
 * @meta: per instruction, filled by insn_hook
 * @insns: copy of the program taken at finalize, maps as table indices
 * @flags: per instruction, enum nicprog_exec_insn_flags
 * @tables: tables the program uses; maps outlive their programs
 * @n_maps: entries in @tables
 * @exec: the executor's view
 * @plan: the plan handed to the driver
 */
struct nicprog_prog {
	struct nicprog_dev *nd;
	struct bpf_prog *prog;
	u32 len;
	struct nicprog_insn_meta *meta;
	struct bpf_insn *insns;
	u8 *flags;
	struct nicprog_table *tables[NICPROG_PROG_MAX_MAPS];
	u32 n_maps;
	struct nicprog_exec_prog exec;
	struct nicprog_plan plan;
};

static inline struct nicprog_dev *to_nicprog_dev(struct device *dev)
{
	return container_of(dev, struct nicprog_dev, dev);
}

extern struct class nicprog_class;

int nicprog_sysfs_init(void);
void nicprog_sysfs_exit(void);

/* bpf_offload.c */
int nicprog_bpf_init(struct nicprog_dev *nd);
void nicprog_bpf_exit(struct nicprog_dev *nd);

/* plan.c */
void nicprog_plan_init(struct nicprog_prog *np);

/* table.c */
extern const struct bpf_map_dev_ops nicprog_table_dev_ops;
int nicprog_table_alloc(struct nicprog_dev *nd,
			struct bpf_offloaded_map *offmap);
void nicprog_table_free(struct bpf_offloaded_map *offmap);
void *nicprog_table_lookup(struct nicprog_table *t, const void *key);
long nicprog_table_update(struct nicprog_table *t, const void *key,
			  const void *value, u64 flags);
long nicprog_table_delete(struct nicprog_table *t, const void *key);

#endif /* _NICPROG_CORE_H */
