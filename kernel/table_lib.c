// SPDX-License-Identifier: GPL-2.0
/*
 * The table library: storage for offloaded maps in memory the host
 * addresses, with the semantics of kernel/bpf/hashtab.c and arraymap.c
 * that programs and bpftool can observe (update flags, E2BIG when full,
 * get_next_key order rules, array elements that always exist). The core
 * keeps its tables with it (table.c) when a driver has no storage of its
 * own, and a driver may build its struct nicprog_table_ops on it, as
 * nicsim does. A store is made for one kind (enum nicprog_table_kind) and
 * keeps it:
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
 *   that runs it. Drivers run a program with bottom halves off (nicsim's
 *   cores), so no other runs on that CPU meanwhile: each slot has one
 *   writer at a time, as on the host. LRU_PERCPU is both. Programs were
 *   verified against the whole value, so every value is followed by a
 *   value's worth of padding that an offset past the slot stays in.
 * - HOST and PROGS: the core's stand-ins for host maps (table.c,
 *   hostmap.c), arrays whose values only the kernel writes.
 *
 * A hash element also has a slot number, the place of its value in the
 * table's NIC memory (nicprog_table_lib_offset(), NICPROG_EXEC_NIC_TABLE()):
 * the slot last freed, else the next never used, taken and given back
 * under @lock. A timing model then sees where the NIC would keep the
 * value, whatever kmalloc did; the offline planner numbers its slots the
 * same way (tools/nicprog-plan/hostrun.c).
 *
 * Concurrency: the datapath looks up and updates under rcu_read_lock();
 * syscalls do the same from process context. Hash mutations take @lock;
 * removed elements are freed after an RCU grace period, so a pointer a
 * program got from lookup stays valid while it runs.
 */
#include <linux/bpf.h>
#include <linux/err.h>
#include <linux/jhash.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/nospec.h>
#include <linux/random.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "nicprog.h"

struct nicprog_htab_elem {
	struct hlist_node node;
	struct rcu_head rcu;
	struct list_head lru;	/* LRU kind: age order, under the lock */
	u32 hash;
	u32 slot;		/* its value's place on the NIC */
	u8 ref;			/* LRU kind: looked up since last aged */
	char key[] __aligned(8);	/* key, then value at value_off */
};

/**
 * struct nicprog_tlib - a table's storage
 * @nic: the NIC, for the PROGS kind's lookups (hostmap.c)
 * @type: BPF_MAP_TYPE_HASH or BPF_MAP_TYPE_ARRAY
 * @kind: enum nicprog_table_kind, for the store's life
 * @key_size: bytes of a key
 * @value_size: bytes of a value
 * @max_entries: capacity
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
 * @host_slot: HOST and PROGS kinds: the NIC's slot of the host map
 * @values: array storage, @max_entries values of round_up(@value_size, 8)
 * @free_slots: hash kinds: slots given back, the last on top, under @lock
 * @n_free: entries in @free_slots
 * @next_slot: hash kinds: the first slot never taken, under @lock
 */
struct nicprog_tlib {
	struct nicprog_nic *nic;
	u32 type;
	u8 kind;
	u32 key_size;
	u32 value_size;
	u32 max_entries;
	spinlock_t lock;		/* hash mutations */
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
	u32 *free_slots;
	u32 n_free;
	u32 next_slot;
};

static u32 array_stride(const struct nicprog_tlib *t)
{
	return round_up(t->value_size, 8);
}

/**
 * nicprog_table_lib_alloc() - storage for a table, in memory the host
 *	addresses
 * @nic: the NIC the table is for
 * @desc: the table; the core checked that its kind fits its shape
 * @extack: unused: the library refuses nothing but a lack of memory
 *
 * Context: process; may sleep.
 * Return: the store, for the other nicprog_table_lib_*() functions, or
 * ERR_PTR(-ENOMEM).
 */
