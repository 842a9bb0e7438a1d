// SPDX-License-Identifier: GPL-2.0
/*
 * The interrupt on/off hooks that CONFIG_TRACE_IRQFLAGS (selected by
 * lockdep) calls.  Upstream keeps them in its tracing code, which
 * retrace replaces, so they live here: they feed lockdep and, later,
 * the irqsoff latency tracer.
 */
#include <linux/export.h>
#include <linux/ftrace.h>
#include <linux/irqflags.h>
#include <linux/kprobes.h>
#include <linux/lockdep.h>

/* Entry code splits the lockdep update around RCU; no tracer yet. */
void trace_hardirqs_on_prepare(void)
{
}
EXPORT_SYMBOL(trace_hardirqs_on_prepare);
NOKPROBE_SYMBOL(trace_hardirqs_on_prepare);

void trace_hardirqs_on(void)
{
	lockdep_hardirqs_on_prepare();
	lockdep_hardirqs_on(CALLER_ADDR0);
}
EXPORT_SYMBOL(trace_hardirqs_on);
NOKPROBE_SYMBOL(trace_hardirqs_on);

void trace_hardirqs_off_finish(void)
{
}
EXPORT_SYMBOL(trace_hardirqs_off_finish);
NOKPROBE_SYMBOL(trace_hardirqs_off_finish);

void trace_hardirqs_off(void)
{
	lockdep_hardirqs_off(CALLER_ADDR0);
}
EXPORT_SYMBOL(trace_hardirqs_off);
NOKPROBE_SYMBOL(trace_hardirqs_off);
