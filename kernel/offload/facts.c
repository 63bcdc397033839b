// SPDX-License-Identifier: GPL-2.0
/* Facts files (see facts.h): written by the kernel, read by the tools. */
#include "facts.h"

static size_t facts_parts(const struct nicprog_ir_input *in, u32 n_units,
			  u32 n_regions)
{
	return sizeof(struct nicprog_facts_hdr) +
	       (size_t)in->len * (sizeof(struct bpf_insn) +
				  sizeof(struct nicprog_insn_meta)) +
	       (size_t)in->n_tables * sizeof(struct nicprog_ir_table) +
	       (size_t)n_units * (sizeof(struct nicprog_lnic_unit) +
				  NICPROG_FACTS_NAME) +
	       (size_t)n_regions * (sizeof(struct nicprog_lnic_region) +
				    NICPROG_FACTS_NAME);
}

/**
 * nicprog_facts_size() - bytes of the facts file of a program on an LNIC
 * @in: the program and its facts
 * @lnic: the LNIC
 *
 * Return: the size nicprog_facts_write() needs.
 */
size_t nicprog_facts_size(const struct nicprog_ir_input *in,
			  const struct nicprog_lnic *lnic)
{
	return facts_parts(in, lnic->n_units, lnic->n_regions);
}

static void *put(void *p, const void *src, size_t n)
{
	memcpy(p, src, n);
	return (u8 *)p + n;
}

static void *put_name(void *p, const char *name)
{
	memset(p, 0, NICPROG_FACTS_NAME);
	if (name)
		strncpy(p, name, NICPROG_FACTS_NAME - 1);
	return (u8 *)p + NICPROG_FACTS_NAME;
}

/**
 * nicprog_facts_write() - write a facts file
 * @buf: nicprog_facts_size() bytes
 * @in: the program and its facts
 * @lnic: the LNIC
 */
void nicprog_facts_write(void *buf, const struct nicprog_ir_input *in,
			 const struct nicprog_lnic *lnic)
{
	struct nicprog_facts_hdr h = {
		.magic = NICPROG_FACTS_MAGIC,
		.hdr_size = sizeof(h),
		.insn_size = sizeof(struct bpf_insn),
		.meta_size = sizeof(struct nicprog_insn_meta),
		.table_size = sizeof(struct nicprog_ir_table),
		.unit_size = sizeof(struct nicprog_lnic_unit),
		.region_size = sizeof(struct nicprog_lnic_region),
		.len = in->len, .n_tables = in->n_tables,
		.n_units = lnic->n_units, .n_regions = lnic->n_regions,
	};
	struct nicprog_lnic_unit u;
	struct nicprog_lnic_region r;
	void *p = buf;
	u32 i;

	if (lnic->name)
		strncpy(h.lnic_name, lnic->name, sizeof(h.lnic_name) - 1);
	p = put(p, &h, sizeof(h));
	p = put(p, in->insns, in->len * sizeof(*in->insns));
	p = put(p, in->meta, in->len * sizeof(*in->meta));
	p = put(p, in->tables, in->n_tables * sizeof(*in->tables));
	for (i = 0; i < lnic->n_units; i++) {
		u = lnic->units[i];
		u.name = NULL;
		p = put(p, &u, sizeof(u));
	}
	for (i = 0; i < lnic->n_units; i++)
		p = put_name(p, lnic->units[i].name);
	for (i = 0; i < lnic->n_regions; i++) {
		r = lnic->regions[i];
		r.name = NULL;
		p = put(p, &r, sizeof(r));
	}
	for (i = 0; i < lnic->n_regions; i++)
		p = put_name(p, lnic->regions[i].name);
}

/**
 * nicprog_facts_read() - read a facts file
 * @buf: the file, kept while @f is used
 * @len: its size
 * @f: filled
 * @why: on error, a static reason
 *
 * Return: 0, or -EINVAL for a file of another layout or a short one.
 */
int nicprog_facts_read(const void *buf, size_t len, struct nicprog_facts *f,
		       const char **why)
{
	const struct nicprog_facts_hdr *h = buf;
	const u8 *p = buf;
	u32 i;

	*why = "not a facts file of this build";
	if (len < sizeof(*h) || h->magic != NICPROG_FACTS_MAGIC ||
	    h->hdr_size != sizeof(*h) ||
	    h->insn_size != sizeof(struct bpf_insn) ||
	    h->meta_size != sizeof(struct nicprog_insn_meta) ||
	    h->table_size != sizeof(struct nicprog_ir_table) ||
	    h->unit_size != sizeof(struct nicprog_lnic_unit) ||
	    h->region_size != sizeof(struct nicprog_lnic_region))
		return -EINVAL;
	*why = "facts file is truncated or has too many units";
	if (h->n_units > NICPROG_LNIC_MAX_UNITS ||
	    h->n_regions > NICPROG_LNIC_MAX_REGIONS ||
	    h->n_tables > NICPROG_MAX_TABLES || !h->len ||
	    h->len > (1U << 20))
		return -EINVAL;
	memset(f, 0, sizeof(*f));
	f->in.len = h->len;
	f->in.n_tables = h->n_tables;
	if (len != facts_parts(&f->in, h->n_units, h->n_regions))
		return -EINVAL;
	p += sizeof(*h);
	f->in.insns = (const void *)p;
	p += h->len * sizeof(struct bpf_insn);
	f->in.meta = (const void *)p;
	p += h->len * sizeof(struct nicprog_insn_meta);
	f->in.tables = (const void *)p;
	p += h->n_tables * sizeof(struct nicprog_ir_table);
	memcpy(f->units, p, h->n_units * sizeof(f->units[0]));
	p += h->n_units * sizeof(f->units[0]);
	for (i = 0; i < h->n_units; i++, p += NICPROG_FACTS_NAME) {
		if (p[NICPROG_FACTS_NAME - 1])
			return -EINVAL;
		f->units[i].name = (const char *)p;
	}
	memcpy(f->regions, p, h->n_regions * sizeof(f->regions[0]));
	p += h->n_regions * sizeof(f->regions[0]);
	for (i = 0; i < h->n_regions; i++, p += NICPROG_FACTS_NAME) {
		if (p[NICPROG_FACTS_NAME - 1])
			return -EINVAL;
		f->regions[i].name = (const char *)p;
	}
	memcpy(f->name, h->lnic_name, sizeof(h->lnic_name));
	f->lnic = (struct nicprog_lnic){
		.name = f->name, .units = f->units, .n_units = h->n_units,
		.regions = f->regions, .n_regions = h->n_regions,
	};
	return 0;
}
