// SPDX-License-Identifier: GPL-2.0
/*
 * error_log: the last RT_ERROR_LOG_MAX commands a tracing file refused,
 * each with the place it went wrong, laid out as upstream lays it out
 * (ftracetest and tools count the caret's column):
 *
 *	[  123.456789] trace_kprobe: error: bad maxactive
 *	  Command: r1a111 vfs_read
 *	            ^
 *
 * The caret stands under the character at fault.  Files that parse
 * definitions add entries with rt_error_log(); opening error_log for
 * writing with O_TRUNC ("echo > error_log") empties it, and what is
 * written is ignored.  Top level only.
 *
 * Entries are added and read in process context only: a mutex guards
 * the list, and the oldest entry makes room for a new one.
 */
#include <linux/fs.h>
#include <linux/list.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracefs.h>
#include <trace/retrace/core.h>
#include "internal.h"

#define RT_ERROR_LOG_MAX	16
#define RT_ERROR_CMD_PREFIX	"  Command: "

struct rt_error_entry {
	struct list_head	list;
	u64			ts;	/* local_clock() when logged */
	char			*text;	/* all but the time stamp */
};

static DEFINE_MUTEX(rt_error_log_lock);
static LIST_HEAD(rt_error_log_list);	/* oldest first */
static unsigned int rt_error_log_count;

/**
 * rt_error_log - note a refused command in error_log
 * @loc: what refused it, e.g. "trace_kprobe"
 * @cmd: the command as written (one line, without its newline)
 * @msg: why, in a few words
 * @pos: offset in @cmd of the character at fault (clamped to its end)
 *
 * Process context; may sleep.  Never fails: with no memory for the
 * entry the error simply goes unlogged, as the write's errno still
 * tells the caller.
 */
void rt_error_log(const char *loc, const char *cmd, const char *msg,
		  unsigned int pos)
{
	struct rt_error_entry *e, *old = NULL;
	size_t len = strlen(cmd);

	if (pos > len)
		pos = len;
	e = kmalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return;
	e->text = kasprintf(GFP_KERNEL, "%s: error: %s\n" RT_ERROR_CMD_PREFIX
			    "%s\n%*s^\n", loc, msg, cmd,
			    (int)(sizeof(RT_ERROR_CMD_PREFIX) - 1 + pos), "");
	if (!e->text) {
		kfree(e);
		return;
	}
	e->ts = local_clock();
	mutex_lock(&rt_error_log_lock);
	if (rt_error_log_count == RT_ERROR_LOG_MAX) {
		old = list_first_entry(&rt_error_log_list,
				       struct rt_error_entry, list);
		list_del(&old->list);
		rt_error_log_count--;
	}
	list_add_tail(&e->list, &rt_error_log_list);
	rt_error_log_count++;
	mutex_unlock(&rt_error_log_lock);
	if (old) {
		kfree(old->text);
		kfree(old);
	}
}

static void rt_error_log_clear(void)
{
	struct rt_error_entry *e, *next;
	LIST_HEAD(gone);

	mutex_lock(&rt_error_log_lock);
	list_splice_init(&rt_error_log_list, &gone);
	rt_error_log_count = 0;
	mutex_unlock(&rt_error_log_lock);
	list_for_each_entry_safe(e, next, &gone, list) {
		kfree(e->text);
		kfree(e);
	}
}

static void *rt_error_log_start(struct seq_file *m, loff_t *pos)
{
	mutex_lock(&rt_error_log_lock);
	return seq_list_start(&rt_error_log_list, *pos);
}

static void *rt_error_log_next(struct seq_file *m, void *v, loff_t *pos)
{
	return seq_list_next(v, &rt_error_log_list, pos);
}

static void rt_error_log_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&rt_error_log_lock);
}

static int rt_error_log_show(struct seq_file *m, void *v)
{
	struct rt_error_entry *e = list_entry(v, struct rt_error_entry, list);
	u64 sec = e->ts;
	u32 nsec = do_div(sec, NSEC_PER_SEC);

	seq_printf(m, "[%5llu.%06u] %s", sec, (u32)(nsec / NSEC_PER_USEC),
		   e->text);
	return 0;
}

static const struct seq_operations rt_error_log_seq_ops = {
	.start	= rt_error_log_start,
	.next	= rt_error_log_next,
	.stop	= rt_error_log_stop,
	.show	= rt_error_log_show,
};

static int rt_error_log_open(struct inode *inode, struct file *file)
{
	int ret = rt_file_lockdown();

	if (ret)
		return ret;
	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC))
		rt_error_log_clear();
	if (file->f_mode & FMODE_READ)
		return seq_open(file, &rt_error_log_seq_ops);
	return 0;
}

static int rt_error_log_release(struct inode *inode, struct file *file)
{
	if (file->f_mode & FMODE_READ)
		return seq_release(inode, file);
	return 0;
}

/* Anything written is accepted and dropped; only O_TRUNC clears. */
static ssize_t rt_error_log_write(struct file *file, const char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	return cnt;
}

/* A write-only open has no seq_file to seek. */
static loff_t rt_error_log_llseek(struct file *file, loff_t offset,
				  int whence)
{
	if (file->f_mode & FMODE_READ)
		return seq_lseek(file, offset, whence);
	return 0;
}

static const struct file_operations rt_error_log_fops = {
	.open		= rt_error_log_open,
	.read		= seq_read,
	.write		= rt_error_log_write,
	.llseek		= rt_error_log_llseek,
	.release	= rt_error_log_release,
};

/* The top level's error_log, in @dir. */
void rt_create_error_log_file(struct dentry *dir)
{
	tracefs_create_file("error_log", 0644, dir, NULL, &rt_error_log_fops);
}
