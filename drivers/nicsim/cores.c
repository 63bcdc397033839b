// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated NIC's cores: one kthread per general-purpose core of the
 * LNIC (at most NICSIM_MAX_CORES), each with bounded queues (frames from
 * the wire, jobs from the stage before), the executor's scratch and an XDP
 * frame buffer.
 *
 * A plan's cores are numbered from 0; stage s runs on its replicas
 * [first_core, first_core + replicas). A frame from the wire goes to a core
 * of stage 0, picked as the stage says: by a flow hash (stateless), by a
 * hash of a sharded table's key bytes (so one core owns each key), or the
 * only core. A one-stage plan runs there to the verdict. Otherwise the
 * frame becomes a job carrying the frame and the run's live state
 * (registers, stack) through every later stage's bounded queue, steered
 * again at each; a stage runs the job if the program reached it, else
 * passes it on, so that every frame leaves through the last stage and the
 * frames of a flow keep their order. The last stage acts on the verdict as
 * XDP defines it. A full queue drops the frame and counts it.
 *
 * The frame buffer is laid out as BPF_PROG_TEST_RUN lays out its frame on
 * the host (4096 bytes, XDP_PACKET_HEADROOM in front, shared-info tailroom
 * reserved), so head and tail adjustments succeed and fail alike.
 */
#include <linux/bpf.h>
#include <linux/etherdevice.h>
#include <linux/filter.h>
#include <linux/jhash.h>
#include <linux/kthread.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/xdp.h>
#include <trace/events/xdp.h>

#include "nicsim.h"
#include "steer.h"

#define NICSIM_TAILROOM		SKB_DATA_ALIGN(sizeof(struct skb_shared_info))
#define NICSIM_FRAME_MAX	(NICSIM_FRAME_SZ - XDP_PACKET_HEADROOM - \
				 NICSIM_TAILROOM)

/* The flow hash frames of a flow share (steer.h). */
static u32 nicsim_flow_hash(const u8 *d, u32 len)
{
	u32 words[NICSIM_FLOW_WORDS], seed, n;

	n = nicsim_flow_words(d, len, words, &seed);
	return n ? jhash2(words, n, seed) : 0;
}

/*
 * A new skb holding the frame as the program left it; for the host stack
 * (@meta), with the metadata the program put before the frame
 * (bpf_xdp_adjust_meta()) right before its MAC header, as a native
 * driver's XDP_PASS leaves it for tc (skb_metadata_set()).
 */
static struct sk_buff *nicsim_frame_skb(struct nicsim_port *port,
					const struct nicprog_exec_pkt *pkt,
					bool meta)
{
	u32 len = pkt->data_end - pkt->data;
	u32 metalen = meta ? pkt->data - pkt->data_meta : 0;
	struct sk_buff *skb;

	skb = netdev_alloc_skb(port->netdev, metalen + len);
	if (!skb)
		return NULL;
	if (metalen) {
		skb_put_data(skb, pkt->buf + pkt->data_meta, metalen);
		__skb_pull(skb, metalen);
	}
	skb_put_data(skb, pkt->buf + pkt->data, len);
	if (metalen)
		skb_metadata_set(skb, metalen);
	return skb;
}

/* The port of this NIC that @ifindex names in @port's namespace. */
static struct nicsim_port *nicsim_redirect_target(struct nicsim_port *port,
						  u32 ifindex)
{
	struct nicsim_dev *ndev = port->ndev;
	struct nicsim_port *p;
	u32 i;

	for (i = 0; i < ndev->port_count; i++) {
		p = ndev->ports[i];
		if (p->netdev->ifindex == ifindex &&
		    net_eq(dev_net(p->netdev), dev_net(port->netdev)))
			return p;
	}
	return NULL;
}

/*
 * A flood (NICPROG_FLOOD_TARGET): a copy out of every other running port
 * of the NIC in @port's namespace, as a switch floods, and out of @port
 * too with @ingress. A copy that finds no memory is counted as a full
 * queue on its port.
 */
static void nicsim_flood(struct nicsim_port *port,
			 const struct nicprog_exec_pkt *pkt, bool ingress)
{
	struct nicsim_dev *ndev = port->ndev;
	struct sk_buff *nskb;
	struct nicsim_port *p;
	u32 i;

	for (i = 0; i < ndev->port_count; i++) {
		p = ndev->ports[i];
		if ((p == port && !ingress) || !netif_running(p->netdev) ||
		    !net_eq(dev_net(p->netdev), dev_net(port->netdev)))
			continue;
		nskb = nicsim_frame_skb(p, pkt, false);
		if (!nskb) {
			nicsim_stats_inc(p, rx_fifo_errors);
			continue;
		}
		nicsim_wire_tx(p, nskb);
	}
}

static void nicsim_core_exception(struct nicsim_port *port,
				  const struct nicprog_plan *plan, u32 act)
{
	nicsim_stats_inc(port, xdp_aborted);
	trace_xdp_exception(port->netdev, nicprog_plan_prog(plan), act);
}

