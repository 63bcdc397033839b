// SPDX-License-Identifier: GPL-2.0
/*
 * The offloader's algorithms, natively: minimum cut against brute force,
 * replication against exhaustive search, table classes on hand-made
 * programs, and the plan invariants on every layout of many random
 * programs, for every shape and core budget.
 */
#include "compat.h"
#include "offload.h"

#include "kselftest_harness.h"

static u64 rng = 88172645463325252ULL;

static u32 rnd(u32 n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (u32)(rng >> 11) % n;
}

/* Minimum cut */

struct arc { u32 u, v; u64 c; };

static u64 brute_cut(const struct arc *a, u32 na, u32 n)
{
	u64 best = U64_MAX, c;
	u32 set, i;

	/* vertex 0 source (always in), 1 sink (always out) */
	for (set = 0; set < (1U << (n - 2)); set++) {
		c = 0;
		for (i = 0; i < na; i++) {
			bool su = a[i].u == 0 || (a[i].u >= 2 &&
						  (set & (1U << (a[i].u - 2))));
			bool sv = a[i].v == 0 || (a[i].v >= 2 &&
						  (set & (1U << (a[i].v - 2))));

			if (su && !sv)
				c += a[i].c;
		}
		best = c < best ? c : best;
	}
	return best;
}

TEST(mincut_equals_brute_force)
{
	struct arc a[64];
	struct nicprog_flow f;
	u8 side[12];
	u32 trial, n, na, i;
	u64 got, want, c;

	for (trial = 0; trial < 3000; trial++) {
		n = 2 + rnd(9);
		na = rnd(40);
		for (i = 0; i < na; i++) {
			a[i].u = rnd(n);
			a[i].v = rnd(n);
			a[i].c = rnd(10) ? rnd(100) : 1000000;
		}
		ASSERT_EQ(0, nicprog_flow_init(&f, n, na));
		for (i = 0; i < na; i++)
			ASSERT_EQ(0, nicprog_flow_add(&f, a[i].u, a[i].v, a[i].c));
		got = nicprog_flow_mincut(&f, 0, 1, side);
		want = brute_cut(a, na, n);
		ASSERT_EQ(want, got) TH_LOG("trial %u n %u", trial, n);
		/* the side it reports is a cut of that capacity */
		ASSERT_EQ(1, side[0]);
		ASSERT_EQ(0, side[1]);
		for (i = 0, c = 0; i < na; i++)
			if (side[a[i].u] && !side[a[i].v])
				c += a[i].c;
		ASSERT_EQ(want, c);
		nicprog_flow_free(&f);
	}
}

TEST(flow_rejects_bad_edges)
{
	struct nicprog_flow f;

	ASSERT_EQ(0, nicprog_flow_init(&f, 3, 1));
	EXPECT_EQ(-EINVAL, nicprog_flow_add(&f, 0, 3, 1));
	EXPECT_EQ(0, nicprog_flow_add(&f, 0, 1, 1));
	EXPECT_EQ(-ENOSPC, nicprog_flow_add(&f, 0, 2, 1));
	nicprog_flow_free(&f);
}

/* Replication */

static u64 min_rate_fx(const u64 *cost, const u32 *r, u32 n)
{
	u64 best = U64_MAX, v;
	u32 s;

	for (s = 0; s < n; s++) {
		v = (u64)r[s] * 1000000000ULL / cost[s];
		best = v < best ? v : best;
	}
	return best;
}

static u64 exhaustive(const u64 *cost, const bool *rep, u32 n, u32 budget,
		      u32 *r, u32 s)
{
	u64 best = 0, v;
	u32 k, used = 0, i;

	if (s == n)
		return min_rate_fx(cost, r, n);
	for (i = 0; i < s; i++)
		used += r[i];
	for (k = 1; used + k + (n - s - 1) <= budget; k++) {
		if (k > 1 && !rep[s])
			break;
		r[s] = k;
		v = exhaustive(cost, rep, n, budget, r, s + 1);
		best = v > best ? v : best;
	}
	return best;
}

TEST(replication_equals_exhaustive)
{
	u64 cost[5];
	bool rep[5];
	u32 r[5], tmp[5], trial, n, budget, s, total;

	for (trial = 0; trial < 2000; trial++) {
		n = 1 + rnd(5);
		budget = n + rnd(8);
		for (s = 0; s < n; s++) {
			cost[s] = 1 + rnd(5000);
			rep[s] = rnd(4) != 0;
		}
		nicprog_replicate(cost, rep, n, budget, r);
		for (s = 0, total = 0; s < n; s++) {
			total += r[s];
			ASSERT_TRUE(r[s] >= 1);
			if (!rep[s])
				ASSERT_EQ(1, r[s]);
		}
		ASSERT_TRUE(total <= budget);
		ASSERT_EQ(exhaustive(cost, rep, n, budget, tmp, 0),
			  min_rate_fx(cost, r, n));
	}
}

/* Programs */

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), \
			    .off = (o), .imm = (i) })

struct prog {
	struct bpf_insn insns[512];
	struct nicprog_insn_meta meta[512];
	struct nicprog_ir_table tables[4];
	u32 len;
};

static struct nicprog_insn_meta *emit(struct prog *p, struct bpf_insn insn)
{
	struct nicprog_insn_meta *m = &p->meta[p->len];

	memset(m, 0, sizeof(*m));
	m->map = NICPROG_MAP_NONE;
	p->insns[p->len++] = insn;
	return m;
}

/* r = *(u32 *)(pkt + off); *(u32 *)(fp + soff) = r */
static void copy_pkt_to_stack(struct prog *p, u8 r, s32 off, s16 soff)
{
	struct nicprog_insn_meta *m;

	m = emit(p, INSN(BPF_LDX | BPF_MEM | BPF_W, r, BPF_REG_2, off, 0));
	m->ptr = NICPROG_PTR_PACKET;
	m->pkt_lo = off;
	m->pkt_hi = off + 4;
	m = emit(p, INSN(BPF_STX | BPF_MEM | BPF_W, BPF_REG_10, r, soff, 0));
	m->ptr = NICPROG_PTR_STACK;
	m->flags = NICPROG_META_STACK;
	m->stack_off = soff;
}

