/* SPDX-License-Identifier: GPL-2.0 */
/* The sched-tree option for the tracers that see scheduling events. */
#ifndef _RETRACE_SCHED_TREE_H
#define _RETRACE_SCHED_TREE_H

struct rt_instance;

#ifdef CONFIG_RETRACE_WAKEUP_TRACER
void rt_sched_tree_record(struct rt_instance *tr, int cpu);
#else
static inline void rt_sched_tree_record(struct rt_instance *tr, int cpu) { }
#endif

#endif /* _RETRACE_SCHED_TREE_H */
