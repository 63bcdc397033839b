// SPDX-License-Identifier: GPL-2.0
/*
 * The offloader's IR: basic blocks of every subprogram, the main program's
 * blocks condensed into a DAG of strongly connected components (bounded
 * loops stay whole), and per block what the later passes weigh: instruction
 * classes, packet bytes, tables, live registers and stack slots, expected
 * frequency. A forward pass over the DAG tracks, per byte of registers and
 * stack, which packet byte or constant it holds, so that each map helper's
 * key is known when it is a copy of header bytes (shard and MAT keys).
 */
#include "offload.h"

#define MAX_ANC_NODES	2048	/* ancestor bitmaps: 512 KiB at most */

static bool is_exit(const struct bpf_insn *insn)
{
	return insn->code == (BPF_JMP | BPF_EXIT);
}

static bool is_pseudo_call(const struct bpf_insn *insn)
{
	return insn->code == (BPF_JMP | BPF_CALL) &&
	       insn->src_reg == BPF_PSEUDO_CALL;
}

static bool is_helper(const struct bpf_insn *insn)
{
	return insn->code == (BPF_JMP | BPF_CALL) && !insn->src_reg;
}

static u32 insn_width(const struct bpf_insn *insn)
{
	return insn->code == (BPF_LD | BPF_IMM | BPF_DW) ? 2 : 1;
}

/* Arguments a helper reads: registers R1.. */
static u32 helper_args(s32 id)
{
	switch (id) {
	case BPF_FUNC_ktime_get_ns:
	case BPF_FUNC_get_prandom_u32:
		return 0;
	case BPF_FUNC_xdp_get_buff_len:
		return 1;
	case BPF_FUNC_map_update_elem:
	case BPF_FUNC_fib_lookup:
	case BPF_FUNC_xdp_load_bytes:
	case BPF_FUNC_xdp_store_bytes:
	case BPF_FUNC_trace_vprintk:
		return 4;
	case BPF_FUNC_csum_diff:
	case BPF_FUNC_check_mtu:
	case BPF_FUNC_perf_event_output:
	case BPF_FUNC_trace_printk:	/* as many as its format reads */
		return 5;
	default:
		return 2;
	}
}

static int ir_subprogs(struct nicprog_ir *ir, const char **why)
{
	const struct nicprog_ir_input *in = ir->in;
	u32 i, j, k, t;

	ir->n_subs = 1;
	ir->sub_start[0] = 0;
	for (i = 0; i < in->len; i += insn_width(&in->insns[i])) {
		if (!is_pseudo_call(&in->insns[i]))
			continue;
		t = i + 1 + in->insns[i].imm;
		for (j = 0; j < ir->n_subs && ir->sub_start[j] != t; j++)
			;
		if (j < ir->n_subs)
			continue;
		if (ir->n_subs == NICPROG_MAX_SUBPROGS) {
			*why = "too many subprograms";
			return -E2BIG;
		}
		/* insertion sort: few subprograms */
		for (k = ir->n_subs++; k > 0 && ir->sub_start[k - 1] > t; k--)
			ir->sub_start[k] = ir->sub_start[k - 1];
		ir->sub_start[k] = t;
	}
	return 0;
}

static u32 sub_of(const struct nicprog_ir *ir, u32 insn)
{
	u32 s = 0;

	while (s + 1 < ir->n_subs && ir->sub_start[s + 1] <= insn)
		s++;
	return s;
}

static u32 sub_end(const struct nicprog_ir *ir, u32 s)
{
	return s + 1 < ir->n_subs ? ir->sub_start[s + 1] : ir->in->len;
}

/* Split the program into blocks; fill insn_block and successors. */
static int ir_blocks(struct nicprog_ir *ir, const char **why)
{
	const struct nicprog_ir_input *in = ir->in;
	const struct bpf_insn *insn;
	struct nicprog_ir_block *b;
	u8 *leader;
	u32 i, n = 0, s, last, t, fall;

	leader = kvcalloc(in->len + 1, 1, GFP_KERNEL);
	if (!leader)
		return -ENOMEM;
	for (s = 0; s < ir->n_subs; s++)
		leader[ir->sub_start[s]] = 1;
	for (i = 0; i < in->len; i += insn_width(insn)) {
		insn = &in->insns[i];
		if (nicprog_insn_is_jump(insn)) {
			t = i + 1 + insn->off;
			if (t >= in->len || sub_of(ir, t) != sub_of(ir, i)) {
				kvfree(leader);
				*why = "jump leaves its subprogram";
				return -EINVAL;
			}
			leader[t] = 1;
			leader[i + 1] = 1;
		} else if (is_exit(insn)) {
			leader[i + 1] = 1;
		}
	}
	for (i = 0; i < in->len; i++)
		n += leader[i];
	ir->blocks = kvcalloc(n, sizeof(*ir->blocks), GFP_KERNEL);
	ir->insn_block = kvcalloc(in->len, sizeof(*ir->insn_block),
				  GFP_KERNEL);
	if (!ir->blocks || !ir->insn_block) {
		kvfree(leader);
		return -ENOMEM;
	}
	n = 0;
	for (i = 0; i < in->len; i++) {
		if (leader[i]) {
			if (n)
				ir->blocks[n - 1].end = i;
			ir->blocks[n].start = i;
			ir->blocks[n].sub = sub_of(ir, i);
			n++;
		}
		ir->insn_block[i] = n - 1;
	}
	ir->blocks[n - 1].end = in->len;
	ir->n_blocks = n;
	kvfree(leader);

	for (i = 0; i < n; i++) {
		b = &ir->blocks[i];
		if (b->sub == 0)
			ir->n_main = i + 1;
		last = b->end - 1;
		if (last > b->start &&
		    in->insns[last - 1].code == (BPF_LD | BPF_IMM | BPF_DW))
			last--;
		insn = &in->insns[last];
		fall = last + insn_width(insn);
		if (is_exit(insn))
			continue;
		if (nicprog_insn_is_jump(insn)) {
			t = last + 1 + insn->off;
			b->succ[b->n_succ++] = ir->insn_block[t];
			if (BPF_OP(insn->code) == BPF_JA)
				continue;
		}
		if (fall >= sub_end(ir, b->sub)) {
			*why = "control falls off the end of a subprogram";
			return -EINVAL;
		}
		if (!b->n_succ || b->succ[0] != ir->insn_block[fall])
			b->succ[b->n_succ++] = ir->insn_block[fall];
	}
	return 0;
}

