/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/nicprog.yaml */
/* YNL-GEN user header */

#ifndef _LINUX_NICPROG_GEN_H
#define _LINUX_NICPROG_GEN_H

#include <stdlib.h>
#include <string.h>
#include <linux/types.h>
#include <linux/nicprog_nl.h>
#include <linux/nicprog.h>
#include <linux/nicprog.h>
#include <linux/nicprog.h>
#include <linux/nicprog.h>
#include <linux/nicprog.h>
#include <linux/nicprog.h>
#include <linux/nicprog.h>
#include <linux/nicprog.h>

struct ynl_sock;

extern const struct ynl_family ynl_nicprog_family;

/* Enums */
const char *nicprog_op_str(int op);
const char *nicprog_shape_str(enum nicprog_shape value);
const char *nicprog_steer_str(enum nicprog_steer value);
const char *nicprog_table_class_str(enum nicprog_table_class value);
const char *nicprog_table_kind_str(enum nicprog_table_kind value);
const char *nicprog_accel_type_str(enum nicprog_accel_type value);
const char *nicprog_unit_type_str(enum nicprog_unit_type value);
const char *nicprog_interleave_str(enum nicprog_interleave value);
const char *nicprog_pkt_class_str(enum nicprog_pkt_class value);

/* Common nested types */
struct nicprog_region {
	struct {
		__u32 name_len;
		__u32 bytes:1;
		__u32 latency:1;
		__u32 banks:1;
		__u32 cache_bytes:1;
		__u32 cache_latency:1;
		__u32 island:1;
		__u32 interleave:1;
	} _present;

	char *name;
	__u64 bytes;
	__u32 latency;
	__u32 banks;
	__u64 cache_bytes;
	__u32 cache_latency;
	__u32 island;
	enum nicprog_interleave interleave;
};

struct nicprog_accel {
	struct {
		__u32 type:1;
		__u32 name_len;
		__u32 count:1;
		__u32 plan_share:1;
	} _present;

	enum nicprog_accel_type type;
	char *name;
	__u32 count;
	__u8 plan_share;
};

struct nicprog_stage {
	struct {
		__u32 index:1;
		__u32 first_core:1;
		__u32 replicas:1;
		__u32 steer:1;
		__u32 shard_table:1;
		__u32 nodes:1;
		__u32 state_bytes:1;
		__u32 cost:1;
	} _present;

	__u32 index;
	__u32 first_core;
	__u32 replicas;
	enum nicprog_steer steer;
	__u32 shard_table;
	__u32 nodes;
	__u32 state_bytes;
	__u64 cost;
};

struct nicprog_table {
	struct {
		__u32 index:1;
		__u32 name_len;
		__u32 class:1;
		__u32 mat:1;
		__u32 region_len;
		__u32 accesses:1;
		__u32 reason_len;
		__u32 kind:1;
		__u32 host_map_id:1;
	} _present;

	__u32 index;
	char *name;
	enum nicprog_table_class class;
	char *region;
	__u64 accesses;
	char *reason;
	enum nicprog_table_kind kind;
	__u32 host_map_id;
};

struct nicprog_host {
	struct {
		__u32 nodes:1;
		__u32 insns:1;
		__u32 nic_insns:1;
		__u32 share:1;
		__u32 state_bytes:1;
		__u32 reason_len;
	} _present;

	__u32 nodes;
	__u32 insns;
	__u32 nic_insns;
	__u32 share;
	__u32 state_bytes;
	unsigned int n_entry;
	__u32 *entry;
	char *reason;
};

struct nicprog_plan_unit {
	struct {
		__u32 type:1;
		__u32 accel:1;
		__u32 count:1;
		__u32 total:1;
		__u32 share:1;
	} _present;

	enum nicprog_unit_type type;
	enum nicprog_accel_type accel;
	__u32 count;
	__u32 total;
	__u8 share;
};

