// SPDX-License-Identifier: GPL-2.0
/*
 * set_event_pid and set_event_notrace_pid: while set_event_pid lists
 * any PID, an instance's events record only what the listed tasks do;
 * set_event_notrace_pid's tasks are never recorded (both apply: a
 * task in both lists is not recorded).  The task is the one current
 * when the event fires: for sched_switch, the task switched out.  A
 * write adds PIDs (">>" keeps the list, ">" empties it first);
 * reading lists them.  With the event-fork option set, a listed
 * task's children join its list as they are forked; a listed task
 * leaves both lists once it has exited and is freed.
 *
 * Each list (enum rt_pid_list) is a bitmap over every possible PID
 * (PID_MAX_LIMIT bits: 512 KiB on x86_64), allocated at the list's
 * first write and kept until the event directory goes.
 *
 *   edir->pids[l]    the bitmap.  Installed once under rt_event_lock.
 *                    Bits are set by writes under rt_event_lock and by
 *                    the fork and free probes in any context, all
 *                    with atomic bit operations; a record made during
 *                    a write meets the old bits, the new or a mix.  A
 *                    fork racing with "echo > set_event_pid" may
 *                    leave its child's bit set in the emptied list,
 *                    to take effect with the next PID written.
 *   edir->pid_on     BIT(l) while list l is on, written under
 *                    rt_event_lock: set by a write that added a PID
 *                    (smp_store_release(), after the bitmap is
 *                    installed), cleared by emptying the list; read
 *                    with one smp_load_acquire() by the record path
 *                    (rt_event_pid_ok()) and the probes, which then
 *                    find the bitmaps of the lists that are on.
 *
 * The probes, registered at the first write and never removed, walk
 * rt_event_dirs as an RCU list: tracepoint probes run with preemption
 * disabled, and an event directory leaves the list with
 * list_del_rcu() and is freed only after synchronize_rcu().
 */
#define pr_fmt(fmt) "retrace: " fmt

#include <linux/bitmap.h>
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/threads.h>
#include <linux/tracefs.h>
#include <linux/uaccess.h>
#include <trace/events/sched.h>
#include <trace/retrace/carry.h>
#include <trace/retrace/core.h>
#include "internal.h"

/* The most one write() takes: thousands of PIDs. */
#define RT_PID_MAX_WRITE	(64 * 1024)
#define RT_PID_DELIMS		" \t\n,"

static bool rt_pid_probes;	/* registered (rt_event_lock) */

static const char *const rt_pid_file_names[RT_PID_LISTS] = {
	[RT_PID_TRACE] = "set_event_pid",
	[RT_PID_NOTRACE] = "set_event_notrace_pid",
};

static void notrace rt_pid_probe_fork(void *data, struct task_struct *parent,
				      struct task_struct *child)
{
	struct rt_event_dir *edir;
	unsigned long *pids;
	unsigned int on;
	int l;

	list_for_each_entry_rcu(edir, &rt_event_dirs, list,
				rcu_read_lock_sched_held()) {
		/* Pairs with the release in rt_pid_apply(). */
		on = smp_load_acquire(&edir->pid_on);
		if (!on || !rt_opt(edir->tr, RT_OPT_EVENT_FORK))
			continue;
		for (l = 0; l < RT_PID_LISTS; l++) {
			if (!(on & BIT(l)))
				continue;
			pids = READ_ONCE(edir->pids[l]);
			if (test_bit(parent->pid, pids))
				set_bit(child->pid, pids);
		}
	}
}

static void notrace rt_pid_probe_free(void *data, struct task_struct *p)
{
	struct rt_event_dir *edir;
	unsigned int on;
	int l;

	list_for_each_entry_rcu(edir, &rt_event_dirs, list,
				rcu_read_lock_sched_held()) {
		/* Pairs with the release in rt_pid_apply(). */
		on = smp_load_acquire(&edir->pid_on);
		for (l = 0; l < RT_PID_LISTS; l++)
			if (on & BIT(l))
				clear_bit(p->pid, READ_ONCE(edir->pids[l]));
	}
}