static void range_add(s32 *lo, s32 *hi, s32 a, s32 b)
{
	if (a >= b)
		return;
	if (*lo == *hi) {
		*lo = a;
		*hi = b;
		return;
	}
	*lo = min(*lo, a);
	*hi = max(*hi, b);
}

/* Per block: classes, packet bytes, tables. */
static void ir_block_facts(struct nicprog_ir *ir)
{
	const struct nicprog_ir_input *in = ir->in;
	const struct nicprog_insn_meta *m;
	const struct bpf_insn *insn;
	struct nicprog_ir_block *b;
	u32 i, j;
	u8 cls;

	for (j = 0; j < ir->n_blocks; j++) {
		b = &ir->blocks[j];
		for (i = b->start; i < b->end; i += insn_width(insn)) {
			insn = &in->insns[i];
			m = &in->meta[i];
			cls = BPF_CLASS(insn->code);
			b->ic[nicprog_insn_class(insn->code)]++;
			if (m->ptr == NICPROG_PTR_PACKET && m->pkt_hi) {
				if (cls == BPF_LDX)
					range_add(&b->pkt_rd_lo, &b->pkt_rd_hi,
						  m->pkt_lo, m->pkt_hi);
				else
					range_add(&b->pkt_wr_lo, &b->pkt_wr_hi,
						  m->pkt_lo, m->pkt_hi);
			}
			if (m->map < NICPROG_MAX_TABLES) {
				bool wr = cls == BPF_ST || cls == BPF_STX ||
					  m->helper == BPF_FUNC_map_update_elem ||
					  m->helper == BPF_FUNC_map_delete_elem;

				if (is_helper(insn) || m->ptr == NICPROG_PTR_MAP_VALUE) {
					if (wr)
						b->tbl_wr |= BIT_ULL(m->map);
					else
						b->tbl_rd |= BIT_ULL(m->map);
				}
			}
			/* the frame may change anywhere: no key bytes hold */
			if (is_helper(insn) &&
			    (m->helper == BPF_FUNC_xdp_adjust_head ||
			     m->helper == BPF_FUNC_xdp_store_bytes))
				b->flags |= NICPROG_BLK_ADJ_HEAD;
		}
	}
}

/*
 * Tarjan's algorithm, iteratively, over the main program's blocks. SCCs
 * complete in reverse topological order; numbering them from the end gives
 * a topological order of the DAG.
 */
static int ir_components(struct nicprog_ir *ir)
{
	u32 n = ir->n_main, *idx, *low, *stk, *cs, *ci, sp = 0, csp = 0;
	u32 next = 0, comp = 0, v, w, i, root;
	u8 *on;
	int err = -ENOMEM;

	idx = kvcalloc(n, sizeof(u32), GFP_KERNEL);
	low = kvcalloc(n, sizeof(u32), GFP_KERNEL);
	stk = kvcalloc(n, sizeof(u32), GFP_KERNEL);
	cs = kvcalloc(n, sizeof(u32), GFP_KERNEL);
	ci = kvcalloc(n, sizeof(u32), GFP_KERNEL);
	on = kvcalloc(n, 1, GFP_KERNEL);
	if (!idx || !low || !stk || !cs || !ci || !on)
		goto out;
	for (i = 0; i < n; i++)
		idx[i] = U32_MAX;
	for (root = 0; root < n; root++) {
		if (idx[root] != U32_MAX)
			continue;
		cs[csp] = root;
		ci[csp++] = 0;
		idx[root] = next;
		low[root] = next++;
		stk[sp++] = root;
		on[root] = 1;
		while (csp) {
			v = cs[csp - 1];
			if (ci[csp - 1] < ir->blocks[v].n_succ) {
				w = ir->blocks[v].succ[ci[csp - 1]++];
				if (idx[w] == U32_MAX) {
					idx[w] = next;
					low[w] = next++;
					stk[sp++] = w;
					on[w] = 1;
					cs[csp] = w;
					ci[csp++] = 0;
				} else if (on[w]) {
					low[v] = min(low[v], idx[w]);
				}
				continue;
			}
			csp--;
			if (csp)
				low[cs[csp - 1]] = min(low[cs[csp - 1]], low[v]);
			if (low[v] != idx[v])
				continue;
			do {
				w = stk[--sp];
				on[w] = 0;
				ir->blocks[w].node = comp;
			} while (w != v);
			comp++;
		}
	}
	ir->n_nodes = comp;
	for (i = 0; i < n; i++)
		ir->blocks[i].node = comp - 1 - ir->blocks[i].node;
	err = 0;
out:
	kvfree(idx);
	kvfree(low);
	kvfree(stk);
	kvfree(cs);
	kvfree(ci);
	kvfree(on);
	return err;
}

