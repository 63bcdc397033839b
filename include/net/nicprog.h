/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nicprog driver API: what a SmartNIC vendor driver implements and calls.
 *
 * A driver describes each NIC once as a logical NIC (LNIC, see
 * <net/nicprog_lnic.h>), fills a const ops table, registers the NIC with
 * nicprog_nic_register() and each of its ports' netdevs under it with
 * nicprog_register(). The core does everything else: sysfs, netlink, BPF
 * offload glue, planning, and giving the NIC's cores, units and memory
 * out among its ports' plans.
 */
#ifndef _NET_NICPROG_H
#define _NET_NICPROG_H

#include <linux/types.h>
#include <net/nicprog_exec.h>
#include <net/nicprog_lnic.h>

struct bpf_prog;
struct devlink;
struct devlink_info_req;
struct net_device;
struct netdev_bpf;
struct netlink_ext_ack;
struct nicprog_dev;
struct nicprog_host;
struct nicprog_nic;
struct nicprog_plan;
struct xdp_buff;

/**
 * struct nicprog_stage_code - a stage of a plan, as a translating driver
 *	gets it (&nicprog_dev_ops.stage_translate)
 * @stage: the stage's number, below nicprog_plan_stages()
 * @prog: the program as the NIC runs it: the instructions the verifier
 *	checked, in the 6.1 ISA (nicprog_exec_check() passed), with a map
 *	load carrying the index of its table (below @prog->n_maps) and, per
 *	instruction, what the plan decided: @prog->flags (context accesses,
 *	lookups and regions a MAT stage serves), @prog->cycles (what the
 *	prediction charged), @prog->stage, @prog->accel (the engine that
 *	runs a call), @prog->region (the memory an access touches). The
 *	stage is the main-program instructions whose @prog->stage is
 *	@stage, with the subprograms they call (NICPROG_EXEC_STAGE_ANY);
 *	without @prog->stage it is the whole program. A run leaves the
 *	stage where control reaches an instruction of another one
 *	(NICPROG_EXEC_STAGE_HOST: the host's part of a partial plan).
 * @entries: the instructions where runs enter the stage, ascending: where
 *	the NIC resumes a frame's run, with its live state in struct
 *	nicprog_exec_ctx
 * @n_entries: entries in @entries
 */
struct nicprog_stage_code {
	u32 stage;
	const struct nicprog_exec_prog *prog;
	const u32 *entries;
	u32 n_entries;
};

/**
 * typedef nicprog_stage_run_t - a driver's runner of its translated stages
 *	on the host CPU (a simulated NIC), for nicprog_plan_resume_with()
 * @image: what &nicprog_dev_ops.stage_translate returned for the stage
 * @ops: the plan's environment: its tables, engines, clock and events
 * @priv: passed to @ops
 * @st: the core's executor scratch
 * @pkt: the frame
 * @ctx: the live state; on return, where the next stage resumes
 * @res: what the stage did, as nicprog_exec_resume() fills it
 */
typedef void (*nicprog_stage_run_t)(const void *image,
				    const struct nicprog_exec_ops *ops,
				    void *priv, struct nicprog_exec_state *st,
				    struct nicprog_exec_pkt *pkt,
				    struct nicprog_exec_ctx *ctx,
				    struct nicprog_exec_result *res);

/**
 * struct nicprog_port_stats - NIC-side counters of one port
 * @wire_rx_packets: frames that arrived from the wire
 * @wire_rx_bytes: bytes of those frames
 * @wire_tx_packets: frames put on the wire
 * @wire_tx_bytes: bytes of those frames
 * @host_rx_packets: frames the NIC handed to the host stack
 * @host_rx_bytes: bytes of those frames
 * @nic_drops: frames the NIC dropped (full queue, oversized, no link)
 *
 * These are the NIC's view, counted where the NIC handles a frame; the
 * netdev counters (ip -s link) are the host's view. The two differ once a
 * program runs on the NIC and drops, transmits or redirects frames itself.
 */
struct nicprog_port_stats {
	u64 wire_rx_packets;
	u64 wire_rx_bytes;
	u64 wire_tx_packets;
	u64 wire_tx_bytes;
	u64 host_rx_packets;
	u64 host_rx_bytes;
	u64 nic_drops;
};

