// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/nicprog.yaml */
/* YNL-GEN user source */

#include <stdlib.h>
#include <string.h>
#include "nicprog-user.h"
#include "ynl.h"
#include <linux/nicprog_nl.h>
#include <linux/nicprog.h>
#include <linux/nicprog.h>
#include <linux/nicprog.h>
#include <linux/nicprog.h>
#include <linux/nicprog.h>
#include <linux/nicprog.h>
#include <linux/nicprog.h>
#include <linux/nicprog.h>

#include <linux/genetlink.h>

/* Enums */
static const char * const nicprog_op_strmap[] = {
	[NICPROG_CMD_DEV_GET] = "dev-get",
	[NICPROG_CMD_DEV_SET] = "dev-set",
	[NICPROG_CMD_PROG_GET] = "prog-get",
	[NICPROG_CMD_STATS_GET] = "stats-get",
	[NICPROG_CMD_PROG_ATTACH_NTF] = "prog-attach-ntf",
	[NICPROG_CMD_PROG_DETACH_NTF] = "prog-detach-ntf",
	[NICPROG_CMD_STAGE_OVERLOAD_NTF] = "stage-overload-ntf",
	[NICPROG_CMD_RING_DROPS_NTF] = "ring-drops-ntf",
	[NICPROG_CMD_PROFILE_SET] = "profile-set",
	[NICPROG_CMD_PREDICT] = "predict",
	[NICPROG_CMD_TABLE_SET] = "table-set",
};

const char *nicprog_op_str(int op)
{
	if (op < 0 || op >= (int)YNL_ARRAY_SIZE(nicprog_op_strmap))
		return NULL;
	return nicprog_op_strmap[op];
}

static const char * const nicprog_shape_strmap[] = {
	[0] = "auto",
	[1] = "single",
	[2] = "replicated",
	[3] = "pipelined",
	[4] = "pipelined-replicated",
};

const char *nicprog_shape_str(enum nicprog_shape value)
{
	if (value < 0 || value >= (int)YNL_ARRAY_SIZE(nicprog_shape_strmap))
		return NULL;
	return nicprog_shape_strmap[value];
}

static const char * const nicprog_steer_strmap[] = {
	[0] = "none",
	[1] = "flow",
	[2] = "key",
	[3] = "key-symmetric",
};

const char *nicprog_steer_str(enum nicprog_steer value)
{
	if (value < 0 || value >= (int)YNL_ARRAY_SIZE(nicprog_steer_strmap))
		return NULL;
	return nicprog_steer_strmap[value];
}

static const char * const nicprog_table_class_strmap[] = {
	[0] = "unused",
	[1] = "readonly",
	[2] = "sharded",
	[3] = "shared",
	[4] = "counter",
};

const char *nicprog_table_class_str(enum nicprog_table_class value)
{
	if (value < 0 || value >= (int)YNL_ARRAY_SIZE(nicprog_table_class_strmap))
		return NULL;
	return nicprog_table_class_strmap[value];
}

static const char * const nicprog_table_kind_strmap[] = {
	[0] = "plain",
	[1] = "lru",
	[2] = "lpm",
	[3] = "percpu",
	[4] = "lru-percpu",
	[5] = "host",
	[6] = "progs",
};

const char *nicprog_table_kind_str(enum nicprog_table_kind value)
{
	if (value < 0 || value >= (int)YNL_ARRAY_SIZE(nicprog_table_kind_strmap))
		return NULL;
	return nicprog_table_kind_strmap[value];
}

static const char * const nicprog_accel_type_strmap[] = {
	[0] = "none",
	[1] = "csum",
	[2] = "crc",
	[3] = "hash",
	[4] = "crypto",
	[5] = "compress",
	[6] = "regex",
};

const char *nicprog_accel_type_str(enum nicprog_accel_type value)
{
	if (value < 0 || value >= (int)YNL_ARRAY_SIZE(nicprog_accel_type_strmap))
		return NULL;
	return nicprog_accel_type_strmap[value];
}

static const char * const nicprog_unit_type_strmap[] = {
	[0] = "unspec",
	[1] = "core",
	[2] = "parser",
	[3] = "mat",
	[4] = "accel",
	[5] = "dma",
};

const char *nicprog_unit_type_str(enum nicprog_unit_type value)
{
	if (value < 0 || value >= (int)YNL_ARRAY_SIZE(nicprog_unit_type_strmap))
		return NULL;
	return nicprog_unit_type_strmap[value];
}

static const char * const nicprog_interleave_strmap[] = {
	[0] = "unknown",
	[1] = "hash",
};

const char *nicprog_interleave_str(enum nicprog_interleave value)
{
	if (value < 0 || value >= (int)YNL_ARRAY_SIZE(nicprog_interleave_strmap))
		return NULL;
	return nicprog_interleave_strmap[value];
}

static const char * const nicprog_pkt_class_strmap[] = {
	[0] = "tcp-syn",
	[1] = "tcp",
	[2] = "udp",
	[3] = "icmp-echo",
	[4] = "arp",
	[5] = "udp6",
	[6] = "tcp6",
};

const char *nicprog_pkt_class_str(enum nicprog_pkt_class value)
{
	if (value < 0 || value >= (int)YNL_ARRAY_SIZE(nicprog_pkt_class_strmap))
		return NULL;
	return nicprog_pkt_class_strmap[value];
}

/* Policies */
const struct ynl_policy_attr nicprog_region_policy[NICPROG_A_REGION_MAX + 1] = {
	[NICPROG_A_REGION_NAME] = { .name = "name", .type = YNL_PT_NUL_STR, },
	[NICPROG_A_REGION_BYTES] = { .name = "bytes", .type = YNL_PT_U64, },
	[NICPROG_A_REGION_LATENCY] = { .name = "latency", .type = YNL_PT_U32, },
	[NICPROG_A_REGION_BANKS] = { .name = "banks", .type = YNL_PT_U32, },
	[NICPROG_A_REGION_CACHE_BYTES] = { .name = "cache-bytes", .type = YNL_PT_U64, },
	[NICPROG_A_REGION_CACHE_LATENCY] = { .name = "cache-latency", .type = YNL_PT_U32, },
	[NICPROG_A_REGION_PAD] = { .name = "pad", .type = YNL_PT_IGNORE, },
	[NICPROG_A_REGION_ISLAND] = { .name = "island", .type = YNL_PT_U32, },
	[NICPROG_A_REGION_INTERLEAVE] = { .name = "interleave", .type = YNL_PT_U32, },
};

const struct ynl_policy_nest nicprog_region_nest = {
	.max_attr = NICPROG_A_REGION_MAX,
	.table = nicprog_region_policy,
};

const struct ynl_policy_attr nicprog_accel_policy[NICPROG_A_ACCEL_MAX + 1] = {
	[NICPROG_A_ACCEL_TYPE] = { .name = "type", .type = YNL_PT_U32, },
	[NICPROG_A_ACCEL_NAME] = { .name = "name", .type = YNL_PT_NUL_STR, },
	[NICPROG_A_ACCEL_COUNT] = { .name = "count", .type = YNL_PT_U32, },
	[NICPROG_A_ACCEL_PLAN_SHARE] = { .name = "plan-share", .type = YNL_PT_U8, },
};

const struct ynl_policy_nest nicprog_accel_nest = {
	.max_attr = NICPROG_A_ACCEL_MAX,
	.table = nicprog_accel_policy,
};

const struct ynl_policy_attr nicprog_stage_policy[NICPROG_A_STAGE_MAX + 1] = {
	[NICPROG_A_STAGE_INDEX] = { .name = "index", .type = YNL_PT_U32, },
	[NICPROG_A_STAGE_FIRST_CORE] = { .name = "first-core", .type = YNL_PT_U32, },
	[NICPROG_A_STAGE_REPLICAS] = { .name = "replicas", .type = YNL_PT_U32, },
	[NICPROG_A_STAGE_STEER] = { .name = "steer", .type = YNL_PT_U8, },
	[NICPROG_A_STAGE_SHARD_TABLE] = { .name = "shard-table", .type = YNL_PT_U32, },
	[NICPROG_A_STAGE_NODES] = { .name = "nodes", .type = YNL_PT_U32, },
	[NICPROG_A_STAGE_STATE_BYTES] = { .name = "state-bytes", .type = YNL_PT_U32, },
	[NICPROG_A_STAGE_COST] = { .name = "cost", .type = YNL_PT_U64, },
	[NICPROG_A_STAGE_PAD] = { .name = "pad", .type = YNL_PT_IGNORE, },
};

const struct ynl_policy_nest nicprog_stage_nest = {
	.max_attr = NICPROG_A_STAGE_MAX,
	.table = nicprog_stage_policy,
};

const struct ynl_policy_attr nicprog_table_policy[NICPROG_A_TABLE_MAX + 1] = {
	[NICPROG_A_TABLE_INDEX] = { .name = "index", .type = YNL_PT_U32, },
	[NICPROG_A_TABLE_NAME] = { .name = "name", .type = YNL_PT_NUL_STR, },
	[NICPROG_A_TABLE_CLASS] = { .name = "class", .type = YNL_PT_U8, },
	[NICPROG_A_TABLE_MAT] = { .name = "mat", .type = YNL_PT_FLAG, },
	[NICPROG_A_TABLE_REGION] = { .name = "region", .type = YNL_PT_NUL_STR, },
	[NICPROG_A_TABLE_ACCESSES] = { .name = "accesses", .type = YNL_PT_U64, },
	[NICPROG_A_TABLE_REASON] = { .name = "reason", .type = YNL_PT_NUL_STR, },
	[NICPROG_A_TABLE_PAD] = { .name = "pad", .type = YNL_PT_IGNORE, },
	[NICPROG_A_TABLE_KIND] = { .name = "kind", .type = YNL_PT_U8, },
	[NICPROG_A_TABLE_HOST_MAP_ID] = { .name = "host-map-id", .type = YNL_PT_U32, },
};

const struct ynl_policy_nest nicprog_table_nest = {
	.max_attr = NICPROG_A_TABLE_MAX,
	.table = nicprog_table_policy,
};

const struct ynl_policy_attr nicprog_host_policy[NICPROG_A_HOST_MAX + 1] = {
	[NICPROG_A_HOST_NODES] = { .name = "nodes", .type = YNL_PT_U32, },
	[NICPROG_A_HOST_INSNS] = { .name = "insns", .type = YNL_PT_U32, },
	[NICPROG_A_HOST_NIC_INSNS] = { .name = "nic-insns", .type = YNL_PT_U32, },
	[NICPROG_A_HOST_SHARE] = { .name = "share", .type = YNL_PT_U32, },
	[NICPROG_A_HOST_STATE_BYTES] = { .name = "state-bytes", .type = YNL_PT_U32, },
	[NICPROG_A_HOST_ENTRY] = { .name = "entry", .type = YNL_PT_U32, },
	[NICPROG_A_HOST_REASON] = { .name = "reason", .type = YNL_PT_NUL_STR, },
};

const struct ynl_policy_nest nicprog_host_nest = {
	.max_attr = NICPROG_A_HOST_MAX,
	.table = nicprog_host_policy,
};

const struct ynl_policy_attr nicprog_plan_unit_policy[NICPROG_A_PLAN_UNIT_MAX + 1] = {
	[NICPROG_A_PLAN_UNIT_TYPE] = { .name = "type", .type = YNL_PT_U8, },
	[NICPROG_A_PLAN_UNIT_ACCEL] = { .name = "accel", .type = YNL_PT_U8, },
	[NICPROG_A_PLAN_UNIT_COUNT] = { .name = "count", .type = YNL_PT_U32, },
	[NICPROG_A_PLAN_UNIT_TOTAL] = { .name = "total", .type = YNL_PT_U32, },
	[NICPROG_A_PLAN_UNIT_SHARE] = { .name = "share", .type = YNL_PT_U8, },
};

const struct ynl_policy_nest nicprog_plan_unit_nest = {
	.max_attr = NICPROG_A_PLAN_UNIT_MAX,
	.table = nicprog_plan_unit_policy,
};

