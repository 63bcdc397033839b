// SPDX-License-Identifier: GPL-2.0
/*
 * Plans and predictions in words or JSON (the CLI's json.c prints both
 * from the same calls, so the two cannot say different things), and the
 * handler graph as DOT.
 */
#include <stdio.h>
#include <stdlib.h>

#include "json.h"
#include "report.h"

static const char * const verdict_names[NP_VERDICTS] = {
	"aborted", "drop", "pass", "tx", "redirect", "host"
};

/**
 * np_print_fx() - a fixed-point quantity, truncated to two decimals as the
 * kernel prints it
 * @fx: the quantity times NICPROG_FX
 */
void np_print_fx(u64 fx)
{
	u64 c = fx * 100 / NICPROG_FX;

	printf("%llu.%02llu", (unsigned long long)(c / 100),
	       (unsigned long long)(c % 100));
}

static void out_fx(const char *key, const char *prefix, u64 fx)
{
	if (!out_json()) {
		fputs(prefix, stdout);
		np_print_fx(fx);
	}
	out_double(key, NULL, (double)fx / NICPROG_FX);
}

/* The host part of a partial plan, in the kernel's words. */
static void report_host(const struct nicprog_ir *ir,
			const struct nicprog_lnic *lnic,
			const struct nicprog_layout *lo)
{
	struct nicprog_lnic_summary sum;
	u32 *pcs, n, i;
	u64 pct;

	nicprog_lnic_summarize(lnic, &sum);
	out_open_object("host");
	out_uint("nodes", "host: %llu nodes", lo->host_nodes);
	out_uint("insns", ", %llu insns", lo->host_insns);
	out_uint("nic_insns", " (the NIC holds %llu", lo->nic_insns);
	out_uint("insn_store", " of %llu)", sum.insn_store);
	out_string("reason", ": %s\n", lo->host_why);
	/* truncated, as the kernel prints it */
	pct = lo->host_share_fx * 10000 / NICPROG_FX;
	out_text("host: %llu.%02llu%% of packets handed over (predicted)",
		 (unsigned long long)pct / 100, (unsigned long long)pct % 100);
	out_double("share", NULL, (double)lo->host_share_fx / NICPROG_FX);
	out_uint("state_bytes", ", at most %llu bytes of state, at insns",
		 lo->host_bytes);
	pcs = calloc(lo->host_entries ?: 1, sizeof(*pcs));
	n = pcs ? nicprog_host_entries(ir, lo, pcs, lo->host_entries) : 0;
	out_open_array("entries");
	for (i = 0; i < n; i++)
		out_uint(NULL, " %llu", pcs[i]);
	out_close_array();
	out_text("\n");
	free(pcs);
	out_close_object();
}

/* The plan's static bracket (bracket.c), worded as the kernel's plan file. */
static void report_bracket(const struct nicprog_layout *lo)
{
	out_text("static bracket: ");
	out_bracket("bracket_", lo->br_tput_min, lo->br_tput_max,
		    lo->br_lat_min, lo->br_lat_max);
	out_text(", over any traffic\n");
}

/* The static bracket per packet class (classwalk.c), as the kernel's. */
static void report_pkt_classes(const struct nicprog_ir *ir,
			       const struct nicprog_layout *lo)
{
	const struct nicprog_class_bracket *c;
	u32 i;

	out_open_array("pkt_class_brackets");
	for (i = 0; i < NICPROG_PKT_CLASSES; i++) {
		c = &lo->cls_br[i];
		out_open_object(NULL);
		out_string("class", "static bracket for %s frames: ",
			   nicprog_pkt_class_name(i));
		out_bracket("", c->br.tput_min, c->br.tput_max,
			    c->br.lat_min, c->br.lat_max);
		out_uint("blocks", ", %llu", c->blocks);
		out_uint("of_blocks", " of %llu blocks\n", ir->n_blocks);
		out_close_object();
	}
	out_close_array();
}

