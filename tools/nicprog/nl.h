/* SPDX-License-Identifier: GPL-2.0 */
/* The nicprog generic netlink family, from userspace (libmnl). */
#ifndef NICPROG_NL_H
#define NICPROG_NL_H

#include <stdint.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#define NL_BUF_SIZE	(128 * 1024)	/* a request with a profile's text */

struct nl {
	struct mnl_socket *sock;
	uint16_t family;
	uint32_t monitor_grp;
	unsigned int portid;
	uint32_t seq;
	char ext_msg[256];	/* the kernel's extack message, if any */
	uint32_t ext_miss;	/* attribute the kernel said is missing, or 0 */
	char buf[NL_BUF_SIZE];
};

typedef int (*nl_cb_t)(const struct nlmsghdr *nlh, void *data);

int nl_open(struct nl *nl);
void nl_close(struct nl *nl);
struct nlmsghdr *nl_msg(struct nl *nl, uint8_t cmd, uint16_t flags);
int nl_run(struct nl *nl, struct nlmsghdr *nlh, nl_cb_t cb, void *data);
int nl_monitor(struct nl *nl, nl_cb_t cb, void *data);
void nl_attrs(const struct nlmsghdr *nlh, const struct nlattr **tb,
	      unsigned int max);
void nl_nested(const struct nlattr *nest, const struct nlattr **tb,
	       unsigned int max);

#endif
