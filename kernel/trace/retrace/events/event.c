// SPDX-License-Identifier: GPL-2.0
/*
 * retrace event layer: the registry of events, the record path that
 * filters them into each instance that has them enabled, and enabling.
 * The files, one events/ tree per instance, are event_dir.c's.
 *
 * Each event has one struct rt_event_file per instance (its
 * events/S/E/ there), on ev->files: whether it records into that
 * instance, and through which filter.  The producer arms an event
 * (->set_enabled) while at least one instance has it enabled.
 *
 * Locks, outermost first (after the core's instance lock, which the
 * instance callbacks run under):
 *   rt_event_dir_lock  adding and removing events and instances'
 *                      event directories, and making and removing
 *                      their tracefs files
 *   rt_event_lock      the lists, every ->enabled and ->filter change,
 *                      the files' i_private; taken by every file
 *                      operation, and held across ->set_enabled()
 *
 * The record path, rt_event_close(), runs in any context with
 * preemption disabled and takes no lock: it walks ev->files as an RCU
 * list and reads each file's @enabled and @filter once.  A file joins
 * ev->files (list_add_tail_rcu()) when it is made and leaves it
 * (list_del_rcu()) only when its instance or its event goes; it is
 * freed, with its filter, after synchronize_rcu(), when no CPU can be
 * in a preempt-disabled section that saw it.  An instance's buffer is
 * freed only after its files left ev->files and that wait: the core
 * frees it after our ->remove() returns.
 */
#define pr_fmt(fmt) "retrace: " fmt

#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracefs.h>
#include <trace/retrace/core.h>
#include <trace/retrace/event.h>
#include <trace/retrace/ipset.h>
#include "internal.h"

LIST_HEAD(rt_event_systems);
LIST_HEAD(rt_event_dirs);
DEFINE_MUTEX(rt_event_dir_lock);
DEFINE_MUTEX(rt_event_lock);

/*
 * Files that may want a hit while the top level does not record:
 * those of other instances that are enabled or in soft mode, and any
 * file with triggers (rt_event_count_sync()).  While it is 0,
 * rt_event_open() needs only ask whether the top level records.
 * Written under rt_event_lock, read with no lock.
 */
static int rt_event_off_top_files;

/**
 * rt_event_open - get a scratch record to fill
 * @pc: preempt_count() before the caller disabled preemption
 *
 * Call with preemption disabled.  The record is RT_EVENT_MAX_RECORD
 * bytes and starts with a struct rt_entry the caller leaves alone.
 *
 * Return: this CPU's scratch record for the context of @pc (see
 * scratch.c), or NULL if nothing is to be recorded now (no instance
 * records, or recursion).  A non-NULL record must be passed to
 * rt_event_close() or rt_event_discard() on this CPU.
 */
void *rt_event_open(unsigned long pc)
{
	if (!rt_recording(rt_top_instance()) &&
	    !READ_ONCE(rt_event_off_top_files))
		return NULL;
	return rt_scratch_get(pc);
}
EXPORT_SYMBOL_GPL(rt_event_open);

/**
 * rt_event_reserve - reserve a record of @ev in place in a ring buffer
 * @ev: the event
 * @h: out, what to pass to rt_event_commit()
 * @len: total bytes, header included: the record's final size
 * @pc: preempt_count() before the caller disabled preemption
 *
 * The short way for a producer that knows a record's size before
 * filling it.  When one instance alone takes @ev's records, with no
 * filter and no trigger (the usual case), the record is filled where
 * it will be read, which saves rt_event_open()'s scratch record and
 * rt_event_close()'s copy.  Call with preemption disabled.  As in
 * rt_event_close(), a filter or trigger that arrives meanwhile applies
 * from the next record on.
 *
 * Return: the record, its common header filled, for rt_event_commit()
 * on this CPU; NULL when the ring buffer refused it (a drop, counted
 * once there: the producer records nothing); or ERR_PTR(-EAGAIN) when
 * the producer must take the rt_event_open() path, which decides
 * whether and where the record goes.
 */
