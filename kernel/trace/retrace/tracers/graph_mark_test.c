// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests for rt_graph_mark(): each threshold is exclusive (a
 * duration exactly at it gets the smaller mark), and the marks grow
 * with the duration.
 */
#include <stdio.h>
#include "pure_shim.h"

char rt_graph_mark(u64 ns);

static int failures;

static void check(const char *name, int cond)
{
	printf("%s %s\n", cond ? "ok" : "not ok", name);
	if (!cond)
		failures++;
}

int main(void)
{
	static const struct { u64 ns; char mark; } t[] = {
		{ 0, ' ' }, { 999, ' ' }, { 10000, ' ' }, { 10001, '+' },
		{ 100000, '+' }, { 100001, '!' }, { 1000000, '!' },
		{ 1000001, '#' }, { 10000000, '#' }, { 10000001, '*' },
		{ 100000000, '*' }, { 100000001, '@' }, { 1000000000, '@' },
		{ 1000000001, '$' }, { ~0ULL, '$' },
	};
	static const char order[] = " +!#*@$";
	unsigned int i, bad = 0, last = 0;
	u64 ns;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (rt_graph_mark(t[i].ns) != t[i].mark) {
			printf("# %llu ns: got '%c', want '%c'\n",
			       (unsigned long long)t[i].ns,
			       rt_graph_mark(t[i].ns), t[i].mark);
			bad++;
		}
	check("thresholds", !bad);
	bad = 0;
	for (ns = 1; ns < (1ULL << 40); ns = ns * 3 / 2 + 1) {
		const char *p = order;
		unsigned int pos;

		while (*p && *p != rt_graph_mark(ns))
			p++;
		pos = p - order;
		if (!*p || pos < last)
			bad++;
		last = pos;
	}
	check("monotonic", !bad);
	return failures ? 1 : 0;
}
