// SPDX-License-Identifier: GPL-2.0
/*
 * Waking trace_pipe readers when records arrive, without polling.
 *
 * Writers run in every context (NMI, scheduler locks held, interrupts
 * off), so they never wake a reader themselves.  The protocol:
 *
 *   tr->pipe_waiting  0: no reader armed the wakeup; 1: armed; 2: armed
 *                     and synced (below).  Set by a reader, a poll()er or
 *                     a non-blocking reader about to report EAGAIN;
 *                     cleared to 0 by the first writer that sees it set.
 *   tr->pipe_work     an irq_work that the writer clearing the flag
 *                     queues; it runs wake_up_all(&tr->pipe_wq).  A
 *                     burst of records queues it once: later writers see
 *                     the flag clear, and the work is already pending.
 *
 *   reader                               writer (rt_commit())
 *   arm: pipe_waiting = 1 or 2           publish the record
 *   prepare_to_wait(pipe_wq)             if (pipe_waiting) {
 *   data?  return                            pipe_waiting = 0
 *   schedule()                               irq_work_queue(pipe_work)
 *                                        }
 *
 * The writer reads the flag without a barrier after publishing (a full
 * barrier on every record would cost more than everything else it
 * does), so its load may pass its store: it can see the flag clear
 * while the reader does not yet see the record.  A synced arm
 * (rt_pipe_arm()) closes that window: it sets 2, then sends every CPU
 * an IPI whose handler is a full barrier.  A writer interrupted before
 * it published then sees the flag set; one interrupted after has its
 * record visible when the reader looks.  While the flag stays 2 no
 * writer has seen it clear since that round, so arming again needs no
 * new round.  A wakeup that comes before the reader is on the queue is
 * not lost either: the writer published before it kicked, and the
 * reader looks after prepare_to_wait(), which takes the queue's lock
 * that wake_up_all() took.
 *
 * A reader woken by a record usually finds the flag cleared by that
 * record's writer, so a synced arm each time would cost an IPI round per
 * wakeup.  A reader therefore first sleeps armed with 1, no IPI, for at
 * most RT_PIPE_RECHECK_NS; only if that passes with nothing to read does it
 * arm synced and sleep without a timeout.  A missed wakeup thus costs at
 * most RT_PIPE_RECHECK_NS, and an idle reader wakes once, then sleeps until
 * a record comes.
 *
 * The timed sleep is an hrtimer's, not schedule_timeout()'s: a
 * timer-wheel timer would record timer_start and timer_cancel (events/
 * timer) into the buffer the reader waits on, and those records would
 * wake it at once, every time.
 *
 * A tracer switch (the reader must see the EOF) wakes readers directly,
 * from process context.
 */
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/kprobes.h>
#include <linux/sched/signal.h>
#include <linux/smp.h>
#include <linux/wait.h>
#include "internal.h"

/* How long a reader sleeps armed without an IPI round (see above). */
#define RT_PIPE_RECHECK_NS	NSEC_PER_SEC

static void rt_pipe_work_fn(struct irq_work *work)
{
	struct rt_instance *tr = container_of(work, struct rt_instance,
					      pipe_work);

	wake_up_all(&tr->pipe_wq);
}

/* Called by rt_core_init() before the buffer exists. */
void rt_pipe_init(struct rt_instance *tr)
{
	init_waitqueue_head(&tr->pipe_wq);
	init_irq_work(&tr->pipe_work, rt_pipe_work_fn);
}

/**
 * rt_pipe_kick - a writer saw pipe_waiting set: wake the readers soon
 * @tr: the instance written to
 *
 * Any context, NMI included.
 */
void notrace rt_pipe_kick(struct rt_instance *tr)
{
	WRITE_ONCE(tr->pipe_waiting, 0);
	irq_work_queue(&tr->pipe_work);
}
EXPORT_SYMBOL_GPL(rt_pipe_kick);
NOKPROBE_SYMBOL(rt_pipe_kick);

static void rt_pipe_barrier_ipi(void *unused)
{
	/* This CPU's published records are visible to the reader after. */
	smp_mb();
}

/* Serialises synced arms: a second one must not skip a round in flight. */
static DEFINE_MUTEX(rt_pipe_arm_lock);

/*
 * Arm the wakeup, synced: after this, a record is either visible to the
 * caller's next check or its writer kicks the wait queue.  Process
 * context, TASK_RUNNING.  A non-blocking read calls it before it reports
 * EAGAIN, so that an edge-triggered epoll waiter is woken by the next
 * record.
 */
void rt_pipe_arm(struct rt_instance *tr)
{
	mutex_lock(&rt_pipe_arm_lock);
	if (READ_ONCE(tr->pipe_waiting) != 2) {
		WRITE_ONCE(tr->pipe_waiting, 2);
		/* The flag is visible before any CPU takes the IPI. */
		smp_mb();
		on_each_cpu(rt_pipe_barrier_ipi, NULL, 1);
	}
	mutex_unlock(&rt_pipe_arm_lock);
}

/**
 * rt_pipe_sleep - sleep until a record may have arrived
 * @tr: the instance read
 * @ready: true when the reader should not sleep (records, EOF)
 * @arg: for @ready
 * @deep: arm synced and sleep with no timeout (see above)
 *
 * Returns after a wakeup, a signal, a timeout or at once when @ready
 * says so; the caller checks again and passes the result as @deep.
 *
 * Return: true if the next sleep must be deep.
 */
bool rt_pipe_sleep(struct rt_instance *tr, bool (*ready)(void *arg),
		   void *arg, bool deep)
{
	DEFINE_WAIT(wait);
	ktime_t timeout;
	int left = 1;

	if (deep)
		rt_pipe_arm(tr);
	else
		cmpxchg(&tr->pipe_waiting, 0, 1);
	prepare_to_wait(&tr->pipe_wq, &wait, TASK_INTERRUPTIBLE);
	if (!ready(arg) && !signal_pending(current)) {
		if (deep) {
			schedule();
		} else {
			/* 0 once the time has passed, -EINTR if woken. */
			timeout = ns_to_ktime(RT_PIPE_RECHECK_NS);
			left = schedule_hrtimeout(&timeout, HRTIMER_MODE_REL);
		}
	}
	finish_wait(&tr->pipe_wq, &wait);
	return deep || !left;
}

/**
 * rt_pipe_poll_wait - poll() support: register, and arm if needed
 * @tr: the instance read
 * @file: the polled file
 * @pt: poll table
 * @empty: nothing to read was found
 *
 * Always registers on the wait queue (epoll hooks its item there only on
 * its first call).  When @empty, arms the wakeup synced; the caller then
 * checks again.
 */
void rt_pipe_poll_wait(struct rt_instance *tr, struct file *file,
		       poll_table *pt, bool empty)
{
	poll_wait(file, &tr->pipe_wq, pt);
	if (empty)
		rt_pipe_arm(tr);
}

/* Wake every reader at once (process context): the tracer changed. */
void rt_pipe_wake_all(struct rt_instance *tr)
{
	wake_up_all(&tr->pipe_wq);
}
