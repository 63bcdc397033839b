// SPDX-License-Identifier: GPL-2.0
/*
 * The verifier's facts, offline. The offloader plans from what the
 * kernel's verifier saw at each instruction over every path (struct
 * nicprog_insn_meta). To plan an ELF object without a kernel, this walks
 * the program as the Linux 6.1 verifier does -- global functions first,
 * then the program; depth first, fall-through before the jump; bounded
 * loops unrolled, because a state whose path is still being explored
 * never prunes another; the same prune points and the same heuristic for
 * keeping states -- tracking what the facts need: pointer kinds and
 * offsets, stack slots, scalar ranges.
 *
 * Where the verifier decides by precision marks found at run time, this
 * decides by a static approximation: a scalar's value matters at an
 * instruction if a later conditional jump, memory access, pointer
 * addition or call can see it (through registers and frame-pointer stack
 * slots). Visit counts may therefore differ from the kernel's where the
 * verifier prunes more or less; the facts that do not count visits agree
 * with the kernel's on every example NF (selftests/nicprog/offline.sh).
 *
 * np_absint_tmpl() walks the program for one kind of frame: header bytes
 * every such frame has (struct np_pkt_tmpl) are known to loads at fixed
 * packet offsets, and a packet bound is decided where the frames' lengths
 * decide it, so a branch such a frame never takes is not walked and its
 * blocks are not visited. What the program may write into the packet, or
 * move (bpf_xdp_adjust_*()), is not known: the walk starts again without
 * those bytes (or without the template) until no path writes a known
 * byte, so that no state pruned against another saw a byte the other
 * path changed.
 */
#include "absint.h"
#include "../../kernel/exec/run.h"

#define AI_MAX_FRAMES	8
#define AI_STACK_BYTES	512		/* MAX_BPF_STACK */
#define AI_SLOTS	(AI_STACK_BYTES / 8)
#define AI_LIMIT	1000000		/* BPF_COMPLEXITY_LIMIT_INSNS */
#define AI_MAX_STACK	8192		/* BPF_COMPLEXITY_LIMIT_JMP_SEQ */

enum ai_type {
	AI_NOT_INIT,
	AI_SCALAR,
	AI_CTX,
	AI_PKT,
	AI_PKT_END,
	AI_PKT_META,
	AI_MAP_PTR,
	AI_MAP_VALUE,
	AI_MAP_VALUE_OR_NULL,
	AI_STACK,
	AI_MEM,			/* a global function's pointer argument */
	AI_MEM_OR_NULL,
};

/* A register: a scalar range, or a pointer with a fixed and a variable part */
struct ai_reg {
	u8 type;
	u8 map;		/* object map index */
	u8 frame;	/* stack pointers */
	u32 id;		/* maybe-NULL pointers; packet pointers' variable part */
	s32 off;
	/*
	 * packet pointers: the bytes past the pointer a comparison with
	 * data_end proved in the frame, or AI_PKT_BEYOND / AI_PKT_AT
	 */
	s32 range;
	u64 umin, umax;
};

#define AI_MAX_PACKET_OFF	0xffff	/* MAX_PACKET_OFF */
#define AI_PKT_BEYOND		(-1)	/* BEYOND_PKT_END */
#define AI_PKT_AT		(-2)	/* AT_PKT_END */

enum ai_slot_kind { AI_SLOT_INVALID, AI_SLOT_SPILL, AI_SLOT_MISC };

struct ai_slot {
	u8 kind;
	u8 size;	/* bytes of a spill */
	u8 zero;	/* bytes known zero, bit per byte */
	struct ai_reg reg;
};

struct ai_frame {
	struct ai_reg regs[MAX_BPF_REG];
	struct ai_slot stack[AI_SLOTS];
	/*
	 * Slots ever written, a superset of those not AI_SLOT_INVALID: the
	 * walks over every slot at every instruction (ai_note_slots(),
	 * ai_frame_safe()) were most of the time nicprog-plan took.
	 */
	u64 used;
	u32 callsite;
};

struct ai_state {
	struct ai_frame *fr[AI_MAX_FRAMES];
	u32 cur;
	u32 insn;
	struct ai_state *parent;	/* the kept state it descends from */
	u32 branches;			/* paths from it still being walked */
	u32 hits, misses;
	struct ai_state *next;		/* kept states at one instruction */
	struct ai_state *all;		/* every kept state, to free */
};

struct ai {
	const struct np_object *o;
	const struct bpf_insn *insns;
	u32 len;
	struct nicprog_insn_meta *meta;
	u8 *table_of;			/* object map -> table index */
	u32 n_tables;
	u32 *func_of;			/* insn -> index in o->subs */
	u16 *m_regs;			/* scalar registers that matter */
	u64 *m_slots;			/* frame-pointer slots that matter */
	u8 *prune;
	struct ai_state **kept;		/* per instruction */
	struct ai_state **todo;		/* the verifier's branch stack */
	u32 n_todo;
	struct ai_state *all;
	u64 processed, jmps, prev_processed, prev_jmps, states;
	u32 next_id;
	char *err;
	size_t err_len;
	struct np_pkt_tmpl *tmpl;	/* NULL: nothing known of the frame */
	bool tmpl_hit;			/* a path wrote what it knows */
	u8 *took;			/* with tmpl: np_facts.took */
};

static int ai_fail(struct ai *ai, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ai->err, ai->err_len, fmt, ap);
	va_end(ap);
	return err;
}

/* --- states --- */

static void ai_state_free(struct ai_state *st)
{
	u32 f;

	if (!st)
		return;
	for (f = 0; f <= st->cur; f++)
		free(st->fr[f]);
	free(st);
}

static struct ai_state *ai_state_copy(const struct ai_state *src)
{
	struct ai_state *st = calloc(1, sizeof(*st));
	u32 f;

	if (!st)
		return NULL;
	st->cur = src->cur;
	st->insn = src->insn;
	st->parent = src->parent;
	for (f = 0; f <= src->cur; f++) {
		st->fr[f] = malloc(sizeof(*st->fr[f]));
		if (!st->fr[f]) {
			st->cur = f ? f - 1 : 0;
			ai_state_free(st);
			return NULL;
		}
		memcpy(st->fr[f], src->fr[f], sizeof(*st->fr[f]));
	}
	return st;
}

static void ai_unknown(struct ai_reg *r)
{
	*r = (struct ai_reg){ .type = AI_SCALAR, .umax = U64_MAX };
}

static void ai_const(struct ai_reg *r, u64 v)
{
	*r = (struct ai_reg){ .type = AI_SCALAR, .umin = v, .umax = v };
}

static bool ai_is_const(const struct ai_reg *r)
{
	return r->type == AI_SCALAR && r->umin == r->umax;
}

static bool ai_is_ptr(const struct ai_reg *r)
{
	return r->type != AI_SCALAR && r->type != AI_NOT_INIT;
}

/* --- what matters: a backward pass over each function --- */

static u64 ai_slot_bit(s32 off)
{
	return off < 0 && off >= -AI_STACK_BYTES ? BIT_ULL((-off - 1) / 8) : 0;
}

static void ai_matters_insn(const struct ai *ai, u32 i, u16 *regs,
			    u64 *slots)
{
	const struct bpf_insn *in = &ai->insns[i];
	u8 cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
	u16 r = *regs, d = BIT(in->dst_reg), s = BIT(in->src_reg);
	u64 sl = *slots, bit;

	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		if (op == BPF_MOV) {
			bool m = r & d;

			r &= ~d;
			if (m && BPF_SRC(in->code) == BPF_X)
				r |= s;
		} else if ((r & d) || op == BPF_ADD || op == BPF_SUB) {
			/* pointer arithmetic: the offset matters */
			if (BPF_SRC(in->code) == BPF_X)
				r |= s;
		}
		break;
	case BPF_LD:
		r &= ~d;
		break;
	case BPF_LDX:
		bit = in->src_reg == BPF_REG_10 ? ai_slot_bit(in->off) : 0;
		if ((r & d) && bit)
			sl |= bit;
		r &= ~d;
		r |= s;
		break;
	case BPF_ST:
		r |= d;
		break;
	case BPF_STX:
		bit = in->dst_reg == BPF_REG_10 ? ai_slot_bit(in->off) : 0;
		if (bit & sl) {
			r |= s;
			if (BPF_SIZE(in->code) == BPF_DW)
				sl &= ~bit;
		}
		r |= d;
		if (BPF_MODE(in->code) == BPF_ATOMIC)
			r |= s;
		break;
	case BPF_JMP:
	case BPF_JMP32:
		if (op == BPF_JA)
			break;
		if (op == BPF_EXIT) {
			r = ai->o->subs[ai->func_of[i]].start &&
			    !ai->o->subs[ai->func_of[i]].global ? BIT(0) : 0;
			sl = 0;
			break;
		}
		if (op == BPF_CALL) {
			r &= ~0x3f;
			r |= 0x3e;	/* R1-R5: sizes, ids, keys */
			break;
		}
		r |= d;
		if (BPF_SRC(in->code) == BPF_X)
			r |= s;
		break;
	}
	*regs = r & ~BIT(BPF_REG_10);
	*slots = sl;
}