const struct ynl_policy_attr nicprog_class_bracket_policy[NICPROG_A_CLASS_BRACKET_MAX + 1] = {
	[NICPROG_A_CLASS_BRACKET_CLASS] = { .name = "class", .type = YNL_PT_U32, },
	[NICPROG_A_CLASS_BRACKET_NAME] = { .name = "name", .type = YNL_PT_NUL_STR, },
	[NICPROG_A_CLASS_BRACKET_TPUT_MIN] = { .name = "tput-min", .type = YNL_PT_U64, },
	[NICPROG_A_CLASS_BRACKET_TPUT_MAX] = { .name = "tput-max", .type = YNL_PT_U64, },
	[NICPROG_A_CLASS_BRACKET_LATENCY_MIN] = { .name = "latency-min", .type = YNL_PT_U64, },
	[NICPROG_A_CLASS_BRACKET_LATENCY_MAX] = { .name = "latency-max", .type = YNL_PT_U64, },
	[NICPROG_A_CLASS_BRACKET_BLOCKS] = { .name = "blocks", .type = YNL_PT_U32, },
	[NICPROG_A_CLASS_BRACKET_OF_BLOCKS] = { .name = "of-blocks", .type = YNL_PT_U32, },
	[NICPROG_A_CLASS_BRACKET_PAD] = { .name = "pad", .type = YNL_PT_IGNORE, },
};

const struct ynl_policy_nest nicprog_class_bracket_nest = {
	.max_attr = NICPROG_A_CLASS_BRACKET_MAX,
	.table = nicprog_class_bracket_policy,
};

const struct ynl_policy_attr nicprog_core_stats_policy[NICPROG_A_CORE_STATS_MAX + 1] = {
	[NICPROG_A_CORE_STATS_INDEX] = { .name = "index", .type = YNL_PT_U32, },
	[NICPROG_A_CORE_STATS_PACKETS] = { .name = "packets", .type = YNL_PT_U64, },
	[NICPROG_A_CORE_STATS_BUSY] = { .name = "busy", .type = YNL_PT_U64, },
	[NICPROG_A_CORE_STATS_ELAPSED] = { .name = "elapsed", .type = YNL_PT_U64, },
	[NICPROG_A_CORE_STATS_DROPS] = { .name = "drops", .type = YNL_PT_U64, },
	[NICPROG_A_CORE_STATS_PAD] = { .name = "pad", .type = YNL_PT_IGNORE, },
	[NICPROG_A_CORE_STATS_STAGE] = { .name = "stage", .type = YNL_PT_U32, },
};

const struct ynl_policy_nest nicprog_core_stats_nest = {
	.max_attr = NICPROG_A_CORE_STATS_MAX,
	.table = nicprog_core_stats_policy,
};

const struct ynl_policy_attr nicprog_stage_stats_policy[NICPROG_A_STAGE_STATS_MAX + 1] = {
	[NICPROG_A_STAGE_STATS_INDEX] = { .name = "index", .type = YNL_PT_U32, },
	[NICPROG_A_STAGE_STATS_CORES] = { .name = "cores", .type = YNL_PT_U32, },
	[NICPROG_A_STAGE_STATS_PACKETS] = { .name = "packets", .type = YNL_PT_U64, },
	[NICPROG_A_STAGE_STATS_BUSY] = { .name = "busy", .type = YNL_PT_U64, },
	[NICPROG_A_STAGE_STATS_DROPS] = { .name = "drops", .type = YNL_PT_U64, },
	[NICPROG_A_STAGE_STATS_PAD] = { .name = "pad", .type = YNL_PT_IGNORE, },
};

const struct ynl_policy_nest nicprog_stage_stats_nest = {
	.max_attr = NICPROG_A_STAGE_STATS_MAX,
	.table = nicprog_stage_stats_policy,
};

const struct ynl_policy_attr nicprog_table_stats_policy[NICPROG_A_TABLE_STATS_MAX + 1] = {
	[NICPROG_A_TABLE_STATS_INDEX] = { .name = "index", .type = YNL_PT_U32, },
	[NICPROG_A_TABLE_STATS_NAME] = { .name = "name", .type = YNL_PT_NUL_STR, },
	[NICPROG_A_TABLE_STATS_ENTRIES] = { .name = "entries", .type = YNL_PT_U32, },
	[NICPROG_A_TABLE_STATS_MAX_ENTRIES] = { .name = "max-entries", .type = YNL_PT_U32, },
	[NICPROG_A_TABLE_STATS_BYTES] = { .name = "bytes", .type = YNL_PT_U64, },
	[NICPROG_A_TABLE_STATS_PAD] = { .name = "pad", .type = YNL_PT_IGNORE, },
	[NICPROG_A_TABLE_STATS_COUNTER_WORDS] = { .name = "counter-words", .type = YNL_PT_U32, },
	[NICPROG_A_TABLE_STATS_COUNTER] = { .name = "counter", .type = YNL_PT_U64, },
};

const struct ynl_policy_nest nicprog_table_stats_nest = {
	.max_attr = NICPROG_A_TABLE_STATS_MAX,
	.table = nicprog_table_stats_policy,
};

const struct ynl_policy_attr nicprog_ring_stats_policy[NICPROG_A_RING_STATS_MAX + 1] = {
	[NICPROG_A_RING_STATS_OUTPUT] = { .name = "output", .type = YNL_PT_U32, },
	[NICPROG_A_RING_STATS_SIZE] = { .name = "size", .type = YNL_PT_U32, },
	[NICPROG_A_RING_STATS_BYTES] = { .name = "bytes", .type = YNL_PT_U64, },
	[NICPROG_A_RING_STATS_CONSUMED] = { .name = "consumed", .type = YNL_PT_U64, },
	[NICPROG_A_RING_STATS_DROPS] = { .name = "drops", .type = YNL_PT_U64, },
	[NICPROG_A_RING_STATS_DROP_BYTES] = { .name = "drop-bytes", .type = YNL_PT_U64, },
	[NICPROG_A_RING_STATS_BACKPRESSURE] = { .name = "backpressure", .type = YNL_PT_FLAG, },
	[NICPROG_A_RING_STATS_PAD] = { .name = "pad", .type = YNL_PT_IGNORE, },
	[NICPROG_A_RING_STATS_COALESCE_USECS] = { .name = "coalesce-usecs", .type = YNL_PT_U32, },
	[NICPROG_A_RING_STATS_COALESCE_BYTES] = { .name = "coalesce-bytes", .type = YNL_PT_U32, },
};

const struct ynl_policy_nest nicprog_ring_stats_nest = {
	.max_attr = NICPROG_A_RING_STATS_MAX,
	.table = nicprog_ring_stats_policy,
};

const struct ynl_policy_attr nicprog_unit_stats_policy[NICPROG_A_UNIT_STATS_MAX + 1] = {
	[NICPROG_A_UNIT_STATS_TYPE] = { .name = "type", .type = YNL_PT_U8, },
	[NICPROG_A_UNIT_STATS_ACCEL] = { .name = "accel", .type = YNL_PT_U8, },
	[NICPROG_A_UNIT_STATS_COUNT] = { .name = "count", .type = YNL_PT_U32, },
	[NICPROG_A_UNIT_STATS_JOBS] = { .name = "jobs", .type = YNL_PT_U64, },
	[NICPROG_A_UNIT_STATS_BUSY] = { .name = "busy", .type = YNL_PT_U64, },
	[NICPROG_A_UNIT_STATS_WAIT] = { .name = "wait", .type = YNL_PT_U64, },
	[NICPROG_A_UNIT_STATS_ELAPSED] = { .name = "elapsed", .type = YNL_PT_U64, },
	[NICPROG_A_UNIT_STATS_REFUSED] = { .name = "refused", .type = YNL_PT_U64, },
	[NICPROG_A_UNIT_STATS_PAD] = { .name = "pad", .type = YNL_PT_IGNORE, },
};

const struct ynl_policy_nest nicprog_unit_stats_nest = {
	.max_attr = NICPROG_A_UNIT_STATS_MAX,
	.table = nicprog_unit_stats_policy,
};

const struct ynl_policy_attr nicprog_dev_policy[NICPROG_A_DEV_MAX + 1] = {
	[NICPROG_A_DEV_IFINDEX] = { .name = "ifindex", .type = YNL_PT_U32, },
	[NICPROG_A_DEV_IFNAME] = { .name = "ifname", .type = YNL_PT_NUL_STR, },
	[NICPROG_A_DEV_PROFILE] = { .name = "profile", .type = YNL_PT_NUL_STR, },
	[NICPROG_A_DEV_CORES] = { .name = "cores", .type = YNL_PT_U32, },
	[NICPROG_A_DEV_CORE_THREADS] = { .name = "core-threads", .type = YNL_PT_U32, },
	[NICPROG_A_DEV_PARSERS] = { .name = "parsers", .type = YNL_PT_U32, },
	[NICPROG_A_DEV_MAT_STAGES] = { .name = "mat-stages", .type = YNL_PT_U32, },
	[NICPROG_A_DEV_DMA_ENGINES] = { .name = "dma-engines", .type = YNL_PT_U32, },
	[NICPROG_A_DEV_MEM_BYTES] = { .name = "mem-bytes", .type = YNL_PT_U64, },
	[NICPROG_A_DEV_INSN_STORE] = { .name = "insn-store", .type = YNL_PT_U32, },
	[NICPROG_A_DEV_REGION] = { .name = "region", .type = YNL_PT_NEST, .nest = &nicprog_region_nest, },
	[NICPROG_A_DEV_ACCEL] = { .name = "accel", .type = YNL_PT_NEST, .nest = &nicprog_accel_nest, },
	[NICPROG_A_DEV_PLAN_SHAPE] = { .name = "plan-shape", .type = YNL_PT_U8, },
	[NICPROG_A_DEV_PLAN_CORES] = { .name = "plan-cores", .type = YNL_PT_U32, },
	[NICPROG_A_DEV_PLAN_PARTIAL] = { .name = "plan-partial", .type = YNL_PT_U8, },
	[NICPROG_A_DEV_PROG_ID] = { .name = "prog-id", .type = YNL_PT_U32, },
	[NICPROG_A_DEV_CORES_FREE] = { .name = "cores-free", .type = YNL_PT_U32, },
	[NICPROG_A_DEV_PAD] = { .name = "pad", .type = YNL_PT_IGNORE, },
	[NICPROG_A_DEV_LNIC_TEXT] = { .name = "lnic-text", .type = YNL_PT_NUL_STR, },
	[NICPROG_A_DEV_RING_DEV] = { .name = "ring-dev", .type = YNL_PT_NUL_STR, },
	[NICPROG_A_DEV_MAP_FD] = { .name = "map-fd", .type = YNL_PT_U32, },
	[NICPROG_A_DEV_TABLE_KIND] = { .name = "table-kind", .type = YNL_PT_U8, },
	[NICPROG_A_DEV_HOST_MAP_FD] = { .name = "host-map-fd", .type = YNL_PT_U32, },
	[NICPROG_A_DEV_TABLE_COUNTERS] = { .name = "table-counters", .type = YNL_PT_U8, },
};

const struct ynl_policy_nest nicprog_dev_nest = {
	.max_attr = NICPROG_A_DEV_MAX,
	.table = nicprog_dev_policy,
};