/**
 * struct nicprog_core_stats - one of the NIC's cores, as its driver counts
 * @packets: stage runs it began
 * @busy: NIC cycles it spent issuing instructions
 * @elapsed: NIC cycles of the clock @busy is counted against
 * @drops: frames its input queue had no room for
 * @plan_core: the core's number in the asking port's plan (below
 *	nicprog_plan_cores()), or NICPROG_CORE_NONE if it runs none of it;
 *	the core fills it in, drivers leave it
 *
 * A driver that times its cores against a clock of their own (as nicsim's
 * timing model runs the frames back to back) reports that clock: then
 * @busy / @elapsed is the core's utilisation at saturation.
 */
struct nicprog_core_stats {
	u64 packets;
	u64 busy;
	u64 elapsed;
	u64 drops;
	u32 plan_core;
};

#define NICPROG_CORE_NONE	U32_MAX

/**
 * struct nicprog_unit_stats - a pool of the NIC's fixed-function units
 * @type: enum nicprog_unit_type of its units (MAT, accelerator, ...)
 * @accel: enum nicprog_accel_type of an accelerator pool, else
 *	NICPROG_ACCEL_NONE
 * @count: units in the pool
 * @jobs: jobs its units served
 * @busy: NIC cycles its units spent serving them, summed over units
 * @wait: NIC cycles jobs waited for a free unit, summed over jobs
 * @elapsed: NIC cycles of the clock @busy is counted against, as for
 *	struct nicprog_core_stats
 * @refused: jobs refused because the pool's queue was full
 *
 * Fixed-function units serve every port of the NIC, so a driver reports
 * them whole, not per port.
 */
struct nicprog_unit_stats {
	u8 type;
	u8 accel;
	u32 count;
	u64 jobs;
	u64 busy;
	u64 wait;
	u64 elapsed;
	u64 refused;
};

/**
 * struct nicprog_table_desc - an offloaded map, as its storage is made for it
 * @type: BPF_MAP_TYPE_HASH or BPF_MAP_TYPE_ARRAY, the map's
 * @kind: enum nicprog_table_kind: what the table does beyond @type (LRU,
 *	LPM, PERCPU, LRU_PERCPU; the HOST and PROGS kinds stand for host
 *	maps and stay the core's, never a driver's)
 * @key_size: bytes of a key
 * @value_size: bytes of a value
 * @max_entries: capacity
 * @map_flags: the map's BPF_F_* flags the core accepted (BPF_F_NO_PREALLOC,
 *	BPF_F_ZERO_SEED, BPF_F_NUMA_NODE, BPF_F_RDONLY_PROG: programs only
 *	read the table, as the verifier proved; the host writes it)
 * @bytes: NIC memory the core charged for the table
 */
struct nicprog_table_desc {
	u32 type;
	u8 kind;
	u32 key_size;
	u32 value_size;
	u32 max_entries;
	u32 map_flags;
	u64 bytes;
};

/**
 * struct nicprog_table_ops - a driver's own storage of offloaded maps
 * @alloc: make the storage of a table described by @desc in the NIC's
 *	memory and return the driver's handle, or an ERR_PTR (-EOPNOTSUPP
 *	for a kind the NIC cannot do, with an extack message naming it;
 *	@extack may be NULL). Called when a map is created for a port of
 *	@nic, and again when table-set gives an empty table no program uses
 *	a kind: the core then frees the old storage. Process context, RTNL
 *	held; may sleep. Required.
 * @free: free @store, which @alloc made for @nic; no program and no
 *	other op uses it any more. Process context; may sleep. Required.
 * @read: copy the value of @key into @value for bpf(2)'s lookup (an LPM
 *	table: of the longest matching prefix); 0 or -ENOENT. Process
 *	context, may sleep. Required.
 * @update: bpf_map_update_elem() semantics (flags, E2BIG when full, an
 *	LRU table evicting, -ENOSPC for a full LPM table), from bpf(2) or
 *	from a program the core runs. Must not sleep. Required.
 * @delete: bpf_map_delete_elem(), as @update. Required.
 * @next_key: bpf(2)'s get_next_key, with hashtab.c's and arraymap.c's
 *	rules (no or an absent key: the first). Process context, may sleep.
 *	Required.
 * @entries: elements @store holds (all of an array's), a snapshot for
 *	stats. Any context. Required.
 * @lookup: a pointer to the value of @key a program the core runs reads
 *	and writes in place (the running CPU's slot of a PERCPU kind), valid
 *	until the caller's rcu_read_lock() ends, or NULL. Only a NIC whose
 *	memory the host addresses (a simulated one) has it: without it the
 *	driver must have &nicprog_dev_ops.stage_translate, and a plan whose
 *	stage it leaves to the core's interpreter is refused. Under
 *	rcu_read_lock(); must not sleep.
 * @offset: where the value @value that @lookup returned lies in the
 *	table's NIC memory (see NICPROG_EXEC_NIC_TABLE()): its offset, and
 *	in *@len the bytes from there a program may reach. A timing model
 *	then sees the NIC's layout, not the host allocator's. Optional
 *	(with @lookup): without it the model sees host addresses. As
 *	@lookup.
 *
 * Without &nicprog_dev_ops.table_ops the core keeps tables itself with the
 * same code a driver may call for its ops: nicprog_table_lib_alloc() and
 * the nicprog_table_lib_*() functions that follow it.
 */
