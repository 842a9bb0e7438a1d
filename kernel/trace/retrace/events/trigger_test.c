// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests for rt_trigger_split(): each line of the table, as a
 * trigger file write would give it, splits into the expected words or
 * fails with the expected errno.
 */
#include "pure_shim.h"
#include <stdio.h>
#include <trace/retrace/trigger_parse.h>

static const struct rt_trigger_cmd_desc cmds[] = {
	{ "traceon", false }, { "traceoff", false }, { "snapshot", false },
	{ "stacktrace", false }, { "enable_event", true },
	{ "disable_event", true },
};

static int failures;

static void check(const char *name, int cond)
{
	printf("%s %s\n", cond ? "ok" : "not ok", name);
	if (!cond)
		failures++;
}

struct tcase {
	const char	*line;
	bool		removing;
	int		ret;
	int		cmd;		/* expected on success */
	const char	*sys, *event, *filter;
	unsigned long	count;
};

static const struct tcase cases[] = {
	{ "traceon", false, 0, 0 },
	{ "traceoff:5", false, 0, 1, .count = 5 },
	{ "traceoff:0x10", false, 0, 1, .count = 16 },
	{ "snapshot:1 if pid == 3", false, 0, 2, .filter = "pid == 3", .count = 1 },
	{ "stacktrace  if\tcommon_pid > 0 ", false, 0, 3, .filter = "common_pid > 0 " },
	{ "enable_event:sched:sched_switch", false, 0, 4, "sched", "sched_switch" },
	{ "disable_event:kprobes:kp:3 if a == 1", false, 0, 5, "kprobes", "kp", "a == 1", 3 },
	{ "enable_event:sched:sched_switch:unlimited", true, 0, 4, "sched", "sched_switch" },
	{ "snapshot:count=0", true, 0, 2 },
	{ "traceon:count=0 if x", true, 0, 0 },
	{ "traceon:0", false, -EINVAL },
	{ "traceon:x", false, -EINVAL },
	{ "traceon:-1", false, -EINVAL },
	{ "traceon:9223372036854775808", false, -EINVAL },
	{ "traceon:99999999999999999999999", false, -EINVAL },
	{ "traceon:9223372036854775807", false, 0, 0, .count = 9223372036854775807UL },
	{ "traceon+1", false, -EINVAL },
	{ "snapshot+1", false, -EINVAL },
	{ "nosuch", false, -EINVAL },
	{ "", false, -EINVAL },
	{ ":1", false, -EINVAL },
	{ "traceon junk", false, -EINVAL },
	{ "traceon if", false, -EINVAL },
	{ "traceon if   ", false, -EINVAL },
	{ "traceon iffy", false, -EINVAL },
	{ "enable_event", false, -EINVAL },
	{ "enable_event:sched", false, -EINVAL },
	{ "enable_event:sched:", false, -EINVAL },
	{ "enable_event::e", false, -EINVAL },
	{ "disable_event+1", false, -EINVAL },
	{ "enable_event:sched:e:0", false, -EINVAL },
	{ "nosuch", true, -EINVAL },
};

static bool same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

int main(void)
{
	struct rt_trigger_words w;
	char buf[128], name[192];
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct tcase *c = &cases[i];

		snprintf(buf, sizeof(buf), "%s", c->line);
		ret = rt_trigger_split(buf, cmds, ARRAY_SIZE(cmds), c->removing, &w);
		snprintf(name, sizeof(name), "split %s\"%s\"",
			 c->removing ? "!" : "", c->line);
		if (ret || c->ret) {
			check(name, ret == c->ret);
			continue;
		}
		check(name, w.cmd == (unsigned int)c->cmd &&
		      same(w.sys, c->sys) && same(w.event, c->event) &&
		      same(w.filter, c->filter) && w.count == c->count);
	}
	printf("%s trigger_split\n", failures ? "not ok" : "ok");
	return failures ? 1 : 0;
}
