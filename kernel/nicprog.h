/* SPDX-License-Identifier: GPL-2.0 */
/* nicprog core: private definitions shared by the core's files. */
#ifndef _NICPROG_CORE_H
#define _NICPROG_CORE_H

#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <net/nicprog.h>
#include <net/nicprog_compat.h>
#include <net/nicprog_exec.h>

#include "offload/offload.h"

struct bpf_offload_dev;
struct bpf_offloaded_map;
struct bpf_func_proto;
struct bpf_map;
struct bpf_prog;
struct bpf_verifier_env;
struct dentry;
struct net;
struct net_device;
struct netlink_ext_ack;
struct nicprog_pipe;
struct nicprog_table;

/* Stages events tell apart; later ones count as the last. */
#define NICPROG_EVENT_STAGES	16

/**
 * struct nicprog_events - what the datapath raised since the last events
 *	(events.c)
 * @lock: protects the rest; taken in any context
 * @dead: the port is going: no more events
 * @last: jiffies when the work last sent events
 * @overload: per stage, frames dropped for full core queues
 * @ring_drops: records pipes dropped for want of room
 * @ring_drop_bytes: their bytes
 * @ring_outputs: the outputs whose pipes dropped, bit per output
 * @stalls: frames a core held for a full backpressure pipe until it gave
 *	up and dropped them
 * @stall_core: the NIC core of the last of them
 * @work: sends the events, at most once per second
 */
struct nicprog_events {
	spinlock_t lock;	/* see above */
	bool dead;
	unsigned long last;
	u64 overload[NICPROG_EVENT_STAGES];
	u64 ring_drops;
	u64 ring_drop_bytes;
	u64 ring_outputs;
	u64 stalls;
	u32 stall_core;
	struct delayed_work work;
};

/* Host maps a port's HOST tables may stand for: the slot bits of a target. */
#define NICPROG_HOST_MAPS	((NICPROG_HOST_TARGET_SLOT >> \
				 NICPROG_HOST_TARGET_SLOT_SHIFT) + 1)

/* Cores whose counters stats report (core_stats), per NIC. */
#define NICPROG_MAX_CORES	32

/* The NIC's pools of units plans are given runs of (alloc.c). */
enum {
	NICPROG_POOL_CORES,
	NICPROG_POOL_MAT,
	NICPROG_POOL_ACCEL,	/* + enum nicprog_accel_type */
	NICPROG_POOLS = NICPROG_POOL_ACCEL + __NICPROG_ACCEL_MAX,
};

/**
 * struct nicprog_run - the units of one pool a port's plan holds
 * @base: the first
 * @n: how many, 0 for none
 */
struct nicprog_run {
	u32 base;
	u32 n;
};

/**
 * struct nicprog_res - a devlink resource of a NIC, for its occupancy
 * @nic: the NIC
 * @pool: NICPROG_POOL_* of a pool's resource
 * @region: the LNIC region of a region's resource, else
 *	NICPROG_LNIC_MAX_REGIONS
 * @name: the resource's name, which devlink points to
 */
struct nicprog_res {
	struct nicprog_nic *nic;
	u32 pool;
	u32 region;
	char name[NICPROG_LNIC_NAME_LEN + 8];
};

/**
 * struct nicprog_held_table - a table a plan placed in NIC memory
 * @t: the table, compared only (counted once however many plans use it)
 * @region: the LNIC region the plan placed it in
 * @bytes: its bytes there
 */
struct nicprog_held_table {
	const struct nicprog_table *t;
	u32 region;
	u64 bytes;
};

/**
 * struct nicprog_health_event - what a NIC's reporter heard of one kind
 *	of trouble (an overload, a stall)
 * @port: the port whose plan's frames were dropped, the last time
 * @where: its stage overloaded, or the NIC core that stalled
 * @frames: frames dropped that time (at most a second's)
 * @total: frames dropped since the NIC was registered
 * @pending: frames dropped not yet reported
 */
struct nicprog_health_event {
	char port[IFNAMSIZ];
	u32 where;
	u64 frames;
	u64 total;
	u64 pending;
};

