// SPDX-License-Identifier: GPL-2.0
/*
 * The static bracket: what a plan's throughput and latency can be over any
 * traffic, from the program and the plan alone. The point prediction
 * (predict.c) weighs paths by guessed frequencies and waits by guessed
 * queueing; the bracket guesses nothing: it bounds what the cores, banks,
 * engines and MAT stages of the NIC can do to a frame, so that a measured
 * run falls inside it whatever frames, flows and table contents it had.
 *
 * A run issues its instructions (the cost table's cycles, as a timed core
 * charges them) and waits for its events: a memory access to a region the
 * plan placed something in, an engine job, a MAT lookup. An event waits at
 * least for an unqueued access (a cache hit where there is a cache) and at
 * most for every other hardware thread of the plan to be ahead of it in
 * the same first-come-first-served queue: one bank, or the plan's slice of
 * an engine pool, each thread having one event outstanding at most. Over
 * the plan's DAG, a loop node runs one of its blocks at least once and each
 * of them at most as many times as the verifier walked the loop for each
 * way into it (ir.c's trips: it walks a bounded loop's iterations one by
 * one, a loop with a constant bound to that bound), NICPROG_MAX_TRIPS at
 * most; a subprogram's loop NICPROG_MAX_TRIPS times. That is the
 * bracket's one assumption about the program: a loop whose iterations
 * differ with the way in may run longer than the walks' mean.
 *
 * With T threads a core, a backlogged core's busy time per run is at most
 * its issue cycles plus its waits over T (the core is only idle while all
 * T threads wait), and a run's latency is at most T times its issue cycles
 * plus its waits (a ready thread waits only while another issues). So:
 *
 * - throughput (the NIC backlogged, as the point prediction's capacity):
 *   at least every frame on one core of the slowest stage, on the longest
 *   path, every wait the longest; at most the frames spread evenly over
 *   each stage's replicas on the shortest path, no wait queued;
 * - latency (per frame, every stage's run): at least a frame alone on the
 *   shortest path, every access a hit; at most the longest path with every
 *   thread of its core busy and every wait the longest.
 *
 * What it does not bound: other plans' traffic on the same banks and
 * engines, engine jobs the driver refuses (run by the core instead), and
 * the first and last runs of a stream (fewer threads busy).
 *
 * nicprog_bracket_live() bounds the same over the blocks and branches a
 * kind of frame can take (nicprog-plan's per-class brackets: the walk of
 * the program with the class's header bytes known): the paths through the
 * others are left out. Subprograms are bounded whole either way.
 */
#include "offload.h"

/* Bounds past which no run gets (NICPROG_EXEC_MAX_STEPS): keep sums in u64 */
#define BR_CAP		BIT_ULL(48)

/**
 * struct br_cost - cycles of a piece of a run
 * @issue: instruction cycles the core issues
 * @wait: cycles it waits for its events
 */
struct br_cost {
	u64 issue;
	u64 wait;
};

/**
 * struct br_ctx - what one bracket computation works from
 * @ir: the program
 * @lnic: the NIC
 * @lo: the plan
 * @cu: its core unit
 * @threads: hardware threads a core
 * @sharers: hardware threads of the plan, all cores
 * @ev_min: per region, the least an access waits
 * @ev_max: per region, the most
 * @sub_min: per subprogram, the least a call costs (valid if @sub_done)
 * @sub_max: per subprogram, the most
 * @sub_done: per subprogram, whether @sub_min and @sub_max are set
 * @live: per block, NICPROG_BR_* of what a frame can run; NULL: all
 */
struct br_ctx {
	const struct nicprog_ir *ir;
	const struct nicprog_lnic *lnic;
	const struct nicprog_layout *lo;
	const struct nicprog_lnic_unit *cu;
	u32 threads;
	u32 sharers;
	u64 ev_min[NICPROG_LNIC_MAX_REGIONS];
	u64 ev_max[NICPROG_LNIC_MAX_REGIONS];
	struct br_cost sub_min[NICPROG_MAX_SUBPROGS];
	struct br_cost sub_max[NICPROG_MAX_SUBPROGS];
	bool sub_done[NICPROG_MAX_SUBPROGS];
	const u8 *live;
};

static u64 br_add(u64 a, u64 b)
{
	return min_t(u64, a + b, BR_CAP);
}

static u64 br_mul(u64 a, u64 b)
{
	if (a && b > BR_CAP / a)
		return BR_CAP;
	return min_t(u64, a * b, BR_CAP);
}

