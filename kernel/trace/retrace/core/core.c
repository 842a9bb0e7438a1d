// SPDX-License-Identifier: GPL-2.0
/*
 * retrace core: the shared buffer, the on/off switch, the tracer and
 * record-type registries, and the tracing directory (the tracefs root).
 */
#define pr_fmt(fmt) "retrace: " fmt

#include <linux/cpumask.h>
#include <linux/hardirq.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <trace/retrace/core.h>
#include "internal.h"

/* The top-level instance: /sys/kernel/tracing. */
struct rt_instance rt_top = {
	.options = RT_OPT_DEFAULTS,
	.on = 1,
};
EXPORT_SYMBOL_GPL(rt_top);

/* Serializes every control-file change (tracer, size, options, ...). */
DEFINE_MUTEX(rt_trace_lock);
atomic_t rt_tracer_generation = ATOMIC_INIT(0);

static LIST_HEAD(rt_tracers);

static struct rt_tracer rt_nop_tracer = {
	.name = "nop",
	.instances = true,
};

struct rt_tracer *rt_nop_tracer_ptr(void)
{
	return &rt_nop_tracer;
}

static struct rt_event_type *rt_event_types[RT_TYPE_MAX];
static unsigned int rt_next_type;	/* offset from RT_TYPE_FIRST_DYNAMIC */
static DEFINE_MUTEX(rt_types_lock);


/**
 * tracing_on - let records into the top-level trace buffer
 *
 * Safe from any context.  Instances have their own switch, their
 * tracing_on file.
 */
void tracing_on(void)
{
	WRITE_ONCE(rt_top.on, 1);
}
EXPORT_SYMBOL_GPL(tracing_on);

/**
 * tracing_off - keep records out of the top-level trace buffer
 *
 * Safe from any context; what is in the buffer stays there.
 */
void tracing_off(void)
{
	WRITE_ONCE(rt_top.on, 0);
}
EXPORT_SYMBOL_GPL(tracing_off);

/**
 * tracing_is_on - report the top level's tracing_on switch
 *
 * Return: 1 when records are let in, else 0.
 */
int tracing_is_on(void)
{
	return READ_ONCE(rt_top.on);
}
EXPORT_SYMBOL_GPL(tracing_is_on);

/**
 * rt_register_event_type - make records of et->type printable
 * @et: the type; et->type 0 asks for a fresh number
 *
 * Return: 0, -EBUSY if the number is taken, -ENOSPC if none is left.
 */