/**
 * struct nicprog_nic - one registered SmartNIC: what its ports share
 * @kref: the driver's registration and each port (nicprog_dev) hold one;
 *	the last put frees the structure
 * @dev: the driver's device of the NIC, parent of its ports' netdevs; the
 *	driver keeps it until nicprog_nic_unregister()
 * @ops: the driver's operations
 * @priv: the driver's, given at registration (nicprog_nic_priv())
 * @list: entry in nicprog_nics, under RTNL
 * @lock: protects @lnic_frozen, @n_progs, writers of @progs, writers
 *	of @ports and the ports' runs (nicprog_dev.runs), which stats and
 *	the verifier read without RTNL; taken before a port's plan_lock,
 *	never after
 * @lnic: the driver's description of the NIC, driver-owned; replaced
 *	only between nicprog_lnic_replace_begin() and _end(), under RTNL and
 *	@lock, when no program or map is bound to the NIC
 * @sum: @lnic summarized, as @lnic changes
 * @lnic_frozen: the driver is replacing @lnic: no program may be prepared
 * @ports: the registered ports (nicprog_dev.nic_node), written under
 *	RTNL and @lock, read under either
 * @offdev: the NIC's BPF offload device: programs and maps bound to one
 *	port are usable on every port
 * @n_progs: programs prepared for the NIC and not yet destroyed
 * @progs: those programs (struct nicprog_prog), RCU for the datapath
 *	(tail calls)
 * @mem_used: bytes of NIC memory tables and buffers hold; under RTNL (map
 *	alloc/free; buffers: and @lock)
 * @n_tables: maps offloaded to the NIC; under RTNL
 * @tables: their tables (struct nicprog_table), under RTNL
 * @host_maps: per slot, the host XSKMAP, CPUMAP or PROG_ARRAY a HOST or
 *	PROGS table stands for, one reference owned (hostmap.c); written
 *	under RTNL, RCU for the datapath
 * @host_map_next: the slot to try first, under RTNL
 * @buf_bytes: per LNIC region, bytes of buffers the host allocated in
 *	it (ring/mem.c); written under RTNL and @lock, read under either
 * @n_bufs: those buffers; likewise
 * @dead: nicprog_nic_unregister() ran: no port may register
 * @devlink: the NIC's devlink instance, the driver's (devlink.c)
 * @n_ports: the NIC's ports, registered by index below it
 * @res: per pool and region, its devlink resource's occupancy context
 * @health: the "cores" health reporter
 * @health_lock: protects @overload and @stall; taken with BH disabled
 * @overload: stages whose cores' queues were full
 * @stall: cores that gave up on a frame a full backpressure pipe refused
 * @health_work: reports overloads to @health, outside RTNL
 * @res_work: registers @devlink's resources again for a new LNIC
 */
struct nicprog_nic {
	struct kref kref;
	struct device *dev;
	const struct nicprog_dev_ops *ops;
	void *priv;
	struct list_head list;
	struct mutex lock;		/* before any plan_lock; see above */
	const struct nicprog_lnic *lnic;
	struct nicprog_lnic_summary sum;
	bool lnic_frozen;
	struct list_head ports;
	struct bpf_offload_dev *offdev;
	u32 n_progs;
	struct list_head progs;
	u64 mem_used;
	u32 n_tables;
	struct list_head tables;
	struct bpf_map __rcu *host_maps[NICPROG_HOST_MAPS];
	u32 host_map_next;
	u64 buf_bytes[NICPROG_LNIC_MAX_REGIONS];
	u32 n_bufs;
	bool dead;
	struct devlink *devlink;
	u32 n_ports;
	struct nicprog_res res[NICPROG_POOLS + NICPROG_LNIC_MAX_REGIONS];
	struct devlink_health_reporter *health;
	spinlock_t health_lock;	/* see above */
	struct nicprog_health_event overload;
	struct nicprog_health_event stall;
	struct work_struct health_work;
	struct work_struct res_work;
};

