// SPDX-License-Identifier: GPL-2.0
/*
 * NIC tables: offloaded BPF maps, charged against the LNIC's memory and
 * kept in storage the driver owns (&nicprog_dev_ops.table_ops, the model
 * of netdevsim's and nfp's bpf_map_dev_ops) or, for a driver that keeps
 * none, the core's table library (table_lib.c). Linux 6.1 lets a device
 * own only HASH and ARRAY maps. A table may be given a kind before any
 * program uses it (table-set), for the map types 6.1 will not bind, which
 * a loader creates as HASH or ARRAY maps (LRU, LPM, PERCPU; see
 * table_lib.c): the table then gets new storage made for the kind, a
 * hash table's old one being empty (an array's values go with it). Two
 * kinds stand for host maps (hostmap.c) and are always the core's: HOST
 * (an XSKMAP or CPUMAP) and PROGS (a PROG_ARRAY), arrays whose values
 * only the kernel writes. So is a table kept in host memory for a
 * partial plan.
 *
 * Lifetime: bpf(2)'s element operations hold @sem for reading, and a new
 * store (table-set) is put in under it for writing, so none meets a store
 * that is going. A program is prepared with a table (nicprog_table_bind())
 * under @sem too: from then on the store stays, and the datapath uses it
 * without @sem, under the RCU read lock the storage asks for.
 */
#include <linux/bpf.h>
#include <linux/err.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>

#include "nicprog.h"

/**
 * struct nicprog_table - one offloaded map
 * @nic: the NIC that holds it, which outlives it (its offload device
 *	destroys its maps first)
 * @list: entry in @nic's tables, under RTNL
 * @map: the map it backs, to find it by (table-set)
 * @sem: bpf(2)'s element operations (read) against a new store (write)
 * @ops: @store's operations: the driver's or the library's
 * @store: the storage, @ops's handle; replaced only while unbound
 * @desc: what @store was made for: the map's shape, the kind, the bytes
 *	charged (0 in host memory); the kind is written under @sem and
 *	RTNL
 * @bound: a program was prepared with it: its kind and store are fixed;
 *	under @sem
 * @host: partial offload: the table did not fit the NIC and is kept in
 *	host memory; only the host part of a plan may access it
 * @host_slot: HOST and PROGS kinds: the NIC's slot of the host map
 * @counter_words: a counter table's u64 counters per element (0: none);
 *	set by table-set under RTNL, read by stats-get under RTNL
 */
struct nicprog_table {
	struct nicprog_nic *nic;
	struct list_head list;
	const struct bpf_map *map;
	struct rw_semaphore sem;
	const struct nicprog_table_ops *ops;
	void *store;
	struct nicprog_table_desc desc;
	bool bound;
	bool host;
	u32 host_slot;
	u8 counter_words;
};

/* Whose storage a table of @kind gets: the driver's, or the library's. */
static const struct nicprog_table_ops *
table_ops(const struct nicprog_table *t, u8 kind)
{
	const struct nicprog_table_ops *ops = t->nic->ops->table_ops;

	return ops && !t->host && !nicprog_kind_host(kind) ? ops :
						     &nicprog_table_lib_ops;
}

/*
 * Storage for @t made for @kind, or an ERR_PTR; the extack's message of a
 * driver's refusal is in @extack.
 */
static void *table_store(struct nicprog_table *t, u8 kind,
			 const struct nicprog_table_ops *ops,
			 struct netlink_ext_ack *extack)
{
	struct nicprog_table_desc desc = t->desc;
	void *store;

