// SPDX-License-Identifier: GPL-2.0
/*
 * nicprog plan and nicprog predict: the offloader offline, before a
 * program runs anywhere. Both are nicprog-plan (tools/nicprog-plan, the
 * kernel's offloader built for userspace), which this runs with the
 * arguments translated, as git runs its helpers; svg pipes its DOT
 * through Graphviz.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nicprog.h"

#define PLAN_ARGS_MAX	64

static const char * const plan_words[] = {
	"obj", "profile", "sec", "shape", "cores", "partial", "workload",
	"entry", "samples", "dot", "svg", "bufs", "args", "data",
	"engine-share", NULL,
};

static bool plan_word(const char *arg)
{
	int i;

	for (i = 0; plan_words[i]; i++)
		if (!strcmp(arg, plan_words[i]))
			return true;
	return false;
}

static bool executable(const char *path)
{
	return access(path, X_OK) == 0;
}

/* In PATH, as execvp would find it. */
static bool in_path(const char *name)
{
	const char *path = getenv("PATH") ?: "/usr/bin:/bin";
	char buf[PATH_MAX];
	const char *p = path, *end;

	while (*p) {
		end = strchrnul(p, ':');
		if (snprintf(buf, sizeof(buf), "%.*s/%s", (int)(end - p), p,
			     name) < (int)sizeof(buf) && executable(buf))
			return true;
		p = *end ? end + 1 : end;
	}
	return false;
}

/*
 * nicprog-plan: $NICPROG_PLAN, next to nicprog in the source tree or
 * installed beside it, or in PATH. NULL, said why, if nowhere.
 */
static const char *find_plan(void)
{
	static char buf[PATH_MAX];
	char self[PATH_MAX], *dir;
	const char *env = getenv("NICPROG_PLAN");
	ssize_t n;

	if (env && *env)
		return env;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		dir = dirname(self);
		if (snprintf(buf, sizeof(buf), "%s/../nicprog-plan/nicprog-plan",
			     dir) < (int)sizeof(buf) && executable(buf))
			return buf;
		if (snprintf(buf, sizeof(buf), "%s/nicprog-plan", dir) <
		    (int)sizeof(buf) && executable(buf))
			return buf;
	}
	if (in_path("nicprog-plan"))
		return "nicprog-plan";
	fputs("nicprog: plan and predict run nicprog-plan, which is not beside nicprog nor in PATH (build tools/nicprog-plan, or set NICPROG_PLAN)\n",
	      stderr);
	return NULL;
}

static int wait_status(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return EXIT_REFUSED;
	/* 127: it could not be run, and run() said why */
	if (WIFEXITED(status) && WEXITSTATUS(status) != 127)
		return WEXITSTATUS(status);
	return EXIT_REFUSED;
}

/*
 * Start @argv with stdin from @in_fd and stdout to @out_fd (-1: ours);
 * its pid for wait_status(), or -1.
 */
static int run(char **argv, int in_fd, int out_fd)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "nicprog: fork: %s\n", strerror(errno));
		return -1;
	}
	if (!pid) {
		if (in_fd >= 0 && dup2(in_fd, STDIN_FILENO) < 0)
			_exit(127);
		if (out_fd >= 0 && dup2(out_fd, STDOUT_FILENO) < 0)
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, "nicprog: cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	return pid;
}

/* nicprog-plan's DOT through "dot -Tsvg" into @file. */
static int plan_svg(char **pargv, const char *file)
{
	char *dargv[] = { "dot", "-Tsvg", "-o", (char *)file, NULL };
	int pfd[2], rc_plan, rc_dot;
	pid_t plan, dot;

	if (!in_path("dot")) {
		fputs("nicprog: svg needs Graphviz's dot, which is not in PATH (apt install graphviz); \"dot FILE\" writes the graph for rendering elsewhere\n",
		      stderr);
		return EXIT_REFUSED;
	}
	if (pipe(pfd)) {
		fprintf(stderr, "nicprog: pipe: %s\n", strerror(errno));
		return EXIT_REFUSED;
	}
	plan = run(pargv, -1, pfd[1]);
	close(pfd[1]);
	dot = plan < 0 ? -1 : run(dargv, pfd[0], -1);
	close(pfd[0]);
	rc_plan = plan < 0 ? EXIT_REFUSED : wait_status(plan);
	rc_dot = dot < 0 ? EXIT_REFUSED : wait_status(dot);
	if (rc_plan)
		return rc_plan;
	if (rc_dot) {
		fprintf(stderr, "nicprog: dot could not render %s\n", file);
		return EXIT_REFUSED;
	}
	return 0;
}

/* What cmd_offline() gathers: nicprog-plan's arguments and its own. */
struct offline_args {
	const char *obj, *workload, *bufs, *svg_file;
	char *pargv[PLAN_ARGS_MAX];
	int pargc;
};