const struct ynl_policy_attr nicprog_prog_policy[NICPROG_A_PROG_MAX + 1] = {
	[NICPROG_A_PROG_IFINDEX] = { .name = "ifindex", .type = YNL_PT_U32, },
	[NICPROG_A_PROG_IFNAME] = { .name = "ifname", .type = YNL_PT_NUL_STR, },
	[NICPROG_A_PROG_ID] = { .name = "id", .type = YNL_PT_U32, },
	[NICPROG_A_PROG_NAME] = { .name = "name", .type = YNL_PT_NUL_STR, },
	[NICPROG_A_PROG_INSNS] = { .name = "insns", .type = YNL_PT_U32, },
	[NICPROG_A_PROG_SHAPE] = { .name = "shape", .type = YNL_PT_NUL_STR, },
	[NICPROG_A_PROG_SHAPE_ASKED] = { .name = "shape-asked", .type = YNL_PT_U8, },
	[NICPROG_A_PROG_CORES] = { .name = "cores", .type = YNL_PT_U32, },
	[NICPROG_A_PROG_BUDGET] = { .name = "budget", .type = YNL_PT_U32, },
	[NICPROG_A_PROG_TPUT] = { .name = "tput", .type = YNL_PT_U64, },
	[NICPROG_A_PROG_LATENCY] = { .name = "latency", .type = YNL_PT_U64, },
	[NICPROG_A_PROG_VERIFY_NS] = { .name = "verify-ns", .type = YNL_PT_U64, },
	[NICPROG_A_PROG_PLAN_NS] = { .name = "plan-ns", .type = YNL_PT_U64, },
	[NICPROG_A_PROG_STAGE] = { .name = "stage", .type = YNL_PT_NEST, .nest = &nicprog_stage_nest, },
	[NICPROG_A_PROG_TABLE] = { .name = "table", .type = YNL_PT_NEST, .nest = &nicprog_table_nest, },
	[NICPROG_A_PROG_HOST] = { .name = "host", .type = YNL_PT_NEST, .nest = &nicprog_host_nest, },
	[NICPROG_A_PROG_OLD_ID] = { .name = "old-id", .type = YNL_PT_U32, },
	[NICPROG_A_PROG_PAD] = { .name = "pad", .type = YNL_PT_IGNORE, },
	[NICPROG_A_PROG_FD] = { .name = "fd", .type = YNL_PT_U32, },
	[NICPROG_A_PROG_RATE] = { .name = "rate", .type = YNL_PT_U64, },
	[NICPROG_A_PROG_CAPACITY] = { .name = "capacity", .type = YNL_PT_U64, },
	[NICPROG_A_PROG_LOAD] = { .name = "load", .type = YNL_PT_U32, },
	[NICPROG_A_PROG_UNIT] = { .name = "unit", .type = YNL_PT_NEST, .nest = &nicprog_plan_unit_nest, },
	[NICPROG_A_PROG_READS_CLOCK] = { .name = "reads-clock", .type = YNL_PT_FLAG, },
	[NICPROG_A_PROG_READS_RANDOM] = { .name = "reads-random", .type = YNL_PT_FLAG, },
	[NICPROG_A_PROG_TPUT_MIN] = { .name = "tput-min", .type = YNL_PT_U64, },
	[NICPROG_A_PROG_TPUT_MAX] = { .name = "tput-max", .type = YNL_PT_U64, },
	[NICPROG_A_PROG_LATENCY_MIN] = { .name = "latency-min", .type = YNL_PT_U64, },
	[NICPROG_A_PROG_LATENCY_MAX] = { .name = "latency-max", .type = YNL_PT_U64, },
	[NICPROG_A_PROG_CLASS_BRACKET] = { .name = "class-bracket", .type = YNL_PT_NEST, .nest = &nicprog_class_bracket_nest, },
};

const struct ynl_policy_nest nicprog_prog_nest = {
	.max_attr = NICPROG_A_PROG_MAX,
	.table = nicprog_prog_policy,
};

const struct ynl_policy_attr nicprog_stats_policy[NICPROG_A_STATS_MAX + 1] = {
	[NICPROG_A_STATS_IFINDEX] = { .name = "ifindex", .type = YNL_PT_U32, },
	[NICPROG_A_STATS_IFNAME] = { .name = "ifname", .type = YNL_PT_NUL_STR, },
	[NICPROG_A_STATS_WIRE_RX_PACKETS] = { .name = "wire-rx-packets", .type = YNL_PT_U64, },
	[NICPROG_A_STATS_WIRE_RX_BYTES] = { .name = "wire-rx-bytes", .type = YNL_PT_U64, },
	[NICPROG_A_STATS_WIRE_TX_PACKETS] = { .name = "wire-tx-packets", .type = YNL_PT_U64, },
	[NICPROG_A_STATS_WIRE_TX_BYTES] = { .name = "wire-tx-bytes", .type = YNL_PT_U64, },
	[NICPROG_A_STATS_HOST_RX_PACKETS] = { .name = "host-rx-packets", .type = YNL_PT_U64, },
	[NICPROG_A_STATS_HOST_RX_BYTES] = { .name = "host-rx-bytes", .type = YNL_PT_U64, },
	[NICPROG_A_STATS_NIC_DROPS] = { .name = "nic-drops", .type = YNL_PT_U64, },
	[NICPROG_A_STATS_RING_PIPES] = { .name = "ring-pipes", .type = YNL_PT_U32, },
	[NICPROG_A_STATS_PAD] = { .name = "pad", .type = YNL_PT_IGNORE, },
	[NICPROG_A_STATS_CORE] = { .name = "core", .type = YNL_PT_NEST, .nest = &nicprog_core_stats_nest, },
	[NICPROG_A_STATS_STAGE] = { .name = "stage", .type = YNL_PT_NEST, .nest = &nicprog_stage_stats_nest, },
	[NICPROG_A_STATS_TABLE] = { .name = "table", .type = YNL_PT_NEST, .nest = &nicprog_table_stats_nest, },
	[NICPROG_A_STATS_RING] = { .name = "ring", .type = YNL_PT_NEST, .nest = &nicprog_ring_stats_nest, },
	[NICPROG_A_STATS_UNIT] = { .name = "unit", .type = YNL_PT_NEST, .nest = &nicprog_unit_stats_nest, },
};

const struct ynl_policy_nest nicprog_stats_nest = {
	.max_attr = NICPROG_A_STATS_MAX,
	.table = nicprog_stats_policy,
};

const struct ynl_policy_attr nicprog_event_policy[NICPROG_A_EVENT_MAX + 1] = {
	[NICPROG_A_EVENT_IFINDEX] = { .name = "ifindex", .type = YNL_PT_U32, },
	[NICPROG_A_EVENT_IFNAME] = { .name = "ifname", .type = YNL_PT_NUL_STR, },
	[NICPROG_A_EVENT_STAGE] = { .name = "stage", .type = YNL_PT_U32, },
	[NICPROG_A_EVENT_DROPS] = { .name = "drops", .type = YNL_PT_U64, },
	[NICPROG_A_EVENT_DROP_BYTES] = { .name = "drop-bytes", .type = YNL_PT_U64, },
	[NICPROG_A_EVENT_OUTPUTS] = { .name = "outputs", .type = YNL_PT_U64, },
	[NICPROG_A_EVENT_PAD] = { .name = "pad", .type = YNL_PT_IGNORE, },
};

const struct ynl_policy_nest nicprog_event_nest = {
	.max_attr = NICPROG_A_EVENT_MAX,
	.table = nicprog_event_policy,
};

/* Common nested types */
void nicprog_region_free(struct nicprog_region *obj)
{
	free(obj->name);
}

int nicprog_region_parse(struct ynl_parse_arg *yarg,
			 const struct nlattr *nested)
{
	struct nicprog_region *dst = yarg->data;
	const struct nlattr *attr;

	ynl_attr_for_each_nested(attr, nested) {
		unsigned int type = ynl_attr_type(attr);

		if (type == NICPROG_A_REGION_NAME) {
			unsigned int len;

			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;

			len = strnlen(ynl_attr_get_str(attr), ynl_attr_data_len(attr));
			dst->_present.name_len = len;
			dst->name = malloc(len + 1);
			memcpy(dst->name, ynl_attr_get_str(attr), len);
			dst->name[len] = 0;
		} else if (type == NICPROG_A_REGION_BYTES) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.bytes = 1;
			dst->bytes = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_REGION_LATENCY) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.latency = 1;
			dst->latency = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_REGION_BANKS) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.banks = 1;
			dst->banks = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_REGION_CACHE_BYTES) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.cache_bytes = 1;
			dst->cache_bytes = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_REGION_CACHE_LATENCY) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.cache_latency = 1;
			dst->cache_latency = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_REGION_ISLAND) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.island = 1;
			dst->island = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_REGION_INTERLEAVE) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.interleave = 1;
			dst->interleave = ynl_attr_get_u32(attr);
		}
	}

	return 0;
}

void nicprog_accel_free(struct nicprog_accel *obj)
{
	free(obj->name);
}

int nicprog_accel_put(struct nlmsghdr *nlh, unsigned int attr_type,
		      struct nicprog_accel *obj)
{
	struct nlattr *nest;

	nest = ynl_attr_nest_start(nlh, attr_type);
	if (obj->_present.type)
		ynl_attr_put_u32(nlh, NICPROG_A_ACCEL_TYPE, obj->type);
	if (obj->_present.name_len)
		ynl_attr_put_str(nlh, NICPROG_A_ACCEL_NAME, obj->name);
	if (obj->_present.count)
		ynl_attr_put_u32(nlh, NICPROG_A_ACCEL_COUNT, obj->count);
	if (obj->_present.plan_share)
		ynl_attr_put_u8(nlh, NICPROG_A_ACCEL_PLAN_SHARE, obj->plan_share);
	ynl_attr_nest_end(nlh, nest);

	return 0;
}

int nicprog_accel_parse(struct ynl_parse_arg *yarg,
			const struct nlattr *nested)
{
	struct nicprog_accel *dst = yarg->data;
	const struct nlattr *attr;

	ynl_attr_for_each_nested(attr, nested) {
		unsigned int type = ynl_attr_type(attr);

		if (type == NICPROG_A_ACCEL_TYPE) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.type = 1;
			dst->type = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_ACCEL_NAME) {
			unsigned int len;

			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;

			len = strnlen(ynl_attr_get_str(attr), ynl_attr_data_len(attr));
			dst->_present.name_len = len;
			dst->name = malloc(len + 1);
			memcpy(dst->name, ynl_attr_get_str(attr), len);
			dst->name[len] = 0;
		} else if (type == NICPROG_A_ACCEL_COUNT) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.count = 1;
			dst->count = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_ACCEL_PLAN_SHARE) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.plan_share = 1;
			dst->plan_share = ynl_attr_get_u8(attr);
		}
	}

	return 0;
}

void nicprog_stage_free(struct nicprog_stage *obj)
{
}

int nicprog_stage_parse(struct ynl_parse_arg *yarg,
			const struct nlattr *nested)
{
	struct nicprog_stage *dst = yarg->data;
	const struct nlattr *attr;

	ynl_attr_for_each_nested(attr, nested) {
		unsigned int type = ynl_attr_type(attr);

		if (type == NICPROG_A_STAGE_INDEX) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.index = 1;
			dst->index = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_STAGE_FIRST_CORE) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.first_core = 1;
			dst->first_core = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_STAGE_REPLICAS) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.replicas = 1;
			dst->replicas = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_STAGE_STEER) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.steer = 1;
			dst->steer = ynl_attr_get_u8(attr);
		} else if (type == NICPROG_A_STAGE_SHARD_TABLE) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.shard_table = 1;
			dst->shard_table = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_STAGE_NODES) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.nodes = 1;
			dst->nodes = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_STAGE_STATE_BYTES) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.state_bytes = 1;
			dst->state_bytes = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_STAGE_COST) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.cost = 1;
			dst->cost = ynl_attr_get_u64(attr);
		}
	}

	return 0;
}

void nicprog_table_free(struct nicprog_table *obj)
{
	free(obj->name);
	free(obj->region);
	free(obj->reason);
}

int nicprog_table_parse(struct ynl_parse_arg *yarg,
			const struct nlattr *nested)
{
	struct nicprog_table *dst = yarg->data;
	const struct nlattr *attr;

	ynl_attr_for_each_nested(attr, nested) {
		unsigned int type = ynl_attr_type(attr);

		if (type == NICPROG_A_TABLE_INDEX) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.index = 1;
			dst->index = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_TABLE_NAME) {
			unsigned int len;

			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;

			len = strnlen(ynl_attr_get_str(attr), ynl_attr_data_len(attr));
			dst->_present.name_len = len;
			dst->name = malloc(len + 1);
			memcpy(dst->name, ynl_attr_get_str(attr), len);
			dst->name[len] = 0;
		} else if (type == NICPROG_A_TABLE_CLASS) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.class = 1;
			dst->class = ynl_attr_get_u8(attr);
		} else if (type == NICPROG_A_TABLE_MAT) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.mat = 1;
		} else if (type == NICPROG_A_TABLE_REGION) {
			unsigned int len;

			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;

			len = strnlen(ynl_attr_get_str(attr), ynl_attr_data_len(attr));
			dst->_present.region_len = len;
			dst->region = malloc(len + 1);
			memcpy(dst->region, ynl_attr_get_str(attr), len);
			dst->region[len] = 0;
		} else if (type == NICPROG_A_TABLE_ACCESSES) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.accesses = 1;
			dst->accesses = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_TABLE_REASON) {
			unsigned int len;

			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;

			len = strnlen(ynl_attr_get_str(attr), ynl_attr_data_len(attr));
			dst->_present.reason_len = len;
			dst->reason = malloc(len + 1);
			memcpy(dst->reason, ynl_attr_get_str(attr), len);
			dst->reason[len] = 0;
		} else if (type == NICPROG_A_TABLE_KIND) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.kind = 1;
			dst->kind = ynl_attr_get_u8(attr);
		} else if (type == NICPROG_A_TABLE_HOST_MAP_ID) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.host_map_id = 1;
			dst->host_map_id = ynl_attr_get_u32(attr);
		}
	}

	return 0;
}

