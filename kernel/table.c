// SPDX-License-Identifier: GPL-2.0
/*
 * NIC tables: the storage behind offloaded BPF maps, kept in (simulated)
 * NIC memory and charged against the LNIC's capacity. Linux 6.1 lets a
 * device own only HASH and ARRAY maps; both are implemented here with the
 * semantics of kernel/bpf/hashtab.c and arraymap.c that programs and
 * bpftool can observe (update flags, E2BIG when full, get_next_key order
 * rules, array elements that always exist). A hash table may be given a
 * kind before any program uses it (table-set), for the map types 6.1
 * will not bind, which a loader creates as HASH maps:
 *
 * - LRU (LRU_HASH): an update of a full table evicts an element instead
 *   of failing. Like hashtab.c's LRU it is approximate: elements sit in
 *   insertion order and a lookup from the datapath (not from a syscall)
 *   sets a reference bit; eviction gives referenced elements a second
 *   chance (CLOCK).
 * - LPM (LPM_TRIE): keys are struct bpf_lpm_trie_key; an element is kept
 *   under its prefix with the bits past it cleared, and a lookup probes
 *   the prefix lengths the table holds, longest first, up to the key's.
 *   A hash probe per length rather than a trie: the MAT of a NIC does the
 *   same with one TCAM lookup, and a table holds few distinct lengths.
 *   Full, an update fails with ENOSPC as lpm_trie.c's does.
 * - PERCPU (PERCPU_ARRAY, PERCPU_HASH, created as ARRAY or HASH whose
 *   value holds one 8-byte aligned slot per possible CPU, the layout user
 *   space reads): a lookup from the datapath returns the slot of the CPU
 *   that runs it. The driver runs a program with bottom halves off
 *   (nicsim's cores), so no other runs on that CPU meanwhile: each slot
 *   has one writer at a time, as on the host. LRU_PERCPU is both.
 *   Programs were verified against the whole value, so every value is
 *   followed by a value's worth of padding that an offset past the slot
 *   stays in.
 * - HOST (XSKMAP, CPUMAP, which stay the host's): an ARRAY of u32 keys
 *   and values standing for the host map on the NIC; its values are the
 *   targets bpf_redirect() hands a frame to the host map's entries by
 *   (hostmap.c). Only the kernel writes them.
 * - PROGS (PROG_ARRAY, the host's): the same, standing for a PROG_ARRAY
 *   of tail call targets; a lookup from the datapath writes and returns
 *   the tail call target of the entry's program now, 0 for none
 *   (hostmap.c).
 *
 * Concurrency: NIC cores look up and update from the datapath under
 * rcu_read_lock(); syscalls (bpftool) do the same from process context.
 * Hash mutations take @lock; removed elements are freed after an RCU grace
 * period, so a pointer a program got from lookup stays valid while it runs.
 */
#include <linux/bpf.h>
#include <linux/jhash.h>
#include <linux/log2.h>
#include <linux/netdevice.h>
#include <linux/random.h>
#include <linux/rculist.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "nicprog.h"

struct nicprog_htab_elem {
	struct hlist_node node;
	struct rcu_head rcu;
	struct list_head lru;	/* LRU kind: age order, under the lock */
	u32 hash;
	u8 ref;			/* LRU kind: looked up since last aged */
	char key[] __aligned(8);	/* key, then value at value_off */
};

/**
 * struct nicprog_table - one offloaded map in NIC memory
 * @nic: the NIC that holds it, which outlives it (its offload device
 *	destroys its maps first)
 * @list: entry in @nic's tables, under RTNL
 * @map: the map it backs, to find it by (table-set)
 * @type: BPF_MAP_TYPE_HASH or BPF_MAP_TYPE_ARRAY
 * @kind: enum nicprog_table_kind; set once, while empty and unbound,
 *	under @lock and published with release semantics
 * @bound: a program was prepared with it: its kind is fixed
 * @key_size: bytes of a key
 * @value_size: bytes of a value
 * @max_entries: capacity
 * @bytes: NIC memory charged for it; 0 for a table in host memory
 * @host: partial offload: the table did not fit the NIC and is kept in
 *	host memory; only the host part of a plan may access it
 * @lock: serializes hash mutations
 * @count: elements in a hash table, under @lock
 * @n_buckets: power of two
 * @seed: jhash seed
 * @value_off: offset of the value in a hash element's key[]
 * @buckets: hash buckets, RCU lists
 * @lru: LRU kind: elements, oldest first, under @lock
 * @plen_count: LPM kind: elements per prefix length, written under @lock
 * @max_plen: LPM kind: bits of a key's data
 * @slots: PERCPU kinds: slots in a value, num_possible_cpus()
 * @slot_size: PERCPU kinds: bytes of a slot
 * @host_slot: HOST and PROGS kinds: the port's slot of the host map
 *	(hostmap.c)
 * @values: array storage, @max_entries values of round_up(@value_size, 8)
 */