struct nicprog_table_ops {
	void *(*alloc)(struct nicprog_nic *nic,
		       const struct nicprog_table_desc *desc,
		       struct netlink_ext_ack *extack);
	void (*free)(struct nicprog_nic *nic, void *store);
	int (*read)(void *store, const void *key, void *value);
	long (*update)(void *store, const void *key, const void *value,
		       u64 flags);
	long (*delete)(void *store, const void *key);
	int (*next_key)(void *store, const void *key, void *next_key);
	u32 (*entries)(const void *store);
	void *(*lookup)(void *store, const void *key);
	u64 (*offset)(void *store, const void *value, u32 *len);
};

void *nicprog_table_lib_alloc(struct nicprog_nic *nic,
			      const struct nicprog_table_desc *desc,
			      struct netlink_ext_ack *extack);
void nicprog_table_lib_free(void *store);
int nicprog_table_lib_read(void *store, const void *key, void *value);
long nicprog_table_lib_update(void *store, const void *key,
			      const void *value, u64 flags);
long nicprog_table_lib_delete(void *store, const void *key);
int nicprog_table_lib_next_key(void *store, const void *key, void *next_key);
u32 nicprog_table_lib_entries(const void *store);
void *nicprog_table_lib_lookup(void *store, const void *key);
u64 nicprog_table_lib_offset(void *store, const void *value, u32 *len);

/*
 * The library's element ops, for a driver whose table store is the
 * library's: the ops a host-readable copy needs, and with them the two
 * that hand the core's interpreter an element in place.
 */
#define NICPROG_TABLE_LIB_COPY_OPS				\
	.read		= nicprog_table_lib_read,		\
	.update		= nicprog_table_lib_update,		\
	.delete		= nicprog_table_lib_delete,		\
	.next_key	= nicprog_table_lib_next_key,		\
	.entries	= nicprog_table_lib_entries
#define NICPROG_TABLE_LIB_ELEM_OPS				\
	NICPROG_TABLE_LIB_COPY_OPS,				\
	.lookup		= nicprog_table_lib_lookup,		\
	.offset		= nicprog_table_lib_offset

/**
 * struct nicprog_mem_ops - buffers in a driver's NIC memory, for the host
 *	(NICPROG_OP_MEM_*)
 * @alloc: make a zeroed buffer of @size bytes in LNIC region @region of
 *	@nic and return the driver's handle, or an ERR_PTR (-ENOMEM, or a
 *	refusal with an extack message; @extack may be NULL). The core has
 *	checked the region's room (tables and buffers of every port) and
 *	charged it. Process context, RTNL held; may sleep. Required.
 * @free: free @buf, which @alloc made for @nic; no copy uses it any more.
 *	Process context; may sleep. Required.
 * @dma: copy @len bytes between @buf at @offset (in bounds, checked) and
 *	the host memory @host (kernel memory: the core has copied from or
 *	will copy to user memory), towards the NIC if @to_nic, with one of
 *	the NIC's DMA engines. Return the nanoseconds of the host's clock
 *	from now until the engine is done -- when the core completes the
 *	command -- or -errno (-EOPNOTSUPP: no engine reaches the buffer's
 *	region). Process context; must not sleep. Required.
 * @access: copy @len bytes between @buf at @offset (in bounds, checked)
 *	and kernel memory @host as the NIC's cores reach the buffer, no DMA
 *	engine involved and no time taken: the windows of a lookaside job
 *	(struct nicprog_job_ops). Optional: without it jobs fail with
 *	EOPNOTSUPP. Process context; must not sleep.
 */
