// SPDX-License-Identifier: GPL-2.0
/*
 * The predictor's performance model (see model.h). Inputs: the runs of an
 * offline run of the plan -- per frame and stage, the core, instruction
 * cycles and, in order, what the run waits for (memory by cache line,
 * engine jobs with their sizes, MAT lookups) -- and the LNIC.
 *
 * - Caches: Che's approximation of LRU. A line's accesses arrive at the
 *   rate its share of the region's accesses says; a cache of C lines keeps
 *   a line for the characteristic time T that solves
 *   sum_l (1 - exp(-rate_l * T)) = C, and a repeat access finds its line
 *   with probability 1 - exp(-rate_l * T). A line's first access misses.
 * - Banks, engines, MAT stages: queues. A region's misses load its banks
 *   as the lines they touch fall, over random interleavings (the
 *   hardware's is not known), each bank an M/D/1 queue -- an island's
 *   region's accesses the banks of the instance of the core's island
 *   (the plan's cores taken as the NIC's first); an engine type or
 *   the MAT stages an M/D/m queue (Erlang C, halved for deterministic
 *   service). A bank's load is the work of every core over the time the
 *   busiest needs; an engine's or the MATs', backlogged, the load of each
 *   stretch between cores running out of runs, each stretch's uses at
 *   its own (phased_wait(): with skew the first stretch, every core
 *   running, has most of the jobs and the most load).
 * - Hardware threads: the core's runs are scheduled on its threads as
 *   the LNIC's threads behave (the first ready thread issues; a free
 *   thread takes a run only when every thread before it waits), each
 *   wait at its expected length. How many threads a core keeps busy --
 *   and so how long a run waits for the core, and how long the core
 *   takes for its runs -- depends on how successive runs' segments and
 *   waits line up, and both throughput and latency come from that one
 *   schedule. While the queues' loads are iterated (below), a core's
 *   pace is a closed machine-repairman queue solved by mean value
 *   analysis, cheaper and close enough for the load it puts on them.
 * - The waits depend on the load and the load on the waits: iterate to
 *   the fixed point. A queue whose demand exceeds its capacity bounds the
 *   elapsed time itself, and its wait follows from Little's law over the
 *   threads it holds.
 * - An engine type or the MATs that the cores, each at its own pace,
 *   would ask more of than it has is scheduled over time instead
 *   (shared_schedule()): one first-come first-served wait for every job
 *   while it is over capacity, each core's pace from it, and the servers
 *   shared anew as cores run out of frames -- with skewed traffic the
 *   busiest cores end with the engine to themselves. Throughput (when
 *   each core ends) and latency (the wait) come from that one schedule.
 *
 * Throughput is frames over the elapsed time: the busiest core's, or the
 * busiest queue's demand divided by its servers.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

#define NP_RES_MAX	(NICPROG_LNIC_MAX_REGIONS + __NICPROG_ACCEL_MAX + 1)
#define NP_RHO_MAX	0.98
#define NP_ITER_MAX	500
#define NP_BANK_TRIALS	64	/* random interleavings a region's banks are priced over */

/* A queue the cores share: the banks of a region, an engine type, the MATs. */
struct np_res {
	char name[32];
	double servers;		/* banks or units */
	double svc;		/* mean service cycles (set from its uses) */
	double uses;		/* over the whole run */
	double busy;		/* service cycles over the whole run */
	double wait;		/* mean queueing cycles per use */
	double bound;		/* cycles its busiest server is busy */
	double *bank_load;	/* banks: per trial and bank, busy cycles */
	u32 banks;
	int trial;		/* banks: the one interleaving priced, or -1: all */
};

struct np_core {
	double runs;
	double c;		/* instruction cycles */
	double events;		/* waits (unrecorded accesses: one) */
	double w0;		/* waits without queueing */
	double uses[NP_RES_MAX];
	double w;		/* waits with queueing */
	double active;		/* cycles with a run on some thread */
	double stretch;		/* cycles a run waits for the core */
	double span;		/* cycles with a run, by the thread schedule */
};

/* Che's characteristic time for @cap lines and per-line rates @k / @n. */
static double che_time(const u32 *count, const u8 *region, u32 n_lines,
		       u8 r, double n, double cap)
{
	double lo = 0, hi = 1, sum;
	u32 i, it;

	for (it = 0; it < 200; it++) {
		double t = it < 100 ? hi : (lo + hi) / 2;

		for (i = 0, sum = 0; i < n_lines; i++)
			if (region[i] == r)
				sum += 1 - exp(-count[i] / n * t);
		if (it < 100) {
			if (sum >= cap)
				it = 99;	/* bracketed: bisect */
			else
				lo = hi, hi *= 2;
			continue;
		}
		if (sum < cap)
			lo = t;
		else
			hi = t;
	}
	return (lo + hi) / 2;
}

/* Per line, the probability that an access finds it in the cache. */
static int line_hits(const struct nicprog_lnic *lnic,
		     const struct np_hostrun *hr, double **out)
{
	double *p = calloc(hr->n_lines ? hr->n_lines : 1, sizeof(*p));
	double n[NICPROG_LNIC_MAX_REGIONS] = { 0 }, t[NICPROG_LNIC_MAX_REGIONS];
	u32 lines[NICPROG_LNIC_MAX_REGIONS] = { 0 }, i, r;
	double cap, k;

	if (!p)
		return -1;
	for (i = 0; i < hr->n_lines; i++) {
		n[hr->line_region[i]] += hr->line_count[i];
		lines[hr->line_region[i]]++;
	}
	for (r = 0; r < lnic->n_regions; r++) {
		cap = (double)lnic->regions[r].cache_bytes /
		      NICPROG_LNIC_CACHE_LINE;
		t[r] = !cap ? 0 : lines[r] <= cap ? INFINITY :
		       che_time(hr->line_count, hr->line_region, hr->n_lines,
				r, n[r], cap);
	}
	for (i = 0; i < hr->n_lines; i++) {
		r = hr->line_region[i];
		k = hr->line_count[i];
		if (r >= lnic->n_regions || !t[r])
			continue;
		p[i] = (k - 1) / k * (isinf(t[r]) ? 1 : 1 - exp(-k / n[r] * t[r]));
	}
	*out = p;
	return 0;
}