void *rt_event_reserve(struct rt_event *ev, struct rt_handle *h,
		       unsigned int len, unsigned long pc)
{
	struct rt_event_file *file, *only = NULL;
	struct rt_event_dir *edir;

	if (unlikely(len < sizeof(struct rt_entry) ||
		     len > RT_EVENT_MAX_RECORD))
		return ERR_PTR(-EAGAIN);
	list_for_each_entry_rcu(file, &ev->files, ev_link,
				rcu_read_lock_sched_held()) {
		bool ts = rcu_access_pointer(file->triggers);

		if (likely(!READ_ONCE(file->enabled) && !ts))
			continue;
		if (only || ts || rcu_access_pointer(file->filter))
			return ERR_PTR(-EAGAIN);
		only = file;
	}
	if (!only)
		return ERR_PTR(-EAGAIN);
	edir = only->sysdir->edir;
	if (!rt_event_pid_ok(edir) || !rt_recording(edir->tr))
		return ERR_PTR(-EAGAIN);
	/* NULL: the one ring there is refused it; do not try it again. */
	return rt_reserve_entry(edir->tr, h, ev->type.type, len, pc);
}
EXPORT_SYMBOL_GPL(rt_event_reserve);

/**
 * rt_event_discard - give back a record from rt_event_open() unused
 * @rec: the record
 * @pc: the value given to rt_event_open()
 */
void rt_event_discard(void *rec, unsigned long pc)
{
	rt_scratch_put(pc);
}
EXPORT_SYMBOL_GPL(rt_event_discard);

/**
 * rt_event_close - filter a filled record into the instances that want it
 * @ev: the event it belongs to
 * @rec: the record from rt_event_open()
 * @len: bytes used, header included
 * @pc: the value given to rt_event_open()
 *
 * Each instance where @ev is enabled gets a copy if its filter passes
 * it.  A filter is read once, so a record is judged entirely by the
 * old or entirely by the new filter while one replaces the other.
 * Then the event's triggers in that instance run (event_trigger.c),
 * whether it records there or not.
 */
void rt_event_close(struct rt_event *ev, void *rec, unsigned int len,
		    unsigned long pc)
{
	struct rt_event_file *file;
	struct rt_filter *f;

	if (WARN_ON_ONCE(len < sizeof(struct rt_entry) ||
			 len > RT_EVENT_MAX_RECORD))
		goto out;
	rt_fill_header(rec, ev->type.type, pc);
	list_for_each_entry_rcu(file, &ev->files, ev_link,
				rcu_read_lock_sched_held()) {
		struct rt_trigger_set *ts;
		struct rt_event_dir *edir;
		struct rt_instance *tr;
		bool on;

		/*
		 * Most files are disabled and have no triggers: test that
		 * before chasing pointers.
		 */
		on = READ_ONCE(file->enabled);
		ts = rcu_dereference_sched(file->triggers);
		if (likely(!on && !ts))
			continue;
		edir = file->sysdir->edir;
		tr = edir->tr;
		if (!rt_event_pid_ok(edir))
			continue;
		if (on && rt_recording(tr)) {
			f = rcu_dereference_sched(file->filter);
			if (!f || rt_filter_match(f, rec, len))
				rt_record_copy(tr, rec, len);
		}
		if (unlikely(ts))
			rt_event_triggers_run(ts, tr, rec, len);
	}
out:
	rt_event_discard(rec, pc);
}
EXPORT_SYMBOL_GPL(rt_event_close);

static void rt_event_print(struct rt_print_ctx *ctx)
{
	struct rt_event *ev = container_of(ctx->et, struct rt_event, type);

	if (!ev->unnamed)
		seq_buf_printf(ctx->s, "%s: ", ev->name);
	ev->print(ctx);
}

/* ---- enabling ------------------------------------------------------------ */

/*
 * Under rt_event_lock, whenever @file's @enabled, @soft_mode or
 * @triggers may have changed: it counts in rt_event_off_top_files while
 * it has triggers (traceon must run with the top level off), or, in an
 * instance other than the top level, while it is enabled or in soft
 * mode (where a hit may enable it any time).
 */
