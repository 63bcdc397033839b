// SPDX-License-Identifier: GPL-2.0
/* nicprog stats: a port's NIC-side counters, or with -w their rates. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/nicprog.h>

#include "nicprog.h"

#define PORTS_MAX	256

static const struct {
	unsigned int attr;
	const char *key;
} counters[] = {
	{ NICPROG_A_STATS_WIRE_RX_PACKETS, "wire_rx_packets" },
	{ NICPROG_A_STATS_WIRE_RX_BYTES, "wire_rx_bytes" },
	{ NICPROG_A_STATS_WIRE_TX_PACKETS, "wire_tx_packets" },
	{ NICPROG_A_STATS_WIRE_TX_BYTES, "wire_tx_bytes" },
	{ NICPROG_A_STATS_HOST_RX_PACKETS, "host_rx_packets" },
	{ NICPROG_A_STATS_HOST_RX_BYTES, "host_rx_bytes" },
	{ NICPROG_A_STATS_NIC_DROPS, "nic_drops" },
};

#define N_COUNTERS (sizeof(counters) / sizeof(counters[0]))

struct port {
	char ifname[16];
	uint32_t ifindex;
	uint32_t pipes;
	uint64_t v[N_COUNTERS];
};

struct snapshot {
	struct port port[PORTS_MAX];
	unsigned int n;
	double t;
};

static int snap_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[NICPROG_A_STATS_MAX + 1];
	struct snapshot *snap = data;
	struct port *p;
	unsigned int i;

	nl_attrs(nlh, tb, NICPROG_A_STATS_MAX);
	if (snap->n == PORTS_MAX || !tb[NICPROG_A_STATS_IFNAME] ||
	    !tb[NICPROG_A_STATS_IFINDEX])
		return MNL_CB_OK;
	p = &snap->port[snap->n++];
	snprintf(p->ifname, sizeof(p->ifname), "%s",
		 mnl_attr_get_str(tb[NICPROG_A_STATS_IFNAME]));
	p->ifindex = mnl_attr_get_u32(tb[NICPROG_A_STATS_IFINDEX]);
	p->pipes = tb[NICPROG_A_STATS_RING_PIPES] ?
		   mnl_attr_get_u32(tb[NICPROG_A_STATS_RING_PIPES]) : 0;
	for (i = 0; i < N_COUNTERS; i++)
		p->v[i] = tb[counters[i].attr] ?
			  mnl_attr_get_u64(tb[counters[i].attr]) : 0;
	return MNL_CB_OK;
}

static int snap_take(struct cli *cli, const char *dev, struct snapshot *snap)
{
	struct nlmsghdr *nlh;
	struct timespec ts;

	snap->n = 0;
	nlh = nl_msg(&cli->nl, NICPROG_CMD_STATS_GET, dev ? 0 : NLM_F_DUMP);
	if (dev)
		mnl_attr_put_strz(nlh, NICPROG_A_STATS_IFNAME, dev);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	snap->t = ts.tv_sec + ts.tv_nsec / 1e9;
	return nl_run(&cli->nl, nlh, snap_cb, snap);
}

static void counters_print(const struct port *p)
{
	unsigned int i;

	out_open_object(NULL);
	out_string("ifname", "%s:", p->ifname);
	out_uint("ifindex", NULL, p->ifindex);
	for (i = 0; i < N_COUNTERS; i++) {
		out_text("%s", i % 2 ? "" : "\n   ");
		out_uint(counters[i].key, NULL, p->v[i]);
		out_text(" %s %llu", counters[i].key,
			 (unsigned long long)p->v[i]);
	}
	out_uint("ring_pipes", " ring_pipes %llu\n", p->pipes);
	out_close_object();
}

/* Per second between two snapshots, ports matched by ifindex. */
static void rates_print(const struct snapshot *a, const struct snapshot *b)
{
	double dt = b->t - a->t;
	unsigned int i, j, k;
	char key[40];

	out_open_array(NULL);
	for (i = 0; i < b->n; i++) {
		for (j = 0; j < a->n; j++)
			if (a->port[j].ifindex == b->port[i].ifindex)
				break;
		if (j == a->n || dt <= 0)
			continue;
		out_open_object(NULL);
		out_string("ifname", "%s:", b->port[i].ifname);
		out_uint("ifindex", NULL, b->port[i].ifindex);
		for (k = 0; k < N_COUNTERS; k++) {
			uint64_t d = b->port[i].v[k] - a->port[j].v[k];

			/* "wire_rx_packets" per second: "wire_rx_packets_rate" */
			snprintf(key, sizeof(key), "%s_rate", counters[k].key);
			out_text("%s", k % 2 ? "" : "\n   ");
			out_uint(key, NULL, (uint64_t)(d / dt + 0.5));
			out_text(" %s %.0f/s", counters[k].key, d / dt);
		}
		out_text("\n");
		out_close_object();
	}
	out_close_array();
	out_flush();
}

int cmd_stats(struct cli *cli)
{
	static struct snapshot snap[2];
	const char *dev = NULL, *arg, *peek;
	long count = -1, n;
	double every = 0;
	struct timespec ts;
	unsigned int i;
	char *end;
	int err;

	if (cli->argc && cli_match(cli->argv[0], "show"))
		cli_next(cli);
	while ((arg = cli_next(cli))) {
		if (cli_match(arg, "dev") && (dev = cli_next(cli)))
			continue;
		if (!strcmp(arg, "-w") || !strcmp(arg, "watch")) {
			every = 1;
			peek = cli->argc ? cli->argv[0] : NULL;
			if (peek && (every = strtod(peek, &end)) > 0 && !*end)
				cli_next(cli);
			else
				every = 1;
			if (every > 3600)
				return cli_usage("stats: -w %s: at most 3600 seconds",
						 peek);
			continue;
		}
		if (cli_match(arg, "count") && (arg = cli_next(cli))) {
			count = strtol(arg, &end, 0);
			if (*end || count < 1)
				return cli_usage("stats: count \"%s\" is not a positive number",
						 arg);
			continue;
		}
		return cli_usage("stats: unexpected \"%s\"", arg);
	}
	err = snap_take(cli, dev, &snap[0]);
	if (err)
		return cli_refused(cli, err, "stats", dev);
	if (!every) {
		out_open_array(NULL);
		for (i = 0; i < snap[0].n; i++)
			counters_print(&snap[0].port[i]);
		out_close_array();
		return 0;
	}
	for (n = 0; count < 0 || n < count; n++) {
		ts.tv_sec = (time_t)every;
		ts.tv_nsec = (long)((every - ts.tv_sec) * 1e9);
		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
		err = snap_take(cli, dev, &snap[(n + 1) % 2]);
		if (err)
			return cli_refused(cli, err, "stats", dev);
		rates_print(&snap[n % 2], &snap[(n + 1) % 2]);
	}
	return 0;
}
