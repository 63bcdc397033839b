// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: a BPF ELF object, as nicprog-plan reads one -- the
 * program and its maps out of the ELF and its BTF (object.c), the
 * verifier's facts computed offline (absint.c), the executor's checks,
 * accelerator calls, then planned on a shipped profile the input's last
 * byte picks. Identification and workloads run the program and are not
 * fuzzed here: offline they run in a child process (nicprog-plan.c).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "absint.h"
#include "plan.h"
#include "profiles.h"

static const char *const profiles[] = {
	"nicsim-generic", "nicsim-soc", "nicsim-nfp", "nicsim-pipeline",
	"nicsim-fpga",
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char why[128];

	(void)argc;
	(void)argv;
	if (nicsim_profiles_init(why, sizeof(why))) {
		fprintf(stderr, "object_fuzz: %s\n", why);
		exit(1);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct np_object o;
	const struct np_object_opts sel = { .cpus = 4 };
	struct np_facts f = { 0 };
	struct nicprog_exec_prog exec;
	struct nicprog_ir_input in;
	const struct nicprog_lnic *lnic;
	char path[64], err[256];
	const char *why;
	u32 bad;
	int fd;

	if (size < 1)
		return 0;
	/* object.c reads a file: this input, as one */
	fd = memfd_create("object_fuzz", 0);
	if (fd < 0)
		return 0;
	if (write(fd, data, size - 1) != (ssize_t)(size - 1)) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	lnic = nicsim_profile_find(profiles[data[size - 1] %
					    (sizeof(profiles) /
					     sizeof(profiles[0]))]);
	if (np_object_read(path, &sel, &o, err, sizeof(err)))
		goto out_close;
	if (np_absint(&o, &f, err, sizeof(err)))
		goto out_free;
	exec = (struct nicprog_exec_prog){
		.insns = f.insns, .len = o.len, .n_maps = f.n_tables,
	};
	if (nicprog_exec_check(&exec, &bad, &why))
		goto out_free;
	nicprog_calls_check_accel(f.insns, f.meta, o.len, o.subs, o.n_subs,
				  NULL, NULL);
	in = (struct nicprog_ir_input){
		.insns = f.insns, .meta = f.meta, .len = o.len,
		.tables = f.tables, .n_tables = f.n_tables,
	};
	fuzz_plan(&in, lnic, data[size - 1] >> 3);
out_free:
	np_facts_free(&f);
	np_object_free(&o);
out_close:
	close(fd);
	return 0;
}