/*
 * The plan's per-class brackets (the kernel's) over the classes of the
 * frames, and over any traffic if some are of none: what `nicprog prog
 * show` tells a user who knows the kinds of frames, not the frames.
 */
static void report_plan_classes(const struct np_hostrun *hr,
				const struct nicprog_layout *lo)
{
	struct nicprog_bracket u = { U64_MAX, 0, U64_MAX, 0 };
	const struct nicprog_bracket *b;
	struct nicprog_bracket any = {
		lo->br_tput_min, lo->br_tput_max, lo->br_lat_min, lo->br_lat_max,
	};
	u32 i;

	for (i = 0; i <= NICPROG_PKT_CLASSES; i++) {
		if (!hr->pkt_class_frames[i])
			continue;
		b = i < NICPROG_PKT_CLASSES ? &lo->cls_br[i].br : &any;
		u.tput_min = min(u.tput_min, b->tput_min);
		u.tput_max = max(u.tput_max, b->tput_max);
		u.lat_min = min(u.lat_min, b->lat_min);
		u.lat_max = max(u.lat_max, b->lat_max);
	}
	if (!u.tput_max)
		return;
	out_text("static bracket for the frames' packet classes: ");
	out_bracket("plan_class_", u.tput_min, u.tput_max, u.lat_min,
		    u.lat_max);
	out_text(", the plan's\n");
}

/*
 * The kernel's class walks checked on the offline runs: a frame of a
 * class that ran a block or took a branch its class's walk left out
 * would be a per-class bracket that does not hold.
 */
static void report_walks(const struct np_hostrun *hr,
			 const struct nicprog_layout *lo)
{
	u32 i;

	out_open_object("pkt_classes");
	for (i = 0; i <= NICPROG_PKT_CLASSES; i++) {
		out_text(i ? ", " : "packet classes (the plan's static brackets): ");
		out_uint(i < NICPROG_PKT_CLASSES ? nicprog_pkt_class_name(i) :
			 "none", NULL, hr->pkt_class_frames[i]);
		out_text("%s %u", i < NICPROG_PKT_CLASSES ?
			 nicprog_pkt_class_name(i) : "none",
			 hr->pkt_class_frames[i]);
	}
	out_text("\n");
	out_close_object();
	report_plan_classes(hr, lo);
	out_uint("walk_checked", "class walks: %llu frames of a packet class checked",
		 hr->walk_checked);
	out_uint("walk_escaped", ", %llu ran outside their class's walk",
		 hr->walk_escaped);
	if (hr->walk_escaped) {
		out_uint("walk_frame", " (first: frame %llu", hr->walk_frame);
		out_string("walk_class", ", class %s",
			   nicprog_pkt_class_name(hr->walk_class));
		out_uint("walk_block", ", block %llu)", hr->walk_block);
	}
	out_text("\n");
}

/*
 * The bracket over the workload's classes (classbr.c): a frame of a class
 * is inside its class's, so a run of the mix is inside their union.
 */
static void report_class_bracket(const struct np_class_bracket *cb)
{
	struct nicprog_bracket u = { U64_MAX, 0, U64_MAX, 0 };
	u32 i;

	for (i = 0; i < __NP_WL_CLASS_MAX; i++) {
		if (!cb[i].frames)
			continue;
		u.tput_min = min(u.tput_min, cb[i].br.tput_min);
		u.tput_max = max(u.tput_max, cb[i].br.tput_max);
		u.lat_min = min(u.lat_min, cb[i].br.lat_min);
		u.lat_max = max(u.lat_max, cb[i].br.lat_max);
	}
	if (!u.tput_max)
		return;
	out_text("static bracket for these classes: ");
	out_bracket("class_bracket_", u.tput_min, u.tput_max, u.lat_min,
		    u.lat_max);
	out_text(", over any flows, tables and payload (per class below)\n");
}

