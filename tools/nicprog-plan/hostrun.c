// SPDX-License-Identifier: GPL-2.0
/*
 * The offline run of a plan (see hostrun.h). Two worlds run every frame
 * side by side, each with its own tables: one as the NIC runs the plan
 * (stages on the cores the frame is steered to, engines for accelerator
 * calls, every run traced), one as the host runs the object (the BPF
 * bodies, no stages). Their verdicts, frames and tables must agree; a
 * difference is an engine function here that is not its body's twin.
 *
 * Tables follow the kernel's NIC tables (kernel/table_lib.c) where the
 * predictor can see it: a hash element is replaced on update; array
 * values lie side by side, 8-byte aligned. What the traced world's runs
 * touch is seen at the NIC's addresses (NICPROG_EXEC_NIC_TABLE(),
 * w_offset()), not malloc's: a hash element's slot is the one its table
 * freed last, else the next never used, as the kernel's tables number
 * theirs, so one sequence of updates gives the simulated NIC's cache and
 * the predictor's the same lines. A frame is in buffer n of the NIC's
 * packet memory (NICPROG_EXEC_NIC_FRAME()): its core's, or a staged
 * plan's frames in turn, as nicsim hands them out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines.h"
#include "hostrun.h"
#include "steer.h"

/* frame buffers of a staged plan in flight: nicsim's NICSIM_JOB_BUFS */
#define NP_PKT_BUFS	256
#define NP_FRAME_SZ	NICPROG_EXEC_NIC_FRAME_SZ
#define NP_HEADROOM	256
#define NP_TAILROOM	320
#define NP_MTU		1500	/* a port's, as bpf_check_mtu() of it reads */

struct np_elem {
	struct np_elem *next;
	u8 *val;		/* in the same allocation, after the key */
	u32 slot;		/* its value's place on the NIC */
	u8 key[];
};

struct np_table {
	const struct nicprog_ir_table *t;
	u8 *values;		/* array */
	struct np_elem **buckets;
	struct np_elem *free;	/* freed elements, last freed first */
	u32 n_buckets;
	u32 count;
	u32 next_slot;		/* the first slot never taken */
};

struct np_world {
	struct np_table tables[NICPROG_MAX_TABLES];
	u32 n_tables;
	u64 now;
	bool engines;
	const u8 *body16;	/* the plan's share of calls run as bodies */
	u32 turn[__NICPROG_ACCEL_MAX];
};

/* Memory starting on a cache line, as the NIC's allocations do. */
static void *line_alloc(size_t size)
{
	void *p;

	return posix_memalign(&p, 64, size ? size : 1) ? NULL : p;
}

static u32 stride(const struct nicprog_ir_table *t)
{
	return (t->value_size + 7) & ~7U;
}

static struct np_elem **hslot(struct np_table *tb, const void *key)
{
	u32 h = np_jhash(key, tb->t->key_size, 0);
	struct np_elem **e = &tb->buckets[h & (tb->n_buckets - 1)];

	while (*e && memcmp((*e)->key, key, tb->t->key_size))
		e = &(*e)->next;
	return e;
}

/* Offset of a hash element's value in its allocation. */
static u32 val_off(const struct np_table *tb)
{
	return sizeof(struct np_elem) + ((tb->t->key_size + 7) & ~7U);
}

/* A new element: the last one freed if there is one, with its slot. */
static struct np_elem *elem_alloc(struct np_table *tb)
{
	struct np_elem *e = tb->free;

	if (e) {
		tb->free = e->next;
		return e;
	}
	e = malloc(val_off(tb) + tb->t->value_size);
	if (!e)
		return NULL;
	e->val = (u8 *)e + val_off(tb);
	e->slot = tb->next_slot++;
	return e;
}

static void elem_free(struct np_table *tb, struct np_elem *e)
{
	e->next = tb->free;
	tb->free = e;
}

static bool is_lpm(const struct np_table *tb)
{
	return tb->t->type == BPF_MAP_TYPE_LPM_TRIE;
}

static u32 lpm_max_plen(const struct np_table *tb)
{
	return 8 * (tb->t->key_size - NICPROG_LPM_DATA_OFF);
}

/* The longest prefix of @key the table holds, as the NIC's table finds it. */
static struct np_elem *lpm_find(struct np_table *tb, const void *key)
{
	u8 probe[NICPROG_LPM_DATA_OFF + NICPROG_LPM_DATA_MAX];
	u32 plen = nicprog_ir_lpm_plen(key);

	if (plen > lpm_max_plen(tb))
		plen = lpm_max_plen(tb);
	for (;; plen--) {
		nicprog_ir_lpm_key(tb->t->key_size, key, plen, probe);
		if (*hslot(tb, probe))
			return *hslot(tb, probe);
		if (!plen)
			return NULL;
	}
}

