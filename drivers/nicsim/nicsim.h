/* SPDX-License-Identifier: GPL-2.0 */
/* nicsim: simulated SmartNIC for nicprog - private definitions. */
#ifndef _NICSIM_H
#define _NICSIM_H

#include <linux/device.h>
#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/prandom.h>
#include <linux/skbuff.h>
#include <linux/u64_stats_sync.h>
#include <net/devlink.h>
#include <net/nicprog.h>
#include <net/xdp.h>

#include "profiles.h"
#include "timing.h"

#define NICSIM_DRV_NAME		"nicsim"
#define NICSIM_MAX_ID		65535	/* keeps "nicsim<ID>p<P>" in IFNAMSIZ */
#define NICSIM_MAX_PORTS	16
#define NICSIM_MAX_MTU		9000
#define NICSIM_SPEED_MBPS	100000
/* Most host RX queues of a port (ethtool -L): ctx->rx_queue_index steers. */
#define NICSIM_RX_QUEUES	4
#define NICSIM_MAX_CORES	16	/* kthreads per NIC */
#define NICSIM_DMA_ENGINES	16	/* timed DMA engines per NIC */
#define NICSIM_CORE_QUEUE_LEN	512	/* frames waiting for one core */
#define NICSIM_RING_BATCH	64	/* frames a core's pipe notifications wait */
#define NICSIM_RING_STALL_MS	100	/* a full backpressure pipe holds a core */
#define NICSIM_TM_IDLE		(HZ / 10)	/* NIC idle: time what it ran */
#define NICSIM_CLOCK_QUEUE_LEN	4096	/* frames waiting for the clock */
/*
 * No arrival for this long ends an offered stream, for a sender that does
 * not write offered_end. Long: a guest descheduled for a second in the
 * middle of a stream must not split it (that emptied the queues and
 * halved the drops on a busy machine).
 */
#define NICSIM_CLOCK_IDLE	(10 * HZ)
#define NICSIM_RATE_MAX		1000000000000ULL	/* offered frames/s */
#define NICSIM_CLOCK_PACE_FRAMES	256	/* least a backlog's pace is over */

/**
 * struct nicsim_pcpu_stats - per-CPU counters of one port
 * @tx_packets: frames put on the wire
 * @tx_bytes: bytes of those frames
 * @tx_dropped: frames the host sent while the port had no link
 * @wire_rx_packets: frames that arrived from the wire
 * @wire_rx_bytes: bytes of those frames
 * @rx_packets: frames delivered to the host stack
 * @rx_bytes: bytes of those frames
 * @rx_fifo_errors: frames dropped because the receive queue was full
 * @rx_length_errors: frames dropped because they exceeded the MTU, or the
 *	XDP frame of a NIC core
 * @xdp_drop: frames the NIC's program dropped
 * @xdp_pass: frames the NIC's program passed to the host
 * @xdp_tx: frames the NIC's program sent back out of the port
 * @xdp_redirect: frames the NIC's program sent out of another port, to
 *	an NF output or to a host map's entry
 * @xdp_aborted: frames aborted by the program, or with an invalid verdict
 *	or redirect target (the xdp_exception tracepoint fires)
 * @host_handovers: partial offload: frames the NIC handed to the host part
 * @host_state_bytes: live state those handovers carried, in bytes
 * @host_runs: host part runs (their verdicts count in @xdp_drop ...)
 * @host_errors: handovers dropped: the NIC could not write one, or the
 *	host refused one (of a replaced plan, or malformed)
 * @host_ns: host CPU time in host part runs
 * @host_insns: instructions host part runs executed
 * @rx_xdp_drop: frames the port's native XDP program dropped
 * @rx_xdp_pass: frames it passed to the stack
 * @rx_xdp_tx: frames it sent back out of the port
 * @rx_xdp_redirect: frames it redirected (another port, a CPU, AF_XDP)
 * @rx_xdp_aborted: frames it aborted, or whose verdict or redirect failed
 *	(the xdp_exception tracepoint fires)
 * @xdp_xmit: frames other devices' XDP programs redirected out of the port
 * @xdp_xmit_errors: such frames the port could not send
 * @xdp_redirect_err: frames the NIC's program redirected to an ifindex
 *	that is no port of the NIC: counted in @xdp_redirect too, as the
 *	host counts the verdict of a redirect that then fails, and dropped
 *	(the xdp_exception tracepoint fires with XDP_REDIRECT)
 * @xdp_redirect_host: frames the NIC's program redirected to a host
 *	XSKMAP's or CPUMAP's entry: counted in @xdp_redirect too, in the same
 *	update section; handed to the host, where @rx_xdp_redirect counts
 *	those the entry took and the rx_xdp_* counter of the action for a
 *	missing entry the others
 * @wire_lost: frames put on the wire (in @tx_packets) that its seeded
 *	loss took (wire.c)
 * @wire_queue_drops: frames put on the wire (in @tx_packets) that found
 *	its queue full
 * @syncp: writers run with BH disabled (xmit, NAPI, NIC cores) and never
 *	nest a section
 */
