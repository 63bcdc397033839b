/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A case's checks for the TAP selftests that run many of them: a failed
 * check says its line and expression and clears the case's ok, the case
 * goes on, and RESULT reports it once.
 */
#ifndef _NICPROG_CHECK_H
#define _NICPROG_CHECK_H

#include "kselftest.h"

#define RESULT(ok, ...) ksft_test_result(ok, __VA_ARGS__)
/* a check of the function's ok, said when it fails */
#define CHK(c) do {							\
	if (!(c)) {							\
		ksft_print_msg("line %d: %s\n", __LINE__, #c);		\
		ok = 0;							\
	}								\
} while (0)

#endif /* _NICPROG_CHECK_H */