/* An LPM key as the table keeps it, in @buf; -EINVAL past the data. */
static int lpm_cut(const struct np_table *tb, const void **key, u8 *buf)
{
	u32 plen = nicprog_ir_lpm_plen(*key);

	if (plen > lpm_max_plen(tb))
		return -EINVAL;
	nicprog_ir_lpm_key(tb->t->key_size, *key, plen, buf);
	*key = buf;
	return 0;
}

static void *w_lookup(void *priv, u32 map, const void *key)
{
	struct np_world *w = priv;
	struct np_table *tb = &w->tables[map];
	struct np_elem *e;
	u32 idx;

	if (tb->values) {
		memcpy(&idx, key, sizeof(idx));
		return idx < tb->t->max_entries ?
		       tb->values + (u64)idx * stride(tb->t) : NULL;
	}
	e = is_lpm(tb) ? lpm_find(tb, key) : *hslot(tb, key);
	return e ? e->val : NULL;
}

/* Where a value w_lookup() returned lies on the NIC (table_lib.c's twin). */
static u64 w_offset(void *priv, u32 map, const void *value, u32 *len)
{
	struct np_world *w = priv;
	struct np_table *tb = &w->tables[map];
	const u8 *v = value;
	const struct np_elem *e;

	if (tb->values) {
		*len = stride(tb->t) - (u32)((v - tb->values) % stride(tb->t));
		return NICPROG_EXEC_NIC_VALUES + (u64)(v - tb->values);
	}
	e = (const void *)(v - val_off(tb));
	*len = stride(tb->t);
	return nicprog_exec_nic_slot(e->slot, stride(tb->t));
}

/* A full LRU table makes room: here the first element found goes. */
static void lru_evict(struct np_table *tb)
{
	struct np_elem *e;
	u32 b;

	for (b = 0; b < tb->n_buckets; b++) {
		e = tb->buckets[b];
		if (!e)
			continue;
		tb->buckets[b] = e->next;
		elem_free(tb, e);
		tb->count--;
		return;
	}
}

static long w_update(void *priv, u32 map, const void *key, const void *value,
		     u64 flags)
{
	struct np_world *w = priv;
	struct np_table *tb = &w->tables[map];
	u8 masked[NICPROG_LPM_DATA_OFF + NICPROG_LPM_DATA_MAX];
	struct np_elem **slot, *e;
	u32 idx, vs = tb->t->value_size;

	if (flags > BPF_EXIST)
		return -EINVAL;
	if (tb->values) {
		memcpy(&idx, key, sizeof(idx));
		if (idx >= tb->t->max_entries)
			return -E2BIG;
		if (flags == BPF_NOEXIST)
			return -EEXIST;
		memcpy(tb->values + (u64)idx * stride(tb->t), value, vs);
		return 0;
	}
	if (is_lpm(tb) && lpm_cut(tb, &key, masked))
		return -EINVAL;
	slot = hslot(tb, key);
	if (*slot && flags == BPF_NOEXIST)
		return -EEXIST;
	if (!*slot && flags == BPF_EXIST)
		return -ENOENT;
	if (!*slot && tb->count >= tb->t->max_entries) {
		if (tb->t->type != BPF_MAP_TYPE_LRU_HASH)
			return is_lpm(tb) ? -ENOSPC : -E2BIG;
		lru_evict(tb);
		slot = hslot(tb, key);
	}
	e = elem_alloc(tb);
	if (!e)
		return -ENOMEM;
	memcpy(e->key, key, tb->t->key_size);
	memcpy(e->val, value, vs);
	if (*slot) {		/* replaced, as hlist_replace_rcu() does */
		e->next = (*slot)->next;
		elem_free(tb, *slot);
	} else {
		e->next = NULL;
		tb->count++;
	}
	*slot = e;
	return 0;
}

static long w_delete(void *priv, u32 map, const void *key)
{
	struct np_world *w = priv;
	struct np_table *tb = &w->tables[map];
	u8 masked[NICPROG_LPM_DATA_OFF + NICPROG_LPM_DATA_MAX];
	struct np_elem **slot, *e;

	if (tb->values)
		return -EINVAL;
	if (is_lpm(tb) && lpm_cut(tb, &key, masked))
		return -EINVAL;
	slot = hslot(tb, key);
	e = *slot;
	if (!e)
		return -ENOENT;
	*slot = e->next;
	elem_free(tb, e);
	tb->count--;
	return 0;
}

/*
 * Neither is read: every frame here has the NIC's clock (pkt.now_ns),
 * which the executor reads and which seeds the random stream it draws
 * from, as on nicsim.
 */