	desc.kind = kind;
	store = ops->alloc(t->nic, &desc, extack);
	if (WARN_ON_ONCE(!store))
		return ERR_PTR(-ENOMEM);
	return store;
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
 * it (offload/host.c). The map has no name or ID yet, and bpf(2) no
 * extack: a refusal's cause goes to the kernel log, the map described by
 * its shape, as nfp's map_alloc does. Unlike the refusals that have an
 * extack (the tracepoint nicprog:nicprog_bad_arg records those), this is
 * the only place the cause can be read, and only CAP_SYS_ADMIN in the
 * initial namespace may offload a map (bpf_map_offload_map_alloc()), so
 * no unprivileged user writes to the log through it.
 *
 * Return: 0, -EOPNOTSUPP for map flags a NIC table cannot honour (mmap,
 * which global variables need), -ENOSPC when the NIC's memory cannot hold
 * the map, the driver's refusal, -ENOMEM.
 */
int nicprog_table_alloc(struct nicprog_dev *nd,
			struct bpf_offloaded_map *offmap)
{
	struct nicprog_nic *nic = nd->nic;
	struct bpf_map *map = &offmap->map;
	u64 bytes = nicprog_table_bytes(map);
	struct netlink_ext_ack extack = {};
	struct nicprog_table *t;
	bool partial, host = false;