struct nicprog_table {
	struct nicprog_nic *nic;
	struct list_head list;
	const struct bpf_map *map;
	u32 type;
	u8 kind;
	bool bound;
	u32 key_size;
	u32 value_size;
	u32 max_entries;
	u64 bytes;
	bool host;
	spinlock_t lock;
	u32 count;
	u32 n_buckets;
	u32 seed;
	u32 value_off;
	struct hlist_head *buckets;
	struct list_head lru;
	u32 *plen_count;
	u32 max_plen;
	u32 slots;
	u32 slot_size;
	u32 host_slot;
	u8 *values;
};


/* @t's kind, ordered before what table-set published with it. */
static u8 table_kind(const struct nicprog_table *t)
{
	/* pairs with table-set's release: @plen_count is there first */
	return smp_load_acquire(&t->kind);
}

/* Does a table of @kind stand for a host map (hostmap.c)? */
static bool kind_host(u8 kind)
{
	return kind == NICPROG_TABLE_KIND_HOST ||
	       kind == NICPROG_TABLE_KIND_PROGS;
}

static u32 array_stride(const struct nicprog_table *t)
{
	return round_up(t->value_size, 8);
}

/**
 * nicprog_table_bytes() - NIC memory a map takes as a table
 * @map: the map
 *
 * Context: any.
 * Return: bytes, the same figure the memory accounting charges.
 */
u64 nicprog_table_bytes(const struct bpf_map *map)
{
	return nicprog_ir_table_bytes(map->map_type, map->key_size,
				      map->value_size, map->max_entries);
}

/**
 * nicprog_table_alloc() - back an offloaded map with NIC memory
 * @nd: the port the map is bound to, whose NIC holds it
 * @offmap: the map being created
 *
 * Context: process, RTNL held (BPF_OFFLOAD_MAP_ALLOC).
 * A map the NIC's memory cannot hold is refused, or with plan_partial set
 * kept in host memory, where only the host part of a partial plan reaches
 * it (offload/host.c).
 *
 * Return: 0, -EOPNOTSUPP for map flags a NIC table cannot honour (mmap,
 * which global variables need), -ENOSPC when the NIC's memory cannot hold
 * the map, -ENOMEM.
 */
int nicprog_table_alloc(struct nicprog_dev *nd,
			struct bpf_offloaded_map *offmap)
{
	struct nicprog_nic *nic = nd->nic;
	struct bpf_map *map = &offmap->map;
	u64 bytes = nicprog_table_bytes(map);
	struct nicprog_table *t;
	bool partial, host = false;

	/* The map has no name yet: describe it by its shape. */
	if (map->map_flags & ~(BPF_F_NO_PREALLOC | BPF_F_ZERO_SEED |
			       BPF_F_NUMA_NODE)) {
		netdev_info(nd->netdev,
			    "nicprog: map (type %u, key %u, value %u, %u entries): flags 0x%x not supported on the NIC (global and read-only variables need mmap or read-only maps)\n",
			    map->map_type, map->key_size, map->value_size,
			    map->max_entries, map->map_flags);
		return -EOPNOTSUPP;
	}
	mutex_lock(&nd->plan_lock);
	partial = nd->plan_partial;
	mutex_unlock(&nd->plan_lock);
	if (bytes > nic->sum.mem_bytes - nic->mem_used) {
		netdev_info(nd->netdev,
			    "nicprog: map (type %u, key %u, value %u, %u entries) needs %llu bytes of NIC memory, %llu of %llu are free%s\n",
			    map->map_type, map->key_size, map->value_size,
			    map->max_entries, bytes,
			    nic->sum.mem_bytes - nic->mem_used,
			    nic->sum.mem_bytes,
			    partial ? "; kept in host memory, for the host part of a partial plan" :
			    " (plan_partial keeps it in host memory)");
		if (!partial)
			return -ENOSPC;
		host = true;
		bytes = 0;
	}

	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	t->nic = nic;
	t->map = map;
	t->type = map->map_type;
	t->key_size = map->key_size;
	t->value_size = map->value_size;
	t->max_entries = map->max_entries;
	t->bytes = bytes;
	t->host = host;
	spin_lock_init(&t->lock);
	INIT_LIST_HEAD(&t->lru);