struct nicsim_pcpu_stats {
	u64_stats_t tx_packets;
	u64_stats_t tx_bytes;
	u64_stats_t tx_dropped;
	u64_stats_t wire_rx_packets;
	u64_stats_t wire_rx_bytes;
	u64_stats_t rx_packets;
	u64_stats_t rx_bytes;
	u64_stats_t rx_fifo_errors;
	u64_stats_t rx_length_errors;
	u64_stats_t xdp_drop;
	u64_stats_t xdp_pass;
	u64_stats_t xdp_tx;
	u64_stats_t xdp_redirect;
	u64_stats_t xdp_aborted;
	u64_stats_t host_handovers;
	u64_stats_t host_state_bytes;
	u64_stats_t host_runs;
	u64_stats_t host_errors;
	u64_stats_t host_ns;
	u64_stats_t host_insns;
	u64_stats_t rx_xdp_drop;
	u64_stats_t rx_xdp_pass;
	u64_stats_t rx_xdp_tx;
	u64_stats_t rx_xdp_redirect;
	u64_stats_t rx_xdp_aborted;
	u64_stats_t xdp_xmit;
	u64_stats_t xdp_xmit_errors;
	u64_stats_t xdp_redirect_err;
	u64_stats_t xdp_redirect_host;
	u64_stats_t wire_lost;
	u64_stats_t wire_queue_drops;
	struct u64_stats_sync syncp;
};

/* The counters are the u64_stats_t members before syncp, in order. */
#define NICSIM_PCPU_N_STATS \
	(offsetof(struct nicsim_pcpu_stats, syncp) / sizeof(u64_stats_t))

/*
 * Counters by their offsets in struct nicsim_pcpu_stats, updated in one
 * u64_stats section: @n at @off, and @n2 at @off2 (nothing when @n2 is 0).
 * The macros below name the counters.
 */
static inline void nicsim_stats_off(struct nicsim_pcpu_stats __percpu *stats,
				    size_t off, u64 n, size_t off2, u64 n2)
{
	struct nicsim_pcpu_stats *s = this_cpu_ptr(stats);

	u64_stats_update_begin(&s->syncp);
	u64_stats_add((u64_stats_t *)((u8 *)s + off), n);
	if (n2)
		u64_stats_add((u64_stats_t *)((u8 *)s + off2), n2);
	u64_stats_update_end(&s->syncp);
}

#define NICSIM_STAT(field)	offsetof(struct nicsim_pcpu_stats, field)

#define nicsim_stats_inc(port, field) \
	nicsim_stats_off((port)->stats, NICSIM_STAT(field), 1, 0, 0)

#define nicsim_stats_add(port, field, n) \
	nicsim_stats_off((port)->stats, NICSIM_STAT(field), (n), 0, 0)

/* Count one frame of @len bytes in a packets/bytes pair, one section. */
#define nicsim_stats_frame(port, pkts, bytes, len) \
	nicsim_stats_off((port)->stats, NICSIM_STAT(pkts), 1, \
			 NICSIM_STAT(bytes), (len))