static void ai_succ(const struct ai *ai, u32 i, u32 *s, u32 *n)
{
	const struct bpf_insn *in = &ai->insns[i];
	u8 cls = BPF_CLASS(in->code), op = BPF_OP(in->code);

	*n = 0;
	if (in->code == (BPF_LD | BPF_IMM | BPF_DW)) {
		s[(*n)++] = i + 2;
		return;
	}
	if (cls != BPF_JMP && cls != BPF_JMP32) {
		s[(*n)++] = i + 1;
		return;
	}
	if (op == BPF_EXIT)
		return;
	if (op == BPF_CALL) {
		s[(*n)++] = i + 1;
		return;
	}
	if (op == BPF_JA) {
		s[(*n)++] = i + 1 + in->off;
		return;
	}
	s[(*n)++] = i + 1;
	s[(*n)++] = i + 1 + in->off;
}

static void ai_matters(struct ai *ai)
{
	u32 i, k, n, s[2];
	bool changed = true;
	u16 r;
	u64 sl;

	while (changed) {
		changed = false;
		for (i = ai->len; i-- > 0;) {
			r = 0;
			sl = 0;
			ai_succ(ai, i, s, &n);
			for (k = 0; k < n; k++) {
				if (s[k] >= ai->len ||
				    ai->func_of[s[k]] != ai->func_of[i])
					continue;
				r |= ai->m_regs[s[k]];
				sl |= ai->m_slots[s[k]];
			}
			ai_matters_insn(ai, i, &r, &sl);
			if (r != ai->m_regs[i] || sl != ai->m_slots[i]) {
				ai->m_regs[i] |= r;
				ai->m_slots[i] |= sl;
				changed = true;
			}
		}
	}
}

/* --- state equivalence (the verifier's states_equal(), approximately) --- */

static bool ai_reg_safe(const struct ai_reg *old, const struct ai_reg *cur,
			bool matters)
{
	if (old->type == AI_NOT_INIT)
		return true;
	if (old->type != cur->type)
		return false;
	if (old->type == AI_SCALAR)
		return !matters ||
		       (old->umin <= cur->umin && cur->umax <= old->umax);
	/* regsafe(): at least the old pointer's proven packet range */
	if (old->type == AI_PKT && old->range > cur->range)
		return false;
	return old->map == cur->map && old->frame == cur->frame &&
	       old->off == cur->off && old->umin <= cur->umin &&
	       cur->umax <= old->umax;
}

static bool ai_frame_safe(const struct ai *ai, const struct ai_frame *old,
			  const struct ai_frame *cur, u32 at, bool caller)
{
	u16 mr = ai->m_regs[at];
	u64 ms = ai->m_slots[at];
	const struct ai_slot *o, *c;
	u32 r, s;
	u64 m;

	if (old->callsite != cur->callsite)
		return false;
	for (r = caller ? BPF_REG_6 : 0; r < MAX_BPF_REG; r++)
		if (!ai_reg_safe(&old->regs[r], &cur->regs[r], mr & BIT(r)))
			return false;
	for (m = old->used; m; m &= m - 1) {
		s = __builtin_ctzll(m);
		o = &old->stack[s];
		c = &cur->stack[s];
		if (o->kind == AI_SLOT_INVALID)
			continue;
		if (o->kind == AI_SLOT_MISC) {
			if (c->kind == AI_SLOT_INVALID ||
			    (c->kind == AI_SLOT_SPILL && ai_is_ptr(&c->reg)) ||
			    (o->zero & ~c->zero))
				return false;
			continue;
		}
		if (c->kind != AI_SLOT_SPILL || o->size != c->size ||
		    !ai_reg_safe(&o->reg, &c->reg, ms & BIT_ULL(s)))
			return false;
	}
	return true;
}

static bool ai_states_equal(const struct ai *ai, const struct ai_state *old,
			    const struct ai_state *cur)
{
	u32 f;

	if (old->cur != cur->cur)
		return false;
	for (f = 0; f <= cur->cur; f++)
		if (!ai_frame_safe(ai, old->fr[f], cur->fr[f],
				   f == cur->cur ? cur->insn :
				   cur->fr[f + 1]->callsite + 1, f != cur->cur))
			return false;
	return true;
}

/* A path ended: the kept states it descends from may now prune. */
static void ai_branch_done(struct ai_state *st)
{
	while (st) {
		if (--st->branches)
			break;
		st = st->parent;
	}
}

/* is_state_visited(): 1 to prune, 0 to go on, <0 on error */
static int ai_visited(struct ai *ai, struct ai_state *cur)
{
	struct ai_state **pp = &ai->kept[cur->insn], *sl, *nw;
	bool add = ai->jmps - ai->prev_jmps >= 2 &&
		   ai->processed - ai->prev_processed >= 8;

	if (!ai->prune[cur->insn])
		return 0;
	while ((sl = *pp)) {
		if (sl->branches) {
			if (ai->jmps - ai->prev_jmps < 20 &&
			    ai->processed - ai->prev_processed < 100)
				add = false;
		} else if (ai_states_equal(ai, sl, cur)) {
			sl->hits++;
			return 1;
		}
		if (add)
			sl->misses++;
		/* not worth keeping; its parentage may still be walked */
		if (sl->misses > sl->hits * 3 + 3) {
			*pp = sl->next;
			sl->next = NULL;
			continue;
		}
		pp = &sl->next;
	}
	if (!add)
		return 0;
	nw = ai_state_copy(cur);
	if (!nw)
		return -ENOMEM;
	ai->states++;
	ai->prev_jmps = ai->jmps;
	ai->prev_processed = ai->processed;
	nw->branches = 1;
	nw->all = ai->all;
	ai->all = nw;
	nw->next = ai->kept[cur->insn];
	ai->kept[cur->insn] = nw;
	cur->parent = nw;
	return 0;
}

/* --- the facts, through the kernel's own recorder (kernel/offload/note.c) --- */

static u8 ai_kind(const struct ai_reg *r)
{
	switch (r->type) {
	case AI_SCALAR:
		return NICPROG_PTR_SCALAR;
	case AI_CTX:
		return NICPROG_PTR_CTX;
	case AI_PKT:
	case AI_PKT_END:
	case AI_PKT_META:
		return NICPROG_PTR_PACKET;
	case AI_MAP_VALUE:
	case AI_MAP_VALUE_OR_NULL:
		return NICPROG_PTR_MAP_VALUE;
	case AI_STACK:
		return NICPROG_PTR_STACK;
	default:
		return NICPROG_PTR_OTHER;
	}
}

static bool ai_has_map(const struct ai_reg *r)
{
	return r->type == AI_MAP_PTR || r->type == AI_MAP_VALUE ||
	       r->type == AI_MAP_VALUE_OR_NULL;
}

/* A register as the fact recorder (kernel/offload/note.c) takes it. */
static void ai_view(struct ai *ai, const struct ai_reg *r,
		    struct nicprog_reg_view *v)
{
	v->kind = ai_kind(r);
	v->flags = 0;
	v->off = r->off;
	v->var = r->umin;
	v->umax = r->umax;
	v->map = ai_has_map(r) ? &ai->table_of[r->map] : NULL;
	if (r->type == AI_NOT_INIT)
		v->flags |= NICPROG_REG_UNINIT;
	if (r->type == AI_PKT)
		v->flags |= NICPROG_REG_FRAME;
	if (v->kind == NICPROG_PTR_MAP_VALUE)
		v->flags |= NICPROG_REG_MAP_VALUE;
	if (r->umin == r->umax)
		v->flags |= NICPROG_REG_CONST;
	if (r->type == AI_STACK && !r->frame)
		v->flags |= NICPROG_REG_MAIN_STACK;
}

/* Tables numbered as the kernel numbers maps: on first sight. */
static u8 ai_table_of(void *priv, const void *map)
{
	struct ai *ai = priv;
	u8 *t = (u8 *)map;

	if (*t == NICPROG_MAP_NONE)
		*t = ai->n_tables++;
	return *t;
}

/* What main-frame slots hold, as kernel/verifier.c's nicprog_note_slots(). */
static void ai_note_slots(struct ai *ai, struct nicprog_insn_meta *m,
			  const struct ai_state *st)
{
	const struct ai_frame *fr = st->fr[st->cur];
	struct nicprog_note_masks k = {};
	struct nicprog_reg_view v;
	u64 used;
	u32 i;

	if (st->cur)
		return;
	for (used = fr->used; used; used &= used - 1) {
		i = __builtin_ctzll(used);
		if (fr->stack[i].kind == AI_SLOT_SPILL) {
			ai_view(ai, &fr->stack[i].reg, &v);
			nicprog_note_sort(&v, BIT_ULL(i), &k);
		} else if (fr->stack[i].kind == AI_SLOT_MISC) {
			k.data |= BIT_ULL(i);
		}
	}
	m->ptr_slots |= k.ptr;
	m->data_slots |= k.data;
	m->other_slots |= k.other;
}