void nicprog_host_free(struct nicprog_host *obj)
{
	free(obj->entry);
	free(obj->reason);
}

int nicprog_host_parse(struct ynl_parse_arg *yarg, const struct nlattr *nested)
{
	struct nicprog_host *dst = yarg->data;
	const struct nlattr *attr;
	unsigned int n_entry = 0;
	int i;

	if (dst->entry)
		return ynl_error_parse(yarg, "attribute already present (host.entry)");

	ynl_attr_for_each_nested(attr, nested) {
		unsigned int type = ynl_attr_type(attr);

		if (type == NICPROG_A_HOST_NODES) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.nodes = 1;
			dst->nodes = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_HOST_INSNS) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.insns = 1;
			dst->insns = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_HOST_NIC_INSNS) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.nic_insns = 1;
			dst->nic_insns = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_HOST_SHARE) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.share = 1;
			dst->share = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_HOST_STATE_BYTES) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.state_bytes = 1;
			dst->state_bytes = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_HOST_ENTRY) {
			n_entry++;
		} else if (type == NICPROG_A_HOST_REASON) {
			unsigned int len;

			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;

			len = strnlen(ynl_attr_get_str(attr), ynl_attr_data_len(attr));
			dst->_present.reason_len = len;
			dst->reason = malloc(len + 1);
			memcpy(dst->reason, ynl_attr_get_str(attr), len);
			dst->reason[len] = 0;
		}
	}

	if (n_entry) {
		dst->entry = calloc(n_entry, sizeof(*dst->entry));
		dst->n_entry = n_entry;
		i = 0;
		ynl_attr_for_each_nested(attr, nested) {
			if (ynl_attr_type(attr) == NICPROG_A_HOST_ENTRY) {
				dst->entry[i] = ynl_attr_get_u32(attr);
				i++;
			}
		}
	}

	return 0;
}

void nicprog_plan_unit_free(struct nicprog_plan_unit *obj)
{
}

int nicprog_plan_unit_parse(struct ynl_parse_arg *yarg,
			    const struct nlattr *nested)
{
	struct nicprog_plan_unit *dst = yarg->data;
	const struct nlattr *attr;

	ynl_attr_for_each_nested(attr, nested) {
		unsigned int type = ynl_attr_type(attr);

		if (type == NICPROG_A_PLAN_UNIT_TYPE) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.type = 1;
			dst->type = ynl_attr_get_u8(attr);
		} else if (type == NICPROG_A_PLAN_UNIT_ACCEL) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.accel = 1;
			dst->accel = ynl_attr_get_u8(attr);
		} else if (type == NICPROG_A_PLAN_UNIT_COUNT) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.count = 1;
			dst->count = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_PLAN_UNIT_TOTAL) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.total = 1;
			dst->total = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_PLAN_UNIT_SHARE) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.share = 1;
			dst->share = ynl_attr_get_u8(attr);
		}
	}

	return 0;
}

void nicprog_class_bracket_free(struct nicprog_class_bracket *obj)
{
	free(obj->name);
}

int nicprog_class_bracket_parse(struct ynl_parse_arg *yarg,
				const struct nlattr *nested)
{
	struct nicprog_class_bracket *dst = yarg->data;
	const struct nlattr *attr;

	ynl_attr_for_each_nested(attr, nested) {
		unsigned int type = ynl_attr_type(attr);

		if (type == NICPROG_A_CLASS_BRACKET_CLASS) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.class = 1;
			dst->class = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_CLASS_BRACKET_NAME) {
			unsigned int len;

			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;

			len = strnlen(ynl_attr_get_str(attr), ynl_attr_data_len(attr));
			dst->_present.name_len = len;
			dst->name = malloc(len + 1);
			memcpy(dst->name, ynl_attr_get_str(attr), len);
			dst->name[len] = 0;
		} else if (type == NICPROG_A_CLASS_BRACKET_TPUT_MIN) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.tput_min = 1;
			dst->tput_min = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_CLASS_BRACKET_TPUT_MAX) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.tput_max = 1;
			dst->tput_max = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_CLASS_BRACKET_LATENCY_MIN) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.latency_min = 1;
			dst->latency_min = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_CLASS_BRACKET_LATENCY_MAX) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.latency_max = 1;
			dst->latency_max = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_CLASS_BRACKET_BLOCKS) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.blocks = 1;
			dst->blocks = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_CLASS_BRACKET_OF_BLOCKS) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.of_blocks = 1;
			dst->of_blocks = ynl_attr_get_u32(attr);
		}
	}

	return 0;
}

void nicprog_core_stats_free(struct nicprog_core_stats *obj)
{
}

int nicprog_core_stats_parse(struct ynl_parse_arg *yarg,
			     const struct nlattr *nested)
{
	struct nicprog_core_stats *dst = yarg->data;
	const struct nlattr *attr;

	ynl_attr_for_each_nested(attr, nested) {
		unsigned int type = ynl_attr_type(attr);

		if (type == NICPROG_A_CORE_STATS_INDEX) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.index = 1;
			dst->index = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_CORE_STATS_PACKETS) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.packets = 1;
			dst->packets = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_CORE_STATS_BUSY) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.busy = 1;
			dst->busy = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_CORE_STATS_ELAPSED) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.elapsed = 1;
			dst->elapsed = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_CORE_STATS_DROPS) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.drops = 1;
			dst->drops = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_CORE_STATS_STAGE) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.stage = 1;
			dst->stage = ynl_attr_get_u32(attr);
		}
	}

	return 0;
}

void nicprog_stage_stats_free(struct nicprog_stage_stats *obj)
{
}

int nicprog_stage_stats_parse(struct ynl_parse_arg *yarg,
			      const struct nlattr *nested)
{
	struct nicprog_stage_stats *dst = yarg->data;
	const struct nlattr *attr;

	ynl_attr_for_each_nested(attr, nested) {
		unsigned int type = ynl_attr_type(attr);

		if (type == NICPROG_A_STAGE_STATS_INDEX) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.index = 1;
			dst->index = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_STAGE_STATS_CORES) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.cores = 1;
			dst->cores = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_STAGE_STATS_PACKETS) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.packets = 1;
			dst->packets = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_STAGE_STATS_BUSY) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.busy = 1;
			dst->busy = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_STAGE_STATS_DROPS) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.drops = 1;
			dst->drops = ynl_attr_get_u64(attr);
		}
	}

	return 0;
}

void nicprog_table_stats_free(struct nicprog_table_stats *obj)
{
	free(obj->name);
	free(obj->counter);
}

int nicprog_table_stats_parse(struct ynl_parse_arg *yarg,
			      const struct nlattr *nested)
{
	struct nicprog_table_stats *dst = yarg->data;
	unsigned int n_counter = 0;
	const struct nlattr *attr;
	int i;

	if (dst->counter)
		return ynl_error_parse(yarg, "attribute already present (table-stats.counter)");

	ynl_attr_for_each_nested(attr, nested) {
		unsigned int type = ynl_attr_type(attr);

		if (type == NICPROG_A_TABLE_STATS_INDEX) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.index = 1;
			dst->index = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_TABLE_STATS_NAME) {
			unsigned int len;

			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;

			len = strnlen(ynl_attr_get_str(attr), ynl_attr_data_len(attr));
			dst->_present.name_len = len;
			dst->name = malloc(len + 1);
			memcpy(dst->name, ynl_attr_get_str(attr), len);
			dst->name[len] = 0;
		} else if (type == NICPROG_A_TABLE_STATS_ENTRIES) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.entries = 1;
			dst->entries = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_TABLE_STATS_MAX_ENTRIES) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.max_entries = 1;
			dst->max_entries = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_TABLE_STATS_BYTES) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.bytes = 1;
			dst->bytes = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_TABLE_STATS_COUNTER_WORDS) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.counter_words = 1;
			dst->counter_words = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_TABLE_STATS_COUNTER) {
			n_counter++;
		}
	}

	if (n_counter) {
		dst->counter = calloc(n_counter, sizeof(*dst->counter));
		dst->n_counter = n_counter;
		i = 0;
		ynl_attr_for_each_nested(attr, nested) {
			if (ynl_attr_type(attr) == NICPROG_A_TABLE_STATS_COUNTER) {
				dst->counter[i] = ynl_attr_get_u64(attr);
				i++;
			}
		}
	}

	return 0;
}

void nicprog_ring_stats_free(struct nicprog_ring_stats *obj)
{
}

int nicprog_ring_stats_parse(struct ynl_parse_arg *yarg,
			     const struct nlattr *nested)
{
	struct nicprog_ring_stats *dst = yarg->data;
	const struct nlattr *attr;

	ynl_attr_for_each_nested(attr, nested) {
		unsigned int type = ynl_attr_type(attr);

		if (type == NICPROG_A_RING_STATS_OUTPUT) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.output = 1;
			dst->output = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_RING_STATS_SIZE) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.size = 1;
			dst->size = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_RING_STATS_BYTES) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.bytes = 1;
			dst->bytes = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_RING_STATS_CONSUMED) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.consumed = 1;
			dst->consumed = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_RING_STATS_DROPS) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.drops = 1;
			dst->drops = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_RING_STATS_DROP_BYTES) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.drop_bytes = 1;
			dst->drop_bytes = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_RING_STATS_BACKPRESSURE) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.backpressure = 1;
		} else if (type == NICPROG_A_RING_STATS_COALESCE_USECS) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.coalesce_usecs = 1;
			dst->coalesce_usecs = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_RING_STATS_COALESCE_BYTES) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.coalesce_bytes = 1;
			dst->coalesce_bytes = ynl_attr_get_u32(attr);
		}
	}

	return 0;
}

void nicprog_unit_stats_free(struct nicprog_unit_stats *obj)
{
}

int nicprog_unit_stats_parse(struct ynl_parse_arg *yarg,
			     const struct nlattr *nested)
{
	struct nicprog_unit_stats *dst = yarg->data;
	const struct nlattr *attr;

	ynl_attr_for_each_nested(attr, nested) {
		unsigned int type = ynl_attr_type(attr);

		if (type == NICPROG_A_UNIT_STATS_TYPE) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.type = 1;
			dst->type = ynl_attr_get_u8(attr);
		} else if (type == NICPROG_A_UNIT_STATS_ACCEL) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.accel = 1;
			dst->accel = ynl_attr_get_u8(attr);
		} else if (type == NICPROG_A_UNIT_STATS_COUNT) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.count = 1;
			dst->count = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_UNIT_STATS_JOBS) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.jobs = 1;
			dst->jobs = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_UNIT_STATS_BUSY) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.busy = 1;
			dst->busy = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_UNIT_STATS_WAIT) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.wait = 1;
			dst->wait = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_UNIT_STATS_ELAPSED) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.elapsed = 1;
			dst->elapsed = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_UNIT_STATS_REFUSED) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.refused = 1;
			dst->refused = ynl_attr_get_u64(attr);
		}
	}

	return 0;
}

/* ============== NICPROG_CMD_DEV_GET ============== */
/* NICPROG_CMD_DEV_GET - do */
void nicprog_dev_get_req_free(struct nicprog_dev_get_req *req)
{
	free(req->ifname);
	free(req);
}

void nicprog_dev_get_rsp_free(struct nicprog_dev_get_rsp *rsp)
{
	unsigned int i;

	free(rsp->ifname);
	free(rsp->profile);
	for (i = 0; i < rsp->n_region; i++)
		nicprog_region_free(&rsp->region[i]);
	free(rsp->region);
	for (i = 0; i < rsp->n_accel; i++)
		nicprog_accel_free(&rsp->accel[i]);
	free(rsp->accel);
	free(rsp->ring_dev);
	free(rsp);
}

int nicprog_dev_get_rsp_parse(const struct nlmsghdr *nlh,
			      struct ynl_parse_arg *yarg)
{
	struct nicprog_dev_get_rsp *dst;
	const struct nlattr *attr;
	struct ynl_parse_arg parg;
	unsigned int n_region = 0;
	unsigned int n_accel = 0;
	int i;

	dst = yarg->data;
	parg.ys = yarg->ys;

	if (dst->accel)
		return ynl_error_parse(yarg, "attribute already present (dev.accel)");
	if (dst->region)
		return ynl_error_parse(yarg, "attribute already present (dev.region)");

