// SPDX-License-Identifier: GPL-2.0
/*
 * nicprog-calibrate - measure a SmartNIC's LNIC parameters with
 * micro-benchmarks (after Clara: parameters come from micro-benchmarks,
 * once per NIC) and write them as a profile.
 *
 *   nicprog-calibrate --dev PORT --peer PEER --lnic TEMPLATE
 *	[--obj ubench.bpf.o] [--reference REF.lnic] [--tolerance PCT]
 *	[--max-table BYTES] [-o OUT.lnic]
 *
 * PORT is a nicprog port whose link peer PEER sends it frames. TEMPLATE is
 * the device's self-description (its units, regions and hubs; for nicsim
 * /sys/bus/nicsim/devices/<dev>/lnic): the calibrator measures the
 * numbers a datasheet does not give and keeps the structure. It offloads
 * one micro-benchmark (ubench.bpf.c) at a time with plan shape single and
 * sends it one frame at a time, so that each frame runs alone on the NIC,
 * and reads the port's counters around it:
 *
 * - instruction costs: the issue cycles of 272 against 16 instructions of
 *   one class, over 256;
 * - memory: random lookups in a table of a chosen size; the NIC's
 *   per-memory access counters say which memory the table landed in, a
 *   doubling and bisecting search over sizes finds each memory's
 *   capacity (the knee), and the frame's cycles with a run waiting for
 *   something other than a busy bank, over its accesses, the latency.
 *   With a cache (hits counted), a walk over 16 lines gives the hit
 *   latency, the full table the miss latency, and random walks of
 *   doubling width, sent in bursts, the cache's size (LRU under uniform
 *   random references hits capacity/width of the time);
 * - hardware threads: a burst of frames that mostly wait on the slowest
 *   memory, on one core: summed run latency over the core's cycles with
 *   a run (Little's law: every thread holds a run);
 * - accelerators: one job of 0, 512 and 1024 bytes (jhash: 0 and 60) and
 *   none; the extra waiting is the engine's service time, in core cycles;
 *   a burst of jobs from every core (plan shape replicated) that queue:
 *   jobs times service time over the NIC's cycles, the engines.
 *
 * The last memory's capacity, clocks, bank structure, MAT stages and
 * engines idle at times in the burst are not measured; the profile keeps the
 * template's.
 * --reference prints each measured value against a profile's and the
 * error; with --tolerance the exit status is 3 if any error is larger.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compat.h"
#include <net/nicprog_lnic.h>
#include "nicdev.h"

#define CAL_LINE	64		/* bytes per table entry */
#define CAL_PROBE_STEPS	16		/* lookups of a placement probe */
#define CAL_HOT_LINES	16		/* a walk the cache holds */
#define CAL_FRAME	1100		/* bytes; jobs of up to 1024 */
#define CAL_HIT_STOP	0.4		/* width past the cache: hit share */
#define CAL_MIN_LINES	1024
#define CAL_THREAD_FRAMES 256		/* a burst against the threads */
#define CAL_ENGINE_FRAMES 2048		/* a burst against the engines */

static const char * const ic_names[__NICPROG_IC_MAX] = {
	[NICPROG_IC_ALU] = "alu", [NICPROG_IC_MUL] = "mul",
	[NICPROG_IC_DIV] = "div", [NICPROG_IC_BRANCH] = "branch",
	[NICPROG_IC_LOAD] = "load", [NICPROG_IC_STORE] = "store",
	[NICPROG_IC_ATOMIC] = "atomic", [NICPROG_IC_CALL] = "call",
};

/* Accelerator types with a micro-benchmark, and the lengths it times. */
static const struct {
	u8 type;
	const char *prog;
	u32 lens[3];
	u32 n_lens;
} accels[] = {
	{ NICPROG_ACCEL_CSUM, "ub_csum", { 0, 512, 1024 }, 3 },
	{ NICPROG_ACCEL_CRC, "ub_crc", { 0, 512, 1024 }, 3 },
	{ NICPROG_ACCEL_HASH, "ub_hash", { 0, 60 }, 2 },
	{ NICPROG_ACCEL_CRYPTO, "ub_crypto", { 0, 512, 1024 }, 3 },
};

struct cal_region {
	int acc, hits, bank_wait;	/* counter indexes */
	bool seen;
	u64 largest;			/* entries of the largest table in it */
	u64 knee;			/* bytes, if a larger table left it */
	double latency, hit, cache;	/* cycles, cycles, bytes */
	bool has_latency, has_hit, has_cache, cache_bound;
};

struct cal_accel {
	bool measured, has_per_kib, count_bound;
	double service, per_kib, svc[3];
	double count;			/* engines; 0: not measured */
};