void *nicprog_table_lib_alloc(struct nicprog_nic *nic,
			      const struct nicprog_table_desc *desc,
			      struct netlink_ext_ack *extack)
{
	struct nicprog_tlib *t;

	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return ERR_PTR(-ENOMEM);
	t->nic = nic;
	t->type = desc->type;
	t->kind = desc->kind;
	t->key_size = desc->key_size;
	t->value_size = desc->value_size;
	t->max_entries = desc->max_entries;
	spin_lock_init(&t->lock);
	INIT_LIST_HEAD(&t->lru);
	if (nicprog_kind_percpu(t->kind)) {
		t->slots = num_possible_cpus();
		t->slot_size = t->value_size / t->slots;
	}
	if (t->kind == NICPROG_TABLE_KIND_LPM) {
		t->max_plen = 8 * (t->key_size - NICPROG_LPM_DATA_OFF);
		t->plen_count = kcalloc(t->max_plen + 1, sizeof(*t->plen_count),
					GFP_KERNEL);
		if (!t->plen_count)
			goto err_free;
	}
	if (t->type == BPF_MAP_TYPE_ARRAY) {
		/* padded for a PERCPU kind's last slot (see the top) */
		t->values = vzalloc((size_t)t->max_entries * array_stride(t) +
				    array_stride(t));
		if (!t->values)
			goto err_free;
		return t;
	}
	t->n_buckets = roundup_pow_of_two(max_t(u32, t->max_entries, 2));
	t->n_buckets = min_t(u32, t->n_buckets, 1U << 20);
	t->buckets = kvcalloc(t->n_buckets, sizeof(*t->buckets), GFP_KERNEL);
	if (!t->buckets)
		goto err_free;
	/* a replacement holds a slot while its old element still does */
	t->free_slots = kvmalloc_array(t->max_entries + 1,
				       sizeof(*t->free_slots), GFP_KERNEL);
	if (!t->free_slots)
		goto err_free;
	t->seed = desc->map_flags & BPF_F_ZERO_SEED ? 0 : get_random_u32();
	t->value_off = round_up(t->key_size, 8);
	return t;

err_free:
	kvfree(t->buckets);
	kfree(t->plen_count);
	kfree(t);
	return ERR_PTR(-ENOMEM);
}
EXPORT_SYMBOL_GPL(nicprog_table_lib_alloc);

/**
 * nicprog_table_lib_free() - free a store
 * @store: from nicprog_table_lib_alloc()
 *
 * Context: process. No program runs with the store any more; elements a
 * program may still hold go after an RCU grace period.
 */
void nicprog_table_lib_free(void *store)
{
	struct nicprog_tlib *t = store;
	struct nicprog_htab_elem *e;
	struct hlist_node *tmp;
	u32 i;

	for (i = 0; i < t->n_buckets; i++)
		hlist_for_each_entry_safe(e, tmp, &t->buckets[i], node)
			kfree_rcu(e, rcu);
	kvfree(t->buckets);
	kvfree(t->free_slots);
	vfree(t->values);
	kfree(t->plen_count);
	kfree(t);
}
EXPORT_SYMBOL_GPL(nicprog_table_lib_free);

/**
 * nicprog_table_lib_set_host() - fill a HOST or PROGS table for its slot
 * @store: a store of one of these kinds, that no program reads yet
 * @slot: the NIC's slot of the host map (nicprog_hostmap_get())
 *
 * A HOST table's values become the targets of the host map's entries; a
 * PROGS table's are computed by each lookup.
 */
void nicprog_table_lib_set_host(void *store, u32 slot)
{
	struct nicprog_tlib *t = store;
	u32 i, target;

	t->host_slot = slot;
	for (i = 0; t->kind == NICPROG_TABLE_KIND_HOST && i < t->max_entries;
	     i++) {
		target = NICPROG_PIPE_TARGET_BIT | NICPROG_HOST_TARGET_BIT |
			 slot << NICPROG_HOST_TARGET_SLOT_SHIFT | i;
		memcpy(t->values + (size_t)i * array_stride(t), &target,
		       sizeof(target));
	}
}

/**
 * nicprog_table_lib_entries() - elements a store holds
 * @store: from nicprog_table_lib_alloc()
 *
 * Context: any; a snapshot.
 * Return: a hash table's elements, an array's capacity.
 */
u32 nicprog_table_lib_entries(const void *store)
{
	const struct nicprog_tlib *t = store;

	return t->type == BPF_MAP_TYPE_HASH ? READ_ONCE(t->count) :
	       t->max_entries;
}
EXPORT_SYMBOL_GPL(nicprog_table_lib_entries);

static void *htab_value(const struct nicprog_tlib *t,
			struct nicprog_htab_elem *e)
{
	return e->key + t->value_off;
}

