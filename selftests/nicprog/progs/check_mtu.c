// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_check_mtu() of the receiving port, as the kernel's test_check_mtu.c
 * and MTU-aware encapsulators call it: ifindex 0, a length change and an
 * L3 length the frame chooses, so that frames fall on both sides of the
 * MTU and right at it. The result and the MTU written back go into the
 * frame and a table, for the oracle to compare with the host's.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 4);
} mtu_stats SEC(".maps");

static __always_inline void count(__u32 k)
{
	__u64 *v = bpf_map_lookup_elem(&mtu_stats, &k);

	if (v)
		__sync_fetch_and_add(v, 1);
}

SEC("xdp")
int check_mtu(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	__u8 *b = data;
	__u32 mtu_len = 0;
	int delta;
	long ret;

	if (data + ETH_HLEN + 4 > data_end)
		return XDP_PASS;
	/* -64 .. +63 around the frame's own length, or an L3 length */
	delta = (int)(b[10] & 0x7f) - 64;
	if (b[11] & 1)
		mtu_len = 1400 + b[9];
	ret = bpf_check_mtu(ctx, 0, &mtu_len, delta, 0);
	count(ret == BPF_MTU_CHK_RET_SUCCESS ? 0 :
	      ret == BPF_MTU_CHK_RET_FRAG_NEEDED ? 1 : 2);
	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	if (data + ETH_HLEN + 4 > data_end)
		return XDP_ABORTED;
	b = data;
	b[ETH_HLEN] = ret;
	b[ETH_HLEN + 1] = mtu_len >> 8;
	b[ETH_HLEN + 2] = mtu_len;
	return ret ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
