/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The offloader: pure algorithms that turn a verified program into a plan
 * for a logical NIC. Nothing here touches the kernel beyond compat.h, so
 * the same files build in userspace (unit tests, benchmarks, offline
 * planning).
 *
 *   facts (struct nicprog_insn_meta, filled by the verifier hooks)
 *     -> IR (ir.c): basic blocks, the DAG of their strongly connected
 *        components, instruction classes, packet bytes, table accesses,
 *        live registers and stack bytes on every edge, key provenance
 *     -> table classes (classify.c): read-only, sharded, shared-mutable
 *     -> layout (partition.c): engines and MAT stages (mapping.c), stages
 *        by min-cut (pipelining.c), replicas (replication.c), placement
 *        and prediction (predict.c)
 */
#ifndef _NICPROG_OFFLOAD_H
#define _NICPROG_OFFLOAD_H

#include "compat.h"
#include <linux/bpf.h>
#include <net/nicprog_exec.h>
#include <net/nicprog_lnic.h>

#define NICPROG_MAX_TABLES	64
#define NICPROG_MAP_NONE	0xff	/* struct nicprog_insn_meta.map */
#define NICPROG_MAP_MANY	0xfe	/* different tables on different paths */
#define NICPROG_KEY_MAX		48	/* key bytes the offloader can shard by */
#define NICPROG_MAX_STAGES	16
#define NICPROG_MAX_SUBPROGS	256
#define NICPROG_FX		65536	/* fixed point of frequencies */

/* Offsets of stack accesses and helper arguments: struct nicprog_insn_meta */
enum nicprog_meta_flags {
	NICPROG_META_STACK	= 1 << 0,	/* stack_off holds on some path */
	NICPROG_META_STACK_VAR	= 1 << 1,	/* ...but not on every path */
	NICPROG_META_KEY	= 1 << 2,	/* key_off (R2) likewise */
	NICPROG_META_KEY_VAR	= 1 << 3,
	NICPROG_META_VAL	= 1 << 4,	/* val_off (R3) likewise */
	NICPROG_META_VAL_VAR	= 1 << 5,
	NICPROG_META_SPILL_PTR	= 1 << 6,	/* stores a map value pointer */
	NICPROG_META_AFN	= 1 << 7,	/* afn holds on some path */
	NICPROG_META_AFN_VAR	= 1 << 8,	/* ...but not on every path */
	NICPROG_META_IDENT	= 1 << 9,	/* afn identified (ident.c) */
	NICPROG_META_HOST_CALL	= 1 << 10,	/* only the host answers it */
};

/**
 * struct nicprog_insn_meta - what the verifier told us of one instruction,
 *	over every path that reaches it
 * @ptr: enum nicprog_ptr_kind of the memory a load or store accesses
 * @dst_kinds: kinds the destination register held, bit per kind
 * @src_kinds: kinds the source register held, likewise
 * @map: table index of a map value access or map helper call, or
 *	NICPROG_MAP_NONE / NICPROG_MAP_MANY
 * @flags: enum nicprog_meta_flags
 * @mapval_regs: registers that may hold a map value pointer before it
 * @stack_off: frame pointer offset of a main-frame stack access
 * @key_off: frame pointer offset of a map helper's key (R2), or of the
 *	memory bpf_fib_lookup (R2) or bpf_check_mtu (R3) reads
 * @val_off: frame pointer offset of map_update_elem's value (R3)
 * @stack_args: calls: arguments that may point to the stack, bit 0 for R1
 * @afn: subprogram calls: enum nicprog_accel_fn the call passes as its
 *	accelerator id on every path, or that its target was identified as
 *	(NICPROG_META_IDENT), or NICPROG_AFN_NONE
 * @ident: an identified call's NICPROG_EXEC_ACCEL_* conventions
 * @helper: helper id of a call, recorded before fixups rewrite it
 * @pkt_lo: lowest packet byte a packet access touches, from the frame start
 * @pkt_hi: one past the highest packet byte it touches
 * @visits: times the verifier reached it (for loops: a bound on the
 *	iterations, relative to the loop's entry)
 * @ptr_regs: registers holding a context, packet or stack pointer before
 *	it, on some path (what a handover to the host rebases)
 * @data_regs: registers holding a scalar before it, on some path
 * @other_regs: registers holding any other pointer, on some path
 * @ptr_slots: main-frame stack slots (bit i for bytes [-8(i+1), -8i) of
 *	the frame pointer) holding a spilled context, packet or stack
 *	pointer, on some path; all 0 before instructions of subprograms
 * @data_slots: slots holding data (a spilled scalar, bytes), likewise
 * @other_slots: slots holding any other spilled pointer, likewise
 */
