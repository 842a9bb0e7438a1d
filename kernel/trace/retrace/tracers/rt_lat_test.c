// SPDX-License-Identifier: GPL-2.0
/*
 * Selftest helper for the latency tracers: writing N to "irqs_off_us"
 * keeps interrupts off for N microseconds in rt_lat_test_irqs_off(),
 * and writing N to "preempt_off_us" keeps preemption off (interrupts
 * on) for N microseconds in rt_lat_test_preempt_off(), so tests know
 * the section, its length and the function that both starts and ends
 * it.
 */
#include <linux/delay.h>
#include <linux/irqflags.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/preempt.h>

static noinline void rt_lat_test_irqs_off(unsigned int us)
{
	unsigned long flags;

	local_irq_save(flags);
	mdelay(us / 1000);
	udelay(us % 1000);
	local_irq_restore(flags);
}

static noinline void rt_lat_test_preempt_off(unsigned int us)
{
	preempt_disable();
	mdelay(us / 1000);
	udelay(us % 1000);
	preempt_enable();
}

/* A section length in microseconds, at most 100 ms. */
static int rt_lat_test_us(const char *val, unsigned int *us)
{
	int ret = kstrtouint(val, 0, us);

	if (ret)
		return ret;
	return *us > 100000 ? -EINVAL : 0;
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

static const struct kernel_param_ops rt_lat_test_irqs_ops = {
	.set = rt_lat_test_set_irqs,
};
module_param_cb(irqs_off_us, &rt_lat_test_irqs_ops, NULL, 0200);

static const struct kernel_param_ops rt_lat_test_preempt_ops = {
	.set = rt_lat_test_set_preempt,
};
module_param_cb(preempt_off_us, &rt_lat_test_preempt_ops, NULL, 0200);

MODULE_DESCRIPTION("retrace selftest: known interrupts-off and preemption-off sections");
MODULE_LICENSE("GPL");
