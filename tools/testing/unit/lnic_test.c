// SPDX-License-Identifier: GPL-2.0
/*
 * LNIC validation, natively: every rejection names the offending unit,
 * region or hub; a valid description is accepted and summarized right.
 */
#include "compat.h"
#include <net/nicprog_lnic.h>

#include "kselftest_harness.h"

FIXTURE(lnic) {
	struct nicprog_lnic lnic;
	struct nicprog_lnic_unit units[4];
	struct nicprog_lnic_region regions[2];
	struct nicprog_lnic_hub hubs[1];
	char why[256];
};

FIXTURE_SETUP(lnic)
{
	static const struct nicprog_lnic_unit core = {
		.name = "npu", .type = NICPROG_UNIT_CORE, .count = 48,
		.threads = 8, .clock_mhz = 800, .insn_store = 8192,
		.cost = { 1, 3, 20, 1, 2, 2, 10, 5 }, .region_mask = 0x3,
	};
	int c;

	memset(self, 0, sizeof(*self));
	self->units[0] = core;
	self->units[1] = (struct nicprog_lnic_unit){
		.name = "parse", .type = NICPROG_UNIT_PARSER, .count = 1,
		.threads = 1, .clock_mhz = 800, .service_cycles = 150,
	};
	self->units[2] = (struct nicprog_lnic_unit){
		.name = "crypto", .type = NICPROG_UNIT_ACCEL,
		.accel = NICPROG_ACCEL_CRYPTO, .count = 2, .threads = 1,
		.clock_mhz = 800, .service_cycles = 40,
	};
	self->units[3] = (struct nicprog_lnic_unit){
		.name = "mat", .type = NICPROG_UNIT_MAT, .count = 4,
		.threads = 1, .clock_mhz = 1000, .service_cycles = 4,
		.region_mask = 0x2,
	};
	self->regions[0] = (struct nicprog_lnic_region){
		.name = "lmem", .size = 4096, .latency_cycles = 2,
	};
	self->regions[1] = (struct nicprog_lnic_region){
		.name = "emem", .size = 8ULL << 30, .latency_cycles = 500,
	};
	self->hubs[0] = (struct nicprog_lnic_hub){
		.name = "rx", .capacity = 512, .from_mask = 0x2,
		.to_mask = 0x1,
	};
	self->lnic = (struct nicprog_lnic){
		.name = "test", .units = self->units, .n_units = 4,
		.regions = self->regions, .n_regions = 2,
		.hubs = self->hubs, .n_hubs = 1,
	};
	for (c = 0; c < __NICPROG_IC_MAX; c++)
		ASSERT_NE(0, self->units[0].cost[c]);
}

FIXTURE_TEARDOWN(lnic)
{
}

#define EXPECT_REJECT(self, text)					\
	do {								\
		ASSERT_EQ(-EINVAL, nicprog_lnic_validate(&(self)->lnic,	\
			  (self)->why, sizeof((self)->why)));		\
		EXPECT_STREQ(text, (self)->why);			\
	} while (0)

TEST_F(lnic, valid_accepted_and_summarized)
{
	struct nicprog_lnic_summary sum;

	ASSERT_EQ(0, nicprog_lnic_validate(&self->lnic, self->why,
					   sizeof(self->why)));
	nicprog_lnic_summarize(&self->lnic, &sum);
	EXPECT_EQ(48U, sum.cores);
	EXPECT_EQ(384U, sum.core_threads);
	EXPECT_EQ(1U, sum.parsers);
	EXPECT_EQ(4U, sum.mat_stages);
	EXPECT_EQ(2U, sum.accels[NICPROG_ACCEL_CRYPTO]);
	EXPECT_EQ(0U, sum.accels[NICPROG_ACCEL_CSUM]);
	EXPECT_EQ(4096ULL + (8ULL << 30), sum.mem_bytes);
	EXPECT_EQ(8192U, sum.insn_store);
}

TEST_F(lnic, no_units)
{
	self->lnic.n_units = 0;
	EXPECT_REJECT(self, "LNIC test: 0 units, need 1..32");
}

TEST_F(lnic, too_many_regions)
{
	self->lnic.n_regions = NICPROG_LNIC_MAX_REGIONS + 1;
	EXPECT_REJECT(self, "LNIC test: 17 memory regions, need 1..16");
}

TEST_F(lnic, duplicate_unit_name)
{
	self->units[3].name = "parse";
	EXPECT_REJECT(self, "unit 3 (parse): name already used by unit 1");
}

TEST_F(lnic, unit_type_out_of_range)
{
	self->units[1].type = __NICPROG_UNIT_MAX;
	EXPECT_REJECT(self, "unit 1 (parse): type 6 out of range");
}

TEST_F(lnic, accel_type_missing)
{
	self->units[2].accel = NICPROG_ACCEL_NONE;
	EXPECT_REJECT(self, "unit 2 (crypto): accel unit without an accelerator type");
}

TEST_F(lnic, accel_type_on_core)
{
	self->units[0].accel = NICPROG_ACCEL_CSUM;
	EXPECT_REJECT(self, "unit 0 (npu): accelerator type csum on a core unit");
}

TEST_F(lnic, count_zero)
{
	self->units[3].count = 0;
	EXPECT_REJECT(self, "unit 3 (mat): count 0 out of range 1..4096");
}

TEST_F(lnic, region_mask_beyond_regions)
{
	self->units[3].region_mask = 0x4;
	EXPECT_REJECT(self, "unit 3 (mat): region mask 0x4 names regions beyond the 2 defined");
}

TEST_F(lnic, core_cost_zero)
{
	self->units[0].cost[NICPROG_IC_DIV] = 0;
	EXPECT_REJECT(self, "unit 0 (npu): cost of instruction class 2 is 0 cycles");
}

TEST_F(lnic, accel_without_service_time)
{
	self->units[2].service_cycles = 0;
	EXPECT_REJECT(self, "unit 2 (crypto): accel unit with a service time of 0 cycles");
}

TEST_F(lnic, no_core)
{
	self->units[0].type = NICPROG_UNIT_DMA;
	EXPECT_REJECT(self, "LNIC test: no general-purpose core");
}

TEST_F(lnic, unreachable_region)
{
	self->units[0].region_mask = 0x2;
	EXPECT_REJECT(self, "region 0 (lmem): reachable by no unit");
}

TEST_F(lnic, interleave_out_of_range)
{
	self->regions[1].interleave = __NICPROG_IL_MAX;
	EXPECT_REJECT(self, "region 1 (emem): interleave 2 unknown");
}

TEST_F(lnic, hub_unit_beyond_units)
{
	self->hubs[0].to_mask = 0x10;
	EXPECT_REJECT(self, "hub 0 (rx): unit mask names units beyond the 4 defined");
}

TEST_F(lnic, hub_without_consumer)
{
	self->hubs[0].to_mask = 0;
	EXPECT_REJECT(self, "hub 0 (rx): no unit on its dequeue side");
}

TEST_F(lnic, names_of_types)
{
	EXPECT_STREQ("core", nicprog_unit_type_name(NICPROG_UNIT_CORE));
	EXPECT_STREQ("unknown", nicprog_unit_type_name(__NICPROG_UNIT_MAX));
	EXPECT_STREQ("regex", nicprog_accel_type_name(NICPROG_ACCEL_REGEX));
	EXPECT_STREQ("unknown", nicprog_accel_type_name(200));
}

TEST_HARNESS_MAIN
