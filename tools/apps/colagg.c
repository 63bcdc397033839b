// SPDX-License-Identifier: GPL-2.0
/*
 * colagg - a reduction on the NIC (Documentation/nicprog/rdma.rst): the
 * peer holds a table of records (rdmapeer -y NREC on any verbs device;
 * colagg.h); the NIC's RoCE engine READs it into NIC memory, the
 * lookaside kernel bpf/lookaside/colagg.o filters and aggregates a
 * column of it, 4096 records a job, and the host copies only the result
 * (8 groups, 128 bytes) back -- the NIC ships results, not the records.
 *
 *   colagg -d IFNAME -a ADDR [-k KERNEL_OBJ] [-n NREC] [-S SEED]
 *	    [-v MIN_VALUE] [-f FLAGS_MASK] [-p PORT] [-M MAC] SERVER
 *
 * NREC (a multiple of 1024, at most 65536; default 65536) and SEED must
 * be the peer's. The host reduces the same records too (from the seed),
 * and the run fails unless the NIC's result equals it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "colagg.h"
#include "lookaside.h"
#include "rdma_check.h"
#include "rdma_conn.h"

int main(int argc, char **argv)
{
	const char *ifname = NULL, *addr = NULL, *kobj = NULL, *mac = NULL;
	uint32_t nrec = CA_RECS_MAX, mask = 0, rbuf, gbuf, kid, j, k;
	struct ca_group got[CA_GROUPS], want[CA_GROUPS];
	double t0, t_read, t_jobs, t_copy, t_host;
	int port = RC_PORT, opt, err, bad = 0;
	uint64_t seed = 1, bytes;
	int32_t min_value = 0;
	struct la_peer peer;
	struct ca_rec *recs;
	struct nicring *r;
	char what[32];

	while ((opt = getopt(argc, argv, "d:a:k:n:S:v:f:p:M:")) != -1) {
		switch (opt) {
		case 'd': ifname = optarg; break;
		case 'a': addr = optarg; break;
		case 'k': kobj = optarg; break;
		case 'n': nrec = strtoul(optarg, NULL, 0); break;
		case 'S': seed = strtoull(optarg, NULL, 0); break;
		case 'v': min_value = strtol(optarg, NULL, 0); break;
		case 'f': mask = strtoul(optarg, NULL, 0); break;
		case 'p': port = atoi(optarg); break;
		case 'M': mac = optarg; break;
		default: return 2;
		}
	}
	if (!ifname || !addr || optind != argc - 1 || !nrec ||
	    nrec % CA_JOB_RECS || nrec > CA_RECS_MAX) {
		fprintf(stderr, "usage: colagg -d IFNAME -a ADDR [-k KERNEL_OBJ] [-n NREC] [-S SEED] [-v MIN_VALUE] [-f FLAGS_MASK] [-p PORT] [-M MAC] SERVER\n");
		return 2;
	}
	bytes = (uint64_t)nrec * sizeof(struct ca_rec);
	recs = malloc(bytes);
	r = nicring_open(ifname, &err);
	if (!recs || !r) {
		fprintf(stderr, "colagg: %s: %s\n", ifname, strerror(recs ? -err : ENOMEM));
		return 1;
	}
	if (la_kernel(r, ifname, "colagg.o", kobj, &kid))
		return 1;
	if ((err = nicring_mem_alloc(r, bytes, NICPROG_MEM_REGION_ANY, &rbuf)) ||
	    (err = nicring_mem_alloc(r, sizeof(got), NICPROG_MEM_REGION_ANY,
				     &gbuf))) {
		fprintf(stderr, "colagg: NIC memory: %s\n", strerror(-err));
		return 1;
	}
	snprintf(what, sizeof(what), "rec:%u", nrec);
	if (la_connect(r, ifname, addr, argv[optind], port, seed, what, mac,
		       &peer))
		return 1;
	t0 = now();
	{
		uint64_t roff = 0;

		if (la_read(r, &peer, &rbuf, &roff, &bytes, 1))
			return 1;
	}
	t_read = now() - t0;
	t0 = now();
	for (j = 0; j < nrec / CA_JOB_RECS; j++) {
		struct nicprog_job jb = {
			.kernel = kid, .n_bufs = 2, .job_id = j,
			.args = { (uint32_t)min_value, mask, j > 0 },
			.bufs = {
				{ rbuf, 0, (uint64_t)j * CA_JOB_RECS *
					   sizeof(struct ca_rec),
				  CA_JOB_RECS * sizeof(struct ca_rec) },
				{ gbuf, NICPROG_JOB_BUF_WRITE, 0, sizeof(got) },
			},
		};

		err = nicring_job(r, &jb);
		if (err) {
			fprintf(stderr, "colagg: job %u: %s\n", j,
				err < 0 ? strerror(-err) : "the kernel refused its windows");
			return 1;
		}
	}
	t_jobs = now() - t0;
	t0 = now();
	err = nicring_mem_copy(r, gbuf, NICPROG_MEM_FROM_NIC, 0, got,
			       sizeof(got));
	t_copy = now() - t0;
	if (err != (int)sizeof(got)) {
		fprintf(stderr, "colagg: copy the result: %d\n", err);
		return 1;
	}
	la_done(&peer);
	for (j = 0; j < nrec; j++)
		recs[j] = ca_make(seed, j);
	t0 = now();
	ca_reduce(recs, nrec, min_value, mask, want);
	t_host = now() - t0;
	printf("colagg %u records, seed %llu, value >= %d, flags & 0x%x: %u jobs on the NIC\n",
	       nrec, (unsigned long long)seed, min_value, mask,
	       nrec / CA_JOB_RECS);
	printf("  RDMA READ of the records: %.3f ms; jobs: %.3f ms; the result to the host: %.3f ms\n",
	       t_read * 1e3, t_jobs * 1e3, t_copy * 1e3);
	printf("  the host's own reduction: %.3f ms\n", t_host * 1e3);
	printf("  bytes over the host's link: %zu with the NIC reducing (the result), %llu without (the records)\n",
	       sizeof(got), (unsigned long long)bytes);
	for (k = 0; k < CA_GROUPS; k++) {
		printf("  group %u: %u records, sum %lld, max %d\n", k,
		       got[k].count, (long long)got[k].sum, got[k].max);
		bad += memcmp(&got[k], &want[k], sizeof(got[k])) != 0;
	}
	if (bad) {
		printf("  %d of %u groups differ from the host's reduction\n",
		       bad, CA_GROUPS);
		return 1;
	}
	printf("  the result equals the host's reduction\n");
	nicring_close(r);
	free(recs);
	return 0;
}
