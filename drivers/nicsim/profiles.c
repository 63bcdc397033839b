// SPDX-License-Identifier: GPL-2.0
/*
 * nicsim's architecture profiles, as data: the simulated NIC runs them and
 * the offline planner (tools/nicprog-plan) plans for them, so this file
 * needs nothing but the LNIC types (in userspace, the offloader's
 * compat.h first).
 *
 * "nicsim-generic" is a modest many-core NIC: sixteen 4-thread cores with a
 * small local memory and DRAM behind them, a parse unit, four MAT stages,
 * checksum, CRC, hash and crypto engines and two DMA engines. Its numbers are of the same order as
 * the Agilio parameters in Clara (local memory a few cycles, DRAM hundreds)
 * but describe no real product; data-driven profiles of real architectures
 * replace it as the default later.
 */
#ifdef __KERNEL__
#include <linux/bits.h>
#include <linux/kernel.h>
#include <linux/string.h>
#else
#include "compat.h"
#endif
#include "profiles.h"

enum { NICSIM_REGION_LMEM, NICSIM_REGION_DRAM };

static const struct nicprog_lnic_unit nicsim_generic_units[] = {
	{
		.name = "core", .type = NICPROG_UNIT_CORE,
		.count = 16, .threads = 4, .clock_mhz = 800,
		.insn_store = 8192,
		.cost = {
			[NICPROG_IC_ALU] = 1, [NICPROG_IC_MUL] = 3,
			[NICPROG_IC_DIV] = 20, [NICPROG_IC_BRANCH] = 1,
			[NICPROG_IC_LOAD] = 2, [NICPROG_IC_STORE] = 2,
			[NICPROG_IC_ATOMIC] = 10, [NICPROG_IC_CALL] = 5,
		},
		.region_mask = BIT(NICSIM_REGION_LMEM) | BIT(NICSIM_REGION_DRAM),
	},
	{
		.name = "parse", .type = NICPROG_UNIT_PARSER,
		.count = 1, .threads = 1, .clock_mhz = 800,
		.service_cycles = 150,
	},
	{
		.name = "mat", .type = NICPROG_UNIT_MAT,
		.count = 4, .threads = 1, .clock_mhz = 800,
		.service_cycles = 4,
		.region_mask = BIT(NICSIM_REGION_DRAM),
	},
	{
		/* Clara: checksum of 1000 B, 300 cycles on the engine */
		.name = "csum", .type = NICPROG_UNIT_ACCEL,
		.accel = NICPROG_ACCEL_CSUM,
		.count = 1, .threads = 1, .clock_mhz = 800,
		.service_cycles = 20, .cycles_per_kib = 300,
	},
	{
		/*
		 * A CRC unit beside every core, as network processor
		 * microengines have one (IXP2400/2800 Programming, ch. 12:
		 * "dedicated hardware for computing CRC checks" in each
		 * microengine); nicsim pools them.
		 */
		.name = "crc", .type = NICPROG_UNIT_ACCEL,
		.accel = NICPROG_ACCEL_CRC,
		.count = 16, .threads = 1, .clock_mhz = 800,
		.service_cycles = 20, .cycles_per_kib = 300,
	},
	{
		.name = "hash", .type = NICPROG_UNIT_ACCEL,
		.accel = NICPROG_ACCEL_HASH,
		.count = 2, .threads = 1, .clock_mhz = 800,
		.service_cycles = 10, .cycles_per_kib = 100,
	},
	{
		.name = "crypto", .type = NICPROG_UNIT_ACCEL,
		.accel = NICPROG_ACCEL_CRYPTO,
		.count = 2, .threads = 1, .clock_mhz = 800,
		.service_cycles = 60, .cycles_per_kib = 800,
	},
	{
		.name = "dma", .type = NICPROG_UNIT_DMA,
		.count = 2, .threads = 1, .clock_mhz = 800,
		.service_cycles = 100,
		.region_mask = BIT(NICSIM_REGION_DRAM),
	},
};

static const struct nicprog_lnic_region nicsim_generic_regions[] = {
	[NICSIM_REGION_LMEM] = {
		.name = "lmem", .size = 64 * 1024, .latency_cycles = 2,
	},
	[NICSIM_REGION_DRAM] = {
		.name = "dram", .size = 1ULL << 30, .latency_cycles = 200,
	},
};

