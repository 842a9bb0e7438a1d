// SPDX-License-Identifier: GPL-2.0
/*
 * events/ftrace/print/trigger: triggers on trace_marker writes.
 *
 * Upstream keeps the triggers of trace_marker in events/ftrace/print,
 * and tools look for them there (ftracetest's trace_marker cases).
 * retrace names its trace_marker records "marker" and trace_printk()'s
 * "print", but puts the file where tools expect it; like upstream's, it
 * acts on trace_marker writes only.
 *
 * Each instance's events/ has one struct rt_event_file for it,
 * edir->print_file, of the pseudo event rt_print_trigger_event: the
 * print record's fields, for filters, and no producer (nothing to arm,
 * so soft mode costs nothing).  The file is on no group's list, so
 * set_event, available_events and events/enable never see it; the
 * trigger code treats it as any event's file, and the instance's
 * removal clears, releases and frees its triggers with the others'
 * (event_trigger.c).
 *
 * The hits.  The core calls a hook for each trace_marker record, just
 * after committing it (core/print.c), in process context with
 * preemption off.  The hook is installed only while some instance has a
 * print trigger (rt_print_triggers_sync(), under rt_event_lock), so a
 * trace_marker write otherwise pays one load for it.  It finds the
 * writer's instance on rt_event_dirs (RCU; preemption is off) and runs
 * that instance's triggers, as rt_event_close() does for an event.
 */
#define pr_fmt(fmt) "retrace: " fmt

#include <linux/kernel.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/tracefs.h>
#include <trace/retrace/core.h>
#include <trace/retrace/event.h>
#include "internal.h"

static struct rt_event rt_print_trigger_event = {
	.system		= "ftrace",
	.name		= "print",
	.fields		= rt_print_fields,
	.nr_fields	= RT_PRINT_NR_FIELDS,
};

static void notrace rt_print_triggers_hit(struct rt_instance *tr, void *rec,
					  unsigned int len)
{
	struct rt_trigger_set *ts;
	struct rt_event_dir *edir;

	list_for_each_entry_rcu(edir, &rt_event_dirs, list,
				rcu_read_lock_sched_held()) {
		if (edir->tr != tr || !edir->print_file)
			continue;
		ts = rcu_dereference_sched(edir->print_file->triggers);
		if (ts)
			rt_event_triggers_run(ts, tr, rec, len);
		return;
	}
}

/**
 * rt_print_triggers_sync - install the hook while a print trigger exists
 *
 * Under rt_event_lock, after any change to a print file's triggers.
 */
void rt_print_triggers_sync(void)
{
	struct rt_event_dir *edir;
	bool any = false;

	lockdep_assert_held(&rt_event_lock);
	list_for_each_entry(edir, &rt_event_dirs, list)
		if (edir->print_file &&
		    rcu_access_pointer(edir->print_file->triggers))
			any = true;
	rt_marker_set_hook(any ? rt_print_triggers_hit : NULL);
}

/* Is @file an instance's events/ftrace/print? */
bool rt_is_print_file(const struct rt_event_file *file)
{
	return file->ev == &rt_print_trigger_event;
}

/**
 * rt_print_trigger_create - events/ftrace/print/trigger of an instance
 * @edir: the instance's events, being made (under rt_event_dir_lock)
 * @dir: its events/ftrace/print/
 *
 * A failure leaves the instance without the file, with a warning.
 */
void rt_print_trigger_create(struct rt_event_dir *edir, struct dentry *dir)
{
	struct rt_event_sysdir *sd = kzalloc(sizeof(*sd), GFP_KERNEL);
	struct rt_event_file *file = kzalloc(sizeof(*file), GFP_KERNEL);

	if (!sd || !file)
		goto fail;
	sd->edir = edir;
	sd->dir = dir;
	INIT_LIST_HEAD(&sd->files);
	INIT_LIST_HEAD(&sd->list);
	file->ev = &rt_print_trigger_event;
	file->sysdir = sd;
	file->dir = dir;
	INIT_LIST_HEAD(&file->ev_link);
	INIT_LIST_HEAD(&file->sys_link);
	file->files[0] = rt_event_trigger_file_create(file);
	if (IS_ERR_OR_NULL(file->files[0]))
		goto fail;
	edir->print_file = file;
	return;
fail:
	pr_warn("no events/ftrace/print/trigger\n");
	kfree(file);
	kfree(sd);
}

/* With the instance's events, once no hit can reach them. */
void rt_print_trigger_free(struct rt_event_dir *edir)
{
	struct rt_event_file *file = edir->print_file;

	if (!file)
		return;
	rt_event_triggers_free(file);
	kfree(file->sysdir);
	kfree(file);
	edir->print_file = NULL;
}