/* The IPv4 source and destination (bytes 26..33) to the stack at @soff. */
static void addrs_to_stack(struct prog *p, s16 soff)
{
	copy_pkt_to_stack(p, BPF_REG_3, 26, soff);
	copy_pkt_to_stack(p, BPF_REG_3, 30, soff + 4);
}

/* The same addresses swapped: destination, then source. */
static void addrs_swapped_to_stack(struct prog *p, s16 soff)
{
	copy_pkt_to_stack(p, BPF_REG_3, 30, soff);
	copy_pkt_to_stack(p, BPF_REG_3, 26, soff + 4);
}

static void map_call(struct prog *p, u8 table, s32 helper, s16 key_off)
{
	struct nicprog_insn_meta *m;

	emit(p, INSN(BPF_LD | BPF_IMM | BPF_DW, BPF_REG_1, BPF_PSEUDO_MAP_FD,
		     0, table));
	emit(p, INSN(0, 0, 0, 0, 0));
	emit(p, INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_10, 0, 0));
	emit(p, INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, key_off));
	if (helper == BPF_FUNC_map_update_elem) {
		emit(p, INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_3, BPF_REG_10,
			     0, 0));
		emit(p, INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_3, 0, 0, -64));
		emit(p, INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_4, 0, 0, 0));
	}
	m = emit(p, INSN(BPF_JMP | BPF_CALL, 0, 0, 0, helper));
	m->helper = helper;
	m->map = table;
	m->flags = NICPROG_META_KEY | NICPROG_META_VAL;
	m->key_off = key_off;
	m->val_off = -64;
	m->stack_args = helper == BPF_FUNC_map_update_elem ? 0x6 : 0x2;
}

static void prog_start(struct prog *p)
{
	struct nicprog_insn_meta *m;

	memset(p, 0, sizeof(*p));
	/* r2 = ctx->data (a packet pointer, kept in r2 and r7) */
	m = emit(p, INSN(BPF_LDX | BPF_MEM | BPF_W, BPF_REG_2, BPF_REG_1, 0, 0));
	m->ptr = NICPROG_PTR_CTX;
	emit(p, INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_7, BPF_REG_2, 0, 0));
	p->tables[0] = (struct nicprog_ir_table){ BPF_MAP_TYPE_HASH, 8, 8,
						  1024, 16384 };
	p->tables[1] = p->tables[0];
	p->tables[2] = p->tables[0];
	p->tables[3] = p->tables[0];
}

static void prog_end(struct prog *p)
{
	emit(p, INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 2));
	emit(p, INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0));
}

static void restore_r2(struct prog *p)
{
	emit(p, INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_2, BPF_REG_7, 0, 0));
}

static const struct nicprog_lnic_unit test_units[] = {
	{ .name = "core", .type = NICPROG_UNIT_CORE, .count = 16,
	  .threads = 1, .clock_mhz = 800, .insn_store = 8192,
	  .cost = { 1, 3, 20, 1, 2, 2, 10, 5 }, .region_mask = 0x3 },
	{ .name = "mat", .type = NICPROG_UNIT_MAT, .count = 4, .threads = 1,
	  .clock_mhz = 800, .service_cycles = 20 },
	/* it steers by symmetric keys */
	{ .name = "parse", .type = NICPROG_UNIT_PARSER, .count = 1,
	  .threads = 1, .clock_mhz = 800, .service_cycles = 20 },
};

static const struct nicprog_lnic_region test_regions[] = {
	{ .name = "lmem", .size = 32768, .latency_cycles = 2 },
	{ .name = "dram", .size = 1 << 30, .latency_cycles = 200 },
};

static const struct nicprog_lnic test_lnic = {
	.name = "test", .units = test_units, .n_units = 3,
	.regions = test_regions, .n_regions = 2,
};

/*
 * Co-resident plans split the NIC's units: a plan for B of the C cores
 * takes B/C of a pool, rounded, at least one, of the free units; a plan
 * for the whole NIC takes all that are free.
 */
TEST(slices_of_units)
{
	static const struct {
		u32 count, budget, free, want;
	} c[] = {
		{ 16, 8, 16, 8 }, { 2, 8, 2, 1 }, { 2, 8, 1, 1 }, { 1, 8, 1, 1 },
		{ 1, 8, 0, 0 }, { 4, 6, 4, 2 }, { 4, 6, 1, 1 }, { 2, 6, 2, 1 },
		{ 1, 1, 1, 1 }, { 16, 1, 16, 1 }, { 16, 16, 5, 5 },
		{ 4, 16, 4, 4 }, { 4, 99, 4, 4 }, { 64, 10, 64, 40 },
	};
	u32 i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		EXPECT_EQ(c[i].want, nicprog_slice_units(&test_lnic, c[i].budget,
							 c[i].count, c[i].free)) {
			TH_LOG("count %u budget %u free %u", c[i].count,
			       c[i].budget, c[i].free);
		}
}

static void ir_of(struct prog *p, struct nicprog_ir_input *in,
		  struct nicprog_ir *ir, u32 n_tables)
{
	const char *why;

	in->insns = p->insns;
	in->meta = p->meta;
	in->len = p->len;
	in->tables = p->tables;
	in->n_tables = n_tables;
	if (nicprog_ir_build(in, ir, &why)) {
		fprintf(stderr, "ir: %s\n", why);
		abort();
	}
}

/*
 * Table 0 read-only and table 1 sharded, both keyed by packet bytes
 * 26..33 (the IPv4 addresses).
 */
static void readonly_and_sharded(struct prog *p)
{
	addrs_to_stack(p, -16);
	map_call(p, 0, BPF_FUNC_map_lookup_elem, -16);
	restore_r2(p);
	map_call(p, 1, BPF_FUNC_map_lookup_elem, -16);
	map_call(p, 1, BPF_FUNC_map_update_elem, -16);
}