struct nicprog_class_bracket {
	struct {
		__u32 class:1;
		__u32 name_len;
		__u32 tput_min:1;
		__u32 tput_max:1;
		__u32 latency_min:1;
		__u32 latency_max:1;
		__u32 blocks:1;
		__u32 of_blocks:1;
	} _present;

	enum nicprog_pkt_class class;
	char *name;
	__u64 tput_min;
	__u64 tput_max;
	__u64 latency_min;
	__u64 latency_max;
	__u32 blocks;
	__u32 of_blocks;
};

struct nicprog_core_stats {
	struct {
		__u32 index:1;
		__u32 packets:1;
		__u32 busy:1;
		__u32 elapsed:1;
		__u32 drops:1;
		__u32 stage:1;
	} _present;

	__u32 index;
	__u64 packets;
	__u64 busy;
	__u64 elapsed;
	__u64 drops;
	__u32 stage;
};

struct nicprog_stage_stats {
	struct {
		__u32 index:1;
		__u32 cores:1;
		__u32 packets:1;
		__u32 busy:1;
		__u32 drops:1;
	} _present;

	__u32 index;
	__u32 cores;
	__u64 packets;
	__u64 busy;
	__u64 drops;
};

struct nicprog_table_stats {
	struct {
		__u32 index:1;
		__u32 name_len;
		__u32 entries:1;
		__u32 max_entries:1;
		__u32 bytes:1;
		__u32 counter_words:1;
	} _present;

	__u32 index;
	char *name;
	__u32 entries;
	__u32 max_entries;
	__u64 bytes;
	__u32 counter_words;
	unsigned int n_counter;
	__u64 *counter;
};

struct nicprog_ring_stats {
	struct {
		__u32 output:1;
		__u32 size:1;
		__u32 bytes:1;
		__u32 consumed:1;
		__u32 drops:1;
		__u32 drop_bytes:1;
		__u32 backpressure:1;
		__u32 coalesce_usecs:1;
		__u32 coalesce_bytes:1;
	} _present;

	__u32 output;
	__u32 size;
	__u64 bytes;
	__u64 consumed;
	__u64 drops;
	__u64 drop_bytes;
	__u32 coalesce_usecs;
	__u32 coalesce_bytes;
};

struct nicprog_unit_stats {
	struct {
		__u32 type:1;
		__u32 accel:1;
		__u32 count:1;
		__u32 jobs:1;
		__u32 busy:1;
		__u32 wait:1;
		__u32 elapsed:1;
		__u32 refused:1;
	} _present;

	enum nicprog_unit_type type;
	enum nicprog_accel_type accel;
	__u32 count;
	__u64 jobs;
	__u64 busy;
	__u64 wait;
	__u64 elapsed;
	__u64 refused;
};

/* ============== NICPROG_CMD_DEV_GET ============== */
/* NICPROG_CMD_DEV_GET - do */
struct nicprog_dev_get_req {
	struct {
		__u32 ifindex:1;
		__u32 ifname_len;
	} _present;

	__u32 ifindex;
	char *ifname;
};

static inline struct nicprog_dev_get_req *nicprog_dev_get_req_alloc(void)
{
	return calloc(1, sizeof(struct nicprog_dev_get_req));
}
void nicprog_dev_get_req_free(struct nicprog_dev_get_req *req);

static inline void
nicprog_dev_get_req_set_ifindex(struct nicprog_dev_get_req *req, __u32 ifindex)
{
	req->_present.ifindex = 1;
	req->ifindex = ifindex;
}
static inline void
nicprog_dev_get_req_set_ifname(struct nicprog_dev_get_req *req,
			       const char *ifname)
{
	free(req->ifname);
	req->_present.ifname_len = strlen(ifname);
	req->ifname = malloc(req->_present.ifname_len + 1);
	memcpy(req->ifname, ifname, req->_present.ifname_len);
	req->ifname[req->_present.ifname_len] = 0;
}

