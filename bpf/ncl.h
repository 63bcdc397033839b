/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * ncl.h - network kernels: programs that compute on the NICs between hosts
 * (Documentation/nicprog/ncl.rst).
 *
 * Hosts exchange arrays in windows carried by the Net Compute Protocol
 * (NCP) over UDP port NCL_UDP_PORT:
 *
 *   Ethernet | IPv4 (no options) | UDP | struct ncp_hdr | struct ncl_window
 *   | the window's elements of each array the mask names, in argument order
 *
 * A network kernel is an XDP program built with NCL_OUT() (outgoing: runs
 * on a NIC that plays a switch, one window at a time) or NCL_IN()
 * (incoming: runs on the receiving host, on its CPU or offloaded to its
 * NIC). The macro parses the frame into a struct ncl_ctx, counts and drops
 * what is malformed, hands the kernel's own windows to the object's
 * ncl_kernel() and forwards everything else: an outgoing kernel's switch
 * forwards it as an L2 switch does (ncl_forward()), an incoming kernel
 * passes it to the host stack. ncl_kernel() returns one of the forwarding
 * decisions below.
 *
 * Memory: the switch's memory is the object's tables; declared with
 * NCL_SHARED they are pinned by name, so that the program each switch port
 * loads shares one copy (a NIC's ports are one BPF offload device).
 * Control variables are tables declared with NCL_CTRL: the program can
 * only read them (BPF_F_RDONLY_PROG, which the verifier enforces) and only
 * the host runtime writes them. Conformance is the verifier's (bounded
 * loops, no recursion) and the offloader's (what the NIC can run).
 */
#ifndef __NCL_H
#define __NCL_H

#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "ncp.h"
#include "nicprog.h"

#define NCL_FDB_MAX	256	/* hosts one switch forwards to */
#define NCL_LABELS_MAX	64	/* label numbers 0 .. NCL_LABELS_MAX - 1 */


#define NCL_SHARED	__uint(pinning, LIBBPF_PIN_BY_NAME)
#define NCL_CTRL	__uint(map_flags, BPF_F_RDONLY_PROG); NCL_SHARED

/*
 * Forwarding table: the destination MAC's six bytes, in frame order, in a
 * zeroed __u64 -> the ifindex of the switch port it is behind. Filled by
 * the deploy step (tools/testing/topo).
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u64);
	__type(value, __u32);
	__uint(max_entries, NCL_FDB_MAX);
	NCL_CTRL;
} ncl_fdb SEC(".maps");

/* Per NCL_ST_*, frames. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, NCL_ST_MAX);
	NCL_SHARED;
} ncl_stats SEC(".maps");

/* A control variable: __u32s the host runtime writes, the datapath reads. */
#define NCL_CTRL_U32(name, entries)				\
	struct {						\
		__uint(type, BPF_MAP_TYPE_ARRAY);		\
		__type(key, __u32);				\
		__type(value, __u32);				\
		__uint(max_entries, entries);			\
		NCL_CTRL;					\
	} name SEC(".maps")

/* Kernel id -> nonzero if the network runs it somewhere; a control variable. */
NCL_CTRL_U32(ncl_known, 256);

/*
 * Where an incoming kernel delivers (ncl_deliver()), a control variable
 * the host runtime writes: 0, the host's stack (the application's UDP
 * socket); K, the NIC's NF output K - 1, whose RX pipe the application
 * bound (libncl's nicprog-ring backend). Only an offloaded kernel's NIC
 * has outputs: on the host's CPU it stays 0.
 */
NCL_CTRL_U32(ncl_pipe, 1);

/* <linux/nicprog.h>'s NICPROG_RING_OUTPUTS, which BPF objects do not see */
#define NCL_PIPE_OUTPUTS	64

/*
 * Kernel id -> the label number of the host that serves it (the
 * description's "serve ID LABEL"), 0 for none; a control variable.
 */
NCL_CTRL_U32(ncl_server, 256);

/* Label number -> where it is; a control variable. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct ncl_label);
	__uint(max_entries, NCL_LABELS_MAX);
	NCL_CTRL;
} ncl_labels SEC(".maps");

/**
 * struct ncl_ctx - a parsed window
 * @xdp: the frame
 * @end: the frame's end
 * @eth: its Ethernet header
 * @ip: its IPv4 header
 * @udp: its UDP header
 * @ncp: its NCP header
 * @win: its window metadata
 * @data: the first carried array's elements
 * @kernel: @ncp's kernel
 * @mask: @ncp's mask
 * @seq: @win's seq, host order
 * @sender: @win's sender, host order
 * @len: @win's len, host order
 */
