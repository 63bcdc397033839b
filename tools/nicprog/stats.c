// SPDX-License-Identifier: GPL-2.0
/* nicprog stats: a port's NIC-side counters, or with -w their rates. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/nicprog.h>

#include "nicprog.h"

#define PORTS_MAX	256
#define CORES_MAX	32	/* the kernel's NICPROG_MAX_CORES */

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

/* One NIC core, as NICPROG_A_STATS_CORE reports it. */
struct core {
	uint64_t packets;
	uint64_t busy;
	uint64_t elapsed;
	uint64_t drops;
	int stage;	/* of the port's plan, -1: none */
};

struct port {
	char ifname[16];
	uint32_t ifindex;
	uint32_t pipes;
	uint64_t v[N_COUNTERS];
	uint32_t n_cores;
	struct core core[CORES_MAX];
};

struct snapshot {
	struct port port[PORTS_MAX];
	unsigned int n;
	double t;
};

static uint64_t u64_of(const struct nlattr *a)
{
	return a ? mnl_attr_get_u64(a) : 0;
}

static uint64_t u64_of32(const struct nlattr *a)
{
	return a ? mnl_attr_get_u32(a) : 0;
}

/* The NIC's cores, in the kernel's order (their index). */
static void cores_parse(const struct nlmsghdr *nlh, struct port *p)
{
	const struct nlattr *tb[NICPROG_A_CORE_STATS_MAX + 1];
	const struct nlattr *a;
	struct core *c;

	p->n_cores = 0;
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) != NICPROG_A_STATS_CORE ||
		    p->n_cores == CORES_MAX)
			continue;
		nl_nested(a, tb, NICPROG_A_CORE_STATS_MAX);
		if (!tb[NICPROG_A_CORE_STATS_INDEX] ||
		    mnl_attr_get_u32(tb[NICPROG_A_CORE_STATS_INDEX]) != p->n_cores)
			continue;
		c = &p->core[p->n_cores++];
		c->packets = u64_of(tb[NICPROG_A_CORE_STATS_PACKETS]);
		c->busy = u64_of(tb[NICPROG_A_CORE_STATS_BUSY]);
		c->elapsed = u64_of(tb[NICPROG_A_CORE_STATS_ELAPSED]);
		c->drops = u64_of(tb[NICPROG_A_CORE_STATS_DROPS]);
		c->stage = tb[NICPROG_A_CORE_STATS_STAGE] ?
			   (int)mnl_attr_get_u32(tb[NICPROG_A_CORE_STATS_STAGE]) :
			   -1;
	}
}

/* busy of elapsed, in percent */
static double share(uint64_t busy, uint64_t elapsed)
{
	return elapsed ? 100.0 * busy / elapsed : 0;
}

/* @nlh's port into @p; false if it names none */
static bool port_parse(const struct nlmsghdr *nlh, struct port *p)
{
	const struct nlattr *tb[NICPROG_A_STATS_MAX + 1];
	unsigned int i;

	nl_attrs(nlh, tb, NICPROG_A_STATS_MAX);
	if (!tb[NICPROG_A_STATS_IFNAME] || !tb[NICPROG_A_STATS_IFINDEX])
		return false;
	snprintf(p->ifname, sizeof(p->ifname), "%s",
		 mnl_attr_get_str(tb[NICPROG_A_STATS_IFNAME]));
	p->ifindex = mnl_attr_get_u32(tb[NICPROG_A_STATS_IFINDEX]);
	p->pipes = tb[NICPROG_A_STATS_RING_PIPES] ?
		   mnl_attr_get_u32(tb[NICPROG_A_STATS_RING_PIPES]) : 0;
	for (i = 0; i < N_COUNTERS; i++)
		p->v[i] = u64_of(tb[counters[i].attr]);
	cores_parse(nlh, p);
	return true;
}

static int snap_cb(const struct nlmsghdr *nlh, void *data)
{
	struct snapshot *snap = data;

	if (snap->n < PORTS_MAX && port_parse(nlh, &snap->port[snap->n]))
		snap->n++;
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

#define NEST_MAX	16	/* at least every nest's *_MAX below */
_Static_assert(NICPROG_A_STAGE_STATS_MAX <= NEST_MAX &&
	       NICPROG_A_TABLE_STATS_MAX <= NEST_MAX &&
	       NICPROG_A_RING_STATS_MAX <= NEST_MAX &&
	       NICPROG_A_UNIT_STATS_MAX <= NEST_MAX, "NEST_MAX too small");

/* Each @type nest of @nlh, parsed up to @max, in an array @key. */
static void nests_print(const struct nlmsghdr *nlh, unsigned int type,
			const char *key, unsigned int max,
			void (*one)(const struct nlattr **tb))
{
	const struct nlattr *tb[NEST_MAX + 1];
	const struct nlattr *a;

	out_open_array(key);
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) != type)
			continue;
		nl_nested(a, tb, max);
		out_open_object(NULL);
		one(tb);
		out_close_object();
	}
	out_close_array();
}