struct cal {
	struct nicdev d;
	const char *obj;
	u64 max_table;
	struct nicprog_lnic_text tmpl;
	const struct nicprog_lnic *lnic;
	u32 core;			/* the template's core unit */
	int n_cores, *c_lat, *c_busy, *c_runs, *c_active;
	struct nicdev_snap delta;
	char loaded[32];
	u64 loaded_entries;
	u32 seed;
	double cost[__NICPROG_IC_MAX];
	double threads;			/* 0: not measured */
	bool threads_bound;		/* the core issued all the time */
	struct cal_region reg[NICPROG_LNIC_MAX_REGIONS];
	struct cal_accel acc[__NICPROG_ACCEL_MAX];
};

/* What one frame (or burst) did, from the counters. */
struct cal_sample {
	double wait;		/* cycles waiting, not for a busy bank */
	double busy;		/* issue cycles */
	double lat;		/* run latencies, summed */
	double active;		/* the busiest core's cycles with a run */
	u64 runs;
	u64 acc[NICPROG_LNIC_MAX_REGIONS], hits[NICPROG_LNIC_MAX_REGIONS];
	u64 jobs[__NICPROG_ACCEL_MAX];
	u64 qwait[__NICPROG_ACCEL_MAX];	/* cycles jobs queued */
	int region;		/* most accesses */
};

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16;
	char *buf;

	if (!f)
		return NULL;
	buf = malloc(cap);
	*len = buf ? fread(buf, 1, cap, f) : 0;
	fclose(f);
	return buf;
}

static int parse_lnic(const char *path, struct nicprog_lnic_text *out)
{
	char why[256];
	size_t len;
	char *text = slurp(path, &len);
	int err;

	if (!text) {
		fprintf(stderr, "nicprog-calibrate: cannot read %s\n", path);
		return -ENOENT;
	}
	err = nicprog_lnic_parse(text, len, out, why, sizeof(why));
	free(text);
	if (err)
		fprintf(stderr, "nicprog-calibrate: %s: %s\n", path, why);
	return err;
}

static int load(struct cal *c, const char *prog, u64 entries)
{
	int err;

	if (!strcmp(c->loaded, prog) && c->loaded_entries == entries)
		return 0;
	c->loaded[0] = 0;
	err = nicdev_load(&c->d, c->obj, prog, entries);
	if (!err) {
		snprintf(c->loaded, sizeof(c->loaded), "%s", prog);
		c->loaded_entries = entries;
	}
	return err;
}

static int sample(struct cal *c, u32 lines, u32 steps, u32 len, u32 frames,
		  struct cal_sample *s)
{
	struct ub_params p = {
		.seed = c->seed, .lines = lines, .steps = steps, .len = len,
	};
	const u64 *v = c->delta.v;
	u32 i, r, best = 0;
	double lat = 0, busy = 0, bank = 0;
	int err;

	c->seed = c->seed * 1664525 + 1013904223;
	err = nicdev_run(&c->d, &p, CAL_FRAME, frames, &c->delta);
	if (err)
		return err;
	memset(s, 0, sizeof(*s));
	for (i = 0; i < (u32)c->n_cores; i++) {
		lat += v[c->c_lat[i]];
		busy += v[c->c_busy[i]];
		s->runs += v[c->c_runs[i]];
		s->active = fmax(s->active, v[c->c_active[i]]);
	}
	for (r = 0; r < c->lnic->n_regions; r++) {
		s->acc[r] = v[c->reg[r].acc];
		s->hits[r] = v[c->reg[r].hits];
		bank += v[c->reg[r].bank_wait];
		if (s->acc[r] > s->acc[best])
			best = r;
	}
	for (i = 0; i < ARRAY_SIZE(accels); i++) {
		char name[64];
		int k;

		snprintf(name, sizeof(name), "accel_%s_jobs",
			 nicprog_accel_type_name(accels[i].type));
		k = nicdev_stat(&c->d, name);
		if (k >= 0)
			s->jobs[accels[i].type] = v[k];
		snprintf(name, sizeof(name), "accel_%s_wait",
			 nicprog_accel_type_name(accels[i].type));
		k = nicdev_stat(&c->d, name);
		if (k >= 0)
			s->qwait[accels[i].type] = v[k];
	}
	s->busy = busy;
	s->lat = lat;
	s->wait = lat - busy - bank;
	s->region = s->acc[best] ? (int)best : -1;
	if (frames == 1 && s->runs != 1)
		fprintf(stderr, "nicprog-calibrate: warning: a frame made %llu runs, not 1 (plan shape single?)\n",
			(unsigned long long)s->runs);
	return 0;
}

