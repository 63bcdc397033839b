// SPDX-License-Identifier: GPL-2.0
/*
 * Redirects through a DEVMAP (or DEVMAP_HASH), XSKMAP or CPUMAP, and tail
 * calls through a PROG_ARRAY, rewritten for the NIC.
 *
 * Linux 6.1 binds only HASH and ARRAY maps to a device and lets a
 * device-bound program call bpf_redirect_map() only on a map of its own
 * device, so neither the map nor the call can be offloaded as written.
 * The map is bound as the ARRAY (HASH) of the same key and value -- the
 * ifindex first, as in struct bpf_devmap_val -- which user space fills as
 * it fills a devmap; each
 *
 *	r0 = bpf_redirect_map(map, key, flags)	(R1 the map, flags constant)
 *
 * becomes what the host's __bpf_xdp_redirect_map() does with it:
 *
 *	*(u32 *)(r10 + S) = r2;  r2 = r10;  r2 += S
 *	r0 = bpf_map_lookup_elem(map, r2)
 *	if (r0 == 0 || *(u32 *)r0 == 0)	r0 = flags & action mask (a miss)
 *	else				r0 = bpf_redirect(*(u32 *)r0, 0)
 *
 * S is a stack slot below everything the function's instructions address
 * (the most negative offset any of them uses). The NIC then redirects to
 * the sibling port the ifindex names, as it does for bpf_redirect().
 *
 * The program's own lookups in a DEVMAP (xdp_fwd asks whether a port is
 * there before it redirects) find no element in an empty slot, as the
 * host's dev_map_lookup_elem() does, where the array has a zero ifindex:
 *
 *	r0 = bpf_map_lookup_elem(map, key)
 *	if (r0 != 0 && *(u32 *)r0 == 0)	r0 = 0
 *
 * (R1-R5 are dead after a call, so R1 is free to read the slot with.)
 *
 * An XSKMAP or CPUMAP stays the host's; on the NIC an ARRAY of the host
 * kind stands for it, whose values the kernel sets to targets naming the
 * host map and the key (kernel/hostmap.c). The same rewrite reads the
 * target and adds the action for a missing entry to it,
 *
 *	else	r0 = bpf_redirect(*(u32 *)r0 | (flags & action mask) << 28, 0)
 *
 * and the NIC hands the frame to the host, where the host map's entry for
 * the key takes it or, missing, the action applies -- what the host's own
 * bpf_redirect_map() decides. The host map is nothing else to the NIC:
 * a program that loads it for another use (bpf_map_lookup_elem() of a
 * socket) is refused, but for an XSKMAP lookup that only gates a redirect
 * to the same socket (xskgate.c), which becomes r0 = 1 and gives that
 * redirect the program's verdict without a socket as its action on a
 * miss.
 *
 * A PROG_ARRAY stays the host's too (libbpf fills its initial slots with
 * the object's programs, which the loader also binds to the device), and
 * an ARRAY of the progs kind stands for it, whose lookups from the NIC
 * give the tail call target of an entry that holds a program, 0 for none
 * (kernel/hostmap.c). Each
 *
 *	bpf_tail_call(ctx, map, index)	(R2 the map)
 *
 * in a program's main function becomes
 *
 *	*(u32 *)(r10 + S) = r3;  r1 = r2;  r2 = r10;  r2 += S
 *	r0 = bpf_map_lookup_elem(map, r2)
 *	if (r0 != 0 && *(u32 *)r0 != 0)	return bpf_redirect(*(u32 *)r0, 0)
 *	r0 = 0				(the tail call failed: go on)
 *
 * and the NIC runs the entry's program on the frame when this one has
 * exited (nicprog_plan_tail()), as the host's tail call jumps to it. In a
 * subprogram the return would not end the program: refused.
 *
 * A
 * devmap entry's own program (bpf_devmap_val.bpf_prog) is not run; flags
 * other than the action on a miss (BPF_F_BROADCAST, BPF_F_EXCLUDE_INGRESS)
 * are refused, as are flags the program does not load as a constant.
 *
 * The program grows, so every jump and call is re-aimed through an
 * old-to-new index map (np_splice_apply()), which the loader also uses for
 * libbpf's copy and its BTF line and function information.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "object.h"
#include "redirect.h"

#define XDP_ACTION_MASK		(XDP_ABORTED | XDP_DROP | XDP_PASS | XDP_TX)

/**
 * np_fail() - say why a rewrite cannot be made
 * @err: the sentence's buffer
 * @len: bytes at @err
 * @fmt: the sentence
 *
 * Return: -EOPNOTSUPP.
 */
