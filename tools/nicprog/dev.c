// SPDX-License-Identifier: GPL-2.0
/*
 * nicprog dev show | set: ports, the NICs behind them, plan settings;
 * through the family's generated library (tools/lib/ynl).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/nicprog.h>

#include "nicprog.h"
#include "nicprog-user.h"
#include "ynl.h"

static void region_print(const struct nicprog_region *r)
{
	out_open_object(NULL);
	out_string("name", "    region %s:",
		   r->_present.name_len ? r->name : "?");
	if (r->_present.bytes)
		out_uint("bytes", " %llu bytes", r->bytes);
	if (r->_present.latency)
		out_uint("latency", ", latency %llu", r->latency);
	if (r->_present.banks)
		out_uint("banks", r->banks ? ", banks %llu" : NULL, r->banks);
	if (r->_present.cache_bytes) {
		out_uint("cache_bytes", r->cache_bytes ?
			 ", cache %llu bytes" : NULL, r->cache_bytes);
		if (r->_present.cache_latency)
			out_uint("cache_latency", r->cache_bytes ?
				 " (%llu cycles)" : NULL, r->cache_latency);
	}
	if (r->_present.island)
		out_uint("island", r->island ?
			 ", one per island of %llu cores" : NULL, r->island);
	if (r->_present.interleave)
		out_string("interleave", r->interleave == NICPROG_IL_HASH ?
			   ", interleave %s" : NULL,
			   r->interleave == NICPROG_IL_HASH ? "hash" : "unknown");
	out_text("\n");
	out_close_object();
}

static void dev_print(const struct nicprog_dev_get_rsp *d)
{
	const struct nicprog_accel *a;
	unsigned int i;
	int n = 0;

	if (!d->_present.ifname_len || !d->_present.ifindex)
		return;
	out_open_object(NULL);
	out_string("ifname", "%s:", d->ifname);
	out_uint("ifindex", " ifindex %llu", d->ifindex);
	if (d->_present.profile_len)
		out_string("profile", " profile %s", d->profile);
	if (d->_present.ring_dev_len)
		out_string("ring_dev", " rings /dev/%s", d->ring_dev);
	out_text("\n   ");
	if (d->_present.cores)
		out_uint("cores", " cores %llu", d->cores);
	if (d->_present.core_threads)
		out_uint("core_threads", " threads %llu", d->core_threads);
	if (d->_present.insn_store)
		out_uint("insn_store", " insn-store %llu", d->insn_store);
	if (d->_present.parsers)
		out_uint("parsers", " parsers %llu", d->parsers);
	if (d->_present.mat_stages)
		out_uint("mat_stages", " mat-stages %llu", d->mat_stages);
	if (d->_present.dma_engines)
		out_uint("dma_engines", " dma %llu", d->dma_engines);
	if (d->_present.mem_bytes)
		out_uint("mem_bytes", " memory %llu bytes", d->mem_bytes);
	out_text("\n");
	out_open_array("regions");
	for (i = 0; i < d->n_region; i++)
		region_print(&d->region[i]);
	out_close_array();
	out_open_array("accels");
	for (i = 0; i < d->n_accel; i++) {
		a = &d->accel[i];
		if (!a->_present.type || !a->_present.count)
			continue;
		out_open_object(NULL);
		out_string("type", n++ ? ", %s" : "    accel %s",
			   a->_present.name_len ? a->name :
			   nicprog_accel_type_name(a->type));
		out_uint("count", " %llu", a->count);
		if (a->_present.plan_share)
			out_uint("plan_share",
				 a->plan_share != NICPROG_PLAN_SHARE_ALL ?
				 " (plan share %llu/16 engine jobs)" : NULL,
				 a->plan_share);
		out_close_object();
	}
	out_close_array();
	out_text(n ? "\n" : "    accel none\n");
	out_open_object("plan");
	if (d->_present.plan_shape)
		out_string("shape", "    plan shape %s",
			   shape_name(d->plan_shape));
	if (d->_present.plan_cores)
		out_uint("cores", " cores %llu", d->plan_cores);
	if (d->_present.cores_free)
		out_uint("cores_free", " (%llu free)", d->cores_free);
	if (d->_present.plan_partial)
		out_bool("partial", " partial %s", d->plan_partial);
	out_close_object();
	if (d->_present.prog_id)
		out_uint("prog_id", "; prog %llu", d->prog_id);
	out_text("\n");
	out_close_object();
}

static int dev_show(struct cli *cli)
{
	struct nicprog_dev_get_list *list = NULL;
	struct nicprog_dev_get_rsp *rsp = NULL;
	struct nicprog_dev_get_req *req;
	const char *dev = NULL, *arg;
	struct ynl_sock *ys;

	while ((arg = cli_next(cli))) {
		if (cli_match(arg, "dev") && (dev = cli_next(cli)))
			continue;
		return cli_usage("dev show: unexpected \"%s\"", arg);
	}
	ys = cli_ys(cli);
	if (!ys)
		return EXIT_REFUSED;
	if (dev) {
		req = nicprog_dev_get_req_alloc();
		if (!req)
			return cli_refused(cli, -ENOMEM, "dev show", dev);
		nicprog_dev_get_req_set_ifname(req, dev);
		rsp = nicprog_dev_get(ys, req);
		nicprog_dev_get_req_free(req);
		if (!rsp)
			return cli_ys_refused(cli, "dev show", dev);
	} else {
		list = nicprog_dev_get_dump(ys);
		if (!list)
			return cli_ys_refused(cli, "dev show", NULL);
	}
	out_open_array(NULL);
	if (rsp)
		dev_print(rsp);
	else
		ynl_dump_foreach(list, d)
			dev_print(d);
	out_close_array();
	/* neither takes NULL */
	if (rsp)
		nicprog_dev_get_rsp_free(rsp);
	else
		nicprog_dev_get_list_free(list);
	return 0;
}

