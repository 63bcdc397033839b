// SPDX-License-Identifier: GPL-2.0
/*
 * nicsim's RoCEv2 engine (&nicprog_dev_ops.rdma_ops), after RecoNIC's:
 * reliable-connected QPs over IPv4/UDP 4791, as the InfiniBand
 * specification (vol. 1, ch. 9) and its RoCEv2 annex describe them, so
 * that Linux's soft-RoCE (rdma_rxe) on the other end of the wire is its
 * peer.
 *
 * Requester: a post is a doorbell: the NIC fetches its WQEs from host
 * memory with the LNIC's DMA unit (one transfer a doorbell, on the engine
 * free first, as a MEM_COPY takes one) and then sends their packets (SEND,
 * RDMA WRITE with or without immediate, RDMA READ requests), the last
 * packet of each asking for an ACK; ACKs retire WRs in order, a NAK for
 * a sequence error sends again from the PSN it names, an RNR NAK after a
 * pause, and the retransmission timer from the oldest unacknowledged PSN,
 * at most retry_cnt times before the WR fails and the QP flushes.
 * Responder: requests are taken in PSN order -- a duplicate is ACKed
 * again (a READ answered again), a gap NAKed once -- SENDs land in posted
 * RECVs (none: RNR NAK), WRITEs and READs in regions whose rkey, domain,
 * access and range hold on every packet (else NAK: remote access error).
 * Every frame carries its ICRC; one that does not is dropped and counted.
 *
 * Frames to UDP port 4791 for one of the port's QPs are the engine's
 * (the classifier, before any NF); all others, RoCE for a QP the host's
 * own stack has (rxe on this port) among them, go on as before.
 *
 * Locking: a QP's lock (BH) serializes its queues, PSNs and timer against
 * posts, received frames and the timer. QPs are found by number under RCU
 * (the port's qps xarray), regions by key likewise (the NIC's mrs); both
 * are freed after a grace period, and a region's buffer outlives its
 * readers (the core waits for a grace period before it frees a buffer a
 * region was over).
 */
#include <linux/crc32.h>
#include <linux/etherdevice.h>
#include <linux/ip.h>
#include <linux/nospec.h>
#include <linux/random.h>
#include <linux/seq_file.h>
#include <linux/udp.h>
#include <net/ip.h>
#include <net/nicprog_compat.h>

#include "nicsim.h"

#define ROCE_UDP_PORT		4791
#define ROCE_HDR_MIN		(ETH_HLEN + 20 + 8 + 12)
#define ROCE_PKEY		0xffff
#define ROCE_PSN_MASK		0xffffff
#define ROCE_WQE_BYTES		64	/* a WQE the NIC fetches (mlx5's, RecoNIC's) */
#define NICSIM_ROCE_RXQ		8192	/* frames waiting for the engine */

/* BTH opcodes of the RC transport */
enum {
	RC_SEND_FIRST		= 0x00,
	RC_SEND_MIDDLE		= 0x01,
	RC_SEND_LAST		= 0x02,
	RC_SEND_LAST_IMM	= 0x03,
	RC_SEND_ONLY		= 0x04,
	RC_SEND_ONLY_IMM	= 0x05,
	RC_WRITE_FIRST		= 0x06,
	RC_WRITE_MIDDLE		= 0x07,
	RC_WRITE_LAST		= 0x08,
	RC_WRITE_LAST_IMM	= 0x09,
	RC_WRITE_ONLY		= 0x0a,
	RC_WRITE_ONLY_IMM	= 0x0b,
	RC_READ_REQ		= 0x0c,
	RC_READ_RESP_FIRST	= 0x0d,
	RC_READ_RESP_MIDDLE	= 0x0e,
	RC_READ_RESP_LAST	= 0x0f,
	RC_READ_RESP_ONLY	= 0x10,
	RC_ACK			= 0x11,
};

/* AETH syndromes */
#define AETH_ACK		0x1f	/* no credit flow control */
#define AETH_RNR_NAK		0x20	/* | timer: 0.01 ms */
#define AETH_NAK_SEQ		0x60
#define AETH_NAK_INV		0x61
#define AETH_NAK_ACCESS		0x62
#define AETH_NAK_OP		0x63

/**
 * struct nicsim_mr - a memory region of the engine
 * @key: its lkey and rkey
 * @pd: its protection domain
 * @access: NICPROG_ACCESS_*
 * @iova: the address its first byte is named by
 * @len: its bytes
 * @base: its first byte
 * @rcu: freed after accesses under RCU
 */
struct nicsim_mr {
	u32 key;
	void *pd;
	u32 access;
	u64 iova;
	u64 len;
	u8 *base;
	struct rcu_head rcu;
};

/**
 * struct nicsim_swqe - a WR of a send queue, as the requester runs it
 * @wr: the WR
 * @psn: the PSN of its first packet, once sent
 * @npkts: PSNs it takes (a READ: its responses')
 * @sent: it has been sent
 * @ready: when the NIC has fetched it (ktime_get_ns()): its doorbell's
 *	WQE fetch done
 */
struct nicsim_swqe {
	struct nicprog_rdma_wr wr;
	u32 psn;
	u32 npkts;
	bool sent;
	u64 ready;
};

/**
 * struct nicsim_qp - a reliable-connected QP
 * @port: its port
 * @pd: its protection domain
 * @cq: where its completions go
 * @qpn: its number
 * @lock: protects all below
 * @state: enum below
 * @saddr: its IPv4 address
 * @daddr: the peer's
 * @dmac: the next hop's MAC
 * @dest_qpn: the peer's QP
 * @mtu: path MTU
 * @timeout: retransmission timeout, jiffies
 * @retry_cnt: retransmissions allowed
 * @max_rd: READs outstanding at most (the peer's responder resources: a
 *	responder keeps that many answers to repeat, rxe too)
 * @dma: the LNIC's DMA unit that fetches WQEs, as the QP was made
 * @has_dma: the LNIC has one (else WRs are ready when posted)
 * @db_ready: when the last doorbell's WQEs are fetched
 * @db: fires when the next WR not sent yet is fetched
 * @sport: the UDP source port of its frames
 * @sq: send queue, @sq_depth entries
 * @sq_depth: its entries
 * @sq_head: WRs retired
 * @sq_next: WRs sent
 * @sq_tail: WRs posted
 * @next_psn: the PSN of the next new request packet
 * @una: the first PSN not acknowledged
 * @read_off: bytes of the READ at @sq_head already received
 * @read_gap: a response of it went missing, and the rest was asked for
 * @retries: retransmissions since the last progress
 * @rnr: the timer runs for an RNR NAK's wait, not a loss
 * @rto: the retransmission timer
 * @rq: receive queue, @rq_depth entries
 * @rq_depth: its entries
 * @rq_head: RECVs used
 * @rq_tail: RECVs posted
 * @epsn: the PSN the responder expects
 * @msn: messages the responder completed
 * @nak: a sequence NAK was sent for @epsn
 * @recv_off: bytes of the SEND in progress received
 * @wr_key: the WRITE in progress: its region's key
 * @wr_va: and where its next byte goes
 * @wr_left: and its bytes still to come
 * @wr_len: and its length
 */