#define NICSIM_WIRE_QUEUE_LEN	1024	/* frames in flight on a shaped wire */
#define NICSIM_LOSS_ONE		1000000	/* loss is in parts per million */
#define NICSIM_WIRE_RATE_MAX	1000000000000ULL	/* bits per second */
#define NICSIM_WIRE_DELAY_MAX	NSEC_PER_SEC
#define NICSIM_DILATION_MAX	10000

/**
 * struct nicsim_wire_params - what a wire does, one direction (wire.c)
 * @rate: bits per second of simulated time; 0: no serialization
 * @delay_ns: propagation delay, ns of simulated time
 * @seed: the loss PRNG's seed (the wire's first named port sends with
 *	it, the other with @seed + 1)
 * @loss: frames lost, parts per million
 * @dilation: simulated time runs this many times slower than the host's
 */
struct nicsim_wire_params {
	u64 rate;
	u64 delay_ns;
	u64 seed;
	u32 loss;
	u32 dilation;
};

/**
 * struct nicsim_wire - the direction of a wire a port sends on (wire.c)
 * @lock: protects every member but @timer; taken with BH disabled
 *	(@shaped and @loss_below are also read without it, READ_ONCE())
 * @p: the parameters, set while the port is not linked
 * @shaped: @p has a rate or a delay: frames wait in @queue
 * @loss_below: a 32-bit draw below this loses the frame; 0: no loss
 * @rnd: the loss PRNG
 * @busy: host ns (CLOCK_MONOTONIC) the last frame has left at
 * @queue: frames in flight, in order, at most NICSIM_WIRE_QUEUE_LEN
 * @timer: hands @queue's frames to the peer when they are due
 */
struct nicsim_wire {
	spinlock_t lock;	/* see above */
	struct nicsim_wire_params p;
	bool shaped;
	u32 loss_below;
	struct rnd_state rnd;
	u64 busy;
	struct sk_buff_head queue;
	struct hrtimer timer;
};

/**
 * struct nicsim_port - one port of a simulated NIC, the netdev's private data
 * @netdev: the port's netdev
 * @ndev: the NIC the port belongs to
 * @index: port number within @ndev
 * @peer: the port at the other end of the wire; written under RTNL, read
 *	under RCU by the transmit path. A port is unlinked before it is
 *	unregistered, and unregistering waits an RCU grace period, so a
 *	reader never sees a freed peer.
 * @napi: delivers received frames to the host stack
 * @rxq: frames received from the wire, waiting for @napi; bounded by
 *	NICSIM_RXQ_LEN, protected by its own lock
 * @stats: per-CPU counters
 * @np: the port's registration with nicprog
 * @ref: the installed plan and its cores; written under RTNL by the plan
 *	ops, read under RCU by the receive path and the NIC cores
 * @xdp_prog: the native XDP program, run by @napi (xdp.c)
 * @xdp_rxq: the receive queue @xdp_prog sees
 * @accel_inflight: per enum nicprog_accel_type, jobs of the port's plan
 *	being served or waiting right now, on the engines of its slice
 * @wire: the direction of the wire the port sends on
 * @dl_port: its devlink port on the device's instance (devlink.c)
 */
struct nicsim_port {
	struct net_device *netdev;
	struct nicsim_dev *ndev;
	u32 index;
	struct nicsim_port __rcu *peer;
	struct napi_struct napi;
	struct sk_buff_head rxq;
	struct nicsim_pcpu_stats __percpu *stats;
	struct nicprog_dev *np;
	struct nicsim_plan_ref __rcu *ref;
	struct bpf_prog __rcu *xdp_prog;
	struct xdp_rxq_info xdp_rxq;
	atomic_t accel_inflight[__NICPROG_ACCEL_MAX];
	struct nicsim_wire wire;
	struct xarray qps;
	u32 qpn_next;
	struct sk_buff_head roce_rxq;
	struct napi_struct roce_napi;
	atomic64_t roce_rx_drops;
	atomic64_t roce_rx;
	atomic64_t roce_tx;
	atomic64_t roce_icrc_errors;
	atomic64_t roce_malformed;
	atomic64_t roce_retransmits;
	atomic64_t roce_duplicates;
	atomic64_t roce_seq_errors;
	atomic64_t roce_naks;
	atomic64_t roce_qp_errors;
	struct devlink_port dl_port;
};