/* Under rt_event_lock. */
static int rt_pid_probes_register(void)
{
	int ret;

	if (rt_pid_probes)
		return 0;
	/*
	 * Last of the probes on each tracepoint, and a task leaves when
	 * it is freed, not at exit: its own fork, exit and last switch
	 * events still pass the filter.
	 */
	ret = register_trace_prio_sched_process_fork(rt_pid_probe_fork, NULL,
						     INT_MIN);
	if (ret)
		return ret;
	ret = register_trace_prio_sched_process_free(rt_pid_probe_free, NULL,
						     INT_MIN);
	if (ret) {
		unregister_trace_sched_process_fork(rt_pid_probe_fork, NULL);
		return ret;
	}
	rt_pid_probes = true;
	return 0;
}

/* Under rt_event_lock: list @l empty and off. */
static void rt_pid_clear(struct rt_event_dir *edir, enum rt_pid_list l)
{
	if (edir->pids[l])
		bitmap_zero(edir->pids[l], PID_MAX_LIMIT);
	WRITE_ONCE(edir->pid_on, edir->pid_on & ~BIT(l));
}

/* A PID cut by the end of a write() waits for the rest (lib/carry.c). */
struct rt_pid_open {
	enum rt_pid_list	list;
	bool			failed;
	struct rt_carry		carry;
};

static int rt_pid_show(struct seq_file *m, void *v)
{
	struct rt_pid_open *po = m->private;
	struct rt_event_dir *edir;
	unsigned int pid;
	int ret = 0;

	mutex_lock(&rt_event_lock);
	edir = rt_file_obj(m->file, &rt_event_lock);
	if (!edir)
		ret = -ENODEV;
	else if (edir->pid_on & BIT(po->list))
		for_each_set_bit(pid, edir->pids[po->list], PID_MAX_LIMIT)
			seq_printf(m, "%u\n", pid);
	mutex_unlock(&rt_event_lock);
	return ret;
}

/*
 * Parse every PID of @text into @out (room for @max); the count, or
 * EINVAL for anything that is not a PID below PID_MAX_LIMIT.
 */
static int rt_pid_parse(char *text, unsigned int *out, unsigned int max)
{
	unsigned int n = 0, pid;
	char *word;

	while ((word = strsep(&text, RT_PID_DELIMS)) != NULL) {
		if (!*word)
			continue;
		if (n == max || kstrtouint(word, 10, &pid) ||
		    pid >= PID_MAX_LIMIT)
			return -EINVAL;
		out[n++] = pid;
	}
	return n;
}

/* Add the PIDs of @text (whole tokens) to list @l, all or none. */
static int rt_pid_apply(struct file *f, enum rt_pid_list l, char *text)
{
	size_t max = strlen(text) / 2 + 1;	/* a PID and a separator */
	struct rt_event_dir *edir;
	unsigned long *pids;
	unsigned int *list;
	int n, i, ret = 0;

	list = kvmalloc_array(max, sizeof(*list), GFP_KERNEL);
	if (!list)
		return -ENOMEM;
	n = rt_pid_parse(text, list, max);
	if (n <= 0) {
		kvfree(list);
		return n;
	}
	mutex_lock(&rt_event_lock);
	edir = rt_file_obj(f, &rt_event_lock);
	if (!edir) {
		ret = -ENODEV;
	} else if (!edir->pids[l]) {
		pids = kvcalloc(BITS_TO_LONGS(PID_MAX_LIMIT), sizeof(long),
				GFP_KERNEL);
		if (pids)
			WRITE_ONCE(edir->pids[l], pids);
		else
			ret = -ENOMEM;
	}
	if (!ret)
		ret = rt_pid_probes_register();
	if (!ret) {
		for (i = 0; i < n; i++)
			set_bit(list[i], edir->pids[l]);
		/* Pairs with the readers' acquire: they see the bitmap. */
		smp_store_release(&edir->pid_on, edir->pid_on | BIT(l));
	}
	mutex_unlock(&rt_event_lock);
	kvfree(list);
	return ret;
}

