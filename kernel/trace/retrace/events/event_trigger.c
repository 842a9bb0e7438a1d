// SPDX-License-Identifier: GPL-2.0
/*
 * Event triggers: events/<system>/<event>/trigger, in every instance.
 * Each hit of the event, in that instance, runs its triggers:
 *
 *	traceon, traceoff		switch the instance's tracing_on
 *	snapshot			swap the instance's live buffer with
 *					its snapshot (core/snapshot_request.c:
 *					before the hitting task returns to
 *					user space, or soon after)
 *	stacktrace			record the kernel stack there
 *	enable_event:SYS:EVENT		switch another event of the same
 *	disable_event:SYS:EVENT		instance on or off
 *
 * each optionally with ":N" (run N times; for the switches, N actual
 * changes) and " if FILTER" (an event filter on the hit's record).
 * "!COMMAND..." removes the trigger of that command (and target); a
 * second trigger of the same kind (traceon and traceoff are one kind,
 * as are enable_event and disable_event of one target) is EEXIST.
 *
 * The record path (rt_event_close()) runs them in any context with
 * preemption disabled and no lock.  So:
 *   - the triggers of a file are a struct rt_trigger_set that is never
 *     changed once published: a write builds a new one and swaps
 *     file->triggers (RCU, under rt_event_lock); a removed trigger is
 *     freed after synchronize_rcu();
 *   - a trigger's count is an atomic_long_t the hits decrement;
 *   - a file with triggers is held in soft mode (event_soft.c), so its
 *     producer stays armed while the event is disabled, and so is the
 *     target of an enable_event or disable_event, whose enabled flag
 *     the hit switches.  Those holds are dropped only after the grace
 *     period, when no hit can still switch the target.
 * events/ftrace/print/trigger (print_trigger.c) is such a file too,
 * whose hits are trace_marker writes.
 * A file with triggers counts in event.c's rt_event_off_top_files
 * (rt_event_count_sync()), so that rt_event_open() hands out a record
 * while one exists even if no instance records.
 */
#define pr_fmt(fmt) "retrace: " fmt

#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracefs.h>
#include <linux/uaccess.h>
#include <trace/retrace/core.h>
#include <trace/retrace/event.h>
#include <trace/retrace/trigger_parse.h>
#include "internal.h"

/* The largest trigger line: a command, a target and a filter. */
#define RT_TRIGGER_MAX_TEXT	(RT_FILTER_MAX_TEXT + 256)

enum rt_trigger_cmd {
	RT_TRIG_TRACEON,
	RT_TRIG_TRACEOFF,
	RT_TRIG_SNAPSHOT,
	RT_TRIG_STACKTRACE,
	RT_TRIG_ENABLE_EVENT,
	RT_TRIG_DISABLE_EVENT,
	RT_TRIG_NR,
};

/*
 * One trigger.  @count: runs left, -1 for no limit (hits, any context).
 * @filter: NULL or the condition on the hit's record.  @target: the
 * event file enable_event and disable_event switch (held in soft mode).
 * @snap_cookie: a snapshot trigger's rt_snapshot_arm() cookie, 0 until
 * armed.
 */
struct rt_trigger {
	enum rt_trigger_cmd	cmd;
	atomic_long_t		count;
	struct rt_filter	*filter;
	struct rt_event_file	*target;
	int			snap_cookie;
};

/* A file's triggers, published whole (see the top of this file). */
struct rt_trigger_set {
	unsigned int		nr;
	struct rt_trigger	*t[];
};

/* traceon and traceoff are one kind, as are the two event switches. */
static bool rt_trigger_same_kind(const struct rt_trigger *a,
				 const struct rt_trigger *b)
{
	switch (a->cmd) {
	case RT_TRIG_TRACEON:
	case RT_TRIG_TRACEOFF:
		return b->cmd == RT_TRIG_TRACEON || b->cmd == RT_TRIG_TRACEOFF;
	case RT_TRIG_ENABLE_EVENT:
	case RT_TRIG_DISABLE_EVENT:
		return (b->cmd == RT_TRIG_ENABLE_EVENT ||
			b->cmd == RT_TRIG_DISABLE_EVENT) && a->target == b->target;
	default:
		return a->cmd == b->cmd;
	}
}

