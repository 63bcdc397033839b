// SPDX-License-Identifier: GPL-2.0
/*
 * nicsim's timing model: the ground truth nicprog's predictor is measured
 * against, so it shares none of the predictor's formulas. The cores run
 * each frame for its result first; the executor records what the run
 * waited for (struct nicprog_exec_trace: memory accesses by address, engine
 * and MAT jobs) and its instruction cycles. Here those runs are replayed
 * as a discrete-event simulation of the whole NIC, in one clock:
 *
 * - each core has hardware threads; a thread takes the next run waiting
 *   for the core, and the core issues one thread's instructions until it
 *   waits for memory, an engine or a MAT stage, then switches to the
 *   thread that is ready first (as network processors swap contexts on a
 *   memory reference), so that threads hide latency only as far as the
 *   others have work;
 * - a region with a cache in front serves an access from it if the line
 *   (of the NIC address the program touched, NICPROG_EXEC_NIC_TABLE(),
 *   not the host allocator's) is there, LRU within a set;
 * - a region's banks are busy for a while after each access, by address,
 *   so accesses to one bank queue, across all cores;
 * - engines and MAT stages are pools of units serving jobs first come,
 *   first served, so a long job holds up those behind it.
 *
 * Replay is in order of the simulated clock over all cores, so contention
 * does not depend on how the host scheduled the cores' threads. Runs wait
 * in the cores' queues until a batch has gathered (or the counters are
 * read), which bounds the memory they hold. A run's stages on different
 * cores are timed where they run; a core that runs out of work idles until
 * the rest of the NIC's clock.
 *
 * That is the NIC backlogged: every frame waits, none is lost, and the
 * model times how fast it drains. Under an offered load instead, frames
 * arrive at given times (nicsim_tm_arrive()): the model is first replayed
 * up to the arrival, which it can do exactly because every earlier frame
 * has been handed over; the frame is dropped if the queues into the cores
 * hold as many runs as the LNIC's hub does, and otherwise its runs are
 * handed over to arrive then -- a later stage's when the stage before
 * ends. A dropped frame is never run, as on a NIC whose ingress overflows.
 *
 * The caller serializes every call for one model (nicsim: ndev->tm_lock).
 */
#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>
#else
#include "compat.h"
#endif
#include "timing.h"

/**
 * struct nicsim_tm_rec - one run waiting for, or on, a hardware thread
 * @next: the next run in the core's queue
 * @then: the frame's run at the next stage, which arrives when this ends
 * @arrival: when it arrived (0: backlogged; NICSIM_TM_UNARRIVED: its
 *	stage before has not ended)
 * @cycles: its instruction cycles
 * @n: entries in @ev
 * @lost: events it could not record
 * @ev: what it waited for
 */
struct nicsim_tm_rec {
	struct nicsim_tm_rec *next;
	struct nicsim_tm_rec *then;
	u64 arrival;
	u64 cycles;
	u32 n;
	u32 lost;
	struct nicprog_exec_event ev[];
};

/* Cycles of @u's clock in cycles of a clock of @mhz. */
static u32 tm_scale(u64 cycles, u32 unit_mhz, u32 mhz)
{
	return min_t(u64, cycles * mhz / (unit_mhz ? unit_mhz : 1), U32_MAX);
}

static void tm_pool_init(struct nicsim_tm_pool *p,
			 const struct nicprog_lnic_unit *u, u32 mhz)
{
	p->count = min_t(u32, p->count + u->count, NICSIM_TM_MAX_ENGINES);
	p->service = tm_scale(u->service_cycles, u->clock_mhz, mhz);
	p->per_kib = tm_scale(u->cycles_per_kib, u->clock_mhz, mhz);
}

/**
 * nicsim_tm_create() - a timing model for a NIC
 * @lnic: the NIC's profile
 * @n_cores: cores it runs (at most NICSIM_TM_MAX_CORES)
 *
 * Context: process.
 * Return: the model, or NULL without memory.
 */
