// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: LNIC profile text (Documentation/nicprog/lnic.rst),
 * as a sysfs write, a netlink profile-set or a firmware file hands it to
 * the kernel. Text that parses must validate, format to text that parses
 * to the same text again, and plan the program of the facts file named by
 * NICPROG_FUZZ_FACTS (if set) on the NIC it describes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts.h"
#include "plan.h"

static struct nicprog_facts prog;
static void *prog_buf;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *path = getenv("NICPROG_FUZZ_FACTS");
	char why[128];
	long len;
	FILE *f;

	(void)argc;
	(void)argv;
	f = path ? fopen(path, "rb") : NULL;
	if (!f)
		return 0;
	if (!fseek(f, 0, SEEK_END) && (len = ftell(f)) > 0 &&
	    !fseek(f, 0, SEEK_SET) && (prog_buf = malloc(len)) &&
	    fread(prog_buf, 1, len, f) == (size_t)len &&
	    nicprog_facts_read(prog_buf, len, &prog, why, sizeof(why))) {
		fprintf(stderr, "lnic_fuzz: %s: %s\n", path, why);
		exit(1);
	}
	fclose(f);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct nicprog_lnic_text t, again;
	static char out[NICPROG_LNIC_TEXT_MAX], out2[NICPROG_LNIC_TEXT_MAX];
	char why[256];
	size_t n;

	if (nicprog_lnic_parse((const char *)data, size, &t, why,
			       sizeof(why))) {
		if (!why[0])
			abort();	/* every refusal says why */
		return 0;
	}
	if (nicprog_lnic_validate(&t.lnic, why, sizeof(why)))
		abort();		/* the parser promises a valid LNIC */
	n = nicprog_lnic_format(&t.lnic, out, sizeof(out));
	if (n >= sizeof(out))
		return 0;
	if (nicprog_lnic_parse(out, n, &again, why, sizeof(why)) ||
	    nicprog_lnic_format(&again.lnic, out2, sizeof(out2)) != n ||
	    memcmp(out, out2, n))
		abort();		/* formatted text reads back as itself */
	if (prog_buf)
		fuzz_plan(&prog.in, &t.lnic, size ? data[size - 1] : 0);
	return 0;
}
