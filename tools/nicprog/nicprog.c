// SPDX-License-Identifier: GPL-2.0
/*
 * nicprog: show and control programmable SmartNIC ports through the
 * nicprog generic netlink family (Documentation/netlink/specs/nicprog.yaml),
 * in words or, with -j, JSON -- as iproute2's tools do.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <linux/nicprog.h>

#include "nicprog.h"
#include "ynl.h"

static const char * const shapes[] = {
	[NICPROG_SHAPE_AUTO] = "auto",
	[NICPROG_SHAPE_SINGLE] = "single",
	[NICPROG_SHAPE_REPLICATED] = "replicated",
	[NICPROG_SHAPE_PIPELINED] = "pipelined",
	[NICPROG_SHAPE_PIPELINED_REPLICATED] = "pipelined+replicated",
};

const char *shape_name(unsigned int shape)
{
	return shape < __NICPROG_SHAPE_MAX ? shapes[shape] : "unknown";
}

int shape_value(const char *name)
{
	int s;

	for (s = 0; s < __NICPROG_SHAPE_MAX; s++)
		if (!strcmp(name, shapes[s]))
			return s;
	return -1;
}

static void usage(FILE *f)
{
	fputs("Usage: nicprog [-j] [-p] OBJECT COMMAND [ARGS]\n"
	      "  nicprog dev show [dev IFNAME]\n"
	      "  nicprog dev set dev IFNAME [profile NAME | profile-file FILE]\n"
	      "               [shape SHAPE] [cores N] [partial on|off]\n"
	      "               [engine-share TYPE:N]...\n"
	      "  nicprog prog show [dev IFNAME]\n"
	      "  nicprog table set dev IFNAME id MAP_ID [kind KIND] [counters 1|2]\n"
	      "  nicprog stats [show] [dev IFNAME] [-w [SECONDS]] [count N]\n"
	      "  nicprog monitor\n"
	      "  nicprog plan obj FILE [profile P] [sec S] [shape SHAPE] [cores N] [partial]\n"
	      "               [engine-share TYPE:N[,TYPE:N...]] [dot [FILE] | svg FILE]\n"
	      "  nicprog predict obj FILE workload W [profile P] [sec S] [shape SHAPE]\n"
	      "               [cores N] [partial] [samples N] [entry MAP:KEYHEX:VALHEX]...\n"
	      "               [engine-share auto | optimum | TYPE:N[,TYPE:N...]]\n"
	      "  nicprog predict obj FILE bufs LEN,LEN,... [args A,A,...] [profile P] [sec S]\n"
	      "               [data FILE | samples N]\n"
	      "  nicprog predict dev IFNAME obj FILE [sec S] [shape SHAPE] [cores N]\n"
	      "               [rate FRAMES_PER_SECOND]\n"
	      "SHAPE: auto, single, replicated, pipelined, pipelined+replicated\n"
	      "-j: JSON output; -p: pretty JSON (implies -j)\n"
	      "See nicprog(8).\n", f);
}

/* An abbreviation of @word, as iproute2 takes them. */
bool cli_match(const char *arg, const char *word)
{
	return arg && *arg && !strncmp(arg, word, strlen(arg));
}

int cli_usage(const char *fmt, ...)
{
	va_list ap;

	fputs("nicprog: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("; try \"nicprog help\"\n", stderr);
	return EXIT_USAGE;
}

/* Whether @word is among the arguments left, as a word of its own. */
bool cli_has(const struct cli *cli, const char *word)
{
	int i;

	for (i = 0; i < cli->argc; i++)
		if (!strcmp(cli->argv[i], word))
			return true;
	return false;
}

const char *cli_next(struct cli *cli)
{
	if (!cli->argc)
		return NULL;
	cli->argc--;
	return *cli->argv++;
}

/* Say what the kernel refused and why, in one line. */
int cli_refused(struct cli *cli, int err, const char *what, const char *dev)
{
	fprintf(stderr, "nicprog: %s%s%s: %s", what, dev ? " " : "",
		dev ? dev : "", strerror(-err));
	if (cli->nl.ext_msg[0])
		fprintf(stderr, ": %s", cli->nl.ext_msg);
	if (err == -EPERM)
		fputs(" (it needs CAP_NET_ADMIN)", stderr);
	fputc('\n', stderr);
	return EXIT_REFUSED;
}

int main(int argc, char **argv)
{
	static struct cli cli;
	enum out_mode mode = OUT_TEXT;
	const char *obj;
	int err;

	argc--, argv++;
	while (argc && argv[0][0] == '-' && argv[0][1]) {
		if (!strcmp(argv[0], "-j") || !strcmp(argv[0], "-json")) {
			if (mode == OUT_TEXT)
				mode = OUT_JSON;
		} else if (!strcmp(argv[0], "-p") ||
			   !strcmp(argv[0], "-pretty")) {
			mode = OUT_PRETTY;
		} else if (!strcmp(argv[0], "-h") ||
			   !strcmp(argv[0], "-help")) {
			usage(stdout);
			return 0;
		} else {
			return cli_usage("unknown option \"%s\"", argv[0]);
		}
		argc--, argv++;
	}
	cli.argc = argc;
	cli.argv = argv;
	obj = cli_next(&cli);
	if (!obj || cli_match(obj, "help")) {
		usage(obj ? stdout : stderr);
		return obj ? 0 : EXIT_USAGE;
	}
	out_init(mode);
	/* offline: no kernel needed */
	if (cli_match(obj, "plan"))
		return cmd_offline(&cli, false, mode);
	if (cli_match(obj, "predict") && !cli_match(obj, "prog") &&
	    !cli_has(&cli, "dev"))
		return cmd_offline(&cli, true, mode);
	err = nl_open(&cli.nl);
	if (err == -ENOENT) {
		fputs("nicprog: the kernel has no nicprog netlink family: load the nicprog module (modprobe nicprog)\n",
		      stderr);
		return EXIT_REFUSED;
	}
	if (err) {
		fprintf(stderr, "nicprog: cannot open generic netlink: %s\n",
			strerror(-err));
		return EXIT_REFUSED;
	}
	if (cli_match(obj, "dev"))
		err = cmd_dev(&cli);
	else if (cli_match(obj, "prog"))
		err = cmd_prog(&cli);
	else if (cli_match(obj, "stats"))
		err = cmd_stats(&cli);
	else if (cli_match(obj, "monitor"))
		err = cmd_monitor(&cli);
	else if (cli_match(obj, "predict"))
		err = cmd_predict_dev(&cli);
	else if (cli_match(obj, "table"))
		err = cmd_table(&cli);
	else
		err = cli_usage("unknown object \"%s\"", obj);
	nl_close(&cli.nl);
	if (cli.ys)
		ynl_sock_destroy(cli.ys);
	out_flush();
	return err;
}