int rt_register_event_type(struct rt_event_type *et)
{
	unsigned int t;
	int ret = 0;

	mutex_lock(&rt_types_lock);
	if (!et->type) {
		/*
		 * Hand numbers out round-robin: records of a type just
		 * removed may still be in the buffer, and they must not
		 * be printed by whoever gets the number next.
		 */
		unsigned int n = RT_TYPE_MAX - RT_TYPE_FIRST_DYNAMIC, i;

		for (i = 0; i < n; i++) {
			t = RT_TYPE_FIRST_DYNAMIC + (rt_next_type + i) % n;
			if (!rt_event_types[t])
				break;
		}
		if (i == n) {
			ret = -ENOSPC;
			goto out;
		}
		et->type = t;
		rt_next_type = (t - RT_TYPE_FIRST_DYNAMIC + 1) % n;
	} else if (et->type >= RT_TYPE_MAX || rt_event_types[et->type]) {
		ret = -EBUSY;
		goto out;
	}
	WRITE_ONCE(rt_event_types[et->type], et);
out:
	mutex_unlock(&rt_types_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(rt_register_event_type);

/**
 * rt_unregister_event_type - forget a record type
 * @et: a type registered with rt_register_event_type()
 *
 * Records of that type still in the buffer print as unknown, and the
 * number may later go to another type: a producer whose records may be
 * in the buffers empties them with rt_reset_all_buffers() afterwards.
 */
void rt_unregister_event_type(struct rt_event_type *et)
{
	rt_unregister_event_type_nowait(et);
	synchronize_rcu();
}
EXPORT_SYMBOL_GPL(rt_unregister_event_type);

/**
 * rt_unregister_event_type_nowait - forget a record type, without waiting
 * @et: a type registered with rt_register_event_type()
 *
 * As rt_unregister_event_type(), but a printer may still be using @et
 * when this returns: the caller waits with synchronize_rcu() before it
 * frees @et.  One grace period then covers any number of types.
 */
void rt_unregister_event_type_nowait(struct rt_event_type *et)
{
	mutex_lock(&rt_types_lock);
	if (et->type < RT_TYPE_MAX && rt_event_types[et->type] == et)
		WRITE_ONCE(rt_event_types[et->type], NULL);
	mutex_unlock(&rt_types_lock);
}
EXPORT_SYMBOL_GPL(rt_unregister_event_type_nowait);

/**
 * rt_reset_all_buffers - empty every buffer of every instance
 *
 * For a producer that removed a record type whose records may still be
 * there (see rt_unregister_event_type()); like "echo > trace" on every
 * instance, snapshot buffers included.  May sleep.
 */
void rt_reset_all_buffers(void)
{
	struct rt_instance *tr = &rt_top;

	rt_buffer_reset(READ_ONCE(tr->buffer));
	if (READ_ONCE(tr->max_buffer)) {
		mutex_lock(&rt_max_lock);
		rt_buffer_reset(READ_ONCE(tr->max_buffer));
		memset(&rt_max_shown, 0, sizeof(rt_max_shown));
		mutex_unlock(&rt_max_lock);
	}
	/* Instances have no latency tracer, but may have a snapshot. */
	mutex_lock(&rt_instances_lock);
	list_for_each_entry(tr, &rt_instances, list) {
		rt_buffer_reset(tr->buffer);
		if (READ_ONCE(tr->max_buffer))
			rt_buffer_reset(READ_ONCE(tr->max_buffer));
	}
	mutex_unlock(&rt_instances_lock);
}
EXPORT_SYMBOL_GPL(rt_reset_all_buffers);

/* Is the current tracer a latency tracer, whose trace is the snapshot? */
bool rt_tracer_uses_max(struct rt_instance *tr)
{
	struct rt_tracer *t;
	bool ret;

	rcu_read_lock();
	t = READ_ONCE(tr->tracer);
	ret = t && t->use_max;
	rcu_read_unlock();
	return ret;
}

/*
 * "echo > trace": empty the buffer that trace shows; for a latency
 * tracer that is the snapshot, and the live buffer with it.
 */
void rt_clear_trace(struct rt_instance *tr)
{
	rt_buffer_reset(tr->buffer);
	if (rt_tracer_uses_max(tr) && tr->max_buffer) {
		mutex_lock(&rt_max_lock);
		rt_buffer_reset(tr->max_buffer);
		memset(&rt_max_shown, 0, sizeof(rt_max_shown));
		mutex_unlock(&rt_max_lock);
	}
}

struct rt_event_type *rt_find_event_type(unsigned int type)
{
	return type < RT_TYPE_MAX ? READ_ONCE(rt_event_types[type]) : NULL;
}

/**
 * rt_register_tracer - add a tracer to available_tracers
 * @t: the tracer; its name must be unique
 *
 * Return: 0 or -EBUSY.
 */
int rt_register_tracer(struct rt_tracer *t)
{
	struct rt_tracer *o;

	mutex_lock(&rt_trace_lock);
	list_for_each_entry(o, &rt_tracers, list) {
		if (!strcmp(o->name, t->name)) {
			mutex_unlock(&rt_trace_lock);
			return -EBUSY;
		}
	}
	t->opts_state = t->default_opts;
	list_add_tail(&t->list, &rt_tracers);
	mutex_unlock(&rt_trace_lock);
	rt_options_add_tracer(t);
	return 0;
}
EXPORT_SYMBOL_GPL(rt_register_tracer);

/* Under rt_trace_lock: the tracer after @t (NULL: the first), or NULL. */
struct rt_tracer *rt_next_tracer(struct rt_tracer *t)
{
	lockdep_assert_held(&rt_trace_lock);
	t = t ? list_next_entry(t, list) :
		list_first_entry(&rt_tracers, struct rt_tracer, list);
	return list_entry_is_head(t, &rt_tracers, list) ? NULL : t;
}

/**
 * rt_instance_tracer_opt - the option called @name of a tracer that may
 *	run in instances, the first such tracer registered to own it
 * @name: the option's name
 * @tp: out, its tracer
 *
 * Call with rt_trace_lock held.
 *
 * Return: the option, or NULL.
 */
const struct rt_tracer_opt *rt_instance_tracer_opt(const char *name,
						   struct rt_tracer **tp)
{
	const struct rt_tracer_opt *o;
	struct rt_tracer *t;

	lockdep_assert_held(&rt_trace_lock);
	list_for_each_entry(t, &rt_tracers, list) {
		if (!t->instances)
			continue;
		for (o = t->opts; o && o->name; o++) {
			if (!strcmp(o->name, name)) {
				*tp = t;
				return o;
			}
		}
	}
	return NULL;
}

/**
 * rt_unregister_tracer - remove a tracer, e.g. when its module unloads
 * @t: a tracer added with rt_register_tracer()
 *
 * Wherever it is the current tracer, tracing falls back to nop first.
 */
void rt_unregister_tracer(struct rt_tracer *t)
{
	struct rt_instance *tr;

	mutex_lock(&rt_instances_lock);
	mutex_lock(&rt_trace_lock);
	if (rt_top.tracer == t)
		rt_set_tracer(&rt_top, "nop");
	list_for_each_entry(tr, &rt_instances, list)
		if (tr->tracer == t)
			rt_set_tracer(tr, "nop");
	list_del(&t->list);
	rt_options_revoke_tracer(t);
	mutex_unlock(&rt_trace_lock);
	mutex_unlock(&rt_instances_lock);
	rt_options_remove_tracer(t);
	/* A reader may still be in t->print_line (output.c). */
	synchronize_rcu();
}
EXPORT_SYMBOL_GPL(rt_unregister_tracer);

const char *rt_current_tracer_name(struct rt_instance *tr)
{
	return tr->tracer ? tr->tracer->name : "nop";
}

bool rt_tracer_is_nop(struct rt_instance *tr)
{
	return !tr->tracer || tr->tracer == &rt_nop_tracer;
}

void rt_walk_tracers(rt_tracer_fn fn, void *arg)
{
	struct rt_tracer *t;

	list_for_each_entry(t, &rt_tracers, list)
		fn(t, arg);
}

/*
 * Switch @tr's tracer; caller holds rt_trace_lock.  A tracer whose init
 * fails leaves the old one running: it is reset only once the new one
 * started, so a refusal costs nothing.  In an instance, only tracers
 * that allow it exist (-EINVAL for the others).
 */
int rt_set_tracer(struct rt_instance *tr, const char *name)
{
	struct rt_tracer *t, *found = NULL, *old = tr->tracer;
	unsigned long old_opts = tr->tracer_opts;
	int ret;

	lockdep_assert_held(&rt_trace_lock);
	list_for_each_entry(t, &rt_tracers, list)
		if (!strcmp(t->name, name))
			found = t;
	if (!found || (tr != &rt_top && !found->instances))
		return -EINVAL;
	if (found == old)
		return 0;
	if (old && old->reset)
		old->reset(tr);
	WRITE_ONCE(tr->tracer, NULL);
	tr->tracer_opts = found->opts_state;
	atomic_inc(&rt_tracer_generation);
	/* Readers of trace_pipe end their read (EOF) at a switch. */
	rt_pipe_wake_all(tr);
	ret = found->init ? found->init(tr) : 0;
	if (ret) {
		/* Restart the old tracer rather than leave none. */
		tr->tracer_opts = old_opts;
		if (old && old->init && old->init(tr))
			old = &rt_nop_tracer;
		WRITE_ONCE(tr->tracer, old);
		return ret;
	}
	WRITE_ONCE(tr->tracer, found);
	return 0;
}

void rt_tracer_print_header(struct rt_instance *tr, struct seq_buf *s)
{
	if (tr->tracer && tr->tracer->print_header)
		tr->tracer->print_header(tr, s);
}

/**
 * rt_tracing_dir - the tracing directory units add their files to
 *
 * Return: the directory to pass as a tracefs parent: NULL, which
 * tracefs takes as its root.  Valid from fs_initcall_sync on, which is
 * where layers above the core register (events), and device_initcall
 * for tracers and producers.
 */
struct dentry *rt_tracing_dir(void)
{
	return rt_top.dir;
}
EXPORT_SYMBOL_GPL(rt_tracing_dir);

static int __init rt_core_init(void)
{
	struct rt_instance *tr = &rt_top;

	if (rt_instance_init(tr, RT_DEFAULT_BUFFER_BYTES)) {
		pr_err("cannot allocate the trace buffer\n");
		return -ENOMEM;
	}
	rt_register_tracer(&rt_nop_tracer);
	tr->tracer = &rt_nop_tracer;

	/* The core's own files; every other unit adds its own later. */
	rt_create_mount_points();
	tr->dir = NULL;		/* the tracefs root */
	rt_instance_create_files(tr);
	rt_create_instances_dir();
	pr_info("tracing ready, %lu KiB per CPU\n",
		rt_buffer_size(tr->buffer) >> 10);
	return 0;
}
fs_initcall(rt_core_init);