struct nicprog_insn_meta {
	u8 ptr;
	u8 dst_kinds;
	u8 src_kinds;
	u8 map;
	u8 stack_args;
	u8 afn;
	u8 ident;
	u16 flags;
	u16 mapval_regs;
	s16 stack_off;
	s16 key_off;
	s16 val_off;
	s32 helper;
	s32 pkt_lo;
	s32 pkt_hi;
	u32 visits;
	u16 ptr_regs;
	u16 data_regs;
	u16 other_regs;
	u64 ptr_slots;
	u64 data_slots;
	u64 other_slots;
};

#define NICPROG_MAX_TRIPS	1024	/* iterations a loop is assumed to run */

/* The kind of memory an instruction accesses, from the verifier. */
enum nicprog_ptr_kind {
	NICPROG_PTR_NONE,
	NICPROG_PTR_SCALAR,
	NICPROG_PTR_CTX,
	NICPROG_PTR_PACKET,
	NICPROG_PTR_MAP_VALUE,
	NICPROG_PTR_STACK,
	NICPROG_PTR_OTHER,
};

/* What a register holds, for the fact recorder (note.c). */
enum {
	NICPROG_REG_UNINIT	= 1 << 0,	/* no path wrote it */
	NICPROG_REG_FRAME	= 1 << 1,	/* points at frame bytes */
	NICPROG_REG_MAP_VALUE	= 1 << 2,	/* a map value, not a key */
	NICPROG_REG_CONST	= 1 << 3,	/* @var is its value/offset */
	NICPROG_REG_MAIN_STACK	= 1 << 4,	/* the main frame's stack */
};

/**
 * struct nicprog_reg_view - a register, as the verifier or nicprog-plan's
 *	abstract interpreter knows it before an instruction
 * @kind: enum nicprog_ptr_kind (NICPROG_PTR_OTHER for an unwritten one)
 * @flags: NICPROG_REG_*
 * @off: a pointer's fixed offset
 * @var: a constant scalar's value, or a pointer's constant variable offset
 *	(NICPROG_REG_CONST)
 * @umax: upper bound of a pointer's variable offset
 * @map: the map it points into or is, compared by identity; NULL if none
 */
struct nicprog_reg_view {
	u8 kind;
	u8 flags;
	s32 off;
	u64 var;
	u64 umax;
	const void *map;
};

/* Bits of registers or stack slots, by what they hold (note.c). */
struct nicprog_note_masks {
	u64 ptr;
	u64 data;
	u64 other;
};

/* The table index of a map a register names; the recorder's caller numbers. */
typedef u8 (*nicprog_table_fn)(void *priv, const void *map);

void nicprog_note_sort(const struct nicprog_reg_view *reg, u64 bit,
		       struct nicprog_note_masks *m);
int nicprog_note_insn(struct nicprog_insn_meta *meta,
		      const struct bpf_insn *insn, u32 idx,
		      const struct nicprog_reg_view *regs,
		      nicprog_table_fn table, void *priv,
		      char *why, size_t len);

/**
 * struct nicprog_ir_table - a table as the offloader sees it
 * @type: BPF_MAP_TYPE_*
 * @key_size: bytes of a key
 * @value_size: bytes of a value
 * @max_entries: capacity
 * @bytes: NIC memory it takes
 */
struct nicprog_ir_table {
	u32 type;
	u32 key_size;
	u32 value_size;
	u32 max_entries;
	u64 bytes;
};

/**
 * struct nicprog_ir_input - a verified program and its facts
 * @insns: instructions as verified, map loads as table indices
 * @meta: per instruction
 * @len: instructions
 * @tables: the tables, by index
 * @n_tables: entries in @tables
 */
struct nicprog_ir_input {
	const struct bpf_insn *insns;
	const struct nicprog_insn_meta *meta;
	u32 len;
	const struct nicprog_ir_table *tables;
	u32 n_tables;
};

/* struct nicprog_ir_block.flags */
enum nicprog_block_flags {
	NICPROG_BLK_UNSAFE_IN	= 1 << 0,	/* a map value pointer is live in */
	NICPROG_BLK_LOOP	= 1 << 1,	/* part of a loop */
	NICPROG_BLK_ADJ_HEAD	= 1 << 2,	/* moves the frame start */
	NICPROG_BLK_EXIT	= 1 << 3,	/* an early exit (rarely taken) */
};