/* Waits of a job on @units units of @svc cycles each, least and most. */
static void br_job(const struct br_ctx *c, u32 units, u64 svc_min,
		   u64 svc_max, struct br_cost *lo, struct br_cost *hi)
{
	u32 ahead = c->sharers - 1;

	units = max_t(u32, units, 1);
	lo->wait = br_add(lo->wait, svc_min);
	hi->wait = br_add(hi->wait,
			  br_mul(1 + DIV_ROUND_UP(ahead, units), svc_max));
}

static void br_engine(const struct br_ctx *c, u8 afn, struct br_cost *lo,
		      struct br_cost *hi)
{
	u32 t = nicprog_accel_fn_type(afn);

	if (t >= __NICPROG_ACCEL_MAX || c->lo->accel_unit[t] == U32_MAX)
		return;
	/* a job's bytes are the frame's at most */
	br_job(c, c->lo->accel_count[t],
	       nicprog_engine_cycles(c->lnic, c->lo, afn, 0),
	       nicprog_engine_cycles(c->lnic, c->lo, afn, NICPROG_FRAME_MAX),
	       lo, hi);
}

static void br_block(struct br_ctx *c, const struct nicprog_ir_block *b,
		     u32 depth, struct br_cost *lo, struct br_cost *hi);
static void br_call(struct br_ctx *c, u8 afn, u32 s, u32 depth,
		    struct br_cost *lo, struct br_cost *hi);

/*
 * How often one call of subprogram @s (blocks from @first to @last) may run
 * block @i: a block inside a loop (between a back edge's target and its
 * source) NICPROG_MAX_TRIPS times. The handler graph counts no trips in
 * subprograms, and the verifier's visits of them differ between the
 * kernel's and nicprog-plan's walks, which must agree on the bracket.
 */
static u64 br_sub_trips(const struct nicprog_ir *ir, u32 first, u32 last,
			u32 i)
{
	u32 k, j, head;

	for (k = i; k < last; k++)
		for (j = 0; j < ir->blocks[k].n_succ; j++) {
			head = ir->blocks[k].succ[j];
			if (head <= k && head >= first && head <= i)
				return NICPROG_MAX_TRIPS;
		}
	return 1;
}

/* A call of subprogram @s: its entry block at least, its loops walked most. */
static void br_sub(struct br_ctx *c, u32 s, u32 depth, struct br_cost *lo,
		   struct br_cost *hi)
{
	const struct nicprog_ir *ir = c->ir;
	u32 first = ir->insn_block[ir->sub_start[s]], last, i;
	struct br_cost mn = { 0 }, mx = { 0 }, bl, bh;
	u64 trips;

	/* MAX_CALL_FRAMES: the verifier bounds the depth */
	if (depth > 8 || s >= NICPROG_MAX_SUBPROGS)
		return;
	if (!c->sub_done[s]) {
		for (last = first; last < ir->n_blocks &&
		     ir->blocks[last].sub == s; last++)
			;
		for (i = first; i < last; i++) {
			bl = (struct br_cost){ 0 };
			bh = (struct br_cost){ 0 };
			br_block(c, &ir->blocks[i], depth, &bl, &bh);
			if (i == first)
				mn = bl;
			trips = br_sub_trips(ir, first, last, i);
			mx.issue = br_add(mx.issue, br_mul(bh.issue, trips));
			mx.wait = br_add(mx.wait, br_mul(bh.wait, trips));
		}
		c->sub_min[s] = mn;
		c->sub_max[s] = mx;
		c->sub_done[s] = true;
	}
	lo->issue = br_add(lo->issue, c->sub_min[s].issue);
	lo->wait = br_add(lo->wait, c->sub_min[s].wait);
	hi->issue = br_add(hi->issue, c->sub_max[s].issue);
	hi->wait = br_add(hi->wait, c->sub_max[s].wait);
}