static ssize_t rt_pid_write(struct file *f, const char __user *ubuf,
			    size_t cnt, loff_t *ppos)
{
	struct rt_pid_open *po = ((struct seq_file *)f->private_data)->private;
	size_t n = min_t(size_t, cnt, RT_PID_MAX_WRITE);
	char *in, *text;
	int ret;

	in = memdup_user(ubuf, n);
	if (IS_ERR(in))
		return PTR_ERR(in);
	text = rt_carry_join(&po->carry, in, n, RT_PID_DELIMS, &ret);
	kfree(in);
	if (text) {
		ret = rt_pid_apply(f, po->list, text);
		kfree(text);
	}
	if (ret) {
		po->failed = true;
		return ret;
	}
	return n;
}

/* ">" empties the list first, as for set_event. */
static int rt_pid_open_list(struct inode *inode, struct file *file,
			    enum rt_pid_list l)
{
	struct rt_event_dir *edir;
	struct rt_pid_open *po;
	int ret = rt_file_lockdown();

	if (ret)
		return ret;
	po = kzalloc(sizeof(*po), GFP_KERNEL);
	if (!po)
		return -ENOMEM;
	po->list = l;
	ret = single_open(file, rt_pid_show, po);
	if (ret) {
		kfree(po);
		return ret;
	}
	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		mutex_lock(&rt_event_lock);
		edir = rt_file_obj(file, &rt_event_lock);
		if (edir)
			rt_pid_clear(edir, l);
		mutex_unlock(&rt_event_lock);
	}
	return 0;
}

static int rt_pid_open(struct inode *inode, struct file *file)
{
	return rt_pid_open_list(inode, file, RT_PID_TRACE);
}

static int rt_notrace_pid_open(struct inode *inode, struct file *file)
{
	return rt_pid_open_list(inode, file, RT_PID_NOTRACE);
}

/* The last PID, if nothing followed it, applies at close. */
static int rt_pid_release(struct inode *inode, struct file *file)
{
	struct rt_pid_open *po = ((struct seq_file *)file->private_data)->private;
	char *tail = rt_carry_flush(&po->carry);

	if (tail && !po->failed)
		rt_pid_apply(file, po->list, tail);
	kfree(tail);
	kfree(po);
	return single_release(inode, file);
}

static const struct file_operations rt_pid_fops[RT_PID_LISTS] = {
	[RT_PID_TRACE] = {
		.open = rt_pid_open,
		.read = seq_read,
		.write = rt_pid_write,
		.llseek = seq_lseek,
		.release = rt_pid_release,
	},
	[RT_PID_NOTRACE] = {
		.open = rt_notrace_pid_open,
		.read = seq_read,
		.write = rt_pid_write,
		.llseek = seq_lseek,
		.release = rt_pid_release,
	},
};

static struct rt_readme_part rt_pid_readme = {
	.text = "  set_event_pid        PIDs whose events are recorded (none: all);\n"
		"                       option event-fork adds their children\n"
		"  set_event_notrace_pid  PIDs whose events are never recorded;\n"
		"                       option event-fork adds their children\n",
};

/**
 * rt_create_event_pid_file - add set_event_pid and set_event_notrace_pid
 * beside events/
 * @edir: the instance's event directory
 */
void rt_create_event_pid_file(struct rt_event_dir *edir)
{
	int l;

	for (l = 0; l < RT_PID_LISTS; l++)
		edir->files[3 + l] =
			tracefs_create_file(rt_pid_file_names[l], 0644,
					    edir->tr->dir, edir,
					    &rt_pid_fops[l]);
	if (edir->tr == rt_top_instance())
		rt_readme_add(&rt_pid_readme);
}

/* With the event directory, a grace period after its unlink. */
void rt_event_pid_free(struct rt_event_dir *edir)
{
	int l;

	for (l = 0; l < RT_PID_LISTS; l++)
		kvfree(edir->pids[l]);
}
