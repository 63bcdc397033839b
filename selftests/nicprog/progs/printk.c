// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_printk() as XDP programs people debug with write it: libbpf's macro
 * (the format in .rodata, bpf_trace_vprintk() past three arguments), the
 * older form with the format on the stack (samples/bpf, the selftests'
 * devmap programs), a %s string built on the stack, a program that acts
 * on what bpf_trace_printk() returns, and one that calls a global function. Every program prints on some
 * frames only, so that a partial plan keeps the rest on the NIC; the
 * oracle compares each frame's trace lines, verdict and output with the
 * host's.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 4);
} printed SEC(".maps");

static __always_inline void count(__u32 k, __u64 n)
{
	__u64 *v = bpf_map_lookup_elem(&printed, &k);

	if (v)
		__sync_fetch_and_add(v, n);
}

/* libbpf's bpf_printk(): ARP and runts are logged, the rest is not */
SEC("xdp")
int printk_rodata(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;

	if (data + sizeof(*eth) > data_end) {
		bpf_printk("runt of %d bytes", (int)(data_end - data));
		return XDP_DROP;
	}
	if (eth->h_proto == bpf_htons(ETH_P_ARP)) {
		bpf_printk("arp from %02x:%02x", eth->h_source[4],
			   eth->h_source[5]);
		count(0, 1);
	}
	return XDP_PASS;
}

/* the format on the stack, as samples/bpf wrote it before bpf_printk() */
SEC("xdp")
int printk_stack(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *iph = data + sizeof(*eth);
	char fmt[] = "ip proto %u ttl %u len %u\n";

	if ((void *)(iph + 1) > data_end ||
	    eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	if (iph->ttl <= 1) {
		bpf_trace_printk(fmt, sizeof(fmt), iph->protocol, iph->ttl,
				 bpf_ntohs(iph->tot_len));
		return XDP_DROP;
	}
	return XDP_PASS;
}

/*
 * A %s string the program builds on the stack from the frame (the
 * verifier does not know the argument is a pointer; the kernel reads the
 * string), and four values: bpf_trace_vprintk()
 */
SEC("xdp")
int printk_vargs(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	unsigned char *b = data;
	char tag[5];
	int i;

	if (data + 20 > data_end || !(b[12] & 1))
		return XDP_PASS;
	for (i = 0; i < 4; i++)
		tag[i] = 'a' + (b[14 + i] & 15);
	tag[4] = 0;
	bpf_printk("tag %s", tag);
	bpf_printk("words %x %x %x %x", b[14], b[15], b[16], b[17]);
	count(1, 1);
	return XDP_PASS;
}

/* what bpf_trace_printk() returns, the length of the line, decides */
SEC("xdp")
int printk_ret(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	unsigned char *b = data;
	long n;

	if (data + 16 > data_end || (b[13] & 3))
		return XDP_PASS;
	n = bpf_printk("len %u src %u", (unsigned int)(data_end - data),
		       (unsigned int)b[11] * b[10]);
	count(2, n);
	/* 18 bytes at most ("len 1514 src 65025"): lines either side of 17 */
	return n > 17 ? XDP_DROP : XDP_PASS;
}

/*
 * A global function shaped like an engine's (context, offset, length,
 * seed): the offloader compares it with the engines' functions and says
 * in the verifier log what it found before it refuses the printk, so the
 * refusal is not the log's first nicprog line.
 */
__noinline __u32 word_at(struct xdp_md *ctx, __u64 off, __u64 len, __u32 seed)
{
	__u8 *p = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	__u8 *q;

	if (off > 64 || len != 2)
		return seed;
	q = p + off;
	if (q + 2 > end)
		return seed;
	return (__u32)q[0] << 8 | q[1];
}

SEC("xdp")
int printk_global(struct xdp_md *ctx)
{
	__u32 vid;

	if (word_at(ctx, 12, 2, 0) != ETH_P_8021Q)
		return XDP_PASS;
	vid = word_at(ctx, 14, 2, 0) & 0xfff;
	bpf_printk("vlan %u", vid);
	return vid & 1 ? XDP_DROP : XDP_PASS;
}

char _license[] SEC("license") = "GPL";
