// SPDX-License-Identifier: GPL-2.0
/*
 * A flow recorder that fits no NIC whole: for up to 8M flows it keeps the
 * frame and byte counts and the first 32 bytes of the L4 header and
 * payload of each of the flow's first 255 frames, as a forensic capture
 * does. The table needs 8M x 8 KiB, more memory than any shipped profile
 * has (nicsim-fpga, the largest, 64 GiB); with plan_partial it stays in
 * host memory and the host part reaches it, while the NIC parses, counts
 * and passes what it need not record.
 */
#include "../../../bpf/examples/parse.h"
#include "kinds.h"

#define HIST	255
#define SNAP	32

struct flow_rec {
	__u64 frames;
	__u64 bytes;
	__u8 hist[HIST][SNAP];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8 << 20);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct tuple4);
	__type(value, struct flow_rec);
} flows SEC(".maps");

/* a record's initial value: update copies it, the stack cannot hold one */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct flow_rec);
} blank SEC(".maps");

SEC("xdp")
int flowlog(struct xdp_md *ctx)
{
	struct tuple4 key = {};
	struct flow_rec *r, *z;
	struct pkt p;
	__u32 zero = 0;
	__u64 n;

	if (parse(ctx, &p) < 0 || !p.ip4 || !p.has_ports) {
		count(0);
		return XDP_PASS;
	}
	count(1);
	key.saddr = p.ip4->saddr;
	key.daddr = p.ip4->daddr;
	key.sport = p.sport;
	key.dport = p.dport;
	key.proto = p.l4proto;
	r = bpf_map_lookup_elem(&flows, &key);
	if (!r) {
		z = bpf_map_lookup_elem(&blank, &zero);
		if (!z)
			return XDP_PASS;
		if (bpf_map_update_elem(&flows, &key, z, BPF_NOEXIST)) {
			count(2);
			return XDP_PASS;
		}
		r = bpf_map_lookup_elem(&flows, &key);
		if (!r)
			return XDP_PASS;
	}
	n = r->frames;
	r->frames = n + 1;
	r->bytes += (__u64)(p.end - p.data);
	if (n < HIST && p.l4 + SNAP <= p.end) {
		count(3);
		__builtin_memcpy(r->hist[n], p.l4, SNAP);
	}
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
