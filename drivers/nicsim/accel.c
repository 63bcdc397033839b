// SPDX-License-Identifier: GPL-2.0
/*
 * nicsim's accelerator engines: checksum, CRC32C, hashing (Toeplitz,
 * jhash) and ChaCha20, with the exact semantics of the BPF bodies of the
 * accelerator functions in bpf/nicprog.h -- the host-equivalence oracle
 * compares the two bit for bit. Where the kernel has the function
 * (__crc32c_le, jhash, chacha_block_generic) the engine uses it, so that
 * the oracle also checks the BPF bodies against the kernel's own.
 *
 * A job costs the LNIC unit's service cycles plus its cycles per KiB.
 * A port's plan has engines of its own (its slice, bpf.c), shared by its
 * cores, with a queue in front of each type: a job that finds every
 * engine of its type busy with jobs of other cores waits behind them --
 * the calling core waits its own service time once per round of the
 * engines' work ahead of it -- and a job that finds
 * NICSIM_ACCEL_QUEUE_LEN jobs already waiting is refused, so the call
 * runs the function's BPF body on the core instead (same result, core
 * cycles). Busy means being run at this instant by another core's
 * thread, so queues form as the host runs the cores in parallel. The
 * counters are the NIC's.
 */
#include <crypto/chacha.h>
#include <linux/crc32.h>
#include <linux/jhash.h>
#include <net/nicprog_compat.h>

#include "nicsim.h"

#define NICSIM_ACCEL_ERR	NICPROG_EXEC_ACCEL_ERR
#define NICSIM_ACCEL_QUEUE_LEN	8	/* jobs waiting per engine type */

static const u8 nicsim_rss_key[40] = NICPROG_AFN_TOEPLITZ_KEY;

/* The frame's bytes [off, off + len), or NULL as the BPF bodies refuse. */
static u8 *nicsim_span(struct nicprog_exec_pkt *pkt, u64 off, u64 len,
		       u32 max)
{
	if (off > max || len > max || off + len > pkt->data_end - pkt->data)
		return NULL;
	return pkt->buf + pkt->data + off;
}

static u32 nicsim_toeplitz(const u8 *p, u32 len)
{
	u64 w = get_unaligned_be64(nicsim_rss_key);
	u32 i, b, h = 0;

	for (i = 0; i < len; i++) {
		for (b = 0; b < 8; b++) {
			if (p[i] & (0x80 >> b))
				h ^= w >> 32;
			w <<= 1;
		}
		w |= i + 8 < sizeof(nicsim_rss_key) ? nicsim_rss_key[i + 8] : 0;
	}
	return h;
}

/* As nicprog_accel_chacha20(): XOR the region with the key's stream. */
static void nicsim_chacha20(u8 *p, u32 len, const u32 *k)
{
	u32 state[16], i;
	u8 stream[CHACHA_BLOCK_SIZE];

	state[0] = 0x61707865;
	state[1] = 0x3320646e;
	state[2] = 0x79622d32;
	state[3] = 0x6b206574;
	memcpy(&state[4], k, 12 * sizeof(u32));	/* key, counter, nonce */
	while (len) {
		chacha_block_generic(state, stream, 20);	/* counter++ */
		for (i = 0; i < CHACHA_BLOCK_SIZE && len; i++, len--)
			*p++ ^= stream[i];
	}
}

/* Run the function; false if its arguments make the body return an error. */
static bool nicsim_accel_fn(u32 afn, struct nicprog_exec_pkt *pkt,
			    const u64 *args, u64 *ret, u64 *len)
{
	u64 off = args[1], n = args[2];
	u32 a3 = args[3];
	u8 *p;

	*len = n;
	switch (afn) {
	case NICPROG_AFN_CSUM:
		p = nicsim_span(pkt, off, n, NICPROG_AFN_LEN_MAX);
		if (!p)
			return false;
		*ret = nicprog_csum_ref(p, n, a3);
		return true;
	case NICPROG_AFN_CRC32C:
		p = nicsim_span(pkt, off, n, NICPROG_AFN_LEN_MAX);
		if (!p)
			return false;
		*ret = __crc32c_le(a3, p, n);
		return true;
	case NICPROG_AFN_TOEPLITZ:
		p = nicsim_span(pkt, off, n, 36);
		if (!p || a3)
			return false;
		*ret = nicsim_toeplitz(p, n);
		return true;
	case NICPROG_AFN_JHASH:
		p = nicsim_span(pkt, off, n, NICPROG_AFN_JHASH_LEN_MAX);
		if (!p)
			return false;
		*ret = jhash(p, n, a3);
		return true;
	case NICPROG_AFN_CHACHA20:
		p = nicsim_span(pkt, off, n, NICPROG_AFN_CHACHA20_LEN_MAX);
		if (!p || !args[3])
			return false;
		/* args[3] is memory the verifier proved 48 bytes long */
		nicsim_chacha20(p, n, (const u32 *)(uintptr_t)args[3]);
		*ret = 0;
		return true;
	}
	return false;
}