/* One path's facts of an instruction, as the kernel's insn_hook notes them. */
static int ai_note(struct ai *ai, const struct ai_state *st)
{
	const struct bpf_insn *in = &ai->insns[st->insn];
	const struct ai_reg *regs = st->fr[st->cur]->regs;
	struct nicprog_insn_meta *m = &ai->meta[st->insn];
	struct nicprog_reg_view v[MAX_BPF_REG];
	u32 i;
	int err;

	for (i = 0; i < MAX_BPF_REG; i++)
		ai_view(ai, &regs[i], &v[i]);
	ai_note_slots(ai, m, st);
	err = nicprog_note_insn(m, in, st->insn, v, ai_table_of, ai, ai->err,
				ai->err_len);
	if (err)
		return err;
	if (in->code == (BPF_JMP | BPF_CALL) && !in->src_reg &&
	    !nicprog_exec_helper_supported(in->imm) &&
	    !nicprog_exec_host_helper(in->imm))
		return ai_fail(ai, -EOPNOTSUPP, "insn %u: helper %d is not supported on the NIC",
			       st->insn, in->imm);
	return 0;
}

/* --- scalar ranges --- */

static u64 ai_mask(u32 bits)
{
	return bits >= 64 ? U64_MAX : (1ULL << bits) - 1;
}

/* Its low 32 bits as a range. */
static void ai_lo32(const struct ai_reg *r, u64 *lo, u64 *hi)
{
	if (r->type == AI_SCALAR && (r->umin >> 32) == (r->umax >> 32) &&
	    (u32)r->umin <= (u32)r->umax) {
		*lo = (u32)r->umin;
		*hi = (u32)r->umax;
	} else {
		*lo = 0;
		*hi = U32_MAX;
	}
}

static u64 ai_pow2_fill(u64 v)
{
	v |= v >> 1;
	v |= v >> 2;
	v |= v >> 4;
	v |= v >> 8;
	v |= v >> 16;
	v |= v >> 32;
	return v;
}

static u64 ai_bswap(u64 v, u32 bits)
{
	u64 r = 0;
	u32 b;

	for (b = 0; b < bits / 8; b++)
		r |= ((v >> (8 * b)) & 0xff) << (bits - 8 - 8 * b);
	return r;
}

/* dst = dst op src on ranges [a, b] and [c, d]; false: unknown */
static bool ai_alu_range(u8 op, u64 a, u64 b, u64 c, u64 d, u32 bits,
			 u64 *lo, u64 *hi)
{
	u64 top = ai_mask(bits);

	/*
	 * Constants: the executor's own operation, for the ops from ADD to
	 * XOR but NEG (a shift only by less than the width).
	 */
	if (a == b && c == d && op <= BPF_XOR && op != BPF_NEG &&
	    (c < bits || (op != BPF_LSH && op != BPF_RSH))) {
		*lo = *hi = nicprog_exec_alu64(op, a, c) & top;
		return true;
	}
	switch (op) {
	case BPF_ADD:
		if (b > top - d)
			return false;
		*lo = a + c;
		*hi = b + d;
		return true;
	case BPF_SUB:
		if (a < d)
			return false;
		*lo = a - d;
		*hi = b - c;
		return true;
	case BPF_MUL:
		if (d && b > top / d)
			return false;
		*lo = a * c;
		*hi = b * d;
		return true;
	case BPF_DIV:
		if (c != d)
			return *lo = 0, *hi = b, true;
		*lo = c ? a / c : 0;
		*hi = c ? b / c : 0;
		return true;
	case BPF_MOD:
		if (c == d && c && b < c)
			return *lo = a, *hi = b, true;
		*lo = 0;
		*hi = c == d && c ? c - 1 : b;
		return true;
	case BPF_AND:
		if (a == b && c == d)
			return *lo = *hi = a & c, true;
		*lo = 0;
		*hi = min(b, d);
		return true;
	case BPF_OR:
		if (a == b && c == d)
			return *lo = *hi = a | c, true;
		*lo = max(a, c);
		*hi = ai_pow2_fill(max(b, d));
		return true;
	case BPF_XOR:
		if (a == b && c == d)
			return *lo = *hi = a ^ c, true;
		*lo = 0;
		*hi = ai_pow2_fill(max(b, d));
		return true;
	case BPF_LSH:
		if (c != d || c >= bits || (b && (b >> (bits - c - 1)) >> 1))
			return false;
		*lo = a << c;
		*hi = b << c;
		return true;
	case BPF_RSH:
		if (c != d)
			return *lo = 0, *hi = b, true;
		if (c >= bits)
			return false;
		*lo = a >> c;
		*hi = b >> c;
		return true;
	case BPF_ARSH:
		if (c != d || c >= bits || (b >> (bits - 1)))
			return false;	/* negative values: unknown */
		*lo = a >> c;
		*hi = b >> c;
		return true;
	case BPF_NEG:
		if (a != b)
			return false;
		*lo = *hi = (0 - a) & top;
		return true;
	}
	return false;
}

static void ai_alu_scalar(const struct bpf_insn *in, struct ai_reg *dst,
			  const struct ai_reg *src)
{
	bool is64 = BPF_CLASS(in->code) == BPF_ALU64;
	u8 op = BPF_OP(in->code);
	u32 bits = is64 ? 64 : 32;
	u64 a, b, c, d, lo, hi;

	if (is64) {
		a = dst->umin;
		b = dst->umax;
		c = src->umin;
		d = src->umax;
	} else {
		ai_lo32(dst, &a, &b);
		ai_lo32(src, &c, &d);
	}
	if (op == BPF_END) {
		u32 w = in->imm;

		if (BPF_SRC(in->code) == BPF_TO_LE) {
			/* a truncation on little-endian hosts */
			lo = a;
			hi = b;
			if (w < 64 && (b >> w)) {
				lo = 0;
				hi = ai_mask(w);
			}
		} else if (a == b) {
			lo = hi = ai_bswap(a, w);
		} else {
			lo = 0;
			hi = ai_mask(w);
		}
		dst->type = AI_SCALAR;
		dst->umin = lo;
		dst->umax = hi;
		return;
	}
	if (op == BPF_MOV) {
		lo = c;
		hi = d;
	} else if (!ai_alu_range(op, a, b, c, d, bits, &lo, &hi)) {
		lo = 0;
		hi = ai_mask(bits);
	}
	*dst = (struct ai_reg){ .type = AI_SCALAR, .umin = lo, .umax = hi };
}

/*
 * Pointer arithmetic the verifier refuses with EACCES whatever the path
 * (6.1's adjust_ptr_min_max_vals()): on the packet's end, on a pointer
 * that may be NULL, on a map pointer but for adding a known 0, and a
 * pointer subtracted from a scalar. Clang emits the first when it folds
 * a per-byte bounds check into a trip count (data_end + 1); planning such
 * a program offline would predict one the kernel never loads. Returns
 * the refused register with @why set, or -1.
 */
static int ai_ptr_math_refused(const struct bpf_insn *in,
			       const struct ai_reg *regs, const char **why)
{
	const struct ai_reg *dst = &regs[in->dst_reg], *src, *ptr, *off;
	u8 op = BPF_OP(in->code);
	int reg = in->dst_reg;

	if (BPF_CLASS(in->code) != BPF_ALU64 || (op != BPF_ADD && op != BPF_SUB))
		return -1;
	src = BPF_SRC(in->code) == BPF_X ? &regs[in->src_reg] : NULL;
	if (src && ai_is_ptr(src) && ai_is_ptr(dst))
		return -1;	/* pointer - pointer: a scalar */
	if (src && ai_is_ptr(src) && op == BPF_SUB) {
		*why = "tried to subtract pointer from scalar";
		return reg;
	}
	ptr = src && ai_is_ptr(src) ? src : dst;
	if (!ai_is_ptr(ptr))
		return -1;
	switch (ptr->type) {
	case AI_PKT_END:
		*why = "pointer arithmetic on pkt_end prohibited";
		return reg;
	case AI_MAP_VALUE_OR_NULL:
	case AI_MEM_OR_NULL:
		*why = "pointer arithmetic on a pointer that may be NULL prohibited, null-check it first";
		return reg;
	case AI_MAP_PTR:
		off = ptr == dst ? src : dst;
		if (op == BPF_ADD && (off ? ai_is_const(off) && !off->umin :
				      !in->imm))
			return -1;
		*why = "pointer arithmetic on map_ptr prohibited";
		return reg;
	default:
		return -1;
	}
}

static void ai_alu(struct ai *ai, const struct bpf_insn *in,
		   struct ai_reg *regs)
{
	struct ai_reg *dst = &regs[in->dst_reg], k, *src = &k, p;
	bool is64 = BPF_CLASS(in->code) == BPF_ALU64;
	u8 op = BPF_OP(in->code);

