// SPDX-License-Identifier: GPL-2.0
/*
 * A run handed over from the NIC to the host (kernel/exec/handover.c):
 * the state round-trips with its pointers rebased into the reader's frame,
 * context and stack; and bytes that lie -- a stale cookie, a handover
 * point the plan does not have, any corrupted or truncated header, a
 * pointer out of bounds -- are refused without a read or write outside
 * the buffers (built with the address sanitizer).
 */
#include "compat.h"
#include <net/nicprog_exec.h>

#include "kselftest_harness.h"

#define BUF	4096
#define HEAD	256
#define COOKIE	0x5eed1234

/* Two handover points; the second carries every kind of value. */
static const struct nicprog_exec_live lv[] = {
	{ .pc = 10, .regs = BIT(0), .slots = 0 },
	{
		.pc = 42,
		.regs = BIT(1) | BIT(2) | BIT(3) | BIT(4) | BIT(6),
		.ptr_regs = BIT(1) | BIT(2) | BIT(4) | BIT(6),
		.slots = BIT_ULL(0) | BIT_ULL(1) | BIT_ULL(63),
		.ptr_slots = BIT_ULL(1),
	},
};

struct side {
	u8 buf[BUF];
	struct nicprog_exec_pkt pkt;
	struct nicprog_exec_ctx ctx;
};

/* A NIC-side run stopped at lv[1], its values of every kind. */
static void nic_run(struct side *n)
{
	u32 i;

	for (i = 0; i < BUF; i++)
		n->buf[i] = i * 7;
	n->pkt = (struct nicprog_exec_pkt){
		.buf = n->buf, .buf_len = BUF, .head_reserved = 40,
		.tail_reserved = 320, .data_meta = HEAD - 8, .data = HEAD,
		.data_end = HEAD + 100, .rx_queue_index = 3,
	};
	memset(&n->ctx, 0xaa, sizeof(n->ctx));
	n->ctx.pc = 42;
	n->ctx.stage = NICPROG_EXEC_STAGE_HOST;
	n->ctx.redirect_ifindex = 9;
	n->ctx.regs[1] = (u64)(uintptr_t)&n->pkt;			/* ctx */
	n->ctx.regs[2] = (u64)(uintptr_t)(n->buf + HEAD + 14);	/* packet */
	n->ctx.regs[3] = 0x123456789abcdefULL;			/* scalar */
	n->ctx.regs[4] = (u64)(uintptr_t)(n->buf + HEAD + 100);	/* end */
	n->ctx.regs[6] = (u64)(uintptr_t)((u8 *)n->ctx.stack + 512 - 16);
	n->ctx.stack[63] = 77;					/* slot 0 */
	n->ctx.stack[62] = (u64)(uintptr_t)(n->buf + HEAD);	/* slot 1 */
	n->ctx.stack[0] = 5;					/* slot 63 */
}

static int encode(struct side *n, u8 *out, u32 size)
{
	return nicprog_exec_state_out(&lv[1], COOKIE, &n->pkt, &n->ctx, out,
				      size);
}

static int decode(const u8 *in, u32 len, struct side *h)
{
	return nicprog_exec_state_in(lv, 2, COOKIE, in, len, h->buf, BUF,
				     &h->pkt, &h->ctx);
}

static bool inside(u64 v, const void *base, u32 len)
{
	return (uintptr_t)v >= (uintptr_t)base &&
	       (uintptr_t)v <= (uintptr_t)base + len;
}

