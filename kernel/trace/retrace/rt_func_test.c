// SPDX-License-Identifier: GPL-2.0
/*
 * Selftest helper for the function tracer: a module whose functions are
 * instrumented like any other module's.  Writing N to the "run"
 * parameter calls rt_func_test_outer() N times, which calls
 * rt_func_test_leaf(), so tests can look for both in the trace and
 * check that a module's sites come and go with it.  With kprobe=1 it
 * also puts a kprobe on rt_func_test_leaf's entry (the call site) and
 * counts its hits in kprobe_hits, to check the two stay out of each
 * other's way.
 */
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

static unsigned long rt_func_test_calls;

static noinline void rt_func_test_leaf(unsigned long i)
{
	WRITE_ONCE(rt_func_test_calls, rt_func_test_calls + i);
}

static noinline void rt_func_test_outer(unsigned long i)
{
	rt_func_test_leaf(i);
	barrier();
}

static int rt_func_test_run(const char *val, const struct kernel_param *kp)
{
	unsigned int n, i;
	int ret = kstrtouint(val, 0, &n);

	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		rt_func_test_outer(i);
	return 0;
}

static const struct kernel_param_ops rt_func_test_run_ops = {
	.set = rt_func_test_run,
	.get = param_get_ulong,
};
module_param_cb(run, &rt_func_test_run_ops, &rt_func_test_calls, 0644);

static bool kprobe;
module_param(kprobe, bool, 0444);
static unsigned long kprobe_hits;
module_param(kprobe_hits, ulong, 0444);

static int rt_func_test_pre(struct kprobe *p, struct pt_regs *regs)
{
	WRITE_ONCE(kprobe_hits, kprobe_hits + 1);
	return 0;
}

static struct kprobe rt_func_test_kp = {
	.symbol_name = "rt_func_test_leaf",
	.pre_handler = rt_func_test_pre,
};

static int __init rt_func_test_init(void)
{
	int ret;

	rt_func_test_outer(1);
	if (kprobe) {
		ret = register_kprobe(&rt_func_test_kp);
		if (ret)
			return ret;
	}
	return 0;
}

static void __exit rt_func_test_exit(void)
{
	if (kprobe)
		unregister_kprobe(&rt_func_test_kp);
}

module_init(rt_func_test_init);
module_exit(rt_func_test_exit);
MODULE_DESCRIPTION("retrace selftest: traced module functions");
MODULE_LICENSE("GPL");
