// SPDX-License-Identifier: GPL-2.0
/*
 * Snapshots asked for where sleeping is not allowed.  The "snapshot"
 * event trigger (events/event_trigger.c) hits in any context, NMI
 * included, but exchanging the live rings with the snapshot's sleeps:
 * rt_buffer_swap() holds writers off and waits for readers.  So a hit
 * only files a request, and the exchange is made later:
 *
 *  - a hit in a user task's process context with interrupts enabled (a
 *    system call: a fork, a trace_marker write) queues task work, which
 *    runs before the task returns to user space.  To that task the
 *    snapshot is taken before its system call returns: a shell that
 *    writes trace_marker twice finds the first write's snapshot taken
 *    before the second write.  (A task that blocks in the kernel after
 *    the hit delays its snapshot as long.)
 *  - any other hit (interrupts disabled, as in the scheduler; an
 *    interrupt; a kernel thread or user worker; a task past
 *    exit_task_work()) goes on rt_snap_list, a lock-free list that an
 *    irq_work hands to rt_snap_worker, a kthread worker of its own.
 *    It takes the whole list at once and swaps each instance named in
 *    it once: the later requests of a batch came before the swap, and
 *    alternating the buffers twice would undo it.
 *
 * A hit that comes while any swap is under way (rt_snap_runner set,
 * from taking the locks to dropping them) joins it, and the worker's
 * own hits are not heard: the swap's sleeps are sched_switch hits, and
 * must not ask for the next swap.  What a swap makes others do (the
 * kworkers rt_buffer_swap() waits for, a reader it wakes) is heard,
 * so an unlimited, unfiltered snapshot trigger on a scheduler event
 * keeps swapping, about once per swap's length, while it exists.
 * rt_snapshot_heard() says whether a hit would be heard; the trigger
 * asks it before taking a run of its count.
 *
 * Each swap exchanges the two buffers without emptying either, as
 * upstream's trigger does: hits alternate the buffers, so with a
 * trigger on every trace_marker write, "trace" and "snapshot" end up
 * with every other write each.  ("echo 1 > snapshot" empties the old
 * snapshot first: snapshot.c.)
 *
 * The request pool.  Filing a request must not allocate (the hit may
 * be inside the allocator, or hold a scheduler lock), so requests come
 * from rt_snap_reqs, RT_SNAP_REQS slots:
 *
 *   rt_snap_busy   bit i set: slot i is claimed.  A hit claims a free
 *                  slot with test_and_set_bit_lock() (any context);
 *                  whoever runs the request reads its cookie, then
 *                  releases the slot with clear_bit_unlock().
 *   slot.cookie    written by the claiming hit before the slot is
 *                  queued (task_work_add() and llist_add() order it).
 *   rt_snap_missed requests that found every slot claimed, or whose
 *                  swap failed, in all instances (the snapshot file's
 *                  header shows the count when it is not 0).  The
 *                  trigger's count was spent on them all the same.
 *
 * Cookies.  A request names its instance by the cookie its trigger got
 * from rt_snapshot_arm(), not by a pointer: the instance may be
 * removed while a request for it waits on some task.  rt_snap_arms
 * maps cookies to instances, under rt_snap_lock; idr_alloc_cyclic()
 * does not soon hand a cookie out again.  Whoever runs a request looks
 * its cookie up and holds rt_snap_lock through the exchange, and an
 * instance is freed only after its triggers are disarmed (under that
 * lock), so a cookie found names a live instance and a stale one
 * names nothing.
 *
 * Lock order: rt_event_dir_lock, rt_event_lock (a trigger being
 * added), rt_trace_lock, rt_snap_lock, rt_max_lock.
 */
#define pr_fmt(fmt) "retrace: " fmt

#include <linux/bitops.h>
#include <linux/idr.h>
#include <linux/irq_work.h>
#include <linux/kthread.h>
#include <linux/llist.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/task_work.h>
#include "internal.h"

/* Requests waiting at once; more hits than this in between are lost. */
#define RT_SNAP_REQS	128

struct rt_snap_req {
	struct callback_head	twork;
	struct llist_node	node;
	int			cookie;
};

static struct rt_snap_req rt_snap_reqs[RT_SNAP_REQS];
static DECLARE_BITMAP(rt_snap_busy, RT_SNAP_REQS);
static LLIST_HEAD(rt_snap_list);
static atomic_long_t rt_snap_missed;

