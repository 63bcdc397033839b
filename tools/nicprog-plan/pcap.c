// SPDX-License-Identifier: GPL-2.0
/*
 * Frames to and from capture files, through libpcap: it reads classic
 * pcap in either byte order and time stamp precision and pcapng (its
 * first interface's link type), and writes classic pcap.
 */
#include <errno.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

/**
 * np_pcap_write() - write frames to a pcap file
 * @path: the file
 * @fr: the frames; frame i gets the time stamp i microseconds
 * @why: on an error, what went wrong
 * @why_len: size of @why
 *
 * Return: 0, or -1 with @why set.
 */
int np_pcap_write(const char *path, const struct np_frames *fr, char *why,
		  size_t why_len)
{
	struct pcap_pkthdr h = { 0 };
	pcap_dumper_t *d;
	pcap_t *p;
	u32 i;
	int err = 0;

	p = pcap_open_dead(DLT_EN10MB, 65535);
	if (!p) {
		snprintf(why, why_len, "%s: no memory", path);
		return -1;
	}
	d = pcap_dump_open(p, path);
	if (!d) {
		snprintf(why, why_len, "%s", pcap_geterr(p));
		pcap_close(p);
		return -1;
	}
	for (i = 0; i < fr->n; i++) {
		h.ts.tv_sec = i / 1000000;
		h.ts.tv_usec = i % 1000000;
		h.caplen = fr->len[i];
		h.len = fr->len[i];
		pcap_dump((u_char *)d, &h, fr->buf + fr->off[i]);
	}
	/* pcap_dump() reports nothing: a write error shows at the flush */
	if (pcap_dump_flush(d) || ferror(pcap_dump_file(d))) {
		snprintf(why, why_len, "%s: %s", path, strerror(errno));
		err = -1;
	}
	pcap_dump_close(d);
	pcap_close(p);
	return err;
}

/* Room for one more frame of @len bytes in @fr, whose buffer holds @cap. */
static int frames_grow(struct np_frames *fr, u64 used, u32 len, u64 *cap,
		       u32 *n_cap)
{
	void *p;

	if (used + len > *cap) {
		*cap = max_t(u64, 2 * *cap, 1 << 20);
		p = realloc(fr->buf, *cap);
		if (!p)
			return -1;
		fr->buf = p;
	}
	if (fr->n == *n_cap) {
		*n_cap = max_t(u32, 2 * *n_cap, 1024);
		p = realloc(fr->off, *n_cap * sizeof(*fr->off));
		if (!p)
			return -1;
		fr->off = p;
		p = realloc(fr->len, *n_cap * sizeof(*fr->len));
		if (!p)
			return -1;
		fr->len = p;
	}
	return 0;
}

/**
 * np_pcap_read() - read the frames of a capture file
 * @path: the file: pcap (either byte order, us or ns) or pcapng, Ethernet
 * @fr: the frames, to free with np_frames_free(); frames longer than
 *	NP_WL_FRAME_MAX or cut short by the snap length are refused
 * @why: on an error, what is wrong
 * @why_len: size of @why
 *
 * Return: 0, or -1 with @why set.
 */
int np_pcap_read(const char *path, struct np_frames *fr, char *why,
		 size_t why_len)
{
	char errbuf[PCAP_ERRBUF_SIZE] = "";
	struct pcap_pkthdr *h;
	const u_char *data;
	u64 cap = 0, used = 0;
	u32 n_cap = 0;
	pcap_t *p;
	int rc;

	memset(fr, 0, sizeof(*fr));
	p = pcap_open_offline(path, errbuf);
	if (!p) {
		snprintf(why, why_len, "%s: not a pcap or pcapng file (%s)",
			 path, errbuf);
		return -1;
	}
	if (pcap_datalink(p) != DLT_EN10MB) {
		snprintf(why, why_len, "%s: link type %d, not Ethernet (1)",
			 path, pcap_datalink(p));
		goto err;
	}
	while ((rc = pcap_next_ex(p, &h, &data)) == 1) {
		if (h->caplen != h->len || h->len > NP_WL_FRAME_MAX ||
		    h->len < 14) {
			snprintf(why, why_len, "%s: frame %u: %u bytes of %u captured; frames must be whole, 14 to %u bytes",
				 path, fr->n + 1, h->caplen, h->len,
				 NP_WL_FRAME_MAX);
			goto err;
		}
		if (fr->n == NP_WL_MAX_FRAMES) {
			snprintf(why, why_len, "%s: more than %u frames", path,
				 NP_WL_MAX_FRAMES);
			goto err;
		}
		if (frames_grow(fr, used, h->len, &cap, &n_cap)) {
			snprintf(why, why_len, "%s: no memory for %u frames",
				 path, fr->n);
			goto err;
		}
		memcpy(fr->buf + used, data, h->len);
		fr->off[fr->n] = used;
		fr->len[fr->n++] = h->len;
		used += h->len;
	}
	if (rc == PCAP_ERROR) {
		snprintf(why, why_len, "%s: cut short after %u frames (%s)",
			 path, fr->n, pcap_geterr(p));
		goto err;
	}
	if (!fr->n) {
		snprintf(why, why_len, "%s: no frames", path);
		goto err;
	}
	pcap_close(p);
	return 0;
err:
	pcap_close(p);
	np_frames_free(fr);
	return -1;
}