struct nicprog_mem_ops {
	void *(*alloc)(struct nicprog_nic *nic, u32 region, u64 size,
		       struct netlink_ext_ack *extack);
	void (*free)(struct nicprog_nic *nic, void *buf);
	s64 (*dma)(struct nicprog_nic *nic, void *buf, u64 offset, void *host,
		   u64 len, bool to_nic);
	void (*access)(struct nicprog_nic *nic, void *buf, u64 offset,
		       void *host, u64 len, bool to_nic);
};

struct nicprog_kernel;

/**
 * struct nicprog_job_ops - lookaside kernels on the NIC's cores
 *	(NICPROG_OP_KERNEL_LOAD, NICPROG_OP_JOB)
 * @run: run kernel @k on one job's frame @pkt (struct nicprog_job_frame,
 *	then the windows) on one of @nic's cores and fill @res as
 *	nicprog_exec_run() does; return the nanoseconds of the host's clock
 *	from now until the core would be done -- when the core completes the
 *	job -- or -errno. A driver that simulates its cores calls
 *	nicprog_kernel_run(); one whose cores run an instruction set of
 *	their own runs what it made of nicprog_kernel_insns(). Neither @k
 *	nor @pkt is the driver's past the call. Process context, the port's
 *	ring lock held; may sleep. Required.
 * @host_dma: a job's windows of host memory (NICPROG_JOB_BUF_HOST) cross
 *	to and from the core: price @len bytes on @nic's DMA engines and
 *	return the nanoseconds of the host's clock until they are done (the
 *	core has copied the bytes; the job completes after these and @run's),
 *	or -errno. Optional: without it such jobs fail with EOPNOTSUPP.
 *	Process context, the port's ring lock held; must not sleep.
 */
struct nicprog_job_ops {
	s64 (*run)(struct nicprog_nic *nic, const struct nicprog_kernel *k,
		   struct nicprog_exec_pkt *pkt,
		   struct nicprog_exec_result *res);
	s64 (*host_dma)(struct nicprog_nic *nic, u64 len);
};

void nicprog_kernel_run(const struct nicprog_kernel *k, const u16 *cost,
			u32 lat_pkt, struct nicprog_exec_state *st,
			struct nicprog_exec_pkt *pkt,
			struct nicprog_exec_result *res);
const struct bpf_insn *nicprog_kernel_insns(const struct nicprog_kernel *k,
					    u32 *len);

/**
 * struct nicprog_rdma_qp_attr - a QP to create (&nicprog_rdma_ops.qp_create)
 * @qpn: out: the number the engine gave it, 24 bits, unique on the port
 * @sq_depth: WRs its send queue holds
 * @rq_depth: WRs its receive queue holds
 * @saddr: its own IPv4 address (RoCEv2 over IPv4)
 */
struct nicprog_rdma_qp_attr {
	u32 qpn;
	u32 sq_depth;
	u32 rq_depth;
	__be32 saddr;
};

/**
 * struct nicprog_rdma_conn - where a QP's peer is (&nicprog_rdma_ops.qp_connect)
 * @dest_qpn: the peer QP's number
 * @rq_psn: the PSN of the peer's first request
 * @sq_psn: the PSN of the QP's first request
 * @mtu: path MTU, 256..4096, a power of two
 * @timeout_ms: retransmission timeout
 * @retry_cnt: retransmissions of a packet before the WR fails
 * @daddr: the peer's IPv4 address
 * @dmac: the next hop's Ethernet address
 * @max_rd_atomic: RDMA READs outstanding at most, 1..16: a READ past them
 *	waits, and the WRs after it, until an earlier READ completes
 */
struct nicprog_rdma_conn {
	u32 dest_qpn;
	u32 rq_psn;
	u32 sq_psn;
	u32 mtu;
	u32 timeout_ms;
	u32 retry_cnt;
	__be32 daddr;
	u8 dmac[6];
	u8 max_rd_atomic;
};

struct nicprog_rdma_wr;
struct nicprog_rdma_wc;

