// SPDX-License-Identifier: GPL-2.0
/*
 * LNIC validation and summary. A driver's LNIC is the only description of
 * its hardware the offloader ever reads, so it is checked once, when the
 * driver registers, and every later pass may trust it.
 */
#include "compat.h"
#include <net/nicprog_lnic.h>

static const char * const nicprog_unit_type_names[__NICPROG_UNIT_MAX] = {
	[NICPROG_UNIT_UNSPEC]	= "unspec",
	[NICPROG_UNIT_CORE]	= "core",
	[NICPROG_UNIT_PARSER]	= "parser",
	[NICPROG_UNIT_MAT]	= "mat",
	[NICPROG_UNIT_ACCEL]	= "accel",
	[NICPROG_UNIT_DMA]	= "dma",
};

static const char * const nicprog_accel_type_names[__NICPROG_ACCEL_MAX] = {
	[NICPROG_ACCEL_NONE]	 = "none",
	[NICPROG_ACCEL_CSUM]	 = "csum",
	[NICPROG_ACCEL_CRC]	 = "crc",
	[NICPROG_ACCEL_HASH]	 = "hash",
	[NICPROG_ACCEL_CRYPTO]	 = "crypto",
	[NICPROG_ACCEL_COMPRESS] = "compress",
	[NICPROG_ACCEL_REGEX]	 = "regex",
};

/**
 * nicprog_unit_type_name() - name of a unit type, as sysfs and the CLI show it
 * @type: enum nicprog_unit_type
 *
 * Return: a static string; "unknown" for a value out of range.
 */
const char *nicprog_unit_type_name(unsigned int type)
{
	return type < __NICPROG_UNIT_MAX ? nicprog_unit_type_names[type] :
					   "unknown";
}

/**
 * nicprog_accel_type_name() - name of an accelerator type
 * @accel: enum nicprog_accel_type
 *
 * Return: a static string; "unknown" for a value out of range.
 */
const char *nicprog_accel_type_name(unsigned int accel)
{
	return accel < __NICPROG_ACCEL_MAX ? nicprog_accel_type_names[accel] :
					     "unknown";
}
EXPORT_SYMBOL_GPL(nicprog_accel_type_name);

/* Say why in @why (if any): -EINVAL for the caller to return. */
static int lnic_bad(char *why, size_t len, const char *fmt, ...)
{
	va_list args;

	if (why) {
		va_start(args, fmt);
		vsnprintf(why, len, fmt, args);
		va_end(args);
	}
	return -EINVAL;
}

static bool lnic_name_ok(const char *name)
{
	return name && name[0];
}

