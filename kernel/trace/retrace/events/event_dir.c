// SPDX-License-Identifier: GPL-2.0
/*
 * An instance's events: events/enable, events/<system>/enable and
 * events/<system>/<name>/{enable,id,format,filter}, on the objects of
 * events/internal.h.  The top level's are made at boot, an instance's
 * at its mkdir, and both follow every event added and removed.
 *
 * Files that go away follow core.h's revocable-file protocol
 * (rt_file_obj(), rt_file_revoke()) with rt_event_lock: every show and
 * write gets its struct rt_event_file, rt_event_sysdir or rt_event_dir
 * under that lock; the removal of an event or of an instance revokes
 * the files under it before removing them, so an operation on a file
 * held open across the removal fails with ENODEV.
 */
#define pr_fmt(fmt) "retrace: " fmt

#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracefs.h>
#include <linux/uaccess.h>
#include <trace/retrace/core.h>
#include <trace/retrace/event.h>
#include "internal.h"

#define RT_COMMON_FIELD(ctype, field, sgn)				\
	{ ctype, "common_" #field, offsetof(struct rt_entry, field),	\
	  sizeof_field(struct rt_entry, field), sgn, RT_FIELD_INT }

static const struct rt_event_field rt_common_fields[] = {
	RT_COMMON_FIELD("unsigned short", type, 0),
	RT_COMMON_FIELD("unsigned char", flags, 0),
	RT_COMMON_FIELD("unsigned char", preempt_count, 0),
	RT_COMMON_FIELD("int", pid, 1),
};

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
 * A file's show, under rt_event_lock, on its object (rt_file_obj(),
 * core.h); ENODEV once it was revoked.
 */
int rt_ev_show(struct seq_file *m, void (*show)(struct seq_file *m, void *obj))
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

/* ---- enable files ----------------------------------------------------- */

/* A write of 0 or 1 to an enable file: @set on its object. */
static ssize_t rt_enable_write(struct file *f, const char __user *ubuf,
			       size_t cnt, int (*set)(void *obj, bool on))
{
	void *obj;
	bool on;
	int ret = rt_parse_bool(ubuf, cnt, &on);

	if (ret)
		return ret;
	mutex_lock(&rt_event_lock);
	obj = rt_file_obj(f, &rt_event_lock);
	ret = obj ? set(obj, on) : -ENODEV;
	mutex_unlock(&rt_event_lock);
	return ret ? ret : cnt;
}

/* "0" or "1"; "0*" or "1*" in soft mode (event_soft.c). */
static void rt_ev_enable_print(struct seq_file *m, void *obj)
{
	struct rt_event_file *file = obj;

	seq_printf(m, "%d%s\n", READ_ONCE(file->enabled),
		   file->soft_mode ? "*" : "");
}

static int rt_ev_enable_show(struct seq_file *m, void *v)
{
	return rt_ev_show(m, rt_ev_enable_print);
}

static int rt_ev_enable_set(void *file, bool on)
{
	return rt_event_file_set(file, on);
}

static ssize_t rt_ev_enable_write(struct file *f, const char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	return rt_enable_write(f, ubuf, cnt, rt_ev_enable_set);
}

/* '0', '1' or 'X' (mixed) over a group, or all; '0' when empty. */
static char rt_events_state(struct rt_event_dir *edir,
			    struct rt_event_system *only)
{
	struct rt_event_sysdir *sd;
	struct rt_event_file *file;
	int seen = 0;

	list_for_each_entry(sd, &edir->systems, list) {
		if (only && sd->sys != only)
			continue;
		list_for_each_entry(file, &sd->files, sys_link)
			seen |= file->enabled ? 2 : 1;
	}
	return seen == 3 ? 'X' : seen == 2 ? '1' : '0';
}

/* events/<system>/enable */
static void rt_sys_enable_print(struct seq_file *m, void *obj)
{
	struct rt_event_sysdir *sd = obj;

	seq_printf(m, "%c\n", rt_events_state(sd->edir, sd->sys));
}

static int rt_sys_enable_show(struct seq_file *m, void *v)
{
	return rt_ev_show(m, rt_sys_enable_print);
}

static int rt_sys_enable_set(void *obj, bool on)
{
	struct rt_event_sysdir *sd = obj;

	return rt_event_dir_set(sd->edir, sd->sys, on);
}

static ssize_t rt_sys_enable_write(struct file *f, const char __user *ubuf,
				   size_t cnt, loff_t *ppos)
{
	return rt_enable_write(f, ubuf, cnt, rt_sys_enable_set);
}