/* Per class: its bracket, the blocks its frames reach, its lengths. */
static void report_class_table(const struct np_class_bracket *cb)
{
	u32 i;

	out_text("class\tbracket throughput\tbracket latency\tblocks\tlengths\n");
	out_open_array("class_brackets");
	for (i = 0; i < __NP_WL_CLASS_MAX; i++) {
		if (!cb[i].frames)
			continue;
		out_open_object(NULL);
		out_string("class", "%s", np_wl_class_name(i));
		out_uint("tput_min", "\t%llu", cb[i].br.tput_min);
		out_uint("tput_max", "..%llu", cb[i].br.tput_max);
		out_uint("latency_min", "\t%llu", cb[i].br.lat_min);
		out_uint("latency_max", "..%llu", cb[i].br.lat_max);
		out_uint("blocks", "\t%llu", cb[i].blocks);
		out_uint("of_blocks", " of %llu", cb[i].of_blocks);
		out_uint("len_min", "\t%llu", cb[i].len_min);
		out_uint("len_max", "..%llu", cb[i].len_max);
		out_bool("differs", NULL, cb[i].differs);
		out_text(cb[i].differs ?
			 " (a frame differs in a field the class fixes: lengths only)\n" :
			 "\n");
		out_close_object();
	}
	out_close_array();
}

/*
 * The plan's share of accelerator calls run as BPF bodies on the cores,
 * where it has one (--engine-share): engine sixteenths, as dev-set's.
 */
static void report_share(const struct nicprog_layout *lo)
{
	u32 t;

	for (t = 0; t < __NICPROG_ACCEL_MAX && !lo->body16[t]; t++)
		;
	if (t == __NICPROG_ACCEL_MAX)
		return;
	out_open_array("engine_share");
	for (t = 0; t < __NICPROG_ACCEL_MAX; t++) {
		if (!lo->body16[t])
			continue;
		out_open_object(NULL);
		out_string("accel", "engine share: %s", nicprog_accel_type_name(t));
		out_uint("engine16", " %llu/16 engine jobs",
			 NICPROG_SHARE_ALL - lo->body16[t]);
		out_uint("body16", ", %llu/16 the function's body on the cores\n",
			 lo->body16[t]);
		out_close_object();
	}
	out_close_array();
}

/**
 * np_report_plan() - the plan, as the kernel's debugfs file words it
 * @ir: the program
 * @lnic: the NIC
 * @lo: the plan
 * @lim: with --partial, what the NIC holds (tables that did not fit)
 */
