// SPDX-License-Identifier: GPL-2.0
/*
 * nicprog-plan --bufs: a lookaside kernel's job priced on NIC profiles
 * before anything runs. The job's frame is built as NICPROG_OP_JOB builds
 * it (struct nicprog_job_frame, then each window at a multiple of 8); the
 * kernel runs on it in the NIC's executor with the cost table and frame
 * latency of the core nicprog_lnic_job_core() names -- the rule nicsim
 * prices jobs by -- and its cycles at that core's clock are the job's time.
 * A kernel's cycles depend on its data (a filter's branches), so without
 * the data (--data) each of --samples draws seeded bytes and job ids, and
 * the prediction is their mean with their range.
 *
 * A kernel needs no plan, so the executor takes from it only its
 * instructions and which loads read the context (np_job_ctx_flags()), not
 * absint.c's facts: that walk (which nicprog-plan still runs, to refuse
 * what the verifier would) gives up on some loops the kernel's verifier
 * follows to the end -- bpf/lookaside/colagg.c's 1024 records: its kept
 * states are evicted before the branches that need them come back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "json.h"
#include "profiles.h"

#define NP_JOB_PROFILES	16

/* What may hold the context before an instruction: registers, fp slots. */
struct ctx_in {
	u16 regs;
	u64 slots;
	bool reached;
};

static void ctx_join(struct ctx_in *in, u32 at, u32 len, u16 regs,
		     u64 slots, bool *changed)
{
	struct ctx_in *d;

	if (at >= len)
		return;
	d = &in[at];
	if (d->reached && (d->regs | regs) == d->regs &&
	    (d->slots | slots) == d->slots)
		return;
	d->reached = true;
	d->regs |= regs;
	d->slots |= slots;
	*changed = true;
}

/* The frame-pointer slot an access at fp + @off of @size bytes is in. */
static int ctx_slot(s16 off, u32 size)
{
	if (off >= 0 || off < -512 || (off & 7) || size != 8)
		return -1;
	return (-off - 1) / 8;
}

/**
 * np_job_ctx_flags() - mark the loads that read the context
 * @insns: the program, subprograms after it
 * @len: instructions
 * @flags: out: NICPROG_EXEC_INSN_CTX on each load from the context
 *
 * Which registers and 8-byte frame-pointer slots may hold the context,
 * over every path (a union to a fixed point; a callee's R1-R5 from its
 * callers). Exact for a program the verifier passes: it refuses a load
 * that sees the context on one path and another pointer on another, and a
 * load through a context pointer moved from where it points.
 */
static void np_job_ctx_flags(const struct bpf_insn *insns, u32 len,
			     u8 *flags)
{
	struct ctx_in *in = calloc(len, sizeof(*in));
	const struct bpf_insn *x;
	bool changed = true;
	u16 r, d, s;
	u64 sl;
	u8 cls;
	int k;
	u32 i;

	memset(flags, 0, len);
	if (!in)
		return;
	in[0] = (struct ctx_in){ .regs = BIT(BPF_REG_1), .reached = true };
	while (changed) {
		changed = false;
		for (i = 0; i < len; i++) {
			if (!in[i].reached)
				continue;
			x = &insns[i];
			cls = BPF_CLASS(x->code);
			r = in[i].regs;
			sl = in[i].slots;
			d = BIT(x->dst_reg);
			s = BIT(x->src_reg);
			switch (cls) {
			case BPF_ALU64:
				if (BPF_OP(x->code) == BPF_MOV &&
				    BPF_SRC(x->code) == BPF_X && (r & s))
					r |= d;
				else
					r &= ~d;
				break;
			case BPF_ALU:
				r &= ~d;
				break;
			case BPF_LD:
				r &= ~d;
				if (x->code == (BPF_LD | BPF_IMM | BPF_DW)) {
					ctx_join(in, i + 2, len, r, sl,
						 &changed);
					continue;
				}
				break;
			case BPF_LDX:
				if (r & s)
					flags[i] = NICPROG_EXEC_INSN_CTX;
				k = x->src_reg == BPF_REG_10 ?
				    ctx_slot(x->off, nicprog_insn_bytes(x->code)) :
				    -1;
				if (k >= 0 && (sl & BIT_ULL(k)))
					r |= d;
				else
					r &= ~d;
				break;
			case BPF_STX:
			case BPF_ST:
				if (x->dst_reg != BPF_REG_10)
					break;
				k = ctx_slot(x->off, nicprog_insn_bytes(x->code));
				/* a narrower store may still cover a slot */
				if (x->off < 0 && x->off >= -512)
					sl &= ~BIT_ULL((-x->off - 1) / 8);
				if (k >= 0 && cls == BPF_STX &&
				    BPF_MODE(x->code) == BPF_MEM && (r & s))
					sl |= BIT_ULL(k);
				break;
			case BPF_JMP:
			case BPF_JMP32:
				switch (BPF_OP(x->code)) {
				case BPF_EXIT:
					continue;
				case BPF_JA:
					ctx_join(in, i + 1 + x->off, len, r, sl,
						 &changed);
					continue;
				case BPF_CALL:
					if (x->src_reg == BPF_PSEUDO_CALL)
						ctx_join(in, i + 1 + x->imm, len,
							 r & 0x3e, 0, &changed);
					r &= ~0x3f;
					break;
				default:
					ctx_join(in, i + 1 + x->off, len, r, sl,
						 &changed);
					break;
				}
				break;
			}
			ctx_join(in, i + 1, len, r, sl, &changed);
		}
	}
	free(in);
}