/* events/enable: every group of the instance. */
static void rt_all_enable_print(struct seq_file *m, void *edir)
{
	seq_printf(m, "%c\n", rt_events_state(edir, NULL));
}

static int rt_all_enable_show(struct seq_file *m, void *v)
{
	return rt_ev_show(m, rt_all_enable_print);
}

static int rt_all_enable_set(void *edir, bool on)
{
	return rt_event_dir_set(edir, NULL, on);
}

static ssize_t rt_all_enable_write(struct file *f, const char __user *ubuf,
				   size_t cnt, loff_t *ppos)
{
	return rt_enable_write(f, ubuf, cnt, rt_all_enable_set);
}

/* ---- id, format, filter -------------------------------------------------- */

static void rt_ev_id_print(struct seq_file *m, void *file)
{
	seq_printf(m, "%u\n", ((struct rt_event_file *)file)->ev->type.type);
}

static int rt_ev_id_show(struct seq_file *m, void *v)
{
	return rt_ev_show(m, rt_ev_id_print);
}

static void rt_format_fields(struct seq_file *m,
			     const struct rt_event_field *f, unsigned int n)
{
	for (; n; n--, f++) {
		/* An array's name carries its length; filters use it bare. */
		seq_printf(m, "\tfield:%s %s", f->type, f->name);
		if (f->kind == RT_FIELD_CHARS)
			seq_printf(m, "[%u]", f->size);
		else if (f->kind == RT_FIELD_TAIL)
			seq_puts(m, "[]");
		seq_printf(m, ";\toffset:%u;\tsize:%u;\tsigned:%u;\n",
			   f->offset, f->size, f->is_signed);
	}
}

/**
 * rt_event_format_print - the text of a format file
 * @m: where to print it
 * @name: the event's name
 * @id: its record type
 * @fields: its fields after the common ones
 * @n: entries in @fields
 * @print_fmt: its "print fmt:" line
 */
void rt_event_format_print(struct seq_file *m, const char *name,
			   unsigned int id, const struct rt_event_field *fields,
			   unsigned int n, const char *print_fmt)
{
	seq_printf(m, "name: %s\nID: %u\nformat:\n", name, id);
	rt_format_fields(m, rt_common_fields, ARRAY_SIZE(rt_common_fields));
	seq_putc(m, '\n');
	rt_format_fields(m, fields, n);
	seq_printf(m, "\nprint fmt: %s\n", print_fmt);
}

static void rt_ev_format_print(struct seq_file *m, void *file)
{
	struct rt_event *ev = ((struct rt_event_file *)file)->ev;

	rt_event_format_print(m, ev->name, ev->type.type, ev->fields,
			      ev->nr_fields, ev->print_fmt);
}

static int rt_ev_format_show(struct seq_file *m, void *v)
{
	return rt_ev_show(m, rt_ev_format_print);
}

static void rt_ev_filter_print(struct seq_file *m, void *obj)
{
	struct rt_event_file *file = obj;
	struct rt_filter *f;

	f = rcu_dereference_protected(file->filter,
				      lockdep_is_held(&rt_event_lock));
	seq_printf(m, "%s\n", f ? rt_filter_text(f) : "none");
}

static int rt_ev_filter_show(struct seq_file *m, void *v)
{
	return rt_ev_show(m, rt_ev_filter_print);
}