/* Take one run from @t's count; false when none is left. */
static bool notrace rt_trigger_take(struct rt_trigger *t)
{
	long c = atomic_long_read(&t->count);

	do {
		if (c < 0)
			return true;
		if (!c)
			return false;
	} while (!atomic_long_try_cmpxchg(&t->count, &c, c - 1));
	return true;
}

/**
 * rt_event_triggers_run - one hit of an event with triggers
 * @ts: the file's published triggers
 * @tr: the file's instance
 * @rec: the hit's record
 * @len: its length
 *
 * From rt_event_close(): any context, preemption disabled.
 */
void notrace rt_event_triggers_run(struct rt_trigger_set *ts,
				   struct rt_instance *tr, void *rec,
				   unsigned int len)
{
	unsigned int i;

	for (i = 0; i < ts->nr; i++) {
		struct rt_trigger *t = ts->t[i];
		bool on;

		if (t->filter && !rt_filter_match(t->filter, rec, len))
			continue;
		switch (t->cmd) {
		case RT_TRIG_TRACEON:
		case RT_TRIG_TRACEOFF:
			on = t->cmd == RT_TRIG_TRACEON;
			/* A count counts changes, as upstream's does. */
			if (READ_ONCE(tr->on) != on && rt_trigger_take(t))
				WRITE_ONCE(tr->on, on);
			break;
		case RT_TRIG_SNAPSHOT:
			if (rt_snapshot_heard() && rt_trigger_take(t))
				rt_snapshot_request(t->snap_cookie);
			break;
		case RT_TRIG_STACKTRACE:
			/* Only where the instance records, as a record would. */
			if (rt_recording(tr) && rt_trigger_take(t))
				rt_trace_kstack(tr);
			break;
		case RT_TRIG_ENABLE_EVENT:
		case RT_TRIG_DISABLE_EVENT:
			on = t->cmd == RT_TRIG_ENABLE_EVENT;
			if (rt_event_soft_enabled(t->target) != on &&
			    rt_trigger_take(t))
				rt_event_soft_switch(t->target, on);
			break;
		default:
			break;
		}
	}
}

static void rt_trigger_free(struct rt_trigger *t)
{
	if (!t)
		return;
	if (t->snap_cookie > 0)
		rt_snapshot_disarm(t->snap_cookie);
	rt_filter_free(t->filter);
	kfree(t);
}

/* @file's triggers, under rt_event_lock. */
static struct rt_trigger_set *rt_triggers_of(struct rt_event_file *file)
{
	return rcu_dereference_protected(file->triggers,
					 lockdep_is_held(&rt_event_lock));
}

/* The commands, for rt_trigger_split(); only the switches name a target. */
static const struct rt_trigger_cmd_desc rt_trigger_cmds[RT_TRIG_NR] = {
	[RT_TRIG_TRACEON]	= { "traceon", false },
	[RT_TRIG_TRACEOFF]	= { "traceoff", false },
	[RT_TRIG_SNAPSHOT]	= { "snapshot", false },
	[RT_TRIG_STACKTRACE]	= { "stacktrace", false },
	[RT_TRIG_ENABLE_EVENT]	= { "enable_event", true },
	[RT_TRIG_DISABLE_EVENT]	= { "disable_event", true },
};

/*
 * Parse a trigger line (after any '!') into @t: the words by
 * rt_trigger_split() (trigger_parse.c, host-tested), then the target
 * looked up and the filter compiled; @removing takes the target only.
 */
static int rt_trigger_parse(struct rt_event_file *file, char *text,
			    bool removing, struct rt_trigger *t)
{
	struct rt_trigger_words w;
	int ret, pos;

	ret = rt_trigger_split(text, rt_trigger_cmds, RT_TRIG_NR, removing, &w);
	if (ret)
		return ret;
	t->cmd = w.cmd;
	atomic_long_set(&t->count, w.count ? (long)w.count : -1);
	if (w.sys) {
		t->target = rt_event_dir_file(file->sysdir->edir, w.sys, w.event);
		if (!t->target)
			return -ENOENT;
	}
	if (removing || !w.filter)
		return 0;
	ret = rt_event_compile(file->ev, w.filter, &t->filter, &pos);
	if (ret == -EINVAL)
		rt_error_log("event filter parse error", w.filter,
			     "malformed filter", pos);
	return ret;
}

