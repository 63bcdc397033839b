/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse_iphdr() and parse_tcphdr() of libxdp's parsing_helpers.h with the
 * minimum-length checks that xdp-tutorial's later copy of the header
 * makes: an IPv4 or TCP header whose length field says less than 20
 * bytes is malformed, not a header to step over. Held-out NFs include it
 * after <xdp/parsing_helpers.h>, as xdp-tutorial's lessons include its
 * common/ headers.
 */
#ifndef __NICPROG_HELDOUT_PARSING_MIN_H
#define __NICPROG_HELDOUT_PARSING_MIN_H

static __always_inline int parse_iphdr_min(struct hdr_cursor *nh,
					   void *data_end,
					   struct iphdr **iphdr)
{
	struct iphdr *iph = nh->pos;
	int hdrsize;

	if ((void *)(iph + 1) > data_end)
		return -1;
	hdrsize = iph->ihl * 4;
	if (hdrsize < (int)sizeof(*iph))
		return -1;
	if (nh->pos + hdrsize > data_end)
		return -1;
	nh->pos += hdrsize;
	*iphdr = iph;
	return iph->protocol;
}

static __always_inline int parse_tcphdr_min(struct hdr_cursor *nh,
					    void *data_end,
					    struct tcphdr **tcphdr)
{
	struct tcphdr *h = nh->pos;
	int len;

	if ((void *)(h + 1) > data_end)
		return -1;
	len = h->doff * 4;
	if (len < (int)sizeof(*h))
		return -1;
	if (nh->pos + len > data_end)
		return -1;
	nh->pos += len;
	*tcphdr = h;
	return len;
}

#endif /* __NICPROG_HELDOUT_PARSING_MIN_H */
