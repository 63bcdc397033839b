/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * nicprog - programmable SmartNICs: user API.
 *
 * This header grows with the subsystem: generic netlink attributes,
 * uring_cmd opcodes and ring layouts land here as they are implemented.
 * Structs are padded to 64-bit multiples with explicit reserved fields.
 * Every enum ends in a __NICPROG_*_MAX sentinel; values are never reused.
 *
 * Logical NIC (LNIC) vocabulary, shared by sysfs (as names) and netlink (as
 * values):
 *
 *   unit type    what the unit does
 *   core         general-purpose core (runs eBPF or its translation)
 *   parser       header parse unit
 *   mat          match-action table stage
 *   accel        fixed-function accelerator, see enum nicprog_accel_type
 *   dma          DMA or RDMA engine
 */
#ifndef _UAPI_LINUX_NICPROG_H
#define _UAPI_LINUX_NICPROG_H

#include <linux/const.h>
#include <linux/ioctl.h>
#include <linux/types.h>

/* Name of the sysfs class under /sys/class. */
#define NICPROG_CLASS_NAME	"nicprog"

enum nicprog_unit_type {
	NICPROG_UNIT_UNSPEC,
	NICPROG_UNIT_CORE,
	NICPROG_UNIT_PARSER,
	NICPROG_UNIT_MAT,
	NICPROG_UNIT_ACCEL,
	NICPROG_UNIT_DMA,

	__NICPROG_UNIT_MAX
};

enum nicprog_accel_type {
	NICPROG_ACCEL_NONE,
	NICPROG_ACCEL_CSUM,
	NICPROG_ACCEL_CRC,
	NICPROG_ACCEL_HASH,
	NICPROG_ACCEL_CRYPTO,
	NICPROG_ACCEL_COMPRESS,
	NICPROG_ACCEL_REGEX,

	__NICPROG_ACCEL_MAX
};

/*
 * A plan's share of an accelerator type's calls run as engine jobs (the
 * rest as the called function's BPF body on the cores), in sixteenths:
 * NICPROG_A_ACCEL_PLAN_SHARE, NICPROG_A_PLAN_UNIT_SHARE.
 */
#define NICPROG_PLAN_SHARE_ALL	16

/*
 * Which bank of a region a line is in (an LNIC profile's "interleave"):
 * NICPROG_IL_HASH, line L (an address the NIC's over 64, plus one) in bank
 * nicprog_lnic_bank(L, banks) of include/net/nicprog_lnic.h.
 */
enum nicprog_interleave {
	NICPROG_IL_UNKNOWN,
	NICPROG_IL_HASH,

	__NICPROG_IL_MAX
};

/*
 * Accelerator functions NFs call (bpf/nicprog.h): global BPF functions
 * whose bodies are the software semantics, recognized on the NIC by their
 * id, NICPROG_AFN_MAGIC | fn, passed as the last argument.
 */
enum nicprog_accel_fn {
	NICPROG_AFN_NONE,
	NICPROG_AFN_CSUM,	/* Internet checksum: csum engine */
	NICPROG_AFN_CRC32C,	/* CRC32C: crc engine */
	NICPROG_AFN_TOEPLITZ,	/* Toeplitz (RSS) hash: hash engine */
	NICPROG_AFN_JHASH,	/* jhash (lookup3): hash engine */
	NICPROG_AFN_CHACHA20,	/* ChaCha20 stream cipher: crypto engine */

	__NICPROG_AFN_MAX
};

/* Bytes one call takes at most; the BPF bodies refuse more, as engines do. */
#define NICPROG_AFN_LEN_MAX		4096
#define NICPROG_AFN_CHACHA20_LEN_MAX	2048
#define NICPROG_AFN_JHASH_LEN_MAX	60
#define NICPROG_AFN_TOEPLITZ_LEN_MAX	36	/* an IPv6 4-tuple */

/* The Toeplitz engines' 40-byte key: Microsoft's default RSS key. */
#define NICPROG_AFN_TOEPLITZ_KEY {					\
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2,			\
	0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0,			\
	0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4,			\
	0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30, 0xf2, 0x0c,			\
	0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,			\
}

#define NICPROG_AFN_MAGIC	0x6e706100U	/* "npa", low byte the fn */

/*
 * Instruction classes of a core's cost table: cycles one instruction of the
 * class takes on that core, memory latency excluded (it depends on where
 * the accessed object lives, see the LNIC memory regions).
 */
enum nicprog_insn_class {
	NICPROG_IC_ALU,		/* ALU32/ALU64 except mul, div, mod */
	NICPROG_IC_MUL,
	NICPROG_IC_DIV,		/* div and mod */
	NICPROG_IC_BRANCH,	/* JMP/JMP32, taken or not */
	NICPROG_IC_LOAD,	/* LD, LDX */
	NICPROG_IC_STORE,	/* ST, STX */
	NICPROG_IC_ATOMIC,
	NICPROG_IC_CALL,	/* helper or subprogram call overhead */

	__NICPROG_IC_MAX
};

/*
 * Plans. The offloader classifies each table the program uses (after
 * Alkali): a table the datapath only reads can be replicated; one every
 * access of which is keyed by the same copy of header bytes can be
 * sharded, packets steered to its owner by a hash of those bytes; one the
 * datapath only adds to atomically, never reading a value back, holds
 * counters, whose totals no order of the additions changes, and is used
 * from every core; any other table the datapath writes is shared-mutable
 * and all its accessors run on one core.
 */
enum nicprog_table_class {
	NICPROG_TC_UNUSED,	/* the datapath never touches it */
	NICPROG_TC_READONLY,
	NICPROG_TC_SHARDED,
	NICPROG_TC_SHARED,
	NICPROG_TC_COUNTER,

	__NICPROG_TC_MAX
};

/*
 * Packet classes a plan's static bracket is also given for (NICPROG_A_PROG_
 * CLASS_BRACKET): each fixes some header bits and a least length, its
 * headers. IPv4 ones: EtherType 0x0800, version 4 without options
 * (0x45), MF and the fragment offset clear; TCP_SYN: SYN set and ACK
 * clear; TCP: SYN clear; ICMP_ECHO: an echo request (type 8, code 0).
 * ARP: EtherType 0x0806. IPv6 ones: EtherType 0x86dd, version 6, the next
 * header UDP or TCP.
 */
