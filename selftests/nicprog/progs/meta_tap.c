// SPDX-License-Identifier: GPL-2.0
/*
 * The oracle's view of XDP metadata on the host: a tc ingress program
 * that records, for every frame, how many bytes of metadata came with it
 * and their first 32, in the single entry of "meta_seen", and counts the
 * frames it saw there.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

struct meta_rec {
	__u32 seq;
	__u32 len;
	__u8 data[32];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct meta_rec);
	__uint(max_entries, 1);
} meta_seen SEC(".maps");

SEC("tc")
int meta_tap(struct __sk_buff *skb)
{
	__u8 *meta = (void *)(long)skb->data_meta;
	__u8 *data = (void *)(long)skb->data;
	struct meta_rec *r;
	__u32 key = 0, i;

	r = bpf_map_lookup_elem(&meta_seen, &key);
	if (!r)
		return TC_ACT_OK;
	r->len = 0;
#pragma unroll
	for (i = 0; i < 32; i++) {
		if (meta + i + 1 > data)
			break;
		r->data[i] = meta[i];
		r->len = i + 1;
	}
	__sync_fetch_and_add(&r->seq, 1);
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
