/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * ncp.h - the Net Compute Protocol on the wire, for network kernels
 * (ncl.h) and the host runtime (tools/lib/ncl) alike: types only.
 */
#ifndef __NCP_H
#define __NCP_H

#include <linux/if_ether.h>
#include <linux/types.h>

#define NCL_UDP_PORT	9477	/* NCP's UDP destination port */
#define NCL_VERSION	1
#define NCL_ARGS_MAX	2	/* array arguments of a kernel */
/* the largest window: what one 1500-byte frame carries besides headers */
#define NCL_WIN_BYTES	1024

/* struct ncp_hdr.flags */
#define NCP_F_RESULT	0x1	/* the network's answer to a window */
#define NCP_F_RESEND	0x2	/* the sender sent this window before */

/**
 * struct ncp_hdr - the Net Compute Protocol header
 * @version: NCL_VERSION
 * @kernel: the kernel the window is for (1 .. 255; 0 is no kernel)
 * @flags: NCP_F_*
 * @mask: the kernel's array arguments the window carries, bit I for
 *	argument I; their elements follow in argument order
 * @offset: per argument, the window's first element in its array
 */
struct ncp_hdr {
	__u8 version;
	__u8 kernel;
	__u8 flags;
	__u8 mask;
	__be32 offset[NCL_ARGS_MAX];
};

/**
 * struct ncl_window - a window's metadata
 * @seq: the window's number, per sender and kernel
 * @sender: the label number of the host that sent it (h1 is 1); a switch
 *	takes a window only from that host's address and port
 * @len: elements of each carried array
 * @user: the kernel's own fields
 */
struct ncl_window {
	__be32 seq;
	__be16 sender;
	__be16 len;
	__be32 user[2];
};

/* ncl_stats' slots: frames the framework saw, and why it dropped some */
enum {
	NCL_ST_WINDOWS,		/* windows handed to ncl_kernel() */
	NCL_ST_TRUNCATED,	/* shorter than their headers or elements */
	NCL_ST_MALFORMED,	/* bad version, length, sender; IP options */
	NCL_ST_UNKNOWN,		/* for a kernel the network does not run */
	NCL_ST_BAD_MASK,	/* arrays the kernel does not take */
	NCL_ST_STALE,		/* for a slot already finished or not begun */
	NCL_ST_DUP,		/* counted once already (a resent window) */
	NCL_ST_NO_ROUTE,	/* not NCP, for a MAC the switch does not know */
	NCL_ST_FORGED,		/* a sender's label not the host it came from,
				 * or a kind the sender's label may not send */
	NCL_ST_MAX,
};

/**
 * struct ncl_label - where a label of the network description is
 * @mac: its MAC address
 * @pad: zero
 * @addr: its IPv4 address
 */
struct ncl_label {
	__u8 mac[ETH_ALEN];
	__u16 pad;
	__be32 addr;
};

#endif /* __NCP_H */