/*
 * Early exits: a short block without calls that ends the program (or
 * leads only to such a block), as a failed bounds or header check does.
 */
static void ir_exits(struct nicprog_ir *ir)
{
	struct nicprog_ir_block *b;
	u32 i, k;

	for (i = ir->n_blocks; i-- > 0;) {
		b = &ir->blocks[i];
		if (b->end - b->start > 6 || b->ic[NICPROG_IC_CALL] ||
		    b->n_succ > 1)
			continue;
		if (b->n_succ == 1 && (b->succ[0] <= i ||
				       !(ir->blocks[b->succ[0]].flags &
					 NICPROG_BLK_EXIT)))
			continue;
		for (k = b->start; k < b->end; k++)
			if (ir->in->meta[k].ptr == NICPROG_PTR_MAP_VALUE)
				break;
		if (k == b->end)
			b->flags |= NICPROG_BLK_EXIT;
	}
}

/*
 * Eighths of a block's runs that take its successor @j, without a profile:
 * a two-way branch to an early exit takes it one time in eight (the error
 * paths of parsing are rare), otherwise branches split evenly.
 */
static u32 succ_share(const struct nicprog_ir *ir,
		      const struct nicprog_ir_block *b, u32 j)
{
	bool x0, x1;

	if (b->n_succ != 2)
		return 8;
	x0 = ir->blocks[b->succ[0]].flags & NICPROG_BLK_EXIT;
	x1 = ir->blocks[b->succ[1]].flags & NICPROG_BLK_EXIT;
	if (x0 == x1)
		return 4;
	return (j == 0) == x0 ? 1 : 7;
}

/* Node entries, the blocks of every node, loop flags. */
static int ir_nodes(struct nicprog_ir *ir)
{
	u32 i, j, *fill, n = ir->n_nodes;
	struct nicprog_ir_block *b;

	ir->node_entry = kvcalloc(n, sizeof(u32), GFP_KERNEL);
	ir->node_off = kvcalloc(n + 1, sizeof(u32), GFP_KERNEL);
	ir->node_blk = kvcalloc(ir->n_main, sizeof(u32), GFP_KERNEL);
	fill = kvcalloc(n, sizeof(u32), GFP_KERNEL);
	if (!ir->node_entry || !ir->node_off || !ir->node_blk || !fill) {
		kvfree(fill);
		return -ENOMEM;
	}
	for (i = ir->n_main; i-- > 0;) {
		ir->node_entry[ir->blocks[i].node] = i;
		ir->node_off[ir->blocks[i].node + 1]++;
	}
	for (i = 0; i < n; i++)
		ir->node_off[i + 1] += ir->node_off[i];
	for (i = 0; i < ir->n_main; i++) {
		b = &ir->blocks[i];
		ir->node_blk[ir->node_off[b->node] + fill[b->node]++] = i;
		if (ir->node_off[b->node + 1] - ir->node_off[b->node] > 1)
			b->flags |= NICPROG_BLK_LOOP;
		for (j = 0; j < b->n_succ; j++)
			if (b->succ[j] == i)
				b->flags |= NICPROG_BLK_LOOP;
	}
	kvfree(fill);
	return 0;
}

