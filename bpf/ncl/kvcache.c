// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause
/*
 * kvcache - an in-network key-value cache in front of a storage server,
 * NetCache's scheme as a network kernel on the switch (the contract with
 * the hosts is in bpf/ncl/kvcache.h).
 *
 * A GET whose key the index holds is answered by the switch (reflected,
 * NCL_KV_HIT); any other goes on to the server. A PUT removes the key from
 * the index on its way to the server. The server alone fills the cache
 * (FILL: a slot, the key, its version, the value) and evicts (EVICT:
 * removes the index entry), both sent to the switch's address.
 *
 * The server's kinds (FILL, EVICT, REPLY, PUT_ACK) are taken only from
 * the server's label (ncl_from_server(); the framework checked that the
 * sender is the host the window came from): a client can neither fill the
 * cache nor raise a key's version nor answer another client.
 *
 * No GET may see a value older than the last acknowledged PUT of its key.
 * The server's PUT_ACK carries the new version through the switch, which
 * records it (kv_ver, the largest version seen per key) and removes the
 * key from the index before the client can see the ack; a FILL older than
 * the recorded version is dropped, and a FILL that raced an ack (checked,
 * then the ack, then its index insert) takes its entry back out when it
 * re-checks. A GET hit is answered only if the slot holds the key at a
 * version no older than the recorded one and no FILL wrote the slot while
 * the value was copied (the slot's seqlock); otherwise it goes on to the
 * server as a miss.
 */
#include "../ncl.h"
#include "kvcache.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct ncl_kv_slot);
	__uint(max_entries, NCL_KV_SLOTS);
	NCL_SHARED;
} kv_slots SEC(".maps");

/* key -> slot */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u64);
	__type(value, __u32);
	__uint(max_entries, NCL_KV_SLOTS);
	NCL_SHARED;
} kv_index SEC(".maps");

/* key -> the largest PUT version acknowledged through the switch */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u64);
	__type(value, __u64);
	__uint(max_entries, NCL_KV_KEYS);
	NCL_SHARED;
} kv_ver SEC(".maps");

/* per NCL_KV_ST_* (kvcache.h) */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, NCL_KV_ST_MAX);
	NCL_SHARED;
} kv_stats SEC(".maps");

static __always_inline void kv_count(__u32 k)
{
	__u64 *n = bpf_map_lookup_elem(&kv_stats, &k);

	if (n)
		__sync_fetch_and_add(n, 1);
}

static __always_inline __u64 kv_version(__u64 *key)
{
	__u64 *v = bpf_map_lookup_elem(&kv_ver, key);

	return v ? *v : 0;
}

/* kv_ver[key] = max(kv_ver[key], ver), against other cores' acks */
static __always_inline void kv_version_raise(__u64 *key, __u64 ver)
{
	__u64 *v, old;
	int i;

	v = bpf_map_lookup_elem(&kv_ver, key);
	if (!v) {
		if (!bpf_map_update_elem(&kv_ver, key, &ver, BPF_NOEXIST))
			return;
		v = bpf_map_lookup_elem(&kv_ver, key);
		if (!v)
			return;
	}
	for (i = 0; i < 8; i++) {
		old = *v;
		if (old >= ver ||
		    __sync_val_compare_and_swap(v, old, ver) == old)
			return;
	}
}

static __always_inline int kv_get(struct ncl_ctx *c, __u64 *key, __u64 *val)
{
	struct ncl_kv_slot *s;
	__u32 *slot, seq, i;

	slot = bpf_map_lookup_elem(&kv_index, key);
	if (!slot)
		return ncl_pass(c);
	s = bpf_map_lookup_elem(&kv_slots, slot);
	if (!s)
		return ncl_pass(c);
	seq = s->seq;
	if ((seq & 1) || s->key != *key || s->version < kv_version(key))
		goto raced;
	/* again here: the verifier keeps a bound on the register it checked */
	if ((void *)(val + NCL_KV_VALUE / 8) > c->end)
		return ncl_refuse(NCL_ST_TRUNCATED);
	for (i = 0; i < NCL_KV_VALUE / 8; i++)
		val[i] = ((__u64 *)s->value)[i];
	c->win->user[1] = bpf_htonl((__u32)s->version);
	if (__sync_fetch_and_add(&s->seq, 0) != seq || s->key != *key)
		goto raced;
	c->win->user[0] = bpf_htonl(NCL_KV_HIT);
	kv_count(NCL_KV_ST_HITS);
	return ncl_reflect(c);
raced:
	kv_count(NCL_KV_ST_RACED);
	return ncl_pass(c);
}