/* Erlang C: the chance a job waits, @m servers offered @a erlangs. */
static double erlang_c(double m, double a)
{
	double term = 1, sum = 1, k, last;

	if (a >= m)
		return 1;
	for (k = 1; k < m; k++) {
		term *= a / k;
		sum += term;
	}
	last = term * a / m / (1 - a / m);
	return last / (sum + last);
}

/* M/D/1: mean queueing of a job of @svc cycles at utilisation @rho. */
static double md1(double rho, double svc)
{
	rho = fmin(rho, NP_RHO_MAX);
	return rho * svc / (2 * (1 - rho));
}

/* Mean queueing of a use of pool @q at @a erlangs offered. */
static double mdm_wait(const struct np_res *q, double a)
{
	double rho = fmin(a / q->servers, NP_RHO_MAX);

	a = rho * q->servers;
	if (q->servers == 1)
		return md1(rho, q->svc);
	return erlang_c(q->servers, a) * q->svc /
	       (q->servers * (1 - rho)) / 2;
}

/* Mean queueing of a use of @q at @elapsed cycles for the whole run. */
static double queue_wait(const struct np_res *q, double elapsed)
{
	double w = 0, *l;
	u32 t, b;

	if (!q->uses || !elapsed)
		return 0;
	if (q->bank_load) {
		/* each bank its own queue, its share of the accesses */
		for (t = 0; t < NP_BANK_TRIALS; t++) {
			if (q->trial >= 0 && t != (u32)q->trial)
				continue;
			l = q->bank_load + (u64)t * q->banks;
			for (b = 0; b < q->banks; b++)
				w += l[b] / q->busy * md1(l[b] / elapsed, q->svc);
		}
		return q->trial >= 0 ? w : w / NP_BANK_TRIALS;
	}
	return mdm_wait(q, q->busy / elapsed);
}

/*
 * Mean queueing of a use of engine type or MAT @q (index @qi) of a
 * backlogged NIC whose cores end at different times. Every core has its
 * runs waiting from the start (nicsim's backlog: a later stage's too) and
 * issues its uses evenly over its active cycles, so the queue's load
 * steps down as cores run out of runs -- with skewed traffic the stretch
 * with every core running loads it the most, and most uses come then,
 * which one load over the whole run hides. The uses of each stretch wait
 * as the queue at that stretch's load; the mean over uses. With every
 * core ending together it is queue_wait()'s.
 */
static double phased_wait(const struct np_res *q, u32 qi,
			  const struct np_core *core, u32 n)
{
	double t0 = 0, t1, a, uses, w = 0, all = 0;
	u32 c;

	for (;;) {
		t1 = INFINITY;
		for (c = 0; c < n; c++)
			if (core[c].uses[qi] > 0 && core[c].active > t0)
				t1 = fmin(t1, core[c].active);
		if (t1 == INFINITY)
			break;
		/* the cores still running: their load, their uses until t1 */
		a = 0;
		uses = 0;
		for (c = 0; c < n; c++) {
			if (!(core[c].uses[qi] > 0 && core[c].active > t0))
				continue;
			a += core[c].uses[qi] * q->svc / core[c].active;
			uses += core[c].uses[qi] * (t1 - t0) / core[c].active;
		}
		w += uses * mdm_wait(q, a);
		all += uses;
		t0 = t1;
	}
	return all > 0 ? w / all : 0;
}

/* Service cycles of an engine job of @len bytes, in core cycles. */
static double engine_svc(const struct nicprog_lnic *lnic,
			 const struct nicprog_layout *lo, u32 type, u32 len)
{
	const struct nicprog_lnic_unit *u = &lnic->units[lo->accel_unit[type]];
	double mhz = lnic->units[lo->core_unit].clock_mhz;

	return (u->service_cycles + (double)u->cycles_per_kib * len / 1024) *
	       mhz / (u->clock_mhz ? u->clock_mhz : 1);
}

/*
 * Resources: a region's banks at r, an engine type at n_regions + type,
 * the MATs last. Returns the resource of an event, or -1 for none, and
 * its wait apart from queueing in *@w0 and service in *@svc.
 */
static int event_res(const struct nicprog_lnic *lnic,
		     const struct nicprog_layout *lo, const struct np_event *e,
		     const double *hit, double *w0, double *svc, double *miss)
{
	const struct nicprog_lnic_region *rg;
	u32 type;

	*miss = 0;
	*svc = 0;
	switch (e->kind) {
	case NICPROG_EXEC_EV_MEM:
		if (e->unit >= lnic->n_regions)
			return -1;
		rg = &lnic->regions[e->unit];
		*miss = rg->cache_bytes ? 1 - hit[e->line] : 1;
		*w0 = (1 - *miss) * rg->cache_cycles + *miss * rg->latency_cycles;
		*svc = rg->bank_cycles;
		return rg->bank_cycles ? (int)e->unit : -1;
	case NICPROG_EXEC_EV_ACCEL:
		type = nicprog_accel_fn_type(e->unit);
		if (type >= __NICPROG_ACCEL_MAX || !lo->accel_count[type] ||
		    lo->accel_unit[type] == U32_MAX) {
			*w0 = 0;
			return -1;
		}
		*svc = engine_svc(lnic, lo, type, e->len);
		*w0 = *svc;
		return lnic->n_regions + type;
	case NICPROG_EXEC_EV_MAT:
		*w0 = lo->mat_service;
		*svc = lo->mat_service;
		return lo->mat_units ? (int)(lnic->n_regions + __NICPROG_ACCEL_MAX) : -1;
	}
	*w0 = 0;
	return -1;
}

/*
 * A core's hardware threads as a machine-repairman queue: each thread
 * alternates a segment of instructions (@seg cycles on the core, one at a
 * time) and a wait (@wait cycles, all at once). Mean value analysis for
 * @n threads. Return: segments per cycle.
 */
