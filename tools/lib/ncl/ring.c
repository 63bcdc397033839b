// SPDX-License-Identifier: GPL-2.0
/*
 * libncl's nicprog-ring backend: an incoming kernel offloaded to the
 * receiving host's NIC steers the answers it delivers to an NF output
 * (bpf/ncl.h's ncl_pipe, a control variable written here), and the
 * application reads them from the RX pipe it bound to that output
 * (libnicring, io_uring), not from its socket: no host stack on the way
 * in. Windows still leave by the socket.
 */
#define _GNU_SOURCE	/* if_nametoindex() under -std=c99 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/ip.h>
#include <linux/udp.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "../nicring/nicring.h"
#include "ncl.h"
#include "ring.h"

#define NCL_PIPE_BYTES	(1u << 20)
#define NCL_RING_BATCH	64

struct ncl_ring {
	struct nicring *r;
	struct nicring_pipe *pipe;
	int pipe_map;	/* the ncl_pipe control variable */
	int delivering;	/* we wrote it: put it back when done */
};

/* Deliver through output @v - 1, or to the host's stack for 0. */
static int ring_pipe_set(int map, uint32_t v)
{
	uint32_t zero = 0;

	return bpf_map_update_elem(map, &zero, &v, BPF_ANY) ? -errno : 0;
}

void ncl_ring_free(struct ncl_ring *rg)
{
	if (!rg)
		return;
	if (rg->pipe_map >= 0) {
		/* answers after the application are the stack's again */
		if (rg->delivering)
			ring_pipe_set(rg->pipe_map, 0);
		close(rg->pipe_map);
	}
	if (rg->r)
		nicring_close(rg->r);
	free(rg);
}

int ncl_ring_attach(struct ncl_endpoint *ep, const char *ifname,
		    uint32_t output, const char *pipe_pin, char *why,
		    size_t why_len)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	struct ncl_ring *rg;
	unsigned int ifindex;
	int err;

	if (ep->ring)
		return ncl_why(why, why_len, -EBUSY, "the endpoint has a pipe already");
	ifindex = if_nametoindex(ifname);
	if (!ifindex)
		return ncl_why(why, why_len, -ENODEV, "no port %s", ifname);
	/* a pipe is the NIC's: a kernel on the host's CPU has none */
	err = bpf_xdp_query((int)ifindex, 0, &q);
	if (err)
		return ncl_why(why, why_len, err, "%s: cannot query its XDP program: %s",
				ifname, strerror(-err));
	if (q.attach_mode != XDP_ATTACHED_HW)
		return ncl_why(why, why_len, -EOPNOTSUPP,
				"%s: the incoming kernel is not offloaded to the NIC (a pipe is the NIC's; on the host's CPU answers reach the socket)",
				ifname);
	rg = calloc(1, sizeof(*rg));
	if (!rg)
		return ncl_why(why, why_len, -ENOMEM, "out of memory");
	rg->pipe_map = bpf_obj_get(pipe_pin);
	if (rg->pipe_map < 0) {
		err = -errno;
		ncl_ring_free(rg);
		return ncl_why(why, why_len, err,
				"%s: %s (is an incoming kernel that delivers deployed at this host?)",
				pipe_pin, strerror(-err));
	}
	rg->r = nicring_open(ifname, &err);
	if (!rg->r) {
		ncl_ring_free(rg);
		return ncl_why(why, why_len, err, "%s: cannot open its ring device: %s",
				ifname, strerror(-err));
	}
	rg->pipe = nicring_rx(rg->r, NCL_PIPE_BYTES, NICPROG_FRAMING_RECORDS,
			      output, &err);
	if (!rg->pipe) {
		ncl_ring_free(rg);
		return ncl_why(why, why_len, err, "%s: cannot bind an RX pipe to output %u: %s",
				ifname, output, strerror(-err));
	}
	/* the pipe first, then the kernel's delivery to it */
	err = ring_pipe_set(rg->pipe_map, output + 1);
	if (err) {
		ncl_ring_free(rg);
		return ncl_why(why, why_len, err, "%s: cannot write it: %s",
				pipe_pin, strerror(-err));
	}
	rg->delivering = 1;
	ep->ring = rg;
	return 0;
}

/* The UDP payload of an Ethernet frame @f of @len bytes, or NULL. */
static const void *ring_payload(const void *f, uint32_t len, size_t *n)
{
	const struct ethhdr *eth = f;
	const struct iphdr *ip = (const void *)(eth + 1);
	const struct udphdr *udp;
	uint32_t ihl;

	if (len < sizeof(*eth) + sizeof(*ip) + sizeof(*udp) ||
	    eth->h_proto != htons(ETH_P_IP) || ip->protocol != IPPROTO_UDP)
		return NULL;
	ihl = ip->ihl * 4u;
	if (ihl < sizeof(*ip) || len < sizeof(*eth) + ihl + sizeof(*udp))
		return NULL;
	udp = (const void *)((const char *)ip + ihl);
	*n = len - sizeof(*eth) - ihl - sizeof(*udp);
	return udp + 1;
}

int ncl_ring_take(struct ncl_ring *rg, int timeout_ms,
		  void (*each)(void *arg, const void *payload, size_t n),
		  void *arg)
{
	struct nicring_rec recs[NCL_RING_BATCH];
	const void *p;
	int n, i, err;
	size_t len;

	n = nicring_peek(rg->pipe, recs, NCL_RING_BATCH);
	if (!n) {
		if (timeout_ms < 1)
			timeout_ms = 1;
		if (timeout_ms > NICPROG_WAIT_TIMEOUT_MAX)
			timeout_ms = NICPROG_WAIT_TIMEOUT_MAX;
		err = nicring_wait(rg->r, (uint32_t)timeout_ms);
		if (err < 0)
			return err;
		n = nicring_peek(rg->pipe, recs, NCL_RING_BATCH);
	}
	for (i = 0; i < n; i++) {
		p = ring_payload(recs[i].data, recs[i].len, &len);
		each(arg, p, p ? len : 0);
	}
	nicring_release(rg->pipe, n);
	return n;
}