/*
 * A redirect to an ifindex that is no port of this NIC: what the host does
 * when xdp_do_redirect() fails after its program said XDP_REDIRECT -- the
 * verdict counted as a redirect, the frame dropped, the exception traced
 * -- with the failure counted apart, in one update section so that a
 * reader that sees the verdict sees the failure.
 */
static void nicsim_redirect_failed(struct nicsim_port *port,
				   const struct nicprog_plan *plan)
{
	struct nicsim_pcpu_stats *s = this_cpu_ptr(port->stats);

	u64_stats_update_begin(&s->syncp);
	u64_stats_inc(&s->xdp_redirect_err);
	u64_stats_inc(&s->xdp_redirect);
	u64_stats_update_end(&s->syncp);
	trace_xdp_exception(port->netdev, nicprog_plan_prog(plan),
			    XDP_REDIRECT);
}

/*
 * A redirect to a host map's entry: the verdict and where it went in one
 * update section, so that a reader that sees the one sees the other.
 */
static void nicsim_redirect_host(struct nicsim_port *port)
{
	struct nicsim_pcpu_stats *s = this_cpu_ptr(port->stats);

	u64_stats_update_begin(&s->syncp);
	u64_stats_inc(&s->xdp_redirect_host);
	u64_stats_inc(&s->xdp_redirect);
	u64_stats_update_end(&s->syncp);
}

/*
 * Hold a copy of a frame a full backpressure pipe refused; false if there
 * is no memory for it (the caller drops and counts it). BH disabled.
 */
static bool nicsim_core_hold(struct nicsim_core *core, struct nicsim_port *port,
			     const struct nicprog_exec_result *res,
			     const struct nicprog_exec_pkt *pkt)
{
	u32 len = pkt->data_end - pkt->data;
	u8 *held = kmemdup(pkt->buf + pkt->data, len, GFP_ATOMIC);

	if (!held)
		return false;
	spin_lock(&core->jobs_lock);
	core->held = held;
	core->held_len = len;
	core->held_target = res->redirect_ifindex;
	core->held_port = port;
	core->held_since = jiffies;
	spin_unlock(&core->jobs_lock);
	return true;
}

/**
 * nicsim_verdict() - act on a finished run's verdict
 * @port: the port the frame arrived on
 * @plan: the plan that ran
 * @pkt: the frame as the program left it
 * @res: the run's result, @res->done
 * @core: the NIC core that ran it, NULL for the host part
 *
 * For NIC cores and for the host part of partial plans alike. A core's
 * frames to a pipe defer their notification to the end of its batch
 * (nicsim_core_ring_flush()).
 *
 * Context: BH disabled, RCU held.
 */
void nicsim_verdict(struct nicsim_port *port, const struct nicprog_plan *plan,
		    const struct nicprog_exec_pkt *pkt,
		    const struct nicprog_exec_result *res,
		    struct nicsim_core *core)
{
	const struct nicsim_plan_ref *ref;
	struct nicsim_port *out;
	struct sk_buff *nskb;
	int err;

	switch (res->action) {
	case XDP_DROP:
		nicsim_stats_inc(port, xdp_drop);
		return;
	case XDP_PASS:
		nskb = nicsim_frame_skb(port, pkt, true);
		if (!nskb)
			break;
		/*
		 * The host queue the program chose (ctx->rx_queue_index, as
		 * nfp steers); one the port lacks is queue 0.
		 */
		skb_record_rx_queue(nskb, pkt->rx_queue_index <
				    port->netdev->real_num_rx_queues ?
				    pkt->rx_queue_index : 0);
		nicsim_stats_inc(port, xdp_pass);
		nicsim_host_rx(port, nskb);
		return;
	case XDP_TX:
		nskb = nicsim_frame_skb(port, pkt, false);
		if (!nskb)
			break;
		nicsim_stats_inc(port, xdp_tx);
		nicsim_wire_tx(port, nskb);
		return;
	case XDP_REDIRECT:
		/* to a host map's entry: to the host, which hands it on */
		if (nicprog_host_target(res->redirect_ifindex)) {
			ref = rcu_dereference(port->ref);
			if (!ref || ref->plan != plan)
				goto exception;	/* a replaced plan's */
			nskb = nicsim_frame_skb(port, pkt, true);
			if (!nskb)
				break;
			nicsim_redirect_host(port);
			nicsim_host_rx_redirect(port, nskb, ref,
						res->redirect_ifindex);
			return;
		}
		/* to every other port, one copy each */
		if ((res->redirect_ifindex & ~NICPROG_FLOOD_INGRESS) ==
		    NICPROG_FLOOD_TARGET) {
			nicsim_stats_inc(port, xdp_redirect);
			nicsim_flood(port, pkt, res->redirect_ifindex &
					 NICPROG_FLOOD_INGRESS);
			return;
		}
		/* to an NF output: into the pipe bound to it, as a DMA would */
		if (res->redirect_ifindex & NICPROG_PIPE_TARGET_BIT) {
			if (core && core->ring_port != port)
				nicsim_core_ring_flush(core, true);
			err = nicprog_ring_deliver(port->np, res->redirect_ifindex,
						   pkt->buf + pkt->data,
						   pkt->data_end - pkt->data, core);
			if (err == -ENOENT)
				goto exception;
			if (core)
				core->ring_port = port;
			/* a full backpressure pipe: the core holds the frame */
			if (err == -EAGAIN &&
			    !(core && nicsim_core_hold(core, port, res, pkt)))
				nicprog_ring_drop(port->np, res->redirect_ifindex,
						  pkt->data_end - pkt->data);
			if (err == -EAGAIN && core && core->held)
				return;	/* counted once delivered or dropped */
			/* delivered, or dropped and counted by the pipe */
			nicsim_stats_inc(port, xdp_redirect);
			return;
		}
		out = res->redirect_ifindex ?
		      nicsim_redirect_target(port, res->redirect_ifindex) : NULL;
		if (!out) {
			nicsim_redirect_failed(port, plan);
			return;
		}
		nskb = nicsim_frame_skb(out, pkt, false);
		if (!nskb)
			break;
		nicsim_stats_inc(port, xdp_redirect);
		nicsim_wire_tx(out, nskb);
		return;
	case XDP_ABORTED:
		goto exception;
	default:
		bpf_warn_invalid_xdp_action(port->netdev,
					    nicprog_plan_prog(plan), res->action);
		goto exception;
	}
	/* no memory for the output frame */
	nicsim_stats_inc(port, rx_fifo_errors);
	return;

exception:
	nicsim_core_exception(port, plan, res->action);
}

