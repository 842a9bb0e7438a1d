// SPDX-License-Identifier: GPL-2.0
/*
 * Splitting an event trigger line into its words; see trigger_parse.h.
 *
 * Pure C: builds in the kernel and, through host/pure_shim.h, as a host
 * program for the unit test and the fuzzer (events/trigger_test.c,
 * events/trigger_fuzz.c).
 */
#ifdef __KERNEL__
#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/string.h>
#else
#include "pure_shim.h"
#endif
#include <trace/retrace/trigger_parse.h>

/**
 * rt_trigger_split - the words of one trigger line
 * @text: the line, without its '!', NUL-terminated; cut up in place
 * @cmds: the commands known
 * @nr_cmds: how many
 * @removing: a '!' line: only the command and its target count, and
 *	whatever follows them is ignored
 * @w: out, the words (valid while @text is)
 *
 * Return: 0, or -EINVAL for an unknown command, a missing or empty
 * SYS or EVENT, a count that is not a number from 1 to LONG_MAX, text
 * after the command that is not " if FILTER", or an empty FILTER.
 */
int rt_trigger_split(char *text, const struct rt_trigger_cmd_desc *cmds,
		     unsigned int nr_cmds, bool removing,
		     struct rt_trigger_words *w)
{
	char *params = NULL, *rest, *count;
	unsigned int i;

	memset(w, 0, sizeof(*w));
	/* COMMAND, then ":PARAMS" up to the first blank, then the rest. */
	rest = text + strcspn(text, ": \t");
	if (*rest == ':') {
		*rest++ = '\0';
		params = rest;
		rest += strcspn(rest, " \t");
	}
	if (*rest)
		*rest++ = '\0';
	rest = skip_spaces(rest);

	for (i = 0; i < nr_cmds; i++)
		if (!strcmp(text, cmds[i].name))
			break;
	if (i == nr_cmds)
		return -EINVAL;
	w->cmd = i;
	if (cmds[i].target) {
		w->sys = params ? strsep(&params, ":") : NULL;
		w->event = params ? strsep(&params, ":") : NULL;
		if (!w->sys || !w->event || !*w->sys || !*w->event)
			return -EINVAL;
	}
	count = params;
	if (removing)
		return 0;
	if (count && (kstrtoul(count, 0, &w->count) || !w->count ||
		      w->count > LONG_MAX))
		return -EINVAL;
	if (!*rest)
		return 0;
	if (strncmp(rest, "if", 2) || !isspace(rest[2]))
		return -EINVAL;
	rest = skip_spaces(rest + 2);
	if (!*rest)
		return -EINVAL;
	w->filter = rest;
	return 0;
}