	if (BPF_SRC(in->code) == BPF_X && op != BPF_END && op != BPF_NEG)
		src = &regs[in->src_reg];
	else
		ai_const(&k, is64 ? (u64)(s64)in->imm : (u32)in->imm);
	if (op == BPF_MOV && is64) {
		*dst = *src;
		return;
	}
	if (!is64 || (!ai_is_ptr(dst) && !ai_is_ptr(src)) || op == BPF_END ||
	    op == BPF_NEG) {
		if (ai_is_ptr(dst) || ai_is_ptr(src) || dst->type == AI_NOT_INIT)
			ai_unknown(dst);
		ai_alu_scalar(in, dst, ai_is_ptr(src) ? &(struct ai_reg){
			      .type = AI_SCALAR, .umax = U64_MAX } : src);
		return;
	}
	/* pointer arithmetic */
	if (op == BPF_SUB && ai_is_ptr(dst) && ai_is_ptr(src)) {
		ai_unknown(dst);
		return;
	}
	if (op == BPF_ADD && !ai_is_ptr(dst)) {
		p = *src;	/* scalar += pointer */
		src = dst;
		dst = &p;
	} else if ((op != BPF_ADD && op != BPF_SUB) || !ai_is_ptr(dst)) {
		ai_unknown(dst);
		return;
	}
	if (src->umin == src->umax) {
		/* wraps as the verifier's s32 would not: it refuses those */
		dst->off = (s32)((u32)dst->off + (op == BPF_ADD ?
			   (u32)src->umin : 0U - (u32)src->umin));
	} else {
		if (op == BPF_ADD) {
			dst->umin = dst->umin + src->umin < dst->umin ?
				    U64_MAX : dst->umin + src->umin;
			dst->umax = dst->umax + src->umax < dst->umax ?
				    U64_MAX : dst->umax + src->umax;
		} else {
			dst->umin = 0;
			dst->umax = U64_MAX;
		}
		/* a variable moved it: a new pointer, nothing proven yet */
		if (dst->type == AI_PKT || dst->type == AI_PKT_META) {
			dst->id = ++ai->next_id;
			dst->range = 0;
		}
	}
	if (dst == &p)
		regs[in->dst_reg] = p;
}

/* The stack slot a stack access hits, or NULL for a variable offset. */
static struct ai_slot *ai_slot(struct ai_state *st, const struct ai_reg *r,
			       s16 insn_off, u32 *byte)
{
	s64 o;

	if (r->umin != r->umax || r->frame > st->cur)
		return NULL;
	o = (s64)r->off + (s64)r->umin + insn_off;
	if (o < -AI_STACK_BYTES || o >= 0)
		return NULL;
	*byte = (u32)(o + AI_STACK_BYTES) % 8;
	return &st->fr[r->frame]->stack[(-o - 1) / 8];
}

/* A write of unknown extent into frame @frame's stack. */
static void ai_forget_frame(struct ai_state *st, u32 frame)
{
	u32 s, f = min_t(u32, frame, st->cur);

	for (s = 0; s < AI_SLOTS; s++)
		if (st->fr[f]->stack[s].kind == AI_SLOT_SPILL ||
		    st->fr[f]->stack[s].zero)
			st->fr[f]->stack[s] = (struct ai_slot){
				.kind = AI_SLOT_MISC };
}

/*
 * A helper wrote @len bytes at @r (bpf_xdp_load_bytes()). As the
 * verifier's byte writes after a raw-mode helper argument: those bytes
 * become misc and a spill they touch is scrubbed; the rest of the frame
 * stays. Only an unknown place or size forgets the whole frame (a kernel
 * that loads into a buffer beside its loop counter needs the counter).
 */
static void ai_forget_range(struct ai_state *st, const struct ai_reg *r,
			    const struct ai_reg *len)
{
	struct ai_frame *fr;
	struct ai_slot *sl;
	s64 o, a;
	u32 s;

	o = (s64)r->off + (s64)r->umin;
	if (r->umin != r->umax || r->frame > st->cur || !ai_is_const(len) ||
	    o < -AI_STACK_BYTES || o + (s64)len->umin > 0) {
		ai_forget_frame(st, r->frame);
		return;
	}
	fr = st->fr[r->frame];
	for (a = o; a < o + (s64)len->umin; a++) {
		s = (-a - 1) / 8;
		sl = &fr->stack[s];
		if (sl->kind != AI_SLOT_MISC)
			sl->zero = 0;
		sl->kind = AI_SLOT_MISC;
		sl->zero &= ~(u8)BIT((a + AI_STACK_BYTES) % 8);
		fr->used |= BIT_ULL(s);
	}
}

static void ai_store(struct ai_state *st, const struct bpf_insn *in,
		     const struct ai_reg *val)
{
	const struct ai_reg *base = &st->fr[st->cur]->regs[in->dst_reg];
	u32 size = nicprog_insn_bytes(in->code), byte = 0;
	struct ai_slot *sl;
	u8 bytes;

	if (base->type != AI_STACK)
		return;
	sl = ai_slot(st, base, in->off, &byte);
	if (!sl) {
		/* a variable offset may write any slot of that frame */
		ai_forget_frame(st, base->frame);
		return;
	}
	st->fr[base->frame]->used |= BIT_ULL(sl - st->fr[base->frame]->stack);
	/* check_stack_write_fixed_off(): bounded scalars and pointers spill */
	if (!byte && val && BPF_CLASS(in->code) == BPF_STX &&
	    BPF_MODE(in->code) == BPF_MEM &&
	    ((val->type == AI_SCALAR && val->umax &&
	      (val->umin || val->umax != U64_MAX)) ||
	     (ai_is_ptr(val) && size == 8))) {
		*sl = (struct ai_slot){ .kind = AI_SLOT_SPILL, .size = size,
					.reg = *val };
		return;
	}
	bytes = (u8)(ai_mask(size) << byte);
	if (sl->kind != AI_SLOT_MISC)
		sl->zero = 0;
	sl->kind = AI_SLOT_MISC;
	if (BPF_MODE(in->code) == BPF_MEM &&
	    (val ? ai_is_const(val) && !val->umin : !in->imm))
		sl->zero |= bytes;
	else
		sl->zero &= ~bytes;
}

/* The packet bytes @r + @insn_off .. + @size cover, or false if variable. */
static bool ai_pkt_span(const struct ai_reg *r, s16 insn_off, u32 size,
			u32 *at)
{
	s64 o = (s64)r->off + insn_off + (s64)r->umin;

	if (r->type != AI_PKT || r->umin != r->umax || o < 0 ||
	    o + size > NP_TMPL_BYTES)
		return false;
	*at = o;
	return true;
}

/* A load of known packet bytes: their value, as the little-endian load. */
static bool ai_tmpl_load(const struct ai *ai, const struct ai_reg *base,
			 const struct bpf_insn *in, u32 size,
			 struct ai_reg *dst)
{
	u64 v = 0;
	u32 at, i;

	if (!ai->tmpl || !ai_pkt_span(base, in->off, size, &at))
		return false;
	for (i = 0; i < size; i++)
		if (!ai->tmpl->known[at + i])
			return false;
	for (i = size; i-- > 0;)
		v = v << 8 | ai->tmpl->byte[at + i];
	ai_const(dst, v);
	return true;
}

/* A store into the packet: the bytes it may write are not known. */
static void ai_tmpl_store(struct ai *ai, const struct ai_reg *base,
			  const struct bpf_insn *in)
{
	u32 size = nicprog_insn_bytes(in->code), at, i;

	if (!ai->tmpl || base->type != AI_PKT)
		return;
	if (!ai_pkt_span(base, in->off, size, &at)) {
		for (i = 0; i < NP_TMPL_BYTES; i++)
			ai->tmpl_hit |= ai->tmpl->known[i];
		memset(ai->tmpl->known, 0, NP_TMPL_BYTES);
		return;
	}
	for (i = 0; i < size; i++) {
		ai->tmpl_hit |= ai->tmpl->known[at + i];
		ai->tmpl->known[at + i] = 0;
	}
}

/* A helper that moves the packet or its end: nothing is known after. */
static void ai_tmpl_drop(struct ai *ai)
{
	if (!ai->tmpl || (!ai->tmpl->len_max &&
			  !memchr(ai->tmpl->known, 1, NP_TMPL_BYTES)))
		return;
	ai->tmpl_hit = true;
	memset(ai->tmpl->known, 0, NP_TMPL_BYTES);
	ai->tmpl->len_min = 0;
	ai->tmpl->len_max = 0;
}

/*
 * A packet pointer against the packet's end: 1 taken, 0 not, -1 either
 * way for frames of the template's lengths (len_max 0: unknown).
 */
static int ai_tmpl_bound(const struct ai *ai, u8 op, const struct ai_reg *p,
			 const struct ai_reg *end)
{
	u64 lo, hi, lmin, lmax;

	if (!ai->tmpl || !ai->tmpl->len_max || p->type != AI_PKT ||
	    end->type != AI_PKT_END || end->off || end->umax ||
	    p->off < 0 || p->umax > 0xffff)
		return -1;
	lo = p->off + p->umin;
	hi = p->off + p->umax;
	lmin = ai->tmpl->len_min;
	lmax = ai->tmpl->len_max;
	switch (op) {
	case BPF_JGT:	/* p > end */
		return hi <= lmin ? 0 : lo > lmax ? 1 : -1;
	case BPF_JGE:
		return hi < lmin ? 0 : lo >= lmax ? 1 : -1;
	case BPF_JLT:
		return hi < lmin ? 1 : lo >= lmax ? 0 : -1;
	case BPF_JLE:
		return hi <= lmin ? 1 : lo > lmax ? 0 : -1;
	default:
		return -1;
	}
}

