// SPDX-License-Identifier: GPL-2.0
/*
 * rss_steer - software receive-side scaling in the manner of the XDP
 * CPU-steering samples, written for a NIC with a hash engine: a flow's
 * IPv4 addresses, and its ports when the header has no options, are
 * hashed with Toeplitz and the RSS specification's key
 * (nicprog_accel_toeplitz(), the hash a NIC's own RSS computes); the
 * hash's low bits pick an entry of a 128-entry indirection table (an
 * ARRAY), which names a queue. Each queue counts its frames and bytes in
 * an ARRAY every core shares (so a heavy flow's queue is one hot line);
 * a queue the table marks down drops its frames, and an unconfigured
 * table (every entry 0) steers every flow to queue 0. Frames pass, for
 * the host's queue of the same number; non-IPv4 passes uncounted.
 *
 * Held out from the predictor (bpf/heldout/README, set 7).
 */
#define NICPROG_USE_TOEPLITZ
#include "../nicprog.h"
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "../flow.h"

#define INDIR_SIZE	128
#define NQUEUES		64
#define QUEUE_DOWN	0xffff
#define ADDRS_OFF	(ETH_HLEN + 12)	/* saddr, daddr, then the ports */

struct queue_stats {
	__u64 frames;
	__u64 bytes;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);	/* queue, or QUEUE_DOWN */
	__uint(max_entries, INDIR_SIZE);
} rss_indir SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct queue_stats);
	__uint(max_entries, NQUEUES);
} rss_queues SEC(".maps");

SEC("xdp")
int xdp_rss_steer(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct queue_stats *qs;
	__u32 slot, *queue, q;
	struct iphdr *iph;
	__u64 h, span;
	int verdict;

	iph = eth_ipv4(data, data_end, &verdict);
	if (!iph)
		return verdict;

	span = 8;
	if (iph->ihl == 5 && (iph->protocol == IPPROTO_TCP ||
			      iph->protocol == IPPROTO_UDP))
		span = 12;
	h = nicprog_accel_toeplitz(ctx, ADDRS_OFF, span, 0,
				   NICPROG_AFN(NICPROG_AFN_TOEPLITZ));
	if (h == NICPROG_ACCEL_ERR)
		return XDP_PASS;
	slot = (__u32)h & (INDIR_SIZE - 1);
	queue = bpf_map_lookup_elem(&rss_indir, &slot);
	if (!queue)
		return XDP_ABORTED;
	if (*queue == QUEUE_DOWN)
		return XDP_DROP;
	q = *queue & (NQUEUES - 1);
	qs = bpf_map_lookup_elem(&rss_queues, &q);
	if (!qs)
		return XDP_ABORTED;
	__sync_fetch_and_add(&qs->frames, 1);
	__sync_fetch_and_add(&qs->bytes, data_end - data);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