struct nicprog_dev_get_rsp {
	struct {
		__u32 ifindex:1;
		__u32 ifname_len;
		__u32 profile_len;
		__u32 cores:1;
		__u32 core_threads:1;
		__u32 parsers:1;
		__u32 mat_stages:1;
		__u32 dma_engines:1;
		__u32 mem_bytes:1;
		__u32 insn_store:1;
		__u32 plan_shape:1;
		__u32 plan_cores:1;
		__u32 plan_partial:1;
		__u32 prog_id:1;
		__u32 cores_free:1;
		__u32 ring_dev_len;
	} _present;

	__u32 ifindex;
	char *ifname;
	char *profile;
	__u32 cores;
	__u32 core_threads;
	__u32 parsers;
	__u32 mat_stages;
	__u32 dma_engines;
	__u64 mem_bytes;
	__u32 insn_store;
	unsigned int n_region;
	struct nicprog_region *region;
	unsigned int n_accel;
	struct nicprog_accel *accel;
	enum nicprog_shape plan_shape;
	__u32 plan_cores;
	__u8 plan_partial;
	__u32 prog_id;
	__u32 cores_free;
	char *ring_dev;
};

void nicprog_dev_get_rsp_free(struct nicprog_dev_get_rsp *rsp);

/*
 * Get a port, or dump every port of the namespace.
 */
struct nicprog_dev_get_rsp *
nicprog_dev_get(struct ynl_sock *ys, struct nicprog_dev_get_req *req);

/* NICPROG_CMD_DEV_GET - dump */
struct nicprog_dev_get_list {
	struct nicprog_dev_get_list *next;
	struct nicprog_dev_get_rsp obj __attribute__((aligned(8)));
};

void nicprog_dev_get_list_free(struct nicprog_dev_get_list *rsp);

struct nicprog_dev_get_list *nicprog_dev_get_dump(struct ynl_sock *ys);

/* ============== NICPROG_CMD_DEV_SET ============== */
/* NICPROG_CMD_DEV_SET - do */
struct nicprog_dev_set_req {
	struct {
		__u32 ifindex:1;
		__u32 ifname_len;
		__u32 plan_shape:1;
		__u32 plan_cores:1;
		__u32 plan_partial:1;
	} _present;

	__u32 ifindex;
	char *ifname;
	enum nicprog_shape plan_shape;
	__u32 plan_cores;
	__u8 plan_partial;
	unsigned int n_accel;
	struct nicprog_accel *accel;
};

static inline struct nicprog_dev_set_req *nicprog_dev_set_req_alloc(void)
{
	return calloc(1, sizeof(struct nicprog_dev_set_req));
}
void nicprog_dev_set_req_free(struct nicprog_dev_set_req *req);

static inline void
nicprog_dev_set_req_set_ifindex(struct nicprog_dev_set_req *req, __u32 ifindex)
{
	req->_present.ifindex = 1;
	req->ifindex = ifindex;
}
static inline void
nicprog_dev_set_req_set_ifname(struct nicprog_dev_set_req *req,
			       const char *ifname)
{
	free(req->ifname);
	req->_present.ifname_len = strlen(ifname);
	req->ifname = malloc(req->_present.ifname_len + 1);
	memcpy(req->ifname, ifname, req->_present.ifname_len);
	req->ifname[req->_present.ifname_len] = 0;
}
static inline void
nicprog_dev_set_req_set_plan_shape(struct nicprog_dev_set_req *req,
				   enum nicprog_shape plan_shape)
{
	req->_present.plan_shape = 1;
	req->plan_shape = plan_shape;
}
static inline void
nicprog_dev_set_req_set_plan_cores(struct nicprog_dev_set_req *req,
				   __u32 plan_cores)
{
	req->_present.plan_cores = 1;
	req->plan_cores = plan_cores;
}
static inline void
nicprog_dev_set_req_set_plan_partial(struct nicprog_dev_set_req *req,
				     __u8 plan_partial)
{
	req->_present.plan_partial = 1;
	req->plan_partial = plan_partial;
}
static inline void
__nicprog_dev_set_req_set_accel(struct nicprog_dev_set_req *req,
				struct nicprog_accel *accel,
				unsigned int n_accel)
{
	free(req->accel);
	req->accel = accel;
	req->n_accel = n_accel;
}

