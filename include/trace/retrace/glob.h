/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TRACE_RETRACE_GLOB_H
#define _TRACE_RETRACE_GLOB_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stddef.h>
#endif

bool rt_glob_match(const char *pat, const char *str);

#endif /* _TRACE_RETRACE_GLOB_H */