/*
 * A frame from the wire into @buf at XDP's headroom, as the NIC's DMA
 * places it in its frame buffer @nic; @skb is consumed.
 */
static void nicsim_frame_in(struct nicprog_exec_pkt *pkt, u8 *buf,
			    struct nicsim_port *port, struct sk_buff *skb,
			    u64 nic, u64 now)
{
	*pkt = (struct nicprog_exec_pkt){
		.buf = buf, .buf_len = NICSIM_FRAME_SZ,
		.head_reserved = sizeof(struct xdp_frame),
		.tail_reserved = NICSIM_TAILROOM,
		.data_meta = XDP_PACKET_HEADROOM, .data = XDP_PACKET_HEADROOM,
		.data_end = XDP_PACKET_HEADROOM + skb->len,
		.ingress_ifindex = port->netdev->ifindex,
		.mtu = READ_ONCE(port->netdev->mtu),
		.nic = nic,
		.now_ns = now,
	};
	memcpy(buf + XDP_PACKET_HEADROOM, skb->data, skb->len);
	consume_skb(skb);
}

static void nicsim_core_job_start(struct nicsim_core *core,
				  struct nicsim_port *port,
				  const struct nicsim_plan_ref *ref,
				  struct sk_buff *skb, u64 now);

/*
 * Partial offload: the run stopped where the host takes over. Write its
 * state and the frame into a new frame for the host, as a NIC prepends
 * receive metadata. BH disabled, RCU held.
 */
static void nicsim_handover(struct nicsim_core *core, struct nicsim_port *port,
			    const struct nicsim_plan_ref *ref,
			    const struct nicprog_exec_pkt *pkt,
			    const struct nicprog_exec_ctx *ctx)
{
	u32 len = nicprog_plan_handover_size(ref->plan, pkt, ctx);
	struct sk_buff *skb;
	int n;

	skb = len ? netdev_alloc_skb(port->netdev, len) : NULL;
	if (!skb)
		goto err;
	n = nicprog_plan_handover(ref->plan, pkt, ctx, skb_put(skb, len), len);
	if (n < 0) {
		kfree_skb(skb);
		goto err;
	}
	nicsim_stats_frame(port, host_handovers, host_state_bytes,
			   len - (pkt->data_end - pkt->data_meta));
	nicsim_host_rx_handover(port, skb, ref);
	return;
err:
	core->errors++;
	nicsim_stats_inc(port, host_errors);
}

/*
 * Hand the timing model a run of @core; @after: of a later stage than the
 * frame's run handed over before. BH disabled.
 */
static void nicsim_core_timed(struct nicsim_core *core, u64 cycles,
			      const struct nicprog_exec_trace *tr, bool after)
{
	struct nicsim_dev *ndev = core->ndev;

	spin_lock(&ndev->tm_lock);
	nicsim_tm_add(ndev->tm, core->index, cycles, tr, after);
	ndev->tm_last_add = jiffies;
	spin_unlock(&ndev->tm_lock);
}

