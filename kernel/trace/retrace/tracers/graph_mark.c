// SPDX-License-Identifier: GPL-2.0
/*
 * The function_graph tracer's overhead marks, shown before a duration
 * when funcgraph-overhead is on.  Pure logic, also built on the host.
 */
#ifdef __KERNEL__
#include <linux/types.h>
#else
#include "pure_shim.h"
#endif

char rt_graph_mark(u64 ns);

#define RT_NS_PER_US	1000ULL

/*
 * '+' over 10 us and '!' over 100 us as the spec has them; then, one
 * mark per further factor of ten, '#' over 1 ms, '*' over 10 ms, '@'
 * over 100 ms and '$' over 1 s, so a slow call stands out at a glance.
 */
char rt_graph_mark(u64 ns)
{
	static const struct {
		u64	over;
		char	mark;
	} marks[] = {
		{ 1000000 * RT_NS_PER_US, '$' },
		{ 100000 * RT_NS_PER_US, '@' },
		{ 10000 * RT_NS_PER_US, '*' },
		{ 1000 * RT_NS_PER_US, '#' },
		{ 100 * RT_NS_PER_US, '!' },
		{ 10 * RT_NS_PER_US, '+' },
	};
	unsigned int i;

	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if (ns > marks[i].over)
			return marks[i].mark;
	return ' ';
}