enum nicprog_pkt_class {
	NICPROG_PKT_TCP_SYN,
	NICPROG_PKT_TCP,
	NICPROG_PKT_UDP,
	NICPROG_PKT_ICMP_ECHO,
	NICPROG_PKT_ARP,
	NICPROG_PKT_UDP6,
	NICPROG_PKT_TCP6,

	__NICPROG_PKT_MAX
};

/*
 * What a table does beyond a HASH or ARRAY map's semantics. Linux 6.1
 * binds only HASH and ARRAY maps to a device: a loader creates an
 * LRU_HASH, LPM_TRIE or per-CPU map as one of them and gives the table
 * its kind (table-set) before a program uses it. A table of the HOST kind
 * is an ARRAY of u32 keys and values standing for a host XSKMAP or CPUMAP
 * that no device-bound program may name: the kernel sets its values to the
 * targets (NICPROG_HOST_TARGET_BIT) by which bpf_redirect() hands a frame
 * to that map's entry. A table of the PROGS kind is one standing for a
 * host PROG_ARRAY: a lookup from the NIC finds the tail call target
 * (NICPROG_TAIL_TARGET_BIT) of an entry that holds one of the port's
 * programs.
 */
enum nicprog_table_kind {
	NICPROG_TABLE_KIND_PLAIN,	/* the map's own type */
	NICPROG_TABLE_KIND_LRU,		/* a full table evicts the LRU element */
	NICPROG_TABLE_KIND_LPM,		/* struct bpf_lpm_trie_key, longest match */
	NICPROG_TABLE_KIND_PERCPU,	/* a slot per CPU, the running one's */
	NICPROG_TABLE_KIND_LRU_PERCPU,	/* both */
	NICPROG_TABLE_KIND_HOST,	/* stands for a host XSKMAP or CPUMAP */
	NICPROG_TABLE_KIND_PROGS,	/* stands for a host PROG_ARRAY */

	__NICPROG_TABLE_KIND_MAX
};

/* The shape of plan an operator asks for. */
enum nicprog_shape {
	NICPROG_SHAPE_AUTO,		/* best predicted */
	NICPROG_SHAPE_SINGLE,		/* one stage on one core */
	NICPROG_SHAPE_REPLICATED,	/* one stage, replicated if it can be */
	NICPROG_SHAPE_PIPELINED,	/* as many stages as cuts allow */
	NICPROG_SHAPE_PIPELINED_REPLICATED,

	__NICPROG_SHAPE_MAX
};

/* How packets are spread over the replicas of a stage. */
enum nicprog_steer {
	NICPROG_STEER_NONE,	/* one replica */
	NICPROG_STEER_FLOW,	/* flow hash: the stage keeps no state */
	NICPROG_STEER_KEY,	/* hash of a sharded table's key bytes */
	/*
	 * hash of the lesser of a table's key bytes and the same bytes
	 * swapped (a flow and its reverse): both directions, one core
	 */
	NICPROG_STEER_KEY_SYMMETRIC,

	__NICPROG_STEER_MAX
};

/*
 * Streaming rings (after Enso): /dev/nicprog/port<N>, driven by io_uring.
 *
 * N is the port's number for as long as it is registered, whatever its
 * netdev is renamed to or whichever namespace it moves to, and no other
 * port gets it while it lives: the minor of the port's class device
 * (/sys/class/nicprog/<ifname>/dev, DEVNAME in its uevent), and netlink's
 * dev-get ring-dev, which names the port by ifname or ifindex in the
 * caller's namespace. Numbers are handed out in turn, not reused first.
 *
 * A pipe is a power-of-two ring of bytes that one side appends to and the
 * other consumes in order: the NIC appends to an RX pipe, the application
 * to a TX pipe. Its indices are free-running byte counts (the byte at
 * index i is at offset i & (size - 1)); the producer advances tail, the
 * consumer head, each on its own cache line of the pipe's control page.
 *
 * An open file of the device owns the pipes it creates. mmap() of
 * struct nicprog_pipe_create.mmap_len bytes at its mmap_off maps the
 * control page, then the data twice, back to back, so that a record the
 * ring wraps reads as one contiguous range. The offset is the pipe's id
 * shifted by NICPROG_PIPE_MMAP_SHIFT (ids start at 1; offset 0 is the
 * notification ring), so that a process handed the file maps a pipe
 * from its id and size alone.
 *
 * The kernel keeps its own copy of both indices: what userspace writes to
 * the control page is read as a request (a head within the data the
 * producer published), never trusted.
 */
#define NICPROG_RING_VERSION	1
#define NICPROG_PIPE_MMAP_SHIFT	32
#define NICPROG_DEV_DIR		"nicprog"	/* /dev/nicprog/ */
#define NICPROG_DEV_PORT	"port"		/* /dev/nicprog/port<N> */

#define NICPROG_PIPE_SIZE_MIN	4096U
#define NICPROG_PIPE_SIZE_MAX	(64U << 20)

enum nicprog_pipe_dir {
	NICPROG_PIPE_DIR_UNSPEC,
	NICPROG_PIPE_RX,	/* the NIC appends, the application consumes */
	NICPROG_PIPE_TX,	/* the application appends, the NIC sends */

	__NICPROG_PIPE_DIR_MAX
};

enum nicprog_pipe_framing {
	NICPROG_FRAMING_UNSPEC,
	/* each record behind a struct nicprog_rec, NICPROG_REC_ALIGN aligned */
	NICPROG_FRAMING_RECORDS,
	/* bytes back to back, no boundaries kept */
	NICPROG_FRAMING_STREAM,

	__NICPROG_FRAMING_MAX
};

/**
 * struct nicprog_pipe_ctrl - the control page of a pipe
 * @tail: producer: bytes ever appended
 * @head: consumer: bytes ever consumed
 * @version: NICPROG_RING_VERSION
 * @dir: enum nicprog_pipe_dir
 * @framing: enum nicprog_pipe_framing
 * @flags: the NICPROG_BIND_* flags the pipe is bound with, 0 unbound
 * @size: data bytes, a power of two
 * @drops: records the producer dropped for want of room
 * @drop_bytes: their bytes
 */
struct nicprog_pipe_ctrl {
	__u64 tail;
	__u64 __pad0[7];
	__u64 head;
	__u64 __pad1[7];
	__u32 version;
	__u32 dir;
	__u32 framing;
	__u32 flags;
	__u64 size;
	__u64 drops;
	__u64 drop_bytes;
	__u64 __rsvd[4];
};

#define NICPROG_REC_ALIGN	8