TEST(classes_from_key_provenance)
{
	struct nicprog_table_info info[4];
	struct nicprog_ir_input in;
	struct nicprog_ir ir;
	struct prog p;

	prog_start(&p);
	readonly_and_sharded(&p);
	/* table 2: key built from the source address only, then random */
	restore_r2(&p);
	copy_pkt_to_stack(&p, BPF_REG_3, 26, -32);
	map_call(&p, 2, BPF_FUNC_map_update_elem, -32);
	emit(&p, INSN(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -28, 7))->ptr =
		NICPROG_PTR_STACK;
	p.meta[p.len - 1].flags = NICPROG_META_STACK;
	p.meta[p.len - 1].stack_off = -28;
	map_call(&p, 2, BPF_FUNC_map_update_elem, -32);	/* other key */
	/* table 3: key from an unknown value */
	emit(&p, INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_6, BPF_REG_0, 0, 0));
	emit(&p, INSN(BPF_STX | BPF_MEM | BPF_DW, BPF_REG_10, BPF_REG_6, -48,
		      0))->ptr = NICPROG_PTR_STACK;
	p.meta[p.len - 1].flags = NICPROG_META_STACK;
	p.meta[p.len - 1].stack_off = -48;
	map_call(&p, 3, BPF_FUNC_map_delete_elem, -48);
	prog_end(&p);

	ir_of(&p, &in, &ir, 4);
	nicprog_classify(&ir, info);
	EXPECT_EQ(NICPROG_TC_READONLY, info[0].cls);
	EXPECT_EQ(1, info[0].mat);
	EXPECT_EQ(NICPROG_TC_SHARDED, info[1].cls);
	EXPECT_EQ(8, info[1].key_len);
	EXPECT_EQ(26, info[1].key_pkt[0]);
	EXPECT_EQ(33, info[1].key_pkt[7]);
	EXPECT_EQ(NICPROG_TC_SHARED, info[2].cls);
	EXPECT_STREQ("a key is not a copy of header bytes at fixed offsets",
		     info[2].why);
	EXPECT_EQ(NICPROG_TC_SHARED, info[3].cls);
	nicprog_ir_free(&ir);
}

static void const_to_stack(struct prog *p, s16 soff, s32 imm)
{
	struct nicprog_insn_meta *m;

	m = emit(p, INSN(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, soff, imm));
	m->ptr = NICPROG_PTR_STACK;
	m->flags = NICPROG_META_STACK;
	m->stack_off = soff;
}

/*
 * What a written table's keys say when no one copy of header bytes keys
 * every access: a flow and its reverse (sharded, steered by a symmetric
 * hash), constants, constants and header bytes, different bytes.
 */
TEST(unkeyed_reasons)
{
	struct nicprog_table_info info[4];
	struct nicprog_ir_input in;
	struct nicprog_ir ir;
	struct prog p;

	prog_start(&p);
	/* -16: source, destination; -32: destination, source */
	addrs_to_stack(&p, -16);
	addrs_swapped_to_stack(&p, -32);
	/* -40: constants; -48: source, then the ports (not a swap) */
	const_to_stack(&p, -40, 2);
	const_to_stack(&p, -36, 0);
	copy_pkt_to_stack(&p, BPF_REG_3, 26, -48);
	copy_pkt_to_stack(&p, BPF_REG_3, 34, -44);
	map_call(&p, 0, BPF_FUNC_map_lookup_elem, -16);
	restore_r2(&p);
	map_call(&p, 0, BPF_FUNC_map_update_elem, -32);
	map_call(&p, 1, BPF_FUNC_map_update_elem, -40);
	map_call(&p, 2, BPF_FUNC_map_lookup_elem, -16);
	map_call(&p, 2, BPF_FUNC_map_update_elem, -40);
	map_call(&p, 3, BPF_FUNC_map_update_elem, -16);
	map_call(&p, 3, BPF_FUNC_map_delete_elem, -48);
	prog_end(&p);

	ir_of(&p, &in, &ir, 4);
	nicprog_classify(&ir, info);
	EXPECT_EQ(NICPROG_TC_SHARDED, info[0].cls);
	EXPECT_STREQ("keyed by header bytes and by them swapped, a flow and its reverse: a symmetric hash steers both to one core",
		     info[0].why);
	EXPECT_EQ(1, info[0].sym);
	EXPECT_EQ(8, info[0].key_len);
	EXPECT_EQ(26, info[0].key_pkt[0]);
	EXPECT_EQ(30, info[0].key_pkt[4]);
	EXPECT_EQ(30, info[0].key_sym[0]);
	EXPECT_EQ(26, info[0].key_sym[4]);
	EXPECT_EQ(NICPROG_TC_SHARED, info[1].cls);
	EXPECT_STREQ("keyed by constants: every frame may reach the same element",
		     info[1].why);
	EXPECT_EQ(NICPROG_TC_SHARED, info[2].cls);
	EXPECT_STREQ("keyed by constants on some accesses, by header bytes on others",
		     info[2].why);
	EXPECT_EQ(NICPROG_TC_SHARED, info[3].cls);
	EXPECT_STREQ("its accesses copy different header bytes into their keys",
		     info[3].why);
	nicprog_ir_free(&ir);
}

/*
 * A share of b sixteenths runs exactly b bodies in every sixteen
 * consecutive calls, wherever the count starts: each core of a replicated
 * stage, taking turns, mixes engine jobs and bodies in the plan's
 * proportion.
 */
TEST(share_spreads_bodies)
{
	u32 b, start, turn, n;

	for (b = 0; b <= NICPROG_SHARE_ALL; b++)
		for (start = 0; start < 40; start += 13) {
			for (turn = start, n = 0; turn < start + 16; turn++)
				n += nicprog_share_body(b, turn);
			EXPECT_EQ(b, n) {
				TH_LOG("share %u from turn %u", b, start);
			}
		}
	/* the count wraps as the kernel's atomic does */
	for (turn = U32_MAX - 7, n = 0; turn != 8; turn++)
		n += nicprog_share_body(8, turn);
	EXPECT_EQ(8, n);
}

