// SPDX-License-Identifier: GPL-2.0
/*
 * Which subprogram calls become engine jobs. The verifier's facts say
 * which accelerator id a call passes; BTF says what the callee is. The
 * kernel (bpf_offload.c) and the offline planner (an ELF object's BTF)
 * describe the subprograms the same way, so both decide alike.
 */
#include "offload.h"

#define CALLS_MAX_IDENT	8	/* distinct functions tried per program */

static void calls_log(nicprog_log_fn log, void *priv, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	if (!log)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	log(priv, buf);
}

static const struct nicprog_subprog *calls_find(const struct nicprog_subprog *subs,
						u32 n_subs, u32 start)
{
	u32 s;

	for (s = 0; s < n_subs; s++)
		if (subs[s].start == start)
			return &subs[s];
	return NULL;
}

/**
 * nicprog_calls_check_accel() - drop accelerator ids the NIC cannot honour
 * @insns: the program
 * @meta: its facts; afn cleared where the call stays a call
 * @len: instructions
 * @subs: its subprograms
 * @n_subs: entries in @subs
 * @log: where to say why (may be NULL)
 * @priv: for @log
 *
 * An accelerator call is a call to a global function passing an
 * accelerator id; a static function passing one is called as it is, and
 * so is a call whose id differs between paths.
 */
void nicprog_calls_check_accel(const struct bpf_insn *insns,
			       struct nicprog_insn_meta *meta, u32 len,
			       const struct nicprog_subprog *subs, u32 n_subs,
			       nicprog_log_fn log, void *priv)
{
	const struct nicprog_subprog *sp;
	u32 i;

	for (i = 0; i < len; i++) {
		if (!meta[i].afn)
			continue;
		if (meta[i].flags & NICPROG_META_AFN_VAR) {
			meta[i].afn = NICPROG_AFN_NONE;
			continue;
		}
		sp = calls_find(subs, n_subs, i + 1 + insns[i].imm);
		if (sp && sp->global)
			continue;
		calls_log(log, priv,
			  "insn %u: call passes accelerator id %s but its target is not a global function; it runs on a core\n",
			  i, nicprog_accel_fn_name(meta[i].afn));
		meta[i].afn = NICPROG_AFN_NONE;
	}
}

/**
 * nicprog_calls_ident() - turn calls of plain-BPF engine functions into
 *	engine jobs (ident.c)
 * @exec: the program, as the executor runs it
 * @meta: its facts; afn, ident and NICPROG_META_IDENT set per call
 * @subs: its subprograms, by ascending start
 * @n_subs: entries in @subs
 * @log: where to say what was found, or why not (may be NULL)
 * @priv: for @log
 *
 * Context: any; does not sleep.
 */
void nicprog_calls_ident(const struct nicprog_exec_prog *exec,
			 struct nicprog_insn_meta *meta,
			 const struct nicprog_subprog *subs, u32 n_subs,
			 nicprog_log_fn log, void *priv)
{
	const struct bpf_insn *insns = exec->insns;
	const struct nicprog_ident_body *body;
	const struct nicprog_subprog *sp;
	struct {
		u32 target;
		u8 accel;
	} done[CALLS_MAX_IDENT];
	u32 i, s, target, end, same, n_done = 0;
	const char *why;

	for (i = 0; i < exec->len; i++) {
		if (insns[i].code != (BPF_JMP | BPF_CALL) ||
		    insns[i].src_reg != BPF_PSEUDO_CALL || meta[i].afn)
			continue;
		target = i + 1 + insns[i].imm;
		for (s = 0; s < n_done && done[s].target != target; s++)
			;
		if (s == n_done) {
			sp = calls_find(subs, n_subs, target);
			if (n_done == ARRAY_SIZE(done) || !sp ||
			    !sp->global || !sp->engine_shape)
				continue;
			end = sp + 1 < subs + n_subs ? sp[1].start : exec->len;
			done[n_done].target = target;
			done[n_done].accel = NICPROG_AFN_NONE;
			if (nicprog_ident_fn(insns, meta, target, end, &body,
					     &same, &why)) {
				done[n_done].accel = body->accel;
				calls_log(log, priv,
					  "insn %u: function at insn %u identified as %s (conventions 0x%02x): %s of %s (%s)\n",
					  i, target,
					  nicprog_accel_fn_name(body->accel),
					  body->accel & ~NICPROG_EXEC_AFN_MASK,
					  body->name, body->source, body->cc);
			} else if (body) {
				calls_log(log, priv,
					  "insn %u: function at insn %u is not an engine function: %s (nearest %s of %s: %u of %u instructions alike)\n",
					  i, target, why, body->name,
					  body->source, same, body->len);
			} else {
				calls_log(log, priv,
					  "insn %u: function at insn %u is not an engine function: %s\n",
					  i, target, why);
			}
			s = n_done++;
		}
		if (!done[s].accel)
			continue;
		meta[i].afn = done[s].accel & NICPROG_EXEC_AFN_MASK;
		meta[i].ident = done[s].accel & ~NICPROG_EXEC_AFN_MASK;
		meta[i].flags |= NICPROG_META_IDENT;
	}
}