/**
 * struct nicprog_rec - the header of a record, NICPROG_FRAMING_RECORDS
 * @len: bytes of the record after this header (the next header follows
 *	them, rounded up to NICPROG_REC_ALIGN)
 * @flags: 0
 * @__rsvd: 0
 */
struct nicprog_rec {
	__u32 len;
	__u16 flags;
	__u16 __rsvd;
};

/*
 * IORING_OP_URING_CMD on the device: the SQE's cmd_op is one of the
 * NICPROG_U_OP_* codes below and its 16-byte command area a struct
 * nicprog_uring_cmd naming the operation's argument struct in user memory.
 * The codes are encoded as ioctl numbers (_IOWR(), as ublk encodes its
 * commands): type NICPROG_RING_IOC_MAGIC, number an enum nicprog_ring_op,
 * size that of the command area; any other cmd_op, the bare enum value
 * among them, fails with EINVAL. Argument structs are extensible: a smaller
 * one (an older ABI) is zero-extended, a larger one accepted if the bytes
 * past what the kernel knows are zero (else E2BIG). The CQE's res is the
 * operation's result or -errno. NICPROG_U_OP_FEATURES says which
 * operations, flags, directions and framings this kernel takes, so that
 * user space can probe instead of guessing.
 *
 * A refused argument is not logged: the errno says what kind of refusal
 * it was, and the tracepoint nicprog:nicprog_bad_arg records the cause.
 */
enum nicprog_ring_op {
	NICPROG_OP_UNSPEC,
	NICPROG_OP_PIPE_CREATE,		/* struct nicprog_pipe_create */
	NICPROG_OP_PIPE_DESTROY,	/* struct nicprog_pipe_destroy */
	NICPROG_OP_PIPE_BIND,		/* struct nicprog_pipe_bind */
	NICPROG_OP_PIPE_UNBIND,		/* struct nicprog_pipe_bind */
	NICPROG_OP_WAIT,		/* struct nicprog_wait */
	NICPROG_OP_PIPE_SEND,		/* struct nicprog_pipe_send */
	NICPROG_OP_FEATURES,		/* struct nicprog_features */
	NICPROG_OP_MEM_ALLOC,		/* struct nicprog_mem_alloc */
	NICPROG_OP_MEM_FREE,		/* struct nicprog_mem_free */
	NICPROG_OP_MEM_COPY,		/* struct nicprog_mem_copy */
	NICPROG_OP_QP_CREATE,		/* struct nicprog_qp_create */
	NICPROG_OP_QP_CONNECT,		/* struct nicprog_qp_connect */
	NICPROG_OP_QP_DESTROY,		/* struct nicprog_qp_destroy */
	NICPROG_OP_MR_REG,		/* struct nicprog_mr_reg */
	NICPROG_OP_MR_DEREG,		/* struct nicprog_mr_dereg */
	NICPROG_OP_POST,		/* struct nicprog_post */
	NICPROG_OP_POLL,		/* struct nicprog_poll */
	NICPROG_OP_KERNEL_LOAD,		/* struct nicprog_kernel_load */
	NICPROG_OP_KERNEL_UNLOAD,	/* struct nicprog_kernel_unload */
	NICPROG_OP_JOB,			/* struct nicprog_job */
	NICPROG_OP_RESTRICT,		/* struct nicprog_restrict */

	__NICPROG_OP_MAX
};

/* free in Linux 6.12's ioctl-number.rst (0xB8 is Marvell's CN10K DPI) */
#define NICPROG_RING_IOC_MAGIC		0xB9