/*
 * Set what the port's next plan is made for. The settings reach past the port (the NIC's cores and engines, which its other ports share whatever their namespaces; partial offload runs on the host's CPUs), so they need CAP_NET_ADMIN in the initial user namespace.
 */
int nicprog_dev_set(struct ynl_sock *ys, struct nicprog_dev_set_req *req);

/* ============== NICPROG_CMD_PROG_GET ============== */
/* NICPROG_CMD_PROG_GET - do */
struct nicprog_prog_get_req {
	struct {
		__u32 ifindex:1;
		__u32 ifname_len;
	} _present;

	__u32 ifindex;
	char *ifname;
};

static inline struct nicprog_prog_get_req *nicprog_prog_get_req_alloc(void)
{
	return calloc(1, sizeof(struct nicprog_prog_get_req));
}
void nicprog_prog_get_req_free(struct nicprog_prog_get_req *req);

static inline void
nicprog_prog_get_req_set_ifindex(struct nicprog_prog_get_req *req,
				 __u32 ifindex)
{
	req->_present.ifindex = 1;
	req->ifindex = ifindex;
}
static inline void
nicprog_prog_get_req_set_ifname(struct nicprog_prog_get_req *req,
				const char *ifname)
{
	free(req->ifname);
	req->_present.ifname_len = strlen(ifname);
	req->ifname = malloc(req->_present.ifname_len + 1);
	memcpy(req->ifname, ifname, req->_present.ifname_len);
	req->ifname[req->_present.ifname_len] = 0;
}

struct nicprog_prog_get_rsp {
	struct {
		__u32 ifindex:1;
		__u32 ifname_len;
		__u32 id:1;
		__u32 name_len;
		__u32 insns:1;
		__u32 shape_len;
		__u32 shape_asked:1;
		__u32 cores:1;
		__u32 budget:1;
		__u32 tput:1;
		__u32 latency:1;
		__u32 verify_ns:1;
		__u32 plan_ns:1;
		__u32 host:1;
		__u32 tput_min:1;
		__u32 tput_max:1;
		__u32 latency_min:1;
		__u32 latency_max:1;
		__u32 reads_clock:1;
		__u32 reads_random:1;
		__u32 old_id:1;
	} _present;

	__u32 ifindex;
	char *ifname;
	__u32 id;
	char *name;
	__u32 insns;
	char *shape;
	enum nicprog_shape shape_asked;
	__u32 cores;
	__u32 budget;
	__u64 tput;
	__u64 latency;
	__u64 verify_ns;
	__u64 plan_ns;
	unsigned int n_stage;
	struct nicprog_stage *stage;
	unsigned int n_table;
	struct nicprog_table *table;
	struct nicprog_host host;
	unsigned int n_unit;
	struct nicprog_plan_unit *unit;
	__u64 tput_min;
	__u64 tput_max;
	__u64 latency_min;
	__u64 latency_max;
	unsigned int n_class_bracket;
	struct nicprog_class_bracket *class_bracket;
	__u32 old_id;
};

void nicprog_prog_get_rsp_free(struct nicprog_prog_get_rsp *rsp);

/*
 * Get the program a port runs and its plan, or dump those of every port that runs one.
 */
struct nicprog_prog_get_rsp *
nicprog_prog_get(struct ynl_sock *ys, struct nicprog_prog_get_req *req);

/* NICPROG_CMD_PROG_GET - dump */
struct nicprog_prog_get_list {
	struct nicprog_prog_get_list *next;
	struct nicprog_prog_get_rsp obj __attribute__((aligned(8)));
};