static double mva(double seg, double wait, u32 n)
{
	double q = 0, resp, x = 0;
	u32 i;

	for (i = 1; i <= n; i++) {
		resp = seg * (1 + q);
		x = i / (resp + wait);
		q = x * resp;
	}
	return x;
}

/* A core's cycles with a run, from mean value analysis of its threads. */
static void core_rate(struct np_core *c, u32 threads)
{
	double g = c->runs ? 1 + c->events / c->runs : 1;
	double seg = c->runs ? c->c / c->runs / g : 0;
	/* g segments, g - 1 waits: spread over the segments */
	double wait = c->runs ? c->w / c->runs / g : 0;

	c->active = 0;
	if (!c->runs || !seg)
		return;
	c->active = c->runs * g / mva(seg, wait, threads);
}

/*
 * A run's latency: its instructions and its own waits, and the stretch
 * of its core (core_stretches()): what its runs do not wait for
 * themselves they wait for the core.
 */
static double run_latency(const struct nicprog_lnic *lnic,
			  const struct nicprog_layout *lo,
			  const struct np_hostrun *hr, const struct np_run *r,
			  const struct np_core *c, const struct np_res *res,
			  const double *hit, double slowest)
{
	double w0, svc, miss, lat;
	u32 j;
	int k;

	lat = r->cycles + r->lost * slowest + c->stretch;
	for (j = 0; j < r->n_ev; j++) {
		k = event_res(lnic, lo, &hr->ev[r->ev + j], hit, &w0, &svc,
			      &miss);
		lat += w0;
		if (k >= 0)
			lat += (k < (int)lnic->n_regions ? miss : 1) * res[k].wait;
	}
	return lat;
}

static void add_unit(struct np_prediction *p, const char *name, double util)
{
	struct np_pred_unit *u;

	if (p->n_units == NP_PRED_MAX_UNITS)
		return;
	u = &p->units[p->n_units++];
	snprintf(u->name, sizeof(u->name), "%.31s", name);
	u->util = util;
}

/* A run's wait for event @e: its latency and the mean queue wait. */
static double event_wait(const struct nicprog_lnic *lnic,
			 const struct nicprog_layout *lo,
			 const struct np_event *e, const double *hit,
			 const struct np_res *res)
{
	double w0, svc, miss;
	int k = event_res(lnic, lo, e, hit, &w0, &svc, &miss);

	if (k >= 0)
		w0 += (k < (int)lnic->n_regions ? miss : 1) * res[k].wait;
	return w0;
}

struct np_thread {
	const struct np_run *r;	/* NULL: free */
	u32 pos;		/* next event */
	bool lost;		/* unrecorded accesses still to wait for */
	double done, ready, start;
};

/*
 * How long a core's runs take, from a thread taking one to its end: the
 * core's hardware threads scheduled run by run, as the LNIC's threads
 * behave -- the core issues the thread ready first (the first on a tie)
 * until it waits, and a free thread takes the next run when it is that
 * thread, so a thread joins only when every thread before it is waiting
 * -- each run's segments of instructions alternating with its waits at
 * their expected lengths (queueing included), the core's runs all
 * waiting for it. How many threads a core keeps busy, and so how long a
 * run waits for the core, follows from how the waits and segments of
 * successive runs line up, which no mean captures. The schedule's end,
 * the runs all waiting at its start as on a backlogged NIC, goes to
 * @span: the core's cycles with a run.
 * Return: the mean, 0 without runs.
 */
static double core_threads(const struct nicprog_lnic *lnic,
			   const struct nicprog_layout *lo,
			   const struct np_hostrun *hr, const u32 *runs,
			   u32 n, u32 n_threads, const double *hit,
			   const struct np_res *res, double slowest,
			   double *span)
{
	struct np_thread th[NICPROG_LNIC_MAX_THREADS] = { 0 }, *pick;
	double now = 0, t, t_pick, until, sum = 0;
	u32 next = 0, k, done_runs = 0;
	const struct np_run *r;

	n_threads = clamp_t(u32, n_threads, 1, NICPROG_LNIC_MAX_THREADS);
	while (done_runs < n) {
		pick = NULL;
		t_pick = INFINITY;
		for (k = 0; k < n_threads; k++) {
			if (!th[k].r && next == n)
				continue;
			t = th[k].r ? fmax(now, th[k].ready) : now;
			if (t < t_pick) {
				t_pick = t;
				pick = &th[k];
			}
		}
		if (!pick)
			break;
		if (!pick->r) {		/* it takes the next run */
			pick->r = &hr->runs[runs[next++]];
			pick->pos = 0;
			pick->lost = pick->r->lost;
			pick->done = 0;
			pick->ready = pick->start = now;
			continue;
		}
		r = pick->r;
		now = fmax(now, pick->ready);
		until = pick->pos < r->n_ev ? hr->ev[r->ev + pick->pos].at :
			r->cycles;
		if (until > pick->done) {
			now += until - pick->done;
			pick->done = until;
		}
		if (pick->pos < r->n_ev) {
			pick->ready = now + event_wait(lnic, lo,
						       &hr->ev[r->ev + pick->pos++],
						       hit, res);
		} else if (pick->lost) {
			pick->ready = now + r->lost * slowest;
			pick->lost = false;
		} else {
			sum += now - pick->start;
			done_runs++;
			pick->r = NULL;
		}
	}
	*span = now;
	return n ? sum / n : 0;
}

/*
 * Each core's stretch: how much longer than its own path (instructions
 * and waits) a run takes, for waiting on the core while other threads
 * issue (core_threads()).
 */
