/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Logical NIC (LNIC): how a vendor driver describes its SmartNIC to nicprog.
 *
 * After Clara: a NIC is a set of typed compute units, memory regions shared
 * by some of them, and switching hubs (queues) between them. The offloader
 * reads nothing else about the hardware, so this header is also compiled in
 * userspace (offline planning, unit tests): there, include the offloader's
 * compat.h first, which provides the u8..u64 types.
 */
#ifndef _NET_NICPROG_LNIC_H
#define _NET_NICPROG_LNIC_H

#ifdef __KERNEL__
#include <linux/types.h>
#endif
#include <linux/nicprog.h>

#define NICPROG_LNIC_MAX_UNITS		32	/* bit width of unit masks */
#define NICPROG_LNIC_MAX_REGIONS	16
#define NICPROG_LNIC_MAX_HUBS		32
#define NICPROG_LNIC_MAX_INSTANCES	4096	/* per unit */
#define NICPROG_LNIC_MAX_THREADS	64	/* per instance */

/**
 * struct nicprog_lnic_unit - one kind of compute unit, @count instances
 * @name: short name, unique within the LNIC ("npu", "parse0", "crypto")
 * @type: enum nicprog_unit_type
 * @accel: enum nicprog_accel_type; NICPROG_ACCEL_NONE unless @type is accel
 * @count: number of identical instances
 * @threads: hardware threads per instance (they hide memory latency)
 * @clock_mhz: clock of one instance
 * @insn_store: instructions one instance can hold; 0 if not programmable
 * @cost: cycles per instruction class (enum nicprog_insn_class), for cores
 * @service_cycles: fixed cycles per job, for accelerators and MAT stages
 * @cycles_per_kib: additional cycles per KiB processed, for accelerators
 * @region_mask: memory regions this unit can access, bit i for @regions[i]
 */
struct nicprog_lnic_unit {
	const char *name;
	u8 type;
	u8 accel;
	u16 threads;
	u32 count;
	u32 clock_mhz;
	u32 insn_store;
	u16 cost[__NICPROG_IC_MAX];
	u32 service_cycles;
	u32 cycles_per_kib;
	u32 region_mask;
};

/**
 * struct nicprog_lnic_region - a memory region
 * @name: short name, unique within the LNIC ("lmem", "ctm", "emem")
 * @size: bytes
 * @latency_cycles: access latency seen by a unit of this region, in that
 *	unit's cycles
 * @banks: independent banks accesses are spread over by address; 0 or 1
 *	for one
 * @bank_cycles: cycles one access keeps its bank busy, so that accesses
 *	to a busy bank queue; 0 if accesses never queue
 * @cache_bytes: bytes of a cache in front of the region, 0 without one
 * @cache_cycles: latency of an access the cache serves
 * @island: 0 for one region all units share; else the region is an
 *	island's: one instance, of @size bytes and @banks banks, per
 *	@island consecutive cores, each reaching only its own (as an NFP
 *	island's cluster memory). Instances hold different data, so only
 *	what the datapath never writes, or only adds to, may live there (a
 *	copy in each; a counter's value is the sum of the copies).
 * @interleave: enum nicprog_interleave: which bank a line is in, if the
 *	NIC says: NICPROG_IL_HASH, line L -- an address the NIC's (struct
 *	nicprog_exec_event.addr) over NICPROG_LNIC_CACHE_LINE, plus one --
 *	in bank nicprog_lnic_bank(L, @banks), of its island's instance for
 *	an island region; NICPROG_IL_UNKNOWN, a prediction prices the banks
 *	over random interleavings and reports their spread
 */
struct nicprog_lnic_region {
	const char *name;
	u64 size;
	u32 latency_cycles;
	u32 banks;
	u32 bank_cycles;
	u64 cache_bytes;
	u32 cache_cycles;
	u32 island;
	u8 interleave;
};

#define NICPROG_LNIC_MAX_BANKS		1024	/* per region */
#define NICPROG_LNIC_CACHE_LINE		64	/* bytes */
#define NICPROG_LNIC_CACHE_WAYS		8

/**
 * nicprog_lnic_line_hash() - every bit of a line number mixed into 32
 * @line: the line number
 *
 * splitmix64's finalizer: a multiplicative hash's middle bits modulo a
 * power of two used half of 16384 cache sets for a table's consecutive
 * lines. Sets and banks are chosen with it, so the NIC's and a
 * prediction's choices are the same function.
 *
 * Return: the hash.
 */
static inline u32 nicprog_lnic_line_hash(u64 line)
{
	line = (line ^ (line >> 30)) * 0xbf58476d1ce4e5b9ULL;
	line = (line ^ (line >> 27)) * 0x94d049bb133111ebULL;
	return (line ^ (line >> 31)) >> 32;
}

