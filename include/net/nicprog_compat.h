/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nicprog_compat.h - the kernel interfaces that differ between the kernels
 * nicprog builds against (Debian 12's 6.1 and the 6.12 LTS), in one place.
 *
 * A header that moved is found by __has_include; any other shim is keyed
 * to the upstream release that changed the interface, so that the code
 * reads as the newer kernel's and a kernel in between gets what it has.
 * Only 6.1 and 6.12 are built and tested. The release comes from Kbuild
 * (NICPROG_KERNEL, set in the top Kbuild file from VERSION and
 * PATCHLEVEL): an in-tree merge deletes this header and that line. Not an
 * API: nicprog's modules include it, nothing else should.
 */
#ifndef _NET_NICPROG_COMPAT_H
#define _NET_NICPROG_COMPAT_H

#include <linux/ethtool.h>
#include <linux/netdevice.h>
#include <net/devlink.h>
#include <net/genetlink.h>

/* true when building against release @major.@minor or later */
#define NICPROG_KERNEL_AT_LEAST(major, minor) \
	(((major) << 8 | (minor)) <= NICPROG_KERNEL)

#if __has_include("linux/unaligned.h")
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

#if __has_include("net/netdev_rx_queue.h")
#include <net/netdev_rx_queue.h>
#endif

#if __has_include("linux/io_uring/cmd.h")
#include <linux/io_uring/cmd.h>

/* the command's bytes in the submission queue entry */
static inline const void *nicprog_uring_cmd_payload(struct io_uring_cmd *cmd)
{
	return io_uring_sqe_cmd(cmd->sqe);
}
#else
#include <linux/io_uring.h>

static inline const void *nicprog_uring_cmd_payload(struct io_uring_cmd *cmd)
{
	return cmd->cmd;
}
#endif

/*
 * By 6.12 bpf_map_get() is exported to the BPF_INTERNAL namespace only
 * (6.1: to every module), and nothing else gives a module a map from a
 * file descriptor; the netlink family takes maps by fd, as ip and bpftool
 * hand them, so nicprog imports the namespace there.
 */
#if NICPROG_KERNEL_AT_LEAST(6, 12)
#define NICPROG_IMPORT_BPF_MAP_GET MODULE_IMPORT_NS(BPF_INTERNAL)
#else
#define NICPROG_IMPORT_BPF_MAP_GET static_assert(1)
#endif

/*
 * From 6.2 an extack can carry a formatted message (NL_SET_ERR_MSG_FMT());
 * 6.1 keeps only a pointer to a static string, so there the cause goes to
 * the tracepoint nicprog:nicprog_bad_arg alone and the extack says so.
 */
#if NICPROG_KERNEL_AT_LEAST(6, 2)
#define NICPROG_ERR_MSG_FMT(extack, fallback, fmt, args...)		\
	do {								\
		(void)(fallback);	/* 6.1's message */		\
		NL_SET_ERR_MSG_FMT(extack, fmt, ##args);		\
	} while (0)
#else
#define NICPROG_ERR_MSG_FMT(extack, fallback, fmt, args...)		\
	do {								\
		(void)(fmt);		/* 6.2's message */		\
		NL_SET_ERR_MSG(extack, fallback);			\
	} while (0)
#endif

/*
 * A bus is const from 6.4, in bus_register() and its attributes'
 * callbacks; 6.1 writes to it. The 6.1 form is spelled through a second
 * name so that checkpatch's "should be const" keeps meaning something for
 * code that could be.
 */
#if NICPROG_KERNEL_AT_LEAST(6, 4)
#define nicprog_bus_type_t const struct bus_type
#else
#define nicprog_bus_type_t struct nicprog_bus_type_61
#define nicprog_bus_type_61 bus_type
#endif

/*
 * From 6.3 a netdev states what XDP it offers: netdev netlink reports it
 * (xdp-features), and a redirect (devmap, ndo_xdp_xmit) only reaches a
 * device that states NDO_XMIT. 6.1 has nothing to state.
 */
static inline void nicprog_xdp_features_set(struct net_device *netdev,
					    bool hw_offload)
{
#if NICPROG_KERNEL_AT_LEAST(6, 3)
	netdev->xdp_features = NETDEV_XDP_ACT_BASIC | NETDEV_XDP_ACT_REDIRECT |
			       NETDEV_XDP_ACT_NDO_XMIT;
	if (hw_offload)
		netdev->xdp_features |= NETDEV_XDP_ACT_HW_OFFLOAD;
#endif
}

/* ethtool_puts() is from 6.8 */
static inline void nicprog_ethtool_puts(u8 **data, const char *str)
{
#if NICPROG_KERNEL_AT_LEAST(6, 8)
	ethtool_puts(data, str);
#else
	ethtool_sprintf(data, "%.*s", ETH_GSTRING_LEN - 1, str);
#endif
}

/* A class's devnode() takes a const device from 6.2. */
#if NICPROG_KERNEL_AT_LEAST(6, 2)
#define nicprog_devnode_dev_t const struct device
#else
#define nicprog_devnode_dev_t struct device
#endif

#if NICPROG_KERNEL_AT_LEAST(6, 3)
#define nicprog_vm_flags_set(vma, flags) vm_flags_set(vma, flags)
#define nicprog_vm_flags_clear(vma, flags) vm_flags_clear(vma, flags)
#else
static inline void nicprog_vm_flags_set(struct vm_area_struct *vma,
					unsigned long flags)
{
	vma->vm_flags |= flags;
}

static inline void nicprog_vm_flags_clear(struct vm_area_struct *vma,
					  unsigned long flags)
{
	vma->vm_flags &= ~flags;
}
#endif

/* A dump's parsed request attributes moved into a genl_info in 6.2. */
static inline struct nlattr **
nicprog_dumpit_attrs(const struct genl_dumpit_info *di)
{
#if NICPROG_KERNEL_AT_LEAST(6, 2)
	return di->info.attrs;
#else
	return di->attrs;
#endif
}

/*
 * The devlink helpers below are for nicprog's own driver, nicsim, which
 * builds against both kernels: a vendor's driver has its own way with
 * its devlink instance and ports.
 *
 * From 6.2 a netdev names its devlink port before registration
 * (SET_NETDEV_DEVLINK_PORT) and devlink follows the netdev's
 * registration by itself; 6.1 asks the driver's ndo_get_devlink_port and
 * is told the port's type once the netdev is registered.
 */
#if NICPROG_KERNEL_AT_LEAST(6, 2)
#define NICPROG_HAVE_NDO_GET_DEVLINK_PORT 0

static inline void nicprog_netdev_devlink_port_set(struct net_device *netdev,
						   struct devlink_port *port)
{
	SET_NETDEV_DEVLINK_PORT(netdev, port);
}

static inline void nicprog_devlink_port_type_eth_set(struct devlink_port *port,
						     struct net_device *netdev)
{
}

static inline void nicprog_devlink_port_type_clear(struct devlink_port *port)
{
}
#else
#define NICPROG_HAVE_NDO_GET_DEVLINK_PORT 1

static inline void nicprog_netdev_devlink_port_set(struct net_device *netdev,
						   struct devlink_port *port)
{
}

static inline void nicprog_devlink_port_type_eth_set(struct devlink_port *port,
						     struct net_device *netdev)
{
	devlink_port_type_eth_set(port, netdev);
}

static inline void nicprog_devlink_port_type_clear(struct devlink_port *port)
{
	devlink_port_type_clear(port);
}
#endif

/*
 * From 6.3 devlink names the driver in "dev info" itself and offers reload
 * to every instance whose ops implement it.
 */
static inline int nicprog_devlink_info_driver_name_put(struct devlink_info_req *req,
						       const char *name)
{
#if NICPROG_KERNEL_AT_LEAST(6, 3)
	return 0;
#else
	return devlink_info_driver_name_put(req, name);
#endif
}

static inline void nicprog_devlink_reload_enable(struct devlink *devlink)
{
#if !NICPROG_KERNEL_AT_LEAST(6, 3)
	devlink_set_features(devlink, DEVLINK_F_RELOAD);
#endif
}

/*
 * From 6.3 (by 6.12; not in 6.1) a DRIVER_REINIT reload expects the
 * driver to have removed its devlink ports in reload_down and warns if
 * any is left (devlink_reload_reinit_sanity_check()). nicsim keeps a
 * NIC's ports across a profile change, so it offers that reload only
 * where devlink allows it.
 */
#define NICPROG_DEVLINK_REINIT_KEEPS_PORTS (!NICPROG_KERNEL_AT_LEAST(6, 3))

/* Driverinit parameters are read and set under devl_lock from 6.4. */
#if NICPROG_KERNEL_AT_LEAST(6, 4)
#define nicprog_devl_param_driverinit_value_get(devlink, id, val) \
	devl_param_driverinit_value_get(devlink, id, val)

static inline void
nicprog_devlink_param_driverinit_value_set(struct devlink *devlink, u32 id,
					   union devlink_param_value val)
{
	devl_lock(devlink);
	devl_param_driverinit_value_set(devlink, id, val);
	devl_unlock(devlink);
}
#else
#define nicprog_devl_param_driverinit_value_get(devlink, id, val) \
	devlink_param_driverinit_value_get(devlink, id, val)
#define nicprog_devlink_param_driverinit_value_set(devlink, id, val) \
	devlink_param_driverinit_value_set(devlink, id, val)
#endif

/*
 * From 6.7 a devlink formatted message keeps its first error and the
 * builders return nothing; before, each returns its error. The wrappers
 * return 0 on the newer kernels, where devlink reports the kept error.
 */
#if NICPROG_KERNEL_AT_LEAST(6, 7)
#define NICPROG_FMSG(call) ({ call; 0; })
#else
#define NICPROG_FMSG(call) (call)
#endif
#define nicprog_fmsg_obj_nest_start(f) \
	NICPROG_FMSG(devlink_fmsg_obj_nest_start(f))
#define nicprog_fmsg_obj_nest_end(f) \
	NICPROG_FMSG(devlink_fmsg_obj_nest_end(f))
#define nicprog_fmsg_pair_nest_start(f, n) \
	NICPROG_FMSG(devlink_fmsg_pair_nest_start(f, n))
#define nicprog_fmsg_pair_nest_end(f) \
	NICPROG_FMSG(devlink_fmsg_pair_nest_end(f))
#define nicprog_fmsg_arr_pair_nest_start(f, n) \
	NICPROG_FMSG(devlink_fmsg_arr_pair_nest_start(f, n))
#define nicprog_fmsg_arr_pair_nest_end(f) \
	NICPROG_FMSG(devlink_fmsg_arr_pair_nest_end(f))
#define nicprog_fmsg_u32_put(f, v) \
	NICPROG_FMSG(devlink_fmsg_u32_put(f, v))
#define nicprog_fmsg_u32_pair_put(f, n, v) \
	NICPROG_FMSG(devlink_fmsg_u32_pair_put(f, n, v))
#define nicprog_fmsg_u64_pair_put(f, n, v) \
	NICPROG_FMSG(devlink_fmsg_u64_pair_put(f, n, v))
#define nicprog_fmsg_string_pair_put(f, n, v) \
	NICPROG_FMSG(devlink_fmsg_string_pair_put(f, n, v))

#endif /* _NET_NICPROG_COMPAT_H */