static u64 w_ktime(void *priv)
{
	return ((struct np_world *)priv)->now;
}

static u32 w_prandom(void *priv)
{
	(void)priv;
	return 0;
}

static s64 w_accel(void *priv, u32 afn, struct nicprog_exec_pkt *pkt,
		   const u64 *args, u64 *ret)
{
	struct np_world *w = priv;
	u32 t = nicprog_accel_fn_type(afn);

	if (!w->engines)
		return -EOPNOTSUPP;
	/* as the kernel's plan_accel(): the executor runs the body */
	if (t < __NICPROG_ACCEL_MAX && w->body16[t] &&
	    nicprog_share_body(w->body16[t], ++w->turn[t]))
		return -EAGAIN;
	if (np_engine_run(afn, pkt, args, ret))
		return -EOPNOTSUPP;
	return 0;
}

/* An event the NIC would send to the host: checked as the kernel does. */
static long w_event_output(void *priv, u32 map, u64 flags, const void *data,
			   u64 size, struct nicprog_exec_pkt *pkt)
{
	(void)priv;
	(void)map;
	(void)data;
	(void)size;
	if (flags & ~(BPF_F_CTXLEN_MASK | BPF_F_INDEX_MASK))
		return -EINVAL;
	if (((flags & BPF_F_CTXLEN_MASK) >> 32) > pkt->data_end - pkt->data)
		return -EFAULT;
	return 0;
}

static const struct nicprog_exec_ops world_ops = {
	.event_output = w_event_output,
	.map_lookup = w_lookup,
	.map_offset = w_offset,
	.map_update = w_update,
	.map_delete = w_delete,
	.ktime_ns = w_ktime,
	.prandom = w_prandom,
	.accel = w_accel,
};

static void world_free(struct np_world *w)
{
	struct np_elem *e;
	u32 i, b;

	for (i = 0; i < w->n_tables; i++) {
		free(w->tables[i].values);
		for (b = 0; b < w->tables[i].n_buckets; b++)
			while ((e = w->tables[i].buckets[b])) {
				w->tables[i].buckets[b] = e->next;
				elem_free(&w->tables[i], e);
			}
		while ((e = w->tables[i].free)) {
			w->tables[i].free = e->next;
			free(e);
		}
		free(w->tables[i].buckets);
	}
}

/*
 * A host map's stand-in holds the targets the kernel would set, slot @i:
 * its redirects reach the host as the NIC's do.
 */
static void host_targets(struct np_table *tb, u32 i)
{
	u32 k, target;

	for (k = 0; k < tb->t->max_entries; k++) {
		target = NICPROG_PIPE_TARGET_BIT | NICPROG_HOST_TARGET_BIT |
			 i << NICPROG_HOST_TARGET_SLOT_SHIFT | k;
		memcpy(tb->values + (u64)k * stride(tb->t), &target,
		       sizeof(target));
	}
}

static int world_init(struct np_world *w, const struct np_hostrun_in *hi,
		      bool engines, char *why, size_t why_len)
{
	const struct nicprog_ir_table *t;
	struct np_table *tb;
	u32 i;
	long err;

	memset(w, 0, sizeof(*w));
	w->engines = engines;
	w->body16 = hi->lo->body16;
	w->n_tables = hi->in->n_tables;
	for (i = 0; i < w->n_tables; i++) {
		t = &hi->in->tables[i];
		tb = &w->tables[i];
		tb->t = t;
		if (t->type == BPF_MAP_TYPE_ARRAY) {
			tb->values = line_alloc((u64)t->max_entries * stride(t));
			if (!tb->values)
				goto nomem;
			memset(tb->values, 0, (u64)t->max_entries * stride(t));
			if (hi->host_tables & (1ULL << i))
				host_targets(tb, i);
			continue;
		}
		if (t->type != BPF_MAP_TYPE_HASH &&
		    t->type != BPF_MAP_TYPE_LRU_HASH &&
		    t->type != BPF_MAP_TYPE_LPM_TRIE) {
			snprintf(why, why_len, "table %u: type %u; offline runs know the NIC's tables: HASH (plain, LRU, LPM) and ARRAY",
				 i, t->type);
			return -1;
		}
		for (tb->n_buckets = 1; tb->n_buckets < t->max_entries;)
			tb->n_buckets *= 2;
		tb->buckets = calloc(tb->n_buckets, sizeof(*tb->buckets));
		if (!tb->buckets)
			goto nomem;
	}
	for (i = 0; i < hi->n_entries; i++) {
		err = w_update(w, hi->entries[i].map, hi->entries[i].key,
			       hi->entries[i].val, BPF_ANY);
		if (err) {
			snprintf(why, why_len, "initial entry %u of table %u: %s",
				 i + 1, hi->entries[i].map, strerror(-err));
			return -1;
		}
	}
	return 0;
nomem:
	snprintf(why, why_len, "no memory for table %u", i);
	return -1;
}

