// SPDX-License-Identifier: GPL-2.0
/*
 * The max-latency snapshot of an instance: what latency tracers keep of
 * the longest section they measured, and what "trace" shows while one
 * of them is current.
 *
 * A latency tracer finds a new maximum where it cannot sleep (with
 * interrupts off, inside a scheduler lock), so the snapshot is taken in
 * two steps:
 *
 *  1. rt_max_report() (on the section's CPU, interrupts off, not in
 *     NMI) notes the ring that holds the section and takes
 *     rt_max_pending_lock;
 *     a report longer than tracing_max_latency and than the one still
 *     pending replaces it, and the first one queues an irq_work, which
 *     queues rt_max_work.
 *
 *  2. rt_max_work (process context) takes pending reports one by one
 *     until none is left.  Under rt_max_lock it checks the report
 *     still beats the max, swaps the reporting CPU's ring of the live
 *     buffer with the same CPU's ring of the max buffer
 *     (rt_buffer_swap_cpu(): made on that CPU between two of its
 *     writers, no writer held off, readers excluded) unless a swap
 *     since the report moved the ring that holds the section into the
 *     max buffer already, then publishes the report as rt_max_shown
 *     and sets tracing_max_latency.
 *
 * rt_max_shown always describes what the max buffer holds: the header and
 * the reader of "trace" take it under rt_max_lock.  The swapped-in
 * ring (the old snapshot) is what the live buffer writes into next;
 * its old records are older than anything shown, and age out.
 */
#include <linux/cred.h>
#include <linux/irq_work.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include "internal.h"

static DEFINE_RAW_SPINLOCK(rt_max_pending_lock);
/* Under rt_max_pending_lock: */
static struct rt_max_info rt_max_pending;	/* the longest not yet taken */
static bool rt_max_is_pending;
static bool rt_max_queued;			/* the work item will look */
static struct rt_instance *rt_max_pending_tr;
/* rt_buffer_ring_id() of the ring holding its end (its start: .start_ring). */
static unsigned long rt_max_pending_ring;

DEFINE_MUTEX(rt_max_lock);
/* Under rt_max_lock: */
struct rt_max_info rt_max_shown;	/* valid when latency_ns != 0 */
static unsigned long rt_max_failed;	/* swaps refused */

/*
 * Put @ring, which holds a section's records for @cpu, into the max
 * buffer.  A swap taken for an earlier report may have moved it there
 * already (the section ended between that report's taking and its
 * swap); swapping again would hand it back to the live buffer.
 *
 * Under rt_max_lock, on any CPU: rt_buffer_ring_id() is meant for @cpu
 * with interrupts off, but every swap of these two buffers runs under
 * rt_max_lock (here, and the snapshot file's), so no swap can move the
 * ring between this read and the swap below.
 */
static int rt_max_move_ring(struct rt_instance *tr, int cpu,
			    unsigned long ring)
{
	if (rt_buffer_ring_id(tr->max_buffer, cpu) == ring)
		return 0;
	return rt_buffer_swap_cpu(tr->buffer, tr->max_buffer, cpu);
}

/* Take the pending report, if any, into the max buffer. */
static bool rt_max_take_one(void)
{
	struct rt_instance *tr;
	unsigned long flags, ring;
	struct rt_max_info info;
	int ret = 0;

	raw_spin_lock_irqsave(&rt_max_pending_lock, flags);
	if (!rt_max_is_pending) {
		rt_max_queued = false;
		raw_spin_unlock_irqrestore(&rt_max_pending_lock, flags);
		return false;
	}
	info = rt_max_pending;
	tr = rt_max_pending_tr;
	ring = rt_max_pending_ring;
	rt_max_is_pending = false;
	raw_spin_unlock_irqrestore(&rt_max_pending_lock, flags);

	mutex_lock(&rt_max_lock);
	/*
	 * Reported against a max that the report taken just before this
	 * one has raised since: no longer a max.
	 */
	if (!rt_max_beats(tr, info.latency_ns)) {
		mutex_unlock(&rt_max_lock);
		return true;
	}
	/*
	 * A pause-on-trace reader is open: the live rings took none of
	 * the section's records since, and the max buffer is what it may
	 * be reading.  The report is dropped, as upstream drops a max
	 * while its tracing is stopped.
	 */
	if (tr->paused) {
		mutex_unlock(&rt_max_lock);
		return true;
	}
	if (!tr->max_buffer) {
		ret = -ENODEV;
	} else {
		ret = rt_max_move_ring(tr, info.cpu, ring);
		if (!ret && info.start_cpu != info.cpu)
			ret = rt_max_move_ring(tr, info.start_cpu,
					       info.start_ring);
	}
	if (!ret) {
		rt_max_shown = info;
		WRITE_ONCE(tr->max_latency,
			   max_t(unsigned long, 1, div_u64(info.latency_ns, 1000)));
	} else {
		rt_max_failed++;
	}
	mutex_unlock(&rt_max_lock);
	return true;
}

