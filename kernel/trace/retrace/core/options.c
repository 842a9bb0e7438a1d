// SPDX-License-Identifier: GPL-2.0
/*
 * The options/ directory: one file per option, reading 0 or 1 and
 * taking 0 or 1, beside trace_options, which takes names.  The core's
 * options are always there; a tracer's appear when it registers and
 * go when it unregisters, and can be set while another tracer is
 * current: the tracer keeps them (rt_tracer.opts_state) for when it is
 * selected.  Two tracers owning one name share no file: the first to
 * register gets it.
 *
 * Files that outlive their tracer: a tracer in a module unregisters
 * while its files may be open.  They follow core.h's revocable-file
 * protocol with rt_trace_lock: i_private is each file's struct
 * rt_opt_file, read under the lock; rt_unregister_tracer() revokes the
 * tracer's files under it, and only after the unlock removes them and
 * frees the array.
 */
#define pr_fmt(fmt) "retrace: " fmt

#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/tracefs.h>
#include <linux/uaccess.h>
#include "internal.h"

/*
 * @tracer: the owner, or NULL for a core option
 * @opt:    the tracer's option (when @tracer)
 * @index:  RT_OPT_* (when not @tracer)
 * @dentry: the file, NULL if it could not be made
 */
struct rt_opt_file {
	struct rt_tracer		*tracer;
	const struct rt_tracer_opt	*opt;
	unsigned int			index;
	struct dentry			*dentry;
};

static struct rt_opt_file rt_core_opt_files[RT_OPT_NR];
static struct dentry *rt_options_dir;
static struct rt_instance *rt_options_tr;

static int rt_opt_file_show(struct seq_file *m, void *v)
{
	struct rt_instance *tr = rt_options_tr;
	struct rt_opt_file *f;
	int ret = 0;
	bool on;

	mutex_lock(&rt_trace_lock);
	f = rt_file_obj(m->file, &rt_trace_lock);
	if (!f) {
		ret = -ENODEV;
	} else {
		/* tr->tracer_opts is a copy of the current tracer's state. */
		if (f->tracer)
			on = test_bit(f->opt->bit, &f->tracer->opts_state);
		else
			on = rt_opt(tr, f->index);
		seq_printf(m, "%d\n", on);
	}
	mutex_unlock(&rt_trace_lock);
	return ret;
}

static ssize_t rt_opt_file_write(struct file *file, const char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	struct rt_instance *tr = rt_options_tr;
	struct rt_opt_file *f;
	unsigned long v;
	int ret = 0;

	/* Anything but 0 or 1, a huge number too, is EINVAL. */
	if (kstrtoul_from_user(ubuf, cnt, 10, &v) || v > 1)
		return -EINVAL;
	mutex_lock(&rt_trace_lock);
	f = rt_file_obj(file, &rt_trace_lock);
	if (!f)
		ret = -ENODEV;
	else if (f->tracer)
		ret = rt_set_tracer_option(tr, f->tracer, f->opt, v);
	else
		rt_set_core_option(tr, f->index, v);
	mutex_unlock(&rt_trace_lock);
	return ret ? ret : cnt;
}

static int rt_opt_file_open(struct inode *inode, struct file *file)
{
	int ret = rt_file_lockdown();

	if (ret)
		return ret;
	return single_open(file, rt_opt_file_show, NULL);
}

static const struct file_operations rt_opt_file_fops = {
	.open		= rt_opt_file_open,
	.read		= seq_read,
	.write		= rt_opt_file_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static struct dentry *rt_opt_file_create(const char *name,
					 struct rt_opt_file *f)
{
	return tracefs_create_file(name, 0644, rt_options_dir, f,
				   &rt_opt_file_fops);
}

void __init rt_create_options_dir(struct rt_instance *tr)
{
	unsigned int i;

	rt_options_tr = tr;
	rt_options_dir = tracefs_create_dir("options", tr->dir);
	if (!rt_options_dir) {
		pr_warn("no options directory\n");
		return;
	}
	for (i = 0; i < RT_OPT_NR; i++) {
		rt_core_opt_files[i].index = i;
		rt_core_opt_files[i].dentry =
			rt_opt_file_create(rt_option_names[i],
					   &rt_core_opt_files[i]);
	}
}

/* After @t joined the tracer list; a failure only costs its files. */
void rt_options_add_tracer(struct rt_tracer *t)
{
	const struct rt_tracer_opt *o;
	struct rt_opt_file *files;
	unsigned int n = 0, i;

	for (o = t->opts; o && o->name; o++)
		n++;
	if (!n || !rt_options_dir)
		return;
	files = kcalloc(n, sizeof(*files), GFP_KERNEL);
	if (!files)
		return;
	for (i = 0; i < n; i++) {
		files[i].tracer = t;
		files[i].opt = &t->opts[i];
		/* NULL when another tracer already owns the name. */
		files[i].dentry = rt_opt_file_create(t->opts[i].name,
						     &files[i]);
	}
	mutex_lock(&rt_trace_lock);
	t->opt_files = files;
	mutex_unlock(&rt_trace_lock);
}

/* Under rt_trace_lock: @t's files fail with ENODEV from now on. */
void rt_options_revoke_tracer(struct rt_tracer *t)
{
	struct rt_opt_file *files = t->opt_files;
	const struct rt_tracer_opt *o;
	unsigned int i = 0;

	for (o = t->opts; files && o && o->name; o++, i++)
		rt_file_revoke(files[i].dentry, &rt_trace_lock);
}

/* After rt_options_revoke_tracer(), without rt_trace_lock. */
void rt_options_remove_tracer(struct rt_tracer *t)
{
	struct rt_opt_file *files = t->opt_files;
	const struct rt_tracer_opt *o;
	unsigned int i = 0;

	if (!files)
		return;
	for (o = t->opts; o && o->name; o++, i++)
		tracefs_remove(files[i].dentry);
	t->opt_files = NULL;
	kfree(files);
}