#define NICPROG_U_OP(op) \
	_IOWR(NICPROG_RING_IOC_MAGIC, NICPROG_OP_##op, struct nicprog_uring_cmd)
#define NICPROG_U_OP_PIPE_CREATE	NICPROG_U_OP(PIPE_CREATE)
#define NICPROG_U_OP_PIPE_DESTROY	NICPROG_U_OP(PIPE_DESTROY)
#define NICPROG_U_OP_PIPE_BIND		NICPROG_U_OP(PIPE_BIND)
#define NICPROG_U_OP_PIPE_UNBIND	NICPROG_U_OP(PIPE_UNBIND)
#define NICPROG_U_OP_WAIT		NICPROG_U_OP(WAIT)
#define NICPROG_U_OP_PIPE_SEND		NICPROG_U_OP(PIPE_SEND)
#define NICPROG_U_OP_FEATURES		NICPROG_U_OP(FEATURES)
#define NICPROG_U_OP_MEM_ALLOC		NICPROG_U_OP(MEM_ALLOC)
#define NICPROG_U_OP_MEM_FREE		NICPROG_U_OP(MEM_FREE)
#define NICPROG_U_OP_MEM_COPY		NICPROG_U_OP(MEM_COPY)
#define NICPROG_U_OP_QP_CREATE		NICPROG_U_OP(QP_CREATE)
#define NICPROG_U_OP_QP_CONNECT		NICPROG_U_OP(QP_CONNECT)
#define NICPROG_U_OP_QP_DESTROY		NICPROG_U_OP(QP_DESTROY)
#define NICPROG_U_OP_MR_REG		NICPROG_U_OP(MR_REG)
#define NICPROG_U_OP_MR_DEREG		NICPROG_U_OP(MR_DEREG)
#define NICPROG_U_OP_POST		NICPROG_U_OP(POST)
#define NICPROG_U_OP_POLL		NICPROG_U_OP(POLL)
#define NICPROG_U_OP_KERNEL_LOAD	NICPROG_U_OP(KERNEL_LOAD)
#define NICPROG_U_OP_KERNEL_UNLOAD	NICPROG_U_OP(KERNEL_UNLOAD)
#define NICPROG_U_OP_JOB		NICPROG_U_OP(JOB)
#define NICPROG_U_OP_RESTRICT		NICPROG_U_OP(RESTRICT)

/*
 * NF outputs. An NF steers a frame to its port's output N with
 * bpf_redirect(NICPROG_PIPE_TARGET(N), 0) (bpf/nicprog.h:
 * nicprog_redirect_pipe()); ifindexes are positive ints, so such a target
 * is never a device. The NIC appends the frame to the RX pipe bound to
 * output N, or drops it as an invalid redirect if none is.
 */
#define NICPROG_RING_OUTPUTS		64
#define NICPROG_PIPE_TARGET_BIT		0x80000000U
#define NICPROG_PIPE_TARGET(n)		(NICPROG_PIPE_TARGET_BIT | (n))

/*
 * Flood: bpf_redirect(NICPROG_FLOOD_TARGET, 0) sends a copy of the frame,
 * as the program left it, out of every other port of the NIC that is up
 * in the namespace of the port it came in on: a switch's flood, which
 * network kernels broadcast with (bpf/ncl.h). With NICPROG_FLOOD_INGRESS
 * added, out of the port it came in on too. No device has either
 * ifindex, so on a host the redirect fails and the frame is dropped, as
 * for any redirect to a missing device.
 */
#define NICPROG_FLOOD_TARGET		(NICPROG_PIPE_TARGET_BIT | 0x10000000U)
#define NICPROG_FLOOD_INGRESS		0x1U

/*
 * Host map targets: the values the kernel keeps in a table of the HOST
 * kind, which a loader's rewrite of bpf_redirect_map() on an XSKMAP or
 * CPUMAP passes to bpf_redirect() with the action for a missing entry in
 * NICPROG_HOST_TARGET_ACT. The NIC hands such a frame to the host, where
 * the map's entry for the key (an AF_XDP socket, a CPU) receives it. Both
 * target bits are set: never a device, never an NF output.
 */
#define NICPROG_HOST_TARGET_BIT		0x40000000U
#define NICPROG_HOST_TARGET_ACT		0x30000000U
#define NICPROG_HOST_TARGET_ACT_SHIFT	28
#define NICPROG_HOST_TARGET_SLOT	0x0ff00000U
#define NICPROG_HOST_TARGET_SLOT_SHIFT	20
#define NICPROG_HOST_TARGET_KEY		0x000fffffU

/*
 * Tail call targets: what a table of the PROGS kind gives the NIC for an
 * entry of its host PROG_ARRAY that holds a program, which a loader's
 * rewrite of bpf_tail_call() passes to bpf_redirect() before the program
 * exits; the NIC then runs that program on the frame (at most 33 in a
 * row, as the host). With NICPROG_PIPE_TARGET_BIT; slot and key as in a
 * host map target.
 */
#define NICPROG_TAIL_TARGET_BIT		0x20000000U

/**
 * struct nicprog_uring_cmd - the command area of the SQE
 * @arg: user address of the operation's argument struct
 * @arg_len: its size in bytes
 * @flags: 0
 */
struct nicprog_uring_cmd {
	__u64 arg;
	__u32 arg_len;
	__u32 flags;
};

/* struct nicprog_uring_cmd.flags: none yet */
#define NICPROG_CMD_F_ALL	0U

/* struct nicprog_pipe_create.flags */
#define NICPROG_PIPE_SHARE	_BITUL(0)	/* a TX pipe over @share's data */
#define NICPROG_PIPE_F_ALL	NICPROG_PIPE_SHARE

/**
 * struct nicprog_pipe_create - NICPROG_OP_PIPE_CREATE; res: 0
 * @size: in: data bytes, a power of two in NICPROG_PIPE_SIZE_MIN..MAX
 * @dir: in: enum nicprog_pipe_dir
 * @framing: in: enum nicprog_pipe_framing
 * @flags: in: 0, or NICPROG_PIPE_SHARE for a TX pipe whose data is the
 *	data of the file's pipe @share (same size and framing): records an
 *	application received, rewritten in place, are sent without a copy
 * @id: out: the pipe's id, unique within the open file
 * @share: in: with NICPROG_PIPE_SHARE, the pipe whose data it shares
 * @mmap_off: out: where mmap() finds the pipe
 * @mmap_len: out: the length to map: a page, then 2 * @size
 */
struct nicprog_pipe_create {
	__u32 size;
	__u32 dir;
	__u32 framing;
	__u32 flags;
	__u32 id;
	__u32 share;
	__u64 mmap_off;
	__u64 mmap_len;
};

/**
 * struct nicprog_pipe_destroy - NICPROG_OP_PIPE_DESTROY; res: 0
 * @id: the pipe; its mappings stay valid until unmapped
 * @flags: 0
 */
struct nicprog_pipe_destroy {
	__u32 id;
	__u32 flags;
};

/**
 * struct nicprog_pipe_bind - NICPROG_OP_PIPE_BIND, _UNBIND; res: 0
 * @id: an RX pipe of the file
 * @output: the port's NF output, below NICPROG_RING_OUTPUTS
 * @flags: bind: 0 -- a record that does not fit the pipe is dropped and
 *	counted in the control page's drops and drop_bytes -- or
 *	NICPROG_BIND_BACKPRESSURE: the NIC holds such a record until the
 *	application makes room, taking nothing else meanwhile (what it cannot
 *	take is dropped at its ingress and counted there), and drops and
 *	counts it only if no room comes within its bound (nicsim: 100 ms);
 *	and/or NICPROG_BIND_PREFETCH: notification prefetch, the pipe's
 *	notifications are posted as its frames land, not once per burst
 *	of the NIC's (lower latency for a waiting application, more
 *	notifications); unbind: 0
 * @__pad: 0
 * @coalesce_usecs: bind: notification moderation, as a NIC's interrupt
 *	coalescing: a notification the pipe owes (its application caught
 *	up) is held until @coalesce_bytes are waiting unread, or for at most
 *	this many microseconds after it fell due, whichever comes first
 *	(fewer wakeups of a waiting application, each finding more records;
 *	a frame waits up to this long longer; a pipe with no room for a
 *	record posts at once). 0: none, the notification is
 *	posted when due; at most NICPROG_COALESCE_USECS_MAX. Unbind: 0
 * @coalesce_bytes: bind: with @coalesce_usecs, post at once when this
 *	many bytes wait unread; 0: only the time bound; at most half the
 *	pipe's size. Unbind: 0
 *
 * Binding needs CAP_NET_ADMIN in the port's network namespace, held by
 * the file's opener; an output takes one pipe, a pipe one output.
 * Destroying the pipe or closing its file unbinds it. A 16-byte struct
 * (before @coalesce_usecs) binds without moderation.
 */
#define NICPROG_BIND_BACKPRESSURE	_BITUL(0)
#define NICPROG_BIND_PREFETCH		_BITUL(1)
#define NICPROG_BIND_F_ALL		(NICPROG_BIND_BACKPRESSURE | \
					 NICPROG_BIND_PREFETCH)

#define NICPROG_COALESCE_USECS_MAX	1000000	/* 1 s */

struct nicprog_pipe_bind {
	__u32 id;
	__u32 output;
	__u32 flags;
	__u32 __pad;
	__u32 coalesce_usecs;
	__u32 coalesce_bytes;
};

