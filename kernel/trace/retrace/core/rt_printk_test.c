// SPDX-License-Identifier: GPL-2.0
/*
 * Selftest helper: calls trace_printk() once from task context and once
 * from a hard-irq hrtimer, so the selftests can look for both lines.
 * With off=1 it then calls tracing_off(); with dump=1, ftrace_dump().
 * Writing 1 to its oops parameter oopses the kernel on purpose (a NULL
 * write), for the ftrace_dump_on_oops boots of make check.
 * It also registers a do-nothing tracer, "rt_selftest", so tests can
 * switch current_tracer away from nop while it is loaded.  The tracer
 * owns two options: selftest-opt (on by default) and selftest-refuse,
 * which it refuses to set.  With fail_init=1 its init fails.
 */
#include <linux/completion.h>
#include <linux/hrtimer.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <trace/retrace/core.h>

static bool off;
module_param(off, bool, 0444);
static bool dump;
module_param(dump, bool, 0444);

/*
 * A deliberate oops: the dump-on-oops test's trigger.  Not KASAN-
 * checked, so it is the same page fault with KASAN as without (KASAN
 * would turn the NULL write into a general protection fault on the
 * shadow first).
 */
static noinline __no_sanitize_address void rt_printk_test_oops(void)
{
	trace_printk("retrace oops test: writing to NULL\n");
	*(volatile int *)NULL = 1;
}

static int rt_oops_set(const char *val, const struct kernel_param *kp)
{
	bool on;
	int ret = kstrtobool(val, &on);

	if (!ret && on)
		rt_printk_test_oops();
	return ret;
}

static const struct kernel_param_ops rt_oops_ops = {
	.set = rt_oops_set,
};
module_param_cb(oops, &rt_oops_ops, NULL, 0200);

static bool fail_init;
module_param(fail_init, bool, 0644);

static struct hrtimer rt_timer;

static int rt_selftest_init(struct rt_instance *tr)
{
	return fail_init ? -EBUSY : 0;
}

static int rt_selftest_set_opt(struct rt_instance *tr, unsigned int bit,
			       bool on)
{
	return bit == 1 && on ? -EPERM : 0;
}

static const struct rt_tracer_opt rt_selftest_opts[] = {
	{ .name = "selftest-opt", .bit = 0 },
	{ .name = "selftest-refuse", .bit = 1 },
	{ }
};

static struct rt_tracer rt_selftest_tracer = {
	.name = "rt_selftest",
	.init = rt_selftest_init,
	.opts = rt_selftest_opts,
	.default_opts = BIT(0),
	.set_opt = rt_selftest_set_opt,
};
static DECLARE_COMPLETION(rt_timer_done);

static noinline enum hrtimer_restart rt_printk_test_timer(struct hrtimer *t)
{
	trace_printk("printk from hardirq %d\n", 7);
	complete(&rt_timer_done);
	return HRTIMER_NORESTART;
}

static noinline void rt_printk_test_run(void)
{
	trace_printk("retrace printk test %d %s\n", 42, "ok");
}

static int __init rt_printk_test_init(void)
{
	rt_printk_test_run();
	hrtimer_init(&rt_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	rt_timer.function = rt_printk_test_timer;
	hrtimer_start(&rt_timer, ms_to_ktime(1), HRTIMER_MODE_REL_HARD);
	wait_for_completion(&rt_timer_done);
	if (!tracing_is_on())
		pr_err("rt_printk_test: tracing_is_on() is 0 before tracing_off()\n");
	if (off)
		tracing_off();
	if (dump)
		ftrace_dump(DUMP_ALL);
	return rt_register_tracer(&rt_selftest_tracer);
}
module_init(rt_printk_test_init);

static void __exit rt_printk_test_exit(void)
{
	rt_unregister_tracer(&rt_selftest_tracer);
	hrtimer_cancel(&rt_timer);
}
module_exit(rt_printk_test_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("retrace trace_printk selftest helper");