/**
 * nicprog_lnic_bank() - the bank of a line, NICPROG_IL_HASH
 * @line: the line number (an address over NICPROG_LNIC_CACHE_LINE, + 1)
 * @banks: the region's banks, at least 1
 *
 * Salted, so that a line's bank does not follow its cache set.
 *
 * Return: the bank, below @banks.
 */
static inline u32 nicprog_lnic_bank(u64 line, u32 banks)
{
	return nicprog_lnic_line_hash(line ^ 0x5bd1e995) % banks;
}

/**
 * struct nicprog_lnic_hub - a switching hub: a bounded queue between units
 * @name: short name, unique within the LNIC
 * @capacity: entries the queue holds before it drops or backpressures
 * @from_mask: units that enqueue, bit i for @units[i]
 * @to_mask: units that dequeue, bit i for @units[i]
 */
struct nicprog_lnic_hub {
	const char *name;
	u32 capacity;
	u32 from_mask;
	u32 to_mask;
};

/**
 * struct nicprog_lnic - logical description of one SmartNIC
 * @name: profile name shown to operators ("nicsim-generic")
 * @units: compute units
 * @n_units: entries in @units
 * @regions: memory regions
 * @n_regions: entries in @regions
 * @hubs: switching hubs
 * @n_hubs: entries in @hubs
 *
 * The driver owns the memory and keeps it unchanged while registered.
 */
struct nicprog_lnic {
	const char *name;
	const struct nicprog_lnic_unit *units;
	u32 n_units;
	const struct nicprog_lnic_region *regions;
	u32 n_regions;
	const struct nicprog_lnic_hub *hubs;
	u32 n_hubs;
};

/**
 * struct nicprog_lnic_summary - what an operator sees of an LNIC at a glance
 * @cores: instances of general-purpose cores
 * @core_threads: hardware threads over all cores
 * @parsers: instances of parse units
 * @mat_stages: instances of match-action stages
 * @accels: instances of accelerators, per enum nicprog_accel_type
 * @dma_engines: instances of DMA engines
 * @mem_bytes: bytes over all memory regions
 * @insn_store: smallest instruction store of any core, 0 without cores
 */
struct nicprog_lnic_summary {
	u32 cores;
	u32 core_threads;
	u32 parsers;
	u32 mat_stages;
	u32 accels[__NICPROG_ACCEL_MAX];
	u32 dma_engines;
	u64 mem_bytes;
	u32 insn_store;
};

#define NICPROG_LNIC_NAME_LEN		16	/* unit, region, hub; NUL included */
#define NICPROG_LNIC_TEXT_MAX		(64 * 1024)	/* bytes of profile text */

/**
 * struct nicprog_lnic_text - an LNIC read from profile text, owning its data
 * @lnic: the LNIC; its pointers point into this struct
 * @name: the LNIC's name
 * @units: storage of @lnic.units
 * @regions: storage of @lnic.regions
 * @hubs: storage of @lnic.hubs
 * @unit_names: storage of the units' names
 * @region_names: storage of the regions' names
 * @hub_names: storage of the hubs' names
 */
struct nicprog_lnic_text {
	struct nicprog_lnic lnic;
	char name[32];
	struct nicprog_lnic_unit units[NICPROG_LNIC_MAX_UNITS];
	struct nicprog_lnic_region regions[NICPROG_LNIC_MAX_REGIONS];
	struct nicprog_lnic_hub hubs[NICPROG_LNIC_MAX_HUBS];
	char unit_names[NICPROG_LNIC_MAX_UNITS][NICPROG_LNIC_NAME_LEN];
	char region_names[NICPROG_LNIC_MAX_REGIONS][NICPROG_LNIC_NAME_LEN];
	char hub_names[NICPROG_LNIC_MAX_HUBS][NICPROG_LNIC_NAME_LEN];
};

int nicprog_lnic_validate(const struct nicprog_lnic *lnic, char *why,
			  size_t why_len);
int nicprog_lnic_parse(const char *text, size_t len,
		       struct nicprog_lnic_text *out, char *why,
		       size_t why_len);
size_t nicprog_lnic_format(const struct nicprog_lnic *lnic, char *buf,
			   size_t size);
void nicprog_lnic_summarize(const struct nicprog_lnic *lnic,
			    struct nicprog_lnic_summary *sum);
const char *nicprog_unit_type_name(unsigned int type);
const char *nicprog_accel_type_name(unsigned int accel);
u8 nicprog_accel_fn_type(unsigned int afn);
const struct nicprog_lnic_unit *
nicprog_lnic_job_core(const struct nicprog_lnic *lnic, u32 *lat);

#endif /* _NET_NICPROG_LNIC_H */