	if (t->type == BPF_MAP_TYPE_ARRAY) {
		/* padded for a PERCPU kind's last slot (see the top) */
		t->values = vzalloc((size_t)t->max_entries * array_stride(t) +
				    array_stride(t));
		if (!t->values)
			goto err_free;
	} else {
		t->n_buckets = roundup_pow_of_two(max_t(u32, t->max_entries, 2));
		t->n_buckets = min_t(u32, t->n_buckets, 1U << 20);
		t->buckets = kvcalloc(t->n_buckets, sizeof(*t->buckets),
				      GFP_KERNEL);
		if (!t->buckets)
			goto err_free;
		t->seed = map->map_flags & BPF_F_ZERO_SEED ? 0 :
							     get_random_u32();
		t->value_off = round_up(t->key_size, 8);
	}
	nic->mem_used += bytes;
	nic->n_tables++;
	list_add(&t->list, &nic->tables);
	offmap->dev_priv = t;
	offmap->dev_ops = &nicprog_table_dev_ops;
	return 0;

err_free:
	kfree(t);
	return -ENOMEM;
}

/**
 * nicprog_table_free() - release a map's NIC memory
 * @offmap: the map
 *
 * No program that could use the table runs any more: the map outlives
 * every program that references it, and programs stop before they go.
 *
 * Context: process, RTNL held (BPF_OFFLOAD_MAP_FREE).
 */
void nicprog_table_free(struct bpf_offloaded_map *offmap)
{
	struct nicprog_table *t = offmap->dev_priv;
	struct nicprog_htab_elem *e;
	struct hlist_node *tmp;
	u32 i;

	if (t->type == BPF_MAP_TYPE_ARRAY) {
		if (kind_host(table_kind(t)))
			nicprog_hostmap_put(t->nic, t->host_slot);
		vfree(t->values);
	} else {
		for (i = 0; i < t->n_buckets; i++)
			hlist_for_each_entry_safe(e, tmp, &t->buckets[i], node)
				kfree_rcu(e, rcu);
		kvfree(t->buckets);
		kfree(t->plen_count);
	}
	t->nic->mem_used -= t->bytes;
	t->nic->n_tables--;
	list_del(&t->list);
	kfree(t);
}

/**
 * nicprog_table_in_host() - is a table kept in host memory?
 * @t: the table
 *
 * Context: any.
 * Return: true if only the host part of a partial plan may access it;
 * false for NULL, a host map the NIC reaches by events (perf event array).
 */
bool nicprog_table_in_host(const struct nicprog_table *t)
{
	return t && t->host;
}

/**
 * nicprog_table_usage() - how full a table is, for stats-get
 * @t: the table
 * @entries: out: elements it holds; all of an array's
 * @max_entries: out: its capacity
 *
 * Context: any; the count is a snapshot.
 * Return: NIC memory it takes, 0 in host memory or for NULL (a host map
 * the NIC reaches by events, which holds no entries of its own).
 */
u64 nicprog_table_usage(const struct nicprog_table *t, u32 *entries,
			u32 *max_entries)
{
	if (!t) {
		*entries = 0;
		*max_entries = 0;
		return 0;
	}
	*entries = t->type == BPF_MAP_TYPE_HASH ? READ_ONCE(t->count) :
		   t->max_entries;
	*max_entries = t->max_entries;
	return t->bytes;
}

static void *htab_value(const struct nicprog_table *t,
			struct nicprog_htab_elem *e)
{
	return e->key + t->value_off;
}

static struct nicprog_htab_elem *htab_find(struct nicprog_table *t,
					   const void *key, u32 hash)
{
	struct nicprog_htab_elem *e;

	hlist_for_each_entry_rcu(e, &t->buckets[hash & (t->n_buckets - 1)],
				 node, lockdep_is_held(&t->lock))
		if (e->hash == hash && !memcmp(e->key, key, t->key_size))
			return e;
	return NULL;
}

