// SPDX-License-Identifier: GPL-2.0
/*
 * retrace core: the shared buffer, the on/off switch, the tracer and
 * record-type registries, and the tracing directory in debugfs.
 */
#define pr_fmt(fmt) "retrace: " fmt

#include <linux/cpumask.h>
#include <linux/debugfs.h>
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

#define RT_DEFAULT_BUFFER_BYTES	(1408UL * 1024)

struct rt_buffer *rt_buffer;
EXPORT_SYMBOL_GPL(rt_buffer);

/* Serializes every control-file change (tracer, size, options, ...). */
DEFINE_MUTEX(rt_trace_lock);
atomic_t rt_tracer_generation = ATOMIC_INIT(0);

/*
 * tracing_on: read locklessly on every record, written under no lock
 * by tracing_on()/tracing_off() which may be called from any context.
 */
static int rt_tracing_enabled = 1;

unsigned long rt_options = BIT(RT_OPT_PRINT_PARENT) | BIT(RT_OPT_OVERWRITE);
cpumask_var_t rt_cpumask;

static LIST_HEAD(rt_tracers);
static struct rt_tracer *rt_current;
static unsigned long rt_max_latency;	/* usecs */

static struct rt_event_type *rt_event_types[RT_TYPE_MAX];
static unsigned int rt_next_type;	/* offset from RT_TYPE_FIRST_DYNAMIC */
static DEFINE_MUTEX(rt_types_lock);

static struct dentry *rt_dir;

/**
 * tracing_on - let records into the trace buffer
 *
 * Safe from any context.
 */
void tracing_on(void)
{
	WRITE_ONCE(rt_tracing_enabled, 1);
}
EXPORT_SYMBOL_GPL(tracing_on);

/**
 * tracing_off - keep records out of the trace buffer
 *
 * Safe from any context; what is in the buffer stays there.
 */
void tracing_off(void)
{
	WRITE_ONCE(rt_tracing_enabled, 0);
}
EXPORT_SYMBOL_GPL(tracing_off);

/**
 * tracing_is_on - report the tracing_on switch
 *
 * Return: 1 when records are let in, else 0.
 */
int tracing_is_on(void)
{
	return READ_ONCE(rt_tracing_enabled);
}
EXPORT_SYMBOL_GPL(tracing_is_on);

/**
 * rt_recording - whether a record made now on this CPU would be kept
 *
 * Return: false when tracing is off, the buffer is missing, or this CPU
 * is outside tracing_cpumask.  Call with preemption disabled.
 */
bool notrace rt_recording(void)
{
	return READ_ONCE(rt_tracing_enabled) && rt_buffer &&
	       cpumask_test_cpu(raw_smp_processor_id(), rt_cpumask);
}
EXPORT_SYMBOL_GPL(rt_recording);

/* Fill the common header: context flags as the traced code saw them. */
void notrace rt_fill_header(struct rt_entry *e, unsigned int type,
			    unsigned long pc)
{
	u8 flags = 0;

	if (irqs_disabled())
		flags |= RT_FLAG_IRQS_OFF;
	if (tif_need_resched())
		flags |= RT_FLAG_NEED_RESCHED;
	if (pc & HARDIRQ_MASK)
		flags |= RT_FLAG_HARDIRQ;
	if (pc & SOFTIRQ_OFFSET)
		flags |= RT_FLAG_SOFTIRQ;
	if (pc & NMI_MASK)
		flags |= RT_FLAG_NMI;
	e->type = type;
	e->flags = flags;
	e->preempt_count = pc & PREEMPT_MASK;
	e->pid = current->pid;
}

/**
 * rt_reserve_entry - reserve a record and fill its common header
 * @type: record type
 * @len: total bytes including struct rt_entry
 * @pc: preempt_count() before the caller disabled preemption
 *
 * For producers that already disabled preemption and checked
 * rt_recording() (trace_printk formats in between).
 *
 * Return: the record, or NULL if the buffer refused it.  On success
 * call rt_commit() on the same CPU.
 */
void *notrace rt_reserve_entry(unsigned int type, unsigned int len,
			       unsigned long pc)
{
	struct rt_entry *e = rt_buffer_reserve(rt_buffer, len);

	if (e) {
		rt_fill_header(e, type, pc);
		rt_save_comm(current);
	}
	return e;
}
EXPORT_SYMBOL_GPL(rt_reserve_entry);

/**
 * rt_reserve - reserve a record of @type in the shared buffer
 * @type: record type
 * @len: total bytes including struct rt_entry
 *
 * Return: the record with its header filled, or NULL if it is not to
 * be recorded.  On success call rt_commit() on the same CPU.
 */
void *notrace rt_reserve(unsigned int type, unsigned int len)
{
	unsigned long pc = preempt_count();
	void *e = NULL;

	preempt_disable_notrace();
	if (rt_recording())
		e = rt_reserve_entry(type, len, pc);
	preempt_enable_notrace();
	return e;
}
EXPORT_SYMBOL_GPL(rt_reserve);