static void stage_print(const struct nlattr **tb)
{
	out_uint("index", "    stage %llu:",
		 u64_of32(tb[NICPROG_A_STAGE_STATS_INDEX]));
	out_uint("cores", " %llu cores",
		 u64_of32(tb[NICPROG_A_STAGE_STATS_CORES]));
	out_uint("packets", ", packets %llu",
		 u64_of(tb[NICPROG_A_STAGE_STATS_PACKETS]));
	out_uint("busy", ", busy %llu cycles",
		 u64_of(tb[NICPROG_A_STAGE_STATS_BUSY]));
	out_uint("drops", ", drops %llu\n",
		 u64_of(tb[NICPROG_A_STAGE_STATS_DROPS]));
}

static void table_print(const struct nlattr **tb)
{
	out_uint("index", "    table %llu",
		 u64_of32(tb[NICPROG_A_TABLE_STATS_INDEX]));
	out_string("name", " %s:", tb[NICPROG_A_TABLE_STATS_NAME] ?
		   mnl_attr_get_str(tb[NICPROG_A_TABLE_STATS_NAME]) : "");
	out_uint("entries", " %llu",
		 u64_of32(tb[NICPROG_A_TABLE_STATS_ENTRIES]));
	out_uint("max_entries", " of %llu entries",
		 u64_of32(tb[NICPROG_A_TABLE_STATS_MAX_ENTRIES]));
	out_uint("bytes", ", %llu bytes of NIC memory\n",
		 u64_of(tb[NICPROG_A_TABLE_STATS_BYTES]));
}

static void ring_print(const struct nlattr **tb)
{
	out_uint("output", "    output %llu:",
		 u64_of32(tb[NICPROG_A_RING_STATS_OUTPUT]));
	out_uint("size", " pipe of %llu bytes",
		 u64_of32(tb[NICPROG_A_RING_STATS_SIZE]));
	out_bool("backpressure", ", backpressure %s",
		 !!tb[NICPROG_A_RING_STATS_BACKPRESSURE]);
	if (out_json() || u64_of32(tb[NICPROG_A_RING_STATS_COALESCE_USECS])) {
		out_uint("coalesce_usecs", ", moderation %llu us",
			 u64_of32(tb[NICPROG_A_RING_STATS_COALESCE_USECS]));
		out_uint("coalesce_bytes", " or %llu bytes",
			 u64_of32(tb[NICPROG_A_RING_STATS_COALESCE_BYTES]));
	}
	out_uint("bytes", ", %llu bytes appended",
		 u64_of(tb[NICPROG_A_RING_STATS_BYTES]));
	out_uint("consumed", ", %llu consumed",
		 u64_of(tb[NICPROG_A_RING_STATS_CONSUMED]));
	out_uint("drops", ", drops %llu",
		 u64_of(tb[NICPROG_A_RING_STATS_DROPS]));
	out_uint("drop_bytes", " (%llu bytes)\n",
		 u64_of(tb[NICPROG_A_RING_STATS_DROP_BYTES]));
}

/*
 * A pool of the NIC's MAT stages or of one kind of accelerator; in words
 * only a pool that served or refused a job.
 */
static void unit_print(const struct nlattr **tb)
{
	uint8_t type = tb[NICPROG_A_UNIT_STATS_TYPE] ?
		       mnl_attr_get_u8(tb[NICPROG_A_UNIT_STATS_TYPE]) : 0;
	uint8_t accel = tb[NICPROG_A_UNIT_STATS_ACCEL] ?
			mnl_attr_get_u8(tb[NICPROG_A_UNIT_STATS_ACCEL]) : 0;
	uint64_t count = u64_of32(tb[NICPROG_A_UNIT_STATS_COUNT]);
	uint64_t busy = u64_of(tb[NICPROG_A_UNIT_STATS_BUSY]);
	uint64_t elapsed = u64_of(tb[NICPROG_A_UNIT_STATS_ELAPSED]);

	if (!out_json() && !u64_of(tb[NICPROG_A_UNIT_STATS_JOBS]) &&
	    !u64_of(tb[NICPROG_A_UNIT_STATS_REFUSED]))
		return;
	out_string("type", "    %s", nicprog_unit_type_name(type));
	if (tb[NICPROG_A_UNIT_STATS_ACCEL])
		out_string("accel", " %s", nicprog_accel_type_name(accel));
	out_uint("count", ": %llu units", count);
	out_uint("jobs", ", jobs %llu", u64_of(tb[NICPROG_A_UNIT_STATS_JOBS]));
	out_uint("busy", ", busy %llu", busy);
	out_uint("elapsed", " of %llu cycles", elapsed);
	out_text(" (%.1f%%)", share(busy, elapsed * count));
	out_uint("wait", ", jobs waited %llu cycles",
		 u64_of(tb[NICPROG_A_UNIT_STATS_WAIT]));
	out_uint("refused", ", refused %llu\n",
		 u64_of(tb[NICPROG_A_UNIT_STATS_REFUSED]));
}