/*
 * A table keyed by a flow and its reverse is sharded with a symmetric
 * steering hash where the profile has a parser, which also serves a table
 * keyed one way only; without a parser it stays on one core, and says so.
 */
TEST(symmetric_keys_need_a_parser)
{
	struct nicprog_lnic no_parser = test_lnic;
	struct nicprog_layout lo;
	struct nicprog_ir_input in;
	struct nicprog_ir ir;
	const char *why;
	struct prog p;

	prog_start(&p);
	addrs_to_stack(&p, -16);
	addrs_swapped_to_stack(&p, -32);
	map_call(&p, 0, BPF_FUNC_map_lookup_elem, -16);
	restore_r2(&p);
	map_call(&p, 0, BPF_FUNC_map_update_elem, -32);
	map_call(&p, 1, BPF_FUNC_map_update_elem, -32);
	prog_end(&p);
	ir_of(&p, &in, &ir, 2);

	ASSERT_EQ(0, nicprog_layout_build(&ir, &test_lnic,
					  NICPROG_SHAPE_REPLICATED, 8, NULL,
					  &lo, &why)) {
		TH_LOG("%s", why);
	}
	EXPECT_EQ(NICPROG_TC_SHARDED, lo.tables[0].cls);
	EXPECT_EQ(NICPROG_TC_SHARDED, lo.tables[1].cls);
	EXPECT_EQ(0, lo.tables[1].sym);
	EXPECT_EQ(8, lo.stages[0].replicas);
	EXPECT_EQ(NICPROG_STEER_KEY_SYMMETRIC, lo.stages[0].steer);
	EXPECT_EQ(0, lo.stages[0].shard_table);
	EXPECT_STREQ("sharded", nicprog_layout_shape(&lo));
	nicprog_layout_free(&lo);

	no_parser.n_units = 2;
	ASSERT_EQ(0, nicprog_layout_build(&ir, &no_parser,
					  NICPROG_SHAPE_REPLICATED, 8, NULL,
					  &lo, &why));
	EXPECT_EQ(NICPROG_TC_SHARED, lo.tables[0].cls);
	EXPECT_STREQ("keyed by a flow and its reverse, and the profile has no parser to steer both by one symmetric hash",
		     lo.tables[0].why);
	EXPECT_EQ(1, lo.stages[0].replicas);
	nicprog_layout_free(&lo);
	nicprog_ir_free(&ir);
}

/*
 * An island's region has a copy per island: only tables the datapath never
 * writes (or only adds to) go there, however fast it is; the others go to
 * the next region.
 */
TEST(islands_hold_only_what_nothing_writes)
{
	static const struct nicprog_lnic_region regions[] = {
		{ .name = "ctm", .size = 1 << 20, .latency_cycles = 1,
		  .island = 4 },
		{ .name = "lmem", .size = 1 << 20, .latency_cycles = 2 },
		{ .name = "dram", .size = 1 << 30, .latency_cycles = 200 },
	};
	struct nicprog_lnic_unit units[1] = { test_units[0] };
	struct nicprog_lnic lnic = {
		.name = "islands", .units = units, .n_units = 1,
		.regions = regions, .n_regions = 3,
	};
	struct nicprog_layout lo;
	struct nicprog_ir_input in;
	struct nicprog_ir ir;
	const char *why;
	struct prog p;

	units[0].region_mask = 0x7;
	prog_start(&p);
	readonly_and_sharded(&p);
	prog_end(&p);
	ir_of(&p, &in, &ir, 2);
	ASSERT_EQ(0, nicprog_layout_build(&ir, &lnic, NICPROG_SHAPE_AUTO, 16,
					  NULL, &lo, &why)) {
		TH_LOG("%s", why);
	}
	EXPECT_EQ(NICPROG_TC_READONLY, lo.tables[0].cls);
	EXPECT_EQ(0, lo.tables[0].region);	/* a copy in every island */
	EXPECT_EQ(NICPROG_TC_SHARDED, lo.tables[1].cls);
	EXPECT_EQ(1, lo.tables[1].region);	/* written: shared memory */
	nicprog_layout_free(&lo);
	nicprog_ir_free(&ir);
}

/* A plan beside other ports' places its tables in the memory they leave. */
TEST(tables_go_where_other_plans_leave_room)
{
	static const struct nicprog_lnic_region regions[] = {
		{ .name = "lmem", .size = 1 << 20, .latency_cycles = 2 },
		{ .name = "dram", .size = 1 << 30, .latency_cycles = 200 },
	};
	struct nicprog_lnic_unit units[1] = { test_units[0] };
	struct nicprog_lnic lnic = {
		.name = "two", .units = units, .n_units = 1,
		.regions = regions, .n_regions = 2,
	};
	struct nicprog_units_free avail = { .mat = 64 };
	struct nicprog_layout lo;
	struct nicprog_ir_input in;
	struct nicprog_ir ir;
	const char *why;
	struct prog p;
	u32 t, left[3], want[3][2] = { { 0, 0 }, { 1, 1 }, { 0, 1 } };

	units[0].region_mask = 0x3;
	prog_start(&p);
	readonly_and_sharded(&p);
	prog_end(&p);
	ir_of(&p, &in, &ir, 2);
	for (t = 0; t < __NICPROG_ACCEL_MAX; t++)
		avail.accel[t] = 64;
	/* all of lmem; none; as much as one table takes */
	left[0] = 1 << 20;
	left[1] = 0;
	left[2] = p.tables[0].bytes + p.tables[1].bytes - 1;
	for (t = 0; t < 3; t++) {
		avail.room[0] = left[t];
		avail.room[1] = 1 << 30;
		ASSERT_EQ(0, nicprog_layout_build_slice(&ir, &lnic,
							NICPROG_SHAPE_SINGLE, 1,
							&avail, NULL, &lo, &why)) {
			TH_LOG("%s", why);
		}
		if (t == 2 && lo.tables[1].acc_fx > lo.tables[0].acc_fx) {
			/* the hotter table stays, whichever it is */
			want[2][0] = 1;
			want[2][1] = 0;
		}
		EXPECT_EQ(want[t][0], lo.tables[0].region) {
			TH_LOG("lmem left %u", left[t]);
		}
		EXPECT_EQ(want[t][1], lo.tables[1].region) {
			TH_LOG("lmem left %u", left[t]);
		}
		nicprog_layout_free(&lo);
	}
	nicprog_ir_free(&ir);
}