void np_report_plan(const struct nicprog_ir *ir,
		    const struct nicprog_lnic *lnic,
		    const struct nicprog_layout *lo,
		    const struct nicprog_host_limits *lim)
{
	const struct nicprog_stage *st;
	const char *region;
	u32 s, t, src;

	out_uint("insns", "program: %llu insns", ir->in->len);
	out_uint("blocks", ", %llu blocks", ir->n_blocks);
	out_uint("nodes", ", %llu nodes", ir->n_nodes);
	out_uint("edges", ", %llu edges\n", ir->n_edges);
	out_string("shape", "shape %s", nicprog_layout_shape(lo));
	out_string("shape_asked", " (asked %s)", nicprog_shape_name(lo->shape));
	out_uint("cores", ", cores %llu", lo->cores);
	out_uint("budget", " of %llu", lo->budget);
	out_uint("n_stages", ", stages %llu\n", lo->n_stages);
	out_uint("tput", "predicted %llu packets per million cycles", lo->tput);
	out_uint("latency", ", latency %llu cycles\n", lo->lat);
	report_share(lo);
	report_bracket(lo);
	report_pkt_classes(ir, lo);
	src = nicprog_ir_sources(ir->in);
	out_bool("reads_clock", NULL, src & NICPROG_IR_READS_CLOCK);
	out_bool("reads_random", NULL, src & NICPROG_IR_READS_RANDOM);
	if (src)
		out_text("varies: its verdicts may depend on %s, which this prediction does not know\n",
			 nicprog_ir_sources_name(src));
	out_open_array("stages");
	for (s = 0; s < lo->n_stages; s++) {
		st = &lo->stages[s];
		out_open_object(NULL);
		out_uint("index", "stage %llu: ", s);
		out_uint("first_core", "cores %llu", st->first_core);
		out_text("-%u", st->first_core + st->replicas - 1);
		out_uint("replicas", NULL, st->replicas);
		out_string("steer", ", steer %s", nicprog_steer_name(st->steer));
		out_uint("nodes", ", nodes %llu", st->n_nodes);
		out_uint("state_bytes", ", state in %llu bytes", st->in_bytes);
		out_fx("cycles", ", cycles ", st->cost_fx);
		out_text("\n");
		out_close_object();
	}
	out_close_array();
	t = nicprog_layout_bound(lo, &s);
	if (t != U32_MAX) {
		out_open_object("bound");
		out_uint("table", "bound: table %llu is shared-mutable", t);
		out_uint("stage", " and keeps stage %llu on one core", s);
		out_uint("tput", ": at most %llu packets per million cycles, however many cores\n",
			 lo->tput);
		out_close_object();
	}
	if (lo->node_host)
		report_host(ir, lnic, lo);
	out_open_array("tables");
	for (t = 0; t < lo->n_tables; t++) {
		if (lim && (lim->host_tables & BIT_ULL(t)))
			region = "host (it did not fit the NIC)";
		else if (lo->host_tables & BIT_ULL(t))
			region = "host";
		else
			region = lnic->regions[lo->tables[t].region].name;
		out_open_object(NULL);
		out_uint("index", "table %llu: ", t);
		out_string("class", "%s",
			   nicprog_table_class_name(lo->tables[t].cls));
		out_bool("mat", NULL, lo->tables[t].mat && lo->mat_units);
		out_text("%s", lo->tables[t].mat && lo->mat_units ? " (mat)" : "");
		out_string("region", ", region %s", region);
		out_fx("accesses", ", accesses ", lo->tables[t].acc_fx);
		out_string("reason", ": %s\n", lo->tables[t].why);
		out_close_object();
	}
	out_close_array();
}

/*
 * The bound a shared-mutable table's stage puts on the plan, as this
 * workload meets it: said where that stage's core is the bottleneck.
 */
static void report_workload_bound(const struct nicprog_layout *lo,
				  const struct np_prediction *p)
{
	char core[16];
	u32 s, t, n;

	t = nicprog_layout_bound(lo, &s);
	if (t == U32_MAX)
		return;
	n = snprintf(core, sizeof(core), "core%u", lo->stages[s].first_core);
	if (strncmp(p->bottleneck, core, n) ||
	    (p->bottleneck[n] && p->bottleneck[n] != ' '))
		return;
	out_open_object("bound");
	out_uint("table", "bound: table %llu is shared-mutable", t);
	out_uint("stage", " and keeps stage %llu on one core", s);
	out_double("tput", ": at most %.1f frames per million cycles on this workload, however many cores\n",
		   p->tput);
	out_close_object();
}

/* Per packet class of the workload: what its frames do on average. */
static void report_classes(const struct np_prediction *p)
{
	const struct np_pred_class *c;
	u32 i;

	out_text("class\tframes\tverdict\truns\tcycles\tlatency\tmem\thit%%\tjobs\tmat\n");
	out_open_array("classes");
	for (i = 0; i < __NP_WL_CLASS_MAX; i++) {
		c = &p->cls[i];
		if (!c->frames)
			continue;
		out_open_object(NULL);
		out_string("class", "%s", np_wl_class_name(i));
		out_uint("frames", "\t%llu", c->frames);
		out_string("verdict", "\t%s", verdict_names[c->verdict]);
		out_double("runs", "\t%.2f", c->runs);
		out_double("cycles", "\t%.1f", c->cycles);
		out_double("latency", "\t%.1f", c->lat);
		out_double("mem", "\t%.1f", c->mem);
		out_double("hit", "\t%.1f", 100 * c->hit);
		out_double("jobs", "\t%.2f", c->jobs);
		out_double("mat", "\t%.2f\n", c->mat);
		out_close_object();
	}
	out_close_array();
}