/**
 * struct nicprog_dev - one registered SmartNIC port
 * @dev: class device /sys/class/nicprog/<ifname>; its refcount owns this
 *	structure, which is freed by its release callback
 * @netdev: the port; the driver unregisters us before unregistering it, so
 *	no reference is held
 * @nic: the NIC the port belongs to, one reference owned
 * @nic_node: entry in @nic's ports
 * @index: the port's number on the NIC (its devlink port's)
 * @ops: @nic's operations
 * @list: entry in nicprog_devs, under RTNL
 * @runs: per pool (NICPROG_POOL_*), the units the installed plan holds;
 *	written under RTNL and @nic's lock, read under either, as are
 *	@held, @n_held, @n_stages and @core_stage
 * @held: the installed plan's tables in NIC memory, where it placed them
 *	(tables are the NIC's: plans of several ports may share one)
 * @n_held: entries in @held
 * @n_stages: the installed plan's stages, 0 for none
 * @core_stage: per core of the installed plan (at most
 *	NICPROG_MAX_CORES), its stage
 * @job_core: the core the port's lookaside kernels run their jobs on,
 *	which no plan holds while @n_kernels is not 0 (alloc.c); written
 *	under RTNL and @nic's lock, read under either; cleared when the port
 *	leaves its NIC
 * @n_kernels: lookaside kernels the port's files hold, under RTNL
 * @job_busy: when the port's job core is done with the jobs given it, on
 *	ktime_get_ns()'s clock; under @ring_lock
 * @xdp_prog: the installed program, one reference owned; under RTNL
 * @plan: the installed plan, under RTNL
 * @plan_lock: protects @plan_shape, @plan_cores, @plan_partial,
 *	@plan_body16 and @plan_text, which sysfs and debugfs read without RTNL
 * @plan_shape: enum nicprog_shape the next attach plans for
 * @plan_cores: cores the next plan may use, 0 for all
 * @plan_partial: the operator allows partial offload: what the NIC cannot
 *	hold runs on the host (handover.c)
 * @plan_body16: per enum nicprog_accel_type, sixteenths of the next
 *	plan's calls of that type the cores run as BPF bodies (dev-set's
 *	accel plan-share is 16 less this); 0 for all on the engines
 * @plan_text: the installed plan in words, or NULL
 * @prog_id: the installed program's ID, 0 for none; under @plan_lock
 * @facts: the installed program's facts file (offload/facts.h), or NULL
 * @facts_len: its size
 * @debugfs: /sys/kernel/debug/nicprog/<ifname>
 * @cdev: /dev/nicprog/port<N> (kernel/ring/), @dev its device; N is
 *	@dev's minor
 * @ring_dead: the port is unregistered: ring commands fail with ENODEV;
 *	set under @ring_lock
 * @ring_pipes: pipes the port's open files hold
 * @ring_lock: serializes binding pipes to @ring_out and @ring_dead (taken
 *	after a ring file's lock)
 * @ring_out: per NF output, the RX pipe bound to it; RCU for the datapath
 * @ring_files: the open files of /dev/nicprog/port<N>, under @ring_lock
 * @ring_due: outputs whose pipes hold deferred notifications (bit per
 *	output, atomic), for nicprog_ring_flush()
 * @events: overload and ring drop events on their way to the monitor group
 */
struct nicprog_dev {
	struct device dev;
	struct net_device *netdev;
	struct nicprog_nic *nic;
	struct list_head nic_node;
	u32 index;
	const struct nicprog_dev_ops *ops;
	struct list_head list;
	struct nicprog_run runs[NICPROG_POOLS];
	struct nicprog_held_table held[NICPROG_MAX_TABLES];
	u32 n_held;
	u32 n_stages;
	u8 core_stage[NICPROG_MAX_CORES];
	struct nicprog_run job_core;
	u32 n_kernels;
	u64 job_busy;
	struct bpf_prog *xdp_prog;
	struct nicprog_plan *plan;
	struct mutex plan_lock;		/* @plan_*: see above */
	u8 plan_shape;
	u32 plan_cores;
	bool plan_partial;
	u8 plan_body16[__NICPROG_ACCEL_MAX];
	char *plan_text;
	u32 prog_id;
	void *facts;
	size_t facts_len;
	struct dentry *debugfs;
	struct cdev cdev;
	bool ring_dead;
	atomic_t ring_pipes;
	struct mutex ring_lock;		/* @ring_out, @ring_dead */
	struct nicprog_pipe __rcu *ring_out[NICPROG_RING_OUTPUTS];
	struct list_head ring_files;
	DECLARE_BITMAP(ring_due, NICPROG_RING_OUTPUTS);
	struct nicprog_events events;
};

#define NICPROG_PROG_MAX_MAPS	NICPROG_MAX_TABLES