/**
 * struct nicprog_rdma_ops - a NIC's RoCEv2 RC engine (NICPROG_OP_QP_* etc.)
 * @qp_create: make a QP on @nd in protection domain @pd (the opener's
 *	file: a QP reaches only regions of its own domain) whose completions
 *	go to nicprog_rdma_complete(@cq, ...); fill @attr->qpn; return the
 *	driver's handle or an ERR_PTR. Process context; may sleep.
 * @qp_connect: take @qp to RTS towards @conn's peer; -EBUSY if it is
 *	connected already. Process context.
 * @qp_destroy: stop @qp: when it returns, it sends nothing, takes no
 *	frame and completes nothing more; its unfinished WRs are dropped.
 *	Process context; may sleep.
 * @mr_reg: register in protection domain @pd @len bytes of NIC buffer
 *	@buf (&nicprog_mem_ops' handle) from @offset, named @iova by work
 *	requests and peers, with the NICPROG_ACCESS_* bits of @access; fill
 *	the keys, return the driver's handle or an ERR_PTR. The engine
 *	checks the keys and the range on every access. Process context.
 * @mr_dereg: drop @mr: no access finds it once this returns, though one
 *	under rcu_read_lock() may still use it until a grace period passes
 *	(the core waits for one before it frees the buffer under it).
 *	Process context.
 * @post: queue @n well-formed WRs (the core checked opcodes, flags and
 *	lengths) on @qp, all or none: -ENOSPC if a queue has no room,
 *	-EINVAL if the QP is not connected for a send-side WR. Keys are
 *	the engine's to check as it runs each WR, failing it in its WC.
 *	Process context; must not sleep.
 */
struct nicprog_rdma_ops {
	void *(*qp_create)(struct nicprog_dev *nd, void *pd, void *cq,
			   struct nicprog_rdma_qp_attr *attr);
	int (*qp_connect)(void *qp, const struct nicprog_rdma_conn *conn);
	void (*qp_destroy)(void *qp);
	void *(*mr_reg)(struct nicprog_nic *nic, void *pd, void *buf,
			u64 offset, u64 len, u64 iova, u32 access, u32 *lkey,
			u32 *rkey);
	void (*mr_dereg)(struct nicprog_nic *nic, void *mr);
	int (*post)(void *qp, const struct nicprog_rdma_wr *wr, u32 n);
};

void nicprog_rdma_complete(void *cq, const struct nicprog_rdma_wc *wc);