struct nicsim_qp {
	struct nicsim_port *port;
	void *pd;
	void *cq;
	u32 qpn;
	spinlock_t lock;	/* see above */
	u8 state;
	__be32 saddr;
	__be32 daddr;
	u8 dmac[ETH_ALEN];
	u32 dest_qpn;
	u32 mtu;
	unsigned long timeout;
	u32 retry_cnt;
	u32 max_rd;
	struct nicprog_lnic_unit dma;
	bool has_dma;
	u64 db_ready;
	struct hrtimer db;
	u16 sport;
	struct nicsim_swqe *sq;
	u32 sq_depth;
	u32 sq_head;
	u32 sq_next;
	u32 sq_tail;
	u32 next_psn;
	u32 una;
	u64 read_off;
	bool read_gap;
	u32 retries;
	bool rnr;
	struct timer_list rto;
	struct nicprog_rdma_wr *rq;
	u32 rq_depth;
	u32 rq_head;
	u32 rq_tail;
	u32 epsn;
	u32 msn;
	bool nak;
	u32 recv_off;
	u32 wr_key;
	u64 wr_va;
	u32 wr_left;
	u32 wr_len;
};

enum { QP_INIT, QP_RTS, QP_ERR, QP_DEAD };

static s32 psn_cmp(u32 a, u32 b)
{
	return (s32)((a - b) << 8) >> 8;
}

/* The ICRC of the RoCEv2 packet at @ip, @len bytes up to the ICRC. */
static u32 roce_icrc(const u8 *ip, u32 len)
{
	static const u8 ones[8] = { 0xff, 0xff, 0xff, 0xff,
				    0xff, 0xff, 0xff, 0xff };
	u8 hdr[20 + 8 + 12];
	u32 crc;

	/* the fields a router may change are masked with ones */
	memcpy(hdr, ip, sizeof(hdr));
	hdr[1] = 0xff;			/* TOS */
	hdr[8] = 0xff;			/* TTL */
	hdr[10] = 0xff;			/* header checksum */
	hdr[11] = 0xff;
	hdr[26] = 0xff;			/* UDP checksum */
	hdr[27] = 0xff;
	hdr[32] = 0xff;			/* BTH: FECN, BECN, reserved */
	crc = crc32_le(~0U, ones, sizeof(ones));
	crc = crc32_le(crc, hdr, sizeof(hdr));
	crc = crc32_le(crc, ip + sizeof(hdr), len - sizeof(hdr));
	return ~crc;
}

/* A region of @pd by key with @access, holding [@va, @va + @len). RCU. */
static struct nicsim_mr *roce_mr(struct nicsim_dev *ndev, void *pd, u32 key,
				 u32 access, u64 va, u64 len)
{
	struct nicsim_mr *mr = xa_load(&ndev->mrs, key >> 8);

	if (!mr || mr->key != key || mr->pd != pd ||
	    (mr->access & access) != access || va < mr->iova ||
	    len > mr->len || va - mr->iova > mr->len - len)
		return NULL;
	return mr;
}

static u8 *roce_mr_ptr(const struct nicsim_mr *mr, u64 va)
{
	return mr->base + (va - mr->iova);
}

struct roce_pkt {
	u8 opcode;
	bool ackreq;
	u32 psn;
	bool reth;
	u64 va;
	u32 rkey;
	u32 dmalen;
	bool aeth;
	u8 syndrome;
	u32 msn;
	bool imm;
	u32 immdt;
	const u8 *data;
	u32 len;
};

/* Build and send a packet of @qp. QP lock held, BH disabled. */
static void roce_send(struct nicsim_qp *qp, const struct roce_pkt *p)
{
	struct net_device *dev = qp->port->netdev;
	u32 pad = (4 - (p->len & 3)) & 3, hl = 12, plen;
	struct sk_buff *skb;
	struct ethhdr *eth;
	struct iphdr *iph;
	struct udphdr *uh;
	u8 *bth, *h;

	hl += p->reth ? 16 : 0;
	hl += p->aeth ? 4 : 0;
	hl += p->imm ? 4 : 0;
	plen = 20 + 8 + hl + p->len + pad + 4;
	skb = netdev_alloc_skb(dev, ETH_HLEN + plen);
	if (!skb)
		return;
	eth = skb_put(skb, ETH_HLEN);
	ether_addr_copy(eth->h_dest, qp->dmac);
	ether_addr_copy(eth->h_source, dev->dev_addr);
	eth->h_proto = htons(ETH_P_IP);
	iph = skb_put_zero(skb, 20);
	iph->version = 4;
	iph->ihl = 5;
	iph->tot_len = htons(plen);
	iph->frag_off = htons(IP_DF);
	iph->ttl = 64;
	iph->protocol = IPPROTO_UDP;
	iph->saddr = qp->saddr;
	iph->daddr = qp->daddr;
	iph->check = ip_fast_csum(iph, 5);
	uh = skb_put_zero(skb, 8);
	uh->source = htons(qp->sport);
	uh->dest = htons(ROCE_UDP_PORT);
	uh->len = htons(plen - 20);
	bth = skb_put_zero(skb, hl);
	bth[0] = p->opcode;
	bth[1] = pad << 4;
	put_unaligned_be16(ROCE_PKEY, bth + 2);
	put_unaligned_be32(qp->dest_qpn & ROCE_PSN_MASK, bth + 4);
	put_unaligned_be32((p->psn & ROCE_PSN_MASK) | (p->ackreq ? BIT(31) : 0),
			   bth + 8);
	h = bth + 12;
	if (p->reth) {
		put_unaligned_be64(p->va, h);
		put_unaligned_be32(p->rkey, h + 8);
		put_unaligned_be32(p->dmalen, h + 12);
		h += 16;
	}
	if (p->aeth) {
		put_unaligned_be32(p->syndrome << 24 | (p->msn & ROCE_PSN_MASK),
				   h);
		h += 4;
	}
	if (p->imm)
		put_unaligned_be32(p->immdt, h);
	if (p->len)
		skb_put_data(skb, p->data, p->len);
	skb_put_zero(skb, pad);
	put_unaligned_le32(roce_icrc((u8 *)iph, plen - 4), skb_put(skb, 4));
	atomic64_inc(&qp->port->roce_tx);
	nicsim_wire_tx(qp->port, skb);
}