struct ncl_ctx {
	struct xdp_md *xdp;
	void *end;
	struct ethhdr *eth;
	struct iphdr *ip;
	struct udphdr *udp;
	struct ncp_hdr *ncp;
	struct ncl_window *win;
	void *data;
	__u32 kernel;
	__u32 mask;
	__u32 seq;
	__u32 sender;
	__u32 len;
};

static __always_inline void ncl_count(__u32 what)
{
	__u64 *n = bpf_map_lookup_elem(&ncl_stats, &what);

	if (n)
		__sync_fetch_and_add(n, 1);
}

/* Drop, counted as @what. */
static __always_inline int ncl_refuse(__u32 what)
{
	ncl_count(what);
	return XDP_DROP;
}

/* 0 for a window, 1 for a frame that is not NCP, -NCL_ST_* to drop. */
static __always_inline int ncl_parse(struct xdp_md *xdp, struct ncl_ctx *c)
{
	void *data = (void *)(long)xdp->data;

	c->xdp = xdp;
	c->end = (void *)(long)xdp->data_end;
	c->eth = data;
	if ((void *)(c->eth + 1) > c->end ||
	    c->eth->h_proto != bpf_htons(ETH_P_IP))
		return 1;
	c->ip = (void *)(c->eth + 1);
	if ((void *)(c->ip + 1) > c->end || c->ip->protocol != IPPROTO_UDP)
		return 1;
	if (c->ip->frag_off & bpf_htons(0x3fff))
		return 1;	/* a fragment: no window */
	if (c->ip->ihl != 5) {
		/* options move the UDP header: no window has them */
		c->udp = (void *)c->ip + c->ip->ihl * 4;
		if (c->ip->ihl < 5 || (void *)(c->udp + 1) > c->end)
			return 1;
		return c->udp->dest == bpf_htons(NCL_UDP_PORT) ?
		       -NCL_ST_MALFORMED : 1;
	}
	c->udp = (void *)(c->ip + 1);
	if ((void *)(c->udp + 1) > c->end)
		return 1;
	if (c->udp->dest != bpf_htons(NCL_UDP_PORT))
		return 1;
	c->ncp = (void *)(c->udp + 1);
	c->win = (void *)(c->ncp + 1);
	c->data = (void *)(c->win + 1);
	if (c->data > c->end)
		return -NCL_ST_TRUNCATED;
	if (c->ncp->version != NCL_VERSION || !c->ncp->kernel)
		return -NCL_ST_MALFORMED;
	c->kernel = c->ncp->kernel;
	c->mask = c->ncp->mask;
	c->seq = bpf_ntohl(c->win->seq);
	c->sender = bpf_ntohs(c->win->sender);
	c->len = bpf_ntohs(c->win->len);
	if (!c->len || c->len > NCL_WIN_BYTES)
		return -NCL_ST_MALFORMED;
	return 0;
}

/*
 * The window's arrays, @elem_bytes per element of each carried one, end
 * within the frame: 0, or -NCL_ST_BAD_MASK when the mask is not @mask,
 * -NCL_ST_TRUNCATED when the frame is short.
 */
static __always_inline int ncl_args(struct ncl_ctx *c, __u32 mask,
				    __u32 elem_bytes)
{
	__u32 n = 0, i;

	if (c->mask != mask)
		return -NCL_ST_BAD_MASK;
	for (i = 0; i < NCL_ARGS_MAX; i++)
		if (mask & (1U << i))
			n++;
	if (c->len * elem_bytes * n > NCL_WIN_BYTES)
		return -NCL_ST_MALFORMED;
	if (c->data + c->len * elem_bytes * n > c->end)
		return -NCL_ST_TRUNCATED;
	return 0;
}

/* The IPv4 header's checksum over its 20 bytes (ihl is 5). */
static __always_inline void ncl_ip_csum(struct iphdr *ip)
{
	__u16 *w = (__u16 *)ip;
	__u32 sum = 0;
	int i;

	ip->check = 0;
#pragma unroll
	for (i = 0; i < 10; i++)
		sum += w[i];
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	ip->check = (__u16)~sum;
}