/* The tables of two worlds hold the same entries. */
static bool worlds_equal(struct np_world *a, struct np_world *b)
{
	const struct nicprog_ir_table *t;
	struct np_elem *e;
	u8 *v;
	u32 i, k;

	for (i = 0; i < a->n_tables; i++) {
		t = a->tables[i].t;
		if (a->tables[i].values) {
			if (memcmp(a->tables[i].values, b->tables[i].values,
				   (u64)t->max_entries * stride(t)))
				return false;
			continue;
		}
		if (a->tables[i].count != b->tables[i].count)
			return false;
		for (k = 0; k < a->tables[i].n_buckets; k++)
			for (e = a->tables[i].buckets[k]; e; e = e->next) {
				v = w_lookup(b, i, e->key);
				if (!v || memcmp(v, e->val, t->value_size))
					return false;
			}
	}
	return true;
}

/* What nicsim steers by: its flow hash (drivers/nicsim/steer.h). */
static u32 flow_hash(const u8 *d, u32 len)
{
	u32 words[NICSIM_FLOW_WORDS], seed, n;

	n = nicsim_flow_words(d, len, words, &seed);
	return n ? np_jhash2(words, n, seed) : 0;
}

/* The plan core of stage @s that takes the frame @d. */
static u32 stage_core(const struct nicprog_layout *lo, u32 s, const u8 *d,
		      u32 len)
{
	const struct nicprog_stage *st = &lo->stages[s];
	const struct nicprog_table_info *ti;
	u8 key[NICPROG_KEY_MAX], rev[NICPROG_KEY_MAX];
	u32 k, n = 0;

	switch (st->steer) {
	case NICPROG_STEER_FLOW:
		return st->first_core + flow_hash(d, len) % st->replicas;
	case NICPROG_STEER_KEY:
	case NICPROG_STEER_KEY_SYMMETRIC:
		ti = &lo->tables[st->shard_table];
		for (k = 0; k < ti->key_len; k++) {
			if (ti->key_pkt[k] < 0)
				continue;
			rev[n] = ti->sym && ti->key_sym[k] < (s32)len ?
				 d[ti->key_sym[k]] : 0;
			key[n++] = ti->key_pkt[k] < (s32)len ?
				   d[ti->key_pkt[k]] : 0;
		}
		if (ti->sym && memcmp(rev, key, n) < 0)
			memcpy(key, rev, n);
		return st->first_core + np_jhash(key, n, 0) % st->replicas;
	}
	return st->first_core;
}

/* Cache lines touched: (region, line) to a dense index. */
struct np_lines {
	u64 *key;
	u32 *idx;
	u32 cap;
};

static int line_index(struct np_lines *l, struct np_hostrun *out, u8 region,
		      u64 addr, u32 *idx)
{
	u64 key = ((addr / NICPROG_LNIC_CACHE_LINE) << 8 | region) + 1;
	u32 h, i, cap;
	void *p;

	if (2 * (out->n_lines + 1) > l->cap) {
		struct np_lines nl;

		cap = l->cap ? 2 * l->cap : 1 << 16;
		nl.key = calloc(cap, sizeof(*nl.key));
		nl.idx = calloc(cap, sizeof(*nl.idx));
		nl.cap = cap;
		p = realloc(out->line_count, cap / 2 * sizeof(*out->line_count));
		if (p)
			out->line_count = p;
		p = p ? realloc(out->line_region, cap / 2) : NULL;
		if (p)
			out->line_region = p;
		p = p ? realloc(out->line_nic,
				cap / 2 * sizeof(*out->line_nic)) : NULL;
		if (p)
			out->line_nic = p;
		if (!nl.key || !nl.idx || !p) {
			free(nl.key);
			free(nl.idx);
			return -1;
		}
		for (i = 0; i < l->cap; i++) {
			if (!l->key[i])
				continue;
			for (h = (l->key[i] * 0x9e3779b97f4a7c15ULL) >> 40;
			     nl.key[h & (cap - 1)]; h++)
				;
			nl.key[h & (cap - 1)] = l->key[i];
			nl.idx[h & (cap - 1)] = l->idx[i];
		}
		free(l->key);
		free(l->idx);
		*l = nl;
	}
	for (h = (key * 0x9e3779b97f4a7c15ULL) >> 40;
	     l->key[h & (l->cap - 1)] && l->key[h & (l->cap - 1)] != key; h++)
		;
	h &= l->cap - 1;
	if (!l->key[h]) {
		l->key[h] = key;
		l->idx[h] = out->n_lines;
		out->line_count[out->n_lines] = 0;
		out->line_nic[out->n_lines] = addr / NICPROG_LNIC_CACHE_LINE + 1;
		out->line_region[out->n_lines++] = region;
	}
	*idx = l->idx[h];
	out->line_count[*idx]++;
	return 0;
}

