// SPDX-License-Identifier: GPL-2.0
/*
 * nicprog dev set ... profile NAME | profile-file FILE: give a port's NIC
 * another architecture profile. A file is read and parsed here first, by
 * the kernel's own parser (kernel/offload/lnic_text.c), so that a bad one
 * is refused with its line before the kernel sees it.
 */
#include "compat.h"
#include <net/nicprog_lnic.h>
#include <linux/nicprog.h>

#include "nicprog.h"
#include "nicprog-user.h"
#include "ynl.h"

/* NLA_HDRLEN and the length in a u16, as the kernel's policy says */
#define NICPROG_PROFILE_TEXT_MAX	65530	/* and a NUL: one attribute */

/*
 * Read @path into @text (at most NICPROG_LNIC_TEXT_MAX bytes) and parse
 * it into @lt. Return its length, or -1 after saying why.
 */
static long profile_read(const char *path, char *text,
			 struct nicprog_lnic_text *lt)
{
	char why[160];
	size_t len;
	FILE *f;

	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "nicprog: dev set: %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	len = fread(text, 1, NICPROG_LNIC_TEXT_MAX + 1, f);
	if (ferror(f)) {
		fprintf(stderr, "nicprog: dev set: %s: %s\n", path,
			strerror(errno));
		fclose(f);
		return -1;
	}
	fclose(f);
	if (len > NICPROG_PROFILE_TEXT_MAX) {
		fprintf(stderr, "nicprog: dev set: %s: more than %u bytes, the most one netlink attribute holds\n",
			path, NICPROG_PROFILE_TEXT_MAX);
		return -1;
	}
	if (nicprog_lnic_parse(text, len, lt, why, sizeof(why))) {
		fprintf(stderr, "nicprog: dev set: %s: %s\n", path, why);
		return -1;
	}
	return len;
}

/**
 * profile_set() - send profile-set for a port
 * @cli: the CLI
 * @dev: the port
 * @name: a profile the driver knows by name, or NULL
 * @path: a profile file, or NULL (exactly one of @name and @path)
 *
 * Return: 0, or an exit code after saying why.
 */
int profile_set(struct cli *cli, const char *dev, const char *name,
		const char *path)
{
	static char text[NICPROG_LNIC_TEXT_MAX + 1];
	static struct nicprog_lnic_text lt;
	struct nicprog_profile_set_req *req;
	struct ynl_sock *ys;
	long len = 0;
	int err;

	if (path) {
		len = profile_read(path, text, &lt);
		if (len < 0)
			return EXIT_USAGE;
		text[len] = 0;	/* within the buffer: len is checked */
	}
	ys = cli_ys(cli);
	if (!ys)
		return EXIT_REFUSED;
	req = nicprog_profile_set_req_alloc();
	if (!req)
		return cli_refused(cli, -ENOMEM, "dev set profile", dev);
	nicprog_profile_set_req_set_ifname(req, dev);
	/* whole: the parser above refuses a file with a NUL in it */
	if (path)
		nicprog_profile_set_req_set_lnic_text(req, text);
	else
		nicprog_profile_set_req_set_profile(req, name);
	err = nicprog_profile_set(ys, req);
	nicprog_profile_set_req_free(req);
	return err ? cli_ys_refused(cli, "dev set profile", dev) : 0;
}