TEST(atomic_adds_only_make_counters)
{
	struct nicprog_table_info info[2];
	struct nicprog_insn_meta *m;
	struct nicprog_ir_input in;
	struct nicprog_ir ir;
	struct prog p;
	int t;

	prog_start(&p);
	emit(&p, INSN(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -16, 1));
	p.meta[p.len - 1].ptr = NICPROG_PTR_STACK;
	p.meta[p.len - 1].flags = NICPROG_META_STACK;
	p.meta[p.len - 1].stack_off = -16;
	for (t = 0; t < 2; t++) {
		map_call(&p, t, BPF_FUNC_map_lookup_elem, -16);
		emit(&p, INSN(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 1, 0));
		/* table 0: add; table 1: add and read the old value */
		m = emit(&p, INSN(BPF_STX | BPF_ATOMIC | BPF_DW, BPF_REG_0,
				  BPF_REG_6, 0, t ? BPF_ADD | BPF_FETCH : BPF_ADD));
		m->ptr = NICPROG_PTR_MAP_VALUE;
		m->map = t;
	}
	prog_end(&p);
	ir_of(&p, &in, &ir, 2);
	nicprog_classify(&ir, info);
	EXPECT_EQ(NICPROG_TC_COUNTER, info[0].cls);
	EXPECT_EQ(NICPROG_TC_SHARED, info[1].cls);
	nicprog_ir_free(&ir);
}

TEST(packet_write_before_access_unshards)
{
	struct nicprog_table_info info[1];
	struct nicprog_insn_meta *m;
	struct nicprog_ir_input in;
	struct nicprog_ir ir;
	struct prog p;

	prog_start(&p);
	addrs_to_stack(&p, -16);
	/* rewrite the source address, then use the old copy as a key */
	m = emit(&p, INSN(BPF_ST | BPF_MEM | BPF_W, BPF_REG_2, 0, 26, 1));
	m->ptr = NICPROG_PTR_PACKET;
	m->pkt_lo = 26;
	m->pkt_hi = 30;
	map_call(&p, 0, BPF_FUNC_map_update_elem, -16);
	prog_end(&p);
	ir_of(&p, &in, &ir, 1);
	nicprog_classify(&ir, info);
	EXPECT_EQ(NICPROG_TC_SHARED, info[0].cls);
	EXPECT_STREQ("its key bytes may change before an access", info[0].why);
	nicprog_ir_free(&ir);
}

TEST(liveness_on_edges)
{
	struct nicprog_ir_input in;
	struct nicprog_ir ir;
	struct prog p;

	prog_start(&p);
	copy_pkt_to_stack(&p, BPF_REG_3, 26, -16);	/* slot 1 */
	emit(&p, INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_6, 0, 0, 5));
	/* if r3 == 0 goto +1 */
	emit(&p, INSN(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_3, 0, 1, 0));
	emit(&p, INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_6, 0, 0, 1));
	map_call(&p, 0, BPF_FUNC_map_lookup_elem, -16);
	emit(&p, INSN(BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_0, BPF_REG_6, 0, 0));
	emit(&p, INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0));
	ir_of(&p, &in, &ir, 1);
	ASSERT_EQ(3, ir.n_main);
	ASSERT_EQ(3, ir.n_nodes);
	/* into the last block: r6 and the key's slot */
	EXPECT_EQ(BIT(BPF_REG_6), ir.blocks[2].live_regs);
	EXPECT_EQ(BIT_ULL(1), ir.blocks[2].live_stack);
	EXPECT_EQ(16, ir.edges[0].bytes);
	EXPECT_EQ(NICPROG_FX, ir.blocks[2].freq);
	EXPECT_EQ(NICPROG_FX / 2, ir.blocks[1].freq);
	nicprog_ir_free(&ir);
}

/* random_prog() also calls helpers only the host has */
static bool gen_host_calls;

/* A random forward-branching program touching tables. */
static void random_prog(struct prog *p, u32 blocks)
{
	u32 b, k, pos[64], fix[64][2], nfix = 0, i;
	struct nicprog_insn_meta *m;

	prog_start(p);
	for (b = 0; b < blocks; b++) {
		pos[b] = p->len;
		for (i = 0; i < nfix; i++)
			if (fix[i][1] == b)
				p->insns[fix[i][0]].off = p->len - fix[i][0] - 1;
		k = rnd(6);
		for (i = 0; i < k; i++)
			emit(p, INSN(BPF_ALU64 | (rnd(5) ? BPF_ADD : BPF_MUL) |
				     BPF_K, BPF_REG_6 + rnd(3), 0, 0, 3));
		switch (rnd(6)) {
		case 0:
			restore_r2(p);
			copy_pkt_to_stack(p, BPF_REG_3, 26 + 4 * rnd(2), -16);
			copy_pkt_to_stack(p, BPF_REG_3, 34, -12);
			map_call(p, rnd(4), rnd(2) ? BPF_FUNC_map_lookup_elem :
				 BPF_FUNC_map_update_elem, -16);
			break;
		case 5:
			/* the addresses one way or the other: symmetric keys */
			restore_r2(p);
			i = rnd(2);
			copy_pkt_to_stack(p, BPF_REG_3, 26 + 4 * i, -16);
			copy_pkt_to_stack(p, BPF_REG_3, 30 - 4 * i, -12);
			map_call(p, rnd(4), rnd(2) ? BPF_FUNC_map_lookup_elem :
				 BPF_FUNC_map_update_elem, -16);
			break;
		case 1:
			/* use a value pointer in the same block */
			restore_r2(p);
			copy_pkt_to_stack(p, BPF_REG_3, 26, -16);
			copy_pkt_to_stack(p, BPF_REG_3, 30, -12);
			map_call(p, rnd(4), BPF_FUNC_map_lookup_elem, -16);
			emit(p, INSN(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 1,
				     0));
			m = emit(p, INSN(BPF_STX | BPF_ATOMIC | BPF_DW,
					 BPF_REG_0, BPF_REG_6, 0, BPF_ADD));
			m->ptr = NICPROG_PTR_MAP_VALUE;
			m->map = p->meta[p->len - 3].map;
			m->mapval_regs = BIT(BPF_REG_0);
			break;
		case 2:
			if (!gen_host_calls || rnd(3))
				break;
			m = emit(p, INSN(BPF_JMP | BPF_CALL, 0, 0, 0,
					 BPF_FUNC_fib_lookup));
			m->helper = BPF_FUNC_fib_lookup;
			m->flags |= NICPROG_META_HOST_CALL;
			break;
		default:
			break;
		}
		if (b + 1 < blocks && rnd(2) && nfix < 64) {
			fix[nfix][0] = p->len;
			fix[nfix][1] = b + 1 + rnd(blocks - b - 1);
			nfix++;
			emit(p, INSN(BPF_JMP | BPF_JGT | BPF_K, BPF_REG_6, 0, 0,
				     rnd(100)));
		}
	}
	for (i = 0; i < nfix; i++)
		if (fix[i][1] >= blocks)
			p->insns[fix[i][0]].off = 0;
	prog_end(p);
	(void)pos;
}

