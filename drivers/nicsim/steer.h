/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nicsim's steering of a frame to a core (cores.c), also built into
 * nicprog-plan's offline run (tools/nicprog-plan/hostrun.c) so that the
 * predictor steers every frame where the NIC does. Bytes only: the
 * kernel's u8/u32 and memcpy(), or the offloader's compat.h, come first.
 */
#ifndef _NICSIM_STEER_H
#define _NICSIM_STEER_H

#define NICSIM_FLOW_WORDS	9

/**
 * nicsim_flow_words() - what the flow hash of a frame covers
 * @d: the frame, from its Ethernet header
 * @len: its bytes
 * @w: the words to hash, NICSIM_FLOW_WORDS of room
 * @seed: the hash's seed
 *
 * RSS-like, so that every frame of a flow goes to one core and keeps its
 * order: for IPv4 (after one VLAN tag at most) the addresses, the
 * protocol and, unfragmented TCP or UDP, the ports word; for IPv6 the
 * addresses and TCP or UDP ports; otherwise the MAC addresses, seeded
 * with the EtherType. Words are copied as they lie in the frame.
 *
 * Return: the words in @w, 0 for a frame too short for an Ethernet header
 * (hash 0 then).
 */
static inline u32 nicsim_flow_words(const u8 *d, u32 len,
				    u32 w[NICSIM_FLOW_WORDS], u32 *seed)
{
	u32 off = 14, n = 0, proto;
	u8 l4 = 0;

	*seed = 0;
	if (len < 14)
		return 0;
	proto = (d[12] << 8) | d[13];
	if (proto == 0x8100 && len >= 18) {		/* 802.1Q */
		proto = (d[16] << 8) | d[17];
		off = 18;
	}
	if (proto == 0x0800 && len >= off + 20) {	/* IPv4 */
		memcpy(&w[n++], d + off + 12, 4);
		memcpy(&w[n++], d + off + 16, 4);
		w[n++] = d[off + 9];
		/* no MF flag, no offset: the ports are in this fragment */
		if (!(((d[off + 6] << 8) | d[off + 7]) & 0x3fff))
			l4 = d[off + 9];
		off += (d[off] & 15) * 4;
	} else if (proto == 0x86dd && len >= off + 40) {	/* IPv6 */
		memcpy(w, d + off + 8, 32);
		n = 8;
		l4 = d[off + 6];
		off += 40;
	} else {
		memcpy(w, d, 12);
		*seed = proto;
		return 3;
	}
	if ((l4 == 6 || l4 == 17) && len >= off + 4)	/* TCP, UDP */
		memcpy(&w[n++], d + off, 4);
	return n;
}

#endif /* _NICSIM_STEER_H */