static DEFINE_MUTEX(rt_snap_lock);
static DEFINE_IDR(rt_snap_arms);	/* cookie -> instance; rt_snap_lock */
/* The task swapping, under rt_snap_lock; hits read it locklessly. */
static struct task_struct *rt_snap_runner;
/* Made at boot (rt_snap_init()); NULL if that failed. */
static struct kthread_worker *rt_snap_worker;

/*
 * Exchange @tr's live and snapshot buffers, keeping both.  Under
 * rt_trace_lock and rt_snap_lock, @tr found armed: its snapshot is
 * allocated and no latency tracer can be current (rt_max_prepare()
 * and "echo 0" refuse).
 */
static void rt_snap_swap(struct rt_instance *tr)
{
	if (rt_snapshot_exchange(tr, true))
		atomic_long_inc(&rt_snap_missed);
}

/*
 * Take the locks for swapping; from here until rt_snap_end() every hit
 * joins the swap under way instead of asking for another (the swap's
 * own sleeps are sched_switch hits).
 */
static void rt_snap_begin(void)
{
	mutex_lock(&rt_trace_lock);
	mutex_lock(&rt_snap_lock);
	WRITE_ONCE(rt_snap_runner, current);
}

static void rt_snap_end(void)
{
	WRITE_ONCE(rt_snap_runner, NULL);
	mutex_unlock(&rt_snap_lock);
	mutex_unlock(&rt_trace_lock);
}

/* Read a claimed slot's cookie and give the slot back. */
static int rt_snap_release(struct rt_snap_req *req)
{
	int cookie = req->cookie;

	clear_bit_unlock(req - rt_snap_reqs, rt_snap_busy);
	return cookie;
}

/* Task work: one request, before the task returns to user space. */
static void rt_snap_task_fn(struct callback_head *cb)
{
	int cookie = rt_snap_release(container_of(cb, struct rt_snap_req,
						  twork));
	struct rt_instance *tr;

	rt_snap_begin();
	/* A disarmed cookie is no loss: its trigger is gone. */
	tr = idr_find(&rt_snap_arms, cookie);
	if (tr)
		rt_snap_swap(tr);
	rt_snap_end();
}

/*
 * The worker: each instance the batch names once, in the order first
 * named (an instance may have several snapshot triggers, each with its
 * own cookie).
 */
static void rt_snap_work_fn(struct kthread_work *work)
{
	struct llist_node *list = llist_reverse_order(llist_del_all(&rt_snap_list));
	struct rt_snap_req *req, *next, *seen;
	struct rt_instance *tr;

	rt_snap_begin();
	llist_for_each_entry(req, list, node) {
		tr = idr_find(&rt_snap_arms, req->cookie);
		if (!tr)
			continue;
		llist_for_each_entry(seen, list, node) {
			if (seen == req ||
			    idr_find(&rt_snap_arms, seen->cookie) == tr)
				break;
		}
		if (seen == req)
			rt_snap_swap(tr);
	}
	rt_snap_end();
	/* Slots go back only now: the loops above read them all. */
	llist_for_each_entry_safe(req, next, list, node)
		rt_snap_release(req);
}
static DEFINE_KTHREAD_WORK(rt_snap_kwork, rt_snap_work_fn);

static void rt_snap_irq_work_fn(struct irq_work *w)
{
	kthread_queue_work(rt_snap_worker, &rt_snap_kwork);
}
static struct irq_work rt_snap_irq_work = IRQ_WORK_INIT(rt_snap_irq_work_fn);

/**
 * rt_snapshot_heard - would a hit here ask for a snapshot?
 *
 * Any context.  Not while a swap is under way (the hit joins it), nor
 * in the worker: a snapshot trigger takes a run of its count only for
 * hits that are heard.
 */
bool notrace rt_snapshot_heard(void)
{
	struct kthread_worker *worker = READ_ONCE(rt_snap_worker);

	return !READ_ONCE(rt_snap_runner) &&
	       !(worker && current == worker->task);
}

/**
 * rt_snapshot_request - ask for a snapshot of an armed instance
 * @cookie: from rt_snapshot_arm()
 *
 * Any context, NMI included.  The snapshot is taken before the current
 * task returns to user space when it is a user task in process context
 * with interrupts enabled, by rt_snap_worker otherwise (see the top of
 * this file).  Ask rt_snapshot_heard() first.
 */
