/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The default context columns of a text line (output.c), formatted
 * without vsnprintf().  Pure: also built on the host, where its test
 * and fuzzer hold it to snprintf() with the same format.
 */
#ifndef _RETRACE_CORE_CONTEXT_FMT_H
#define _RETRACE_CORE_CONTEXT_FMT_H

#ifdef RETRACE_HOST
#include "pure_shim.h"
#else
#include <linux/types.h>
#endif

/* The format it stands in for, and the room its output needs. */
#define RT_CONTEXT_FMT		"%16s-%-5d [%03u] %5llu.%06u: "
#define RT_CONTEXT_FMT_MAX	80

unsigned int rt_context_fmt(char *buf, const char *comm, unsigned int comm_len,
			    int pid, unsigned int cpu, u64 secs, u32 usecs);

#endif /* _RETRACE_CORE_CONTEXT_FMT_H */