/* The longest prefix of @key the table holds, as lpm_trie.c finds it. */
static struct nicprog_htab_elem *lpm_find(struct nicprog_table *t,
					  const void *key)
{
	u8 probe[NICPROG_LPM_DATA_OFF + NICPROG_LPM_DATA_MAX];
	struct nicprog_htab_elem *e;
	u32 plen = min(nicprog_ir_lpm_plen(key), t->max_plen);

	for (;; plen--) {
		if (READ_ONCE(t->plen_count[plen])) {
			nicprog_ir_lpm_key(t->key_size, key, plen, probe);
			e = htab_find(t, probe, jhash(probe, t->key_size,
						       t->seed));
			if (e)
				return e;
		}
		if (!plen)
			return NULL;
	}
}

static bool kind_lru(u8 kind)
{
	return kind == NICPROG_TABLE_KIND_LRU ||
	       kind == NICPROG_TABLE_KIND_LRU_PERCPU;
}

static bool kind_percpu(u8 kind)
{
	return kind == NICPROG_TABLE_KIND_PERCPU ||
	       kind == NICPROG_TABLE_KIND_LRU_PERCPU;
}

/* The running CPU's slot of a PERCPU kind's value @v. */
static void *percpu_slot(const struct nicprog_table *t, u8 *v)
{
	u32 cpu = raw_smp_processor_id();

	return v + (size_t)(cpu < t->slots ? cpu : cpu % t->slots) *
		   t->slot_size;
}

static void *table_lookup(struct nicprog_table *t, const void *key,
			  bool datapath)
{
	struct nicprog_htab_elem *e;
	u8 kind = table_kind(t);
	u32 idx;
	u8 *v;

	if (t->type == BPF_MAP_TYPE_ARRAY) {
		memcpy(&idx, key, sizeof(idx));
		if (idx >= t->max_entries)
			return NULL;
		v = t->values + (size_t)idx * array_stride(t);
		/* the entry's program now; racing writers write a target */
		if (datapath && kind == NICPROG_TABLE_KIND_PROGS)
			WRITE_ONCE(*(u32 *)v,
				   nicprog_hostmap_tail(t->nic, t->host_slot,
							idx));
		return datapath && kind_percpu(kind) ? percpu_slot(t, v) : v;
	}
	switch (kind) {
	case NICPROG_TABLE_KIND_LPM:
		e = lpm_find(t, key);
		break;
	case NICPROG_TABLE_KIND_LRU:
	case NICPROG_TABLE_KIND_LRU_PERCPU:
		e = htab_find(t, key, jhash(key, t->key_size, t->seed));
		/* as hashtab.c, only the datapath's lookups count as use */
		if (e && datapath && !READ_ONCE(e->ref))
			WRITE_ONCE(e->ref, 1);
		break;
	default:
		e = htab_find(t, key, jhash(key, t->key_size, t->seed));
	}
	if (!e)
		return NULL;
	v = htab_value(t, e);
	return datapath && kind_percpu(kind) ? percpu_slot(t, v) : v;
}

/**
 * nicprog_table_lookup() - value of @key, for programs on the NIC
 * @t: the table
 * @key: key_size bytes
 *
 * Context: rcu_read_lock() held; the value stays valid until it is dropped.
 * Return: pointer to the value (of the longest matching prefix in an LPM
 * table), or NULL.
 */
void *nicprog_table_lookup(struct nicprog_table *t, const void *key)
{
	return table_lookup(t, key, true);
}

/*
 * Make room in a full LRU table: the oldest element not looked up since
 * it was last aged goes; the referenced ones met on the way are aged and
 * move to the young end. Two passes at most.
 */
static void lru_evict(struct nicprog_table *t)
{
	struct nicprog_htab_elem *e;

	lockdep_assert_held(&t->lock);
	while (!list_empty(&t->lru)) {
		e = list_first_entry(&t->lru, struct nicprog_htab_elem, lru);
		if (READ_ONCE(e->ref)) {
			WRITE_ONCE(e->ref, 0);
			list_move_tail(&e->lru, &t->lru);
			continue;
		}
		list_del(&e->lru);
		hlist_del_rcu(&e->node);
		t->count--;
		kfree_rcu(e, rcu);
		return;
	}
}

