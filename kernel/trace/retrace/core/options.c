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
 * Every instance has its own options/ with the core's options.  A core
 * option file keeps its instance in i_private, pinned while the file
 * is open (instance.c), and finds its option by its own name.  An
 * instance's options/ also has the options of the tracers that may run
 * there (rt_tracer.instances), made at its mkdir, found the same way
 * (a file whose tracer went says ENODEV).  An instance where the tracer
 * is current has its own copy of the tracer's options
 * (rt_instance.tracer_opts, taken at the switch), which its files and
 * trace_options show and change; elsewhere they show and change what
 * the tracer keeps for its next selection (rt_tracer.opts_state), which
 * every write updates too.  Upstream keeps one live set per tracer for
 * all instances.  A tracer that registers after an instance was made
 * has no files in it (its options stay reachable through
 * trace_options).
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

/* Anything but 0 or 1, a huge number too, is EINVAL. */
static int rt_opt_parse(const char __user *ubuf, size_t cnt, bool *on)
{
	unsigned long v;

	if (kstrtoul_from_user(ubuf, cnt, 10, &v) || v > 1)
		return -EINVAL;
	*on = v;
	return 0;
}

/* ---- the core's options, in every instance ---------------------------- */

/* The RT_OPT_* a core option file is named after. */
static int rt_core_opt_index(const struct file *file)
{
	return match_string(rt_option_names, RT_OPT_NR,
			    file_dentry(file)->d_name.name);
}

static int rt_core_opt_show(struct seq_file *m, void *v)
{
	int i = rt_core_opt_index(m->file);

	if (i < 0)
		return -ENODEV;
	seq_printf(m, "%d\n", rt_opt(m->private, i));
	return 0;
}

static ssize_t rt_core_opt_write(struct file *file, const char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	struct rt_instance *tr = ((struct seq_file *)file->private_data)->private;
	int i = rt_core_opt_index(file), ret;
	bool on;

	ret = rt_opt_parse(ubuf, cnt, &on);
	if (ret)
		return ret;
	if (i < 0)
		return -ENODEV;
	mutex_lock(&rt_trace_lock);
	rt_set_core_option(tr, i, on);
	mutex_unlock(&rt_trace_lock);
	return cnt;
}

RT_TR_SEQ_FOPS(rt_core_opt, rt_core_opt_write);

/* ---- tracers' options, in an instance ---------------------------------- */

/* What option @o of @t reads in @tr; rt_trace_lock held. */
static int rt_tracer_opt_value(const struct rt_instance *tr,
			       const struct rt_tracer *t,
			       const struct rt_tracer_opt *o)
{
	lockdep_assert_held(&rt_trace_lock);
	if (tr->tracer == t)
		return rt_tracer_opt(tr, o->bit);
	return test_bit(o->bit, &t->opts_state);
}

static int rt_inst_topt_show(struct seq_file *m, void *v)
{
	const struct rt_tracer_opt *o;
	struct rt_tracer *t;
	int ret = 0;

	mutex_lock(&rt_trace_lock);
	o = rt_instance_tracer_opt(file_dentry(m->file)->d_name.name, &t);
	if (o)
		seq_printf(m, "%d\n", rt_tracer_opt_value(m->private, t, o));
	else
		ret = -ENODEV;
	mutex_unlock(&rt_trace_lock);
	return ret;
}

static ssize_t rt_inst_topt_write(struct file *file, const char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	struct rt_instance *tr = ((struct seq_file *)file->private_data)->private;
	const struct rt_tracer_opt *o;
	struct rt_tracer *t;
	int ret;
	bool on;

	ret = rt_opt_parse(ubuf, cnt, &on);
	if (ret)
		return ret;
	mutex_lock(&rt_trace_lock);
	o = rt_instance_tracer_opt(file_dentry(file)->d_name.name, &t);
	ret = o ? rt_set_tracer_option(tr, t, o, on) : -ENODEV;
	mutex_unlock(&rt_trace_lock);
	return ret ? ret : cnt;
}

RT_TR_SEQ_FOPS(rt_inst_topt, rt_inst_topt_write);

/* Under rt_trace_lock: @tr's files for the options of instance tracers. */
static void rt_inst_topts_create(struct rt_instance *tr, struct dentry *dir)
{
	const struct rt_tracer_opt *o, *owner;
	struct rt_tracer *t, *ot;

	lockdep_assert_held(&rt_trace_lock);
	for (t = NULL; (t = rt_next_tracer(t)) != NULL;) {
		if (!t->instances)
			continue;
		for (o = t->opts; o && o->name; o++) {
			owner = rt_instance_tracer_opt(o->name, &ot);
			if (owner == o)
				tracefs_create_file(o->name, 0644, dir, tr,
						    &rt_inst_topt_fops);
		}
	}
}

/* ---- tracers' options, at the top level -------------------------------- */

/*
 * @tracer: the owner
 * @opt:    the tracer's option
 * @dentry: the file, NULL if it could not be made
 */
struct rt_opt_file {
	struct rt_tracer		*tracer;
	const struct rt_tracer_opt	*opt;
	struct dentry			*dentry;
};

static struct dentry *rt_options_dir;

static int rt_opt_file_show(struct seq_file *m, void *v)
{
	struct rt_opt_file *f;
	int ret = 0;

	mutex_lock(&rt_trace_lock);
	f = rt_file_obj(m->file, &rt_trace_lock);
	if (!f)
		ret = -ENODEV;
	else
		seq_printf(m, "%d\n", rt_tracer_opt_value(rt_top_instance(),
							  f->tracer, f->opt));
	mutex_unlock(&rt_trace_lock);
	return ret;
}

static ssize_t rt_opt_file_write(struct file *file, const char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	struct rt_opt_file *f;
	int ret;
	bool on;

	ret = rt_opt_parse(ubuf, cnt, &on);
	if (ret)
		return ret;
	mutex_lock(&rt_trace_lock);
	f = rt_file_obj(file, &rt_trace_lock);
	if (!f)
		ret = -ENODEV;
	else
		ret = rt_set_tracer_option(rt_top_instance(), f->tracer,
					   f->opt, on);
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

void rt_create_options_dir(struct rt_instance *tr)
{
	struct dentry *dir = tracefs_create_dir("options", tr->dir);
	unsigned int i;

	if (IS_ERR_OR_NULL(dir)) {
		pr_warn("no options directory\n");
		return;
	}
	for (i = 0; i < RT_OPT_NR; i++)
		tracefs_create_file(rt_option_names[i], 0644, dir, tr,
				    &rt_core_opt_fops);
	if (tr == rt_top_instance()) {
		rt_options_dir = dir;
		return;
	}
	mutex_lock(&rt_trace_lock);
	rt_inst_topts_create(tr, dir);
	mutex_unlock(&rt_trace_lock);
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