void nicprog_prog_get_list_free(struct nicprog_prog_get_list *rsp);

struct nicprog_prog_get_list *nicprog_prog_get_dump(struct ynl_sock *ys);

/* NICPROG_CMD_PROG_GET - notify */
struct nicprog_prog_get_ntf {
	__u16 family;
	__u8 cmd;
	struct ynl_ntf_base_type *next;
	void (*free)(struct nicprog_prog_get_ntf *ntf);
	struct nicprog_prog_get_rsp obj __attribute__((aligned(8)));
};

void nicprog_prog_get_ntf_free(struct nicprog_prog_get_ntf *rsp);

/* ============== NICPROG_CMD_STATS_GET ============== */
/* NICPROG_CMD_STATS_GET - do */
struct nicprog_stats_get_req {
	struct {
		__u32 ifindex:1;
		__u32 ifname_len;
	} _present;

	__u32 ifindex;
	char *ifname;
};

static inline struct nicprog_stats_get_req *nicprog_stats_get_req_alloc(void)
{
	return calloc(1, sizeof(struct nicprog_stats_get_req));
}
void nicprog_stats_get_req_free(struct nicprog_stats_get_req *req);

static inline void
nicprog_stats_get_req_set_ifindex(struct nicprog_stats_get_req *req,
				  __u32 ifindex)
{
	req->_present.ifindex = 1;
	req->ifindex = ifindex;
}
static inline void
nicprog_stats_get_req_set_ifname(struct nicprog_stats_get_req *req,
				 const char *ifname)
{
	free(req->ifname);
	req->_present.ifname_len = strlen(ifname);
	req->ifname = malloc(req->_present.ifname_len + 1);
	memcpy(req->ifname, ifname, req->_present.ifname_len);
	req->ifname[req->_present.ifname_len] = 0;
}

struct nicprog_stats_get_rsp {
	struct {
		__u32 ifindex:1;
		__u32 ifname_len;
		__u32 wire_rx_packets:1;
		__u32 wire_rx_bytes:1;
		__u32 wire_tx_packets:1;
		__u32 wire_tx_bytes:1;
		__u32 host_rx_packets:1;
		__u32 host_rx_bytes:1;
		__u32 nic_drops:1;
		__u32 ring_pipes:1;
	} _present;

	__u32 ifindex;
	char *ifname;
	__u64 wire_rx_packets;
	__u64 wire_rx_bytes;
	__u64 wire_tx_packets;
	__u64 wire_tx_bytes;
	__u64 host_rx_packets;
	__u64 host_rx_bytes;
	__u64 nic_drops;
	__u32 ring_pipes;
	unsigned int n_core;
	struct nicprog_core_stats *core;
	unsigned int n_stage;
	struct nicprog_stage_stats *stage;
	unsigned int n_table;
	struct nicprog_table_stats *table;
	unsigned int n_ring;
	struct nicprog_ring_stats *ring;
	unsigned int n_unit;
	struct nicprog_unit_stats *unit;
};

void nicprog_stats_get_rsp_free(struct nicprog_stats_get_rsp *rsp);

/*
 * Get a port's counters, or dump those of every port.
 */
struct nicprog_stats_get_rsp *
nicprog_stats_get(struct ynl_sock *ys, struct nicprog_stats_get_req *req);

/* NICPROG_CMD_STATS_GET - dump */
struct nicprog_stats_get_list {
	struct nicprog_stats_get_list *next;
	struct nicprog_stats_get_rsp obj __attribute__((aligned(8)));
};

void nicprog_stats_get_list_free(struct nicprog_stats_get_list *rsp);

struct nicprog_stats_get_list *nicprog_stats_get_dump(struct ynl_sock *ys);