/*
 * engine-share TYPE:N -- N sixteenths of the next plan's calls of that
 * accelerator type as engine jobs -- into @shares (of @n so far).
 */
static int share_value(const char *v, struct nicprog_accel *shares,
		       unsigned int *n)
{
	const char *colon = strchr(v, ':');
	unsigned long k;
	char *end;
	int t;

	if (!colon)
		return cli_usage("dev set: engine-share takes TYPE:N, not \"%s\"",
				 v);
	for (t = NICPROG_ACCEL_NONE + 1; t < __NICPROG_ACCEL_MAX; t++)
		if (strlen(nicprog_accel_type_name(t)) == (size_t)(colon - v) &&
		    !strncmp(v, nicprog_accel_type_name(t), colon - v))
			break;
	if (t == __NICPROG_ACCEL_MAX)
		return cli_usage("dev set: engine-share: unknown accelerator type in \"%s\"",
				 v);
	errno = 0;
	k = strtoul(colon + 1, &end, 10);
	if (errno || end == colon + 1 || *end || k > NICPROG_PLAN_SHARE_ALL)
		return cli_usage("dev set: engine-share: N is 0 to %u sixteenths on the engines, not \"%s\"",
				 NICPROG_PLAN_SHARE_ALL, colon + 1);
	if (*n == __NICPROG_ACCEL_MAX)
		return cli_usage("dev set: engine-share: at most %u",
				 __NICPROG_ACCEL_MAX);
	shares[*n] = (struct nicprog_accel){
		._present = { .type = 1, .plan_share = 1 },
		.type = t,
		.plan_share = k,
	};
	(*n)++;
	return 0;
}

static int dev_set(struct cli *cli)
{
	const char *dev = NULL, *arg, *v, *profile = NULL, *file = NULL;
	struct nicprog_accel shares[__NICPROG_ACCEL_MAX], *sh;
	struct nicprog_dev_set_req *req;
	int shape = -1, partial = -1, err;
	unsigned int n_shares = 0;
	struct ynl_sock *ys;
	long cores = -1;
	char *end;

	while ((arg = cli_next(cli))) {
		v = cli_next(cli);
		if (!v)
			return cli_usage("dev set: \"%s\" needs a value", arg);
		if (cli_match(arg, "dev")) {
			dev = v;
		} else if (cli_match(arg, "profile")) {
			profile = v;
		} else if (cli_match(arg, "profile-file")) {
			file = v;
		} else if (cli_match(arg, "shape")) {
			shape = shape_value(v);
			if (shape < 0)
				return cli_usage("dev set: unknown shape \"%s\"",
						 v);
		} else if (cli_match(arg, "cores")) {
			errno = 0;
			cores = strtol(v, &end, 0);
			if (errno || *end || cores < 0 || cores > UINT32_MAX)
				return cli_usage("dev set: cores \"%s\" is not a count",
						 v);
		} else if (cli_match(arg, "partial")) {
			if (strcmp(v, "on") && strcmp(v, "off"))
				return cli_usage("dev set: partial takes on or off, not \"%s\"",
						 v);
			partial = !strcmp(v, "on");
		} else if (cli_match(arg, "engine-share")) {
			err = share_value(v, shares, &n_shares);
			if (err)
				return err;
		} else {
			return cli_usage("dev set: unexpected \"%s\"", arg);
		}
	}
	if (!dev)
		return cli_usage("dev set: name the port: dev IFNAME");
	if (profile && file)
		return cli_usage("dev set: give profile or profile-file, not both");
	/* the profile first: it resets what the new NIC cannot take */
	if (profile || file) {
		err = profile_set(cli, dev, profile, file);
		if (err || (shape < 0 && cores < 0 && partial < 0 &&
			    !n_shares))
			return err;
	}
	ys = cli_ys(cli);
	if (!ys)
		return EXIT_REFUSED;
	req = nicprog_dev_set_req_alloc();
	if (!req)
		return cli_refused(cli, -ENOMEM, "dev set", dev);
	nicprog_dev_set_req_set_ifname(req, dev);
	if (shape >= 0)
		nicprog_dev_set_req_set_plan_shape(req, shape);
	if (cores >= 0)
		nicprog_dev_set_req_set_plan_cores(req, cores);
	if (partial >= 0)
		nicprog_dev_set_req_set_plan_partial(req, partial);
	if (n_shares) {
		/* the request frees what it is given */
		sh = calloc(n_shares, sizeof(*sh));
		if (!sh) {
			nicprog_dev_set_req_free(req);
			return cli_refused(cli, -ENOMEM, "dev set", dev);
		}
		memcpy(sh, shares, n_shares * sizeof(*sh));
		__nicprog_dev_set_req_set_accel(req, sh, n_shares);
	}
	err = nicprog_dev_set(ys, req);
	nicprog_dev_set_req_free(req);
	return err ? cli_ys_refused(cli, "dev set", dev) : 0;
}

int cmd_dev(struct cli *cli)
{
	const char *cmd = cli_next(cli);

	if (!cmd || cli_match(cmd, "show") || cli_match(cmd, "list"))
		return dev_show(cli);
	if (cli_match(cmd, "set"))
		return dev_set(cli);
	return cli_usage("dev: unknown command \"%s\"", cmd);
}