int np_fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -EOPNOTSUPP;
}

/* The last write to @reg before @at in its straight-line run, or -1. */
static s64 last_write(const struct bpf_insn *insns, u32 first, u32 at,
		      u8 reg)
{
	const struct bpf_insn *in;
	u32 j;

	for (j = at; j-- > first && at - j <= 32;) {
		in = &insns[j];
		if (BPF_CLASS(in->code) == BPF_JMP ||
		    BPF_CLASS(in->code) == BPF_JMP32)
			return -1;
		if (j > first && np_is_ldimm64(&insns[j - 1]))
			continue;	/* second half of a 64-bit load */
		if (BPF_CLASS(in->code) == BPF_STX ||
		    BPF_CLASS(in->code) == BPF_ST)
			continue;
		if (in->dst_reg == reg)
			return j;
	}
	return -1;
}

/**
 * np_func_of() - the function (subprogram) holding an instruction
 * @o: the program
 * @i: the instruction
 * @first: set to the function's first instruction
 * @end: set to the instruction after its last
 * @sub: set to its index in @o->subs
 */
void np_func_of(const struct np_object *o, u32 i, u32 *first, u32 *end,
		u32 *sub)
{
	u32 s;

	*first = 0;
	*end = o->len;
	*sub = 0;
	for (s = 0; s < o->n_subs; s++) {
		if (o->subs[s].start <= i && o->subs[s].start >= *first) {
			*first = o->subs[s].start;
			*sub = s;
		}
		if (o->subs[s].start > i && o->subs[s].start < *end)
			*end = o->subs[s].start;
	}
}