struct nicsim_tm *nicsim_tm_create(const struct nicprog_lnic *lnic,
				   u32 n_cores)
{
	const struct nicprog_lnic_unit *cu = NULL, *u;
	const struct nicprog_lnic_region *lr;
	struct nicsim_tm_region *r;
	struct nicsim_tm *tm;
	u32 i, threads, mhz, ci = 0;

	for (i = 0; i < lnic->n_units && !cu; i++)
		if (lnic->units[i].type == NICPROG_UNIT_CORE) {
			cu = &lnic->units[i];
			ci = i;
		}
	if (!cu)
		return NULL;
	tm = kvcalloc(1, sizeof(*tm), GFP_KERNEL);
	if (!tm)
		return NULL;
	mhz = cu->clock_mhz;
	tm->mhz = mhz;
	tm->hub = NICSIM_TM_HOLD;
	for (i = 0; i < lnic->n_hubs; i++)
		if (lnic->hubs[i].to_mask & BIT(ci)) {
			tm->hub = lnic->hubs[i].capacity;
			break;
		}
	tm->n_cores = min_t(u32, n_cores, NICSIM_TM_MAX_CORES);
	threads = clamp_t(u32, cu->threads, 1, NICSIM_TM_MAX_THREADS);
	for (i = 0; i < tm->n_cores; i++)
		tm->cores[i].n_threads = threads;
	tm->n_regions = lnic->n_regions;
	for (i = 0; i < lnic->n_regions; i++) {
		lr = &lnic->regions[i];
		r = &tm->regions[i];
		r->latency = lr->latency_cycles;
		r->bank_cycles = lr->bank_cycles;
		r->cache_cycles = lr->cache_cycles;
		r->banks = max_t(u32, lr->banks, 1);
		r->island = lr->island;
		r->sets = lr->cache_bytes / (NICPROG_LNIC_CACHE_LINE *
					     NICPROG_LNIC_CACHE_WAYS);
		if (cu->region_mask & BIT(i))
			tm->slowest = max(tm->slowest, r->latency);
		if (r->sets) {
			r->tags = kvcalloc((size_t)r->sets * NICPROG_LNIC_CACHE_WAYS,
					   sizeof(u64), GFP_KERNEL);
			if (!r->tags)
				goto err;
		}
		if (r->bank_cycles) {
			/* an island's region: an instance per island */
			r->bank_free = kvcalloc((size_t)r->banks *
						(r->island ?
						 DIV_ROUND_UP(tm->n_cores,
							      r->island) : 1),
						sizeof(u64), GFP_KERNEL);
			if (!r->bank_free)
				goto err;
		}
	}
	for (i = 0; i < lnic->n_units; i++) {
		u = &lnic->units[i];
		if (u->type == NICPROG_UNIT_ACCEL && u->accel < __NICPROG_ACCEL_MAX)
			tm_pool_init(&tm->accel[u->accel], u, mhz);
		else if (u->type == NICPROG_UNIT_MAT)
			tm_pool_init(&tm->mat, u, mhz);
	}
	return tm;

err:
	nicsim_tm_destroy(tm);
	return NULL;
}

/**
 * nicsim_tm_destroy() - free a timing model and the runs it holds
 * @tm: the model, or NULL
 *
 * Context: process.
 */
void nicsim_tm_destroy(struct nicsim_tm *tm)
{
	struct nicsim_tm_rec *rec;
	struct nicsim_tm_core *c;
	u32 i, t;

	if (!tm)
		return;
	for (i = 0; i < tm->n_cores; i++) {
		c = &tm->cores[i];
		for (t = 0; t < c->n_threads; t++)
			kfree(c->threads[t].rec);
		while ((rec = c->head)) {
			c->head = rec->next;
			kfree(rec);
		}
	}
	for (i = 0; i < tm->n_regions; i++) {
		kvfree(tm->regions[i].tags);
		kvfree(tm->regions[i].bank_free);
	}
	kvfree(tm);
}

/* An access of core @core to @r at @t: its cycles until the data is back. */
static u64 tm_access(struct nicsim_tm_region *r, u32 core, u64 t, u64 addr)
{
	u64 line = addr / NICPROG_LNIC_CACHE_LINE + 1, start, *set;
	u32 w, b;

	r->accesses++;
	if (r->sets) {
		b = nicprog_lnic_line_hash(line) % r->sets;	/* the set */
		set = &r->tags[(u64)b * NICPROG_LNIC_CACHE_WAYS];
		for (w = 0; w < NICPROG_LNIC_CACHE_WAYS && set[w] != line; w++)
			;
		/* a miss evicts the least recently used way */
		memmove(&set[1], &set[0],
			min_t(u32, w, NICPROG_LNIC_CACHE_WAYS - 1) * sizeof(*set));
		set[0] = line;
		if (w < NICPROG_LNIC_CACHE_WAYS) {
			r->hits++;
			return r->cache_cycles;
		}
	}
	if (!r->bank_cycles)
		return r->latency;
	/* the profile's interleave hash, said or not: the NIC has one */
	b = nicprog_lnic_bank(line, r->banks);
	if (r->island)		/* the bank of the core's island's instance */
		b += core / r->island * r->banks;
	start = max(t, r->bank_free[b]);
	r->bank_free[b] = start + r->bank_cycles;
	r->bank_wait += start - t;
	return start - t + r->latency;
}