	ynl_attr_for_each(attr, nlh, yarg->ys->family->hdr_len) {
		unsigned int type = ynl_attr_type(attr);

		if (type == NICPROG_A_DEV_IFINDEX) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.ifindex = 1;
			dst->ifindex = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_DEV_IFNAME) {
			unsigned int len;

			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;

			len = strnlen(ynl_attr_get_str(attr), ynl_attr_data_len(attr));
			dst->_present.ifname_len = len;
			dst->ifname = malloc(len + 1);
			memcpy(dst->ifname, ynl_attr_get_str(attr), len);
			dst->ifname[len] = 0;
		} else if (type == NICPROG_A_DEV_PROFILE) {
			unsigned int len;

			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;

			len = strnlen(ynl_attr_get_str(attr), ynl_attr_data_len(attr));
			dst->_present.profile_len = len;
			dst->profile = malloc(len + 1);
			memcpy(dst->profile, ynl_attr_get_str(attr), len);
			dst->profile[len] = 0;
		} else if (type == NICPROG_A_DEV_CORES) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.cores = 1;
			dst->cores = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_DEV_CORE_THREADS) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.core_threads = 1;
			dst->core_threads = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_DEV_PARSERS) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.parsers = 1;
			dst->parsers = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_DEV_MAT_STAGES) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.mat_stages = 1;
			dst->mat_stages = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_DEV_DMA_ENGINES) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.dma_engines = 1;
			dst->dma_engines = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_DEV_MEM_BYTES) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.mem_bytes = 1;
			dst->mem_bytes = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_DEV_INSN_STORE) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.insn_store = 1;
			dst->insn_store = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_DEV_REGION) {
			n_region++;
		} else if (type == NICPROG_A_DEV_ACCEL) {
			n_accel++;
		} else if (type == NICPROG_A_DEV_PLAN_SHAPE) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.plan_shape = 1;
			dst->plan_shape = ynl_attr_get_u8(attr);
		} else if (type == NICPROG_A_DEV_PLAN_CORES) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.plan_cores = 1;
			dst->plan_cores = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_DEV_PLAN_PARTIAL) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.plan_partial = 1;
			dst->plan_partial = ynl_attr_get_u8(attr);
		} else if (type == NICPROG_A_DEV_PROG_ID) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.prog_id = 1;
			dst->prog_id = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_DEV_CORES_FREE) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.cores_free = 1;
			dst->cores_free = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_DEV_RING_DEV) {
			unsigned int len;

			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;

			len = strnlen(ynl_attr_get_str(attr), ynl_attr_data_len(attr));
			dst->_present.ring_dev_len = len;
			dst->ring_dev = malloc(len + 1);
			memcpy(dst->ring_dev, ynl_attr_get_str(attr), len);
			dst->ring_dev[len] = 0;
		}
	}

	if (n_accel) {
		dst->accel = calloc(n_accel, sizeof(*dst->accel));
		dst->n_accel = n_accel;
		i = 0;
		parg.rsp_policy = &nicprog_accel_nest;
		ynl_attr_for_each(attr, nlh, yarg->ys->family->hdr_len) {
			if (ynl_attr_type(attr) == NICPROG_A_DEV_ACCEL) {
				parg.data = &dst->accel[i];
				if (nicprog_accel_parse(&parg, attr))
					return YNL_PARSE_CB_ERROR;
				i++;
			}
		}
	}
	if (n_region) {
		dst->region = calloc(n_region, sizeof(*dst->region));
		dst->n_region = n_region;
		i = 0;
		parg.rsp_policy = &nicprog_region_nest;
		ynl_attr_for_each(attr, nlh, yarg->ys->family->hdr_len) {
			if (ynl_attr_type(attr) == NICPROG_A_DEV_REGION) {
				parg.data = &dst->region[i];
				if (nicprog_region_parse(&parg, attr))
					return YNL_PARSE_CB_ERROR;
				i++;
			}
		}
	}

	return YNL_PARSE_CB_OK;
}

struct nicprog_dev_get_rsp *
nicprog_dev_get(struct ynl_sock *ys, struct nicprog_dev_get_req *req)
{
	struct ynl_req_state yrs = { .yarg = { .ys = ys, }, };
	struct nicprog_dev_get_rsp *rsp;
	struct nlmsghdr *nlh;
	int err;

	nlh = ynl_gemsg_start_req(ys, ys->family_id, NICPROG_CMD_DEV_GET, 1);
	ys->req_policy = &nicprog_dev_nest;
	yrs.yarg.rsp_policy = &nicprog_dev_nest;

	if (req->_present.ifindex)
		ynl_attr_put_u32(nlh, NICPROG_A_DEV_IFINDEX, req->ifindex);
	if (req->_present.ifname_len)
		ynl_attr_put_str(nlh, NICPROG_A_DEV_IFNAME, req->ifname);

	rsp = calloc(1, sizeof(*rsp));
	yrs.yarg.data = rsp;
	yrs.cb = nicprog_dev_get_rsp_parse;
	yrs.rsp_cmd = NICPROG_CMD_DEV_GET;

	err = ynl_exec(ys, nlh, &yrs);
	if (err < 0)
		goto err_free;

	return rsp;

err_free:
	nicprog_dev_get_rsp_free(rsp);
	return NULL;
}

/* NICPROG_CMD_DEV_GET - dump */
void nicprog_dev_get_list_free(struct nicprog_dev_get_list *rsp)
{
	struct nicprog_dev_get_list *next = rsp;

	while ((void *)next != YNL_LIST_END) {
		unsigned int i;

		rsp = next;
		next = rsp->next;

		free(rsp->obj.ifname);
		free(rsp->obj.profile);
		for (i = 0; i < rsp->obj.n_region; i++)
			nicprog_region_free(&rsp->obj.region[i]);
		free(rsp->obj.region);
		for (i = 0; i < rsp->obj.n_accel; i++)
			nicprog_accel_free(&rsp->obj.accel[i]);
		free(rsp->obj.accel);
		free(rsp->obj.ring_dev);
		free(rsp);
	}
}

struct nicprog_dev_get_list *nicprog_dev_get_dump(struct ynl_sock *ys)
{
	struct ynl_dump_state yds = {};
	struct nlmsghdr *nlh;
	int err;

	yds.yarg.ys = ys;
	yds.yarg.rsp_policy = &nicprog_dev_nest;
	yds.yarg.data = NULL;
	yds.alloc_sz = sizeof(struct nicprog_dev_get_list);
	yds.cb = nicprog_dev_get_rsp_parse;
	yds.rsp_cmd = NICPROG_CMD_DEV_GET;

	nlh = ynl_gemsg_start_dump(ys, ys->family_id, NICPROG_CMD_DEV_GET, 1);

	err = ynl_exec_dump(ys, nlh, &yds);
	if (err < 0)
		goto free_list;

	return yds.first;

free_list:
	nicprog_dev_get_list_free(yds.first);
	return NULL;
}

/* ============== NICPROG_CMD_DEV_SET ============== */
/* NICPROG_CMD_DEV_SET - do */
void nicprog_dev_set_req_free(struct nicprog_dev_set_req *req)
{
	unsigned int i;

	free(req->ifname);
	for (i = 0; i < req->n_accel; i++)
		nicprog_accel_free(&req->accel[i]);
	free(req->accel);
	free(req);
}

int nicprog_dev_set(struct ynl_sock *ys, struct nicprog_dev_set_req *req)
{
	struct ynl_req_state yrs = { .yarg = { .ys = ys, }, };
	struct nlmsghdr *nlh;
	int err;

	nlh = ynl_gemsg_start_req(ys, ys->family_id, NICPROG_CMD_DEV_SET, 1);
	ys->req_policy = &nicprog_dev_nest;

	if (req->_present.ifindex)
		ynl_attr_put_u32(nlh, NICPROG_A_DEV_IFINDEX, req->ifindex);
	if (req->_present.ifname_len)
		ynl_attr_put_str(nlh, NICPROG_A_DEV_IFNAME, req->ifname);
	if (req->_present.plan_shape)
		ynl_attr_put_u8(nlh, NICPROG_A_DEV_PLAN_SHAPE, req->plan_shape);
	if (req->_present.plan_cores)
		ynl_attr_put_u32(nlh, NICPROG_A_DEV_PLAN_CORES, req->plan_cores);
	if (req->_present.plan_partial)
		ynl_attr_put_u8(nlh, NICPROG_A_DEV_PLAN_PARTIAL, req->plan_partial);
	for (unsigned int i = 0; i < req->n_accel; i++)
		nicprog_accel_put(nlh, NICPROG_A_DEV_ACCEL, &req->accel[i]);

	err = ynl_exec(ys, nlh, &yrs);
	if (err < 0)
		return -1;

	return 0;
}

/* ============== NICPROG_CMD_PROG_GET ============== */
/* NICPROG_CMD_PROG_GET - do */
void nicprog_prog_get_req_free(struct nicprog_prog_get_req *req)
{
	free(req->ifname);
	free(req);
}

void nicprog_prog_get_rsp_free(struct nicprog_prog_get_rsp *rsp)
{
	unsigned int i;

	free(rsp->ifname);
	free(rsp->name);
	free(rsp->shape);
	for (i = 0; i < rsp->n_stage; i++)
		nicprog_stage_free(&rsp->stage[i]);
	free(rsp->stage);
	for (i = 0; i < rsp->n_table; i++)
		nicprog_table_free(&rsp->table[i]);
	free(rsp->table);
	nicprog_host_free(&rsp->host);
	for (i = 0; i < rsp->n_unit; i++)
		nicprog_plan_unit_free(&rsp->unit[i]);
	free(rsp->unit);
	for (i = 0; i < rsp->n_class_bracket; i++)
		nicprog_class_bracket_free(&rsp->class_bracket[i]);
	free(rsp->class_bracket);
	free(rsp);
}

int nicprog_prog_get_rsp_parse(const struct nlmsghdr *nlh,
			       struct ynl_parse_arg *yarg)
{
	struct nicprog_prog_get_rsp *dst;
	unsigned int n_class_bracket = 0;
	const struct nlattr *attr;
	struct ynl_parse_arg parg;
	unsigned int n_stage = 0;
	unsigned int n_table = 0;
	unsigned int n_unit = 0;
	int i;

	dst = yarg->data;
	parg.ys = yarg->ys;

	if (dst->class_bracket)
		return ynl_error_parse(yarg, "attribute already present (prog.class-bracket)");
	if (dst->stage)
		return ynl_error_parse(yarg, "attribute already present (prog.stage)");
	if (dst->table)
		return ynl_error_parse(yarg, "attribute already present (prog.table)");
	if (dst->unit)
		return ynl_error_parse(yarg, "attribute already present (prog.unit)");

