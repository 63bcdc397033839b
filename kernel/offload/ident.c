// SPDX-License-Identifier: GPL-2.0
/*
 * Algorithm identification (after Clara): code an NF author wrote in plain
 * BPF that a NIC has a better unit for.
 *
 * A longest-prefix match written as one hash probe per prefix length (a
 * loop whose only effect is to fill a {prefix length, address} key and
 * look it up in a read-only hash table until one hits) is recognised from
 * the verifier's facts, and the plan has a MAT stage serve the whole loop
 * as one LPM lookup. The loop's instructions still compute its result, so
 * the result cannot differ; what changes is who pays: one MAT lookup
 * instead of up to 33 probes on a core.
 *
 * A checksum or CRC written in plain BPF is recognised when it is a
 * global function of the accelerator functions' shape,
 * f(ctx, u64 off, u64 len, u32 seed), that only reads the frame and its
 * own stack, and it agrees with an engine function -- up to inverted seed
 * and result and a constant error result -- on a fixed battery of inputs:
 * every length from 0 to 24, longer ones up to 1500 bytes, random bytes
 * and seeds, regions past the frame and offsets and lengths whose low 32
 * bits alone would be in it. Calls to it then become engine
 * jobs, exactly as calls to bpf/nicprog.h's accelerator functions do. The
 * battery runs the function in the executor; the verifier proved a global
 * function safe for any scalar arguments, so any battery input is safe.
 */
#include "offload.h"

#define IDENT_FRAME	4096
#define IDENT_HEAD	256	/* headroom, as XDP_PACKET_HEADROOM */
#define IDENT_STEPS	0x800000U	/* battery budget, instructions, 2^23 */
#define IDENT_CASES	36

static const u16 ident_long[] = { 31, 64, 255, 256, 1000, 1500 };

/* The engine functions a plain-BPF function may be, and their variants. */
static const u8 ident_afns[] = { NICPROG_AFN_CSUM, NICPROG_AFN_CRC32C };
static const u8 ident_errs[] = {
	0, NICPROG_EXEC_ACCEL_ERR_ZERO, NICPROG_EXEC_ACCEL_ERR_U32,
};

#define IDENT_VARIANTS	(ARRAY_SIZE(ident_afns) * 4 * ARRAY_SIZE(ident_errs))

static u8 ident_variant(u32 v)
{
	u32 n_err = ARRAY_SIZE(ident_errs);

	return ident_afns[v / (4 * n_err)] |
	       ((v / n_err) % 4) * NICPROG_EXEC_ACCEL_SEED_INV |
	       ident_errs[v % n_err];
}

/* CRC32C, reflected, polynomial 0x82f63b78, no inversions: crc32c_le(). */
static u32 ident_crc32c(u32 crc, const u8 *p, u32 len)
{
	u32 i, k;

	for (i = 0; i < len; i++) {
		crc ^= p[i];
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0x82f63b78 & (0 - (crc & 1)));
	}
	return crc;
}

/* The engine's result for a region of the frame, as nicsim computes it. */
static u64 ident_engine(u8 afn, const u8 *frame, u32 frame_len, u64 off,
			u64 len, u32 seed)
{
	if (off > NICPROG_AFN_LEN_MAX || len > NICPROG_AFN_LEN_MAX || off + len > frame_len)
		return NICPROG_EXEC_ACCEL_ERR;
	if (afn == NICPROG_AFN_CSUM)
		return nicprog_csum_ref(frame + off, len, seed);
	return ident_crc32c(seed, frame + off, len);
}

