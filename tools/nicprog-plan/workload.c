// SPDX-License-Identifier: GPL-2.0
/*
 * Workloads: the text format, its seeded expansion into frames, and the
 * classes frames fall in (capture files: pcap.c).
 *
 *   workload NAME
 *   seed N
 *   frames N
 *   flows N [uniform | zipf S]
 *   mix CLASS WEIGHT [CLASS WEIGHT ...]   (tcp_syn tcp udp icmp arp)
 *   sizes LEN WEIGHT [LEN WEIGHT ...]     (60 to 1514 bytes)
 *   rate KPPS                             (0: as fast as the NIC takes them)
 *   replies PCT                           (0 to 100; 0 if absent)
 *
 * A flow is a source (10.128.0.0/9, one address per flow) with a source
 * port, a destination and a destination port, all fixed by the flow's
 * number; destinations and ports come from small sets that the example
 * NFs' tables name (routes, protected destinations, allowed and blocked
 * ports), so that every NF takes its interesting paths. With replies,
 * that share of a flow's TCP frames (not its SYNs) and UDP frames go the
 * other way, from its destination back to its source, addresses and
 * ports swapped, as a connection's answers cross a firewall or a NAT on
 * the same port. The choice has a random stream of its own: the frames are
 * those the workload draws without replies, some of them turned round.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csum.h"
#include "workload.h"

static const char * const class_names[__NP_WL_CLASS_MAX] = {
	[NP_WL_TCP_SYN] = "tcp_syn",
	[NP_WL_TCP] = "tcp",
	[NP_WL_UDP] = "udp",
	[NP_WL_ICMP] = "icmp",
	[NP_WL_ARP] = "arp",
	[NP_WL_OTHER] = "other",
};

static const u32 dsts[] = {
	0x0a000001, 0x0a020304, 0x0a010203, 0x0a010909,
	0xc0a80101, 0x08080808, 0xac100001, 0x0ac80001,
};
static const u16 dports[] = { 80, 53, 443, 22, 8080, 1234, 5353, 9 };

/**
 * np_wl_class_name() - a class's name in workload files and reports
 * @cls: enum np_wl_class
 *
 * Return: the name.
 */
const char *np_wl_class_name(u32 cls)
{
	return cls < __NP_WL_CLASS_MAX ? class_names[cls] : "?";
}

static int parse_u64(const char *s, u64 *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || end == s || *end || *s == '-' ? -1 : 0;
}