/* A port's counters; with @nlh, its plan's stages, tables and rings. */
static void counters_print(const struct port *p, const struct nlmsghdr *nlh)
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
	/* in words, the cores that did something */
	out_open_array("cores");
	for (i = 0; i < p->n_cores; i++) {
		const struct core *c = &p->core[i];

		if (!out_json() && !c->packets && !c->drops)
			continue;
		out_open_object(NULL);
		out_uint("index", "    core %llu:", i);
		out_uint("packets", " packets %llu", c->packets);
		out_uint("busy", ", busy %llu", c->busy);
		out_uint("elapsed", " of %llu cycles", c->elapsed);
		out_text(" (%.1f%%)", share(c->busy, c->elapsed));
		out_uint("drops", ", drops %llu", c->drops);
		if (c->stage >= 0)
			out_uint("stage", ", stage %llu", c->stage);
		out_text("\n");
		out_close_object();
	}
	out_close_array();
	if (nlh) {
		nests_print(nlh, NICPROG_A_STATS_STAGE, "stages",
			    NICPROG_A_STAGE_STATS_MAX, stage_print);
		nests_print(nlh, NICPROG_A_STATS_TABLE, "tables",
			    NICPROG_A_TABLE_STATS_MAX, table_print);
		nests_print(nlh, NICPROG_A_STATS_RING, "rings",
			    NICPROG_A_RING_STATS_MAX, ring_print);
		nests_print(nlh, NICPROG_A_STATS_UNIT, "units",
			    NICPROG_A_UNIT_STATS_MAX, unit_print);
	}
	out_close_object();
}

static int show_cb(const struct nlmsghdr *nlh, void *data)
{
	static struct port p;

	(void)data;
	if (port_parse(nlh, &p))
		counters_print(&p, nlh);
	return MNL_CB_OK;
}

/*
 * Per core between two snapshots: runs per second and the share of the
 * NIC's time (its clock, not the host's) the core was busy; in words only
 * the cores that ran something.
 */
static void cores_rates_print(const struct port *a, const struct port *b,
			      double dt)
{
	const struct core *ca, *cb;
	uint64_t d;
	unsigned int i;

	out_open_array("cores");
	for (i = 0; i < a->n_cores && i < b->n_cores; i++) {
		ca = &a->core[i];
		cb = &b->core[i];
		d = cb->packets - ca->packets;
		if (!out_json() && !d && cb->drops == ca->drops)
			continue;
		out_open_object(NULL);
		out_uint("index", "    core %llu:", i);
		out_uint("packets_rate", NULL, (uint64_t)(d / dt + 0.5));
		out_text(" %.0f packets/s", d / dt);
		out_double("utilisation", ", busy %.1f%% of the NIC's time",
			   share(cb->busy - ca->busy, cb->elapsed - ca->elapsed));
		out_uint("drops_rate", NULL,
			 (uint64_t)((cb->drops - ca->drops) / dt + 0.5));
		out_text(", %.0f drops/s\n", (cb->drops - ca->drops) / dt);
		out_close_object();
	}
	out_close_array();
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
		cores_rates_print(&a->port[j], &b->port[i], dt);
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
	struct nlmsghdr *nlh;
	struct timespec ts;
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
	if (!every) {
		nlh = nl_msg(&cli->nl, NICPROG_CMD_STATS_GET,
			     dev ? 0 : NLM_F_DUMP);
		if (dev)
			mnl_attr_put_strz(nlh, NICPROG_A_STATS_IFNAME, dev);
		out_open_array(NULL);
		err = nl_run(&cli->nl, nlh, show_cb, NULL);
		out_close_array();
		return err ? cli_refused(cli, err, "stats", dev) : 0;
	}
	err = snap_take(cli, dev, &snap[0]);
	if (err)
		return cli_refused(cli, err, "stats", dev);
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