static int grow(void **p, u64 *cap, u64 want, size_t size)
{
	void *q;

	if (want <= *cap)
		return 0;
	*cap = max_t(u64, want, 2 * *cap + 1024);
	q = realloc(*p, *cap * size);
	if (!q)
		return -1;
	*p = q;
	return 0;
}

/* Record a run and its trace. */
static int record(struct np_hostrun *out, struct np_lines *lines, u64 *cap_r,
		  u64 *cap_e, const struct nicprog_exec_trace *tr,
		  const struct np_run *r)
{
	const struct nicprog_exec_event *x;
	struct np_event *e;
	struct np_run *run;
	u32 i, n = tr ? tr->n : 0;

	if (grow((void **)&out->runs, cap_r, out->n_runs + 1, sizeof(*run)) ||
	    grow((void **)&out->ev, cap_e, out->n_ev + n, sizeof(*e)))
		return -1;
	run = &out->runs[out->n_runs++];
	*run = *r;
	run->ev = out->n_ev;
	run->n_ev = n;
	run->lost = tr ? tr->lost : 0;
	for (i = 0; i < n; i++) {
		x = &tr->ev[i];
		e = &out->ev[out->n_ev++];
		e->at = x->at;
		e->kind = x->kind;
		e->unit = x->unit;
		e->len = x->len;
		e->line = 0;
		if (x->kind == NICPROG_EXEC_EV_MEM &&
		    line_index(lines, out, x->unit, x->addr, &e->line))
			return -1;
	}
	if (tr)
		out->lost += tr->lost;
	return 0;
}

static void pkt_init(struct nicprog_exec_pkt *pkt, u8 *bufs, u32 n,
		     const u8 *f, u32 len, u32 ifindex)
{
	u8 *buf = bufs + (u64)n * NP_FRAME_SZ;

	*pkt = (struct nicprog_exec_pkt){
		.buf = buf, .buf_len = NP_FRAME_SZ,
		.nic = NICPROG_EXEC_NIC_FRAME(n),
		.head_reserved = 40, .tail_reserved = NP_TAILROOM,
		.data_meta = NP_HEADROOM, .data = NP_HEADROOM,
		.data_end = NP_HEADROOM + len, .ingress_ifindex = ifindex,
		.mtu = NP_MTU,
	};
	memcpy(buf + NP_HEADROOM, f, len);
}

/*
 * The NIC's clock when frame @i arrives: at @rate frames per second, as
 * nicsim's timing model counts a stream under that offered load
 * (drivers/nicsim/timing.c nicsim_tm_arrive(): floor(i * 10^9 / rate) ns
 * after the first); without a rate, a frame every microsecond.
 */
static u64 frame_ns(u64 rate, u32 i)
{
	u64 k;

	if (!rate)
		return NICPROG_EXEC_NIC_EPOCH_NS + 1000ULL * i;
	k = i / rate;
	return NICPROG_EXEC_NIC_EPOCH_NS + k * 1000000000ULL +
	       (i - k * rate) * 1000000000ULL / rate;
}

/*
 * Did the run stop at a helper only the host has? Offline there is no
 * host FIB, neighbour table or device: what the helper returns, and so the
 * verdict, is the host's to decide.
 */
static bool host_decided(const struct nicprog_ir_input *in,
			 const struct nicprog_exec_result *res)
{
	const struct bpf_insn *insn;

	if (res->error != -EOPNOTSUPP || res->error_insn >= in->len)
		return false;
	insn = &in->insns[res->error_insn];
	return insn->code == (BPF_JMP | BPF_CALL) && !insn->src_reg &&
	       nicprog_exec_host_helper(insn->imm);
}

/* stage ids a block walk gives main-program blocks: below STAGE_HOST */
#define NP_WALK_IDS	250

/* Per instruction, the stage id that makes a run stop at each block. */
static u8 *walk_stages(const struct nicprog_ir *ir)
{
	u8 *stage = malloc(ir->in->len ?: 1);
	u32 i, b;

	if (!stage)
		return NULL;
	for (i = 0; i < ir->in->len; i++) {
		b = ir->insn_block[i];
		stage[i] = b < ir->n_main ? b % NP_WALK_IDS :
			   NICPROG_EXEC_STAGE_ANY;
	}
	return stage;
}