/* Helpers only the host has (nicprog_exec_host_helper()), by index. */
enum {
	NICPROG_HOST_FN_FIB_LOOKUP,
	NICPROG_HOST_FN_CHECK_MTU,
	NICPROG_HOST_FN_TRACE_PRINTK,
	NICPROG_HOST_FN_TRACE_VPRINTK,
	__NICPROG_HOST_FN_MAX,
};

static inline u32 nicprog_host_fn_index(s32 func_id)
{
	switch (func_id) {
	case BPF_FUNC_fib_lookup:
		return NICPROG_HOST_FN_FIB_LOOKUP;
	case BPF_FUNC_trace_printk:
		return NICPROG_HOST_FN_TRACE_PRINTK;
	case BPF_FUNC_trace_vprintk:
		return NICPROG_HOST_FN_TRACE_VPRINTK;
	}
	return NICPROG_HOST_FN_CHECK_MTU;
}

/**
 * struct nicprog_plan - what a driver installs (opaque to drivers); made
 *	at attach time, owned by the port (nicprog_dev.plan, under RTNL)
 * @exec: the program as the executor runs it under this plan
 * @flags: per instruction, enum nicprog_exec_insn_flags of this plan
 * @region: per instruction, the region it touches (nicprog_exec_prog.region)
 * @tables: the program's tables, by index
 * @prog: the BPF program
 * @lo: the offloader's layout
 * @nd: the port it is made for
 * @plan_ns: time the offloader spent making the layout
 * @stages: per stage, what drivers see of it
 * @core_stage: per core of the plan, its stage
 * @host_exec: partial offload: the program as the host runs its part
 *	(no engines, no MAT, no NIC timing)
 * @run_stage: partial offload: per instruction, 0 for the NIC and
 *	NICPROG_EXEC_STAGE_HOST for the host
 * @run_exec: partial offload: @exec with @run_stage, what
 *	nicprog_plan_run() runs
 * @entries: partial offload: where the NIC hands runs over, by pc
 * @n_entries: entries in @entries
 * @cookie: random, in every handover, so that a frame of a replaced
 *	plan does not run under this one
 * @host_fn: partial offload: the kernel's helpers only the host has,
 *	by NICPROG_HOST_FN_*, as struct nicprog_prog holds them
 * @region_bytes: per LNIC region, bytes its tables take there
 * @runs: per pool (NICPROG_POOL_*), the units of the NIC it runs on,
 *	given at attach (alloc.c)
 * @held: its tables in NIC memory and where it placed them
 * @n_held: entries in @held
 * @images: per stage, the driver's translation of it
 *	(&nicprog_dev_ops.stage_translate), or NULL: interpreted
 * @n_images: stages the driver translated so far; released at destroy
 * @share_turn: per enum nicprog_accel_type, calls so far, which the
 *	cores take turns on to share them between engine and body
 *	(lo.body16)
 */
struct nicprog_plan {
	struct nicprog_exec_prog exec;
	struct nicprog_dev *nd;
	u8 *flags;
	u8 *region;
	struct nicprog_table **tables;
	struct bpf_prog *prog;
	struct nicprog_layout lo;
	u64 plan_ns;
	struct nicprog_stage_info stages[NICPROG_MAX_STAGES];
	u8 *core_stage;
	struct nicprog_exec_prog host_exec;
	u8 *run_stage;
	struct nicprog_exec_prog run_exec;
	struct nicprog_exec_live *entries;
	u32 n_entries;
	u32 cookie;
	const struct bpf_func_proto *host_fn[__NICPROG_HOST_FN_MAX];
	u64 region_bytes[NICPROG_LNIC_MAX_REGIONS];
	struct nicprog_run runs[NICPROG_POOLS];
	struct nicprog_held_table held[NICPROG_MAX_TABLES];
	u32 n_held;
	void *images[NICPROG_MAX_STAGES];
	u32 n_images;
	atomic_t share_turn[__NICPROG_ACCEL_MAX];
};