TEST(every_layout_keeps_the_invariants)
{
	struct nicprog_ir_input in;
	struct nicprog_layout lo;
	struct nicprog_ir ir;
	const char *why;
	struct prog p;
	u32 trial, shape, budget, multi = 0, reps = 0;

	for (trial = 0; trial < 150; trial++) {
		random_prog(&p, 2 + rnd(30));
		ir_of(&p, &in, &ir, 4);
		for (shape = 0; shape < __NICPROG_SHAPE_MAX; shape++)
			for (budget = 1; budget <= 16; budget++) {
				ASSERT_EQ(0, nicprog_layout_build(&ir, &test_lnic,
								  shape, budget,
								  NULL, &lo, &why))
					TH_LOG("trial %u shape %u budget %u: %s",
					       trial, shape, budget, why);
				ASSERT_TRUE(nicprog_layout_valid(&ir, &lo, &why));
				ASSERT_TRUE(lo.tput > 0);
				if (shape == NICPROG_SHAPE_SINGLE)
					ASSERT_EQ(1, lo.cores);
				multi += lo.n_stages > 1;
				reps += lo.cores > lo.n_stages;
				nicprog_layout_free(&lo);
			}
		nicprog_ir_free(&ir);
	}
	/* the generator exercises both transformations */
	EXPECT_GT(multi, 1000);
	EXPECT_GT(reps, 1000);
}

/*
 * Partial offload (offload/host.c): for any instruction store and tables
 * kept in host memory, the host part is closed under successors, the NIC
 * keeps what it holds and starts the program, and no written table, no
 * table in host memory and no map value pointer crosses the cut.
 */
TEST(partial_layouts_keep_the_invariants)
{
	struct nicprog_host_limits lim;
	struct nicprog_ir_input in;
	struct nicprog_layout lo;
	struct nicprog_ir ir;
	u32 trial, i, b, t, held, total, split = 0;
	u64 nic_w, host_w, written;
	const char *why;
	struct prog p;
	int err;

	for (trial = 0; trial < 300; trial++) {
		random_prog(&p, 2 + rnd(30));
		ir_of(&p, &in, &ir, 4);
		for (b = 0, total = 0; b < ir.n_main; b++)
			total += ir.blocks[b].end - ir.blocks[b].start;
		lim.insn_store = 1 + rnd(total + 8);
		lim.host_tables = rnd(4) ? 0 : BIT_ULL(rnd(4));
		err = nicprog_layout_build(&ir, &test_lnic, rnd(__NICPROG_SHAPE_MAX),
					   1 + rnd(16), &lim, &lo, &why);
		if (err) {
			/* nothing fits, or the first node is the host's */
			ASSERT_EQ(-E2BIG, err);
			nicprog_layout_free(&lo);
			nicprog_ir_free(&ir);
			continue;
		}
		ASSERT_TRUE(nicprog_layout_valid(&ir, &lo, &why));
		if (!lo.node_host) {
			ASSERT_LE(total, lim.insn_store);
			nicprog_layout_free(&lo);
			nicprog_ir_free(&ir);
			continue;
		}
		split++;
		ASSERT_NE(NICPROG_NODE_HOST, lo.node_host[0]);
		ASSERT_LE(lo.nic_insns, lim.insn_store);
		for (i = 0; i < ir.n_edges; i++) {
			const struct nicprog_ir_edge *e = &ir.edges[i];

			if (lo.node_host[e->from] == NICPROG_NODE_HOST)
				ASSERT_NE(NICPROG_NODE_NIC, lo.node_host[e->to]);
			if (lo.node_host[e->from] != NICPROG_NODE_HOST &&
			    lo.node_host[e->to] == NICPROG_NODE_HOST)
				ASSERT_FALSE(e->unsafe);
		}
		written = nic_w = host_w = 0;
		for (t = 0; t < lo.n_tables; t++)
			if (lo.tables[t].cls == NICPROG_TC_SHARED ||
			    lo.tables[t].cls == NICPROG_TC_SHARDED)
				written |= BIT_ULL(t);
		for (b = 0, held = 0; b < ir.n_main; b++) {
			const struct nicprog_ir_block *bl = &ir.blocks[b];
			u64 acc = bl->tbl_rd | bl->tbl_wr;

			if (lo.node_host[bl->node] == NICPROG_NODE_HOST) {
				host_w |= acc & written;
				for (i = bl->start; i < bl->end; i++)
					ASSERT_EQ(NICPROG_EXEC_STAGE_HOST,
						  lo.insn_stage[i]);
				continue;
			}
			held += bl->end - bl->start;
			nic_w |= acc & written;
			ASSERT_EQ(0, acc & lim.host_tables);
			for (i = bl->start; i < bl->end; i++)
				ASSERT_NE(NICPROG_EXEC_STAGE_HOST,
					  lo.insn_stage[i]);
		}
		ASSERT_EQ(0, nic_w & host_w);
		/* its blocks, and the subprograms if it calls them */
		ASSERT_TRUE(lo.nic_insns == held ||
			    lo.nic_insns == held + in.len - total);
		nicprog_layout_free(&lo);
		nicprog_ir_free(&ir);
	}
	EXPECT_GT(split, 50);
}

