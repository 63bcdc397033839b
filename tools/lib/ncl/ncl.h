/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * libncl - the host side of network kernels (Documentation/nicprog/ncl.rst):
 * NCP encode and decode, windows built from arrays, and invocations of an
 * outgoing kernel that resend what goes unanswered.
 */
#ifndef _NCL_LIB_H
#define _NCL_LIB_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>

#include "../../../bpf/ncp.h"

/* Frame bytes after the UDP header: NCP header, window, elements. */
#define NCL_FRAME_MAX	(sizeof(struct ncp_hdr) + sizeof(struct ncl_window) + \
			 NCL_WIN_BYTES)

/**
 * struct ncl_frame - a window, decoded (host byte order)
 * @kernel: kernel id
 * @flags: NCP_F_*
 * @mask: arrays carried
 * @offset: per array, the window's first element
 * @seq: window number
 * @sender: sending host's label number
 * @len: elements of each carried array
 * @user: the kernel's own fields
 * @data: the elements (encode: per array; decode: the first, the rest
 *	following in argument order)
 * @elem_bytes: per array, bytes of an element
 * @pad_len: encode: elements each array takes in the frame, zeros past
 *	@len (0: @len)
 */
struct ncl_frame {
	uint8_t kernel;
	uint8_t flags;
	uint8_t mask;
	uint32_t offset[NCL_ARGS_MAX];
	uint32_t seq;
	uint16_t sender;
	uint16_t len;
	uint32_t user[2];
	const void *data[NCL_ARGS_MAX];
	uint32_t elem_bytes[NCL_ARGS_MAX];
	uint16_t pad_len;
};

/* Encode @f into @buf: bytes written, or 0 when it does not fit @cap. */
size_t ncl_encode(void *buf, size_t cap, const struct ncl_frame *f);

/*
 * Decode the NCP payload @buf of @n bytes, elements of @elem_bytes per
 * array: 0, or -EINVAL (not NCP, wrong version) or -EMSGSIZE (shorter than
 * its window says).
 */
int ncl_decode(const void *buf, size_t n, const uint32_t *elem_bytes,
	       struct ncl_frame *f);

/**
 * struct ncl_endpoint - a host's UDP socket for one kernel
 * @fd: bound to NCL_UDP_PORT on every address (results come broadcast)
 * @to: where windows go
 * @sender: this host's label number
 * @kernel: the kernel invoked
 */
struct ncl_ring;

struct ncl_endpoint {
	int fd;
	struct sockaddr_in to;
	uint16_t sender;
	uint8_t kernel;
	struct ncl_ring *ring;
};

/* 0, or a negative errno with @why filled. */
int ncl_udp_open(struct ncl_endpoint *ep, uint16_t sender, uint8_t kernel,
		 const char *to, char *why, size_t why_len);
void ncl_close(struct ncl_endpoint *ep);

/*
 * The nicprog-ring backend (ring.c): answers come through an RX pipe of
 * the receiving host's NIC rather than the socket. The incoming kernel
 * offloaded to @ifname's NIC delivers to NF output @output once its
 * ncl_pipe control variable, pinned at @pipe_pin, says so; windows still
 * go out by the socket (the host never crafts a frame). ncl_close() puts
 * delivery back on the host's stack. 0, or a negative errno with @why
 * filled (-EOPNOTSUPP: the kernel runs on the host's CPU, which has no
 * pipes).
 */
int ncl_ring_attach(struct ncl_endpoint *ep, const char *ifname,
		    uint32_t output, const char *pipe_pin, char *why,
		    size_t why_len);

/**
 * struct ncl_call - one invocation of an outgoing kernel over arrays
 * @mask: arrays carried (bits of @in)
 * @in: the input arrays
 * @elem_bytes: per array, bytes of an element
 * @count: elements of each array
 * @win_elems: elements of each array a window carries (one frame: at most
 *	NCL_WIN_BYTES of elements in all)
 * @pad: a window shorter than @win_elems (the last) still carries
 *	@win_elems elements, zeros past its len, for kernels whose windows
 *	have one size
 * @inflight: windows outstanding at most; window W is sent once W -
 *	@inflight is answered
 * @rto_ms: a window unanswered this long is resent
 * @max_tries: sends of one window before the call fails (-ETIMEDOUT)
 * @on_answer: called once per window with its first answer
 * @arg: for @on_answer
 */
struct ncl_call {
	uint8_t mask;
	const void *in[NCL_ARGS_MAX];
	uint32_t elem_bytes[NCL_ARGS_MAX];
	uint64_t count;
	uint32_t win_elems;
	int pad;
	uint32_t inflight;
	uint32_t rto_ms;
	uint32_t max_tries;
	void (*on_answer)(void *arg, const struct ncl_frame *f);
	void *arg;
};

/**
 * struct ncl_call_stats - what an invocation took
 * @windows: windows of the call
 * @sent: sends, resends included
 * @resent: resends
 * @answers: windows answered (all of them on success)
 * @dups: answers for windows already answered
 * @stray: frames not for this call (other kernels, malformed)
 * @ns: CLOCK_MONOTONIC from the first send to the last answer
 */
struct ncl_call_stats {
	uint64_t windows;
	uint64_t sent;
	uint64_t resent;
	uint64_t answers;
	uint64_t dups;
	uint64_t stray;
	uint64_t piped;	/* frames taken from the pipe (ring backend) */
	uint64_t ns;
};

/*
 * Run @call to completion: every window answered. 0, -ETIMEDOUT when a
 * window went unanswered @max_tries times, -EINVAL for a call no frame
 * can carry, or another negative errno from the socket.
 */
int ncl_invoke(struct ncl_endpoint *ep, const struct ncl_call *call,
	       struct ncl_call_stats *st);

#endif /* _NCL_LIB_H */