/* "1024,1024,..." or "-3,0x10": a list of at most @max numbers. */
static int parse_list(const char *s, u64 *v, u32 max, u32 *n, bool sign,
		      const char *what, char *why, size_t why_len)
{
	const char *p = s;
	char *end;

	*n = 0;
	while (*p) {
		if (*n == max) {
			snprintf(why, why_len, "%s \"%s\": at most %u", what, s,
				 max);
			return -1;
		}
		errno = 0;
		v[*n] = sign && *p == '-' ? (u64)strtoll(p, &end, 0) :
					    strtoull(p, &end, 0);
		if (end == p || errno || (*end && *end != ',') ||
		    (!sign && *p == '-')) {
			snprintf(why, why_len, "%s \"%s\": not a list of numbers separated by commas",
				 what, s);
			return -1;
		}
		(*n)++;
		p = *end ? end + 1 : end;
	}
	if (!*n) {
		snprintf(why, why_len, "%s: empty", what);
		return -1;
	}
	return 0;
}

/* The windows' places, as the kernel lays them out; the frame's bytes. */
static u64 job_layout(const struct np_job *job, struct nicprog_job_frame *h)
{
	u64 off = sizeof(*h);
	u32 i;

	for (i = 0; i < job->n_bufs; i++) {
		off = (off + 7) & ~7ULL;
		h->bufs[i].off = off;
		h->bufs[i].len = job->len[i];
		off += job->len[i];
	}
	return off;
}

/**
 * np_job_parse() - the job from the command line
 * @bufs: the windows' lengths, "L,L,..."
 * @args: the scalars, "A,A,...", or NULL for zeros
 * @data: a file of the windows' bytes back to back, or NULL
 * @job: filled in (@job->data malloc'ed)
 * @why: the cause of a refusal
 * @why_len: bytes at @why
 *
 * Return: 0, or -1 with @why set.
 */
int np_job_parse(const char *bufs, const char *args, const char *data,
		 struct np_job *job, char *why, size_t why_len)
{
	struct nicprog_job_frame h = {};
	u64 total = 0;
	u32 n, i;
	FILE *f;
	long sz;

