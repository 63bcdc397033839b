/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause */
/*
 * nicprog - programmable SmartNICs: user API.
 *
 * This header grows with the subsystem: generic netlink attributes,
 * uring_cmd opcodes and ring layouts land here as they are implemented.
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

#include <linux/types.h>

#define NICPROG_GENL_NAME	"nicprog"
#define NICPROG_GENL_VERSION	1

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

	__NICPROG_STEER_MAX
};

#endif /* _UAPI_LINUX_NICPROG_H */
