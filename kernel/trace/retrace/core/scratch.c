// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU scratch records for producers that build a record before it
 * goes into the ring buffer: trace_printk() formats into one, and event
 * sources fill one so that their filter can look at the whole record.
 *
 * One record per CPU and context level (task, softirq, hardirq, NMI),
 * guarded by rt_recursion_enter() on the per-CPU word rt_scratch_busy:
 * a set bit means that level's record is being filled.  Recursion
 * through a probe on the record path itself (a kprobe on a retrace
 * function reached from inside a producer) finds its level's bit set
 * and gets nothing, instead of overwriting the outer record.
 */
#include <linux/percpu.h>
#include "internal.h"

struct rt_scratch {
	u64	buf[4][RT_SCRATCH_SIZE / sizeof(u64)];
};
static DEFINE_PER_CPU(unsigned long, rt_scratch_busy);
static DEFINE_PER_CPU(struct rt_scratch, rt_scratch);

/*
 * rt_scratch_get - this CPU's scratch record for the context of @pc
 * @pc: preempt_count() before the caller disabled preemption
 *
 * Call with preemption disabled.  Return: RT_SCRATCH_SIZE bytes, or
 * NULL if that record is in use (recursion).  Give it back with
 * rt_scratch_put() on the same CPU.
 */
void *notrace rt_scratch_get(unsigned long pc)
{
	int level = rt_context_level(pc);

	if (!rt_recursion_enter(&rt_scratch_busy, level))
		return NULL;
	return this_cpu_ptr(&rt_scratch)->buf[level];
}

/* rt_scratch_put - give back the record rt_scratch_get(@pc) returned */
void notrace rt_scratch_put(unsigned long pc)
{
	rt_recursion_exit(&rt_scratch_busy, 1UL << rt_context_level(pc));
}