static int lnic_check_unit(const struct nicprog_lnic *lnic, u32 i, char *why,
			   size_t len)
{
	const struct nicprog_lnic_unit *u = &lnic->units[i];
	u32 regions = lnic->n_regions;
	u32 c, j;

	if (!lnic_name_ok(u->name))
		return lnic_bad(why, len, "unit %u: no name", i);
	for (j = 0; j < i; j++)
		if (lnic_name_ok(lnic->units[j].name) &&
		    !strcmp(lnic->units[j].name, u->name))
			return lnic_bad(why, len,
					"unit %u (%s): name already used by unit %u",
					i, u->name, j);
	if (u->type == NICPROG_UNIT_UNSPEC || u->type >= __NICPROG_UNIT_MAX)
		return lnic_bad(why, len, "unit %u (%s): type %u out of range",
				i, u->name, u->type);
	if (u->accel >= __NICPROG_ACCEL_MAX)
		return lnic_bad(why, len,
				"unit %u (%s): accelerator type %u out of range",
				i, u->name, u->accel);
	if (u->type == NICPROG_UNIT_ACCEL && u->accel == NICPROG_ACCEL_NONE)
		return lnic_bad(why, len,
				"unit %u (%s): accel unit without an accelerator type",
				i, u->name);
	if (u->type != NICPROG_UNIT_ACCEL && u->accel != NICPROG_ACCEL_NONE)
		return lnic_bad(why, len,
				"unit %u (%s): accelerator type %s on a %s unit",
				i, u->name, nicprog_accel_type_name(u->accel),
				nicprog_unit_type_name(u->type));
	if (!u->count || u->count > NICPROG_LNIC_MAX_INSTANCES)
		return lnic_bad(why, len,
				"unit %u (%s): count %u out of range 1..%u",
				i, u->name, u->count,
				NICPROG_LNIC_MAX_INSTANCES);
	if (!u->threads || u->threads > NICPROG_LNIC_MAX_THREADS)
		return lnic_bad(why, len,
				"unit %u (%s): threads %u out of range 1..%u",
				i, u->name, u->threads,
				NICPROG_LNIC_MAX_THREADS);
	if (!u->clock_mhz)
		return lnic_bad(why, len, "unit %u (%s): clock is 0 MHz",
				i, u->name);
	if (regions < 32 && (u->region_mask >> regions))
		return lnic_bad(why, len,
				"unit %u (%s): region mask 0x%x names regions beyond the %u defined",
				i, u->name, u->region_mask, regions);
	if (u->type == NICPROG_UNIT_CORE) {
		if (!u->insn_store)
			return lnic_bad(why, len,
					"unit %u (%s): core with an empty instruction store",
					i, u->name);
		for (c = 0; c < __NICPROG_IC_MAX; c++)
			if (!u->cost[c])
				return lnic_bad(why, len,
						"unit %u (%s): cost of instruction class %u is 0 cycles",
						i, u->name, c);
		if (!u->region_mask)
			return lnic_bad(why, len,
					"unit %u (%s): core reaches no memory region",
					i, u->name);
	}
	if ((u->type == NICPROG_UNIT_ACCEL || u->type == NICPROG_UNIT_MAT) &&
	    !u->service_cycles)
		return lnic_bad(why, len,
				"unit %u (%s): %s unit with a service time of 0 cycles",
				i, u->name, nicprog_unit_type_name(u->type));
	return 0;
}

static int lnic_check_region(const struct nicprog_lnic *lnic, u32 i,
			     char *why, size_t len)
{
	const struct nicprog_lnic_region *r = &lnic->regions[i];
	u32 j;
	bool reached = false;

	if (!lnic_name_ok(r->name))
		return lnic_bad(why, len, "region %u: no name", i);
	for (j = 0; j < i; j++)
		if (lnic_name_ok(lnic->regions[j].name) &&
		    !strcmp(lnic->regions[j].name, r->name))
			return lnic_bad(why, len,
					"region %u (%s): name already used by region %u",
					i, r->name, j);
	if (!r->size)
		return lnic_bad(why, len, "region %u (%s): size is 0", i,
				r->name);
	if (!r->latency_cycles)
		return lnic_bad(why, len, "region %u (%s): latency is 0 cycles",
				i, r->name);
	if (r->banks > NICPROG_LNIC_MAX_BANKS)
		return lnic_bad(why, len, "region %u (%s): %u banks, at most %u",
				i, r->name, r->banks, NICPROG_LNIC_MAX_BANKS);
	/* a facts file is anyone's: the text parser is not the only source */
	if (r->interleave >= __NICPROG_IL_MAX)
		return lnic_bad(why, len,
				"region %u (%s): interleave %u unknown",
				i, r->name, r->interleave);
	if (r->cache_bytes && (r->cache_bytes % (NICPROG_LNIC_CACHE_LINE *
						 NICPROG_LNIC_CACHE_WAYS) ||
			       r->cache_bytes > r->size))
		return lnic_bad(why, len,
				"region %u (%s): cache of %llu bytes is not a multiple of %u or is larger than the region",
				i, r->name, (unsigned long long)r->cache_bytes,
				NICPROG_LNIC_CACHE_LINE * NICPROG_LNIC_CACHE_WAYS);
	if (!r->cache_bytes != !r->cache_cycles ||
	    r->cache_cycles >= r->latency_cycles)
		return lnic_bad(why, len,
				"region %u (%s): a cache needs a hit latency below the region's %u cycles, and a hit latency a cache",
				i, r->name, r->latency_cycles);
	for (j = 0; j < lnic->n_units; j++)
		if (lnic->units[j].region_mask & (1U << i))
			reached = true;
	if (!reached)
		return lnic_bad(why, len, "region %u (%s): reachable by no unit",
				i, r->name);
	/* an island's memory is SRAM next to its cores: no cache to model */
	if (r->island && (r->cache_bytes ||
			  r->island > NICPROG_LNIC_MAX_INSTANCES))
		return lnic_bad(why, len,
				"region %u (%s): an island region has no cache and at most %u cores an island",
				i, r->name, NICPROG_LNIC_MAX_INSTANCES);
	for (j = 0; j < lnic->n_units && r->island; j++)
		if ((lnic->units[j].region_mask & (1U << i)) &&
		    lnic->units[j].type != NICPROG_UNIT_CORE)
			return lnic_bad(why, len,
					"region %u (%s): an island region is reached by cores only, not by unit %u (%s)",
					i, r->name, j, lnic->units[j].name);
	return 0;
}