/*
 * A job of @len bytes from core @c on the first unit of @p's pool free at
 * or after @t: of the units of the slice of @c's plan.
 */
static u64 tm_job(struct nicsim_tm_pool *p, const struct nicsim_tm_core *c,
		  u32 pool, u64 t, u32 len)
{
	u32 i, u, first = 0, end = p->count;
	u64 start, svc;

	if (!p->count)
		return 0;
	if (c->pool_n[pool] && c->pool_base[pool] + c->pool_n[pool] <= end) {
		first = c->pool_base[pool];
		end = first + c->pool_n[pool];
	}
	for (i = first + 1, u = first; i < end; i++)
		if (p->free[i] < p->free[u])
			u = i;
	start = max(t, p->free[u]);
	svc = p->service + (u64)p->per_kib * len / 1024;
	p->free[u] = start + svc;
	p->jobs++;
	p->busy += svc;
	p->wait += start - t;
	return start - t + svc;
}

/* Cycles until what event @ev of core @c, issued at @t, is done. */
static u64 tm_event(struct nicsim_tm *tm, const struct nicsim_tm_core *c,
		    const struct nicprog_exec_event *ev, u64 t)
{
	u8 type;

	switch (ev->kind) {
	case NICPROG_EXEC_EV_MEM:
		if (ev->unit >= tm->n_regions)
			return tm->slowest;
		return tm_access(&tm->regions[ev->unit], c - tm->cores, t,
				 ev->addr);
	case NICPROG_EXEC_EV_ACCEL:
		type = nicprog_accel_fn_type(ev->unit);
		return type < __NICPROG_ACCEL_MAX ?
		       tm_job(&tm->accel[type], c, type, t, ev->len) : 0;
	case NICPROG_EXEC_EV_MAT:
		return tm_job(&tm->mat, c, NICSIM_TM_POOL_MAT, t, 0);
	}
	return 0;
}

/**
 * nicsim_tm_add() - hand the model a run a core has done
 * @tm: the model
 * @core: the core, below the model's cores
 * @cycles: the run's instruction cycles (and the core's own, as a hop)
 * @tr: what it waited for; NULL if nothing
 * @after: of a later stage than the frame's run handed over before: it
 *	arrives when that run ends, not with the frame
 *
 * Replays a batch when enough runs wait.
 *
 * Context: any; the caller serializes calls for @tm.
 * Return: false if the run could not be kept (no memory); it is counted.
 */
bool nicsim_tm_add(struct nicsim_tm *tm, u32 core, u64 cycles,
		   const struct nicprog_exec_trace *tr, bool after)
{
	struct nicsim_tm_core *c = &tm->cores[core];
	struct nicsim_tm_rec *rec;
	u32 n = tr ? tr->n : 0;

	rec = kmalloc(sizeof(*rec) + n * sizeof(rec->ev[0]), GFP_ATOMIC);
	if (!rec) {
		tm->dropped++;
		tm->last = NULL;
		return false;
	}
	rec->next = NULL;
	rec->then = NULL;
	rec->arrival = 0;
	if (tm->interval) {
		/* a stage's run arrives when the one before ends */
		rec->arrival = tm->arrival;
		if (after && tm->last) {
			tm->last->then = rec;
			rec->arrival = NICSIM_TM_UNARRIVED;
			tm->unarrived++;
		}
		tm->last = rec;
	}
	c->handed++;
	rec->cycles = cycles;
	rec->n = n;
	rec->lost = tr ? tr->lost : 0;
	if (n)
		memcpy(rec->ev, tr->ev, n * sizeof(rec->ev[0]));
	tm->lost += rec->lost;
	if (c->tail)
		c->tail->next = rec;
	else
		c->head = rec;
	c->tail = rec;
	/* under an offered load, arrivals drive the replay */
	if (++tm->queued >= NICSIM_TM_BATCH && !tm->interval)
		nicsim_tm_replay(tm, false);
	return true;
}