/**
 * struct nicprog_ir_block - a basic block
 * @start: first instruction
 * @end: one past the last
 * @succ: successor blocks
 * @n_succ: entries in @succ
 * @sub: subprogram the block belongs to
 * @flags: enum nicprog_block_flags
 * @live_regs: registers live on entry (R10 excluded)
 * @live_stack: 8-byte stack slots of the main frame live on entry, bit i
 *	for bytes [-8(i+1), -8i) of the frame pointer
 * @tbl_rd: tables read, bit per table index
 * @tbl_wr: tables written
 * @ic: instructions per enum nicprog_insn_class
 * @pkt_rd_lo: packet bytes read: [@pkt_rd_lo, @pkt_rd_hi), empty if equal
 * @pkt_rd_hi: see @pkt_rd_lo
 * @pkt_wr_lo: packet bytes written, likewise
 * @pkt_wr_hi: see @pkt_wr_lo
 * @freq: expected runs per packet (per call for subprograms), NICPROG_FX
 *	is once
 * @trips: iterations assumed for a block of a loop, 1 otherwise
 * @node: component of the main program's DAG (main program blocks only)
 */
struct nicprog_ir_block {
	u32 start;
	u32 end;
	u32 succ[2];
	u8 n_succ;
	u8 sub;
	u8 flags;
	u16 live_regs;
	u64 live_stack;
	u64 tbl_rd;
	u64 tbl_wr;
	u32 ic[__NICPROG_IC_MAX];
	s32 pkt_rd_lo;
	s32 pkt_rd_hi;
	s32 pkt_wr_lo;
	s32 pkt_wr_hi;
	u32 freq;
	u32 trips;
	u32 node;
};

/**
 * struct nicprog_ir_edge - a control edge between two DAG nodes
 * @from: source node
 * @to: target node
 * @bytes: live state the edge carries: live registers and stack bytes
 * @unsafe: it carries a map value pointer, which must not leave the core
 *	(an element may be freed once the core leaves its RCU section)
 * @freq: expected traversals per packet, NICPROG_FX is once
 */
struct nicprog_ir_edge {
	u32 from;
	u32 to;
	u32 bytes;
	u8 unsafe;
	u32 freq;
};

/**
 * struct nicprog_ir_keyuse - a map helper call and where its key comes from
 * @insn: the call
 * @table: table index
 * @helper: BPF_FUNC_map_*
 * @pure: every key byte is a packet byte at a fixed offset or a constant,
 *	and at least one is a packet byte
 * @konst: every key byte is a constant
 * @pkt: per key byte, the packet byte it copies, or -1 - value for a
 *	constant byte (valid when @pure)
 */
struct nicprog_ir_keyuse {
	u32 insn;
	u8 table;
	u8 helper;
	u8 pure;
	u8 konst;
	s16 pkt[NICPROG_KEY_MAX];
};

/**
 * struct nicprog_ir - the program as the offloader's passes see it
 * @in: the input it was built from
 * @blocks: basic blocks, those of the main program first
 * @n_blocks: entries in @blocks
 * @n_main: blocks of the main program
 * @insn_block: per instruction, its block
 * @n_subs: subprograms, the main program is 0
 * @sub_start: first instruction of each subprogram
 * @n_nodes: components of the main program's DAG, numbered in a
 *	topological order
 * @node_entry: per node, its first block in instruction order
 * @node_off: per node, where its blocks start in @node_blk (n_nodes + 1)
 * @node_blk: the main program's blocks, grouped by node
 * @edges: edges between distinct nodes
 * @n_edges: entries in @edges
 * @in_off: per node, where its incoming edges start in @in_edge
 * @in_edge: edge indices, grouped by target node
 * @keys: map helper calls of the main program
 * @n_keys: entries in @keys
 * @anc: per node, bitmap of its ancestors (itself included), or NULL if
 *	the program is too large to keep it
 * @anc_words: u64 words per bitmap in @anc
 */
struct nicprog_ir {
	const struct nicprog_ir_input *in;
	struct nicprog_ir_block *blocks;
	u32 n_blocks;
	u32 n_main;
	u32 *insn_block;
	u32 n_subs;
	u32 sub_start[NICPROG_MAX_SUBPROGS];
	u32 n_nodes;
	u32 *node_entry;
	u32 *node_off;
	u32 *node_blk;
	struct nicprog_ir_edge *edges;
	u32 n_edges;
	u32 *in_off;
	u32 *in_edge;
	struct nicprog_ir_keyuse *keys;
	u32 n_keys;
	u64 *anc;
	u32 anc_words;
};

