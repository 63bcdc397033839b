/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nicrisc - the second nicprog driver: a NIC of small RISC cores that run
 * an instruction set of their own, written from
 * Documentation/nicprog/driver-guide.rst as a vendor would write theirs.
 *
 * Where nicsim uses every part of the contract, nicrisc takes the least a
 * NIC with its own instruction set needs, and nothing else of the core:
 * its own devlink instance (reload re-creates the ports), tables in its
 * own memory (&nicprog_dev_ops.table_ops, without the element pointer an
 * interpreter would need), every stage translated into its own code
 * (jit.c) and run by its own cores (core.c), one-stage plans only. It
 * never loads nicprog_exec.ko or nicprog_ring.ko.
 *
 * Devices are made and removed through /sys/bus/nicrisc, as netdevsim's
 * are: "echo ID PORTS > new_device", "echo ID > del_device". Port 2k's
 * wire runs to port 2k + 1 of the same device.
 */
#ifndef _NICRISC_H
#define _NICRISC_H

#include <linux/atomic.h>
#include <linux/device.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/devlink.h>
#include <net/nicprog.h>
#include <net/nicprog_exec.h>

#define NICRISC_DRV_NAME	"nicrisc"
#define NICRISC_MAX_PORTS	8
#define NICRISC_RXQ_LEN		1024	/* frames a port's wire queue holds */
#define NICRISC_MAX_MTU		3000

/*
 * A core's frame buffer, laid out as the host's XDP test runs lay theirs
 * out, so that head and tail adjustments reach exactly as far:
 * XDP_PACKET_HEADROOM before the frame, struct xdp_frame's room kept
 * at its start and struct skb_shared_info's at its end.
 */
#define NICRISC_FRAME_SZ	4096
#define NICRISC_HEAD_RESERVED	sizeof(struct xdp_frame)
#define NICRISC_TAILROOM	SKB_DATA_ALIGN(sizeof(struct skb_shared_info))

/* a core's stack: the verifier's limit for a program's frames together */
#define NICRISC_MAX_FRAMES	8
#define NICRISC_STACK_SZ	(MAX_BPF_STACK * NICRISC_MAX_FRAMES)

enum nicrisc_stat {
	NICRISC_WIRE_RX_PACKETS,
	NICRISC_WIRE_RX_BYTES,
	NICRISC_WIRE_TX_PACKETS,
	NICRISC_WIRE_TX_BYTES,
	NICRISC_HOST_RX_PACKETS,
	NICRISC_HOST_RX_BYTES,
	NICRISC_HOST_TX_PACKETS,
	NICRISC_HOST_TX_BYTES,
	NICRISC_RX_FIFO_ERRORS,
	NICRISC_RX_LENGTH_ERRORS,
	NICRISC_TX_DROPPED,
	NICRISC_XDP_DROP,
	NICRISC_XDP_PASS,
	NICRISC_XDP_TX,
	NICRISC_XDP_REDIRECT,
	NICRISC_XDP_ABORTED,
	NICRISC_XDP_REDIRECT_ERR,
	NICRISC_CORE_INSNS,

	NICRISC_N_STATS
};

struct nicrisc_port;

/**
 * struct nicrisc_dev - one NIC on the nicrisc bus
 * @dev: the device, bound to the nicrisc driver
 * @list: entry in the bus's devices, under nicrisc_devs_lock
 * @id: the number new_device gave it
 * @port_count: ports it has while it is up
 * @devlink: its devlink instance, the driver's; nicprog adds to it
 * @nic: its nicprog NIC
 * @live: false once its removal began, under the instance lock
 * @ports: its ports, NULL while a reload re-creates them; written under
 *	RTNL and the instance lock, read under RCU by the datapath
 */
struct nicrisc_dev {
	struct device dev;
	struct list_head list;
	u32 id;
	u32 port_count;
	struct devlink *devlink;
	struct nicprog_nic *nic;
	bool live;
	struct nicrisc_port __rcu *ports[NICRISC_MAX_PORTS];
};

/**
 * struct nicrisc_port - one port: a netdev, its wire and its core
 * @ndev: the NIC
 * @netdev: the host's side
 * @np: its nicprog port
 * @dl_port: its devlink port
 * @index: its number on the NIC
 * @napi: the port's core: runs the program on what the wire brings
 * @rxq: frames from the wire, for @napi
 * @plan: the installed plan, RCU; under RTNL for writers
 * @frame: the core's frame buffer (NICRISC_FRAME_SZ), @napi's only
 * @stack: the core's stack (NICRISC_STACK_SZ), @napi's only
 * @stats: counters, enum nicrisc_stat
 */
struct nicrisc_port {
	struct nicrisc_dev *ndev;
	struct net_device *netdev;
	struct nicprog_dev *np;
	struct devlink_port dl_port;
	u32 index;
	struct napi_struct napi;
	struct sk_buff_head rxq;
	const struct nicprog_plan __rcu *plan;
	u8 *frame;
	u8 *stack;
	atomic64_t stats[NICRISC_N_STATS];
};

static inline void nicrisc_stat_add(struct nicrisc_port *port,
				    enum nicrisc_stat s, u64 n)
{
	atomic64_add(n, &port->stats[s]);
}

static inline u64 nicrisc_stat(struct nicrisc_port *port, enum nicrisc_stat s)
{
	return atomic64_read(&port->stats[s]);
}

/* jit.c */
extern const s32 nicrisc_bpf_helpers[];
void *nicrisc_stage_translate(struct nicprog_dev *nd,
			      const struct nicprog_plan *plan,
			      const struct nicprog_stage_code *code,
			      struct netlink_ext_ack *extack);
void nicrisc_stage_release(struct nicprog_dev *nd, u32 stage, void *image);

/* core.c */
u32 nicrisc_core_run(const void *image, struct nicprog_exec_pkt *pkt,
		     u32 *redirect, u8 *stack, u64 *insns);

/* offload.c */
extern const struct nicprog_dev_ops nicrisc_nicprog_ops;
extern const struct nicprog_lnic nicrisc_lnic;

/* port.c */
int nicrisc_ports_create(struct nicrisc_dev *ndev);
void nicrisc_ports_destroy(struct nicrisc_dev *ndev);

/* devlink.c */
int nicrisc_devlink_init(struct nicrisc_dev *ndev);
void nicrisc_devlink_exit(struct nicrisc_dev *ndev);

#endif /* _NICRISC_H */
