// SPDX-License-Identifier: GPL-2.0
/*
 * nicprog-plan - the offloader, offline: plan a BPF ELF object for a
 * nicsim profile without a kernel (the verifier's facts computed by
 * absint.c), or plan from the facts file the kernel recorded when a
 * program was offloaded (/sys/kernel/debug/nicprog/<ifname>/facts), for
 * another shape or core budget; or measure the planner against the
 * optimum.
 *
 *   nicprog-plan [--shape SHAPE] [--cores N] FACTS
 *   nicprog-plan [--profile P] [--sec S|--prog F] [--shape SHAPE] [--cores N] OBJ.o
 *   nicprog-plan --quality [--cores N] FACTS|OBJ.o
 *   nicprog-plan --blocks FACTS|OBJ.o
 *   nicprog-plan --programs OBJ.o       (name, section, xdp or other)
 *   nicprog-plan --facts FACTS|OBJ.o    (the facts, one line per insn)
 *   nicprog-plan [--profile P] --lnic   (the profile, as profile text)
 *   nicprog-plan [--profile P] [--shape S] [--cores N] --workload W
 *	[--samples N] [--entry MAP:KEYHEX:VALHEX ...] OBJ.o|FACTS
 *   nicprog-plan --workload W --pcap-out FILE
 *   nicprog-plan [--profile P] [--sec S|--prog F] --facts-out FILE OBJ.o
 *	(the facts file the kernel would record for OBJ.o on profile P)
 *   nicprog-plan [--profile P] [--sec S|--prog F] --bufs L,L,...
 *	[--args A,A,...] [--data FILE | --samples N] OBJ.o
 *	(a lookaside kernel's job time on P, or on every shipped profile:
 *	job.c)
 *
 * --quality prints, for every budget from 1 to N (16 by default), the
 * predicted throughput of the plan the offloader chooses (shape auto),
 * that of the best plan whose stages are runs of the program's DAG in
 * topological order (exhaustive search), and their ratio.
 *
 * --workload (a workload file, see workload.c, or a pcap file) predicts
 * the plan's performance on that traffic: the plan runs offline over the
 * frames (hostrun.c) from the initial table entries given, and a queueing
 * model of the NIC (model.c) turns the paths into throughput, latency,
 * utilisation and the bottleneck, overall and per packet class. From the
 * facts of a loaded program it predicts for the device that holds it
 * (tables by number: facts keep no names). --samples N (1 by default)
 * expands a workload description N times, from seeds NP_DRAW_STEP apart,
 * and predicts the samples' mean, printing their range: a description
 * leaves open which flows share a core, and under skew that moves the
 * busiest core's load by more than the model's own error.
 * --pcap-out writes a workload's frames, for a traffic source to send.
 *
 * --engine-share TYPE:N,... plans as dev-set's accel plan-share does: N
 * sixteenths of the accelerator type's calls as engine jobs, the rest as
 * the called function's BPF body on the cores. With --workload,
 * --engine-share auto chooses it: for each engine type the plan has, the
 * share that workload's prediction gives the most throughput (1% more
 * than with more engine jobs), and says what all on the engines gives;
 * --engine-share optimum plans with the best of every combination of the
 * types' shares and says what auto's choice gives against it.
 *
 * The program is chosen as ip link chooses it (tools/lib/nicprog/object.c):
 * --prog by function name, --sec by section, otherwise the first program in
 * an XDP section; a chosen program is planned as XDP whatever its section.
 * --cpus is the host's possible CPU count per-CPU maps are laid out for
 * (this machine's by default).
 *
 * --json (--pretty: indented) prints a plan or a prediction as one JSON
 * object with what the words say; --dot prints the plan's handler graph
 * for Graphviz (report.c). "nicprog plan" and "nicprog predict" run this.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bpf/libbpf.h>

#include "absint.h"
#include "compat.h"
#include "facts.h"
#include "hostrun.h"
#include "job.h"
#include "model.h"
#include "json.h"
#include "profiles.h"
#include "report.h"
#include "workload.h"

#define USAGE "usage: nicprog-plan [--profile P] [--sec S|--prog F] [--shape S] [--cores N] [--partial] [--engine-share TYPE:N,...] [--json|--pretty|--dot] FACTS|OBJ.o\n" \
	      "       nicprog-plan [--profile P] [--sec S|--prog F] [--cores N] [--quality|--blocks|--facts] FACTS|OBJ.o\n" \
	      "       nicprog-plan --programs OBJ.o\n" \
	      "       nicprog-plan [--profile P] --lnic\n" \
	      "       nicprog-plan [--profile P] [--shape S] [--cores N] [--partial] [--json|--pretty] [--exec interp|translated] [--engine-share auto|optimum|TYPE:N,...] --workload W [--samples N] [--entry MAP:KEYHEX:VALHEX ...] OBJ.o|FACTS\n" \
	      "       nicprog-plan --workload W --pcap-out FILE\n" \
	      "       nicprog-plan [--profile P] [--sec S|--prog F] --facts-out FILE OBJ.o\n" \
	      "       nicprog-plan [--profile P] [--sec S|--prog F] [--json|--pretty] --bufs L,L,... [--args A,A,...] [--data FILE | --samples N] OBJ.o\n"

static void *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, n = 0, got;
	char *buf = f ? malloc(cap) : NULL, *more;

	if (!buf) {
		fprintf(stderr, "nicprog-plan: %s: %s\n", path, strerror(errno));
		if (f)
			fclose(f);
		exit(1);
	}
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			cap *= 2;
			more = realloc(buf, cap);
			if (!more) {
				fprintf(stderr, "nicprog-plan: out of memory\n");
				free(buf);
				fclose(f);
				exit(1);
			}
			buf = more;
		}
	}
	fclose(f);
	*len = n;
	return buf;
}

/*
 * --profile: a shipped profile's name, or a profile text file (a path
 * with a '/' or ending in .lnic), whose errors name the line.
 */
static const struct nicprog_lnic *profile(const char *arg)
{
	static struct nicprog_lnic_text t;
	const struct nicprog_lnic *lnic = nicsim_profile_find(arg);
	size_t n = strlen(arg), len;
	char why[160];
	void *text;
	int err;

	if (lnic)
		return lnic;
	if (!strchr(arg, '/') && (n < 5 || strcmp(arg + n - 5, ".lnic"))) {
		fprintf(stderr, "nicprog-plan: unknown profile %s (%s; or a .lnic file)\n",
			arg, nicsim_profile_names(why, sizeof(why)));
		return NULL;
	}
	text = slurp(arg, &len);
	if (!text)
		return NULL;
	err = nicprog_lnic_parse(text, len, &t, why, sizeof(why));
	free(text);
	if (err) {
		fprintf(stderr, "nicprog-plan: %s: %s\n", arg, why);
		return NULL;
	}
	return &t.lnic;
}

struct offline {
	struct np_object obj;
	struct np_facts facts;
	u8 *flags;
	struct nicprog_exec_prog exec;
};

static void log_line(void *priv, const char *line)
{
	(void)priv;
	printf("[nicprog] %s", line);
}