/* ============== NICPROG_CMD_PROFILE_SET ============== */
/* NICPROG_CMD_PROFILE_SET - do */
struct nicprog_profile_set_req {
	struct {
		__u32 ifindex:1;
		__u32 ifname_len;
		__u32 profile_len;
		__u32 lnic_text_len;
	} _present;

	__u32 ifindex;
	char *ifname;
	char *profile;
	char *lnic_text;
};

static inline struct nicprog_profile_set_req *
nicprog_profile_set_req_alloc(void)
{
	return calloc(1, sizeof(struct nicprog_profile_set_req));
}
void nicprog_profile_set_req_free(struct nicprog_profile_set_req *req);

static inline void
nicprog_profile_set_req_set_ifindex(struct nicprog_profile_set_req *req,
				    __u32 ifindex)
{
	req->_present.ifindex = 1;
	req->ifindex = ifindex;
}
static inline void
nicprog_profile_set_req_set_ifname(struct nicprog_profile_set_req *req,
				   const char *ifname)
{
	free(req->ifname);
	req->_present.ifname_len = strlen(ifname);
	req->ifname = malloc(req->_present.ifname_len + 1);
	memcpy(req->ifname, ifname, req->_present.ifname_len);
	req->ifname[req->_present.ifname_len] = 0;
}
static inline void
nicprog_profile_set_req_set_profile(struct nicprog_profile_set_req *req,
				    const char *profile)
{
	free(req->profile);
	req->_present.profile_len = strlen(profile);
	req->profile = malloc(req->_present.profile_len + 1);
	memcpy(req->profile, profile, req->_present.profile_len);
	req->profile[req->_present.profile_len] = 0;
}
static inline void
nicprog_profile_set_req_set_lnic_text(struct nicprog_profile_set_req *req,
				      const char *lnic_text)
{
	free(req->lnic_text);
	req->_present.lnic_text_len = strlen(lnic_text);
	req->lnic_text = malloc(req->_present.lnic_text_len + 1);
	memcpy(req->lnic_text, lnic_text, req->_present.lnic_text_len);
	req->lnic_text[req->_present.lnic_text_len] = 0;
}

/*
 * Give the port's NIC another architecture profile, by name or as text, as reflashing it does: every port of the NIC changes, and none may have a program or an offloaded map. Needs CAP_NET_ADMIN in the initial user namespace, since ports of the NIC may be in other network namespaces. Only drivers that can change their profile support it (nicsim).
 */
int nicprog_profile_set(struct ynl_sock *ys,
			struct nicprog_profile_set_req *req);

/* ============== NICPROG_CMD_PREDICT ============== */
/* NICPROG_CMD_PREDICT - do */
struct nicprog_predict_req {
	struct {
		__u32 ifindex:1;
		__u32 ifname_len;
		__u32 fd:1;
		__u32 shape_asked:1;
		__u32 budget:1;
		__u32 rate:1;
	} _present;

	__u32 ifindex;
	char *ifname;
	__u32 fd;
	enum nicprog_shape shape_asked;
	__u32 budget;
	__u64 rate;
};

static inline struct nicprog_predict_req *nicprog_predict_req_alloc(void)
{
	return calloc(1, sizeof(struct nicprog_predict_req));
}
void nicprog_predict_req_free(struct nicprog_predict_req *req);

static inline void
nicprog_predict_req_set_ifindex(struct nicprog_predict_req *req, __u32 ifindex)
{
	req->_present.ifindex = 1;
	req->ifindex = ifindex;
}
static inline void
nicprog_predict_req_set_ifname(struct nicprog_predict_req *req,
			       const char *ifname)
{
	free(req->ifname);
	req->_present.ifname_len = strlen(ifname);
	req->ifname = malloc(req->_present.ifname_len + 1);
	memcpy(req->ifname, ifname, req->_present.ifname_len);
	req->ifname[req->_present.ifname_len] = 0;
}
static inline void
nicprog_predict_req_set_fd(struct nicprog_predict_req *req, __u32 fd)
{
	req->_present.fd = 1;
	req->fd = fd;
}
static inline void
nicprog_predict_req_set_shape_asked(struct nicprog_predict_req *req,
				    enum nicprog_shape shape_asked)
{
	req->_present.shape_asked = 1;
	req->shape_asked = shape_asked;
}
static inline void
nicprog_predict_req_set_budget(struct nicprog_predict_req *req, __u32 budget)
{
	req->_present.budget = 1;
	req->budget = budget;
}
static inline void
nicprog_predict_req_set_rate(struct nicprog_predict_req *req, __u64 rate)
{
	req->_present.rate = 1;
	req->rate = rate;
}