/* Issue cycles of one class: 256 more instructions of it, over 256. */
static int measure_costs(struct cal *c)
{
	struct cal_sample lo, hi;
	char name[32];
	u32 k;
	int err;

	for (k = 0; k < __NICPROG_IC_MAX; k++) {
		snprintf(name, sizeof(name), "ub_%s_lo", ic_names[k]);
		err = load(c, name, 1);
		if (!err)
			err = sample(c, 0, 0, 0, 1, &lo);
		snprintf(name, sizeof(name), "ub_%s_hi", ic_names[k]);
		if (!err)
			err = load(c, name, 1);
		if (!err)
			err = sample(c, 0, 0, 0, 1, &hi);
		if (err)
			return err;
		c->cost[k] = (hi.busy - lo.busy) / (UB_INSNS_HI - UB_INSNS_LO);
		printf("measured cost %-6s %6.2f cycles\n", ic_names[k],
		       c->cost[k]);
	}
	return 0;
}

/* The memory a table of @entries lines lands in, from a short walk. */
static int placed(struct cal *c, u64 entries, int *region)
{
	struct cal_sample s;
	int err = load(c, "ub_mem", entries);

	if (!err)
		err = sample(c, entries, CAL_PROBE_STEPS, 0, 1, &s);
	if (err)
		return err;
	if (s.region < 0) {
		fprintf(stderr, "nicprog-calibrate: a table of %llu bytes: no memory counted an access\n",
			(unsigned long long)entries * CAL_LINE);
		return -EIO;
	}
	*region = s.region;
	if (!c->reg[s.region].seen || entries > c->reg[s.region].largest)
		c->reg[s.region].largest = entries;
	c->reg[s.region].seen = true;
	return 0;
}

/* Capacities: double the table until it moves, then bisect the step. */
static int measure_knees(struct cal *c)
{
	u64 size = 1, next, lo, hi, mid, max = c->max_table / CAL_LINE;
	int cur = -1, r = -1, err;

	err = placed(c, size, &cur);
	while (!err && size * 2 <= max) {
		next = size * 2;
		err = placed(c, next, &r);
		if (err || r == cur) {
			size = next;
			continue;
		}
		lo = size;
		hi = next;
		while (!err && hi - lo > 1) {
			mid = lo + (hi - lo) / 2;
			err = placed(c, mid, &r);
			if (r == cur)
				lo = mid;
			else
				hi = mid;
		}
		if (err)
			break;
		c->reg[cur].knee = lo * CAL_LINE;
		printf("measured region %s holds a table of %llu bytes, not %llu\n",
		       c->lnic->regions[cur].name,
		       (unsigned long long)lo * CAL_LINE,
		       (unsigned long long)hi * CAL_LINE);
		err = placed(c, hi, &cur);
		size = hi;
	}
	return err;
}

/*
 * A walk of @steps over @lines against one without lookups: the
 * difference is the walk's alone (the parameters' reads cancel).
 */
static int walk(struct cal *c, u32 r, u32 lines, double *wait, u64 *acc,
		u64 *hits)
{
	struct cal_sample a, b;
	int err = sample(c, lines, 0, 0, 1, &a);

	if (!err)
		err = sample(c, lines, UB_STEPS_MAX, 0, 1, &b);
	if (err)
		return err;
	*wait = b.wait - a.wait;
	*acc = b.acc[r] - a.acc[r];
	*hits = b.hits[r] - a.hits[r];
	return *acc ? 0 : -EIO;
}

static int measure_cache(struct cal *c, u32 r, u64 entries)
{
	struct cal_region *cr = &c->reg[r];
	struct cal_sample ov, s;
	u64 w, frames;
	double h = 1;
	int err;

	/* per frame, the parameters' reads (in this memory or not) */
	err = sample(c, 1, 0, 0, 1, &ov);
	for (w = CAL_MIN_LINES; !err && w <= entries; w *= 2) {
		frames = 3 * w / UB_STEPS_MAX + 1;	/* warm up */
		err = sample(c, w, UB_STEPS_MAX, 0, frames, &s);
		frames = 2 * w / UB_STEPS_MAX + 8;
		if (!err)
			err = sample(c, w, UB_STEPS_MAX, 0, frames, &s);
		if (err)
			break;
		h = ((double)s.hits[r] - (double)frames * ov.hits[r]) /
		    ((double)s.acc[r] - (double)frames * ov.acc[r]);
		printf("measured region %s: a random walk over %llu lines hits the cache %.3f of the time\n",
		       c->lnic->regions[r].name, (unsigned long long)w, h);
		if (h < CAL_HIT_STOP) {
			cr->cache = h * w * CAL_LINE;
			cr->has_cache = true;
			return 0;
		}
	}
	if (!err) {	/* never left it: the cache holds the table */
		cr->cache = (double)entries * CAL_LINE;
		cr->has_cache = cr->cache_bound = true;
	}
	return err;
}