static void list_program(void *arg, const char *name, const char *sec,
			 bool xdp)
{
	(void)arg;
	printf("%s %s %s\n", name, sec, xdp ? "xdp" : "other");
}

/* --programs: each program of the object, and whether it is taken as XDP */
static int list_programs(const char *path)
{
	char err[512];

	if (np_object_programs(path, list_program, NULL, err, sizeof(err)) < 0) {
		fprintf(stderr, "nicprog-plan: %s: %s\n", path, err);
		return 1;
	}
	return 0;
}

/*
 * The kernel's work at load time, offline: the facts (absint.c), then
 * what nicprog_finalize() does with them.
 */
static int load_object(const char *path, const struct np_object_opts *sel,
		       const struct nicprog_lnic *lnic, struct offline *ol,
		       struct nicprog_ir_input *in, bool verbose, bool partial)
{
	struct nicprog_lnic_summary sum;
	u64 bytes;
	char err[512];
	const char *why;
	u32 i, bad;

	if (np_object_read(path, sel, &ol->obj, err, sizeof(err)) ||
	    np_absint(&ol->obj, &ol->facts, err, sizeof(err))) {
		fprintf(stderr, "nicprog-plan: %s: %s\n", path, err);
		return -1;
	}
	nicprog_lnic_summarize(lnic, &sum);
	*in = (struct nicprog_ir_input){
		.insns = ol->facts.insns, .meta = ol->facts.meta,
		.len = ol->obj.len,
	};
	i = nicprog_host_call_insn(in);
	if (i != U32_MAX && !partial) {
		fprintf(stderr, "nicprog-plan: %s: insn %u: helper %s (%d) is not supported on the NIC (--partial lets the host run it and what follows it)\n",
			path, i, nicprog_exec_host_helper(in->insns[i].imm),
			in->insns[i].imm);
		return -1;
	}
	if (ol->obj.len > sum.insn_store && !partial) {
		fprintf(stderr, "nicprog-plan: %s: program has %u instructions; the NIC's cores hold at most %u (--partial lets the host run the rest)\n",
			path, ol->obj.len, sum.insn_store);
		return -1;
	}
	for (i = 0, bytes = 0; i < ol->facts.n_tables; i++)
		bytes += ol->facts.tables[i].bytes;
	if (bytes > sum.mem_bytes && !partial) {
		fprintf(stderr, "nicprog-plan: %s: its maps need %llu bytes of NIC memory, the NIC has %llu\n",
			path, (unsigned long long)bytes,
			(unsigned long long)sum.mem_bytes);
		return -1;
	}
	ol->flags = calloc(ol->obj.len, 1);
	if (!ol->flags)
		return -1;
	for (i = 0; i < ol->obj.len; i++)
		if (ol->facts.meta[i].ptr == NICPROG_PTR_CTX)
			ol->flags[i] = NICPROG_EXEC_INSN_CTX;
	ol->exec = (struct nicprog_exec_prog){
		.insns = ol->facts.insns, .flags = ol->flags,
		.len = ol->obj.len, .n_maps = ol->facts.n_tables,
	};
	if (nicprog_exec_check(&ol->exec, &bad, &why)) {
		fprintf(stderr, "nicprog-plan: %s: insn %u: %s\n", path, bad,
			why);
		return -1;
	}
	nicprog_calls_check_accel(ol->facts.insns, ol->facts.meta,
				  ol->obj.len, ol->obj.subs, ol->obj.n_subs,
				  verbose ? log_line : NULL, NULL);
	nicprog_calls_ident(&ol->exec, ol->facts.meta, ol->obj.subs,
			    ol->obj.n_subs, NULL, NULL,
			    verbose ? log_line : NULL, NULL);
	*in = (struct nicprog_ir_input){
		.insns = ol->facts.insns, .meta = ol->facts.meta,
		.len = ol->obj.len, .tables = ol->facts.tables,
		.n_tables = ol->facts.n_tables,
	};
	if (verbose)
		printf("object: %s, section %s, program %s, %u subprograms; facts: %llu insns processed, %llu states\n",
		       path, ol->obj.sec, ol->obj.name, ol->obj.n_subs,
		       (unsigned long long)ol->facts.processed,
		       (unsigned long long)ol->facts.states);
	return 0;
}

/* The facts, one line per instruction (visits apart: see absint.c). */
static void print_facts(const struct nicprog_ir_input *in)
{
	const struct nicprog_insn_meta *m;
	const struct bpf_insn *x;
	u32 i;

	for (i = 0; i < in->n_tables; i++)
		printf("table %u: type %u key %u value %u entries %u bytes %llu\n",
		       i, in->tables[i].type, in->tables[i].key_size,
		       in->tables[i].value_size, in->tables[i].max_entries,
		       (unsigned long long)in->tables[i].bytes);
	for (i = 0; i < in->len; i++) {
		m = &in->meta[i];
		x = &in->insns[i];
		printf("%u: %02x %u %u %d %d | ptr %u dst %#x src %#x map %u flags %#x mapval %#x stack %d key %d val %d args %#x afn %u ident %#x helper %d pkt %d-%d%s\n",
		       i, x->code, x->dst_reg, x->src_reg, x->off, x->imm,
		       m->ptr, m->dst_kinds, m->src_kinds, m->map, m->flags,
		       m->mapval_regs, m->stack_off, m->key_off, m->val_off,
		       m->stack_args, m->afn, m->ident, m->helper, m->pkt_lo,
		       m->pkt_hi, m->visits ? "" : " (never reached)");
	}
}

/*
 * --partial: what the NIC holds, as the kernel decides it: tables that do
 * not fit the memory left when they are created (here in table order)
 * stay in host memory.
 */
static void host_limits(const struct nicprog_ir_input *in,
			const struct nicprog_lnic *lnic,
			struct nicprog_host_limits *lim)
{
	struct nicprog_lnic_summary sum;
	u64 used = 0;
	u32 t;

	nicprog_lnic_summarize(lnic, &sum);
	lim->insn_store = sum.insn_store;
	lim->host_tables = 0;
	for (t = 0; t < in->n_tables; t++) {
		if (in->tables[t].bytes > sum.mem_bytes - used)
			lim->host_tables |= BIT_ULL(t);
		else
			used += in->tables[t].bytes;
	}
}

/* The IR, block by block: where the offloader's numbers come from. */
static void print_blocks(const struct nicprog_ir *ir)
{
	const struct nicprog_ir_block *b;
	u32 i;

	printf("block\tinsns\tsub\tnode\truns\ttrips\tlive_regs\tlive_slots\tflags\n");
	for (i = 0; i < ir->n_blocks; i++) {
		b = &ir->blocks[i];
		printf("%u\t%u-%u\t%u\t%d\t", i, b->start, b->end - 1, b->sub,
		       b->sub ? -1 : (int)b->node);
		np_print_fx(b->freq);
		printf("\t%u\t%#x\t%#llx\t%#x\n", b->trips, b->live_regs,
		       (unsigned long long)b->live_stack, b->flags);
	}
}