static struct nicprog_htab_elem *htab_find(struct nicprog_tlib *t,
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
static struct nicprog_htab_elem *lpm_find(struct nicprog_tlib *t,
					  const void *key)
{
	u8 probe[NICPROG_LPM_DATA_OFF + NICPROG_LPM_DATA_MAX];
	struct nicprog_htab_elem *e;
	u32 plen = min(nicprog_ir_lpm_plen(key), t->max_plen);

	for (;; plen--) {
		if (READ_ONCE(t->plen_count[plen])) {
			nicprog_ir_lpm_key(t->key_size, key, plen, probe);
			e = htab_find(t, probe,
				      jhash(probe, t->key_size, t->seed));
			if (e)
				return e;
		}
		if (!plen)
			return NULL;
	}
}

/* Offset of the running CPU's slot in a PERCPU kind's value. */
static size_t percpu_off(const struct nicprog_tlib *t)
{
	u32 cpu = raw_smp_processor_id();

	return (size_t)(cpu < t->slots ? cpu : cpu % t->slots) * t->slot_size;
}

/* The running CPU's slot of a PERCPU kind's value @v. */
static void *percpu_slot(const struct nicprog_tlib *t, u8 *v)
{
	return v + percpu_off(t);
}

/* Bytes of a value as the table keeps it: a PERCPU kind's padded. */
static u32 value_bytes(const struct nicprog_tlib *t)
{
	return round_up(t->value_size, 8) *
	       (nicprog_kind_percpu(t->kind) ? 2 : 1);
}

static void *table_lookup(struct nicprog_tlib *t, const void *key,
			  bool datapath)
{
	struct nicprog_htab_elem *e;
	u32 idx;
	u8 *v;

	if (t->type == BPF_MAP_TYPE_ARRAY) {
		memcpy(&idx, key, sizeof(idx));
		if (idx >= t->max_entries)
			return NULL;
		/* a key from bpf(2) indexes the values: no speculation past */
		idx = array_index_nospec(idx, t->max_entries);
		v = t->values + (size_t)idx * array_stride(t);
		/* the entry's program now; racing writers write a target */
		if (datapath && t->kind == NICPROG_TABLE_KIND_PROGS)
			WRITE_ONCE(*(u32 *)v,
				   nicprog_hostmap_tail(t->nic, t->host_slot,
							idx));
		return datapath && nicprog_kind_percpu(t->kind) ? percpu_slot(t, v) : v;
	}
	switch (t->kind) {
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
	return datapath && nicprog_kind_percpu(t->kind) ? percpu_slot(t, v) : v;
}

/**
 * nicprog_table_lib_lookup() - value of @key, for programs on the NIC
 * @store: from nicprog_table_lib_alloc()
 * @key: key_size bytes
 *
 * Context: rcu_read_lock() held; the value stays valid until it is dropped.
 * Return: pointer to the value (of the longest matching prefix in an LPM
 * table, the running CPU's slot of a PERCPU kind), or NULL.
 */
void *nicprog_table_lib_lookup(void *store, const void *key)
{
	return table_lookup(store, key, true);
}
EXPORT_SYMBOL_GPL(nicprog_table_lib_lookup);

/**
 * nicprog_table_lib_offset() - where a looked-up value lies on the NIC
 * @store: from nicprog_table_lib_alloc()
 * @value: what nicprog_table_lib_lookup() just returned, on this CPU
 * @len: set to the bytes from @value a program may reach
 *
 * Context: as nicprog_table_lib_lookup(), on the CPU that made the lookup
 * (a PERCPU kind's value is that CPU's slot).
 * Return: the offset of @value from the table's NIC address
 * (NICPROG_EXEC_NIC_TABLE()).
 */
u64 nicprog_table_lib_offset(void *store, const void *value, u32 *len)
{
	struct nicprog_tlib *t = store;
	const struct nicprog_htab_elem *e;
	const u8 *v = value;
	size_t in;

	if (t->type == BPF_MAP_TYPE_ARRAY) {
		in = (v - t->values) % array_stride(t);
		*len = value_bytes(t) - in;
		return NICPROG_EXEC_NIC_VALUES + (v - t->values);
	}
	in = nicprog_kind_percpu(t->kind) ? percpu_off(t) : 0;
	e = (const void *)(v - in - t->value_off -
			   offsetof(struct nicprog_htab_elem, key));
	*len = value_bytes(t) - in;
	return nicprog_exec_nic_slot(READ_ONCE(e->slot), value_bytes(t)) + in;
}
EXPORT_SYMBOL_GPL(nicprog_table_lib_offset);

/**
 * nicprog_table_lib_read() - copy the value of @key, for bpf(2)
 * @store: from nicprog_table_lib_alloc()
 * @key: key_size bytes
 * @value: value_size bytes, written on success
 *
 * Context: any; takes rcu_read_lock().
 * Return: 0, or -ENOENT.
 */
int nicprog_table_lib_read(void *store, const void *key, void *value)
{
	struct nicprog_tlib *t = store;
	void *v;

	rcu_read_lock();
	v = table_lookup(t, key, false);
	if (v)
		memcpy(value, v, t->value_size);
	rcu_read_unlock();
	return v ? 0 : -ENOENT;
}
EXPORT_SYMBOL_GPL(nicprog_table_lib_read);

/* A slot for a new element, under @t->lock: the last freed first. */
static u32 slot_get(struct nicprog_tlib *t)
{
	lockdep_assert_held(&t->lock);
	return t->n_free ? t->free_slots[--t->n_free] : t->next_slot++;
}

static void slot_put(struct nicprog_tlib *t, u32 slot)
{
	lockdep_assert_held(&t->lock);
	if (!WARN_ON_ONCE(t->n_free > t->max_entries))
		t->free_slots[t->n_free++] = slot;
}

/*
 * Make room in a full LRU table: the oldest element not looked up since
 * it was last aged goes; the referenced ones met on the way are aged and
 * move to the young end. Two passes at most.
 */
static void lru_evict(struct nicprog_tlib *t)
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
		slot_put(t, e->slot);
		kfree_rcu(e, rcu);
		return;
	}
}

