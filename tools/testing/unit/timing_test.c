// SPDX-License-Identifier: GPL-2.0
/*
 * nicsim's timing model, natively, on hand-made runs whose timing follows
 * from first principles: hardware threads hide memory latency until the
 * core is busy, a cache serves a working set that fits and not one that
 * does not, banks queue accesses from different cores, engines serve in
 * arrival order, unrecorded events still cost, and a replay does not
 * depend on how the runs were batched. Under an offered load, frames
 * arrive on the model's clock: below the cores' rate none waits or is
 * dropped, above it the queue fills to the hub's capacity and the rest is
 * dropped, and a later stage's run waits for the stage before; a
 * frame's clock is its arrival at the rate.
 */
#include "compat.h"
#include <net/nicprog_lnic.h>

#include "kselftest_harness.h"
#include "timing.h"

static struct nicprog_lnic_text lt;

/* A one-region NIC: @region is the text after "region mem ". */
static const struct nicprog_lnic *nic(u32 cores, u32 threads,
				      const char *region)
{
	char text[1024], why[128];

	snprintf(text, sizeof(text),
		 "lnic t\nregion mem %s\n"
		 "unit core type core count %u threads %u clock 1000 insns 4K\n"
		 "\tcost alu=1,mul=1,div=1,branch=1,load=1,store=1,atomic=1,call=1\n"
		 "\tregions mem\n"
		 "unit crc type accel accel crc count 1 clock 500 service 10 per_kib 100\n"
		 "unit mat type mat count 2 clock 1000 service 8 regions mem\n",
		 region, cores, threads);
	if (nicprog_lnic_parse(text, strlen(text), &lt, why, sizeof(why))) {
		fprintf(stderr, "profile: %s\n", why);
		return NULL;
	}
	return &lt.lnic;
}

static struct nicprog_exec_trace tr;

/* A run of @cycles that touches @n addresses from @addr, @step apart. */
static const struct nicprog_exec_trace *mem_run(u32 n, u64 addr, u64 step)
{
	u32 i;

	tr.n = n;
	tr.lost = 0;
	for (i = 0; i < n; i++)
		tr.ev[i] = (struct nicprog_exec_event){
			.at = 5 + i, .kind = NICPROG_EXEC_EV_MEM,
			.addr = addr + i * step,
		};
	return &tr;
}

/* Runs of 10 cycles, one 100-cycle access each, on 1, 4 and 16 threads. */
TEST(threads_hide_latency_until_the_core_is_busy)
{
	static const u32 threads[] = { 1, 4, 16 };
	/* per run: 110 alone; 110/4 with four; the 10 of issue with 16 */
	static const u64 per_run[] = { 110, 27, 10 };
	struct nicsim_tm *tm;
	u32 t, i;

	for (t = 0; t < ARRAY_SIZE(threads); t++) {
		tm = nicsim_tm_create(nic(1, threads[t], "size 1M latency 100"), 1);
		ASSERT_NE(NULL, tm);
		for (i = 0; i < 4000; i++)
			ASSERT_TRUE(nicsim_tm_add(tm, 0, 10, mem_run(1, 0, 0), false));
		nicsim_tm_replay(tm, true);
		EXPECT_EQ(4000, tm->cores[0].runs);
		EXPECT_EQ(40000, tm->cores[0].busy);
		EXPECT_GE(tm->cores[0].active, 4000 * per_run[t]);
		EXPECT_LE(tm->cores[0].active, 4000 * per_run[t] + 4000 + 110);
		/* a run's own latency only grows when threads share the core */
		EXPECT_GE(tm->cores[0].latency, 4000 * 110);
		nicsim_tm_destroy(tm);
	}
}