/*
 * Notifications. Each open file has a notification ring, mapped at offset
 * 0 (NICPROG_NOTIF_MMAP_LEN bytes: a control page, then the entries).
 * When the NIC appends to one of the file's RX pipes and the application
 * has consumed everything an earlier notification of that pipe announced
 * (its head has reached that tail), the NIC posts a (pipe, tail) entry --
 * reactively, not per record: an application that keeps up reads the
 * pipes' tails and sees few notifications. NICPROG_OP_WAIT completes when
 * entries are waiting.
 */
#define NICPROG_NOTIF_ENTRIES	256
#define NICPROG_NOTIF_MMAP_LEN	8192

/**
 * struct nicprog_notif_ctrl - the control page of a notification ring
 * @tail: producer: entries ever posted
 * @head: consumer: entries ever read
 * @entries: NICPROG_NOTIF_ENTRIES; entry i is at i % @entries
 * @version: NICPROG_RING_VERSION
 * @full: notifications not posted for a full ring (the pipe posts again
 *	on its next append)
 */
struct nicprog_notif_ctrl {
	__u64 tail;
	__u64 __pad0[7];
	__u64 head;
	__u64 __pad1[7];
	__u32 entries;
	__u32 version;
	__u64 full;
	__u64 __rsvd[4];
};

/**
 * struct nicprog_notif - one notification
 * @pipe: the pipe's id
 * @flags: 0
 * @tail: the pipe's tail when it was posted
 */
struct nicprog_notif {
	__u32 pipe;
	__u32 flags;
	__u64 tail;
};

/**
 * struct nicprog_pipe_send - NICPROG_OP_PIPE_SEND; res: records sent
 * @id: a TX pipe of the file, NICPROG_FRAMING_RECORDS
 * @flags: 0
 * @tail: the application's tail: the records from the pipe's head (in
 *	its control page, the NIC's) up to here are sent, in order, at most
 *	NICPROG_SEND_BATCH of them per command (the head says how far it
 *	got). Each is NICPROG_FRAME_MIN..NICPROG_FRAME_MAX bytes. A tail
 *	behind the head, more than the pipe's size ahead of it, or a record
 *	that is malformed or crosses it fails the command with EINVAL before
 *	anything is sent.
 */
struct nicprog_pipe_send {
	__u32 id;
	__u32 flags;
	__u64 tail;
};

#define NICPROG_SEND_BATCH	1024
#define NICPROG_FRAME_MIN	14
#define NICPROG_FRAME_MAX	9216

#define NICPROG_WAIT_TIMEOUT_MAX	10000	/* ms */

/**
 * struct nicprog_wait - NICPROG_OP_WAIT; res: entries waiting in the
 *	notification ring (at once if some are), 0 when @timeout_ms passed
 *	first, -ENODEV when the port went
 * @timeout_ms: 1..NICPROG_WAIT_TIMEOUT_MAX: a wait always ends, so that
 *	closing or exiting with one in flight does not hang
 * @flags: 0
 */
struct nicprog_wait {
	__u32 timeout_ms;
	__u32 flags;
};

/*
 * The classes of commands an open file may issue (struct
 * nicprog_restrict.allow). A file starts with all of them; the class a
 * command needs is checked before its arguments are read (EPERM). The
 * capability checks stay as they are: a class lets a file issue a
 * command, the opener's CAP_NET_ADMIN still decides whether it may act.
 * NICPROG_OP_FEATURES and NICPROG_OP_RESTRICT need none.
 */
#define NICPROG_ALLOW_RX	_BITUL(0)	/* WAIT; mapping pipes and notifications */
#define NICPROG_ALLOW_TX	_BITUL(1)	/* PIPE_SEND; WAIT; mapping */
#define NICPROG_ALLOW_PIPES	_BITUL(2)	/* PIPE_CREATE, PIPE_DESTROY */
#define NICPROG_ALLOW_STEER	_BITUL(3)	/* PIPE_BIND, PIPE_UNBIND */
#define NICPROG_ALLOW_MEM	_BITUL(4)	/* MEM_ALLOC, MEM_FREE, MEM_COPY */
#define NICPROG_ALLOW_RDMA	_BITUL(5)	/* QP_*, MR_*, POST, POLL */
#define NICPROG_ALLOW_JOBS	_BITUL(6)	/* KERNEL_LOAD, KERNEL_UNLOAD, JOB */
#define NICPROG_ALLOW_ALL	(_BITUL(7) - 1)

/**
 * struct nicprog_restrict - NICPROG_OP_RESTRICT; res: 0
 * @allow: in: the NICPROG_ALLOW_* classes the file keeps; out: the ones
 *	it has now, never more than before (the file keeps @allow's
 *	intersection with what it had: a restriction is only ever narrowed)
 * @flags: 0
 *
 * Restricts the open file -- every descriptor of it, in every process --
 * before it is handed out: an administrator creates and binds an RX pipe,
 * restricts the file to NICPROG_ALLOW_RX, and passes it to an application
 * that can then map and read that pipe and wait, and nothing else.
 * Commands already issued complete as they were issued.
 */
struct nicprog_restrict {
	__u32 allow;
	__u32 flags;
};

/**
 * struct nicprog_features - NICPROG_OP_FEATURES; res: 0
 * @ops: out: bit N set for each enum nicprog_ring_op N the kernel takes
 * @cmd_flags: out: NICPROG_CMD_F_ALL, the command area's flags it takes
 * @pipe_flags: out: NICPROG_PIPE_F_ALL
 * @bind_flags: out: NICPROG_BIND_F_ALL
 * @dirs: out: bit N set for each enum nicprog_pipe_dir N it takes
 * @framings: out: bit N set for each enum nicprog_pipe_framing N
 * @ring_version: out: NICPROG_RING_VERSION
 * @outputs: out: NICPROG_RING_OUTPUTS
 * @pipe_size_min: out: the smallest pipe, a power of two (at least a page)
 * @pipe_size_max: out: NICPROG_PIPE_SIZE_MAX
 * @file_pipes: out: the pipes one open file may hold
 * @file_bytes: out: the data bytes one open file's pipes may hold
 * @file_bufs: out: the NIC buffers one open file may hold
 * @copy_max: out: the most bytes one NICPROG_OP_MEM_COPY moves
 * @buf_max: out: the largest NIC buffer
 *
 * Every field is out: the struct passed in must be zero. Needs no
 * privilege, and answers on a port that has gone too.
 */