/*
 * Publish @file's triggers with @t added (@add) or the trigger of its
 * kind removed.  Under rt_event_dir_lock and rt_event_lock.  On
 * success *@gone is the old set (free it and the removed trigger,
 * *@dropped, after a grace period), and the soft-mode holds are taken
 * (adding); dropping them waits for the grace period too.
 */
static int rt_trigger_update(struct rt_event_file *file, struct rt_trigger *t,
			     bool add, struct rt_trigger_set **gone,
			     struct rt_trigger **dropped)
{
	struct rt_trigger_set *old = rt_triggers_of(file), *ts;
	unsigned int i, n = 0, nr = old ? old->nr : 0;
	struct rt_trigger *match = NULL;
	int ret;

	for (i = 0; i < nr; i++)
		if (rt_trigger_same_kind(old->t[i], t))
			match = old->t[i];
	if (add && match)
		return -EEXIST;
	if (!add && !match)
		return -ENOENT;
	ts = kzalloc(struct_size(ts, t, nr + 1), GFP_KERNEL);
	if (!ts)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		if (old->t[i] != match)
			ts->t[n++] = old->t[i];
	if (add) {
		/* The file, and the target, stay armed while it exists. */
		ret = rt_event_soft_hold_file(file);
		if (!ret && t->target) {
			ret = rt_event_soft_hold_file(t->target);
			if (ret)
				rt_event_soft_drop_file(file);
		}
		/* Last, so that nothing fails after it allocates a snapshot. */
		if (!ret && t->cmd == RT_TRIG_SNAPSHOT) {
			ret = rt_snapshot_arm(file->sysdir->edir->tr);
			if (ret > 0) {
				t->snap_cookie = ret;
				ret = 0;
			} else {
				if (t->target)
					rt_event_soft_drop_file(t->target);
				rt_event_soft_drop_file(file);
			}
		}
		if (ret) {
			kfree(ts);
			return ret;
		}
		ts->t[n++] = t;
	}
	ts->nr = n;
	if (!n) {
		kfree(ts);
		ts = NULL;
	}
	rcu_assign_pointer(file->triggers, ts);
	rt_event_count_sync(file);
	if (rt_is_print_file(file))
		rt_print_triggers_sync();
	*gone = old;
	*dropped = match;
	return 0;
}

static ssize_t rt_ev_trigger_write(struct file *f, const char __user *ubuf,
				   size_t cnt, loff_t *ppos)
{
	struct rt_trigger *t, *dropped = NULL;
	struct rt_trigger_set *gone = NULL;
	struct rt_event_file *file;
	bool removing;
	char *buf, *text;
	int ret;

	if (cnt > RT_TRIGGER_MAX_TEXT)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, cnt);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	text = strim(buf);
	if (!*text) {
		kfree(buf);
		return cnt;
	}
	removing = *text == '!';
	if (removing)
		text++;
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t) {
		kfree(buf);
		return -ENOMEM;
	}
	/*
	 * The directory lock: targets are looked up by name, and it is
	 * held until a removed trigger's holds are dropped, so that an
	 * rmdir of the instance (which takes it to unlink) cannot free
	 * the files in between.
	 */
	mutex_lock(&rt_event_dir_lock);
	mutex_lock(&rt_event_lock);
	file = rt_file_obj(f, &rt_event_lock);
	if (!file)
		ret = -ENODEV;
	else if (file->ev->may_vanish)
		ret = -EOPNOTSUPP;
	else
		ret = rt_trigger_parse(file, text, removing, t);
	if (!ret)
		ret = rt_trigger_update(file, t, !removing, &gone, &dropped);
	mutex_unlock(&rt_event_lock);
	kfree(buf);
	if (ret || removing)
		rt_trigger_free(t);
	if (!ret && (gone || dropped)) {
		/* No hit still runs the old set, nor switches a target. */
		synchronize_rcu();
		kfree(gone);
		if (dropped) {
			mutex_lock(&rt_event_lock);
			if (dropped->target)
				rt_event_soft_drop_file(dropped->target);
			rt_event_soft_drop_file(file);
			mutex_unlock(&rt_event_lock);
			rt_trigger_free(dropped);
		}
	}
	mutex_unlock(&rt_event_dir_lock);
	return ret ? ret : cnt;
}