/* 8-way sets of 64-byte lines: 64 KiB holds 1024 lines. */
TEST(cache_serves_a_working_set_that_fits)
{
	struct nicsim_tm *tm;
	u64 hits;
	u32 i;

	tm = nicsim_tm_create(nic(1, 1, "size 1G latency 200 cache 64K hit 10"),
			      1);
	ASSERT_NE(NULL, tm);
	/* 512 lines, 20 times: all but the first touch of each line hit */
	for (i = 0; i < 20 * 512; i++)
		nicsim_tm_add(tm, 0, 10, mem_run(1, (i % 512) * 64ULL, 0), false);
	nicsim_tm_replay(tm, true);
	EXPECT_EQ(20 * 512, tm->regions[0].accesses);
	EXPECT_EQ(19 * 512, tm->regions[0].hits);
	EXPECT_EQ(512 * 210 + 19 * 512 * 20, tm->cores[0].active);
	nicsim_tm_destroy(tm);

	/* 65536 lines round robin: LRU keeps none of them for the next turn */
	tm = nicsim_tm_create(nic(1, 1, "size 1G latency 200 cache 64K hit 10"),
			      1);
	ASSERT_NE(NULL, tm);
	for (i = 0; i < 4 * 65536; i++)
		nicsim_tm_add(tm, 0, 10, mem_run(1, (i % 65536) * 64ULL, 0), false);
	nicsim_tm_replay(tm, true);
	hits = tm->regions[0].hits;
	EXPECT_EQ(0, hits);
	nicsim_tm_destroy(tm);
}


/*
 * Uniform random references to twice as many lines as an 8 MiB cache
 * holds (16384 sets): LRU hits about half the time, as many lines of a
 * table's consecutive addresses landing in every set (nicprog-calibrate
 * measures the cache's size this way; a hash that left sets unused gave
 * 0.27).
 */
TEST(cache_holds_its_size_of_consecutive_lines)
{
	struct nicsim_tm *tm;
	u64 x = 88172645463325252ULL, base = 0xffffc90001000000ULL;
	u32 i, lines = 2 * (8 << 20) / 64;
	double h;

	tm = nicsim_tm_create(nic(1, 1, "size 1G latency 200 cache 8M hit 10"),
			      1);
	ASSERT_NE(NULL, tm);
	for (i = 0; i < 12 * lines; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		nicsim_tm_add(tm, 0, 10, mem_run(1, base + x % lines * 64, 0), false);
		if (i == 8 * lines - 1) {	/* warm */
			nicsim_tm_replay(tm, true);
			tm->regions[0].hits = 0;
			tm->regions[0].accesses = 0;
		}
	}
	nicsim_tm_replay(tm, true);
	h = (double)tm->regions[0].hits / tm->regions[0].accesses;
	EXPECT_GT(h, 0.47);
	EXPECT_LT(h, 0.53);
	nicsim_tm_destroy(tm);
}
/* Two cores hammer one bank: the second of each pair waits the first out. */
TEST(banks_queue_accesses_across_cores)
{
	struct nicsim_tm *tm;
	u32 i;

	tm = nicsim_tm_create(nic(2, 1, "size 1M latency 10 banks 1 busy 50"),
			      2);
	ASSERT_NE(NULL, tm);
	for (i = 0; i < 200; i++) {
		nicsim_tm_add(tm, 0, 10, mem_run(1, i * 64ULL, 0), false);
		nicsim_tm_add(tm, 1, 10, mem_run(1, i * 64ULL, 0), false);
	}
	nicsim_tm_replay(tm, true);
	/* one access per 50 cycles in all: 400 accesses take 20,000 */
	EXPECT_GE(tm->cores[0].active, 19000);
	EXPECT_GE(tm->cores[1].active, 19000);
	EXPECT_GE(tm->regions[0].bank_wait, 400 * 20);
	nicsim_tm_destroy(tm);

	/* 64 banks, addresses spread: the same runs hardly wait */
	tm = nicsim_tm_create(nic(2, 1, "size 1M latency 10 banks 64 busy 50"),
			      2);
	ASSERT_NE(NULL, tm);
	for (i = 0; i < 200; i++) {
		nicsim_tm_add(tm, 0, 10, mem_run(1, i * 64ULL, 0), false);
		nicsim_tm_add(tm, 1, 10, mem_run(1, (i + 1000) * 64ULL, 0), false);
	}
	nicsim_tm_replay(tm, true);
	EXPECT_LE(tm->cores[0].active, 200 * 20 * 3 / 2);
	nicsim_tm_destroy(tm);
}