/*
 * Cycles a core spends taking a job from its queue: nicprog's offloader
 * prices a hop the same (NICPROG_HOP_CYCLES).
 */
#define NICSIM_HOP_CYCLES	12
#define NICSIM_FRAME_SZ		4096
/*
 * Frame buffers of the NIC's packet memory a multi-stage plan's frames
 * take in turn (a single stage's run in their core's); nicprog-plan's
 * replay numbers its own alike (hostrun.c NP_PKT_BUFS), so that a model
 * sees the same packet lines in both.
 */
#define NICSIM_JOB_BUFS		256

/**
 * struct nicsim_plan_ref - a plan installed on a port, and where it runs
 * @plan: the plan
 * @translated: its stages run in nicsim's translated form (translate.c)
 * @base: the NIC core that is the plan's core 0 (nicprog_plan_core_base()):
 *	the plan runs on cores @base up to @base + nicprog_plan_cores(@plan),
 *	which no other port's plan holds
 * @host: partial plans: the host's scratch for their host part, used by
 *	the port's NAPI instance only; NULL otherwise
 * @unit_base: per pool of units (NICSIM_TM_POOLS), the first of the
 *	plan's slice (nicprog_plan_unit_base()), which no other port's plan
 *	holds
 * @units: per pool, units of the slice (nicprog_plan_units())
 *
 * One per plan_load, freed once no frame or job can see it.
 */
struct nicsim_plan_ref {
	const struct nicprog_plan *plan;
	bool translated;
	u32 base;
	struct nicprog_host *host;
	u8 unit_base[NICSIM_TM_POOLS];
	u8 units[NICSIM_TM_POOLS];
};

/**
 * struct nicsim_rx_cb - the receive descriptor of a frame in a port's rxq
 *	(skb->cb)
 * @ref: NULL for a frame; for a handover (partial offload) or a frame
 *	redirected to a host map, the plan the NIC ran, compared with the
 *	installed one, never dereferenced
 * @host_target: a frame the NIC's program redirected to a host map's
 *	entry: the target (nicprog_host_target()); else 0
 */
struct nicsim_rx_cb {
	const struct nicsim_plan_ref *ref;
	u32 host_target;
};

#define NICSIM_RX_CB(skb)	((struct nicsim_rx_cb *)(skb)->cb)

/**
 * struct nicsim_job - a frame between the stages of a plan
 * @list: entry in a core's job queue
 * @port: the port the frame arrived on
 * @ref: the installed plan it runs; a job of a replaced plan is dropped
 *	(compared, never dereferenced once replaced)
 * @pkt: the frame's bounds in @frame
 * @ctx: the run's live state; valid while @res.done is false
 * @res: the finished run's verdict, once @res.done
 * @frame: the XDP frame buffer, which never moves while the job lives
 */
struct nicsim_job {
	struct list_head list;
	struct nicsim_port *port;
	const struct nicsim_plan_ref *ref;
	struct nicprog_exec_pkt pkt;
	struct nicprog_exec_ctx ctx;
	struct nicprog_exec_result res;
	u8 frame[NICSIM_FRAME_SZ];
};

