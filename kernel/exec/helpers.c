// SPDX-License-Identifier: GPL-2.0
/*
 * XDP helpers of the NIC-core executor that act on the frame itself. Each
 * reproduces Linux 6.1's net/core/filter.c for a linear xdp_buff, return
 * values included, so an NF behaves on the NIC exactly as on the host.
 */
#include "../offload/compat.h"
#include <net/nicprog_exec.h>

/* bpf_xdp_pointer() of a linear frame: 0 if the span is in it, or why not. */
static long xdp_span(const struct nicprog_exec_pkt *pkt, u32 offset, u32 len)
{
	if (offset > 0xffff || len > 0xffff)
		return -EFAULT;
	if (offset + len > pkt->data_end - pkt->data)
		return -EINVAL;
	return 0;
}

/* bpf_xdp_load_bytes(): copy frame bytes out to the program's buffer. */
long nicprog_exec_load_bytes(const struct nicprog_exec_pkt *pkt, u32 offset,
			     void *buf, u32 len)
{
	long err = xdp_span(pkt, offset, len);

	if (!err)
		memcpy(buf, pkt->buf + pkt->data + offset, len);
	return err;
}

/* bpf_xdp_store_bytes(): copy the program's buffer into the frame. */
long nicprog_exec_store_bytes(struct nicprog_exec_pkt *pkt, u32 offset,
			      const void *buf, u32 len)
{
	long err = xdp_span(pkt, offset, len);

	if (!err)
		memmove(pkt->buf + pkt->data + offset, buf, len);
	return err;
}

/* One x86 "adc": @acc += @v + *@carry, *@carry = the carry out. */
static u64 nicprog_adc(u64 acc, u64 v, unsigned int *carry)
{
	u64 s = acc + v;
	unsigned int c = s < acc;
	u64 s2 = s + *carry;

	c |= s2 < s;
	*carry = c;
	return s2;
}

/*
 * csum_partial() of x86_64 (arch/x86/lib/csum-partial_64.c) on an aligned
 * buffer whose length is a multiple of 4, bit for bit: the same grouping of
 * add-with-carry chains, so even the representation of zero matches.
 */
static u32 nicprog_csum_partial(const u32 *buf, u32 len, u32 sum)
{
	const u8 *p = (const u8 *)buf;
	u64 acc = sum;
	unsigned int carry;
	u32 group, i, lo, hi;
	u64 w;

	while (len) {
		if (len >= 64)
			group = 64;
		else if (len & 32)
			group = 32;
		else if (len & 16)
			group = 16;
		else if (len & 8)
			group = 8;
		else
			group = 0;	/* the last 4 bytes */
		carry = 0;
		if (!group) {
			memcpy(&lo, p, 4);
			acc = nicprog_adc(acc, lo, &carry);
			acc = nicprog_adc(acc, 0, &carry);
			len -= 4;
			break;
		}
		for (i = 0; i < group; i += 8) {
			memcpy(&w, p + i, 8);
			acc = nicprog_adc(acc, w, &carry);
		}
		acc = nicprog_adc(acc, 0, &carry);
		p += group;
		len -= group;
	}
	/* add32_with_carry(hi, lo) */
	hi = acc >> 32;
	lo = (u32)acc;
	lo += hi;
	if (lo < hi)
		lo++;
	return lo;
}

/**
 * nicprog_exec_check_mtu() - bpf_check_mtu() of the receiving port
 * @pkt: the frame, @pkt->mtu its port's MTU
 * @mtu_len: the helper's R3: a length to check instead of the frame's
 *	when not 0 (an L3 length, as iph->tot_len); set to the MTU
 * @len_diff: the helper's R4, added to the length checked
 * @flags: the helper's R5; none are defined for XDP
 *
 * What net/core/filter.c's bpf_xdp_check_mtu() does for ifindex 0 on a
 * linear frame, the port's header length ETH_HLEN (the NIC's ports are
 * Ethernet ports).
 *
 * Return: BPF_MTU_CHK_RET_SUCCESS, BPF_MTU_CHK_RET_FRAG_NEEDED, or
 * -EINVAL for flags.
 */
long nicprog_exec_check_mtu(const struct nicprog_exec_pkt *pkt, u32 *mtu_len,
			    s32 len_diff, u64 flags)
{
	int xdp_len = pkt->data_end - pkt->data;
	int dev_len = (int)pkt->mtu + NICPROG_ETH_HLEN;
	long ret = BPF_MTU_CHK_RET_SUCCESS;

	if (flags)
		return -EINVAL;
	if (*mtu_len)
		xdp_len = *mtu_len + NICPROG_ETH_HLEN;
	xdp_len += len_diff;
	if (xdp_len > dev_len)
		ret = BPF_MTU_CHK_RET_FRAG_NEEDED;
	*mtu_len = pkt->mtu;
	return ret;
}

/* bpf_csum_diff(): checksum of ~from followed by to, seeded. */
u64 nicprog_exec_csum_diff(struct nicprog_exec_state *st, const u32 *from,
			   u32 from_size, const u32 *to, u32 to_size,
			   u32 seed)
{
	u32 diff_size = from_size + to_size;
	u32 i, j = 0, v;

	if (((from_size | to_size) & 3) || diff_size > sizeof(st->diff) ||
	    diff_size < from_size)
		return (u64)(s64)-EINVAL;
	/* from and to may point into the packet at any alignment. */
	for (i = 0; i < from_size / 4; i++, j++) {
		memcpy(&v, (const u8 *)from + 4 * i, 4);
		st->diff[j] = ~v;
	}
	for (i = 0; i < to_size / 4; i++, j++)
		memcpy(&st->diff[j], (const u8 *)to + 4 * i, 4);
	return nicprog_csum_partial(st->diff, diff_size, seed);
}