/*
 * An island's region: each island's cores have an instance of their own,
 * with its own banks. Two cores of one island queue on its one bank; two
 * of different islands do not.
 */
TEST(islands_have_banks_of_their_own)
{
	static const char text[] =
		"lnic t\nregion ctm size 64K latency 10 banks 1 busy 50 island 2\n"
		"unit core type core count 4 clock 1000 insns 4K regions ctm\n"
		"\tcost alu=1,mul=1,div=1,branch=1,load=1,store=1,atomic=1,call=1\n";
	static const u32 pair[2][2] = { { 0, 1 }, { 0, 2 } };
	struct nicsim_tm *tm;
	char why[128];
	u32 k, i;

	ASSERT_EQ(0, nicprog_lnic_parse(text, strlen(text), &lt, why,
					sizeof(why))) {
		TH_LOG("%s", why);
	}
	for (k = 0; k < 2; k++) {
		tm = nicsim_tm_create(&lt.lnic, 4);
		ASSERT_NE(NULL, tm);
		for (i = 0; i < 200; i++) {
			nicsim_tm_add(tm, pair[k][0], 10, mem_run(1, i * 64ULL, 0), false);
			nicsim_tm_add(tm, pair[k][1], 10, mem_run(1, i * 64ULL, 0), false);
		}
		nicsim_tm_replay(tm, true);
		if (!k) {	/* one island: 400 accesses, 50 cycles each */
			EXPECT_GE(tm->cores[0].active, 19000);
			EXPECT_GE(tm->regions[0].bank_wait, 400 * 20);
		} else {	/* two: 200 each, on banks of their own */
			EXPECT_LE(tm->cores[0].active, 11000);
			EXPECT_LE(tm->cores[2].active, 11000);
		}
		nicsim_tm_destroy(tm);
	}
}

/* One engine: a 4 KiB job ahead holds up the small one behind it. */
TEST(engine_serves_in_order_head_of_line)
{
	struct nicsim_tm *tm;
	u64 small;

	tm = nicsim_tm_create(nic(2, 1, "size 1M latency 10"), 2);
	ASSERT_NE(NULL, tm);
	tr.n = 1;
	tr.lost = 0;
	tr.ev[0] = (struct nicprog_exec_event){
		.at = 0, .kind = NICPROG_EXEC_EV_ACCEL,
		.unit = NICPROG_AFN_CRC32C, .len = 64,
	};
	nicsim_tm_add(tm, 1, 1, &tr, false);
	nicsim_tm_replay(tm, true);
	small = tm->cores[1].latency;
	/* service 10 + 100 per KiB at 500 MHz: doubled in 1 GHz cycles */
	EXPECT_EQ(2 * (10 + 100 * 64 / 1024) + 1, small);
	nicsim_tm_destroy(tm);

	tm = nicsim_tm_create(nic(2, 1, "size 1M latency 10"), 2);
	ASSERT_NE(NULL, tm);
	tr.ev[0].len = 4096;
	nicsim_tm_add(tm, 0, 1, &tr, false);
	tr.ev[0].len = 64;
	nicsim_tm_add(tm, 1, 1, &tr, false);
	nicsim_tm_replay(tm, true);
	EXPECT_EQ(2 * (10 + 400), tm->accel[NICPROG_ACCEL_CRC].wait);
	EXPECT_EQ(small + 2 * (10 + 400), tm->cores[1].latency);
	nicsim_tm_destroy(tm);
}

