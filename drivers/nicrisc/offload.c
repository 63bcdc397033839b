// SPDX-License-Identifier: GPL-2.0
/*
 * nicrisc's ops table and what stands behind it: the NIC's hardware
 * description (LNIC), plans installed on a port's core, the port's
 * counters, and tables kept in the NIC's own memory.
 *
 * The tables are built on the core's table library, as a driver for a
 * NIC whose memory the host can read may; but the cores reach an element
 * only through their own code (core.c), so the ops omit the element
 * pointer an interpreter would need (NICPROG_TABLE_LIB_COPY_OPS) and the
 * core never hands this NIC a stage to interpret.
 */
#include <linux/rtnetlink.h>
#include <linux/sizes.h>

#include "nicrisc.h"

static const struct nicprog_lnic_region nicrisc_regions[] = {
	{ .name = "sram", .size = SZ_64M, .latency_cycles = 20 },
};

/*
 * One core per port (port_count at most NICRISC_MAX_PORTS), each running
 * a whole program: a frame's cost is its instructions by class.
 */
static const struct nicprog_lnic_unit nicrisc_units[] = {
	{
		.name = "risc", .type = NICPROG_UNIT_CORE,
		.accel = NICPROG_ACCEL_NONE, .count = NICRISC_MAX_PORTS,
		.threads = 1, .clock_mhz = 1000, .insn_store = 16384,
		.cost = {
			[NICPROG_IC_ALU] = 1, [NICPROG_IC_MUL] = 3,
			[NICPROG_IC_DIV] = 20, [NICPROG_IC_BRANCH] = 1,
			[NICPROG_IC_LOAD] = 2, [NICPROG_IC_STORE] = 2,
			[NICPROG_IC_ATOMIC] = 10, [NICPROG_IC_CALL] = 5,
		},
		.region_mask = BIT(0),
	},
};

const struct nicprog_lnic nicrisc_lnic = {
	.name = "nicrisc-8",
	.units = nicrisc_units,
	.n_units = ARRAY_SIZE(nicrisc_units),
	.regions = nicrisc_regions,
	.n_regions = ARRAY_SIZE(nicrisc_regions),
};

/*
 * Install @plan on the port's core: once a grace period has passed, no
 * frame runs the old one. RTNL held.
 */
static int nicrisc_plan_load(struct nicprog_dev *nd,
			     const struct nicprog_plan *plan,
			     struct netlink_ext_ack *extack)
{
	struct nicrisc_port *port = nicprog_dev_priv(nd);
	const struct nicprog_plan *old = rtnl_dereference(port->plan);

	rcu_assign_pointer(port->plan, plan);
	if (old)
		synchronize_net();
	return 0;
}

static void nicrisc_plan_unload(struct nicprog_dev *nd)
{
	struct nicrisc_port *port = nicprog_dev_priv(nd);

	RCU_INIT_POINTER(port->plan, NULL);
	synchronize_net();
}

/*
 * The NIC's view of the port, from the same counters as the host's view
 * (port.c's ndo_get_stats64) fills with others: two structs, one each.
 */
static void nicrisc_port_stats(struct nicprog_dev *nd,
			       struct nicprog_port_stats *s)
{
	struct nicrisc_port *port = nicprog_dev_priv(nd);

	s->wire_rx_packets = nicrisc_stat(port, NICRISC_WIRE_RX_PACKETS);
	s->wire_rx_bytes = nicrisc_stat(port, NICRISC_WIRE_RX_BYTES);
	s->wire_tx_packets = nicrisc_stat(port, NICRISC_WIRE_TX_PACKETS);
	s->wire_tx_bytes = nicrisc_stat(port, NICRISC_WIRE_TX_BYTES);
	s->host_rx_packets = nicrisc_stat(port, NICRISC_HOST_RX_PACKETS);
	s->host_rx_bytes = nicrisc_stat(port, NICRISC_HOST_RX_BYTES);
	s->nic_drops = nicrisc_stat(port, NICRISC_RX_FIFO_ERRORS) +
		       nicrisc_stat(port, NICRISC_RX_LENGTH_ERRORS);
}

static void *nicrisc_table_alloc(struct nicprog_nic *nic,
				 const struct nicprog_table_desc *desc,
				 struct netlink_ext_ack *extack)
{
	return nicprog_table_lib_alloc(nic, desc, extack);
}

static void nicrisc_table_free(struct nicprog_nic *nic, void *store)
{
	nicprog_table_lib_free(store);
}

static const struct nicprog_table_ops nicrisc_table_ops = {
	.alloc		= nicrisc_table_alloc,
	.free		= nicrisc_table_free,
	NICPROG_TABLE_LIB_COPY_OPS,
};

const struct nicprog_dev_ops nicrisc_nicprog_ops = {
	.port_stats	= nicrisc_port_stats,
	.plan_load	= nicrisc_plan_load,
	.plan_unload	= nicrisc_plan_unload,
	.stage_translate = nicrisc_stage_translate,
	.stage_release	= nicrisc_stage_release,
	.table_ops	= &nicrisc_table_ops,
	.plan_shapes	= BIT(NICPROG_SHAPE_SINGLE),
	.helpers	= nicrisc_bpf_helpers,
	.owner		= THIS_MODULE,
};
