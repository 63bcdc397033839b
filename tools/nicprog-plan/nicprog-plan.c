// SPDX-License-Identifier: GPL-2.0
/*
 * nicprog-plan - the offloader, offline: plan a program from the facts
 * file the kernel recorded when it was offloaded
 * (/sys/kernel/debug/nicprog/<ifname>/facts), for another shape or core
 * budget, or measure the planner against the optimum.
 *
 *   nicprog-plan [--shape SHAPE] [--cores N] FACTS
 *   nicprog-plan --quality [--cores N] FACTS
 *   nicprog-plan --blocks FACTS
 *
 * --quality prints, for every budget from 1 to N (16 by default), the
 * predicted throughput of the plan the offloader chooses (shape auto),
 * that of the best plan whose stages are runs of the program's DAG in
 * topological order (exhaustive search), and their ratio.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compat.h"
#include "facts.h"

static void *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, n = 0, got;
	char *buf = malloc(cap);

	if (!f || !buf) {
		fprintf(stderr, "nicprog-plan: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf) {
				fprintf(stderr, "nicprog-plan: out of memory\n");
				exit(1);
			}
		}
	}
	fclose(f);
	*len = n;
	return buf;
}

static void print_fx(u64 fx)
{
	u64 c = fx * 100 / NICPROG_FX;

	printf("%llu.%02llu", (unsigned long long)(c / 100),
	       (unsigned long long)(c % 100));
}

static void print_plan(const struct nicprog_ir *ir,
		       const struct nicprog_lnic *lnic,
		       const struct nicprog_layout *lo)
{
	static const char * const steer[] = { "none", "flow", "key" };
	const struct nicprog_stage *st;
	u32 s, t;

	printf("program: %u insns, %u blocks, %u nodes, %u edges\n",
	       ir->in->len, ir->n_blocks, ir->n_nodes, ir->n_edges);
	printf("shape %s (asked %s), cores %u of %u, stages %u\n",
	       nicprog_layout_shape(lo), nicprog_shape_name(lo->shape),
	       lo->cores, lo->budget, lo->n_stages);
	printf("predicted %llu packets per million cycles, latency %llu cycles\n",
	       (unsigned long long)lo->tput, (unsigned long long)lo->lat);
	for (s = 0; s < lo->n_stages; s++) {
		st = &lo->stages[s];
		printf("stage %u: cores %u-%u, steer %s, nodes %u, state in %u bytes, cycles ",
		       s, st->first_core, st->first_core + st->replicas - 1,
		       steer[st->steer], st->n_nodes, st->in_bytes);
		print_fx(st->cost_fx);
		printf("\n");
	}
	for (t = 0; t < lo->n_tables; t++) {
		printf("table %u: %s%s, region %s, accesses ", t,
		       nicprog_table_class_name(lo->tables[t].cls),
		       lo->tables[t].mat && lo->mat_units ? " (mat)" : "",
		       lnic->regions[lo->tables[t].region].name);
		print_fx(lo->tables[t].acc_fx);
		printf(": %s\n", lo->tables[t].why);
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
		print_fx(b->freq);
		printf("\t%u\t%#x\t%#llx\t%#x\n", b->trips, b->live_regs,
		       (unsigned long long)b->live_stack, b->flags);
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "shape", required_argument, NULL, 's' },
		{ "cores", required_argument, NULL, 'c' },
		{ "quality", no_argument, NULL, 'q' },
		{ "blocks", no_argument, NULL, 'b' },
		{ NULL, 0, NULL, 0 },
	};
	struct nicprog_layout lo, opt;
	unsigned int shape = NICPROG_SHAPE_AUTO, cores = 0, b;
	struct nicprog_facts f;
	struct nicprog_ir ir;
	int c, quality = 0, blocks = 0;
	double worst = 1e9, t0, t_ir;
	char lwhy[128] = "";
	const char *why;
	size_t len;
	void *buf;

	while ((c = getopt_long(argc, argv, "s:c:qb", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			for (shape = 0; shape < __NICPROG_SHAPE_MAX; shape++)
				if (!strcmp(optarg, nicprog_shape_name(shape)))
					break;
			if (shape == __NICPROG_SHAPE_MAX) {
				fprintf(stderr, "nicprog-plan: unknown shape %s\n",
					optarg);
				return 2;
			}
			break;
		case 'c':
			cores = strtoul(optarg, NULL, 0);
			if (!cores || cores > NICPROG_MAX_STAGES) {
				fprintf(stderr, "nicprog-plan: --cores takes 1 to %u\n",
					NICPROG_MAX_STAGES);
				return 2;
			}
			break;
		case 'q':
			quality = 1;
			break;
		case 'b':
			blocks = 1;
			break;
		default:
			fprintf(stderr, "usage: nicprog-plan [--shape S] [--cores N] [--quality] FACTS\n");
			return 2;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "usage: nicprog-plan [--shape S] [--cores N] [--quality] FACTS\n");
		return 2;
	}
	buf = slurp(argv[optind], &len);
	if (nicprog_facts_read(buf, len, &f, &why)) {
		fprintf(stderr, "nicprog-plan: %s: %s\n", argv[optind], why);
		return 1;
	}
	if (nicprog_lnic_validate(&f.lnic, lwhy, sizeof(lwhy))) {
		fprintf(stderr, "nicprog-plan: %s: %s\n", argv[optind], lwhy);
		return 1;
	}
	t0 = now();
	if (nicprog_ir_build(&f.in, &ir, &why)) {
		fprintf(stderr, "nicprog-plan: %s\n", why);
		return 1;
	}
	t_ir = now() - t0;
	if (blocks) {
		print_blocks(&ir);
		return 0;
	}
	if (!quality) {
		if (nicprog_layout_build(&ir, &f.lnic, shape,
					 cores ? cores : NICPROG_MAX_STAGES,
					 &lo, &why)) {
			fprintf(stderr, "nicprog-plan: %s\n", why);
			return 1;
		}
		print_plan(&ir, &f.lnic, &lo);
		printf("offloader time: ir %.0f us\n", t_ir * 1e6);
		return 0;
	}
	printf("cores\tchosen\toptimum\tratio\tshape\n");
	for (b = 1; b <= (cores ? cores : NICPROG_MAX_STAGES); b++) {
		if (nicprog_layout_build(&ir, &f.lnic, NICPROG_SHAPE_AUTO, b,
					 &lo, &why) ||
		    nicprog_layout_optimum(&ir, &f.lnic, b, &opt, &why)) {
			fprintf(stderr, "nicprog-plan: %s\n", why);
			return 1;
		}
		printf("%u\t%llu\t%llu\t%.3f\t%s\n", b,
		       (unsigned long long)lo.tput,
		       (unsigned long long)opt.tput,
		       (double)lo.tput / opt.tput, nicprog_layout_shape(&lo));
		if ((double)lo.tput / opt.tput < worst)
			worst = (double)lo.tput / opt.tput;
		nicprog_layout_free(&lo);
		nicprog_layout_free(&opt);
	}
	printf("worst ratio %.3f\n", worst);
	return 0;
}
