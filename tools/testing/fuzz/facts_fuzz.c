// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: a facts file (kernel/offload/facts.h), as
 * nicprog-plan reads one -- every field checked by nicprog_facts_read(),
 * then planned. The input's first byte picks the plan's shape, budget and
 * whether the host may take a part.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "facts.h"
#include "plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct nicprog_facts f;
	char why[128];
	void *buf;

	if (size < 1)
		return 0;
	/* a copy of its own, aligned as a file read into memory is */
	buf = malloc(size - 1 ? size - 1 : 1);
	if (!buf)
		return 0;
	memcpy(buf, data + 1, size - 1);
	if (!nicprog_facts_read(buf, size - 1, &f, why, sizeof(why)))
		fuzz_plan(&f.in, &f.lnic, data[0]);
	free(buf);
	return 0;
}