static void rt_ev_trigger_print(struct seq_file *m, void *obj)
{
	struct rt_trigger_set *ts = rt_triggers_of(obj);
	unsigned int i;
	long c;

	if (!ts) {
		seq_puts(m, "# Available triggers:\n#");
		for (i = 0; i < RT_TRIG_NR; i++)
			seq_printf(m, " %s", rt_trigger_cmds[i].name);
		seq_putc(m, '\n');
		return;
	}
	for (i = 0; i < ts->nr; i++) {
		struct rt_trigger *t = ts->t[i];

		seq_puts(m, rt_trigger_cmds[t->cmd].name);
		if (t->target)
			seq_printf(m, ":%s:%s", t->target->ev->system,
				   t->target->ev->name);
		c = atomic_long_read(&t->count);
		if (c < 0)
			seq_puts(m, ":unlimited");
		else
			seq_printf(m, ":count=%ld", c);
		if (t->filter)
			seq_printf(m, " if %s", rt_filter_text(t->filter));
		seq_putc(m, '\n');
	}
}

static int rt_ev_trigger_show(struct seq_file *m, void *v)
{
	return rt_ev_show(m, rt_ev_trigger_print);
}

RT_SEQ_FOPS(rt_ev_trigger, rt_ev_trigger_write);

/* The trigger file of @file, in its directory. */
struct dentry *rt_event_trigger_file_create(struct rt_event_file *file)
{
	return tracefs_create_file("trigger", 0644, file->dir, file,
				   &rt_ev_trigger_fops);
}

static void rt_triggers_clear_file(struct rt_event_file *file)
{
	struct rt_trigger_set *ts = rt_triggers_of(file);

	if (!ts)
		return;
	RCU_INIT_POINTER(file->triggers, NULL);
	rt_event_count_sync(file);
	file->dead_triggers = ts;
}

/**
 * rt_event_triggers_clear - take away every trigger of an instance
 * @edir: the instance's events, being unlinked
 *
 * Under rt_event_dir_lock and rt_event_lock.  New hits see no trigger;
 * one in flight may still run the old set, so the sets and their
 * soft-mode holds stay until rt_event_triggers_release(), a grace
 * period later.
 */
void rt_event_triggers_clear(struct rt_event_dir *edir)
{
	struct rt_event_sysdir *sd;
	struct rt_event_file *file;

	lockdep_assert_held(&rt_event_lock);
	list_for_each_entry(sd, &edir->systems, list)
		list_for_each_entry(file, &sd->files, sys_link)
			rt_triggers_clear_file(file);
	if (edir->print_file)
		rt_triggers_clear_file(edir->print_file);
}

static void rt_triggers_release_file(struct rt_event_file *file)
{
	struct rt_trigger_set *ts = file->dead_triggers;
	unsigned int i;

	for (i = 0; ts && i < ts->nr; i++) {
		if (ts->t[i]->target)
			rt_event_soft_drop_file(ts->t[i]->target);
		rt_event_soft_drop_file(file);
	}
}

/**
 * rt_event_triggers_release - drop the holds of cleared triggers
 * @edir: the unlinked instance's events, a grace period after
 *	rt_event_triggers_clear()
 *
 * Under rt_event_lock.  No hit can reach these files any more: drop
 * the soft-mode holds, then switch off whatever a hit left enabled, so
 * every producer hold the instance had is given back.
 */
void rt_event_triggers_release(struct rt_event_dir *edir)
{
	struct rt_event_sysdir *sd;
	struct rt_event_file *file;

	lockdep_assert_held(&rt_event_lock);
	list_for_each_entry(sd, &edir->systems, list)
		list_for_each_entry(file, &sd->files, sys_link)
			rt_triggers_release_file(file);
	if (edir->print_file)
		rt_triggers_release_file(edir->print_file);
	list_for_each_entry(sd, &edir->systems, list)
		list_for_each_entry(file, &sd->files, sys_link)
			rt_event_file_force_off(file);
}

/* After the grace period: free what rt_event_triggers_clear() left. */
void rt_event_triggers_free(struct rt_event_file *file)
{
	struct rt_trigger_set *ts = file->dead_triggers;
	unsigned int i;

	if (!ts)
		return;
	for (i = 0; i < ts->nr; i++)
		rt_trigger_free(ts->t[i]);
	kfree(ts);
	file->dead_triggers = NULL;
}