/* One run of block @b, callees included: least in @lo, most in @hi. */
static void br_block(struct br_ctx *c, const struct nicprog_ir_block *b,
		     u32 depth, struct br_cost *lo, struct br_cost *hi)
{
	const struct nicprog_ir *ir = c->ir;
	const struct nicprog_layout *pl = c->lo;
	const struct bpf_insn *insn;
	u32 i, r, t, s;
	u64 cost;

	for (i = b->start; i < b->end; i++) {
		insn = &ir->in->insns[i];
		if (pl->insn_mat[i] == NICPROG_MAT_REGION) {
			/* a MAT stage runs it: one lookup each time it starts */
			if (i == b->start ||
			    pl->insn_mat[i - 1] != NICPROG_MAT_REGION)
				br_job(c, pl->mat_units, 0, pl->mat_service,
				       &(struct br_cost){ 0 }, hi);
		} else {
			cost = c->cu->cost[nicprog_insn_class(insn->code)];
			lo->issue = br_add(lo->issue, cost);
			hi->issue = br_add(hi->issue, cost);
		}
		/* a MAT lookup waits for the MAT stage, not the table */
		r = pl->insn_mat[i] == NICPROG_MAT_LOOKUP ? U32_MAX :
		    nicprog_layout_insn_region(ir->in, pl, i);
		if (r < c->lnic->n_regions) {
			lo->wait = br_add(lo->wait, c->ev_min[r]);
			hi->wait = br_add(hi->wait, c->ev_max[r]);
		}
		if (insn->code == (BPF_LD | BPF_IMM | BPF_DW)) {
			i++;	/* its second half is not an instruction */
			continue;
		}
		if (insn->code != (BPF_JMP | BPF_CALL))
			continue;
		if (!insn->src_reg && pl->insn_mat[i] == NICPROG_MAT_LOOKUP) {
			br_job(c, pl->mat_units, pl->mat_service,
			       pl->mat_service, lo, hi);
			continue;
		}
		if (insn->src_reg != BPF_PSEUDO_CALL)
			continue;
		t = i + 1 + insn->imm;
		for (s = 1; s < ir->n_subs && ir->sub_start[s] != t; s++)
			;
		if (pl->insn_accel[i])
			br_call(c, pl->insn_accel[i],
				s < ir->n_subs ? s : U32_MAX, depth, lo, hi);
		else if (s < ir->n_subs)
			br_sub(c, s, depth + 1, lo, hi);
	}
}

/*
 * An accelerator call: an engine job, or where the plan shares the calls
 * (body16) either path -- the least of both and the most.
 */
static void br_call(struct br_ctx *c, u8 afn, u32 s, u32 depth,
		    struct br_cost *lo, struct br_cost *hi)
{
	u8 sh = c->lo->body16[nicprog_accel_fn_type(afn)];
	struct br_cost el = { 0 }, eh = { 0 }, bl = { 0 }, bh = { 0 };

	if (!sh || s == U32_MAX) {
		br_engine(c, afn, lo, hi);
		return;
	}
	br_sub(c, s, depth + 1, &bl, &bh);
	if (sh < NICPROG_SHARE_ALL) {
		br_engine(c, afn, &el, &eh);
		bl.issue = min(bl.issue, el.issue);
		bl.wait = min(bl.wait, el.wait);
		bh.issue = max(bh.issue, eh.issue);
		bh.wait = max(bh.wait, eh.wait);
	}
	lo->issue = br_add(lo->issue, bl.issue);
	lo->wait = br_add(lo->wait, bl.wait);
	hi->issue = br_add(hi->issue, bh.issue);
	hi->wait = br_add(hi->wait, bh.wait);
}

/* What waits at each region cost, least and most. */
static void br_regions(struct br_ctx *c)
{
	const struct nicprog_lnic_region *lr;
	u32 r, slowest = 0, sharers;

	for (r = 0; r < c->lnic->n_regions; r++)
		if (c->cu->region_mask & BIT(r))
			slowest = max(slowest, c->lnic->regions[r].latency_cycles);
	for (r = 0; r < c->lnic->n_regions; r++) {
		lr = &c->lnic->regions[r];
		c->ev_min[r] = lr->cache_bytes ?
			       min(lr->cache_cycles, lr->latency_cycles) :
			       lr->latency_cycles;
		/* an island's banks serve its own cores only */
		sharers = lr->island ?
			  c->threads * min(c->lo->cores, lr->island) :
			  c->sharers;
		/* a run's events past its trace's end wait the slowest */
		c->ev_max[r] = max_t(u64, slowest,
				     lr->latency_cycles +
				     (u64)(sharers - 1) * lr->bank_cycles);
	}
}

/**
 * enum br_pick - which of a node's figures a path sums
 * @BR_ISSUE_MIN: least instruction cycles
 * @BR_RUN_MIN: least instruction cycles and waits
 * @BR_CORE_MAX: most instruction cycles times the threads, plus waits
 */
enum br_pick {
	BR_ISSUE_MIN,
	BR_RUN_MIN,
	BR_CORE_MAX,
	__BR_PICK_MAX,
};

/*
 * The least (or most) sum of @w over a frame's paths through the DAG,
 * counting the nodes of @stage only (U32_MAX: all). @best is scratch of
 * a u64 per node.
 */