struct nicprog_features {
	__u64 ops;
	__u32 cmd_flags;
	__u32 pipe_flags;
	__u32 bind_flags;
	__u32 dirs;
	__u32 framings;
	__u32 ring_version;
	__u32 outputs;
	__u32 pipe_size_min;
	__u32 pipe_size_max;
	__u32 file_pipes;
	__u64 file_bytes;
	__u32 file_bufs;
	__u32 copy_max;
	__u64 buf_max;
};

/*
 * NIC memory. A file allocates buffers in the NIC's memory regions (the
 * LNIC's: their names and sizes are devlink's region_* resources), which
 * are counted with the offloaded tables, and copies between them and its
 * own memory with the NIC's DMA engines. A copy completes (its CQE) when
 * the engine finishes, in the NIC's time: queued behind the engines' other
 * copies, a fixed cost and one per KiB (the LNIC's DMA units' service
 * and per_kib). Buffers are the file's: no other file names them, and
 * they are freed when it closes or the port goes.
 */
#define NICPROG_MEM_REGION_ANY		0xffffffffU
#define NICPROG_MEM_FILE_BUFS		256
#define NICPROG_MEM_BUF_MAX		(64ULL << 20)
#define NICPROG_MEM_COPY_MAX		(4U << 20)

/**
 * struct nicprog_mem_alloc - NICPROG_OP_MEM_ALLOC; res: 0
 * @size: in: bytes, 1..NICPROG_MEM_BUF_MAX; the buffer starts zeroed
 * @region: in: the LNIC region's index, or NICPROG_MEM_REGION_ANY: the
 *	largest a DMA engine reaches. Out: the region it is in
 * @flags: in: 0
 * @id: out: the buffer's id, unique within the open file
 * @__rsvd: 0
 *
 * Needs CAP_NET_ADMIN in the port's network namespace, held by the file's
 * opener: the memory is the NIC's, which its programs' tables need too.
 * ENOSPC when the region has no room (tables and buffers of every port
 * counted), EMFILE past NICPROG_MEM_FILE_BUFS.
 */
struct nicprog_mem_alloc {
	__u64 size;
	__u32 region;
	__u32 flags;
	__u32 id;
	__u32 __rsvd;
};

/**
 * struct nicprog_mem_free - NICPROG_OP_MEM_FREE; res: 0
 * @id: a buffer of the file
 * @flags: 0
 */
struct nicprog_mem_free {
	__u32 id;
	__u32 flags;
};

/* struct nicprog_mem_copy.dir */
enum nicprog_mem_dir {
	NICPROG_MEM_DIR_UNSPEC,
	NICPROG_MEM_TO_NIC,	/* user memory to the buffer */
	NICPROG_MEM_FROM_NIC,	/* the buffer to user memory */

	__NICPROG_MEM_DIR_MAX
};

/**
 * struct nicprog_mem_copy - NICPROG_OP_MEM_COPY; res: bytes copied
 * @id: a buffer of the file
 * @dir: enum nicprog_mem_dir
 * @offset: where in the buffer
 * @len: bytes, 1..NICPROG_MEM_COPY_MAX, within the buffer
 * @addr: the user memory; read (TO_NIC) when the command is issued,
 *	written (FROM_NIC) before it completes
 * @flags: 0
 * @__rsvd: 0
 *
 * The CQE comes when the NIC's DMA engine is done; commands in flight
 * together are served by the NIC's engines in parallel, each in order.
 */
struct nicprog_mem_copy {
	__u32 id;
	__u32 dir;
	__u64 offset;
	__u64 len;
	__u64 addr;
	__u32 flags;
	__u32 __rsvd;
};

/*
 * RDMA: the NIC's RoCEv2 engine, reliable connected (RC) queue pairs
 * (after RecoNIC). An open file creates QPs on its port, registers memory
 * regions over its NIC buffers, posts work requests -- a batch per
 * NICPROG_OP_POST, the doorbell -- and reaps their completions with
 * NICPROG_OP_POLL. The file is the completion queue of its QPs. Like
 * buffers, QPs and MRs are the file's and go with it or with the port.
 * Every command needs CAP_NET_ADMIN in the port's namespace, held by the
 * file's opener: QPs put frames on the wire and take them off it.
 */
#define NICPROG_RDMA_FILE_QPS		64
#define NICPROG_RDMA_FILE_MRS		256
#define NICPROG_RDMA_QP_DEPTH		1024	/* most WRs of a queue */
#define NICPROG_RDMA_POST_MAX		256	/* WRs a post */
#define NICPROG_RDMA_POLL_MAX		256	/* WCs a poll */
#define NICPROG_RDMA_MSG_MAX		(8U << 20)	/* bytes a message, as rxe's */

/**
 * struct nicprog_qp_create - NICPROG_OP_QP_CREATE; res: 0
 * @qpn: out: the QP's number on the wire (24 bits)
 * @flags: 0
 * @sq_depth: WRs its send queue holds, 1..NICPROG_RDMA_QP_DEPTH
 * @rq_depth: WRs its receive queue holds, 1..NICPROG_RDMA_QP_DEPTH
 * @__rsvd: 0
 * @gid: the QP's own address: an IPv4-mapped IPv6 address
 *	(::ffff:a.b.c.d), the RoCEv2 GID of the NIC's port for it
 */
struct nicprog_qp_create {
	__u32 qpn;
	__u32 flags;
	__u32 sq_depth;
	__u32 rq_depth;
	__u32 __rsvd;
	__u8 gid[16];
};

/**
 * struct nicprog_qp_connect - NICPROG_OP_QP_CONNECT; res: 0
 * @qpn: a QP of the file, not connected yet
 * @dest_qpn: the peer's QP number (24 bits)
 * @rq_psn: the PSN of the first request the peer sends (24 bits)
 * @sq_psn: the PSN of the first request this QP sends (24 bits)
 * @mtu: path MTU: 256, 512, 1024, 2048 or 4096
 * @timeout_ms: retransmission timeout, 1..10000
 * @retry_cnt: retransmissions of one packet before giving up, 0..7
 * @flags: 0
 * @dgid: the peer's address, IPv4-mapped
 * @dmac: the peer's (or next hop's) Ethernet address
 * @max_rd_atomic: RDMA READs the QP has outstanding at most: the peer's
 *	responder resources (its max_dest_rd_atomic), 1..
 *	NICPROG_RDMA_RD_ATOMIC_MAX; 0 is 1. A READ past it waits, and the
 *	WRs after it, until an earlier READ completes.
 * @__pad: 0
 *
 * The QP goes to RTS (ready to send): requests flow both ways.
 */