/* Edges between nodes, each node's incoming edges, ancestors. */
static int ir_dag(struct nicprog_ir *ir)
{
	struct nicprog_ir_block *b, *c;
	u32 i, j, k, t, n = 0, nw, *fill;

	for (i = 0; i < ir->n_main; i++) {
		b = &ir->blocks[i];
		for (j = 0; j < b->n_succ; j++)
			n += ir->blocks[b->succ[j]].node != b->node;
	}
	ir->edges = kvcalloc(n ? n : 1, sizeof(*ir->edges), GFP_KERNEL);
	ir->in_off = kvcalloc(ir->n_nodes + 1, sizeof(u32), GFP_KERNEL);
	ir->in_edge = kvcalloc(n ? n : 1, sizeof(u32), GFP_KERNEL);
	fill = kvcalloc(ir->n_nodes, sizeof(u32), GFP_KERNEL);
	if (!ir->edges || !ir->in_off || !ir->in_edge || !fill) {
		kvfree(fill);
		return -ENOMEM;
	}
	for (i = 0; i < ir->n_main; i++) {
		b = &ir->blocks[i];
		for (j = 0; j < b->n_succ; j++) {
			c = &ir->blocks[b->succ[j]];
			if (c->node == b->node)
				continue;
			ir->edges[ir->n_edges++] = (struct nicprog_ir_edge){
				.from = b->node, .to = c->node,
				.bytes = 8 * (hweight16(c->live_regs) +
					      hweight64(c->live_stack)),
				.unsafe = !!(c->flags & NICPROG_BLK_UNSAFE_IN),
				.freq = b->flags & NICPROG_BLK_LOOP ?
					b->freq / b->trips / b->n_succ :
					(u64)b->freq * succ_share(ir, b, j) / 8,
			};
			ir->in_off[c->node + 1]++;
		}
	}
	for (i = 0; i < ir->n_nodes; i++)
		ir->in_off[i + 1] += ir->in_off[i];
	for (i = 0; i < ir->n_edges; i++) {
		t = ir->edges[i].to;
		ir->in_edge[ir->in_off[t] + fill[t]++] = i;
	}
	kvfree(fill);

	if (ir->n_nodes > MAX_ANC_NODES)
		return 0;
	nw = (ir->n_nodes + 63) / 64;
	ir->anc = kvcalloc((size_t)ir->n_nodes * nw, sizeof(u64), GFP_KERNEL);
	if (!ir->anc)
		return -ENOMEM;
	ir->anc_words = nw;
	/* edges go forward in node order: predecessors are complete */
	for (t = 0; t < ir->n_nodes; t++) {
		ir->anc[(u64)t * nw + t / 64] |= BIT_ULL(t % 64);
		for (j = ir->in_off[t]; j < ir->in_off[t + 1]; j++) {
			i = ir->edges[ir->in_edge[j]].from;
			for (k = 0; k < nw; k++)
				ir->anc[(u64)t * nw + k] |=
					ir->anc[(u64)i * nw + k];
		}
	}
	return 0;
}

/*
 * Expected runs per packet: the entry runs once, a branch splits as
 * succ_share() says, a loop's blocks run as many times as the verifier
 * says it iterates (NICPROG_MAX_TRIPS at most).
 */
static void ir_freq(struct nicprog_ir *ir)
{
	u64 *nf, *nv;
	u32 i, j, k, s, first, last;
	struct nicprog_ir_block *b;

	for (s = 0; s < ir->n_subs; s++) {
		first = ir->insn_block[ir->sub_start[s]];
		last = s + 1 < ir->n_subs ?
		       ir->insn_block[ir->sub_start[s + 1]] : ir->n_blocks;
		/* blocks of a subprogram: instruction order is close to topo */
		ir->blocks[first].freq = NICPROG_FX;
		for (i = first + 1; i < last; i++)
			ir->blocks[i].freq = 0;
		for (i = first; i < last; i++)
			ir->blocks[i].trips = 1;
		if (s == 0)
			continue;
		for (i = first; i < last; i++) {
			b = &ir->blocks[i];
			for (j = 0; j < b->n_succ; j++)
				if (b->succ[j] > i)
					ir->blocks[b->succ[j]].freq +=
						(u64)b->freq *
						succ_share(ir, b, j) / 8;
		}
		for (i = first; i < last; i++)
			ir->blocks[i].freq = min_t(u32, ir->blocks[i].freq,
						   NICPROG_FX);
	}

	/*
	 * Main program: over the DAG in topological order. A loop's blocks
	 * run as often as the verifier reached the loop's first instruction
	 * per visit of the blocks entering it: it walks a bounded loop's
	 * iterations one by one, so that bounds the iterations.
	 */
	nf = kvcalloc(2 * (size_t)ir->n_nodes, sizeof(u64), GFP_KERNEL);
	if (!nf)
		return;
	nv = nf + ir->n_nodes;	/* verifier visits of the entering blocks */
	nf[0] = NICPROG_FX;
	for (s = 0; s < ir->n_nodes; s++) {
		u32 outs = 0;
		u64 trips = 1, head;

		nf[s] = min_t(u64, nf[s], NICPROG_FX);
		head = ir->in->meta[ir->blocks[ir->node_entry[s]].start].visits;
		if ((ir->blocks[ir->node_entry[s]].flags & NICPROG_BLK_LOOP) &&
		    head)
			trips = clamp_t(u64, div64_u64(head, max_t(u64, nv[s], 1)),
					1, NICPROG_MAX_TRIPS);
		for (k = ir->node_off[s]; k < ir->node_off[s + 1]; k++) {
			b = &ir->blocks[ir->node_blk[k]];
			b->freq = nf[s] * trips;
			b->trips = trips;
			for (j = 0; j < b->n_succ; j++)
				outs += ir->blocks[b->succ[j]].node != s;
		}
		if (!outs)
			continue;
		for (k = ir->node_off[s]; k < ir->node_off[s + 1]; k++) {
			b = &ir->blocks[ir->node_blk[k]];
			for (j = 0; j < b->n_succ; j++) {
				if (ir->blocks[b->succ[j]].node == s)
					continue;
				nv[ir->blocks[b->succ[j]].node] +=
					ir->in->meta[b->start].visits;
				/* a loop's exits split evenly */
				nf[ir->blocks[b->succ[j]].node] +=
					b->flags & NICPROG_BLK_LOOP ?
					nf[s] / outs :
					nf[s] * succ_share(ir, b, j) / 8;
			}
		}
	}
	kvfree(nf);
}