static __always_inline int kv_fill(struct ncl_ctx *c, __u64 *key, __u64 *val)
{
	__u32 slot = bpf_ntohl(c->ncp->offset[1]), i;
	__u64 ver = bpf_ntohl(c->win->user[1]);
	struct ncl_kv_slot *s;

	if (slot >= NCL_KV_SLOTS)
		return ncl_refuse(NCL_ST_MALFORMED);
	if (kv_version(key) > ver) {
		kv_count(NCL_KV_ST_STALE_FILLS);
		return ncl_refuse(NCL_ST_STALE);
	}
	s = bpf_map_lookup_elem(&kv_slots, &slot);
	if (!s)
		return ncl_drop(c);
	if ((void *)(val + NCL_KV_VALUE / 8) > c->end)
		return ncl_refuse(NCL_ST_TRUNCATED);
	__sync_fetch_and_add(&s->seq, 1);
	s->key = *key;
	s->version = ver;
	for (i = 0; i < NCL_KV_VALUE / 8; i++)
		((__u64 *)s->value)[i] = val[i];
	__sync_fetch_and_add(&s->seq, 1);
	bpf_map_update_elem(&kv_index, key, &slot, BPF_ANY);
	/* an ack that came between the check and the insert wins */
	if (kv_version(key) > ver) {
		bpf_map_delete_elem(&kv_index, key);
		kv_count(NCL_KV_ST_STALE_FILLS);
	}
	return ncl_drop(c);
}

static __always_inline int kvcache(struct ncl_ctx *c)
{
	__u64 *key = c->data, *val = (__u64 *)(key + 1);
	__u32 op = bpf_ntohl(c->win->user[0]);

	if (c->len != 1 || (c->mask != 3 && !(op == NCL_KV_EVICT && c->mask == 1)))
		return ncl_refuse(NCL_ST_BAD_MASK);
	if ((void *)(key + 1) > c->end)
		return ncl_refuse(NCL_ST_TRUNCATED);
	if (op >= NCL_KV_FILL && op <= NCL_KV_PUT_ACK && !ncl_from_server(c)) {
		/* FILL, EVICT, REPLY, PUT_ACK: their NCL_KV_ST_FORGED_* */
		kv_count(NCL_KV_ST_FORGED_FILL + op - NCL_KV_FILL);
		return ncl_refuse(NCL_ST_FORGED);
	}
	if (c->mask == 3 && (void *)(val + NCL_KV_VALUE / 8) > c->end)
		return ncl_refuse(NCL_ST_TRUNCATED);
	switch (op) {
	case NCL_KV_GET:
		if (c->mask != 3)
			break;
		return kv_get(c, key, val);
	case NCL_KV_PUT:
		bpf_map_delete_elem(&kv_index, key);
		return ncl_pass(c);
	case NCL_KV_FILL:
		if (c->mask != 3)
			break;
		return kv_fill(c, key, val);
	case NCL_KV_EVICT:
		bpf_map_delete_elem(&kv_index, key);
		return ncl_drop(c);
	case NCL_KV_PUT_ACK:
		kv_version_raise(key, bpf_ntohl(c->win->user[1]));
		bpf_map_delete_elem(&kv_index, key);
		return ncl_pass(c);
	case NCL_KV_REPLY:
		return ncl_pass(c);
	}
	return ncl_refuse(NCL_ST_MALFORMED);
}

static int ncl_kernel(struct ncl_ctx *c)
{
	if (c->kernel == NCL_KV_KERNEL)
		return kvcache(c);
	return NCL_NOT_MINE;
}

NCL_OUT(ncl_kvcache)
NCL_PLACE("s1", "2");

char _license[] SEC("license") = "GPL";
