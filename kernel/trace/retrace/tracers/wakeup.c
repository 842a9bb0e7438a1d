// SPDX-License-Identifier: GPL-2.0
/*
 * The wakeup and wakeup_rt tracers: the longest time from the wakeup of
 * the highest-priority task (wakeup_rt: of a real-time task) until it
 * runs.
 *
 * Probes on the scheduler's tracepoints do the timing.  sched_wakeup and
 * sched_wakeup_new fire where the woken task is made runnable (the
 * waker's CPU, or the target CPU when the wakeup was queued to it),
 * sched_switch on the CPU switching; all of them with interrupts off and
 * a scheduler lock held, on any number of CPUs at once.  One task is
 * timed at a time, and what describes it is under rt_wk_lock, a raw
 * spinlock:
 *
 *   rt_wk_task    the task being timed, holding a reference; NULL: none.
 *                 Written under the lock; the probes' fast paths read it
 *                 with READ_ONCE() and check again under the lock.
 *   rt_wk_prio    its priority at wakeup (lower is more urgent); read
 *                 without the lock only to skip wakeups early.
 *   rt_wk_start   the clock at its wakeup.
 *   rt_wk_tree_ns time the sched-tree option spent at the wakeup,
 *                 taken off the latency.
 *   rt_wk_info    its description for the header, taken at wakeup, with
 *                 start_cpu the CPU whose ring holds the wakeup record.
 *   rt_wk_on      true once all three probes are attached, false once
 *                 reset began: timings start only in between.
 *
 * A wakeup starts a timing when the woken task is more urgent than the
 * task running where the tracepoint fires and than the task being timed,
 * which it replaces.  The switch to the timed task ends the timing on
 * the CPU switching; if it beats tracing_max_latency, the report names
 * both CPUs (wakeup and switch), whose rings the core moves into the max
 * buffer.  A function record is written at the wakeup and, for a new
 * max, at the switch, each naming the scheduler function and its
 * caller.
 *
 * A task is freed only after its last reference is dropped, so the
 * pointer compared in sched_switch cannot name a new task at a recycled
 * address while it is being timed.
 */
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/sched.h>
#include <linux/sched/rt.h>
#include <linux/sched/task.h>
#include <linux/spinlock.h>
#include <linux/stacktrace.h>
#include <linux/tracepoint.h>
#include <trace/events/sched.h>
#include <trace/retrace/core.h>
#include "function.h"
#include "sched_tree.h"

static DEFINE_RAW_SPINLOCK(rt_wk_lock);
static struct task_struct *rt_wk_task;
static int rt_wk_prio;
static u64 rt_wk_start;
static u64 rt_wk_tree_ns;
static struct rt_max_info rt_wk_info;
static bool rt_wk_on;

/* Set by init before the probes are attached. */
static struct rt_instance *rt_wk_tr;
static bool rt_wk_rt_only;
static bool rt_wk_saved_latfmt;

/* An out-of-line copy of a tracepoint's trace_NAME() wrapper. */
static bool rt_wk_is_wrapper(unsigned long ip)
{
	char name[KSYM_NAME_LEN];

	return !lookup_symbol_name(ip, name) &&
	       (str_has_prefix(name, "trace_sched_") ||
		str_has_prefix(name, "__traceiter_sched_"));
}

/*
 * Where the scheduler fired the tracepoint, and its caller, from @ip,
 * the probe's return address.  Found by unwinding, as without frame
 * pointers nothing cheaper is reliable; a kernel that did not inline
 * the trace_sched_*() wrapper has it as one more frame, skipped.
 */
static void rt_wk_where(unsigned long ip, unsigned long *site,
			unsigned long *parent)
{
	unsigned long st[10];
	unsigned int i, n;

	*site = ip;
	*parent = 0;
	n = stack_trace_save(st, ARRAY_SIZE(st), 0);
	for (i = 0; i < n && st[i] != ip; i++)
		;
	while (i + 2 < n && rt_wk_is_wrapper(st[i]))
		i++;
	if (i + 1 < n) {
		*site = st[i];
		*parent = st[i + 1];
	}
}

