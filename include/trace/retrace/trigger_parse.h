/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The words of an event trigger line (events/S/E/trigger):
 *
 *	[!]COMMAND[:SYS:EVENT][:COUNT][ if FILTER]
 *
 * SYS:EVENT only for the commands that name a target event.  Pure C
 * (events/trigger_parse.c), also built on the host for its tests and
 * fuzzer; looking the target up and compiling the filter are the
 * kernel's (events/event_trigger.c).
 */
#ifndef _TRACE_RETRACE_TRIGGER_PARSE_H
#define _TRACE_RETRACE_TRIGGER_PARSE_H

#ifdef __KERNEL__
#include <linux/types.h>
#endif

/* A command the parser knows: its name, and whether SYS:EVENT follows. */
struct rt_trigger_cmd_desc {
	const char	*name;
	bool		target;
};

/*
 * struct rt_trigger_words - a split trigger line; the strings point into
 *	the caller's (modified) text
 * @cmd: index of the command in the caller's table
 * @sys, @event: the target, or NULL for a command without one
 * @count: runs asked for, 0 for no limit
 * @filter: the text after " if ", or NULL
 */
struct rt_trigger_words {
	unsigned int	cmd;
	const char	*sys;
	const char	*event;
	unsigned long	count;
	const char	*filter;
};

int rt_trigger_split(char *text, const struct rt_trigger_cmd_desc *cmds,
		     unsigned int nr_cmds, bool removing,
		     struct rt_trigger_words *w);

#endif /* _TRACE_RETRACE_TRIGGER_PARSE_H */