int nicprog_ir_build(const struct nicprog_ir_input *in, struct nicprog_ir *ir,
		     const char **why);
void nicprog_ir_free(struct nicprog_ir *ir);

/*
 * What beyond the frame and its tables a program's verdicts may depend on,
 * which a prediction from the program alone cannot know
 */
enum nicprog_ir_source {
	NICPROG_IR_READS_CLOCK = 1 << 0,	/* bpf_ktime_get_ns() */
	NICPROG_IR_READS_RANDOM = 1 << 1,	/* bpf_get_prandom_u32() */
};

u32 nicprog_ir_sources(const struct nicprog_ir_input *in);
const char *nicprog_ir_sources_name(u32 src);

static inline bool nicprog_ir_is_ancestor(const struct nicprog_ir *ir,
					  u32 a, u32 node)
{
	return ir->anc[(u64)node * ir->anc_words + a / 64] & BIT_ULL(a % 64);
}

/* Table classes (Alkali): enum nicprog_table_class, in the uapi */

/**
 * struct nicprog_table_info - what the offloader decided for one table
 * @cls: enum nicprog_table_class
 * @mat: every datapath access is a lookup keyed by header bytes, so a MAT
 *	stage can serve it
 * @key_len: bytes of the key (sharded tables)
 * @key_pkt: per key byte, the packet byte the key copies (or -1 - value
 *	for a constant byte); steering hashes these packet bytes
 * @sym: some accesses key it by @key_pkt's bytes exchanged in pairs (a
 *	flow and its reverse), the others by @key_pkt: steering hashes the
 *	lesser of the two copies, the same for both directions
 * @key_sym: with @sym, @key_pkt's pattern swapped
 * @why: the reason for @cls, for operators
 * @acc_fx: expected accesses per packet, NICPROG_FX is one
 * @region: LNIC memory region it is placed in
 */
struct nicprog_table_info {
	u8 cls;
	u8 mat;
	u8 key_len;
	u8 sym;
	s16 key_pkt[NICPROG_KEY_MAX];
	s16 key_sym[NICPROG_KEY_MAX];
	const char *why;
	u64 acc_fx;
	u8 region;
};

void nicprog_classify(const struct nicprog_ir *ir,
		      struct nicprog_table_info *info);
const char *nicprog_table_class_name(unsigned int cls);

/* Plans: enum nicprog_shape and enum nicprog_steer are in the uapi */

/**
 * struct nicprog_stage - one stage of a plan
 * @replicas: cores running it
 * @first_core: index of the first of them among the plan's cores
 * @steer: enum nicprog_steer
 * @shard_table: the table whose key steers (NICPROG_STEER_KEY*)
 * @replicable: no shared-mutable table, one shard key at most
 * @n_nodes: DAG nodes in the stage
 * @tables: tables its blocks access
 * @cost_fx: predicted NIC cycles per packet on one core of the stage,
 *	times NICPROG_FX (every packet, as the stage sees each)
 * @in_bytes: largest live state carried into the stage
 */
struct nicprog_stage {
	u32 replicas;
	u32 first_core;
	u8 steer;
	u8 shard_table;
	bool replicable;
	u32 n_nodes;
	u64 tables;
	u64 cost_fx;
	u32 in_bytes;
};

/**
 * struct nicprog_bracket - a plan's static bracket (bracket.c)
 * @tput_min: the least throughput, packets per million cycles
 * @tput_max: the most
 * @lat_min: the least mean latency, cycles
 * @lat_max: the most
 */
struct nicprog_bracket {
	u64 tput_min;
	u64 tput_max;
	u64 lat_min;
	u64 lat_max;
};

#define NICPROG_PKT_CLASSES	__NICPROG_PKT_MAX

/**
 * struct nicprog_class_bracket - the static bracket over one packet class
 * @br: the bounds
 * @blocks: blocks a frame of the class can run
 */
struct nicprog_class_bracket {
	struct nicprog_bracket br;
	u32 blocks;
};

