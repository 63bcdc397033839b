// SPDX-License-Identifier: GPL-2.0
/*
 * Memory placement and performance prediction (after Clara). Placement
 * puts the tables with the most expected accesses per packet into the
 * fastest region the cores reach that still has room (an island's region
 * only if the datapath never writes them, or only adds to them: each
 * island holds a copy). Prediction prices
 * every instruction with the core's cost table and the latency of the
 * memory it touches, weighs blocks by their expected frequency, and takes
 * a plan's throughput as the slowest of its stages (replicas times the
 * per-core rate) and of its MAT stages.
 *
 * Units: cycles of the plan's core unit; throughput in packets per million
 * such cycles.
 */
#include "offload.h"

static const struct nicprog_lnic_unit *core_unit(const struct nicprog_lnic *lnic,
						 const struct nicprog_layout *lo)
{
	return &lnic->units[lo->core_unit];
}

/**
 * nicprog_place() - place every table in a memory region
 * @ir: the program
 * @lnic: the NIC
 * @room_left: per region, bytes other programs' tables leave; NULL for
 *	all
 * @lo: the layout; @lo->tables classified, their region set here
 */
void nicprog_place(const struct nicprog_ir *ir,
		   const struct nicprog_lnic *lnic, const u64 *room_left,
		   struct nicprog_layout *lo)
{
	const struct nicprog_lnic_unit *cu = core_unit(lnic, lo);
	u64 room[NICPROG_LNIC_MAX_REGIONS];
	bool done[NICPROG_MAX_TABLES] = { 0 };
	u32 i, r, t, best, slow = 0, fast = U32_MAX;

	for (r = 0; r < lnic->n_regions; r++) {
		room[r] = room_left ? min(room_left[r], lnic->regions[r].size) :
			  lnic->regions[r].size;
		if (!(cu->region_mask & BIT(r)))
			continue;
		if (!(cu->region_mask & BIT(slow)) ||
		    lnic->regions[r].latency_cycles >
		    lnic->regions[slow].latency_cycles)
			slow = r;
		if (fast == U32_MAX || lnic->regions[r].latency_cycles <
				       lnic->regions[fast].latency_cycles)
			fast = r;
	}
	lo->pkt_region = fast;
	for (i = 0; i < lo->n_tables; i++) {
		/* hottest remaining table */
		for (t = U32_MAX, best = 0; best < lo->n_tables; best++)
			if (!done[best] && (t == U32_MAX ||
					    lo->tables[best].acc_fx >
					    lo->tables[t].acc_fx))
				t = best;
		done[t] = true;
		best = U32_MAX;
		for (r = 0; r < lnic->n_regions; r++) {
			if (!(cu->region_mask & BIT(r)) ||
			    room[r] < ir->in->tables[t].bytes)
				continue;
			/*
			 * each island has a copy: only what nothing writes,
			 * or only adds to (a counter is the sum of the
			 * islands' copies, as per-CPU counters are)
			 */
			if (lnic->regions[r].island &&
			    lo->tables[t].cls != NICPROG_TC_READONLY &&
			    lo->tables[t].cls != NICPROG_TC_COUNTER &&
			    lo->tables[t].cls != NICPROG_TC_UNUSED)
				continue;
			if (best == U32_MAX || lnic->regions[r].latency_cycles <
			    lnic->regions[best].latency_cycles)
				best = r;
		}
		if (best == U32_MAX)
			best = slow;	/* the core's accounting already refused */
		else
			room[best] -= ir->in->tables[t].bytes;
		lo->tables[t].region = best;
	}
}

static u32 slowest_latency(const struct nicprog_lnic *lnic,
			   const struct nicprog_lnic_unit *cu)
{
	u32 r, v = 0;

	for (r = 0; r < lnic->n_regions; r++)
		if (cu->region_mask & BIT(r))
			v = max(v, lnic->regions[r].latency_cycles);
	return v;
}

static u64 sub_cost(const struct nicprog_ir *ir,
		    const struct nicprog_lnic *lnic,
		    const struct nicprog_layout *lo, u32 s, u32 depth);

/**
 * nicprog_engine_cycles() - core cycles of one engine job, unqueued
 * @lnic: the NIC
 * @lo: the layout, its engines mapped (accel_unit)
 * @afn: enum nicprog_accel_fn, of an engine the layout uses
 * @len: bytes the job covers
 *
 * Return: the engine's service and per-byte cycles, in the core unit's.
 */
u64 nicprog_engine_cycles(const struct nicprog_lnic *lnic,
			  const struct nicprog_layout *lo, u8 afn, u32 len)
{
	const struct nicprog_lnic_unit *u;
	u32 t = nicprog_accel_fn_type(afn);
	u64 c;

	u = &lnic->units[lo->accel_unit[t]];
	c = u->service_cycles + (u64)u->cycles_per_kib * len / 1024;
	return div64_u64(c * lnic->units[lo->core_unit].clock_mhz,
			 u->clock_mhz ? u->clock_mhz : 1);
}

