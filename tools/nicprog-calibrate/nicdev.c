// SPDX-License-Identifier: GPL-2.0
/*
 * The calibrator's view of a port: counters through ETHTOOL_GSTATS, frames
 * from its link peer through a packet socket, programs offloaded with
 * libbpf (XDP_FLAGS_HW_MODE), the plan policy through nicprog's netlink
 * family.
 *
 * nicsim times what its cores ran once the NIC has been idle for a while
 * (its timing model replays held runs then); a frame's counters are
 * complete when its verdict is counted and no run is pending.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/ethtool.h>
#include <linux/nicprog.h>
#include <linux/if_link.h>
#include <linux/if_packet.h>
#include <linux/sockios.h>
#include <net/ethernet.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "nicdev.h"
#include "nl.h"

/* libbpf's warnings, but not the retry an offloaded map's BTF causes. */
static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	if (level == LIBBPF_DEBUG || strstr(fmt, "Retrying without BTF") ||
	    (strstr(fmt, "Error in bpf_create_map_xattr")))
		return 0;
	return vfprintf(stderr, fmt, ap);
}

#define NICDEV_WAIT_MS	20000	/* a frame is timed within this */
#define NICDEV_BURST	256	/* frames in flight, below the rx queue */

static const char * const verdict_names[5] = {
	"xdp_drop", "xdp_pass", "xdp_tx", "xdp_redirect", "xdp_aborted",
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

static int ethtool(struct nicdev *d, void *arg)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, IF_NAMESIZE, "%s", d->name);
	ifr.ifr_data = arg;
	return ioctl(d->ctl, SIOCETHTOOL, &ifr) ? -errno : 0;
}

/**
 * nicdev_open() - find a port's counters and open its peer for sending
 * @d: filled in
 * @dev: the nicprog port the micro-benchmarks run on
 * @peer: the port linked to it, which sends the frames
 *
 * Return: 0 or -errno, with a message on stderr.
 */
int nicdev_open(struct nicdev *d, const char *dev, const char *peer)
{
	struct ethtool_sset_info *ss;
	struct ethtool_gstrings *gs;
	struct sockaddr_ll sll;
	uint32_t i;
	int k, err;

	memset(d, 0, sizeof(*d));
	d->tx = -1;
	libbpf_set_print(libbpf_print);
	snprintf(d->name, sizeof(d->name), "%s", dev);
	d->ifindex = if_nametoindex(dev);
	d->peer_ifindex = if_nametoindex(peer);
	if (!d->ifindex || !d->peer_ifindex) {
		fprintf(stderr, "nicprog-calibrate: no such port: %s\n",
			d->ifindex ? peer : dev);
		return -ENODEV;
	}
	d->ctl = socket(AF_INET, SOCK_DGRAM, 0);
	if (d->ctl < 0)
		return -errno;
	ss = calloc(1, sizeof(*ss) + sizeof(uint32_t));
	if (!ss)
		return -ENOMEM;
	ss->cmd = ETHTOOL_GSSET_INFO;
	ss->sset_mask = 1ULL << ETH_SS_STATS;
	err = ethtool(d, ss);
	d->n_stats = err || !ss->sset_mask ? 0 : ss->data[0];
	free(ss);
	if (!d->n_stats) {
		fprintf(stderr, "nicprog-calibrate: %s has no ethtool counters\n",
			dev);
		return err ? err : -EOPNOTSUPP;
	}
	gs = calloc(1, sizeof(*gs) + d->n_stats * ETH_GSTRING_LEN);
	d->names = calloc(d->n_stats, ETH_GSTRING_LEN);
	d->gstats = calloc(1, sizeof(struct ethtool_stats) +
			      d->n_stats * sizeof(uint64_t));
	if (!gs || !d->names || !d->gstats) {
		free(gs);
		return -ENOMEM;
	}
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_STATS;
	gs->len = d->n_stats;
	err = ethtool(d, gs);
	if (!err)
		memcpy(d->names, gs->data, d->n_stats * ETH_GSTRING_LEN);
	free(gs);
	if (err)
		return err;
	for (i = 0; i < d->n_stats; i++)
		d->names[i][ETH_GSTRING_LEN - 1] = 0;
	for (k = 0; k < 5; k++)
		d->verdicts[k] = nicdev_stat(d, verdict_names[k]);
	d->pending = nicdev_stat(d, "timing_pending");
	if (d->verdicts[0] < 0 || d->pending < 0) {
		fprintf(stderr, "nicprog-calibrate: %s is not a nicprog port with a timing model (no xdp_drop or timing_pending counter)\n",
			dev);
		return -EOPNOTSUPP;
	}

	d->tx = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	if (d->tx < 0) {
		err = -errno;
		perror("nicprog-calibrate: packet socket");
		return err;
	}
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = d->peer_ifindex;
	if (bind(d->tx, (struct sockaddr *)&sll, sizeof(sll))) {
		err = -errno;
		perror("nicprog-calibrate: bind to the peer");
		return err;
	}
	return 0;
}

