/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * kvcache.h - the in-network key-value cache's contract with its hosts
 * (bpf/ncl/kvcache.c, tools/apps/nclkv.c): types only.
 *
 * Every window is one request or answer: len 1, argument 0 the key
 * (NCL_KV_KEY bytes), argument 1 the value (NCL_KV_VALUE bytes; zeros in
 * a GET, which the switch fills on a hit), mask 3 (EVICT: mask 1, the key
 * alone). user[0] is the operation, user[1] the value's version (the
 * server counts each key's PUTs), offset[1] the cache slot of a FILL.
 * Requests go to the storage server's address; the switch answers GET
 * hits itself. FILL, EVICT, REPLY and PUT_ACK are the server's: the switch
 * takes them only from the label the description names as kernel
 * NCL_KV_KERNEL's server ("serve 2 LABEL"), and drops them from anyone
 * else, counted by kind (kv_stats). The switch remembers the last acknowledged PUT version of
 * NCL_KV_KEYS keys: a store with more keys loses the version check for
 * the rest, whose consistency then rests on the index removals alone.
 */
#ifndef __NCL_KVCACHE_H
#define __NCL_KVCACHE_H

#include <linux/types.h>

#define NCL_KV_KERNEL	2	/* kernel id */
#define NCL_KV_KEY	8	/* bytes of a key */
#define NCL_KV_VALUE	128	/* bytes of a value */
#define NCL_KV_SLOTS	512	/* values the switch holds */
#define NCL_KV_KEYS	4096	/* keys whose last PUT version it remembers */

/* user[0] */
enum {
	NCL_KV_GET = 1,		/* client -> server; a hit: the switch answers */
	NCL_KV_PUT,		/* client -> server; invalidates on the way */
	NCL_KV_FILL,		/* server -> switch: the value goes in a slot */
	NCL_KV_EVICT,		/* server -> switch: the key leaves the cache */
	NCL_KV_REPLY,		/* server -> client: a GET's value (a miss) */
	NCL_KV_PUT_ACK,		/* server -> client: the PUT's version */
	NCL_KV_HIT,		/* switch -> client: a GET's value (a hit) */
};

/* kv_stats' slots */
enum {
	NCL_KV_ST_HITS,			/* GETs the switch answered */
	NCL_KV_ST_STALE_FILLS,		/* fills older than an acked PUT */
	NCL_KV_ST_RACED,		/* hits refused: a fill raced the read */
	NCL_KV_ST_FORGED_FILL,		/* the server's kinds from another */
	NCL_KV_ST_FORGED_EVICT,
	NCL_KV_ST_FORGED_REPLY,
	NCL_KV_ST_FORGED_PUT_ACK,
	NCL_KV_ST_MAX,
};

/**
 * struct ncl_kv_slot - one cached value in the switch's memory
 * @seq: odd while a FILL writes the slot (a seqlock for readers)
 * @pad: zero
 * @key: the key it holds
 * @version: the value's version
 * @value: the value
 */
struct ncl_kv_slot {
	__u32 seq;
	__u32 pad;
	__u64 key;
	__u64 version;
	__u8 value[NCL_KV_VALUE];
};

#endif /* __NCL_KVCACHE_H */