/**
 * struct nicprog_layout - the offloader's plan for one program on one NIC
 * @shape: what was asked for, enum nicprog_shape
 * @budget: cores it could use
 * @n_stages: entries in @stages
 * @stages: the stages, in packet order
 * @node_stage: per DAG node, its stage
 * @insn_stage: per instruction, the stage of its block (0xff for
 *	instructions of subprograms, which run where they are called)
 * @insn_cycles: per instruction, NIC cycles: class cost plus the latency
 *	of the memory it touches where the plan placed it
 * @insn_mat: per instruction, NICPROG_MAT_LOOKUP for a lookup a MAT stage
 *	serves, NICPROG_MAT_REGION for a part of a loop one MAT lookup
 *	replaces (ident.c)
 * @tables: per table, class and placement
 * @pkt_region: the region frames in flight live in: the fastest the
 *	cores reach
 * @n_tables: entries in @tables
 * @tput: predicted packets per million NIC cycles
 * @lat: predicted mean cycles from the wire to the verdict
 * @mat_cost_fx: MAT cycles per packet, times NICPROG_FX
 * @cores: cores used
 * @core_unit: the LNIC unit whose cores run the stages
 * @hop_cycles: cycles a core spends receiving a packet from a queue
 * @node_cost_fx: per DAG node, expected cycles per packet times NICPROG_FX
 * @mat_units: MAT stages the plan uses: its slice of the NIC's
 *	(nicprog_slice_units()), 0 if it makes no MAT lookup
 * @mat_service: cycles of one MAT lookup, in core cycles
 * @insn_accel: per instruction, the enum nicprog_accel_fn an engine runs
 *	for this call, or NICPROG_AFN_NONE (the body runs on the core)
 * @accel_unit: per enum nicprog_accel_type, the LNIC unit, or U32_MAX
 * @accel_count: per enum nicprog_accel_type, engines the plan uses: its
 *	slice of that unit's, 0 if it calls none of that kind
 * @accel_cost_fx: per enum nicprog_accel_type, engine cycles per packet
 *	(core cycles), times NICPROG_FX
 * @body16: per enum nicprog_accel_type, sixteenths of the calls the cores
 *	run as the called function's BPF body instead of an engine job
 *	(nicprog_layout_share(); 0 for a type the plan has no engine of)
 * @node_host: partial offload: per DAG node, where it runs (enum
 *	nicprog_node_side, host.c); NULL when the NIC runs the whole program
 * @host_nodes: nodes the host runs
 * @host_insns: main-program instructions the host runs
 * @nic_insns: instructions the NIC holds
 * @host_entries: block edges where the NIC hands a run over
 * @host_bytes: largest live state a handover carries
 * @host_share_fx: expected handovers per packet, NICPROG_FX is all
 * @host_tables: tables only the host part accesses, bit per table
 * @host_why: what the NIC could not hold, for operators
 * @br_tput_min: static bracket (bracket.c): the least throughput, packets
 *	per million cycles, over any traffic
 * @br_tput_max: the most
 * @br_lat_min: the least mean latency, cycles
 * @br_lat_max: the most
 * @cls_br: the static bracket per enum nicprog_pkt_class (classwalk.c)
 */
struct nicprog_layout {
	u8 shape;
	u32 budget;
	u32 n_stages;
	struct nicprog_stage stages[NICPROG_MAX_STAGES];
	u8 *node_stage;
	u8 *insn_stage;
	u16 *insn_cycles;
	u8 *insn_mat;
	struct nicprog_table_info *tables;
	u8 pkt_region;
	u32 n_tables;
	u64 tput;
	u64 lat;
	u64 mat_cost_fx;
	u32 cores;
	u32 core_unit;
	u32 hop_cycles;
	u64 *node_cost_fx;
	u32 mat_units;
	u32 mat_service;
	u8 *insn_accel;
	u32 accel_unit[__NICPROG_ACCEL_MAX];
	u32 accel_count[__NICPROG_ACCEL_MAX];
	u64 accel_cost_fx[__NICPROG_ACCEL_MAX];
	u8 body16[__NICPROG_ACCEL_MAX];
	u8 *node_host;
	u32 host_nodes;
	u32 host_insns;
	u32 nic_insns;
	u32 host_entries;
	u32 host_bytes;
	u64 host_share_fx;
	u64 host_tables;
	const char *host_why;
	u64 br_tput_min;
	u64 br_tput_max;
	u64 br_lat_min;
	u64 br_lat_max;
	struct nicprog_class_bracket cls_br[NICPROG_PKT_CLASSES];
};

/* struct nicprog_layout.node_host */
enum nicprog_node_side {
	NICPROG_NODE_NIC,
	NICPROG_NODE_HOST,
	NICPROG_NODE_BOTH,	/* a small exit: in either part's stage */
};