/**
 * nicdev_close() - detach what is loaded and release the port
 * @d: opened with nicdev_open(), or zeroed
 */
void nicdev_close(struct nicdev *d)
{
	nicdev_unload(d);
	if (d->tx >= 0)
		close(d->tx);
	if (d->ctl > 0)
		close(d->ctl);
	free(d->names);
	free(d->gstats);
	d->names = NULL;
	d->gstats = NULL;
}

/**
 * nicdev_stat() - index of a counter in a snapshot
 * @d: the port
 * @name: the counter's ethtool name
 *
 * Return: the index, or -1 if the port has no such counter.
 */
int nicdev_stat(const struct nicdev *d, const char *name)
{
	uint32_t i;

	for (i = 0; i < d->n_stats; i++)
		if (!strcmp(d->names[i], name))
			return i;
	return -1;
}

/**
 * nicdev_read() - read every counter
 * @d: the port
 * @s: its @v holds @d->n_stats values
 *
 * Return: 0 or -errno.
 */
int nicdev_read(struct nicdev *d, struct nicdev_snap *s)
{
	struct ethtool_stats *st = d->gstats;
	int err;

	st->cmd = ETHTOOL_GSTATS;
	st->n_stats = d->n_stats;
	err = ethtool(d, st);
	if (err)
		return err;
	if (st->n_stats != d->n_stats)
		return -EAGAIN;	/* the counters changed under us */
	memcpy(s->v, st->data, d->n_stats * sizeof(uint64_t));
	return 0;
}

/**
 * nicdev_load() - offload one micro-benchmark and attach it
 * @d: the port; what was loaded before is detached first
 * @obj: ubench.bpf.o
 * @prog: the program's name
 * @walk_entries: entries of the walk table (64 bytes each)
 *
 * Return: 0 or -errno, with libbpf's and the verifier's messages on stderr.
 */
int nicdev_load(struct nicdev *d, const char *obj, const char *prog,
		uint32_t walk_entries)
{
	struct bpf_program *p, *want = NULL;
	struct bpf_map *m;
	int err;

	nicdev_unload(d);
	d->obj = bpf_object__open_file(obj, NULL);
	if (!d->obj) {
		err = -errno;
		fprintf(stderr, "nicprog-calibrate: cannot open %s\n", obj);
		return err;
	}
	bpf_object__for_each_program(p, d->obj) {
		if (!strcmp(bpf_program__name(p), prog))
			want = p;
		bpf_program__set_autoload(p, false);
		bpf_program__set_ifindex(p, d->ifindex);
	}
	if (!want) {
		fprintf(stderr, "nicprog-calibrate: %s has no program %s\n",
			obj, prog);
		nicdev_unload(d);
		return -ENOENT;
	}
	bpf_program__set_autoload(want, true);
	bpf_object__for_each_map(m, d->obj) {
		bpf_map__set_ifindex(m, d->ifindex);
		if (!strcmp(bpf_map__name(m), "walk"))
			bpf_map__set_max_entries(m, walk_entries);
	}
	err = bpf_object__load(d->obj);
	if (!err)
		err = bpf_xdp_attach(d->ifindex, bpf_program__fd(want),
				     XDP_FLAGS_HW_MODE, NULL);
	if (err) {
		fprintf(stderr, "nicprog-calibrate: cannot offload %s to %s (walk table of %u entries): %s\n",
			prog, d->name, walk_entries, strerror(-err));
		nicdev_unload(d);
	}
	return err;
}