TEST(state_round_trips_with_pointers_rebased)
{
	static struct side n, h;
	static u8 bytes[BUF + 1024];
	int len;

	nic_run(&n);
	ASSERT_EQ(nicprog_exec_state_size(&lv[1], &n.pkt),
		  (u32)encode(&n, bytes, sizeof(bytes)));
	len = encode(&n, bytes, sizeof(bytes));
	memset(&h, 0, sizeof(h));
	ASSERT_EQ(0, decode(bytes, len, &h));
	EXPECT_EQ(42, h.ctx.pc);
	EXPECT_EQ(NICPROG_EXEC_STAGE_HOST, h.ctx.stage);
	EXPECT_EQ(9, h.ctx.redirect_ifindex);
	EXPECT_EQ(3, h.pkt.rx_queue_index);
	EXPECT_EQ(HEAD - 8, h.pkt.data_meta);
	EXPECT_EQ(HEAD, h.pkt.data);
	EXPECT_EQ(HEAD + 100, h.pkt.data_end);
	EXPECT_EQ(40, h.pkt.head_reserved);
	EXPECT_EQ(320, h.pkt.tail_reserved);
	EXPECT_EQ(0, memcmp(h.buf + HEAD - 8, n.buf + HEAD - 8, 108));
	EXPECT_EQ((u64)(uintptr_t)&h.pkt, h.ctx.regs[1]);
	EXPECT_EQ((u64)(uintptr_t)(h.buf + HEAD + 14), h.ctx.regs[2]);
	EXPECT_EQ(0x123456789abcdefULL, h.ctx.regs[3]);
	EXPECT_EQ((u64)(uintptr_t)(h.buf + HEAD + 100), h.ctx.regs[4]);
	EXPECT_EQ((u64)(uintptr_t)((u8 *)h.ctx.stack + 512 - 16),
		  h.ctx.regs[6]);
	EXPECT_EQ(0, h.ctx.regs[5]);		/* not live: not carried */
	EXPECT_EQ((u64)(uintptr_t)(h.ctx.stack + 64), h.ctx.regs[10]);
	EXPECT_EQ(77, h.ctx.stack[63]);
	EXPECT_EQ((u64)(uintptr_t)(h.buf + HEAD), h.ctx.stack[62]);
	EXPECT_EQ(5, h.ctx.stack[0]);
	EXPECT_EQ(0, h.ctx.stack[1]);
}

TEST(writer_refuses_what_it_cannot_carry)
{
	static struct side n;
	static u8 bytes[BUF + 1024];
	u32 size;

	nic_run(&n);
	size = nicprog_exec_state_size(&lv[1], &n.pkt);
	EXPECT_EQ(-ENOSPC, encode(&n, bytes, size - 1));
	n.ctx.regs[2] = 0x1000;		/* a "pointer" into nothing known */
	EXPECT_EQ(-EFAULT, encode(&n, bytes, sizeof(bytes)));
}

TEST(reader_refuses_other_plans_and_points)
{
	static struct side n, h;
	static u8 bytes[BUF + 1024];
	int len;

	nic_run(&n);
	len = encode(&n, bytes, sizeof(bytes));
	EXPECT_EQ(-ESTALE, nicprog_exec_state_in(lv, 2, COOKIE + 1, bytes, len,
						 h.buf, BUF, &h.pkt, &h.ctx));
	/* a plan without the point */
	EXPECT_EQ(-EINVAL, nicprog_exec_state_in(lv, 1, COOKIE, bytes, len,
						 h.buf, BUF, &h.pkt, &h.ctx));
	/* a reader whose buffer is smaller than the NIC's */
	EXPECT_EQ(-EINVAL, nicprog_exec_state_in(lv, 2, COOKIE, bytes, len,
						 h.buf, BUF / 2, &h.pkt,
						 &h.ctx));
}

/*
 * Every truncation, every byte of the header and values flipped, and
 * random corruption: refused, or accepted with every pointer inside the
 * reader's buffers (and, under ASan, no access outside them).
 */
TEST(reader_survives_corrupt_bytes)
{
	static struct side n, h;
	static u8 good[BUF + 1024], bad[BUF + 1024];
	u32 i, k, accepted = 0, refused = 0, seed = 1;
	int len, err;

	nic_run(&n);
	len = encode(&n, good, sizeof(good));
	for (i = 0; i < (u32)len; i++)
		ASSERT_NE(0, decode(good, i, &h));
	for (k = 0; k < 20000; k++) {
		memcpy(bad, good, len);
		if (k < 160) {
			bad[k % 160] ^= 1 << (k % 8);
		} else {
			for (i = 0; i < 1 + k % 4; i++) {
				seed = seed * 1103515245 + 12345;
				bad[(seed >> 8) % 160] = seed >> 24;
			}
		}
		err = decode(bad, len, &h);
		if (err) {
			ASSERT_TRUE(err == -EINVAL || err == -ESTALE);
			refused++;
			continue;
		}
		accepted++;
		ASSERT_TRUE(h.pkt.data_end <= h.pkt.buf_len);
		for (i = 0; i < 10; i++)
			if (lv[1].ptr_regs & BIT(i))
				ASSERT_TRUE(inside(h.ctx.regs[i], h.buf, BUF) ||
					    inside(h.ctx.regs[i], h.ctx.stack, 512) ||
					    h.ctx.regs[i] == (u64)(uintptr_t)&h.pkt);
	}
	/* flipped scalar bits are accepted, flipped header bits refused */
	EXPECT_GT(accepted, 0);
	EXPECT_GT(refused, 0);
}

TEST_HARNESS_MAIN