/**
 * struct nicprog_dev_ops - operations a vendor driver provides
 * @port_stats: fill @stats with the port's NIC-side counters. Required.
 *	Called from sysfs reads and netlink dumps; may sleep; must not take
 *	RTNL.
 * @core_stats: fill @cs with the counters of the NIC's first @max cores
 *	and return how many it filled. Optional. Called like @port_stats,
 *	and by netlink's stats-get under RTNL.
 * @unit_stats: fill @us with the counters of at most @max pools of the
 *	NIC's fixed-function units (MAT stages, each kind of accelerator)
 *	and return how many it filled. Optional. Called like @core_stats.
 * @plan_load: install @plan on the port, replacing any installed plan
 *	with no frame seeing neither; when it returns, no frame runs the old
 *	plan any more. The plan runs on the NIC's cores and units the core
 *	gave it (nicprog_plan_core_base(), nicprog_plan_unit_base()), which
 *	no other port's plan holds. May refuse with an extack message.
 *	Required. RTNL held.
 * @plan_unload: remove the port's installed plan; when it returns no
 *	frame runs it. Required. RTNL held.
 * @stage_translate: turn stage @code->stage of @plan into the NIC's own
 *	executable form (its instruction set, its table handles) and return
 *	it; the core keeps it with the plan (nicprog_plan_stage_image()) and
 *	hands it back to @stage_release when the plan goes. Return NULL to
 *	run the stage with the core's interpreter instead
 *	(nicprog_plan_resume()), or an ERR_PTR to refuse the plan: name the
 *	instruction with nicprog_stage_refuse(). Optional: without it every
 *	stage is interpreted. Called for each stage, in order, after the
 *	core gave the plan its units and before @plan_load. RTNL held; may
 *	sleep.
 * @stage_release: free what @stage_translate returned for @stage, once no
 *	frame runs the plan. Required with @stage_translate. RTNL held.
 * @profile_set: give the NIC the profile named @name, or @text (exactly
 *	one is given; the core has parsed and validated @text), as
 *	reflashing the NIC does: the driver calls
 *	nicprog_lnic_replace_begin() and _end(). The driver owns @text from
 *	the call on, whatever it returns. With @profile_request, @name is
 *	only ever one it said it knows without a file. Refusals carry an
 *	extack message. Optional: without it the profile-set operation fails
 *	with EOPNOTSUPP. RTNL held; may sleep, but must not read files (a
 *	slow file system would hold RTNL): that is @profile_request's.
 * @profile_request: turn the profile name @name (one
 *	nicprog_profile_name_ok() accepts: a file name, never a path) into *@text, read from
 *	the driver's files (nicsim: firmware file nicsim/<name>.lnic),
 *	parsed and validated (nicprog_lnic_parse()), for a profile_set that
 *	follows; or leave *@text NULL and return 0 for a name the driver
 *	knows without a file. The caller owns *@text. Refusals carry an
 *	extack message. Optional. Called without RTNL and for no NIC (the
 *	NIC may go meanwhile): only @owner is pinned; may sleep.
 * @accel_run: run accelerator function @afn (enum nicprog_accel_fn) on
 *	one of the NIC's engines, with the exact semantics of its BPF body in
 *	bpf/nicprog.h: @args are the call's R1-R5 (R1 the context, that is
 *	@pkt), *@ret its result. Return the cycles (of the calling core) the
 *	job took, or -errno to run the body on the core instead. Required
 *	when the LNIC has accelerator units. Called by NIC cores running a
 *	plan, in their context; must not sleep.
 * @plan_shapes: the plan shapes the NIC runs, BIT() of enum nicprog_shape
 *	(uapi); 0 for every shape. The planner hands the driver no plan of
 *	another shape: a shape not listed is refused when the operator sets
 *	it, and "auto" takes the widest one listed (pipelined+replicated,
 *	else replicated, else pipelined, else single) unless every shape is.
 *	Optional. A driver that changes it does so under RTNL, with no plan
 *	installed, with WRITE_ONCE() (sysfs reads it without RTNL).
 * @helpers: the BPF helpers (BPF_FUNC_*) the NIC's cores run, ending
 *	with 0; NULL for every helper the core's executor runs. The list is
 *	the NIC's, so a driver whose cores run code of their own lists what
 *	that code has, each one the executor runs too (registration refuses
 *	another, logged). A program calling a helper the NIC lacks is
 *	refused when it is verified, naming the helper in the verifier log,
 *	unless only the host has that helper (a partial plan's host call).
 *	Optional.
 * @owner: the driver's module, THIS_MODULE: pinned while the core calls
 *	an op outside every lock that removal waits for (@profile_request).
 * @table_ops: the driver keeps offloaded maps in storage of its own
 *	(struct nicprog_table_ops). Optional: without it the core does.
 * @ring_xmit: put the @len bytes at @buf on the port's wire, as the NIC
 *	sends a record of a TX pipe (Documentation/nicprog/rings.rst).
 *	Return 0, or -errno to stop the send there (-ENOBUFS: the NIC's
 *	transmit queue is full). Optional: without it TX pipes cannot send.
 *	Process context; must not sleep.
 * @mem_ops: buffers in the NIC's memory for the host, copied by its DMA
 *	engines (struct nicprog_mem_ops). Optional: without it the memory
 *	commands fail with EOPNOTSUPP.
 * @rdma_ops: the NIC's RoCEv2 engine (struct nicprog_rdma_ops), over
 *	buffers of @mem_ops. Optional: without it the RDMA commands fail
 *	with EOPNOTSUPP.
 * @job_ops: lookaside kernels on the NIC's cores (struct
 *	nicprog_job_ops), over buffers of @mem_ops. Optional: without it
 *	the kernel and job commands fail with EOPNOTSUPP.
 *
 * The table grows by phase (monitoring, BPF offload, plans, rings) as the
 * core gains users for each member; required members are checked once at
 * registration.
 */
struct nicprog_dev_ops {
	/* Monitoring */
	void (*port_stats)(struct nicprog_dev *nd,
			   struct nicprog_port_stats *stats);
	u32 (*core_stats)(struct nicprog_nic *nic,
			  struct nicprog_core_stats *cs, u32 max);
	u32 (*unit_stats)(struct nicprog_nic *nic,
			  struct nicprog_unit_stats *us, u32 max);

