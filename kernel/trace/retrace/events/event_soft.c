// SPDX-License-Identifier: GPL-2.0
/*
 * Soft mode: an event of an instance that a command of that instance's
 * set_ftrace_filter (enable_event, disable_event) switches when a
 * function is hit, or an event that has triggers or is a trigger's target
 * (event_trigger.c; those holds are taken and dropped under
 * rt_event_lock with rt_event_soft_hold_file() and
 * rt_event_soft_drop_file()).
 *
 * Switching must be possible in any context, so it cannot arm or
 * disarm the producer.  While an event's file is in soft
 * mode its producer stays armed (the file counts as a user,
 * rt_event_producer_get()), and only the file's @enabled flag, which the
 * record path reads, changes: by a command's hit, lockless, or by a
 * write to its enable file.  The enable file then reads "0*" or "1*".
 *
 * Who keeps a file in soft mode, counted in @soft_refs (atomic_t):
 *   - a write to set_ftrace_filter naming the event, from before it
 *     takes the call-site lock until it is done (rt_event_soft_get(),
 *     rt_event_soft_put(): under rt_event_lock);
 *   - every published command set, one count per entry naming the event
 *     (rt_event_soft_hold() when the set is published,
 *     rt_event_soft_release() once no reader can still see it: any
 *     context, no lock; these never enter or leave soft mode).
 * @soft_mode (under rt_event_lock) is entered by the first get and left
 * when a put finds no count left.  A release that drops the last count
 * (a module's commands going, or an instance's at its removal) leaves
 * it through a work item, since its caller holds the call-site lock,
 * which ranks below rt_event_lock; an instance's removal waits for that
 * work (rt_event_soft_settle()) before its files go.
 *
 * Leaving soft mode, a file that was soft-disabled gives up the
 * producer; one soft-enabled stays enabled, as if "1" had been written.
 * A file in soft mode keeps its event enabled, so the event cannot be
 * removed meanwhile (rt_event_remove() says EBUSY): the pointers the
 * commands hold stay valid.  Events whose producer removes them on its
 * own (@may_vanish: markers of modules) are refused.
 */
#define pr_fmt(fmt) "retrace: " fmt

#include <linux/atomic.h>
#include <linux/err.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#include <trace/retrace/core.h>
#include <trace/retrace/event.h>
#include "internal.h"

/**
 * rt_event_dir_file - an instance's file of SYSTEM:NAME, or NULL
 * @edir: the instance's events
 * @system: the event's group
 * @name: the event's name
 *
 * Under rt_event_dir_lock (the groups) and rt_event_lock (their files).
 */
struct rt_event_file *rt_event_dir_file(struct rt_event_dir *edir,
					const char *system, const char *name)
{
	struct rt_event_sysdir *sd;
	struct rt_event_file *file;

	lockdep_assert_held(&rt_event_lock);
	list_for_each_entry(sd, &edir->systems, list) {
		if (strcmp(sd->sys->name, system))
			continue;
		list_for_each_entry(file, &sd->files, sys_link)
			if (!strcmp(file->ev->name, name))
				return file;
	}
	return NULL;
}

/* @tr's file of SYSTEM:NAME, under rt_event_lock. */
static struct rt_event_file *rt_event_tr_file(struct rt_instance *tr,
					      const char *system,
					      const char *name)
{
	struct rt_event_dir *edir;

	lockdep_assert_held(&rt_event_lock);
	list_for_each_entry(edir, &rt_event_dirs, list)
		if (edir->tr == tr)
			return rt_event_dir_file(edir, system, name);
	return NULL;
}

/* Under rt_event_lock: no count left, so leave soft mode. */
static void rt_event_soft_leave(struct rt_event_file *file)
{
	lockdep_assert_held(&rt_event_lock);
	if (!file->soft_mode || atomic_read(&file->soft_refs))
		return;
	file->soft_mode = false;
	if (!READ_ONCE(file->enabled) && rt_event_producer_put(file)) {
		/* The producer would not stop: keep it, as enabled. */
		pr_warn("event %s:%s would not stop\n", file->ev->system,
			file->ev->name);
		WRITE_ONCE(file->enabled, true);
	}
	rt_event_count_sync(file);
}

/*
 * Under rt_event_lock: one more hold on @file's soft mode, entering it
 * if need be.  0, -EOPNOTSUPP for an event its producer may remove on
 * its own, or the producer's errno if it could not be armed.
 */
int rt_event_soft_hold_file(struct rt_event_file *file)
{
	int ret = 0;

	lockdep_assert_held(&rt_event_lock);
	if (file->ev->may_vanish)
		return -EOPNOTSUPP;
	if (!file->soft_mode) {
		/* An enabled file has the producer already. */
		if (!file->enabled)
			ret = rt_event_producer_get(file);
		if (ret)
			return ret;
		file->soft_mode = true;
		rt_event_count_sync(file);
	}
	atomic_inc(&file->soft_refs);
	return 0;
}

/* Under rt_event_lock: drop a hold from rt_event_soft_hold_file(). */
void rt_event_soft_drop_file(struct rt_event_file *file)
{
	lockdep_assert_held(&rt_event_lock);
	if (atomic_dec_and_test(&file->soft_refs))
		rt_event_soft_leave(file);
}