static int core_stretches(const struct nicprog_lnic *lnic,
			  const struct nicprog_layout *lo,
			  const struct np_hostrun *hr, u32 threads,
			  const double *hit, const struct np_res *res,
			  double slowest, struct np_core *core)
{
	u32 *first = calloc(lo->cores + 1, sizeof(*first));
	u32 *runs = malloc(sizeof(*runs) * (hr->n_runs + 1));
	u32 *fill = calloc(lo->cores + 1, sizeof(*fill));
	u32 c, i;
	double lat;

	if (!first || !runs || !fill) {
		free(first);
		free(runs);
		free(fill);
		return -1;
	}
	/* the runs of each core, in order: first[c] .. first[c + 1] */
	for (i = 0; i < hr->n_runs; i++)
		first[hr->runs[i].core + 1]++;
	for (c = 0; c < lo->cores; c++)
		first[c + 1] += first[c];
	for (i = 0; i < hr->n_runs; i++) {
		c = hr->runs[i].core;
		runs[first[c] + fill[c]++] = i;
	}
	for (c = 0; c < lo->cores; c++) {
		core[c].stretch = 0;
		core[c].span = 0;
		if (!core[c].runs)
			continue;
		lat = core_threads(lnic, lo, hr, runs + first[c],
				   first[c + 1] - first[c], threads, hit, res,
				   slowest, &core[c].span);
		core[c].stretch = fmax(0, lat - (core[c].c + core[c].w) /
					    core[c].runs);
	}
	free(first);
	free(runs);
	free(fill);
	return 0;
}

/*
 * How a region's misses load its banks. Which bank a line lives in is the
 * hardware's interleaving. Where the profile gives it (NICPROG_IL_HASH)
 * each line's bank is the NIC's: a line's address is the NIC's, not the
 * host's (nicprog_exec_nic_addr()), the same offline as on the NIC, and
 * every trial is that one interleaving. Else the predictor does not know
 * it: price it over random interleavings. A few hot lines (a small table
 * every core reads) may share a bank, which then bounds the NIC; many lines
 * spread evenly. The same trials in the same order every time (a fixed
 * seed per region), so that q->trial >= 0 prices one of them alone; its
 * busiest bank's load goes to @peak[trial].
 */
static int bank_loads(const struct np_hostrun *hr, const double *hit,
		      u8 region, const struct nicprog_lnic_region *rg,
		      u32 n_cores, struct np_res *q, double *peak)
{
	u64 x = 0x9e3779b97f4a7c15ULL * (region + 1);
	u32 t, i, j, b, banks = max_t(u32, rg->banks, 1), *bank_of = NULL;
	bool known = rg->interleave == NICPROG_IL_HASH;
	const struct np_event *e;
	double *l, max, sum = 0;
	const struct np_run *r;

	/* an island's region: every island's instance has banks of its own */
	q->banks = banks * (rg->island ? DIV_ROUND_UP(n_cores, rg->island) : 1);
	q->bank_load = calloc((size_t)NP_BANK_TRIALS * q->banks,
			      sizeof(*q->bank_load));
	if (rg->island)
		bank_of = calloc(hr->n_lines ? hr->n_lines : 1, sizeof(*bank_of));
	if (!q->bank_load || (rg->island && !bank_of)) {
		free(bank_of);
		return -1;
	}
	for (t = 0; t < NP_BANK_TRIALS; t++) {
		l = q->bank_load + (u64)t * q->banks;
		if (known && t) {	/* the one interleaving, again */
			memcpy(l, q->bank_load, q->banks * sizeof(*l));
			sum += peak[0];
			peak[t] = peak[0];
			continue;
		}
		for (i = 0; i < hr->n_lines; i++) {
			if (hr->line_region[i] != region)
				continue;
			if (known) {
				b = nicprog_lnic_bank(hr->line_nic[i], banks);
			} else {
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
				b = x % banks;
			}
			if (bank_of) {
				bank_of[i] = b;
				continue;
			}
			l[b] += hr->line_count[i] *
					(rg->cache_bytes ? 1 - hit[i] : 1) *
					rg->bank_cycles;
		}
		/* a line's accesses load the bank of the core's island */
		for (i = 0; bank_of && i < hr->n_runs; i++) {
			r = &hr->runs[i];
			for (j = 0; j < r->n_ev; j++) {
				e = &hr->ev[r->ev + j];
				if (e->kind == NICPROG_EXEC_EV_MEM &&
				    e->unit == region)
					l[r->core / rg->island * banks +
					  bank_of[e->line]] += rg->bank_cycles;
			}
		}
		for (i = 0, max = 0; i < q->banks; i++)
			max = fmax(max, l[i]);
		sum += max;
		peak[t] = max;
	}
	q->bound = q->trial >= 0 ? peak[q->trial] : sum / NP_BANK_TRIALS;
	free(bank_of);
	return 0;
}

/*
 * Cores sharing an engine type or the MATs beyond their capacity, as a
 * schedule over time rather than one mean wait for the whole run. The
 * queue is first come, first served, so while it is over capacity every
 * job waits the same W; a core then runs at
 *
 *	rate(W) = min(its rate alone, threads / (its run alone + jobs * W))
 *
 * runs a cycle (a core that issues all the time hides W behind its other
 * threads, one whose threads all wait cannot), and W is what makes the
 * cores' jobs fit the servers. When a core has run its runs, the rest
 * share the servers anew: with skewed traffic the busiest cores end with
 * the queue to themselves, which no mean over the whole run says.
 */
struct np_sched_core {
	double runs;	/* its runs */
	double alone;	/* its cycles alone: every other queue's wait, none here */
	double lat;	/* a run's cycles alone, without waiting for the core */
	double jobs;	/* its jobs at the queue, a run */
	double fin;	/* out: when it ends */
	double wait;	/* out: the mean wait of its runs at the queue */
};

static double sched_rate(const struct np_sched_core *c, u32 threads,
			 double w)
{
	return fmin(c->runs / c->alone, threads / (c->lat + c->jobs * w));
}

/* Service cycles a cycle the cores still running ask for at wait @w. */
static double sched_load(const struct np_sched_core *sc, const double *left,
			 u32 n, u32 threads, double svc, double w)
{
	double load = 0;
	u32 c;

	for (c = 0; c < n; c++)
		if (left[c] > 0)
			load += sched_rate(&sc[c], threads, w) * sc[c].jobs * svc;
	return load;
}

/*
 * The schedule of @n cores (@sc) at a queue of @servers, @svc cycles a
 * job. Return: whether they ever asked for more than @servers; false also
 * without memory (the caller keeps its mean wait).
 */