	/* Plans */
	int (*plan_load)(struct nicprog_dev *nd,
			 const struct nicprog_plan *plan,
			 struct netlink_ext_ack *extack);
	void (*plan_unload)(struct nicprog_dev *nd);
	void *(*stage_translate)(struct nicprog_dev *nd,
				 const struct nicprog_plan *plan,
				 const struct nicprog_stage_code *code,
				 struct netlink_ext_ack *extack);
	void (*stage_release)(struct nicprog_dev *nd, u32 stage, void *image);
	int (*profile_set)(struct nicprog_nic *nic, const char *name,
			   struct nicprog_lnic_text *text,
			   struct netlink_ext_ack *extack);
	int (*profile_request)(const char *name,
			       struct nicprog_lnic_text **text,
			       struct netlink_ext_ack *extack);

	/* Accelerators */
	s64 (*accel_run)(struct nicprog_dev *nd, u32 afn,
			 struct nicprog_exec_pkt *pkt, const u64 *args,
			 u64 *ret);

	/* Tables */
	const struct nicprog_table_ops *table_ops;

	/* Streaming rings */
	int (*ring_xmit)(struct nicprog_dev *nd, const void *buf, u32 len);

	/* NIC memory */
	const struct nicprog_mem_ops *mem_ops;
	const struct nicprog_rdma_ops *rdma_ops;
	const struct nicprog_job_ops *job_ops;

	/* Capabilities */
	u32 plan_shapes;
	const s32 *helpers;

	struct module *owner;
};

struct nicprog_nic *nicprog_nic_register(struct device *dev,
					 struct devlink *devlink,
					 const struct nicprog_lnic *lnic,
					 const struct nicprog_dev_ops *ops,
					 void *priv, u32 ports);
void nicprog_nic_unregister(struct nicprog_nic *nic);
void *nicprog_nic_priv(const struct nicprog_nic *nic);

/*
 * devlink.c: for the driver's own devlink ops. On the driver's instance
 * the core registers top-level resources with IDs from
 * NICPROG_DEVLINK_RES_BASE up and the health reporter "cores"; a
 * driver's own resources and reporters take other IDs and names.
 */
#define NICPROG_DEVLINK_RES_BASE	0x4e500000ULL	/* "NP" */
int nicprog_devlink_info_put(struct nicprog_nic *nic,
			     struct devlink_info_req *req);
int nicprog_devlink_reload_check(struct nicprog_nic *nic,
				 struct netlink_ext_ack *extack);
int nicprog_devl_resources_reload(struct nicprog_nic *nic);

/* a profile's name, NUL included: struct nicprog_lnic_text's name */
#define NICPROG_PROFILE_NAME_MAX	32
/* nicprog_profile_name_ok()'s rule, as devlink and netlink refuse a name */
#define NICPROG_PROFILE_NAME_RULE \
	"a profile name is 1..31 letters, digits, '_', '-' or '.', not '.' first"
bool nicprog_profile_name_ok(const char *name);
struct nicprog_dev *nicprog_register(struct nicprog_nic *nic, u32 index,
				     struct net_device *netdev);
void nicprog_unregister(struct nicprog_dev *nd);
struct nicprog_dev *nicprog_register_netdevice(struct nicprog_nic *nic,
					       u32 index,
					       struct net_device *netdev);
void nicprog_unregister_netdevice(struct nicprog_dev *nd);
__printf(2, 3) void nicprog_bad_arg(const char *where, const char *fmt, ...);
struct nicprog_nic *nicprog_dev_nic(const struct nicprog_dev *nd);
int nicprog_ring_deliver(struct nicprog_dev *nd, u32 target,
			 const void *buf, u32 len, bool more);
void nicprog_ring_flush(struct nicprog_dev *nd);
int nicprog_ring_drop(struct nicprog_dev *nd, u32 target, u32 len);
bool nicprog_host_target(u32 target);
u32 nicprog_host_redirect(struct nicprog_dev *nd, u32 target,
			  struct xdp_buff *xdp, struct bpf_prog *prog);
void nicprog_event_overload(struct nicprog_dev *nd, u32 stage, u32 frames);
void nicprog_event_stall(struct nicprog_dev *nd, u32 core);
int nicprog_lnic_replace_begin(struct nicprog_nic *nic,
			       const struct nicprog_lnic *lnic);
void nicprog_lnic_replace_end(struct nicprog_nic *nic,
			      const struct nicprog_lnic *lnic);