static int lnic_check_hub(const struct nicprog_lnic *lnic, u32 i, char *why,
			  size_t len)
{
	const struct nicprog_lnic_hub *h = &lnic->hubs[i];
	u32 units = lnic->n_units;
	u32 j;

	if (!lnic_name_ok(h->name))
		return lnic_bad(why, len, "hub %u: no name", i);
	for (j = 0; j < i; j++)
		if (lnic_name_ok(lnic->hubs[j].name) &&
		    !strcmp(lnic->hubs[j].name, h->name))
			return lnic_bad(why, len,
					"hub %u (%s): name already used by hub %u",
					i, h->name, j);
	if (!h->capacity)
		return lnic_bad(why, len, "hub %u (%s): capacity is 0", i,
				h->name);
	if (!h->from_mask || !h->to_mask)
		return lnic_bad(why, len,
				"hub %u (%s): no unit on its %s side", i,
				h->name, h->from_mask ? "dequeue" : "enqueue");
	if (units < 32 && ((h->from_mask | h->to_mask) >> units))
		return lnic_bad(why, len,
				"hub %u (%s): unit mask names units beyond the %u defined",
				i, h->name, units);
	return 0;
}

/**
 * nicprog_lnic_validate() - check that an LNIC is complete and consistent
 * @lnic: the description to check
 * @why: buffer for the reason of a rejection, may be NULL
 * @why_len: size of @why
 *
 * Checks ranges, unique names, that masks only name defined units and
 * regions, that every region is reachable, and that there is at least one
 * general-purpose core (code nothing else can run needs a place to run).
 *
 * Context: any; does not sleep.
 * Return: 0 if valid, -EINVAL with a reason naming the unit, region or hub.
 */
