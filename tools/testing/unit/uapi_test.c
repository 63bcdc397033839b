// SPDX-License-Identifier: GPL-2.0
/*
 * The uapi header is self-contained (this file includes nothing before
 * it), compiles as pedantic C99 and C++11, and keeps its ABI values.
 */
#include <linux/nicprog.h>

#ifndef __cplusplus
#include "kselftest.h"

int main(void)
{
	ksft_print_header();
	ksft_set_plan(3);
	/* Values are ABI: appending is allowed, renumbering is not. */
	if (NICPROG_UNIT_CORE == 1 && NICPROG_UNIT_DMA == 5 &&
	    __NICPROG_UNIT_MAX == 6)
		ksft_test_result_pass("unit type values\n");
	else
		ksft_test_result_fail("unit type values changed\n");
	if (NICPROG_ACCEL_CSUM == 1 && NICPROG_ACCEL_REGEX == 6)
		ksft_test_result_pass("accelerator type values\n");
	else
		ksft_test_result_fail("accelerator type values changed\n");
	if (NICPROG_IC_ALU == 0 && NICPROG_IC_CALL == 7 &&
	    __NICPROG_IC_MAX == 8)
		ksft_test_result_pass("instruction class values\n");
	else
		ksft_test_result_fail("instruction class values changed\n");
	ksft_finished();
}
#endif