/**
 * struct nicprog_prog - a program offloaded to a port, the offload's
 *	dev_priv, freed by the destroy callback
 * @nic: the NIC, which outlives it (its offload device destroys its
 *	programs first)
 * @partial: the port it was loaded for allowed partial offload then
 * @node: entry in @nic's progs, for tail calls (hostmap.c)
 * @prog: the BPF program
 * @len: instructions, as verified
 * @meta: per instruction, filled by insn_hook
 * @insns: copy of the program taken at finalize, maps as table indices
 * @flags: per instruction, enum nicprog_exec_insn_flags
 * @maps: the maps the program uses, by table index
 * @tables: their NIC tables; maps outlive their programs. NULL for a host
 *	map (@host_maps)
 * @host_maps: bit per map the host keeps: the PERF_EVENT_ARRAY maps the
 *	offload core lets a device-bound program use, reached from the NIC
 *	through bpf_event_output()
 * @n_maps: entries in @maps and @tables
 * @exec: the executor's view
 * @ir_tables: the tables as the offloader sees them
 * @ir_in: the offloader's input
 * @ir: the program's IR, built at finalize
 * @verify_ns: time the verifier spent between prepare and finalize (its
 *	path exploration), then the verifier's time to the offloader's
 * @ir_ns: time the offloader spent building the IR
 * @host_fn: the kernel's helpers only the host has (NICPROG_HOST_FN_*)
 *	that the program calls, as the verifier's ops resolve them; built
 *	in, never freed
 * @host_call_insn: the first instruction calling one of them, or -1
 * @sources: what else its verdicts may depend on, enum nicprog_ir_source
 * @ident: what algorithm identification made of each function it tried,
 *	set at finalize (the plan says why one stays code)
 * @n_ident: entries in @ident
 * @view: insn_hook's registers for the fact recorder, kept here rather
 *	than on the verifier's deep stack; one walk per program at a time
 * @why: the fact recorder's refusal, likewise
 */
struct nicprog_prog {
	struct nicprog_nic *nic;
	bool partial;
	struct list_head node;
	struct bpf_prog *prog;
	u32 len;
	struct nicprog_insn_meta *meta;
	struct bpf_insn *insns;
	u8 *flags;
	struct bpf_map *maps[NICPROG_PROG_MAX_MAPS];
	struct nicprog_table *tables[NICPROG_PROG_MAX_MAPS];
	u64 host_maps;
	u32 n_maps;
	struct nicprog_exec_prog exec;
	struct nicprog_ir_table ir_tables[NICPROG_PROG_MAX_MAPS];
	struct nicprog_ir_input ir_in;
	struct nicprog_ir ir;
	u64 verify_ns;
	u64 ir_ns;
	const struct bpf_func_proto *host_fn[__NICPROG_HOST_FN_MAX];
	int host_call_insn;
	u32 sources;
	struct nicprog_ident_result ident[NICPROG_IDENT_MAX];
	u32 n_ident;
	struct nicprog_reg_view view[MAX_BPF_REG];
	char why[160];
};

static inline struct nicprog_dev *to_nicprog_dev(const struct device *dev)
{
	return container_of(dev, struct nicprog_dev, dev);
}

extern struct class nicprog_class;

/* core.c */
struct nicprog_dev *nicprog_dev_find(const struct net_device *netdev);
void nicprog_nic_put(struct nicprog_nic *nic);

/* devlink.c */
int nicprog_devlink_init(struct nicprog_nic *nic);
void nicprog_devlink_exit(struct nicprog_nic *nic);
void nicprog_devlink_lnic_changed(struct nicprog_nic *nic);
void nicprog_devlink_overload(struct nicprog_dev *nd, u32 stage, u64 frames);
void nicprog_devlink_stall(struct nicprog_dev *nd, u32 core, u64 frames);

/* alloc.c */
u32 nicprog_alloc_free(const struct nicprog_dev *nd, u32 pool);
int nicprog_alloc_kernel_get(struct nicprog_dev *nd);
void nicprog_alloc_kernel_put(struct nicprog_dev *nd);
u64 nicprog_alloc_region_free(const struct nicprog_dev *nd, u32 region);
u64 nicprog_alloc_region_used(const struct nicprog_nic *nic, u32 region);
int nicprog_alloc_find(const struct nicprog_dev *nd, struct nicprog_plan *plan,
		       struct netlink_ext_ack *extack);
void nicprog_alloc_hold(struct nicprog_dev *nd,
			const struct nicprog_plan *plan);
u32 nicprog_alloc_pool_size(const struct nicprog_nic *nic, u32 pool);
struct nicprog_dev *nicprog_dev_nth(const struct net *net, unsigned long n);

