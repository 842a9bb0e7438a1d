// SPDX-License-Identifier: GPL-2.0
/*
 * The interrupt on/off hooks that CONFIG_TRACE_IRQFLAGS (selected by
 * lockdep) calls.  Upstream keeps them in its tracing code, which
 * retrace replaces, so they live here: they feed lockdep and the
 * latency hooks (latency_hooks.c), which take them in place of the
 * static branches a kernel without lockdep has in local_irq_*().
 */
#include <linux/export.h>
#include <linux/ftrace.h>
#include <linux/irqflags.h>
#include <linux/kprobes.h>
#include <linux/lockdep.h>
#include <trace/retrace/latency_hooks.h>

#include "latency_entry.h"

#ifndef CONFIG_RETRACE_LATENCY_HOOKS
static inline void retrace_irqs_on_at(unsigned long ip) { }
static inline void retrace_irqs_off_at(unsigned long ip) { }
#endif

/* Entry code: interrupts go back on (iret, sysret) after this. */
void trace_hardirqs_on_prepare(void)
{
	retrace_irqs_on_at(CALLER_ADDR0);
}
EXPORT_SYMBOL(trace_hardirqs_on_prepare);
NOKPROBE_SYMBOL(trace_hardirqs_on_prepare);

void trace_hardirqs_on(void)
{
	retrace_irqs_on_at(CALLER_ADDR0);
	lockdep_hardirqs_on_prepare();
	lockdep_hardirqs_on(CALLER_ADDR0);
}
EXPORT_SYMBOL(trace_hardirqs_on);
NOKPROBE_SYMBOL(trace_hardirqs_on);

/* Entry code: the hardware turned interrupts off on the way in. */
void trace_hardirqs_off_finish(void)
{
	retrace_irqs_off_entry_at(CALLER_ADDR0);
}
EXPORT_SYMBOL(trace_hardirqs_off_finish);
NOKPROBE_SYMBOL(trace_hardirqs_off_finish);

void trace_hardirqs_off(void)
{
	lockdep_hardirqs_off(CALLER_ADDR0);
	retrace_irqs_off_at(CALLER_ADDR0);
}
EXPORT_SYMBOL(trace_hardirqs_off);
NOKPROBE_SYMBOL(trace_hardirqs_off);