/*
 * The NIC's clock for a frame a core takes from its backlog. The model
 * times runs in batches (NICSIM_TM_BATCH), and a pipeline's first stage
 * ahead of the rest, so its clock stands still and then jumps, where a
 * NIC's moves on between the frames it takes at the pace it takes them: a
 * token bucket refilled from it saw a batch of frames at one instant. So
 * a frame reads the last frame's time plus the NIC's time a frame over the
 * last NICSIM_CLOCK_PACE_FRAMES (nicsim_tm_frame_ns16()), never less than
 * the model's clock (the runs it timed are past) nor more than that
 * pace for each run it holds untimed past it; and a ns past the last
 * frame's at least, so that no two frames read one time (nor draw one
 * random stream, which the time seeds). Until the first pace, the model's
 * clock. BH disabled.
 */
static u64 nicsim_core_now(struct nicsim_dev *ndev)
{
	u64 now, model, pace, step;

	spin_lock(&ndev->tm_lock);
	model = nicsim_tm_now_ns(ndev->tm);
	if (++ndev->clock_taken >= NICSIM_CLOCK_PACE_FRAMES) {
		pace = nicsim_tm_frame_ns16(ndev->tm, ndev->clock_taken);
		if (pace)
			ndev->clock_pace16 = pace;
		ndev->clock_taken = 0;
	}
	pace = ndev->clock_pace16;
	step = ndev->clock_frac + pace;	/* a fraction of a ns carried */
	ndev->clock_frac = step & 0xffff;
	now = clamp(ndev->clock_last + (step >> 16), model,
		    model + (((u64)ndev->tm->queued + 1) * pace >> 16));
	now = max(now, ndev->clock_last + 1);
	ndev->clock_last = now;
	spin_unlock(&ndev->tm_lock);
	return now;
}

/*
 * The NIC has run nothing for NICSIM_TM_IDLE (NICSIM_CLOCK_IDLE under an
 * offered load, where it also ends the stream): time the runs still held,
 * so that the counters cover every frame. Not sooner: a replay of all ends
 * the overlap of runs in flight, which a pause between two frames of a
 * stream must not do.
 */
static void nicsim_core_idle_timing(struct nicsim_dev *ndev)
{
	unsigned long idle = ndev->clock_task ? NICSIM_CLOCK_IDLE :
						NICSIM_TM_IDLE;

	spin_lock_bh(&ndev->tm_lock);
	if (time_after(jiffies, ndev->tm_last_add + idle))
		nicsim_tm_replay(ndev->tm, true);
	spin_unlock_bh(&ndev->tm_lock);
}

/**
 * nicsim_core_run() - run the port's plan on a frame from the wire
 * @core: the core of the plan's first stage the frame is steered to
 *	(nicsim_cores_first()), whose thread this is, or the clock's
 * @port: the port it arrived on
 * @skb: the frame
 * @now: the NIC's clock when it arrived (nicsim_tm_now_ns()), what the
 *	program's bpf_ktime_get_ns() reads
 *
 * Context: BH disabled, RCU held.
 */
void nicsim_core_run(struct nicsim_core *core, struct nicsim_port *port,
		     struct sk_buff *skb, u64 now)
{
	const struct nicsim_plan_ref *ref = rcu_dereference(port->ref);
	const struct nicprog_plan *plan;
	struct nicprog_exec_pkt pkt;
	struct nicprog_exec_result res;

	if (!ref) {		/* removed while the frame waited */
		nicsim_host_rx(port, skb);
		return;
	}
	plan = ref->plan;
	if (skb->len > NICSIM_FRAME_MAX || skb_linearize(skb)) {
		nicsim_stats_inc(port, rx_length_errors);
		kfree_skb(skb);
		return;
	}
	if (nicprog_plan_stages(plan) > 1) {
		nicsim_core_job_start(core, port, ref, skb, now);
		return;
	}
	nicsim_frame_in(&pkt, core->frame, port, skb,
			NICPROG_EXEC_NIC_FRAME(core->index), now);

	if (ref->translated) {
		nicprog_plan_start(plan, &core->state->ctx, &pkt);
		nicprog_plan_resume_with(plan, nicsim_stage_run, core->state,
					 &pkt, &core->state->ctx, &res);
	} else {
		nicprog_plan_run(plan, core->state, &pkt, &res);
	}
	nicsim_core_timed(core, res.cycles, core->trace, false);
	core->packets++;
	core->mat_lookups += res.mat_lookups;
	if (res.error)
		core->errors++;
	if (!res.done)
		nicsim_handover(core, port, ref, &pkt, &core->state->ctx);
	else
		nicsim_verdict(port, plan, &pkt, &res, core);
}

/*
 * Hash of the packet bytes a stage's shard key copies; absent bytes are 0.
 * A symmetric key hashes the lesser of its two copies.
 */