static u64 slots_of(s32 off, u32 size)
{
	u64 m = 0;
	s32 o;

	if (off >= 0 || off < -512)
		return ~0ULL;
	for (o = off; o < off + (s32)size && o < 0; o++)
		m |= BIT_ULL((-o - 1) / 8);
	return m;
}

/* A helper call reads its arguments and the stack the verifier sized. */
static void live_helper(const struct nicprog_ir *ir,
			const struct nicprog_insn_meta *m, u16 *regs,
			u64 *stack)
{
	u32 k;

	for (k = 1; k <= helper_args(m->helper); k++)
		*regs |= BIT(k);
	/* they read memory the verifier sized, maybe stack */
	if (m->helper == BPF_FUNC_csum_diff ||
	    m->helper == BPF_FUNC_perf_event_output ||
	    m->helper == BPF_FUNC_xdp_load_bytes ||
	    m->helper == BPF_FUNC_xdp_store_bytes) {
		*stack = ~0ULL;
		return;
	}
	/* the parameters, the MTU they read (and write) */
	if ((m->helper == BPF_FUNC_fib_lookup ||
	     m->helper == BPF_FUNC_check_mtu) &&
	    (m->flags & (NICPROG_META_KEY | NICPROG_META_KEY_VAR)) ==
	    NICPROG_META_KEY) {
		*stack |= slots_of(m->key_off,
				   m->helper == BPF_FUNC_fib_lookup ?
				   sizeof(struct bpf_fib_lookup) :
				   sizeof(u32));
		return;
	}
	if (m->helper >= BPF_FUNC_map_lookup_elem &&
	    m->helper <= BPF_FUNC_map_delete_elem &&
	    m->map < ir->in->n_tables) {
		const struct nicprog_ir_table *t = &ir->in->tables[m->map];

		if ((m->flags & (NICPROG_META_KEY | NICPROG_META_KEY_VAR)) ==
		    NICPROG_META_KEY)
			*stack |= slots_of(m->key_off, t->key_size);
		else
			*stack = ~0ULL;
		if (m->helper != BPF_FUNC_map_update_elem)
			return;
		if ((m->flags & (NICPROG_META_VAL | NICPROG_META_VAL_VAR)) ==
		    NICPROG_META_VAL)
			*stack |= slots_of(m->val_off, t->value_size);
		else if (m->stack_args & BIT(2))
			*stack = ~0ULL;
	} else if (m->stack_args) {
		*stack = ~0ULL;
	}
}

/* Backward liveness of one instruction: state = regs, stack slots. */
static void live_insn(const struct nicprog_ir *ir, u32 i, u16 *regs,
		      u64 *stack)
{
	const struct bpf_insn *insn = &ir->in->insns[i];
	const struct nicprog_insn_meta *m = &ir->in->meta[i];
	u8 cls = BPF_CLASS(insn->code), op = BPF_OP(insn->code);
	u32 size = 0;

	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		*regs &= ~BIT(insn->dst_reg);
		if (op != BPF_MOV)
			*regs |= BIT(insn->dst_reg);
		if (BPF_SRC(insn->code) == BPF_X && op != BPF_END)
			*regs |= BIT(insn->src_reg);
		break;
	case BPF_LD:
		*regs &= ~BIT(insn->dst_reg);
		break;
	case BPF_LDX:
		*regs &= ~BIT(insn->dst_reg);
		*regs |= BIT(insn->src_reg);
		if (m->ptr == NICPROG_PTR_STACK) {
			size = nicprog_insn_bytes(insn->code);
			if ((m->flags & (NICPROG_META_STACK |
					 NICPROG_META_STACK_VAR)) ==
			    NICPROG_META_STACK)
				*stack |= slots_of(m->stack_off, size);
			else
				*stack = ~0ULL;
		}
		break;
	case BPF_ST:
	case BPF_STX:
		if (BPF_MODE(insn->code) == BPF_ATOMIC) {
			if (insn->imm & BPF_FETCH)
				*regs &= ~BIT(insn->src_reg);
			if (insn->imm == BPF_CMPXCHG)
				*regs |= BIT(BPF_REG_0);
		}
		*regs |= BIT(insn->dst_reg);
		if (cls == BPF_STX)
			*regs |= BIT(insn->src_reg);
		if (m->ptr == NICPROG_PTR_STACK) {
			bool fixed = (m->flags & (NICPROG_META_STACK |
						  NICPROG_META_STACK_VAR)) ==
				     NICPROG_META_STACK;

			size = insn->code & 0x18;
			if (BPF_MODE(insn->code) == BPF_ATOMIC)
				*stack = fixed ? *stack | slots_of(m->stack_off,
								   8) : ~0ULL;
			else if (fixed && size == BPF_DW && !(m->stack_off & 7))
				*stack &= ~slots_of(m->stack_off, 8);
		}
		break;
	case BPF_JMP:
	case BPF_JMP32:
		if (op == BPF_EXIT) {
			*regs = BIT(BPF_REG_0);
			*stack = 0;
			break;
		}
		if (op == BPF_CALL) {
			*regs &= ~0x3f;		/* R0 defined, R1-R5 clobbered */
			if (is_pseudo_call(insn)) {
				*regs |= 0x3e;
				if (m->stack_args)
					*stack = ~0ULL;
				break;
			}
			live_helper(ir, m, regs, stack);
			break;
		}
		if (op == BPF_JA)
			break;
		*regs |= BIT(insn->dst_reg);
		if (BPF_SRC(insn->code) == BPF_X)
			*regs |= BIT(insn->src_reg);
		break;
	}
	*regs &= ~BIT(BPF_REG_10);
}