static bool shared_schedule(struct np_sched_core *sc, u32 n, u32 threads,
			    double servers, double svc)
{
	double t = 0, dt, lo, hi, w, r, *left;
	bool over = false;
	u32 c, live, it;

	left = calloc(n ? n : 1, sizeof(*left));
	if (!left)
		return false;
	for (c = 0; c < n; c++) {
		left[c] = sc[c].alone > 0 && sc[c].jobs > 0 ? sc[c].runs : 0;
		sc[c].fin = sc[c].alone;
		sc[c].wait = 0;
	}
	for (;;) {
		for (c = 0, live = 0; c < n; c++)
			live += left[c] > 0;
		if (!live)
			break;
		/* the wait that fits the live cores' jobs to the servers */
		w = 0;
		if (sched_load(sc, left, n, threads, svc, 0) > servers) {
			over = true;
			for (hi = svc; sched_load(sc, left, n, threads, svc, hi) >
				       servers; hi *= 2)
				;
			for (lo = 0, it = 0; it < 60; it++) {
				w = (lo + hi) / 2;
				if (sched_load(sc, left, n, threads, svc, w) >
				    servers)
					lo = w;
				else
					hi = w;
			}
			w = hi;
		}
		/* until the next core ends */
		dt = INFINITY;
		for (c = 0; c < n; c++)
			if (left[c] > 0)
				dt = fmin(dt, left[c] /
					      sched_rate(&sc[c], threads, w));
		t += dt;
		for (c = 0; c < n; c++) {
			if (left[c] <= 0)
				continue;
			r = fmin(left[c], dt * sched_rate(&sc[c], threads, w));
			sc[c].wait += r * sc[c].jobs * w;
			left[c] -= r;
			if (left[c] <= 1e-9 * sc[c].runs) {
				left[c] = 0;
				sc[c].fin = t;
			}
		}
	}
	for (c = 0; c < n; c++)
		if (sc[c].runs)
			sc[c].wait /= sc[c].runs;
	free(left);
	return over;
}

/*
 * Each core as shared_schedule() takes it for queue @q: its pace with
 * every queue's wait but @q's (nothing for a core that does not use @q).
 */
static void sched_cores(const struct np_core *core, u32 n_cores, u32 threads,
			const struct np_res *res, u32 n_res, u32 q,
			struct np_sched_core *sc)
{
	struct np_core tmp;
	u32 c, k;

	for (c = 0; c < n_cores; c++) {
		memset(&sc[c], 0, sizeof(sc[c]));
		if (!core[c].uses[q] || !core[c].runs)
			continue;
		tmp = core[c];
		tmp.w = tmp.w0;
		for (k = 0; k < n_res; k++)
			if (k != q)
				tmp.w += tmp.uses[k] * res[k].wait;
		core_rate(&tmp, threads);
		sc[c].runs = tmp.runs;
		sc[c].alone = tmp.active;
		sc[c].lat = (tmp.c + tmp.w) / tmp.runs;
		sc[c].jobs = tmp.uses[q] / tmp.runs;
	}
}

/*
 * Frames the NIC drops at the workload's rate (@per_cycle frames per core
 * cycle, arriving evenly in the workload's order): the queues into the
 * cores hold as many frames waiting as the LNIC's hub into them, besides a
 * frame on each hardware thread. A one-stage plan limited by its cores
 * has a server per core, at the rate the model gives it for its frames,
 * fed the frames steered to it, so that a core with more than its share
 * fills the hub while the others keep up; any other plan is one server
 * at the predicted throughput.
 */
static int offered_drops(const struct nicprog_lnic *lnic,
			 const struct nicprog_layout *lo,
			 const struct np_hostrun *hr, const struct np_core *core,
			 bool per_core, double elapsed, u32 threads,
			 double per_cycle, struct np_prediction *p)
{
	u32 hub = 4096, n = per_core ? max_t(u32, lo->cores, 1) : 1;
	u32 i, c, cap, waiting, *head, *len, *of;
	double t, *svc, *dep, *last;
	int err = -ENOMEM;

	for (i = 0; i < lnic->n_hubs; i++)
		if (lnic->hubs[i].to_mask & BIT(lo->core_unit)) {
			hub = lnic->hubs[i].capacity;
			break;
		}
	cap = hub + threads + 1;
	svc = calloc(n, sizeof(*svc));
	last = calloc(n, sizeof(*last));
	head = calloc(n, sizeof(*head));
	len = calloc(n, sizeof(*len));
	dep = calloc((size_t)n * cap, sizeof(*dep));
	of = calloc(hr->frames ? hr->frames : 1, sizeof(*of));
	if (!svc || !last || !head || !len || !dep || !of)
		goto nomem;
	for (c = 0; c < n; c++)
		svc[c] = !per_core ? elapsed / max_t(u32, hr->frames, 1) :
			 core[c].runs ? core[c].active / core[c].runs : 0;
	for (i = 0; per_core && i < hr->n_runs; i++)
		if (hr->runs[i].stage == 0 && hr->runs[i].frame < hr->frames)
			of[hr->runs[i].frame] = hr->runs[i].core;
	for (i = 0; i < hr->frames; i++) {
		t = i / per_cycle;
		for (c = 0, waiting = 0; c < n; c++) {
			/* departures are in order: the oldest first */
			while (len[c] && dep[c * cap + head[c]] <= t) {
				head[c] = (head[c] + 1) % cap;
				len[c]--;
			}
			waiting += len[c] > threads ? len[c] - threads : 0;
		}
		c = of[i] < n ? of[i] : 0;
		if (waiting >= hub || len[c] + 1 >= cap) {
			p->drops++;
			continue;
		}
		last[c] = fmax(t, last[c]) + svc[c];
		dep[c * cap + (head[c] + len[c]) % cap] = last[c];
		len[c]++;
	}
	err = 0;
nomem:
	free(svc);
	free(last);
	free(head);
	free(len);
	free(dep);
	free(of);
	return err;
}

/*
 * The queues a run may wait in: each region's banks, each engine type,
 * the MATs. Return: the slowest memory the cores reach, at which nicsim
 * times accesses past a trace's end.
 */
