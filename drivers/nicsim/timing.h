/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nicsim's timing model (timing.c): when the NIC's cores have run a frame,
 * how long did it take them. Shared with the userspace unit test; there,
 * the offloader's compat.h comes first.
 */
#ifndef _NICSIM_TIMING_H
#define _NICSIM_TIMING_H

#include <net/nicprog_exec.h>
#include <net/nicprog_lnic.h>

#define NICSIM_TM_MAX_CORES	64
#define NICSIM_TM_MAX_THREADS	16	/* hardware threads modelled per core */
#define NICSIM_TM_MAX_ENGINES	64	/* units modelled per pool */
#define NICSIM_TM_BATCH		1024	/* runs waiting before a replay */
#define NICSIM_TM_HOLD		(4 * NICSIM_TM_BATCH)	/* most runs kept */
#define NICSIM_TM_UNARRIVED	U64_MAX	/* a run whose stage before runs */
/* pools of units: one per enum nicprog_accel_type, then the MAT stages */
#define NICSIM_TM_POOL_MAT	__NICPROG_ACCEL_MAX
#define NICSIM_TM_POOLS		(__NICPROG_ACCEL_MAX + 1)

struct nicsim_tm_rec;

/**
 * struct nicsim_tm_region - one memory region as the model sees it
 * @latency: cycles of an access the cache does not serve
 * @bank_cycles: cycles an access keeps its bank busy
 * @cache_cycles: cycles of an access the cache serves
 * @banks: banks of one instance of the region
 * @island: cores per instance (an island's region), 0 for one instance
 * @sets: sets of the cache, 0 without one
 * @tags: per set, NICPROG_LNIC_CACHE_WAYS line numbers plus one (0:
 *	empty), most recently used first
 * @bank_free: per instance and bank, when it is next free
 * @accesses: accesses so far
 * @hits: of them, served by the cache
 * @bank_wait: cycles accesses waited for a busy bank
 */
struct nicsim_tm_region {
	u32 latency;
	u32 bank_cycles;
	u32 cache_cycles;
	u32 banks;
	u32 island;
	u32 sets;
	u64 *tags;
	u64 *bank_free;
	u64 accesses;
	u64 hits;
	u64 bank_wait;
};

/**
 * struct nicsim_tm_pool - identical units that serve jobs first come,
 *	first served: one accelerator type, or the MAT stages
 * @count: units modelled
 * @service: core cycles of a job
 * @per_kib: further core cycles per KiB
 * @free: per unit, when it is next free
 * @jobs: jobs served
 * @busy: cycles units spent serving them
 * @wait: cycles jobs waited for a unit
 */
struct nicsim_tm_pool {
	u32 count;
	u32 service;
	u32 per_kib;
	u64 free[NICSIM_TM_MAX_ENGINES];
	u64 jobs;
	u64 busy;
	u64 wait;
};

/**
 * struct nicsim_tm_thread - one hardware thread of a core
 * @rec: the run it is on, or NULL when free
 * @pos: next event of @rec
 * @done: instruction cycles of @rec behind it
 * @ready: when its memory, engine or MAT job returns
 * @start: when it took @rec
 */
struct nicsim_tm_thread {
	struct nicsim_tm_rec *rec;
	u32 pos;
	u64 done;
	u64 ready;
	u64 start;
};

/**
 * struct nicsim_tm_core - one core as the model sees it
 * @now: its clock
 * @active: cycles of its clock with a run on some thread
 * @busy: of them, cycles it issued instructions
 * @runs: runs finished
 * @latency: cycles from a thread taking a run to its end, summed
 * @latency_max: the longest
 * @wait: cycles runs waited in its queue from their arrival (offered
 *	load only), summed
 * @head: runs waiting for a thread, oldest first
 * @tail: the newest
 * @n_threads: entries in @threads in use
 * @n_running: of them, those with a run: with none and no run waiting,
 *	the replay passes the core by
 * @threads: its hardware threads
 * @pool_base: per pool, the first unit of the slice of its plan
 * @pool_n: per pool, units of the slice; 0: the whole pool
 * @handed: runs handed to it
 * @pace_active: @active at the last nicsim_tm_frame_ns16()
 * @pace_runs: @runs then
 * @pace_handed: @handed then
 */