/* genl.c */
int nicprog_nl_init(void);
void nicprog_nl_exit(void);
void nicprog_nl_notify_prog(struct nicprog_dev *nd, u32 old_id);
void nicprog_nl_notify_overload(struct nicprog_dev *nd, u32 stage, u64 frames);
void nicprog_nl_notify_ring_drops(struct nicprog_dev *nd, u64 drops,
				  u64 bytes, u64 outputs);

struct nicprog_core_stats *nicprog_cores_read(struct nicprog_dev *nd, u32 *n);

/* events.c */
void nicprog_events_init(struct nicprog_dev *nd);
void nicprog_events_stop(struct nicprog_dev *nd);
void nicprog_event_ring_drop(struct nicprog_dev *nd, u32 out, u32 len);

/* verifier.c: nicprog's struct bpf_prog_offload_ops verifier callbacks */
int nicprog_prepare(struct bpf_prog *prog);
int nicprog_insn_hook(struct bpf_verifier_env *env, int insn_idx,
		      int prev_insn_idx);
int nicprog_finalize(struct bpf_verifier_env *env);

int nicprog_sysfs_init(void);
void nicprog_sysfs_exit(void);

/* bpf_offload.c */
int nicprog_bpf_init(struct nicprog_nic *nic);
void nicprog_bpf_exit(struct nicprog_nic *nic);

/* node.c: the ports' device nodes, and what nicprog_ring.ko registers */
struct nicprog_pipe_stats;

/**
 * struct nicprog_ring_ops - what nicprog_ring.ko does for the core
 * @owner: the module; held while a file uses @fops or the core calls in
 * @fops: the device node's file operations once opened; their .owner
 *	must be @owner and they must have .open
 * @port_gone: end a port's rings and engine state before its class
 *	device goes: open files stay, commands fail with ENODEV. Called
 *	with RTNL held from nicprog_unregister().
 * @output_stats: fill @st for the RX pipe bound to NF output @out, if
 *	one is; return whether one is. Process context.
 */
struct nicprog_ring_ops {
	struct module *owner;
	const struct file_operations *fops;
	void (*port_gone)(struct nicprog_dev *nd);
	bool (*output_stats)(struct nicprog_dev *nd, u32 out,
			     struct nicprog_pipe_stats *st);
};

int nicprog_ring_ops_register(const struct nicprog_ring_ops *ops);
void nicprog_ring_ops_unregister(const struct nicprog_ring_ops *ops);
int nicprog_node_init(void);
void nicprog_node_exit(void);
int nicprog_node_devt_get(struct nicprog_dev *nd);
void nicprog_node_devt_put(struct nicprog_dev *nd);
void nicprog_node_del(struct nicprog_dev *nd);
char *nicprog_node_devnode(nicprog_devnode_dev_t *dev, umode_t *mode);
#define NICPROG_NODE_NAME_MAX	32	/* "nicprog/port" and a u32 */
void nicprog_node_name(const struct nicprog_dev *nd, char *buf);
bool nicprog_node_output_stats(struct nicprog_dev *nd, u32 out,
			       struct nicprog_pipe_stats *st);

/* handover.c */
int nicprog_handover_init(struct nicprog_plan *plan,
			  const struct nicprog_ir *ir);
u32 nicprog_handover_pc(const struct nicprog_plan *plan, u32 i);

/* plan.c */
/**
 * struct nicprog_plan_settings - what a plan is made for
 * @shape: enum nicprog_shape
 * @cores: the most cores it may use, 0 for all
 * @partial: what the NIC cannot hold may run on the host
 * @body16: per enum nicprog_accel_type, sixteenths of the calls the cores
 *	run as bodies (nicprog_layout_share())
 */
struct nicprog_plan_settings {
	u8 shape;
	u32 cores;
	bool partial;
	u8 body16[__NICPROG_ACCEL_MAX];
};

bool nicprog_shape_runs(const struct nicprog_nic *nic, u8 shape);
void nicprog_plan_settings(struct nicprog_dev *nd,
			   struct nicprog_plan_settings *set);
struct nicprog_plan *nicprog_plan_create(struct nicprog_dev *nd,
					 struct nicprog_prog *np,
					 const struct nicprog_plan_settings *set,
					 struct netlink_ext_ack *extack);
