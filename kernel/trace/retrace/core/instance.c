// SPDX-License-Identifier: GPL-2.0
/*
 * retrace core: trace instances.  "mkdir instances/NAME" makes a new
 * struct rt_instance with its own buffer, tracing_on, options, clock,
 * cpumask and tracer, and a directory holding the core's per-instance
 * files; "rmdir instances/NAME" removes it again.  Tracers marked
 * rt_tracer.instances may be selected there.  Units above the core add
 * their files to every instance through struct rt_instance_ops (the
 * events layer: events/, set_event; the function tracer: its filter
 * and pid files); the rest of the tracing directory (kprobe_events,
 * set_graph_function, ...) belongs to the top level.
 *
 * Lifetime.  An instance's files keep the instance in i_private, and
 * tracefs does not wait for file operations when it removes a file.
 * So every open of such a file pins its instance (rt_instance_get()),
 * and every release unpins it:
 *
 *   rt_instances_lock   a mutex over the list of instances, every
 *                       instance's @ref, and each mkdir and rmdir as a
 *                       whole (so two of them never race on one name)
 *   tr->ref             files of @tr open now; rmdir fails with EBUSY
 *                       while it is not 0
 *   tr->list            on rt_instances while the instance exists
 *
 * An open finds its instance through i_private but trusts the pointer
 * only once it found it on the list, under the lock: an open that
 * began before an rmdir and reaches ->open after it gets ENODEV.  Once
 * rmdir has taken an instance off the list with @ref at 0, no file can
 * reach it, and nothing writes to its buffer: the units' ->remove()
 * ran first (events stop recording into it), then its tracer was
 * reset, and the only other writers are trace_marker writes, which
 * hold the file open.  The top level is never removed; its files do
 * not count references.
 *
 * Lock order: rt_instances_lock, then rt_trace_lock or the units'
 * locks.
 */
#define pr_fmt(fmt) "retrace: " fmt

#include <linux/cpumask.h>
#include <linux/irq_work.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracefs.h>
#include "internal.h"

DEFINE_MUTEX(rt_instances_lock);
LIST_HEAD(rt_instances);
static struct dentry *rt_instances_dir;
/* Units with files in every instance, under rt_instances_lock. */
static LIST_HEAD(rt_instance_ops_list);

/* Under rt_instances_lock: the instance called @name, or NULL. */
static struct rt_instance *rt_instance_find(const char *name)
{
	struct rt_instance *tr;

	lockdep_assert_held(&rt_instances_lock);
	list_for_each_entry(tr, &rt_instances, list)
		if (!strcmp(tr->name, name))
			return tr;
	return NULL;
}

/**
 * rt_instance_get - pin the instance a file belongs to, at open
 * @tr: the file's instance, as i_private holds it (maybe stale)
 *
 * Return: 0, and @tr stays until rt_instance_put(); or -ENODEV when
 * @tr was removed (the pointer is then not used).
 */
int rt_instance_get(struct rt_instance *tr)
{
	struct rt_instance *t;
	int ret = -ENODEV;

	if (tr == &rt_top)
		return 0;
	mutex_lock(&rt_instances_lock);
	list_for_each_entry(t, &rt_instances, list) {
		if (t == tr) {
			tr->ref++;
			ret = 0;
			break;
		}
	}
	mutex_unlock(&rt_instances_lock);
	return ret;
}

/**
 * rt_instance_put - undo rt_instance_get(), at release
 * @tr: the instance
 */
void rt_instance_put(struct rt_instance *tr)
{
	if (tr == &rt_top)
		return;
	mutex_lock(&rt_instances_lock);
	WARN_ON_ONCE(tr->ref <= 0);
	tr->ref--;
	mutex_unlock(&rt_instances_lock);
}

/* What both kinds of instance need before their files exist. */
int rt_instance_init(struct rt_instance *tr, unsigned long bytes_per_cpu)
{
	if (!zalloc_cpumask_var(&tr->cpumask, GFP_KERNEL))
		return -ENOMEM;
	cpumask_copy(tr->cpumask, cpu_possible_mask);
	rt_pipe_init(tr);
	INIT_LIST_HEAD(&tr->list);
	tr->buffer = rt_buffer_alloc(bytes_per_cpu,
				     rt_opt(tr, RT_OPT_OVERWRITE));
	if (!tr->buffer) {
		free_cpumask_var(tr->cpumask);
		return -ENOMEM;
	}
	return 0;
}