/* A partial plan: the frames handed over, and what the host ran. */
static void report_handovers(const struct np_hostrun *hr)
{
	u32 i;

	out_open_object("host");
	out_uint("handovers", "host: %llu", hr->handovers);
	out_text(" of %u frames handed over (%.1f%%):", hr->frames,
		 hr->frames ? 100.0 * hr->handovers / hr->frames : 0);
	out_open_object("class_handovers");
	for (i = 0; i < __NP_WL_CLASS_MAX; i++) {
		if (!hr->class_handovers[i])
			continue;
		out_text(" %s", np_wl_class_name(i));
		out_uint(np_wl_class_name(i), " %llu",
			 hr->class_handovers[i]);
	}
	out_close_object();
	out_text("\n");
	out_uint("insns", NULL, hr->host_insns);
	out_uint("host_decided", NULL, hr->host_decided);
	if (hr->handovers && !hr->host_decided)
		out_text("host: %llu insns on the host (%.1f per handover)\n",
			 (unsigned long long)hr->host_insns,
			 (double)hr->host_insns / hr->handovers);
	else if (hr->handovers)
		out_text("host: %u verdicts the host's helpers decide (not predicted offline); %llu insns on the host up to them\n",
			 hr->host_decided,
			 (unsigned long long)hr->host_insns);
	out_close_object();
}

static void report_units(const struct np_prediction *p)
{
	u32 i;

	out_text("unit\tutilisation\n");
	out_open_array("units");
	for (i = 0; i < p->n_units; i++) {
		out_open_object(NULL);
		out_string("name", "%s", p->units[i].name);
		out_double("util", "\t%.3f\n", p->units[i].util);
		out_close_object();
	}
	out_close_array();
}

/**
 * np_report_prediction() - a workload's predicted performance
 * @in: the workload (@in->w), the NIC (@in->lnic), the plan (@in->lo),
 *	the offline run of the plan over the workload's frames (@in->hr),
 *	what the NIC's model made of it (@in->p: its throughput, Mpps and
 *	latency the samples' mean, the rest the first sample's), the samples
 *	of the description (@in->d) and the static bracket per class of the
 *	frames (@in->cb, classbr.c; NULL for none)
 */