/* Whether block @from's way to @to is one @live leaves to the class. */
static bool walk_way(const struct nicprog_ir_block *from, const u8 *live,
		     u32 to)
{
	if (from->n_succ && from->succ[0] == to)
		return *live & NICPROG_BR_SUCC0;
	if (from->n_succ > 1 && from->succ[1] == to)
		return *live & NICPROG_BR_SUCC1;
	return true;	/* blocks between, unseen: ids wrapped */
}

/*
 * The host's run of a frame of class @cls, stopping before every
 * main-program block (each its own stage): every block it starts, and
 * every way from one block to the next, must be one the class's walk left
 * to it. With more blocks than ids, consecutive stops may have blocks
 * between them: only the blocks are checked then.
 */
static void walk_run(const struct np_hostrun_in *hi,
		     const struct nicprog_exec_prog *staged, void *world,
		     struct nicprog_exec_state *st,
		     struct nicprog_exec_pkt *pkt,
		     struct nicprog_exec_result *res, u32 cls, u32 frame,
		     struct np_hostrun *out)
{
	const struct nicprog_ir *ir = hi->ir;
	const u8 *live = hi->walk[cls];
	bool exact = ir->n_main <= NP_WALK_IDS, bad = false;
	u32 b, prev = U32_MAX;

	nicprog_exec_start(&st->ctx, pkt);
	for (;;) {
		b = ir->insn_block[st->ctx.pc];
		if (!bad && (!(live[b] & NICPROG_BR_RUNS) ||
			     (exact && prev != U32_MAX &&
			      !walk_way(&ir->blocks[prev], &live[prev], b)))) {
			bad = true;
			if (!out->walk_escaped++) {
				out->walk_frame = frame;
				out->walk_class = cls;
				out->walk_block = b;
			}
		}
		nicprog_exec_resume(staged, &world_ops, world, st, pkt,
				    &st->ctx, res);
		if (res->done)
			break;
		prev = b;
	}
	out->walk_checked++;
}

/*
 * An offline run's state, np_hostrun()'s: the NIC's world and programs
 * (the plan's, its host part's, translated stages), the host's world and
 * programs (the whole program, and the one that checks the class walks),
 * the records' growth; all of it freed by hr_free().
 */
struct hr_run {
	const struct np_hostrun_in *hi;
	const struct nicprog_layout *lo;
	struct nicprog_exec_prog nic, part, host, walk;
	struct nicprog_exec_code *code[NICPROG_MAX_STAGES];
	bool staged;
	struct np_world *wn, *wh;
	struct nicprog_exec_state *st;
	struct nicprog_exec_trace *tr;
	u8 *flags, *region, *bufs, *hbuf, *walk_stage;
	struct np_hostrun *out;
	struct np_lines lines;
	u64 cap_r, cap_e;
};

static void hr_free(struct hr_run *h)
{
	u32 s;

	for (s = 0; s < NICPROG_MAX_STAGES; s++)
		nicprog_exec_code_free(h->code[s]);
	if (h->wn)
		world_free(h->wn);
	if (h->wh)
		world_free(h->wh);
	free(h->lines.key);
	free(h->lines.idx);
	free(h->wn);
	free(h->wh);
	free(h->walk_stage);
	free(h->flags);
	free(h->region);
	free(h->st);
	free(h->tr);
	free(h->bufs);
	free(h->hbuf);
}

