// SPDX-License-Identifier: GPL-2.0
/*
 * The CLI's socket of the generated library (tools/lib/ynl: Linux's libynl
 * and the family's typed requests, replies and dumps), opened on first
 * use, and how its refusals read.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nicprog.h"
#include "nicprog-user.h"
#include "ynl.h"

/**
 * cli_ys() - the generated library's socket, opened on first use
 * @cli: the CLI
 *
 * Return: the socket, or NULL after saying why.
 */
struct ynl_sock *cli_ys(struct cli *cli)
{
	struct ynl_error yerr = { 0 };

	if (cli->ys)
		return cli->ys;
	cli->ys = ynl_sock_create(&ynl_nicprog_family, &yerr);
	if (!cli->ys)
		fprintf(stderr, "nicprog: cannot open generic netlink: %s\n",
			yerr.msg[0] ? yerr.msg : strerror(yerr.code));
	return cli->ys;
}

/**
 * cli_ys_refused() - say why a request of the generated library failed
 * @cli: the CLI, whose socket holds the error
 * @what: the command
 * @dev: the port it was for, or NULL
 *
 * As cli_refused(): the errno, then the kernel's extack message, which
 * libynl gives as "Kernel error: 'MESSAGE'" followed by the attribute it
 * names as bad or missing, if any.
 *
 * Return: EXIT_REFUSED.
 */
int cli_ys_refused(struct cli *cli, const char *what, const char *dev)
{
	static const char kernel[] = "Kernel error: ";
	const struct ynl_error *e = &cli->ys->err;
	const char *msg = e->msg;

	fprintf(stderr, "nicprog: %s%s%s: %s", what, dev ? " " : "",
		dev ? dev : "",
		e->code < __YNL_ERRNO_END ? strerror(e->code) : "failed");
	if (!strncmp(msg, kernel, sizeof(kernel) - 1))
		msg += sizeof(kernel) - 1;
	if (msg[0] && strcmp(msg, strerror(e->code)))
		fprintf(stderr, ": %s", msg);
	/* dev set: the NIC's cores and engines, the host's CPUs */
	if (e->code == EPERM)
		fputs(strcmp(what, "dev set") ?
		      " (it needs CAP_NET_ADMIN)" :
		      " (it needs CAP_NET_ADMIN in the initial user namespace)",
		      stderr);
	fputc('\n', stderr);
	return EXIT_REFUSED;
}
