// SPDX-License-Identifier: GPL-2.0
/*
 * Table classes (Alkali): a table the datapath only reads may be
 * replicated; a table every access of which is keyed by the same copy of
 * header bytes may be sharded, packets steered by a hash of those bytes
 * so that one core owns each key -- or keyed by those bytes on some
 * accesses and by them exchanged in pairs on the others (a flow and its
 * reverse), packets steered by a hash of the lesser copy, the same for
 * both directions (partition.c keeps such a table on one core where the
 * profile has no parser to compute that hash); a table the datapath
 * only looks up and adds to atomically, never reading a value, holds
 * counters, which every core may update (addition commutes, so the
 * totals are those of any order); anything else is shared-mutable and
 * all its accessors stay on one core. Every doubt resolves to
 * shared-mutable, and the reason is kept for operators.
 */
#include "offload.h"

#define HTAB_ELEM_OVERHEAD	32	/* node, hash, RCU head */
#define TC_WHY_SYMMETRIC \
	"keyed by header bytes and by them swapped, a flow and its reverse: a symmetric hash steers both to one core"

/**
 * nicprog_ir_table_bytes() - NIC memory a map takes as a table
 * @type: BPF_MAP_TYPE_*
 * @key_size: bytes of a key
 * @value_size: bytes of a value
 * @max_entries: capacity
 *
 * Return: bytes, the figure the kernel's memory accounting charges and
 * the offline planner assumes.
 */
u64 nicprog_ir_table_bytes(u32 type, u32 key_size, u32 value_size,
			   u32 max_entries)
{
	u64 k = (key_size + 7) & ~7U, v = (value_size + 7) & ~7U;

	if (type == BPF_MAP_TYPE_ARRAY)
		return (u64)max_entries * v;
	return (u64)max_entries * (k + v + HTAB_ELEM_OVERHEAD);
}

static const char * const tc_names[] = {
	[NICPROG_TC_UNUSED]	= "unused",
	[NICPROG_TC_READONLY]	= "read-only",
	[NICPROG_TC_SHARDED]	= "sharded",
	[NICPROG_TC_SHARED]	= "shared-mutable",
	[NICPROG_TC_COUNTER]	= "counters",
};

/**
 * nicprog_table_class_name() - name of a table class
 * @cls: enum nicprog_table_class
 *
 * Return: a static string.
 */
const char *nicprog_table_class_name(unsigned int cls)
{
	return cls < ARRAY_SIZE(tc_names) ? tc_names[cls] : "?";
}

static bool is_map_helper(s32 id)
{
	return id >= BPF_FUNC_map_lookup_elem &&
	       id <= BPF_FUNC_map_delete_elem;
}

static bool writes(const struct bpf_insn *insn,
		   const struct nicprog_insn_meta *m)
{
	u8 cls = BPF_CLASS(insn->code);

	if (insn->code == (BPF_JMP | BPF_CALL))
		return !insn->src_reg &&
		       (m->helper == BPF_FUNC_map_update_elem ||
			m->helper == BPF_FUNC_map_delete_elem);
	return (cls == BPF_ST || cls == BPF_STX) &&
	       m->ptr == NICPROG_PTR_MAP_VALUE;
}

/* A value access other than an atomic add whose old value is unused. */
static bool reads_or_sets(const struct bpf_insn *insn,
			  const struct nicprog_insn_meta *m)
{
	if (insn->code == (BPF_JMP | BPF_CALL))
		return m->helper != BPF_FUNC_map_lookup_elem;
	return !(BPF_CLASS(insn->code) == BPF_STX &&
		 BPF_MODE(insn->code) == BPF_ATOMIC && insn->imm == BPF_ADD);
}

static bool accesses(const struct bpf_insn *insn,
		     const struct nicprog_insn_meta *m)
{
	if (insn->code == (BPF_JMP | BPF_CALL))
		return !insn->src_reg && is_map_helper(m->helper);
	return m->ptr == NICPROG_PTR_MAP_VALUE;
}

/* Subprograms that write the packet or move its start. */
static bool subs_write_packet(const struct nicprog_ir *ir)
{
	u32 i;

	for (i = ir->n_main; i < ir->n_blocks; i++)
		if (ir->blocks[i].pkt_wr_hi > ir->blocks[i].pkt_wr_lo ||
		    (ir->blocks[i].flags & NICPROG_BLK_ADJ_HEAD))
			return true;
	return false;
}

