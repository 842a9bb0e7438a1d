// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for rt_trigger_split(): any text, added or removed,
 * splits without reading out of bounds, and a line that splits comes
 * back with the same words when written out again from them.
 */
#include "pure_shim.h"
#include <stdio.h>
#include <trace/retrace/trigger_parse.h>

static const struct rt_trigger_cmd_desc cmds[] = {
	{ "traceon", false }, { "snapshot", false },
	{ "enable_event", true },
};

static bool same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct rt_trigger_words w, w2;
	char *text, *again;
	size_t n;

	if (!size)
		return 0;
	text = malloc(size);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	if (rt_trigger_split(text, cmds, ARRAY_SIZE(cmds), data[0] & 1, &w)) {
		free(text);
		return 0;
	}
	if (w.cmd >= ARRAY_SIZE(cmds) || (w.filter && !*w.filter) ||
	    w.count > LONG_MAX || !w.sys != !cmds[w.cmd].target)
		abort();
	/* Write it out from the words (a count only where one was set). */
	n = 3 * size + 64;
	again = malloc(n);
	snprintf(again, n, "%s%s%s%s%s", cmds[w.cmd].name,
		 w.sys ? ":" : "", w.sys ? w.sys : "",
		 w.sys ? ":" : "", w.event ? w.event : "");
	if (w.count)
		snprintf(again + strlen(again), n - strlen(again), ":%lu", w.count);
	if (w.filter)
		snprintf(again + strlen(again), n - strlen(again), " if %s", w.filter);
	if (!(data[0] & 1)) {
		/* No word holds a blank or a ':', so it comes back alike. */
		if (rt_trigger_split(again, cmds, ARRAY_SIZE(cmds), false, &w2) ||
		    w2.cmd != w.cmd || !same(w2.sys, w.sys) ||
		    !same(w2.event, w.event) || !same(w2.filter, w.filter) ||
		    w2.count != w.count)
			abort();
	}
	free(again);
	free(text);
	return 0;
}