/* Live registers and main-frame stack slots on entry to every block. */
static void ir_liveness(struct nicprog_ir *ir)
{
	struct nicprog_ir_block *b;
	bool changed = true;
	u64 stack, spill = 0;
	u16 regs;
	u32 i, j;

	for (i = 0; i < ir->in->len; i++)
		if (ir->in->meta[i].flags & NICPROG_META_SPILL_PTR) {
			if ((ir->in->meta[i].flags & (NICPROG_META_STACK |
						      NICPROG_META_STACK_VAR)) ==
			    NICPROG_META_STACK)
				spill |= slots_of(ir->in->meta[i].stack_off, 8);
			else
				spill = ~0ULL;
		}
	while (changed) {
		changed = false;
		for (j = ir->n_blocks; j-- > 0;) {
			b = &ir->blocks[j];
			regs = 0;
			stack = 0;
			for (i = 0; i < b->n_succ; i++) {
				regs |= ir->blocks[b->succ[i]].live_regs;
				stack |= ir->blocks[b->succ[i]].live_stack;
			}
			for (i = b->end; i-- > b->start;) {
				if (i > b->start && ir->in->insns[i - 1].code ==
				    (BPF_LD | BPF_IMM | BPF_DW))
					continue;	/* second half */
				live_insn(ir, i, &regs, &stack);
			}
			if (b->sub)
				stack = 0;	/* frames of callees are private */
			if (regs != b->live_regs || stack != b->live_stack) {
				b->live_regs |= regs;
				b->live_stack |= stack;
				changed = true;
			}
		}
	}
	for (j = 0; j < ir->n_main; j++) {
		b = &ir->blocks[j];
		if ((ir->in->meta[b->start].mapval_regs & b->live_regs) ||
		    (spill & b->live_stack))
			b->flags |= NICPROG_BLK_UNSAFE_IN;
	}
}

/*
 * Byte provenance: 0 unknown, PROV_CONST | value, PROV_PKT | packet offset.
 * Registers are 8 bytes each; the stack is the main frame's 512 bytes.
 */
#define PROV_CONST	0x4000
#define PROV_PKT	0x8000
#define PROV_REGS	(MAX_BPF_REG * 8)
#define PROV_BYTES	(PROV_REGS + 512)

static void prov_const(u16 *r, u64 v)
{
	u32 k;

	for (k = 0; k < 8; k++)
		r[k] = PROV_CONST | ((v >> (8 * k)) & 0xff);
}

static bool prov_fixed_stack(const struct nicprog_insn_meta *m)
{
	return (m->flags & (NICPROG_META_STACK | NICPROG_META_STACK_VAR)) ==
	       NICPROG_META_STACK && m->stack_off < 0 && m->stack_off >= -512;
}