int nicprog_lnic_validate(const struct nicprog_lnic *lnic, char *why,
			  size_t why_len)
{
	bool has_core = false;
	u32 i;
	int err;

	if (!lnic)
		return lnic_bad(why, why_len, "no LNIC");
	if (!lnic_name_ok(lnic->name))
		return lnic_bad(why, why_len, "LNIC has no name");
	if (!lnic->units || !lnic->n_units ||
	    lnic->n_units > NICPROG_LNIC_MAX_UNITS)
		return lnic_bad(why, why_len,
				"LNIC %s: %u units, need 1..%u", lnic->name,
				lnic->n_units, NICPROG_LNIC_MAX_UNITS);
	if (!lnic->regions || !lnic->n_regions ||
	    lnic->n_regions > NICPROG_LNIC_MAX_REGIONS)
		return lnic_bad(why, why_len,
				"LNIC %s: %u memory regions, need 1..%u",
				lnic->name, lnic->n_regions,
				NICPROG_LNIC_MAX_REGIONS);
	if (lnic->n_hubs > NICPROG_LNIC_MAX_HUBS ||
	    (lnic->n_hubs && !lnic->hubs))
		return lnic_bad(why, why_len, "LNIC %s: %u hubs, at most %u",
				lnic->name, lnic->n_hubs,
				NICPROG_LNIC_MAX_HUBS);

	for (i = 0; i < lnic->n_units; i++) {
		err = lnic_check_unit(lnic, i, why, why_len);
		if (err)
			return err;
		if (lnic->units[i].type == NICPROG_UNIT_CORE)
			has_core = true;
	}
	if (!has_core)
		return lnic_bad(why, why_len,
				"LNIC %s: no general-purpose core", lnic->name);
	for (i = 0; i < lnic->n_regions; i++) {
		err = lnic_check_region(lnic, i, why, why_len);
		if (err)
			return err;
	}
	for (i = 0; i < lnic->n_hubs; i++) {
		err = lnic_check_hub(lnic, i, why, why_len);
		if (err)
			return err;
	}
	return 0;
}

/**
 * nicprog_lnic_summarize() - count what an LNIC offers, for operators
 * @lnic: a description that passed nicprog_lnic_validate()
 * @sum: filled in
 *
 * Context: any; does not sleep.
 */
void nicprog_lnic_summarize(const struct nicprog_lnic *lnic,
			    struct nicprog_lnic_summary *sum)
{
	const struct nicprog_lnic_unit *u;
	u32 i;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < lnic->n_units; i++) {
		u = &lnic->units[i];
		switch (u->type) {
		case NICPROG_UNIT_CORE:
			sum->cores += u->count;
			sum->core_threads += u->count * u->threads;
			if (!sum->insn_store || u->insn_store < sum->insn_store)
				sum->insn_store = u->insn_store;
			break;
		case NICPROG_UNIT_PARSER:
			sum->parsers += u->count;
			break;
		case NICPROG_UNIT_MAT:
			sum->mat_stages += u->count;
			break;
		case NICPROG_UNIT_ACCEL:
			sum->accels[u->accel] += u->count;
			break;
		case NICPROG_UNIT_DMA:
			sum->dma_engines += u->count;
			break;
		}
	}
	for (i = 0; i < lnic->n_regions; i++)
		sum->mem_bytes += lnic->regions[i].size;
}

/**
 * nicprog_lnic_job_core() - where a NIC runs a lookaside kernel's jobs
 * @lnic: a description that passed nicprog_lnic_validate()
 * @lat: out: the latency of an access to a job's frame, in the core's
 *	cycles: that of the largest region the core reaches, where NIC
 *	buffers live
 *
 * The first core unit runs jobs. One rule for a driver that simulates its
 * cores and for the predictor (nicprog-plan --bufs), so that both price a
 * job alike.
 *
 * Context: any; does not sleep.
 * Return: the core unit, or NULL when the NIC has none.
 */
const struct nicprog_lnic_unit *
nicprog_lnic_job_core(const struct nicprog_lnic *lnic, u32 *lat)
{
	const struct nicprog_lnic_unit *core = NULL;
	u32 u, r, best = 0;

	for (u = 0; u < lnic->n_units && !core; u++)
		if (lnic->units[u].type == NICPROG_UNIT_CORE)
			core = &lnic->units[u];
	if (!core)
		return NULL;
	for (r = 0; r < lnic->n_regions; r++)
		if ((!core->region_mask || (core->region_mask & BIT(r))) &&
		    lnic->regions[r].size > lnic->regions[best].size)
			best = r;
	*lat = lnic->regions[best].latency_cycles;
	return core;
}
EXPORT_SYMBOL_GPL(nicprog_lnic_job_core);
