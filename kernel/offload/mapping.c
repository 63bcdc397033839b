// SPDX-License-Identifier: GPL-2.0
/*
 * Mapping a program onto the NIC's fixed-function units: accelerator
 * calls become engine jobs and table lookups MAT-stage lookups, on the
 * share of each pool a plan's core budget gives it, so that programs on
 * several ports of one NIC each run as predicted.
 */
#include "part.h"

static const struct {
	const char *name;
	u8 type;
} accel_fns[] = {
	[NICPROG_AFN_NONE]	= { "none", NICPROG_ACCEL_NONE },
	[NICPROG_AFN_CSUM]	= { "csum", NICPROG_ACCEL_CSUM },
	[NICPROG_AFN_CRC32C]	= { "crc32c", NICPROG_ACCEL_CRC },
	[NICPROG_AFN_TOEPLITZ]	= { "toeplitz", NICPROG_ACCEL_HASH },
	[NICPROG_AFN_JHASH]	= { "jhash", NICPROG_ACCEL_HASH },
	[NICPROG_AFN_CHACHA20]	= { "chacha20", NICPROG_ACCEL_CRYPTO },
};

/**
 * nicprog_accel_fn_type() - the engine type that runs an accelerator fn
 * @afn: enum nicprog_accel_fn; NICPROG_EXEC_ACCEL_* bits above it ignored
 *
 * Return: enum nicprog_accel_type, NICPROG_ACCEL_NONE if unknown.
 */
u8 nicprog_accel_fn_type(unsigned int afn)
{
	afn &= NICPROG_EXEC_AFN_MASK;
	return afn < ARRAY_SIZE(accel_fns) ? accel_fns[afn].type :
					     NICPROG_ACCEL_NONE;
}
EXPORT_SYMBOL_GPL(nicprog_accel_fn_type);

/**
 * nicprog_accel_fn_name() - name of an accelerator function
 * @afn: enum nicprog_accel_fn; NICPROG_EXEC_ACCEL_* bits above it ignored
 *
 * Return: a static string.
 */
const char *nicprog_accel_fn_name(unsigned int afn)
{
	afn &= NICPROG_EXEC_AFN_MASK;
	return afn < ARRAY_SIZE(accel_fns) ? accel_fns[afn].name : "?";
}

/**
 * nicprog_slice_units() - the units of a pool a plan may use
 * @lnic: the NIC
 * @budget: cores the plan may use
 * @count: units of the pool the NIC has
 * @avail: of them, those other ports' plans leave
 *
 * Programs on several ports of one NIC split its units, not only its
 * cores, so that each runs as its plan was predicted whatever the others
 * do: a plan for @budget of the NIC's cores takes that share of each pool
 * it uses, rounded, at least one unit, of the @avail ones.
 *
 * Return: units, 0 if none is available.
 */
u32 nicprog_slice_units(const struct nicprog_lnic *lnic, u32 budget,
			u32 count, u32 avail)
{
	u32 i, cores = 0;
	u64 n;

	for (i = 0; i < lnic->n_units && !cores; i++)
		if (lnic->units[i].type == NICPROG_UNIT_CORE)
			cores = lnic->units[i].count;
	if (!cores || budget >= cores)
		return min(count, avail);
	n = div64_u64((u64)count * budget * 2 + cores, 2 * (u64)cores);
	return min_t(u64, max_t(u64, n, 1), min(count, avail));
}

/*
 * Accelerator calls the NIC has an engine for become engine jobs: on the
 * plan's slice of the engines of each kind it calls (@avail of them left
 * by other ports' plans; NULL: all).
 */
void nicprog_map_accel(const struct nicprog_ir *ir,
		       const struct nicprog_lnic *lnic,
		       const struct nicprog_units_free *avail,
		       struct nicprog_layout *lo)
{
	bool used[__NICPROG_ACCEL_MAX] = { 0 };
	const struct nicprog_insn_meta *m;
	u32 i, t;

	for (i = 0; i < ir->in->len; i++) {
		m = &ir->in->meta[i];
		if (m->afn && !(m->flags & NICPROG_META_AFN_VAR))
			used[nicprog_accel_fn_type(m->afn)] = true;
	}
	for (t = 0; t < __NICPROG_ACCEL_MAX; t++)
		lo->accel_unit[t] = U32_MAX;
	for (i = lnic->n_units; i-- > 0;) {
		t = lnic->units[i].accel;
		if (lnic->units[i].type != NICPROG_UNIT_ACCEL ||
		    t >= __NICPROG_ACCEL_MAX || !used[t])
			continue;
		lo->accel_count[t] =
			nicprog_slice_units(lnic, lo->budget,
					    lnic->units[i].count,
					    avail ? avail->accel[t] :
						   lnic->units[i].count);
		lo->accel_unit[t] = lo->accel_count[t] ? i : U32_MAX;
	}
	for (i = 0; i < ir->in->len; i++) {
		m = &ir->in->meta[i];
		if (!m->afn || (m->flags & NICPROG_META_AFN_VAR))
			continue;
		t = nicprog_accel_fn_type(m->afn);
		if (t != NICPROG_ACCEL_NONE && lo->accel_unit[t] != U32_MAX)
			lo->insn_accel[i] = m->afn |
				(m->flags & NICPROG_META_IDENT ? m->ident : 0);
	}
}

/* Lookups MAT stages serve, on the plan's slice of them. */
void nicprog_map_mat(const struct nicprog_ir *ir,
		     const struct nicprog_lnic *lnic,
		     const struct nicprog_units_free *avail,
		     struct nicprog_layout *lo)
{
	const struct nicprog_lnic_unit *mat = NULL;
	u32 i, m;

	for (i = 0; i < lnic->n_units; i++)
		if (lnic->units[i].type == NICPROG_UNIT_MAT && !mat)
			mat = &lnic->units[i];
	if (!mat)
		return;
	lo->mat_units = nicprog_slice_units(lnic, lo->budget, mat->count,
					    avail ? avail->mat : mat->count);
	if (!lo->mat_units)
		return;
	lo->mat_service = div64_u64((u64)mat->service_cycles *
				    lnic->units[lo->core_unit].clock_mhz,
				    mat->clock_mhz ? mat->clock_mhz : 1);
	for (i = 0; i < ir->n_keys; i++) {
		m = ir->keys[i].table;
		if (m < lo->n_tables && lo->tables[m].mat &&
		    ir->keys[i].helper == BPF_FUNC_map_lookup_elem)
			lo->insn_mat[ir->keys[i].insn] = NICPROG_MAT_LOOKUP;
	}
	nicprog_ident_lpm(ir, lo);
	for (i = 0; i < ir->in->len && !lo->insn_mat[i]; i++)
		;
	if (i == ir->in->len)	/* it makes no lookup: it holds no stage */
		lo->mat_units = 0;
}

/* The host runs some calls and lookups: hold no unit only they used. */
void nicprog_map_unused(const struct nicprog_ir *ir, struct nicprog_layout *lo)
{
	bool used[__NICPROG_ACCEL_MAX] = { 0 }, mat = false;
	u32 i, t;

	for (i = 0; i < ir->in->len; i++) {
		if (lo->insn_accel[i])
			used[nicprog_accel_fn_type(lo->insn_accel[i])] = true;
		mat |= !!lo->insn_mat[i];
	}
	for (t = 0; t < __NICPROG_ACCEL_MAX; t++)
		if (!used[t]) {
			lo->accel_count[t] = 0;
			lo->accel_unit[t] = U32_MAX;
		}
	if (!mat)
		lo->mat_units = 0;
}