/**
 * struct nicsim_core - one simulated NIC core
 * @index: core number within the NIC
 * @task: the kthread running it
 * @queue: frames waiting, at most NICSIM_CORE_QUEUE_LEN; skb->dev is the
 *	port the frame arrived on
 * @wq: the kthread sleeps here while @queue is empty
 * @state: executor scratch
 * @frame: the XDP frame buffer
 * @ndev: the NIC
 * @jobs: jobs from the stage before, at most NICSIM_CORE_QUEUE_LEN
 * @jobs_lock: protects @jobs and @n_jobs; taken with BH disabled
 * @n_jobs: entries in @jobs
 * @trace: what the core's current run waited for, for the timing model
 * @packets: frames (or stages of frames) run, written by the core only
 * @errors: runs the executor stopped itself, written by the core only
 * @passes: jobs passed on without running, written by the core only
 * @mat_lookups: lookups MAT stages served for this core
 * @queue_max: deepest @jobs seen, under @jobs_lock
 * @queue_drops: jobs dropped: full queue or replaced plan
 * @ring_port: the port whose pipes hold notifications this core deferred,
 *	within one batch; the core's thread only
 * @ring_batch: frames the core ran since it deferred the first of them
 * @held: a copy of the frame a full backpressure pipe refused, which the
 *	core holds and retries (nicsim_core_stall()), taking no other; NULL
 *	if none. @held and @held_port are written under @jobs_lock (the
 *	core's thread sets them, a purge of the port clears them)
 * @held_len: its length
 * @held_target: its redirect target
 * @held_port: the port whose program steered it
 * @held_since: jiffies when the pipe first refused it
 */
struct nicsim_core {
	u32 index;
	struct task_struct *task;
	struct sk_buff_head queue;
	wait_queue_head_t wq;
	struct nicprog_exec_state *state;
	u8 *frame;
	struct nicprog_exec_trace *trace;
	struct nicsim_dev *ndev;
	struct list_head jobs;
	spinlock_t jobs_lock;	/* see above */
	u32 n_jobs;
	u64 packets;
	u64 errors;
	u64 passes;
	u64 mat_lookups;
	u32 queue_max;
	u64 queue_drops;
	struct nicsim_port *ring_port;
	u32 ring_batch;
	u8 *held;
	u32 held_len;
	u32 held_target;
	struct nicsim_port *held_port;
	unsigned long held_since;
};

/**
 * struct nicsim_dev - one simulated SmartNIC, a device on the nicsim bus
 * @dev: /sys/bus/nicsim/devices/nicsim<ID>; its refcount owns the structure
 * @id: ID given at creation
 * @lnic: architecture profile of the NIC; replaced (profile.c) under
 *	RTNL and @lnic_lock, while no port has a program or map
 * @own_lnic: @lnic's storage when it was read from a file, else NULL;
 *	freed with the device or when replaced
 * @lnic_lock: serializes reading @lnic outside RTNL with its replacement
 * @live: created and not being destroyed: the profile may be replaced;
 *	under RTNL
 * @list: entry in the bus's device list, under nicsim_devs_lock
 * @n_cores: entries in @cores
 * @cores: the NIC's cores, running while the device exists
 * @stats_cores: cores readers outside RTNL (nicprog's core_stats) may
 *	see, and @tm valid for them: 0 while the cores start or stop; under
 *	@tm_lock
 * @tm: the timing model of the cores' runs, created and freed with them
 * @tm_lock: serializes @tm, @tm_last_add and @clock_last .. @clock_frac:
 *	the cores hand it runs (BH disabled) and replay them, stats readers
 *	read it
 * @tm_last_add: jiffies when a core last handed @tm a run
 * @offered_rate: frames per second of the NIC's clock offered to it (0:
 *	backlogged); set under RTNL while no port has a plan, with the cores
 *	stopped
 * @clock_task: while @offered_rate is set and the cores run, the clock's
 *	thread (clock.c), which frames from the wire go to instead of the
 *	cores' queues; constant while the cores run
 * @clock_queue: frames from the wire waiting for the clock, at most
 *	NICSIM_CLOCK_QUEUE_LEN
 * @clock_wq: the clock's thread waits here for frames
 * @clock_last: the NIC's clock a frame from a backlog read last, under
 *	@tm_lock
 * @clock_taken: frames taken from a backlog since @clock_pace16 was
 *	measured
 * @clock_pace16: the NIC's time a frame then (nicsim_tm_frame_ns16()), in
 *	1/65536 ns; 0: not known yet
 * @clock_frac: the fraction of a ns @clock_last is short of, in 1/65536
 * @job_bufs: frames multi-stage plans started, numbering the buffer
 *	(modulo NICSIM_JOB_BUFS) each lies in
 * @accel_jobs: per enum nicprog_accel_type, jobs the engines ran
 * @accel_cycles: per enum nicprog_accel_type, cycles they were busy
 * @accel_queue_max: per enum nicprog_accel_type, most jobs seen waiting
 * @accel_refused: per enum nicprog_accel_type, jobs refused for a full
 *	queue (their calls ran the function's BPF body on the core)
 * @nic: the NIC's registration with nicprog, from the cores' start to
 *	the ports' destruction
 * @ops: what @nic was registered with: nicsim_nicprog_ops, its table_ops
 *	nicsim_nic_table_ops when @nic_tables; constant from then on
 * @nic_tables: the NIC's tables are in memory the host does not address
 *	(new_device's TABLES "nic"): only translated stages reach them
 * @exec_mode: NICSIM_EXEC_*, how the next plans run (translate.c);
 *	written under RTNL
 * @translate_refuse: an instruction translation refuses (debugfs)
 * @ddir: the device's debugfs directory
 * @tables_lock: protects @tables
 * @tables: the tables the NIC holds (struct nicsim_table, table.c)
 * @table_accept: the NIC takes new tables (debugfs)
 * @mem_bufs: buffers the host allocated in the NIC's memory (mem.c)
 * @mem_bytes: their bytes
 * @jobs: lookaside jobs its cores ran (job.c)
 * @job_cycles: their cycles
 * @dma_lock: protects @dma_free, @dma_jobs and @dma_bytes
 * @dma_free: per DMA engine, when (ktime_get_ns()) its queued copies end
 * @dma_jobs: copies the engines made
 * @dma_bytes: their bytes
 * @mrs: the RoCE engine's memory regions by key index (roce.c), RCU
 * @mr_next: the next key index to try
 * @devlink: the device's devlink instance, registered (devlink.c)
 * @profile_applied: the devlink "profile" parameter's value the last
 *	reload (or creation) applied, under devlink's lock
 * @port_count: entries in @ports
 * @ports: the ports, all registered while the device is listed
 */