static int wl_line(struct np_workload *w, char **tok, int n, char *why,
		   size_t why_len)
{
	u64 v, x;
	double z;
	char *end;
	int i;
	u32 c;

	if (!strcmp(tok[0], "workload") && n == 2) {
		snprintf(w->name, sizeof(w->name), "%s", tok[1]);
	} else if (!strcmp(tok[0], "seed") && n == 2) {
		if (parse_u64(tok[1], &w->seed))
			goto bad;
	} else if (!strcmp(tok[0], "frames") && n == 2) {
		if (parse_u64(tok[1], &v) || !v || v > NP_WL_MAX_FRAMES) {
			snprintf(why, why_len, "frames takes 1 to %u", NP_WL_MAX_FRAMES);
			return -1;
		}
		w->frames = v;
	} else if (!strcmp(tok[0], "flows") && (n == 2 || n == 3 || n == 4)) {
		if (parse_u64(tok[1], &v) || !v || v > NP_WL_MAX_FLOWS) {
			snprintf(why, why_len, "flows takes 1 to %u", NP_WL_MAX_FLOWS);
			return -1;
		}
		w->flows = v;
		w->zipf = 0;
		if (n == 2 || (n == 3 && !strcmp(tok[2], "uniform")))
			return 0;
		if (n != 4 || strcmp(tok[2], "zipf"))
			goto bad;
		z = strtod(tok[3], &end);
		if (*end || end == tok[3] || !(z > 0 && z <= 4)) {
			snprintf(why, why_len, "zipf takes an exponent above 0, at most 4");
			return -1;
		}
		w->zipf = z;
	} else if (!strcmp(tok[0], "mix") && n >= 3 && n % 2) {
		memset(w->mix, 0, sizeof(w->mix));
		for (i = 1; i < n; i += 2) {
			for (c = 0; c < NP_WL_OTHER &&
			     strcmp(tok[i], class_names[c]); c++)
				;
			if (c == NP_WL_OTHER) {
				snprintf(why, why_len, "unknown class %.32s (tcp_syn, tcp, udp, icmp, arp)",
					 tok[i]);
				return -1;
			}
			if (parse_u64(tok[i + 1], &v) || v > 1000000)
				goto bad;
			w->mix[c] = v;
		}
	} else if (!strcmp(tok[0], "sizes") && n >= 3 && n % 2) {
		if ((n - 1) / 2 > NP_WL_MAX_SIZES) {
			snprintf(why, why_len, "at most %u sizes", NP_WL_MAX_SIZES);
			return -1;
		}
		w->n_sizes = 0;
		for (i = 1; i < n; i += 2) {
			if (parse_u64(tok[i], &v) || v < 60 ||
			    v > NP_WL_FRAME_MAX) {
				snprintf(why, why_len, "a size is 60 to %u bytes",
					 NP_WL_FRAME_MAX);
				return -1;
			}
			if (parse_u64(tok[i + 1], &x) || x > 1000000)
				goto bad;
			w->size[w->n_sizes] = v;
			w->size_w[w->n_sizes++] = x;
		}
	} else if (!strcmp(tok[0], "rate") && n == 2) {
		if (parse_u64(tok[1], &w->rate_kpps) || w->rate_kpps > 1000000000)
			goto bad;
	} else if (!strcmp(tok[0], "replies") && n == 2) {
		if (parse_u64(tok[1], &v) || v > 100) {
			snprintf(why, why_len, "replies takes a percentage, 0 to 100");
			return -1;
		}
		w->replies = v;
	} else {
		goto bad;
	}
	return 0;
bad:
	snprintf(why, why_len, "cannot read \"%.32s\" (workload NAME, seed N, frames N, flows N [uniform|zipf S], mix CLASS W ..., sizes LEN W ..., rate KPPS, replies PCT)",
		 tok[0]);
	return -1;
}

/**
 * np_workload_parse() - read a workload's text
 * @text: the text (need not end in NUL)
 * @len: its length
 * @w: the workload
 * @why: on an error, what is wrong, with the line
 * @why_len: size of @why
 *
 * Return: 0, or -1 with @why set.
 */
int np_workload_parse(const char *text, size_t len, struct np_workload *w,
		      char *why, size_t why_len)
{
	char line[512], *tok[2 * NP_WL_MAX_SIZES + 2], *p, *save;
	u64 mix = 0, sizes = 0;
	size_t pos = 0, n;
	u32 lineno = 0, i;
	char msg[200];
	int k;

	memset(w, 0, sizeof(*w));
	snprintf(w->name, sizeof(w->name), "unnamed");
	w->frames = 10000;
	w->flows = 1;
	while (pos < len) {
		lineno++;
		for (n = 0; pos + n < len && text[pos + n] != '\n'; n++)
			;
		if (n >= sizeof(line)) {
			snprintf(why, why_len, "line %u: longer than %zu bytes",
				 lineno, sizeof(line) - 1);
			return -1;
		}
		memcpy(line, text + pos, n);
		line[n] = 0;
		pos += n + 1;
		p = strchr(line, '#');
		if (p)
			*p = 0;
		k = 0;
		for (p = strtok_r(line, " \t\r", &save); p;
		     p = strtok_r(NULL, " \t\r", &save)) {
			if (k == (int)ARRAY_SIZE(tok)) {
				snprintf(why, why_len, "line %u: too many words",
					 lineno);
				return -1;
			}
			tok[k++] = p;
		}
		if (k && wl_line(w, tok, k, msg, sizeof(msg))) {
			snprintf(why, why_len, "line %u: %s", lineno, msg);
			return -1;
		}
	}
	for (i = 0; i < __NP_WL_CLASS_MAX; i++)
		mix += w->mix[i];
	for (i = 0; i < w->n_sizes; i++)
		sizes += w->size_w[i];
	if (!mix || !sizes) {
		snprintf(why, why_len, "a workload needs a mix and sizes with some weight");
		return -1;
	}
	return 0;
}