static void ai_load(struct ai *ai, struct ai_state *st,
		    const struct bpf_insn *in)
{
	struct ai_reg *regs = st->fr[st->cur]->regs;
	const struct ai_reg *base = &regs[in->src_reg];
	struct ai_reg *dst = &regs[in->dst_reg];
	u32 size = nicprog_insn_bytes(in->code), byte = 0;
	struct ai_slot *sl;
	s64 o;

	switch (base->type) {
	case AI_CTX:
		o = (s64)base->off + in->off;
		if (o == offsetof(struct xdp_md, data))
			*dst = (struct ai_reg){ .type = AI_PKT };
		else if (o == offsetof(struct xdp_md, data_end))
			*dst = (struct ai_reg){ .type = AI_PKT_END };
		else if (o == offsetof(struct xdp_md, data_meta))
			*dst = (struct ai_reg){ .type = AI_PKT_META };
		else
			*dst = (struct ai_reg){ .type = AI_SCALAR,
						.umax = ai_mask(size * 8) };
		return;
	case AI_PKT:
		if (ai_tmpl_load(ai, base, in, size, dst))
			return;
		break;
	case AI_STACK:
		sl = ai_slot(st, base, in->off, &byte);
		if (sl && sl->kind == AI_SLOT_SPILL && !byte &&
		    sl->size == size) {
			*dst = sl->reg;
			return;
		}
		if (sl && sl->kind == AI_SLOT_MISC &&
		    (sl->zero & (u8)(ai_mask(size) << byte)) ==
		    (u8)(ai_mask(size) << byte)) {
			ai_const(dst, 0);
			return;
		}
		break;
	default:
		break;
	}
	*dst = (struct ai_reg){ .type = AI_SCALAR, .umax = ai_mask(size * 8) };
}

/* --- conditional jumps --- */

static void ai_srange(u64 lo, u64 hi, u32 bits, s64 *slo, s64 *shi)
{
	u64 sign = 1ULL << (bits - 1);

	if (hi < sign || lo >= sign) {	/* one sign throughout */
		*slo = bits == 64 ? (s64)lo : (s64)(s32)(u32)lo;
		*shi = bits == 64 ? (s64)hi : (s64)(s32)(u32)hi;
	} else {
		*slo = bits == 64 ? INT64_MIN : INT32_MIN;
		*shi = bits == 64 ? INT64_MAX : INT32_MAX;
	}
}

/* is_branch_taken(): 1 taken, 0 not, -1 either */
static int ai_taken(u8 op, u64 a, u64 b, u64 c, u64 d, u32 bits)
{
	s64 sa, sb, sc, sd;

	ai_srange(a, b, bits, &sa, &sb);
	ai_srange(c, d, bits, &sc, &sd);
	switch (op) {
	case BPF_JEQ:
		if (a == b && c == d)
			return a == c;
		return b < c || d < a ? 0 : -1;
	case BPF_JNE:
		if (a == b && c == d)
			return a != c;
		return b < c || d < a ? 1 : -1;
	case BPF_JGT:
		return a > d ? 1 : b <= c ? 0 : -1;
	case BPF_JGE:
		return a >= d ? 1 : b < c ? 0 : -1;
	case BPF_JLT:
		return b < c ? 1 : a >= d ? 0 : -1;
	case BPF_JLE:
		return b <= c ? 1 : a > d ? 0 : -1;
	case BPF_JSGT:
		return sa > sd ? 1 : sb <= sc ? 0 : -1;
	case BPF_JSGE:
		return sa >= sd ? 1 : sb < sc ? 0 : -1;
	case BPF_JSLT:
		return sb < sc ? 1 : sa >= sd ? 0 : -1;
	case BPF_JSLE:
		return sb <= sc ? 1 : sa > sd ? 0 : -1;
	case BPF_JSET:
		if (a == b && c == d)
			return !!(a & c);
		return !b || !d ? 0 : -1;
	}
	return -1;
}

/* Narrow @r, compared by @op with the constant @k, for the branch @taken. */
static void ai_refine(struct ai_reg *r, u8 op, u64 k, bool taken, u32 bits)
{
	u64 lo = r->umin, hi = r->umax;

	if (r->type != AI_SCALAR || (bits == 32 && hi > U32_MAX))
		return;
	if (op == BPF_JSGT || op == BPF_JSGE || op == BPF_JSLT ||
	    op == BPF_JSLE) {
		/* as unsigned where nothing is negative */
		if ((bits == 64 && (hi >> 63 || k >> 63)) ||
		    (bits == 32 && (hi >> 31 || k >> 31)))
			return;
		op = op == BPF_JSGT ? BPF_JGT : op == BPF_JSGE ? BPF_JGE :
		     op == BPF_JSLT ? BPF_JLT : BPF_JLE;
	}
	if (!taken) {	/* the opposite test, taken */
		switch (op) {
		case BPF_JEQ:
			op = BPF_JNE;
			break;
		case BPF_JNE:
			op = BPF_JEQ;
			break;
		case BPF_JGT:
			op = BPF_JLE;
			break;
		case BPF_JGE:
			op = BPF_JLT;
			break;
		case BPF_JLT:
			op = BPF_JGE;
			break;
		case BPF_JLE:
			op = BPF_JGT;
			break;
		default:
			return;
		}
	}
	switch (op) {
	case BPF_JEQ:
		lo = hi = k;
		break;
	case BPF_JNE:
		if (lo == k && lo < hi)
			lo++;
		else if (hi == k && lo < hi)
			hi--;
		break;
	case BPF_JGT:
		lo = max(lo, k + 1);
		break;
	case BPF_JGE:
		lo = max(lo, k);
		break;
	case BPF_JLT:
		hi = min(hi, k - 1);
		break;
	case BPF_JLE:
		hi = min(hi, k);
		break;
	default:
		return;
	}
	if (lo <= hi) {
		r->umin = lo;
		r->umax = hi;
	}
}

/* The opposite comparison, operands swapped: k op r as r op' k. */
static u8 ai_swap_op(u8 op)
{
	switch (op) {
	case BPF_JGT:
		return BPF_JLT;
	case BPF_JGE:
		return BPF_JLE;
	case BPF_JLT:
		return BPF_JGT;
	case BPF_JLE:
		return BPF_JGE;
	case BPF_JSGT:
		return BPF_JSLT;
	case BPF_JSGE:
		return BPF_JSLE;
	case BPF_JSLT:
		return BPF_JSGT;
	case BPF_JSLE:
		return BPF_JSGE;
	default:
		return op;
	}
}

/* Register or spilled register @i (R0-R10, then the slots) of frame @f. */
static struct ai_reg *ai_reg_at(struct ai_state *st, u32 f, u32 i)
{
	if (i < MAX_BPF_REG)
		return &st->fr[f]->regs[i];
	if (st->fr[f]->stack[i - MAX_BPF_REG].kind == AI_SLOT_SPILL)
		return &st->fr[f]->stack[i - MAX_BPF_REG].reg;
	return NULL;
}

/* mark_ptr_or_null_regs(): every copy of a maybe-NULL pointer, decided */
static void ai_null(struct ai_state *st, u32 id, bool is_null)
{
	struct ai_reg *r;
	u32 f, i;

	for (f = 0; f <= st->cur; f++) {
		for (i = 0; i < MAX_BPF_REG + AI_SLOTS; i++) {
			r = ai_reg_at(st, f, i);
			if (!r)
				continue;
			if ((r->type != AI_MAP_VALUE_OR_NULL &&
			     r->type != AI_MEM_OR_NULL) || r->id != id)
				continue;
			if (is_null)
				ai_const(r, 0);
			else
				r->type = r->type == AI_MEM_OR_NULL ? AI_MEM :
					  AI_MAP_VALUE;
		}
	}
}

static int ai_push(struct ai *ai, const struct ai_state *st, u32 insn,
		   struct ai_state **out)
{
	struct ai_state *c;

	if (ai->n_todo == AI_MAX_STACK)
		return ai_fail(ai, -E2BIG, "the sequence of %d jumps is too complex",
			       AI_MAX_STACK);
	c = ai_state_copy(st);
	if (!c)
		return ai_fail(ai, -ENOMEM, "out of memory");
	c->insn = insn;
	if (c->parent)
		c->parent->branches++;
	ai->todo[ai->n_todo++] = c;
	*out = c;
	return 0;
}

/*
 * The verifier's packet bounds for data and data_end (data_meta is not
 * followed): a comparison of a packet pointer with data_end proves, on the
 * branch where the frame is long enough, that many bytes past every
 * pointer of the same id (find_good_pkt_pointers()); on the other, the
 * compared register lies at or beyond data_end (mark_pkt_end()), which
 * decides later comparisons of it (is_pkt_ptr_branch_taken()).
 */
struct ai_pkt_cmp {
	u8 op;		/* as "pkt OP data_end" */
	u8 reg;		/* the packet pointer's register */
	struct ai_reg pkt;
};