	/*
	 * BPF_F_RDONLY_PROG binds programs only, which the verifier checks
	 * on the host: the NIC's copy of a program never writes the table.
	 */
	if (map->map_flags & ~(BPF_F_NO_PREALLOC | BPF_F_ZERO_SEED |
			       BPF_F_NUMA_NODE | BPF_F_RDONLY_PROG)) {
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
	init_rwsem(&t->sem);
	t->desc = (struct nicprog_table_desc){
		.type = map->map_type,
		.kind = NICPROG_TABLE_KIND_PLAIN,
		.key_size = map->key_size,
		.value_size = map->value_size,
		.max_entries = map->max_entries,
		.map_flags = map->map_flags,
		.bytes = bytes,
	};
	t->host = host;
	t->ops = table_ops(t, NICPROG_TABLE_KIND_PLAIN);
	t->store = table_store(t, NICPROG_TABLE_KIND_PLAIN, t->ops, &extack);
	if (IS_ERR(t->store)) {
		int err = PTR_ERR(t->store);

		netdev_info(nd->netdev,
			    "nicprog: map (type %u, key %u, value %u, %u entries): the NIC's driver refused it: %s (%d)\n",
			    map->map_type, map->key_size, map->value_size,
			    map->max_entries, extack._msg ?: "no reason given",
			    err);
		kfree(t);
		return err;
	}
	nic->mem_used += bytes;
	nic->n_tables++;
	list_add(&t->list, &nic->tables);
	offmap->dev_priv = t;
	offmap->dev_ops = &nicprog_table_dev_ops;
	return 0;
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

	if (nicprog_kind_host(t->desc.kind))
		nicprog_hostmap_put(t->nic, t->host_slot);
	t->ops->free(t->nic, t->store);
	t->nic->mem_used -= t->desc.bytes;
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
 * Context: RTNL held (no table-set meanwhile); the count is a snapshot.
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
	*entries = t->ops->entries(t->store);
	*max_entries = t->desc.max_entries;
	return t->desc.bytes;
}

/* An array keyed by a u32 whose values (per-CPU: slots) are @w u64. */
static bool counters_shape(const struct nicprog_table_desc *d, u32 w)
{
	u32 slots = d->kind == NICPROG_TABLE_KIND_PERCPU ? num_possible_cpus() : 1;

	return d->type == BPF_MAP_TYPE_ARRAY && d->key_size == sizeof(u32) &&
	       (d->kind == NICPROG_TABLE_KIND_PLAIN ||
		d->kind == NICPROG_TABLE_KIND_PERCPU) &&
	       w >= 1 && w <= 2 && d->value_size == w * sizeof(u64) * slots;
}

/**
 * nicprog_table_counters() - a counter table's values, for stats-get
 * @t: the table, or NULL for a host map the NIC reaches by events
 * @vals: out: the values, element by element
 * @max: room in @vals
 * @words: out: values per element, 1 or 2
 *
 * A counter table is one table-set marked (nicprog_table_set_counters()):
 * the statistics map XDP programs keep, per CPU or not (the CPUs' slots
 * are summed, as the tools that read such maps do). Operators see a
 * program's own counts beside the NIC's without knowing its maps.
 *
 * Context: process, RTNL held (no table-set meanwhile).
 * Return: the values written, 0 for any other table or one with more
 * than @max values.
 */
u32 nicprog_table_counters(struct nicprog_table *t, u64 *vals, u32 max,
			   u32 *words)
{
	const struct nicprog_table_desc *d;
	u32 i, w, s, n;
	u64 *v;

	if (!t)
		return 0;
	d = &t->desc;
	w = t->counter_words;
	/* table-set checked the shape; a later kind change unmarks it */
	if (!w || !counters_shape(d, w))
		return 0;
	n = d->max_entries * w;
	if (!n || n > max)
		return 0;
	v = kmalloc(d->value_size, GFP_KERNEL);
	if (!v)
		return 0;
	memset(vals, 0, n * sizeof(*vals));
	down_read(&t->sem);
	for (i = 0; i < d->max_entries; i++) {
		if (t->ops->read(t->store, &i, v))
			continue;
		/* a value is its slots' counters one after another */
		for (s = 0; s < d->value_size / sizeof(u64); s++)
			vals[i * w + s % w] += v[s];
	}
	up_read(&t->sem);
	kfree(v);
	*words = w;
	return n;
}

/**
 * nicprog_table_stored() - can the core's executor reach a table?
 * @t: the table, or NULL for a host map the NIC reaches by events
 *
 * Context: any.
 * Return: false for a table in a driver's storage that only the NIC's own
 * code reaches (no &nicprog_table_ops.lookup): a stage using it must be
 * translated.
 */
bool nicprog_table_stored(const struct nicprog_table *t)
{
	return !t || t->ops->lookup;
}

/**
 * nicprog_table_store() - the driver's handle of a table
 * @t: a bound table, or NULL for a host map the NIC reaches by events
 *
 * Context: any, while a plan using @t is installed.
 * Return: what &nicprog_table_ops.alloc returned for @t, or NULL for a
 * table the core keeps itself (a host map's stand-in, a table kept in
 * host memory, every table of a NIC without table_ops).
 */
void *nicprog_table_store(const struct nicprog_table *t)
{
	return t && t->ops == t->nic->ops->table_ops ? t->store : NULL;
}

/**
 * nicprog_table_lookup() - value of @key, for programs the core runs
 * @t: a bound table whose storage has a lookup (nicprog_table_stored())
 * @key: key_size bytes
 *
 * Context: rcu_read_lock() held; the value stays valid until it is dropped.
 * Return: pointer to the value, or NULL.
 */
void *nicprog_table_lookup(struct nicprog_table *t, const void *key)
{
	/*
	 * Plans of such tables translate every stage, but a tail call's
	 * program runs on the core's interpreter (nicprog_plan_tail()): it
	 * finds nothing rather than a NULL call.
	 */
	if (unlikely(!t->ops->lookup))
		return NULL;
	return t->ops->lookup(t->store, key);
}
EXPORT_SYMBOL_NS_GPL(nicprog_table_lookup, NICPROG_INTERNAL);

/**
 * nicprog_table_offset() - where a value nicprog_table_lookup() returned
 *	lies in the table's NIC memory
 * @t: the table
 * @value: the value, just looked up on this CPU
 * @len: set to the bytes from @value a program may reach
 *
 * Context: as nicprog_table_lookup().
 * Return: &nicprog_table_ops.offset's result; without it 0 and *@len 0:
 * nothing maps, the timing model keeps the host's address.
 */
u64 nicprog_table_offset(struct nicprog_table *t, const void *value, u32 *len)
{
	if (!t->ops->offset) {
		*len = 0;
		return 0;
	}
	return t->ops->offset(t->store, value, len);
}
EXPORT_SYMBOL_NS_GPL(nicprog_table_offset, NICPROG_INTERNAL);

/**
 * nicprog_table_update() - bpf_map_update_elem() from a program
 * @t: a bound table
 * @key: key_size bytes
 * @value: value_size bytes
 * @flags: BPF_ANY, BPF_NOEXIST or BPF_EXIST
 *
 * Context: datapath; does not sleep.
 * Return: as &nicprog_table_ops.update.
 */
long nicprog_table_update(struct nicprog_table *t, const void *key,
			  const void *value, u64 flags)
{
	return t->ops->update(t->store, key, value, flags);
}
EXPORT_SYMBOL_NS_GPL(nicprog_table_update, NICPROG_INTERNAL);

/**
 * nicprog_table_delete() - bpf_map_delete_elem() from a program
 * @t: a bound table
 * @key: key_size bytes
 *
 * Context: datapath; does not sleep.
 * Return: as &nicprog_table_ops.delete.
 */
long nicprog_table_delete(struct nicprog_table *t, const void *key)
{
	return t->ops->delete(t->store, key);
}
EXPORT_SYMBOL_NS_GPL(nicprog_table_delete, NICPROG_INTERNAL);

/**
 * nicprog_table_kind() - what a table does beyond its map type
 * @t: the table, or NULL for a host map
 *
 * Context: RTNL held, or the table bound.
 * Return: enum nicprog_table_kind.
 */
u8 nicprog_table_kind(const struct nicprog_table *t)
{
	return t ? READ_ONCE(t->desc.kind) : NICPROG_TABLE_KIND_PLAIN;
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
	if (!t || !nicprog_kind_host(t->desc.kind))
		return 0;
	return nicprog_hostmap_id(t->nic, t->host_slot);
}

/**
 * nicprog_table_bind() - a program is prepared with the table
 * @t: the table
 *
 * Context: process (the verifier's prepare). From now on its kind and
 * storage are fixed: the program was verified and planned against them.
 *
 * Return: the table's map type as the offloader sees it:
 * BPF_MAP_TYPE_LRU_HASH or BPF_MAP_TYPE_LPM_TRIE for a hash table of that
 * kind, else the map's type.
 */
u32 nicprog_table_bind(struct nicprog_table *t)
{
	u8 kind;

	down_write(&t->sem);
	t->bound = true;
	kind = t->desc.kind;
	up_write(&t->sem);
	switch (kind) {
	case NICPROG_TABLE_KIND_LRU:
	case NICPROG_TABLE_KIND_LRU_PERCPU:
		return BPF_MAP_TYPE_LRU_HASH;
	case NICPROG_TABLE_KIND_LPM:
		return BPF_MAP_TYPE_LPM_TRIE;
	default:
		return t->desc.type;
	}
}

/*
 * A HOST or PROGS table: an array of u32 keys and values, as many as the
 * host map it stands for -- an XSKMAP or CPUMAP (HOST), whose values
 * become the targets of that map's entries, or a PROG_ARRAY (PROGS),
 * whose values lookups compute.
 */
static int host_check(const struct nicprog_table *t, u8 kind,
		      const struct bpf_map *host_map,
		      struct netlink_ext_ack *extack)
{
	if (t->desc.type != BPF_MAP_TYPE_ARRAY ||
	    t->desc.key_size != sizeof(u32) ||
	    t->desc.value_size != sizeof(u32)) {
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
	if (host_map->max_entries != t->desc.max_entries ||
	    t->desc.max_entries > NICPROG_HOST_TARGET_KEY + 1) {
		NL_SET_ERR_MSG(extack,
			       "the host map and the table differ in entries (at most 1048576)");
		return -EINVAL;
	}
	return 0;
}

/* Does @kind fit @t's type and value? */
static int kind_check(const struct nicprog_table *t, u8 kind,
		      struct netlink_ext_ack *extack)
{
	u32 cpus = num_possible_cpus();

