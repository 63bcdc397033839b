// SPDX-License-Identifier: GPL-2.0
/*
 * Partial offload: which part of a program the host runs when the NIC
 * cannot hold all of it.
 *
 * The host part is a set of DAG nodes closed under successors: a frame
 * that reaches it never comes back to the NIC, so the NIC runs a prefix
 * and hands the run's live state over in the frame's metadata
 * (kernel/handover.c). The set starts from what the NIC cannot hold or
 * run -- every node that touches a table kept in host memory or calls a
 * helper only the host has, and, while the NIC's instructions exceed its
 * instruction store, everything after the node whose cut leaves the
 * fewest expected handovers (the branch frequencies of the IR) -- and
 * grows until every rule holds:
 *
 *  - a written table (sharded or shared-mutable) is accessed on one side
 *    only: the NIC and the host share no coherent memory;
 *  - every handover point carries only scalars and context, packet and
 *    stack pointers, each of one kind on every path, so the host can
 *    rebase the pointers into its own copy of the frame and stack; a map
 *    value pointer or a register of mixed kinds moves the cut earlier.
 *
 * Cutting after one node keeps early verdicts (a frame that fails parsing)
 * on the NIC; when no single node's cut fits, the NIC keeps the longest
 * prefix in topological order, and the exits only it reaches.
 */
#include "offload.h"

/*
 * Instructions of each node's blocks, with bit 31 set if one of them
 * calls a subprogram.
 */
#define NODE_CALLS	BIT(31)

static void node_insns(const struct nicprog_ir *ir, u32 *insns)
{
	const struct nicprog_ir_block *b;
	u32 i, j;

	for (i = 0; i < ir->n_nodes; i++)
		insns[i] = 0;
	for (i = 0; i < ir->n_main; i++) {
		b = &ir->blocks[i];
		insns[b->node] += b->end - b->start;
		for (j = b->start; j < b->end; j++)
			if (ir->in->insns[j].code == (BPF_JMP | BPF_CALL) &&
			    ir->in->insns[j].src_reg == BPF_PSEUDO_CALL)
				insns[b->node] |= NODE_CALLS;
	}
}

/* Instructions the NIC holds: its nodes, and subprograms if it calls any. */
static u32 nic_insns(const struct nicprog_ir *ir, const u8 *host,
		     const u32 *insns)
{
	u32 i, n = 0, main = 0;
	bool calls = false;

	for (i = 0; i < ir->n_main; i++)
		main += ir->blocks[i].end - ir->blocks[i].start;
	for (i = 0; i < ir->n_nodes; i++) {
		if (host[i] == NICPROG_NODE_HOST)
			continue;
		n += insns[i] & ~NODE_CALLS;
		calls = calls || (insns[i] & NODE_CALLS);
	}
	return n + (calls ? ir->in->len - main : 0);
}

/* Close @host under successors; nodes are numbered in topological order. */
static void close_host(const struct nicprog_ir *ir, u8 *host)
{
	u32 i, k;

	for (i = 0; i < ir->n_nodes; i++) {
		if (host[i] != NICPROG_NODE_NIC)
			continue;
		for (k = ir->in_off[i]; k < ir->in_off[i + 1]; k++)
			if (host[ir->edges[ir->in_edge[k]].from] ==
			    NICPROG_NODE_HOST)
				host[i] = NICPROG_NODE_HOST;
	}
}

/*
 * A call only the host answers: NICPROG_META_HOST_CALL, or without the
 * verifier's facts any call of such a helper.
 */
static bool host_call(const struct nicprog_ir_input *in, u32 i)
{
	const struct bpf_insn *insn = &in->insns[i];

	if (insn->code != (BPF_JMP | BPF_CALL) || insn->src_reg ||
	    !nicprog_exec_host_helper(insn->imm))
		return false;
	return !in->meta || (in->meta[i].flags & NICPROG_META_HOST_CALL);
}

/*
 * Nodes that call a helper only the host has (host_call()), themselves or
 * through a subprogram -- any, if one of them calls one. Returns the
 * first such helper in program order, or 0.
 */
static s32 host_calls(const struct nicprog_ir *ir, u8 *need)
{
	const struct bpf_insn *insn;
	const struct nicprog_ir_block *b;
	bool subs = false;
	s32 first = 0;
	u32 i, j;

	for (i = 0; i < ir->in->len; i++) {
		insn = &ir->in->insns[i];
		if (!host_call(ir->in, i))
			continue;
		first = first ?: insn->imm;
		subs = subs || ir->insn_block[i] >= ir->n_main;
	}
	if (!first)
		return 0;
	for (i = 0; i < ir->n_main; i++) {
		b = &ir->blocks[i];
		for (j = b->start; j < b->end; j++) {
			insn = &ir->in->insns[j];
			if (insn->code != (BPF_JMP | BPF_CALL))
				continue;
			if (host_call(ir->in, j) ||
			    (subs && insn->src_reg == BPF_PSEUDO_CALL))
				need[b->node] = 1;
		}
	}
	return first;
}

