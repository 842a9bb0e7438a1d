// SPDX-License-Identifier: GPL-2.0
/*
 * Selftest helper for the latency tracers: writing N to "irqs_off_us"
 * keeps interrupts off for N microseconds in rt_lat_test_irqs_off(),
 * and writing N to "preempt_off_us" keeps preemption off (interrupts
 * on) for N microseconds in rt_lat_test_preempt_off(), so tests know
 * the section, its length and the function that both starts and ends
 * it.  Inside each section it calls rt_lat_test_inside(), a traceable
 * function (this module is built with the function tracer's sites).
 *
 * Writing N to "wake_rt_us" (or "wake_normal_us") wakes a kernel thread
 * named rt_lat_rt, SCHED_FIFO priority 50 (or rt_lat_normal, SCHED_NORMAL
 * nice -5), bound to the writer's CPU, while preemption is off there for
 * N more microseconds: the thread's wakeup latency is at least N.
 */
#include <linux/cpumask.h>
#include <linux/irqflags.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>

/* Called inside each section: the function tracer sees it. */
static noinline void rt_lat_test_inside(void)
{
	barrier();
}

/*
 * Spin @us on the tracers' own clock: sched_clock(), which
 * rt_clock_local() reads.  mdelay() is calibrated against the TSC once
 * at boot, and under TCG that calibration can disagree with the clock
 * by a percent: a 30000 us mdelay() was measured as a 29802 us section,
 * failing "max >= 30000".  Not local_clock(): once the TSC is marked
 * unstable (a busy TCG host trips the clocksource watchdog), it stops
 * a tick past the last tick on a CPU with interrupts off, and the spin
 * would never end.  sched_clock() is not traced, so the section holds
 * no call but rt_lat_test_inside().
 */
static __always_inline void rt_lat_test_spin(unsigned int us)
{
	u64 end = sched_clock() + (u64)us * NSEC_PER_USEC;

	while (sched_clock() < end)
		cpu_relax();
}

static noinline void rt_lat_test_irqs_off(unsigned int us)
{
	unsigned long flags;

	local_irq_save(flags);
	rt_lat_test_inside();
	rt_lat_test_spin(us);
	local_irq_restore(flags);
}

static noinline void rt_lat_test_preempt_off(unsigned int us)
{
	preempt_disable();
	rt_lat_test_inside();
	rt_lat_test_spin(us);
	preempt_enable();
}

static int rt_lat_test_sleeper(void *unused)
{
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

/* Wake a new thread on this CPU, then keep it waiting @us. */
static noinline int rt_lat_test_wake(unsigned int us, bool rt)
{
	struct task_struct *t;
	cpumask_var_t saved;
	int cpu, ret;

	if (!alloc_cpumask_var(&saved, GFP_KERNEL))
		return -ENOMEM;
	t = kthread_create(rt_lat_test_sleeper, NULL,
			   rt ? "rt_lat_rt" : "rt_lat_normal");
	if (IS_ERR(t)) {
		free_cpumask_var(saved);
		return PTR_ERR(t);
	}
	get_task_struct(t);
	if (rt)
		sched_set_fifo(t);
	else
		sched_set_normal(t, -5);
	/* Both on one CPU, so the thread can only run once we let it. */
	cpumask_copy(saved, current->cpus_ptr);
	cpu = raw_smp_processor_id();
	kthread_bind(t, cpu);
	ret = set_cpus_allowed_ptr(current, cpumask_of(cpu));
	if (!ret) {
		preempt_disable();
		wake_up_process(t);
		rt_lat_test_spin(us);
		preempt_enable();
		set_cpus_allowed_ptr(current, saved);
	} else {
		wake_up_process(t);
	}
	kthread_stop(t);
	put_task_struct(t);
	free_cpumask_var(saved);
	return ret;
}

/*
 * A section length in microseconds, at most 2 s: under TCG a host stall
 * can make an ordinary section last over half a second, and a test must
 * be able to outlast it (the RCU and soft-lockup watchdogs wait 20 s).
 */
static int rt_lat_test_us(const char *val, unsigned int *us)
{
	int ret = kstrtouint(val, 0, us);

	if (ret)
		return ret;
	return *us > 2000000 ? -EINVAL : 0;
}

static int rt_lat_test_set_irqs(const char *val, const struct kernel_param *kp)
{
	unsigned int us;
	int ret = rt_lat_test_us(val, &us);

	if (!ret)
		rt_lat_test_irqs_off(us);
	return ret;
}

static int rt_lat_test_set_preempt(const char *val,
				   const struct kernel_param *kp)
{
	unsigned int us;
	int ret = rt_lat_test_us(val, &us);

	if (!ret)
		rt_lat_test_preempt_off(us);
	return ret;
}

static int rt_lat_test_set_wake_rt(const char *val,
				   const struct kernel_param *kp)
{
	unsigned int us;
	int ret = rt_lat_test_us(val, &us);

	return ret ? ret : rt_lat_test_wake(us, true);
}

static int rt_lat_test_set_wake_normal(const char *val,
				       const struct kernel_param *kp)
{
	unsigned int us;
	int ret = rt_lat_test_us(val, &us);

	return ret ? ret : rt_lat_test_wake(us, false);
}

static const struct kernel_param_ops rt_lat_test_irqs_ops = {
	.set = rt_lat_test_set_irqs,
};
module_param_cb(irqs_off_us, &rt_lat_test_irqs_ops, NULL, 0200);

static const struct kernel_param_ops rt_lat_test_preempt_ops = {
	.set = rt_lat_test_set_preempt,
};
module_param_cb(preempt_off_us, &rt_lat_test_preempt_ops, NULL, 0200);

static const struct kernel_param_ops rt_lat_test_wake_rt_ops = {
	.set = rt_lat_test_set_wake_rt,
};
module_param_cb(wake_rt_us, &rt_lat_test_wake_rt_ops, NULL, 0200);

static const struct kernel_param_ops rt_lat_test_wake_normal_ops = {
	.set = rt_lat_test_set_wake_normal,
};
module_param_cb(wake_normal_us, &rt_lat_test_wake_normal_ops, NULL, 0200);

MODULE_DESCRIPTION("retrace selftest: known interrupts-off, preemption-off and wakeup latencies");
MODULE_LICENSE("GPL");
