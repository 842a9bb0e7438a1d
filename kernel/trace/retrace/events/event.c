// SPDX-License-Identifier: GPL-2.0
/*
 * retrace event layer: the registry of events, their tracefs files
 * (events/enable, events/<system>/enable, events/<system>/<name>/{id,
 * enable,format,filter}) and the record path that applies filters.
 *
 * Locks, outermost first:
 *   rt_event_dir_lock  adding and removing events and their directories
 *   rt_event_lock      the lists, ->enabled, ->filter updates; taken by
 *                      every file operation, and held across a
 *                      producer's ->set_enabled()
 *
 * Files of events that go away follow core.h's revocable-file protocol
 * (rt_file_obj(), rt_file_revoke()) with rt_event_lock: every show and
 * write gets the event, group or &rt_all_events under that lock;
 * rt_event_remove() and a group's last removal revoke the files under
 * it before removing them, so an operation on a file held open across
 * the removal fails with ENODEV.
 */
#define pr_fmt(fmt) "retrace: " fmt

#include <linux/tracefs.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <trace/retrace/event.h>
#include <trace/retrace/core.h>
#include "internal.h"

LIST_HEAD(rt_event_systems);
static struct dentry *rt_ev_dir;
/* The object of events/enable, which works on every group. */
static struct rt_event_system rt_all_events;
static DEFINE_MUTEX(rt_event_dir_lock);
DEFINE_MUTEX(rt_event_lock);

#define RT_COMMON_FIELD(ctype, field, sgn)				\
	{ ctype, "common_" #field, offsetof(struct rt_entry, field),	\
	  sizeof_field(struct rt_entry, field), sgn, RT_FIELD_INT }

static const struct rt_event_field rt_common_fields[] = {
	RT_COMMON_FIELD("unsigned short", type, 0),
	RT_COMMON_FIELD("unsigned char", flags, 0),
	RT_COMMON_FIELD("unsigned char", preempt_count, 0),
	RT_COMMON_FIELD("int", pid, 1),
};

/**
 * rt_event_open - get a scratch record to fill
 * @pc: preempt_count() before the caller disabled preemption
 *
 * Call with preemption disabled.  The record is RT_EVENT_MAX_RECORD
 * bytes and starts with a struct rt_entry the caller leaves alone.
 *
 * Return: this CPU's scratch record for the context of @pc (see
 * scratch.c), or NULL if nothing is to be recorded now (tracing off,
 * CPU not traced, or recursion).  A non-NULL record must
 * be passed to rt_event_close() or rt_event_discard() on this CPU.
 */
void *rt_event_open(unsigned long pc)
{
	return rt_recording(rt_top_instance()) ? rt_scratch_get(pc) : NULL;
}
EXPORT_SYMBOL_GPL(rt_event_open);

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
 * rt_event_close - filter a filled record and put it in the buffer
 * @ev: the event it belongs to
 * @rec: the record from rt_event_open()
 * @len: bytes used, header included
 * @pc: the value given to rt_event_open()
 *
 * The filter is read once, so a record is judged entirely by the old
 * or entirely by the new filter while one replaces the other.
 */
void rt_event_close(struct rt_event *ev, void *rec, unsigned int len,
		    unsigned long pc)
{
	struct rt_filter *f;

	if (WARN_ON_ONCE(len < sizeof(struct rt_entry) ||
			 len > RT_EVENT_MAX_RECORD))
		goto out;
	rt_fill_header(rec, ev->type.type, pc);
	f = rcu_dereference_sched(ev->filter);
	if (f && !rt_filter_match(f, rec, len))
		goto out;
	rt_record_copy(rt_top_instance(), rec, len);
out:
	rt_event_discard(rec, pc);
}
EXPORT_SYMBOL_GPL(rt_event_close);

static void rt_event_print(struct rt_print_ctx *ctx)
{
	struct rt_event *ev = container_of(ctx->et, struct rt_event, type);

	seq_buf_printf(ctx->s, "%s: ", ev->name);
	ev->print(ctx);
}

/* ---- enabling ------------------------------------------------------------ */

int rt_event_set(struct rt_event *ev, bool on)
{
	int ret = 0;

	lockdep_assert_held(&rt_event_lock);
	if (ev->enabled == on)
		return 0;
	/* Flag first on enable so the first hits are not dropped. */
	if (on) {
		WRITE_ONCE(ev->enabled, true);
		ev->was_enabled = true;	/* hits may land even if it fails */
	}
	if (ev->set_enabled)
		ret = ev->set_enabled(ev, on);
	if (!ret)
		WRITE_ONCE(ev->enabled, on);
	else if (on)
		WRITE_ONCE(ev->enabled, false);
	return ret;
}