struct nicprog_qp_connect {
	__u32 qpn;
	__u32 dest_qpn;
	__u32 rq_psn;
	__u32 sq_psn;
	__u32 mtu;
	__u32 timeout_ms;
	__u32 retry_cnt;
	__u32 flags;
	__u8 dgid[16];
	__u8 dmac[6];
	__u8 max_rd_atomic;
	__u8 __pad;
};

#define NICPROG_RDMA_RD_ATOMIC_MAX	16

/**
 * struct nicprog_qp_destroy - NICPROG_OP_QP_DESTROY; res: 0
 * @qpn: a QP of the file; its WRs not complete are flushed (no WC)
 * @flags: 0
 */
struct nicprog_qp_destroy {
	__u32 qpn;
	__u32 flags;
};

/* struct nicprog_mr_reg.access */
#define NICPROG_ACCESS_LOCAL_WRITE	_BITUL(0)
#define NICPROG_ACCESS_REMOTE_WRITE	_BITUL(1)
#define NICPROG_ACCESS_REMOTE_READ	_BITUL(2)
#define NICPROG_ACCESS_ALL		(NICPROG_ACCESS_LOCAL_WRITE | \
					 NICPROG_ACCESS_REMOTE_WRITE | \
					 NICPROG_ACCESS_REMOTE_READ)

/**
 * struct nicprog_mr_reg - NICPROG_OP_MR_REG; res: 0
 * @buf: a NIC buffer of the file (NICPROG_OP_MEM_ALLOC); it cannot be
 *	freed while a region is registered over it (EBUSY)
 * @access: NICPROG_ACCESS_*
 * @offset: where in the buffer the region starts
 * @len: its bytes, 1.. within the buffer
 * @iova: the address work requests and the peer name its first byte by
 * @lkey: out: the key local work requests give
 * @rkey: out: the key the peer gives (checked on every access)
 */
struct nicprog_mr_reg {
	__u32 buf;
	__u32 access;
	__u64 offset;
	__u64 len;
	__u64 iova;
	__u32 lkey;
	__u32 rkey;
};

/**
 * struct nicprog_mr_dereg - NICPROG_OP_MR_DEREG; res: 0
 * @lkey: the region's local key
 * @flags: 0
 */
struct nicprog_mr_dereg {
	__u32 lkey;
	__u32 flags;
};

/* struct nicprog_rdma_wr.opcode */
enum nicprog_wr_opcode {
	NICPROG_WR_UNSPEC,
	NICPROG_WR_SEND,
	NICPROG_WR_SEND_IMM,
	NICPROG_WR_WRITE,
	NICPROG_WR_WRITE_IMM,
	NICPROG_WR_READ,
	NICPROG_WR_RECV,

	__NICPROG_WR_MAX
};

/* struct nicprog_rdma_wr.flags */
#define NICPROG_WR_SIGNALED	_BITUL(0)	/* a WC when done (RECV: always) */
#define NICPROG_WR_F_ALL	NICPROG_WR_SIGNALED

/**
 * struct nicprog_rdma_wr - a work request
 * @wr_id: the caller's, in its WC
 * @qpn: the file's QP it goes to
 * @opcode: enum nicprog_wr_opcode
 * @flags: NICPROG_WR_*
 * @__rsvd: 0
 * @lkey: the local region's key
 * @len: bytes, 0..NICPROG_RDMA_MSG_MAX, within the local region
 * @addr: the local bytes, an iova of the region
 * @raddr: WRITE, READ: the peer's iova
 * @rkey: WRITE, READ: the peer's key
 * @imm: SEND_IMM, WRITE_IMM: the immediate data, as the peer's WC gives it
 */
struct nicprog_rdma_wr {
	__u64 wr_id;
	__u32 qpn;
	__u8 opcode;
	__u8 flags;
	__u16 __rsvd;
	__u32 lkey;
	__u32 len;
	__u64 addr;
	__u64 raddr;
	__u32 rkey;
	__u32 imm;
};

/**
 * struct nicprog_post - NICPROG_OP_POST, one doorbell; res: WRs posted
 * @wrs: user address of @n struct nicprog_rdma_wr
 * @n: 1..NICPROG_RDMA_POST_MAX
 * @wr_size: sizeof(struct nicprog_rdma_wr)
 *
 * All or nothing: a malformed WR, or one that does not fit its queue,
 * fails the command (EINVAL, ENOSPC) with none posted. Keys and ranges
 * are checked by the engine when it runs a WR: a bad one completes with
 * an error status.
 */
struct nicprog_post {
	__u64 wrs;
	__u32 n;
	__u32 wr_size;
};

/* struct nicprog_rdma_wc.status, as ibverbs' (enum ibv_wc_status) */
enum nicprog_wc_status {
	NICPROG_WC_SUCCESS		= 0,
	NICPROG_WC_LOC_LEN_ERR		= 1,
	NICPROG_WC_LOC_PROT_ERR		= 4,
	NICPROG_WC_WR_FLUSH_ERR		= 5,
	NICPROG_WC_REM_INV_REQ_ERR	= 9,
	NICPROG_WC_REM_ACCESS_ERR	= 10,
	NICPROG_WC_REM_OP_ERR		= 11,
	NICPROG_WC_RETRY_EXC_ERR	= 12,
	NICPROG_WC_RNR_RETRY_EXC_ERR	= 13,
};

/* struct nicprog_rdma_wc.flags */
#define NICPROG_WC_IMM		_BITUL(0)	/* @imm is valid */

/**
 * struct nicprog_rdma_wc - a work completion
 * @wr_id: the WR's
 * @qpn: its QP
 * @opcode: its enum nicprog_wr_opcode (a received WRITE_IMM: WRITE_IMM)
 * @status: enum nicprog_wc_status
 * @flags: NICPROG_WC_*
 * @byte_len: RECV: the bytes received
 * @imm: with NICPROG_WC_IMM, the immediate data
 */
struct nicprog_rdma_wc {
	__u64 wr_id;
	__u32 qpn;
	__u8 opcode;
	__u8 status;
	__u16 flags;
	__u32 byte_len;
	__u32 imm;
};

/**
 * struct nicprog_poll - NICPROG_OP_POLL; res: WCs written
 * @wcs: user address of room for @max struct nicprog_rdma_wc
 * @max: 1..NICPROG_RDMA_POLL_MAX
 * @timeout_ms: 0: return at once (busy polling); else wait up to this
 *	long, 1..NICPROG_WAIT_TIMEOUT_MAX, for a first WC (0 WCs: none came)
 */