/**
 * struct nicprog_host_limits - what a NIC holds, for a partial offload
 * @insn_store: instructions one core holds
 * @host_tables: tables kept in host memory, bit per table index
 */
struct nicprog_host_limits {
	u32 insn_store;
	u64 host_tables;
};

/* struct nicprog_layout.insn_mat */
#define NICPROG_MAT_LOOKUP	1
#define NICPROG_MAT_REGION	2

#define NICPROG_ACCEL_NOMINAL_LEN	256	/* bytes per job, for prediction */
#define NICPROG_SHARE_ALL		16	/* struct nicprog_layout.body16 */

const char *nicprog_accel_fn_name(unsigned int afn);

#define NICPROG_HOP_CYCLES	12	/* dequeue and restore, per packet */

/**
 * struct nicprog_units_free - what other ports' plans leave a plan of the
 *	NIC's fixed-function units and memory
 * @accel: per enum nicprog_accel_type, engines of that kind
 * @mat: MAT stages
 * @room: per LNIC region, bytes their tables leave (of each instance of
 *	an island's region)
 */
struct nicprog_units_free {
	u32 accel[__NICPROG_ACCEL_MAX];
	u32 mat;
	u64 room[NICPROG_LNIC_MAX_REGIONS];
};

int nicprog_layout_build(const struct nicprog_ir *ir,
			 const struct nicprog_lnic *lnic, u8 shape,
			 u32 budget, const struct nicprog_host_limits *host,
			 struct nicprog_layout *lo, const char **why);
int nicprog_layout_build_slice(const struct nicprog_ir *ir,
			       const struct nicprog_lnic *lnic, u8 shape,
			       u32 budget, const struct nicprog_units_free *avail,
			       const struct nicprog_host_limits *host,
			       struct nicprog_layout *lo, const char **why);
int nicprog_layout_share(const struct nicprog_ir *ir,
			 const struct nicprog_lnic *lnic, const u8 *body16,
			 struct nicprog_layout *lo);

/**
 * nicprog_share_body() - whether a call runs as its body under a share
 * @body16: the type's share, struct nicprog_layout.body16
 * @turn: the type's calls before this one, counted by the caller
 *
 * Spreads the bodies evenly over every sixteen calls, so that each core
 * of a replicated stage mixes both kinds in the plan's proportion.
 *
 * Return: true if this call runs the body on the core.
 */
static inline bool nicprog_share_body(u8 body16, u32 turn)
{
	turn %= NICPROG_SHARE_ALL;
	return (turn + 1) * body16 / NICPROG_SHARE_ALL !=
	       turn * body16 / NICPROG_SHARE_ALL;
}

u32 nicprog_slice_units(const struct nicprog_lnic *lnic, u32 budget,
			u32 count, u32 avail);
int nicprog_host_cut(const struct nicprog_ir *ir, u64 written,
		     const u64 *node_tables,
		     const struct nicprog_host_limits *lim,
		     struct nicprog_layout *lo, const char **why);
u32 nicprog_host_call_insn(const struct nicprog_ir_input *in);
u32 nicprog_host_entries(const struct nicprog_ir *ir,
			 const struct nicprog_layout *lo, u32 *pcs, u32 max);
void nicprog_layout_free(struct nicprog_layout *lo);
void nicprog_layout_exec(const struct nicprog_ir_input *in,
			 const struct nicprog_layout *lo, u8 *flags,
			 u8 *region);
const char *nicprog_shape_name(unsigned int shape);
const char *nicprog_steer_name(unsigned int steer);

/* Does a stage steered so hash a sharded table's key? */
static inline bool nicprog_steer_by_key(u8 steer)
{
	return steer == NICPROG_STEER_KEY ||
	       steer == NICPROG_STEER_KEY_SYMMETRIC;
}

const char *nicprog_layout_shape(const struct nicprog_layout *lo);
u8 nicprog_layout_insn_region(const struct nicprog_ir_input *in,
			      const struct nicprog_layout *lo, u32 i);
bool nicprog_layout_valid(const struct nicprog_ir *ir,
			  const struct nicprog_layout *lo, const char **why);
u64 nicprog_rate(u64 units, u64 cost_fx);
#ifndef __KERNEL__
/* tools/nicprog-plan/optimum.c: the yardstick, for tools and tests only */
int nicprog_layout_apply(const struct nicprog_ir *ir,
			 const struct nicprog_lnic *lnic,
			 struct nicprog_layout *lo, const u8 *node_stage,
			 u32 n_stages, const u32 *replicas, const char **why);