struct nicprog_predict_rsp {
	struct {
		__u32 ifindex:1;
		__u32 ifname_len;
		__u32 id:1;
		__u32 name_len;
		__u32 insns:1;
		__u32 shape_len;
		__u32 shape_asked:1;
		__u32 cores:1;
		__u32 budget:1;
		__u32 tput:1;
		__u32 latency:1;
		__u32 verify_ns:1;
		__u32 plan_ns:1;
		__u32 host:1;
		__u32 capacity:1;
		__u32 load:1;
		__u32 tput_min:1;
		__u32 tput_max:1;
		__u32 latency_min:1;
		__u32 latency_max:1;
		__u32 reads_clock:1;
		__u32 reads_random:1;
	} _present;

	__u32 ifindex;
	char *ifname;
	__u32 id;
	char *name;
	__u32 insns;
	char *shape;
	enum nicprog_shape shape_asked;
	__u32 cores;
	__u32 budget;
	__u64 tput;
	__u64 latency;
	__u64 verify_ns;
	__u64 plan_ns;
	unsigned int n_stage;
	struct nicprog_stage *stage;
	unsigned int n_table;
	struct nicprog_table *table;
	struct nicprog_host host;
	__u64 capacity;
	__u32 load;
	unsigned int n_unit;
	struct nicprog_plan_unit *unit;
	__u64 tput_min;
	__u64 tput_max;
	__u64 latency_min;
	__u64 latency_max;
	unsigned int n_class_bracket;
	struct nicprog_class_bracket *class_bracket;
};

void nicprog_predict_rsp_free(struct nicprog_predict_rsp *rsp);

/*
 * Plan a program loaded for offload to the port, as attaching it would now, and reply with the plan and its prediction, without attaching or changing anything. The shape and cores may be given instead of the port's settings; a rate gives the share of the predicted capacity the workload asks for.
 */
struct nicprog_predict_rsp *
nicprog_predict(struct ynl_sock *ys, struct nicprog_predict_req *req);

/* ============== NICPROG_CMD_TABLE_SET ============== */
/* NICPROG_CMD_TABLE_SET - do */
struct nicprog_table_set_req {
	struct {
		__u32 ifindex:1;
		__u32 ifname_len;
		__u32 map_fd:1;
		__u32 table_kind:1;
		__u32 host_map_fd:1;
		__u32 table_counters:1;
	} _present;

	__u32 ifindex;
	char *ifname;
	__u32 map_fd;
	enum nicprog_table_kind table_kind;
	__u32 host_map_fd;
	__u8 table_counters;
};

static inline struct nicprog_table_set_req *nicprog_table_set_req_alloc(void)
{
	return calloc(1, sizeof(struct nicprog_table_set_req));
}
void nicprog_table_set_req_free(struct nicprog_table_set_req *req);

