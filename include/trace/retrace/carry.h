/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text written to a control file in several write() calls: a token
 * (or line) cut by a write boundary is carried over to the next write,
 * so `cat list > set_ftrace_filter` works whatever cat's buffer size.
 * Pure C (lib/carry.c), also built on the host.
 */
#ifndef _TRACE_RETRACE_CARRY_H
#define _TRACE_RETRACE_CARRY_H

#ifdef __KERNEL__
#include <linux/types.h>
#endif

/* Longest token (or line) that may straddle writes. */
#define RT_CARRY_MAX	4096

/*
 * struct rt_carry - the unfinished tail of the writes so far
 * @len:   bytes in @buf
 * @buf:   the start of a token whose end has not been written yet
 *
 * One per open file, used under the file's own serialisation.
 */
struct rt_carry {
	unsigned int	len;
	char		buf[RT_CARRY_MAX];
};

char *rt_carry_join(struct rt_carry *c, const char *in, size_t n,
		    const char *delims, int *err);
char *rt_carry_flush(struct rt_carry *c);

#endif /* _TRACE_RETRACE_CARRY_H */