/* Why a host part that holds a helper the NIC lacks exists, for the plan. */
static const char *host_call_why(s32 func_id)
{
	switch (func_id) {
	case BPF_FUNC_fib_lookup:
		return "bpf_fib_lookup, which only the host has";
	case BPF_FUNC_check_mtu:
		return "bpf_check_mtu, which only the host has";
	case BPF_FUNC_trace_printk:
	case BPF_FUNC_trace_vprintk:
		return "bpf_printk, which writes the host's trace buffer";
	}
	return "a helper only the host has";
}

#define SHARED_MAX	16	/* instructions of a tail both sides hold */

/*
 * Small tails of the program -- nodes from which every path runs through
 * small nodes to an exit, touching no table but read-only tables and
 * counters and calling nothing: the "count and return the verdict" blocks
 * that compilers merge for every path of a program -- both sides hold and
 * run, so that a cut does not hand frames over only to finish there.
 */
static void mark_shared(const struct nicprog_ir *ir, u64 written,
			const u64 *node_tables,
			const struct nicprog_host_limits *lim, const u32 *insns,
			const u8 *need, u8 *host)
{
	u64 shareable = ~(written | lim->host_tables);
	u32 i, k;

	for (i = 0; i < ir->n_nodes; i++)
		host[i] = insns[i] <= SHARED_MAX && !need[i] &&
			  !(node_tables[i] & ~shareable) ?
			  NICPROG_NODE_BOTH : NICPROG_NODE_NIC;
	/* successors have higher numbers: they are decided first */
	for (i = ir->n_nodes; i-- > 0;) {
		if (host[i] == NICPROG_NODE_BOTH)
			continue;
		for (k = ir->in_off[i]; k < ir->in_off[i + 1]; k++)
			host[ir->edges[ir->in_edge[k]].from] = NICPROG_NODE_NIC;
	}
}

/*
 * Can the NIC hand a run over at the start of block @b? Only scalars and
 * context, packet and stack pointers, of one kind on every path, may be
 * live there. Blocks the verifier never reached are never entered.
 */
static bool handover_ok(const struct nicprog_ir *ir, u32 b)
{
	const struct nicprog_ir_block *blk = &ir->blocks[b];
	const struct nicprog_insn_meta *m = &ir->in->meta[blk->start];
	u64 regs = blk->live_regs, slots = blk->live_stack;

	if (blk->flags & NICPROG_BLK_UNSAFE_IN)
		return false;
	if (!m->visits)
		return true;
	if (regs & (m->other_regs | (m->ptr_regs & m->data_regs)))
		return false;
	return !(slots & (m->other_slots | (m->ptr_slots & m->data_slots)));
}

/*
 * One pass of the rules: move to the host what breaks one. Returns true
 * if anything moved.
 */
static bool enforce(const struct nicprog_ir *ir, u64 written,
		    const u64 *node_tables, u8 *host)
{
	u64 nic_w = 0, host_w = 0;
	bool moved = false;
	u32 i, s;

	for (i = 0; i < ir->n_nodes; i++) {
		if (host[i] == NICPROG_NODE_HOST)
			host_w |= node_tables[i] & written;
		else
			nic_w |= node_tables[i] & written;
	}
	for (i = 0; i < ir->n_nodes; i++)
		if (host[i] == NICPROG_NODE_NIC && (node_tables[i] & nic_w & host_w)) {
			host[i] = NICPROG_NODE_HOST;
			moved = true;
		}
	/*
	 * a shared tail the NIC runs hands over too, where longest_prefix()
	 * gave its successor to the host
	 */
	for (i = 0; i < ir->n_main; i++) {
		const struct nicprog_ir_block *b = &ir->blocks[i];

		if (host[b->node] == NICPROG_NODE_HOST)
			continue;
		for (s = 0; s < b->n_succ; s++)
			if (b->succ[s] < ir->n_main &&
			    host[ir->blocks[b->succ[s]].node] == NICPROG_NODE_HOST &&
			    !handover_ok(ir, b->succ[s])) {
				host[b->node] = NICPROG_NODE_HOST;
				moved = true;
			}
	}
	if (moved)
		close_host(ir, host);
	return moved;
}

