// SPDX-License-Identifier: GPL-2.0
/*
 * allreduce - synchronous AllReduce (sum) of int32 arrays in the network:
 * each worker sends its array through the switch's allreduce kernel
 * (bpf/ncl/allreduce.c) and receives every worker's sum.
 *
 *   allreduce setup PIN_DIR N
 *	ready the switch for a job of N workers (senders 1 .. N): its
 *	control variables and slots, through the tables the kernel's programs
 *	pinned in PIN_DIR (ar_ctrl, ar_slots)
 *   allreduce run SENDER N ELEMS SEED TO [-k INFLIGHT] [-r RTO_MS] [-t TRIES]
 *	[-S START_NS] [-p IFNAME,OUTPUT,PIPE_PIN]
 *	worker SENDER's part: its array is ELEMS pseudo-random int32 values
 *	from (SEED, SENDER), sent in windows to TO (any address through the
 *	switch), from START_NS of CLOCK_REALTIME on if given (the job's start
 *	line, tools/bench/ncl); the result is compared, element by element,
 *	with the sum of the N workers' arrays computed here; with -p, the
 *	answers come through an RX pipe bound to NF output OUTPUT of port
 *	IFNAME, where the incoming kernel offloaded to the host's NIC
 *	delivers once its ncl_pipe (pinned at PIPE_PIN) says so (libncl's
 *	nicprog-ring backend)
 *
 * run prints one line, "allreduce: worker S of N, E elements: exact" (or
 * the first wrong element), then the invocation's counts and time, and
 * its start and end (CLOCK_REALTIME ns), and exits 0 only if every
 * element is right. tools/apps/arhost.c is the same job on the hosts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "../lib/ncl/ncl.h"
#include "ar_input.h"
#include "../../bpf/ncl/allreduce.h"

static int setup(const char *dir, uint32_t n)
{
	struct ncl_ar_slot slot;
	char path[4096];
	uint32_t k, v;
	int ctrl, slots;

	if (!n || n > NCL_AR_WORKERS) {
		fprintf(stderr, "allreduce: N is 1 to %u\n", NCL_AR_WORKERS);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/ar_ctrl", dir);
	ctrl = bpf_obj_get(path);
	snprintf(path, sizeof(path), "%s/ar_slots", dir);
	slots = ctrl < 0 ? -1 : bpf_obj_get(path);
	if (ctrl < 0 || slots < 0) {
		fprintf(stderr, "allreduce: %s: %s (is the allreduce kernel deployed?)\n",
			path, strerror(errno));
		return 1;
	}
	/* the slots first: the kernel takes windows once it has members */
	k = NCL_AR_CTRL_MEMBERS;
	v = 0;
	if (bpf_map_update_elem(ctrl, &k, &v, BPF_ANY))
		goto fail;
	for (k = 0; k < 2 * NCL_AR_SLOTS; k++) {
		memset(&slot, 0, sizeof(slot));
		slot.seq = k / 2 + (k % 2) * NCL_AR_SLOTS;
		if (bpf_map_update_elem(slots, &k, &slot, BPF_ANY))
			goto fail;
	}
	k = NCL_AR_CTRL_N;
	if (bpf_map_update_elem(ctrl, &k, &n, BPF_ANY))
		goto fail;
	k = NCL_AR_CTRL_MEMBERS;
	v = (uint32_t)((1ull << (n + 1)) - 2);	/* bits 1 .. n */
	if (bpf_map_update_elem(ctrl, &k, &v, BPF_ANY))
		goto fail;
	return 0;
fail:
	fprintf(stderr, "allreduce: cannot write the switch's tables: %s\n",
		strerror(errno));
	return 1;
}

struct result {
	int32_t *out;
	uint64_t count;
};

static void on_answer(void *arg, const struct ncl_frame *f)
{
	struct result *r = arg;
	uint64_t first = f->offset[0];

	if (first + f->len <= r->count)
		memcpy(r->out + first, f->data[0], (size_t)f->len * sizeof(int32_t));
}