void rt_event_count_sync(struct rt_event_file *file)
{
	bool want = rcu_access_pointer(file->triggers) ||
		    (file->sysdir->edir->tr != rt_top_instance() &&
		     (READ_ONCE(file->enabled) || file->soft_mode));

	lockdep_assert_held(&rt_event_lock);
	/* events/ftrace/print is no event: rt_event_open() never serves it. */
	if (rt_is_print_file(file))
		want = false;
	if (want == file->counted)
		return;
	file->counted = want;
	WRITE_ONCE(rt_event_off_top_files, rt_event_off_top_files +
		   (want ? 1 : -1));
}

/*
 * @file starts needing its event's producer (enabled, or in soft mode):
 * the first such file in any instance arms it.  0, or the producer's
 * errno, which leaves the counts as they were.
 */
int rt_event_producer_get(struct rt_event_file *file)
{
	struct rt_event *ev = file->ev;
	int ret = 0;

	lockdep_assert_held(&rt_event_lock);
	ev->was_enabled = true;	/* hits may land even if it fails */
	if (!ev->nr_enabled) {
		WRITE_ONCE(ev->enabled, true);
		if (ev->set_enabled)
			ret = ev->set_enabled(ev, true);
		if (ret) {
			WRITE_ONCE(ev->enabled, false);
			return ret;
		}
	}
	ev->nr_enabled++;
	return 0;
}

/* @file no longer needs the producer; the last one disarms it. */
int rt_event_producer_put(struct rt_event_file *file)
{
	struct rt_event *ev = file->ev;
	int ret;

	lockdep_assert_held(&rt_event_lock);
	if (ev->nr_enabled == 1 && ev->set_enabled) {
		ret = ev->set_enabled(ev, false);
		if (ret)
			return ret;
	}
	if (!--ev->nr_enabled)
		WRITE_ONCE(ev->enabled, false);
	return 0;
}

/*
 * Enable or disable @file's event in its instance; the producer starts
 * with the first instance and stops with the last.  In soft mode
 * (event_soft.c) the producer stays armed and only the file's flag
 * changes.  0, or the producer's errno, which leaves things as they
 * were.
 */
int rt_event_file_set(struct rt_event_file *file, bool on)
{
	int ret;

	lockdep_assert_held(&rt_event_lock);
	if (file->soft_mode) {
		WRITE_ONCE(file->enabled, on);
		return 0;
	}
	if (file->enabled == on)
		return 0;
	if (on) {
		/* Flags first, so that the first hits are not dropped. */
		WRITE_ONCE(file->enabled, true);
		rt_event_count_sync(file);
		ret = rt_event_producer_get(file);
		if (ret) {
			WRITE_ONCE(file->enabled, false);
			rt_event_count_sync(file);
		}
		return ret;
	}
	ret = rt_event_producer_put(file);
	if (ret)
		return ret;
	WRITE_ONCE(file->enabled, false);
	rt_event_count_sync(file);
	return 0;
}

void rt_event_file_force_off(struct rt_event_file *file)
{
	struct rt_event *ev = file->ev;

	if (!rt_event_file_set(file, false))
		return;
	pr_warn("event %s:%s would not stop\n", ev->system, ev->name);
	if (!--ev->nr_enabled)
		WRITE_ONCE(ev->enabled, false);
	WRITE_ONCE(file->enabled, false);
	rt_event_count_sync(file);
}

/*
 * Every event of @edir's instance, or those of group @only; the first
 * error is kept.
 */
int rt_event_dir_set(struct rt_event_dir *edir, struct rt_event_system *only,
		     bool on)
{
	struct rt_event_sysdir *sd;
	struct rt_event_file *file;
	int ret = 0, r;

	lockdep_assert_held(&rt_event_lock);
	list_for_each_entry(sd, &edir->systems, list) {
		if (only && sd->sys != only)
			continue;
		list_for_each_entry(file, &sd->files, sys_link) {
			r = rt_event_file_set(file, on);
			if (r && !ret)
				ret = r;
		}
	}
	return ret;
}

/**
 * rt_event_disable - switch an event off in every instance
 * @ev: an event added with rt_event_add()
 *
 * For a producer whose event's source is going away (a module's marker
 * or probe): disable, then rt_event_remove().  The producer must make
 * ->set_enabled(ev, true) fail meanwhile, or the removal may find the
 * event enabled again.
 *
 * Return: 0, or what ->set_enabled(ev, false) returned.
 */