static const struct nicprog_lnic_hub nicsim_generic_hubs[] = {
	{
		.name = "rx", .capacity = NICSIM_RXQ_LEN,
		.from_mask = BIT(1), .to_mask = BIT(0),
	},
};

const struct nicprog_lnic nicsim_profile_generic = {
	.name		= "nicsim-generic",
	.units		= nicsim_generic_units,
	.n_units	= ARRAY_SIZE(nicsim_generic_units),
	.regions	= nicsim_generic_regions,
	.n_regions	= ARRAY_SIZE(nicsim_generic_regions),
	.hubs		= nicsim_generic_hubs,
	.n_hubs		= ARRAY_SIZE(nicsim_generic_hubs),
};

/*
 * "nicsim-soc": a SoC NIC with few big cores (after BlueField-2: eight
 * Arm A72 cores at 2.5 GHz, an on-chip cache and DRAM; an eSwitch flow
 * table; crypto and DMA engines). Its cores run programs of any size the
 * verifier takes (a million instructions).
 */
enum { NICSIM_SOC_CACHE, NICSIM_SOC_DRAM };

static const struct nicprog_lnic_unit nicsim_soc_units[] = {
	{
		.name = "core", .type = NICPROG_UNIT_CORE,
		.count = 8, .threads = 1, .clock_mhz = 2500,
		.insn_store = 1 << 20,
		.cost = {
			[NICPROG_IC_ALU] = 1, [NICPROG_IC_MUL] = 3,
			[NICPROG_IC_DIV] = 12, [NICPROG_IC_BRANCH] = 1,
			[NICPROG_IC_LOAD] = 4, [NICPROG_IC_STORE] = 2,
			[NICPROG_IC_ATOMIC] = 20, [NICPROG_IC_CALL] = 4,
		},
		.region_mask = BIT(NICSIM_SOC_CACHE) | BIT(NICSIM_SOC_DRAM),
	},
	{
		.name = "eswitch", .type = NICPROG_UNIT_MAT,
		.count = 1, .threads = 1, .clock_mhz = 500,
		.service_cycles = 10,
		.region_mask = BIT(NICSIM_SOC_DRAM),
	},
	{
		.name = "crypto", .type = NICPROG_UNIT_ACCEL,
		.accel = NICPROG_ACCEL_CRYPTO,
		.count = 1, .threads = 1, .clock_mhz = 1000,
		.service_cycles = 100, .cycles_per_kib = 400,
	},
	{
		.name = "dma", .type = NICPROG_UNIT_DMA,
		.count = 2, .threads = 1, .clock_mhz = 1000,
		.service_cycles = 200,
		.region_mask = BIT(NICSIM_SOC_DRAM),
	},
};

static const struct nicprog_lnic_region nicsim_soc_regions[] = {
	[NICSIM_SOC_CACHE] = {
		.name = "cache", .size = 6 * 1024 * 1024, .latency_cycles = 20,
	},
	[NICSIM_SOC_DRAM] = {
		.name = "dram", .size = 16ULL << 30, .latency_cycles = 250,
	},
};

const struct nicprog_lnic nicsim_profile_soc = {
	.name		= "nicsim-soc",
	.units		= nicsim_soc_units,
	.n_units	= ARRAY_SIZE(nicsim_soc_units),
	.regions	= nicsim_soc_regions,
	.n_regions	= ARRAY_SIZE(nicsim_soc_regions),
	.hubs		= nicsim_generic_hubs,
	.n_hubs		= ARRAY_SIZE(nicsim_generic_hubs),
};

/**
 * nicsim_profile_find() - a built-in architecture profile by name
 * @name: its name
 *
 * Return: the profile, or NULL.
 */
const struct nicprog_lnic *nicsim_profile_find(const char *name)
{
	if (!strcmp(name, nicsim_profile_generic.name))
		return &nicsim_profile_generic;
	if (!strcmp(name, nicsim_profile_soc.name))
		return &nicsim_profile_soc;
	return NULL;
}

