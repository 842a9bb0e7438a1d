// SPDX-License-Identifier: GPL-2.0
/*
 * available_events and set_event: every event as "system:event", and
 * the enabled ones, switched by name.
 *
 * A write to set_event is whitespace-separated patterns
 *   [!]system:event   [!]system:   [!]event
 * where either part may be a glob ('*', '?'); "system:" and "system:*"
 * mean every event of the system, a bare name every event of that name
 * and every event of a system of that name.  A pattern enables what it matches, '!' disables it; one that
 * matches nothing fails the write with EINVAL (after the patterns
 * before it were applied).  Opening with O_TRUNC ('>') disables every
 * event first, as upstream's tools expect of "echo X > set_event".
 * A pattern cut by the end of a write() waits for the rest (lib/carry.c).
 *
 * Every instance has both; set_event lists and switches the events of
 * its own instance.  Everything runs under rt_event_lock, like the
 * enable files, and both follow the revocable-file protocol with it
 * (event_dir.c): i_private is the instance's struct rt_event_dir.
 */
#include <linux/tracefs.h>
#include <linux/ctype.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <trace/retrace/carry.h>
#include <trace/retrace/core.h>
#include <trace/retrace/glob.h>
#include "internal.h"

#define RT_SET_EVENT_MAX_WRITE	(64 * 1024)

/*
 * What an open file lists: every event (available_events, one shared
 * read-only view), or the instance's enabled ones (set_event, a view
 * per open that also holds the open's unfinished pattern).
 */
struct rt_event_view {
	bool		enabled_only;
	bool		failed;		/* a write of this open failed */
	struct rt_carry	carry;
};

static struct rt_event_view rt_all_events_view;

static int rt_event_list_show(struct seq_file *m, void *v)
{
	struct rt_event_view *view = m->private;
	struct rt_event_sysdir *sd;
	struct rt_event_file *file;
	struct rt_event_dir *edir;
	int ret = 0;

	mutex_lock(&rt_event_lock);
	edir = rt_file_obj(m->file, &rt_event_lock);
	if (!edir)
		ret = -ENODEV;
	else
		list_for_each_entry(sd, &edir->systems, list)
			list_for_each_entry(file, &sd->files, sys_link)
				if (!view->enabled_only || file->enabled)
					seq_printf(m, "%s:%s\n", sd->sys->name,
						   file->ev->name);
	mutex_unlock(&rt_event_lock);
	return ret;
}

static int rt_available_events_open(struct inode *inode, struct file *file)
{
	int ret = rt_file_lockdown();

	if (ret)
		return ret;
	return single_open(file, rt_event_list_show, &rt_all_events_view);
}

static const struct file_operations rt_available_events_fops = {
	.open = rt_available_events_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/* Apply one pattern; the number of events it matched, or an errno. */
static int rt_set_event_one(struct rt_event_dir *edir, char *pat)
{
	bool on = *pat != '!';
	const char *sys_glob = "*", *ev_glob;
	struct rt_event_sysdir *sd;
	struct rt_event_file *file;
	char *colon;
	int n = 0, ret = 0, r;

	if (!on)
		pat++;
	colon = strchr(pat, ':');
	if (colon) {
		*colon = '\0';
		sys_glob = *pat ? pat : "*";
		ev_glob = colon[1] ? colon + 1 : "*";
	} else {
		ev_glob = pat;
	}
	if (!*ev_glob)
		return -EINVAL;
	list_for_each_entry(sd, &edir->systems, list) {
		/* A bare name is an event's, or a whole system's. */
		bool whole = !colon && rt_glob_match(ev_glob, sd->sys->name);

		if (!whole && !rt_glob_match(sys_glob, sd->sys->name))
			continue;
		list_for_each_entry(file, &sd->files, sys_link) {
			if (!whole && !rt_glob_match(ev_glob, file->ev->name))
				continue;
			n++;
			r = rt_event_file_set(file, on);
			if (r && !ret)
				ret = r;
		}
	}
	return ret ? ret : n;
}

/* Apply every pattern of @text, stopping at the first that fails. */
static int rt_set_event_apply(struct file *f, char *text)
{
	struct rt_event_dir *edir;
	char *pat;
	int r, ret = 0;

	mutex_lock(&rt_event_lock);
	edir = rt_file_obj(f, &rt_event_lock);
	if (!edir)
		ret = -ENODEV;
	while (!ret && (pat = strsep(&text, " \t\n")) != NULL) {
		if (!*pat)
			continue;
		r = rt_set_event_one(edir, pat);
		if (r < 0)
			ret = r;
		else if (!r)
			ret = -EINVAL;
	}
	mutex_unlock(&rt_event_lock);
	return ret;
}

static int rt_set_event_open(struct inode *inode, struct file *file)
{
	struct rt_event_view *view;
	struct rt_event_dir *edir;
	int ret = rt_file_lockdown();

	if (ret)
		return ret;
	view = kzalloc(sizeof(*view), GFP_KERNEL);

	if (!view)
		return -ENOMEM;
	view->enabled_only = true;
	ret = single_open(file, rt_event_list_show, view);
	if (ret) {
		kfree(view);
		return ret;
	}
	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		mutex_lock(&rt_event_lock);
		edir = rt_file_obj(file, &rt_event_lock);
		if (edir)
			rt_event_dir_set(edir, NULL, false);
		mutex_unlock(&rt_event_lock);
	}
	return 0;
}

static ssize_t rt_set_event_write(struct file *file, const char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	struct rt_event_view *view = ((struct seq_file *)file->private_data)->private;
	size_t n = min_t(size_t, cnt, RT_SET_EVENT_MAX_WRITE);
	char *in, *text;
	int ret;

	in = memdup_user(ubuf, n);
	if (IS_ERR(in))
		return PTR_ERR(in);
	text = rt_carry_join(&view->carry, in, n, " \t\n", &ret);
	kfree(in);
	if (text) {
		ret = rt_set_event_apply(file, text);
		kfree(text);
	}
	if (ret) {
		view->failed = true;
		return ret;
	}
	*ppos += n;
	return n;
}

/* The last pattern, if nothing followed it, applies at close. */
static int rt_set_event_release(struct inode *inode, struct file *file)
{
	struct rt_event_view *view = ((struct seq_file *)file->private_data)->private;
	char *tail = rt_carry_flush(&view->carry);

	if (tail && !view->failed)
		rt_set_event_apply(file, tail);
	kfree(tail);
	kfree(view);
	return single_release(inode, file);
}

static const struct file_operations rt_set_event_fops = {
	.open = rt_set_event_open,
	.read = seq_read,
	.write = rt_set_event_write,
	.llseek = seq_lseek,
	.release = rt_set_event_release,
};

static struct rt_readme_part rt_event_list_readme = {
	.text = "  available_events     every event, as system:event\n"
		"  set_event            the enabled events; write [!]system:event,\n"
		"                       system: or event (globs allowed)\n",
};

/**
 * rt_create_event_list_files - add available_events and set_event
 * @edir: the instance's event directory; they go into its tracing
 *	directory, beside events/
 */
void rt_create_event_list_files(struct rt_event_dir *edir)
{
	struct dentry *dir = edir->tr->dir;

	edir->files[1] = tracefs_create_file("available_events", 0444, dir,
					     edir, &rt_available_events_fops);
	edir->files[2] = tracefs_create_file("set_event", 0644, dir, edir,
					     &rt_set_event_fops);
	if (edir->tr == rt_top_instance())
		rt_readme_add(&rt_event_list_readme);
}