static bool ai_pkt_cmp(const struct bpf_insn *in, const struct ai_reg *dst,
		       const struct ai_reg *src, struct ai_pkt_cmp *c)
{
	if (BPF_SRC(in->code) != BPF_X || BPF_CLASS(in->code) != BPF_JMP)
		return false;
	if (dst->type == AI_PKT && src->type == AI_PKT_END)
		*c = (struct ai_pkt_cmp){ BPF_OP(in->code), in->dst_reg, *dst };
	else if (dst->type == AI_PKT_END && src->type == AI_PKT)
		*c = (struct ai_pkt_cmp){ ai_swap_op(BPF_OP(in->code)),
					  in->src_reg, *src };
	else
		return false;
	return c->op == BPF_JGT || c->op == BPF_JGE || c->op == BPF_JLT ||
	       c->op == BPF_JLE;
}

static int ai_pkt_taken(const struct ai_pkt_cmp *c)
{
	if (c->pkt.range == AI_PKT_BEYOND && (c->op == BPF_JGT ||
					      c->op == BPF_JLE))
		return c->op == BPF_JGT;
	if (c->pkt.range < 0 && (c->op == BPF_JGE || c->op == BPF_JLT))
		return c->op == BPF_JGE;
	return -1;
}

static void ai_pkt_good(struct ai_state *st, const struct ai_pkt_cmp *c,
			bool open)
{
	const struct ai_reg *p = &c->pkt;
	struct ai_reg *r;
	s32 range;
	u32 f, i;

	if (p->off < 0 || (!p->off && open) || p->umax > AI_MAX_PACKET_OFF ||
	    p->umax + p->off > AI_MAX_PACKET_OFF)
		return;
	range = p->off + open;
	for (f = 0; f <= st->cur; f++) {
		for (i = 0; i < MAX_BPF_REG + AI_SLOTS; i++) {
			r = ai_reg_at(st, f, i);
			if (r && r->type == AI_PKT && r->id == p->id &&
			    r->range < range)
				r->range = range;
		}
	}
}

static void ai_pkt_end(struct ai_state *st, const struct ai_pkt_cmp *c,
		       bool beyond)
{
	struct ai_reg *r = &st->fr[st->cur]->regs[c->reg];

	if (r->type == AI_PKT)
		r->range = beyond ? AI_PKT_BEYOND : AI_PKT_AT;
}

/* try_match_pkt_pointers(): what the branch taken (@jmp) and not learn */
static void ai_pkt_branches(struct ai_state *jmp, struct ai_state *fall,
			    const struct ai_pkt_cmp *c)
{
	bool good_on_jmp = c->op == BPF_JLT || c->op == BPF_JLE;
	bool open = c->op == BPF_JLT || c->op == BPF_JGE;
	bool beyond = c->op == BPF_JGT || c->op == BPF_JLE;
	struct ai_state *good = good_on_jmp ? jmp : fall;
	struct ai_state *end = good_on_jmp ? fall : jmp;

	if (good)
		ai_pkt_good(good, c, open);
	if (end)
		ai_pkt_end(end, c, beyond);
}

static int ai_cond(struct ai *ai, struct ai_state *st)
{
	const struct bpf_insn *in = &ai->insns[st->insn];
	u32 bits = BPF_CLASS(in->code) == BPF_JMP32 ? 32 : 64;
	struct ai_reg *regs = st->fr[st->cur]->regs, k, *dst, *src;
	u32 target = st->insn + 1 + in->off;
	u8 op = BPF_OP(in->code);
	struct ai_state *br = NULL;
	struct ai_pkt_cmp pc;
	u64 a, b, c, d;
	int t = -1, err;
	bool is_null, pkt;

	dst = &regs[in->dst_reg];
	ai_const(&k, bits == 32 ? (u32)in->imm : (u64)(s64)in->imm);
	src = BPF_SRC(in->code) == BPF_X ? &regs[in->src_reg] : &k;
	pkt = ai_pkt_cmp(in, dst, src, &pc);
	if (dst->type == AI_SCALAR && src->type == AI_SCALAR) {
		if (bits == 32) {
			ai_lo32(dst, &a, &b);
			ai_lo32(src, &c, &d);
		} else {
			a = dst->umin;
			b = dst->umax;
			c = src->umin;
			d = src->umax;
		}
		t = ai_taken(op, a, b, c, d, bits);
	} else if (ai_is_ptr(dst) && dst->type != AI_MAP_VALUE_OR_NULL &&
		   dst->type != AI_MEM_OR_NULL && ai_is_const(src) &&
		   !src->umin &&
		   (op == BPF_JEQ || op == BPF_JNE)) {
		t = op == BPF_JNE;
	} else if (pkt && ai_pkt_taken(&pc) >= 0) {
		/* the verifier follows one branch and learns nothing */
		t = ai_pkt_taken(&pc);
		pkt = false;
	} else if (BPF_SRC(in->code) == BPF_X && bits == 64) {
		t = dst->type == AI_PKT ? ai_tmpl_bound(ai, op, dst, src) :
		    ai_tmpl_bound(ai, ai_swap_op(op), src, dst);
	}
	if (ai->took)
		ai->took[st->insn] |= t < 0 ? NP_TOOK_JUMP | NP_TOOK_FALL :
				      t ? NP_TOOK_JUMP : NP_TOOK_FALL;
	if (t >= 0) {
		/* a frame template chose: that branch learns as the verifier's */
		if (pkt)
			ai_pkt_branches(t ? st : NULL, t ? NULL : st, &pc);
		st->insn = t ? target : st->insn + 1;
		return 0;
	}
	err = ai_push(ai, st, target, &br);
	if (err)
		return err;
	st->insn++;
	if (pkt) {
		ai_pkt_branches(br, st, &pc);
		return 0;
	}
	if ((dst->type == AI_MAP_VALUE_OR_NULL ||
	     dst->type == AI_MEM_OR_NULL) && ai_is_const(src) &&
	    !src->umin && (op == BPF_JEQ || op == BPF_JNE)) {
		is_null = op == BPF_JEQ;
		ai_null(br, dst->id, is_null);
		ai_null(st, dst->id, !is_null);
		return 0;
	}
	if (dst->type != AI_SCALAR || src->type != AI_SCALAR)
		return 0;
	if (src->umin == src->umax) {
		ai_refine(&br->fr[br->cur]->regs[in->dst_reg], op, src->umin,
			  true, bits);
		ai_refine(dst, op, src->umin, false, bits);
	} else if (dst->umin == dst->umax) {
		k = *dst;
		ai_refine(&br->fr[br->cur]->regs[in->src_reg], ai_swap_op(op),
			  k.umin, true, bits);
		ai_refine(src, ai_swap_op(op), k.umin, false, bits);
	}
	return 0;
}

static void ai_clear_pkt(struct ai_state *st)
{
	struct ai_reg *r;
	u32 f, i;

	for (f = 0; f <= st->cur; f++) {
		for (i = 0; i < MAX_BPF_REG + AI_SLOTS; i++) {
			r = ai_reg_at(st, f, i);
			if (r && (r->type == AI_PKT || r->type == AI_PKT_END ||
				  r->type == AI_PKT_META))
				ai_unknown(r);
		}
	}
}

static int ai_call(struct ai *ai, struct ai_state *st)
{
	const struct bpf_insn *in = &ai->insns[st->insn];
	struct ai_reg *regs = st->fr[st->cur]->regs;
	struct ai_frame *nf;
	u32 target, r;

	if (in->src_reg == BPF_PSEUDO_CALL) {
		target = st->insn + 1 + in->imm;
		if (target >= ai->len)
			return ai_fail(ai, -EINVAL, "insn %u calls past the end",
				       st->insn);
		if (!ai->o->subs[ai->func_of[target]].global) {
			if (st->cur + 1 == AI_MAX_FRAMES)
				return ai_fail(ai, -EINVAL, "insn %u: calls nest deeper than %d",
					       st->insn, AI_MAX_FRAMES);
			nf = calloc(1, sizeof(*nf));
			if (!nf)
				return ai_fail(ai, -ENOMEM, "out of memory");
			nf->callsite = st->insn;
			for (r = BPF_REG_1; r <= BPF_REG_5; r++) {
				nf->regs[r] = regs[r];
				regs[r] = (struct ai_reg){ .type = AI_NOT_INIT };
			}
			nf->regs[BPF_REG_10] = (struct ai_reg){
				.type = AI_STACK, .frame = st->cur + 1 };
			st->fr[++st->cur] = nf;
			st->insn = target;
			return 0;
		}
		ai_unknown(&regs[BPF_REG_0]);
	} else if (in->imm == BPF_FUNC_map_lookup_elem &&
		   regs[BPF_REG_1].type == AI_MAP_PTR) {
		regs[BPF_REG_0] = (struct ai_reg){
			.type = AI_MAP_VALUE_OR_NULL,
			.map = regs[BPF_REG_1].map, .id = ++ai->next_id };
	} else {
		ai_unknown(&regs[BPF_REG_0]);
		if (in->imm == BPF_FUNC_xdp_adjust_head ||
		    in->imm == BPF_FUNC_xdp_adjust_meta ||
		    in->imm == BPF_FUNC_xdp_adjust_tail) {
			ai_clear_pkt(st);
			ai_tmpl_drop(ai);
		}
		if (in->imm == BPF_FUNC_xdp_store_bytes && ai->tmpl)
			ai_tmpl_store(ai, &(struct ai_reg){ .type = AI_PKT,
				      .umax = U64_MAX }, in);
		/* it writes its buffer: what those slots held is gone */
		if (in->imm == BPF_FUNC_xdp_load_bytes &&
		    regs[BPF_REG_3].type == AI_STACK)
			ai_forget_range(st, &regs[BPF_REG_3],
					&regs[BPF_REG_4]);
	}
	for (r = BPF_REG_1; r <= BPF_REG_5; r++)
		regs[r] = (struct ai_reg){ .type = AI_NOT_INIT };
	st->insn++;
	return 0;
}