TEST(lost_events_cost_the_slowest_latency)
{
	struct nicsim_tm *tm;

	tm = nicsim_tm_create(nic(1, 1, "size 1M latency 70"), 1);
	ASSERT_NE(NULL, tm);
	tr.n = 0;
	tr.lost = 3;
	nicsim_tm_add(tm, 0, 10, &tr, false);
	nicsim_tm_replay(tm, true);
	EXPECT_EQ(3, tm->lost);
	EXPECT_EQ(10 + 3 * 70, tm->cores[0].active);
	nicsim_tm_destroy(tm);
}

/*
 * Batches leave runs in flight and stop where a core waits for its next
 * run, so the totals do not depend on the batching.
 */
TEST(replay_in_batches_equals_replay_at_once)
{
	struct nicsim_tm *a, *b;
	u32 i;

	a = nicsim_tm_create(nic(4, 4, "size 1G latency 90 banks 4 busy 30 cache 32K hit 5"), 4);
	b = nicsim_tm_create(&lt.lnic, 4);
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	for (i = 0; i < 3 * NICSIM_TM_BATCH + 17; i++) {
		mem_run(1 + i % 7, (i * 2654435761u) % (1 << 20) * 64ULL, 4096);
		nicsim_tm_add(a, i % 4, 20 + i % 13, &tr, false);
		if (i == NICSIM_TM_BATCH / 2) {
			/* until a core runs out: a few runs stay per core */
			nicsim_tm_replay(a, false);
			EXPECT_LT(a->queued, 32);
			EXPECT_GT(nicsim_tm_pending(a), a->queued);
		}
	}
	/* b: every run queued first, then one replay; batching is automatic */
	for (i = 0; i < 3 * NICSIM_TM_BATCH + 17; i++) {
		mem_run(1 + i % 7, (i * 2654435761u) % (1 << 20) * 64ULL, 4096);
		nicsim_tm_add(b, i % 4, 20 + i % 13, &tr, false);
	}
	nicsim_tm_replay(a, true);
	nicsim_tm_replay(b, true);
	EXPECT_EQ(0, nicsim_tm_pending(a));
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(a->cores[i].runs, b->cores[i].runs);
		EXPECT_EQ(a->cores[i].busy, b->cores[i].busy);
		/* an early batch ends a few runs' overlap sooner */
		EXPECT_LE(a->cores[i].active, b->cores[i].active * 101 / 100);
		EXPECT_GE(a->cores[i].active, b->cores[i].active * 99 / 100);
	}
	EXPECT_EQ(3 * NICSIM_TM_BATCH + 17,
		  a->cores[0].runs + a->cores[1].runs + a->cores[2].runs +
		  a->cores[3].runs);
	nicsim_tm_destroy(a);
	nicsim_tm_destroy(b);
}

TEST(mat_stages_are_a_pool)
{
	struct nicsim_tm *tm;
	u32 i;

	tm = nicsim_tm_create(nic(4, 1, "size 1M latency 10"), 4);
	ASSERT_NE(NULL, tm);
	tr.n = 1;
	tr.lost = 0;
	tr.ev[0] = (struct nicprog_exec_event){ .kind = NICPROG_EXEC_EV_MAT };
	for (i = 0; i < 4; i++)
		nicsim_tm_add(tm, i, 1, &tr, false);
	nicsim_tm_replay(tm, true);
	/* two stages of 8 cycles, four lookups at once: two wait 8 */
	EXPECT_EQ(2, tm->mat.count);
	EXPECT_EQ(16, tm->mat.wait);
	nicsim_tm_destroy(tm);
}

/* Frames per second of a 1 GHz core clock, @cycles apart. */
#define EVERY(cycles)	(1000000000ULL / (cycles))

/*
 * One core, one thread, runs of 100 cycles, frames at @rate into a hub
 * of 8: how many of @n are dropped.
 */