static void roce_ack(struct nicsim_qp *qp, u8 syndrome, u32 psn)
{
	struct roce_pkt p = {
		.opcode = RC_ACK, .psn = psn, .aeth = true,
		.syndrome = syndrome, .msn = qp->msn,
	};

	roce_send(qp, &p);
}

static void roce_complete(struct nicsim_qp *qp,
			  const struct nicprog_rdma_wr *wr, u8 status,
			  u32 byte_len, bool imm, u32 immdt)
{
	struct nicprog_rdma_wc wc = {
		.wr_id = wr->wr_id, .qpn = qp->qpn, .opcode = wr->opcode,
		.status = status, .byte_len = byte_len,
		.flags = imm ? NICPROG_WC_IMM : 0, .imm = immdt,
	};

	nicprog_rdma_complete(qp->cq, &wc);
}

/* Fail the QP: flush every WR with @status for the first. Lock held. */
static void roce_qp_error(struct nicsim_qp *qp, u8 status)
{
	u8 st = status;

	if (qp->state == QP_DEAD)
		return;
	qp->state = QP_ERR;
	del_timer(&qp->rto);
	for (; qp->sq_head != qp->sq_tail; qp->sq_head++) {
		roce_complete(qp, &qp->sq[qp->sq_head % qp->sq_depth].wr, st,
			      0, false, 0);
		st = NICPROG_WC_WR_FLUSH_ERR;
	}
	qp->sq_next = qp->sq_tail;
	for (; qp->rq_head != qp->rq_tail; qp->rq_head++)
		roce_complete(qp, &qp->rq[qp->rq_head % qp->rq_depth],
			      NICPROG_WC_WR_FLUSH_ERR, 0, false, 0);
	atomic64_inc(&qp->port->roce_qp_errors);
}

static u32 roce_npkts(const struct nicsim_qp *qp, u32 len)
{
	return len ? DIV_ROUND_UP(len, qp->mtu) : 1;
}

/*
 * Send packets @from.. of @e, a WR of @qp's send queue: false if its
 * local region is bad (the WR fails). Lock held, BH disabled, RCU held.
 */
static bool roce_send_wqe(struct nicsim_qp *qp, struct nicsim_swqe *e,
			  u32 from)
{
	static const u8 first[] = { [NICPROG_WR_SEND] = RC_SEND_FIRST,
				    [NICPROG_WR_SEND_IMM] = RC_SEND_FIRST,
				    [NICPROG_WR_WRITE] = RC_WRITE_FIRST,
				    [NICPROG_WR_WRITE_IMM] = RC_WRITE_FIRST };
	const struct nicprog_rdma_wr *wr = &e->wr;
	struct nicsim_dev *ndev = qp->port->ndev;
	struct roce_pkt p = {};
	struct nicsim_mr *mr = NULL;
	u32 i, n = e->npkts;
	bool imm, write;
	u8 base;

	if (wr->len) {
		mr = roce_mr(ndev, qp->pd, wr->lkey,
			     wr->opcode == NICPROG_WR_READ ?
			     NICPROG_ACCESS_LOCAL_WRITE : 0, wr->addr, wr->len);
		if (!mr)
			return false;
	}
	if (wr->opcode == NICPROG_WR_READ) {
		/* the part not received yet: from response @from on */
		p.opcode = RC_READ_REQ;
		p.psn = e->psn + from;
		p.ackreq = true;
		p.reth = true;
		p.va = wr->raddr + (u64)from * qp->mtu;
		p.rkey = wr->rkey;
		p.dmalen = wr->len - min(wr->len, from * qp->mtu);
		roce_send(qp, &p);
		return true;
	}
	imm = wr->opcode == NICPROG_WR_SEND_IMM ||
	      wr->opcode == NICPROG_WR_WRITE_IMM;
	write = wr->opcode == NICPROG_WR_WRITE ||
		wr->opcode == NICPROG_WR_WRITE_IMM;
	/* the core checked the opcode; READ and RECV never get here */
	base = first[array_index_nospec(wr->opcode, ARRAY_SIZE(first))];
	for (i = from; i < n; i++) {
		memset(&p, 0, sizeof(p));
		p.psn = e->psn + i;
		p.len = min(wr->len - i * qp->mtu, qp->mtu);
		p.data = p.len ? roce_mr_ptr(mr, wr->addr + i * qp->mtu) : NULL;
		p.opcode = base + (i ? 1 : 0);
		if (i == n - 1) {
			/* LAST, LAST_IMM; ONLY, ONLY_IMM */
			p.opcode = base + (n == 1 ? 4 : 2) +
				   (imm ? 1 : 0);
			p.ackreq = true;
			p.imm = imm;
			p.immdt = wr->imm;
		}
		if (write && i == 0) {
			p.reth = true;
			p.va = wr->raddr;
			p.rkey = wr->rkey;
			p.dmalen = wr->len;
		}
		roce_send(qp, &p);
	}
	return true;
}

/*
 * Send the send queue's WRs from PSN @psn on (a retransmission), or its
 * new ones (@psn is @qp->next_psn). Lock held, BH disabled.
 */
