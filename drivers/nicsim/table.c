// SPDX-License-Identifier: GPL-2.0
/*
 * nicsim keeps the NIC's tables itself (&nicprog_dev_ops.table_ops), as a
 * NIC holds offloaded maps in its own memory and a vendor driver answers
 * bpf(2) on them from there. Its memory being the host's, it builds them
 * on the core's table library (nicprog_table_lib_*()), as a driver for
 * such a NIC may; a NIC with its own memory would send these operations
 * to its firmware instead.
 *
 * /sys/kernel/debug/nicsim/<dev>/tables lists the tables the NIC holds:
 * type, kind, shape, elements and the NIC memory charged. As netdevsim's
 * bpf_map_accept does, the knob table_accept (default Y) set to N makes
 * the NIC refuse to hold new tables, naming the cause.
 */
#include <linux/bpf.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "nicsim.h"

/**
 * struct nicsim_table - a table the NIC holds
 * @list: entry in the device's tables, under its tables_lock
 * @desc: what the core described
 * @lib: the storage, the table library's: the core's handle, which the
 *	library's functions serve directly
 */
struct nicsim_table {
	struct list_head list;
	struct nicprog_table_desc desc;
	void *lib;
};

static const char * const nicsim_table_kinds[] = {
	[NICPROG_TABLE_KIND_PLAIN]		= "plain",
	[NICPROG_TABLE_KIND_LRU]		= "lru",
	[NICPROG_TABLE_KIND_LPM]		= "lpm",
	[NICPROG_TABLE_KIND_PERCPU]		= "percpu",
	[NICPROG_TABLE_KIND_LRU_PERCPU]		= "lru-percpu",
};

static void *nicsim_table_alloc(struct nicprog_nic *nic,
				const struct nicprog_table_desc *desc,
				struct netlink_ext_ack *extack)
{
	struct nicsim_dev *ndev = nicprog_nic_priv(nic);
	struct nicsim_table *nt;
	void *lib;

	if (!READ_ONCE(ndev->table_accept)) {
		NL_SET_ERR_MSG(extack,
			       "nicsim: the NIC takes no tables (debugfs table_accept is N)");
		return ERR_PTR(-EOPNOTSUPP);
	}
	if (desc->kind >= ARRAY_SIZE(nicsim_table_kinds)) {
		NL_SET_ERR_MSG(extack, "nicsim: host map stand-ins are the core's");
		return ERR_PTR(-EOPNOTSUPP);
	}
	nt = kzalloc(sizeof(*nt), GFP_KERNEL);
	if (!nt)
		return ERR_PTR(-ENOMEM);
	lib = nicprog_table_lib_alloc(nic, desc, extack);
	if (IS_ERR(lib)) {
		kfree(nt);
		return lib;
	}
	nt->desc = *desc;
	nt->lib = lib;
	mutex_lock(&ndev->tables_lock);
	list_add_tail(&nt->list, &ndev->tables);
	mutex_unlock(&ndev->tables_lock);
	return lib;
}

static void nicsim_table_free(struct nicprog_nic *nic, void *store)
{
	struct nicsim_dev *ndev = nicprog_nic_priv(nic);
	struct nicsim_table *nt, *found = NULL;

	mutex_lock(&ndev->tables_lock);
	list_for_each_entry(nt, &ndev->tables, list)
		if (nt->lib == store) {
			list_del(&nt->list);
			found = nt;
			break;
		}
	mutex_unlock(&ndev->tables_lock);
	WARN_ON_ONCE(!found);
	kfree(found);
	nicprog_table_lib_free(store);
}

/* The NIC's memory is the host's: the library serves the element ops. */
const struct nicprog_table_ops nicsim_table_ops = {
	.alloc		= nicsim_table_alloc,
	.free		= nicsim_table_free,
	NICPROG_TABLE_LIB_ELEM_OPS,
};

/*
 * A NIC whose memory the host does not address (new_device's TABLES
 * "nic"), as a vendor's with memory of its own: no lookup for the core's
 * interpreter. Only the NIC's own code reaches an element in place, here
 * the translated stages (translate.c); bpf(2) still reads and writes.
 */
const struct nicprog_table_ops nicsim_nic_table_ops = {
	.alloc		= nicsim_table_alloc,
	.free		= nicsim_table_free,
	NICPROG_TABLE_LIB_COPY_OPS,
};

static ssize_t table_memory_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct nicsim_dev *ndev = container_of(dev, struct nicsim_dev, dev);

	return sysfs_emit(buf, "%s\n", ndev->nic_tables ? "nic" : "host");
}
DEVICE_ATTR_RO(table_memory);

static int nicsim_tables_show(struct seq_file *m, void *v)
{
	struct nicsim_dev *ndev = m->private;
	struct nicsim_table *nt;

	mutex_lock(&ndev->tables_lock);
	list_for_each_entry(nt, &ndev->tables, list)
		seq_printf(m, "%s %s key %u value %u entries %u/%u bytes %llu\n",
			   nt->desc.type == BPF_MAP_TYPE_HASH ? "hash" : "array",
			   nicsim_table_kinds[nt->desc.kind],
			   nt->desc.key_size, nt->desc.value_size,
			   nicprog_table_lib_entries(nt->lib), nt->desc.max_entries,
			   nt->desc.bytes);
	mutex_unlock(&ndev->tables_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nicsim_tables);

/**
 * nicsim_table_dev_init() - a new device holds no tables, and takes them
 * @ndev: the device, its debugfs directory made
 */
void nicsim_table_dev_init(struct nicsim_dev *ndev)
{
	mutex_init(&ndev->tables_lock);
	INIT_LIST_HEAD(&ndev->tables);
	ndev->table_accept = true;
	debugfs_create_file("tables", 0400, ndev->ddir, ndev,
			    &nicsim_tables_fops);
	debugfs_create_bool("table_accept", 0600, ndev->ddir,
			    &ndev->table_accept);
}