static u32 nicsim_key_hash(const struct nicprog_stage_info *si,
			   const u8 *data, u32 len)
{
	u8 key[NICPROG_STEER_KEY_MAX], rev[NICPROG_STEER_KEY_MAX];
	u32 k;

	for (k = 0; k < si->key_len; k++)
		key[k] = si->key_off[k] < len ? data[si->key_off[k]] : 0;
	if (si->steer != NICPROG_STEER_KEY_SYMMETRIC)
		return jhash(key, si->key_len, 0);
	for (k = 0; k < si->key_len; k++)
		rev[k] = si->sym_off[k] < len ? data[si->sym_off[k]] : 0;
	return jhash(memcmp(rev, key, si->key_len) < 0 ? rev : key,
		     si->key_len, 0);
}

/* The plan core (and so the NIC core) of stage @si that takes a frame. */
static u32 nicsim_stage_core(const struct nicprog_stage_info *si,
			     const u8 *data, u32 len)
{
	switch (si->steer) {
	case NICPROG_STEER_FLOW:
		return si->first_core + nicsim_flow_hash(data, len) % si->replicas;
	case NICPROG_STEER_KEY:
	case NICPROG_STEER_KEY_SYMMETRIC:
		return si->first_core + nicsim_key_hash(si, data, len) %
		       si->replicas;
	default:
		return si->first_core;
	}
}

static void nicsim_job_free(struct nicsim_job *job)
{
	kfree(job);
}

/*
 * Hand @job to the core of the next stage, or drop it if the queue is full.
 * Under an offered load the caller runs it there now instead: that core
 * is returned (the timing model queues its run).
 */
static struct nicsim_core *nicsim_job_forward(struct nicsim_core *from,
					      const struct nicsim_plan_ref *ref,
					      struct nicsim_job *job, u32 stage)
{
	const struct nicprog_stage_info *si =
		nicprog_plan_stage(ref->plan, stage);
	struct nicsim_core *core;
	bool queued = false;

	core = from->ndev->cores[ref->base +
				 nicsim_stage_core(si, job->frame + job->pkt.data,
						   job->pkt.data_end -
						   job->pkt.data)];
	if (from->ndev->clock_task)
		return core;
	spin_lock(&core->jobs_lock);
	if (core->n_jobs < NICSIM_CORE_QUEUE_LEN) {
		list_add_tail(&job->list, &core->jobs);
		core->n_jobs++;
		core->queue_max = max(core->queue_max, core->n_jobs);
		queued = true;
	}
	spin_unlock(&core->jobs_lock);
	if (queued) {
		wake_up(&core->wq);
		return NULL;
	}
	from->queue_drops++;
	nicsim_stats_inc(job->port, rx_fifo_errors);
	nicprog_event_overload(job->port->np, stage, 1);
	nicsim_job_free(job);
	return NULL;
}

/*
 * Run or pass @job at this core's stage; a job that came through a queue
 * (not from the wire) costs the core a hop. Returns the core of the next
 * stage if the caller is to run it there now (nicsim_job_forward()).
 * BH disabled, RCU held.
 */
static struct nicsim_core *nicsim_core_stage(struct nicsim_core *core,
					     struct nicsim_job *job,
					     bool queued)
{
	const struct nicsim_plan_ref *ref = rcu_dereference(job->port->ref);
	const struct nicprog_plan *plan;
	struct nicprog_exec_result res;
	u32 stage, hop;

	/*
	 * Replaced while the job waited, or (a frame steered under the plan
	 * before) on a core the plan does not hold.
	 */
	if (!ref || ref != job->ref || core->index < ref->base ||
	    core->index - ref->base >= nicprog_plan_cores(ref->plan)) {
		core->queue_drops++;
		nicsim_stats_inc(job->port, rx_fifo_errors);
		nicsim_job_free(job);
		return NULL;
	}
	plan = ref->plan;
	stage = nicprog_plan_core_stage(plan, core->index - ref->base);
	hop = queued ? NICSIM_HOP_CYCLES : 0;
	if (!job->res.done && job->ctx.stage == stage) {
		if (ref->translated)
			nicprog_plan_resume_with(plan, nicsim_stage_run,
						 core->state, &job->pkt,
						 &job->ctx, &res);
		else
			nicprog_plan_resume(plan, core->state, &job->pkt,
					    &job->ctx, &res);
		nicsim_core_timed(core, hop + res.cycles, core->trace,
				  queued);
		core->packets++;
		core->mat_lookups += res.mat_lookups;
		if (res.error)
			core->errors++;
		if (res.done) {
			job->res = res;
		} else if (job->ctx.stage == NICPROG_EXEC_STAGE_HOST) {
			nicsim_handover(core, job->port, ref, &job->pkt,
					&job->ctx);
			nicsim_job_free(job);
			return NULL;
		}
	} else {
		if (hop)
			nicsim_core_timed(core, hop, NULL, true);
		core->passes++;
	}
	if (stage + 1 < nicprog_plan_stages(plan))
		return nicsim_job_forward(core, ref, job, stage + 1);
	nicsim_verdict(job->port, plan, &job->pkt, &job->res, core);
	nicsim_job_free(job);
	return NULL;
}