/**
 * nicdev_unload() - detach and release the micro-benchmark loaded
 * @d: the port
 */
void nicdev_unload(struct nicdev *d)
{
	if (!d->obj)
		return;
	bpf_xdp_detach(d->ifindex, XDP_FLAGS_HW_MODE, NULL);
	bpf_object__close(d->obj);
	d->obj = NULL;
}

/**
 * nicdev_send() - send one frame carrying @p to the port
 * @d: the port
 * @p: the run's parameters; the frame's source MAC address is
 *	02:00 and @p->seed, which flow steering hashes
 * @len: frame bytes, at least UB_PARAMS_OFF + sizeof(*p)
 *
 * Return: 0 or -errno.
 */
int nicdev_send(struct nicdev *d, const struct ub_params *p, uint32_t len)
{
	uint8_t frame[2048];
	struct ether_header *eh = (void *)frame;

	if (len > sizeof(frame) || len < UB_PARAMS_OFF + sizeof(*p))
		return -EINVAL;
	memset(frame, 0xa5, len);
	memset(eh->ether_dhost, 0xff, ETH_ALEN);
	/* the source address from the seed: the NIC spreads frames by it */
	eh->ether_shost[0] = 0x02;
	eh->ether_shost[1] = 0;
	memcpy(eh->ether_shost + 2, &p->seed, 4);
	eh->ether_type = htons(UB_ETH_P);
	memcpy(frame + UB_PARAMS_OFF, p, sizeof(*p));
	if (send(d->tx, frame, len, 0) != (ssize_t)len)
		return -errno;
	return 0;
}

static uint64_t verdicts(const struct nicdev *d, const struct nicdev_snap *s)
{
	uint64_t n = 0;
	int k;

	for (k = 0; k < 5; k++)
		if (d->verdicts[k] >= 0)
			n += s->v[d->verdicts[k]];
	return n;
}

/* Wait until @want verdicts since @base, and if @timed, none pending. */
static int wait_for(struct nicdev *d, const struct nicdev_snap *base,
		    uint64_t want, bool timed, struct nicdev_snap *cur)
{
	uint64_t end = now_ms() + NICDEV_WAIT_MS;
	int err;

	for (;;) {
		err = nicdev_read(d, cur);
		if (err)
			return err;
		if (verdicts(d, cur) - verdicts(d, base) >= want &&
		    (!timed || !cur->v[d->pending]))
			return 0;
		if (now_ms() > end) {
			fprintf(stderr, "nicprog-calibrate: %s: %llu of %llu frames got a verdict, %llu runs not timed, after %u ms\n",
				d->name,
				(unsigned long long)(verdicts(d, cur) -
						     verdicts(d, base)),
				(unsigned long long)want,
				(unsigned long long)cur->v[d->pending],
				NICDEV_WAIT_MS);
			return -ETIMEDOUT;
		}
		usleep(want > 1 ? 2000 : 10000);
	}
}