/* Compile @text as a filter on @ev's records (also for triggers). */
int rt_event_compile(struct rt_event *ev, const char *text,
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
 * Writing "0" or nothing clears the filter; a malformed one is noted
 * in error_log, the caret where parsing stopped.  A new filter replaces the
 * old with one pointer store; the old one is freed only after every
 * CPU that might be evaluating it has left its preempt-disabled
 * section.
 */
static ssize_t rt_ev_filter_write(struct file *f, const char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	struct rt_filter *flt = NULL, *old;
	struct rt_event_file *file;
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
	file = rt_file_obj(f, &rt_event_lock);
	if (!file)
		ret = -ENODEV;
	else if (*text && strcmp(text, "0"))
		ret = rt_event_compile(file->ev, text, &flt, &pos);
	if (ret == -EINVAL && file)
		rt_error_log("event filter parse error", text,
			     "malformed filter", pos);
	if (ret) {
		mutex_unlock(&rt_event_lock);
		kfree(buf);
		return ret;
	}
	old = rcu_replace_pointer(file->filter, flt,
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
RT_SEQ_FOPS(rt_all_enable, rt_all_enable_write);
RT_SEQ_FOPS(rt_ev_id, NULL);
RT_SEQ_FOPS(rt_ev_format, NULL);
RT_SEQ_FOPS(rt_ev_filter, rt_ev_filter_write);

/* ---- making and removing ------------------------------------------------ */

/* Under rt_event_dir_lock: events/<system>/ of @edir, made if need be. */
static struct rt_event_sysdir *rt_event_sysdir_get(struct rt_event_dir *edir,
						   struct rt_event_system *sys)
{
	struct rt_event_sysdir *sd;

	list_for_each_entry(sd, &edir->systems, list)
		if (sd->sys == sys)
			return sd;
	sd = kzalloc(sizeof(*sd), GFP_KERNEL);
	if (!sd)
		return ERR_PTR(-ENOMEM);
	sd->dir = tracefs_create_dir(sys->name, edir->dir);
	if (IS_ERR_OR_NULL(sd->dir)) {
		kfree(sd);
		return ERR_PTR(-ENOMEM);
	}
	sd->sys = sys;
	sd->edir = edir;
	INIT_LIST_HEAD(&sd->files);
	sd->enable_file = tracefs_create_file("enable", 0644, sd->dir, sd,
					      &rt_sys_enable_fops);
	mutex_lock(&rt_event_lock);
	list_add_tail(&sd->list, &edir->systems);
	mutex_unlock(&rt_event_lock);
	return sd;
}

/* Under rt_event_dir_lock: a group directory no event came to. */
static void rt_event_sysdir_put(struct rt_event_sysdir *sd)
{
	mutex_lock(&rt_event_lock);
	if (!list_empty(&sd->files)) {
		mutex_unlock(&rt_event_lock);
		return;
	}
	rt_file_revoke(sd->enable_file, &rt_event_lock);
	list_del(&sd->list);
	mutex_unlock(&rt_event_lock);
	tracefs_remove(sd->dir);
	kfree(sd);
}

/**
 * rt_event_file_create - make events/<system>/<name>/ of @ev in @edir
 * @edir: the instance's event directory
 * @ev: the event, its ->sys set
 *
 * Under rt_event_dir_lock.  The file starts disabled with no filter.
 *
 * Return: 0 or -ENOMEM.
 */
int rt_event_file_create(struct rt_event_dir *edir, struct rt_event *ev)
{
	struct rt_event_sysdir *sd = rt_event_sysdir_get(edir, ev->sys);
	struct rt_event_file *file;

	if (IS_ERR(sd))
		return PTR_ERR(sd);
	file = kzalloc(sizeof(*file), GFP_KERNEL);
	if (file)
		file->dir = tracefs_create_dir(ev->name, sd->dir);
	if (!file || IS_ERR_OR_NULL(file->dir)) {
		kfree(file);
		rt_event_sysdir_put(sd);
		return -ENOMEM;
	}
	file->ev = ev;
	file->sysdir = sd;
	file->files[0] = tracefs_create_file("enable", 0644, file->dir, file,
					     &rt_ev_enable_fops);
	file->files[1] = tracefs_create_file("id", 0444, file->dir, file,
					     &rt_ev_id_fops);
	file->files[2] = tracefs_create_file("format", 0444, file->dir, file,
					     &rt_ev_format_fops);
	file->files[3] = tracefs_create_file("filter", 0644, file->dir, file,
					     &rt_ev_filter_fops);
	file->files[4] = rt_event_trigger_file_create(file);
	mutex_lock(&rt_event_lock);
	list_add_tail(&file->sys_link, &sd->files);
	list_add_tail_rcu(&file->ev_link, &ev->files);
	mutex_unlock(&rt_event_lock);
	return 0;
}

/* Under rt_event_lock: revoke @file's files. */
static void rt_event_file_revoke(struct rt_event_file *file)
{
	int i;

	for (i = 0; i < RT_EVENT_NR_FILES; i++)
		rt_file_revoke(file->files[i], &rt_event_lock);
}

/**
 * rt_event_file_unlink - take a disabled event's file out of its instance
 * @file: the file
 *
 * Under rt_event_dir_lock and rt_event_lock, @file disabled.  Its
 * files fail with ENODEV from now on; @file leaves its event's RCU
 * list and its group directory, which goes too if it was the last
 * (@file->sysdir_last).  Remove it with rt_event_file_remove(), and
 * free it with rt_event_file_free() after an RCU grace period.
 */
void rt_event_file_unlink(struct rt_event_file *file)
{
	struct rt_event_sysdir *sd = file->sysdir;

	lockdep_assert_held(&rt_event_lock);
	rt_event_file_revoke(file);
	list_del_rcu(&file->ev_link);
	list_del(&file->sys_link);
	if (list_empty(&sd->files)) {
		rt_file_revoke(sd->enable_file, &rt_event_lock);
		list_del(&sd->list);
		file->sysdir_last = true;
	}
}

/**
 * rt_event_file_remove - remove an unlinked file's directory
 * @file: from rt_event_file_unlink()
 *
 * Under rt_event_dir_lock; the group directory goes with its last file.
 */
void rt_event_file_remove(struct rt_event_file *file)
{
	tracefs_remove(file->dir);
	if (file->sysdir_last)
		tracefs_remove(file->sysdir->dir);
}

/**
 * rt_event_file_free - free an unlinked, removed file
 * @file: from rt_event_file_remove(), an RCU grace period after its
 *	unlink (the record path may read it, and its group, until then)
 *
 * Reads the group only if this was its last file: another may be
 * freed with its instance meanwhile.
 */
void rt_event_file_free(struct rt_event_file *file)
{
	if (file->sysdir_last)
		kfree(file->sysdir);
	rt_filter_free(rcu_dereference_protected(file->filter, 1));
	kfree(file);
}

/**
 * rt_event_dir_create - make events/, set_event, available_events and
 *	set_event_pid
 * @tr: the instance
 *
 * Under rt_event_dir_lock.  The caller adds each event's file and then
 * puts the result on rt_event_dirs.
 *
 * Return: the directory, or an ERR_PTR().
 */
struct rt_event_dir *rt_event_dir_create(struct rt_instance *tr)
{
	struct rt_event_dir *edir = kzalloc(sizeof(*edir), GFP_KERNEL);

	if (!edir)
		return ERR_PTR(-ENOMEM);
	edir->dir = tracefs_create_dir("events", tr->dir);
	if (IS_ERR_OR_NULL(edir->dir)) {
		kfree(edir);
		return ERR_PTR(-ENOMEM);
	}
	edir->tr = tr;
	INIT_LIST_HEAD(&edir->systems);
	INIT_LIST_HEAD(&edir->list);
	edir->files[0] = tracefs_create_file("enable", 0644, edir->dir, edir,
					     &rt_all_enable_fops);
	rt_create_event_list_files(edir);
	rt_create_event_pid_file(edir);
	if (rt_create_ftrace_files(edir))
		pr_warn("no events/ftrace\n");
	return edir;
}

/**
 * rt_event_dir_unlink - take an instance's events away from it
 * @edir: its event directory
 *
 * Under rt_event_dir_lock and rt_event_lock.  Every event stops
 * recording into the instance (a producer that refuses to stop keeps
 * running only for the other instances), every file is revoked, and
 * the files leave their events' RCU lists.  Free with
 * rt_event_dir_free() after an RCU grace period.
 */
void rt_event_dir_unlink(struct rt_event_dir *edir)
{
	struct rt_event_sysdir *sd;
	struct rt_event_file *file;
	int i;

	lockdep_assert_held(&rt_event_lock);
	rt_event_triggers_clear(edir);
	list_for_each_entry(sd, &edir->systems, list) {
		rt_file_revoke(sd->enable_file, &rt_event_lock);
		list_for_each_entry(file, &sd->files, sys_link) {
			rt_event_file_force_off(file);
			rt_event_file_revoke(file);
			list_del_rcu(&file->ev_link);
		}
	}
	for (i = 0; i < RT_EVENT_DIR_NR_FILES; i++)
		rt_file_revoke(edir->files[i], &rt_event_lock);
	if (edir->print_file)
		rt_event_file_revoke(edir->print_file);
	list_del_rcu(&edir->list);
	/* Its print triggers were cleared above: maybe the last ones. */
	rt_print_triggers_sync();
}

/**
 * rt_event_dir_free - remove and free an unlinked event directory
 * @edir: from rt_event_dir_unlink(), a grace period ago
 */
void rt_event_dir_free(struct rt_event_dir *edir)
{
	struct rt_event_sysdir *sd, *sdt;
	struct rt_event_file *file, *ft;

	tracefs_remove(edir->files[1]);
	tracefs_remove(edir->files[2]);
	tracefs_remove(edir->files[3]);
	tracefs_remove(edir->files[4]);
	tracefs_remove(edir->dir);
	rt_event_pid_free(edir);
	list_for_each_entry_safe(sd, sdt, &edir->systems, list) {
		list_for_each_entry_safe(file, ft, &sd->files, sys_link) {
			rt_filter_free(rcu_dereference_protected(file->filter,
								 1));
			rt_event_triggers_free(file);
			kfree(file);
		}
		kfree(sd);
	}
	rt_print_trigger_free(edir);
	kfree(edir);
}