static double model_resources(const struct nicprog_lnic *lnic,
			      const struct nicprog_layout *lo,
			      struct np_res *res, u32 n_res)
{
	const struct nicprog_lnic_unit *cu = &lnic->units[lo->core_unit];
	double slowest = 0;
	u32 i;

	for (i = 0; i < lnic->n_regions; i++) {
		snprintf(res[i].name, sizeof(res[i].name), "%.24s banks",
			 lnic->regions[i].name);
		res[i].servers = lnic->regions[i].banks ? lnic->regions[i].banks : 1;
		if (cu->region_mask & BIT(i))
			slowest = fmax(slowest, lnic->regions[i].latency_cycles);
	}
	for (i = 0; i < __NICPROG_ACCEL_MAX; i++) {
		snprintf(res[lnic->n_regions + i].name, sizeof(res[0].name),
			 "%s engine", nicprog_accel_type_name(i));
		res[lnic->n_regions + i].servers = max_t(u32, lo->accel_count[i], 1);
	}
	snprintf(res[n_res - 1].name, sizeof(res[0].name), "mat");
	res[n_res - 1].servers = max_t(u32, lo->mat_units, 1);
	return slowest;
}

/* Each core's runs, cycles and events, and what they ask of each queue. */
static void model_load(const struct nicprog_lnic *lnic,
		       const struct nicprog_layout *lo,
		       const struct np_hostrun *hr, const double *hit,
		       double slowest, struct np_core *core, struct np_res *res)
{
	double w0, svc, miss;
	const struct np_run *r;
	u32 i, j, c;
	int k;

	for (i = 0; i < hr->n_runs; i++) {
		r = &hr->runs[i];
		c = r->core;
		core[c].runs++;
		core[c].c += r->cycles;
		core[c].events += r->n_ev + !!r->lost;
		core[c].w0 += r->lost * slowest;
		for (j = 0; j < r->n_ev; j++) {
			k = event_res(lnic, lo, &hr->ev[r->ev + j], hit, &w0,
				      &svc, &miss);
			core[c].w0 += w0;
			if (k < 0)
				continue;
			/* a bank queues the misses only */
			if (k < (int)lnic->n_regions) {
				core[c].uses[k] += miss;
				res[k].uses += miss;
				res[k].busy += miss * svc;
			} else {
				core[c].uses[k]++;
				res[k].uses++;
				res[k].busy += svc;
			}
		}
	}
}

/*
 * The queues' mean waits and the cores' rates, to a fixed point (each
 * step halfway to the next estimate). Return: the iterations it took.
 */
static u32 model_iterate(const struct nicprog_lnic *lnic,
			 const struct nicprog_layout *lo, u64 rate_kpps,
			 u32 threads, struct np_core *core, struct np_res *res,
			 u32 n_res)
{
	double elapsed = 0, old;
	u32 it, c, q;

	for (it = 0; it < NP_ITER_MAX; it++) {
		old = elapsed;
		elapsed = 0;
		for (c = 0; c < lo->cores; c++) {
			core[c].w = core[c].w0;
			for (q = 0; q < n_res; q++)
				core[c].w += core[c].uses[q] * res[q].wait;
			core_rate(&core[c], threads);
			elapsed = fmax(elapsed, core[c].active);
		}
		for (q = 0; q < n_res; q++)
			elapsed = fmax(elapsed, res[q].bound);
		for (q = 0; q < n_res; q++)
			res[q].wait = (res[q].wait +
				       (q >= lnic->n_regions && !rate_kpps ?
					phased_wait(&res[q], q, core, lo->cores) :
					queue_wait(&res[q], elapsed))) / 2;
		if (it > 10 && fabs(elapsed - old) <= 1e-6 * elapsed)
			break;
	}
	return it;
}

/* Per packet class: each run's own path and waits, and the verdicts. */
static void model_classes(const struct nicprog_lnic *lnic,
			  const struct nicprog_layout *lo,
			  const struct np_hostrun *hr,
			  const struct np_core *core, const struct np_res *res,
			  const double *hit, double slowest,
			  struct np_prediction *p)
{
	u32 vcount[__NP_WL_CLASS_MAX][NP_VERDICTS] = { 0 };
	double lat, w0, svc, miss;
	const struct np_event *e;
	struct np_pred_class *pc;
	const struct np_run *r;
	u32 i, j;

	for (i = 0; i < hr->n_runs; i++) {
		r = &hr->runs[i];
		pc = &p->cls[r->cls];
		lat = run_latency(lnic, lo, hr, r, &core[r->core], res, hit,
				  slowest);
		pc->runs++;
		pc->cycles += r->cycles;
		pc->mem += r->lost;
		for (j = 0; j < r->n_ev; j++) {
			e = &hr->ev[r->ev + j];
			event_res(lnic, lo, e, hit, &w0, &svc, &miss);
			if (e->kind == NICPROG_EXEC_EV_MEM) {
				pc->mem++;
				pc->hit += 1 - miss;
			} else if (e->kind == NICPROG_EXEC_EV_ACCEL) {
				pc->jobs++;
			} else {
				pc->mat++;
			}
		}
		pc->lat += lat;
		p->lat += lat;
	}
	for (i = 0; i < hr->frames; i++)
		vcount[hr->cls[i]][hr->verdict[i]]++;
	for (i = 0; i < __NP_WL_CLASS_MAX; i++) {
		pc = &p->cls[i];
		pc->frames = hr->class_frames[i];
		if (pc->mem)
			pc->hit /= pc->mem;
		if (pc->frames) {
			pc->runs /= pc->frames;
			pc->cycles /= pc->frames;
			pc->lat /= pc->frames;
			pc->mem /= pc->frames;
			pc->jobs /= pc->frames;
			pc->mat /= pc->frames;
		}
		for (j = 0; j < NP_VERDICTS; j++)
			if (vcount[i][j] > vcount[i][pc->verdict])
				pc->verdict = j;
	}
	if (hr->frames)
		p->lat /= hr->frames;
}

/*
 * Each queue's mean service and bound, and each banked region's load per
 * bank over the interleavings; @lo_t and @hi_t as predict_at() says.
 */
