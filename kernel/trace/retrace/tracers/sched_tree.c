// SPDX-License-Identifier: GPL-2.0
/*
 * The sched-tree option: after each scheduling event a tracer records
 * (wakeup and wakeup_rt: the wakeup that starts a timing and the switch
 * that ends it as a new max), one record per task runnable on that CPU.
 *
 * Why not the runqueue itself: its tree and lists are the scheduler's
 * own (kernel/sched/sched.h) and are read under the runqueue lock, which
 * a tracer outside kernel/sched can neither name nor take soundly.  The
 * nearest sound thing is used instead: walk every thread under RCU and
 * keep those whose state is TASK_RUNNING and whose task_cpu() is this
 * CPU.  That is the runqueue plus the running task, read without the
 * scheduler's lock, so a task migrating or waking at that moment may be
 * missed or counted on its old CPU.  The walk costs one step per thread
 * of the system, at most RT_SCHED_TREE_MAX records are written, and it
 * only runs while the option is set.
 */
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/string.h>
#include <trace/retrace/core.h>
#include <trace/retrace/event.h>
#include "sched_tree.h"

#define RT_SCHED_TREE_MAX	64	/* records per event */
#define RT_SCHED_TREE_WALK	4096	/* threads looked at per event */

struct rt_sched_tree_entry {
	struct rt_entry	ent;
	s32		pid;
	s32		prio;
	char		comm[TASK_COMM_LEN];
};

static struct rt_event_type rt_sched_tree_type;

static void rt_sched_tree_one(struct rt_instance *tr, struct task_struct *t,
			      unsigned long pc)
{
	struct rt_sched_tree_entry *e;
	struct rt_handle h;

	if (!rt_sched_tree_type.type)
		return;
	e = rt_reserve_entry(tr, &h, rt_sched_tree_type.type, sizeof(*e), pc);
	if (!e)
		return;
	e->pid = t->pid;
	e->prio = t->prio;
	/* A racy copy: a task renaming itself is the same task. */
	memcpy(e->comm, t->comm, sizeof(e->comm));
	e->comm[sizeof(e->comm) - 1] = '\0';
	rt_commit(&h);
}

/**
 * rt_sched_tree_record - the tasks runnable on @cpu, if sched-tree
 * @tr: the instance the tracer records into
 * @cpu: the runqueue's CPU (a woken task's, or the switching CPU)
 *
 * Call with preemption disabled, where the tracer just recorded.  At
 * most RT_SCHED_TREE_WALK threads are looked at and
 * RT_SCHED_TREE_MAX recorded: callers hold scheduler locks.
 */
void rt_sched_tree_record(struct rt_instance *tr, int cpu)
{
	unsigned long pc = preempt_count();
	unsigned int n = 0, seen = 0;
	struct task_struct *g, *t;

	if (!rt_opt(tr, RT_OPT_SCHED_TREE) || !rt_recording(tr))
		return;
	rcu_read_lock();
	/* Two nested loops: leave both with goto, not break. */
	for_each_process_thread(g, t) {
		if (++seen > RT_SCHED_TREE_WALK)
			goto out;
		if (task_cpu(t) != cpu || READ_ONCE(t->__state) != TASK_RUNNING)
			continue;
		rt_sched_tree_one(tr, t, pc);
		if (++n == RT_SCHED_TREE_MAX)
			goto out;
	}
out:
	rcu_read_unlock();
}

static void rt_sched_tree_print(struct rt_print_ctx *ctx)
{
	const struct rt_sched_tree_entry *e = (const void *)ctx->ent;

	if (ctx->len < sizeof(*e))
		return;
	seq_buf_printf(ctx->s, "sched-tree: %.*s-%d prio %d",
		       (int)sizeof(e->comm), e->comm, e->pid, e->prio);
}

static struct rt_event_type rt_sched_tree_type = {
	.name = "sched_tree",
	.print = rt_sched_tree_print,
};

static const struct rt_event_field rt_sched_tree_fields[] = {
	RT_EVENT_INT_FIELD("int", "pid", rt_sched_tree_entry, pid, 1),
	RT_EVENT_INT_FIELD("int", "prio", rt_sched_tree_entry, prio, 1),
	RT_EVENT_CHARS_FIELD(rt_sched_tree_entry, comm),
};

/* events/ftrace/sched_tree, for binary readers. */
static struct rt_event_format rt_sched_tree_format = {
	.name = "sched_tree",
	.fields = rt_sched_tree_fields,
	.nr_fields = ARRAY_SIZE(rt_sched_tree_fields),
	.print_fmt = "\"sched-tree: %s-%d prio %d\", REC->comm, REC->pid, REC->prio",
};

static int __init rt_sched_tree_init(void)
{
	int ret = rt_register_event_type(&rt_sched_tree_type);

	/* Without a type number, nothing is recorded (type 0 is no type). */
	if (ret) {
		pr_warn("retrace: sched-tree disabled: %d\n", ret);
		return ret;
	}
	rt_sched_tree_format.id = rt_sched_tree_type.type;
	if (rt_event_format_add(&rt_sched_tree_format))
		pr_warn("retrace: no events/ftrace/sched_tree\n");
	return 0;
}
device_initcall(rt_sched_tree_init);