/* The frame is the network's answer: a result, its UDP checksum unset. */
static __always_inline void ncl_result(struct ncl_ctx *c)
{
	c->ncp->flags = (c->ncp->flags | NCP_F_RESULT) & ~NCP_F_RESEND;
	c->udp->check = 0;	/* IPv4 allows none; the payload changed */
}

/* Forward a frame toward its destination MAC: XDP_REDIRECT or XDP_DROP. */
static __always_inline int ncl_forward(struct xdp_md *xdp)
{
	void *data_end = (void *)(long)xdp->data_end;
	struct ethhdr *eth = (void *)(long)xdp->data;
	__u64 mac = 0;
	__u32 *port;

	if ((void *)(eth + 1) > data_end)
		return XDP_DROP;
	__builtin_memcpy(&mac, eth->h_dest, ETH_ALEN);
	port = bpf_map_lookup_elem(&ncl_fdb, &mac);
	if (!port || *port == xdp->ingress_ifindex)
		return ncl_refuse(NCL_ST_NO_ROUTE);
	return bpf_redirect(*port, 0);
}

/*
 * On a switch: the window came from the host its sender names, the
 * label's MAC and IPv4 address (ncl_labels) on the port the switch
 * forwards that MAC to (ncl_fdb). 0; -NCL_ST_MALFORMED for a sender that
 * is no host's label; -NCL_ST_FORGED for a window from anywhere else.
 * The hosts behind a switch reach each other only through it, so what it
 * forwards or answers was sent by the label the window names.
 */
static __always_inline int ncl_sender_check(struct ncl_ctx *c)
{
	__u64 mac = 0, want = 0;
	struct ncl_label *l;
	__u32 label = c->sender, *port;

	l = bpf_map_lookup_elem(&ncl_labels, &label);
	if (!l || !l->addr)
		return -NCL_ST_MALFORMED;
	__builtin_memcpy(&mac, c->eth->h_source, ETH_ALEN);
	__builtin_memcpy(&want, l->mac, ETH_ALEN);
	if (mac != want || c->ip->saddr != l->addr)
		return -NCL_ST_FORGED;
	port = bpf_map_lookup_elem(&ncl_fdb, &mac);
	if (!port || *port != c->xdp->ingress_ifindex)
		return -NCL_ST_FORGED;
	return 0;
}

/*
 * The window's sender is the label that serves its kernel (ncl_server),
 * the only one whose server kinds (a cache's fills, say) a kernel should
 * take. An outgoing kernel's sender is checked before ncl_kernel() runs;
 * an incoming kernel's is what the switch let through.
 */
static __always_inline int ncl_from_server(struct ncl_ctx *c)
{
	__u32 kernel = c->kernel, *label;

	label = bpf_map_lookup_elem(&ncl_server, &kernel);
	return label && *label && *label == c->sender;
}

/* Forwarding decisions, for ncl_kernel() to return. */

/* Nothing goes on: the window was consumed. */
static __always_inline int ncl_drop(struct ncl_ctx *c)
{
	(void)c;
	return XDP_DROP;
}

/*
 * An incoming kernel's: on to the application, through the host's stack
 * or, when the runtime bound one (ncl_pipe), the NIC's pipe.
 */
static __always_inline int ncl_deliver(struct ncl_ctx *c)
{
	__u32 zero = 0, *out = bpf_map_lookup_elem(&ncl_pipe, &zero);

	(void)c;
	if (out && *out && *out <= NCL_PIPE_OUTPUTS)
		return nicprog_redirect_pipe(*out - 1);
	return XDP_PASS;
}

/* Back to the previous hop: addresses and ports swapped, as a result. */
static __always_inline int ncl_reflect(struct ncl_ctx *c)
{
	__u8 mac[ETH_ALEN];
	__be32 addr;
	__be16 port;

	__builtin_memcpy(mac, c->eth->h_dest, ETH_ALEN);
	__builtin_memcpy(c->eth->h_dest, c->eth->h_source, ETH_ALEN);
	__builtin_memcpy(c->eth->h_source, mac, ETH_ALEN);
	addr = c->ip->daddr;
	c->ip->daddr = c->ip->saddr;
	c->ip->saddr = addr;	/* the checksum does not change */
	port = c->udp->dest;
	c->udp->dest = c->udp->source;
	c->udp->source = port;
	ncl_result(c);
	return XDP_TX;
}

