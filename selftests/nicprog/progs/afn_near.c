// SPDX-License-Identifier: GPL-2.0
/*
 * Near misses of an explicit accelerator call: neither call becomes an
 * engine job, so the NIC runs the functions' own bodies, as the host
 * does. fold() is static and is passed the CRC engine's id, but it is
 * not nicprog_accel_crc32c(): only a call to a global function, which the
 * verifier checked on its own for any arguments, may be an accelerator
 * call. The call of nicprog_accel_crc32c() passes the CRC engine's id on
 * frames from receive queue 0 and the csum engine's on others: an id the
 * verifier does not prove constant is no accelerator call either (the
 * body returns an error for the csum id, which the NF writes too). The
 * NF writes both results over the first eight bytes of an IPv4 frame's
 * payload and passes it.
 */
#define NICPROG_USE_CRC32C
#include "../../../bpf/nicprog.h"
#include <linux/if_ether.h>
#include <linux/ip.h>

static __attribute__((noinline)) __u64 fold(struct xdp_md *ctx, __u64 off,
					    __u64 len, __u32 crc, __u32 afn)
{
	return (crc ^ len ^ off ^ afn) + ctx->rx_queue_index;
}

SEC("xdp")
int afn_near(struct xdp_md *ctx)
{
	__u8 *d = NICPROG_DATA(ctx), *end = NICPROG_DATA_END(ctx);
	__u64 len = end - d;
	__u32 a, b, id, seed = 0, crc_id = NICPROG_AFN(NICPROG_AFN_CRC32C);
	__u64 off = ETH_HLEN + 28;

	if (d + ETH_HLEN + 28 > end ||
	    ((struct ethhdr *)d)->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	id = ctx->rx_queue_index ? NICPROG_AFN(NICPROG_AFN_CSUM) :
				   NICPROG_AFN(NICPROG_AFN_CRC32C);
	/*
	 * else clang, seeing constants, folds them into the static function
	 * and passes the id in another register
	 */
	asm volatile("" : "+r"(off), "+r"(seed), "+r"(crc_id));
	a = fold(ctx, off, len - ETH_HLEN - 28, seed, crc_id);
	b = nicprog_accel_crc32c(ctx, ETH_HLEN + 28, len - ETH_HLEN - 28, ~0U,
				 id);
	d = NICPROG_DATA(ctx);
	end = NICPROG_DATA_END(ctx);
	if (d + ETH_HLEN + 28 > end)
		return XDP_PASS;
	__builtin_memcpy(d + ETH_HLEN + 20, &a, sizeof(a));
	__builtin_memcpy(d + ETH_HLEN + 24, &b, sizeof(b));
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