int nicprog_layout_optimum(const struct nicprog_ir *ir,
			   const struct nicprog_lnic *lnic, u32 budget,
			   struct nicprog_layout *lo, const char **why);
#endif

/* bracket.c */
int nicprog_bracket(const struct nicprog_ir *ir,
		    const struct nicprog_lnic *lnic, struct nicprog_layout *lo);
/* what a kind of frame can run of a block, for nicprog_bracket_live() */
#define NICPROG_BR_RUNS		BIT(0)	/* the block */
#define NICPROG_BR_SUCC0	BIT(1)	/* the way to its succ[0] */
#define NICPROG_BR_SUCC1	BIT(2)	/* the way to its succ[1] */
int nicprog_bracket_live(const struct nicprog_ir *ir,
			 const struct nicprog_lnic *lnic,
			 const struct nicprog_layout *lo, const u8 *live,
			 struct nicprog_bracket *br);

/* classwalk.c */
const char *nicprog_pkt_class_name(u32 cls);
u32 nicprog_pkt_class_of(const u8 *f, u32 len);
int nicprog_class_live(const struct nicprog_ir *ir, u32 cls, u8 *live,
		       u32 *n_live);
int nicprog_class_brackets(const struct nicprog_ir *ir,
			   const struct nicprog_lnic *lnic,
			   struct nicprog_layout *lo);

/* predict.c */
void nicprog_predict(const struct nicprog_ir *ir, struct nicprog_layout *lo);
u32 nicprog_layout_bound(const struct nicprog_layout *lo, u32 *stage);
u64 nicprog_engine_cycles(const struct nicprog_lnic *lnic,
			  const struct nicprog_layout *lo, u8 afn, u32 len);
void nicprog_predict_costs(const struct nicprog_ir *ir,
			   const struct nicprog_lnic *lnic,
			   struct nicprog_layout *lo);
void nicprog_place(const struct nicprog_ir *ir,
		   const struct nicprog_lnic *lnic, const u64 *room,
		   struct nicprog_layout *lo);

/* classify.c */
u64 nicprog_ir_table_bytes(u32 type, u32 key_size, u32 value_size,
			   u32 max_entries);

/*
 * Tables of the kinds 6.1 will not bind to a device keep their own map
 * type in the IR (BPF_MAP_TYPE_LRU_HASH, BPF_MAP_TYPE_LPM_TRIE); the NIC
 * holds them as hash tables of that kind. An LPM table keys each element
 * by struct bpf_lpm_trie_key -- a host-order prefix length, then the
 * data -- with the bits past the prefix cleared, and a lookup probes its
 * key cut to each length the table holds, longest first.
 */
#define NICPROG_LPM_DATA_OFF	4
#define NICPROG_LPM_DATA_MAX	256	/* lpm_trie.c's LPM_DATA_SIZE_MAX */

/**
 * nicprog_ir_lpm_key() - an LPM key cut to a prefix length
 * @key_size: bytes of the key, NICPROG_LPM_DATA_OFF + 1 to + DATA_MAX
 * @key: the key
 * @plen: the prefix length, at most 8 bits per byte of data
 * @out: @key_size bytes: @plen, then @key's data with the bits past
 *	@plen cleared
 */
static inline void nicprog_ir_lpm_key(u32 key_size, const u8 *key, u32 plen,
				      u8 *out)
{
	u32 n = key_size - NICPROG_LPM_DATA_OFF, full = plen / 8;

	memcpy(out, &plen, sizeof(plen));
	memcpy(out + NICPROG_LPM_DATA_OFF, key + NICPROG_LPM_DATA_OFF, full);
	if (full < n) {
		out[NICPROG_LPM_DATA_OFF + full] =
			key[NICPROG_LPM_DATA_OFF + full] &
			(u8)(0xff00 >> (plen % 8));
		memset(out + NICPROG_LPM_DATA_OFF + full + 1, 0, n - full - 1);
	}
}

/**
 * nicprog_ir_lpm_plen() - the prefix length of an LPM key
 * @key: the key
 *
 * Return: its host-order prefix length.
 */
static inline u32 nicprog_ir_lpm_plen(const void *key)
{
	u32 plen;

	memcpy(&plen, key, sizeof(plen));
	return plen;
}

/**
 * struct nicprog_subprog - a subprogram, as its BTF describes it
 * @start: first instruction
 * @global: a global function (the verifier checked it on its own, for
 *	any arguments of its types)
 * @engine_shape: of the accelerator functions' shape,
 *	f(ctx, u64 off, u64 len, u32 seed) returning an integer
 */