static u64 br_path(const struct nicprog_ir *ir, const struct nicprog_layout *lo,
		   const u64 *w, const bool *exits, const bool *nlive,
		   const bool *elive, u32 stage, bool most, u64 *best)
{
	const struct nicprog_ir_edge *e;
	u32 n, k;
	bool here;
	u64 v;

	for (n = 0; n < ir->n_nodes; n++)
		best[n] = exits[n] ? 0 : most ? 0 : U64_MAX;
	/* edges go forward in node order: a node's successors are done */
	for (n = ir->n_nodes; n-- > 0;) {
		if (!nlive[n])
			continue;	/* no frame gets here: no path on */
		here = stage == U32_MAX || lo->node_stage[n] == stage;
		v = best[n] == U64_MAX ? U64_MAX :
		    br_add(best[n], here ? w[n] : 0);
		best[n] = v;
		for (k = ir->in_off[n]; k < ir->in_off[n + 1]; k++) {
			if (!elive[ir->in_edge[k]])
				continue;
			e = &ir->edges[ir->in_edge[k]];
			if (most ? v > best[e->from] : v < best[e->from])
				best[e->from] = v;
		}
	}
	return best[0] == U64_MAX ? 0 : best[0];
}

/*
 * Per node, the figures of enum br_pick, whether a frame may end there and
 * whether one can get there at all (one of its blocks live).
 */
static void br_nodes(struct br_ctx *c, u64 *w[__BR_PICK_MAX], bool *exits,
		     bool *nlive)
{
	const struct nicprog_ir *ir = c->ir;
	const struct nicprog_layout *lo = c->lo;
	const struct nicprog_ir_block *b;
	struct br_cost mn, mx, bl, bh;
	u64 trips;
	u32 n, k;

	for (n = 0; n < ir->n_nodes; n++) {
		exits[n] = false;
		nlive[n] = false;
		w[BR_ISSUE_MIN][n] = 0;
		w[BR_RUN_MIN][n] = 0;
		w[BR_CORE_MAX][n] = 0;
		b = &ir->blocks[ir->node_entry[n]];
		trips = 1;
		if (b->flags & NICPROG_BLK_LOOP)
			trips = max_t(u32, b->trips, 1);
		mn = (struct br_cost){ U64_MAX, U64_MAX };
		mx = (struct br_cost){ 0 };
		for (k = ir->node_off[n]; k < ir->node_off[n + 1]; k++) {
			if (c->live &&
			    !(c->live[ir->node_blk[k]] & NICPROG_BR_RUNS))
				continue;
			nlive[n] = true;
			b = &ir->blocks[ir->node_blk[k]];
			exits[n] |= !b->n_succ;
			bl = (struct br_cost){ 0 };
			bh = (struct br_cost){ 0 };
			br_block(c, b, 0, &bl, &bh);
			/* a loop is entered at one of its blocks */
			mn.issue = min(mn.issue, bl.issue);
			mn.wait = min(mn.wait, bl.wait);
			mx.issue = br_add(mx.issue, bh.issue);
			mx.wait = br_add(mx.wait, bh.wait);
		}
		if (!nlive[n])
			continue;
		/* the host runs it: the NIC's run ends where it begins */
		if (lo->node_host && lo->node_host[n] == NICPROG_NODE_HOST) {
			exits[n] = true;
			continue;
		}
		mx.issue = br_mul(mx.issue, trips);
		mx.wait = br_mul(mx.wait, trips);
		w[BR_ISSUE_MIN][n] = mn.issue;
		w[BR_RUN_MIN][n] = br_add(mn.issue, mn.wait);
		w[BR_CORE_MAX][n] = br_add(br_mul(mx.issue, c->threads), mx.wait);
	}
}

/*
 * Per DAG edge, whether a frame can take it: one of the block edges it
 * stands for leaves a block that runs, the way the frame can go.
 */
static void br_edges(const struct nicprog_ir *ir, const u8 *live, bool *elive)
{
	const struct nicprog_ir_block *b;
	u32 i, j, k, to;

	for (k = 0; k < ir->n_edges; k++)
		elive[k] = !live;
	for (i = 0; live && i < ir->n_blocks; i++) {
		b = &ir->blocks[i];
		if (b->sub || !(live[i] & NICPROG_BR_RUNS))
			continue;
		for (j = 0; j < b->n_succ; j++) {
			if (!(live[i] & (j ? NICPROG_BR_SUCC1 : NICPROG_BR_SUCC0)))
				continue;
			to = ir->blocks[b->succ[j]].node;
			if (to == b->node)
				continue;
			for (k = ir->in_off[to]; k < ir->in_off[to + 1]; k++)
				if (ir->edges[ir->in_edge[k]].from == b->node)
					elive[ir->in_edge[k]] = true;
		}
	}
}

