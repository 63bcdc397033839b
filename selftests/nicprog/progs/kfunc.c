// SPDX-License-Identifier: GPL-2.0
/* Refused on the NIC: calls a kfunc (conntrack lookup, nf_conntrack). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* libbpf matches kfunc prototypes by kind: a struct, not a declaration. */
struct nf_conn {
	int unused;
};
struct bpf_ct_opts {
	__s32 netns_id;
	__s32 error;
	__u8 l4proto;
	__u8 dir;
	__u8 reserved[2];
};

extern struct nf_conn *bpf_xdp_ct_lookup(struct xdp_md *ctx,
					 struct bpf_sock_tuple *tuple,
					 __u32 tuple_sz, struct bpf_ct_opts *opts,
					 __u32 opts_sz) __ksym;
extern void bpf_ct_release(struct nf_conn *ct) __ksym;

SEC("xdp")
int kfunc(struct xdp_md *ctx)
{
	struct bpf_sock_tuple tuple;
	struct bpf_ct_opts opts;
	struct nf_conn *ct;

	/* Stores, not an initializer clang would place in .rodata. */
	__builtin_memset(&tuple, 0, sizeof(tuple));
	__builtin_memset(&opts, 0, sizeof(opts));
	opts.netns_id = -1;
	opts.l4proto = 17;

	ct = bpf_xdp_ct_lookup(ctx, &tuple, sizeof(tuple.ipv4), &opts,
			       sizeof(opts));
	if (ct)
		bpf_ct_release(ct);
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