/* Buffers, worlds and programs for @n frames; -1 with @why set. */
static int hr_init(struct hr_run *h, u32 n, char *why, size_t why_len)
{
	const struct np_hostrun_in *hi = h->hi;
	const struct nicprog_layout *lo = h->lo;
	const struct nicprog_lnic_unit *cu = &hi->lnic->units[lo->core_unit];
	size_t sz;
	u32 s;

	h->flags = malloc(hi->in->len);
	h->region = malloc(hi->in->len);
	h->st = calloc(1, sizeof(*h->st));
	h->tr = calloc(1, sizeof(*h->tr));
	/* zeroed: world_free() of one world_init() never reached is a no-op */
	h->wn = calloc(1, sizeof(*h->wn));
	h->wh = calloc(1, sizeof(*h->wh));
	/* line-aligned as the NIC's buffers are: packet lines are lines too */
	sz = (lo->n_stages > 1 ? NP_PKT_BUFS : lo->cores) * NP_FRAME_SZ;
	h->bufs = line_alloc(sz);
	if (h->bufs)
		memset(h->bufs, 0, sz);
	h->hbuf = line_alloc(NP_FRAME_SZ);
	if (h->hbuf)
		memset(h->hbuf, 0, NP_FRAME_SZ);
	h->out->verdict = calloc(n ?: 1, 1);
	h->out->cls = calloc(n ?: 1, 1);
	if (!h->out->verdict || !h->out->cls || !h->flags || !h->region ||
	    !h->st || !h->tr || !h->wn || !h->wh || !h->bufs || !h->hbuf) {
		snprintf(why, why_len, "no memory");
		return -1;
	}
	if (world_init(h->wn, hi, true, why, why_len) ||
	    world_init(h->wh, hi, false, why, why_len))
		return -1;
	memcpy(h->flags, hi->exec->flags, hi->in->len);
	nicprog_layout_exec(hi->in, lo, h->flags, h->region);
	h->nic = *hi->exec;
	memcpy(h->nic.cost, cu->cost, sizeof(h->nic.cost));
	h->nic.flags = h->flags;
	h->nic.cycles = lo->insn_cycles;
	h->staged = lo->n_stages > 1 || lo->node_host;
	h->nic.stage = h->staged ? lo->insn_stage : NULL;
	h->nic.accel = lo->insn_accel;
	h->nic.region = h->region;
	h->host = *hi->exec;
	h->host.accel = NULL;		/* the host runs the BPF bodies */
	/* a partial plan's host part: the executor on the host, untimed */
	h->part = h->host;
	h->part.stage = lo->insn_stage;
	/* the host's runs, checked against the class walks */
	h->walk = h->host;
	if (hi->ir) {
		h->walk_stage = walk_stages(hi->ir);
		if (!h->walk_stage)
			goto nomem;
		h->walk.stage = h->walk_stage;
	}
	/* --exec translated: the NIC's stages in nicsim's translated form */
	for (s = 0; hi->translated && s < (h->staged ? lo->n_stages : 1); s++) {
		h->code[s] = nicprog_exec_translate(&h->nic, s);
		if (!h->code[s])
			goto nomem;
	}
	return 0;
nomem:
	snprintf(why, why_len, "no memory for the runs of %u frames", n);
	return -1;
}

/*
 * A frame through the NIC's plan, stage by stage on the cores it is
 * steered to (@core for the first), each stage's run recorded; a frame a
 * partial plan hands over then runs the host part (*@handed). Return: 0,
 * or -1 without memory for the records.
 */
static int run_nic(struct hr_run *h, struct nicprog_exec_pkt *pkt,
		   struct np_run *r, u32 core, struct nicprog_exec_result *res,
		   bool *handed)
{
	const struct nicprog_layout *lo = h->lo;
	struct nicprog_exec_state *st = h->st;
	struct np_hostrun *out = h->out;
	struct nicprog_exec_ctx ctx;
	bool done;
	u32 s;

	*handed = false;
	st->trace = h->tr;
	if (!h->staged) {
		if (h->code[0]) {
			nicprog_exec_start(&st->ctx, pkt);
			nicprog_exec_code_resume(h->code[0], &world_ops, h->wn,
						 st, pkt, &st->ctx, res);
		} else {
			nicprog_exec_run(&h->nic, &world_ops, h->wn, st, pkt,
					 res);
		}
		r->core = core;
		r->cycles = res->cycles;
		if (record(out, &h->lines, &h->cap_r, &h->cap_e, h->tr, r))
			return -1;
		out->errors += !!res->error;
		return 0;
	}
	nicprog_exec_start(&ctx, pkt);
	done = false;
	for (s = 0; s < lo->n_stages; s++) {
		if (s)
			core = stage_core(lo, s, pkt->buf + pkt->data,
					  pkt->data_end - pkt->data);
		r->core = core;
		r->stage = s;
		r->pass = done || ctx.stage != s;
		r->cycles = s ? lo->hop_cycles : 0;
		if (r->pass) {
			if (s && record(out, &h->lines, &h->cap_r, &h->cap_e,
					NULL, r))
				return -1;
			continue;
		}
		if (h->code[s])
			nicprog_exec_code_resume(h->code[s], &world_ops, h->wn,
						 st, pkt, &ctx, res);
		else
			nicprog_exec_resume(&h->nic, &world_ops, h->wn, st, pkt,
					    &ctx, res);
		r->cycles += res->cycles;
		if (record(out, &h->lines, &h->cap_r, &h->cap_e, h->tr, r))
			return -1;
		out->errors += !!res->error;
		done = res->done;
		if (!done && ctx.stage == NICPROG_EXEC_STAGE_HOST)
			break;
	}
	if (!done && ctx.stage == NICPROG_EXEC_STAGE_HOST) {
		/* handed over: no later stage sees the frame */
		out->handovers++;
		out->class_handovers[r->cls]++;
		st->trace = NULL;
		nicprog_exec_resume(&h->part, &world_ops, h->wn, st, pkt, &ctx,
				    res);
		out->host_insns += res->insns;
		*handed = true;
	}
	return 0;
}

/*
 * The frame @f of @len bytes on the host, the whole program (its class
 * walk checked): true if it ends otherwise than the NIC's run (@pkt,
 * @res), unless both left the verdict to the host (@decided).
 */