void notrace rt_snapshot_request(int cookie)
{
	struct rt_snap_req *req;
	unsigned int i;

	do {
		i = find_first_zero_bit(rt_snap_busy, RT_SNAP_REQS);
		if (i >= RT_SNAP_REQS) {
			atomic_long_inc(&rt_snap_missed);
			return;
		}
	} while (test_and_set_bit_lock(i, rt_snap_busy));
	req = &rt_snap_reqs[i];
	req->cookie = cookie;
	if (in_task() && !irqs_disabled() &&
	    !(current->flags & (PF_KTHREAD | PF_USER_WORKER | PF_EXITING))) {
		init_task_work(&req->twork, rt_snap_task_fn);
		/* No allocation: the hit may hold the allocator's locks. */
		if (!task_work_add(current, &req->twork,
				   TWA_RESUME | TWAF_NO_ALLOC))
			return;
	}
	llist_add(&req->node, &rt_snap_list);
	irq_work_queue(&rt_snap_irq_work);
}

/**
 * rt_snapshot_arm - let hits take snapshots of an instance
 * @tr: the instance
 *
 * Process context, under rt_event_dir_lock and rt_event_lock (a
 * trigger being added), not under rt_trace_lock.  Allocates the
 * snapshot, empty (as "echo 1 > snapshot" would, without taking one),
 * unless it is allocated already.  While armed, the snapshot cannot be
 * freed nor a latency tracer selected: both want the second buffer.
 *
 * Return: a cookie (> 0) for rt_snapshot_request() and
 * rt_snapshot_disarm(); or -EBUSY while a latency tracer is current,
 * or -ENOMEM, with nothing changed.
 */
int rt_snapshot_arm(struct rt_instance *tr)
{
	bool allocated = false;
	int ret;

	mutex_lock(&rt_trace_lock);
	if (rt_tracer_uses_max(tr)) {
		ret = -EBUSY;
		goto out;
	}
	if (!rt_snap_worker) {
		ret = -ENOMEM;
		goto out;
	}
	mutex_lock(&rt_snap_lock);
	if (!tr->snapshot) {
		ret = rt_snapshot_alloc(tr);
		if (ret)
			goto unlock;
		allocated = true;
	}
	ret = idr_alloc_cyclic(&rt_snap_arms, tr, 1, INT_MAX, GFP_KERNEL);
	if (ret < 0 && allocated)
		rt_snapshot_free(tr);
unlock:
	mutex_unlock(&rt_snap_lock);
out:
	mutex_unlock(&rt_trace_lock);
	return ret;
}

/**
 * rt_snapshot_disarm - end what rt_snapshot_arm() began
 * @cookie: its cookie
 *
 * Process context, not under rt_trace_lock.  Requests still queued for
 * @cookie come to nothing; one being run finishes first.  The instance
 * may be freed once this returns.
 */
void rt_snapshot_disarm(int cookie)
{
	mutex_lock(&rt_snap_lock);
	idr_remove(&rt_snap_arms, cookie);
	mutex_unlock(&rt_snap_lock);
}

/* Does a trigger hold @tr's snapshot?  Under rt_trace_lock. */
bool rt_snapshot_armed(struct rt_instance *tr)
{
	struct rt_instance *armed;
	bool found = false;
	int id;

	lockdep_assert_held(&rt_trace_lock);
	mutex_lock(&rt_snap_lock);
	idr_for_each_entry(&rt_snap_arms, armed, id) {
		if (armed == tr) {
			found = true;
			break;
		}
	}
	mutex_unlock(&rt_snap_lock);
	return found;
}

/* Requests lost so far (see rt_snap_missed above). */
unsigned long rt_snapshot_missed(void)
{
	return atomic_long_read(&rt_snap_missed);
}

static int __init rt_snap_init(void)
{
	struct kthread_worker *worker = kthread_create_worker(0, "rt_snapshot");

	if (IS_ERR(worker)) {
		pr_warn("no snapshot trigger worker: %ld\n", PTR_ERR(worker));
		return 0;
	}
	WRITE_ONCE(rt_snap_worker, worker);
	return 0;
}
late_initcall(rt_snap_init);
