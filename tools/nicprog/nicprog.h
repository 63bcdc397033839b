/* SPDX-License-Identifier: GPL-2.0 */
/* nicprog CLI: what its commands share. */
#ifndef NICPROG_CLI_H
#define NICPROG_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "json.h"
#include "nl.h"

/* Exit codes: 0 done, 1 the kernel or the system refused, 2 bad usage. */
#define EXIT_REFUSED	1
#define EXIT_USAGE	2

struct ynl_sock;

/* @ys: the generated library's socket (ys.c), NULL until first used */
struct cli {
	struct nl nl;
	struct ynl_sock *ys;
	int argc;
	char **argv;
};

bool cli_match(const char *arg, const char *word);
int cli_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int cli_refused(struct cli *cli, int err, const char *what, const char *dev);
struct ynl_sock *cli_ys(struct cli *cli);
int cli_ys_refused(struct cli *cli, const char *what, const char *dev);
const char *cli_next(struct cli *cli);
bool cli_has(const struct cli *cli, const char *word);
const char *shape_name(unsigned int shape);
int shape_value(const char *name);
/* names the kernel gives them too (kernel/offload/lnic.c, linked in) */
const char *nicprog_unit_type_name(unsigned int type);
const char *nicprog_accel_type_name(unsigned int accel);

int cmd_dev(struct cli *cli);
int cmd_prog(struct cli *cli);
int cmd_stats(struct cli *cli);
int cmd_monitor(struct cli *cli);
int cmd_predict_dev(struct cli *cli);
int cmd_table(struct cli *cli);
const char *table_kind_name(unsigned int kind);
int cmd_offline(struct cli *cli, bool predict, enum out_mode mode);
int prog_print(const struct nlmsghdr *nlh, void *data);
int profile_set(struct cli *cli, const char *dev, const char *name,
		const char *path);

#endif
