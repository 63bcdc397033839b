/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A nicprog port as the calibrator drives it: its ethtool counters, a
 * packet socket on its link peer that sends it frames, and one offloaded
 * micro-benchmark at a time.
 */
#ifndef NICDEV_H
#define NICDEV_H

#include <stdbool.h>
#include <stdint.h>
#include <net/if.h>

#include "ubench.h"

struct bpf_object;

struct nicdev {
	char name[IF_NAMESIZE];
	int ifindex;
	int ctl;		/* socket for SIOCETHTOOL */
	int tx;			/* AF_PACKET on the peer */
	int peer_ifindex;
	uint32_t n_stats;
	char (*names)[32];	/* ETH_GSTRING_LEN */
	void *gstats;		/* struct ethtool_stats */
	struct bpf_object *obj;
	/* counters the calibrator sums, by index into a snapshot */
	int verdicts[5];
	int pending;
};

/* A snapshot of every counter of the port, in the order of its names. */
struct nicdev_snap {
	uint64_t *v;
};

int nicdev_open(struct nicdev *d, const char *dev, const char *peer);
void nicdev_close(struct nicdev *d);
int nicdev_stat(const struct nicdev *d, const char *name);
int nicdev_read(struct nicdev *d, struct nicdev_snap *s);
int nicdev_load(struct nicdev *d, const char *obj, const char *prog,
		uint32_t walk_entries);
void nicdev_unload(struct nicdev *d);
int nicdev_send(struct nicdev *d, const struct ub_params *p, uint32_t len);
int nicdev_run(struct nicdev *d, const struct ub_params *p, uint32_t len,
	       uint32_t frames, struct nicdev_snap *delta);
int nicdev_plan_shape(const char *dev, int shape, int *old);

#endif
