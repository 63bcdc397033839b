/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A plan run offline over a workload's frames, stage by stage on the cores
 * the NIC would steer each frame to, with what every run waits for
 * recorded: the predictor's view of the NF's paths.
 */
#ifndef _NICPROG_PLAN_HOSTRUN_H
#define _NICPROG_PLAN_HOSTRUN_H

#include "offload.h"
#include "workload.h"

#define NP_MAX_ENTRIES	1024

/**
 * struct np_entry - an initial table entry
 * @map: the table
 * @key: its key (the table's key size)
 * @val: its value (the table's value size)
 */
struct np_entry {
	u32 map;
	u8 *key;
	u8 *val;
};

/**
 * struct np_run - one stage of one frame on one core
 * @frame: the frame
 * @core: the plan core
 * @stage: the stage
 * @cls: the frame's enum np_wl_class
 * @pass: the frame only passed through (its program ran elsewhere)
 * @cycles: instruction cycles, with the hop from the stage before
 * @ev: its first event in struct np_hostrun.ev
 * @n_ev: its events
 * @lost: memory accesses past the trace's end (not in @ev)
 */
struct np_run {
	u32 frame;
	u16 core;
	u8 stage;
	u8 cls;
	u8 pass;
	u32 cycles;
	u64 ev;
	u32 n_ev;
	u32 lost;
};

/**
 * struct np_event - something a run waited for
 * @at: the run's instruction cycles before it
 * @kind: enum nicprog_exec_event_kind
 * @unit: the region, or the accelerator function
 * @len: an engine job's bytes
 * @line: a memory access's cache line, as an index into the lines the
 *	whole run touched (struct np_hostrun.line_count)
 */
struct np_event {
	u32 at;
	u8 kind;
	u8 unit;
	u16 len;
	u32 line;
};

/* A verdict offline runs cannot know: helpers only the host has decide. */
#define NP_VERDICT_HOST	5
#define NP_VERDICTS	6

/**
 * struct np_hostrun - the offline run of a plan
 * @runs: the runs, in frame order
 * @n_runs: entries in @runs
 * @ev: their events
 * @n_ev: entries in @ev
 * @line_count: per cache line touched, its accesses
 * @line_region: per cache line, its region
 * @line_nic: per cache line, its number on the NIC: the NIC's address
 *	(nicprog_exec_nic_addr()) over NICPROG_LNIC_CACHE_LINE, plus one, as
 *	nicprog_lnic_bank() takes it
 * @n_lines: lines touched
 * @frames: frames run
 * @verdict: per frame, its XDP verdict or NP_VERDICT_HOST
 * @cls: per frame, its enum np_wl_class
 * @class_frames: frames per enum np_wl_class
 * @verdicts: frames per XDP verdict (XDP_ABORTED..XDP_REDIRECT), and
 *	NP_VERDICT_HOST
 * @handovers: partial plans: frames the NIC handed over to the host part
 * @class_handovers: the same per class
 * @host_insns: instructions the host part ran for them (up to a helper
 *	only the host has, for those of @host_decided)
 * @host_decided: handed-over frames whose verdict a helper only the host
 *	has decides (NP_VERDICT_HOST): the host's FIB, neighbours, MTUs,
 *	which no offline run knows
 * @errors: runs the executor stopped
 * @lost: events past a trace's end (counted, not recorded)
 * @engine_diff: frames whose result with engines differed from the BPF
 *	bodies' (verdict, bytes or tables): an engine function that is wrong
 * @reads_clock: the program calls bpf_ktime_get_ns(): its verdicts may
 *	depend on the rate (struct np_hostrun_in.rate)
 * @reads_random: the program calls bpf_get_prandom_u32(): each frame's
 *	stream is seeded by its time on the NIC's clock, as nicsim's
 * @clock_rate: frames per second the clock followed (np_hostrun_in.rate)
 * @pkt_class_frames: frames per enum nicprog_pkt_class (classwalk.c),
 *	the last entry those of none
 * @walk_checked: frames of a packet class (classwalk.c) whose blocks and
 *	branches were checked against the class's walk (np_hostrun_in.ir)
 * @walk_escaped: those that ran a block or took a way the walk had left
 *	to no frame of their class: a bracket that does not hold
 * @walk_frame: the first such frame
 * @walk_class: its enum nicprog_pkt_class
 * @walk_block: the block it should not have reached
 */
struct np_hostrun {
	struct np_run *runs;
	u32 n_runs;
	struct np_event *ev;
	u64 n_ev;
	u32 *line_count;
	u8 *line_region;
	u64 *line_nic;
	u32 n_lines;
	u32 frames;
	u8 *verdict;
	u8 *cls;
	u32 class_frames[__NP_WL_CLASS_MAX];
	u32 verdicts[NP_VERDICTS];
	u32 handovers;
	u32 class_handovers[__NP_WL_CLASS_MAX];
	u64 host_insns;
	u32 host_decided;
	u32 errors;
	u64 lost;
	u32 engine_diff;
	bool reads_clock;
	bool reads_random;
	u64 clock_rate;
	u32 pkt_class_frames[NICPROG_PKT_CLASSES + 1];
	u32 walk_checked;
	u32 walk_escaped;
	u32 walk_frame;
	u32 walk_class;
	u32 walk_block;
};

/**
 * struct np_hostrun_in - what to run
 * @in: the program
 * @exec: its executor program (instructions, context flags, maps)
 * @lnic: the NIC
 * @lo: the plan
 * @entries: initial table entries
 * @n_entries: entries in @entries
 * @ifindex: the ingress port's ifindex
 * @host_tables: tables (bit per index) standing for host XSKMAPs and
 *	CPUMAPs, whose values are the targets the kernel sets (hostmap.c)
 * @rate: frames per second the workload offers, which the program's
 *	clock follows; 0: a frame every microsecond
 * @translated: the NIC's stages run in nicsim's translated form
 * @ir: with @walk, the program's blocks: the host's run of each frame of a
 *	packet class is checked against the class's walk
 * @walk: per enum nicprog_pkt_class, nicprog_class_live() of @ir
 */
struct np_hostrun_in {
	const struct nicprog_ir_input *in;
	const struct nicprog_exec_prog *exec;
	const struct nicprog_lnic *lnic;
	const struct nicprog_layout *lo;
	const struct np_entry *entries;
	u32 n_entries;
	u32 ifindex;
	u64 host_tables;
	u64 rate;
	bool translated;
	const struct nicprog_ir *ir;
	const u8 *walk[NICPROG_PKT_CLASSES];
};

int np_hostrun(const struct np_hostrun_in *hi, const struct np_frames *fr,
	       struct np_hostrun *out, char *why, size_t why_len);
void np_hostrun_free(struct np_hostrun *out);

#endif /* _NICPROG_PLAN_HOSTRUN_H */
