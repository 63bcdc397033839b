// SPDX-License-Identifier: GPL-2.0
/*
 * nicprog table set: give a map offloaded to a port an LRU, LPM,
 * per-CPU or host kind, as libnicprog's loader does for LRU_HASH,
 * LPM_TRIE, per-CPU maps, XSKMAPs and CPUMAPs, or mark it a counter table
 * (nicprog stats shows its values), as the loader does for statistics
 * maps, for maps another loader (or bpftool map create ... dev) created.
 * The request itself is libnicprog's (tools/lib/nicprog/kind.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <bpf/bpf.h>
#include <linux/nicprog.h>

#include "nicprog.h"
#include "../lib/nicprog/nicprog.h"

static const char * const kinds[] = {
	[NICPROG_TABLE_KIND_PLAIN] = "plain",
	[NICPROG_TABLE_KIND_LRU] = "lru",
	[NICPROG_TABLE_KIND_LPM] = "lpm",
	[NICPROG_TABLE_KIND_PERCPU] = "percpu",
	[NICPROG_TABLE_KIND_LRU_PERCPU] = "lru-percpu",
	[NICPROG_TABLE_KIND_HOST] = "host",
	[NICPROG_TABLE_KIND_PROGS] = "progs",
};

const char *table_kind_name(unsigned int kind)
{
	return kind < __NICPROG_TABLE_KIND_MAX ? kinds[kind] : "?";
}

static int table_set(struct cli *cli)
{
	const char *dev = NULL, *id = NULL, *kind = NULL, *host = NULL;
	const char *counters = NULL;
	char why[256], *end;
	int k, fd, hfd = -1, err;
	unsigned long n, hn = 0;
	const char *arg, *v;
	unsigned int ifindex;

	while ((arg = cli_next(cli))) {
		v = cli_next(cli);
		if (!v)
			return cli_usage("table set: \"%s\" needs a value", arg);
		if (cli_match(arg, "dev"))
			dev = v;
		else if (cli_match(arg, "id"))
			id = v;
		else if (cli_match(arg, "kind"))
			kind = v;
		else if (cli_match(arg, "host-map"))
			host = v;
		else if (cli_match(arg, "counters"))
			counters = v;
		else
			return cli_usage("table set: unexpected \"%s\"", arg);
	}
	if (!dev || !id || (!kind && !counters))
		return cli_usage("table set: give dev IFNAME id MAP_ID kind KIND (lru, lpm, percpu, lru-percpu, plain, host|progs host-map MAP_ID) and/or counters 1|2");
	if (counters && strcmp(counters, "1") && strcmp(counters, "2"))
		return cli_usage("table set: counters \"%s\": u64 counters a value, 1 or 2",
				 counters);
	for (k = 0; kind && k < __NICPROG_TABLE_KIND_MAX; k++)
		if (!strcmp(kind, kinds[k]))
			break;
	if (kind && k == __NICPROG_TABLE_KIND_MAX)
		return cli_usage("table set: unknown kind \"%s\" (lru, lpm, percpu, lru-percpu, plain, host or progs)",
				 kind);
	if ((k == NICPROG_TABLE_KIND_HOST || k == NICPROG_TABLE_KIND_PROGS) !=
	    !!host)
		return cli_usage("table set: host-map MAP_ID goes with kinds host and progs, and only with them");
	errno = 0;
	n = strtoul(id, &end, 0);
	if (errno || *end || !*id || n > UINT32_MAX)
		return cli_usage("table set: id \"%s\" is not a map ID", id);
	if (host) {
		errno = 0;
		hn = strtoul(host, &end, 0);
		if (errno || *end || !*host || hn > UINT32_MAX)
			return cli_usage("table set: host-map \"%s\" is not a map ID",
					 host);
	}
	ifindex = if_nametoindex(dev);
	if (!ifindex) {
		fprintf(stderr, "nicprog: table set: no port %s: %s\n", dev,
			strerror(errno));
		return EXIT_REFUSED;
	}
	fd = bpf_map_get_fd_by_id(n);
	if (fd < 0) {
		fprintf(stderr, "nicprog: table set: no map with ID %lu: %s\n",
			n, strerror(errno));
		return EXIT_REFUSED;
	}
	if (host) {
		hfd = bpf_map_get_fd_by_id(hn);
		if (hfd < 0) {
			fprintf(stderr, "nicprog: table set: no map with ID %lu: %s\n",
				hn, strerror(errno));
			close(fd);
			return EXIT_REFUSED;
		}
	}
	err = kind ? nicprog_table_kind_set(ifindex, fd, k, hfd, why,
					    sizeof(why)) : 0;
	if (!err && counters)
		err = nicprog_table_counters_set(ifindex, fd, *counters - '0',
						 why, sizeof(why));
	close(fd);
	if (hfd >= 0)
		close(hfd);
	if (err) {
		fprintf(stderr, "nicprog: table set %s map %lu: %s%s\n", dev, n,
			why, err == -EPERM ? " (it needs CAP_NET_ADMIN)" : "");
		return EXIT_REFUSED;
	}
	return 0;
}

int cmd_table(struct cli *cli)
{
	const char *cmd = cli_next(cli);

	if (cmd && cli_match(cmd, "set"))
		return table_set(cli);
	return cli_usage("table: unknown command \"%s\"", cmd ? cmd : "");
}