static void rt_max_work_fn(struct work_struct *work)
{
	while (rt_max_take_one())
		cond_resched();
}
static DECLARE_WORK(rt_max_work, rt_max_work_fn);

static void rt_max_irq_work_fn(struct irq_work *w)
{
	schedule_work(&rt_max_work);
}
static struct irq_work rt_max_irq_work = IRQ_WORK_INIT(rt_max_irq_work_fn);

/**
 * rt_max_report - offer a measured section as the new maximum
 * @tr: the instance
 * @info: the section; @info->cpu is the CPU whose ring holds its records
 *
 * Call on @info->cpu with interrupts off, in any context but NMI, after
 * the section's last record: the ring noted here as holding it cannot
 * be swapped away in between.  The section is kept if it is longer than
 * tracing_max_latency and than any report still waiting to be taken
 * into the max buffer, which it replaces.
 *
 * Return: true if kept.
 */
bool rt_max_report(struct rt_instance *tr, const struct rt_max_info *info)
{
	unsigned long flags;
	bool kept = false, queue = false;

	raw_spin_lock_irqsave(&rt_max_pending_lock, flags);
	if (rt_max_beats(tr, info->latency_ns) &&
	    (!rt_max_is_pending ||
	     info->latency_ns > rt_max_pending.latency_ns)) {
		rt_max_pending = *info;
		rt_max_pending_tr = tr;
		rt_max_pending_ring = rt_buffer_ring_id(tr->buffer, info->cpu);
		rt_max_is_pending = true;
		kept = true;
		queue = !rt_max_queued;
		rt_max_queued = true;
	}
	raw_spin_unlock_irqrestore(&rt_max_pending_lock, flags);
	if (queue)
		irq_work_queue(&rt_max_irq_work);
	return kept;
}
EXPORT_SYMBOL_GPL(rt_max_report);

static unsigned long rt_min_ring_size(struct rt_buffer *buf)
{
	unsigned long min = ULONG_MAX;
	int cpu;

	for_each_possible_cpu(cpu)
		min = min(min, rt_buffer_size_cpu(buf, cpu));
	return min;
}

/**
 * rt_max_buffer_fit - give @tr a max buffer whose rings match the live ones
 * @tr: the instance
 *
 * Allocates the max buffer if there is none, and resizes each of its
 * rings to the live ring of the same CPU; a resized ring loses its
 * records.  Called under rt_trace_lock.  The max buffer, once
 * allocated, stays until the instance goes: readers of "trace" and
 * "snapshot" may walk it.
 *
 * Return: 0 or -ENOMEM.
 */
int rt_max_buffer_fit(struct rt_instance *tr)
{
	struct rt_buffer *max;
	unsigned long size;
	int ret = 0, cpu;

	lockdep_assert_held(&rt_trace_lock);
	if (!tr->max_buffer) {
		/* The smallest ring's size: the loop below grows the others. */
		max = rt_buffer_alloc(rt_min_ring_size(tr->buffer), true);
		if (!max)
			return -ENOMEM;
		WRITE_ONCE(tr->max_buffer, max);
	}
	mutex_lock(&rt_max_lock);
	/*
	 * Each CPU's snapshot ring the size of its live ring (swaps): in
	 * one resize while the live rings agree, else ring by ring.
	 */
	size = rt_buffer_size(tr->buffer);
	if (size && rt_buffer_size(tr->max_buffer) != size)
		ret = rt_buffer_resize(tr->max_buffer, size);
	for_each_possible_cpu(cpu) {
		if (ret)
			break;
		size = rt_buffer_size_cpu(tr->buffer, cpu);
		if (rt_buffer_size_cpu(tr->max_buffer, cpu) == size)
			continue;
		/* A buffer_size_kb changed since. */
		ret = rt_buffer_resize_cpu(tr->max_buffer, cpu, size);
	}
	mutex_unlock(&rt_max_lock);
	return ret;
}