/* Expected handovers per packet: edges from the NIC into @host. */
static u64 handovers(const struct nicprog_ir *ir, const u8 *host)
{
	u64 fx = 0;
	u32 i;

	for (i = 0; i < ir->n_edges; i++)
		if (host[ir->edges[i].from] != NICPROG_NODE_HOST &&
		    host[ir->edges[i].to] == NICPROG_NODE_HOST)
			fx += ir->edges[i].freq;
	return fx;
}

#define SEEDS_MAX	2048	/* candidate cut nodes tried, at most */

/* Why no part of a program runs on the NIC. */
#define HOST_WHY_MEM \
	"a table the program accesses first is in host memory; no part of the program can run on the NIC"
#define HOST_WHY_CALL \
	"the program's first instructions call a helper only the host has; no part of it can run on the NIC"
#define HOST_WHY_FIT \
	"no prefix of the program fits the NIC and can hand its state to the host"

/*
 * The host part as everything a single node leads to (and @host), for the
 * node that leaves the fewest expected handovers while the NIC's part
 * fits its store -- a cut across the program's main path that keeps early
 * verdicts on the NIC. Returns false if no single node does.
 */
static bool best_seed(const struct nicprog_ir *ir,
		      const struct nicprog_host_limits *lim, const u32 *insns,
		      u8 *host, u8 *cand)
{
	u32 n = ir->n_nodes, step = n / SEEDS_MAX + 1, v, best = 0;
	u64 fx, best_fx = U64_MAX;
	u32 held, best_held = 0;

	for (v = 1; v < n; v += step) {
		if (host[v] != NICPROG_NODE_NIC)
			continue;
		memcpy(cand, host, n);
		cand[v] = NICPROG_NODE_HOST;
		close_host(ir, cand);
		held = nic_insns(ir, cand, insns);
		if (held > lim->insn_store)
			continue;
		fx = handovers(ir, cand);
		if (fx < best_fx || (fx == best_fx && held > best_held)) {
			best = v;
			best_fx = fx;
			best_held = held;
		}
	}
	if (best_fx == U64_MAX)
		return false;
	host[best] = NICPROG_NODE_HOST;
	close_host(ir, host);
	return true;
}

/*
 * Otherwise, the longest prefix in topological order that fits, and back
 * to the NIC the exits reached only from it.
 */
static void longest_prefix(const struct nicprog_ir *ir,
			   const struct nicprog_host_limits *lim,
			   const u64 *node_tables, const u32 *insns,
			   const u8 *need, u8 *host)
{
	u32 n = ir->n_nodes, i, k;

	/* shared tails too: the NIC holds them, and they may not fit */
	for (k = n; k > 0 && nic_insns(ir, host, insns) > lim->insn_store; k--)
		host[k - 1] = NICPROG_NODE_HOST;
	for (i = 0; i < n; i++) {
		if (host[i] != NICPROG_NODE_HOST ||
		    ir->node_off[i + 1] - ir->node_off[i] != 1 ||
		    ir->blocks[ir->node_entry[i]].n_succ || need[i] ||
		    (node_tables[i] & lim->host_tables) ||
		    nic_insns(ir, host, insns) +
		    (insns[i] & ~NODE_CALLS) > lim->insn_store)
			continue;
		for (k = ir->in_off[i]; k < ir->in_off[i + 1]; k++)
			if (host[ir->edges[ir->in_edge[k]].from] ==
			    NICPROG_NODE_HOST)
				break;
		if (k == ir->in_off[i + 1] && ir->in_off[i] != k)
			host[i] = NICPROG_NODE_NIC;
	}
}

/* Live state a handover into block @b carries, in bytes. */
static u32 handover_bytes(const struct nicprog_ir_block *b)
{
	return 8 * (hweight16(b->live_regs) + hweight64(b->live_stack));
}

/**
 * nicprog_host_cut() - choose the part of a program the host runs
 * @ir: the program
 * @written: its sharded and shared-mutable tables, bit per table
 * @node_tables: per node, the tables it (or a subprogram) accesses
 * @lim: what the NIC holds
 * @lo: filled: @lo->node_host (allocated here) and the host_* fields;
 *	@lo->node_host stays NULL when the NIC holds the whole program
 * @why: on error, a static reason
 *
 * Return: 0, -E2BIG if no prefix of the program fits the NIC, -ENOMEM.
 */
int nicprog_host_cut(const struct nicprog_ir *ir, u64 written,
		     const u64 *node_tables,
		     const struct nicprog_host_limits *lim,
		     struct nicprog_layout *lo, const char **why)
{
	u32 n = ir->n_nodes, i, k, s, *insns;
	bool store = false, mem = false;
	u8 *host, *cand, *need;
	int err = -ENOMEM;
	s32 call;
	u64 nic_t;