/* --workload: a workload file, or a pcap file, expanded into frames. */
static int workload_frames(const char *path, struct np_workload *w,
			   struct np_frames *fr, bool *is_pcap)
{
	char why[256];
	size_t len;
	char *text = slurp(path, &len);
	/* pcap in either byte order and precision, or pcapng */
	bool pcap = len >= 4 && (!memcmp(text, "\xd4\xc3\xb2\xa1", 4) ||
				 !memcmp(text, "\xa1\xb2\xc3\xd4", 4) ||
				 !memcmp(text, "\x4d\x3c\xb2\xa1", 4) ||
				 !memcmp(text, "\xa1\xb2\x3c\x4d", 4) ||
				 !memcmp(text, "\x0a\x0d\x0d\x0a", 4));
	int err;

	memset(w, 0, sizeof(*w));
	*is_pcap = pcap;
	if (pcap) {
		free(text);
		snprintf(w->name, sizeof(w->name), "pcap");
		err = np_pcap_read(path, fr, why, sizeof(why));
		w->frames = fr->n;
	} else {
		err = np_workload_parse(text, len, w, why, sizeof(why)) ||
		      np_wl_expand(w, fr, why, sizeof(why));
		free(text);
	}
	if (err)
		fprintf(stderr, "nicprog-plan: %s: %s\n", path, why);
	return err ? -1 : 0;
}

static int hexbytes(const char *s, size_t n, u8 *out, size_t want)
{
	size_t i;
	unsigned int b;

	if (n != 2 * want)
		return -1;
	for (i = 0; i < want; i++) {
		if (sscanf(s + 2 * i, "%2x", &b) != 1)
			return -1;
		out[i] = b;
	}
	return 0;
}

/*
 * --entry MAP:KEYHEX:VALHEX: MAP a table's name in the object, or its
 * number (the only way for facts, which keep no names). A number is the
 * kernel's (instruction order, as in the facts); a name goes through
 * @table_of (struct np_facts), as the object numbers its maps otherwise.
 */
static int parse_entry(const struct np_object *obj, const u8 *table_of,
		       const struct nicprog_ir_input *in, const char *arg,
		       struct np_entry *e)
{
	const char *k = strchr(arg, ':'), *v = k ? strchr(k + 1, ':') : NULL;
	const struct nicprog_ir_table *t;
	char *end;
	u32 m = U32_MAX;

	for (m = 0; obj && k && m < obj->n_maps; m++)
		if (strlen(obj->map_names[m]) == (size_t)(k - arg) &&
		    !strncmp(obj->map_names[m], arg, k - arg))
			break;
	if (obj && k && m < obj->n_maps) {
		if (table_of[m] == NICPROG_MAP_NONE) {
			fprintf(stderr, "nicprog-plan: --entry %s: the program never uses map %s\n",
				arg, obj->map_names[m]);
			return -1;
		}
		m = table_of[m];
	} else if (k) {
		m = strtoul(arg, &end, 10);
		if (end != k || end == arg)
			m = U32_MAX;
	}
	if (!v || m >= in->n_tables) {
		fprintf(stderr, "nicprog-plan: --entry %s: want MAP:KEYHEX:VALHEX with MAP a table of the %s\n",
			arg, obj ? "object (its name or number)" :
			"program (its number)");
		return -1;
	}
	t = &in->tables[m];
	e->map = m;
	e->key = malloc(t->key_size);
	e->val = malloc(t->value_size);
	if (!e->key || !e->val ||
	    hexbytes(k + 1, v - k - 1, e->key, t->key_size) ||
	    hexbytes(v + 1, strlen(v + 1), e->val, t->value_size)) {
		fprintf(stderr, "nicprog-plan: --entry %s: table %.*s has %u-byte keys and %u-byte values, in hex\n",
			arg, (int)(k - arg), arg, t->key_size, t->value_size);
		return -1;
	}
	return 0;
}

/*
 * A loaded program, from the facts the kernel recorded: its instructions
 * as verified (nicprog_facts_read() checked them as the executor does),
 * ready for the executor as load_object() prepares them.
 */
static int facts_exec(const struct nicprog_ir_input *in, struct offline *ol)
{
	u32 i;

	ol->flags = calloc(in->len ? in->len : 1, 1);
	if (!ol->flags)
		return -1;
	for (i = 0; i < in->len; i++)
		if (in->meta[i].ptr == NICPROG_PTR_CTX)
			ol->flags[i] = NICPROG_EXEC_INSN_CTX;
	ol->exec = (struct nicprog_exec_prog){
		.insns = in->insns, .flags = ol->flags, .len = in->len,
		.n_maps = in->n_tables,
	};
	return 0;
}

/*
 * The exit status of @pid, a child running the program in the executor,
 * which trusts that the verifier proved it safe; offline nothing did --
 * an object or a facts file is anyone's -- so a workload runs in a child,
 * as identification does: a program that would fault costs its
 * prediction, and says so.
 */