/**
 * rt_max_prepare - give @tr a max buffer the size of its live buffer
 * @tr: the instance
 *
 * Called by a latency tracer's init, under rt_trace_lock.  Forgets the
 * snapshot, the snapshot file's included (emptied), and sets
 * tracing_max_latency to 0.
 *
 * Return: 0, -ENOMEM, or -EBUSY when trace_clock is not "local" or a
 * snapshot trigger holds the snapshot.
 */
int rt_max_prepare(struct rt_instance *tr)
{
	lockdep_assert_held(&rt_trace_lock);
	/*
	 * Sections are timed, and the records they show chosen, with the
	 * local clock; the snapshot buffer stamps with nothing else.
	 */
	if (tr->clock != RT_RB_CLOCK_LOCAL)
		return -EBUSY;
	/* A snapshot trigger owns the second buffer until it is removed. */
	if (rt_snapshot_armed(tr))
		return -EBUSY;
	/* A new tracer starts from nothing, like "echo 0" and a clear. */
	mutex_lock(&rt_max_lock);
	memset(&rt_max_shown, 0, sizeof(rt_max_shown));
	WRITE_ONCE(tr->max_latency, 0);
	mutex_unlock(&rt_max_lock);
	/*
	 * The buffer is the tracer's now: the snapshot file's snapshot is
	 * gone (even if the tracer then fails to start), and its records
	 * must not come back through the live rings a swap hands out.
	 */
	if (tr->snapshot && tr->max_buffer) {
		mutex_lock(&rt_max_lock);
		rt_buffer_reset(tr->max_buffer);
		mutex_unlock(&rt_max_lock);
	}
	tr->snapshot = false;
	return rt_max_buffer_fit(tr);
}
EXPORT_SYMBOL_GPL(rt_max_prepare);

/**
 * rt_max_sync - wait until no snapshot is being taken
 * @tr: the instance
 *
 * For a latency tracer's reset, after its hooks are off.
 */
void rt_max_sync(struct rt_instance *tr)
{
	irq_work_sync(&rt_max_irq_work);
	flush_work(&rt_max_work);
}
EXPORT_SYMBOL_GPL(rt_max_sync);

unsigned long rt_max_failed_swaps(void)
{
	return READ_ONCE(rt_max_failed);
}

/* The snapshot's records in @cpu's ring of the max buffer. */
static u64 rt_max_count(struct rt_instance *tr, int cpu,
			const struct rt_max_info *info, struct rt_rb_record *rec)
{
	struct rt_rb_iter it;
	u64 n = 0;

	rt_buffer_iter_start(&it, tr->max_buffer, cpu);
	while (!rt_buffer_iter_peek(&it, rec) && rec->ts <= info->end_ts) {
		n += rec->ts >= info->start_ts;
		rt_buffer_iter_advance(&it, rec);
	}
	return n;
}

/*
 * For the header: the snapshot's description and how many of its
 * records "trace" shows.  Caller holds rt_trace_lock.
 */
void rt_max_header(struct rt_instance *tr, struct rt_max_info *info,
		   u64 *entries)
{
	struct rt_rb_record *rec;
	u64 n;

	mutex_lock(&rt_max_lock);
	if (rt_max_shown.latency_ns)
		*info = rt_max_shown;
	mutex_unlock(&rt_max_lock);
	*entries = 0;
	if (!info->latency_ns || !tr->max_buffer)
		return;
	rec = kmalloc(sizeof(*rec), GFP_KERNEL);
	if (!rec)
		return;
	n = rt_max_count(tr, info->cpu, info, rec);
	if (info->start_cpu != info->cpu)
		n += rt_max_count(tr, info->start_cpu, info, rec);
	kfree(rec);
	*entries = n;
}

/**
 * rt_max_fill_task - describe @tsk in a report
 * @info: the report
 * @tsk: the task that suffered the latency
 */
void rt_max_fill_task(struct rt_max_info *info, struct task_struct *tsk)
{
	info->pid = tsk->pid;
	/* current's creds need no RCU: the hooks run where it may not watch. */
	if (tsk == current) {
		info->uid = from_kuid_munged(&init_user_ns, current_uid());
	} else {
		rcu_read_lock();
		info->uid = from_kuid_munged(&init_user_ns, task_uid(tsk));
		rcu_read_unlock();
	}
	info->nice = task_nice(tsk);
	info->policy = tsk->policy;
	info->rt_prio = tsk->rt_priority;
	BUILD_BUG_ON(RT_COMM_LEN != TASK_COMM_LEN);
	memcpy(info->comm, tsk->comm, RT_COMM_LEN);
}
EXPORT_SYMBOL_GPL(rt_max_fill_task);