struct nicprog_subprog {
	u32 start;
	bool global;
	bool engine_shape;
};

/* A jump with successors to follow: neither a call nor an exit. */
static inline bool nicprog_insn_is_jump(const struct bpf_insn *insn)
{
	u8 cls = BPF_CLASS(insn->code), op = BPF_OP(insn->code);

	return (cls == BPF_JMP || cls == BPF_JMP32) && op != BPF_CALL &&
	       op != BPF_EXIT;
}

/*
 * The accelerator a value names as an id (bpf/nicprog.h's NICPROG_AFN()),
 * or NICPROG_AFN_NONE for any other value.
 */
static inline u8 nicprog_afn_of(u64 v)
{
	return (v & ~0xffULL) == NICPROG_AFN_MAGIC && (v & 0xff) &&
	       (v & 0xff) < __NICPROG_AFN_MAX ? v & 0xff : NICPROG_AFN_NONE;
}

/* A line for the verifier log (kernel) or stderr (tools). */
typedef void (*nicprog_log_fn)(void *priv, const char *line);

/**
 * struct nicprog_ident_body - a reference body of an engine function
 * @name: the function's name in @source
 * @source: the BPF source that holds it, with the argument that it
 *	computes @accel for every input
 * @cc: the compilers and flags that emitted @insns
 * @accel: the engine function, and the NICPROG_EXEC_ACCEL_* conventions
 *	the body keeps around it
 * @len: instructions
 * @insns: the instructions, as @cc emitted them
 *
 * The table (ident_bodies.c) is generated by tools/ident/gen.
 */
struct nicprog_ident_body {
	const char *name;
	const char *source;
	const char *cc;
	u8 accel;
	u32 len;
	const struct bpf_insn *insns;
};

extern const struct nicprog_ident_body nicprog_ident_bodies[];
extern const u32 nicprog_ident_n_bodies;

#define NICPROG_IDENT_MAX	8	/* functions tried per program */

/**
 * struct nicprog_ident_result - what identification made of one function
 * @target: its first instruction
 * @body: the reference body it is; if not identified, the one it agrees
 *	with longest from its entry, or NULL
 * @same: if not identified, instructions alike with @body
 * @why: NULL if identified, else why not (a static string)
 */
struct nicprog_ident_result {
	u32 target;
	const struct nicprog_ident_body *body;
	u32 same;
	const char *why;
};

/* calls.c */
void nicprog_calls_check_accel(const struct bpf_insn *insns,
			       struct nicprog_insn_meta *meta, u32 len,
			       const struct nicprog_subprog *subs, u32 n_subs,
			       nicprog_log_fn log, void *priv);
void nicprog_calls_ident(const struct nicprog_exec_prog *exec,
			 struct nicprog_insn_meta *meta,
			 const struct nicprog_subprog *subs, u32 n_subs,
			 struct nicprog_ident_result *res, u32 *n_res,
			 nicprog_log_fn log, void *priv);

/* ident.c */
bool nicprog_ident_fn(const struct bpf_insn *insns,
		      const struct nicprog_insn_meta *meta, u32 entry, u32 end,
		      const struct nicprog_ident_body **body, u32 *same,
		      const char **why);
u32 nicprog_ident_lpm(const struct nicprog_ir *ir, struct nicprog_layout *lo);

/* replication.c: cores per stage maximizing the slowest stage's rate */
void nicprog_replicate(const u64 *cost_fx, const bool *replicable, u32 n,
		       u32 budget, u32 *replicas);

/* mincut.c: minimum s-t cut by max flow (Edmonds-Karp) */
#define NICPROG_CAP_INF		(U64_MAX / 8)

struct nicprog_flow {
	u32 n;
	u32 n_arcs;
	u32 max_arcs;
	u32 *head;	/* per vertex, first arc or U32_MAX */
	u32 *next;	/* per arc */
	u32 *to;	/* per arc */
	u64 *cap;	/* per arc, residual */
	u32 *queue;
	u32 *prev;	/* per vertex, arc it was reached by */
};

int nicprog_flow_init(struct nicprog_flow *f, u32 n, u32 max_edges);
void nicprog_flow_free(struct nicprog_flow *f);
int nicprog_flow_add(struct nicprog_flow *f, u32 u, u32 v, u64 cap);
u64 nicprog_flow_mincut(struct nicprog_flow *f, u32 s, u32 t, u8 *side);

#endif /* _NICPROG_OFFLOAD_H */