/* Insert @e or replace its key's element, under @t->lock. */
static long htab_insert(struct nicprog_tlib *t, struct nicprog_htab_elem *e,
			u32 plen, u64 flags)
{
	struct nicprog_htab_elem *old;

	lockdep_assert_held(&t->lock);
	old = htab_find(t, e->key, e->hash);
	if (old && flags == BPF_NOEXIST)
		return -EEXIST;
	if (!old && flags == BPF_EXIST)
		return -ENOENT;
	if (!old && t->count >= t->max_entries) {
		if (!nicprog_kind_lru(t->kind))
			return t->kind == NICPROG_TABLE_KIND_LPM ? -ENOSPC :
								    -E2BIG;
		lru_evict(t);
	}
	e->slot = slot_get(t);
	if (old) {
		hlist_replace_rcu(&old->node, &e->node);
		if (nicprog_kind_lru(t->kind))
			list_del(&old->lru);
		slot_put(t, old->slot);
		kfree_rcu(old, rcu);
	} else {
		hlist_add_head_rcu(&e->node,
				   &t->buckets[e->hash & (t->n_buckets - 1)]);
		t->count++;
		if (t->kind == NICPROG_TABLE_KIND_LPM)
			WRITE_ONCE(t->plen_count[plen], t->plen_count[plen] + 1);
	}
	if (nicprog_kind_lru(t->kind))
		list_add_tail(&e->lru, &t->lru);
	return 0;
}

/**
 * nicprog_table_lib_update() - bpf_map_update_elem() on a store
 * @store: from nicprog_table_lib_alloc()
 * @key: key_size bytes
 * @value: value_size bytes
 * @flags: BPF_ANY, BPF_NOEXIST or BPF_EXIST
 *
 * Context: process or datapath; does not sleep.
 * Return: 0, -EINVAL for unknown flags or an LPM prefix longer than the
 * key's data, -EPERM for a HOST or PROGS table (the kernel sets its
 * values), -EEXIST/-ENOENT when @flags forbid the update, -E2BIG when
 * full (-ENOSPC for an LPM table; an LRU table evicts instead) or the
 * index is out of range, -ENOMEM.
 */