void np_report_prediction(const struct np_report_in *in)
{
	const struct np_workload *w = in->w;
	const struct nicprog_lnic *lnic = in->lnic;
	const struct nicprog_layout *lo = in->lo;
	const struct np_hostrun *hr = in->hr;
	const struct np_prediction *p = in->p;
	const struct np_draws *d = in->d;
	const struct np_class_bracket *cb = in->cb;
	u32 i;

	out_string("workload", "workload %s: ", w->name);
	out_uint("frames", "%llu frames", hr->frames);
	if (w->flows) {
		out_uint("flows", ", %llu flows", w->flows);
		out_string("flow_dist", " %s", w->zipf ? "zipf" : "uniform");
	}
	if (w->replies)
		out_uint("replies_pct", ", %llu%% replies", w->replies);
	out_string("shape", "; plan %s", nicprog_layout_shape(lo));
	out_uint("cores", ", cores %llu", lo->cores);
	out_uint("n_stages", ", stages %llu\n", lo->n_stages);
	out_double("tput", "predicted throughput %.1f frames per million cycles",
		   p->tput);
	out_double("mpps", " (%.3f Mpps", p->mpps);
	out_uint("clock_mhz", " at %llu MHz)",
		 lnic->units[lo->core_unit].clock_mhz);
	out_double("latency", ", latency %.1f cycles", p->lat);
	out_string("bottleneck", ", bottleneck %s\n", p->bottleneck);
	report_workload_bound(lo, p);
	report_share(lo);
	report_bracket(lo);
	if (cb)
		report_class_bracket(cb);
	report_walks(hr, lo);
	if (d->n > 1) {
		out_uint("samples", "over %llu samples of the description", d->n);
		out_uint("seed", " (seeds %llu", w->seed);
		out_uint("seed_step", " + k * %llu): throughput", d->step);
		out_double("tput_min", " %.1f", d->tput_min);
		out_double("tput_max", " to %.1f", d->tput_max);
		out_double("latency_min", ", latency %.1f", d->lat_min);
		out_double("latency_max", " to %.1f", d->lat_max);
		out_text("; the figures above are their mean, the bottleneck and what follows the first sample's\n");
	}
	if (p->bank.known && !p->bank.trials)
		out_uint("bank_known", "bank interleaving: the NIC's, as its profile gives it (interleave hash), in every banked region the plan uses (%llu); no spread\n",
			 p->bank.known);
	else if (p->bank.known)
		out_uint("bank_known", "bank interleaving: the NIC's in %llu banked regions the plan uses (interleave hash), not in the rest:\n",
			 p->bank.known);
	if (p->bank.trials) {
		/* the NIC has one interleaving; the figures price their mean */
		out_double("bank_tput_min", "bank interleavings: throughput %.1f",
			   p->bank.tput_min);
		out_double("bank_tput_max", " to %.1f", p->bank.tput_max);
		out_double("bank_latency_min", ", latency %.1f",
			   p->bank.lat_min);
		out_double("bank_latency_max", " to %.1f", p->bank.lat_max);
		out_uint("bank_trials", " (the least and the most loaded of %llu; the figures above price their expectation)\n",
			 p->bank.trials);
	}
	if (p->offered) {
		/* what the queues into the cores cannot hold is dropped */
		out_uint("offered_kpps", "offered %llu kpps: ", w->rate_kpps);
		out_double("offered_share", "%.1f%% of that", 100 * p->offered);
		out_uint("drops", ", %llu", p->drops);
		out_double("drop_share", " dropped (%.1f%%)\n",
			   hr->frames ? 100.0 * p->drops / hr->frames : 0);
	}
	out_open_object("verdicts");
	out_text("verdicts:");
	for (i = 0; i < NP_VERDICTS; i++)
		if (hr->verdicts[i]) {
			out_text(" %s", verdict_names[i]);
			out_uint(verdict_names[i], " %llu", hr->verdicts[i]);
		}
	out_close_object();
	out_text("\n");
	if (hr->reads_clock && w->rate_kpps)
		out_string("clock", "clock: %s\n", "the program reads bpf_ktime_get_ns(); frame n at n / rate s, as on the NIC under that offered load");
	else if (hr->reads_clock && hr->clock_rate) {
		out_string("clock", "clock: %s", "the program reads bpf_ktime_get_ns() and the workload gives no rate: frames as fast as the NIC takes them, the clock at the throughput predicted");
		out_uint("clock_rate", " (%llu frames per second)\n", hr->clock_rate);
	} else if (hr->reads_clock)
		out_string("clock", "clock: %s\n", "the program reads bpf_ktime_get_ns() and the workload gives no rate: a frame every microsecond; its verdicts may differ at the NIC's own rate");
	if (hr->reads_random)
		out_string("random", "random: %s\n", "the program reads bpf_get_prandom_u32(): each frame's stream is seeded by its time on the NIC's clock, as nicsim's; on a NIC without such a clock its verdicts are a sample");
	report_classes(p);
	if (cb)
		report_class_table(cb);
	if (lo->node_host)
		report_handovers(hr);
	report_units(p);
	out_uint("errors", NULL, hr->errors);
	if (hr->errors)
		out_text("executor stopped %u runs (see the verdicts)\n",
			 hr->errors);
}

