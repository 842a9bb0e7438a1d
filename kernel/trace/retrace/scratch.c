// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU scratch records for producers that build a record before it
 * goes into the ring buffer: trace_printk() formats into one, and event
 * sources fill one so that their filter can look at the whole record.
 *
 * One record per CPU and context level (task, softirq, hardirq, NMI).
 * A level can only be interrupted by a higher one, so a record has one
 * user at a time.  The per-CPU word @busy has one bit per level:
 *
 *   written by  the owning CPU only: rt_scratch_get() sets its level's
 *               bit, rt_scratch_put() clears it, with this_cpu_or() and
 *               this_cpu_and(), single instructions an interrupt cannot
 *               split;
 *   meaning     bit set: that level's record is being filled;
 *   why         recursion through a probe on the record path itself
 *               (a kprobe on a retrace function reached from inside a
 *               producer) finds its level's bit set and gets nothing,
 *               instead of overwriting the outer record.
 */
#include <linux/percpu.h>
#include "internal.h"

struct rt_scratch {
	unsigned long	busy;
	u64		buf[4][RT_SCRATCH_SIZE / sizeof(u64)];
};

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
	struct rt_scratch *sc = this_cpu_ptr(&rt_scratch);

	if (READ_ONCE(sc->busy) & BIT(level))
		return NULL;
	this_cpu_or(rt_scratch.busy, BIT(level));
	barrier();
	return sc->buf[level];
}

/* rt_scratch_put - give back the record rt_scratch_get(@pc) returned */
void notrace rt_scratch_put(unsigned long pc)
{
	barrier();
	this_cpu_and(rt_scratch.busy, ~BIT(rt_context_level(pc)));
}
