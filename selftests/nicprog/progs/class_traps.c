// SPDX-License-Identifier: GPL-2.0
/*
 * Constructs a per-class walk of the program (kernel/offload/classwalk.c)
 * must not be fooled by, each taken by frames of the classes it is about
 * (cli_offline_test.sh checks every frame's blocks against its class's
 * walk):
 *
 * - a packet pointer spilled to the stack across a helper call whose key
 *   is on the stack too, then loaded back and used;
 * - the IPv4 protocol rewritten in the frame, then branched on: a UDP
 *   frame becomes "TCP" and takes the TCP arm;
 * - bpf_xdp_adjust_head() pulling the Ethernet header off a UDP frame,
 *   then parsing what follows as if it were Ethernet (the decap of an
 *   IP-in-UDP tunnel's inner frame, without the tunnel);
 * - a test of TCP's SYN flag (a frame of the tcp-syn class knows it) and
 *   a signed comparison of a loaded byte.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 8);
} arms SEC(".maps");

static __always_inline void arm(__u32 k)
{
	__u64 *v = bpf_map_lookup_elem(&arms, &k);

	if (v)
		__sync_fetch_and_add(v, 1);
}

SEC("xdp")
int class_traps(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph = (void *)(eth + 1);
	volatile struct iphdr *vip;
	struct tcphdr *th;
	__u32 key = 0;
	__u64 *v;

	if ((void *)(iph + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	/* the header pointer lives on the stack while the helper runs */
	vip = iph;
	asm volatile("" : "+m"(vip));
	v = bpf_map_lookup_elem(&arms, &key);
	if (v)
		*v += 1;
	iph = (struct iphdr *)vip;
	if ((void *)(iph + 1) > data_end)
		return XDP_ABORTED;
	if (iph->protocol == IPPROTO_TCP) {
		th = (void *)(iph + 1);
		if ((void *)(th + 1) > data_end)
			return XDP_PASS;
		/* SYN frames: the flag, then a signed look at the TTL */
		if (((__u8 *)th)[13] & 0x02) {
			if ((__s8)iph->ttl < 0)
				arm(1);
			else
				arm(2);
			return XDP_DROP;
		}
		arm(3);
		return XDP_PASS;
	}
	if (iph->protocol == IPPROTO_UDP && (iph->daddr & bpf_htonl(1))) {
		/* UDP to odd addresses: said to be TCP, then asked */
		iph->protocol = IPPROTO_TCP;
		asm volatile("" ::: "memory");
		if (iph->protocol == IPPROTO_TCP) {
			arm(4);
			return XDP_DROP;
		}
		arm(5);
		return XDP_PASS;
	}
	if (iph->protocol == IPPROTO_UDP) {
		/* the rest: the Ethernet header pulled off, IP read as one */
		if (bpf_xdp_adjust_head(ctx, sizeof(*eth)))
			return XDP_ABORTED;
		data_end = (void *)(long)ctx->data_end;
		data = (void *)(long)ctx->data;
		eth = data;
		if ((void *)(eth + 1) > data_end)
			return XDP_ABORTED;
		/* bytes 26-27 of the frame: the IPv4 source address's first half */
		if (eth->h_proto == bpf_htons(ETH_P_IP))
			arm(6);
		else
			arm(7);
		return XDP_DROP;
	}
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
