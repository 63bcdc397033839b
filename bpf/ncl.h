/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * ncl.h - network kernels: programs that compute on the NICs between hosts
 * (Documentation/nicprog/ncl.rst).
 *
 * A network kernel is an ordinary XDP program offloaded to a nicsim NIC
 * that plays a switch (or to a receiving host's NIC). Whatever is not the
 * kernel's own traffic the switch forwards as any L2 switch does:
 * ncl_forward() looks the destination MAC up in the forwarding table
 * ncl_fdb, which the deploy step (tools/testing/topo) fills with every
 * host's MAC and the switch port it is wired to, and sends the frame out of
 * that port. A frame for a MAC the table lacks, or for the port it came in
 * on, is dropped (and counted by the NIC as the program's drop): hosts have
 * static neighbours, so the switch sees no ARP to flood.
 */
#ifndef __NCL_H
#define __NCL_H

#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>

#define NCL_FDB_MAX	256	/* hosts one switch forwards to */

/*
 * Forwarding table: the destination MAC's six bytes, in frame order, in a
 * zeroed __u64 -> the ifindex of the switch port it is behind.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u64);
	__type(value, __u32);
	__uint(max_entries, NCL_FDB_MAX);
} ncl_fdb SEC(".maps");

/* Send the frame toward its destination MAC: XDP_REDIRECT or XDP_DROP. */
static __always_inline int ncl_forward(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	__u64 mac = 0;
	__u32 *port;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	__builtin_memcpy(&mac, eth->h_dest, ETH_ALEN);
	port = bpf_map_lookup_elem(&ncl_fdb, &mac);
	if (!port || *port == ctx->ingress_ifindex)
		return XDP_DROP;
	return bpf_redirect(*port, 0);
}

#endif /* __NCL_H */
