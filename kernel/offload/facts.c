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

/* @name in a zeroed field of @size bytes, cut to leave its NUL */
static void copy_name(void *field, const char *name, size_t size)
{
	memset(field, 0, size);
	if (name)
		memcpy(field, name, strnlen(name, size - 1));
}

static void *put_name(void *p, const char *name)
{
	copy_name(p, name, NICPROG_FACTS_NAME);
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

	copy_name(h.lnic_name, lnic->name, sizeof(h.lnic_name));
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

#define FACTS_FAIL(why, len, fmt, ...)				\
	({ snprintf(why, len, fmt, ##__VA_ARGS__); -EINVAL; })

/* Offsets a meta keeps of the main frame's stack: [-MAX_BPF_STACK, 0]. */
static bool facts_stack_off(s16 off)
{
	return off >= -NICPROG_EXEC_STACK && off <= 0;
}

/*
 * What the verifier guarantees of one instruction's facts, and the
 * offloader indexes or sizes things with: kinds, table indices,
 * accelerator functions, stack offsets, packet ranges, register masks.
 */
static const char *facts_meta_bad(const struct nicprog_insn_meta *m,
				  u32 n_tables)
{
	const u16 flags = NICPROG_META_IDENT << 1;
	const u16 regs = BIT(MAX_BPF_REG);

	if (m->ptr > NICPROG_PTR_OTHER)
		return "unknown pointer kind";
	if (m->map >= n_tables && m->map != NICPROG_MAP_NONE &&
	    m->map != NICPROG_MAP_MANY)
		return "table index out of range";
	if (m->afn >= __NICPROG_AFN_MAX)
		return "unknown accelerator function";
	if (m->ident & NICPROG_EXEC_AFN_MASK)
		return "unknown accelerator convention";
	if (m->flags >= flags || m->stack_args >= BIT(5))
		return "unknown flags";
	if (m->mapval_regs >= regs || m->ptr_regs >= regs ||
	    m->data_regs >= regs || m->other_regs >= regs)
		return "register out of range";
	if (!facts_stack_off(m->stack_off) || !facts_stack_off(m->key_off) ||
	    !facts_stack_off(m->val_off))
		return "stack offset out of the frame";
	if (m->pkt_lo < -NICPROG_FACTS_PKT_MAX ||
	    m->pkt_hi > NICPROG_FACTS_PKT_MAX || m->pkt_lo > m->pkt_hi)
		return "packet range out of bounds";
	return NULL;
}

/*
 * Every field of a facts file is untrusted: the kernel writes them from a
 * verified program, but a file is anyone's, and the offloader trusts the
 * verifier. Checked here: the LNIC, the tables, the instructions as the
 * executor takes them (opcodes, registers, byte swaps, jumps, calls, map
 * loads: nicprog_exec_check()) and the frame pointer read-only, as the
 * verifier's check_reg_arg() refuses, and every instruction's facts.
 */
static int facts_check(const struct nicprog_facts *f, char *why, size_t len)
{
	const struct nicprog_ir_input *in = &f->in;
	struct nicprog_exec_prog exec = {
		.insns = in->insns, .len = in->len, .n_maps = in->n_tables,
	};
	const struct nicprog_ir_table *t;
	const struct bpf_insn *insn;
	const char *bad;
	u32 i;
	u8 cls;

	if (nicprog_lnic_validate(&f->lnic, why, len))
		return -EINVAL;
	for (i = 0; i < in->n_tables; i++) {
		t = &in->tables[i];
		if ((t->type != BPF_MAP_TYPE_HASH &&
		     t->type != BPF_MAP_TYPE_ARRAY &&
		     t->type != BPF_MAP_TYPE_LRU_HASH &&
		     t->type != BPF_MAP_TYPE_LPM_TRIE) ||
		    (t->type == BPF_MAP_TYPE_ARRAY && t->key_size != 4) ||
		    (t->type == BPF_MAP_TYPE_LPM_TRIE &&
		     (t->key_size <= NICPROG_LPM_DATA_OFF ||
		      t->key_size > NICPROG_LPM_DATA_OFF +
				    NICPROG_LPM_DATA_MAX)) ||
		    !t->key_size || t->key_size > NICPROG_EXEC_STACK ||
		    !t->value_size || t->value_size > NICPROG_FACTS_VALUE_MAX ||
		    !t->max_entries || t->bytes > NICPROG_FACTS_TABLE_MAX)
			return FACTS_FAIL(why, len,
					  "table %u: a type, size or capacity no offloaded map has",
					  i);
	}
	if (nicprog_exec_check(&exec, &i, &bad))
		return FACTS_FAIL(why, len, "insn %u: %s", i, bad);
	for (i = 0; i < in->len; i++) {
		insn = &in->insns[i];
		cls = BPF_CLASS(insn->code);
		if ((cls == BPF_ALU || cls == BPF_ALU64 || cls == BPF_LDX) &&
		    insn->dst_reg == BPF_REG_10)
			return FACTS_FAIL(why, len,
					  "insn %u: the frame pointer is read only",
					  i);
		bad = facts_meta_bad(&in->meta[i], in->n_tables);
		/* the verifier's notes put one on bpf-to-bpf calls only */
		if (!bad && in->meta[i].afn &&
		    (insn->code != (BPF_JMP | BPF_CALL) ||
		     insn->src_reg != BPF_PSEUDO_CALL))
			bad = "an accelerator function on no bpf-to-bpf call";
		if (bad)
			return FACTS_FAIL(why, len, "insn %u: facts: %s", i,
					  bad);
	}
	return 0;
}

/**
 * nicprog_facts_read() - read a facts file, and check every field
 * @buf: the file, kept while @f is used
 * @len: its size
 * @f: filled
 * @why: on error, the reason (an instruction's number where one is bad)
 * @why_len: bytes at @why
 *
 * Return: 0, or -EINVAL for a file of another layout, a short one, or one
 * whose LNIC, tables, instructions or facts no verified program has.
 */
int nicprog_facts_read(const void *buf, size_t len, struct nicprog_facts *f,
		       char *why, size_t why_len)
{
	const struct nicprog_facts_hdr *h = buf;
	const u8 *p = buf;
	u32 i;

	if (len < sizeof(*h) || h->magic != NICPROG_FACTS_MAGIC ||
	    h->hdr_size != sizeof(*h) ||
	    h->insn_size != sizeof(struct bpf_insn) ||
	    h->meta_size != sizeof(struct nicprog_insn_meta) ||
	    h->table_size != sizeof(struct nicprog_ir_table) ||
	    h->unit_size != sizeof(struct nicprog_lnic_unit) ||
	    h->region_size != sizeof(struct nicprog_lnic_region))
		return FACTS_FAIL(why, why_len, "not a facts file of this build");
	if (h->n_units > NICPROG_LNIC_MAX_UNITS ||
	    h->n_regions > NICPROG_LNIC_MAX_REGIONS ||
	    h->n_tables > NICPROG_MAX_TABLES || !h->len ||
	    h->len > (1U << 20))
		return FACTS_FAIL(why, why_len,
				  "facts file has too many instructions, tables or units");
	memset(f, 0, sizeof(*f));
	f->in.len = h->len;
	f->in.n_tables = h->n_tables;
	if (len != facts_parts(&f->in, h->n_units, h->n_regions))
		return FACTS_FAIL(why, why_len,
				  "facts file is %zu bytes, its header says %zu",
				  len, facts_parts(&f->in, h->n_units,
						   h->n_regions));
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
			return FACTS_FAIL(why, why_len,
					  "unit %u: name not terminated", i);
		f->units[i].name = (const char *)p;
	}
	memcpy(f->regions, p, h->n_regions * sizeof(f->regions[0]));
	p += h->n_regions * sizeof(f->regions[0]);
	for (i = 0; i < h->n_regions; i++, p += NICPROG_FACTS_NAME) {
		if (p[NICPROG_FACTS_NAME - 1])
			return FACTS_FAIL(why, why_len,
					  "region %u: name not terminated", i);
		f->regions[i].name = (const char *)p;
	}
	memcpy(f->name, h->lnic_name, sizeof(h->lnic_name));
	f->lnic = (struct nicprog_lnic){
		.name = f->name, .units = f->units, .n_units = h->n_units,
		.regions = f->regions, .n_regions = h->n_regions,
	};
	return facts_check(f, why, why_len);
}
