/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * flow.h - what NFs of every kind write alike, written once: the IPv4
 * 5-tuple as connection-tracking NFs key their tables by it, and the
 * first checks of an IPv4 XDP program -- a frame too short for its
 * Ethernet or IPv4 header is dropped, one that is not IPv4 passes. The
 * example NFs (examples/parse.h) and the held-out ones use it; it needs
 * nothing of nicprog.h.
 */
#ifndef __NICPROG_FLOW_H
#define __NICPROG_FLOW_H

#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

/* The 5-tuple as a key: copies of header bytes and zeros. */
struct tuple4 {
	__be32 saddr;
	__be32 daddr;
	__be16 sport;
	__be16 dport;
	__u8 proto;
	__u8 pad[3];
};

/*
 * The IPv4 header of the Ethernet frame [data, data_end), or NULL with
 * *verdict set: XDP_DROP for a frame cut short, XDP_PASS for one that is
 * not IPv4.
 */
static __always_inline struct iphdr *eth_ipv4(void *data, void *data_end,
					      int *verdict)
{
	struct ethhdr *eth = data;
	struct iphdr *iph = (void *)(eth + 1);

	*verdict = XDP_DROP;
	if ((void *)(eth + 1) > data_end)
		return NULL;
	*verdict = XDP_PASS;
	if (eth->h_proto != bpf_htons(ETH_P_IP))
		return NULL;
	*verdict = XDP_DROP;
	if ((void *)(iph + 1) > data_end)
		return NULL;
	return iph;
}

#endif /* __NICPROG_FLOW_H */