static void roce_push(struct nicsim_qp *qp, u32 psn)
{
	struct nicsim_swqe *e;
	u32 i, reads = 0;
	u64 now = 0;

	if (qp->state != QP_RTS)
		return;
	rcu_read_lock();
	for (i = qp->sq_head; i != qp->sq_tail; i++) {
		e = &qp->sq[i % qp->sq_depth];
		/* the clock is read once a push, and only for a new WR */
		if (!e->sent && e->ready && !now)
			now = ktime_get_ns();
		if (!e->sent && e->ready > now) {
			/* its doorbell's fetch is not done yet */
			if (!hrtimer_is_queued(&qp->db))
				hrtimer_start(&qp->db, ns_to_ktime(e->ready),
					      HRTIMER_MODE_ABS_SOFT);
			break;
		}
		if (e->wr.opcode == NICPROG_WR_READ && ++reads > qp->max_rd &&
		    !e->sent)
			break;	/* the peer keeps max_rd READs' answers */
		if (!e->sent) {
			e->psn = qp->next_psn;
			e->npkts = roce_npkts(qp, e->wr.len);
			qp->next_psn = (qp->next_psn + e->npkts) & ROCE_PSN_MASK;
			e->sent = true;
			qp->sq_next++;
		} else if (psn_cmp(psn, e->psn + e->npkts) >= 0) {
			continue;
		}
		/* a READ asks again for what did not come yet */
		if (!roce_send_wqe(qp, e, e->wr.opcode != NICPROG_WR_READ ?
				   max(psn_cmp(psn, e->psn), 0) :
				   i == qp->sq_head ?
				   (u32)(qp->read_off / qp->mtu) : 0)) {
			rcu_read_unlock();
			roce_qp_error(qp, NICPROG_WC_LOC_PROT_ERR);
			return;
		}
	}
	rcu_read_unlock();
	if (qp->sq_head != qp->sq_tail && !timer_pending(&qp->rto))
		mod_timer(&qp->rto, jiffies + qp->timeout);
}

/* Retire the WRs an ACK of @psn covers (not a READ). Lock held. */
static void roce_acked(struct nicsim_qp *qp, u32 psn)
{
	struct nicsim_swqe *e;
	bool progress = false;

	/* packets up to @psn arrived, whole WRs or not */
	if (qp->sq_head != qp->sq_next && psn_cmp(psn + 1, qp->una) > 0 &&
	    psn_cmp(psn + 1, qp->next_psn) <= 0) {
		qp->una = (psn + 1) & ROCE_PSN_MASK;
		progress = true;
	}

	while (qp->sq_head != qp->sq_next) {
		e = &qp->sq[qp->sq_head % qp->sq_depth];
		if (e->wr.opcode == NICPROG_WR_READ ||
		    psn_cmp(psn, e->psn + e->npkts - 1) < 0)
			break;
		if (e->wr.flags & NICPROG_WR_SIGNALED)
			roce_complete(qp, &e->wr, NICPROG_WC_SUCCESS, e->wr.len,
				      false, 0);
		qp->sq_head++;
		progress = true;
	}
	if (progress) {
		qp->retries = 0;
		if (qp->sq_head == qp->sq_tail)
			del_timer(&qp->rto);
		else
			mod_timer(&qp->rto, jiffies + qp->timeout);
	}
}

/*
 * The PSN the send queue waits on: the first packet not acknowledged,
 * within its oldest WR. Lock held, a WR sent.
 */
static u32 roce_una(struct nicsim_qp *qp)
{
	const struct nicsim_swqe *e = &qp->sq[qp->sq_head % qp->sq_depth];

	/*
	 * A READ waits on its next response, whatever later PSNs were
	 * acknowledged: the peer answered it, but the answer was lost.
	 */
	if (e->wr.opcode == NICPROG_WR_READ)
		return e->psn + qp->read_off / qp->mtu;
	return psn_cmp(qp->una, e->psn) > 0 ? qp->una : e->psn;
}

static void roce_rto(struct timer_list *t)
{
	struct nicsim_qp *qp = from_timer(qp, t, rto);

	spin_lock_bh(&qp->lock);
	if (qp->state == QP_RTS && qp->sq_head != qp->sq_next) {
		/* an RNR wait is not a loss: as rnr_retry 7, no limit */
		if (!qp->rnr && ++qp->retries > qp->retry_cnt) {
			roce_qp_error(qp, NICPROG_WC_RETRY_EXC_ERR);
		} else {
			if (!qp->rnr)
				atomic64_inc(&qp->port->roce_retransmits);
			qp->rnr = false;
			roce_push(qp, roce_una(qp));
			/*
			 * backing off, as TCP's timer does: a peer slower than
			 * the timeout is not flooded with resends of resends
			 */
			mod_timer(&qp->rto, jiffies +
				  (qp->timeout << min(qp->retries, 4U)));
		}
	}
	spin_unlock_bh(&qp->lock);
}