static void prov_insn(struct nicprog_ir *ir, u32 i, u16 *p)
{
	const struct bpf_insn *insn = &ir->in->insns[i];
	const struct nicprog_insn_meta *m = &ir->in->meta[i];
	u8 cls = BPF_CLASS(insn->code), op = BPF_OP(insn->code);
	u16 *d = &p[insn->dst_reg * 8], *stk = &p[PROV_REGS], tmp[8];
	u32 k, size = nicprog_insn_bytes(insn->code);
	s32 w;

	switch (cls) {
	case BPF_ALU64:
	case BPF_ALU:
		if (op == BPF_END && cls == BPF_ALU) {
			w = insn->imm / 8;
			memcpy(tmp, d, 16);
			for (k = 0; k < 8; k++)
				d[k] = k >= (u32)w ? PROV_CONST :
				       BPF_SRC(insn->code) == BPF_TO_BE ?
				       tmp[w - 1 - k] : tmp[k];
			break;
		}
		if (op == BPF_MOV && BPF_SRC(insn->code) == BPF_X)
			memcpy(d, &p[insn->src_reg * 8], 16);
		else if (op == BPF_MOV)
			prov_const(d, cls == BPF_ALU64 ? (u64)(s64)insn->imm :
						       (u32)insn->imm);
		else
			memset(d, 0, 16);
		if (cls == BPF_ALU)
			for (k = 4; k < 8; k++)
				d[k] = PROV_CONST;
		break;
	case BPF_LD:
		if (insn->src_reg)
			memset(d, 0, 16);
		else
			prov_const(d, (u64)(u32)insn->imm |
				      ((u64)(u32)insn[1].imm << 32));
		break;
	case BPF_LDX:
		d = &p[insn->dst_reg * 8];
		if (m->ptr == NICPROG_PTR_PACKET && m->pkt_hi - m->pkt_lo ==
		    (s32)size && m->pkt_lo >= 0 && m->pkt_hi < 0x3fff) {
			for (k = 0; k < 8; k++)
				d[k] = k < size ? PROV_PKT | (m->pkt_lo + k) :
					PROV_CONST;
		} else if (m->ptr == NICPROG_PTR_STACK &&
			   prov_fixed_stack(m) && m->stack_off + (s32)size <= 0) {
			for (k = 0; k < 8; k++)
				d[k] = k < size ?
					stk[512 + m->stack_off + k] :
					PROV_CONST;
		} else {
			memset(d, 0, 16);
		}
		break;
	case BPF_ST:
	case BPF_STX:
		if (BPF_MODE(insn->code) == BPF_ATOMIC) {
			if (insn->imm & BPF_FETCH)
				memset(&p[insn->src_reg * 8], 0, 16);
			if (insn->imm == BPF_CMPXCHG)
				memset(p, 0, 16);
		}
		if (m->ptr != NICPROG_PTR_STACK)
			break;
		if (!prov_fixed_stack(m) || m->stack_off + (s32)size > 0 ||
		    BPF_MODE(insn->code) == BPF_ATOMIC) {
			if (prov_fixed_stack(m) && m->stack_off + 8 <= 0)
				memset(&stk[512 + m->stack_off], 0, 16);
			else
				memset(stk, 0, 1024);
			break;
		}
		if (cls == BPF_ST)
			prov_const(tmp, (u64)(s64)insn->imm);
		else
			memcpy(tmp, &p[insn->src_reg * 8], 16);
		memcpy(&stk[512 + m->stack_off], tmp, size * 2);
		break;
	case BPF_JMP:
		if (op != BPF_CALL)
			break;
		memset(p, 0, 6 * 16);
		/*
		 * callees, helpers only the host has and
		 * bpf_xdp_load_bytes() may write the stack
		 */
		if (m->stack_args && (is_pseudo_call(insn) ||
				      nicprog_exec_host_helper(m->helper) ||
				      (!insn->src_reg &&
				       m->helper == BPF_FUNC_xdp_load_bytes)))
			memset(stk, 0, 1024);
		break;
	}
}

static bool is_map_call(const struct nicprog_ir *ir, u32 i)
{
	return is_helper(&ir->in->insns[i]) &&
	       ir->in->meta[i].helper >= BPF_FUNC_map_lookup_elem &&
	       ir->in->meta[i].helper <= BPF_FUNC_map_delete_elem;
}

static void ir_note_key(struct nicprog_ir *ir, u32 i, const u16 *p)
{
	const struct nicprog_insn_meta *m = &ir->in->meta[i];
	struct nicprog_ir_keyuse *ku = &ir->keys[ir->n_keys++];
	const u16 *stk = &p[PROV_REGS];
	u32 k, ks;
	bool pkt = false;

	ku->insn = i;
	ku->table = m->map;
	ku->helper = m->helper;
	ku->pure = 0;
	ku->konst = 0;
	if (m->map >= ir->in->n_tables)
		return;
	ks = ir->in->tables[m->map].key_size;
	if (ks > NICPROG_KEY_MAX ||
	    (m->flags & (NICPROG_META_KEY | NICPROG_META_KEY_VAR)) !=
	    NICPROG_META_KEY || m->key_off + (s32)ks > 0 || m->key_off < -512)
		return;
	for (k = 0; k < ks; k++) {
		u16 v = stk[512 + m->key_off + k];

		if (v & PROV_PKT) {
			ku->pkt[k] = v & 0x3fff;
			pkt = true;
		} else if (v & PROV_CONST) {
			ku->pkt[k] = -1 - (v & 0xff);
		} else {
			return;
		}
	}
	ku->pure = pkt;
	ku->konst = !pkt;
}

/*
 * Forward over the DAG. A node's entry state is the join of its
 * predecessors' exit states (equal bytes stay known); loops forget all.
 */