static int sandbox_wait(pid_t pid)
{
	int status;

	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		perror("nicprog-plan: running the workload");
		return 1;
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	fprintf(stderr, "nicprog-plan: the program faulted running the workload (signal %d); nothing verified it offline\n",
		WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	return 1;
}

/*
 * --bufs: a lookaside kernel's job priced on @only, or on every shipped
 * profile (job.c). A kernel is refused here as NICPROG_OP_KERNEL_LOAD
 * refuses it; the run is sandboxed as a workload's is, for nothing
 * verified the object offline.
 */
static int predict_job(const char *path, const struct np_object_opts *sel,
		       const struct nicprog_lnic *only, const char *bufs,
		       const char *args, const char *data, u32 samples,
		       enum out_mode out, bool other)
{
	struct nicprog_exec_prog exec = { 0 };
	struct nicprog_ir_input in;
	struct np_facts facts;
	struct np_object obj = { 0 };
	struct np_job job = { 0 };
	char why[512];
	int c, err;
	pid_t pid;
	u32 i;

	if (!path || !bufs || other) {
		fprintf(stderr, "usage: nicprog-plan [--profile P] [--sec S|--prog F] [--json|--pretty] --bufs L,L,... [--args A,A,...] [--data FILE | --samples N] OBJ.o\n");
		return 2;
	}
	if (data && samples > 1) {
		fprintf(stderr, "nicprog-plan: --samples draws seeded data; --data gives it: one or the other\n");
		return 2;
	}
	if (np_job_parse(bufs, args, data, &job, why, sizeof(why))) {
		fprintf(stderr, "nicprog-plan: %s\n", why);
		c = 2;
		goto out;
	}
	c = 1;
	if (np_object_read(path, sel, &obj, why, sizeof(why))) {
		fprintf(stderr, "nicprog-plan: %s: %s\n", path, why);
		goto out;
	}
	in = (struct nicprog_ir_input){ .insns = obj.insns, .len = obj.len };
	i = nicprog_host_call_insn(&in);
	if (i != U32_MAX) {
		fprintf(stderr, "nicprog-plan: %s: insn %u: helper %s (%d) is one only the host has: a kernel runs on the NIC alone\n",
			path, i, nicprog_exec_host_helper(in.insns[i].imm),
			in.insns[i].imm);
		goto out;
	}
	if (obj.n_maps) {
		fprintf(stderr, "nicprog-plan: %s: program %s uses %u maps: a kernel's state is its buffers\n",
			path, obj.name, obj.n_maps);
		goto out;
	}
	/*
	 * The walk refuses what the verifier would; where it gives up on
	 * complexity the verifier may not (it prunes finer), so the kernel
	 * is priced all the same, and that is said.
	 */
	err = np_absint(&obj, &facts, why, sizeof(why));
	if (err && err != -E2BIG) {
		fprintf(stderr, "nicprog-plan: %s: %s\n", path, why);
		goto out;
	}
	if (err)
		fprintf(stderr, "nicprog-plan: %s: not checked offline (%s); the kernel's verifier, which prunes finer, decides at load\n",
			path, why);
	else
		np_facts_free(&facts);
	if (np_job_exec(obj.insns, obj.len, &exec, why, sizeof(why))) {
		fprintf(stderr, "nicprog-plan: %s: %s\n", path, why);
		goto out;
	}
	out_init(out);
	fflush(stdout);
	pid = fork();
	if (!pid) {
		c = np_job_predict(&exec, &job, only, samples, path,
				   obj.name);
		fflush(stdout);
		_exit(c);
	}
	c = sandbox_wait(pid);
out:
	free((void *)exec.flags);
	np_object_free(&obj);
	free(job.data);
	return c;
}

/* --facts-out: the facts file of @in on @lnic, as the kernel writes it. */
static int write_facts(const char *path, const struct nicprog_ir_input *in,
		       const struct nicprog_lnic *lnic)
{
	size_t len = nicprog_facts_size(in, lnic);
	void *buf = calloc(1, len);
	FILE *f = fopen(path, "w");
	int err = !buf || !f;

	if (!err) {
		nicprog_facts_write(buf, in, lnic);
		err = fwrite(buf, 1, len, f) != len;
	}
	if (f && fclose(f))
		err = 1;
	if (err)
		fprintf(stderr, "nicprog-plan: %s: cannot write the facts\n",
			path);
	free(buf);
	return err;
}

/* --exec translated: the offline run's NIC in nicsim's translated form */
static bool exec_translated;

/* --engine-share: given (TYPE:N, or none: all on the engines), or chosen */
enum { SHARE_GIVEN, SHARE_AUTO, SHARE_OPTIMUM };

/* Seeds of a description's samples: sample k has the description's + k * this. */
#define NP_DRAW_STEP 7919
#define NP_MAX_SAMPLES 64	/* tools/nicprog/offline.c checks the same */

/*
 * --engine-share TYPE:N[,TYPE:N...]: N sixteenths of the type's calls as
 * engine jobs, as dev-set's accel plan-share; into @body16 (the rest, run
 * as bodies).
 */
static int parse_shares(const char *arg, u8 *body16)
{
	char name[16], *end;
	const char *p = arg;
	unsigned long n;
	size_t k;
	u32 t;

	while (*p) {
		k = strcspn(p, ":");
		if (!p[k] || k >= sizeof(name))
			goto bad;
		memcpy(name, p, k);
		name[k] = 0;
		for (t = NICPROG_ACCEL_NONE + 1; t < __NICPROG_ACCEL_MAX; t++)
			if (!strcmp(name, nicprog_accel_type_name(t)))
				break;
		if (t == __NICPROG_ACCEL_MAX) {
			fprintf(stderr, "nicprog-plan: --engine-share: unknown accelerator type %s\n",
				name);
			return 2;
		}
		n = strtoul(p + k + 1, &end, 10);
		if (end == p + k + 1 || (*end && *end != ',') ||
		    n > NICPROG_SHARE_ALL)
			goto bad;
		body16[t] = NICPROG_SHARE_ALL - n;
		p = *end ? end + 1 : end;
	}
	return 0;
bad:
	fprintf(stderr, "nicprog-plan: --engine-share takes auto, optimum or TYPE:N[,TYPE:N...], N sixteenths on the engines, 0 to %u\n",
		NICPROG_SHARE_ALL);
	return 2;
}

/* Offline runs at most to find the rate a clock-reading program runs at. */
#define NP_CLOCK_ROUNDS 4

/*
 * One offline run and the model over it, with the spread over bank
 * interleavings if @spread; frees @hr on failure.
 */
static int predict_once(const struct np_hostrun_in *hi,
			const struct nicprog_lnic *lnic,
			const struct nicprog_layout *lo,
			const struct np_workload *w,
			const struct np_frames *fr, bool spread,
			struct np_hostrun *hr, struct np_prediction *pred)
{
	char why[256];

	if (np_hostrun(hi, fr, hr, why, sizeof(why))) {
		fprintf(stderr, "nicprog-plan: offline run: %s\n", why);
		return 1;
	}
	if (hr->engine_diff) {
		fprintf(stderr, "nicprog-plan: offline run: %u frames came out differently with engines than with the BPF bodies; an engine function is wrong\n",
			hr->engine_diff);
		np_hostrun_free(hr);
		return 1;
	}
	if (np_predict(lnic, lo, hr, w->rate_kpps, spread, pred)) {
		fprintf(stderr, "nicprog-plan: no memory\n");
		np_hostrun_free(hr);
		return 1;
	}
	return 0;
}

/*
 * One sample: the plan run offline over its frames, then the model. The
 * caller frees @hr.
 *
 * A program that reads the clock, on a workload that offers no rate:
 * its frames come as fast as the NIC takes them, so the NIC's clock
 * moves by the throughput (nicsim: a frame taken from the backlog reads
 * the clock the timing model has reached). Run at a frame a microsecond
 * first, then again with the clock at the rate predicted, until the
 * rate settles (within 1%) or NP_CLOCK_ROUNDS runs: syn_guard's SYN
 * window on set 2's dns.wl, nicsim-nfp, dropped 4 frames a microsecond
 * apart and 1,139 of 20,000 on the NIC.
 */
static int predict_sample(const struct np_hostrun_in *hi,
			  const struct nicprog_lnic *lnic,
			  const struct nicprog_layout *lo,
			  const struct np_workload *w,
			  const struct np_frames *fr, bool spread,
			  struct np_hostrun *hr, struct np_prediction *pred)
{
	double mhz = lnic->units[lo->core_unit].clock_mhz, rate;
	struct np_hostrun_in at = *hi;
	int k;

	if (predict_once(hi, lnic, lo, w, fr, spread, hr, pred))
		return 1;
	for (k = 1; k < NP_CLOCK_ROUNDS && hr->reads_clock && !hi->rate; k++) {
		rate = pred->tput * mhz;	/* frames per second */
		if (rate < 1 || (at.rate && fabs(rate - at.rate) < 0.01 * at.rate))
			break;
		at.rate = (u64)rate;
		np_hostrun_free(hr);
		if (predict_once(&at, lnic, lo, w, fr, spread, hr, pred))
			return 1;
	}
	return 0;
}

/* The first sample's throughput with @body16's shares, @lo repriced so. */
static int share_tput(const struct np_hostrun_in *hi,
		      const struct nicprog_ir *ir,
		      const struct nicprog_lnic *lnic,
		      struct nicprog_layout *lo, const struct np_workload *w,
		      const struct np_frames *fr, const u8 *body16,
		      double *tput)
{
	struct np_prediction pred;
	struct np_hostrun hr;

	if (nicprog_layout_share(ir, lnic, body16, lo) ||
	    predict_sample(hi, lnic, lo, w, fr, false, &hr, &pred))
		return 1;
	np_hostrun_free(&hr);
	*tput = pred.tput;
	return 0;
}

/*
 * --engine-share auto: for each accelerator type the plan has engines of,
 * in turn, the share of its calls on the engines (0 to 16 sixteenths)
 * that this workload's first sample predicts the most throughput for,
 * the types before it kept at their choice; a share with fewer engine
 * jobs must predict 1% more to be chosen. Leaves @lo repriced for the
 * choice, @body16 the choice, @all the throughput with every call on the
 * engines and @chosen the choice's.
 */
static int choose_shares(const struct np_hostrun_in *hi,
			 const struct nicprog_ir *ir,
			 const struct nicprog_lnic *lnic,
			 struct nicprog_layout *lo, const struct np_workload *w,
			 const struct np_frames *fr, u8 *body16, double *all,
			 double *chosen)
{
	double top, tput;
	u32 t, sh;
	u8 best;

	memset(body16, 0, __NICPROG_ACCEL_MAX);
	if (share_tput(hi, ir, lnic, lo, w, fr, body16, all))
		return 1;
	/* the throughput of body16 as chosen so far */
	top = *all;
	for (t = NICPROG_ACCEL_NONE + 1; t < __NICPROG_ACCEL_MAX; t++) {
		if (!lo->accel_count[t])
			continue;
		best = 0;
		for (sh = 1; sh <= NICPROG_SHARE_ALL; sh++) {
			body16[t] = sh;
			if (share_tput(hi, ir, lnic, lo, w, fr, body16, &tput))
				return 1;
			/* 1% more, or the sample's noise decides */
			if (tput > top * 1.01) {
				top = tput;
				best = sh;
			}
		}
		body16[t] = best;
		if (nicprog_layout_share(ir, lnic, body16, lo))
			return 1;
	}
	*chosen = top;
	return 0;
}

/* "csum 3/16, hash 16/16": the engine sixteenths of @body16's types. */
static void shares_text(const struct nicprog_layout *lo, const u8 *body16,
			char *buf, size_t n)
{
	size_t at = 0;
	u32 t;

	buf[0] = 0;
	for (t = NICPROG_ACCEL_NONE + 1; t < __NICPROG_ACCEL_MAX; t++)
		if (lo->accel_count[t] && at < n)
			at += snprintf(buf + at, n - at, "%s%s %u/16",
				       at ? ", " : "",
				       nicprog_accel_type_name(t),
				       NICPROG_SHARE_ALL - body16[t]);
}

/*
 * --engine-share optimum: every combination of the shares of the types
 * the plan has engines of (17^k predictions of the first sample), the
 * best into @body16 and @top, @lo repriced for it: what auto's greedy
 * choice, a type at a time, is judged against.
 */
static int optimum_shares(const struct np_hostrun_in *hi,
			  const struct nicprog_ir *ir,
			  const struct nicprog_lnic *lnic,
			  struct nicprog_layout *lo,
			  const struct np_workload *w,
			  const struct np_frames *fr, u8 *body16, double *top,
			  u32 *tried)
{
	u8 at[__NICPROG_ACCEL_MAX] = { 0 }, types[__NICPROG_ACCEL_MAX];
	u32 t, n = 0, i;
	double tput;

	for (t = NICPROG_ACCEL_NONE + 1; t < __NICPROG_ACCEL_MAX; t++)
		if (lo->accel_count[t])
			types[n++] = t;
	*top = -1;
	*tried = 0;
	for (;;) {
		if (share_tput(hi, ir, lnic, lo, w, fr, at, &tput))
			return 1;
		++*tried;
		if (tput > *top) {
			*top = tput;
			memcpy(body16, at, __NICPROG_ACCEL_MAX);
		}
		/* the next combination, the first type counting fastest */
		for (i = 0; i < n; i++) {
			if (++at[types[i]] <= NICPROG_SHARE_ALL)
				break;
			at[types[i]] = 0;
		}
		if (i == n)
			break;
	}
	return nicprog_layout_share(ir, lnic, body16, lo);
}

/*
 * The prediction over @samples samples of the description @w (the first
 * one @fr, the rest expanded here from seeds NP_DRAW_STEP apart): the
 * throughput and latency their mean, the rest the first sample's.
 */
/*
 * Samples 2 to @samples of the description, each drawn anew: their class
 * counts and walks added to @hr, their figures to @pred's (the first
 * sample's on entry, the mean on return) and to @d's range.
 */
static int more_samples(struct np_hostrun_in *hi,
			const struct nicprog_lnic *lnic,
			struct nicprog_layout *lo, const struct np_workload *w,
			u32 samples, struct np_hostrun *hr,
			struct np_prediction *pred, struct np_draws *d)
{
	struct np_prediction other;
	double tput, mpps, lat;
	struct np_hostrun ohr;
	struct np_workload ow;
	struct np_frames ofr;
	char why[256];
	u32 i, k, n;

	tput = pred->tput;
	mpps = pred->mpps;
	lat = pred->lat;
	d->tput_min = d->tput_max = pred->tput;
	d->lat_min = d->lat_max = pred->lat;
	for (k = 1; k < samples; k++) {
		ow = *w;
		ow.seed = w->seed + k * NP_DRAW_STEP;
		if (np_wl_expand(&ow, &ofr, why, sizeof(why))) {
			fprintf(stderr, "nicprog-plan: sample %u: %s\n", k + 1,
				why);
			return 1;
		}
		i = predict_sample(hi, lnic, lo, &ow, &ofr, false, &ohr,
				   &other);
		np_frames_free(&ofr);
		if (i)
			return 1;
		for (n = 0; n <= NICPROG_PKT_CLASSES; n++)
			hr->pkt_class_frames[n] += ohr.pkt_class_frames[n];
		hr->walk_checked += ohr.walk_checked;
		if (!hr->walk_escaped && ohr.walk_escaped) {
			hr->walk_frame = ohr.walk_frame;
			hr->walk_class = ohr.walk_class;
			hr->walk_block = ohr.walk_block;
		}
		hr->walk_escaped += ohr.walk_escaped;
		np_hostrun_free(&ohr);
		tput += other.tput;
		mpps += other.mpps;
		lat += other.lat;
		d->tput_min = fmin(d->tput_min, other.tput);
		d->tput_max = fmax(d->tput_max, other.tput);
		d->lat_min = fmin(d->lat_min, other.lat);
		d->lat_max = fmax(d->lat_max, other.lat);
	}
	pred->tput = tput / samples;
	pred->mpps = mpps / samples;
	pred->lat = lat / samples;
	return 0;
}

static int predict_workload(const struct np_object *obj,
			    const struct nicprog_ir *ir,
			    const u8 *table_of,
			    const struct nicprog_ir_input *in,
			    const struct nicprog_exec_prog *exec,
			    const struct nicprog_lnic *lnic,
			    struct nicprog_layout *lo,
			    const struct np_workload *w,
			    const struct np_frames *fr, char **entries,
			    u32 n_entries, u32 samples, int share_mode)
{
	struct np_class_bracket cb[__NP_WL_CLASS_MAX];
	struct np_entry ent[NP_MAX_ENTRIES];
	struct np_draws d = { .n = samples, .step = NP_DRAW_STEP };
	struct np_prediction pred;
	struct np_hostrun hr;
	struct np_hostrun_in hi = {
		.in = in, .exec = exec, .lnic = lnic, .lo = lo,
		.entries = ent, .n_entries = n_entries, .ifindex = 1,
		.rate = w->rate_kpps * 1000, .translated = exec_translated,
	};
	u8 *walk[NICPROG_PKT_CLASSES] = { NULL };
	u8 auto16[__NICPROG_ACCEL_MAX], opt16[__NICPROG_ACCEL_MAX];
	char text[128];
	double all = 0, chosen = 0, top = 0;
	u32 tried = 0;
	u32 i, k, n;
	int err = 1;

	for (i = 0; i < n_entries; i++)
		if (parse_entry(obj, table_of, in, entries[i], &ent[i]))
			return 1;
	for (i = 0; obj && i < obj->n_maps; i++)
		if (table_of[i] != NICPROG_MAP_NONE &&
		    np_map_host_target(obj->map_defs[i].type))
			hi.host_tables |= 1ULL << table_of[i];
	/* the kernel's class walks, checked on the frames' runs */
	hi.ir = ir;
	for (k = 0; k < NICPROG_PKT_CLASSES; k++) {
		walk[k] = malloc(ir->n_blocks ?: 1);
		if (!walk[k] || nicprog_class_live(ir, k, walk[k], &n)) {
			fprintf(stderr, "nicprog-plan: no memory for the class walks\n");
			goto out;
		}
		hi.walk[k] = walk[k];
	}
	if (share_mode != SHARE_GIVEN &&
	    (choose_shares(&hi, ir, lnic, lo, w, fr, auto16, &all, &chosen) ||
	     (share_mode == SHARE_OPTIMUM &&
	      optimum_shares(&hi, ir, lnic, lo, w, fr, opt16, &top,
			     &tried)))) {
		fprintf(stderr, "nicprog-plan: --engine-share %s: no prediction\n",
			share_mode == SHARE_AUTO ? "auto" : "optimum");
		goto out;
	}
	/* the spread is the first sample's, as the rest of the report */
	if (predict_sample(&hi, lnic, lo, w, fr, true, &hr, &pred))
		goto out;
	if (more_samples(&hi, lnic, lo, w, samples, &hr, &pred, &d))
		goto out_hr;
	/* per class, from the object (a facts file has no program to walk) */
	if (obj && np_class_brackets(obj, ir, lnic, lo, fr, cb)) {
		fprintf(stderr, "nicprog-plan: no memory for the class brackets\n");
		goto out_hr;
	}
	out_open_object(NULL);
	if (obj)
		out_string("program", NULL, obj->name);
	out_string("profile", NULL, lnic->name);
	np_report_prediction(&(struct np_report_in){
		.w = w, .lnic = lnic, .lo = lo, .hr = &hr, .p = &pred, .d = &d,
		.cb = obj ? cb : NULL,
	});
	if (share_mode != SHARE_GIVEN)
		out_double("all_engines_tput",
			   "engine share auto: with every call an engine job, %.1f frames per million cycles\n",
			   all);
	if (share_mode == SHARE_OPTIMUM)
		shares_text(lo, opt16, text, sizeof(text));
	if (share_mode == SHARE_OPTIMUM && text[0]) {
		out_uint("share_combinations",
			 "engine share optimum: the best of %llu combinations",
			 tried);
		out_string("optimum_share", ", %s", text);
		out_double("optimum_share_tput",
			   ", %.1f frames per million cycles", top);
		shares_text(lo, auto16, text, sizeof(text));
		out_string("auto_share", "; auto chooses %s", text);
		out_double("auto_share_tput", ", %.1f frames per million cycles",
			   chosen);
		out_double("auto_share_quality", ", %.3f of the optimum\n",
			   top > 0 ? chosen / top : 0);
	}
	out_close_object();
	err = 0;
out_hr:
	np_hostrun_free(&hr);
out:
	for (k = 0; k < NICPROG_PKT_CLASSES; k++)
		free(walk[k]);
	for (i = 0; i < n_entries; i++) {
		free(ent[i].key);
		free(ent[i].val);
	}
	return err;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * What main() allocates, freed at exit whichever way it returns, so that
 * LeakSanitizer reports only real leaks (the ASan build, plan_test.sh).
 */
static struct {
	struct offline *ol;
	struct nicprog_layout *lo, *opt;
	struct nicprog_ir *ir;
	struct np_frames *fr;
	void **buf;
} plan_mem;

static void plan_mem_free(void)
{
	np_object_free(&plan_mem.ol->obj);
	np_facts_free(&plan_mem.ol->facts);
	free(plan_mem.ol->flags);
	plan_mem.ol->flags = NULL;
	nicprog_layout_free(plan_mem.lo);
	nicprog_layout_free(plan_mem.opt);
	nicprog_ir_free(plan_mem.ir);
	np_frames_free(plan_mem.fr);
	free(*plan_mem.buf);
	*plan_mem.buf = NULL;
}

/* The command line, as parse_opt() reads it. */
struct plan_args {
	const struct nicprog_lnic *lnic;
	bool profile_given;
	struct np_object_opts sel;
	unsigned int shape, cores;
	int quality, blocks, facts, show_lnic, partial, programs, dot;
	enum out_mode out;
	const char *wl_path, *pcap_out, *facts_out;
	const char *job_bufs, *job_args, *job_data;
	char *entries[NP_MAX_ENTRIES];
	u32 n_entries, samples;
	int share_mode;
	u8 body16[__NICPROG_ACCEL_MAX];
};

/* One option into @a: 0, or 2 (said) for a bad one. */
static int parse_opt(int c, char *arg, struct plan_args *a)
{
	char *end;

	switch (c) {
	case 's':
		for (a->shape = 0; a->shape < __NICPROG_SHAPE_MAX; a->shape++)
			if (!strcmp(arg, nicprog_shape_name(a->shape)))
				break;
		if (a->shape == __NICPROG_SHAPE_MAX) {
			fprintf(stderr, "nicprog-plan: unknown shape %s\n", arg);
			return 2;
		}
		break;
	case 'c':
		a->cores = strtoul(arg, NULL, 0);
		if (!a->cores || a->cores > NICPROG_MAX_STAGES) {
			fprintf(stderr, "nicprog-plan: --cores takes 1 to %u\n",
				NICPROG_MAX_STAGES);
			return 2;
		}
		break;
	case 'q': a->quality = 1; break;
	case 'b': a->blocks = 1; break;
	case 'f': a->facts = 1; break;
	case 'p':
		a->lnic = profile(arg);
		if (!a->lnic)
			return 2;
		a->profile_given = true;
		break;
	case 'S': a->sel.sec = arg; break;
	case 'g': a->sel.prog = arg; break;
	case 'C':
		a->sel.cpus = strtoul(arg, NULL, 0);
		if (!a->sel.cpus || a->sel.cpus > 8192) {
			fprintf(stderr, "nicprog-plan: --cpus takes 1 to 8192\n");
			return 2;
		}
		break;
	case 'l': a->show_lnic = 1; break;
	case 'w': a->wl_path = arg; break;
	case 'e':
		if (a->n_entries == NP_MAX_ENTRIES) {
			fprintf(stderr, "nicprog-plan: at most %u --entry\n",
				NP_MAX_ENTRIES);
			return 2;
		}
		a->entries[a->n_entries++] = arg;
		break;
	case 'o': a->pcap_out = arg; break;
	case 'P': a->partial = 1; break;
	case 'j':
		if (a->out == OUT_TEXT)
			a->out = OUT_JSON;
		break;
	case 'J': a->out = OUT_PRETTY; break;
	case 'd': a->dot = 1; break;
	case 'F': a->facts_out = arg; break;
	case 'x':
		if (strcmp(arg, "interp") && strcmp(arg, "translated")) {
			fprintf(stderr, "nicprog-plan: --exec is interp or translated\n");
			return 2;
		}
		exec_translated = !strcmp(arg, "translated");
		break;
	case 'n':
		a->samples = strtoul(arg, &end, 10);
		if (*end || !a->samples || a->samples > NP_MAX_SAMPLES) {
			fprintf(stderr, "nicprog-plan: --samples takes 1 to %u\n",
				NP_MAX_SAMPLES);
			return 2;
		}
		break;
	case 'B': a->job_bufs = arg; break;
	case 'A': a->job_args = arg; break;
	case 'D': a->job_data = arg; break;
	case 'E':
		if (!strcmp(arg, "auto"))
			a->share_mode = SHARE_AUTO;
		else if (!strcmp(arg, "optimum"))
			a->share_mode = SHARE_OPTIMUM;
		else if (parse_shares(arg, a->body16))
			return 2;
		break;
	case 'R': a->programs = 1; break;
	default:
		fprintf(stderr, USAGE);
		return 2;
	}
	return 0;
}

/* --quality: the chosen plan against the runs-only optimum per budget. */
static int quality_table(const struct nicprog_ir *ir,
			 const struct nicprog_lnic *lnic, unsigned int cores,
			 struct nicprog_layout *lo, struct nicprog_layout *opt)
{
	double worst = 1e9;
	const char *why;
	unsigned int b;

	printf("cores\tchosen\toptimum\tratio\tshape\n");
	for (b = 1; b <= (cores ? cores : NICPROG_MAX_STAGES); b++) {
		if (nicprog_layout_build(ir, lnic, NICPROG_SHAPE_AUTO, b,
					 NULL, lo, &why) ||
		    nicprog_layout_optimum(ir, lnic, b, opt, &why)) {
			fprintf(stderr, "nicprog-plan: %s\n", why);
			return 1;
		}
		printf("%u\t%llu\t%llu\t%.3f\t%s\n", b,
		       (unsigned long long)lo->tput,
		       (unsigned long long)opt->tput,
		       (double)lo->tput / opt->tput, nicprog_layout_shape(lo));
		if ((double)lo->tput / opt->tput < worst)
			worst = (double)lo->tput / opt->tput;
		nicprog_layout_free(lo);
		nicprog_layout_free(opt);
	}
	printf("worst ratio %.3f\n", worst);
	return 0;
}

/* The plan in words (or JSON), with what it took to make. */
static void report_plan(const struct plan_args *a, const char *path,
			bool elf, const struct offline *ol,
			const struct nicprog_ir_input *in,
			const struct nicprog_ir *ir,
			const struct nicprog_lnic *lnic,
			const struct nicprog_layout *lo,
			const struct nicprog_host_limits *lim, double t_ir)
{
	u64 visits = 0;
	u32 i;

	if (a->dot) {
		np_report_dot(path, ir, lnic, lo);
		return;
	}
	out_open_object(NULL);
	/* in words, load_object() said it */
	if (elf) {
		out_string("section", NULL, ol->obj.sec);
		out_string("program", NULL, ol->obj.name);
	}
	out_string("profile", NULL, lnic->name);
	np_report_plan(ir, lnic, lo, a->partial ? lim : NULL);
	for (i = 0; i < in->len; i++)
		visits += in->meta[i].visits;
	/* the kernel's walk or absint.c's: they prune differently */
	out_uint("visits",
		 "visits: %llu instructions reached by the verifier's walk\n",
		 visits);
	out_double("ir_us", "offloader time: ir %.0f us\n", t_ir * 1e6);
	out_close_object();
}

/*
 * Plan @ir as the kernel would (its default budget: every core), then
 * report the plan or, with a workload, predict it in a sandboxed child.
 */
static int plan(struct plan_args *a, const char *path, bool elf,
		struct offline *ol, struct nicprog_ir_input *in,
		const struct nicprog_ir *ir, const struct nicprog_lnic *lnic,
		struct nicprog_layout *lo, struct np_workload *wl,
		struct np_frames *fr, double t_ir)
{
	struct nicprog_lnic_summary sum;
	struct nicprog_host_limits lim;
	const char *why;
	pid_t pid;
	int c;

	nicprog_lnic_summarize(lnic, &sum);
	host_limits(in, lnic, &lim);
	if (nicprog_layout_build(ir, lnic, a->shape,
				 a->cores ? a->cores :
				 min_t(u32, sum.cores, NICPROG_MAX_STAGES),
				 a->partial ? &lim : NULL, lo, &why)) {
		fprintf(stderr, "nicprog-plan: %s\n", why);
		return 1;
	}
	if (nicprog_layout_share(ir, lnic, a->body16, lo)) {
		fprintf(stderr, "nicprog-plan: no memory\n");
		return 1;
	}
	if (a->share_mode != SHARE_GIVEN && !a->wl_path) {
		fprintf(stderr, "nicprog-plan: --engine-share %s chooses for a workload: give one with --workload\n",
			a->share_mode == SHARE_AUTO ? "auto" : "optimum");
		return 2;
	}
	if (!a->wl_path) {
		report_plan(a, path, elf, ol, in, ir, lnic, lo, &lim, t_ir);
		return 0;
	}
	if (!elf && facts_exec(in, ol))
		return 1;
	fflush(stdout);
	pid = fork();
	if (!pid) {
		c = predict_workload(elf ? &ol->obj : NULL, ir,
				     ol->facts.table_of, in, &ol->exec, lnic, lo,
				     wl, fr, a->entries, a->n_entries,
				     a->samples, a->share_mode);
		fflush(stdout);
		_exit(c);
	}
	c = sandbox_wait(pid);
	np_frames_free(fr);
	nicprog_layout_free(lo);
	return c;
}

/* The modes that need no object's plan: 0 when none of them applies. */
static int other_mode(struct plan_args *a, int argc, char **argv,
		      struct np_workload *wl, struct np_frames *fr, int *rc)
{
	char lwhy[128] = "";
	bool wl_pcap = false;
	size_t len;
	char *text;

	*rc = 0;
	if (a->programs) {
		if (argc - optind != 1) {
			fprintf(stderr, USAGE);
			*rc = 2;
		} else {
			*rc = list_programs(argv[optind]);
		}
		return 1;
	}
	if (a->job_bufs || a->job_args || a->job_data) {
		*rc = predict_job(argc - optind == 1 ? argv[optind] : NULL,
				  &a->sel, a->profile_given ? a->lnic : NULL,
				  a->job_bufs, a->job_args, a->job_data,
				  a->samples, a->out, !!a->wl_path ||
				  a->quality || a->blocks || a->facts ||
				  a->dot || a->show_lnic || a->facts_out ||
				  a->pcap_out || a->n_entries || a->cores ||
				  a->partial);
		return 1;
	}
	if (a->show_lnic && optind == argc) {
		len = nicprog_lnic_format(a->lnic, NULL, 0);
		text = malloc(len + 1);
		if (!text) {
			*rc = 1;
			return 1;
		}
		nicprog_lnic_format(a->lnic, text, len + 1);
		fputs(text, stdout);
		free(text);
		return 1;
	}
	if (a->wl_path && workload_frames(a->wl_path, wl, fr, &wl_pcap)) {
		*rc = 1;
		return 1;
	}
	if (a->samples > 1 && (!a->wl_path || wl_pcap)) {
		fprintf(stderr, "nicprog-plan: --samples draws a workload description anew; %s\n",
			!a->wl_path ? "give one with --workload" :
			"a pcap file is one sample already");
		*rc = 2;
		return 1;
	}
	if (a->pcap_out && a->wl_path && optind == argc) {
		if (np_pcap_write(a->pcap_out, fr, lwhy, sizeof(lwhy))) {
			fprintf(stderr, "nicprog-plan: %s\n", lwhy);
			*rc = 1;
		}
		return 1;
	}
	return 0;
}

static const struct option plan_opts[] = {
	{ "shape", required_argument, NULL, 's' },
	{ "cores", required_argument, NULL, 'c' },
	{ "quality", no_argument, NULL, 'q' },
	{ "blocks", no_argument, NULL, 'b' },
	{ "facts", no_argument, NULL, 'f' },
	{ "profile", required_argument, NULL, 'p' },
	{ "sec", required_argument, NULL, 'S' },
	{ "prog", required_argument, NULL, 'g' },
	{ "cpus", required_argument, NULL, 'C' },
	{ "lnic", no_argument, NULL, 'l' },
	{ "workload", required_argument, NULL, 'w' },
	{ "entry", required_argument, NULL, 'e' },
	{ "pcap-out", required_argument, NULL, 'o' },
	{ "partial", no_argument, NULL, 'P' },
	{ "json", no_argument, NULL, 'j' },
	{ "pretty", no_argument, NULL, 'J' },
	{ "dot", no_argument, NULL, 'd' },
	{ "facts-out", required_argument, NULL, 'F' },
	{ "exec", required_argument, NULL, 'x' },
	{ "samples", required_argument, NULL, 'n' },
	{ "bufs", required_argument, NULL, 'B' },
	{ "args", required_argument, NULL, 'A' },
	{ "data", required_argument, NULL, 'D' },
	{ "engine-share", required_argument, NULL, 'E' },
	{ "programs", no_argument, NULL, 'R' },
	{ NULL, 0, NULL, 0 },
};

int main(int argc, char **argv)
{
	static struct plan_args a = {
		.shape = NICPROG_SHAPE_AUTO, .out = OUT_TEXT, .samples = 1,
		.share_mode = SHARE_GIVEN,
	};
	const struct nicprog_lnic *lnic;
	struct np_workload wl;
	static struct np_frames fr;
	static struct offline ol;
	struct nicprog_ir_input in;
	static struct nicprog_layout lo, opt;
	struct nicprog_facts f;
	static struct nicprog_ir ir;
	static void *buf;
	char lwhy[128] = "";
	double t0, t_ir;
	const char *why;
	int c, rc;
	size_t len;
	bool elf;
	u32 i;

	plan_mem.ol = &ol;
	plan_mem.lo = &lo;
	plan_mem.opt = &opt;
	plan_mem.ir = &ir;
	plan_mem.fr = &fr;
	plan_mem.buf = &buf;
	atexit(plan_mem_free);
	if (nicsim_profiles_init(lwhy, sizeof(lwhy))) {
		fprintf(stderr, "nicprog-plan: %s\n", lwhy);
		return 1;
	}
	a.lnic = nicsim_profile_find(NULL);
	a.sel.cpus = libbpf_num_possible_cpus();
	while ((c = getopt_long(argc, argv, "s:c:qbfp:S:g:C:lw:e:o:PjJdF:x:n:B:A:D:E:R", plan_opts,
				NULL)) != -1)
		if (parse_opt(c, optarg, &a))
			return 2;
	if (other_mode(&a, argc, argv, &wl, &fr, &rc))
		return rc;
	out_init(a.out);
	if (a.show_lnic || optind + 1 != argc || (a.pcap_out && !a.wl_path) ||
	    (a.n_entries && !a.wl_path) ||
	    (a.dot && (a.wl_path || a.out != OUT_TEXT)) ||
	    (a.out != OUT_TEXT && (a.quality || a.blocks || a.facts))) {
		fprintf(stderr, USAGE);
		return 2;
	}
	lnic = a.lnic;
	buf = slurp(argv[optind], &len);
	elf = len >= 4 && !memcmp(buf, "\177ELF", 4);
	if (elf) {
		if (load_object(argv[optind], &a.sel, lnic, &ol, &in,
				!a.facts && !a.blocks && !a.dot &&
				!a.facts_out && a.out == OUT_TEXT,
				a.partial))
			return 1;
	} else if (nicprog_facts_read(buf, len, &f, lwhy, sizeof(lwhy))) {
		fprintf(stderr, "nicprog-plan: %s: not a BPF ELF object, and %s\n",
			argv[optind], lwhy);
		return 1;
	} else {
		in = f.in;
		lnic = &f.lnic;
	}
	if (nicprog_lnic_validate(lnic, lwhy, sizeof(lwhy))) {
		fprintf(stderr, "nicprog-plan: %s: %s\n", argv[optind], lwhy);
		return 1;
	}
	if (a.facts_out && !elf) {
		fprintf(stderr, "nicprog-plan: --facts-out takes a BPF ELF object\n");
		return 2;
	}
	if (a.facts_out)
		return write_facts(a.facts_out, &in, lnic);
	if (a.facts) {
		print_facts(&in);
		return 0;
	}
	t0 = now();
	if (nicprog_ir_build(&in, &ir, &why)) {
		fprintf(stderr, "nicprog-plan: %s\n", why);
		return 1;
	}
	t_ir = now() - t0;
	for (i = 0; i < __NICPROG_ACCEL_MAX && !a.body16[i]; i++)
		;
	if (a.quality &&
	    (a.share_mode != SHARE_GIVEN || i < __NICPROG_ACCEL_MAX)) {
		fprintf(stderr, "nicprog-plan: --quality compares the planner's shapes, which do not depend on an engine share: leave --engine-share out\n");
		return 2;
	}
	if (a.blocks) {
		print_blocks(&ir);
		return 0;
	}
	if (a.quality)
		return quality_table(&ir, lnic, a.cores, &lo, &opt);
	return plan(&a, argv[optind], elf, &ol, &in, &ir, lnic, &lo, &wl, &fr,
		    t_ir);
}