/* An ACK, NAK or READ response for the requester. Lock held, RCU held. */
static void roce_rx_response(struct nicsim_qp *qp, const struct roce_pkt *p)
{
	struct nicsim_swqe *e;
	struct nicsim_mr *mr;
	u8 type = p->syndrome >> 5;
	u64 off;

	if (p->opcode == RC_ACK || p->aeth) {
		if (type == 0) {
			roce_acked(qp, p->opcode == RC_ACK ? p->psn :
				   p->psn - 1);
		} else if (type == 1) {		/* RNR NAK: again, shortly */
			roce_acked(qp, p->psn - 1);
			qp->rnr = true;
			mod_timer(&qp->rto, jiffies + msecs_to_jiffies(1));
		} else if (p->syndrome == AETH_NAK_SEQ) {
			roce_acked(qp, p->psn - 1);
			atomic64_inc(&qp->port->roce_retransmits);
			roce_push(qp, p->psn);
		} else if (type == 3) {
			roce_acked(qp, p->psn - 1);
			roce_qp_error(qp, p->syndrome == AETH_NAK_ACCESS ?
				      NICPROG_WC_REM_ACCESS_ERR :
				      p->syndrome == AETH_NAK_INV ?
				      NICPROG_WC_REM_INV_REQ_ERR :
				      NICPROG_WC_REM_OP_ERR);
			return;
		}
	}
	if (p->opcode < RC_READ_RESP_FIRST || p->opcode > RC_READ_RESP_ONLY ||
	    qp->sq_head == qp->sq_next)
		return;
	e = &qp->sq[qp->sq_head % qp->sq_depth];
	if (e->wr.opcode != NICPROG_WR_READ ||
	    psn_cmp(p->psn, e->psn) < 0 ||
	    psn_cmp(p->psn, e->psn + e->npkts) >= 0)
		return;
	off = (u64)psn_cmp(p->psn, e->psn) * qp->mtu;
	if (off > qp->read_off && !qp->read_gap) {
		/* a response went missing: ask for the rest again, once */
		qp->read_gap = true;
		atomic64_inc(&qp->port->roce_retransmits);
		rcu_read_lock();
		roce_send_wqe(qp, e, qp->read_off / qp->mtu);
		rcu_read_unlock();
		return;
	}
	if (off != qp->read_off || p->len > e->wr.len - qp->read_off)
		return;		/* a late one, or not ours: ignored */
	qp->read_gap = false;
	qp->retries = 0;
	mod_timer(&qp->rto, jiffies + qp->timeout);
	if (p->len) {
		mr = roce_mr(qp->port->ndev, qp->pd, e->wr.lkey,
			     NICPROG_ACCESS_LOCAL_WRITE,
			     e->wr.addr + qp->read_off, p->len);
		if (!mr) {
			roce_qp_error(qp, NICPROG_WC_LOC_PROT_ERR);
			return;
		}
		memcpy(roce_mr_ptr(mr, e->wr.addr + qp->read_off), p->data,
		       p->len);
	}
	qp->read_off += p->len;
	if (p->opcode == RC_READ_RESP_LAST || p->opcode == RC_READ_RESP_ONLY) {
		if (qp->read_off != e->wr.len) {
			roce_qp_error(qp, NICPROG_WC_LOC_LEN_ERR);
			return;
		}
		if (e->wr.flags & NICPROG_WR_SIGNALED)
			roce_complete(qp, &e->wr, NICPROG_WC_SUCCESS,
				      e->wr.len, false, 0);
		qp->sq_head++;
		qp->read_off = 0;
		qp->read_gap = false;
		qp->retries = 0;
		/*
		 * later WRs may have been ACKed while the READ held the
		 * head: retire them up to what was acknowledged
		 */
		roce_acked(qp, p->psn);
		roce_acked(qp, qp->una - 1);
		if (qp->sq_head == qp->sq_tail)
			del_timer(&qp->rto);
		else if (qp->sq_next != qp->sq_tail)
			roce_push(qp, qp->next_psn);	/* a READ may go now */
	}
}

/* Answer a READ request: its responses from @p->psn. Lock, RCU held. */
static u8 roce_read_respond(struct nicsim_qp *qp, const struct roce_pkt *p)
{
	struct nicsim_mr *mr = NULL;
	struct roce_pkt r = {};
	u32 i, n = roce_npkts(qp, p->dmalen);

	if (p->dmalen) {
		mr = roce_mr(qp->port->ndev, qp->pd, p->rkey,
			     NICPROG_ACCESS_REMOTE_READ, p->va, p->dmalen);
		if (!mr)
			return AETH_NAK_ACCESS;
	}
	for (i = 0; i < n; i++) {
		memset(&r, 0, sizeof(r));
		r.psn = p->psn + i;
		r.len = min(p->dmalen - i * qp->mtu, qp->mtu);
		r.data = r.len ? roce_mr_ptr(mr, p->va + i * qp->mtu) : NULL;
		r.opcode = n == 1 ? RC_READ_RESP_ONLY :
			   i == 0 ? RC_READ_RESP_FIRST :
			   i == n - 1 ? RC_READ_RESP_LAST : RC_READ_RESP_MIDDLE;
		if (r.opcode != RC_READ_RESP_MIDDLE) {
			r.aeth = true;
			r.syndrome = AETH_ACK;
			r.msn = qp->msn;
		}
		roce_send(qp, &r);
	}
	return 0;
}

/*
 * A request in PSN order: 0 when taken, else the NAK's syndrome (an RNR
 * NAK takes nothing). Lock held, RCU held.
 */
static u8 roce_rx_request(struct nicsim_qp *qp, const struct roce_pkt *p)
{
	struct nicsim_dev *ndev = qp->port->ndev;
	struct nicprog_rdma_wr *rwr = NULL;
	u8 op = p->opcode, syn;
	struct nicsim_mr *mr;
	bool last;

	if (op <= RC_SEND_ONLY_IMM || op == RC_WRITE_LAST_IMM ||
	    op == RC_WRITE_ONLY_IMM) {
		if (qp->rq_head == qp->rq_tail)
			return AETH_RNR_NAK | 1;
		rwr = &qp->rq[qp->rq_head % qp->rq_depth];
	}
	/* a message is at most the engine's largest: so is a burst of READ responses */
	if (p->reth && p->dmalen > NICPROG_RDMA_MSG_MAX)
		return AETH_NAK_INV;
	if (op == RC_READ_REQ) {
		syn = roce_read_respond(qp, p);
		if (!syn) {
			qp->epsn = (qp->epsn + roce_npkts(qp, p->dmalen)) &
				   ROCE_PSN_MASK;
			qp->msn++;
		}
		return syn;
	}
	if (op <= RC_SEND_ONLY_IMM) {
		if ((op == RC_SEND_FIRST || op >= RC_SEND_ONLY) &&
		    qp->recv_off)
			return AETH_NAK_INV;
		if ((op == RC_SEND_MIDDLE || op == RC_SEND_LAST ||
		     op == RC_SEND_LAST_IMM) && !qp->recv_off)
			return AETH_NAK_INV;
		if (p->len > rwr->len - qp->recv_off)
			goto rq_error;
		if (p->len) {
			mr = roce_mr(ndev, qp->pd, rwr->lkey,
				     NICPROG_ACCESS_LOCAL_WRITE,
				     rwr->addr + qp->recv_off, p->len);
			if (!mr)
				goto rq_error;
			memcpy(roce_mr_ptr(mr, rwr->addr + qp->recv_off),
			       p->data, p->len);
		}
		qp->recv_off += p->len;
		last = op != RC_SEND_FIRST && op != RC_SEND_MIDDLE;
		if (last) {
			rwr->opcode = NICPROG_WR_RECV;
			roce_complete(qp, rwr, NICPROG_WC_SUCCESS, qp->recv_off,
				      p->imm, p->immdt);
			qp->rq_head++;
			qp->recv_off = 0;
			qp->msn++;
		}
		qp->epsn = (qp->epsn + 1) & ROCE_PSN_MASK;
		return 0;
	}
	/* RDMA WRITE */
	if (op == RC_WRITE_FIRST || op == RC_WRITE_ONLY ||
	    op == RC_WRITE_ONLY_IMM) {
		if (qp->wr_left)
			return AETH_NAK_INV;
		if (!roce_mr(ndev, qp->pd, p->rkey, NICPROG_ACCESS_REMOTE_WRITE,
			     p->va, p->dmalen))
			return AETH_NAK_ACCESS;
		qp->wr_key = p->rkey;
		qp->wr_va = p->va;
		qp->wr_left = p->dmalen;
		qp->wr_len = p->dmalen;
	} else if (op > RC_WRITE_ONLY_IMM) {
		return AETH_NAK_INV;
	}
	if (p->len > qp->wr_left ||
	    ((op == RC_WRITE_LAST || op == RC_WRITE_LAST_IMM ||
	      op == RC_WRITE_ONLY || op == RC_WRITE_ONLY_IMM) &&
	     p->len != qp->wr_left))
		return AETH_NAK_INV;
	if (p->len) {
		mr = roce_mr(ndev, qp->pd, qp->wr_key,
			     NICPROG_ACCESS_REMOTE_WRITE, qp->wr_va, p->len);
		if (!mr)
			return AETH_NAK_ACCESS;
		memcpy(roce_mr_ptr(mr, qp->wr_va), p->data, p->len);
	}
	qp->wr_va += p->len;
	qp->wr_left -= p->len;
	if (op == RC_WRITE_LAST || op == RC_WRITE_LAST_IMM ||
	    op == RC_WRITE_ONLY || op == RC_WRITE_ONLY_IMM) {
		qp->msn++;
		if (rwr) {
			rwr->opcode = NICPROG_WR_WRITE_IMM;
			roce_complete(qp, rwr, NICPROG_WC_SUCCESS, qp->wr_len,
				      true, p->immdt);
			qp->rq_head++;
		}
	}
	qp->epsn = (qp->epsn + 1) & ROCE_PSN_MASK;
	return 0;

rq_error:
	rwr->opcode = NICPROG_WR_RECV;
	roce_complete(qp, rwr, NICPROG_WC_LOC_LEN_ERR, 0, false, 0);
	qp->rq_head++;
	qp->recv_off = 0;
	return AETH_NAK_INV;
}