static bool run_host(struct hr_run *h, const u8 *f, u32 len, u32 frame,
		     bool decided, const struct nicprog_exec_pkt *pkt,
		     const struct nicprog_exec_result *res)
{
	const struct np_hostrun_in *hi = h->hi;
	struct nicprog_exec_result hres;
	struct nicprog_exec_pkt hpkt;
	u32 k;

	h->st->trace = NULL;
	pkt_init(&hpkt, h->hbuf, 0, f, len, hi->ifindex);
	/* the same clock and random stream as the NIC's world */
	hpkt.now_ns = h->wh->now;
	k = nicprog_pkt_class_of(f, len);
	h->out->pkt_class_frames[k]++;
	if (h->walk_stage && k < NICPROG_PKT_CLASSES && hi->walk[k])
		walk_run(hi, &h->walk, h->wh, h->st, &hpkt, &hres, k, frame,
			 h->out);
	else
		nicprog_exec_run(&h->host, &world_ops, h->wh, h->st, &hpkt,
				 &hres);
	/* the host decides both alike; the frame was not compared */
	if (decided && host_decided(hi->in, &hres))
		return false;
	return hres.action != res->action ||
	       hpkt.data_end - hpkt.data != pkt->data_end - pkt->data ||
	       memcmp(hpkt.buf + hpkt.data, pkt->buf + pkt->data,
		      pkt->data_end - pkt->data) ||
	       (res->action == XDP_REDIRECT &&
		hres.redirect_ifindex != res->redirect_ifindex);
}

/**
 * np_hostrun() - run a plan offline over frames
 * @hi: the program, the NIC, the plan and the initial tables
 * @fr: the frames, in order
 * @out: what ran; free with np_hostrun_free()
 * @why: on an error, what went wrong
 * @why_len: size of @why
 *
 * Return: 0, or -1 with @why set.
 */
int np_hostrun(const struct np_hostrun_in *hi, const struct np_frames *fr,
	       struct np_hostrun *out, char *why, size_t why_len)
{
	struct hr_run h = { .hi = hi, .lo = hi->lo, .out = out };
	struct nicprog_exec_result res;
	struct nicprog_exec_pkt pkt;
	u32 i, core, len, verdict, src;
	bool handed, decided;
	struct np_run r;
	const u8 *f;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	/*
	 * Read alike on the NIC and here only at the same rate: the clock,
	 * and random numbers (a stream the frame's time on the clock seeds).
	 */
	src = nicprog_ir_sources(hi->in);
	out->reads_clock = src & NICPROG_IR_READS_CLOCK;
	out->reads_random = src & NICPROG_IR_READS_RANDOM;
	out->clock_rate = hi->rate;
	if (hr_init(&h, fr->n, why, why_len))
		goto out;
	for (i = 0; i < fr->n; i++) {
		f = fr->buf + fr->off[i];
		len = fr->len[i];
		memset(&r, 0, sizeof(r));
		r.frame = i;
		r.cls = np_wl_classify(f, len);
		out->class_frames[r.cls]++;
		out->cls[i] = r.cls;
		h.wn->now = h.wh->now = frame_ns(hi->rate, i);

		core = stage_core(h.lo, 0, f, len);
		pkt_init(&pkt, h.bufs,
			 h.lo->n_stages > 1 ? i % NP_PKT_BUFS : core, f, len,
			 hi->ifindex);
		/* the NIC's clock, and random stream from it, as nicsim's */
		pkt.now_ns = h.wn->now;
		if (run_nic(&h, &pkt, &r, core, &res, &handed)) {
			snprintf(why, why_len,
				 "no memory for the runs of %u frames", fr->n);
			goto out;
		}
		decided = handed && host_decided(hi->in, &res);
		out->host_decided += decided;
		out->errors += handed && res.error && !decided;
		verdict = decided ? NP_VERDICT_HOST : min_t(u32, res.action, 4);
		out->verdicts[verdict]++;
		out->verdict[i] = verdict;
		out->engine_diff += run_host(&h, f, len, i, decided, &pkt, &res);
	}
	out->frames = fr->n;
	if (!worlds_equal(h.wn, h.wh) || !worlds_equal(h.wh, h.wn))
		out->engine_diff++;
	ret = 0;
out:
	hr_free(&h);
	if (ret)
		np_hostrun_free(out);
	return ret;
}

/**
 * np_hostrun_free() - free an offline run's records
 * @out: the run
 */
void np_hostrun_free(struct np_hostrun *out)
{
	free(out->runs);
	free(out->ev);
	free(out->line_count);
	free(out->line_region);
	free(out->line_nic);
	free(out->verdict);
	free(out->cls);
	memset(out, 0, sizeof(*out));
}
