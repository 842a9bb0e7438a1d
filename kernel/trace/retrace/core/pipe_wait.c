// SPDX-License-Identifier: GPL-2.0
/*
 * Waking trace_pipe readers when records arrive, without polling.
 *
 * Writers run in every context (NMI, scheduler locks held, interrupts
 * off), so they never wake a reader themselves.  The protocol:
 *
 *   tr->pipe_waiting  "a reader may be asleep": set by a reader (or a
 *                     poll()er) before it sleeps, cleared by the first
 *                     writer that sees it set.
 *   tr->pipe_work     an irq_work that the writer clearing the flag
 *                     queues; it runs wake_up_all(&tr->pipe_wq).  A
 *                     burst of records queues it once: later writers see
 *                     the flag clear, and the work is already pending.
 *
 *   reader (rt_pipe_sleep)               writer (rt_commit())
 *   prepare_to_wait(pipe_wq)             publish the record
 *   pipe_waiting = true                  if (pipe_waiting) {
 *   rt_pipe_sync_writers()                   pipe_waiting = false
 *   data?  return                            irq_work_queue(pipe_work)
 *   schedule()                           }
 *
 * The writer reads the flag without a barrier after publishing (a full
 * barrier on every record would cost more than everything else it
 * does), so its load may pass its store: it can see the flag clear
 * while the reader does not yet see the record.  The reader closes that
 * window with rt_pipe_sync_writers(): an IPI to every CPU whose handler
 * is a full barrier.  A writer interrupted before it published then
 * sees the flag set; one interrupted after has its record visible when
 * the reader looks.  The reader is on the wait queue before either, so
 * a wakeup cannot slip past it.  Sleeping is rare (an idle reader
 * sleeps once), so the IPI round costs little.
 *
 * A tracer switch (the reader must see the EOF) wakes readers directly,
 * from process context.
 */
#include <linux/irq_work.h>
#include <linux/kprobes.h>
#include <linux/sched/signal.h>
#include <linux/smp.h>
#include <linux/wait.h>
#include "internal.h"

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
	WRITE_ONCE(tr->pipe_waiting, false);
	irq_work_queue(&tr->pipe_work);
}
EXPORT_SYMBOL_GPL(rt_pipe_kick);
NOKPROBE_SYMBOL(rt_pipe_kick);

static void rt_pipe_barrier_ipi(void *unused)
{
	/* This CPU's published records are visible to the reader after. */
	smp_mb();
}

/* Every record a writer published before now is visible after this. */
static void rt_pipe_sync_writers(void)
{
	/* pipe_waiting = true is visible before any CPU takes the IPI. */
	smp_mb();
	on_each_cpu(rt_pipe_barrier_ipi, NULL, 1);
}

/**
 * rt_pipe_sleep - sleep until a record may have arrived
 * @tr: the instance read
 * @ready: true when the reader should not sleep (records, EOF)
 * @arg: for @ready
 *
 * Returns after a wakeup, a signal, or at once when @ready says so; the
 * caller loops and checks again.
 */
void rt_pipe_sleep(struct rt_instance *tr, bool (*ready)(void *arg),
		   void *arg)
{
	DEFINE_WAIT(wait);

	prepare_to_wait(&tr->pipe_wq, &wait, TASK_INTERRUPTIBLE);
	WRITE_ONCE(tr->pipe_waiting, true);
	rt_pipe_sync_writers();
	if (!ready(arg) && !signal_pending(current))
		schedule();
	finish_wait(&tr->pipe_wq, &wait);
}

/**
 * rt_pipe_poll_wait - poll() support: register and arm the wakeup
 * @tr: the instance read
 * @file: the polled file
 * @pt: poll table
 *
 * The caller then reports whether records are there; anything published
 * before this returns is visible to that check.
 */
void rt_pipe_poll_wait(struct rt_instance *tr, struct file *file,
		       poll_table *pt)
{
	poll_wait(file, &tr->pipe_wq, pt);
	WRITE_ONCE(tr->pipe_waiting, true);
	rt_pipe_sync_writers();
}

/* Wake every reader at once (process context): the tracer changed. */
void rt_pipe_wake_all(struct rt_instance *tr)
{
	wake_up_all(&tr->pipe_wq);
}
