// SPDX-License-Identifier: GPL-2.0
/*
 * Table kinds over netlink (table-set): Linux 6.1 binds only HASH and
 * ARRAY maps to a device, so an LRU_HASH or LPM_TRIE map is created as a
 * HASH map and the NIC told what it is before the program that uses it
 * is loaded; an XSKMAP or CPUMAP stays the host's and a device ARRAY of
 * the host kind stands for it. The request goes through the CLI's netlink code
 * (tools/nicprog/nl.c), linked into the library.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/nicprog.h>

#include "nicprog.h"
#include "../../nicprog/nl.h"

/*
 * table-set for @map_fd on @ifindex: the kind if @kind is not -1, the
 * host map if @host_map_fd is not -1, the counters if @counters is not 0.
 */
static int table_set(int ifindex, int map_fd, int kind, int host_map_fd,
		     unsigned int counters, char *why, size_t why_len)
{
	struct nlmsghdr *nlh;
	struct nl *nl;
	int err;

	if (why && why_len)
		why[0] = '\0';
	nl = malloc(sizeof(*nl));
	if (!nl)
		return -ENOMEM;
	err = nl_open(nl);
	if (err) {
		if (why && why_len)
			snprintf(why, why_len, "the nicprog netlink family is not there: %s",
				 strerror(-err));
		free(nl);
		return err;
	}
	nlh = nl_msg(nl, NICPROG_CMD_TABLE_SET, 0);
	mnl_attr_put_u32(nlh, NICPROG_A_DEV_IFINDEX, ifindex);
	mnl_attr_put_u32(nlh, NICPROG_A_DEV_MAP_FD, map_fd);
	if (kind >= 0)
		mnl_attr_put_u8(nlh, NICPROG_A_DEV_TABLE_KIND, kind);
	if (host_map_fd >= 0)
		mnl_attr_put_u32(nlh, NICPROG_A_DEV_HOST_MAP_FD, host_map_fd);
	if (counters)
		mnl_attr_put_u8(nlh, NICPROG_A_DEV_TABLE_COUNTERS, counters);
	err = nl_run(nl, nlh, NULL, NULL);
	if (err && why && why_len)
		snprintf(why, why_len, "%s", nl->ext_msg[0] ? nl->ext_msg :
			 strerror(-err));
	nl_close(nl);
	free(nl);
	return err;
}

/**
 * nicprog_table_kind_set() - give a map offloaded to a port a kind
 * @ifindex: the port the map is offloaded to
 * @map_fd: the map, created empty (a HASH map; an ARRAY for the per-CPU
 *	and host kinds) and unused by programs
 * @kind: enum nicprog_table_kind
 * @host_map_fd: for the host kind, the host XSKMAP or CPUMAP @map_fd
 *	stands for, of as many entries; else -1
 * @why: filled with the kernel's reason on failure, or NULL
 * @why_len: bytes at @why
 *
 * Return: 0, or a negative errno.
 */
int nicprog_table_kind_set(int ifindex, int map_fd, unsigned int kind,
			   int host_map_fd, char *why, size_t why_len)
{
	return table_set(ifindex, map_fd, (int)kind, host_map_fd, 0, why,
			 why_len);
}

/**
 * nicprog_table_counters_set() - mark a map offloaded to a port a counter
 *	table, whose values nicprog stats then shows
 * @ifindex: the port the map is offloaded to
 * @map_fd: the map: an array keyed by a u32 (per-CPU: of that kind)
 * @counters: u64 counters a value (a slot), 1 or 2, from the object's BTF
 * @why: filled with the kernel's reason on failure, or NULL
 * @why_len: bytes at @why
 *
 * Return: 0, or a negative errno.
 */
int nicprog_table_counters_set(int ifindex, int map_fd, unsigned int counters,
			       char *why, size_t why_len)
{
	return table_set(ifindex, map_fd, -1, -1, counters, why, why_len);
}