/*
 * A helper only the host has: without a host part the program is
 * refused; with one, every call of it is the host's, and so is all that
 * follows, while the NIC keeps the rest even when its store holds all.
 */
TEST(host_calls_are_the_hosts)
{
	struct nicprog_host_limits lim;
	struct nicprog_ir_input in;
	struct nicprog_layout lo;
	struct nicprog_ir ir;
	u32 trial, i, b, calls = 0, split = 0;
	const char *why;
	struct prog p;
	int err;

	gen_host_calls = true;
	for (trial = 0; trial < 300; trial++) {
		random_prog(&p, 2 + rnd(30));
		ir_of(&p, &in, &ir, 4);
		if (nicprog_host_call_insn(&in) == U32_MAX) {
			nicprog_ir_free(&ir);
			continue;
		}
		calls++;
		EXPECT_EQ(-EOPNOTSUPP,
			  nicprog_layout_build(&ir, &test_lnic,
					       NICPROG_SHAPE_AUTO, 4, NULL,
					       &lo, &why));
		EXPECT_STREQ("the program calls a helper only the host has (a partial offload lets the host run it)",
			     why);
		nicprog_layout_free(&lo);
		lim.insn_store = 1 << 20;	/* holds it all */
		lim.host_tables = 0;
		err = nicprog_layout_build(&ir, &test_lnic, NICPROG_SHAPE_AUTO,
					   4, &lim, &lo, &why);
		if (err) {
			/* the first node calls it, or cannot hand over */
			ASSERT_EQ(-E2BIG, err);
			EXPECT_TRUE(!strcmp(why, "the program's first instructions call a helper only the host has; no part of it can run on the NIC") ||
				    !strcmp(why, "no prefix of the program fits the NIC and can hand its state to the host"));
			nicprog_layout_free(&lo);
			nicprog_ir_free(&ir);
			continue;
		}
		ASSERT_TRUE(lo.node_host != NULL);
		ASSERT_TRUE(nicprog_layout_valid(&ir, &lo, &why));
		EXPECT_STREQ("bpf_fib_lookup, which only the host has",
			     lo.host_why);
		split++;
		for (b = 0; b < ir.n_main; b++)
			for (i = ir.blocks[b].start; i < ir.blocks[b].end; i++)
				if (in.insns[i].code == (BPF_JMP | BPF_CALL) &&
				    in.insns[i].imm == BPF_FUNC_fib_lookup)
					ASSERT_EQ(NICPROG_NODE_HOST,
						  lo.node_host[ir.blocks[b].node]);
		for (i = 0; i < ir.n_edges; i++)
			if (lo.node_host[ir.edges[i].from] == NICPROG_NODE_HOST)
				ASSERT_NE(NICPROG_NODE_NIC,
					  lo.node_host[ir.edges[i].to]);
		nicprog_layout_free(&lo);
		nicprog_ir_free(&ir);
	}
	gen_host_calls = false;
	EXPECT_GT(calls, 100);
	EXPECT_GT(split, 50);
}

TEST(auto_never_predicts_worse_than_single)
{
	struct nicprog_ir_input in;
	struct nicprog_layout lo, one;
	struct nicprog_ir ir;
	const char *why;
	struct prog p;
	u32 trial, budget;

	for (trial = 0; trial < 100; trial++) {
		random_prog(&p, 2 + rnd(30));
		ir_of(&p, &in, &ir, 4);
		ASSERT_EQ(0, nicprog_layout_build(&ir, &test_lnic,
						  NICPROG_SHAPE_SINGLE, 1,
						  NULL, &one, &why));
		for (budget = 1; budget <= 16; budget++) {
			ASSERT_EQ(0, nicprog_layout_build(&ir, &test_lnic,
							  NICPROG_SHAPE_AUTO,
							  budget, NULL, &lo,
							  &why));
			ASSERT_TRUE(lo.tput >= one.tput);
			nicprog_layout_free(&lo);
		}
		nicprog_layout_free(&one);
		nicprog_ir_free(&ir);
	}
}

/* Every run-of-nodes plan with its replicas, exhaustively: the best rate. */
static u64 brute_best(const struct nicprog_ir *ir, struct nicprog_layout *lo,
		      u32 budget)
{
	u32 n = ir->n_nodes, cuts, k, s, x, r[NICPROG_MAX_STAGES], v;
	u8 stage[64];
	u64 best = 0;
	const char *why;

	for (cuts = 0; cuts < (1U << (n - 1)); cuts++) {
		k = 1 + __builtin_popcount(cuts);
		if (k > budget)
			continue;
		for (x = 0, s = 0; x < n; x++) {
			if (x && (cuts & (1U << (x - 1))))
				s++;
			stage[x] = s;
		}
		/* every replica vector with sum <= budget */
		for (v = 0; v < (1U << (4 * k)); v++) {
			u32 sum = 0;

			for (s = 0; s < k; s++) {
				r[s] = 1 + ((v >> (4 * s)) & 15);
				sum += r[s];
			}
			if (sum > budget)
				continue;
			if (!nicprog_layout_apply(ir, &test_lnic, lo, stage, k, r,
						  &why) && lo->tput > best)
				best = lo->tput;
		}
	}
	return best;
}