/* Parse the headers after the BTH into @p; false if it is too short. */
static bool roce_parse(struct roce_pkt *p, const u8 *bth, u32 len)
{
	u8 op = bth[0], pad = (bth[1] >> 4) & 3;
	u32 hl = 12;

	p->opcode = op;
	p->ackreq = bth[8] & 0x80;
	p->psn = get_unaligned_be32(bth + 8) & ROCE_PSN_MASK;
	p->reth = op == RC_WRITE_FIRST || op == RC_WRITE_ONLY ||
		  op == RC_WRITE_ONLY_IMM || op == RC_READ_REQ;
	p->aeth = op == RC_ACK || op == RC_READ_RESP_FIRST ||
		  op == RC_READ_RESP_LAST || op == RC_READ_RESP_ONLY;
	p->imm = op == RC_SEND_LAST_IMM || op == RC_SEND_ONLY_IMM ||
		 op == RC_WRITE_LAST_IMM || op == RC_WRITE_ONLY_IMM;
	if (op > RC_ACK)
		return false;
	if (len < hl + (p->reth ? 16 : 0) + (p->aeth ? 4 : 0) +
		  (p->imm ? 4 : 0) + pad)
		return false;
	if (p->reth) {
		p->va = get_unaligned_be64(bth + hl);
		p->rkey = get_unaligned_be32(bth + hl + 8);
		p->dmalen = get_unaligned_be32(bth + hl + 12);
		hl += 16;
	}
	if (p->aeth) {
		p->syndrome = bth[hl];
		p->msn = get_unaligned_be32(bth + hl) & ROCE_PSN_MASK;
		hl += 4;
	}
	if (p->imm) {
		p->immdt = get_unaligned_be32(bth + hl);
		hl += 4;
	}
	p->data = bth + hl;
	p->len = len - hl - pad;
	return true;
}

/* A frame for @qp. BH disabled, RCU held. */
static void roce_qp_rx(struct nicsim_qp *qp, struct roce_pkt *p)
{
	s32 d;
	u8 syn;

	spin_lock(&qp->lock);
	if (qp->state != QP_RTS)
		goto out;
	if (p->opcode >= RC_READ_RESP_FIRST) {
		roce_rx_response(qp, p);
		goto out;
	}
	d = psn_cmp(p->psn, qp->epsn);
	if (d < 0) {
		/* a duplicate: the peer missed our answer */
		atomic64_inc(&qp->port->roce_duplicates);
		if (p->opcode == RC_READ_REQ && p->dmalen <= NICPROG_RDMA_MSG_MAX)
			roce_read_respond(qp, p);
		else if (p->ackreq)
			roce_ack(qp, AETH_ACK, qp->epsn - 1);
		goto out;
	}
	if (d > 0) {
		atomic64_inc(&qp->port->roce_seq_errors);
		if (!qp->nak)
			roce_ack(qp, AETH_NAK_SEQ, qp->epsn);
		qp->nak = true;
		goto out;
	}
	qp->nak = false;
	syn = roce_rx_request(qp, p);
	if (syn) {
		if ((syn >> 5) == 3)
			atomic64_inc(&qp->port->roce_naks);
		roce_ack(qp, syn, qp->epsn);
	} else if (p->ackreq && p->opcode != RC_READ_REQ) {
		roce_ack(qp, AETH_ACK, p->psn);
	}
out:
	spin_unlock(&qp->lock);
}

/* The port's QP a RoCEv2 frame at its Ethernet header is for, or NULL. */
static struct nicsim_qp *roce_classify(struct nicsim_port *port,
				       const struct sk_buff *skb)
{
	u8 buf[ROCE_HDR_MIN];
	const struct iphdr *iph;
	const struct udphdr *uh;
	struct nicsim_qp *qp;
	const u8 *h, *bth;

	/* the headers only: a frame that is not the engine's stays as it is */
	if (skb->len < ROCE_HDR_MIN + 4)
		return NULL;
	h = skb_header_pointer(skb, 0, sizeof(buf), buf);
	if (!h || ((const struct ethhdr *)h)->h_proto != htons(ETH_P_IP))
		return NULL;
	iph = (const struct iphdr *)(h + ETH_HLEN);
	uh = (const struct udphdr *)(iph + 1);
	if (iph->ihl != 5 || iph->version != 4 ||
	    iph->protocol != IPPROTO_UDP || uh->dest != htons(ROCE_UDP_PORT) ||
	    ip_is_fragment(iph))
		return NULL;
	bth = (const u8 *)(uh + 1);
	qp = xa_load(&port->qps, get_unaligned_be32(bth + 4) & ROCE_PSN_MASK);
	return qp && qp->saddr == iph->daddr ? qp : NULL;
}