static int measure_latencies(struct cal *c)
{
	double wait, hot_wait;
	u64 acc, hits, hot_acc, hot_hits, e, hot;
	struct cal_sample s;
	u32 r;
	int err;

	for (r = 0; r < c->lnic->n_regions; r++) {
		struct cal_region *cr = &c->reg[r];

		if (!cr->seen)
			continue;
		e = cr->largest;
		hot = e < CAL_HOT_LINES ? e : CAL_HOT_LINES;
		err = load(c, "ub_mem", e);
		if (!err)
			err = sample(c, hot, UB_STEPS_MAX, 0, 1, &s);
		if (!err)
			err = walk(c, r, hot, &hot_wait, &hot_acc, &hot_hits);
		if (!err)
			err = walk(c, r, e, &wait, &acc, &hits);
		if (err)
			return err;
		if (!hot_hits) {	/* no cache */
			cr->latency = wait / acc;
			cr->has_latency = true;
			printf("measured region %s latency %.2f cycles\n",
			       c->lnic->regions[r].name, cr->latency);
			continue;
		}
		if (hot_hits != hot_acc) {
			fprintf(stderr, "nicprog-calibrate: region %s: a walk over %llu lines missed %llu of %llu times\n",
				c->lnic->regions[r].name, (unsigned long long)hot,
				(unsigned long long)(hot_acc - hot_hits),
				(unsigned long long)hot_acc);
			return -EIO;
		}
		cr->hit = hot_wait / hot_acc;
		cr->has_hit = true;
		printf("measured region %s cache hit latency %.2f cycles\n",
		       c->lnic->regions[r].name, cr->hit);
		if (acc - hits >= acc / 4) {
			cr->latency = (wait - hits * cr->hit) / (acc - hits);
			cr->has_latency = true;
			printf("measured region %s latency %.2f cycles (%llu of %llu accesses missed)\n",
			       c->lnic->regions[r].name, cr->latency,
			       (unsigned long long)(acc - hits),
			       (unsigned long long)acc);
		}
		err = measure_cache(c, r, e);
		if (err)
			return err;
		printf("measured region %s cache %s%.0f bytes\n",
		       c->lnic->regions[r].name,
		       cr->cache_bound ? "at least " : "", cr->cache);
	}
	return 0;
}

/*
 * Hardware threads: a burst of frames that mostly wait, on one core. A
 * thread takes the next run whenever the others wait, so while the core
 * has runs every thread holds one, and by Little's law the runs' summed
 * latency over the core's cycles with a run is the threads. A core that
 * issued all the time had more runs in flight than it needed: a bound.
 */
static int measure_threads(struct cal *c)
{
	struct cal_sample s;
	u32 r, slow = U32_MAX;
	int err;

	for (r = 0; r < c->lnic->n_regions; r++)
		if (c->reg[r].seen && c->reg[r].has_latency &&
		    (slow == U32_MAX ||
		     c->reg[r].latency > c->reg[slow].latency))
			slow = r;
	if (slow == U32_MAX)
		return 0;
	err = load(c, "ub_mem", c->reg[slow].largest);
	if (!err)
		err = sample(c, c->reg[slow].largest, UB_STEPS_MAX, 0,
			     CAL_THREAD_FRAMES, &s);
	if (err)
		return err;
	if (!s.active)
		return -EIO;
	c->threads = s.lat / s.active;
	c->threads_bound = s.busy > 0.9 * s.active;
	printf("measured threads %.2f per core (%u frames, %.0f%% of the core's cycles issuing%s)\n",
	       c->threads, CAL_THREAD_FRAMES, 100 * s.busy / s.active,
	       c->threads_bound ? ": at least" : "");
	return 0;
}

/*
 * Cycles @b waited for memory more than @a, at the latencies measured:
 * a job's parameters are read from the frame only when there is a job.
 */
static double mem_wait(const struct cal *c, const struct cal_sample *a,
		       const struct cal_sample *b)
{
	double w = 0, hits, miss;
	u32 r;

	for (r = 0; r < c->lnic->n_regions; r++) {
		hits = (double)b->hits[r] - a->hits[r];
		miss = (double)b->acc[r] - a->acc[r] - hits;
		w += hits * c->reg[r].hit + miss * c->reg[r].latency;
	}
	return w;
}