/*
 * Every event of @only, or of every group for &rt_all_events; the
 * first error is kept.
 */
static int rt_events_set(struct rt_event_system *only, bool on)
{
	struct rt_event_system *sys;
	struct rt_event *ev;
	int ret = 0, r;

	list_for_each_entry(sys, &rt_event_systems, list) {
		if (only != &rt_all_events && sys != only)
			continue;
		list_for_each_entry(ev, &sys->events, list) {
			r = rt_event_set(ev, on);
			if (r && !ret)
				ret = r;
		}
	}
	return ret;
}

/**
 * rt_event_disable - switch an event off, as writing 0 to its enable does
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
	int ret;

	mutex_lock(&rt_event_lock);
	ret = rt_event_set(ev, false);
	mutex_unlock(&rt_event_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(rt_event_disable);

/* '0', '1' or 'X' (mixed) over the same set; '0' when it is empty. */
static char rt_events_state(struct rt_event_system *only)
{
	struct rt_event_system *sys;
	struct rt_event *ev;
	int seen = 0;

	list_for_each_entry(sys, &rt_event_systems, list) {
		if (only != &rt_all_events && sys != only)
			continue;
		list_for_each_entry(ev, &sys->events, list)
			seen |= ev->enabled ? 2 : 1;
	}
	return seen == 3 ? 'X' : seen == 2 ? '1' : '0';
}

static int rt_parse_bool(const char __user *ubuf, size_t cnt, bool *on)
{
	unsigned long v;
	int ret = kstrtoul_from_user(ubuf, cnt, 10, &v);

	if (ret)
		return ret;
	if (v > 1)
		return -EINVAL;
	*on = v;
	return 0;
}

/*
 * A file's show, under rt_event_lock, on its event, group or
 * &rt_all_events (rt_file_obj(), core.h); ENODEV once it was revoked.
 */
static int rt_ev_show(struct seq_file *m,
		      void (*show)(struct seq_file *m, void *obj))
{
	void *obj;
	int ret = 0;

	mutex_lock(&rt_event_lock);
	obj = rt_file_obj(m->file, &rt_event_lock);
	if (obj)
		show(m, obj);
	else
		ret = -ENODEV;
	mutex_unlock(&rt_event_lock);
	return ret;
}

static void rt_ev_enable_print(struct seq_file *m, void *ev)
{
	seq_printf(m, "%d\n", rt_event_enabled(ev));
}

static int rt_ev_enable_show(struct seq_file *m, void *v)
{
	return rt_ev_show(m, rt_ev_enable_print);
}

static ssize_t rt_ev_enable_write(struct file *file, const char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	struct rt_event *ev;
	bool on;
	int ret = rt_parse_bool(ubuf, cnt, &on);

	if (ret)
		return ret;
	mutex_lock(&rt_event_lock);
	ev = rt_file_obj(file, &rt_event_lock);
	ret = ev && ev->sys ? rt_event_set(ev, on) : -ENODEV;
	mutex_unlock(&rt_event_lock);
	return ret ? ret : cnt;
}

/* events/<system>/enable, and events/enable over every group. */
static void rt_sys_enable_print(struct seq_file *m, void *sys)
{
	seq_printf(m, "%c\n", rt_events_state(sys));
}

static int rt_sys_enable_show(struct seq_file *m, void *v)
{
	return rt_ev_show(m, rt_sys_enable_print);
}

static ssize_t rt_sys_enable_write(struct file *file, const char __user *ubuf,
				   size_t cnt, loff_t *ppos)
{
	struct rt_event_system *sys;
	bool on;
	int ret = rt_parse_bool(ubuf, cnt, &on);

	if (ret)
		return ret;
	mutex_lock(&rt_event_lock);
	sys = rt_file_obj(file, &rt_event_lock);
	ret = sys ? rt_events_set(sys, on) : -ENODEV;
	mutex_unlock(&rt_event_lock);
	return ret ? ret : cnt;
}

/* ---- id, format, filter -------------------------------------------------- */

static void rt_ev_id_print(struct seq_file *m, void *obj)
{
	seq_printf(m, "%u\n", ((struct rt_event *)obj)->type.type);
}