/* The instructions of a node: the span of its blocks. */
static void node_span(const struct nicprog_ir *ir, u32 n, u32 *lo, u32 *hi)
{
	const struct nicprog_ir_block *b;
	u32 i;

	*lo = U32_MAX;
	*hi = 0;
	for (i = ir->node_off[n]; i < ir->node_off[n + 1]; i++) {
		b = &ir->blocks[ir->node_blk[i]];
		if (b->start < *lo)
			*lo = b->start;
		if (b->end > *hi)
			*hi = b->end;
	}
}

static void dot_node(const struct nicprog_ir *ir,
		     const struct nicprog_layout *lo, u32 n)
{
	u32 first, end;

	node_span(ir, n, &first, &end);
	printf("\t\tn%u [label=\"node %u\\ninsns %u-%u\\n", n, n, first,
	       end - 1);
	np_print_fx(lo->node_cost_fx[n]);
	printf(" cycles\"];\n");
}

/* Where a node runs: its stage, or NICPROG_MAX_STAGES for the host. */
static u32 node_place(const struct nicprog_layout *lo, u32 n)
{
	if (lo->node_host && lo->node_host[n] == NICPROG_NODE_HOST)
		return NICPROG_MAX_STAGES;
	return lo->node_stage[n];
}

/* The nodes that run at @place, and the end of their cluster. */
static void dot_nodes(const struct nicprog_ir *ir,
		      const struct nicprog_layout *lo, u32 place)
{
	u32 n;

	for (n = 0; n < ir->n_nodes; n++)
		if (node_place(lo, n) == place)
			dot_node(ir, lo, n);
	printf("\t}\n");
}

/**
 * np_report_dot() - the handler graph as a Graphviz digraph
 * @name: the graph's name (the object's file name)
 * @ir: the program
 * @lnic: the NIC
 * @lo: the plan
 *
 * One cluster per stage, labelled with its cores and steering, and one
 * for what the host runs; a node per DAG node with its instructions and
 * expected cycles per packet; edges labelled with the state they carry
 * and how often they are taken, bold where they cross stages (the state
 * goes over the NIC's queues there).
 */
void np_report_dot(const char *name, const struct nicprog_ir *ir,
		   const struct nicprog_lnic *lnic,
		   const struct nicprog_layout *lo)
{
	const struct nicprog_stage *st;
	const struct nicprog_ir_edge *e;
	const char *p;
	u32 s, i;

	printf("digraph \"");
	for (p = name; *p; p++)
		printf(*p == '"' || *p == '\\' ? "\\%c" : "%c", *p);
	printf("\" {\n\tlabel=\"%s: shape %s, cores %u, predicted %llu packets per million cycles, latency %llu cycles\";\n",
	       lnic->name, nicprog_layout_shape(lo), lo->cores,
	       (unsigned long long)lo->tput, (unsigned long long)lo->lat);
	printf("\tnode [shape=box, fontname=\"monospace\"];\n");
	for (s = 0; s < lo->n_stages; s++) {
		st = &lo->stages[s];
		printf("\tsubgraph cluster_s%u {\n\t\tlabel=\"stage %u: cores %u-%u, steer %s\";\n",
		       s, s, st->first_core, st->first_core + st->replicas - 1,
		       nicprog_steer_name(st->steer));
		dot_nodes(ir, lo, s);
	}
	if (lo->node_host) {
		printf("\tsubgraph cluster_host {\n\t\tlabel=\"host: %s\";\n\t\tstyle=dashed;\n",
		       lo->host_why);
		dot_nodes(ir, lo, NICPROG_MAX_STAGES);
	}
	for (i = 0; i < ir->n_edges; i++) {
		e = &ir->edges[i];
		printf("\tn%u -> n%u [label=\"%u B, ", e->from, e->to,
		       e->bytes);
		np_print_fx(e->freq);
		printf("\"%s];\n",
		       node_place(lo, e->from) != node_place(lo, e->to) ?
		       ", style=bold" : "");
	}
	printf("}\n");
}