/* A function record: @site and its caller @parent (rt_wk_where()). */
static void rt_wk_record(unsigned long site, unsigned long parent)
{
	struct rt_function_entry *e;
	struct rt_handle h;

	if (!rt_recording(rt_wk_tr))
		return;
	e = rt_reserve_entry(rt_wk_tr, &h, RT_TYPE_FUNCTION, sizeof(*e),
			     preempt_count());
	if (!e)
		return;
	e->ip = site;
	e->parent_ip = parent;
	rt_commit(&h);
}

static bool rt_wk_wanted(struct task_struct *p)
{
	if (rt_wk_rt_only && !rt_task(p))
		return false;
	/* Not more urgent than what runs here: it has to wait anyway. */
	if (p->prio >= current->prio)
		return false;
	/* Woken while still running: no switch to it will end the timing. */
	if (READ_ONCE(p->on_cpu))
		return false;
	return !READ_ONCE(rt_wk_task) || p->prio < READ_ONCE(rt_wk_prio);
}

static void rt_wk_start_timing(struct task_struct *p, unsigned long ip)
{
	struct task_struct *old = NULL;
	unsigned long flags, site, parent;

	if (!rt_wk_wanted(p))
		return;
	/* Unwound before the lock: it is the slow part. */
	rt_wk_where(ip, &site, &parent);
	raw_spin_lock_irqsave(&rt_wk_lock, flags);
	if (READ_ONCE(rt_wk_on) && rt_wk_wanted(p)) {
		old = rt_wk_task;
		get_task_struct(p);
		WRITE_ONCE(rt_wk_task, p);
		WRITE_ONCE(rt_wk_prio, p->prio);
		rt_wk_start = rt_clock_local();
		rt_wk_tree_ns = 0;
		rt_max_fill_task(&rt_wk_info, p);
		rt_wk_info.start_cpu = smp_processor_id();
		rt_wk_record(site, parent);
		/* Where the wakeup's record is, for the snapshot. */
		rt_wk_info.start_ring = rt_buffer_ring_id(rt_wk_tr->buffer,
							  rt_wk_info.start_cpu);
		/* The walk is the tracer's time, not the wakee's latency. */
		rt_wk_tree_ns = rt_clock_local();
		rt_sched_tree_record(rt_wk_tr, task_cpu(p));
		rt_wk_tree_ns = rt_clock_local() - rt_wk_tree_ns;
	}
	raw_spin_unlock_irqrestore(&rt_wk_lock, flags);
	/* Outside PREEMPT_RT a task may be freed in any context. */
	if (old)
		put_task_struct(old);
}

static void notrace rt_wk_probe_wakeup(void *data, struct task_struct *p)
{
	rt_wk_start_timing(p, _RET_IP_);
}

static void notrace rt_wk_probe_switch(void *data, bool preempt,
				       struct task_struct *prev,
				       struct task_struct *next,
				       unsigned int prev_state)
{
	unsigned long flags, site, parent;
	struct rt_max_info info;
	u64 now, delta;

	if (next != READ_ONCE(rt_wk_task))
		return;
	rt_wk_where(_RET_IP_, &site, &parent);
	raw_spin_lock_irqsave(&rt_wk_lock, flags);
	if (next != rt_wk_task) {
		raw_spin_unlock_irqrestore(&rt_wk_lock, flags);
		return;
	}
	now = rt_clock_local() - rt_wk_tree_ns;
	/*
	 * Started on another CPU's clock: sched_clock() promises no bound
	 * between CPUs, and a wakeup seemingly after its switch is no max.
	 */
	delta = now - rt_wk_start;
	if ((s64)delta > 0 && rt_max_beats(rt_wk_tr, delta)) {
		rt_wk_record(site, parent);
		rt_sched_tree_record(rt_wk_tr, smp_processor_id());
		info = rt_wk_info;
		info.latency_ns = delta;
		info.start_ts = rt_wk_start;
		info.end_ts = rt_clock_local();
		info.cpu = smp_processor_id();
		info.start_ip = 0;
		info.end_ip = 0;
		rt_max_report(rt_wk_tr, &info);
	}
	WRITE_ONCE(rt_wk_task, NULL);
	raw_spin_unlock_irqrestore(&rt_wk_lock, flags);
	/* @next is running: this is not its last reference. */
	put_task_struct(next);
}