/* @job at this core's stage and, under an offered load, at the later ones. */
static void nicsim_core_job(struct nicsim_core *core, struct nicsim_job *job,
			    bool queued)
{
	while ((core = nicsim_core_stage(core, job, queued)))
		queued = true;
}

/* Start a frame from the wire on stage 0 of a multi-stage plan. */
static void nicsim_core_job_start(struct nicsim_core *core,
				  struct nicsim_port *port,
				  const struct nicsim_plan_ref *ref,
				  struct sk_buff *skb, u64 now)
{
	struct nicsim_job *job;
	u32 buf;

	job = kmalloc(sizeof(*job), GFP_ATOMIC);
	if (!job) {
		nicsim_stats_inc(port, rx_fifo_errors);
		kfree_skb(skb);
		return;
	}
	buf = atomic_fetch_inc(&core->ndev->job_bufs);
	job->port = port;
	job->ref = ref;
	job->res.done = false;
	nicsim_frame_in(&job->pkt, job->frame, port, skb,
			NICPROG_EXEC_NIC_FRAME(buf % NICSIM_JOB_BUFS), now);
	nicprog_plan_start(ref->plan, &job->ctx, &job->pkt);
	nicsim_core_job(core, job, false);
}

static struct nicsim_job *nicsim_core_next_job(struct nicsim_core *core)
{
	struct nicsim_job *job;

	spin_lock_bh(&core->jobs_lock);
	job = list_first_entry_or_null(&core->jobs, struct nicsim_job, list);
	if (job) {
		list_del(&job->list);
		core->n_jobs--;
	}
	spin_unlock_bh(&core->jobs_lock);
	return job;
}

/* Nothing waits for the core (nor, under an offered load, for the NIC). */
static bool nicsim_core_idle(struct nicsim_core *core)
{
	return skb_queue_empty_lockless(&core->queue) &&
	       !READ_ONCE(core->n_jobs) &&
	       skb_queue_empty_lockless(&core->ndev->clock_queue);
}

/**
 * nicsim_core_ring_flush() - post the notifications a core's frames to
 *	pipes deferred
 * @core: the core
 * @force: now; else only at the end of its batch (its queues empty) or
 *	after NICSIM_RING_BATCH frames, so that an application that keeps up
 *	is woken once per batch, not per frame, and one that waits is not
 *	kept waiting behind a long backlog
 *
 * Context: the core's thread, BH disabled, RCU held (the port's).
 */
void nicsim_core_ring_flush(struct nicsim_core *core, bool force)
{
	if (!core->ring_port)
		return;
	if (!force && ++core->ring_batch < NICSIM_RING_BATCH &&
	    !nicsim_core_idle(core))
		return;
	nicprog_ring_flush(core->ring_port->np);
	core->ring_port = NULL;
	core->ring_batch = 0;
}

/**
 * nicsim_core_stall() - wait until a core's held frame is delivered
 * @core: the core, holding a frame (@core->held)
 *
 * Backpressure: retry the held frame until its pipe takes it, its port's
 * plan goes (a purge drops it), or NICSIM_RING_STALL_MS pass (dropped and
 * counted in the pipe). The core takes no other frame meanwhile, so what
 * arrives for it waits in its queue and, that full, is dropped at the
 * NIC's ingress and counted there. The pipe's application is notified of
 * what it holds at each retry, so that it makes room. Holding the core's
 * jobs_lock keeps the port from going (a purge takes it first).
 *
 * Context: the core's thread or the clock's, may sleep.
 */
void nicsim_core_stall(struct nicsim_core *core)
{
	unsigned long until = core->held_since +
			      msecs_to_jiffies(NICSIM_RING_STALL_MS);
	struct nicsim_port *port;
	bool done;
	int err;

	for (;;) {
		spin_lock_bh(&core->jobs_lock);
		rcu_read_lock();
		port = core->held_port;
		done = !port;
		if (port) {
			err = nicprog_ring_deliver(port->np, core->held_target,
						   core->held, core->held_len,
						   false);
			if (err == -EAGAIN && time_after_eq(jiffies, until)) {
				err = nicprog_ring_drop(port->np,
							core->held_target,
							core->held_len);
				nicprog_event_stall(port->np, core->index);
			}
			if (err == -EAGAIN) {
				nicprog_ring_flush(port->np);
			} else {
				/* an unbound output: an invalid redirect */
				if (err == -ENOENT)
					nicsim_stats_inc(port, xdp_aborted);
				else
					nicsim_stats_inc(port, xdp_redirect);
				done = true;
			}
		}
		if (done) {
			kfree(core->held);
			core->held = NULL;
			core->held_port = NULL;
		}
		rcu_read_unlock();
		spin_unlock_bh(&core->jobs_lock);
		if (done || kthread_should_stop())
			return;
		usleep_range(20, 100);
	}
}

