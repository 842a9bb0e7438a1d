// SPDX-License-Identifier: GPL-2.0
/*
 * The irqsoff, preemptoff and preemptirqsoff tracers: the longest time
 * a CPU ran with interrupts off, preemption off, or either.
 *
 * A section starts when the watched state goes off while the others
 * watched are on, and ends when the last of them comes back on; the
 * latency hooks (hooks/latency_hooks.c) report each transition, with
 * interrupts or preemption off, on the CPU it happens on.  A section
 * writes a function record where it starts and one where it ends, and
 * with ftrace_enabled the functions run in between (the function
 * tracer's sites, gated per CPU: rt_fn_gated_start()); if it beats
 * tracing_max_latency it is reported to the core
 * (rt_max_report()), which moves the CPU's ring into the max buffer
 * for "trace" to show.
 *
 * Per-CPU state (struct rt_lat_cpu) is written only by its own CPU,
 * from the hooks, which never nest (the hooks drop a transition inside
 * a callback), so it needs no atomics.  @rt_lat_tr and @rt_lat_mode are
 * written by init before the hooks are registered and read by them
 * afterwards; reset unregisters the hooks (which waits for callbacks
 * in flight) before anything else.
 */
#include <linux/hardirq.h>
#include <linux/irqflags.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <trace/retrace/core.h>
#include <trace/retrace/latency_client.h>
#include "function.h"

/* The same bits as the function tracer's gate (RT_FN_GATE_*). */
#define RT_LAT_IRQS	RT_FN_GATE_IRQS
#define RT_LAT_PREEMPT	RT_FN_GATE_PREEMPT

struct rt_lat_cpu {
	bool		active;		/* a section is being timed */
	u64		start;		/* when it began (buffer clock) */
	unsigned long	start_ip;	/* where */
};

static DEFINE_PER_CPU(struct rt_lat_cpu, rt_lat_cpus);
static struct rt_instance *rt_lat_tr;
static int rt_lat_mode;
static bool rt_lat_saved_latfmt;

static __always_inline bool rt_lat_preempt_watched(void)
{
	return (rt_lat_mode & RT_LAT_PREEMPT) && preempt_count();
}

static __always_inline bool rt_lat_irqs_watched(void)
{
	return (rt_lat_mode & RT_LAT_IRQS) && irqs_disabled();
}

/*
 * One function record: @ip is where, @parent_ip its caller if known;
 * @irqs_on: interrupts were on, though the caller turned them off
 * since.
 */
static void notrace rt_lat_record(unsigned long ip, unsigned long parent_ip,
				  bool irqs_on)
{
	struct rt_instance *tr = rt_lat_tr;
	struct rt_function_entry *e;
	struct rt_handle h;

	if (!rt_recording(tr))
		return;
	e = rt_reserve_entry(tr, &h, RT_TYPE_FUNCTION, sizeof(*e),
			     preempt_count());
	if (!e)
		return;
	e->ip = ip;
	e->parent_ip = parent_ip;
	if (irqs_on)
		e->ent.flags &= ~RT_FLAG_IRQS_OFF;
	rt_commit(&h);
}

/*
 * Called on a transition from "all watched states on" (or on leaving
 * the idle halt): a section still marked active here lost its end to
 * a path that is not hooked, so it is dropped and this one starts.
 */
static void notrace rt_lat_start(unsigned long ip)
{
	struct rt_lat_cpu *c = this_cpu_ptr(&rt_lat_cpus);

	if (in_nmi())
		return;
	c->start = rt_clock_local();
	c->start_ip = ip;
	c->active = true;
	rt_lat_record(ip, ip, false);
	this_cpu_write(rt_fn_gate, rt_lat_mode);
}

static void notrace rt_lat_stop(unsigned long ip)
{
	struct rt_lat_cpu *c = this_cpu_ptr(&rt_lat_cpus);
	struct rt_max_info info;
	unsigned long flags;
	u64 now;

	if (!c->active || in_nmi())
		return;
	this_cpu_write(rt_fn_gate, 0);
	c->active = false;
	now = rt_clock_local();
	if (!rt_max_beats(rt_lat_tr, now - c->start))
		return;
	/*
	 * A preemption-off section ends with interrupts on: keep them off
	 * from the end record to the report, so that no swap of this CPU
	 * (an IPI) moves the ring between them (rt_max_report()).  Not
	 * raw: lockdep must know, as for the lock rt_max_report() takes;
	 * the hooks drop this transition, being inside one.
	 */
	local_irq_save(flags);
	rt_lat_record(ip, ip, !irqs_disabled_flags(flags));
	info.latency_ns = now - c->start;
	info.start_ts = c->start;
	info.end_ts = rt_clock_local();
	info.cpu = smp_processor_id();
	info.start_cpu = info.cpu;
	info.start_ring = 0;	/* unused: the section began on this CPU */
	info.start_ip = c->start_ip;
	info.end_ip = ip;
	rt_max_fill_task(&info, current);
	rt_max_report(rt_lat_tr, &info);
	local_irq_restore(flags);
}

static void notrace rt_lat_irqs_off(unsigned long ip)
{
	if (!rt_lat_preempt_watched())
		rt_lat_start(ip);
}

