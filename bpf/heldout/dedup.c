// SPDX-License-Identifier: GPL-2.0
/*
 * dedup - drops a frame whose first bytes of payload repeat those of a
 * recent frame of the same destination, as packet de-duplication on a
 * mirror port does: the Internet checksum of up to SIG_LEN bytes after the
 * IPv4 header (sig16(), a plain ones' complement sum an offloader may
 * recognise and give to a checksum engine; 0 for a region not in the
 * frame), with the destination, keys a HASH of signatures
 * seen; a hit within HOLD frames of the same signature drops, a miss
 * records it. Frames are numbered by a per-destination counter, not a
 * clock, so the result does not depend on timing.
 *
 * Held out from the predictor (bpf/heldout/README).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define SIG_LEN	32
#define HOLD	64

struct sig_key {
	__be32 daddr;
	__u32 sig;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct sig_key);
	__type(value, __u64);		/* the destination's frame number */
	__uint(max_entries, 8192);
} seen SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __be32);
	__type(value, __u64);
	__uint(max_entries, 256);
} frame_no SEC(".maps");

__noinline __u32 sig16(struct xdp_md *ctx, __u64 off, __u64 len, __u32 seed)
{
	__u8 *data = (void *)(long)ctx->data;
	__u8 *data_end = (void *)(long)ctx->data_end;
	__u32 sum = seed, i;
	__u8 *p, *w;

	asm volatile("" : "+r"(off), "+r"(len));
	if (off > 1024 || len > SIG_LEN || off + len > (__u64)(data_end - data))
		return 0;
	p = data + off;
	for (i = 0; i < SIG_LEN / 2; i++) {
		if (2 * i + 2 > len)
			break;
		w = p + 2 * i;
		if (w + 2 > data_end)
			return 0;
		sum += (__u32)w[0] << 8 | w[1];
	}
	if (len & 1) {
		w = p + 2 * i;
		if (w + 1 > data_end)
			return 0;
		sum += (__u32)w[0] << 8;
	}
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return ~sum & 0xffff;
}

SEC("xdp")
int dedup(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	struct iphdr *iph = (void *)(eth + 1);
	__u64 len = data_end - data, off, n = 1, *no, *when;
	struct sig_key key = {};

	if ((void *)(iph + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP) ||
	    iph->ihl != 5)
		return XDP_PASS;
	key.daddr = iph->daddr;
	off = sizeof(*eth) + sizeof(*iph);
	if (len <= off)
		return XDP_PASS;
	key.sig = sig16(ctx, off, len - off > SIG_LEN ? SIG_LEN : len - off, 0);
	if (!key.sig)
		return XDP_PASS;
	no = bpf_map_lookup_elem(&frame_no, &key.daddr);
	if (no)
		n = __sync_fetch_and_add(no, 1) + 1;
	else
		bpf_map_update_elem(&frame_no, &key.daddr, &n, BPF_NOEXIST);
	when = bpf_map_lookup_elem(&seen, &key);
	if (when && n - *when <= HOLD)
		return XDP_DROP;
	bpf_map_update_elem(&seen, &key, &n, BPF_ANY);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