static bool tm_core_running(const struct nicsim_tm_core *c)
{
	return c->n_running;
}

/* Thread @th of @c takes the core's oldest waiting run. */
static void tm_take(struct nicsim_tm *tm, struct nicsim_tm_core *c,
		    struct nicsim_tm_thread *th)
{
	u64 arrival = c->head->arrival;

	if (!arrival) {
		if (!tm_core_running(c))	/* idle until now */
			c->now = max(c->now, tm->clock);
	} else {
		/* it arrived while every thread waited, or the core idled */
		if (arrival > c->now && tm_core_running(c))
			c->active += arrival - c->now;
		c->now = max(c->now, arrival);
		c->wait += c->now - arrival;
	}
	th->rec = c->head;
	c->n_running++;
	c->head = th->rec->next;
	if (!c->head)
		c->tail = NULL;
	tm->queued--;
	th->pos = 0;
	th->done = 0;
	th->ready = c->now;
	th->start = c->now;
}

/* Thread @th of @c runs to its next event, or to the end of its run. */
static void tm_step(struct nicsim_tm *tm, struct nicsim_tm_core *c,
		    struct nicsim_tm_thread *th)
{
	struct nicsim_tm_rec *rec = th->rec;
	u64 until, run;

	if (th->ready > c->now) {	/* every thread was waiting */
		c->active += th->ready - c->now;
		c->now = th->ready;
	}
	until = th->pos < rec->n ? rec->ev[th->pos].at : rec->cycles;
	run = until > th->done ? until - th->done : 0;
	th->done += run;
	c->now += run;
	c->busy += run;
	c->active += run;
	tm->clock = max(tm->clock, c->now);
	if (th->pos < rec->n) {
		th->ready = c->now + tm_event(tm, c, &rec->ev[th->pos++],
					      c->now);
		return;
	}
	if (rec->lost) {	/* unrecorded accesses, at the slowest latency */
		th->ready = c->now + (u64)rec->lost * tm->slowest;
		rec->lost = 0;
		return;
	}
	c->runs++;
	c->latency += c->now - th->start;
	c->latency_max = max(c->latency_max, c->now - th->start);
	if (rec->then) {
		rec->then->arrival = c->now;
		tm->unarrived--;
	}
	if (tm->last == rec)
		tm->last = NULL;
	kfree(rec);
	th->rec = NULL;
	c->n_running--;
}

/* Instruction cycles @th issues before its next wait (0: it takes a run). */
static u64 tm_segment(const struct nicsim_tm_thread *th)
{
	const struct nicsim_tm_rec *rec = th->rec;
	u64 until;

	if (!rec)
		return 0;
	until = th->pos < rec->n ? rec->ev[th->pos].at : rec->cycles;
	return until > th->done ? until - th->done : 0;
}

/*
 * Replay steps in the order of their times, those before @until only.
 * @all: as for nicsim_tm_replay(); true when @until is given, as every
 * run that arrives before it has been handed over.
 */
static void tm_run(struct nicsim_tm *tm, bool all, u64 until)
{
	struct nicsim_tm_thread *th, *best_th, *pick;
	struct nicsim_tm_core *c, *best_c;
	bool starved, running, idle_thread;
	u64 t, t_pick, best_t;
	u32 i, k;

	for (;;) {
		if (!all && !tm->queued)
			return;
		best_c = NULL;
		best_th = NULL;
		best_t = U64_MAX;
		starved = false;
		for (i = 0; i < tm->n_cores; i++) {
			c = &tm->cores[i];
			/* nothing to run: no pick, and not starved */
			if (!c->n_running && !c->head)
				continue;
			running = false;
			idle_thread = false;
			pick = NULL;
			t_pick = U64_MAX;
			/* the core's choice: the thread ready first */
			for (k = 0; k < c->n_threads; k++) {
				th = &c->threads[k];
				running |= !!th->rec;
				if (!th->rec && !c->head) {
					idle_thread = true;
					continue;
				}
				/* a waiting run is taken once it has arrived */
				t = th->rec ? max(c->now, th->ready) :
				    max(c->now, c->head->arrival);
				if (t < t_pick) {
					t_pick = t;
					pick = th;
				}
			}
			starved |= running && idle_thread;
			if (!pick)
				continue;
			/*
			 * Across cores, in the order of what the steps touch:
			 * a step issues its instructions, then waits, so a
			 * bank or an engine sees it at the end of them.
			 */
			t = t_pick + tm_segment(pick);
			if (t < best_t) {
				best_t = t;
				best_c = c;
				best_th = pick;
			}
		}
		if (!best_th || best_t >= until ||
		    (starved && !all && tm->queued < NICSIM_TM_HOLD))
			return;
		if (best_th->rec)
			tm_step(tm, best_c, best_th);
		else
			tm_take(tm, best_c, best_th);
	}
}