struct nicsim_dev {
	struct device dev;
	u32 id;
	const struct nicprog_lnic *lnic;
	struct nicprog_lnic_text *own_lnic;
	struct mutex lnic_lock;		/* @lnic, @own_lnic */
	bool live;
	struct list_head list;
	u32 n_cores;
	struct nicsim_core *cores[NICSIM_MAX_CORES];
	u32 stats_cores;
	struct nicsim_tm *tm;
	spinlock_t tm_lock;	/* see above */
	unsigned long tm_last_add;
	u64 offered_rate;
	struct task_struct *clock_task;
	struct sk_buff_head clock_queue;
	wait_queue_head_t clock_wq;
	u64 clock_last;
	u64 clock_taken;
	u64 clock_pace16;
	u64 clock_frac;
	atomic_t job_bufs;
	atomic64_t accel_jobs[__NICPROG_ACCEL_MAX];
	atomic64_t accel_cycles[__NICPROG_ACCEL_MAX];
	atomic_t accel_queue_max[__NICPROG_ACCEL_MAX];
	atomic64_t accel_refused[__NICPROG_ACCEL_MAX];
	struct nicprog_nic *nic;
	struct nicprog_dev_ops ops;
	bool nic_tables;
	u8 exec_mode;
	u32 translate_refuse;
	struct dentry *ddir;
	struct mutex tables_lock;	/* see above */
	struct list_head tables;
	bool table_accept;
	atomic_t mem_bufs;
	atomic64_t mem_bytes;
	atomic64_t jobs;
	atomic64_t job_cycles;
	spinlock_t dma_lock;	/* @dma_* */
	u64 dma_free[NICSIM_DMA_ENGINES];
	u64 dma_jobs;
	u64 dma_bytes;
	struct xarray mrs;
	u32 mr_next;
	struct devlink *devlink;
	char profile_applied[NICPROG_PROFILE_NAME_MAX * 2];
	u32 port_count;
	struct nicsim_port *ports[];
};

/* struct nicsim_dev.exec_mode (translate.c) */
enum {
	NICSIM_EXEC_INTERP,
	NICSIM_EXEC_TRANSLATED,
};