TEST(optimum_equals_brute_force)
{
	struct nicprog_layout lo, opt;
	struct nicprog_ir_input in;
	struct nicprog_ir ir;
	const char *why;
	struct prog p;
	u32 trial, budget, tried = 0;

	for (trial = 0; trial < 60; trial++) {
		random_prog(&p, 2 + rnd(5));
		ir_of(&p, &in, &ir, 4);
		if (ir.n_nodes > 7) {
			nicprog_ir_free(&ir);
			continue;
		}
		for (budget = 1; budget <= 4; budget++) {
			ASSERT_EQ(0, nicprog_layout_build(&ir, &test_lnic,
							  NICPROG_SHAPE_SINGLE,
							  budget, NULL, &lo,
							  &why));
			ASSERT_EQ(0, nicprog_layout_optimum(&ir, &test_lnic,
							    budget, &opt,
							    &why)) TH_LOG("%s", why);
			ASSERT_EQ(brute_best(&ir, &lo, budget), opt.tput)
				TH_LOG("trial %u budget %u", trial, budget);
			nicprog_layout_free(&lo);
			nicprog_layout_free(&opt);
			tried++;
		}
		nicprog_ir_free(&ir);
	}
	EXPECT_GT(tried, 40);
}

/* Accelerator calls (calls.c) */

#define AFN_ID(fn)	((s32)(NICPROG_AFN_MAGIC | (fn)))

/*
 * A call at the end of @p to a global function at its last instruction
 * (an exit), which the verifier saw passed the CRC engine's id; returns
 * whether nicprog_calls_check_accel() keeps it an accelerator call.
 */
static bool accel_kept(struct prog *p)
{
	struct nicprog_subprog subs[2] = {
		{ .start = 0, .global = true },
		{ .global = true, .engine_shape = true },
	};
	u32 call = p->len;

	emit(p, INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 1))->afn =
		NICPROG_AFN_CRC32C;
	emit(p, INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0));
	subs[1].start = p->len;
	emit(p, INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0));
	nicprog_calls_check_accel(p->insns, p->meta, p->len, subs, 2, NULL,
				  NULL);
	return p->meta[call].afn == NICPROG_AFN_CRC32C;
}

/* @p starts anew: R5 = the CRC engine's id */
static void id_in_r5(struct prog *p)
{
	p->len = 0;
	emit(p, INSN(BPF_ALU64 | BPF_MOV | BPF_K, 5, 0, 0,
		     AFN_ID(NICPROG_AFN_CRC32C)));
}

TEST(accel_ids_on_every_path)
{
	struct prog p;

	/* a constant move right before the call */
	id_in_r5(&p);
	EXPECT_TRUE(accel_kept(&p));

	/* kept in R7 across a helper call and a loop, then moved */
	p.len = 0;
	emit(&p, INSN(BPF_ALU | BPF_MOV | BPF_K, 7, 0, 0,
		      AFN_ID(NICPROG_AFN_CRC32C)));
	emit(&p, INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_ktime_get_ns));
	emit(&p, INSN(BPF_JMP | BPF_JGT | BPF_K, 0, 0, -2, 5));
	emit(&p, INSN(BPF_ALU64 | BPF_MOV | BPF_X, 5, 7, 0, 0));
	EXPECT_TRUE(accel_kept(&p));

	/* a 64-bit constant load */
	p.len = 0;
	emit(&p, INSN(BPF_LD | BPF_IMM | BPF_DW, 5, 0, 0,
		      AFN_ID(NICPROG_AFN_CRC32C)));
	emit(&p, INSN(0, 0, 0, 0, 0));
	EXPECT_TRUE(accel_kept(&p));

	/*
	 * Near misses. Another id on a path the verifier pruned (the facts
	 * say crc32c; the other branch sets csum's id).
	 */
	id_in_r5(&p);
	emit(&p, INSN(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 1, 0));
	emit(&p, INSN(BPF_ALU64 | BPF_MOV | BPF_K, 5, 0, 0,
		      AFN_ID(NICPROG_AFN_CSUM)));
	EXPECT_FALSE(accel_kept(&p));

	/* an id changed by arithmetic */
	id_in_r5(&p);
	emit(&p, INSN(BPF_ALU64 | BPF_ADD | BPF_K, 5, 0, 0, 0));
	EXPECT_FALSE(accel_kept(&p));

	/* clobbered by a call in between */
	id_in_r5(&p);
	emit(&p, INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_ktime_get_ns));
	EXPECT_FALSE(accel_kept(&p));

	/* through the stack: not followed, so not trusted */
	id_in_r5(&p);
	emit(&p, INSN(BPF_STX | BPF_DW | BPF_MEM, 10, 5, -8, 0));
	emit(&p, INSN(BPF_LDX | BPF_DW | BPF_MEM, 5, 10, 0, -8));
	EXPECT_FALSE(accel_kept(&p));

	/* set in a loop's body only: the first turn passes none */
	p.len = 0;
	emit(&p, INSN(BPF_JMP | BPF_JA, 0, 0, 1, 0));
	emit(&p, INSN(BPF_ALU64 | BPF_MOV | BPF_K, 5, 0, 0,
		      AFN_ID(NICPROG_AFN_CRC32C)));
	EXPECT_FALSE(accel_kept(&p));
}

TEST(accel_ret)
{
	u8 a = NICPROG_AFN_CSUM | NICPROG_EXEC_ACCEL_RET_INV |
	       NICPROG_EXEC_ACCEL_ERR_U32;

	EXPECT_EQ(0xedcbULL, nicprog_exec_accel_ret(a, 0x1234));
	EXPECT_EQ(0xffffffffULL,
		  nicprog_exec_accel_ret(a, NICPROG_EXEC_ACCEL_ERR));
	a = NICPROG_AFN_CRC32C | NICPROG_EXEC_ACCEL_RET_INV;
	EXPECT_EQ(0xedcba987ULL, nicprog_exec_accel_ret(a, 0x12345678));
	EXPECT_EQ(NICPROG_EXEC_ACCEL_ERR,
		  nicprog_exec_accel_ret(a, NICPROG_EXEC_ACCEL_ERR));
}

TEST_HARNESS_MAIN