/*
 * Cycles of one run of a block, callees included; an engine job costs the
 * core its call and the wait. A call the plan shares between its engine
 * and the body (body16) costs each in proportion; the body is priced as
 * every subprogram is, one trip of its loops, so a share's figure is the
 * most it could give -- nicprog-plan --workload runs the bodies.
 */
static u64 block_cycles(const struct nicprog_ir *ir,
			const struct nicprog_lnic *lnic,
			const struct nicprog_layout *lo,
			const struct nicprog_ir_block *b, u32 depth)
{
	const struct bpf_insn *insn;
	u64 c = 0, eng;
	u32 i, t, s, sh;

	for (i = b->start; i < b->end; i++) {
		insn = &ir->in->insns[i];
		c += lo->insn_cycles[i];
		if (insn->code != (BPF_JMP | BPF_CALL) ||
		    insn->src_reg != BPF_PSEUDO_CALL)
			continue;
		t = i + 1 + insn->imm;
		for (s = 1; s < ir->n_subs && ir->sub_start[s] != t; s++)
			;
		sh = lo->insn_accel[i] ?
		     lo->body16[nicprog_accel_fn_type(lo->insn_accel[i])] :
		     NICPROG_SHARE_ALL;
		eng = 0;
		if (lo->insn_accel[i])
			eng = nicprog_engine_cycles(lnic, lo, lo->insn_accel[i],
						    NICPROG_ACCEL_NOMINAL_LEN);
		/* engine jobs and bodies in the plan's proportion (body16) */
		c += eng * (NICPROG_SHARE_ALL - sh) / NICPROG_SHARE_ALL;
		if (sh && s < ir->n_subs)
			c += sub_cost(ir, lnic, lo, s, depth + 1) * sh /
			     NICPROG_SHARE_ALL;
	}
	return c;
}

/* Expected cycles of one call of subprogram @s. */
static u64 sub_cost(const struct nicprog_ir *ir,
		    const struct nicprog_lnic *lnic,
		    const struct nicprog_layout *lo, u32 s, u32 depth)
{
	u32 first = ir->insn_block[ir->sub_start[s]], i;
	u64 c = 0;

	if (depth > 8)		/* MAX_CALL_FRAMES: the verifier bounds it */
		return 0;
	for (i = first; i < ir->n_blocks && ir->blocks[i].sub == s; i++)
		c += ir->blocks[i].freq * block_cycles(ir, lnic, lo,
						       &ir->blocks[i], depth);
	return c / NICPROG_FX;
}

/**
 * nicprog_predict_costs() - price instructions and DAG nodes
 * @ir: the program
 * @lnic: the NIC
 * @lo: the layout, tables placed; fills insn_cycles and node_cost_fx
 */
void nicprog_predict_costs(const struct nicprog_ir *ir,
			   const struct nicprog_lnic *lnic,
			   struct nicprog_layout *lo)
{
	const struct nicprog_lnic_unit *cu = core_unit(lnic, lo);
	u32 lat_pkt = lnic->regions[lo->pkt_region].latency_cycles;
	u32 lat_any = slowest_latency(lnic, cu);
	const struct nicprog_insn_meta *m;
	const struct bpf_insn *insn;
	u32 i, lat, c, t;
	u8 cls;

	for (i = 0; i < ir->in->len; i++) {
		insn = &ir->in->insns[i];
		m = &ir->in->meta[i];
		cls = BPF_CLASS(insn->code);
		c = cu->cost[nicprog_insn_class(insn->code)];
		lat = m->map < lo->n_tables ?
		      lnic->regions[lo->tables[m->map].region].latency_cycles :
		      lat_any;
		if (cls == BPF_LDX || cls == BPF_ST || cls == BPF_STX) {
			if (m->ptr == NICPROG_PTR_PACKET)
				c += lat_pkt;
			else if (m->ptr == NICPROG_PTR_MAP_VALUE)
				c += lat;
		} else if (insn->code == (BPF_JMP | BPF_CALL) &&
			   !insn->src_reg && !lo->insn_mat[i] &&
			   m->helper >= BPF_FUNC_map_lookup_elem &&
			   m->helper <= BPF_FUNC_map_delete_elem) {
			c += lat;
		}
		/* a MAT stage runs an identified loop, not the core */
		lo->insn_cycles[i] = lo->insn_mat[i] == NICPROG_MAT_REGION ? 0 :
				     min_t(u32, c, 0xffff);
	}
	for (i = 0; i < ir->n_nodes; i++)
		lo->node_cost_fx[i] = 0;
	for (i = 0; i < ir->n_main; i++)
		lo->node_cost_fx[ir->blocks[i].node] +=
			(u64)ir->blocks[i].freq *
			block_cycles(ir, lnic, lo, &ir->blocks[i], 0);
	lo->mat_cost_fx = 0;
	memset(lo->accel_cost_fx, 0, sizeof(lo->accel_cost_fx));
	for (i = 0; i < ir->in->len; i++) {
		if (!lo->insn_accel[i] || ir->insn_block[i] >= ir->n_main)
			continue;
		t = nicprog_accel_fn_type(lo->insn_accel[i]);
		lo->accel_cost_fx[t] +=
			(u64)ir->blocks[ir->insn_block[i]].freq *
			nicprog_engine_cycles(lnic, lo, lo->insn_accel[i],
					      NICPROG_ACCEL_NOMINAL_LEN) *
			(NICPROG_SHARE_ALL - lo->body16[t]) / NICPROG_SHARE_ALL;
	}
	for (i = 0; i < ir->in->len; i++)
		if (lo->insn_mat[i] == NICPROG_MAT_LOOKUP &&
		    ir->insn_block[i] < ir->n_main)
			lo->mat_cost_fx +=
				(u64)ir->blocks[ir->insn_block[i]].freq *
				lo->mat_service;
	/* an identified loop is one MAT lookup per entry, not per trip */
	for (i = 0; i < ir->n_nodes; i++) {
		const struct nicprog_ir_block *b = &ir->blocks[ir->node_entry[i]];

		if (lo->insn_mat[b->start] == NICPROG_MAT_REGION)
			lo->mat_cost_fx += (u64)b->freq / b->trips *
					   lo->mat_service;
	}
}