/**
 * nicdev_run() - send frames and return what the counters moved by
 * @d: the port, with a micro-benchmark attached
 * @p: the frames' parameters; frame i after the first has seed
 *	@p->seed ^ (i * 0x9e3779b1), so that walks differ
 * @len: frame bytes
 * @frames: how many; 1 times that frame alone on the NIC, more are sent
 *	NICDEV_BURST at a time (the NIC overlaps them)
 * @delta: filled with the counters' differences
 *
 * Return: 0, -EIO if a frame was aborted (its parameters did not fit),
 * or another -errno.
 */
int nicdev_run(struct nicdev *d, const struct ub_params *p, uint32_t len,
	       uint32_t frames, struct nicdev_snap *delta)
{
	struct nicdev_snap before, cur;
	uint32_t sent = 0, n, i;
	struct ub_params q = *p;
	int err;

	before.v = calloc(d->n_stats, sizeof(uint64_t));
	cur.v = calloc(d->n_stats, sizeof(uint64_t));
	err = before.v && cur.v ? 0 : -ENOMEM;
	/* earlier runs are timed, so none overlaps these */
	if (!err)
		err = wait_for(d, &before, 0, true, &before);
	while (!err && sent < frames) {
		n = frames - sent < NICDEV_BURST ? frames - sent : NICDEV_BURST;
		for (i = 0; i < n && !err; i++) {
			q.seed = p->seed ^ ((sent + i) * 0x9e3779b1U);
			err = nicdev_send(d, &q, len);
		}
		sent += n;
		if (!err)
			err = wait_for(d, &before, sent, sent == frames, &cur);
	}
	if (!err) {
		for (i = 0; i < d->n_stats; i++)
			delta->v[i] = cur.v[i] - before.v[i];
		if (delta->v[d->verdicts[4]]) {
			fprintf(stderr, "nicprog-calibrate: %s aborted %llu frames\n",
				d->name,
				(unsigned long long)delta->v[d->verdicts[4]]);
			err = -EIO;
		}
	}
	free(before.v);
	free(cur.v);
	return err;
}

static int nicdev_shape_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[NICPROG_A_DEV_MAX + 1];

	nl_attrs(nlh, tb, NICPROG_A_DEV_MAX);
	if (tb[NICPROG_A_DEV_PLAN_SHAPE])
		*(int *)data = mnl_attr_get_u8(tb[NICPROG_A_DEV_PLAN_SHAPE]);
	return MNL_CB_OK;
}

/**
 * nicdev_plan_shape() - set the plan shape of @dev's next attach
 * @dev: the port, in the caller's network namespace
 * @shape: enum nicprog_shape
 * @old: filled with the shape before
 *
 * Through nicprog's netlink family (NICPROG_CMD_DEV_GET, _DEV_SET): the
 * policy's sysfs files are read-only.
 *
 * Return: 0 or -errno.
 */
int nicdev_plan_shape(const char *dev, int shape, int *old)
{
	struct nlmsghdr *nlh;
	struct nl *nl;
	int err;

	*old = -1;
	nl = calloc(1, sizeof(*nl));
	if (!nl)
		return -ENOMEM;
	err = nl_open(nl);
	if (err)
		goto out;
	nlh = nl_msg(nl, NICPROG_CMD_DEV_GET, 0);
	mnl_attr_put_strz(nlh, NICPROG_A_DEV_IFNAME, dev);
	err = nl_run(nl, nlh, nicdev_shape_cb, old);
	if (!err && *old < 0)
		err = -EOPNOTSUPP;
	if (!err) {
		nlh = nl_msg(nl, NICPROG_CMD_DEV_SET, 0);
		mnl_attr_put_strz(nlh, NICPROG_A_DEV_IFNAME, dev);
		mnl_attr_put_u8(nlh, NICPROG_A_DEV_PLAN_SHAPE, shape);
		err = nl_run(nl, nlh, NULL, NULL);
	}
	if (err && nl->ext_msg[0])
		fprintf(stderr, "nicprog-calibrate: %s: plan shape: %s\n", dev,
			nl->ext_msg);
	nl_close(nl);
out:
	free(nl);
	return err;
}
