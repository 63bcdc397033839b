// SPDX-License-Identifier: GPL-2.0
/*
 * Larger than the instruction store of 8K-instruction NIC cores
 * (nicsim-generic, nicsim-nfp): a prefix that parses and counts, and a
 * payload digest, unrolled with a branch per round, that partial offload
 * cuts wherever the store ends. The state at the cut holds packet pointers
 * in registers and on the stack (struct pkt), scalars and a flow key,
 * which the handover carries; the flow table is written only after it.
 */
#include "../../../bpf/examples/parse.h"
#include "kinds.h"

#define PAYLOAD		32

/*
 * One round of the digest. The barriers keep clang from hoisting the
 * reads out of rounds and from turning the branch into a select; the
 * rounds are written out by macros, as clang would roll a loop back up.
 */
#define ROUND(i) do {						\
	__u8 *q = pl;						\
								\
	asm volatile("" : "+r"(q));				\
	h ^= q[(i) % PAYLOAD];					\
	h *= 0x1000193;						\
	if (q[((i) * 7) % PAYLOAD] & 1) {			\
		h ^= h >> 29;					\
		asm volatile("" : "+r"(h));			\
	}							\
} while (0)
#define ROUNDS_10(i)	ROUND(i); ROUND(i + 1); ROUND(i + 2); ROUND(i + 3); \
			ROUND(i + 4); ROUND(i + 5); ROUND(i + 6); ROUND(i + 7); \
			ROUND(i + 8); ROUND(i + 9)
#define ROUNDS_100(i)	ROUNDS_10(i); ROUNDS_10(i + 10); ROUNDS_10(i + 20); \
			ROUNDS_10(i + 30); ROUNDS_10(i + 40); ROUNDS_10(i + 50); \
			ROUNDS_10(i + 60); ROUNDS_10(i + 70); ROUNDS_10(i + 80); \
			ROUNDS_10(i + 90)
#define ROUNDS_1000(i)	ROUNDS_100(i); ROUNDS_100(i + 100); ROUNDS_100(i + 200); \
			ROUNDS_100(i + 300); ROUNDS_100(i + 400); \
			ROUNDS_100(i + 500); ROUNDS_100(i + 600); \
			ROUNDS_100(i + 700); ROUNDS_100(i + 800); \
			ROUNDS_100(i + 900)

struct flow_key {
	__u32 saddr;
	__u32 daddr;
	__u16 sport;
	__u16 dport;
};

struct flow_val {
	__u64 frames;
	__u64 digest;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, struct flow_key);
	__type(value, struct flow_val);
} flows SEC(".maps");

SEC("xdp")
int partial(struct xdp_md *ctx)
{
	struct flow_key key = {};
	struct flow_val *fv, nv;
	__u8 mac[ETH_ALEN];
	struct pkt p;
	__u8 *pl;
	__u64 h;

	if (parse(ctx, &p) < 0 || !p.ip4) {
		count(0);
		return XDP_PASS;
	}
	if (p.l4proto != IPPROTO_UDP || !p.has_ports) {
		count(1);
		return XDP_DROP;
	}
	pl = (__u8 *)p.l4 + sizeof(struct udphdr);
	if ((void *)(pl + PAYLOAD) > p.end) {
		count(2);
		return XDP_PASS;
	}
	count(3);
	key.saddr = p.ip4->saddr;
	key.daddr = p.ip4->daddr;
	key.sport = p.sport;
	key.dport = p.dport;
	h = ((__u64)key.saddr << 32 | key.daddr) ^ p.sport;
	ROUNDS_1000(0);
	fv = bpf_map_lookup_elem(&flows, &key);
	if (fv) {
		fv->frames++;
		fv->digest ^= h;
	} else {
		nv.frames = 1;
		nv.digest = h;
		bpf_map_update_elem(&flows, &key, &nv, BPF_ANY);
	}
	__builtin_memcpy(pl, &h, sizeof(h));
	__builtin_memcpy(mac, p.eth->h_dest, ETH_ALEN);
	__builtin_memcpy(p.eth->h_dest, p.eth->h_source, ETH_ALEN);
	__builtin_memcpy(p.eth->h_source, mac, ETH_ALEN);
	return h & 3 ? XDP_TX : XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