/* devlink.c */
int nicsim_devlink_init(struct nicsim_dev *ndev);
void nicsim_devlink_exit(struct nicsim_dev *ndev);
int nicsim_devlink_port_register(struct nicsim_port *port);
void nicsim_devlink_port_unregister(struct nicsim_port *port);

/* port.c */
void nicsim_wire_tx(struct nicsim_port *port, struct sk_buff *skb);
void nicsim_wire_deliver(struct nicsim_port *port, struct nicsim_port *peer,
			 struct sk_buff *skb);
int nicsim_ring_xmit(struct nicprog_dev *nd, const void *buf, u32 len);
void nicsim_host_rx(struct nicsim_port *port, struct sk_buff *skb);
void nicsim_host_rx_redirect(struct nicsim_port *port, struct sk_buff *skb,
			     const struct nicsim_plan_ref *ref, u32 target);
void nicsim_host_rx_handover(struct nicsim_port *port, struct sk_buff *skb,
			     const struct nicsim_plan_ref *ref);
struct nicsim_port *nicsim_port_create(struct nicsim_dev *ndev, u32 index);
void nicsim_port_destroy(struct nicsim_port *port);
void nicsim_port_get_stats(struct nicsim_port *port,
			   struct nicsim_pcpu_stats *sum);

/* cores.c */
int nicsim_cores_start(struct nicsim_dev *ndev);
void nicsim_cores_stop(struct nicsim_dev *ndev);
u32 nicsim_cores_stats(struct nicsim_dev *ndev, struct nicprog_core_stats *cs,
		       u32 max);
bool nicsim_cores_steer(struct nicsim_port *port,
			const struct nicsim_plan_ref *ref, struct sk_buff *skb);
bool nicsim_frame_queue(struct sk_buff_head *q, u32 limit,
			wait_queue_head_t *wq, struct sk_buff *skb);
struct nicsim_core *nicsim_cores_first(struct nicsim_port *port,
				       const struct nicsim_plan_ref *ref,
				       const struct sk_buff *skb);
void nicsim_core_run(struct nicsim_core *core, struct nicsim_port *port,
		     struct sk_buff *skb, u64 now);
void nicsim_core_stall(struct nicsim_core *core);
void nicsim_cores_purge(struct nicsim_port *port);
void nicsim_verdict(struct nicsim_port *port, const struct nicprog_plan *plan,
		    const struct nicprog_exec_pkt *pkt,
		    const struct nicprog_exec_result *res,
		    struct nicsim_core *core);
void nicsim_core_ring_flush(struct nicsim_core *core, bool force);

/* clock.c */
int nicsim_clock_start(struct nicsim_dev *ndev);
void nicsim_clock_stop(struct nicsim_dev *ndev);
bool nicsim_clock_steer(struct nicsim_port *port, struct sk_buff *skb);

/* hostpart.c */
void nicsim_host_part(struct nicsim_port *port, struct sk_buff *skb);

/* bpf.c */
int nicsim_port_ndo_bpf(struct net_device *dev, struct netdev_bpf *bpf);
int nicsim_xdp_setup(struct nicsim_port *port, struct netdev_bpf *bpf);
bool nicsim_xdp_rx(struct nicsim_port *port, struct bpf_prog *prog,
		   struct sk_buff *skb);
bool nicsim_xdp_host_redirect(struct nicsim_port *port, struct sk_buff *skb);
int nicsim_xdp_xmit(struct net_device *dev, int n, struct xdp_frame **frames,
		    u32 flags);
int nicsim_xdp_init(struct nicsim_port *port);
void nicsim_xdp_fini(struct nicsim_port *port);
int nicsim_plan_load(struct nicprog_dev *nd, const struct nicprog_plan *plan,
		     struct netlink_ext_ack *extack);
void nicsim_plan_unload(struct nicprog_dev *nd);

/* bus.c */
int nicsim_dev_planless(struct nicsim_dev *ndev, const char *attr);