int rt_event_disable(struct rt_event *ev)
{
	struct rt_event_file *file;
	int ret = 0;

	mutex_lock(&rt_event_lock);
	list_for_each_entry(file, &ev->files, ev_link) {
		ret = rt_event_file_set(file, false);
		if (ret)
			break;
	}
	mutex_unlock(&rt_event_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(rt_event_disable);

/* ---- registry ------------------------------------------------------------ */

/* Under rt_event_dir_lock: the group called @name, made if need be. */
static struct rt_event_system *rt_event_system_get(const char *name)
{
	struct rt_event_system *sys;

	list_for_each_entry(sys, &rt_event_systems, list)
		if (!strcmp(sys->name, name))
			return sys;
	sys = kzalloc(sizeof(*sys), GFP_KERNEL);
	if (!sys)
		return ERR_PTR(-ENOMEM);
	sys->name = kstrdup(name, GFP_KERNEL);
	if (!sys->name) {
		kfree(sys);
		return ERR_PTR(-ENOMEM);
	}
	INIT_LIST_HEAD(&sys->events);
	mutex_lock(&rt_event_lock);
	list_add_tail(&sys->list, &rt_event_systems);
	mutex_unlock(&rt_event_lock);
	return sys;
}

/* @sys is off rt_event_systems and has no event: free it. */
static void rt_event_system_free(struct rt_event_system *sys)
{
	kfree(sys->name);
	kfree(sys);
}

/* Under rt_event_dir_lock: free @sys once it has no event left. */
static void rt_event_system_put(struct rt_event_system *sys)
{
	mutex_lock(&rt_event_lock);
	if (!list_empty(&sys->events)) {
		mutex_unlock(&rt_event_lock);
		return;
	}
	list_del(&sys->list);
	mutex_unlock(&rt_event_lock);
	rt_event_system_free(sys);
}

static struct rt_event *rt_event_find(struct rt_event_system *sys,
				      const char *name)
{
	struct rt_event *ev;

	list_for_each_entry(ev, &sys->events, list)
		if (!strcmp(ev->name, name))
			return ev;
	return NULL;
}

/*
 * Under rt_event_dir_lock and rt_event_lock: take @ev's files out of
 * every instance, disabled first (a producer's refusal does not keep
 * them), onto @gone.  The record path may still be reading them:
 * remove their directories with rt_event_files_remove() once
 * rt_event_lock is dropped, and free them with rt_event_files_free()
 * after an RCU grace period.
 */
static void rt_event_files_unlink(struct rt_event *ev, struct list_head *gone)
{
	struct rt_event_file *file, *tmp;

	lockdep_assert_held(&rt_event_lock);
	list_for_each_entry_safe(file, tmp, &ev->files, ev_link) {
		rt_event_file_force_off(file);
		rt_event_file_unlink(file);
		/* ev_link stays valid for RCU readers: chain by sys_link. */
		list_add_tail(&file->sys_link, gone);
	}
}

/* Under rt_event_dir_lock, without rt_event_lock. */
static void rt_event_files_remove(struct list_head *gone)
{
	struct rt_event_file *file;

	list_for_each_entry(file, gone, sys_link)
		rt_event_file_remove(file);
}

static void rt_event_files_free(struct list_head *gone)
{
	struct rt_event_file *file, *tmp;

	list_for_each_entry_safe(file, tmp, gone, sys_link)
		rt_event_file_free(file);
}

/**
 * rt_event_add - create an event and its files in every instance
 * @ev: the event; the producer's fields filled in, the rest zeroed
 *
 * The event starts disabled with no filter.  @ev must stay valid until
 * rt_event_remove() returns.
 *
 * Return: 0, -EEXIST if @ev->system already has an event of that name,
 * -EINVAL for the names "enable", -ENOSPC if no event ID is left,
 * -ENOMEM.
 */
int rt_event_add(struct rt_event *ev)
{
	struct rt_event_system *sys;
	struct rt_event_dir *edir;
	LIST_HEAD(gone);
	int ret;

	/* Both directories already hold a file called "enable". */
	if (!strcmp(ev->name, "enable") || !strcmp(ev->system, "enable"))
		return -EINVAL;
	ev->type.type = 0;
	ev->type.name = ev->name;
	ev->type.print = rt_event_print;
	ev->enabled = false;
	ev->nr_enabled = 0;
	ev->was_enabled = false;
	INIT_LIST_HEAD(&ev->files);

	mutex_lock(&rt_event_dir_lock);
	sys = rt_event_system_get(ev->system);
	if (IS_ERR(sys)) {
		ret = PTR_ERR(sys);
		goto out;
	}
	if (rt_event_find(sys, ev->name)) {
		ret = -EEXIST;
		goto put;
	}
	ret = rt_register_event_type(&ev->type);
	if (ret)
		goto put;
	ev->sys = sys;
	list_for_each_entry(edir, &rt_event_dirs, list) {
		ret = rt_event_file_create(edir, ev);
		if (ret) {
			/* Its files were visible: one may have been enabled. */
			mutex_lock(&rt_event_lock);
			rt_event_files_unlink(ev, &gone);
			mutex_unlock(&rt_event_lock);
			rt_event_files_remove(&gone);
			rt_unregister_event_type(&ev->type); /* waits */
			rt_event_files_free(&gone);
			if (ev->was_enabled)
				rt_reset_all_buffers();
			goto put;
		}
	}
	mutex_lock(&rt_event_lock);
	list_add_tail(&ev->list, &sys->events);
	mutex_unlock(&rt_event_lock);
	mutex_unlock(&rt_event_dir_lock);
	return 0;
put:
	rt_event_system_put(sys);
out:
	mutex_unlock(&rt_event_dir_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(rt_event_add);

/**
 * rt_event_remove - delete an event and its files
 * @ev: an event added with rt_event_add()
 *
 * When this returns 0, no file operation is running on @ev and no CPU
 * is inside rt_event_close() for it, provided its producer stopped
 * calling it when the event was disabled; the producer may free it.
 * If the event was ever enabled, its records may still be in the
 * buffers, and its ID will one day be handed to another event with
 * another layout: the buffers are emptied (rt_reset_all_buffers()), so
 * no record is ever printed by a printer that is not its own.
 *
 * Return: 0, or -EBUSY if the event is enabled in any instance.
 */
int rt_event_remove(struct rt_event *ev)
{
	return rt_event_remove_many(&ev, 1);
}
EXPORT_SYMBOL_GPL(rt_event_remove);

/**
 * rt_event_remove_many - delete several events, all or none
 * @evs: @n events added with rt_event_add(), each at most once
 * @n: how many
 *
 * rt_event_remove() for each of them, with one RCU grace period for
 * all instead of one each: a producer clearing hundreds of events does
 * not wait hundreds of grace periods.  The same guarantees hold for
 * every event once this returns 0.
 *
 * Return: 0, or -EBUSY, with no event removed, if any of them is
 * enabled in any instance.
 */
int rt_event_remove_many(struct rt_event **evs, unsigned int n)
{
	struct rt_event_system *sys, *tmp;
	bool was_enabled = false;
	LIST_HEAD(gone_sys);
	LIST_HEAD(gone);
	unsigned int i;

	mutex_lock(&rt_event_dir_lock);
	mutex_lock(&rt_event_lock);
	for (i = 0; i < n; i++) {
		if (evs[i]->enabled) {
			mutex_unlock(&rt_event_lock);
			mutex_unlock(&rt_event_dir_lock);
			return -EBUSY;
		}
	}
	for (i = 0; i < n; i++) {
		sys = evs[i]->sys;
		list_del(&evs[i]->list);
		rt_event_files_unlink(evs[i], &gone);
		/* A group left empty goes too, freed once its files are. */
		if (list_empty(&sys->events))
			list_move(&sys->list, &gone_sys);
	}
	mutex_unlock(&rt_event_lock);
	rt_event_files_remove(&gone);
	for (i = 0; i < n; i++)
		evs[i]->sys = NULL;
	mutex_unlock(&rt_event_dir_lock);
	list_for_each_entry_safe(sys, tmp, &gone_sys, list)
		rt_event_system_free(sys);

	for (i = 0; i < n; i++) {
		rt_unregister_event_type_nowait(&evs[i]->type);
		was_enabled |= evs[i]->was_enabled;
	}
	synchronize_rcu();	/* for the types and the files alike */
	rt_event_files_free(&gone);
	if (was_enabled)
		rt_reset_all_buffers();
	return 0;
}
EXPORT_SYMBOL_GPL(rt_event_remove_many);

/* ---- instances ------------------------------------------------------------ */

/* Under rt_event_dir_lock: @tr's event directory, or NULL. */
static struct rt_event_dir *rt_event_dir_find(struct rt_instance *tr)
{
	struct rt_event_dir *edir;

	list_for_each_entry(edir, &rt_event_dirs, list)
		if (edir->tr == tr)
			return edir;
	return NULL;
}

/* events/ for @tr, with a directory for every event there is. */
static int rt_event_instance_add(struct rt_instance *tr)
{
	struct rt_event_system *sys;
	struct rt_event_dir *edir;
	struct rt_event *ev;
	int ret = 0;

	mutex_lock(&rt_event_dir_lock);
	edir = rt_event_dir_create(tr);
	if (IS_ERR(edir)) {
		ret = PTR_ERR(edir);
		goto out;
	}
	list_for_each_entry(sys, &rt_event_systems, list) {
		list_for_each_entry(ev, &sys->events, list) {
			ret = rt_event_file_create(edir, ev);
			if (ret)
				break;
		}
		if (ret)
			break;
	}
	mutex_lock(&rt_event_lock);
	list_add_tail_rcu(&edir->list, &rt_event_dirs);
	mutex_unlock(&rt_event_lock);
out:
	mutex_unlock(&rt_event_dir_lock);
	return ret;
}

/*
 * @tr goes: its events stop recording into it (a producer's refusal
 * to stop does not keep them), its files are revoked and removed, and
 * after an RCU grace period no CPU can still be copying a record into
 * its buffer.
 */
static void rt_event_instance_remove(struct rt_instance *tr)
{
	struct rt_event_dir *edir;

	/* Commands of @tr that went just before may have left soft mode due. */
	rt_event_soft_settle();
	mutex_lock(&rt_event_dir_lock);
	edir = rt_event_dir_find(tr);
	if (edir) {
		mutex_lock(&rt_event_lock);
		rt_event_dir_unlink(edir);
		mutex_unlock(&rt_event_lock);
	}
	mutex_unlock(&rt_event_dir_lock);
	if (!edir)
		return;
	/*
	 * RCU for the lists; and every CPU's preempt-disabled section
	 * over, RCU watching or not, before the core frees the buffer.
	 */
	synchronize_rcu();
	rt_wait_preempt_readers();
	/* No hit can run the instance's triggers now: drop their holds. */
	mutex_lock(&rt_event_lock);
	rt_event_triggers_release(edir);
	mutex_unlock(&rt_event_lock);
	rt_event_dir_free(edir);
}

static struct rt_instance_ops rt_event_instance_ops = {
	.add	= rt_event_instance_add,
	.remove	= rt_event_instance_remove,
};

static struct rt_readme_part rt_event_readme = {
	.text = "  events/enable        switch every event on (1) or off (0)\n"
		"  events/S/E/{id,enable,format,filter}  one event's files\n"
		"  events/S/E/trigger   traceon, traceoff, snapshot, stacktrace,\n"
		"                       enable_event:S:E, disable_event:S:E\n"
		"                       [:count] [if filter]; '!' removes\n"
		"  events/ftrace/print/trigger  the same, on trace_marker writes\n",
};

/*
 * The top level's events directory, after the core made the tracing
 * directory (fs_initcall) and before producers add events
 * (device_initcall); then every instance gets its own.
 */
static int __init rt_event_init(void)
{
	rt_event_core_formats_init();
	if (rt_event_instance_add(rt_top_instance()))
		pr_warn("no events directory\n");
	rt_readme_add(&rt_event_readme);
	rt_register_instance_ops(&rt_event_instance_ops);
	return 0;
}
fs_initcall_sync(rt_event_init);