static bool block_calls(const struct nicprog_ir *ir,
			const struct nicprog_ir_block *b)
{
	u32 i;

	for (i = b->start; i < b->end; i++)
		if (ir->in->insns[i].code == (BPF_JMP | BPF_CALL) &&
		    ir->in->insns[i].src_reg == BPF_PSEUDO_CALL)
			return true;
	return false;
}

static bool overlaps_key(const struct nicprog_ir_keyuse *ku, u32 ks, s32 lo,
			 s32 hi)
{
	u32 k;

	for (k = 0; k < ks; k++)
		if (ku->pkt[k] >= 0 && ku->pkt[k] >= lo && ku->pkt[k] < hi)
			return true;
	return false;
}

/*
 * Are the key's packet bytes, when the key is read, still what they were
 * when the packet arrived? Nothing before the call may have written them
 * or moved the frame start.
 */
static bool key_bytes_intact(const struct nicprog_ir *ir,
			     const struct nicprog_ir_keyuse *ku, u32 ks,
			     bool sub_writes)
{
	const struct nicprog_ir_block *cb = &ir->blocks[ir->insn_block[ku->insn]];
	const struct nicprog_ir_block *b;
	const struct nicprog_insn_meta *m;
	u32 i, j;

	if (!ir->anc)
		return false;
	for (j = 0; j < ir->n_main; j++) {
		b = &ir->blocks[j];
		if (b == cb || !nicprog_ir_is_ancestor(ir, b->node, cb->node))
			continue;
		if (b->node == cb->node)
			return false;	/* same loop */
		if ((b->flags & NICPROG_BLK_ADJ_HEAD) ||
		    (sub_writes && block_calls(ir, b)) ||
		    overlaps_key(ku, ks, b->pkt_wr_lo, b->pkt_wr_hi))
			return false;
	}
	for (i = cb->start; i < ku->insn; i++) {
		m = &ir->in->meta[i];
		if (ir->in->insns[i].code == (BPF_JMP | BPF_CALL)) {
			if (ir->in->insns[i].src_reg == BPF_PSEUDO_CALL &&
			    sub_writes)
				return false;
			if (!ir->in->insns[i].src_reg &&
			    (m->helper == BPF_FUNC_xdp_adjust_head ||
			     m->helper == BPF_FUNC_xdp_store_bytes))
				return false;
		}
		if (m->ptr == NICPROG_PTR_PACKET &&
		    BPF_CLASS(ir->in->insns[i].code) != BPF_LDX &&
		    overlaps_key(ku, ks, m->pkt_lo, m->pkt_hi))
			return false;
	}
	return true;
}

/*
 * Is @b the key @a with bytes exchanged in pairs, as a flow's source and
 * destination are swapped, constant bytes in place? An exchange in pairs
 * is its own inverse, so a steering hash of a frame's key and its swapped
 * key taken together would be the same for both directions of a flow:
 * the one frame that creates an element and every frame that reaches it
 * by either key would meet on one core.
 */
static bool key_swapped(const s16 *a, const s16 *b, u32 ks)
{
	u32 i, j, moved = 0;

	for (i = 0; i < ks; i++) {
		if (b[i] < 0) {
			if (a[i] != b[i])
				return false;
			continue;
		}
		for (j = 0; j < ks && a[j] != b[i]; j++)
			;
		if (j == ks || a[i] != b[j])
			return false;
		moved += i != j;
	}
	return moved;
}

/*
 * Why no one copy of header bytes (or it and its swap) keys all of @t's
 * accesses, in terms an operator can act on.
 */
static const char *unkeyed_why(const struct nicprog_ir *ir, u32 t, u32 ks)
{
	const struct nicprog_ir_keyuse *ku;
	bool konst = false, pkt = false;
	u32 k;

	if (ks > NICPROG_KEY_MAX)
		return "its key is longer than a shard key may be";
	for (k = 0; k < ir->n_keys; k++) {
		ku = &ir->keys[k];
		if (ku->table != t)
			continue;
		if (!ku->pure && !ku->konst)
			return "a key is not a copy of header bytes at fixed offsets";
		konst |= ku->konst;
		pkt |= !ku->konst;
	}
	if (konst && pkt)
		return "keyed by constants on some accesses, by header bytes on others";
	if (konst)
		return "keyed by constants: every frame may reach the same element";
	if (pkt)
		return "its accesses copy different header bytes into their keys";
	return "not every access is keyed by the same header bytes";
}

/*
 * Is @ku keyed by @first's bytes, or by them swapped (*@rev, the first
 * such access, found here)? No third pattern is.
 */
