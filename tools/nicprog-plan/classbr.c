// SPDX-License-Identifier: GPL-2.0
/*
 * The static bracket per packet class (see classbr.h). The plan's bracket
 * (kernel/offload/bracket.c) holds over any frame: a runt the program
 * drops in five instructions and the longest parse both bound it. A
 * workload says what kinds of frames come; for each kind the program is
 * walked again with the header fields that make the kind known
 * (np_absint_tmpl()), and the bracket is taken over the blocks such a
 * frame can reach. Flows, table contents, payload and everything else the
 * class leaves open stay open: hits and misses, every loop bound and every
 * queue stay in the bracket.
 *
 * A class's fields are those the workload tool writes for it (workload.c)
 * and that define it: the EtherType; for IPv4, version 4 with no options,
 * DF set and no fragment offset, and the protocol; TCP with no options and
 * its flags (SYN alone, or PSH and ACK); ICMP echo request; an ARP
 * request for IPv4 over Ethernet. The frames' lengths are the least and
 * most of the class's frames. Frames given as a pcap are checked against
 * these fields: a class any of whose frames differs in one is not
 * narrowed, and keeps the plan's bracket.
 */
#include <stdlib.h>
#include <string.h>

#include "absint.h"
#include "classbr.h"

struct cb_field {
	u8 at;
	u8 val;
};

/* The bytes that define a class, as the workload tool writes them. */
static u32 cb_fields(u32 cls, struct cb_field *f)
{
	static const struct cb_field arp[] = {
		{ 12, 0x08 }, { 13, 0x06 }, { 14, 0x00 }, { 15, 0x01 },
		{ 16, 0x08 }, { 17, 0x00 }, { 18, 6 }, { 19, 4 },
		{ 20, 0x00 }, { 21, 0x01 },
	};
	static const struct cb_field ip[] = {
		{ 12, 0x08 }, { 13, 0x00 }, { 14, 0x45 }, { 20, 0x40 },
		{ 21, 0x00 },
	};
	u32 n = 0;

	if (cls == NP_WL_ARP) {
		memcpy(f, arp, sizeof(arp));
		return ARRAY_SIZE(arp);
	}
	if (cls == NP_WL_OTHER)
		return 0;
	memcpy(f, ip, sizeof(ip));
	n = ARRAY_SIZE(ip);
	f[n++] = (struct cb_field){ 23, cls == NP_WL_ICMP ? 1 :
					cls == NP_WL_UDP ? 17 : 6 };
	switch (cls) {
	case NP_WL_TCP_SYN:
	case NP_WL_TCP:
		f[n++] = (struct cb_field){ 46, 0x50 };
		f[n++] = (struct cb_field){ 47, cls == NP_WL_TCP_SYN ?
						0x02 : 0x18 };
		break;
	case NP_WL_ICMP:
		f[n++] = (struct cb_field){ 34, 8 };
		f[n++] = (struct cb_field){ 35, 0 };
		break;
	}
	return n;
}

/* The ways out of block @b the walk of @f went. */
static u8 cb_succ(const struct np_facts *f, const struct nicprog_ir_block *b)
{
	const u8 all = NICPROG_BR_SUCC0 | NICPROG_BR_SUCC1;
	const struct bpf_insn *in;
	u32 last = b->end - 1;
	u8 cls, op, t;

	if (last > b->start &&
	    f->insns[last - 1].code == (BPF_LD | BPF_IMM | BPF_DW))
		last--;
	in = &f->insns[last];
	cls = BPF_CLASS(in->code);
	op = BPF_OP(in->code);
	if ((cls != BPF_JMP && cls != BPF_JMP32) || op == BPF_JA ||
	    op == BPF_CALL || op == BPF_EXIT)
		return all;
	t = f->took[last];
	/* a walk pruned on every path into the block's end: either way */
	if (!t || b->n_succ < 2)
		return all;
	/* ir.c: succ[0] the jump's target, succ[1] the next instruction */
	return (t & NP_TOOK_JUMP ? NICPROG_BR_SUCC0 : 0) |
	       (t & NP_TOOK_FALL ? NICPROG_BR_SUCC1 : 0);
}

/*
 * What a frame of @t can run of each block: the block if the walk visits
 * its first instruction, and the ways out the walk took (every block and
 * way, should the walk fail where the program's passed).
 */
static void cb_live(const struct np_object *obj, const struct nicprog_ir *ir,
		    const struct np_pkt_tmpl *t, u8 *live, u32 *n_live)
{
	const u8 all = NICPROG_BR_RUNS | NICPROG_BR_SUCC0 | NICPROG_BR_SUCC1;
	const struct nicprog_ir_block *b;
	struct np_facts f;
	char err[256];
	bool walked;
	u32 i;

	walked = !np_absint_tmpl(obj, t, &f, err, sizeof(err));
	*n_live = 0;
	for (i = 0; i < ir->n_blocks; i++) {
		b = &ir->blocks[i];
		if (!walked || !f.took)
			live[i] = all;
		else if (!f.meta[b->start].visits)
			live[i] = 0;
		else
			live[i] = NICPROG_BR_RUNS | cb_succ(&f, b);
		*n_live += !!live[i];
	}
	if (walked)
		np_facts_free(&f);
}

/**
 * np_class_brackets() - the plan's static bracket per packet class
 * @obj: the object the plan is of
 * @ir: its program
 * @lnic: the NIC
 * @lo: the plan
 * @fr: the workload's frames: which classes come, and their lengths
 * @cb: per enum np_wl_class, set here
 *
 * Return: 0, or -1 on no memory.
 */
int np_class_brackets(const struct np_object *obj,
		      const struct nicprog_ir *ir,
		      const struct nicprog_lnic *lnic,
		      const struct nicprog_layout *lo,
		      const struct np_frames *fr,
		      struct np_class_bracket cb[__NP_WL_CLASS_MAX])
{
	struct cb_field fields[16];
	struct np_pkt_tmpl t;
	const u8 *f;
	u32 i, c, k, n, len;
	int err = -1;
	u8 *live;

	memset(cb, 0, sizeof(*cb) * __NP_WL_CLASS_MAX);
	live = calloc(ir->n_blocks ? ir->n_blocks : 1, sizeof(*live));
	if (!live)
		return -1;
	for (i = 0; i < fr->n; i++) {
		f = fr->buf + fr->off[i];
		len = fr->len[i];
		c = np_wl_classify(f, len);
		if (!cb[c].frames++ || len < cb[c].len_min)
			cb[c].len_min = len;
		cb[c].len_max = max_t(u32, cb[c].len_max, len);
		n = cb_fields(c, fields);
		for (k = 0; k < n; k++)
			if (fields[k].at >= len || f[fields[k].at] != fields[k].val)
				cb[c].differs = true;
	}
	for (c = 0; c < __NP_WL_CLASS_MAX; c++) {
		if (!cb[c].frames)
			continue;
		memset(&t, 0, sizeof(t));
		n = cb[c].differs ? 0 : cb_fields(c, fields);
		for (k = 0; k < n; k++) {
			t.byte[fields[k].at] = fields[k].val;
			t.known[fields[k].at] = 1;
		}
		t.len_min = cb[c].len_min;
		t.len_max = cb[c].len_max;
		cb[c].of_blocks = ir->n_blocks;
		cb_live(obj, ir, &t, live, &cb[c].blocks);
		if (nicprog_bracket_live(ir, lnic, lo, live, &cb[c].br))
			goto out;
	}
	err = 0;
out:
	free(live);
	return err;
}