static int nicsim_core_thread(void *data)
{
	struct nicsim_core *core = data;
	struct sk_buff *skb = NULL;
	struct nicsim_job *job;

	while (!kthread_should_stop()) {
		if (!wait_event_interruptible_timeout(core->wq,
						      !nicsim_core_idle(core) ||
						      kthread_should_stop(),
						      NICSIM_TM_IDLE))
			nicsim_core_idle_timing(core->ndev);
		while ((job = nicsim_core_next_job(core)) ||
		       (skb = skb_dequeue(&core->queue))) {
			local_bh_disable();
			rcu_read_lock();
			if (job)
				nicsim_core_job(core, job, true);
			else
				nicsim_core_run(core, netdev_priv(skb->dev),
						skb,
						nicsim_core_now(core->ndev));
			nicsim_core_ring_flush(core, false);
			rcu_read_unlock();
			local_bh_enable();
			if (core->held)
				nicsim_core_stall(core);
			cond_resched();
		}
		/*
		 * Only a purge (plan replaced or removed) between the check
		 * and the dequeue leaves a flush pending; the port may be
		 * going, and its waiting application's timeout covers it.
		 */
		core->ring_port = NULL;
		core->ring_batch = 0;
	}
	return 0;
}

/**
 * nicsim_frame_queue() - queue a frame from the wire for a thread
 * @q: a core's queue, or the clock's
 * @limit: frames @q holds at most
 * @wq: where @q's thread waits
 * @skb: the frame
 *
 * Context: BH disabled.
 * Return: true if queued; false if @q is full (the caller drops and
 * counts the frame).
 */
bool nicsim_frame_queue(struct sk_buff_head *q, u32 limit,
			wait_queue_head_t *wq, struct sk_buff *skb)
{
	bool queued = false;

	spin_lock(&q->lock);
	if (skb_queue_len(q) < limit) {
		__skb_queue_tail(q, skb);
		queued = true;
	}
	spin_unlock(&q->lock);
	if (queued)
		wake_up(wq);
	return queued;
}

/**
 * nicsim_cores_first() - the core of a plan's first stage a frame goes to
 * @port: the port it arrived on
 * @ref: its installed plan, read under the same RCU section
 * @skb: the frame
 *
 * Context: RCU held.
 * Return: the core.
 */
struct nicsim_core *nicsim_cores_first(struct nicsim_port *port,
				       const struct nicsim_plan_ref *ref,
				       const struct sk_buff *skb)
{
	return port->ndev->cores[ref->base +
				 nicsim_stage_core(nicprog_plan_stage(ref->plan, 0),
						   skb->data,
						   skb_headlen(skb))];
}

/**
 * nicsim_cores_steer() - hand a frame from the wire to a NIC core
 * @port: the port it arrived on
 * @ref: its installed plan, read under the same RCU section
 * @skb: the frame; skb->dev is @port's netdev
 *
 * Context: BH disabled, RCU held.
 * Return: true if queued; false if the core's queue is full (the caller
 * drops and counts the frame).
 */
bool nicsim_cores_steer(struct nicsim_port *port,
			const struct nicsim_plan_ref *ref, struct sk_buff *skb)
{
	struct nicsim_core *core;

	if (port->ndev->clock_task)
		return nicsim_clock_steer(port, skb);
	core = nicsim_cores_first(port, ref, skb);
	return nicsim_frame_queue(&core->queue, NICSIM_CORE_QUEUE_LEN,
				  &core->wq, skb);
}

/**
 * nicsim_cores_purge() - drop the jobs of a port's old plan
 * @port: the port, whose plan was just replaced or removed
 *
 * After a grace period no core runs the old plan; jobs of it may still
 * wait in queues, and must be gone before the plan is freed.
 *
 * Context: process.
 */
void nicsim_cores_purge(struct nicsim_port *port)
{
	struct nicsim_dev *ndev = port->ndev;
	struct nicsim_job *job, *tmp;
	struct nicsim_core *core;
	LIST_HEAD(dead);
	u32 i;

	for (i = 0; i < ndev->n_cores; i++) {
		core = ndev->cores[i];
		spin_lock_bh(&core->jobs_lock);
		list_for_each_entry_safe(job, tmp, &core->jobs, list) {
			if (job->port != port)
				continue;
			list_move(&job->list, &dead);
			core->n_jobs--;
		}
		/* a held frame's stall ends at its next retry */
		if (core->held_port == port) {
			core->held_port = NULL;
			core->queue_drops++;
			nicsim_stats_inc(port, rx_fifo_errors);
		}
		spin_unlock_bh(&core->jobs_lock);
	}
	list_for_each_entry_safe(job, tmp, &dead, list)
		nicsim_job_free(job);
}

static void nicsim_core_free(struct nicsim_core *core)
{
	struct nicsim_job *job, *tmp;

	list_for_each_entry_safe(job, tmp, &core->jobs, list)
		nicsim_job_free(job);
	skb_queue_purge(&core->queue);
	kfree(core->held);
	kfree(core->trace);
	kfree(core->state);
	kfree(core->frame);
	kfree(core);
}