static u64 ident_rand(u64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Instructions a plain-BPF engine function may hold: no calls, no writes. */
static bool ident_fn_shape(const struct nicprog_exec_prog *exec,
			   const struct nicprog_insn_meta *meta, u32 entry,
			   u32 end, const char **why)
{
	const struct bpf_insn *insn;
	u32 i;
	u8 cls;

	for (i = entry; i < end; i++) {
		insn = &exec->insns[i];
		cls = BPF_CLASS(insn->code);
		if (cls == BPF_JMP && BPF_OP(insn->code) == BPF_CALL) {
			*why = "it calls";
			return false;
		}
		if (cls == BPF_LD && insn->src_reg) {
			*why = "it loads a table";
			return false;
		}
		if ((cls == BPF_ST || cls == BPF_STX) &&
		    (meta[i].ptr != NICPROG_PTR_STACK ||
		     BPF_MODE(insn->code) == BPF_ATOMIC)) {
			*why = "it writes memory other than its stack";
			return false;
		}
		if (cls == BPF_LDX && meta[i].ptr != NICPROG_PTR_STACK &&
		    meta[i].ptr != NICPROG_PTR_PACKET &&
		    meta[i].ptr != NICPROG_PTR_CTX) {
			*why = "it reads memory other than the frame";
			return false;
		}
	}
	return true;
}

/* One battery input: a frame and the call's arguments. */
static void ident_case(u32 c, u64 *rng, u8 *frame, u32 *frame_len,
		       u64 *off, u64 *len, u64 *seed)
{
	u32 i;

	*off = ident_rand(rng) % 64;
	*len = c < 25 ? c : ident_long[(c - 25) % ARRAY_SIZE(ident_long)];
	*frame_len = *off + *len + ident_rand(rng) % 9;
	*seed = ident_rand(rng);
	switch (c) {
	case IDENT_CASES - 5:		/* one byte past the frame */
		*frame_len = *off + *len - 1;
		break;
	case IDENT_CASES - 4:		/* longer than any engine job */
		*len = NICPROG_AFN_LEN_MAX + 1 + ident_rand(rng) % 100;
		*frame_len = 100;
		break;
	case IDENT_CASES - 3:		/* beyond any frame */
		*off = NICPROG_AFN_LEN_MAX + 1000;
		*len = 4;
		*frame_len = 200;
		break;
	case IDENT_CASES - 2:		/* 64-bit offsets, not 32-bit */
		*off = (1ULL << 32) | 8;
		*len = 8;
		*frame_len = 64;
		break;
	case IDENT_CASES - 1:		/* 64-bit lengths, not 32-bit */
		*off = 8;
		*len = (1ULL << 32) | 4;
		*frame_len = 64;
		break;
	}
	for (i = 0; i < *frame_len; i++)
		frame[i] = ident_rand(rng);
}

/**
 * nicprog_ident_fn() - identify a plain-BPF checksum or CRC function
 * @exec: the program, as the executor runs it
 * @meta: the verifier's facts, per instruction
 * @entry: first instruction of the function, a global function of the
 *	shape f(ctx, u64 off, u64 len, u32 seed) (the caller checked its BTF)
 * @end: one past its last instruction
 * @accel: set to the call's struct nicprog_exec_prog.accel on success
 * @why: set to why not, on failure
 *
 * Context: process; allocates. Runs the function up to IDENT_STEPS
 * instructions in all.
 * Return: true if the function is an engine function.
 */
bool nicprog_ident_fn(const struct nicprog_exec_prog *exec,
		      const struct nicprog_insn_meta *meta, u32 entry, u32 end,
		      u8 *accel, const char **why)
{
	static const struct nicprog_exec_ops no_ops;
	struct nicprog_exec_prog prog = *exec;
	u64 alive = BIT_ULL(IDENT_VARIANTS) - 1, rng = 0x6e70696465ULL;
	u64 off, len, seed, raw[ARRAY_SIZE(ident_afns)][2], steps = 0;
	struct nicprog_exec_result res;
	struct nicprog_exec_state *st;
	struct nicprog_exec_pkt pkt;
	u32 c, v, a, frame_len;
	u8 *buf, var;

	if (!ident_fn_shape(exec, meta, entry, end, why))
		return false;
	prog.stage = NULL;
	prog.accel = NULL;
	prog.cycles = NULL;
	st = kvcalloc(1, sizeof(*st), GFP_KERNEL);
	buf = kvcalloc(1, IDENT_HEAD + IDENT_FRAME, GFP_KERNEL);
	*why = "out of memory";
	if (!st || !buf) {
		alive = 0;
		goto out;
	}
	*why = "it matches no engine function";
	for (c = 0; c < IDENT_CASES && alive; c++) {
		ident_case(c, &rng, buf + IDENT_HEAD, &frame_len, &off, &len,
			   &seed);
		pkt = (struct nicprog_exec_pkt){
			.buf = buf, .buf_len = IDENT_HEAD + IDENT_FRAME,
			.data_meta = IDENT_HEAD, .data = IDENT_HEAD,
			.data_end = IDENT_HEAD + frame_len,
		};
		for (a = 0; a < ARRAY_SIZE(ident_afns); a++) {
			raw[a][0] = ident_engine(ident_afns[a], buf + IDENT_HEAD,
						 frame_len, off, len, seed);
			raw[a][1] = ident_engine(ident_afns[a], buf + IDENT_HEAD,
						 frame_len, off, len, ~seed);
		}
		nicprog_exec_start(&st->ctx, &pkt);
		st->ctx.pc = entry;
		st->ctx.regs[BPF_REG_2] = off;
		st->ctx.regs[BPF_REG_3] = len;
		st->ctx.regs[BPF_REG_4] = seed;
		nicprog_exec_resume(&prog, &no_ops, NULL, st, &pkt, &st->ctx,
				    &res);
		steps += res.insns;
		if (res.error || steps > IDENT_STEPS) {
			*why = res.error ? "the executor stopped it" :
					   "it is too slow to identify";
			alive = 0;
			break;
		}
		for (v = 0; v < IDENT_VARIANTS; v++) {
			var = ident_variant(v);
			a = v / (IDENT_VARIANTS / ARRAY_SIZE(ident_afns));
			if (nicprog_exec_accel_ret(var, raw[a][!!(var &
					NICPROG_EXEC_ACCEL_SEED_INV)]) != res.ret)
				alive &= ~BIT_ULL(v);
		}
	}
	if (alive & (alive - 1)) {
		*why = "it matches more than one engine function";
		alive = 0;
	} else if (alive) {
		for (v = 0; !(alive & BIT_ULL(v)); v++)
			;
		*accel = ident_variant(v);
	}
out:
	kvfree(buf);
	kvfree(st);
	return alive;
}

/* The register that holds the lookup's result, tested against NULL. */
static bool ident_lpm_hit_exit(const struct nicprog_ir *ir, u32 call, u32 node)
{
	const struct bpf_insn *insn;
	u16 regs = BIT(BPF_REG_0);
	u32 i, out;

	for (i = call + 1; i < ir->in->len && i < call + 4; i++) {
		insn = &ir->in->insns[i];
		if (insn->code == (BPF_ALU64 | BPF_MOV | BPF_X) &&
		    (regs & BIT(insn->src_reg))) {
			regs |= BIT(insn->dst_reg);
			continue;
		}
		if (BPF_CLASS(insn->code) != BPF_JMP || BPF_SRC(insn->code) ||
		    insn->imm || !(regs & BIT(insn->dst_reg)))
			return false;
		if (BPF_OP(insn->code) == BPF_JEQ)
			out = i + 1;		/* a hit goes on in order */
		else if (BPF_OP(insn->code) == BPF_JNE)
			out = i + 1 + insn->off;
		else
			return false;
		return out < ir->in->len &&
		       ir->blocks[ir->insn_block[out]].node != node;
	}
	return false;
}

/*
 * Is DAG node @n a loop of hash probes for a longest-prefix match? Its
 * instructions may compute, read the frame and the stack, store to the
 * key only, and make one call: a lookup in a read-only hash table whose
 * key is {u32 prefix length, address} and whose hit leaves the loop.
 */
static bool ident_lpm_node(const struct nicprog_ir *ir,
			   const struct nicprog_layout *lo, u32 n)
{
	const struct nicprog_insn_meta *m;
	const struct nicprog_ir_table *t;
	const struct bpf_insn *insn;
	u32 k, i, call = U32_MAX, size;
	bool plen = false;
	s32 key = 0;
	u8 cls;

	if (!(ir->blocks[ir->node_entry[n]].flags & NICPROG_BLK_LOOP))
		return false;
	for (k = ir->node_off[n]; k < ir->node_off[n + 1]; k++) {
		const struct nicprog_ir_block *b = &ir->blocks[ir->node_blk[k]];

		for (i = b->start; i < b->end; i++) {
			insn = &ir->in->insns[i];
			if (insn->code != (BPF_JMP | BPF_CALL))
				continue;
			m = &ir->in->meta[i];
			if (insn->src_reg || call != U32_MAX ||
			    m->helper != BPF_FUNC_map_lookup_elem ||
			    m->map >= lo->n_tables ||
			    (m->flags & (NICPROG_META_KEY | NICPROG_META_KEY_VAR)) !=
			    NICPROG_META_KEY)
				return false;
			call = i;
		}
	}
	if (call == U32_MAX)
		return false;
	m = &ir->in->meta[call];
	t = &ir->in->tables[m->map];
	if (t->type != BPF_MAP_TYPE_HASH || t->key_size < 5 ||
	    t->key_size > 4 + 16 || lo->tables[m->map].cls != NICPROG_TC_READONLY ||
	    !ident_lpm_hit_exit(ir, call, n))
		return false;
	key = m->key_off;
	for (k = ir->node_off[n]; k < ir->node_off[n + 1]; k++) {
		const struct nicprog_ir_block *b = &ir->blocks[ir->node_blk[k]];

		for (i = b->start; i < b->end; i++) {
			insn = &ir->in->insns[i];
			m = &ir->in->meta[i];
			cls = BPF_CLASS(insn->code);
			if (cls == BPF_LDX && m->ptr != NICPROG_PTR_STACK &&
			    m->ptr != NICPROG_PTR_PACKET)
				return false;
			if (cls != BPF_ST && cls != BPF_STX)
				continue;
			size = nicprog_insn_bytes(insn->code);
			if (m->ptr != NICPROG_PTR_STACK ||
			    BPF_MODE(insn->code) == BPF_ATOMIC ||
			    (m->flags & (NICPROG_META_STACK |
					 NICPROG_META_STACK_VAR)) !=
			    NICPROG_META_STACK ||
			    m->stack_off < key ||
			    m->stack_off + size > key + t->key_size)
				return false;
			plen |= m->stack_off == key && size == 4;
		}
	}
	return plen;
}

/**
 * nicprog_ident_lpm() - find longest-prefix matches a MAT stage can serve
 * @ir: the program
 * @lo: the layout: tables classified, MAT stages known; marks every
 *	instruction of such a loop 2 in @lo->insn_mat
 *
 * Return: loops found.
 */
u32 nicprog_ident_lpm(const struct nicprog_ir *ir, struct nicprog_layout *lo)
{
	u32 n, k, i, found = 0;

	if (!lo->mat_units)
		return 0;
	for (n = 0; n < ir->n_nodes; n++) {
		if (!ident_lpm_node(ir, lo, n))
			continue;
		found++;
		for (k = ir->node_off[n]; k < ir->node_off[n + 1]; k++)
			for (i = ir->blocks[ir->node_blk[k]].start;
			     i < ir->blocks[ir->node_blk[k]].end; i++)
				lo->insn_mat[i] = NICPROG_MAT_REGION;
	}
	return found;
}