/* xorshift64*, seeded: the same frames on every machine */
static u32 wl_rnd(u64 *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return (*s * 0x2545f4914f6cdd1dULL) >> 32;
}

static double wl_unit(u64 *s)
{
	return (wl_rnd(s) + 0.5) / 4294967296.0;
}

static u32 wl_pick(u64 *s, const u32 *w, u32 n)
{
	u64 total = 0, r;
	u32 i;

	for (i = 0; i < n; i++)
		total += w[i];
	r = (((u64)wl_rnd(s) << 32) | wl_rnd(s)) % total;
	for (i = 0; i + 1 < n && r >= w[i]; i++)
		r -= w[i];
	return i;
}

static u64 wl_mix64(u64 x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

static void put16(u8 *p, u32 v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void put32(u8 *p, u32 v)
{
	put16(p, v >> 16);
	put16(p + 2, v);
}

/*
 * The same frame the other way: addresses and ports swapped. Neither
 * checksum changes (the IPv4 header's sums the same words; the L4
 * checksums are left 0).
 */
static void wl_reply(u8 *f)
{
	u8 t[4];
	u32 i;

	for (i = 0; i < 4; i++) {
		t[i] = f[26 + i];
		f[26 + i] = f[30 + i];
		f[30 + i] = t[i];
	}
	for (i = 0; i < 2; i++) {
		t[i] = f[34 + i];
		f[34 + i] = f[36 + i];
		f[36 + i] = t[i];
	}
}

/* One frame of class @cls of flow @flow, @len bytes long. */
static void wl_frame(u8 *f, u32 len, u32 cls, u32 flow, u32 idx)
{
	u64 h = wl_mix64(flow);
	u32 i, l4 = 34;

	memset(f, 0, len);
	for (i = 42; i < len; i++)	/* payload: varied, reproducible */
		f[i] = (u8)(idx * 31 + i * 7);
	memcpy(f, "\x02\x00\x00\x00\x00\x01\x02\x00\x00\x00\x00\x02", 12);
	if (cls == NP_WL_ARP) {
		put16(f + 12, 0x0806);
		put16(f + 14, 1);		/* Ethernet */
		put16(f + 16, 0x0800);
		f[18] = 6;
		f[19] = 4;
		put16(f + 20, 1);		/* request */
		memcpy(f + 22, f + 6, 6);
		put32(f + 28, 0x0a800000 | flow);
		put32(f + 38, dsts[h % ARRAY_SIZE(dsts)]);
		return;
	}
	put16(f + 12, 0x0800);
	f[14] = 0x45;
	put16(f + 16, len - 14);
	put16(f + 18, idx);
	put16(f + 20, 0x4000);		/* DF */
	f[22] = 64;
	f[23] = cls == NP_WL_ICMP ? 1 : cls == NP_WL_UDP ? 17 : 6;
	put32(f + 26, 0x0a800000 | flow);
	put32(f + 30, dsts[h % ARRAY_SIZE(dsts)]);
	put16(f + 24, np_inet_csum(f + 14, 20));
	switch (cls) {
	case NP_WL_TCP_SYN:
	case NP_WL_TCP:
		put16(f + l4, 1024 + (h >> 8) % 64000);
		put16(f + l4 + 2, dports[(h >> 32) % ARRAY_SIZE(dports)]);
		put32(f + l4 + 4, idx);
		if (cls == NP_WL_TCP)
			put32(f + l4 + 8, idx / 2);
		f[l4 + 12] = 0x50;
		f[l4 + 13] = cls == NP_WL_TCP_SYN ? 0x02 : 0x18;  /* PSH ACK */
		put16(f + l4 + 14, 65535);
		break;
	case NP_WL_UDP:
		put16(f + l4, 1024 + (h >> 8) % 64000);
		put16(f + l4 + 2, dports[(h >> 32) % ARRAY_SIZE(dports)]);
		put16(f + l4 + 4, len - l4);
		break;
	case NP_WL_ICMP:
		f[l4] = 8;			/* echo request */
		put16(f + l4 + 4, flow);
		put16(f + l4 + 6, idx);
		put16(f + l4 + 2, np_inet_csum(f + l4, len - l4));
		break;
	}
}

/**
 * np_wl_expand() - the frames of a workload
 * @w: the workload
 * @fr: the frames, to free with np_frames_free()
 * @why: on an error, what went wrong
 * @why_len: size of @why
 *
 * Return: 0, or -1 with @why set.
 */
int np_wl_expand(const struct np_workload *w, struct np_frames *fr,
		 char *why, size_t why_len)
{
	double *cdf = NULL, sum = 0, u;
	u64 s = w->seed * 0x9e3779b97f4a7c15ULL + 1, bytes = 0;
	u64 rs = w->seed * 0xbf58476d1ce4e5b9ULL + 2;
	u32 i, cls, flow, len, lo, hi;

	memset(fr, 0, sizeof(*fr));
	for (i = 0; i < w->n_sizes; i++)
		bytes = max_t(u64, bytes, w->size[i]);
	fr->buf = malloc(bytes * w->frames);
	fr->off = calloc(w->frames, sizeof(*fr->off));
	fr->len = calloc(w->frames, sizeof(*fr->len));
	if (w->zipf)
		cdf = malloc(sizeof(*cdf) * w->flows);
	if (!fr->buf || !fr->off || !fr->len || (w->zipf && !cdf)) {
		snprintf(why, why_len, "no memory for %u frames", w->frames);
		free(cdf);
		np_frames_free(fr);
		return -1;
	}
	for (i = 0; cdf && i < w->flows; i++) {
		sum += pow(i + 1, -w->zipf);
		cdf[i] = sum;
	}
	for (i = 0, bytes = 0; i < w->frames; i++) {
		cls = wl_pick(&s, w->mix, __NP_WL_CLASS_MAX);
		len = w->size[wl_pick(&s, w->size_w, w->n_sizes)];
		if (cdf) {
			u = wl_unit(&s) * sum;
			for (lo = 0, hi = w->flows - 1; lo < hi;) {
				if (cdf[(lo + hi) / 2] < u)
					lo = (lo + hi) / 2 + 1;
				else
					hi = (lo + hi) / 2;
			}
			/* popularity rank to flow number: ranks spread out */
			flow = (u32)(((u64)lo * 0x9e3779b1ULL) % w->flows);
		} else {
			flow = wl_rnd(&s) % w->flows;
		}
		fr->off[i] = bytes;
		fr->len[i] = len;
		wl_frame(fr->buf + bytes, len, cls, flow, i);
		/*
		 * From a stream of their own: the frames are those of no
		 * replies, some turned round
		 */
		if (w->replies && (cls == NP_WL_TCP || cls == NP_WL_UDP) &&
		    wl_rnd(&rs) % 100 < w->replies)
			wl_reply(fr->buf + bytes);
		bytes += len;
	}
	fr->n = w->frames;
	free(cdf);
	return 0;
}

/**
 * np_wl_classify() - the class of a frame, from its bytes
 * @f: the frame
 * @len: its length
 *
 * Return: enum np_wl_class.
 */
u32 np_wl_classify(const u8 *f, u32 len)
{
	u32 type, l4;

	if (len < 14)
		return NP_WL_OTHER;
	type = (f[12] << 8) | f[13];
	if (type == 0x0806)
		return NP_WL_ARP;
	if (type != 0x0800 || len < 34 || (f[14] >> 4) != 4)
		return NP_WL_OTHER;
	l4 = 14 + (f[14] & 15) * 4;
	switch (f[23]) {
	case 1:
		return NP_WL_ICMP;
	case 17:
		return NP_WL_UDP;
	case 6:
		if (len < l4 + 14)
			return NP_WL_TCP;
		return (f[l4 + 13] & 0x12) == 0x02 ? NP_WL_TCP_SYN : NP_WL_TCP;
	}
	return NP_WL_OTHER;
}

/**
 * np_frames_free() - free frames
 * @fr: the frames
 */
void np_frames_free(struct np_frames *fr)
{
	free(fr->buf);
	free(fr->off);
	free(fr->len);
	memset(fr, 0, sizeof(*fr));
}