static int rt_ev_id_show(struct seq_file *m, void *v)
{
	return rt_ev_show(m, rt_ev_id_print);
}

static void rt_format_fields(struct seq_file *m,
			     const struct rt_event_field *f, unsigned int n)
{
	for (; n; n--, f++)
		seq_printf(m, "\tfield:%s %s;\toffset:%u;\tsize:%u;\tsigned:%u;\n",
			   f->type, f->name, f->offset, f->size, f->is_signed);
}

static void rt_ev_format_print(struct seq_file *m, void *obj)
{
	struct rt_event *ev = obj;

	seq_printf(m, "name: %s\nID: %u\nformat:\n", ev->name, ev->type.type);
	rt_format_fields(m, rt_common_fields, ARRAY_SIZE(rt_common_fields));
	seq_putc(m, '\n');
	rt_format_fields(m, ev->fields, ev->nr_fields);
	seq_printf(m, "\nprint fmt: %s\n", ev->print_fmt);
}

static int rt_ev_format_show(struct seq_file *m, void *v)
{
	return rt_ev_show(m, rt_ev_format_print);
}

static void rt_ev_filter_print(struct seq_file *m, void *obj)
{
	struct rt_event *ev = obj;
	struct rt_filter *f;

	f = rcu_dereference_protected(ev->filter,
				      lockdep_is_held(&rt_event_lock));
	seq_printf(m, "%s\n", f ? rt_filter_text(f) : "none");
}

static int rt_ev_filter_show(struct seq_file *m, void *v)
{
	return rt_ev_show(m, rt_ev_filter_print);
}

static int rt_event_compile(struct rt_event *ev, const char *text,
			    struct rt_filter **out, int *pos)
{
	unsigned int nc = ARRAY_SIZE(rt_common_fields);
	struct rt_event_field *all;
	int ret;

	all = kcalloc(nc + ev->nr_fields, sizeof(*all), GFP_KERNEL);
	if (!all)
		return -ENOMEM;
	memcpy(all, rt_common_fields, sizeof(rt_common_fields));
	memcpy(all + nc, ev->fields, ev->nr_fields * sizeof(*all));
	ret = rt_filter_compile(text, all, nc + ev->nr_fields, out, pos);
	kfree(all);
	return ret;
}

/*
 * Writing "0" or nothing clears the filter.  A new filter replaces the
 * old with one pointer store; the old one is freed only after every
 * CPU that might be evaluating it has left its preempt-disabled
 * section.
 */
static ssize_t rt_ev_filter_write(struct file *file, const char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	struct rt_filter *f = NULL, *old;
	struct rt_event *ev;
	char *buf, *text;
	int ret = 0, pos;

	if (cnt > RT_FILTER_MAX_TEXT)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, cnt);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	text = strim(buf);

	/* Compiled under the lock: the fields belong to the event. */
	mutex_lock(&rt_event_lock);
	ev = rt_file_obj(file, &rt_event_lock);
	if (!ev || !ev->sys)
		ret = -ENODEV;
	else if (*text && strcmp(text, "0"))
		ret = rt_event_compile(ev, text, &f, &pos);
	if (ret) {
		mutex_unlock(&rt_event_lock);
		kfree(buf);
		return ret;
	}
	old = rcu_replace_pointer(ev->filter, f,
				  lockdep_is_held(&rt_event_lock));
	mutex_unlock(&rt_event_lock);
	kfree(buf);
	if (old) {
		synchronize_rcu();
		rt_filter_free(old);
	}
	return cnt;
}

RT_SEQ_FOPS(rt_ev_enable, rt_ev_enable_write);
RT_SEQ_FOPS(rt_sys_enable, rt_sys_enable_write);
RT_SEQ_FOPS(rt_ev_id, NULL);
RT_SEQ_FOPS(rt_ev_format, NULL);
RT_SEQ_FOPS(rt_ev_filter, rt_ev_filter_write);

/* ---- registry ------------------------------------------------------------ */

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
	if (sys->name)
		sys->dir = tracefs_create_dir(name, rt_ev_dir);
	if (!sys->dir) {
		kfree(sys->name);
		kfree(sys);
		return ERR_PTR(-ENOMEM);
	}
	INIT_LIST_HEAD(&sys->events);
	sys->enable_file = tracefs_create_file("enable", 0644, sys->dir, sys,
					       &rt_sys_enable_fops);
	mutex_lock(&rt_event_lock);
	list_add_tail(&sys->list, &rt_event_systems);
	mutex_unlock(&rt_event_lock);
	return sys;
}