static bool keyed_as(const struct nicprog_ir_keyuse *ku,
		     const struct nicprog_ir_keyuse *first,
		     const struct nicprog_ir_keyuse **rev, u32 ks)
{
	size_t n = ks * sizeof(ku->pkt[0]);

	if (!memcmp(first->pkt, ku->pkt, n))
		return true;
	if (*rev)
		return !memcmp((*rev)->pkt, ku->pkt, n);
	if (!key_swapped(first->pkt, ku->pkt, ks))
		return false;
	*rev = ku;
	return true;
}

/**
 * nicprog_classify() - decide each table's class
 * @ir: the program
 * @info: per table, filled (class, key, reason, accesses per packet)
 *
 * Context: any.
 */
void nicprog_classify(const struct nicprog_ir *ir,
		      struct nicprog_table_info *info)
{
	const struct nicprog_ir_input *in = ir->in;
	const struct nicprog_ir_keyuse *ku, *first, *rev;
	bool sub_writes = subs_write_packet(ir), ambiguous = false;
	bool used[NICPROG_MAX_TABLES] = { 0 }, wr[NICPROG_MAX_TABLES] = { 0 };
	bool in_sub[NICPROG_MAX_TABLES] = { 0 };
	bool not_counter[NICPROG_MAX_TABLES] = { 0 };
	const struct nicprog_insn_meta *m;
	u32 i, t, k, ks;
	bool keyed, intact, lookups_only;

	for (t = 0; t < in->n_tables; t++)
		memset(&info[t], 0, sizeof(info[t]));
	for (i = 0; i < in->len; i++) {
		m = &in->meta[i];
		if (!accesses(&in->insns[i], m))
			continue;
		if (m->map >= in->n_tables) {
			ambiguous |= writes(&in->insns[i], m);
			continue;
		}
		used[m->map] = true;
		wr[m->map] |= writes(&in->insns[i], m);
		not_counter[m->map] |= reads_or_sets(&in->insns[i], m);
		if (ir->blocks[ir->insn_block[i]].sub)
			in_sub[m->map] = true;
		else
			info[m->map].acc_fx += ir->blocks[ir->insn_block[i]].freq;
	}

	for (t = 0; t < in->n_tables; t++) {
		struct nicprog_table_info *ti = &info[t];

		ks = in->tables[t].key_size;
		if (!used[t]) {
			ti->cls = NICPROG_TC_UNUSED;
			ti->why = "the datapath never accesses it";
			continue;
		}
		if (ambiguous) {
			ti->cls = NICPROG_TC_SHARED;
			ti->why = "a write the verifier could not pin to one table";
			continue;
		}
		/*
		 * every helper access keyed by the same copy of header bytes,
		 * or by it and it swapped
		 */
		first = NULL;
		rev = NULL;
		keyed = !in_sub[t] && ks <= NICPROG_KEY_MAX;
		intact = true;
		lookups_only = true;
		for (k = 0; k < ir->n_keys && keyed; k++) {
			ku = &ir->keys[k];
			if (ku->table != t)
				continue;
			if (!ku->pure || (first && !keyed_as(ku, first, &rev, ks))) {
				keyed = false;
				break;
			}
			first = first ? first : ku;
			intact &= key_bytes_intact(ir, ku, ks, sub_writes);
			lookups_only &= ku->helper == BPF_FUNC_map_lookup_elem;
		}
		keyed &= !!first;
		if (keyed) {
			ti->key_len = ks;
			memcpy(ti->key_pkt, first->pkt, ks * sizeof(first->pkt[0]));
			ti->sym = !!rev;
			if (rev)
				memcpy(ti->key_sym, rev->pkt,
				       ks * sizeof(rev->pkt[0]));
		}
		if (!wr[t]) {
			ti->cls = NICPROG_TC_READONLY;
			ti->why = "the datapath only reads it";
			ti->mat = keyed && !rev && intact && lookups_only;
			continue;
		}
		if (!not_counter[t]) {
			ti->cls = NICPROG_TC_COUNTER;
			ti->why = "the datapath only adds to its values atomically";
			continue;
		}
		ti->cls = NICPROG_TC_SHARED;
		if (in_sub[t])
			ti->why = "a subprogram accesses it";
		else if (in->tables[t].type == BPF_MAP_TYPE_LPM_TRIE)
			ti->why = "a longest-prefix match reaches one element from many keys";
		else if (!keyed)
			ti->why = unkeyed_why(ir, t, ks);
		else if (!intact)
			ti->why = "its key bytes may change before an access";
		else
			ti->why = NULL;
		if (ti->why)
			continue;
		ti->cls = NICPROG_TC_SHARDED;
		ti->why = rev ? TC_WHY_SYMMETRIC :
			  "every access is keyed by the same header bytes";
	}
}