/* On toward the frame's destination, unchanged. */
static __always_inline int ncl_pass(struct ncl_ctx *c)
{
	return ncl_forward(c->xdp);
}

/* On to label number @label instead (ncl_labels), as a result. */
static __always_inline int ncl_pass_to(struct ncl_ctx *c, __u32 label)
{
	struct ncl_label *l = bpf_map_lookup_elem(&ncl_labels, &label);

	if (!l || !l->addr)
		return ncl_refuse(NCL_ST_NO_ROUTE);
	__builtin_memcpy(c->eth->h_dest, l->mac, ETH_ALEN);
	c->ip->daddr = l->addr;
	ncl_ip_csum(c->ip);
	ncl_result(c);
	return ncl_forward(c->xdp);
}

/*
 * To every host's broadcast address, as a result, from the address the
 * window was sent to (the switch's label): the sender gets a copy too
 * (ncl_bcast_all()), and a host drops a frame from its own address.
 */
static __always_inline void ncl_to_all(struct ncl_ctx *c)
{
	__builtin_memcpy(c->eth->h_source, c->eth->h_dest, ETH_ALEN);
	__builtin_memset(c->eth->h_dest, 0xff, ETH_ALEN);
	c->ip->saddr = c->ip->daddr;
	c->ip->daddr = bpf_htonl(0xffffffff);
	ncl_ip_csum(c->ip);
	ncl_result(c);
}

/*
 * To every overlay neighbour but the sender: the NIC floods a copy out of
 * every other port (nicprog_redirect_flood()). On a host no device takes
 * the redirect and the frame is dropped: only outgoing kernels broadcast.
 */
static __always_inline int ncl_bcast(struct ncl_ctx *c)
{
	ncl_to_all(c);
	return nicprog_redirect_flood(0);
}

/* To every overlay neighbour, the sender too: a reflect and a broadcast. */
static __always_inline int ncl_bcast_all(struct ncl_ctx *c)
{
	ncl_to_all(c);
	return nicprog_redirect_flood(1);
}

/*
 * The object's kernels: a window for kernel c->kernel, a decision; or
 * NCL_NOT_MINE for a kernel the object does not run, which goes on as
 * other traffic does if the network runs it somewhere (ncl_known), and is
 * dropped as unknown if not.
 */
#define NCL_NOT_MINE	(-1)
static int ncl_kernel(struct ncl_ctx *c);

static __always_inline int ncl_run(struct xdp_md *xdp, int other)
{
	struct ncl_ctx c;
	__u32 *known;
	int r = ncl_parse(xdp, &c);

	if (r > 0)
		return other < 0 ? ncl_forward(xdp) : other;
	if (r < 0)
		return ncl_refuse(-r);
	if (other < 0) {
		r = ncl_sender_check(&c);
		if (r)
			return ncl_refuse(-r);
	}
	r = ncl_kernel(&c);
	if (r != NCL_NOT_MINE) {
		ncl_count(NCL_ST_WINDOWS);
		return r;
	}
	known = bpf_map_lookup_elem(&ncl_known, &c.kernel);
	if (!known || !*known)
		return ncl_refuse(NCL_ST_UNKNOWN);
	return other < 0 ? ncl_forward(xdp) : other;
}

/*
 * Where the object runs and which kernels it runs, for the deploy step
 * (tools/ncl/ncl): NCL_PLACE("s1", "1 2") puts the object on the device
 * label s1 names in the network description, running kernels 1 and 2;
 * labels may be a comma-separated list, and "hosts" is every host.
 */
#define NCL_PLACE(label, kernels)					\
	char ncl_place[] SEC("ncl.place") = "at " label " kernels " kernels

/* An outgoing kernel's program: what is not NCP is switched. */
#define NCL_OUT(name)							\
	SEC("xdp") int name(struct xdp_md *xdp)				\
	{								\
		return ncl_run(xdp, -1);				\
	}

/* An incoming kernel's program: what is not NCP goes to the host. */
#define NCL_IN(name)							\
	SEC("xdp") int name(struct xdp_md *xdp)				\
	{								\
		return ncl_run(xdp, XDP_PASS);				\
	}

#endif /* __NCL_H */