static int measure_accels(struct cal *c)
{
	struct cal_sample a, b;
	u32 i, k, t, n;
	int err;

	for (i = 0; i < ARRAY_SIZE(accels); i++) {
		struct cal_accel *ca = &c->acc[accels[i].type];

		t = accels[i].type;
		for (k = 0; k < c->lnic->n_units; k++)
			if (c->lnic->units[k].type == NICPROG_UNIT_ACCEL &&
			    c->lnic->units[k].accel == t)
				break;
		if (k == c->lnic->n_units)
			continue;
		err = load(c, accels[i].prog, 1);
		n = accels[i].n_lens;
		for (k = 0; !err && k < n; k++) {
			err = sample(c, 0, 0, accels[i].lens[k], 1, &a);
			if (!err)
				err = sample(c, 0, 1, accels[i].lens[k], 1, &b);
			if (!err && b.jobs[t] - a.jobs[t] != 1) {
				fprintf(stderr, "nicprog-calibrate: %s: a call of %u bytes made %llu %s jobs, not 1\n",
					accels[i].prog, accels[i].lens[k],
					(unsigned long long)(b.jobs[t] - a.jobs[t]),
					nicprog_accel_type_name(t));
				err = -EIO;
			}
			if (!err)
				ca->svc[k] = b.wait - a.wait - mem_wait(c, &a, &b);
		}
		if (err)
			return err;
		ca->measured = true;
		ca->service = ca->svc[0];
		ca->per_kib = (ca->svc[n - 1] - ca->svc[0]) * 1024 /
			      accels[i].lens[n - 1];
		/* cycles per KiB are integers: a job must take at least one */
		ca->has_per_kib = accels[i].lens[n - 1] >= 1024;
		printf("measured accel %s service %.2f cycles",
		       nicprog_accel_type_name(t), ca->service);
		if (ca->has_per_kib)
			printf(", %.2f per KiB (%u bytes: %.2f, linear %.2f)",
			       ca->per_kib, accels[i].lens[1], ca->svc[1],
			       ca->service + ca->per_kib * accels[i].lens[1] / 1024);
		else
			printf(" (%u bytes: %.2f; per KiB not measurable with jobs this short)",
			       accels[i].lens[n - 1], ca->svc[n - 1]);
		printf(" in %s cycles\n", c->lnic->units[c->core].name);
	}
	return 0;
}

/*
 * Engines of a type: a burst of jobs from every core (plan shape
 * replicated, frames spread by their source address). While jobs queue
 * the engines are all busy, so jobs times the service time over the
 * NIC's cycles is how many there are. If jobs queued less than a service
 * time on average, the cores could not keep the engines busy: the count
 * is at least what was seen.
 */
static int measure_engine_counts(struct cal *c, const char *dev)
{
	struct cal_sample s;
	int old;
	u32 i, t, len;
	double svc;
	int err;

	err = nicdev_plan_shape(dev, NICPROG_SHAPE_REPLICATED, &old);
	for (i = 0; !err && i < ARRAY_SIZE(accels); i++) {
		struct cal_accel *ca = &c->acc[accels[i].type];

		t = accels[i].type;
		if (!ca->measured)
			continue;
		len = accels[i].lens[accels[i].n_lens - 1];
		c->loaded[0] = 0;	/* planned again, replicated */
		err = load(c, accels[i].prog, 1);
		if (!err)
			err = sample(c, 0, 1, len, CAL_ENGINE_FRAMES, &s);
		if (err)
			break;
		if (!s.active || s.jobs[t] != CAL_ENGINE_FRAMES) {
			fprintf(stderr, "nicprog-calibrate: %s: %llu jobs for %u frames\n",
				accels[i].prog, (unsigned long long)s.jobs[t],
				CAL_ENGINE_FRAMES);
			err = -EIO;
			break;
		}
		svc = ca->svc[accels[i].n_lens - 1];
		ca->count = s.jobs[t] * svc / s.active;
		/* queued less than a service time a job: not always busy */
		ca->count_bound = s.qwait[t] < s.jobs[t] * svc;
		printf("measured accel %s engines %.2f (%u jobs of %u bytes over %.0f cycles%s)\n",
		       nicprog_accel_type_name(t), ca->count, CAL_ENGINE_FRAMES,
		       len, s.active,
		       ca->count_bound ? "; they were idle at times: at least" : "");
	}
	c->loaded[0] = 0;
	if (old >= 0)
		nicdev_plan_shape(dev, old, &old);
	return err;
}