/**
 * rt_event_soft_get - find an instance's event and keep it in soft mode
 * @tr: the instance (the commands of its set_ftrace_filter)
 * @system: its group ("sched")
 * @name: its name ("sched_switch")
 * @existing: only if it is in soft mode already (a command removal:
 *	an event no command names is not armed for nothing)
 *
 * Process context; takes rt_event_lock, so call it before the call-site
 * lock.  Pair with rt_event_soft_put().
 *
 * Return: the event's handle (NULL with @existing and no soft mode),
 * ERR_PTR(-EINVAL) if there is no such
 * event, ERR_PTR(-EOPNOTSUPP) for one its producer may remove on its
 * own (markers: see struct rt_event), or the producer's errno if it
 * could not be armed.
 */
struct rt_event_file *rt_event_soft_get(struct rt_instance *tr,
				       const char *system, const char *name,
				       bool existing)
{
	struct rt_event_file *file;
	int ret = 0;

	/* The directory lock too: no event half added or half removed. */
	mutex_lock(&rt_event_dir_lock);
	mutex_lock(&rt_event_lock);
	file = rt_event_tr_file(tr, system, name);
	if (!file)
		ret = -EINVAL;
	else if (file->ev->may_vanish)
		ret = -EOPNOTSUPP;
	else if (existing && !file->soft_mode)
		file = NULL;	/* no command can name it: nothing to hold */
	else
		ret = rt_event_soft_hold_file(file);
	mutex_unlock(&rt_event_lock);
	mutex_unlock(&rt_event_dir_lock);
	return ret ? ERR_PTR(ret) : file;
}
EXPORT_SYMBOL_GPL(rt_event_soft_get);

/**
 * rt_event_soft_put - drop what rt_event_soft_get() took
 * @file: its handle
 *
 * Process context, not under the call-site lock.
 */
void rt_event_soft_put(struct rt_event_file *file)
{
	mutex_lock(&rt_event_lock);
	if (atomic_dec_and_test(&file->soft_refs))
		rt_event_soft_leave(file);
	mutex_unlock(&rt_event_lock);
}
EXPORT_SYMBOL_GPL(rt_event_soft_put);

/**
 * rt_event_soft_hold - one more published command names @file
 * @file: a handle some caller holds with rt_event_soft_get()
 */
void rt_event_soft_hold(struct rt_event_file *file)
{
	atomic_inc(&file->soft_refs);
}
EXPORT_SYMBOL_GPL(rt_event_soft_hold);

static void rt_event_soft_sweep(struct work_struct *work)
{
	struct rt_event_sysdir *sd;
	struct rt_event_file *file;
	struct rt_event_dir *edir;

	mutex_lock(&rt_event_lock);
	list_for_each_entry(edir, &rt_event_dirs, list)
		list_for_each_entry(sd, &edir->systems, list)
			list_for_each_entry(file, &sd->files, sys_link)
				rt_event_soft_leave(file);
	mutex_unlock(&rt_event_lock);
}

static DECLARE_WORK(rt_event_soft_work, rt_event_soft_sweep);

/*
 * Leave soft mode now where a release left no count: an instance's
 * removal runs this before it takes the instance's files off the list
 * the sweep walks (the function tracer gave back the holds of the
 * instance's commands just before).  Process context, no lock held.
 */
void rt_event_soft_settle(void)
{
	flush_work(&rt_event_soft_work);
}

/**
 * rt_event_soft_release - a published command naming @file is gone
 * @file: its handle
 *
 * Once no reader can see that command.  Any context, no lock.
 */
void rt_event_soft_release(struct rt_event_file *file)
{
	if (atomic_dec_and_test(&file->soft_refs))
		schedule_work(&rt_event_soft_work);
}
EXPORT_SYMBOL_GPL(rt_event_soft_release);

/**
 * rt_event_soft_switch - a command's hit: enable or disable the event
 * @file: a handle held by a published command
 * @on: the state wanted
 *
 * Any context.
 *
 * Return: true if the state changed.
 */
bool notrace rt_event_soft_switch(struct rt_event_file *file, bool on)
{
	bool old = !on;

	/* One winner when hits on several CPUs switch it at once. */
	return try_cmpxchg(&file->enabled, &old, on);
}
EXPORT_SYMBOL_GPL(rt_event_soft_switch);

/**
 * rt_event_soft_enabled - whether the event records now
 * @file: a handle held by a published command
 */
bool notrace rt_event_soft_enabled(struct rt_event_file *file)
{
	return READ_ONCE(file->enabled);
}
EXPORT_SYMBOL_GPL(rt_event_soft_enabled);

/**
 * rt_event_soft_name - print "system:name" of @file
 * @m: where
 * @file: a handle held by a published command
 */
void rt_event_soft_name(struct seq_file *m, struct rt_event_file *file)
{
	seq_printf(m, "%s:%s", file->ev->system, file->ev->name);
}
EXPORT_SYMBOL_GPL(rt_event_soft_name);