	if (t->desc.type != BPF_MAP_TYPE_HASH &&
	    kind != NICPROG_TABLE_KIND_PERCPU && !nicprog_kind_host(kind)) {
		NL_SET_ERR_MSG(extack, "an array takes no kind but percpu, host and progs");
		return -EINVAL;
	}
	if (nicprog_kind_percpu(kind) &&
	    (t->desc.value_size % cpus || (t->desc.value_size / cpus) % 8)) {
		NL_SET_ERR_MSG(extack,
			       "a per-CPU value is one 8-byte aligned slot per possible CPU");
		return -EINVAL;
	}
	return 0;
}

/* Does the key of @t fit @kind, once @t may take a kind? */
static int key_check(const struct nicprog_table *t, u8 kind,
		     const struct bpf_map *host_map,
		     struct netlink_ext_ack *extack)
{
	if (kind == NICPROG_TABLE_KIND_LPM &&
	    (t->desc.key_size <= NICPROG_LPM_DATA_OFF ||
	     t->desc.key_size > NICPROG_LPM_DATA_OFF + NICPROG_LPM_DATA_MAX)) {
		NL_SET_ERR_MSG(extack,
			       "an LPM key is a 4-byte prefix length and 1 to 256 bytes of data");
		return -EINVAL;
	}
	if (nicprog_kind_host(kind))
		return host_check(t, kind, host_map, extack);
	return 0;
}

/*
 * An array's elements always exist: a PERCPU kind keeps the values its
 * array had (the host's percpu array would show them).
 */
static int array_copy(struct nicprog_table *t,
		      const struct nicprog_table_ops *ops, void *store)
{
	void *v;
	int err = 0;
	u32 i;

	v = kmalloc(t->desc.value_size, GFP_KERNEL);
	if (!v)
		return -ENOMEM;
	for (i = 0; i < t->desc.max_entries && !err; i++) {
		err = t->ops->read(t->store, &i, v);
		if (!err && memchr_inv(v, 0, t->desc.value_size))
			err = ops->update(store, &i, v, BPF_ANY);
		cond_resched();
	}
	kfree(v);
	return err;
}

/* Give unbound, empty @t new storage of @kind; called with @t->sem held. */
static int table_set(struct nicprog_table *t, u8 kind,
		     struct bpf_map *host_map, struct netlink_ext_ack *extack)
{
	const struct nicprog_table_ops *ops = table_ops(t, kind);
	int slot, err;
	void *store;