struct net_device *nicprog_dev_netdev(const struct nicprog_dev *nd);
void *nicprog_dev_priv(const struct nicprog_dev *nd);
int nicprog_ndo_bpf(struct nicprog_dev *nd, struct netdev_bpf *bpf);
void nicprog_plan_run(const struct nicprog_plan *plan,
		      struct nicprog_exec_state *st,
		      struct nicprog_exec_pkt *pkt,
		      struct nicprog_exec_result *res);
struct bpf_prog *nicprog_plan_prog(const struct nicprog_plan *plan);

#define NICPROG_STEER_KEY_MAX	48

/**
 * struct nicprog_stage_info - one stage of a plan, for the driver
 * @replicas: cores running the stage
 * @first_core: the first of them; a plan's cores are numbered from 0
 * @steer: enum nicprog_steer: how frames entering the stage pick a core
 * @key_len: entries in @key_off
 * @key_off: with NICPROG_STEER_KEY, the packet bytes (offsets from the
 *	frame start) to hash, in order; a byte past the frame's end hashes
 *	as 0
 * @sym_off: with NICPROG_STEER_KEY_SYMMETRIC, the same key's bytes
 *	swapped: the bytes at @key_off and those at @sym_off are two
 *	copies of @key_len bytes, and the lesser (memcmp()) is hashed, so
 *	that a frame and its reverse pick the same core
 */
struct nicprog_stage_info {
	u32 replicas;
	u32 first_core;
	u8 steer;
	u8 key_len;
	u16 key_off[NICPROG_STEER_KEY_MAX];
	u16 sym_off[NICPROG_STEER_KEY_MAX];
};

u32 nicprog_plan_stages(const struct nicprog_plan *plan);
u32 nicprog_plan_cores(const struct nicprog_plan *plan);
u32 nicprog_plan_units(const struct nicprog_plan *plan, u8 type, u8 accel);
u32 nicprog_plan_core_base(const struct nicprog_plan *plan);
u32 nicprog_plan_unit_base(const struct nicprog_plan *plan, u8 type, u8 accel);
u64 nicprog_plan_region_bytes(const struct nicprog_plan *plan, u32 region);
const struct nicprog_stage_info *
nicprog_plan_stage(const struct nicprog_plan *plan, u32 stage);
u32 nicprog_plan_core_stage(const struct nicprog_plan *plan, u32 core);
void nicprog_plan_start(const struct nicprog_plan *plan,
			struct nicprog_exec_ctx *ctx,
			struct nicprog_exec_pkt *pkt);
void nicprog_plan_resume(const struct nicprog_plan *plan,
			 struct nicprog_exec_state *st,
			 struct nicprog_exec_pkt *pkt,
			 struct nicprog_exec_ctx *ctx,
			 struct nicprog_exec_result *res);

/* Translating drivers (&nicprog_dev_ops.stage_translate). */
void *nicprog_plan_stage_image(const struct nicprog_plan *plan, u32 stage);
void *nicprog_plan_table_store(const struct nicprog_plan *plan, u32 map);
void nicprog_plan_resume_with(const struct nicprog_plan *plan,
			      nicprog_stage_run_t run,
			      struct nicprog_exec_state *st,
			      struct nicprog_exec_pkt *pkt,
			      struct nicprog_exec_ctx *ctx,
			      struct nicprog_exec_result *res);
void *nicprog_stage_refuse(struct nicprog_dev *nd,
			   const struct nicprog_stage_code *code, u32 insn,
			   const char *why, struct netlink_ext_ack *extack);

/* Partial offload: the NIC hands runs over to the host (handover.c). */
u32 nicprog_plan_handover_size(const struct nicprog_plan *plan,
			       const struct nicprog_exec_pkt *pkt,
			       const struct nicprog_exec_ctx *ctx);
int nicprog_plan_handover(const struct nicprog_plan *plan,
			  const struct nicprog_exec_pkt *pkt,
			  const struct nicprog_exec_ctx *ctx,
			  void *out, u32 size);
struct nicprog_host *nicprog_host_alloc(u32 buf_len);
void nicprog_host_free(struct nicprog_host *h);
int nicprog_plan_host_run(const struct nicprog_plan *plan,
			  struct nicprog_host *h, const void *in, u32 len,
			  u32 ifindex, struct nicprog_exec_pkt **pkt,
			  struct nicprog_exec_result *res);
bool nicprog_plan_partial(const struct nicprog_plan *plan);

#endif /* _NET_NICPROG_H */
