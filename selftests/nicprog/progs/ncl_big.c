// SPDX-License-Identifier: GPL-2.0
/*
 * A network kernel whose switch memory (2 GiB) nicsim-generic's 1 GiB
 * cannot hold: the deploy step must refuse it, naming its label and the
 * memory.
 */
#include "../../../bpf/ncl.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u8[1024]);
	__uint(max_entries, 1 << 21);
	NCL_SHARED;
} big SEC(".maps");

static int ncl_kernel(struct ncl_ctx *c)
{
	__u32 k = c->seq;
	__u8 *v = bpf_map_lookup_elem(&big, &k);

	if (c->kernel != 9)
		return NCL_NOT_MINE;
	return v && *v ? ncl_reflect(c) : ncl_drop(c);
}

NCL_OUT(ncl_big)
NCL_PLACE("s1", "9");

char _license[] SEC("license") = "GPL";
