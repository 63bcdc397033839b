/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The only header the offloader's algorithms include besides their own: it
 * maps the few kernel facilities they use onto libc when built in userspace
 * (unit tests, benchmarks, the CLI's offline planner), so one source serves
 * both.
 */
#ifndef _NICPROG_OFFLOAD_COMPAT_H
#define _NICPROG_OFFLOAD_COMPAT_H

#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/types.h>
#else
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif
#endif /* __KERNEL__ */

#endif /* _NICPROG_OFFLOAD_COMPAT_H */