/**
 * nicsim_roce_rx() - the classifier: a frame from the wire for the engine
 * @port: the port it came in on
 * @skb: the frame, at its Ethernet header
 *
 * The engine's frames wait in its own queue for its NAPI instance: a
 * frame the engine sends may reach another engine at once (an unshaped
 * wire delivers in the sender's context), which must not answer inside
 * its peer's send.
 *
 * Context: BH disabled, RCU held.
 * Return: true if the engine took the frame (it is consumed).
 */
bool nicsim_roce_rx(struct nicsim_port *port, struct sk_buff *skb)
{
	if (xa_empty(&port->qps) || !roce_classify(port, skb))
		return false;
	/* the engine's: it reads the frame whole */
	if (skb_linearize(skb)) {
		atomic64_inc(&port->roce_rx_drops);
		kfree_skb(skb);
		return true;
	}
	spin_lock(&port->roce_rxq.lock);
	if (skb_queue_len(&port->roce_rxq) < NICSIM_ROCE_RXQ) {
		__skb_queue_tail(&port->roce_rxq, skb);
		skb = NULL;
	}
	spin_unlock(&port->roce_rxq.lock);
	if (skb) {
		atomic64_inc(&port->roce_rx_drops);
		kfree_skb(skb);
	} else {
		napi_schedule(&port->roce_napi);
	}
	return true;
}

/* A frame the classifier took. BH disabled, RCU held. */
static void roce_frame(struct nicsim_port *port, struct sk_buff *skb)
{
	const struct iphdr *iph = (const struct iphdr *)(skb->data + ETH_HLEN);
	const struct udphdr *uh = (const struct udphdr *)(iph + 1);
	struct roce_pkt p = {};
	struct nicsim_qp *qp;
	u32 len;

	/* looked up again: it may have gone while the frame waited */
	qp = roce_classify(port, skb);
	if (!qp)
		return;
	len = ntohs(iph->tot_len);
	if (len < 20 + 8 + 12 + 4 || len > skb->len - ETH_HLEN ||
	    ntohs(uh->len) != len - 20 || iph->saddr != qp->daddr) {
		atomic64_inc(&port->roce_malformed);
		return;
	}
	if (get_unaligned_le32((u8 *)iph + len - 4) !=
	    roce_icrc((u8 *)iph, len - 4)) {
		atomic64_inc(&port->roce_icrc_errors);
		return;
	}
	if (!roce_parse(&p, (const u8 *)(uh + 1), len - 20 - 8 - 4)) {
		atomic64_inc(&port->roce_malformed);
		return;
	}
	atomic64_inc(&port->roce_rx);
	roce_qp_rx(qp, &p);
}

/**
 * nicsim_roce_poll() - the engine's NAPI instance: its queued frames
 * @napi: the port's roce_napi
 * @budget: frames at most
 *
 * Return: frames taken.
 */
int nicsim_roce_poll(struct napi_struct *napi, int budget)
{
	struct nicsim_port *port = container_of(napi, struct nicsim_port,
						roce_napi);
	struct sk_buff *skb;
	int done = 0;

	rcu_read_lock();
	while (done < budget && (skb = skb_dequeue(&port->roce_rxq))) {
		roce_frame(port, skb);
		consume_skb(skb);
		done++;
	}
	rcu_read_unlock();
	if (done < budget)
		napi_complete_done(napi, done);
	return done;
}

/* The next doorbell's WQEs are fetched: send them. */
static enum hrtimer_restart roce_db_timer(struct hrtimer *t)
{
	struct nicsim_qp *qp = container_of(t, struct nicsim_qp, db);

	spin_lock(&qp->lock);
	roce_push(qp, qp->next_psn);
	spin_unlock(&qp->lock);
	return HRTIMER_NORESTART;
}

static void *nicsim_qp_create(struct nicprog_dev *nd, void *pd, void *cq,
			      struct nicprog_rdma_qp_attr *attr)
{
	struct nicsim_port *port = nicprog_dev_priv(nd);
	const struct nicprog_lnic_unit *dma;
	struct nicsim_qp *qp;
	u32 qpn;
	int err;