static void notrace rt_lat_irqs_on(unsigned long ip)
{
	if (!rt_lat_preempt_watched())
		rt_lat_stop(ip);
}

/* The preemption hooks report the count leaving or reaching zero. */
static void notrace rt_lat_preempt_off(unsigned long ip)
{
	if (!rt_lat_irqs_watched())
		rt_lat_start(ip);
}

static void notrace rt_lat_preempt_on(unsigned long ip)
{
	if (!rt_lat_irqs_watched())
		rt_lat_stop(ip);
}

/* A halt in the idle loop ends the section; leaving it starts one. */
static void notrace rt_lat_idle(bool enter)
{
	if (enter)
		rt_lat_stop(_RET_IP_);
	else if (rt_lat_irqs_watched() || rt_lat_preempt_watched())
		rt_lat_start(_RET_IP_);
}

static const struct rt_latency_client rt_lat_irqs_client = {
	.irqs_off	= rt_lat_irqs_off,
	.irqs_on	= rt_lat_irqs_on,
	.idle		= rt_lat_idle,
};

static const struct rt_latency_client rt_lat_preempt_client = {
	.preempt_off	= rt_lat_preempt_off,
	.preempt_on	= rt_lat_preempt_on,
	.idle		= rt_lat_idle,
};

static const struct rt_latency_client rt_lat_both_client = {
	.irqs_off	= rt_lat_irqs_off,
	.irqs_on	= rt_lat_irqs_on,
	.preempt_off	= rt_lat_preempt_off,
	.preempt_on	= rt_lat_preempt_on,
	.idle		= rt_lat_idle,
};

static const struct rt_latency_client *rt_lat_client_of(int mode)
{
	if (mode == RT_LAT_IRQS)
		return &rt_lat_irqs_client;
	if (mode == RT_LAT_PREEMPT)
		return &rt_lat_preempt_client;
	return &rt_lat_both_client;
}

static int rt_lat_init(struct rt_instance *tr, int mode)
{
	int cpu, ret;

	ret = rt_max_prepare(tr);
	if (ret)
		return ret;
	for_each_possible_cpu(cpu) {
		per_cpu(rt_lat_cpus, cpu).active = false;
		WRITE_ONCE(per_cpu(rt_fn_gate, cpu), 0);
	}
	/*
	 * Sites first, gates all closed: the stop_machine() that patches
	 * them would otherwise be measured as a section.
	 */
	ret = rt_fn_gated_start(tr);
	if (ret)
		return ret;
	rt_lat_tr = tr;
	rt_lat_mode = mode;
	/* Like upstream, these tracers print in the latency format. */
	rt_lat_saved_latfmt = rt_opt(tr, RT_OPT_LATENCY_FMT);
	set_bit(RT_OPT_LATENCY_FMT, &tr->options);
	ret = rt_latency_hooks_register(rt_lat_client_of(mode));
	if (ret) {
		rt_fn_gated_stop();
		if (!rt_lat_saved_latfmt)
			clear_bit(RT_OPT_LATENCY_FMT, &tr->options);
	}
	return ret;
}

static void rt_lat_reset(struct rt_instance *tr)
{
	int cpu;

	/* Hooks off first: unpatching the sites stops every CPU. */
	rt_latency_hooks_unregister(rt_lat_client_of(rt_lat_mode));
	for_each_possible_cpu(cpu)
		WRITE_ONCE(per_cpu(rt_fn_gate, cpu), 0);
	rt_fn_gated_stop();
	rt_max_sync(tr);
	if (!rt_lat_saved_latfmt)
		clear_bit(RT_OPT_LATENCY_FMT, &tr->options);
}

static int rt_irqsoff_init(struct rt_instance *tr)
{
	return rt_lat_init(tr, RT_LAT_IRQS);
}

static int rt_preemptoff_init(struct rt_instance *tr)
{
	return rt_lat_init(tr, RT_LAT_PREEMPT);
}

static int rt_preemptirqsoff_init(struct rt_instance *tr)
{
	return rt_lat_init(tr, RT_LAT_IRQS | RT_LAT_PREEMPT);
}

static struct rt_tracer rt_irqsoff_tracer = {
	.name		= "irqsoff",
	.init		= rt_irqsoff_init,
	.reset		= rt_lat_reset,
	.use_max	= true,
};

static struct rt_tracer rt_preemptoff_tracer = {
	.name		= "preemptoff",
	.init		= rt_preemptoff_init,
	.reset		= rt_lat_reset,
	.use_max	= true,
};

static struct rt_tracer rt_preemptirqsoff_tracer = {
	.name		= "preemptirqsoff",
	.init		= rt_preemptirqsoff_init,
	.reset		= rt_lat_reset,
	.use_max	= true,
};

static int __init rt_irqsoff_register(void)
{
	int ret;

	ret = rt_register_tracer(&rt_irqsoff_tracer);
	if (!ret && IS_ENABLED(CONFIG_PREEMPTION))
		ret = rt_register_tracer(&rt_preemptoff_tracer);
	if (!ret && IS_ENABLED(CONFIG_PREEMPTION))
		ret = rt_register_tracer(&rt_preemptirqsoff_tracer);
	return ret;
}
device_initcall(rt_irqsoff_register);