static double err_pct(double m, double ref)
{
	return ref ? 100.0 * (m - ref) / ref : (m ? 100.0 : 0);
}

/* Each measured value against @ref's; returns the largest |error| in %. */
static double compare(const struct cal *c, const struct nicprog_lnic *ref)
{
	const struct nicprog_lnic_unit *rc = NULL, *u;
	double worst = 0, e, scale;
	u32 i, k;

#define CMP(what, m, r) do {						\
		e = err_pct((m), (r));					\
		worst = fabs(e) > worst ? fabs(e) : worst;		\
		printf("compare %-28s measured %12.2f reference %12.2f error %+7.2f%%\n", \
		       (what), (double)(m), (double)(r), e);		\
	} while (0)

	for (i = 0; i < ref->n_units && !rc; i++)
		if (ref->units[i].type == NICPROG_UNIT_CORE)
			rc = &ref->units[i];
	if (!rc || ref->n_regions != c->lnic->n_regions) {
		printf("compare: the reference has another structure\n");
		return INFINITY;
	}
	for (k = 0; k < __NICPROG_IC_MAX; k++) {
		char what[40];

		snprintf(what, sizeof(what), "cost %s", ic_names[k]);
		CMP(what, c->cost[k], rc->cost[k]);
	}
	if (c->threads && !c->threads_bound)
		CMP("core threads", c->threads, rc->threads);
	for (i = 0; i < ref->n_regions; i++) {
		const struct nicprog_lnic_region *rr = &ref->regions[i];
		const struct cal_region *cr = &c->reg[i];
		char what[64];

		if (cr->knee) {
			snprintf(what, sizeof(what), "region %s size", rr->name);
			CMP(what, cr->knee, rr->size);
		}
		if (cr->has_latency) {
			snprintf(what, sizeof(what), "region %s latency", rr->name);
			CMP(what, cr->latency, rr->latency_cycles);
		}
		if (cr->has_hit) {
			snprintf(what, sizeof(what), "region %s hit", rr->name);
			CMP(what, cr->hit, rr->cache_cycles);
		}
		if (cr->has_cache && !cr->cache_bound) {
			snprintf(what, sizeof(what), "region %s cache", rr->name);
			CMP(what, cr->cache, rr->cache_bytes);
		}
	}
	for (i = 0; i < ARRAY_SIZE(accels); i++) {
		const struct cal_accel *ca = &c->acc[accels[i].type];
		char what[64];

		if (!ca->measured)
			continue;
		for (u = NULL, k = 0; k < ref->n_units && !u; k++)
			if (ref->units[k].type == NICPROG_UNIT_ACCEL &&
			    ref->units[k].accel == accels[i].type)
				u = &ref->units[k];
		if (!u)
			continue;
		/* the engine's cycles, in the core's clock */
		scale = (double)rc->clock_mhz / (u->clock_mhz ? u->clock_mhz : 1);
		snprintf(what, sizeof(what), "accel %s service",
			 nicprog_accel_type_name(accels[i].type));
		CMP(what, ca->service, u->service_cycles * scale);
		if (ca->has_per_kib) {
			snprintf(what, sizeof(what), "accel %s per_kib",
				 nicprog_accel_type_name(accels[i].type));
			CMP(what, ca->per_kib, u->cycles_per_kib * scale);
		}
		if (ca->count && !ca->count_bound) {
			snprintf(what, sizeof(what), "accel %s engines",
				 nicprog_accel_type_name(accels[i].type));
			CMP(what, ca->count, u->count);
		}
	}
#undef CMP
	printf("compare: largest error %.2f%%\n", worst);
	return worst;
}

static u32 round_u32(double v)
{
	return v < 0 ? 0 : (u32)(v + 0.5);
}