struct nicsim_tm_core {
	u64 now;
	u64 active;
	u64 busy;
	u64 runs;
	u64 latency;
	u64 latency_max;
	u64 wait;
	struct nicsim_tm_rec *head;
	struct nicsim_tm_rec *tail;
	u32 n_threads;
	u32 n_running;
	struct nicsim_tm_thread threads[NICSIM_TM_MAX_THREADS];
	u8 pool_base[NICSIM_TM_POOLS];
	u8 pool_n[NICSIM_TM_POOLS];
	u64 handed;
	u64 pace_active;
	u64 pace_runs;
	u64 pace_handed;
};

/**
 * struct nicsim_tm - the timing model of one NIC
 * @n_cores: entries in @cores
 * @n_regions: entries in @regions
 * @queued: runs waiting in the cores' queues
 * @unarrived: of them, runs whose stage before has not ended
 * @hub: runs the queues hold at most under an offered load (the
 *	capacity of the LNIC's hub into the cores)
 * @mhz: the cores' clock
 * @interval: under an offered load (nicsim_tm_offer()), cycles between
 *	arrivals, in 1/65536 cycles; 0 while backlogged
 * @next: when the next frame arrives, in 1/65536 cycles
 * @rate: under an offered load, frames per second
 * @arrival: when the frame of the runs handed over now arrived
 * @start: when the arrivals since the last reset of @next began
 * @since: frames that arrived since then
 * @arrival_ns: the NIC's clock (nicsim_tm_now_ns()) when the frame of
 *	the runs handed over now arrived: @start's, plus @since - 1 frames
 *	at @rate, in whole ns as an offline replay counts them
 * @last: the run handed over last, while it is not done
 * @offered: frames that arrived under an offered load
 * @overflow: of them, dropped for a full hub
 * @streams: streams they came in: the first frame, and each after a
 *	replay of all (the stream's end), starts one
 * @streaming: a frame has arrived since the last replay of all
 * @lost: events runs could not record (each priced as an access to
 *	the slowest region)
 * @dropped: runs not timed for want of memory
 * @slowest: latency of the slowest region
 * @clock: time of the last action replayed
 * @cores: per core
 * @regions: per LNIC region
 * @accel: per enum nicprog_accel_type
 * @mat: the MAT stages
 */
struct nicsim_tm {
	u32 n_cores;
	u32 n_regions;
	u32 queued;
	u32 unarrived;
	u32 hub;
	u32 mhz;
	u64 interval;
	u64 next;
	u64 rate;
	u64 arrival;
	u64 start;
	u64 since;
	u64 arrival_ns;
	struct nicsim_tm_rec *last;
	u64 offered;
	u64 overflow;
	u64 streams;
	bool streaming;
	u64 lost;
	u64 dropped;
	u32 slowest;
	u64 clock;
	struct nicsim_tm_core cores[NICSIM_TM_MAX_CORES];
	struct nicsim_tm_region regions[NICPROG_LNIC_MAX_REGIONS];
	struct nicsim_tm_pool accel[__NICPROG_ACCEL_MAX];
	struct nicsim_tm_pool mat;
};

struct nicsim_tm *nicsim_tm_create(const struct nicprog_lnic *lnic,
				   u32 n_cores);
void nicsim_tm_destroy(struct nicsim_tm *tm);
bool nicsim_tm_add(struct nicsim_tm *tm, u32 core, u64 cycles,
		   const struct nicprog_exec_trace *tr, bool after);
void nicsim_tm_replay(struct nicsim_tm *tm, bool all);
void nicsim_tm_offer(struct nicsim_tm *tm, u64 rate);
bool nicsim_tm_arrive(struct nicsim_tm *tm);
u64 nicsim_tm_now_ns(const struct nicsim_tm *tm);
u64 nicsim_tm_frame_ns16(struct nicsim_tm *tm, u64 frames);
u32 nicsim_tm_pending(const struct nicsim_tm *tm);
u32 nicsim_tm_pool_size(const struct nicprog_lnic *lnic, u32 pool);
void nicsim_tm_slice(struct nicsim_tm *tm, u32 core, u32 pool, u32 base,
		     u32 n);

#endif /* _NICSIM_TIMING_H */