/**
 * nicprog_table_update() - bpf_map_update_elem() on a NIC table
 * @t: the table
 * @key: key_size bytes
 * @value: value_size bytes
 * @flags: BPF_ANY, BPF_NOEXIST or BPF_EXIST
 *
 * Context: process or datapath; does not sleep.
 * Return: 0, -EINVAL for unknown flags or an LPM prefix longer than the
 * key's data, -EPERM for a HOST or PROGS table (the kernel sets its values),
 * -EEXIST/-ENOENT when @flags forbid the update, -E2BIG when
 * full (-ENOSPC for an LPM table; an LRU table evicts instead) or the
 * index is out of range, -ENOMEM.
 */
long nicprog_table_update(struct nicprog_table *t, const void *key,
			  const void *value, u64 flags)
{
	struct nicprog_htab_elem *old, *e;
	u32 idx, hash, plen = 0;
	u8 kind;

	if (flags > BPF_EXIST)
		return -EINVAL;
	if (t->type == BPF_MAP_TYPE_ARRAY) {
		/* the targets of a host map's entries are the kernel's */
		if (kind_host(table_kind(t)))
			return -EPERM;
		memcpy(&idx, key, sizeof(idx));
		if (idx >= t->max_entries)
			return -E2BIG;
		if (flags == BPF_NOEXIST)
			return -EEXIST;
		memcpy(t->values + (size_t)idx * array_stride(t), value,
		       t->value_size);
		return 0;
	}

retry:
	kind = table_kind(t);
	/* a PERCPU kind's value is padded (see the top) */
	e = kmalloc(sizeof(*e) + t->value_off +
		    round_up(t->value_size, 8) * (kind_percpu(kind) ? 2 : 1),
		    GFP_ATOMIC | __GFP_NOWARN);
	if (!e)
		return -ENOMEM;
	if (kind == NICPROG_TABLE_KIND_LPM) {
		plen = nicprog_ir_lpm_plen(key);
		if (plen > t->max_plen) {
			kfree(e);
			return -EINVAL;
		}
		nicprog_ir_lpm_key(t->key_size, key, plen, e->key);
	} else {
		memcpy(e->key, key, t->key_size);
	}
	hash = jhash(e->key, t->key_size, t->seed);
	e->hash = hash;
	e->ref = 0;
	memcpy(htab_value(t, e), value, t->value_size);

	spin_lock_bh(&t->lock);
	if (unlikely(kind != READ_ONCE(t->kind))) {
		/* table-set came between: made for the old kind */
		spin_unlock_bh(&t->lock);
		kfree(e);
		goto retry;
	}
	old = htab_find(t, e->key, hash);
	if (old && flags == BPF_NOEXIST) {
		spin_unlock_bh(&t->lock);
		kfree(e);
		return -EEXIST;
	}
	if (!old && flags == BPF_EXIST) {
		spin_unlock_bh(&t->lock);
		kfree(e);
		return -ENOENT;
	}
	if (!old && t->count >= t->max_entries) {
		if (kind_lru(kind)) {
			lru_evict(t);
		} else {
			spin_unlock_bh(&t->lock);
			kfree(e);
			return kind == NICPROG_TABLE_KIND_LPM ? -ENOSPC : -E2BIG;
		}
	}
	if (old) {
		hlist_replace_rcu(&old->node, &e->node);
		if (kind_lru(kind))
			list_del(&old->lru);
		kfree_rcu(old, rcu);
	} else {
		hlist_add_head_rcu(&e->node,
				   &t->buckets[hash & (t->n_buckets - 1)]);
		t->count++;
		if (kind == NICPROG_TABLE_KIND_LPM)
			WRITE_ONCE(t->plen_count[plen], t->plen_count[plen] + 1);
	}
	if (kind_lru(kind))
		list_add_tail(&e->lru, &t->lru);
	spin_unlock_bh(&t->lock);
	return 0;
}

/**
 * nicprog_table_delete() - bpf_map_delete_elem() on a NIC table
 * @t: the table
 * @key: key_size bytes; in an LPM table, the prefix to delete exactly
 *
 * Context: process or datapath; does not sleep.
 * Return: 0, -ENOENT if absent, -EINVAL for arrays (elements always exist)
 * and LPM prefixes longer than the key's data.
 */