	lockdep_assert_held_write(&t->sem);
	if (t->bound) {
		NL_SET_ERR_MSG(extack, "a program already uses the table: its kind is fixed");
		return -EBUSY;
	}
	if (nicprog_kind_host(t->desc.kind)) {
		NL_SET_ERR_MSG(extack, "the table already stands for a host map");
		return -EBUSY;
	}
	if (t->desc.kind != NICPROG_TABLE_KIND_PLAIN) {
		NL_SET_ERR_MSG(extack, "the table already has another kind");
		return -EBUSY;
	}
	err = key_check(t, kind, host_map, extack);
	if (err)
		return err;
	if (t->desc.type == BPF_MAP_TYPE_HASH && t->ops->entries(t->store)) {
		NL_SET_ERR_MSG(extack, "the table is not empty");
		return -EBUSY;
	}
	store = table_store(t, kind, ops, extack);
	if (IS_ERR(store))
		return PTR_ERR(store);
	/* a hash is empty by now (above): only an array has values to keep */
	if (kind == NICPROG_TABLE_KIND_PERCPU &&
	    t->desc.type == BPF_MAP_TYPE_ARRAY) {
		err = array_copy(t, ops, store);
		if (err) {
			ops->free(t->nic, store);
			return err;
		}
	}
	if (nicprog_kind_host(kind)) {
		slot = nicprog_hostmap_get(t->nic, host_map, extack);
		if (slot < 0) {
			ops->free(t->nic, store);
			return slot;
		}
		nicprog_table_lib_set_host(store, slot);
		t->host_slot = slot;
	}
	t->ops->free(t->nic, t->store);
	t->ops = ops;
	t->store = store;
	WRITE_ONCE(t->desc.kind, kind);
	return 0;
}

/* The NIC's table of @map, or NULL (said in @extack). RTNL held. */
static struct nicprog_table *table_find(struct nicprog_nic *nic,
					const struct bpf_map *map,
					struct netlink_ext_ack *extack)
{
	struct nicprog_table *t;