/**
 * nicsim_accel_run() - the nicprog accel_run op: run a job on an engine
 * @nd: the port
 * @afn: enum nicprog_accel_fn
 * @pkt: the frame
 * @args: the call's R1-R5
 * @ret: the call's result
 *
 * Context: a NIC core running a plan, BH disabled.
 * Return: cycles the core waited, -EOPNOTSUPP without such an engine, or
 * -EBUSY when its queue is full.
 */
s64 nicsim_accel_run(struct nicprog_dev *nd, u32 afn,
		     struct nicprog_exec_pkt *pkt, const u64 *args, u64 *ret)
{
	struct nicsim_port *port = nicprog_dev_priv(nd);
	struct nicsim_dev *ndev = port->ndev;
	const struct nicprog_lnic_unit *u = NULL;
	const struct nicsim_plan_ref *ref;
	u32 i, type, depth, waiting, engines;
	u64 cycles, len;
	int max;

	type = nicprog_accel_fn_type(afn);
	if (type == NICPROG_ACCEL_NONE)
		return -EOPNOTSUPP;
	for (i = 0; i < ndev->lnic->n_units && !u; i++)
		if (ndev->lnic->units[i].type == NICPROG_UNIT_ACCEL &&
		    ndev->lnic->units[i].accel == type)
			u = &ndev->lnic->units[i];
	/* the engines of the plan's slice; the core runs a plan: RCU held */
	ref = rcu_dereference(port->ref);
	engines = ref ? ref->units[type] : 0;
	if (!u || !engines)
		return -EOPNOTSUPP;
	depth = atomic_inc_return(&port->accel_inflight[type]);
	waiting = depth > engines ? depth - engines : 0;
	if (waiting > NICSIM_ACCEL_QUEUE_LEN) {
		atomic_dec(&port->accel_inflight[type]);
		atomic64_inc(&ndev->accel_refused[type]);
		return -EBUSY;
	}
	max = atomic_read(&ndev->accel_queue_max[type]);
	while (waiting > max &&
	       !atomic_try_cmpxchg(&ndev->accel_queue_max[type], &max, waiting))
		;
	if (!nicsim_accel_fn(afn, pkt, args, ret, &len)) {
		*ret = NICSIM_ACCEL_ERR;
		len = 0;
	}
	atomic_dec(&port->accel_inflight[type]);
	cycles = u->service_cycles + (u64)u->cycles_per_kib * len / 1024;
	atomic64_inc(&ndev->accel_jobs[type]);
	atomic64_add(cycles, &ndev->accel_cycles[type]);
	/* the engines serve the jobs ahead, @engines at a time, then this one */
	return cycles * (1 + (depth - 1) / engines);
}

static void nicsim_unit_pool(struct nicprog_unit_stats *us, u8 type, u8 accel,
			     const struct nicsim_tm_pool *p, u64 clock)
{
	us->type = type;
	us->accel = accel;
	us->count = p->count;
	us->jobs = p->jobs;
	us->busy = p->busy;
	us->wait = p->wait;
	us->elapsed = clock;
}

/**
 * nicsim_units_stats() - nicprog's unit_stats: the NIC's engines and MAT
 *	stages, a pool per accelerator type and one of the MAT stages
 * @ndev: the NIC
 * @us: filled for at most @max pools
 * @max: entries in @us
 *
 * Jobs, busy and wait cycles are the timing model's, as the cores' cycles
 * are (nicsim_cores_stats()); refusals are the engines' queue's, which
 * runs in real time.
 *
 * Context: process; no RTNL needed, as nicsim_cores_stats().
 * Return: pools filled.
 */
u32 nicsim_units_stats(struct nicsim_dev *ndev, struct nicprog_unit_stats *us,
		       u32 max)
{
	const struct nicsim_tm *tm;
	u32 t, n = 0;

	spin_lock_bh(&ndev->tm_lock);
	tm = ndev->stats_cores ? ndev->tm : NULL;
	for (t = NICPROG_ACCEL_NONE + 1; tm && t < __NICPROG_ACCEL_MAX &&
	     n < max; t++) {
		if (!tm->accel[t].count)
			continue;
		nicsim_unit_pool(&us[n], NICPROG_UNIT_ACCEL, t, &tm->accel[t],
				 tm->clock);
		us[n++].refused = atomic64_read(&ndev->accel_refused[t]);
	}
	if (tm && tm->mat.count && n < max)
		nicsim_unit_pool(&us[n++], NICPROG_UNIT_MAT, NICPROG_ACCEL_NONE,
				 &tm->mat, tm->clock);
	spin_unlock_bh(&ndev->tm_lock);
	return n;
}