/* Called with rt_event_dir_lock held, rt_event_lock not held. */
static void rt_event_system_put(struct rt_event_system *sys)
{
	mutex_lock(&rt_event_lock);
	if (!list_empty(&sys->events)) {
		mutex_unlock(&rt_event_lock);
		return;
	}
	list_del(&sys->list);
	rt_file_revoke(sys->enable_file, &rt_event_lock);
	mutex_unlock(&rt_event_lock);
	tracefs_remove(sys->dir);
	kfree(sys->name);
	kfree(sys);
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

/**
 * rt_event_add - create an event and its files
 * @ev: the event; the producer's fields filled in, the rest zeroed
 *
 * The event starts disabled with no filter.  @ev must stay valid until
 * rt_event_remove() returns.
 *
 * Return: 0, -EEXIST if @ev->system already has an event of that name,
 * -ENOSPC if no event ID is left, -ENOMEM.
 */
int rt_event_add(struct rt_event *ev)
{
	struct rt_event_system *sys;
	int ret;

	/* Both directories already hold a file called "enable". */
	if (!strcmp(ev->name, "enable") || !strcmp(ev->system, "enable"))
		return -EINVAL;
	ev->type.type = 0;
	ev->type.name = ev->name;
	ev->type.print = rt_event_print;
	ev->enabled = false;
	ev->was_enabled = false;
	RCU_INIT_POINTER(ev->filter, NULL);

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
	ev->dir = tracefs_create_dir(ev->name, sys->dir);
	if (!ev->dir) {
		rt_unregister_event_type(&ev->type);
		ret = -ENOMEM;
		goto put;
	}
	ev->files[0] = tracefs_create_file("enable", 0644, ev->dir, ev,
					   &rt_ev_enable_fops);
	ev->files[1] = tracefs_create_file("id", 0444, ev->dir, ev,
					   &rt_ev_id_fops);
	ev->files[2] = tracefs_create_file("format", 0444, ev->dir, ev,
					   &rt_ev_format_fops);
	ev->files[3] = tracefs_create_file("filter", 0644, ev->dir, ev,
					   &rt_ev_filter_fops);

	mutex_lock(&rt_event_lock);
	ev->sys = sys;
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
 * Return: 0, or -EBUSY if the event is enabled.
 */
int rt_event_remove(struct rt_event *ev)
{
	struct rt_event_system *sys;
	struct rt_filter *f;
	int i;

	mutex_lock(&rt_event_dir_lock);
	mutex_lock(&rt_event_lock);
	if (ev->enabled) {
		mutex_unlock(&rt_event_lock);
		mutex_unlock(&rt_event_dir_lock);
		return -EBUSY;
	}
	sys = ev->sys;
	ev->sys = NULL;
	list_del(&ev->list);
	for (i = 0; i < RT_EVENT_NR_FILES; i++)
		rt_file_revoke(ev->files[i], &rt_event_lock);
	f = rcu_replace_pointer(ev->filter, NULL,
				lockdep_is_held(&rt_event_lock));
	mutex_unlock(&rt_event_lock);

	tracefs_remove(ev->dir);
	rt_event_system_put(sys);
	mutex_unlock(&rt_event_dir_lock);

	rt_unregister_event_type(&ev->type);	/* waits for RCU readers */
	rt_filter_free(f);
	if (ev->was_enabled)
		rt_reset_all_buffers();
	return 0;
}
EXPORT_SYMBOL_GPL(rt_event_remove);

static struct rt_readme_part rt_event_readme = {
	.text = "  events/enable        switch every event on (1) or off (0)\n"
		"  events/S/E/{id,enable,format,filter}  one event's files\n",
};

/*
 * The events directory, after the core made the tracing directory
 * (fs_initcall) and before producers add events (device_initcall).
 * events/enable is the group file's operations over every group.
 */
static int __init rt_event_init(void)
{
	rt_ev_dir = tracefs_create_dir("events", rt_tracing_dir());
	tracefs_create_file("enable", 0644, rt_ev_dir, &rt_all_events,
			    &rt_sys_enable_fops);
	rt_create_event_list_files(rt_tracing_dir());
	rt_readme_add(&rt_event_readme);
	return 0;
}
fs_initcall_sync(rt_event_init);