static int model_banks(const struct nicprog_lnic *lnic,
		       const struct nicprog_layout *lo,
		       const struct np_hostrun *hr, const double *hit,
		       int trial, struct np_res *res, u32 n_res,
		       struct np_prediction *p, int *lo_t, int *hi_t)
{
	const struct nicprog_lnic_unit *cu = &lnic->units[lo->core_unit];
	double peak[NP_BANK_TRIALS], most = -1;
	u32 q, tl, th;
	int k;

	for (q = 0; q < n_res; q++) {
		res[q].svc = res[q].uses ? res[q].busy / res[q].uses : 0;
		res[q].bound = res[q].busy / res[q].servers;
		res[q].trial = trial;
		if (q >= lnic->n_regions || !res[q].uses ||
		    (lnic->regions[q].banks <= 1 && !lnic->regions[q].island))
			continue;
		if (bank_loads(hr, hit, q, &lnic->regions[q], cu->count,
			       &res[q], peak))
			return -ENOMEM;
		/* the region whose interleavings differ the most */
		if (lnic->regions[q].interleave == NICPROG_IL_HASH) {
			p->bank.known++;
			continue;
		}
		if (!lo_t)
			continue;
		for (k = 1, tl = th = 0; k < NP_BANK_TRIALS; k++) {
			if (peak[k] < peak[tl])
				tl = k;
			if (peak[k] > peak[th])
				th = k;
		}
		if (peak[th] - peak[tl] <= most)
			continue;
		most = peak[th] - peak[tl];
		*lo_t = tl;
		*hi_t = th;
	}
	return 0;
}

/*
 * An engine type or the MATs the cores, each at its own pace, would
 * ask more of than it has: scheduled (shared_schedule()) rather than
 * one mean wait for every core -- the one asked the most beyond its
 * capacity, if any. Its wait for every core is then the schedule's,
 * and each core using it is active until the schedule ends it.
 * Return: that queue, or U32_MAX.
 */
static u32 model_shared(const struct nicprog_lnic *lnic,
			const struct nicprog_layout *lo, u32 threads,
			struct np_core *core, struct np_res *res, u32 n_res,
			struct np_sched_core *sc)
{
	u32 shared = U32_MAX, c, q;
	double total, over;

	for (q = lnic->n_regions, over = 1; q < n_res; q++) {
		if (!res[q].uses)
			continue;
		sched_cores(core, lo->cores, threads, res, n_res, q, sc);
		for (c = 0, total = 0; c < lo->cores; c++)
			if (sc[c].alone > 0)
				total += sc[c].runs / sc[c].alone * sc[c].jobs *
					 res[q].svc;
		if (total / res[q].servers > over) {
			over = total / res[q].servers;
			shared = q;
		}
	}
	if (shared != U32_MAX) {
		sched_cores(core, lo->cores, threads, res, n_res, shared, sc);
		if (shared_schedule(sc, lo->cores, threads, res[shared].servers,
				    res[shared].svc)) {
			for (c = 0, total = 0; c < lo->cores; c++)
				total += sc[c].wait * sc[c].runs;
			res[shared].wait = total / res[shared].uses;
		} else {
			shared = U32_MAX;
		}
	}

	return shared;
}

/*
 * The unit that sets the elapsed time, named in @p->bottleneck. Return:
 * the queue past every core's pace, if one is (else U32_MAX).
 */
static u32 model_bottleneck(const struct nicprog_layout *lo,
			    const struct np_core *core,
			    const struct np_res *res, u32 n_res, u32 shared,
			    const struct np_sched_core *sc, double elapsed,
			    struct np_prediction *p)
{
	u32 c, q, best = 0, sat = U32_MAX;

	for (c = 0; c < lo->cores; c++)
		if (core[c].active > core[best].active)
			best = c;
	snprintf(p->bottleneck, sizeof(p->bottleneck), "core%u%s", best,
		 core[best].c < core[best].active * 0.999 ?
		 " (waiting)" : "");
	if (shared != U32_MAX && core[best].uses[shared] &&
	    core[best].active > sc[best].alone * 1.0001)
		snprintf(p->bottleneck, sizeof(p->bottleneck), "%.31s",
			 res[shared].name);
	for (q = 0; q < n_res; q++)
		if (res[q].bound > core[best].active * 1.0001 &&
		    res[q].bound >= elapsed * 0.9999) {
			snprintf(p->bottleneck, sizeof(p->bottleneck), "%.31s",
				 res[q].name);
			sat = q;
		}

	return sat;
}

/*
 * A saturated queue @sat holds every thread that is not issuing: all of
 * them wait their turn there. Its wait then follows from Little's law
 * over the whole NIC rather than from a queueing formula.
 */
static void model_saturated(const struct nicprog_lnic *lnic,
			    const struct nicprog_layout *lo,
			    const struct np_hostrun *hr, u32 threads,
			    double elapsed, const double *hit, double slowest,
			    struct np_core *core, struct np_res *res, u32 sat)
{
	double total, held;
	const struct np_run *r;
	u32 i, c;

	res[sat].wait = 0;
	for (c = 0, held = 0; c < lo->cores; c++) {
		if (!core[c].uses[sat])
			continue;
		core_rate(&core[c], threads);
		core[c].stretch = 0;
		held += threads * elapsed;
	}
	for (i = 0, total = 0; i < hr->n_runs; i++) {
		r = &hr->runs[i];
		if (core[r->core].uses[sat])
			total += run_latency(lnic, lo, hr, r,
					     &core[r->core], res, hit,
					     slowest);
	}
	res[sat].wait = fmax(0, (held - total) / res[sat].uses);
}

/*
 * The model over bank interleaving @trial (-1: the expectation over all of
 * them). With @lo_t and @hi_t, the least and the most loaded interleaving
 * (by its busiest bank) of the banked region whose interleavings differ
 * the most, or -1 where no region with several banks is used.
 */