/* The template with every measured value in it, as profile text. */
static int write_profile(const struct cal *c, const char *tmpl_path,
			 const char *path)
{
	struct nicprog_lnic_text out;
	struct nicprog_lnic_unit *u;
	u64 line_set = NICPROG_LNIC_CACHE_LINE * NICPROG_LNIC_CACHE_WAYS;
	char why[256], *text;
	size_t len;
	FILE *f;
	u32 i, k;
	int err = parse_lnic(tmpl_path, &out);

	if (err)
		return err;
	u = &out.units[c->core];
	for (k = 0; k < __NICPROG_IC_MAX; k++)
		u->cost[k] = round_u32(c->cost[k]);
	if (c->threads && !c->threads_bound)
		u->threads = round_u32(c->threads);
	for (i = 0; i < out.lnic.n_regions; i++) {
		struct nicprog_lnic_region *r = &out.regions[i];
		const struct cal_region *cr = &c->reg[i];

		if (cr->knee)
			r->size = cr->knee;
		if (cr->has_latency)
			r->latency_cycles = round_u32(cr->latency);
		if (cr->has_hit)
			r->cache_cycles = round_u32(cr->hit);
		if (cr->has_cache && !cr->cache_bound)
			r->cache_bytes = (u64)(cr->cache / line_set + 0.5) *
					 line_set;
	}
	for (i = 0; i < out.lnic.n_units; i++) {
		const struct cal_accel *ca;

		u = &out.units[i];
		if (u->type != NICPROG_UNIT_ACCEL || u->accel >= __NICPROG_ACCEL_MAX)
			continue;
		ca = &c->acc[u->accel];
		if (!ca->measured)
			continue;
		/* engine cycles were measured in the core's clock */
		if (!ca->has_per_kib)
			u->cycles_per_kib = round_u32((double)u->cycles_per_kib *
						      out.units[c->core].clock_mhz /
						      u->clock_mhz);
		else
			u->cycles_per_kib = round_u32(ca->per_kib);
		u->service_cycles = round_u32(ca->service);
		u->clock_mhz = out.units[c->core].clock_mhz;
		if (ca->count && !ca->count_bound && round_u32(ca->count))
			u->count = round_u32(ca->count);
	}
	err = nicprog_lnic_validate(&out.lnic, why, sizeof(why));
	if (err) {
		fprintf(stderr, "nicprog-calibrate: the measured profile is not valid: %s\n",
			why);
		return err;
	}
	len = nicprog_lnic_format(&out.lnic, NULL, 0);
	text = malloc(len + 1);
	f = text ? fopen(path, "w") : NULL;
	if (!f) {
		free(text);
		fprintf(stderr, "nicprog-calibrate: cannot write %s\n", path);
		return -EIO;
	}
	nicprog_lnic_format(&out.lnic, text, len + 1);
	fprintf(f, "# %s as nicprog-calibrate measured it on %s.\n"
		"# Measured: the core's instruction costs and threads; every memory's\n"
		"# latency, cache hit latency and cache size, and the capacity of every\n"
		"# memory but the last; accelerators' service and per-KiB cycles (jhash\n"
		"# engines: service only), in the core's clock, and how many engines\n"
		"# there are where jobs queued. The rest is the template's.\n%s",
		out.name, c->d.name, text);
	free(text);
	return fclose(f) ? -EIO : 0;
}

static int setup_counters(struct cal *c)
{
	char name[64];
	u32 i;

	for (c->n_cores = 0;; c->n_cores++) {
		snprintf(name, sizeof(name), "core%d_latency", c->n_cores);
		if (nicdev_stat(&c->d, name) < 0)
			break;
	}
	c->c_lat = calloc(c->n_cores + 1, sizeof(int));
	c->c_busy = calloc(c->n_cores + 1, sizeof(int));
	c->c_runs = calloc(c->n_cores + 1, sizeof(int));
	c->c_active = calloc(c->n_cores + 1, sizeof(int));
	c->delta.v = calloc(c->d.n_stats, sizeof(u64));
	if (!c->c_lat || !c->c_busy || !c->c_runs || !c->c_active ||
	    !c->delta.v)
		return -ENOMEM;
	for (i = 0; i < (u32)c->n_cores; i++) {
		snprintf(name, sizeof(name), "core%u_latency", i);
		c->c_lat[i] = nicdev_stat(&c->d, name);
		snprintf(name, sizeof(name), "core%u_busy", i);
		c->c_busy[i] = nicdev_stat(&c->d, name);
		snprintf(name, sizeof(name), "core%u_runs", i);
		c->c_runs[i] = nicdev_stat(&c->d, name);
		snprintf(name, sizeof(name), "core%u_cycles", i);
		c->c_active[i] = nicdev_stat(&c->d, name);
		if (c->c_busy[i] < 0 || c->c_runs[i] < 0 ||
		    c->c_active[i] < 0)
			return -EOPNOTSUPP;
	}
	for (i = 0; i < c->lnic->n_regions; i++) {
		const char *r = c->lnic->regions[i].name;

		snprintf(name, sizeof(name), "mem_%s_accesses", r);
		c->reg[i].acc = nicdev_stat(&c->d, name);
		snprintf(name, sizeof(name), "mem_%s_hits", r);
		c->reg[i].hits = nicdev_stat(&c->d, name);
		snprintf(name, sizeof(name), "mem_%s_bank_wait", r);
		c->reg[i].bank_wait = nicdev_stat(&c->d, name);
		if (c->reg[i].acc < 0 || c->reg[i].hits < 0 ||
		    c->reg[i].bank_wait < 0) {
			fprintf(stderr, "nicprog-calibrate: %s counts nothing for memory %s: is the template its profile?\n",
				c->d.name, r);
			return -EINVAL;
		}
	}
	if (!c->n_cores) {
		fprintf(stderr, "nicprog-calibrate: %s has no core counters\n",
			c->d.name);
		return -EOPNOTSUPP;
	}
	return 0;
}