static void rt_instance_free(struct rt_instance *tr)
{
	/* A trace_marker write may have left a wakeup queued. */
	irq_work_sync(&tr->pipe_work);
	rt_buffer_free(tr->buffer);
	if (tr->max_buffer)
		rt_buffer_free(tr->max_buffer);
	free_cpumask_var(tr->cpumask);
	kfree(tr->name);
	kfree(tr);
}

/**
 * rt_register_instance_ops - have a unit's files made in every instance
 * @ops: the unit's callbacks; must stay valid (static storage)
 *
 * Calls @ops->add for every instance that exists already; one that
 * fails there only lacks the unit's files.
 */
void rt_register_instance_ops(struct rt_instance_ops *ops)
{
	struct rt_instance *tr;

	mutex_lock(&rt_instances_lock);
	list_add_tail(&ops->list, &rt_instance_ops_list);
	list_for_each_entry(tr, &rt_instances, list)
		if (ops->add(tr))
			pr_warn("instance %s: a unit's files are missing\n",
				tr->name);
	mutex_unlock(&rt_instances_lock);
}
EXPORT_SYMBOL_GPL(rt_register_instance_ops);

/* Under rt_instances_lock: the units' remove(), last added first. */
static void rt_instance_ops_remove(struct rt_instance *tr,
				   struct rt_instance_ops *from)
{
	struct rt_instance_ops *ops = from;

	list_for_each_entry_from_reverse(ops, &rt_instance_ops_list, list)
		ops->remove(tr);
}

/* Under rt_instances_lock: the units' add(); undone if one fails. */
static int rt_instance_ops_add(struct rt_instance *tr)
{
	struct rt_instance_ops *ops;
	int ret;

	list_for_each_entry(ops, &rt_instance_ops_list, list) {
		ret = ops->add(tr);
		if (ret) {
			rt_instance_ops_remove(tr, ops);
			return ret;
		}
	}
	return 0;
}

/* The files every instance has, the top level's included. */
void rt_instance_create_files(struct rt_instance *tr)
{
	rt_create_control_files(tr);
	rt_create_trace_files(tr);
	rt_create_snapshot_files(tr);
	rt_create_print_files(tr);
	rt_create_clock_files(tr);
	rt_create_options_dir(tr);
}

static int rt_instance_mkdir(const char *name)
{
	struct rt_instance *tr;
	struct dentry *dir;
	int ret;

	mutex_lock(&rt_instances_lock);
	ret = -EEXIST;
	if (rt_instance_find(name))
		goto out;
	ret = -ENOMEM;
	tr = kzalloc(sizeof(*tr), GFP_KERNEL);
	if (!tr)
		goto out;
	tr->name = kstrdup(name, GFP_KERNEL);
	tr->options = RT_OPT_DEFAULTS;
	tr->on = 1;
	if (!tr->name || rt_instance_init(tr, RT_DEFAULT_BUFFER_BYTES)) {
		kfree(tr->name);
		kfree(tr);
		goto out;
	}
	tr->tracer = rt_nop_tracer_ptr();
	dir = tracefs_create_dir(name, rt_instances_dir);
	if (IS_ERR_OR_NULL(dir)) {
		ret = dir ? PTR_ERR(dir) : -ENOMEM;
		rt_instance_free(tr);
		goto out;
	}
	tr->dir = dir;
	rt_instance_create_files(tr);
	ret = rt_instance_ops_add(tr);
	if (ret) {
		tracefs_remove(dir);
		rt_instance_free(tr);
		goto out;
	}
	list_add_tail(&tr->list, &rt_instances);
out:
	mutex_unlock(&rt_instances_lock);
	return ret;
}

static int rt_instance_rmdir(const char *name)
{
	struct rt_instance *tr;
	int ret = -ENODEV;

	mutex_lock(&rt_instances_lock);
	tr = rt_instance_find(name);
	if (!tr)
		goto out;
	ret = -EBUSY;
	if (tr->ref)
		goto out;
	if (!list_empty(&rt_instance_ops_list))
		rt_instance_ops_remove(tr, list_last_entry(&rt_instance_ops_list,
							    struct rt_instance_ops,
							    list));
	mutex_lock(&rt_trace_lock);
	rt_set_tracer(tr, "nop");
	mutex_unlock(&rt_trace_lock);
	list_del(&tr->list);
	tracefs_remove(tr->dir);
	rt_instance_free(tr);
	ret = 0;
out:
	mutex_unlock(&rt_instances_lock);
	return ret;
}

void __init rt_create_instances_dir(void)
{
	rt_instances_dir = tracefs_create_instance_dir("instances", NULL,
						       rt_instance_mkdir,
						       rt_instance_rmdir);
	if (!rt_instances_dir)
		pr_warn("no instances directory\n");
}