/**
 * nicsim_cores_start() - start the NIC's cores
 * @ndev: the NIC, its LNIC set
 *
 * And, under an offered load (@ndev->offered_rate), its clock.
 *
 * Context: process.
 * Return: 0 or -errno; on error no core runs.
 */
int nicsim_cores_start(struct nicsim_dev *ndev)
{
	const struct nicprog_lnic *lnic = ndev->lnic;
	struct nicsim_core *core;
	u32 i, n = 0;
	int err;

	for (i = 0; i < lnic->n_units; i++)
		if (lnic->units[i].type == NICPROG_UNIT_CORE)
			n += lnic->units[i].count;
	n = clamp_t(u32, n, 1, NICSIM_MAX_CORES);
	spin_lock_init(&ndev->tm_lock);
	ndev->tm_last_add = jiffies;
	ndev->tm = nicsim_tm_create(lnic, n);
	if (!ndev->tm)
		return -ENOMEM;

	for (i = 0; i < n; i++) {
		core = kzalloc(sizeof(*core), GFP_KERNEL);
		if (!core)
			goto err_nomem;
		core->state = kzalloc(sizeof(*core->state), GFP_KERNEL);
		core->frame = kzalloc(NICSIM_FRAME_SZ, GFP_KERNEL);
		core->trace = kzalloc(sizeof(*core->trace), GFP_KERNEL);
		if (!core->state || !core->frame || !core->trace) {
			nicsim_core_free(core);
			goto err_nomem;
		}
		core->state->trace = core->trace;
		core->index = i;
		core->ndev = ndev;
		skb_queue_head_init(&core->queue);
		INIT_LIST_HEAD(&core->jobs);
		spin_lock_init(&core->jobs_lock);
		init_waitqueue_head(&core->wq);
		core->task = kthread_run(nicsim_core_thread, core,
					 NICSIM_DRV_NAME "%u/core%u", ndev->id, i);
		if (IS_ERR(core->task)) {
			err = PTR_ERR(core->task);
			nicsim_core_free(core);
			goto err_stop;
		}
		ndev->cores[i] = core;
		ndev->n_cores = i + 1;
	}
	err = nicsim_clock_start(ndev);
	if (err)
		goto err_stop;
	spin_lock_bh(&ndev->tm_lock);
	ndev->stats_cores = n;
	spin_unlock_bh(&ndev->tm_lock);
	return 0;

err_nomem:
	err = -ENOMEM;
err_stop:
	nicsim_cores_stop(ndev);
	return err;
}

/**
 * nicsim_cores_stop() - stop the NIC's cores, dropping queued frames
 * @ndev: the NIC; no frame can reach a core from the wire any more (its
 *	ports are unlinked)
 *
 * Every core is stopped before any is freed: a running core may still
 * hand a job to another.
 *
 * Context: process.
 */
void nicsim_cores_stop(struct nicsim_dev *ndev)
{
	struct nicsim_tm *tm;
	u32 i;

	spin_lock_bh(&ndev->tm_lock);
	ndev->stats_cores = 0;
	spin_unlock_bh(&ndev->tm_lock);
	/* the clock runs frames on the cores */
	nicsim_clock_stop(ndev);
	for (i = 0; i < ndev->n_cores; i++)
		kthread_stop(ndev->cores[i]->task);
	while (ndev->n_cores)
		nicsim_core_free(ndev->cores[--ndev->n_cores]);
	spin_lock_bh(&ndev->tm_lock);
	tm = ndev->tm;
	ndev->tm = NULL;
	spin_unlock_bh(&ndev->tm_lock);
	nicsim_tm_destroy(tm);
}

/**
 * nicsim_cores_stats() - nicprog's core_stats: the NIC's cores' counters
 * @ndev: the NIC
 * @cs: filled for the first @max cores
 * @max: entries in @cs
 *
 * Cycles are those of the timing model's clock: busy over elapsed is a
 * core's share of the NIC's time for the frames timed so far.
 *
 * Context: process; no RTNL needed: the cores stay while @tm_lock is held
 * and @stats_cores says they are there.
 * Return: cores filled.
 */
u32 nicsim_cores_stats(struct nicsim_dev *ndev, struct nicprog_core_stats *cs,
		       u32 max)
{
	const struct nicsim_core *core;
	u32 i, n;

	spin_lock_bh(&ndev->tm_lock);
	n = min(ndev->stats_cores, max);
	for (i = 0; i < n; i++) {
		core = ndev->cores[i];
		cs[i].packets = READ_ONCE(core->packets);
		cs[i].drops = READ_ONCE(core->queue_drops);
		cs[i].busy = ndev->tm->cores[i].busy;
		cs[i].elapsed = ndev->tm->clock;
	}
	spin_unlock_bh(&ndev->tm_lock);
	return n;
}