/* translate.c */
int nicsim_translate_init(void);
void nicsim_translate_exit(void);
void nicsim_translate_dev_init(struct nicsim_dev *ndev);
void nicsim_translate_dev_exit(struct nicsim_dev *ndev);
void *nicsim_stage_translate(struct nicprog_dev *nd,
			     const struct nicprog_plan *plan,
			     const struct nicprog_stage_code *code,
			     struct netlink_ext_ack *extack);
void nicsim_stage_release(struct nicprog_dev *nd, u32 stage, void *image);
void nicsim_stage_run(const void *image, const struct nicprog_exec_ops *ops,
		      void *priv, struct nicprog_exec_state *st,
		      struct nicprog_exec_pkt *pkt,
		      struct nicprog_exec_ctx *ctx,
		      struct nicprog_exec_result *res);
extern struct device_attribute dev_attr_exec_mode;
/* ops.c */
extern struct device_attribute dev_attr_plan_shapes;

/**
 * struct nicsim_buf - a buffer in the simulated NIC's memory (mem.c)
 * @region: its LNIC region
 * @size: its bytes
 * @data: them
 */
struct nicsim_buf {
	u32 region;
	u64 size;
	u8 *data;
};

/* mem.c */
extern const struct nicprog_mem_ops nicsim_mem_ops;
u64 nicsim_dma_ns(const struct nicprog_lnic_unit *unit, u64 len, u32 dilation);
const struct nicprog_lnic_unit *
nicsim_dma_unit(const struct nicprog_lnic *lnic, u32 region);
u64 nicsim_dma_reserve(struct nicsim_dev *ndev,
		       const struct nicprog_lnic_unit *unit, u64 len);
void nicsim_mem_init(struct nicsim_dev *ndev);

/* roce.c */
struct seq_file;
extern const struct nicprog_rdma_ops nicsim_rdma_ops;

/* job.c */
extern const struct nicprog_job_ops nicsim_job_ops;
bool nicsim_roce_rx(struct nicsim_port *port, struct sk_buff *skb);
int nicsim_roce_poll(struct napi_struct *napi, int budget);
void nicsim_roce_show(struct seq_file *m, struct nicsim_port *port);

/* table.c */
extern const struct nicprog_table_ops nicsim_table_ops;
extern const struct nicprog_table_ops nicsim_nic_table_ops;
extern struct device_attribute dev_attr_table_memory;
void nicsim_table_dev_init(struct nicsim_dev *ndev);

/* accel.c */
s64 nicsim_accel_run(struct nicprog_dev *nd, u32 afn,
		     struct nicprog_exec_pkt *pkt, const u64 *args, u64 *ret);
u32 nicsim_units_stats(struct nicsim_dev *ndev, struct nicprog_unit_stats *us,
		       u32 max);

/* wire.c */
void nicsim_wire_init(struct nicsim_wire *w);
void nicsim_wire_set(struct nicsim_wire *w,
		     const struct nicsim_wire_params *p, u64 seed);
void nicsim_wire_stop(struct nicsim_wire *w);
void nicsim_wire_send(struct nicsim_port *port, struct nicsim_port *peer,
		      struct sk_buff *skb);
u32 nicsim_wire_dilation_get(void);
void nicsim_wire_dilation_set(u32 dilation);
extern const struct attribute_group nicsim_wire_group;

/* link.c */
int nicsim_link(struct nicsim_port *a, struct nicsim_port *b,
		const struct nicsim_wire_params *p);
int nicsim_unlink(struct nicsim_port *port);
void nicsim_link_update_carrier(struct nicsim_port *port);

/* ethtool.c */
extern const struct ethtool_ops nicsim_ethtool_ops;

/* profile.c */
extern const struct nicprog_dev_ops nicsim_nicprog_ops;
int nicsim_profile_request(const char *name, struct nicprog_lnic_text **out,
			   struct netlink_ext_ack *extack);
int nicsim_profile_check(const struct nicprog_lnic *lnic,
			 struct netlink_ext_ack *extack);
int nicsim_profile_replace(struct nicsim_dev *ndev,
			   const struct nicprog_lnic *lnic,
			   struct nicprog_lnic_text **own,
			   struct netlink_ext_ack *extack);

#endif /* _NICSIM_H */