/*
 * xdp_is_valid_access() for a program bound to a device: u32 fields of
 * struct xdp_md at their offsets, through the context pointer as given;
 * egress_ifindex only for devmap programs, which the NIC never runs; of
 * the writes, rx_queue_index only (check_mem_access(), 6.1).
 */
static bool ai_ctx_ok(const struct ai_reg *base, const struct bpf_insn *in,
		      bool write)
{
	s64 off = (s64)base->off + in->off;

	/* a moved context pointer, an immediate or atomic store: refused */
	if (base->off || BPF_CLASS(in->code) == BPF_ST ||
	    (BPF_CLASS(in->code) == BPF_STX && BPF_MODE(in->code) != BPF_MEM))
		return false;
	if (off < 0 || off >= (s64)offsetof(struct xdp_md, egress_ifindex) ||
	    off % 4 || nicprog_insn_bytes(in->code) != 4)
		return false;
	return !write || off == offsetof(struct xdp_md, rx_queue_index);
}

/* check_packet_access(): within the bytes a comparison proved */
static bool ai_pkt_ok(const struct ai_reg *base, const struct bpf_insn *in)
{
	s64 off = (s64)base->off + in->off;

	return base->range >= 0 && off >= 0 &&
	       off + nicprog_insn_bytes(in->code) <= (s64)base->range;
}

/*
 * A load or store through @reg the verifier refuses -- past the packet
 * bytes a check proved, or a context field a device-bound program may not
 * touch so -- in its words; 0 if none.
 */
static int ai_mem_refused(struct ai *ai, const struct ai_state *st, u8 reg,
			  bool write)
{
	const struct bpf_insn *in = &ai->insns[st->insn];
	const struct ai_reg *r = &st->fr[st->cur]->regs[reg];
	long long off = (long long)r->off + in->off;
	u32 size = nicprog_insn_bytes(in->code);

	if (r->type == AI_PKT && !ai_pkt_ok(r, in))
		return ai_fail(ai, -EACCES, "insn %u: invalid access to packet, off=%lld size=%u, R%u(id=%u,off=%d,r=%d) (the kernel's verifier refuses the program)",
			       st->insn, off, size, reg, r->id, r->off,
			       r->range);
	if (r->type == AI_CTX && !ai_ctx_ok(r, in, write))
		return ai_fail(ai, -EACCES, "insn %u: invalid bpf_context access off=%lld size=%u (the kernel's verifier refuses the program)",
			       st->insn, off, size);
	return 0;
}

/* One instruction: 0 to go on, 1 when the path ends, <0 on error. */
static int ai_step(struct ai *ai, struct ai_state *st)
{
	const struct bpf_insn *in = &ai->insns[st->insn];
	struct ai_reg *regs = st->fr[st->cur]->regs, r0;
	u8 cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
	const char *why;
	u32 callsite;
	int reg, err;

	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		reg = ai_ptr_math_refused(in, regs, &why);
		if (reg >= 0)
			return ai_fail(ai, -EACCES, "insn %u: R%d %s (the kernel's verifier refuses the program)",
				       st->insn, reg, why);
		ai_alu(ai, in, regs);
		break;
	case BPF_LD:
		if (in->code != (BPF_LD | BPF_IMM | BPF_DW) ||
		    st->insn + 1 >= ai->len)
			return ai_fail(ai, -EOPNOTSUPP, "insn %u: packet loads (LD_ABS/LD_IND) are not supported on the NIC",
				       st->insn);
		if (in->src_reg == BPF_PSEUDO_MAP_FD)
			regs[in->dst_reg] = (struct ai_reg){
				.type = AI_MAP_PTR, .map = in->imm };
		else
			ai_const(&regs[in->dst_reg], (u32)in->imm |
				 (u64)(u32)in[1].imm << 32);
		st->insn += 2;
		return 0;
	case BPF_LDX:
		err = ai_mem_refused(ai, st, in->src_reg, false);
		if (err)
			return err;
		ai_load(ai, st, in);
		break;
	case BPF_ST:
	case BPF_STX:
		err = ai_mem_refused(ai, st, in->dst_reg, true);
		if (err)
			return err;
		if (cls == BPF_STX)
			goto stx;
		ai_tmpl_store(ai, &regs[in->dst_reg], in);
		ai_store(st, in, NULL);
		break;
stx:
		ai_tmpl_store(ai, &regs[in->dst_reg], in);
		if (BPF_MODE(in->code) == BPF_ATOMIC) {
			ai_store(st, in, NULL);
			if (in->imm == BPF_CMPXCHG)
				ai_unknown(&regs[BPF_REG_0]);
			else if (in->imm & BPF_FETCH)
				ai_unknown(&regs[in->src_reg]);
			break;
		}
		ai_store(st, in, &regs[in->src_reg]);
		break;
	case BPF_JMP:
	case BPF_JMP32:
		ai->jmps++;
		if (op == BPF_JA) {
			st->insn += 1 + in->off;
			return 0;
		}
		if (op == BPF_CALL)
			return ai_call(ai, st);
		if (op != BPF_EXIT)
			return ai_cond(ai, st);
		if (!st->cur)
			return 1;
		r0 = regs[BPF_REG_0];
		callsite = st->fr[st->cur]->callsite;
		free(st->fr[st->cur]);
		st->fr[st->cur--] = NULL;
		st->fr[st->cur]->regs[BPF_REG_0] = r0;
		st->insn = callsite + 1;
		return 0;
	}
	st->insn++;
	return 0;
}

/* What check_cfg() and check_reg_arg() refuse before any walk. */
static int ai_check(struct ai *ai)
{
	const struct bpf_insn *in;
	u8 cls;
	u32 i;
	s64 t;

	for (i = 0; i < ai->len; i++) {
		in = &ai->insns[i];
		cls = BPF_CLASS(in->code);
		if (in->dst_reg >= MAX_BPF_REG || in->src_reg >= MAX_BPF_REG)
			return ai_fail(ai, -EINVAL, "insn %u: register out of range",
				       i);
		if (in->code == (BPF_LD | BPF_IMM | BPF_DW)) {
			if (i + 1 == ai->len || in[1].code || in[1].dst_reg ||
			    in[1].src_reg || in[1].off)
				return ai_fail(ai, -EINVAL, "insn %u: invalid 64-bit load",
					       i);
			/* a relocation gives a map's index; a corrupt object any */
			if (in->src_reg == BPF_PSEUDO_MAP_FD &&
			    (in->imm < 0 || (u32)in->imm >= ai->o->n_maps))
				return ai_fail(ai, -EINVAL, "insn %u: loads map %d, which the object does not define (it has %u)",
					       i, in->imm, ai->o->n_maps);
			i++;
			continue;
		}
		if ((cls == BPF_ALU || cls == BPF_ALU64) &&
		    BPF_OP(in->code) == BPF_END && in->imm != 16 &&
		    in->imm != 32 && in->imm != 64)
			return ai_fail(ai, -EINVAL, "insn %u: invalid byte swap", i);
		if ((cls == BPF_ALU || cls == BPF_ALU64 || cls == BPF_LDX) &&
		    in->dst_reg == BPF_REG_10)
			return ai_fail(ai, -EINVAL, "insn %u: the frame pointer is read only",
				       i);
		if (cls != BPF_JMP && cls != BPF_JMP32)
			continue;
		if (BPF_OP(in->code) == BPF_EXIT)
			continue;
		t = BPF_OP(in->code) == BPF_CALL ?
		    (in->src_reg == BPF_PSEUDO_CALL ? (s64)i + 1 + in->imm : 0) :
		    (s64)i + 1 + in->off;
		if (t < 0 || t >= ai->len)
			return ai_fail(ai, -EINVAL, "insn %u: jump out of range", i);
	}
	return 0;
}