struct nicprog_poll {
	__u64 wcs;
	__u32 max;
	__u32 timeout_ms;
};

/*
 * Lookaside kernels (after RecoNIC's compute blocks): an XDP program
 * loaded for the NIC (prog_ifindex one of its ports, so the kernel's
 * verifier and nicprog's checked it for the NIC's executor) that runs
 * jobs instead of frames. A job names the kernel, up to NICPROG_JOB_BUFS
 * windows of the file's NIC buffers and NICPROG_JOB_ARGS scalars; the
 * kernel runs on a NIC core on a frame that holds struct
 * nicprog_job_frame and then the windows' bytes (each at a multiple of
 * 8), reads them with direct access or bpf_xdp_load_bytes() and writes
 * its results with bpf_xdp_store_bytes() or direct access. When it
 * returns, the bytes of the windows marked NICPROG_JOB_BUF_WRITE go back
 * to their buffers; nothing else the kernel wrote goes anywhere. The
 * CQE's res is the kernel's return value (its low 31 bits), or -errno:
 * EFAULT when the NIC stopped the kernel (step bound, an instruction or
 * helper it does not run), nothing written back then. A kernel may use no
 * maps, and no helper only the host has: its state is its buffers.
 */
#define NICPROG_KERNELS_MAX		16	/* a file's */
#define NICPROG_JOB_BUFS		8
#define NICPROG_JOB_ARGS		8
#define NICPROG_JOB_FRAME_MAX		(4U << 20)	/* header and windows */

/**
 * struct nicprog_kernel_load - NICPROG_OP_KERNEL_LOAD; res: 0
 * @prog_fd: an XDP program loaded for this port's NIC (prog_ifindex)
 * @flags: 0
 * @id: out: the kernel's id in the file
 * @__rsvd: 0
 *
 * CAP_NET_ADMIN of the opener. The file holds the program until
 * NICPROG_OP_KERNEL_UNLOAD or its close. While any file holds a kernel on
 * a port, the port holds one of the NIC's cores for their jobs, which no
 * plan gets; EBUSY when every core is in a plan.
 */
struct nicprog_kernel_load {
	__u32 prog_fd;
	__u32 flags;
	__u32 id;
	__u32 __rsvd;
};

/**
 * struct nicprog_kernel_unload - NICPROG_OP_KERNEL_UNLOAD; res: 0
 * @id: a kernel of the file
 * @flags: 0
 */
struct nicprog_kernel_unload {
	__u32 id;
	__u32 flags;
};

#define NICPROG_JOB_BUF_WRITE		_BITUL(0)	/* written back */
/*
 * The kernel posts RDMA work: when it returns, the window holds struct
 * nicprog_rdma_wr entries (its length a multiple of their size, at most
 * NICPROG_RDMA_POST_MAX of them) that the NIC posts in order, as one
 * NICPROG_OP_POST of the file would, after the written windows went
 * back; entries whose opcode is 0 are skipped. At most one such window
 * a job. WRs NICPROG_OP_POST would refuse, or a QP the file does not
 * have: res is -EINVAL or -ENOENT, nothing written back, nothing posted;
 * a send queue without room: -ENOSPC, the windows written, nothing
 * posted. Their WCs come to their QPs' CQs as the host's WRs' do.
 */
#define NICPROG_JOB_BUF_POST		_BITUL(1)
/*
 * A window of the opener's own memory, not of a NIC buffer: @id is 0 and
 * @offset the address of its first byte. Its bytes come over the NIC's
 * DMA engines when the job starts (EFAULT, nothing run, if they cannot be
 * read) and, with NICPROG_JOB_BUF_WRITE, go back there when it completes
 * (res -EFAULT if they cannot be written). Not with NICPROG_JOB_BUF_POST.
 */
#define NICPROG_JOB_BUF_HOST		_BITUL(2)
#define NICPROG_JOB_BUF_F_ALL		(NICPROG_JOB_BUF_WRITE |	\
					 NICPROG_JOB_BUF_POST |		\
					 NICPROG_JOB_BUF_HOST)

/**
 * struct nicprog_job_buf - a window of a NIC buffer (or, with
 *	NICPROG_JOB_BUF_HOST, of the opener's memory) a job hands its kernel
 * @id: a buffer of the file (NICPROG_OP_MEM_ALLOC); 0 for a host window
 * @flags: NICPROG_JOB_BUF_*
 * @offset: the window's first byte in the buffer (a host window: its
 *	address)
 * @len: its bytes, 1.. (the frame's total at most NICPROG_JOB_FRAME_MAX)
 */
struct nicprog_job_buf {
	__u32 id;
	__u32 flags;
	__u64 offset;
	__u64 len;
};

/**
 * struct nicprog_job - NICPROG_OP_JOB; res: the kernel's return value
 * @kernel: a kernel of the file
 * @n_bufs: windows in @bufs, 1..NICPROG_JOB_BUFS
 * @job_id: the kernel's to read (struct nicprog_job_frame.job_id)
 * @args: scalars for the kernel
 * @bufs: the windows; the same buffer may appear more than once, but a
 *	written window may overlap no other window of its buffer
 *
 * CAP_NET_ADMIN of the opener.
 */
struct nicprog_job {
	__u32 kernel;
	__u32 n_bufs;
	__u64 job_id;
	__u64 args[NICPROG_JOB_ARGS];
	struct nicprog_job_buf bufs[NICPROG_JOB_BUFS];
};

/**
 * struct nicprog_job_frame - what a kernel's frame starts with
 * @job_id: struct nicprog_job.job_id
 * @n_bufs: windows that follow
 * @__rsvd: 0
 * @args: struct nicprog_job.args
 * @bufs: each window's place in the frame: @off bytes from the frame's
 *	first byte, @len bytes long
 */
struct nicprog_job_frame {
	__u64 job_id;
	__u32 n_bufs;
	__u32 __rsvd;
	__u64 args[NICPROG_JOB_ARGS];
	struct {
		__u32 off;
		__u32 len;
	} bufs[NICPROG_JOB_BUFS];
};

/*
 * Generic netlink family "nicprog" (Documentation/netlink/specs/nicprog.yaml,
 * which documents every attribute): its names and attributes are in
 * <linux/nicprog_nl.h>, which Linux's YNL generator writes from the spec
 * (tools/ynl/ynl-gen); `make check` fails when the two drift apart.
 */
#include <linux/nicprog_nl.h>

#endif /* _UAPI_LINUX_NICPROG_H */