long nicprog_table_lib_update(void *store, const void *key,
			      const void *value, u64 flags)
{
	struct nicprog_tlib *t = store;
	struct nicprog_htab_elem *e;
	u32 idx, plen = 0;
	long err;

	if (flags > BPF_EXIST)
		return -EINVAL;
	if (t->type == BPF_MAP_TYPE_ARRAY) {
		/* the targets of a host map's entries are the kernel's */
		if (nicprog_kind_host(t->kind))
			return -EPERM;
		memcpy(&idx, key, sizeof(idx));
		if (idx >= t->max_entries)
			return -E2BIG;
		if (flags == BPF_NOEXIST)
			return -EEXIST;
		idx = array_index_nospec(idx, t->max_entries);
		memcpy(t->values + (size_t)idx * array_stride(t), value,
		       t->value_size);
		return 0;
	}

	/* a PERCPU kind's value is padded (see the top) */
	e = kmalloc(sizeof(*e) + t->value_off + value_bytes(t),
		    GFP_ATOMIC | __GFP_NOWARN);
	if (!e)
		return -ENOMEM;
	if (t->kind == NICPROG_TABLE_KIND_LPM) {
		plen = nicprog_ir_lpm_plen(key);
		if (plen > t->max_plen) {
			kfree(e);
			return -EINVAL;
		}
		nicprog_ir_lpm_key(t->key_size, key, plen, e->key);
	} else {
		memcpy(e->key, key, t->key_size);
	}
	e->hash = jhash(e->key, t->key_size, t->seed);
	e->ref = 0;
	memcpy(htab_value(t, e), value, t->value_size);

	spin_lock_bh(&t->lock);
	err = htab_insert(t, e, plen, flags);
	spin_unlock_bh(&t->lock);
	if (err)
		kfree(e);
	return err;
}
EXPORT_SYMBOL_GPL(nicprog_table_lib_update);

/**
 * nicprog_table_lib_delete() - bpf_map_delete_elem() on a store
 * @store: from nicprog_table_lib_alloc()
 * @key: key_size bytes; in an LPM table, the prefix to delete exactly
 *
 * Context: process or datapath; does not sleep.
 * Return: 0, -ENOENT if absent, -EINVAL for arrays (elements always exist)
 * and LPM prefixes longer than the key's data.
 */
long nicprog_table_lib_delete(void *store, const void *key)
{
	u8 probe[NICPROG_LPM_DATA_OFF + NICPROG_LPM_DATA_MAX];
	struct nicprog_tlib *t = store;
	struct nicprog_htab_elem *e;
	u32 plen = 0;

	if (t->type == BPF_MAP_TYPE_ARRAY)
		return -EINVAL;
	if (t->kind == NICPROG_TABLE_KIND_LPM) {
		plen = nicprog_ir_lpm_plen(key);
		if (plen > t->max_plen)
			return -EINVAL;
		nicprog_ir_lpm_key(t->key_size, key, plen, probe);
		key = probe;
	}
	spin_lock_bh(&t->lock);
	e = htab_find(t, key, jhash(key, t->key_size, t->seed));
	if (e) {
		hlist_del_rcu(&e->node);
		t->count--;
		slot_put(t, e->slot);
		if (nicprog_kind_lru(t->kind))
			list_del(&e->lru);
		if (t->kind == NICPROG_TABLE_KIND_LPM)
			WRITE_ONCE(t->plen_count[plen], t->plen_count[plen] - 1);
	}
	spin_unlock_bh(&t->lock);
	if (!e)
		return -ENOENT;
	kfree_rcu(e, rcu);
	return 0;
}
EXPORT_SYMBOL_GPL(nicprog_table_lib_delete);

/* The first element of a bucket at or after @b, or NULL. */
static struct nicprog_htab_elem *htab_first_from(struct nicprog_tlib *t,
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

/**
 * nicprog_table_lib_next_key() - bpf(2)'s get_next_key on a store
 * @store: from nicprog_table_lib_alloc()
 * @key: the key to follow, or NULL for the first
 * @next_key: key_size bytes, written on success
 *
 * As hashtab.c: a key the table does not hold starts over; as arraymap.c:
 * an index out of range starts at 0.
 *
 * Context: any; takes rcu_read_lock().
 * Return: 0, or -ENOENT past the last.
 */
int nicprog_table_lib_next_key(void *store, const void *key, void *next_key)
{
	struct nicprog_tlib *t = store;
	struct nicprog_htab_elem *e = NULL, *next;
	u32 idx, hash;

	if (t->type == BPF_MAP_TYPE_ARRAY) {
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
EXPORT_SYMBOL_GPL(nicprog_table_lib_next_key);

static void lib_ops_free(struct nicprog_nic *nic, void *store)
{
	nicprog_table_lib_free(store);
}

/* The core's own tables, when a driver keeps none (table.c). */
const struct nicprog_table_ops nicprog_table_lib_ops = {
	.alloc		= nicprog_table_lib_alloc,
	.free		= lib_ops_free,
	NICPROG_TABLE_LIB_ELEM_OPS,
};