/**
 * nicsim_tm_replay() - time the runs handed to the model
 * @tm: the model
 * @all: finish every run. Otherwise stop where the next step needs a run
 *	not handed over yet: a working core with a free thread and none
 *	waiting (its next run may be on its way), unless that holds up
 *	NICSIM_TM_HOLD runs; the runs in flight stay on their threads so
 *	that the next batch overlaps them. Under an offered load, finishing
 *	every run ends the stream: the next frame arrives at the model's
 *	clock and starts another.
 *
 * Context: any; the caller serializes calls for @tm.
 */
void nicsim_tm_replay(struct nicsim_tm *tm, bool all)
{
	tm_run(tm, all, U64_MAX);
	if (all)
		tm->streaming = false;
}

/**
 * nicsim_tm_offer() - put the NIC under an offered load
 * @tm: the model, with no run handed over yet
 * @rate: frames per second of the cores' clock, not 0
 *
 * Context: any; the caller serializes calls for @tm.
 */
void nicsim_tm_offer(struct nicsim_tm *tm, u64 rate)
{
	/* at most 4 GHz: fits 64 bits */
	tm->rate = max_t(u64, rate, 1);
	tm->since = 0;		/* the next arrival starts the count anew */
	tm->interval = max_t(u64, div64_u64(((u64)tm->mhz * 1000000) << 16,
					    tm->rate), 1);
}

/* The NIC's clock at cycle @t of the model, in ns. */
static u64 tm_ns(const struct nicsim_tm *tm, u64 t)
{
	u32 mhz = max_t(u32, tm->mhz, 1);
	u64 us = div64_u64(t, mhz);

	return NICPROG_EXEC_NIC_EPOCH_NS + us * 1000 +
	       div64_u64((t - us * mhz) * 1000, mhz);
}

/**
 * nicsim_tm_now_ns() - the NIC's clock, as its programs read it
 * @tm: the model
 *
 * The clock the model has replayed to, in ns from NICPROG_EXEC_NIC_EPOCH_NS
 * at its cycle 0: while backlogged, what a run taken now reads (it lags
 * the run's start by the runs the model has not timed yet).
 *
 * Context: any; the caller serializes calls for @tm.
 * Return: the time in ns.
 */
u64 nicsim_tm_now_ns(const struct nicsim_tm *tm)
{
	return tm_ns(tm, tm->clock);
}

/**
 * nicsim_tm_frame_ns16() - how long the NIC takes a frame, backlogged
 * @tm: the model
 * @frames: frames taken from the backlogs since the last call
 *
 * Per core, the cycles it was active a run it finished since the last
 * call, times the runs handed to it a frame: the most of these is what a
 * frame costs the busiest core, as the NIC's throughput counts (a
 * replicated stage's core a share of the frames, a pipeline's bottleneck
 * every one). Not the model's clock over the frames: backlogged, a
 * pipeline's first stage runs ahead of its bottleneck at its own speed.
 *
 * Context: any; the caller serializes calls for @tm.
 * Return: ns a frame, in 1/65536 ns; 0 if no core finished a run since.
 */
u64 nicsim_tm_frame_ns16(struct nicsim_tm *tm, u64 frames)
{
	u64 best = 0, per_run, v;
	struct nicsim_tm_core *c;
	u32 i;

	for (i = 0; i < tm->n_cores; i++) {
		c = &tm->cores[i];
		if (frames && c->runs > c->pace_runs) {
			per_run = div64_u64((c->active - c->pace_active) << 16,
					    c->runs - c->pace_runs);
			v = div64_u64(per_run * (c->handed - c->pace_handed),
				      frames);
			best = max(best, v);
		}
		c->pace_active = c->active;
		c->pace_runs = c->runs;
		c->pace_handed = c->handed;
	}
	return div64_u64(best * 1000, max_t(u32, tm->mhz, 1));
}