#define USAGE "usage: nicprog-calibrate --dev PORT --peer PEER --lnic TEMPLATE [--obj ubench.bpf.o]\n" \
	      "       [--reference REF.lnic] [--tolerance PCT] [--max-table BYTES] [-o OUT.lnic]\n"

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dev", required_argument, NULL, 'd' },
		{ "peer", required_argument, NULL, 'p' },
		{ "lnic", required_argument, NULL, 'l' },
		{ "obj", required_argument, NULL, 'b' },
		{ "reference", required_argument, NULL, 'r' },
		{ "tolerance", required_argument, NULL, 't' },
		{ "max-table", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dev = NULL, *peer = NULL, *tmpl = NULL, *ref = NULL;
	const char *out = NULL;
	struct nicprog_lnic_text *reft = NULL;
	static struct cal c;
	double tol = -1, worst;
	int old_shape = -1;
	char *end;
	int o, err;

	c.obj = "ubench.bpf.o";
	c.max_table = 64ULL << 20;
	c.seed = 0x2545f491;
	while ((o = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (o) {
		case 'd': dev = optarg; break;
		case 'p': peer = optarg; break;
		case 'l': tmpl = optarg; break;
		case 'b': c.obj = optarg; break;
		case 'r': ref = optarg; break;
		case 'o': out = optarg; break;
		case 't':
			tol = strtod(optarg, &end);
			if (*end || tol < 0) {
				fprintf(stderr, "nicprog-calibrate: --tolerance wants a percentage, not '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'm':
			c.max_table = strtoull(optarg, &end, 0);
			if (*end || c.max_table < 2 * CAL_LINE) {
				fprintf(stderr, "nicprog-calibrate: --max-table wants bytes (at least %u), not '%s'\n",
					2 * CAL_LINE, optarg);
				return 2;
			}
			break;
		case 'h':
			fputs(USAGE, stdout);
			return 0;
		default:
			fputs(USAGE, stderr);
			return 2;
		}
	}
	if (!dev || !peer || !tmpl || optind != argc) {
		fputs(USAGE, stderr);
		return 2;
	}
	if (parse_lnic(tmpl, &c.tmpl))
		return 2;
	c.lnic = &c.tmpl.lnic;
	for (c.core = 0; c.core < c.lnic->n_units; c.core++)
		if (c.lnic->units[c.core].type == NICPROG_UNIT_CORE)
			break;
	if (ref) {
		reft = calloc(1, sizeof(*reft));
		if (!reft || parse_lnic(ref, reft))
			return 2;
	}
	err = nicdev_open(&c.d, dev, peer);
	if (!err)
		err = setup_counters(&c);
	if (err) {
		nicdev_close(&c.d);
		return 1;
	}
	/* one core runs each frame whole: its counters are the frame's */
	err = nicdev_plan_shape(dev, NICPROG_SHAPE_SINGLE, &old_shape);
	if (err)
		fprintf(stderr, "nicprog-calibrate: cannot set %s's plan shape: %s\n",
			dev, strerror(-err));
	printf("calibrating %s (template %s, core unit %s)\n", dev,
	       c.tmpl.name, c.lnic->units[c.core].name);
	if (!err)
		err = measure_costs(&c);
	if (!err)
		err = measure_knees(&c);
	if (!err)
		err = measure_latencies(&c);
	if (!err)
		err = measure_threads(&c);
	if (!err)
		err = measure_accels(&c);
	if (!err)
		err = measure_engine_counts(&c, dev);
	nicdev_unload(&c.d);
	if (old_shape >= 0)
		nicdev_plan_shape(dev, old_shape, &old_shape);
	nicdev_close(&c.d);
	if (!err && out)
		err = write_profile(&c, tmpl, out);
	worst = 0;
	if (!err && reft)
		worst = compare(&c, &reft->lnic);
	free(c.c_lat);
	free(c.c_busy);
	free(c.c_runs);
	free(c.c_active);
	free(c.delta.v);
	free(reft);
	if (err) {
		fprintf(stderr, "nicprog-calibrate: failed: %s\n", strerror(-err));
		return 1;
	}
	return tol >= 0 && worst > tol ? 3 : 0;
}