long nicprog_table_delete(struct nicprog_table *t, const void *key)
{
	u8 probe[NICPROG_LPM_DATA_OFF + NICPROG_LPM_DATA_MAX];
	struct nicprog_htab_elem *e;
	const void *k = key;
	u32 plen = 0;
	u8 kind;

	if (t->type == BPF_MAP_TYPE_ARRAY)
		return -EINVAL;
retry:
	kind = table_kind(t);
	key = k;
	if (kind == NICPROG_TABLE_KIND_LPM) {
		plen = nicprog_ir_lpm_plen(key);
		if (plen > t->max_plen)
			return -EINVAL;
		nicprog_ir_lpm_key(t->key_size, key, plen, probe);
		key = probe;
	}
	spin_lock_bh(&t->lock);
	if (unlikely(kind != READ_ONCE(t->kind))) {
		spin_unlock_bh(&t->lock);
		goto retry;	/* table-set came between */
	}
	e = htab_find(t, key, jhash(key, t->key_size, t->seed));
	if (e) {
		hlist_del_rcu(&e->node);
		t->count--;
		if (kind_lru(kind))
			list_del(&e->lru);
		if (kind == NICPROG_TABLE_KIND_LPM)
			WRITE_ONCE(t->plen_count[plen], t->plen_count[plen] - 1);
	}
	spin_unlock_bh(&t->lock);
	if (!e)
		return -ENOENT;
	kfree_rcu(e, rcu);
	return 0;
}

/**
 * nicprog_table_kind() - what a table does beyond its map type
 * @t: the table, or NULL for a host map
 *
 * Context: any.
 * Return: enum nicprog_table_kind.
 */
u8 nicprog_table_kind(const struct nicprog_table *t)
{
	return t ? table_kind(t) : NICPROG_TABLE_KIND_PLAIN;
}

/**
 * nicprog_table_ir_type() - a table's map type, as the offloader sees it
 * @t: the table
 *
 * Context: any.
 * Return: BPF_MAP_TYPE_LRU_HASH or BPF_MAP_TYPE_LPM_TRIE for a hash table
 * of that kind, else the map's type.
 */
u32 nicprog_table_ir_type(const struct nicprog_table *t)
{
	switch (table_kind(t)) {
	case NICPROG_TABLE_KIND_LRU:
	case NICPROG_TABLE_KIND_LRU_PERCPU:
		return BPF_MAP_TYPE_LRU_HASH;
	case NICPROG_TABLE_KIND_LPM:
		return BPF_MAP_TYPE_LPM_TRIE;
	default:
		return t->type;
	}
}

/**
 * nicprog_table_host_map_id() - the host map a HOST or PROGS table stands for
 * @t: the table
 *
 * Context: RTNL held.
 * Return: the host map's ID, 0 for a table of another kind.
 */
u32 nicprog_table_host_map_id(const struct nicprog_table *t)
{
	if (!t || !kind_host(table_kind(t)))
		return 0;
	return nicprog_hostmap_id(t->nic, t->host_slot);
}

/**
 * nicprog_table_bind() - a program is prepared with the table
 * @t: the table
 *
 * Context: process. From now on its kind is fixed: the program was
 * verified and planned against it.
 */
void nicprog_table_bind(struct nicprog_table *t)
{
	WRITE_ONCE(t->bound, true);
}

/*
 * A HOST or PROGS table: an array of u32 keys and values, as many as the
 * host map it stands for -- an XSKMAP or CPUMAP (HOST), whose values
 * become the targets of that map's entries, or a PROG_ARRAY (PROGS),
 * whose values lookups compute. Called with the table unbound: no program
 * reads it yet.
 */
static int table_set_host(struct nicprog_table *t, u8 kind,
			  struct bpf_map *host_map,
			  struct netlink_ext_ack *extack)
{
	u32 i, target;
	int slot;