/**
 * nicsim_tm_arrive() - the next frame arrives under the offered load
 * @tm: the model, nicsim_tm_offer() called
 *
 * Replays the runs handed over so far up to the frame's arrival and tells
 * whether the queues into the cores have room for it. The runs handed
 * over until the next arrival are the frame's: they arrive now, or
 * (nicsim_tm_add()'s @after) when the frame's run before them ends. After
 * a replay of all (the NIC idle), arrivals go on from the model's clock.
 * The frame's time on the NIC's clock is in @tm->arrival_ns.
 *
 * Context: any; the caller serializes calls for @tm.
 * Return: true if the frame is taken; false if it is dropped (counted).
 */
bool nicsim_tm_arrive(struct nicsim_tm *tm)
{
	u64 t = tm->next >> 16, k;

	if (t < tm->clock) {
		t = tm->clock;
		tm->next = t << 16;
		tm->since = 0;
	}
	if (!tm->since)
		tm->start = t;
	tm->next += tm->interval;
	tm->last = NULL;
	tm_run(tm, true, t);
	tm->arrival = t;
	/*
	 * Frame n after the start at floor(n * 10^9 / rate) ns, as a replay
	 * offline times it: rounding the interval to 1/65536 cycles must not
	 * move a program's time by a ns, nor an NF's verdict on a timeout
	 */
	k = div64_u64(tm->since, tm->rate);
	tm->arrival_ns = tm_ns(tm, tm->start) + k * 1000000000ULL +
			 div64_u64((tm->since - k * tm->rate) * 1000000000ULL,
				   tm->rate);
	tm->since++;
	tm->offered++;
	if (!tm->streaming) {
		tm->streaming = true;
		tm->streams++;
	}
	if (tm->queued - tm->unarrived >= tm->hub) {
		tm->overflow++;
		return false;
	}
	return true;
}

/**
 * nicsim_tm_pending() - runs handed to the model and not timed yet
 * @tm: the model
 *
 * Context: any; the caller serializes calls for @tm.
 * Return: runs waiting for a thread or on one.
 */
u32 nicsim_tm_pending(const struct nicsim_tm *tm)
{
	u32 i, k, n = tm->queued;

	for (i = 0; i < tm->n_cores; i++)
		for (k = 0; k < tm->cores[i].n_threads; k++)
			n += !!tm->cores[i].threads[k].rec;
	return n;
}

/**
 * nicsim_tm_pool_size() - units of a pool the model times
 * @lnic: the NIC's profile
 * @pool: enum nicprog_accel_type, or NICSIM_TM_POOL_MAT
 *
 * Context: any.
 * Return: the LNIC's units of the pool's kind, at most
 * NICSIM_TM_MAX_ENGINES.
 */
u32 nicsim_tm_pool_size(const struct nicprog_lnic *lnic, u32 pool)
{
	const struct nicprog_lnic_unit *u;
	u32 i, n = 0;

	for (i = 0; i < lnic->n_units; i++) {
		u = &lnic->units[i];
		if (pool == NICSIM_TM_POOL_MAT ? u->type == NICPROG_UNIT_MAT :
		    u->type == NICPROG_UNIT_ACCEL && u->accel == pool)
			n += u->count;
	}
	return min_t(u32, n, NICSIM_TM_MAX_ENGINES);
}

/**
 * nicsim_tm_slice() - the units of a pool a core's jobs go to
 * @tm: the model
 * @core: the core, below the model's cores
 * @pool: enum nicprog_accel_type, or NICSIM_TM_POOL_MAT
 * @base: the first unit
 * @n: units from @base; 0 for the whole pool
 *
 * Context: any; the caller serializes calls for @tm.
 */
void nicsim_tm_slice(struct nicsim_tm *tm, u32 core, u32 pool, u32 base,
		     u32 n)
{
	if (core >= tm->n_cores || pool >= NICSIM_TM_POOLS)
		return;
	tm->cores[core].pool_base[pool] = base;
	tm->cores[core].pool_n[pool] = n;
}