/**
 * nicprog_bracket_live() - bound a plan's throughput and latency over the
 *	frames that take only some blocks and branches
 * @ir: the program
 * @lnic: the NIC
 * @lo: the plan, its cores counted
 * @live: per block (ir->n_blocks), NICPROG_BR_* of what such a frame can
 *	run: the block, its first and its second successor; NULL for any
 *	frame
 * @br: the bounds, set here
 *
 * Context: process; allocates.
 * Return: 0, or -ENOMEM.
 */
int nicprog_bracket_live(const struct nicprog_ir *ir,
			 const struct nicprog_lnic *lnic,
			 const struct nicprog_layout *lo, const u8 *live,
			 struct nicprog_bracket *br)
{
	u64 *w[__BR_PICK_MAX], *best, imin, rmin, cmax, hop, worst = 0;
	u64 tput = U64_MAX, d;
	bool *exits, *nlive, *elive;
	struct br_ctx *c;
	u32 s, p;
	int err = -ENOMEM;

	c = kvcalloc(1, sizeof(*c), GFP_KERNEL);
	best = kvcalloc((size_t)ir->n_nodes * (__BR_PICK_MAX + 1), sizeof(u64),
			GFP_KERNEL);
	exits = kvcalloc(2 * (size_t)ir->n_nodes + ir->n_edges, sizeof(bool),
			 GFP_KERNEL);
	if (!c || !best || !exits)
		goto out;
	nlive = exits + ir->n_nodes;
	elive = nlive + ir->n_nodes;
	br_edges(ir, live, elive);
	for (p = 0; p < __BR_PICK_MAX; p++)
		w[p] = best + (size_t)ir->n_nodes * (p + 1);
	c->ir = ir;
	c->lnic = lnic;
	c->lo = lo;
	c->cu = &lnic->units[lo->core_unit];
	c->threads = max_t(u32, c->cu->threads, 1);
	c->sharers = c->threads * max_t(u32, lo->cores, 1);
	c->live = live;
	br_regions(c);
	br_nodes(c, w, exits, nlive);

	/* a frame a handover takes to the host skips the later stages */
	hop = lo->node_host ? 0 : lo->hop_cycles;
	for (s = 0; s < lo->n_stages; s++) {
		imin = br_path(ir, lo, w[BR_ISSUE_MIN], exits, nlive, elive, s,
			       false, best);
		rmin = br_path(ir, lo, w[BR_RUN_MIN], exits, nlive, elive, s,
			       false, best);
		cmax = br_path(ir, lo, w[BR_CORE_MAX], exits, nlive, elive, s,
			       true, best);
		if (s) {
			imin += hop;
			rmin += hop;
			cmax = br_add(cmax, br_mul(lo->hop_cycles, c->threads));
		}
		d = max_t(u64, imin, div64_u64(rmin + c->threads - 1, c->threads));
		if (d)
			tput = min(tput, div64_u64((u64)lo->stages[s].replicas *
						   1000000ULL, d));
		worst = max(worst, cmax);
	}
	br->tput_max = tput;
	br->tput_min = worst ? div64_u64(1000000ULL * c->threads, worst) :
		       U64_MAX;
	br->lat_min = br_path(ir, lo, w[BR_RUN_MIN], exits, nlive, elive,
			      U32_MAX, false, best) +
		      (u64)(lo->n_stages - 1) * hop;
	br->lat_max = br_add(br_path(ir, lo, w[BR_CORE_MAX], exits, nlive,
				     elive, U32_MAX, true, best),
			     br_mul((u64)(lo->n_stages - 1) * lo->hop_cycles,
				    c->threads));
	err = 0;
out:
	kvfree(exits);
	kvfree(best);
	kvfree(c);
	return err;
}

/**
 * nicprog_bracket() - bound a plan's throughput and latency over any traffic
 * @ir: the program
 * @lnic: the NIC
 * @lo: the plan, its cores counted; its bracket set here
 *
 * Context: process; allocates.
 * Return: 0, or -ENOMEM.
 */
int nicprog_bracket(const struct nicprog_ir *ir,
		    const struct nicprog_lnic *lnic, struct nicprog_layout *lo)
{
	struct nicprog_bracket br;
	int err;

	err = nicprog_bracket_live(ir, lnic, lo, NULL, &br);
	if (err)
		return err;
	lo->br_tput_min = br.tput_min;
	lo->br_tput_max = br.tput_max;
	lo->br_lat_min = br.lat_min;
	lo->br_lat_max = br.lat_max;
	return 0;
}