/* Stop timing and drop the task held, if any. */
static void rt_wk_forget(void)
{
	struct task_struct *old;
	unsigned long flags;

	raw_spin_lock_irqsave(&rt_wk_lock, flags);
	old = rt_wk_task;
	WRITE_ONCE(rt_wk_task, NULL);
	raw_spin_unlock_irqrestore(&rt_wk_lock, flags);
	if (old)
		put_task_struct(old);
}

static void rt_wk_detach(void)
{
	unregister_trace_sched_switch(rt_wk_probe_switch, NULL);
	unregister_trace_sched_wakeup_new(rt_wk_probe_wakeup, NULL);
	unregister_trace_sched_wakeup(rt_wk_probe_wakeup, NULL);
	/* No probe runs after this, so none can take a task again. */
	tracepoint_synchronize_unregister();
}

static int rt_wk_init(struct rt_instance *tr, bool rt_only)
{
	int ret;

	ret = rt_max_prepare(tr);
	if (ret)
		return ret;
	rt_wk_tr = tr;
	rt_wk_rt_only = rt_only;
	rt_wk_saved_latfmt = rt_opt(tr, RT_OPT_LATENCY_FMT);
	set_bit(RT_OPT_LATENCY_FMT, &tr->options);
	/*
	 * The switch probe first, and timings only once all are attached:
	 * a task woken before its switch could be seen would stay timed,
	 * and its next run would report a bogus latency.
	 */
	ret = register_trace_sched_switch(rt_wk_probe_switch, NULL);
	if (!ret)
		ret = register_trace_sched_wakeup(rt_wk_probe_wakeup, NULL);
	if (!ret)
		ret = register_trace_sched_wakeup_new(rt_wk_probe_wakeup, NULL);
	if (!ret)
		WRITE_ONCE(rt_wk_on, true);
	if (ret) {
		/* Unregistering a probe never attached only returns -ENOENT. */
		rt_wk_detach();
		rt_wk_forget();
		if (!rt_wk_saved_latfmt)
			clear_bit(RT_OPT_LATENCY_FMT, &tr->options);
	}
	return ret;
}

static void rt_wk_reset(struct rt_instance *tr)
{
	WRITE_ONCE(rt_wk_on, false);
	rt_wk_detach();
	rt_wk_forget();
	rt_max_sync(tr);
	if (!rt_wk_saved_latfmt)
		clear_bit(RT_OPT_LATENCY_FMT, &tr->options);
}

static int rt_wakeup_init(struct rt_instance *tr)
{
	return rt_wk_init(tr, false);
}

static int rt_wakeup_rt_init(struct rt_instance *tr)
{
	return rt_wk_init(tr, true);
}

static struct rt_tracer rt_wakeup_tracer = {
	.name		= "wakeup",
	.init		= rt_wakeup_init,
	.reset		= rt_wk_reset,
	.use_max	= true,
};

static struct rt_tracer rt_wakeup_rt_tracer = {
	.name		= "wakeup_rt",
	.init		= rt_wakeup_rt_init,
	.reset		= rt_wk_reset,
	.use_max	= true,
};

static int __init rt_wakeup_register(void)
{
	int ret = rt_register_tracer(&rt_wakeup_tracer);

	if (!ret)
		ret = rt_register_tracer(&rt_wakeup_rt_tracer);
	return ret;
}
device_initcall(rt_wakeup_register);