	ynl_attr_for_each(attr, nlh, yarg->ys->family->hdr_len) {
		unsigned int type = ynl_attr_type(attr);

		if (type == NICPROG_A_PROG_IFINDEX) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.ifindex = 1;
			dst->ifindex = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_PROG_IFNAME) {
			unsigned int len;

			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;

			len = strnlen(ynl_attr_get_str(attr), ynl_attr_data_len(attr));
			dst->_present.ifname_len = len;
			dst->ifname = malloc(len + 1);
			memcpy(dst->ifname, ynl_attr_get_str(attr), len);
			dst->ifname[len] = 0;
		} else if (type == NICPROG_A_PROG_ID) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.id = 1;
			dst->id = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_PROG_NAME) {
			unsigned int len;

			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;

			len = strnlen(ynl_attr_get_str(attr), ynl_attr_data_len(attr));
			dst->_present.name_len = len;
			dst->name = malloc(len + 1);
			memcpy(dst->name, ynl_attr_get_str(attr), len);
			dst->name[len] = 0;
		} else if (type == NICPROG_A_PROG_INSNS) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.insns = 1;
			dst->insns = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_PROG_SHAPE) {
			unsigned int len;

			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;

			len = strnlen(ynl_attr_get_str(attr), ynl_attr_data_len(attr));
			dst->_present.shape_len = len;
			dst->shape = malloc(len + 1);
			memcpy(dst->shape, ynl_attr_get_str(attr), len);
			dst->shape[len] = 0;
		} else if (type == NICPROG_A_PROG_SHAPE_ASKED) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.shape_asked = 1;
			dst->shape_asked = ynl_attr_get_u8(attr);
		} else if (type == NICPROG_A_PROG_CORES) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.cores = 1;
			dst->cores = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_PROG_BUDGET) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.budget = 1;
			dst->budget = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_PROG_TPUT) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.tput = 1;
			dst->tput = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_PROG_LATENCY) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.latency = 1;
			dst->latency = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_PROG_VERIFY_NS) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.verify_ns = 1;
			dst->verify_ns = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_PROG_PLAN_NS) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.plan_ns = 1;
			dst->plan_ns = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_PROG_STAGE) {
			n_stage++;
		} else if (type == NICPROG_A_PROG_TABLE) {
			n_table++;
		} else if (type == NICPROG_A_PROG_HOST) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.host = 1;

			parg.rsp_policy = &nicprog_host_nest;
			parg.data = &dst->host;
			if (nicprog_host_parse(&parg, attr))
				return YNL_PARSE_CB_ERROR;
		} else if (type == NICPROG_A_PROG_UNIT) {
			n_unit++;
		} else if (type == NICPROG_A_PROG_TPUT_MIN) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.tput_min = 1;
			dst->tput_min = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_PROG_TPUT_MAX) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.tput_max = 1;
			dst->tput_max = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_PROG_LATENCY_MIN) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.latency_min = 1;
			dst->latency_min = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_PROG_LATENCY_MAX) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.latency_max = 1;
			dst->latency_max = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_PROG_CLASS_BRACKET) {
			n_class_bracket++;
		} else if (type == NICPROG_A_PROG_READS_CLOCK) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.reads_clock = 1;
		} else if (type == NICPROG_A_PROG_READS_RANDOM) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.reads_random = 1;
		} else if (type == NICPROG_A_PROG_OLD_ID) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.old_id = 1;
			dst->old_id = ynl_attr_get_u32(attr);
		}
	}

	if (n_class_bracket) {
		dst->class_bracket = calloc(n_class_bracket, sizeof(*dst->class_bracket));
		dst->n_class_bracket = n_class_bracket;
		i = 0;
		parg.rsp_policy = &nicprog_class_bracket_nest;
		ynl_attr_for_each(attr, nlh, yarg->ys->family->hdr_len) {
			if (ynl_attr_type(attr) == NICPROG_A_PROG_CLASS_BRACKET) {
				parg.data = &dst->class_bracket[i];
				if (nicprog_class_bracket_parse(&parg, attr))
					return YNL_PARSE_CB_ERROR;
				i++;
			}
		}
	}
	if (n_stage) {
		dst->stage = calloc(n_stage, sizeof(*dst->stage));
		dst->n_stage = n_stage;
		i = 0;
		parg.rsp_policy = &nicprog_stage_nest;
		ynl_attr_for_each(attr, nlh, yarg->ys->family->hdr_len) {
			if (ynl_attr_type(attr) == NICPROG_A_PROG_STAGE) {
				parg.data = &dst->stage[i];
				if (nicprog_stage_parse(&parg, attr))
					return YNL_PARSE_CB_ERROR;
				i++;
			}
		}
	}
	if (n_table) {
		dst->table = calloc(n_table, sizeof(*dst->table));
		dst->n_table = n_table;
		i = 0;
		parg.rsp_policy = &nicprog_table_nest;
		ynl_attr_for_each(attr, nlh, yarg->ys->family->hdr_len) {
			if (ynl_attr_type(attr) == NICPROG_A_PROG_TABLE) {
				parg.data = &dst->table[i];
				if (nicprog_table_parse(&parg, attr))
					return YNL_PARSE_CB_ERROR;
				i++;
			}
		}
	}
	if (n_unit) {
		dst->unit = calloc(n_unit, sizeof(*dst->unit));
		dst->n_unit = n_unit;
		i = 0;
		parg.rsp_policy = &nicprog_plan_unit_nest;
		ynl_attr_for_each(attr, nlh, yarg->ys->family->hdr_len) {
			if (ynl_attr_type(attr) == NICPROG_A_PROG_UNIT) {
				parg.data = &dst->unit[i];
				if (nicprog_plan_unit_parse(&parg, attr))
					return YNL_PARSE_CB_ERROR;
				i++;
			}
		}
	}

	return YNL_PARSE_CB_OK;
}

struct nicprog_prog_get_rsp *
nicprog_prog_get(struct ynl_sock *ys, struct nicprog_prog_get_req *req)
{
	struct ynl_req_state yrs = { .yarg = { .ys = ys, }, };
	struct nicprog_prog_get_rsp *rsp;
	struct nlmsghdr *nlh;
	int err;

	nlh = ynl_gemsg_start_req(ys, ys->family_id, NICPROG_CMD_PROG_GET, 1);
	ys->req_policy = &nicprog_prog_nest;
	yrs.yarg.rsp_policy = &nicprog_prog_nest;

	if (req->_present.ifindex)
		ynl_attr_put_u32(nlh, NICPROG_A_PROG_IFINDEX, req->ifindex);
	if (req->_present.ifname_len)
		ynl_attr_put_str(nlh, NICPROG_A_PROG_IFNAME, req->ifname);

	rsp = calloc(1, sizeof(*rsp));
	yrs.yarg.data = rsp;
	yrs.cb = nicprog_prog_get_rsp_parse;
	yrs.rsp_cmd = NICPROG_CMD_PROG_GET;

	err = ynl_exec(ys, nlh, &yrs);
	if (err < 0)
		goto err_free;

	return rsp;

err_free:
	nicprog_prog_get_rsp_free(rsp);
	return NULL;
}

/* NICPROG_CMD_PROG_GET - dump */
void nicprog_prog_get_list_free(struct nicprog_prog_get_list *rsp)
{
	struct nicprog_prog_get_list *next = rsp;

	while ((void *)next != YNL_LIST_END) {
		unsigned int i;

		rsp = next;
		next = rsp->next;

		free(rsp->obj.ifname);
		free(rsp->obj.name);
		free(rsp->obj.shape);
		for (i = 0; i < rsp->obj.n_stage; i++)
			nicprog_stage_free(&rsp->obj.stage[i]);
		free(rsp->obj.stage);
		for (i = 0; i < rsp->obj.n_table; i++)
			nicprog_table_free(&rsp->obj.table[i]);
		free(rsp->obj.table);
		nicprog_host_free(&rsp->obj.host);
		for (i = 0; i < rsp->obj.n_unit; i++)
			nicprog_plan_unit_free(&rsp->obj.unit[i]);
		free(rsp->obj.unit);
		for (i = 0; i < rsp->obj.n_class_bracket; i++)
			nicprog_class_bracket_free(&rsp->obj.class_bracket[i]);
		free(rsp->obj.class_bracket);
		free(rsp);
	}
}

struct nicprog_prog_get_list *nicprog_prog_get_dump(struct ynl_sock *ys)
{
	struct ynl_dump_state yds = {};
	struct nlmsghdr *nlh;
	int err;

	yds.yarg.ys = ys;
	yds.yarg.rsp_policy = &nicprog_prog_nest;
	yds.yarg.data = NULL;
	yds.alloc_sz = sizeof(struct nicprog_prog_get_list);
	yds.cb = nicprog_prog_get_rsp_parse;
	yds.rsp_cmd = NICPROG_CMD_PROG_GET;

	nlh = ynl_gemsg_start_dump(ys, ys->family_id, NICPROG_CMD_PROG_GET, 1);

	err = ynl_exec_dump(ys, nlh, &yds);
	if (err < 0)
		goto free_list;

	return yds.first;

free_list:
	nicprog_prog_get_list_free(yds.first);
	return NULL;
}

/* NICPROG_CMD_PROG_GET - notify */
void nicprog_prog_get_ntf_free(struct nicprog_prog_get_ntf *rsp)
{
	unsigned int i;

	free(rsp->obj.ifname);
	free(rsp->obj.name);
	free(rsp->obj.shape);
	for (i = 0; i < rsp->obj.n_stage; i++)
		nicprog_stage_free(&rsp->obj.stage[i]);
	free(rsp->obj.stage);
	for (i = 0; i < rsp->obj.n_table; i++)
		nicprog_table_free(&rsp->obj.table[i]);
	free(rsp->obj.table);
	nicprog_host_free(&rsp->obj.host);
	for (i = 0; i < rsp->obj.n_unit; i++)
		nicprog_plan_unit_free(&rsp->obj.unit[i]);
	free(rsp->obj.unit);
	for (i = 0; i < rsp->obj.n_class_bracket; i++)
		nicprog_class_bracket_free(&rsp->obj.class_bracket[i]);
	free(rsp->obj.class_bracket);
	free(rsp);
}

/* ============== NICPROG_CMD_STATS_GET ============== */
/* NICPROG_CMD_STATS_GET - do */
void nicprog_stats_get_req_free(struct nicprog_stats_get_req *req)
{
	free(req->ifname);
	free(req);
}

void nicprog_stats_get_rsp_free(struct nicprog_stats_get_rsp *rsp)
{
	unsigned int i;

	free(rsp->ifname);
	for (i = 0; i < rsp->n_core; i++)
		nicprog_core_stats_free(&rsp->core[i]);
	free(rsp->core);
	for (i = 0; i < rsp->n_stage; i++)
		nicprog_stage_stats_free(&rsp->stage[i]);
	free(rsp->stage);
	for (i = 0; i < rsp->n_table; i++)
		nicprog_table_stats_free(&rsp->table[i]);
	free(rsp->table);
	for (i = 0; i < rsp->n_ring; i++)
		nicprog_ring_stats_free(&rsp->ring[i]);
	free(rsp->ring);
	for (i = 0; i < rsp->n_unit; i++)
		nicprog_unit_stats_free(&rsp->unit[i]);
	free(rsp->unit);
	free(rsp);
}

int nicprog_stats_get_rsp_parse(const struct nlmsghdr *nlh,
				struct ynl_parse_arg *yarg)
{
	struct nicprog_stats_get_rsp *dst;
	const struct nlattr *attr;
	struct ynl_parse_arg parg;
	unsigned int n_stage = 0;
	unsigned int n_table = 0;
	unsigned int n_core = 0;
	unsigned int n_ring = 0;
	unsigned int n_unit = 0;
	int i;

	dst = yarg->data;
	parg.ys = yarg->ys;

	if (dst->core)
		return ynl_error_parse(yarg, "attribute already present (stats.core)");
	if (dst->ring)
		return ynl_error_parse(yarg, "attribute already present (stats.ring)");
	if (dst->stage)
		return ynl_error_parse(yarg, "attribute already present (stats.stage)");
	if (dst->table)
		return ynl_error_parse(yarg, "attribute already present (stats.table)");
	if (dst->unit)
		return ynl_error_parse(yarg, "attribute already present (stats.unit)");