void nicprog_plan_destroy(struct nicprog_plan *plan);
int nicprog_plan_translate(struct nicprog_plan *plan,
			   struct netlink_ext_ack *extack);
void nicprog_plan_publish(struct nicprog_dev *nd, struct nicprog_plan *plan);
int nicprog_debugfs_init(void);
void nicprog_debugfs_exit(void);
void nicprog_debugfs_add(struct nicprog_dev *nd);
void nicprog_debugfs_remove(struct nicprog_dev *nd);
void nicprog_debugfs_rename(struct nicprog_dev *nd);

/* table.c */
/* Does a table of @kind stand for a host map (hostmap.c)? */
static inline bool nicprog_kind_host(u8 kind)
{
	return kind == NICPROG_TABLE_KIND_HOST ||
	       kind == NICPROG_TABLE_KIND_PROGS;
}

static inline bool nicprog_kind_lru(u8 kind)
{
	return kind == NICPROG_TABLE_KIND_LRU ||
	       kind == NICPROG_TABLE_KIND_LRU_PERCPU;
}

static inline bool nicprog_kind_percpu(u8 kind)
{
	return kind == NICPROG_TABLE_KIND_PERCPU ||
	       kind == NICPROG_TABLE_KIND_LRU_PERCPU;
}

extern const struct bpf_map_dev_ops nicprog_table_dev_ops;
u64 nicprog_table_bytes(const struct bpf_map *map);
int nicprog_table_alloc(struct nicprog_dev *nd,
			struct bpf_offloaded_map *offmap);
void nicprog_table_free(struct bpf_offloaded_map *offmap);
bool nicprog_table_in_host(const struct nicprog_table *t);
u64 nicprog_table_usage(const struct nicprog_table *t, u32 *entries,
			u32 *max_entries);
u32 nicprog_table_counters(struct nicprog_table *t, u64 *vals, u32 max,
			   u32 *words);
void *nicprog_table_lookup(struct nicprog_table *t, const void *key);
u64 nicprog_table_offset(struct nicprog_table *t, const void *value, u32 *len);
long nicprog_table_update(struct nicprog_table *t, const void *key,
			  const void *value, u64 flags);
long nicprog_table_delete(struct nicprog_table *t, const void *key);
u8 nicprog_table_kind(const struct nicprog_table *t);
u32 nicprog_table_bind(struct nicprog_table *t);
bool nicprog_table_stored(const struct nicprog_table *t);
void *nicprog_table_store(const struct nicprog_table *t);
int nicprog_table_set_counters(struct nicprog_nic *nic,
			       const struct bpf_map *map, u8 words,
			       struct netlink_ext_ack *extack);
int nicprog_table_set_kind(struct nicprog_nic *nic, const struct bpf_map *map,
			   u8 kind, struct bpf_map *host_map,
			   struct netlink_ext_ack *extack);
u32 nicprog_table_host_map_id(const struct nicprog_table *t);

/* table_lib.c */
extern const struct nicprog_table_ops nicprog_table_lib_ops;
void nicprog_table_lib_set_host(void *store, u32 slot);

int nicprog_hostmap_get(struct nicprog_nic *nic, struct bpf_map *map,
			struct netlink_ext_ack *extack);
void nicprog_hostmap_put(struct nicprog_nic *nic, u32 slot);
u32 nicprog_hostmap_id(struct nicprog_nic *nic, u32 slot);
u32 nicprog_hostmap_tail(struct nicprog_nic *nic, u32 slot, u32 idx);
bool nicprog_tail_target(u32 target);
struct nicprog_prog *nicprog_tail_prog(struct nicprog_nic *nic, u32 target);

/**
 * struct nicprog_kernel - a lookaside kernel of one file
 * @id: its id in the file's kernels
 * @prog: the program, held
 * @exec: its instructions for the executor (costs: the driver's, per run)
 */
struct nicprog_kernel {
	u32 id;
	struct bpf_prog *prog;
	struct nicprog_exec_prog exec;
};

/* For the interpreter module's nicprog_kernel_run(): the kernel's program. */
static inline const struct nicprog_exec_prog *
nicprog_kernel_exec(const struct nicprog_kernel *k)
{
	return &k->exec;
}

#endif /* _NICPROG_CORE_H */
