// SPDX-License-Identifier: GPL-2.0
/*
 * Selftest helper for the function_graph tracer: a module whose
 * functions are instrumented like any other module's.
 *   recurse=N   rt_graph_test_recurse() calls itself N deep (return
 *               stack overflow)
 *   sleep_us=N  rt_graph_test_sleep() sleeps N us (overhead marks)
 *   comment=N   rt_graph_test_comment() runs N times; each writes a
 *               trace_printk() inside its own graph
 *   stack       reading it returns the stack trace taken inside
 *               rt_graph_test_stack_leaf(), called by
 *               rt_graph_test_stack_outer(): with both graphed, the
 *               unwinder must see through their hooked returns
 *   tailstack   the same, through rt_graph_test_tail(), which tail-calls
 *               rt_graph_test_stack_outer(): two hooked frames, one slot
 *   calls       rt_graph_test_leaf() calls made so far (run=N makes N)
 */
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/stacktrace.h>

static int rt_graph_test_sink;
static unsigned long rt_graph_test_calls;

static noinline int rt_graph_test_recurse(int n)
{
	int r;

	if (n <= 0)
		return 0;
	WRITE_ONCE(rt_graph_test_sink, n);
	r = rt_graph_test_recurse(n - 1);
	/* A store after the call keeps gcc from making this a loop. */
	WRITE_ONCE(rt_graph_test_sink, r);
	return r + 1;
}

static noinline void rt_graph_test_sleep(unsigned int us)
{
	usleep_range(us, us + 20);
}

static noinline void rt_graph_test_comment(unsigned int i)
{
	trace_printk("rt_graph_test comment %u\n", i);
	barrier();
}

static noinline void rt_graph_test_leaf(void)
{
	WRITE_ONCE(rt_graph_test_calls, rt_graph_test_calls + 1);
}

/* The buffer is a sysfs page: PAGE_SIZE bytes. */
static noinline int rt_graph_test_stack_leaf(char *buf)
{
	unsigned long entries[24];
	unsigned int n = stack_trace_save(entries, ARRAY_SIZE(entries), 0);
	int len = stack_trace_snprint(buf, PAGE_SIZE, entries, n, 0);

	barrier();
	return len;
}

static noinline int rt_graph_test_stack_outer(char *buf)
{
	int len = rt_graph_test_stack_leaf(buf);

	barrier();
	return len;
}

/* Each "set" parameter runs its function N times or with N. */
static int rt_graph_test_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n, i;
	int ret = kstrtouint(val, 0, &n);
	long what = (long)kp->arg;

	if (ret)
		return ret;
	switch (what) {
	case 0:
		if (n > 1000)
			return -EINVAL;
		rt_graph_test_recurse(n);
		break;
	case 1:
		if (n > 1000000)
			return -EINVAL;
		rt_graph_test_sleep(n);
		break;
	case 2:
		for (i = 0; i < n; i++)
			rt_graph_test_comment(i);
		break;
	case 3:
		for (i = 0; i < n; i++)
			rt_graph_test_leaf();
		break;
	}
	return 0;
}

static const struct kernel_param_ops rt_graph_test_set_ops = {
	.set = rt_graph_test_set,
};

module_param_cb(recurse, &rt_graph_test_set_ops, (void *)0, 0200);
module_param_cb(sleep_us, &rt_graph_test_set_ops, (void *)1, 0200);
module_param_cb(comment, &rt_graph_test_set_ops, (void *)2, 0200);
module_param_cb(run, &rt_graph_test_set_ops, (void *)3, 0200);
module_param_named(calls, rt_graph_test_calls, ulong, 0444);

static int rt_graph_test_get_stack(char *buf, const struct kernel_param *kp)
{
	int len = rt_graph_test_stack_outer(buf);

	/* Not a tail call: this function keeps its own frame. */
	barrier();
	return len;
}

static const struct kernel_param_ops rt_graph_test_stack_ops = {
	.get = rt_graph_test_get_stack,
};
module_param_cb(stack, &rt_graph_test_stack_ops, NULL, 0444);

/* A tail call: this function and stack_outer share one return slot. */
static noinline int rt_graph_test_tail(char *buf)
{
	return rt_graph_test_stack_outer(buf);
}

static int rt_graph_test_get_tailstack(char *buf, const struct kernel_param *kp)
{
	int len = rt_graph_test_tail(buf);

	barrier();
	return len;
}

static const struct kernel_param_ops rt_graph_test_tailstack_ops = {
	.get = rt_graph_test_get_tailstack,
};
module_param_cb(tailstack, &rt_graph_test_tailstack_ops, NULL, 0444);

MODULE_DESCRIPTION("retrace function_graph selftest helper");
MODULE_LICENSE("GPL");
