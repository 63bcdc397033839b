// SPDX-License-Identifier: GPL-2.0
/*
 * nicprog stats: a port's NIC-side counters, or with -w their rates;
 * through the family's generated library (tools/lib/ynl).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/nicprog.h>

#include "nicprog.h"
#include "nicprog-user.h"
#include "ynl.h"

#define PORTS_MAX	256
#define CORES_MAX	32	/* the kernel's NICPROG_MAX_CORES */

#define COUNTER(f) { offsetof(struct nicprog_stats_get_rsp, f), #f }
static const struct {
	size_t off;	/* of a __u64 in the reply */
	const char *key;
} counters[] = {
	COUNTER(wire_rx_packets),
	COUNTER(wire_rx_bytes),
	COUNTER(wire_tx_packets),
	COUNTER(wire_tx_bytes),
	COUNTER(host_rx_packets),
	COUNTER(host_rx_bytes),
	COUNTER(nic_drops),
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

/* The NIC's cores, in the kernel's order (their index). */
static void cores_parse(const struct nicprog_stats_get_rsp *r, struct port *p)
{
	const struct nicprog_core_stats *cs;
	struct core *c;
	unsigned int i;

	p->n_cores = 0;
	for (i = 0; i < r->n_core && p->n_cores < CORES_MAX; i++) {
		cs = &r->core[i];
		if (!cs->_present.index || cs->index != p->n_cores)
			continue;
		c = &p->core[p->n_cores++];
		c->packets = cs->packets;
		c->busy = cs->busy;
		c->elapsed = cs->elapsed;
		c->drops = cs->drops;
		c->stage = cs->_present.stage ? (int)cs->stage : -1;
	}
}

/* busy of elapsed, in percent */
static double share(uint64_t busy, uint64_t elapsed)
{
	return elapsed ? 100.0 * busy / elapsed : 0;
}

/* @r's port into @p; false if it names none */
static bool port_parse(const struct nicprog_stats_get_rsp *r, struct port *p)
{
	unsigned int i;

	if (!r->_present.ifname_len || !r->_present.ifindex)
		return false;
	snprintf(p->ifname, sizeof(p->ifname), "%s", r->ifname);
	p->ifindex = r->ifindex;
	p->pipes = r->ring_pipes;
	for (i = 0; i < N_COUNTERS; i++)
		memcpy(&p->v[i], (const char *)r + counters[i].off,
		       sizeof(p->v[i]));
	cores_parse(r, p);
	return true;
}

/*
 * The counters of @dev, into @one, or of every port, into @list; to free
 * with stats_free(). Return 0 or -1, the error in the socket.
 */
static int stats_get(struct ynl_sock *ys, const char *dev,
		     struct nicprog_stats_get_rsp **one,
		     struct nicprog_stats_get_list **list)
{
	struct nicprog_stats_get_req *req;

	*one = NULL;
	*list = NULL;
	if (!dev) {
		*list = nicprog_stats_get_dump(ys);
		return *list ? 0 : -1;
	}
	req = nicprog_stats_get_req_alloc();
	if (!req) {
		ys->err.code = ENOMEM;
		ys->err.msg[0] = 0;
		return -1;
	}
	nicprog_stats_get_req_set_ifname(req, dev);
	*one = nicprog_stats_get(ys, req);
	nicprog_stats_get_req_free(req);
	return *one ? 0 : -1;
}

/* What stats_get() gave: neither free function takes NULL. */
static void stats_free(struct nicprog_stats_get_rsp *one,
		       struct nicprog_stats_get_list *list)
{
	if (one)
		nicprog_stats_get_rsp_free(one);
	if (list)
		nicprog_stats_get_list_free(list);
}

static int snap_take(struct ynl_sock *ys, const char *dev,
		     struct snapshot *snap)
{
	struct nicprog_stats_get_list *list;
	struct nicprog_stats_get_rsp *one;
	struct timespec ts;

	snap->n = 0;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	snap->t = ts.tv_sec + ts.tv_nsec / 1e9;
	if (stats_get(ys, dev, &one, &list))
		return -1;
	if (one && port_parse(one, &snap->port[0]))
		snap->n = 1;
	if (list)
		ynl_dump_foreach(list, r)
			if (snap->n < PORTS_MAX &&
			    port_parse(r, &snap->port[snap->n]))
				snap->n++;
	stats_free(one, list);
	return 0;
}

static void stage_print(const struct nicprog_stage_stats *st)
{
	out_open_object(NULL);
	out_uint("index", "    stage %llu:", st->index);
	out_uint("cores", " %llu cores", st->cores);
	out_uint("packets", ", packets %llu", st->packets);
	out_uint("busy", ", busy %llu cycles", st->busy);
	out_uint("drops", ", drops %llu\n", st->drops);
	out_close_object();
}

static void table_print(const struct nicprog_table_stats *t)
{
	out_open_object(NULL);
	out_uint("index", "    table %llu", t->index);
	out_string("name", " %s:", t->name ? t->name : "");
	out_uint("entries", " %llu", t->entries);
	out_uint("max_entries", " of %llu entries", t->max_entries);
	out_uint("bytes", ", %llu bytes of NIC memory\n", t->bytes);
	/* a counter table's counts, a line per element in words */
	if (t->n_counter && t->counter_words) {
		unsigned int i, w = t->counter_words;

		out_uint("counter_words", NULL, w);
		out_open_array("counters");
		for (i = 0; i < t->n_counter; i++) {
			if (i % w == 0)
				out_text("      [%u]", i / w);
			out_uint(NULL, " %llu", t->counter[i]);
			if (i % w == w - 1)
				out_text("\n");
		}
		out_close_array();
	}
	out_close_object();
}

static void ring_print(const struct nicprog_ring_stats *r)
{
	out_open_object(NULL);
	out_uint("output", "    output %llu:", r->output);
	out_uint("size", " pipe of %llu bytes", r->size);
	out_bool("backpressure", ", backpressure %s",
		 r->_present.backpressure);
	if (out_json() || r->coalesce_usecs) {
		out_uint("coalesce_usecs", ", moderation %llu us",
			 r->coalesce_usecs);
		out_uint("coalesce_bytes", " or %llu bytes", r->coalesce_bytes);
	}
	out_uint("bytes", ", %llu bytes appended", r->bytes);
	out_uint("consumed", ", %llu consumed", r->consumed);
	out_uint("drops", ", drops %llu", r->drops);
	out_uint("drop_bytes", " (%llu bytes)\n", r->drop_bytes);
	out_close_object();
}

/*
 * A pool of the NIC's MAT stages or of one kind of accelerator; in words
 * only a pool that served or refused a job.
 */
static void unit_print(const struct nicprog_unit_stats *u)
{
	out_open_object(NULL);
	if (!out_json() && !u->jobs && !u->refused) {
		out_close_object();
		return;
	}
	out_string("type", "    %s", nicprog_unit_type_name(u->type));
	if (u->_present.accel)
		out_string("accel", " %s", nicprog_accel_type_name(u->accel));
	out_uint("count", ": %llu units", u->count);
	out_uint("jobs", ", jobs %llu", u->jobs);
	out_uint("busy", ", busy %llu", u->busy);
	out_uint("elapsed", " of %llu cycles", u->elapsed);
	out_text(" (%.1f%%)", share(u->busy, u->elapsed * u->count));
	out_uint("wait", ", jobs waited %llu cycles", u->wait);
	out_uint("refused", ", refused %llu\n", u->refused);
	out_close_object();
}

/* A port's counters; with @r, its plan's stages, tables and rings. */
static void counters_print(const struct port *p,
			   const struct nicprog_stats_get_rsp *r)
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
	if (r) {
		out_open_array("stages");
		for (i = 0; i < r->n_stage; i++)
			stage_print(&r->stage[i]);
		out_close_array();
		out_open_array("tables");
		for (i = 0; i < r->n_table; i++)
			table_print(&r->table[i]);
		out_close_array();
		out_open_array("rings");
		for (i = 0; i < r->n_ring; i++)
			ring_print(&r->ring[i]);
		out_close_array();
		out_open_array("units");
		for (i = 0; i < r->n_unit; i++)
			unit_print(&r->unit[i]);
		out_close_array();
	}
	out_close_object();
}

