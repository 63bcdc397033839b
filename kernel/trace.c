// SPDX-License-Identifier: GPL-2.0
/* nicprog's tracepoints, defined once (kernel/trace.h says which and why). */
#include <linux/kernel.h>

#define CREATE_TRACE_POINTS
#include "trace.h"

#include "nicprog.h"

/**
 * nicprog_bad_arg() - record why a user's argument was refused
 * @where: what refused it: a port's name, or a command's
 * @fmt: the cause, printf-style, ending in a newline or not
 *
 * For the tracepoint nicprog:nicprog_bad_arg only: the caller returns the
 * errno (and, on netlink, the extack) that carries the refusal to the user.
 * Drivers call it for what a user asked of them through nicprog.
 */
void nicprog_bad_arg(const char *where, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	if (!trace_nicprog_bad_arg_enabled())
		return;
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	trace_nicprog_bad_arg(where, &vaf);
	va_end(args);
}
EXPORT_SYMBOL_GPL(nicprog_bad_arg);