	if (t->type != BPF_MAP_TYPE_ARRAY || t->key_size != sizeof(u32) ||
	    t->value_size != sizeof(u32)) {
		NL_SET_ERR_MSG(extack, "a host table is an array of 4-byte values");
		return -EINVAL;
	}
	/* none of these types can be bound to a device in 6.1 */
	if (kind == NICPROG_TABLE_KIND_HOST &&
	    (!host_map || (host_map->map_type != BPF_MAP_TYPE_XSKMAP &&
			   host_map->map_type != BPF_MAP_TYPE_CPUMAP))) {
		NL_SET_ERR_MSG(extack, "host-map-fd is not a host XSKMAP or CPUMAP");
		return -EINVAL;
	}
	if (kind == NICPROG_TABLE_KIND_PROGS &&
	    (!host_map || host_map->map_type != BPF_MAP_TYPE_PROG_ARRAY)) {
		NL_SET_ERR_MSG(extack, "host-map-fd is not a PROG_ARRAY");
		return -EINVAL;
	}
	if (host_map->max_entries != t->max_entries ||
	    t->max_entries > NICPROG_HOST_TARGET_KEY + 1) {
		NL_SET_ERR_MSG(extack, "the host map and the table differ in entries (at most 1048576)");
		return -EINVAL;
	}
	slot = nicprog_hostmap_get(t->nic, host_map, extack);
	if (slot < 0)
		return slot;
	t->host_slot = slot;
	for (i = 0; kind == NICPROG_TABLE_KIND_HOST && i < t->max_entries; i++) {
		target = NICPROG_PIPE_TARGET_BIT | NICPROG_HOST_TARGET_BIT |
			 (u32)slot << NICPROG_HOST_TARGET_SLOT_SHIFT | i;
		memcpy(t->values + (size_t)i * array_stride(t), &target,
		       sizeof(target));
	}
	/* syscall readers see the targets before the kind */
	smp_store_release(&t->kind, kind);
	return 0;
}

/**
 * nicprog_table_set_kind() - table-set: give an offloaded table a kind
 * @nic: the NIC
 * @map: a map, any map: it is only compared with the NIC's tables'
 * @kind: enum nicprog_table_kind
 * @host_map: for the HOST kind, the host XSKMAP or CPUMAP the table
 *	stands for, for the PROGS kind the PROG_ARRAY (a reference is taken);
 *	else NULL
 * @extack: where a refusal's reason goes
 *
 * Context: process, RTNL held (the port's table list).
 * Return: 0; -ENOENT if @map is not offloaded to @nic, -EINVAL for an
 * array of another kind than PERCPU, HOST or PROGS, an LPM key or per-CPU value
 * of the wrong size, a HOST table not shaped as its host map, -EBUSY if
 * the (hash) table holds elements, already has another kind or a program
 * uses it, -ENOSPC when the port's host map slots are taken, -ENOMEM.
 */
int nicprog_table_set_kind(struct nicprog_nic *nic, const struct bpf_map *map,
			   u8 kind, struct bpf_map *host_map,
			   struct netlink_ext_ack *extack)
{
	struct nicprog_table *t, *found = NULL;
	u32 *plen_count = NULL;
	int err = 0;

	ASSERT_RTNL();
	list_for_each_entry(t, &nic->tables, list)
		if (t->map == map)
			found = t;
	t = found;
	if (!t) {
		NL_SET_ERR_MSG(extack, "the map is not offloaded to this port");
		return -ENOENT;
	}
	if (t->type != BPF_MAP_TYPE_HASH &&
	    kind != NICPROG_TABLE_KIND_PERCPU && !kind_host(kind)) {
		NL_SET_ERR_MSG(extack, "an array takes no kind but percpu, host and progs");
		return -EINVAL;
	}
	if (kind_percpu(kind) &&
	    (t->value_size % num_possible_cpus() ||
	     (t->value_size / num_possible_cpus()) % 8)) {
		NL_SET_ERR_MSG(extack, "a per-CPU value is one 8-byte aligned slot per possible CPU");
		return -EINVAL;
	}
	if (kind == table_kind(t) && !kind_host(kind))
		return 0;
	if (READ_ONCE(t->bound)) {
		NL_SET_ERR_MSG(extack, "a program already uses the table: its kind is fixed");
		return -EBUSY;
	}
	if (kind_host(table_kind(t))) {
		NL_SET_ERR_MSG(extack, "the table already stands for a host map");
		return -EBUSY;
	}
	if (table_kind(t) != NICPROG_TABLE_KIND_PLAIN) {
		NL_SET_ERR_MSG(extack, "the table already has another kind");
		return -EBUSY;
	}
	if (kind_host(kind))
		return table_set_host(t, kind, host_map, extack);
	if (kind == NICPROG_TABLE_KIND_LPM) {
		if (t->key_size <= NICPROG_LPM_DATA_OFF ||
		    t->key_size > NICPROG_LPM_DATA_OFF + NICPROG_LPM_DATA_MAX) {
			NL_SET_ERR_MSG(extack, "an LPM key is a 4-byte prefix length and 1 to 256 bytes of data");
			return -EINVAL;
		}
		plen_count = kcalloc(8 * (t->key_size - NICPROG_LPM_DATA_OFF) + 1,
				     sizeof(*plen_count), GFP_KERNEL);
		if (!plen_count)
			return -ENOMEM;
	}
	spin_lock_bh(&t->lock);
	if (t->count) {
		NL_SET_ERR_MSG(extack, "the table is not empty");
		err = -EBUSY;
	} else {
		if (plen_count)
			t->max_plen = 8 * (t->key_size - NICPROG_LPM_DATA_OFF);
		t->plen_count = plen_count;
		plen_count = NULL;
		if (kind_percpu(kind)) {
			t->slots = num_possible_cpus();
			t->slot_size = t->value_size / t->slots;
		}
		/* lockless readers see @plen_count before the kind */
		smp_store_release(&t->kind, kind);
	}
	spin_unlock_bh(&t->lock);
	kfree(plen_count);
	return err;
}