	qp = kzalloc(sizeof(*qp), GFP_KERNEL_ACCOUNT);
	if (!qp)
		return ERR_PTR(-ENOMEM);
	qp->sq = kvcalloc(attr->sq_depth, sizeof(*qp->sq), GFP_KERNEL_ACCOUNT);
	qp->rq = kvcalloc(attr->rq_depth, sizeof(*qp->rq), GFP_KERNEL_ACCOUNT);
	if (!qp->sq || !qp->rq) {
		err = -ENOMEM;
		goto err_free;
	}
	qp->port = port;
	qp->pd = pd;
	qp->cq = cq;
	qp->sq_depth = attr->sq_depth;
	qp->rq_depth = attr->rq_depth;
	qp->saddr = attr->saddr;
	spin_lock_init(&qp->lock);
	timer_setup(&qp->rto, roce_rto, 0);
	hrtimer_init(&qp->db, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	qp->db.function = roce_db_timer;
	/* a copy: the LNIC may be replaced while the QP lives */
	mutex_lock(&port->ndev->lnic_lock);
	dma = nicsim_dma_unit(port->ndev->lnic, U32_MAX);
	if (dma) {
		qp->dma = *dma;
		qp->dma.name = NULL;
		qp->has_dma = true;
	}
	mutex_unlock(&port->ndev->lnic_lock);
	/* QPNs 0 and 1 are special in InfiniBand: from 0x11, as rxe */
	err = xa_alloc_cyclic(&port->qps, &qpn, qp,
			      XA_LIMIT(0x11, ROCE_PSN_MASK), &port->qpn_next,
			      GFP_KERNEL_ACCOUNT);
	if (err < 0)
		goto err_free;
	qp->qpn = qpn;
	qp->sport = 0xc000 | (qpn & 0x3fff);
	attr->qpn = qpn;
	return qp;

err_free:
	kvfree(qp->sq);
	kvfree(qp->rq);
	kfree(qp);
	return ERR_PTR(err);
}

static int nicsim_qp_connect(void *q, const struct nicprog_rdma_conn *c)
{
	struct nicsim_qp *qp = q;
	int err = 0;

	spin_lock_bh(&qp->lock);
	if (qp->state != QP_INIT) {
		err = -EBUSY;
	} else {
		qp->dest_qpn = c->dest_qpn;
		qp->epsn = c->rq_psn;
		qp->next_psn = c->sq_psn;
		qp->una = c->sq_psn;
		qp->mtu = c->mtu;
		qp->timeout = max(msecs_to_jiffies(c->timeout_ms), 1UL);
		qp->retry_cnt = c->retry_cnt;
		qp->max_rd = c->max_rd_atomic;
		qp->daddr = c->daddr;
		ether_addr_copy(qp->dmac, c->dmac);
		qp->state = QP_RTS;
	}
	spin_unlock_bh(&qp->lock);
	return err;
}

static void nicsim_qp_destroy(void *q)
{
	struct nicsim_qp *qp = q;

	xa_erase(&qp->port->qps, qp->qpn);
	spin_lock_bh(&qp->lock);
	qp->state = QP_DEAD;
	spin_unlock_bh(&qp->lock);
	/* no frame finds it once readers are done; no timer runs after */
	synchronize_rcu();
	/* neither re-arms the other once the QP is dead (roce_push()) */
	hrtimer_cancel(&qp->db);
	del_timer_sync(&qp->rto);
	kvfree(qp->sq);
	kvfree(qp->rq);
	kfree(qp);
}

static int nicsim_post(void *q, const struct nicprog_rdma_wr *wr, u32 n)
{
	struct nicsim_qp *qp = q;
	u32 i, ns = 0, nr = 0;
	u64 ready = 0;
	int err = 0;

	for (i = 0; i < n; i++)
		if (wr[i].opcode == NICPROG_WR_RECV)
			nr++;
		else
			ns++;
	local_bh_disable();
	spin_lock(&qp->lock);
	if (qp->state == QP_DEAD || qp->state == QP_ERR) {
		err = -EINVAL;
	} else if ((ns && qp->state != QP_RTS) ||
		   qp->sq_tail - qp->sq_head + ns > qp->sq_depth ||
		   qp->rq_tail - qp->rq_head + nr > qp->rq_depth) {
		err = ns && qp->state != QP_RTS ? -EINVAL : -ENOSPC;
	} else {
		/*
		 * The doorbell: the NIC fetches its WQEs from host memory with
		 * a DMA engine, one transfer for the batch, and sends none
		 * before it has them (a batch pays the round trip once)
		 */
		if (ns && qp->has_dma) {
			ready = nicsim_dma_reserve(qp->port->ndev, &qp->dma,
						   ns * ROCE_WQE_BYTES);
			ready = max(ready, qp->db_ready);
			qp->db_ready = ready;
		}
		for (i = 0; i < n; i++) {
			if (wr[i].opcode == NICPROG_WR_RECV) {
				qp->rq[qp->rq_tail++ % qp->rq_depth] = wr[i];
				continue;
			}
			qp->sq[qp->sq_tail % qp->sq_depth] =
				(struct nicsim_swqe){ .wr = wr[i],
						      .ready = ready };
			qp->sq_tail++;
		}
		if (ns)
			roce_push(qp, qp->next_psn);
	}
	spin_unlock(&qp->lock);
	local_bh_enable();
	return err;
}

static void *nicsim_mr_reg(struct nicprog_nic *nic, void *pd, void *buf,
			   u64 offset, u64 len, u64 iova, u32 access,
			   u32 *lkey, u32 *rkey)
{
	struct nicsim_dev *ndev = nicprog_nic_priv(nic);
	struct nicsim_buf *b = buf;
	struct nicsim_mr *mr;
	u32 idx;
	int err;

	mr = kzalloc(sizeof(*mr), GFP_KERNEL_ACCOUNT);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->pd = pd;
	mr->access = access;
	mr->iova = iova;
	mr->len = len;
	mr->base = b->data + offset;
	err = xa_alloc_cyclic(&ndev->mrs, &idx, NULL, XA_LIMIT(1, 0xffffff),
			      &ndev->mr_next, GFP_KERNEL_ACCOUNT);
	if (err < 0) {
		kfree(mr);
		return ERR_PTR(err);
	}
	/* a key's low byte varies, so a stale key misses a new region */
	mr->key = idx << 8 | get_random_u8();
	xa_store(&ndev->mrs, idx, mr, GFP_KERNEL_ACCOUNT);
	*lkey = mr->key;
	*rkey = mr->key;
	return mr;
}

static void nicsim_mr_dereg(struct nicprog_nic *nic, void *m)
{
	struct nicsim_dev *ndev = nicprog_nic_priv(nic);
	struct nicsim_mr *mr = m;

	xa_erase(&ndev->mrs, mr->key >> 8);
	/* an access under RCU may still use it: freed after them */
	kfree_rcu(mr, rcu);
}

/**
 * nicsim_roce_show() - a port's engine counters, for debugfs
 * @m: the file
 * @port: the port
 */
void nicsim_roce_show(struct seq_file *m, struct nicsim_port *port)
{
	seq_printf(m, "p%u roce_rx %lld roce_tx %lld rx_drops %lld icrc_errors %lld malformed %lld retransmits %lld duplicates %lld seq_errors %lld naks %lld qp_errors %lld\n",
		   port->index, atomic64_read(&port->roce_rx),
		   atomic64_read(&port->roce_tx),
		   atomic64_read(&port->roce_rx_drops),
		   atomic64_read(&port->roce_icrc_errors),
		   atomic64_read(&port->roce_malformed),
		   atomic64_read(&port->roce_retransmits),
		   atomic64_read(&port->roce_duplicates),
		   atomic64_read(&port->roce_seq_errors),
		   atomic64_read(&port->roce_naks),
		   atomic64_read(&port->roce_qp_errors));
}

const struct nicprog_rdma_ops nicsim_rdma_ops = {
	.qp_create	= nicsim_qp_create,
	.qp_connect	= nicsim_qp_connect,
	.qp_destroy	= nicsim_qp_destroy,
	.mr_reg		= nicsim_mr_reg,
	.mr_dereg	= nicsim_mr_dereg,
	.post		= nicsim_post,
};