static void show(const struct nicprog_stats_get_rsp *r)
{
	static struct port p;

	if (port_parse(r, &p))
		counters_print(&p, r);
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
	struct nicprog_stats_get_list *list;
	struct nicprog_stats_get_rsp *one;
	long count = -1, n;
	struct ynl_sock *ys;
	double every = 0;
	struct timespec ts;
	char *end;

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
	ys = cli_ys(cli);
	if (!ys)
		return EXIT_REFUSED;
	if (!every) {
		if (stats_get(ys, dev, &one, &list)) {
			out_open_array(NULL);
			out_close_array();
			return cli_ys_refused(cli, "stats", dev);
		}
		out_open_array(NULL);
		if (one)
			show(one);
		if (list)
			ynl_dump_foreach(list, r)
				show(r);
		out_close_array();
		stats_free(one, list);
		return 0;
	}
	if (snap_take(ys, dev, &snap[0]))
		return cli_ys_refused(cli, "stats", dev);
	for (n = 0; count < 0 || n < count; n++) {
		ts.tv_sec = (time_t)every;
		ts.tv_nsec = (long)((every - ts.tv_sec) * 1e9);
		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
		if (snap_take(ys, dev, &snap[(n + 1) % 2]))
			return cli_ys_refused(cli, "stats", dev);
		rates_print(&snap[n % 2], &snap[(n + 1) % 2]);
	}
	return 0;
}