/* The first element of a bucket at or after @b, or NULL. */
static struct nicprog_htab_elem *htab_first_from(struct nicprog_table *t,
						 u32 b)
{
	struct nicprog_htab_elem *e;

	for (; b < t->n_buckets; b++) {
		e = hlist_entry_safe(rcu_dereference(hlist_first_rcu(&t->buckets[b])),
				     struct nicprog_htab_elem, node);
		if (e)
			return e;
	}
	return NULL;
}

static int nicprog_table_next_key(struct nicprog_table *t, const void *key,
				  void *next_key)
{
	struct nicprog_htab_elem *e = NULL, *next;
	u32 idx, hash;

	if (t->type == BPF_MAP_TYPE_ARRAY) {
		/* No key, or one out of range: start at index 0. */
		idx = U32_MAX;
		if (key)
			memcpy(&idx, key, sizeof(idx));
		if (idx >= t->max_entries)
			idx = U32_MAX;
		if (idx + 1 == t->max_entries)
			return -ENOENT;
		idx++;
		memcpy(next_key, &idx, sizeof(idx));
		return 0;
	}

	rcu_read_lock();
	if (key) {
		hash = jhash(key, t->key_size, t->seed);
		e = htab_find(t, key, hash);
	}
	if (!e) {
		/* No such key: start over, as hashtab.c does. */
		next = htab_first_from(t, 0);
	} else {
		next = hlist_entry_safe(rcu_dereference(hlist_next_rcu(&e->node)),
					struct nicprog_htab_elem, node);
		if (!next)
			next = htab_first_from(t, (e->hash & (t->n_buckets - 1)) + 1);
	}
	if (next)
		memcpy(next_key, next->key, t->key_size);
	rcu_read_unlock();
	return next ? 0 : -ENOENT;
}

static int nicprog_map_get_next_key(struct bpf_offloaded_map *offmap,
				    void *key, void *next_key)
{
	return nicprog_table_next_key(offmap->dev_priv, key, next_key);
}

static int nicprog_map_lookup_elem(struct bpf_offloaded_map *offmap,
				   void *key, void *value)
{
	struct nicprog_table *t = offmap->dev_priv;
	void *v;

	rcu_read_lock();
	v = table_lookup(t, key, false);
	if (v)
		memcpy(value, v, t->value_size);
	rcu_read_unlock();
	return v ? 0 : -ENOENT;
}

static int nicprog_map_update_elem(struct bpf_offloaded_map *offmap,
				   void *key, void *value, u64 flags)
{
	return nicprog_table_update(offmap->dev_priv, key, value, flags);
}

static int nicprog_map_delete_elem(struct bpf_offloaded_map *offmap,
				   void *key)
{
	return nicprog_table_delete(offmap->dev_priv, key);
}

const struct bpf_map_dev_ops nicprog_table_dev_ops = {
	.map_get_next_key	= nicprog_map_get_next_key,
	.map_lookup_elem	= nicprog_map_lookup_elem,
	.map_update_elem	= nicprog_map_update_elem,
	.map_delete_elem	= nicprog_map_delete_elem,
};