static int predict_at(const struct nicprog_lnic *lnic,
		      const struct nicprog_layout *lo,
		      const struct np_hostrun *hr, u64 rate_kpps,
		      struct np_prediction *p, int trial, int *lo_t, int *hi_t)
{
	const struct nicprog_lnic_unit *cu = &lnic->units[lo->core_unit];
	u32 threads = cu->threads ? cu->threads : 1, sat = U32_MAX;
	struct np_core *core;
	struct np_res res[NP_RES_MAX] = { 0 };
	u32 n_res = lnic->n_regions + __NICPROG_ACCEL_MAX + 1;
	double elapsed = 0, *hit, slowest;
	struct np_sched_core *sc = NULL;
	u32 c, q, shared;
	char name[32];
	int err;

	memset(p, 0, sizeof(*p));
	core = calloc(lo->cores ? lo->cores : 1, sizeof(*core));
	if (!core || line_hits(lnic, hr, &hit)) {
		free(core);
		return -ENOMEM;
	}
	slowest = model_resources(lnic, lo, res, n_res);
	model_load(lnic, lo, hr, hit, slowest, core, res);
	if (model_banks(lnic, lo, hr, hit, trial, res, n_res, p, lo_t, hi_t))
		goto nomem;
	p->iterations = model_iterate(lnic, lo, rate_kpps, threads, core, res,
				      n_res);

	sc = calloc(lo->cores ? lo->cores : 1, sizeof(*sc));
	if (!sc)
		goto nomem;
	shared = model_shared(lnic, lo, threads, core, res, n_res, sc);
	for (c = 0; c < lo->cores; c++) {
		core[c].w = core[c].w0;
		for (q = 0; q < n_res; q++)
			core[c].w += core[c].uses[q] * res[q].wait;
	}
	if (core_stretches(lnic, lo, hr, threads, hit, res, slowest, core))
		goto nomem;
	/*
	 * A core's cycles with a run are its runs' thread schedule's, the one
	 * its latency comes from: mean value analysis takes segments and
	 * waits as exponential, which queues them longer than the LNIC's
	 * (cm_sketch on nicsim-nfp, eight threads and DRAM waits: -4%). A
	 * core paced by the shared schedule is active until it ends it; one
	 * without runs, never (its span is 0).
	 */
	for (c = 0, elapsed = 0; c < lo->cores; c++) {
		if (shared != U32_MAX && core[c].uses[shared])
			core[c].active = sc[c].fin;
		else
			core[c].active = core[c].span;
		elapsed = fmax(elapsed, core[c].active);
	}
	for (q = 0; q < n_res; q++)
		elapsed = fmax(elapsed, res[q].bound);

	sat = model_bottleneck(lo, core, res, n_res, shared, sc, elapsed, p);
	if (shared == U32_MAX && sat != U32_MAX && res[sat].uses)
		model_saturated(lnic, lo, hr, threads, elapsed, hit, slowest,
				core, res, sat);

	p->tput = elapsed ? hr->frames * 1e6 / elapsed : 0;
	p->mpps = p->tput * cu->clock_mhz / 1e6;
	if (rate_kpps && p->mpps) {
		p->offered = rate_kpps / 1e3 / p->mpps;
		if (offered_drops(lnic, lo, hr, core,
				  lo->n_stages == 1 && sat == U32_MAX, elapsed,
				  threads, rate_kpps * 1e3 / (cu->clock_mhz * 1e6),
				  p))
			goto nomem;
	}
	for (c = 0; c < lo->cores; c++) {
		snprintf(name, sizeof(name), "core%u", c);
		add_unit(p, name, elapsed ? core[c].c / elapsed : 0);
	}
	for (q = 0; q < n_res; q++)
		if (res[q].uses)
			add_unit(p, res[q].name,
				 elapsed ? res[q].bound / elapsed : 0);

	model_classes(lnic, lo, hr, core, res, hit, slowest, p);
	err = 0;
out:
	for (q = 0; q < n_res; q++)
		free(res[q].bank_load);
	free(sc);
	free(hit);
	free(core);
	return err;
nomem:
	err = -ENOMEM;
	goto out;
}

/**
 * np_predict() - predict a plan's performance on a workload
 * @lnic: the NIC
 * @lo: the plan
 * @hr: the offline run of the plan over the workload's frames
 * @rate_kpps: the workload's offered rate, 0 for none
 * @spread: find the spread over bank interleavings (two more runs of the
 *	model), for the prediction that is reported
 * @p: the prediction
 *
 * A region's banks are priced at the NIC's interleaving where the profile
 * gives it, else at their expectation over interleavings; the NIC has
 * one. With @spread, where the plan uses a region of the latter kind, the
 * model runs again over the least and the most loaded interleaving (by the
 * busiest bank) of the one whose interleavings differ the most, and
 * @p->bank says what those give; else @p->bank.trials is 0.
 *
 * Return: 0, or -ENOMEM.
 */
int np_predict(const struct nicprog_lnic *lnic,
	       const struct nicprog_layout *lo, const struct np_hostrun *hr,
	       u64 rate_kpps, bool spread, struct np_prediction *p)
{
	int lo_t = -1, hi_t = -1, err, k;
	struct np_prediction *one;

	err = predict_at(lnic, lo, hr, rate_kpps, p, -1,
			 spread ? &lo_t : NULL, spread ? &hi_t : NULL);
	if (err || lo_t < 0)
		return err;
	one = malloc(sizeof(*one));
	if (!one)
		return -ENOMEM;
	p->bank.trials = NP_BANK_TRIALS;
	p->bank.tput_min = p->bank.tput_max = p->tput;
	p->bank.lat_min = p->bank.lat_max = p->lat;
	for (k = 0; k < 2 && !err; k++) {
		err = predict_at(lnic, lo, hr, rate_kpps, one, k ? hi_t : lo_t,
				 NULL, NULL);
		p->bank.tput_min = fmin(p->bank.tput_min, one->tput);
		p->bank.tput_max = fmax(p->bank.tput_max, one->tput);
		p->bank.lat_min = fmin(p->bank.lat_min, one->lat);
		p->bank.lat_max = fmax(p->bank.lat_max, one->lat);
	}
	free(one);
	return err;
}