	*why = "out of memory";
	host = kvcalloc(n, 1, GFP_KERNEL);
	cand = kvcalloc(n, 1, GFP_KERNEL);
	need = kvcalloc(n, 1, GFP_KERNEL);
	insns = kvcalloc(n, sizeof(u32), GFP_KERNEL);
	if (!host || !cand || !need || !insns)
		goto out;
	node_insns(ir, insns);
	call = host_calls(ir, need);
	mark_shared(ir, written, node_tables, lim, insns, need, host);
	for (i = 0; i < n; i++) {
		if (node_tables[i] & lim->host_tables) {
			host[i] = NICPROG_NODE_HOST;
			mem = true;
		}
		if (need[i])
			host[i] = NICPROG_NODE_HOST;
	}
	close_host(ir, host);
	if (nic_insns(ir, host, insns) > lim->insn_store) {
		store = true;
		if (!best_seed(ir, lim, insns, host, cand))
			longest_prefix(ir, lim, node_tables, insns, need,
				       host);
	}
	while (enforce(ir, written, node_tables, host))
		;
	for (i = 0, k = 0; i < n; i++)
		k += host[i] == NICPROG_NODE_HOST;
	err = 0;
	if (!k)
		goto out;
	if (host[0] == NICPROG_NODE_HOST ||
	    nic_insns(ir, host, insns) > lim->insn_store) {
		*why = mem ? HOST_WHY_MEM :
		       call && need[0] ? HOST_WHY_CALL : HOST_WHY_FIT;
		err = -E2BIG;
		goto out;
	}
	lo->host_nodes = k;
	lo->nic_insns = nic_insns(ir, host, insns);
	lo->host_why = mem ? "tables in host memory" :
		       call ? host_call_why(call) :
		       store ? "the NIC's instruction store" :
		       "handover rules";
	for (i = 0; i < ir->n_main; i++) {
		const struct nicprog_ir_block *b = &ir->blocks[i];

		if (host[b->node] == NICPROG_NODE_HOST) {
			lo->host_insns += b->end - b->start;
			continue;
		}
		for (s = 0; s < b->n_succ; s++) {
			if (b->succ[s] >= ir->n_main ||
			    host[ir->blocks[b->succ[s]].node] !=
			    NICPROG_NODE_HOST)
				continue;
			lo->host_bytes = max(lo->host_bytes,
					     handover_bytes(&ir->blocks[b->succ[s]]));
			lo->host_entries++;
		}
	}
	lo->host_share_fx = handovers(ir, host);
	for (i = 0, nic_t = 0; i < n; i++) {
		if (host[i] == NICPROG_NODE_HOST)
			lo->host_tables |= node_tables[i];
		else
			nic_t |= node_tables[i];
	}
	lo->host_tables &= ~nic_t;
	lo->node_host = host;
	host = NULL;
out:
	kvfree(host);
	kvfree(cand);
	kvfree(need);
	kvfree(insns);
	return err;
}

/**
 * nicprog_host_call_insn() - where a program first calls a helper only the
 *	host has
 * @in: the program; with its facts, a bpf_check_mtu() of the receiving
 *	port is the NIC's (NICPROG_META_HOST_CALL)
 *
 * Such a program runs only partially offloaded: the host part calls it.
 *
 * Return: the instruction, or U32_MAX if it calls none.
 */
u32 nicprog_host_call_insn(const struct nicprog_ir_input *in)
{
	u32 i;

	for (i = 0; i < in->len; i++)
		if (host_call(in, i))
			return i;
	return U32_MAX;
}

/**
 * nicprog_host_entries() - where runs of a partial layout are handed over
 * @ir: the program
 * @lo: its layout, @lo->node_host set
 * @pcs: filled with the first instructions of the host's blocks entered
 *	from the NIC's, ascending, each once
 * @max: room in @pcs; @lo->host_entries is always enough
 *
 * Return: entries filled.
 */
u32 nicprog_host_entries(const struct nicprog_ir *ir,
			 const struct nicprog_layout *lo, u32 *pcs, u32 max)
{
	const struct nicprog_ir_block *b, *t;
	u32 i, s, k, j, n = 0;

	for (i = 0; i < ir->n_main; i++) {
		b = &ir->blocks[i];
		if (lo->node_host[b->node] == NICPROG_NODE_HOST)
			continue;
		for (s = 0; s < b->n_succ; s++) {
			if (b->succ[s] >= ir->n_main)
				continue;
			t = &ir->blocks[b->succ[s]];
			if (lo->node_host[t->node] != NICPROG_NODE_HOST)
				continue;
			for (k = 0; k < n && pcs[k] < t->start; k++)
				;
			if ((k < n && pcs[k] == t->start) || n == max)
				continue;
			for (j = n++; j > k; j--)
				pcs[j] = pcs[j - 1];
			pcs[k] = t->start;
		}
	}
	return n;
}