static int ir_provenance(struct nicprog_ir *ir)
{
	u16 **out, *cur;
	u32 *pending, i, j, k, e, n = ir->n_nodes, bi;
	struct nicprog_ir_block *b;
	bool first;
	int err = -ENOMEM;

	for (i = 0, j = 0; i < ir->in->len; i++)
		j += is_map_call(ir, i);
	ir->keys = kvcalloc(j ? j : 1, sizeof(*ir->keys), GFP_KERNEL);
	out = kvcalloc(n, sizeof(*out), GFP_KERNEL);
	pending = kvcalloc(n, sizeof(u32), GFP_KERNEL);
	cur = kvcalloc(PROV_BYTES, sizeof(u16), GFP_KERNEL);
	if (!ir->keys || !out || !pending || !cur)
		goto out;
	for (e = 0; e < ir->n_edges; e++)
		pending[ir->edges[e].from]++;

	for (i = 0; i < n; i++) {
		first = true;
		memset(cur, 0, PROV_BYTES * sizeof(u16));
		for (e = ir->in_off[i]; e < ir->in_off[i + 1]; e++) {
			const u16 *o = out[ir->edges[ir->in_edge[e]].from];

			if (!o)
				continue;
			if (first)
				memcpy(cur, o, PROV_BYTES * sizeof(u16));
			else
				for (j = 0; j < PROV_BYTES; j++)
					if (cur[j] != o[j])
						cur[j] = 0;
			first = false;
		}
		bi = ir->node_entry[i];
		b = &ir->blocks[bi];
		if (b->flags & NICPROG_BLK_LOOP) {
			memset(cur, 0, PROV_BYTES * sizeof(u16));
			/* record the loop's calls as unknown keys */
			for (k = ir->node_off[i]; k < ir->node_off[i + 1]; k++) {
				const struct nicprog_ir_block *lb =
					&ir->blocks[ir->node_blk[k]];

				for (j = lb->start; j < lb->end; j++)
					if (is_map_call(ir, j))
						ir_note_key(ir, j, cur);
			}
		} else {
			for (j = b->start; j < b->end;
			     j += insn_width(&ir->in->insns[j])) {
				if (is_map_call(ir, j))
					ir_note_key(ir, j, cur);
				prov_insn(ir, j, cur);
			}
		}
		if (pending[i]) {
			out[i] = kvcalloc(PROV_BYTES, sizeof(u16), GFP_KERNEL);
			if (!out[i])
				goto out;
			memcpy(out[i], cur, PROV_BYTES * sizeof(u16));
		}
		/* free the states every successor has consumed */
		for (e = ir->in_off[i]; e < ir->in_off[i + 1]; e++) {
			u32 f = ir->edges[ir->in_edge[e]].from;

			if (!--pending[f]) {
				kvfree(out[f]);
				out[f] = NULL;
			}
		}
	}
	err = 0;
out:
	if (out)
		for (i = 0; i < n; i++)
			kvfree(out[i]);
	kvfree(out);
	kvfree(pending);
	kvfree(cur);
	return err;
}

/**
 * nicprog_ir_build() - build the IR of a verified program
 * @in: the program and its facts; must outlive @ir
 * @ir: filled; release with nicprog_ir_free(), also on error
 * @why: on error, a static reason
 *
 * Context: process; allocates.
 * Return: 0 or -errno.
 */
int nicprog_ir_build(const struct nicprog_ir_input *in, struct nicprog_ir *ir,
		     const char **why)
{
	int err;

	memset(ir, 0, sizeof(*ir));
	ir->in = in;
	*why = "out of memory";
	if (!in->len) {
		*why = "empty program";
		return -EINVAL;
	}
	err = ir_subprogs(ir, why);
	if (!err)
		err = ir_blocks(ir, why);
	if (err)
		return err;
	ir_block_facts(ir);
	ir_exits(ir);
	ir_liveness(ir);
	err = ir_components(ir);
	if (!err)
		err = ir_nodes(ir);
	if (err)
		return err;
	/* frequencies need nodes; edges need frequencies */
	ir_freq(ir);
	err = ir_dag(ir);
	if (!err)
		err = ir_provenance(ir);
	return err;
}

/**
 * nicprog_ir_sources() - what else a program's verdicts may depend on
 * @in: the program
 *
 * A plan's prediction weighs the program's paths without traffic; one
 * that reads the NIC's clock or random numbers takes paths that depend
 * on when frames come or on a draw, and users are told so.
 *
 * Return: enum nicprog_ir_source bits.
 */
u32 nicprog_ir_sources(const struct nicprog_ir_input *in)
{
	const struct bpf_insn *insn;
	u32 i, src = 0;

	for (i = 0; i < in->len; i++) {
		insn = &in->insns[i];
		if (!is_helper(insn))
			continue;
		if (insn->imm == BPF_FUNC_ktime_get_ns)
			src |= NICPROG_IR_READS_CLOCK;
		else if (insn->imm == BPF_FUNC_get_prandom_u32)
			src |= NICPROG_IR_READS_RANDOM;
	}
	return src;
}

/**
 * nicprog_ir_sources_name() - nicprog_ir_sources() in words
 * @src: enum nicprog_ir_source bits, not 0
 *
 * The kernel's plan file and nicprog-plan's plan say it alike.
 *
 * Return: a static string.
 */
const char *nicprog_ir_sources_name(u32 src)
{
	if (src == (NICPROG_IR_READS_CLOCK | NICPROG_IR_READS_RANDOM))
		return "the NIC's clock and random numbers";
	return src & NICPROG_IR_READS_CLOCK ? "the NIC's clock" :
					      "random numbers";
}

/**
 * nicprog_ir_free() - release what nicprog_ir_build() allocated
 * @ir: the IR
 */
void nicprog_ir_free(struct nicprog_ir *ir)
{
	kvfree(ir->blocks);
	kvfree(ir->insn_block);
	kvfree(ir->node_entry);
	kvfree(ir->node_off);
	kvfree(ir->node_blk);
	kvfree(ir->in_off);
	kvfree(ir->in_edge);
	kvfree(ir->edges);
	kvfree(ir->keys);
	kvfree(ir->anc);
	memset(ir, 0, sizeof(*ir));
}