/* do_check_common(): one function, from its entry, every path. */
static int ai_walk(struct ai *ai, u32 sub)
{
	u32 entry = ai->o->subs[sub].start;
	struct ai_state *st = calloc(1, sizeof(*st));
	struct ai_reg *regs;
	u32 r;
	int err = 0;

	if (!st || !(st->fr[0] = calloc(1, sizeof(*st->fr[0])))) {
		free(st);
		return ai_fail(ai, -ENOMEM, "out of memory");
	}
	regs = st->fr[0]->regs;
	regs[BPF_REG_1] = (struct ai_reg){ .type = AI_CTX };
	/* a global function's arguments, as their BTF types say */
	for (r = BPF_REG_1; r <= BPF_REG_5 && sub; r++) {
		switch (ai->o->sub_args[sub][r - 1]) {
		case NP_ARG_SCALAR:
			ai_unknown(&regs[r]);
			break;
		case NP_ARG_CTX:
			regs[r] = (struct ai_reg){ .type = AI_CTX };
			break;
		case NP_ARG_MEM:
			regs[r] = (struct ai_reg){ .type = AI_MEM_OR_NULL,
						   .id = ++ai->next_id };
			break;
		default:
			regs[r] = (struct ai_reg){ .type = AI_NOT_INIT };
		}
	}
	regs[BPF_REG_10] = (struct ai_reg){ .type = AI_STACK };
	st->insn = entry;
	st->branches = 1;
	for (;;) {
		if (st->insn >= ai->len) {
			err = ai_fail(ai, -EINVAL, "jump out of range");
			break;
		}
		if (++ai->processed > AI_LIMIT) {
			err = ai_fail(ai, -E2BIG, "the program is too large: more than %d instructions processed",
				      AI_LIMIT);
			break;
		}
		err = ai_visited(ai, st);
		if (err < 0)
			break;
		if (!err) {
			err = ai_note(ai, st);
			if (err)
				break;
			err = ai_step(ai, st);
			if (err < 0)
				break;
			if (!err)
				continue;
		}
		/* the path ended or was pruned */
		ai_branch_done(st->parent);
		ai_state_free(st);
		st = NULL;
		err = 0;
		if (!ai->n_todo)
			break;
		st = ai->todo[--ai->n_todo];
	}
	ai_state_free(st);
	while (ai->n_todo)
		ai_state_free(ai->todo[--ai->n_todo]);
	return err;
}

/* bind_maps: tables no path showed, in instruction order; imm = index */
static void ai_bind_maps(struct ai *ai, struct np_facts *f)
{
	const struct np_object *o = ai->o;
	u32 i, m;

	for (i = 0; i + 1 < ai->len; i++) {
		if (f->insns[i].code != (BPF_LD | BPF_IMM | BPF_DW))
			continue;
		if (f->insns[i].src_reg == BPF_PSEUDO_MAP_FD) {
			m = f->insns[i].imm;
			if (ai->table_of[m] == NICPROG_MAP_NONE)
				ai->table_of[m] = ai->n_tables++;
			f->insns[i].imm = ai->table_of[m];
			f->tables[ai->table_of[m]] = o->maps[m];
		}
		i++;
	}
	f->n_tables = ai->n_tables;
}

/* One walk; with @tmpl, what it knows, less what a path wrote (*@hit). */
static int ai_run(const struct np_object *o, struct np_pkt_tmpl *tmpl,
		  struct np_facts *f, char *err, size_t err_len, bool *hit)
{
	struct ai ai = {
		.o = o, .insns = o->insns, .len = o->len,
		.err = err, .err_len = err_len, .tmpl = tmpl,
	};
	struct ai_state *st;
	u32 i, s;
	int ret = -ENOMEM;

	memset(f, 0, sizeof(*f));
	f->insns = malloc(o->len * sizeof(*f->insns));
	f->meta = calloc(o->len, sizeof(*f->meta));
	if (tmpl) {
		f->took = calloc(o->len, 1);
		ai.took = f->took;
	}
	ai.meta = f->meta;
	ai.table_of = malloc(NICPROG_MAX_TABLES);
	ai.func_of = calloc(o->len, sizeof(*ai.func_of));
	ai.m_regs = calloc(o->len, sizeof(*ai.m_regs));
	ai.m_slots = calloc(o->len, sizeof(*ai.m_slots));
	ai.prune = calloc(o->len + 2, 1);
	ai.kept = calloc(o->len, sizeof(*ai.kept));
	ai.todo = calloc(AI_MAX_STACK, sizeof(*ai.todo));
	if (!f->insns || !f->meta || (tmpl && !f->took) || !ai.table_of ||
	    !ai.func_of ||
	    !ai.m_regs || !ai.m_slots || !ai.prune || !ai.kept || !ai.todo) {
		snprintf(err, err_len, "out of memory");
		goto out;
	}
	memcpy(f->insns, o->insns, o->len * sizeof(*f->insns));
	ret = ai_check(&ai);
	if (ret)
		goto out;
	ret = -ENOMEM;
	memset(ai.table_of, NICPROG_MAP_NONE, NICPROG_MAX_TABLES);
	/*
	 * Tables in instruction order, as the kernel's prepare numbers them
	 * (kernel/bpf_offload.c), not in the order a walk meets them: 6.1
	 * walks global functions first, 6.12 the main program first.
	 */
	for (i = 0; i + 1 < o->len; i++) {
		const struct bpf_insn *in = &o->insns[i];

		if (in->code != (BPF_LD | BPF_IMM | BPF_DW))
			continue;
		if (in->src_reg == BPF_PSEUDO_MAP_FD &&	/* ai_check()ed */
		    ai.table_of[in->imm] == NICPROG_MAP_NONE)
			ai.table_of[in->imm] = ai.n_tables++;
		i++;
	}
	for (i = 0; i < o->len; i++)
		f->meta[i].map = NICPROG_MAP_NONE;
	for (s = 0; s < o->n_subs; s++)
		for (i = o->subs[s].start;
		     i < (s + 1 < o->n_subs ? o->subs[s + 1].start : o->len);
		     i++)
			ai.func_of[i] = s;
	/* the prune points of check_cfg() */
	for (i = 0; i < o->len; i++) {
		const struct bpf_insn *in = &o->insns[i];
		u8 cls = BPF_CLASS(in->code), op = BPF_OP(in->code);

		if (cls != BPF_JMP && cls != BPF_JMP32)
			continue;
		if (op == BPF_CALL) {
			ai.prune[i + 1] = 1;
			if (in->src_reg == BPF_PSEUDO_CALL)
				ai.prune[i] = 1;
		} else if (op == BPF_JA) {
			if (i + 1 + in->off < o->len)
				ai.prune[i + 1 + in->off] = 1;
		} else if (op != BPF_EXIT) {
			ai.prune[i] = 1;
		}
	}
	ai_matters(&ai);
	/* do_check_subprogs(), then do_check_main() */
	ret = 0;
	for (s = 1; s < o->n_subs && !ret; s++)
		if (o->subs[s].global)
			ret = ai_walk(&ai, s);
	if (!ret)
		ret = ai_walk(&ai, 0);
	if (!ret) {
		ai_bind_maps(&ai, f);
		memcpy(f->table_of, ai.table_of, sizeof(f->table_of));
	}
	f->processed = ai.processed;
	f->states = ai.states;
	*hit = ai.tmpl_hit;
out:
	while ((st = ai.all)) {
		ai.all = st->all;
		ai_state_free(st);
	}
	free(ai.table_of);
	free(ai.func_of);
	free(ai.m_regs);
	free(ai.m_slots);
	free(ai.prune);
	free(ai.kept);
	free(ai.todo);
	if (ret)
		np_facts_free(f);
	return ret;
}

/**
 * np_absint() - the verifier's facts about a program, computed offline
 * @o: the program
 * @f: filled in; np_facts_free() it
 * @err: set to why not, on failure (what the kernel would refuse)
 * @err_len: bytes at @err
 *
 * Return: 0 or a negative errno: -E2BIG only when the walk reached a
 * limit its pruning decides (jumps pending, instructions processed),
 * which the kernel's finer pruning may stay under.
 */
int np_absint(const struct np_object *o, struct np_facts *f, char *err,
	      size_t err_len)
{
	bool hit;

	return ai_run(o, NULL, f, err, err_len, &hit);
}

/* Walks before giving up on a template whose bytes the program writes. */
#define AI_TMPL_ROUNDS	8

/**
 * np_absint_tmpl() - the facts about a program for one kind of frame
 * @o: the object's program
 * @t: what every such frame has (header bytes, lengths)
 * @f: the facts, to free with np_facts_free(); an instruction no such
 *	frame reaches has no visits
 * @err: on an error, why
 * @err_len: size of @err
 *
 * Return: 0, or a negative errno with @err set.
 */
int np_absint_tmpl(const struct np_object *o, const struct np_pkt_tmpl *t,
		   struct np_facts *f, char *err, size_t err_len)
{
	struct np_pkt_tmpl cur = *t;
	bool hit;
	int ret, k;

	for (k = 0; k < AI_TMPL_ROUNDS; k++) {
		ret = ai_run(o, &cur, f, err, err_len, &hit);
		if (ret || !hit)
			return ret;
		np_facts_free(f);
	}
	return ai_run(o, NULL, f, err, err_len, &hit);
}

/**
 * np_facts_free() - free what np_absint() allocated
 * @f: the facts
 */
void np_facts_free(struct np_facts *f)
{
	free(f->insns);
	free(f->meta);
	free(f->took);
	f->insns = NULL;
	f->meta = NULL;
	f->took = NULL;
}