	ynl_attr_for_each(attr, nlh, yarg->ys->family->hdr_len) {
		unsigned int type = ynl_attr_type(attr);

		if (type == NICPROG_A_STATS_IFINDEX) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.ifindex = 1;
			dst->ifindex = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_STATS_IFNAME) {
			unsigned int len;

			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;

			len = strnlen(ynl_attr_get_str(attr), ynl_attr_data_len(attr));
			dst->_present.ifname_len = len;
			dst->ifname = malloc(len + 1);
			memcpy(dst->ifname, ynl_attr_get_str(attr), len);
			dst->ifname[len] = 0;
		} else if (type == NICPROG_A_STATS_WIRE_RX_PACKETS) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.wire_rx_packets = 1;
			dst->wire_rx_packets = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_STATS_WIRE_RX_BYTES) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.wire_rx_bytes = 1;
			dst->wire_rx_bytes = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_STATS_WIRE_TX_PACKETS) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.wire_tx_packets = 1;
			dst->wire_tx_packets = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_STATS_WIRE_TX_BYTES) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.wire_tx_bytes = 1;
			dst->wire_tx_bytes = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_STATS_HOST_RX_PACKETS) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.host_rx_packets = 1;
			dst->host_rx_packets = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_STATS_HOST_RX_BYTES) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.host_rx_bytes = 1;
			dst->host_rx_bytes = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_STATS_NIC_DROPS) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.nic_drops = 1;
			dst->nic_drops = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_STATS_RING_PIPES) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.ring_pipes = 1;
			dst->ring_pipes = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_STATS_CORE) {
			n_core++;
		} else if (type == NICPROG_A_STATS_STAGE) {
			n_stage++;
		} else if (type == NICPROG_A_STATS_TABLE) {
			n_table++;
		} else if (type == NICPROG_A_STATS_RING) {
			n_ring++;
		} else if (type == NICPROG_A_STATS_UNIT) {
			n_unit++;
		}
	}

	if (n_core) {
		dst->core = calloc(n_core, sizeof(*dst->core));
		dst->n_core = n_core;
		i = 0;
		parg.rsp_policy = &nicprog_core_stats_nest;
		ynl_attr_for_each(attr, nlh, yarg->ys->family->hdr_len) {
			if (ynl_attr_type(attr) == NICPROG_A_STATS_CORE) {
				parg.data = &dst->core[i];
				if (nicprog_core_stats_parse(&parg, attr))
					return YNL_PARSE_CB_ERROR;
				i++;
			}
		}
	}
	if (n_ring) {
		dst->ring = calloc(n_ring, sizeof(*dst->ring));
		dst->n_ring = n_ring;
		i = 0;
		parg.rsp_policy = &nicprog_ring_stats_nest;
		ynl_attr_for_each(attr, nlh, yarg->ys->family->hdr_len) {
			if (ynl_attr_type(attr) == NICPROG_A_STATS_RING) {
				parg.data = &dst->ring[i];
				if (nicprog_ring_stats_parse(&parg, attr))
					return YNL_PARSE_CB_ERROR;
				i++;
			}
		}
	}
	if (n_stage) {
		dst->stage = calloc(n_stage, sizeof(*dst->stage));
		dst->n_stage = n_stage;
		i = 0;
		parg.rsp_policy = &nicprog_stage_stats_nest;
		ynl_attr_for_each(attr, nlh, yarg->ys->family->hdr_len) {
			if (ynl_attr_type(attr) == NICPROG_A_STATS_STAGE) {
				parg.data = &dst->stage[i];
				if (nicprog_stage_stats_parse(&parg, attr))
					return YNL_PARSE_CB_ERROR;
				i++;
			}
		}
	}
	if (n_table) {
		dst->table = calloc(n_table, sizeof(*dst->table));
		dst->n_table = n_table;
		i = 0;
		parg.rsp_policy = &nicprog_table_stats_nest;
		ynl_attr_for_each(attr, nlh, yarg->ys->family->hdr_len) {
			if (ynl_attr_type(attr) == NICPROG_A_STATS_TABLE) {
				parg.data = &dst->table[i];
				if (nicprog_table_stats_parse(&parg, attr))
					return YNL_PARSE_CB_ERROR;
				i++;
			}
		}
	}
	if (n_unit) {
		dst->unit = calloc(n_unit, sizeof(*dst->unit));
		dst->n_unit = n_unit;
		i = 0;
		parg.rsp_policy = &nicprog_unit_stats_nest;
		ynl_attr_for_each(attr, nlh, yarg->ys->family->hdr_len) {
			if (ynl_attr_type(attr) == NICPROG_A_STATS_UNIT) {
				parg.data = &dst->unit[i];
				if (nicprog_unit_stats_parse(&parg, attr))
					return YNL_PARSE_CB_ERROR;
				i++;
			}
		}
	}

	return YNL_PARSE_CB_OK;
}

struct nicprog_stats_get_rsp *
nicprog_stats_get(struct ynl_sock *ys, struct nicprog_stats_get_req *req)
{
	struct ynl_req_state yrs = { .yarg = { .ys = ys, }, };
	struct nicprog_stats_get_rsp *rsp;
	struct nlmsghdr *nlh;
	int err;

	nlh = ynl_gemsg_start_req(ys, ys->family_id, NICPROG_CMD_STATS_GET, 1);
	ys->req_policy = &nicprog_stats_nest;
	yrs.yarg.rsp_policy = &nicprog_stats_nest;

	if (req->_present.ifindex)
		ynl_attr_put_u32(nlh, NICPROG_A_STATS_IFINDEX, req->ifindex);
	if (req->_present.ifname_len)
		ynl_attr_put_str(nlh, NICPROG_A_STATS_IFNAME, req->ifname);

	rsp = calloc(1, sizeof(*rsp));
	yrs.yarg.data = rsp;
	yrs.cb = nicprog_stats_get_rsp_parse;
	yrs.rsp_cmd = NICPROG_CMD_STATS_GET;

	err = ynl_exec(ys, nlh, &yrs);
	if (err < 0)
		goto err_free;

	return rsp;

err_free:
	nicprog_stats_get_rsp_free(rsp);
	return NULL;
}

/* NICPROG_CMD_STATS_GET - dump */
void nicprog_stats_get_list_free(struct nicprog_stats_get_list *rsp)
{
	struct nicprog_stats_get_list *next = rsp;

	while ((void *)next != YNL_LIST_END) {
		unsigned int i;

		rsp = next;
		next = rsp->next;

		free(rsp->obj.ifname);
		for (i = 0; i < rsp->obj.n_core; i++)
			nicprog_core_stats_free(&rsp->obj.core[i]);
		free(rsp->obj.core);
		for (i = 0; i < rsp->obj.n_stage; i++)
			nicprog_stage_stats_free(&rsp->obj.stage[i]);
		free(rsp->obj.stage);
		for (i = 0; i < rsp->obj.n_table; i++)
			nicprog_table_stats_free(&rsp->obj.table[i]);
		free(rsp->obj.table);
		for (i = 0; i < rsp->obj.n_ring; i++)
			nicprog_ring_stats_free(&rsp->obj.ring[i]);
		free(rsp->obj.ring);
		for (i = 0; i < rsp->obj.n_unit; i++)
			nicprog_unit_stats_free(&rsp->obj.unit[i]);
		free(rsp->obj.unit);
		free(rsp);
	}
}

struct nicprog_stats_get_list *nicprog_stats_get_dump(struct ynl_sock *ys)
{
	struct ynl_dump_state yds = {};
	struct nlmsghdr *nlh;
	int err;

	yds.yarg.ys = ys;
	yds.yarg.rsp_policy = &nicprog_stats_nest;
	yds.yarg.data = NULL;
	yds.alloc_sz = sizeof(struct nicprog_stats_get_list);
	yds.cb = nicprog_stats_get_rsp_parse;
	yds.rsp_cmd = NICPROG_CMD_STATS_GET;

	nlh = ynl_gemsg_start_dump(ys, ys->family_id, NICPROG_CMD_STATS_GET, 1);

	err = ynl_exec_dump(ys, nlh, &yds);
	if (err < 0)
		goto free_list;

	return yds.first;

free_list:
	nicprog_stats_get_list_free(yds.first);
	return NULL;
}

/* ============== NICPROG_CMD_PROFILE_SET ============== */
/* NICPROG_CMD_PROFILE_SET - do */
void nicprog_profile_set_req_free(struct nicprog_profile_set_req *req)
{
	free(req->ifname);
	free(req->profile);
	free(req->lnic_text);
	free(req);
}

int nicprog_profile_set(struct ynl_sock *ys,
			struct nicprog_profile_set_req *req)
{
	struct ynl_req_state yrs = { .yarg = { .ys = ys, }, };
	struct nlmsghdr *nlh;
	int err;

	nlh = ynl_gemsg_start_req(ys, ys->family_id, NICPROG_CMD_PROFILE_SET, 1);
	ys->req_policy = &nicprog_dev_nest;

	if (req->_present.ifindex)
		ynl_attr_put_u32(nlh, NICPROG_A_DEV_IFINDEX, req->ifindex);
	if (req->_present.ifname_len)
		ynl_attr_put_str(nlh, NICPROG_A_DEV_IFNAME, req->ifname);
	if (req->_present.profile_len)
		ynl_attr_put_str(nlh, NICPROG_A_DEV_PROFILE, req->profile);
	if (req->_present.lnic_text_len)
		ynl_attr_put_str(nlh, NICPROG_A_DEV_LNIC_TEXT, req->lnic_text);

	err = ynl_exec(ys, nlh, &yrs);
	if (err < 0)
		return -1;

	return 0;
}

/* ============== NICPROG_CMD_PREDICT ============== */
/* NICPROG_CMD_PREDICT - do */
void nicprog_predict_req_free(struct nicprog_predict_req *req)
{
	free(req->ifname);
	free(req);
}

void nicprog_predict_rsp_free(struct nicprog_predict_rsp *rsp)
{
	unsigned int i;

	free(rsp->ifname);
	free(rsp->name);
	free(rsp->shape);
	for (i = 0; i < rsp->n_stage; i++)
		nicprog_stage_free(&rsp->stage[i]);
	free(rsp->stage);
	for (i = 0; i < rsp->n_table; i++)
		nicprog_table_free(&rsp->table[i]);
	free(rsp->table);
	nicprog_host_free(&rsp->host);
	for (i = 0; i < rsp->n_unit; i++)
		nicprog_plan_unit_free(&rsp->unit[i]);
	free(rsp->unit);
	for (i = 0; i < rsp->n_class_bracket; i++)
		nicprog_class_bracket_free(&rsp->class_bracket[i]);
	free(rsp->class_bracket);
	free(rsp);
}

int nicprog_predict_rsp_parse(const struct nlmsghdr *nlh,
			      struct ynl_parse_arg *yarg)
{
	unsigned int n_class_bracket = 0;
	struct nicprog_predict_rsp *dst;
	const struct nlattr *attr;
	struct ynl_parse_arg parg;
	unsigned int n_stage = 0;
	unsigned int n_table = 0;
	unsigned int n_unit = 0;
	int i;

	dst = yarg->data;
	parg.ys = yarg->ys;

	if (dst->class_bracket)
		return ynl_error_parse(yarg, "attribute already present (prog.class-bracket)");
	if (dst->stage)
		return ynl_error_parse(yarg, "attribute already present (prog.stage)");
	if (dst->table)
		return ynl_error_parse(yarg, "attribute already present (prog.table)");
	if (dst->unit)
		return ynl_error_parse(yarg, "attribute already present (prog.unit)");

	ynl_attr_for_each(attr, nlh, yarg->ys->family->hdr_len) {
		unsigned int type = ynl_attr_type(attr);

		if (type == NICPROG_A_PROG_IFINDEX) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.ifindex = 1;
			dst->ifindex = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_PROG_IFNAME) {
			unsigned int len;

			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;

			len = strnlen(ynl_attr_get_str(attr), ynl_attr_data_len(attr));
			dst->_present.ifname_len = len;
			dst->ifname = malloc(len + 1);
			memcpy(dst->ifname, ynl_attr_get_str(attr), len);
			dst->ifname[len] = 0;
		} else if (type == NICPROG_A_PROG_ID) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.id = 1;
			dst->id = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_PROG_NAME) {
			unsigned int len;

			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;

			len = strnlen(ynl_attr_get_str(attr), ynl_attr_data_len(attr));
			dst->_present.name_len = len;
			dst->name = malloc(len + 1);
			memcpy(dst->name, ynl_attr_get_str(attr), len);
			dst->name[len] = 0;
		} else if (type == NICPROG_A_PROG_INSNS) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.insns = 1;
			dst->insns = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_PROG_SHAPE) {
			unsigned int len;

			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;

			len = strnlen(ynl_attr_get_str(attr), ynl_attr_data_len(attr));
			dst->_present.shape_len = len;
			dst->shape = malloc(len + 1);
			memcpy(dst->shape, ynl_attr_get_str(attr), len);
			dst->shape[len] = 0;
		} else if (type == NICPROG_A_PROG_SHAPE_ASKED) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.shape_asked = 1;
			dst->shape_asked = ynl_attr_get_u8(attr);
		} else if (type == NICPROG_A_PROG_CORES) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.cores = 1;
			dst->cores = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_PROG_BUDGET) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.budget = 1;
			dst->budget = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_PROG_TPUT) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.tput = 1;
			dst->tput = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_PROG_LATENCY) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.latency = 1;
			dst->latency = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_PROG_VERIFY_NS) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.verify_ns = 1;
			dst->verify_ns = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_PROG_PLAN_NS) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.plan_ns = 1;
			dst->plan_ns = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_PROG_STAGE) {
			n_stage++;
		} else if (type == NICPROG_A_PROG_TABLE) {
			n_table++;
		} else if (type == NICPROG_A_PROG_HOST) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.host = 1;

			parg.rsp_policy = &nicprog_host_nest;
			parg.data = &dst->host;
			if (nicprog_host_parse(&parg, attr))
				return YNL_PARSE_CB_ERROR;
		} else if (type == NICPROG_A_PROG_CAPACITY) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.capacity = 1;
			dst->capacity = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_PROG_LOAD) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.load = 1;
			dst->load = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_PROG_UNIT) {
			n_unit++;
		} else if (type == NICPROG_A_PROG_TPUT_MIN) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.tput_min = 1;
			dst->tput_min = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_PROG_TPUT_MAX) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.tput_max = 1;
			dst->tput_max = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_PROG_LATENCY_MIN) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.latency_min = 1;
			dst->latency_min = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_PROG_LATENCY_MAX) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.latency_max = 1;
			dst->latency_max = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_PROG_CLASS_BRACKET) {
			n_class_bracket++;
		} else if (type == NICPROG_A_PROG_READS_CLOCK) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.reads_clock = 1;
		} else if (type == NICPROG_A_PROG_READS_RANDOM) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.reads_random = 1;
		}
	}

	if (n_class_bracket) {
		dst->class_bracket = calloc(n_class_bracket, sizeof(*dst->class_bracket));
		dst->n_class_bracket = n_class_bracket;
		i = 0;
		parg.rsp_policy = &nicprog_class_bracket_nest;
		ynl_attr_for_each(attr, nlh, yarg->ys->family->hdr_len) {
			if (ynl_attr_type(attr) == NICPROG_A_PROG_CLASS_BRACKET) {
				parg.data = &dst->class_bracket[i];
				if (nicprog_class_bracket_parse(&parg, attr))
					return YNL_PARSE_CB_ERROR;
				i++;
			}
		}
	}
	if (n_stage) {
		dst->stage = calloc(n_stage, sizeof(*dst->stage));
		dst->n_stage = n_stage;
		i = 0;
		parg.rsp_policy = &nicprog_stage_nest;
		ynl_attr_for_each(attr, nlh, yarg->ys->family->hdr_len) {
			if (ynl_attr_type(attr) == NICPROG_A_PROG_STAGE) {
				parg.data = &dst->stage[i];
				if (nicprog_stage_parse(&parg, attr))
					return YNL_PARSE_CB_ERROR;
				i++;
			}
		}
	}
	if (n_table) {
		dst->table = calloc(n_table, sizeof(*dst->table));
		dst->n_table = n_table;
		i = 0;
		parg.rsp_policy = &nicprog_table_nest;
		ynl_attr_for_each(attr, nlh, yarg->ys->family->hdr_len) {
			if (ynl_attr_type(attr) == NICPROG_A_PROG_TABLE) {
				parg.data = &dst->table[i];
				if (nicprog_table_parse(&parg, attr))
					return YNL_PARSE_CB_ERROR;
				i++;
			}
		}
	}
	if (n_unit) {
		dst->unit = calloc(n_unit, sizeof(*dst->unit));
		dst->n_unit = n_unit;
		i = 0;
		parg.rsp_policy = &nicprog_plan_unit_nest;
		ynl_attr_for_each(attr, nlh, yarg->ys->family->hdr_len) {
			if (ynl_attr_type(attr) == NICPROG_A_PROG_UNIT) {
				parg.data = &dst->unit[i];
				if (nicprog_plan_unit_parse(&parg, attr))
					return YNL_PARSE_CB_ERROR;
				i++;
			}
		}
	}

	return YNL_PARSE_CB_OK;
}