/**
 * rt_record_copy - put a finished record into the buffer
 * @rec: the record, its struct rt_entry header already filled
 * @len: total bytes
 *
 * The write path of producers that build a record in a scratch area
 * first (events, whose filter looks at the whole record).  Call with
 * preemption disabled, after rt_recording() said yes.
 *
 * Return: true if the buffer took it.
 */
bool notrace rt_record_copy(const void *rec, unsigned int len)
{
	void *dst = rt_buffer_reserve(rt_buffer, len);

	if (!dst)
		return false;
	memcpy(dst, rec, len);
	rt_save_comm(current);
	rt_buffer_commit(rt_buffer);
	return true;
}
EXPORT_SYMBOL_GPL(rt_record_copy);

/**
 * rt_commit - publish the record reserved by rt_reserve()
 */
void notrace rt_commit(void)
{
	rt_buffer_commit(rt_buffer);
}
EXPORT_SYMBOL_GPL(rt_commit);

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
 * Records of that type still in the buffer print as unknown.
 */
void rt_unregister_event_type(struct rt_event_type *et)
{
	mutex_lock(&rt_types_lock);
	if (et->type < RT_TYPE_MAX && rt_event_types[et->type] == et)
		WRITE_ONCE(rt_event_types[et->type], NULL);
	mutex_unlock(&rt_types_lock);
	synchronize_rcu();
}
EXPORT_SYMBOL_GPL(rt_unregister_event_type);

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
	list_add_tail(&t->list, &rt_tracers);
	mutex_unlock(&rt_trace_lock);
	return 0;
}
EXPORT_SYMBOL_GPL(rt_register_tracer);

/**
 * rt_unregister_tracer - remove a tracer, e.g. when its module unloads
 * @t: a tracer added with rt_register_tracer()
 *
 * If it is the current tracer, tracing falls back to nop first.
 */
void rt_unregister_tracer(struct rt_tracer *t)
{
	mutex_lock(&rt_trace_lock);
	if (rt_current == t)
		rt_set_tracer("nop");
	list_del(&t->list);
	mutex_unlock(&rt_trace_lock);
}
EXPORT_SYMBOL_GPL(rt_unregister_tracer);

const char *rt_current_tracer_name(void)
{
	return rt_current ? rt_current->name : "nop";
}

bool rt_tracer_is_nop(void)
{
	return !rt_current || !strcmp(rt_current->name, "nop");
}

void rt_walk_tracers(rt_tracer_fn fn, void *arg)
{
	struct rt_tracer *t;

	list_for_each_entry(t, &rt_tracers, list)
		fn(t, arg);
}

/* Switch tracers; caller holds rt_trace_lock.  */
int rt_set_tracer(const char *name)
{
	struct rt_tracer *t, *found = NULL;
	int ret;

	lockdep_assert_held(&rt_trace_lock);
	list_for_each_entry(t, &rt_tracers, list)
		if (!strcmp(t->name, name))
			found = t;
	if (!found)
		return -EINVAL;
	if (found == rt_current)
		return 0;
	if (rt_current && rt_current->reset)
		rt_current->reset();
	rt_current = NULL;
	atomic_inc(&rt_tracer_generation);
	ret = found->init ? found->init() : 0;
	if (ret) {
		/* Fall back to nop rather than half of a tracer. */
		rt_set_tracer("nop");
		return ret;
	}
	rt_current = found;
	return 0;
}

void rt_tracer_print_header(struct seq_buf *s)
{
	if (rt_current && rt_current->print_header)
		rt_current->print_header(s);
}

unsigned long rt_max_latency_usecs(void)
{
	return READ_ONCE(rt_max_latency);
}

void rt_set_max_latency_usecs(unsigned long v)
{
	WRITE_ONCE(rt_max_latency, v);
}

/**
 * rt_tracing_dir - the tracing directory units add their files to
 *
 * Return: the directory; valid from fs_initcall_sync on, which is
 * where layers above the core register (events), and device_initcall
 * for tracers and producers.
 */
struct dentry *rt_tracing_dir(void)
{
	return rt_dir;
}
EXPORT_SYMBOL_GPL(rt_tracing_dir);

static struct rt_tracer rt_nop_tracer = {
	.name = "nop",
};

static int __init rt_core_init(void)
{
	if (!zalloc_cpumask_var(&rt_cpumask, GFP_KERNEL))
		return -ENOMEM;
	cpumask_copy(rt_cpumask, cpu_possible_mask);

	rt_buffer = rt_buffer_alloc(RT_DEFAULT_BUFFER_BYTES,
				    rt_opt(RT_OPT_OVERWRITE));
	if (!rt_buffer) {
		pr_err("cannot allocate the trace buffer\n");
		return -ENOMEM;
	}
	rt_register_tracer(&rt_nop_tracer);
	rt_current = &rt_nop_tracer;

	/* The core's own files; every other unit adds its own later. */
	rt_dir = debugfs_create_dir("tracing", NULL);
	rt_create_control_files(rt_dir);
	rt_create_output_files(rt_dir);
	rt_create_print_files(rt_dir);
	pr_info("tracing ready, %lu KiB per CPU\n",
		rt_buffer_size(rt_buffer) >> 10);
	return 0;
}
fs_initcall(rt_core_init);
