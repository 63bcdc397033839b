/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nicprog's tracepoints. A user's refused argument is recorded here and
 * not in the kernel log: the log is the operator's, and an unprivileged
 * caller could otherwise fill it (ratelimited or not) with lines of its
 * choosing.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM nicprog

#if !defined(_NICPROG_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _NICPROG_TRACE_H

#include <linux/netdevice.h>
#include <linux/tracepoint.h>

/*
 * The caller's name fills a fixed array, not a __string(): the
 * __assign_str() that fills one changed its arguments in 6.10.
 */
TRACE_EVENT(nicprog_bad_arg,
	    TP_PROTO(const char *where, struct va_format *vaf),
	    TP_ARGS(where, vaf),
	    TP_STRUCT__entry(__array(char, where, IFNAMSIZ + 8)
			     __vstring(msg, vaf->fmt, vaf->va)),
	    TP_fast_assign(strscpy(__entry->where, where,
				   sizeof(__entry->where));
			   __assign_vstr(msg, vaf->fmt, vaf->va);),
	    TP_printk("%s: %s", __entry->where, __get_str(msg))
);

#endif /* _NICPROG_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