struct nicprog_predict_rsp *
nicprog_predict(struct ynl_sock *ys, struct nicprog_predict_req *req)
{
	struct ynl_req_state yrs = { .yarg = { .ys = ys, }, };
	struct nicprog_predict_rsp *rsp;
	struct nlmsghdr *nlh;
	int err;

	nlh = ynl_gemsg_start_req(ys, ys->family_id, NICPROG_CMD_PREDICT, 1);
	ys->req_policy = &nicprog_prog_nest;
	yrs.yarg.rsp_policy = &nicprog_prog_nest;

	if (req->_present.ifindex)
		ynl_attr_put_u32(nlh, NICPROG_A_PROG_IFINDEX, req->ifindex);
	if (req->_present.ifname_len)
		ynl_attr_put_str(nlh, NICPROG_A_PROG_IFNAME, req->ifname);
	if (req->_present.fd)
		ynl_attr_put_u32(nlh, NICPROG_A_PROG_FD, req->fd);
	if (req->_present.shape_asked)
		ynl_attr_put_u8(nlh, NICPROG_A_PROG_SHAPE_ASKED, req->shape_asked);
	if (req->_present.budget)
		ynl_attr_put_u32(nlh, NICPROG_A_PROG_BUDGET, req->budget);
	if (req->_present.rate)
		ynl_attr_put_u64(nlh, NICPROG_A_PROG_RATE, req->rate);

	rsp = calloc(1, sizeof(*rsp));
	yrs.yarg.data = rsp;
	yrs.cb = nicprog_predict_rsp_parse;
	yrs.rsp_cmd = NICPROG_CMD_PREDICT;

	err = ynl_exec(ys, nlh, &yrs);
	if (err < 0)
		goto err_free;

	return rsp;

err_free:
	nicprog_predict_rsp_free(rsp);
	return NULL;
}

/* ============== NICPROG_CMD_TABLE_SET ============== */
/* NICPROG_CMD_TABLE_SET - do */
void nicprog_table_set_req_free(struct nicprog_table_set_req *req)
{
	free(req->ifname);
	free(req);
}

int nicprog_table_set(struct ynl_sock *ys, struct nicprog_table_set_req *req)
{
	struct ynl_req_state yrs = { .yarg = { .ys = ys, }, };
	struct nlmsghdr *nlh;
	int err;

	nlh = ynl_gemsg_start_req(ys, ys->family_id, NICPROG_CMD_TABLE_SET, 1);
	ys->req_policy = &nicprog_dev_nest;

	if (req->_present.ifindex)
		ynl_attr_put_u32(nlh, NICPROG_A_DEV_IFINDEX, req->ifindex);
	if (req->_present.ifname_len)
		ynl_attr_put_str(nlh, NICPROG_A_DEV_IFNAME, req->ifname);
	if (req->_present.map_fd)
		ynl_attr_put_u32(nlh, NICPROG_A_DEV_MAP_FD, req->map_fd);
	if (req->_present.table_kind)
		ynl_attr_put_u8(nlh, NICPROG_A_DEV_TABLE_KIND, req->table_kind);
	if (req->_present.host_map_fd)
		ynl_attr_put_u32(nlh, NICPROG_A_DEV_HOST_MAP_FD, req->host_map_fd);
	if (req->_present.table_counters)
		ynl_attr_put_u8(nlh, NICPROG_A_DEV_TABLE_COUNTERS, req->table_counters);

	err = ynl_exec(ys, nlh, &yrs);
	if (err < 0)
		return -1;

	return 0;
}

/* NICPROG_CMD_PROG_DETACH_NTF - event */
int nicprog_prog_detach_ntf_rsp_parse(const struct nlmsghdr *nlh,
				      struct ynl_parse_arg *yarg)
{
	struct nicprog_prog_detach_ntf_rsp *dst;
	const struct nlattr *attr;

	dst = yarg->data;

	ynl_attr_for_each(attr, nlh, yarg->ys->family->hdr_len) {
		unsigned int type = ynl_attr_type(attr);

		if (type == NICPROG_A_PROG_IFINDEX) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.ifindex = 1;
			dst->ifindex = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_PROG_IFNAME) {
			unsigned int len;

			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;

			len = strnlen(ynl_attr_get_str(attr), ynl_attr_data_len(attr));
			dst->_present.ifname_len = len;
			dst->ifname = malloc(len + 1);
			memcpy(dst->ifname, ynl_attr_get_str(attr), len);
			dst->ifname[len] = 0;
		} else if (type == NICPROG_A_PROG_ID) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.id = 1;
			dst->id = ynl_attr_get_u32(attr);
		}
	}

	return YNL_PARSE_CB_OK;
}

void nicprog_prog_detach_ntf_free(struct nicprog_prog_detach_ntf *rsp)
{
	free(rsp->obj.ifname);
	free(rsp);
}

/* NICPROG_CMD_STAGE_OVERLOAD_NTF - event */
int nicprog_stage_overload_ntf_rsp_parse(const struct nlmsghdr *nlh,
					 struct ynl_parse_arg *yarg)
{
	struct nicprog_stage_overload_ntf_rsp *dst;
	const struct nlattr *attr;

	dst = yarg->data;

	ynl_attr_for_each(attr, nlh, yarg->ys->family->hdr_len) {
		unsigned int type = ynl_attr_type(attr);

		if (type == NICPROG_A_EVENT_IFINDEX) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.ifindex = 1;
			dst->ifindex = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_EVENT_IFNAME) {
			unsigned int len;

			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;

			len = strnlen(ynl_attr_get_str(attr), ynl_attr_data_len(attr));
			dst->_present.ifname_len = len;
			dst->ifname = malloc(len + 1);
			memcpy(dst->ifname, ynl_attr_get_str(attr), len);
			dst->ifname[len] = 0;
		} else if (type == NICPROG_A_EVENT_STAGE) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.stage = 1;
			dst->stage = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_EVENT_DROPS) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.drops = 1;
			dst->drops = ynl_attr_get_u64(attr);
		}
	}

	return YNL_PARSE_CB_OK;
}

void nicprog_stage_overload_ntf_free(struct nicprog_stage_overload_ntf *rsp)
{
	free(rsp->obj.ifname);
	free(rsp);
}

/* NICPROG_CMD_RING_DROPS_NTF - event */
int nicprog_ring_drops_ntf_rsp_parse(const struct nlmsghdr *nlh,
				     struct ynl_parse_arg *yarg)
{
	struct nicprog_ring_drops_ntf_rsp *dst;
	const struct nlattr *attr;

	dst = yarg->data;

	ynl_attr_for_each(attr, nlh, yarg->ys->family->hdr_len) {
		unsigned int type = ynl_attr_type(attr);

		if (type == NICPROG_A_EVENT_IFINDEX) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.ifindex = 1;
			dst->ifindex = ynl_attr_get_u32(attr);
		} else if (type == NICPROG_A_EVENT_IFNAME) {
			unsigned int len;

			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;

			len = strnlen(ynl_attr_get_str(attr), ynl_attr_data_len(attr));
			dst->_present.ifname_len = len;
			dst->ifname = malloc(len + 1);
			memcpy(dst->ifname, ynl_attr_get_str(attr), len);
			dst->ifname[len] = 0;
		} else if (type == NICPROG_A_EVENT_DROPS) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.drops = 1;
			dst->drops = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_EVENT_DROP_BYTES) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.drop_bytes = 1;
			dst->drop_bytes = ynl_attr_get_u64(attr);
		} else if (type == NICPROG_A_EVENT_OUTPUTS) {
			if (ynl_attr_validate(yarg, attr))
				return YNL_PARSE_CB_ERROR;
			dst->_present.outputs = 1;
			dst->outputs = ynl_attr_get_u64(attr);
		}
	}

	return YNL_PARSE_CB_OK;
}

void nicprog_ring_drops_ntf_free(struct nicprog_ring_drops_ntf *rsp)
{
	free(rsp->obj.ifname);
	free(rsp);
}

static const struct ynl_ntf_info nicprog_ntf_info[] =  {
	[NICPROG_CMD_PROG_ATTACH_NTF] =  {
		.alloc_sz	= sizeof(struct nicprog_prog_get_ntf),
		.cb		= nicprog_prog_get_rsp_parse,
		.policy		= &nicprog_prog_nest,
		.free		= (void *)nicprog_prog_get_ntf_free,
	},
	[NICPROG_CMD_PROG_DETACH_NTF] =  {
		.alloc_sz	= sizeof(struct nicprog_prog_detach_ntf),
		.cb		= nicprog_prog_detach_ntf_rsp_parse,
		.policy		= &nicprog_prog_nest,
		.free		= (void *)nicprog_prog_detach_ntf_free,
	},
	[NICPROG_CMD_STAGE_OVERLOAD_NTF] =  {
		.alloc_sz	= sizeof(struct nicprog_stage_overload_ntf),
		.cb		= nicprog_stage_overload_ntf_rsp_parse,
		.policy		= &nicprog_event_nest,
		.free		= (void *)nicprog_stage_overload_ntf_free,
	},
	[NICPROG_CMD_RING_DROPS_NTF] =  {
		.alloc_sz	= sizeof(struct nicprog_ring_drops_ntf),
		.cb		= nicprog_ring_drops_ntf_rsp_parse,
		.policy		= &nicprog_event_nest,
		.free		= (void *)nicprog_ring_drops_ntf_free,
	},
};

const struct ynl_family ynl_nicprog_family =  {
	.name		= "nicprog",
	.hdr_len	= sizeof(struct genlmsghdr),
	.ntf_info	= nicprog_ntf_info,
	.ntf_info_size	= YNL_ARRAY_SIZE(nicprog_ntf_info),
};