static u64 offered(u64 rate, u32 n, struct nicsim_tm **out)
{
	struct nicsim_tm *tm;
	u32 i;

	tm = nicsim_tm_create(nic(1, 1, "size 1M latency 10"), 1);
	if (!tm)
		return U64_MAX;
	tm->hub = 8;
	nicsim_tm_offer(tm, rate);
	for (i = 0; i < n; i++)
		if (nicsim_tm_arrive(tm))
			nicsim_tm_add(tm, 0, 100, NULL, false);
	nicsim_tm_replay(tm, true);
	*out = tm;
	return tm->overflow;
}

TEST(offered_load_below_the_rate_waits_for_nothing)
{
	struct nicsim_tm *tm;

	/* a frame every 100 cycles: each ends as the next arrives */
	ASSERT_EQ(0, offered(EVERY(100), 1000, &tm));
	EXPECT_EQ(1000, tm->offered);
	EXPECT_EQ(1, tm->streams);
	EXPECT_EQ(1000, tm->cores[0].runs);
	EXPECT_EQ(0, tm->cores[0].wait);
	EXPECT_EQ(100 * 1000, tm->cores[0].latency);
	/* the core idles half the time at one every 200 */
	nicsim_tm_destroy(tm);
	ASSERT_EQ(0, offered(EVERY(200), 1000, &tm));
	EXPECT_EQ(100 * 1000, tm->cores[0].active);
	EXPECT_EQ(0, tm->cores[0].wait);
	nicsim_tm_destroy(tm);
}

TEST(offered_load_above_the_rate_fills_the_hub_and_drops)
{
	struct nicsim_tm *tm, *again;
	u64 drops;

	/*
	 * A frame every 50 cycles, served one per 100: of 1000 (the last
	 * arriving at 49950), 500 are served by then, 8 wait, one is on the
	 * core and the rest is dropped.
	 */
	drops = offered(EVERY(50), 1000, &tm);
	EXPECT_LE(1000 - 500 - 8 - 1 - 1, drops);
	EXPECT_GE(1000 - 500 - 8 - 1 + 1, drops);
	EXPECT_EQ(1000 - drops, tm->cores[0].runs);
	/* the hub full, a frame waits 8 runs and the rest of one */
	EXPECT_GT(tm->cores[0].wait / tm->cores[0].runs, 700);
	/* in simulated time: the same arrivals, the same drops */
	EXPECT_EQ(drops, offered(EVERY(50), 1000, &again));
	EXPECT_EQ(tm->cores[0].wait, again->cores[0].wait);
	nicsim_tm_destroy(again);
	nicsim_tm_destroy(tm);
	/* 1.5 frames per run: a third dropped */
	drops = offered(EVERY(200) * 3, 3000, &tm);
	EXPECT_LE(1000 - 9 - 2, drops);
	EXPECT_GE(1000 - 9 + 2, drops);
	nicsim_tm_destroy(tm);
}

/*
 * Two cores, frames at @rate, the first taken: a run of 100 cycles on
 * core 0, then one of 10 on core 1.
 */
static struct nicsim_tm *two_stages(u64 rate)
{
	struct nicsim_tm *tm = nicsim_tm_create(nic(2, 1, "size 1M latency 10"), 2);

	if (!tm)
		return NULL;
	nicsim_tm_offer(tm, rate);
	if (!nicsim_tm_arrive(tm)) {
		nicsim_tm_destroy(tm);
		return NULL;
	}
	nicsim_tm_add(tm, 0, 100, NULL, false);
	nicsim_tm_add(tm, 1, 10, NULL, true);
	return tm;
}

