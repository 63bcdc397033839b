/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Workloads for prediction: an abstract mix (protocol shares, flow count
 * and distribution, frame sizes, offered rate) that expands, seeded, into
 * the same frames wherever it is expanded; or a pcap file. Either way the
 * predictor and a traffic source see the same frames.
 */
#ifndef _NICPROG_PLAN_WORKLOAD_H
#define _NICPROG_PLAN_WORKLOAD_H

#include "compat.h"

#define NP_WL_FRAME_MAX		1514
#define NP_WL_MAX_SIZES		16
#define NP_WL_MAX_FLOWS		(1U << 23)	/* distinct sources in 10.128/9 */
#define NP_WL_MAX_FRAMES	(1U << 22)

/* Packet classes: what a frame is, read from its bytes. */
enum np_wl_class {
	NP_WL_TCP_SYN,
	NP_WL_TCP,
	NP_WL_UDP,
	NP_WL_ICMP,
	NP_WL_ARP,
	NP_WL_OTHER,
	__NP_WL_CLASS_MAX
};

/**
 * struct np_workload - an abstract traffic mix
 * @name: its name
 * @seed: seed of the expansion
 * @frames: how many frames it expands to
 * @flows: distinct flows (5-tuples) the frames are drawn from
 * @zipf: Zipf exponent of the flows' popularity; 0 for uniform
 * @mix: weight of each class (enum np_wl_class; OTHER unused)
 * @n_sizes: entries in @size and @size_w
 * @size: frame lengths (without FCS)
 * @size_w: their weights
 * @rate_kpps: offered rate in thousands of frames per second; 0 for as
 *	fast as the NIC takes them
 * @replies: percentage of TCP (not SYN) and UDP frames that go from the
 *	flow's destination back to its source
 */
struct np_workload {
	char name[32];
	u64 seed;
	u32 frames;
	u32 flows;
	double zipf;
	u32 mix[__NP_WL_CLASS_MAX];
	u32 n_sizes;
	u32 size[NP_WL_MAX_SIZES];
	u32 size_w[NP_WL_MAX_SIZES];
	u64 rate_kpps;
	u32 replies;
};

/**
 * struct np_frames - frames in order, packed
 * @buf: their bytes, one after the other
 * @off: where each starts in @buf
 * @len: each one's length
 * @n: how many
 */
struct np_frames {
	u8 *buf;
	u64 *off;
	u32 *len;
	u32 n;
};

int np_workload_parse(const char *text, size_t len, struct np_workload *w,
		      char *why, size_t why_len);
const char *np_wl_class_name(u32 cls);
u32 np_wl_classify(const u8 *f, u32 len);
int np_wl_expand(const struct np_workload *w, struct np_frames *fr,
		 char *why, size_t why_len);
int np_pcap_read(const char *path, struct np_frames *fr, char *why,
		 size_t why_len);
int np_pcap_write(const char *path, const struct np_frames *fr, char *why,
		  size_t why_len);
void np_frames_free(struct np_frames *fr);

#endif /* _NICPROG_PLAN_WORKLOAD_H */