	memset(job, 0, sizeof(*job));
	if (parse_list(bufs, job->len, NICPROG_JOB_BUFS, &job->n_bufs, false,
		       "--bufs", why, why_len))
		return -1;
	if (args && parse_list(args, job->args, NICPROG_JOB_ARGS, &n, true,
			       "--args", why, why_len))
		return -1;
	for (i = 0; i < job->n_bufs; i++) {
		if (!job->len[i] || job->len[i] > NICPROG_JOB_FRAME_MAX) {
			snprintf(why, why_len, "window %u: %llu bytes; a window holds 1 to %u",
				 i, (unsigned long long)job->len[i],
				 NICPROG_JOB_FRAME_MAX);
			return -1;
		}
		total += job->len[i];
	}
	if (job_layout(job, &h) > NICPROG_JOB_FRAME_MAX) {
		snprintf(why, why_len, "the windows need a frame of %llu bytes; a job's frame holds %u",
			 (unsigned long long)job_layout(job, &h),
			 NICPROG_JOB_FRAME_MAX);
		return -1;
	}
	if (!data)
		return 0;
	f = fopen(data, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (sz = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		snprintf(why, why_len, "%s: %s", data, strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	if ((u64)sz != total) {
		snprintf(why, why_len, "%s holds %ld bytes; the windows take %llu",
			 data, sz, (unsigned long long)total);
		fclose(f);
		return -1;
	}
	job->data = malloc(total);
	if (!job->data || fread(job->data, 1, total, f) != total) {
		snprintf(why, why_len, "%s: %s", data,
			 job->data ? "short read" : "out of memory");
		fclose(f);
		return -1;
	}
	fclose(f);
	job->data_len = total;
	return 0;
}

static u64 splitmix(u64 *s)
{
	u64 z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Sample @s's frame into @frame (zeroed, @len bytes). */
static void job_frame(const struct np_job *job, u32 s, u8 *frame, u64 len)
{
	struct nicprog_job_frame h = { .job_id = s, .n_bufs = job->n_bufs };
	u64 seed = s + 1, i, at = 0, r;
	u32 b;

	job_layout(job, &h);
	memcpy(h.args, job->args, sizeof(h.args));
	memset(frame, 0, len);
	memcpy(frame, &h, sizeof(h));
	for (b = 0; b < job->n_bufs; b++) {
		if (job->data) {
			memcpy(frame + h.bufs[b].off, job->data + at,
			       job->len[b]);
			at += job->len[b];
			continue;
		}
		for (i = 0; i < job->len[b]; i += 8) {
			r = splitmix(&seed);
			memcpy(frame + h.bufs[b].off + i, &r,
			       job->len[b] - i < 8 ? job->len[b] - i : 8);
		}
	}
}

/* One profile's row: 0, or 1 when the NIC would not run the kernel. */
static int job_profile(const struct nicprog_exec_prog *exec,
		       const struct np_job *job,
		       const struct nicprog_lnic *lnic, u32 samples,
		       u8 *frame, u64 len, struct nicprog_exec_state *st)
{
	static const struct nicprog_exec_ops ops = {};
	u64 cyc, sum = 0, min = ~0ULL, max = 0, insns = 0, ret = 0;
	const struct nicprog_lnic_unit *core;
	struct nicprog_exec_result res;
	struct nicprog_exec_prog e;
	struct nicprog_exec_pkt pkt;
	double ns;
	u32 lat, s;

	out_open_object(NULL);
	out_string("profile", "%-16s", lnic->name);
	core = nicprog_lnic_job_core(lnic, &lat);
	if (!core) {
		out_string("refused", " %s\n", "has no cores to run kernels");
		out_close_object();
		return 1;
	}
	out_string("core", " %-6s", core->name);
	out_uint("clock_mhz", " %5llu", core->clock_mhz);
	out_uint("cores", " %5llu", core->count);
	if (core->insn_store && exec->len > core->insn_store) {
		out_uint("kernel_insns", "  does not fit: %llu instructions, ",
			 exec->len);
		out_uint("insn_store", "its cores hold %llu\n",
			 core->insn_store);
		out_string("refused", NULL, "the kernel does not fit");
		out_close_object();
		return 1;
	}
	e = *exec;
	memcpy(e.cost, core->cost, sizeof(e.cost));
	e.lat_pkt = lat;
	for (s = 0; s < samples; s++) {
		job_frame(job, s, frame, len);
		pkt = (struct nicprog_exec_pkt){
			.buf = frame, .buf_len = len, .data_end = len,
			.now_ns = NICPROG_EXEC_NIC_EPOCH_NS,
		};
		memset(&res, 0, sizeof(res));
		memset(st, 0, sizeof(*st));
		nicprog_exec_run(&e, &ops, NULL, st, &pkt, &res);
		if (res.error || !res.done) {
			out_text("  stopped at instruction %u: %s\n",
				 res.error_insn, strerror(-res.error));
			out_uint("stopped_insn", NULL, res.error_insn);
			out_string("refused", NULL, strerror(-res.error));
			out_close_object();
			return 1;
		}
		cyc = res.cycles;
		sum += cyc;
		min = cyc < min ? cyc : min;
		max = cyc > max ? cyc : max;
		insns += res.insns;
		if (!s)
			ret = res.ret & 0x7fffffff;
	}
	ns = (double)sum / samples * 1000.0 / (core->clock_mhz ?: 1);
	out_uint("insns", " %8llu", insns / samples);
	out_uint("cycles", " %9llu", sum / samples);
	if (samples > 1) {
		out_uint("cycles_min", " (%llu", min);
		out_uint("cycles_max", "..%llu)", max);
	}
	out_double("job_us", " %9.2f", ns / 1000);
	out_double("jobs_per_s_core", " %11.0f", 1e9 / ns);
	out_uint("returns", " %7llu\n", ret);
	out_close_object();
	return 0;
}

/**
 * np_job_exec() - the executor's program for a kernel
 * @insns: its instructions, subprograms after the program
 * @len: their number
 * @exec: out: the program (its flags malloc'ed)
 * @why: the cause of a refusal
 * @why_len: bytes at @why
 *
 * Return: 0, or -1 with @why set.
 */
int np_job_exec(const struct bpf_insn *insns, u32 len,
		struct nicprog_exec_prog *exec, char *why, size_t why_len)
{
	u8 *flags = malloc(len ?: 1);
	const char *bad;
	u32 at;

	if (!flags) {
		snprintf(why, why_len, "out of memory");
		return -1;
	}
	np_job_ctx_flags(insns, len, flags);
	*exec = (struct nicprog_exec_prog){
		.insns = insns, .flags = flags, .len = len,
	};
	if (nicprog_exec_check(exec, &at, &bad)) {
		snprintf(why, why_len, "insn %u: %s", at, bad);
		free(flags);
		return -1;
	}
	return 0;
}

/**
 * np_job_predict() - print a kernel's job time on NIC profiles
 * @exec: the kernel, from np_job_exec()
 * @job: the job
 * @only: the profile to price it on, or NULL for every shipped one
 * @samples: frames of seeded data to average over (1 with job data)
 * @obj: the object's path, for the words
 * @prog: the kernel's name
 *
 * Return: 0, or 1 when some NIC would not run the kernel (each said why).
 */
int np_job_predict(const struct nicprog_exec_prog *exec,
		   const struct np_job *job, const struct nicprog_lnic *only,
		   u32 samples, const char *obj, const char *prog)
{
	const struct nicprog_lnic *lnics[NP_JOB_PROFILES];
	struct nicprog_job_frame h = {};
	struct nicprog_exec_state *st;
	char names[512], *p, *next;
	u32 n = 0, i;
	int rc = 0;
	u64 len;
	u8 *frame;

	if (only) {
		lnics[n++] = only;
	} else {
		nicsim_profile_names(names, sizeof(names));
		for (p = names; p && *p && n < NP_JOB_PROFILES; p = next) {
			next = strstr(p, ", ");
			if (next) {
				*next = '\0';
				next += 2;
			}
			lnics[n] = nicsim_profile_find(p);
			n += !!lnics[n];
		}
	}
	len = job_layout(job, &h);
	frame = malloc(len);
	st = calloc(1, sizeof(*st));
	if (!frame || !st) {
		fprintf(stderr, "nicprog-plan: out of memory\n");
		free(frame);
		free(st);
		return 1;
	}
	out_open_object(NULL);
	out_string("object", "kernel %s", obj);
	out_string("program", " (%s): ", prog);
	out_uint("windows", "%llu windows (", job->n_bufs);
	out_open_array("window_bytes");
	for (i = 0; i < job->n_bufs; i++)
		out_uint(NULL, i ? ", %llu" : "%llu", job->len[i]);
	out_close_array();
	out_uint("frame_bytes", " bytes), a frame of %llu bytes, ", len);
	out_open_array("args");
	for (i = 0; i < NICPROG_JOB_ARGS; i++)
		out_uint(NULL, i ? ",%llu" : "args %llu", job->args[i]);
	out_close_array();
	out_string("data", "; data %s", job->data ? "given" : "seeded");
	out_uint("samples", ", samples %llu\n", samples);
	out_text("%-16s %-6s %5s %5s %8s %9s %9s %11s %7s\n", "profile",
		 "core", "MHz", "cores", "insns", "cycles", "job us",
		 "jobs/s/core", "returns");
	out_open_array("profiles");
	for (i = 0; i < n; i++)
		rc |= job_profile(exec, job, lnics[i], samples, frame, len, st);
	out_close_array();
	out_close_object();
	out_flush();
	free(frame);
	free(st);
	return rc;
}
