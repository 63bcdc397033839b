/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Facts files: a verified program's facts and the LNIC it was offloaded
 * to, as the kernel hands them out (debugfs .../facts) so that the
 * offloader can run again in userspace -- offline planning, benchmarks.
 * The layout is the structures of offload.h and nicprog_lnic.h as this
 * build lays them out, behind a header of their sizes: a file is read by
 * tools built from the same tree, on the same architecture.
 */
#ifndef _NICPROG_OFFLOAD_FACTS_H
#define _NICPROG_OFFLOAD_FACTS_H

#include "offload.h"

#define NICPROG_FACTS_MAGIC	0x3146504eU	/* "NPF1" */
#define NICPROG_FACTS_NAME	16
/* Bounds of what a verified program's facts hold, checked on reading. */
#define NICPROG_FACTS_PKT_MAX	0x20000		/* packet bytes from the start */
#define NICPROG_FACTS_VALUE_MAX	0x100000U	/* a map value's bytes, 1 MiB */
#define NICPROG_FACTS_TABLE_MAX	BIT_ULL(40)	/* a table's bytes */

/**
 * struct nicprog_facts_hdr - start of a facts file
 * @magic: NICPROG_FACTS_MAGIC
 * @hdr_size: sizeof(struct nicprog_facts_hdr)
 * @insn_size: sizeof(struct bpf_insn)
 * @meta_size: sizeof(struct nicprog_insn_meta)
 * @table_size: sizeof(struct nicprog_ir_table)
 * @unit_size: sizeof(struct nicprog_lnic_unit)
 * @region_size: sizeof(struct nicprog_lnic_region)
 * @len: instructions
 * @n_tables: tables
 * @n_units: LNIC units
 * @n_regions: LNIC regions
 * @lnic_name: the LNIC's name
 *
 * Then: instructions, metas, tables, units (names zeroed), unit names
 * (NICPROG_FACTS_NAME bytes each), regions (names zeroed), region names.
 */
struct nicprog_facts_hdr {
	u32 magic;
	u32 hdr_size;
	u32 insn_size;
	u32 meta_size;
	u32 table_size;
	u32 unit_size;
	u32 region_size;
	u32 len;
	u32 n_tables;
	u32 n_units;
	u32 n_regions;
	u32 pad;
	char lnic_name[32];
};

/**
 * struct nicprog_facts - a facts file, read
 * @in: the program, pointing into the file's buffer
 * @lnic: the LNIC
 * @units: its units, names pointing into the buffer
 * @regions: its regions, likewise
 * @name: the LNIC's name
 */
struct nicprog_facts {
	struct nicprog_ir_input in;
	struct nicprog_lnic lnic;
	struct nicprog_lnic_unit units[NICPROG_LNIC_MAX_UNITS];
	struct nicprog_lnic_region regions[NICPROG_LNIC_MAX_REGIONS];
	char name[33];
};

size_t nicprog_facts_size(const struct nicprog_ir_input *in,
			  const struct nicprog_lnic *lnic);
void nicprog_facts_write(void *buf, const struct nicprog_ir_input *in,
			 const struct nicprog_lnic *lnic);
int nicprog_facts_read(const void *buf, size_t len, struct nicprog_facts *f,
		       char *why, size_t why_len);

#endif /* _NICPROG_OFFLOAD_FACTS_H */
