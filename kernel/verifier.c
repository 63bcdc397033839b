// SPDX-License-Identifier: GPL-2.0
/*
 * The verifier's side of BPF offload (bpf_offload.c has the rest): the
 * prepare, insn_hook and finalize callbacks of nicprog's struct
 * bpf_prog_offload_ops.
 *
 * insn_hook hands, for every instruction on every explored path, what the
 * verifier knows of the registers to the fact recorder (offload/note.c,
 * which nicprog-plan runs offline too) and refuses what the NIC cannot
 * run, in the verifier log with the prefix "[nicprog]". finalize copies
 * the program as verified -- before the kernel's own rewrites -- which is
 * what the NIC runs; map pointers in it become table indices.
 *
 * Locking: prepare, insn_hook and finalize run under bpf_devs_lock (read).
 */
#include <linux/bpf.h>
#include <linux/bpf_verifier.h>
#include <linux/btf.h>
#include <linux/filter.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "nicprog.h"

#define NICPROG_FN_NAME(x) \
	[BPF_FUNC_ ## x] = "bpf_" #x
static const char * const nicprog_helper_names[] = {
	__BPF_FUNC_MAPPER(NICPROG_FN_NAME)
};

static const char *helper_name(s32 id)
{
	if (id >= 0 && id < ARRAY_SIZE(nicprog_helper_names) &&
	    nicprog_helper_names[id])
		return nicprog_helper_names[id];
	return "unknown helper";
}

/*
 * Does the NIC run helper @id: one its driver lists (&nicprog_dev_ops.
 * helpers), or without a list one the executor runs? The list is read
 * under the BPF core's offload lock, which the NIC's removal takes.
 */
static bool nic_has_helper(const struct nicprog_nic *nic, s32 id)
{
	const s32 *h = nic->ops->helpers;

	if (!nicprog_exec_helper_supported(id))
		return false;
	while (h && *h && *h != id)
		h++;
	return !h || *h;
}

#define np_vlog(env, fmt, ...) \
	bpf_verifier_log_write(env, "[nicprog] " fmt, ##__VA_ARGS__)

static struct nicprog_prog *env_prog(struct bpf_verifier_env *env)
{
	return env->prog->aux->offload->dev_priv;
}

/* What the NIC needs to know of a pointer: enum nicprog_ptr_kind. */
static u8 ptr_kind(const struct bpf_reg_state *reg)
{
	switch (base_type(reg->type)) {
	case PTR_TO_CTX:
		return NICPROG_PTR_CTX;
	case PTR_TO_PACKET:
	case PTR_TO_PACKET_META:
	case PTR_TO_PACKET_END:
		return NICPROG_PTR_PACKET;
	case PTR_TO_MAP_VALUE:
	case PTR_TO_MAP_KEY:
		return NICPROG_PTR_MAP_VALUE;
	case PTR_TO_STACK:
		return NICPROG_PTR_STACK;
	case SCALAR_VALUE:
		return NICPROG_PTR_SCALAR;
	default:
		return NICPROG_PTR_OTHER;
	}
}

/* The table index of @map in @np, given on first sight. */
static u8 nicprog_map_index(struct nicprog_prog *np, struct bpf_map *map)
{
	u32 m;

	for (m = 0; m < np->n_maps; m++)
		if (np->maps[m] == map)
			return m;
	if (m == NICPROG_PROG_MAX_MAPS)
		return NICPROG_MAP_MANY;	/* bind_maps refuses */
	np->maps[np->n_maps++] = map;
	return m;
}

/*
 * Tables numbered in instruction order (the order of used_maps), before
 * the walk: the order the verifier meets them is the kernel's to change
 * (6.1 verifies global functions first, 6.12 the main program first), and
 * nicprog-plan, offline, numbers them as here. Map pointers are in the
 * ld_imm64s since resolve_pseudo_ldimm64(); more maps than a program may
 * have are bind_maps' to refuse.
 */
static void nicprog_number_maps(struct nicprog_prog *np,
				const struct bpf_prog *prog)
{
	const struct bpf_insn *insn = prog->insnsi;
	u32 i;

	for (i = 0; i + 1 < prog->len; i++) {
		if (insn[i].code != (BPF_LD | BPF_IMM | BPF_DW))
			continue;
		if (insn[i].src_reg == BPF_PSEUDO_MAP_FD)
			nicprog_map_index(np, (struct bpf_map *)(unsigned long)
					  ((u64)(u32)insn[i].imm |
					   ((u64)(u32)insn[i + 1].imm << 32)));
		i++;
	}
}

/*
 * What the fact recorder (offload/note.c) needs of a register. map_ptr
 * shares a union with other types' fields: read only for map types.
 */
static void reg_view(const struct bpf_reg_state *reg,
		     struct nicprog_reg_view *v)
{
	enum bpf_reg_type t = base_type(reg->type);

	v->kind = ptr_kind(reg);
	v->flags = 0;
	v->off = reg->off;
	v->var = reg->var_off.value;
	v->umax = reg->umax_value;
	v->map = NULL;
	if (reg->type == NOT_INIT)
		v->flags |= NICPROG_REG_UNINIT;
	if (t == PTR_TO_PACKET)
		v->flags |= NICPROG_REG_FRAME;
	if (t == PTR_TO_MAP_VALUE)
		v->flags |= NICPROG_REG_MAP_VALUE;
	if (tnum_is_const(reg->var_off))
		v->flags |= NICPROG_REG_CONST;
	if (t == PTR_TO_STACK && !reg->frameno)
		v->flags |= NICPROG_REG_MAIN_STACK;
	if (t == CONST_PTR_TO_MAP || t == PTR_TO_MAP_VALUE ||
	    t == PTR_TO_MAP_KEY)
		v->map = reg->map_ptr;
}

static u8 table_of(void *priv, const void *map)
{
	return nicprog_map_index(priv, (struct bpf_map *)map);
}

/*
 * What main-frame stack slots hold before @meta's insn, so that a handover
 * to the host (handover.c) knows which values to rebase; the registers
 * are nicprog_note_insn()'s.
 */
static void nicprog_note_slots(struct bpf_verifier_env *env,
			       struct nicprog_insn_meta *meta)
{
	const struct bpf_verifier_state *vs = env->cur_state;
	struct nicprog_note_masks m = {};
	const struct bpf_func_state *fs;
	const struct bpf_stack_state *slot;
	struct nicprog_reg_view v;
	u32 i, b;

	if (vs->curframe)
		return;
	fs = vs->frame[0];
	for (i = 0; i < fs->allocated_stack / BPF_REG_SIZE && i < 64; i++) {
		slot = &fs->stack[i];
		if (slot->slot_type[BPF_REG_SIZE - 1] == STACK_SPILL) {
			reg_view(&slot->spilled_ptr, &v);
			nicprog_note_sort(&v, BIT_ULL(i), &m);
			continue;
		}
		for (b = 0; b < BPF_REG_SIZE; b++) {
			if (slot->slot_type[b] == STACK_MISC ||
			    slot->slot_type[b] == STACK_ZERO)
				m.data |= BIT_ULL(i);
			else if (slot->slot_type[b] != STACK_INVALID)
				m.other |= BIT_ULL(i);
		}
	}
	meta->ptr_slots |= m.ptr;
	meta->data_slots |= m.data;
	meta->other_slots |= m.other;
}

/*
 * A helper only the host has: the host part of a partial plan calls the
 * kernel's own implementation, the one this program would call on the
 * host, with the frame as an xdp_buff where the context is its first
 * argument (nicprog_plan_host_call()), so a helper taking it elsewhere is
 * not one. Only helpers whose arguments are otherwise values or memory
 * the executor addresses as the kernel does (the stack, map values, the
 * frame: bpf_trace_printk()'s format and its %s strings) are
 * nicprog_exec_host_helper().
 */
static bool nicprog_host_fn_ok(const struct bpf_func_proto *fn)
{
	u32 i;

	if (!fn || !fn->func || fn->ret_type != RET_INTEGER)
		return false;
	for (i = 1; i < ARRAY_SIZE(fn->arg_type); i++)
		if (fn->arg_type[i] == ARG_PTR_TO_CTX)
			return false;
	return true;
}

static bool nicprog_note_host_call(struct bpf_verifier_env *env,
				   struct nicprog_prog *np, int insn_idx,
				   s32 func_id)
{
	const struct bpf_func_proto *fn;
	u32 h;

	if (!nicprog_exec_host_helper(func_id))
		return false;
	/*
	 * so far the NIC answers it (bpf_check_mtu() of its own port), as
	 * the core's executor does; a NIC that lists its helpers does not
	 */
	if (!(np->meta[insn_idx].flags & NICPROG_META_HOST_CALL))
		return !np->nic->ops->helpers;
	h = nicprog_host_fn_index(func_id);
	if (!np->host_fn[h]) {
		fn = env->ops->get_func_proto(func_id, env->prog);
		if (!nicprog_host_fn_ok(fn))
			return false;
		np->host_fn[h] = fn;
	}
	if (np->host_call_insn < 0 || insn_idx < np->host_call_insn)
		np->host_call_insn = insn_idx;
	return true;
}

/*
 * The partial offload setting of the port @prog is loaded for. Under
 * bpf_devs_lock (read), which keeps the port registered (its
 * unregistration takes the lock for writing).
 */
static bool nicprog_prepare_partial(struct nicprog_nic *nic,
				    struct bpf_prog *prog)
{
	struct net_device *netdev = prog->aux->offload->netdev;
	struct nicprog_dev *nd;
	bool partial = false;

	mutex_lock(&nic->lock);
	list_for_each_entry(nd, &nic->ports, nic_node)
		if (nd->netdev == netdev) {
			mutex_lock(&nd->plan_lock);
			partial = nd->plan_partial;
			mutex_unlock(&nd->plan_lock);
		}
	mutex_unlock(&nic->lock);
	return partial;
}

int nicprog_prepare(struct bpf_prog *prog)
{
	struct nicprog_nic *nic =
		bpf_offload_dev_priv(prog->aux->offload->offdev);
	struct nicprog_prog *np;
	u32 i;

	np = kzalloc(sizeof(*np), GFP_KERNEL);
	if (!np)
		return -ENOMEM;
	np->nic = nic;
	np->prog = prog;
	np->len = prog->len;
	np->meta = kvcalloc(prog->len, sizeof(*np->meta), GFP_KERNEL);
	if (!np->meta) {
		kfree(np);
		return -ENOMEM;
	}
	for (i = 0; i < prog->len; i++)
		np->meta[i].map = NICPROG_MAP_NONE;
	nicprog_number_maps(np, prog);
	np->host_call_insn = -1;
	/* with partial offload, the plan leaves what does not fit to the host */
	np->partial = nicprog_prepare_partial(nic, prog);
	/* a prepared program pins the NIC's LNIC until destroy */
	mutex_lock(&nic->lock);
	if (nic->lnic_frozen) {
		mutex_unlock(&nic->lock);
		kvfree(np->meta);
		kfree(np);
		dev_warn(nic->dev,
			 "nicprog: program refused: the NIC's profile is being replaced\n");
		return -EBUSY;
	}
	nic->n_progs++;
	/* a tail call finds it once finalize copied its instructions */
	list_add_tail_rcu(&np->node, &nic->progs);
	mutex_unlock(&nic->lock);
	/* the verifier explores paths between prepare and finalize */
	np->verify_ns = ktime_get_ns();
	prog->aux->offload->dev_priv = np;
	return 0;
}

int nicprog_insn_hook(struct bpf_verifier_env *env, int insn_idx,
		      int prev_insn_idx)
{
	const struct bpf_insn *insn = &env->prog->insnsi[insn_idx];
	struct nicprog_prog *np = env_prog(env);
	const struct bpf_reg_state *regs = cur_regs(env);
	struct nicprog_insn_meta *meta;
	u32 r;
	int err;

	if (insn_idx >= np->len)
		return -EINVAL;
	if (env->prog->type != BPF_PROG_TYPE_XDP) {
		np_vlog(env, "only XDP programs run on the NIC, not program type %u\n",
			env->prog->type);
		return -EOPNOTSUPP;
	}
	meta = &np->meta[insn_idx];
	for (r = 0; r < MAX_BPF_REG; r++)
		reg_view(&regs[r], &np->view[r]);
	nicprog_note_slots(env, meta);
	err = nicprog_note_insn(meta, insn, insn_idx, np->view, table_of, np,
				np->why, sizeof(np->why));
	if (err) {
		np_vlog(env, "%s\n", np->why);
		return err;
	}
	if (insn->code == (BPF_JMP | BPF_CALL) && insn->src_reg == 0 &&
	    !nic_has_helper(np->nic, insn->imm) &&
	    !nicprog_note_host_call(env, np, insn_idx, insn->imm)) {
		np_vlog(env, "insn %d: helper %s (%d) is not supported on the NIC%s\n",
			insn_idx, helper_name(insn->imm), insn->imm,
			np->nic->ops->helpers ?
			" (its driver lists the helpers its cores run)" : "");
		return -EOPNOTSUPP;
	}
	return 0;
}

/* Replace map pointers in ld_imm64 by indices into np->tables. */
static int nicprog_bind_maps(struct bpf_verifier_env *env,
			     struct nicprog_prog *np)
{
	struct bpf_insn *insn = np->insns;
	struct bpf_offloaded_map *offmap;
	struct bpf_map *map;
	u32 i, m;

	for (i = 0; i + 1 < np->len; i++) {
		if (insn[i].code != (BPF_LD | BPF_IMM | BPF_DW))
			continue;
		/* Other pseudo loads are refused by nicprog_exec_check(). */
		if (insn[i].src_reg != BPF_PSEUDO_MAP_FD) {
			i++;
			continue;
		}
		map = (struct bpf_map *)(unsigned long)((u64)(u32)insn[i].imm |
							((u64)(u32)insn[i + 1].imm << 32));
		m = nicprog_map_index(np, map);
		if (m == NICPROG_MAP_MANY) {
			np_vlog(env, "program uses more than %d maps\n",
				NICPROG_PROG_MAX_MAPS);
			return -E2BIG;
		}
		np->ir_tables[m] = (struct nicprog_ir_table){
			.type = map->map_type,
			.key_size = map->key_size,
			.value_size = map->value_size,
			.max_entries = map->max_entries,
		};
		/*
		 * The verifier refused any map not offloaded to this port
		 * ("offload device mismatch between prog and map") but the
		 * ones the core calls offload-neutral: a PERF_EVENT_ARRAY of
		 * the host, which the NIC reaches through event_output. (A
		 * device owns only HASH and ARRAY maps; bpf_map_is_dev_bound()
		 * is not for modules.)
		 */
		if (map->map_type != BPF_MAP_TYPE_PERF_EVENT_ARRAY) {
			offmap = map_to_offmap(map);
			np->tables[m] = offmap->dev_priv;
			np->ir_tables[m].bytes = nicprog_table_bytes(map);
			np->ir_tables[m].type =
				nicprog_table_bind(np->tables[m]);
		} else {
			np->host_maps |= BIT_ULL(m);
		}
		insn[i].imm = m;
		insn[i + 1].imm = 0;
		i++;
	}
	return 0;
}

/* @id's type with typedefs and qualifiers peeled off, or NULL. */
static const struct btf_type *nicprog_btf_resolve(const struct btf *btf, u32 id)
{
	const struct btf_type *t = btf_type_by_id(btf, id);
	u32 depth;

	for (depth = 0; t && depth < 16; depth++) {
		switch (BTF_INFO_KIND(t->info)) {
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
			t = btf_type_by_id(btf, t->type);
			break;
		default:
			return t;
		}
	}
	return NULL;
}

static bool nicprog_btf_int(const struct btf *btf, u32 id, u32 size)
{
	const struct btf_type *t = nicprog_btf_resolve(btf, id);

	return t && btf_type_is_int(t) && t->size == size;
}

/* f(ctx, u64 off, u64 len, u32 seed) returning an integer? */
static bool nicprog_btf_engine_shape(const struct btf *btf,
				     const struct btf_type *fn)
{
	const struct btf_type *proto, *ctx;
	const struct btf_param *arg;

	proto = btf_type_by_id(btf, fn->type);
	if (!proto || !btf_type_is_func_proto(proto) ||
	    btf_type_vlen(proto) != 4)
		return false;
	arg = btf_params(proto);
	ctx = nicprog_btf_resolve(btf, arg[0].type);
	return ctx && btf_type_is_ptr(ctx) &&
	       nicprog_btf_int(btf, arg[1].type, 8) &&
	       nicprog_btf_int(btf, arg[2].type, 8) &&
	       nicprog_btf_int(btf, arg[3].type, 4) &&
	       (nicprog_btf_int(btf, proto->type, 4) ||
		nicprog_btf_int(btf, proto->type, 8));
}

/* The subprograms as BTF describes them, for offload/calls.c. */
static struct nicprog_subprog *nicprog_subprogs(struct bpf_verifier_env *env,
						u32 *n)
{
	const struct bpf_prog_aux *aux = env->prog->aux;
	const struct btf_type *fn;
	struct nicprog_subprog *subs;
	u32 s, f;

	subs = kcalloc(env->subprog_cnt, sizeof(*subs), GFP_KERNEL);
	if (!subs)
		return NULL;
	for (s = 0; s < env->subprog_cnt; s++) {
		subs[s].start = env->subprog_info[s].start;
		for (f = 0; f < aux->func_info_cnt && aux->btf; f++) {
			if (aux->func_info[f].insn_off != subs[s].start)
				continue;
			fn = btf_type_by_id(aux->btf, aux->func_info[f].type_id);
			if (!fn || btf_type_vlen(fn) != BTF_FUNC_GLOBAL)
				continue;
			subs[s].global = true;
			subs[s].engine_shape =
				nicprog_btf_engine_shape(aux->btf, fn);
		}
	}
	*n = env->subprog_cnt;
	return subs;
}

static void nicprog_log_line(void *priv, const char *line)
{
	np_vlog((struct bpf_verifier_env *)priv, "%s", line);
}

/*
 * A program larger than the instruction store: say which part does not
 * fit -- the part plan_partial would leave to the host -- on the line
 * that says why, since loaders quote a refusal's last line.
 */
static void nicprog_log_store(struct bpf_verifier_env *env,
			      struct nicprog_prog *np)
{
	const struct nicprog_nic *nic = np->nic;
	struct nicprog_host_limits lim = { .insn_store = nic->sum.insn_store };
	struct nicprog_layout lo;
	const char *why;
	u32 i, *pcs = NULL;

	for (i = 0; i < np->n_maps; i++)
		if (nicprog_table_in_host(np->tables[i]))
			lim.host_tables |= BIT_ULL(i);
	if (!nicprog_layout_build(&np->ir, nic->lnic, NICPROG_SHAPE_SINGLE, 1,
				  &lim, &lo, &why) && lo.node_host) {
		pcs = kvcalloc(lo.host_entries, sizeof(*pcs), GFP_KERNEL);
		if (pcs && !nicprog_host_entries(&np->ir, &lo, pcs,
						 lo.host_entries)) {
			kvfree(pcs);
			pcs = NULL;
		}
	}
	if (pcs)
		np_vlog(env,
			"program has %u instructions; the NIC's cores hold at most %u: it can hold %u of them; %u, from insn %u on, do not fit (plan_partial lets the host run them)\n",
			np->len, nic->sum.insn_store, lo.nic_insns,
			lo.host_insns, pcs[0]);
	else
		np_vlog(env,
			"program has %u instructions; the NIC's cores hold at most %u, and no prefix of it fits the NIC and can hand over to the host\n",
			np->len, nic->sum.insn_store);
	kvfree(pcs);
	nicprog_layout_free(&lo);
}

int nicprog_finalize(struct bpf_verifier_env *env)
{
	struct nicprog_prog *np = env_prog(env);
	struct nicprog_subprog *subs;
	bool partial = np->partial;
	const char *why;
	u32 i, bad, n_subs;
	u64 t0 = ktime_get_ns();
	int err;

	np->verify_ns = t0 - np->verify_ns;
	if (env->prog->len != np->len) {
		np_vlog(env, "program changed length during verification (%u, was %u)\n",
			env->prog->len, np->len);
		return -EINVAL;
	}
	np->insns = kvmalloc_array(np->len, sizeof(*np->insns), GFP_KERNEL);
	np->flags = kvcalloc(np->len, sizeof(*np->flags), GFP_KERNEL);
	if (!np->insns || !np->flags)
		return -ENOMEM;
	memcpy(np->insns, env->prog->insnsi, np->len * sizeof(*np->insns));
	for (i = 0; i < np->len; i++)
		if (np->meta[i].ptr == NICPROG_PTR_CTX)
			np->flags[i] = NICPROG_EXEC_INSN_CTX;

	err = nicprog_bind_maps(env, np);
	if (err)
		return err;

	np->exec.insns = np->insns;
	np->exec.flags = np->flags;
	np->exec.len = np->len;
	np->exec.n_maps = np->n_maps;
	err = nicprog_exec_check(&np->exec, &bad, &why);
	if (err) {
		np_vlog(env, "insn %u: %s\n", bad, why);
		return err;
	}
	for (i = 0; i < np->n_maps; i++)
		if (!np->tables[i] && !(np->host_maps & BIT_ULL(i))) {
			/* seen in a register, never loaded */
			np_vlog(env, "map %s is not loaded by the program\n",
				np->maps[i]->name);
			return -EINVAL;
		}
	subs = nicprog_subprogs(env, &n_subs);
	if (!subs)
		return -ENOMEM;
	nicprog_calls_check_accel(np->insns, np->meta, np->len, subs, n_subs,
				  nicprog_log_line, env);
	nicprog_calls_ident(&np->exec, np->meta, subs, n_subs, np->ident,
			    &np->n_ident, nicprog_log_line, env);
	kfree(subs);
	np->ir_in = (struct nicprog_ir_input){
		.insns = np->insns, .meta = np->meta, .len = np->len,
		.tables = np->ir_tables, .n_tables = np->n_maps,
	};
	err = nicprog_ir_build(&np->ir_in, &np->ir, &why);
	np->sources = nicprog_ir_sources(&np->ir_in);
	np->ir_ns = ktime_get_ns() - t0;
	if (err) {
		np_vlog(env, "the offloader cannot analyze the program: %s\n",
			why);
		return err;
	}
	if (np->host_call_insn >= 0 && !partial) {
		i = np->host_call_insn;
		np_vlog(env,
			"insn %u: helper %s (%d) is not supported on the NIC (plan_partial lets the host run it and what follows it)\n",
			i, helper_name(np->insns[i].imm), np->insns[i].imm);
		return -EOPNOTSUPP;
	}
	if (np->len > np->nic->sum.insn_store && !partial) {
		nicprog_log_store(env, np);
		return -E2BIG;
	}
	return 0;
}