/* A word that takes a value: 0, or the exit status of bad usage. */
static int offline_value(struct offline_args *oa, const char *arg,
			 const char *val, bool predict)
{
	unsigned long n;
	char *end;

	if (!strcmp(arg, "obj")) {
		oa->obj = val;
	} else if (!strcmp(arg, "workload") && predict) {
		oa->workload = val;
	} else if (!strcmp(arg, "bufs") && predict) {
		oa->bufs = val;
		oa->pargv[oa->pargc++] = "--bufs";
		oa->pargv[oa->pargc++] = (char *)val;
	} else if ((!strcmp(arg, "args") || !strcmp(arg, "data")) &&
		   predict) {
		oa->pargv[oa->pargc++] = !strcmp(arg, "args") ? "--args" :
					"--data";
		oa->pargv[oa->pargc++] = (char *)val;
	} else if (!strcmp(arg, "engine-share")) {
		/* nicprog-plan checks it and says what is wrong */
		oa->pargv[oa->pargc++] = "--engine-share";
		oa->pargv[oa->pargc++] = (char *)val;
	} else if (!strcmp(arg, "svg")) {
		oa->svg_file = val;
	} else if (!strcmp(arg, "shape")) {
		if (shape_value(val) < 0)
			return cli_usage("unknown shape \"%s\" (auto, single, replicated, pipelined, pipelined+replicated)",
					 val);
		oa->pargv[oa->pargc++] = "--shape";
		oa->pargv[oa->pargc++] = (char *)val;
	} else if (!strcmp(arg, "cores")) {
		errno = 0;
		strtoul(val, &end, 0);
		if (end == val || *end || errno)
			return cli_usage("cores \"%s\" is not a count of cores",
					 val);
		oa->pargv[oa->pargc++] = "--cores";
		oa->pargv[oa->pargc++] = (char *)val;
	} else if (!strcmp(arg, "entry") && predict) {
		oa->pargv[oa->pargc++] = "--entry";
		oa->pargv[oa->pargc++] = (char *)val;
	} else if (!strcmp(arg, "samples") && predict) {
		errno = 0;
		n = strtoul(val, &end, 10);
		/* nicprog-plan's NP_MAX_SAMPLES, in the CLI's words */
		if (end == val || *end || errno || !n || n > 64)
			return cli_usage("samples \"%s\" is not a count from 1 to 64",
					 val);
		oa->pargv[oa->pargc++] = "--samples";
		oa->pargv[oa->pargc++] = (char *)val;
	} else if (!strcmp(arg, "profile") || !strcmp(arg, "sec")) {
		oa->pargv[oa->pargc++] = !strcmp(arg, "sec") ? "--sec" :
					"--profile";
		oa->pargv[oa->pargc++] = (char *)val;
	} else {
		return cli_usage("unknown argument \"%s\"", arg);
	}
	return 0;
}

/**
 * cmd_offline() - nicprog plan | predict
 * @cli: the arguments after the object word
 * @predict: predict (a workload is required) rather than plan
 * @mode: words or JSON
 *
 * Return: the exit status: nicprog-plan's, or 2 for bad usage.
 */
int cmd_offline(struct cli *cli, bool predict, enum out_mode mode)
{
	struct offline_args oa = { 0 };
	const char *dot_file = NULL, *arg, *val;
	char **pargv = oa.pargv;
	bool dot = false;
	int fd, rc;

	pargv[oa.pargc++] = NULL;	/* the program, once found */
	while ((arg = cli_next(cli))) {
		if (oa.pargc > PLAN_ARGS_MAX - 8)
			return cli_usage("too many arguments");
		if (!strcmp(arg, "partial")) {
			pargv[oa.pargc++] = "--partial";
			continue;
		}
		if (!strcmp(arg, "dot") && !predict) {
			dot = true;
			if (cli->argc && !plan_word(cli->argv[0]))
				dot_file = cli_next(cli);
			continue;
		}
		if (!plan_word(arg) || (predict && !strcmp(arg, "svg")))
			return cli_usage("unknown argument \"%s\"", arg);
		val = cli_next(cli);
		if (!val)
			return cli_usage("\"%s\" needs a value", arg);
		rc = offline_value(&oa, arg, val, predict);
		if (rc)
			return rc;
	}
	if (!oa.obj)
		return cli_usage("name the program: obj FILE");
	if (predict && !oa.workload && !oa.bufs)
		return cli_usage("name the traffic, workload FILE (tools/workloads/*.wl or a pcap file), or a lookaside kernel's job: bufs LEN,LEN,...");
	if (oa.workload && oa.bufs)
		return cli_usage("workload prices an NF, bufs a lookaside kernel's job: one or the other");
	if ((dot || oa.svg_file) && mode != OUT_TEXT)
		return cli_usage("dot and svg are graphs, not JSON: drop -j");
	if (dot && oa.svg_file)
		return cli_usage("dot or svg, not both");
	if (oa.workload) {
		pargv[oa.pargc++] = "--workload";
		pargv[oa.pargc++] = (char *)oa.workload;
	}
	if (mode != OUT_TEXT)
		pargv[oa.pargc++] = mode == OUT_PRETTY ? "--pretty" : "--json";
	if (dot || oa.svg_file)
		pargv[oa.pargc++] = "--dot";
	pargv[oa.pargc++] = (char *)oa.obj;
	pargv[oa.pargc] = NULL;
	pargv[0] = (char *)find_plan();
	if (!pargv[0])
		return EXIT_REFUSED;
	if (oa.svg_file)
		return plan_svg(pargv, oa.svg_file);
	fd = -1;
	if (dot_file) {
		fd = open(dot_file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			  0644);
		if (fd < 0) {
			fprintf(stderr, "nicprog: %s: %s\n", dot_file,
				strerror(errno));
			return EXIT_REFUSED;
		}
	}
	rc = run(pargv, -1, fd);
	if (fd >= 0)
		close(fd);
	return rc < 0 ? EXIT_REFUSED : wait_status(rc);
}