	ASSERT_RTNL();
	list_for_each_entry(t, &nic->tables, list)
		if (t->map == map)
			return t;
	NL_SET_ERR_MSG(extack, "the map is not offloaded to this port");
	return NULL;
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
 * The table gets storage made for @kind, from the driver that keeps the
 * NIC's tables (which may refuse a kind it cannot do) or for the HOST and
 * PROGS kinds from the core; its old storage goes.
 *
 * Context: process, RTNL held (the NIC's table list).
 * Return: 0; -ENOENT if @map is not offloaded to @nic, -EINVAL for an
 * array of another kind than PERCPU, HOST or PROGS, an LPM key or per-CPU
 * value of the wrong size, a HOST table not shaped as its host map,
 * -EBUSY if a hash table holds elements, the table already has another
 * kind or a program uses it, -ENOSPC when the NIC's host map
 * slots are taken, the driver's refusal, -ENOMEM.
 */
int nicprog_table_set_kind(struct nicprog_nic *nic, const struct bpf_map *map,
			   u8 kind, struct bpf_map *host_map,
			   struct netlink_ext_ack *extack)
{
	struct nicprog_table *t;
	int err;

	t = table_find(nic, map, extack);
	if (!t)
		return -ENOENT;
	err = kind_check(t, kind, extack);
	if (err)
		return err;
	if (kind == t->desc.kind && !nicprog_kind_host(kind))
		return 0;
	down_write(&t->sem);
	err = table_set(t, kind, host_map, extack);
	up_write(&t->sem);
	return err;
}

/**
 * nicprog_table_set_counters() - table-set: mark a table a counter table
 * @nic: the NIC
 * @map: a map, any map: it is only compared with the NIC's tables'
 * @words: u64 counters per element (per slot of a per-CPU table), 1 or 2
 * @extack: where a refusal's reason goes
 *
 * Linux keeps no BTF for an offloaded map, so the loader, which read the
 * object's, says which tables count; stats-get then shows their values
 * (nicprog_table_counters()).
 *
 * Context: process, RTNL held (the NIC's table list).
 * Return: 0; -ENOENT if @map is not offloaded to @nic, -EINVAL if the
 * table is no array keyed by a u32 of @words u64 a value (a slot).
 */
int nicprog_table_set_counters(struct nicprog_nic *nic,
			       const struct bpf_map *map, u8 words,
			       struct netlink_ext_ack *extack)
{
	struct nicprog_table *t = table_find(nic, map, extack);

	if (!t)
		return -ENOENT;
	if (!counters_shape(&t->desc, words)) {
		NL_SET_ERR_MSG(extack,
			       "a counter table is an array keyed by a u32 whose value (a per-CPU table's slot) is table-counters u64");
		return -EINVAL;
	}
	t->counter_words = words;
	return 0;
}

static int nicprog_map_get_next_key(struct bpf_offloaded_map *offmap,
				    void *key, void *next_key)
{
	struct nicprog_table *t = offmap->dev_priv;
	int err;

	down_read(&t->sem);
	err = t->ops->next_key(t->store, key, next_key);
	up_read(&t->sem);
	return err;
}

static int nicprog_map_lookup_elem(struct bpf_offloaded_map *offmap,
				   void *key, void *value)
{
	struct nicprog_table *t = offmap->dev_priv;
	int err;

	down_read(&t->sem);
	err = t->ops->read(t->store, key, value);
	up_read(&t->sem);
	return err;
}

static int nicprog_map_update_elem(struct bpf_offloaded_map *offmap,
				   void *key, void *value, u64 flags)
{
	struct nicprog_table *t = offmap->dev_priv;
	int err;

	down_read(&t->sem);
	err = t->ops->update(t->store, key, value, flags);
	up_read(&t->sem);
	return err;
}

static int nicprog_map_delete_elem(struct bpf_offloaded_map *offmap,
				   void *key)
{
	struct nicprog_table *t = offmap->dev_priv;
	int err;

	down_read(&t->sem);
	err = t->ops->delete(t->store, key);
	up_read(&t->sem);
	return err;
}

const struct bpf_map_dev_ops nicprog_table_dev_ops = {
	.map_get_next_key	= nicprog_map_get_next_key,
	.map_lookup_elem	= nicprog_map_lookup_elem,
	.map_update_elem	= nicprog_map_update_elem,
	.map_delete_elem	= nicprog_map_delete_elem,
};