/**
 * nicprog_rate() - throughput of identical units
 * @units: how many
 * @cost_fx: cycles one packet takes on one, times NICPROG_FX
 *
 * Return: packets per million cycles; U64_MAX for a zero cost.
 */
u64 nicprog_rate(u64 units, u64 cost_fx)
{
	if (!cost_fx)
		return U64_MAX;
	return div64_u64(units * 1000000ULL * NICPROG_FX, cost_fx);
}

/**
 * nicprog_predict() - predict a layout's stage costs, throughput, latency
 * @ir: the program
 * @lo: the layout: costs priced, node_stage and replicas set
 */
void nicprog_predict(const struct nicprog_ir *ir, struct nicprog_layout *lo)
{
	struct nicprog_stage *st;
	const struct nicprog_ir_edge *e;
	u64 tput = U64_MAX;
	u32 s, i;

	for (s = 0; s < lo->n_stages; s++) {
		lo->stages[s].cost_fx = s ? (u64)NICPROG_FX * lo->hop_cycles : 0;
		lo->stages[s].in_bytes = 0;
	}
	for (i = 0; i < ir->n_nodes; i++)
		lo->stages[lo->node_stage[i]].cost_fx += lo->node_cost_fx[i];
	for (i = 0; i < ir->n_edges; i++) {
		e = &ir->edges[i];
		if (lo->node_host && lo->node_host[e->to] == NICPROG_NODE_HOST) {
			/* the NIC writes the handed-over state, 8 bytes a cycle */
			if (lo->node_host[e->from] != NICPROG_NODE_HOST)
				lo->stages[lo->node_stage[e->from]].cost_fx +=
					(u64)e->freq * (e->bytes / 8);
			continue;
		}
		st = &lo->stages[lo->node_stage[e->to]];
		if (lo->node_stage[e->from] == lo->node_stage[e->to])
			continue;
		/* one cycle per 8 bytes of live state restored */
		st->cost_fx += (u64)e->freq * (e->bytes / 8);
		st->in_bytes = max(st->in_bytes, e->bytes);
	}
	lo->lat = 0;
	for (s = 0; s < lo->n_stages; s++) {
		st = &lo->stages[s];
		tput = min(tput, nicprog_rate(st->replicas, st->cost_fx));
		lo->lat += st->cost_fx;
	}
	for (s = 0; s < __NICPROG_ACCEL_MAX; s++)
		if (lo->accel_cost_fx[s])
			tput = min(tput, nicprog_rate(lo->accel_count[s],
						      lo->accel_cost_fx[s]));
	if (lo->mat_cost_fx) {
		tput = min(tput, nicprog_rate(lo->mat_units, lo->mat_cost_fx));
		lo->lat += lo->mat_cost_fx;
	}
	lo->lat /= NICPROG_FX;
	lo->tput = tput;
}

/**
 * nicprog_layout_bound() - the shared table that bounds a plan, if one does
 * @lo: a predicted layout
 * @stage: set to the stage the table keeps on one core
 *
 * A shared-mutable table keeps its accessors on one core, in a stage of
 * their own where pipelining can make one: no core the budget has left
 * over raises the rate of that stage. Said only where that stage is what
 * limits the prediction and cores were left unused for it.
 *
 * Return: the table's index, or U32_MAX when no such table bounds @lo.
 */
u32 nicprog_layout_bound(const struct nicprog_layout *lo, u32 *stage)
{
	const struct nicprog_stage *st;
	u32 s, t;

	if (lo->cores >= lo->budget)
		return U32_MAX;
	for (s = 0; s < lo->n_stages; s++) {
		st = &lo->stages[s];
		if (st->replicas != 1 || st->replicable ||
		    nicprog_rate(1, st->cost_fx) != lo->tput)
			continue;
		for (t = 0; t < lo->n_tables; t++)
			if ((st->tables & BIT_ULL(t)) &&
			    lo->tables[t].cls == NICPROG_TC_SHARED) {
				*stage = s;
				return t;
			}
	}
	return U32_MAX;
}