static inline void
nicprog_table_set_req_set_ifindex(struct nicprog_table_set_req *req,
				  __u32 ifindex)
{
	req->_present.ifindex = 1;
	req->ifindex = ifindex;
}
static inline void
nicprog_table_set_req_set_ifname(struct nicprog_table_set_req *req,
				 const char *ifname)
{
	free(req->ifname);
	req->_present.ifname_len = strlen(ifname);
	req->ifname = malloc(req->_present.ifname_len + 1);
	memcpy(req->ifname, ifname, req->_present.ifname_len);
	req->ifname[req->_present.ifname_len] = 0;
}
static inline void
nicprog_table_set_req_set_map_fd(struct nicprog_table_set_req *req,
				 __u32 map_fd)
{
	req->_present.map_fd = 1;
	req->map_fd = map_fd;
}
static inline void
nicprog_table_set_req_set_table_kind(struct nicprog_table_set_req *req,
				     enum nicprog_table_kind table_kind)
{
	req->_present.table_kind = 1;
	req->table_kind = table_kind;
}
static inline void
nicprog_table_set_req_set_host_map_fd(struct nicprog_table_set_req *req,
				      __u32 host_map_fd)
{
	req->_present.host_map_fd = 1;
	req->host_map_fd = host_map_fd;
}
static inline void
nicprog_table_set_req_set_table_counters(struct nicprog_table_set_req *req,
					 __u8 table_counters)
{
	req->_present.table_counters = 1;
	req->table_counters = table_counters;
}

/*
 * Give a table offloaded to the port another kind (LRU eviction, longest-prefix match, per-CPU slots), as a loader does for the LRU_HASH, LPM_TRIE and per-CPU maps of an object. The table must be empty (a hash) and no program may use it yet. With table-counters, mark it a counter table (after its kind, if table-kind is given too).
 */
int nicprog_table_set(struct ynl_sock *ys, struct nicprog_table_set_req *req);

/* NICPROG_CMD_PROG_DETACH_NTF - event */
struct nicprog_prog_detach_ntf_rsp {
	struct {
		__u32 ifindex:1;
		__u32 ifname_len;
		__u32 id:1;
	} _present;

	__u32 ifindex;
	char *ifname;
	__u32 id;
};

struct nicprog_prog_detach_ntf {
	__u16 family;
	__u8 cmd;
	struct ynl_ntf_base_type *next;
	void (*free)(struct nicprog_prog_detach_ntf *ntf);
	struct nicprog_prog_detach_ntf_rsp obj __attribute__((aligned(8)));
};

void nicprog_prog_detach_ntf_free(struct nicprog_prog_detach_ntf *rsp);

/* NICPROG_CMD_STAGE_OVERLOAD_NTF - event */
struct nicprog_stage_overload_ntf_rsp {
	struct {
		__u32 ifindex:1;
		__u32 ifname_len;
		__u32 stage:1;
		__u32 drops:1;
	} _present;

	__u32 ifindex;
	char *ifname;
	__u32 stage;
	__u64 drops;
};

struct nicprog_stage_overload_ntf {
	__u16 family;
	__u8 cmd;
	struct ynl_ntf_base_type *next;
	void (*free)(struct nicprog_stage_overload_ntf *ntf);
	struct nicprog_stage_overload_ntf_rsp obj __attribute__((aligned(8)));
};

void nicprog_stage_overload_ntf_free(struct nicprog_stage_overload_ntf *rsp);

/* NICPROG_CMD_RING_DROPS_NTF - event */
struct nicprog_ring_drops_ntf_rsp {
	struct {
		__u32 ifindex:1;
		__u32 ifname_len;
		__u32 drops:1;
		__u32 drop_bytes:1;
		__u32 outputs:1;
	} _present;

	__u32 ifindex;
	char *ifname;
	__u64 drops;
	__u64 drop_bytes;
	__u64 outputs;
};

struct nicprog_ring_drops_ntf {
	__u16 family;
	__u8 cmd;
	struct ynl_ntf_base_type *next;
	void (*free)(struct nicprog_ring_drops_ntf *ntf);
	struct nicprog_ring_drops_ntf_rsp obj __attribute__((aligned(8)));
};

void nicprog_ring_drops_ntf_free(struct nicprog_ring_drops_ntf *rsp);

#endif /* _LINUX_NICPROG_GEN_H */