static int splice_cmp(const void *a, const void *b)
{
	const struct np_splice *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

/* The instructions that replace a bpf_redirect_map() call (see the top). */
static struct np_splice redirect_splice(u32 at, s32 slot, u32 miss, bool host)
{
	struct np_splice sp = { .at = at, .n = 0, .kind = NP_SPLICE_REDIRECT };
	struct bpf_insn *x = sp.insns;
	u32 k = 0, to_miss_r0, to_miss_r1;

	x[k++] = (struct bpf_insn){ .code = BPF_STX | BPF_MEM | BPF_W,
				    .dst_reg = BPF_REG_10,
				    .src_reg = BPF_REG_2, .off = slot };
	x[k++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_X,
				    .dst_reg = BPF_REG_2,
				    .src_reg = BPF_REG_10 };
	x[k++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_ADD | BPF_K,
				    .dst_reg = BPF_REG_2, .imm = slot };
	x[k++] = (struct bpf_insn){ .code = BPF_JMP | BPF_CALL,
				    .imm = BPF_FUNC_map_lookup_elem };
	to_miss_r0 = k++;	/* if r0 == 0 goto miss */
	x[k++] = (struct bpf_insn){ .code = BPF_LDX | BPF_MEM | BPF_W,
				    .dst_reg = BPF_REG_1,
				    .src_reg = BPF_REG_0 };
	to_miss_r1 = k++;	/* if r1 == 0 goto miss */
	if (host)
		x[k++] = (struct bpf_insn){
			.code = BPF_ALU64 | BPF_OR | BPF_K,
			.dst_reg = BPF_REG_1,
			.imm = (s32)(miss << NICPROG_HOST_TARGET_ACT_SHIFT) };
	x[k++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K,
				    .dst_reg = BPF_REG_2 };
	x[k++] = (struct bpf_insn){ .code = BPF_JMP | BPF_CALL,
				    .imm = BPF_FUNC_redirect };
	x[k++] = (struct bpf_insn){ .code = BPF_JMP | BPF_JA, .off = 1 };
	/* miss: */
	x[to_miss_r0] = (struct bpf_insn){ .code = BPF_JMP | BPF_JEQ | BPF_K,
					   .dst_reg = BPF_REG_0,
					   .off = k - to_miss_r0 - 1 };
	x[to_miss_r1] = (struct bpf_insn){ .code = BPF_JMP | BPF_JEQ | BPF_K,
					   .dst_reg = BPF_REG_1,
					   .off = k - to_miss_r1 - 1 };
	x[k++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K,
				    .dst_reg = BPF_REG_0, .imm = (s32)miss };
	sp.n = k;
	return sp;
}

/*
 * The bpf_redirect_map() call at @i checked and its splice made, or why
 * not. @host set for a host map's, whose address load @w1 is then marked
 * in @used.
 */
static int redirect_call(const struct np_object *o, u32 i, bool *used,
			 const u8 *gated, struct np_splice *out, char *err,
			 size_t err_len)
{
	u32 first, end, m, sub;
	s64 w1, w3;
	u64 flags;
	s32 slot;
	bool host;

	np_func_of(o, i, &first, &end, &sub);
	w1 = last_write(o->insns, first, i, BPF_REG_1);
	w3 = last_write(o->insns, first, i, BPF_REG_3);
	if (w1 < 0 || !np_is_ldimm64(&o->insns[w1]) ||
	    o->insns[w1].src_reg != BPF_PSEUDO_MAP_FD ||
	    (u32)o->insns[w1].imm >= o->n_maps)
		return np_fail(err, err_len,
			       "insn %u: bpf_redirect_map() on a map the loader cannot name (load its address right before the call)",
			       i);
	m = o->insns[w1].imm;
	host = np_map_host_target(o->map_defs[m].type);
	if (o->map_defs[m].type != BPF_MAP_TYPE_DEVMAP &&
	    o->map_defs[m].type != BPF_MAP_TYPE_DEVMAP_HASH && !host)
		return np_fail(err, err_len,
			       "insn %u: bpf_redirect_map() on map %s (%s): only devmaps', XSKMAPs' and CPUMAPs' targets are reachable from the NIC; attach the program to the host (xdpdrv)",
			       i, o->map_names[m],
			       libbpf_bpf_map_type_str(o->map_defs[m].type) ?: "?");
	if (w3 < 0 || o->insns[w3].code != (BPF_ALU64 | BPF_MOV | BPF_K))
		return np_fail(err, err_len,
			       "insn %u: bpf_redirect_map() on map %s with flags that are not a constant; the NIC needs the action on a miss known",
			       i, o->map_names[m]);
	flags = (u64)(s64)o->insns[w3].imm;
	if (flags & ~(u64)XDP_ACTION_MASK &
	    ~(BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS))
		flags = XDP_ABORTED;	/* the host's answer */
	else if (flags & (BPF_F_BROADCAST | BPF_F_EXCLUDE_INGRESS))
		return np_fail(err, err_len,
			       "insn %u: bpf_redirect_map() on map %s with BPF_F_BROADCAST or BPF_F_EXCLUDE_INGRESS: the NIC sends a frame to one target",
			       i, o->map_names[m]);
	slot = np_free_slot(o->insns, first, end);
	if (slot < -512)
		return np_fail(err, err_len,
			       "insn %u: bpf_redirect_map() on map %s: the function uses all 512 bytes of stack, and the NIC's lookup needs 8",
			       i, o->map_names[m]);
	if (host)
		used[w1] = true;
	/* a lookup gates it: the program's verdict without a socket */
	if (gated[i])
		flags = gated[i] - 1;
	*out = redirect_splice(i, slot, flags & XDP_ACTION_MASK, host);
	return 0;
}

/*
 * The load of the map a bpf_map_lookup_elem() call at @i looks up, if
 * it is one of @type, else -1.
 */
static s64 lookup_of(const struct np_object *o, u32 i, u32 type)
{
	u32 first, end, sub;
	s64 w1;

	if (o->insns[i].code != (BPF_JMP | BPF_CALL) || o->insns[i].src_reg ||
	    o->insns[i].imm != BPF_FUNC_map_lookup_elem)
		return -1;
	np_func_of(o, i, &first, &end, &sub);
	w1 = last_write(o->insns, first, i, BPF_REG_1);
	return w1 >= 0 && np_is_ldimm64(&o->insns[w1]) &&
	       o->insns[w1].src_reg == BPF_PSEUDO_MAP_FD &&
	       (u32)o->insns[w1].imm < o->n_maps &&
	       o->map_defs[o->insns[w1].imm].type == type ? w1 : -1;
}

/* Is the call at @i a bpf_map_lookup_elem() on a DEVMAP? */
static bool devmap_lookup(const struct np_object *o, u32 i)
{
	return lookup_of(o, i, BPF_MAP_TYPE_DEVMAP) >= 0;
}

/*
 * XSKMAP lookups that only gate a redirect (xskgate.c): marked in @gate
 * (1, the lookup's map load in @used), the redirect in @gated (its action
 * on a miss plus 1).
 */
static void xsk_gates(const struct np_object *o, bool *used, u8 *gate,
		      u8 *gated)
{
	u32 i, rd, miss;
	s64 w1;

	for (i = 0; i < o->len; i++) {
		w1 = lookup_of(o, i, BPF_MAP_TYPE_XSKMAP);
		if (w1 < 0 ||
		    !np_xsk_gate(o, i, o->insns[w1].imm, &rd, &miss))
			continue;
		gate[i] = 1;
		gated[rd] = miss + 1;
		used[w1] = true;
	}
}

/* The gating lookup at @at: never NULL (see xskgate.c). */
static struct np_splice gate_splice(u32 at)
{
	return (struct np_splice){
		.at = at, .n = 1, .kind = NP_SPLICE_GATE,
		.insns = {
			{ .code = BPF_ALU64 | BPF_MOV | BPF_K,
			  .dst_reg = BPF_REG_0, .imm = 1 },
		},
	};
}

/* The lookup at @at, finding no element in an empty slot (see the top). */
static struct np_splice lookup_splice(u32 at)
{
	return (struct np_splice){
		.at = at, .n = 5, .kind = NP_SPLICE_LOOKUP,
		.insns = {
			{ .code = BPF_JMP | BPF_CALL,
			  .imm = BPF_FUNC_map_lookup_elem },
			{ .code = BPF_JMP | BPF_JEQ | BPF_K,
			  .dst_reg = BPF_REG_0, .off = 3 },
			{ .code = BPF_LDX | BPF_MEM | BPF_W,
			  .dst_reg = BPF_REG_1, .src_reg = BPF_REG_0 },
			{ .code = BPF_JMP | BPF_JNE | BPF_K,
			  .dst_reg = BPF_REG_1, .off = 1 },
			{ .code = BPF_ALU64 | BPF_MOV | BPF_K,
			  .dst_reg = BPF_REG_0 },
		},
	};
}

/* The instructions that replace a bpf_tail_call() (see the top). */
static struct np_splice tail_splice(u32 at, s32 slot)
{
	return (struct np_splice){
		.at = at, .n = 12, .kind = NP_SPLICE_TAIL,
		.insns = {
			{ .code = BPF_STX | BPF_MEM | BPF_W,
			  .dst_reg = BPF_REG_10, .src_reg = BPF_REG_3,
			  .off = slot },
			{ .code = BPF_ALU64 | BPF_MOV | BPF_X,
			  .dst_reg = BPF_REG_1, .src_reg = BPF_REG_2 },
			{ .code = BPF_ALU64 | BPF_MOV | BPF_X,
			  .dst_reg = BPF_REG_2, .src_reg = BPF_REG_10 },
			{ .code = BPF_ALU64 | BPF_ADD | BPF_K,
			  .dst_reg = BPF_REG_2, .imm = slot },
			{ .code = BPF_JMP | BPF_CALL,
			  .imm = BPF_FUNC_map_lookup_elem },
			{ .code = BPF_JMP | BPF_JEQ | BPF_K,
			  .dst_reg = BPF_REG_0, .off = 5 },
			{ .code = BPF_LDX | BPF_MEM | BPF_W,
			  .dst_reg = BPF_REG_1, .src_reg = BPF_REG_0 },
			{ .code = BPF_JMP | BPF_JEQ | BPF_K,
			  .dst_reg = BPF_REG_1, .off = 3 },
			{ .code = BPF_ALU64 | BPF_MOV | BPF_K,
			  .dst_reg = BPF_REG_2 },
			{ .code = BPF_JMP | BPF_CALL,
			  .imm = BPF_FUNC_redirect },
			{ .code = BPF_JMP | BPF_EXIT },
			{ .code = BPF_ALU64 | BPF_MOV | BPF_K,
			  .dst_reg = BPF_REG_0 },
		},
	};
}

/* The bpf_tail_call() at @i checked and its splice made, or why not. */
static int tail_call(const struct np_object *o, u32 i, bool *used,
		     struct np_splice *out, char *err, size_t err_len)
{
	u32 first, end, sub;
	s64 w2;
	s32 slot;

	np_func_of(o, i, &first, &end, &sub);
	if (sub)
		return np_fail(err, err_len,
			       "insn %u: bpf_tail_call() in function %s: the NIC makes tail calls from a program's main function only; call it there, or attach the program to the host (xdpdrv)",
			       i, o->sub_names[sub]);
	w2 = last_write(o->insns, first, i, BPF_REG_2);
	if (w2 < 0 || !np_is_ldimm64(&o->insns[w2]) ||
	    o->insns[w2].src_reg != BPF_PSEUDO_MAP_FD ||
	    (u32)o->insns[w2].imm >= o->n_maps ||
	    o->map_defs[o->insns[w2].imm].type != BPF_MAP_TYPE_PROG_ARRAY)
		return np_fail(err, err_len,
			       "insn %u: bpf_tail_call() through a map the loader cannot name (load its address right before the call)",
			       i);
	slot = np_free_slot(o->insns, first, end);
	if (slot < -512)
		return np_fail(err, err_len,
			       "insn %u: bpf_tail_call() through map %s: the function uses all 512 bytes of stack, and the NIC's lookup needs 8",
			       i, o->map_names[o->insns[w2].imm]);
	used[w2] = true;
	*out = tail_splice(i, slot);
	return 0;
}

/*
 * A host map (XSKMAP, CPUMAP) is only ever bpf_redirect_map()'s: its
 * entries are host sockets and CPUs, which the NIC cannot look up. Every
 * load of its address must be one a call's splice replaces (@used).
 */
static int host_map_uses(const struct np_object *o, const bool *used,
			 char *err, size_t err_len)
{
	const struct bpf_insn *in;
	u32 i, m;

	for (i = 0; i < o->len; i++) {
		in = &o->insns[i];
		if (!np_is_ldimm64(in))
			continue;
		m = in->imm;
		if (in->src_reg == BPF_PSEUDO_MAP_FD && m < o->n_maps &&
		    o->map_defs[m].type == BPF_MAP_TYPE_PROG_ARRAY && !used[i])
			return np_fail(err, err_len,
				       "insn %u: map %s (prog_array) is used other than by bpf_tail_call(): the programs it holds are the host's to look up; attach the program to the host (xdpdrv)",
				       i, o->map_names[m]);
		if (in->src_reg == BPF_PSEUDO_MAP_FD && m < o->n_maps &&
		    np_map_host_target(o->map_defs[m].type) && !used[i])
			return np_fail(err, err_len,
				       "insn %u: map %s (%s) is used other than by bpf_redirect_map(): its entries are the host's %s, which the NIC cannot look up%s; call bpf_redirect_map(&%s, key, XDP_PASS), which passes the frame when the key has no entry, or attach the program to the host (xdpdrv)",
				       i, o->map_names[m],
				       libbpf_bpf_map_type_str(o->map_defs[m].type) ?: "?",
				       o->map_defs[m].type == BPF_MAP_TYPE_XSKMAP ?
				       "AF_XDP sockets" : "CPUs",
				       o->map_defs[m].type == BPF_MAP_TYPE_XSKMAP ?
				       " (it takes a lookup only as the gate of bpf_redirect_map() on the same key, flags 0)" :
				       "",
				       o->map_names[m]);
		i++;
	}
	return 0;
}

/**
 * np_redirect_rewrite() - rewrite bpf_redirect_map() for the NIC
 * @o: the program, its maps as object.c read them; rewritten, with the
 *	splices np_globals_rewrite() left in @o->splices
 * @err: why not, on failure
 * @err_len: bytes at @err
 *
 * Calls on devmaps, XSKMAPs and CPUMAPs are rewritten, lookups in
 * devmaps and tail calls (see the top).
 *
 * Return: 0 (nothing to do included), -EOPNOTSUPP naming the call or
 * the host map's other use, -ENOMEM.
 */
int np_redirect_rewrite(struct np_object *o, char *err, size_t err_len)
{
	struct np_splice *sp = o->splices;
	u32 i, n = o->n_splices, *map = NULL, s;
	struct bpf_insn *out = NULL;
	u8 *gate, *gated;
	bool *used;
	int ret = 0;

	used = calloc(o->len, sizeof(*used));
	gate = calloc(2 * (size_t)o->len, 1);
	if (!used || !gate) {
		free(used);
		free(gate);
		return np_fail(err, err_len, "out of memory");
	}
	gated = gate + o->len;
	xsk_gates(o, used, gate, gated);
	for (i = 0; i < o->len && !ret; i++) {
		const struct bpf_insn *in = &o->insns[i];

		if (np_is_ldimm64(in)) {
			i++;
			continue;
		}
		if (in->code != (BPF_JMP | BPF_CALL) || in->src_reg ||
		    (in->imm != BPF_FUNC_redirect_map &&
		     in->imm != BPF_FUNC_tail_call && !gate[i] &&
		     !devmap_lookup(o, i)))
			continue;
		if (!sp) {
			sp = calloc(o->len, sizeof(*sp));
			if (!sp) {
				ret = np_fail(err, err_len, "out of memory");
				break;
			}
			o->splices = sp;	/* np_object_free() frees it */
		}
		if (in->imm == BPF_FUNC_redirect_map) {
			ret = redirect_call(o, i, used, gated, &sp[n], err,
					    err_len);
			n += !ret;
		} else if (gate[i]) {
			sp[n++] = gate_splice(i);
		} else if (in->imm == BPF_FUNC_tail_call) {
			ret = tail_call(o, i, used, &sp[n], err, err_len);
			n += !ret;
		} else {
			sp[n++] = lookup_splice(i);
		}
	}
	if (!ret)
		ret = host_map_uses(o, used, err, err_len);
	free(used);
	free(gate);
	o->n_splices = n;
	if (ret || !n)
		return ret;
	/* with the global data loads' (np_globals_rewrite()), by place */
	qsort(sp, n, sizeof(*sp), splice_cmp);
	ret = np_splice_apply(o->insns, o->len, sp, n, &out, &i, &map);
	if (ret)
		return np_fail(err, err_len, "out of memory");
	for (s = 0; s < o->n_subs; s++)
		o->subs[s].start = map[o->subs[s].start];
	free(o->insns);
	o->insns = out;
	o->len = i;
	free(map);
	return 0;
}

/**
 * np_splice_apply() - a program with some instructions replaced by several
 * @in: the program
 * @len: its instructions
 * @sp: the splices, by ascending @at
 * @n_sp: entries in @sp
 * @out: set to the new program (free() it)
 * @out_len: set to its length
 * @map: set to the old-to-new index map, @len + 1 entries (free() it)
 *
 * Jumps and calls of the original instructions are re-aimed at their old
 * targets' new places; a jump to a replaced instruction lands on the
 * first of its replacements.
 *
 * Return: 0 or -ENOMEM.
 */
int np_splice_apply(const struct bpf_insn *in, u32 len,
		    const struct np_splice *sp, u32 n_sp,
		    struct bpf_insn **out, u32 *out_len, u32 **map)
{
	u32 i, k = 0, j = 0, q, extra = 0, *mp;
	struct bpf_insn *o;
	s64 tgt;

	for (i = 0; i < n_sp; i++)
		extra += sp[i].n - 1;
	mp = malloc((len + 1) * sizeof(*mp));
	o = malloc((len + extra) * sizeof(*o));
	if (!mp || !o) {
		free(mp);
		free(o);
		return -ENOMEM;
	}
	for (i = 0; i < len; i++) {
		mp[i] = j;
		if (k < n_sp && sp[k].at == i) {
			memcpy(&o[j], sp[k].insns, sp[k].n * sizeof(*o));
			j += sp[k].n;
			k++;
		} else {
			o[j++] = in[i];
		}
	}
	mp[len] = j;
	for (i = 0, k = 0; i < len; i++) {
		const struct bpf_insn *x = &in[i];
		u8 cls = BPF_CLASS(x->code), op = BPF_OP(x->code);

		if (k < n_sp && sp[k].at == i) {
			for (q = 0; q < sp[k].n; q++) {
				x = &sp[k].insns[q];
				if (x->code != (BPF_JMP | BPF_CALL) ||
				    x->src_reg != BPF_PSEUDO_CALL)
					continue;
				tgt = (s64)i + 1 + x->imm;
				if (tgt >= 0 && tgt <= len)
					o[mp[i] + q].imm = (s32)mp[tgt] -
							   (s32)(mp[i] + q + 1);
			}
			k++;
			continue;
		}
		if (cls != BPF_JMP && cls != BPF_JMP32)
			continue;
		if (op == BPF_CALL && x->src_reg == BPF_PSEUDO_CALL) {
			tgt = (s64)i + 1 + x->imm;
			if (tgt >= 0 && tgt <= len)
				o[mp[i]].imm = (s32)mp[tgt] - (s32)(mp[i] + 1);
		} else if (op != BPF_CALL && op != BPF_EXIT) {
			tgt = (s64)i + 1 + x->off;
			if (tgt >= 0 && tgt <= len)
				o[mp[i]].off = (s16)((s32)mp[tgt] -
						     (s32)(mp[i] + 1));
		}
	}
	*out = o;
	*out_len = len + extra;
	*map = mp;
	return 0;
}