TEST(a_later_stage_waits_for_the_stage_before)
{
	struct nicsim_tm *tm;

	tm = two_stages(EVERY(1000));
	ASSERT_NE(NULL, tm);
	/* the next frame: the first's runs are timed up to its arrival */
	ASSERT_TRUE(nicsim_tm_arrive(tm));
	EXPECT_EQ(1, tm->cores[0].runs);
	EXPECT_EQ(1, tm->cores[1].runs);
	EXPECT_EQ(110, tm->cores[1].now);
	EXPECT_EQ(0, tm->cores[1].wait);
	EXPECT_EQ(0, tm->unarrived);
	nicsim_tm_add(tm, 0, 100, NULL, false);
	nicsim_tm_add(tm, 1, 10, NULL, true);
	nicsim_tm_replay(tm, true);
	EXPECT_EQ(1110, tm->clock);
	ASSERT_TRUE(nicsim_tm_arrive(tm));
	EXPECT_EQ(2000, tm->arrival);
	nicsim_tm_destroy(tm);

	/*
	 * All timed past the next arrival (the stream ended): on from its
	 * clock, in a second stream
	 */
	tm = two_stages(EVERY(10));
	ASSERT_NE(NULL, tm);
	EXPECT_EQ(1, tm->streams);
	nicsim_tm_replay(tm, true);
	ASSERT_TRUE(nicsim_tm_arrive(tm));
	EXPECT_EQ(110, tm->arrival);
	ASSERT_TRUE(nicsim_tm_arrive(tm));
	EXPECT_EQ(120, tm->arrival);
	EXPECT_EQ(2, tm->streams);
	/* a replay of what has arrived so far does not end it */
	nicsim_tm_replay(tm, false);
	ASSERT_TRUE(nicsim_tm_arrive(tm));
	EXPECT_EQ(2, tm->streams);
	nicsim_tm_destroy(tm);
}

/*
 * The NIC's clock under an offered load: frame n of a stream reads
 * floor(n * 10^9 / rate) ns after the first, whatever the interval's
 * rounding to 1/65536 cycles, as nicprog-plan's replay counts it; a
 * stream after a pause goes on from the model's clock.
 */
TEST(a_frame_s_clock_is_its_arrival_at_the_rate)
{
	struct nicsim_tm *tm = nicsim_tm_create(nic(1, 1, "size 1M latency 10"), 1);
	u64 start;
	u32 i;

	ASSERT_NE(NULL, tm);
	EXPECT_EQ(NICPROG_EXEC_NIC_EPOCH_NS, nicsim_tm_now_ns(tm));
	nicsim_tm_offer(tm, 3000000);	/* 333 1/3 cycles apart at 1 GHz */
	for (i = 0; i < 3000; i++) {
		ASSERT_TRUE(nicsim_tm_arrive(tm));
		ASSERT_EQ(NICPROG_EXEC_NIC_EPOCH_NS + i * 1000000000ULL / 3000000,
			  tm->arrival_ns);
		nicsim_tm_add(tm, 0, 10, NULL, false);
	}
	/* the last frame's run ends 10 cycles (ns at 1 GHz) after it came */
	nicsim_tm_replay(tm, true);
	EXPECT_EQ(tm->arrival_ns + 10, nicsim_tm_now_ns(tm));
	/* the next arrival was due 333 cycles after the last: no pause */
	ASSERT_TRUE(nicsim_tm_arrive(tm));
	EXPECT_EQ(NICPROG_EXEC_NIC_EPOCH_NS + 3000ULL * 1000000000 / 3000000,
		  tm->arrival_ns);
	/* past it, the count starts again at the model's clock */
	nicsim_tm_add(tm, 0, 5000, NULL, false);
	nicsim_tm_replay(tm, true);
	start = nicsim_tm_now_ns(tm);
	ASSERT_TRUE(nicsim_tm_arrive(tm));
	EXPECT_EQ(start, tm->arrival_ns);
	ASSERT_TRUE(nicsim_tm_arrive(tm));
	EXPECT_EQ(start + 333, tm->arrival_ns);
	nicsim_tm_destroy(tm);
}

TEST_HARNESS_MAIN
