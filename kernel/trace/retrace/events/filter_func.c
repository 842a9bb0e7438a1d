// SPDX-License-Identifier: GPL-2.0
/*
 * Where a filter's FIELD.function predicate finds its function: kallsyms,
 * which knows the kernel's and loaded modules' text.  Kept apart from
 * event_filter.c, which is pure C and also builds on the host.
 *
 * The bounds are looked up once, when the filter is written.  A module
 * that unloads afterwards leaves the range behind: its addresses can no
 * longer turn up in new records until something else is loaded there.
 */
#include <linux/kallsyms.h>
#include <trace/retrace/event_filter.h>

/**
 * rt_filter_func_bounds - the function a FIELD.function predicate names
 * @name: a symbol name, or NULL to look @addr up instead
 * @addr: a text address (when @name is NULL)
 * @start: out, the function's first byte
 * @end: out, one past its last byte
 *
 * Return: true when kallsyms knows a symbol there, with its size.
 */
bool rt_filter_func_bounds(const char *name, unsigned long long addr,
			   unsigned long long *start, unsigned long long *end)
{
	unsigned long ip = name ? kallsyms_lookup_name(name) : addr;
	unsigned long size, offset;

	if (!ip || !kallsyms_lookup_size_offset(ip, &size, &offset))
		return false;
	*start = ip - offset;
	*end = *start + size;
	return true;
}
