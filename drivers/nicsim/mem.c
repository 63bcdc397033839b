// SPDX-License-Identifier: GPL-2.0
/*
 * nicsim's NIC memory for the host (&nicprog_dev_ops.mem_ops): buffers in
 * the LNIC's regions, and the DMA engines that copy between them and host
 * memory.
 *
 * A buffer's bytes are host memory (a simulated NIC's memory is), charged
 * to the memory cgroup of whoever asked. The engines are the LNIC's DMA
 * units that reach the buffer's region: a copy costs the unit's service
 * cycles plus its per_kib cycles per KiB -- a PCIe-like latency and
 * bandwidth -- at its clock, times the bus's dilation, on the engine that
 * is free first, after what it has queued. The bytes move when the copy
 * is posted; the core completes it when the engine would be done.
 *
 * The LNIC does not change while a buffer exists (the core refuses a
 * profile change then), so the engines are read from it without its lock.
 */
#include <linux/debugfs.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "nicsim.h"

static void *nicsim_mem_alloc(struct nicprog_nic *nic, u32 region, u64 size,
			      struct netlink_ext_ack *extack)
{
	struct nicsim_dev *ndev = nicprog_nic_priv(nic);
	struct nicsim_buf *b;

	b = kzalloc(sizeof(*b), GFP_KERNEL_ACCOUNT);
	if (!b)
		return ERR_PTR(-ENOMEM);
	b->data = kvzalloc(size, GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL |
			   __GFP_NOWARN);
	if (!b->data) {
		kfree(b);
		return ERR_PTR(-ENOMEM);
	}
	b->region = region;
	b->size = size;
	atomic_inc(&ndev->mem_bufs);
	atomic64_add(size, &ndev->mem_bytes);
	return b;
}

static void nicsim_mem_free(struct nicprog_nic *nic, void *buf)
{
	struct nicsim_dev *ndev = nicprog_nic_priv(nic);
	struct nicsim_buf *b = buf;

	atomic64_sub(b->size, &ndev->mem_bytes);
	atomic_dec(&ndev->mem_bufs);
	kvfree(b->data);
	kfree(b);
}

/**
 * nicsim_dma_unit() - the first DMA unit of an LNIC reaching a region
 * @lnic: the LNIC
 * @region: a region's index, or U32_MAX for any DMA unit (one fetching
 *	from host memory only)
 *
 * Return: the unit, or NULL.
 */
const struct nicprog_lnic_unit *
nicsim_dma_unit(const struct nicprog_lnic *lnic, u32 region)
{
	u32 u;

	for (u = 0; u < lnic->n_units; u++)
		if (lnic->units[u].type == NICPROG_UNIT_DMA &&
		    (region == U32_MAX ||
		     (lnic->units[u].region_mask & BIT(region))))
			return &lnic->units[u];
	return NULL;
}

/**
 * nicsim_dma_ns() - what a copy costs a DMA engine, in host nanoseconds
 * @unit: the engine's LNIC unit
 * @len: bytes
 * @dilation: the bus's time dilation
 *
 * Return: (service + per_kib * @len / 1024) cycles at the unit's clock,
 * times @dilation.
 */
u64 nicsim_dma_ns(const struct nicprog_lnic_unit *unit, u64 len, u32 dilation)
{
	u64 cycles = unit->service_cycles +
		     DIV_ROUND_UP_ULL(len * unit->cycles_per_kib, 1024);

	return div_u64(cycles * 1000 * dilation, max(unit->clock_mhz, 1U));
}

/**
 * nicsim_dma_reserve() - queue a transfer on the DMA engine free first
 * @ndev: the NIC
 * @unit: its DMA unit (a copy will do: only the numbers are read)
 * @len: bytes
 *
 * Context: any but hard interrupt; never from a softirq (@ndev's
 * dma_lock is taken without disabling them).
 * Return: when the transfer ends, ktime_get_ns()'s clock.
 */
u64 nicsim_dma_reserve(struct nicsim_dev *ndev,
		       const struct nicprog_lnic_unit *unit, u64 len)
{
	u32 e, engines = clamp_t(u32, unit->count, 1, NICSIM_DMA_ENGINES);
	u64 now = ktime_get_ns(), start, end, *first = NULL;

	spin_lock(&ndev->dma_lock);
	for (e = 0; e < engines; e++)
		if (!first || ndev->dma_free[e] < *first)
			first = &ndev->dma_free[e];
	start = max(now, *first);
	end = start + nicsim_dma_ns(unit, len, nicsim_wire_dilation_get());
	*first = end;
	ndev->dma_jobs++;
	ndev->dma_bytes += len;
	spin_unlock(&ndev->dma_lock);
	return end;
}

static s64 nicsim_mem_dma(struct nicprog_nic *nic, void *buf, u64 offset,
			  void *host, u64 len, bool to_nic)
{
	struct nicsim_dev *ndev = nicprog_nic_priv(nic);
	const struct nicprog_lnic_unit *unit;
	struct nicsim_buf *b = buf;
	u64 now = ktime_get_ns();

	unit = nicsim_dma_unit(ndev->lnic, b->region);
	if (!unit)
		return -EOPNOTSUPP;
	if (to_nic)
		memcpy(b->data + offset, host, len);
	else
		memcpy(host, b->data + offset, len);
	return nicsim_dma_reserve(ndev, unit, len) - now;
}

static void nicsim_mem_access(struct nicprog_nic *nic, void *buf, u64 offset,
			      void *host, u64 len, bool to_nic)
{
	struct nicsim_buf *b = buf;

	if (to_nic)
		memcpy(b->data + offset, host, len);
	else
		memcpy(host, b->data + offset, len);
}

const struct nicprog_mem_ops nicsim_mem_ops = {
	.alloc	= nicsim_mem_alloc,
	.free	= nicsim_mem_free,
	.dma	= nicsim_mem_dma,
	.access	= nicsim_mem_access,
};

static int nicsim_mem_show(struct seq_file *m, void *v)
{
	struct nicsim_dev *ndev = m->private;
	u64 jobs, bytes;
	u32 i;

	spin_lock(&ndev->dma_lock);
	jobs = ndev->dma_jobs;
	bytes = ndev->dma_bytes;
	spin_unlock(&ndev->dma_lock);
	seq_printf(m, "bufs %d\nbuf_bytes %lld\ndma_jobs %llu\ndma_bytes %llu\nkernel_jobs %lld\nkernel_cycles %lld\n",
		   atomic_read(&ndev->mem_bufs),
		   atomic64_read(&ndev->mem_bytes), jobs, bytes,
		   atomic64_read(&ndev->jobs),
		   atomic64_read(&ndev->job_cycles));
	for (i = 0; i < ndev->port_count; i++)
		nicsim_roce_show(m, ndev->ports[i]);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nicsim_mem);

/**
 * nicsim_mem_init() - the NIC's memory state, and debugfs's "mem"
 * @ndev: the NIC, its debugfs directory made
 */
void nicsim_mem_init(struct nicsim_dev *ndev)
{
	spin_lock_init(&ndev->dma_lock);
	xa_init_flags(&ndev->mrs, XA_FLAGS_ALLOC1);
	debugfs_create_file("mem", 0400, ndev->ddir, ndev, &nicsim_mem_fops);
}