static int run(int argc, char **argv)
{
	uint32_t sender, n, inflight = NCL_AR_SLOTS, rto = 200, tries = 50;
	struct ncl_call call = { .mask = 1 };
	struct ncl_call_stats st;
	struct ncl_endpoint ep;
	struct result res;
	int32_t *in, want;
	uint64_t count, seed, k, at = 0, t0, t1;
	char why[256], *pipe = NULL, *pin = NULL, *end;
	unsigned long output = 0;
	int c, err;

	while ((c = getopt(argc, argv, "k:r:t:S:p:")) != -1) {
		switch (c) {
		case 'p':
			/* IFNAME,OUTPUT,PIPE_PIN */
			pipe = optarg;
			end = strchr(pipe, ',');
			pin = end ? strchr(end + 1, ',') : NULL;
			if (!pin)
				return 2;
			*end = '\0';
			*pin++ = '\0';
			output = strtoul(end + 1, NULL, 0);
			break;
		case 'S':
			at = strtoull(optarg, NULL, 0);
			break;
		case 'k':
			inflight = strtoul(optarg, NULL, 0);
			break;
		case 'r':
			rto = strtoul(optarg, NULL, 0);
			break;
		case 't':
			tries = strtoul(optarg, NULL, 0);
			break;
		default:
			return 2;
		}
	}
	if (argc - optind != 5)
		return 2;
	sender = strtoul(argv[optind], NULL, 0);
	n = strtoul(argv[optind + 1], NULL, 0);
	count = strtoull(argv[optind + 2], NULL, 0);
	seed = strtoull(argv[optind + 3], NULL, 0);
	if (!sender || sender > n || n > NCL_AR_WORKERS || !count ||
	    !inflight || inflight > NCL_AR_SLOTS) {
		fprintf(stderr, "allreduce: SENDER is 1 to N, N at most %u, ELEMS at least 1, INFLIGHT 1 to %u\n",
			NCL_AR_WORKERS, NCL_AR_SLOTS);
		return 2;
	}
	in = malloc(count * sizeof(*in));
	res.out = calloc(count, sizeof(*res.out));
	if (!in || !res.out) {
		fprintf(stderr, "allreduce: out of memory\n");
		return 1;
	}
	res.count = count;
	for (k = 0; k < count; k++)
		in[k] = ar_input(seed, sender, k);
	err = ncl_udp_open(&ep, (uint16_t)sender, NCL_AR_KERNEL,
			   argv[optind + 4], why, sizeof(why));
	if (!err && pipe)
		err = ncl_ring_attach(&ep, pipe, (uint32_t)output, pin, why,
				      sizeof(why));
	if (err) {
		fprintf(stderr, "allreduce: %s\n", why);
		ncl_close(&ep);
		return 1;
	}
	call.in[0] = in;
	call.elem_bytes[0] = sizeof(int32_t);
	call.count = count;
	call.win_elems = NCL_AR_ELEMS;
	call.pad = 1;
	call.inflight = inflight;
	call.rto_ms = rto;
	call.max_tries = tries;
	call.on_answer = on_answer;
	call.arg = &res;
	t0 = ar_start(at);
	if (!t0) {
		fprintf(stderr, "allreduce: the start line is more than a minute away\n");
		return 1;
	}
	err = ncl_invoke(&ep, &call, &st);
	t1 = ar_now_ns();
	ncl_close(&ep);
	if (err) {
		fprintf(stderr, "allreduce: worker %u: %s after %llu of %llu windows answered\n",
			sender, strerror(-err), (unsigned long long)st.answers,
			(unsigned long long)st.windows);
		return 1;
	}
	for (k = 0; k < count; k++) {
		want = ar_sum(seed, n, k);
		if (res.out[k] != want) {
			printf("allreduce: worker %u of %u, %llu elements: element %llu is %d, not %d\n",
			       sender, n, (unsigned long long)count,
			       (unsigned long long)k, res.out[k], want);
			return 1;
		}
	}
	printf("allreduce: worker %u of %u, %llu elements: exact\n", sender, n,
	       (unsigned long long)count);
	printf("allreduce: windows %llu sent %llu resent %llu answers %llu dups %llu stray %llu piped %llu ns %llu\n",
	       (unsigned long long)st.windows, (unsigned long long)st.sent,
	       (unsigned long long)st.resent, (unsigned long long)st.answers,
	       (unsigned long long)st.dups, (unsigned long long)st.stray,
	       (unsigned long long)st.piped, (unsigned long long)st.ns);
	printf("allreduce: start_ns %llu end_ns %llu\n",
	       (unsigned long long)t0, (unsigned long long)t1);
	free(in);
	free(res.out);
	return 0;
}

int main(int argc, char **argv)
{
	int rc = 2;

	if (argc == 4 && !strcmp(argv[1], "setup"))
		rc = setup(argv[2], strtoul(argv[3], NULL, 0));
	else if (argc > 1 && !strcmp(argv[1], "run"))
		rc = run(argc - 1, argv + 1);
	if (rc == 2)
		fprintf(stderr, "usage: allreduce setup PIN_DIR N\n"
				"       allreduce run SENDER N ELEMS SEED TO [-k INFLIGHT] [-r RTO_MS] [-t TRIES] [-S START_NS]\n"
				"                     [-p IFNAME,OUTPUT,PIPE_PIN]\n");
	return rc;
}
