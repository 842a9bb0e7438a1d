// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduler's tracepoints as events: events/sched/sched_switch,
 * sched_wakeup, sched_wakeup_new, sched_process_fork and
 * sched_process_exit, with the fields (and print formats) tools know
 * them by.  The wakeup tracers probe some of the same tracepoints; a
 * tracepoint takes any number of probes, and each event here is one
 * probe, connected while the event is enabled.
 *
 * The probes run where the scheduler calls them: with the runqueue lock
 * held and interrupts off (switch, wakeup) or in the forking or exiting
 * task.  They only copy a few fields into a scratch record (the event
 * layer's rt_event_open()/rt_event_close(), which guard against
 * recursion), so they take no lock and do not sleep.  Task names are
 * fixed char arrays of TASK_COMM_LEN, as upstream lays them out: binary
 * readers (libtraceevent's sched_switch plugin among them) read them in
 * place, and filters compare them as strings (RT_FIELD_CHARS).
 */
#include <linux/sched.h>
#include <linux/seq_buf.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <trace/events/sched.h>
#include <trace/retrace/event.h>

/* A task name in a record: NUL-ended, NUL-padded (strscpy_pad()). */
#define RT_SCHED_COMM	TASK_COMM_LEN

struct rt_sched_switch_rec {
	struct rt_entry	ent;
	char		prev_comm[RT_SCHED_COMM];
	s32		prev_pid;
	s32		prev_prio;
	s32		prev_state;	/* TASK_REPORT bit, or TASK_REPORT_MAX */
	char		next_comm[RT_SCHED_COMM];
	s32		next_pid;
	s32		next_prio;
};

/* sched_wakeup, sched_wakeup_new and sched_process_exit. */
struct rt_sched_task_rec {
	struct rt_entry	ent;
	char		comm[RT_SCHED_COMM];
	s32		pid;
	s32		prio;
	s32		target_cpu;
};

struct rt_sched_fork_rec {
	struct rt_entry	ent;
	char		parent_comm[RT_SCHED_COMM];
	s32		parent_pid;
	char		child_comm[RT_SCHED_COMM];
	s32		child_pid;
};

#define RT_SCHED_INT(rec, f) { "int", #f, offsetof(struct rec, f), \
	sizeof_field(struct rec, f), 1, RT_FIELD_INT }
#define RT_SCHED_STR(rec, f) RT_EVENT_CHARS_FIELD(rec, f)

static const struct rt_event_field rt_sched_switch_fields[] = {
	RT_SCHED_STR(rt_sched_switch_rec, prev_comm),
	RT_SCHED_INT(rt_sched_switch_rec, prev_pid),
	RT_SCHED_INT(rt_sched_switch_rec, prev_prio),
	RT_SCHED_INT(rt_sched_switch_rec, prev_state),
	RT_SCHED_STR(rt_sched_switch_rec, next_comm),
	RT_SCHED_INT(rt_sched_switch_rec, next_pid),
	RT_SCHED_INT(rt_sched_switch_rec, next_prio),
};

static const struct rt_event_field rt_sched_wakeup_fields[] = {
	RT_SCHED_STR(rt_sched_task_rec, comm),
	RT_SCHED_INT(rt_sched_task_rec, pid),
	RT_SCHED_INT(rt_sched_task_rec, prio),
	RT_SCHED_INT(rt_sched_task_rec, target_cpu),
};

/* sched_process_exit: the same record, target_cpu not shown. */
static const struct rt_event_field rt_sched_exit_fields[] = {
	RT_SCHED_STR(rt_sched_task_rec, comm),
	RT_SCHED_INT(rt_sched_task_rec, pid),
	RT_SCHED_INT(rt_sched_task_rec, prio),
};

static const struct rt_event_field rt_sched_fork_fields[] = {
	RT_SCHED_STR(rt_sched_fork_rec, parent_comm),
	RT_SCHED_INT(rt_sched_fork_rec, parent_pid),
	RT_SCHED_STR(rt_sched_fork_rec, child_comm),
	RT_SCHED_INT(rt_sched_fork_rec, child_pid),
};

/*
 * Copy @p's name into a record's array.  Padded: the scratch record
 * holds an earlier record's bytes, which must not reach the ring.
 */
static void rt_sched_comm(char *dst, struct task_struct *p)
{
	strscpy_pad(dst, p->comm, RT_SCHED_COMM);
}

static struct rt_event rt_sched_switch_event, rt_sched_wakeup_event,
	rt_sched_wakeup_new_event, rt_sched_fork_event, rt_sched_exit_event;

/* ---- probes -------------------------------------------------------------- */

static void notrace rt_sched_probe_switch(void *data, bool preempt,
					  struct task_struct *prev,
					  struct task_struct *next,
					  unsigned int prev_state)
{
	unsigned long pc = rt_event_tp_pc();
	struct rt_sched_switch_rec *r = rt_event_open(pc);
	unsigned int idx;

	if (!r)
		return;
	/* What a preempted task's state prints as "R+" (TASK_REPORT_MAX). */
	idx = preempt ? TASK_REPORT_MAX :
	      __task_state_index(prev_state, prev->exit_state);
	rt_sched_comm(r->prev_comm, prev);
	r->prev_pid = prev->pid;
	r->prev_prio = prev->prio;
	r->prev_state = idx;
	rt_sched_comm(r->next_comm, next);
	r->next_pid = next->pid;
	r->next_prio = next->prio;
	rt_event_close(&rt_sched_switch_event, r, sizeof(*r), pc);
}

static void notrace rt_sched_task(struct rt_event *ev, struct task_struct *p,
				  int cpu)
{
	unsigned long pc = rt_event_tp_pc();
	struct rt_sched_task_rec *r = rt_event_open(pc);

	if (!r)
		return;
	rt_sched_comm(r->comm, p);
	r->pid = p->pid;
	r->prio = p->prio;
	r->target_cpu = cpu;
	rt_event_close(ev, r, sizeof(*r), pc);
}

static void notrace rt_sched_probe_wakeup(void *data, struct task_struct *p)
{
	rt_sched_task(data, p, task_cpu(p));
}

static void notrace rt_sched_probe_exit(void *data, struct task_struct *p)
{
	rt_sched_task(&rt_sched_exit_event, p, -1);
}

static void notrace rt_sched_probe_fork(void *data, struct task_struct *parent,
					struct task_struct *child)
{
	unsigned long pc = rt_event_tp_pc();
	struct rt_sched_fork_rec *r = rt_event_open(pc);

	if (!r)
		return;
	rt_sched_comm(r->parent_comm, parent);
	r->parent_pid = parent->pid;
	rt_sched_comm(r->child_comm, child);
	r->child_pid = child->pid;
	rt_event_close(&rt_sched_fork_event, r, sizeof(*r), pc);
}

/* ---- printing ------------------------------------------------------------ */

/* A name from a record: "(fault)" if its array has no NUL. */
static const char *rt_sched_str(const struct rt_print_ctx *ctx,
				const char *comm)
{
	const char *s = rt_field_chars(ctx->ent, ctx->len,
				       comm - (const char *)ctx->ent,
				       RT_SCHED_COMM);

	return s ? s : "(fault)";
}

static void rt_sched_print_switch(struct rt_print_ctx *ctx)
{
	struct rt_sched_switch_rec *r = (void *)ctx->ent;
	char state[3] = "?";
	unsigned int idx;

	if (ctx->len < sizeof(*r)) {
		seq_buf_puts(ctx->s, "(truncated record)");
		return;
	}
	idx = r->prev_state;
	if (idx == TASK_REPORT_MAX)
		strscpy(state, "R+", sizeof(state));
	else if (idx < sizeof("RSDTtXZPI") - 1)	/* task_index_to_char()'s */
		state[0] = task_index_to_char(idx);
	seq_buf_printf(ctx->s, "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d next_prio=%d",
		       rt_sched_str(ctx, r->prev_comm), r->prev_pid,
		       r->prev_prio, state, rt_sched_str(ctx, r->next_comm),
		       r->next_pid, r->next_prio);
}

static void rt_sched_print_task(struct rt_print_ctx *ctx)
{
	struct rt_sched_task_rec *r = (void *)ctx->ent;

	if (ctx->len < sizeof(*r)) {
		seq_buf_puts(ctx->s, "(truncated record)");
		return;
	}
	seq_buf_printf(ctx->s, "comm=%s pid=%d prio=%d",
		       rt_sched_str(ctx, r->comm), r->pid, r->prio);
	if (ctx->et != &rt_sched_exit_event.type)
		seq_buf_printf(ctx->s, " target_cpu=%03d", r->target_cpu);
}

static void rt_sched_print_fork(struct rt_print_ctx *ctx)
{
	struct rt_sched_fork_rec *r = (void *)ctx->ent;

	if (ctx->len < sizeof(*r)) {
		seq_buf_puts(ctx->s, "(truncated record)");
		return;
	}
	seq_buf_printf(ctx->s, "comm=%s pid=%d child_comm=%s child_pid=%d",
		       rt_sched_str(ctx, r->parent_comm), r->parent_pid,
		       rt_sched_str(ctx, r->child_comm), r->child_pid);
}

/* ---- enabling ------------------------------------------------------------ */

static int rt_sched_set(struct rt_event *ev, bool on)
{
	int ret = 0;

	if (ev == &rt_sched_switch_event) {
		if (on)
			return register_trace_sched_switch(rt_sched_probe_switch, NULL);
		unregister_trace_sched_switch(rt_sched_probe_switch, NULL);
	} else if (ev == &rt_sched_wakeup_event) {
		if (on)
			return register_trace_sched_wakeup(rt_sched_probe_wakeup, ev);
		unregister_trace_sched_wakeup(rt_sched_probe_wakeup, ev);
	} else if (ev == &rt_sched_wakeup_new_event) {
		if (on)
			return register_trace_sched_wakeup_new(rt_sched_probe_wakeup, ev);
		unregister_trace_sched_wakeup_new(rt_sched_probe_wakeup, ev);
	} else if (ev == &rt_sched_fork_event) {
		if (on)
			return register_trace_sched_process_fork(rt_sched_probe_fork, NULL);
		unregister_trace_sched_process_fork(rt_sched_probe_fork, NULL);
	} else {
		if (on)
			return register_trace_sched_process_exit(rt_sched_probe_exit, NULL);
		unregister_trace_sched_process_exit(rt_sched_probe_exit, NULL);
	}
	/* The events are static: nothing a late probe call could miss. */
	return ret;
}

#define RT_SCHED_EVENT(var, ename, flds, fmt, printer)			\
static struct rt_event var = {						\
	.system		= "sched",					\
	.name		= ename,					\
	.fields		= flds,						\
	.nr_fields	= ARRAY_SIZE(flds),				\
	.print_fmt	= fmt,						\
	.print		= printer,					\
	.set_enabled	= rt_sched_set,					\
}

RT_SCHED_EVENT(rt_sched_switch_event, "sched_switch", rt_sched_switch_fields,
	       "\"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%d ==> next_comm=%s next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio, REC->prev_state, REC->next_comm, REC->next_pid, REC->next_prio",
	       rt_sched_print_switch);
RT_SCHED_EVENT(rt_sched_wakeup_event, "sched_wakeup", rt_sched_wakeup_fields,
	       "\"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, REC->prio, REC->target_cpu",
	       rt_sched_print_task);
RT_SCHED_EVENT(rt_sched_wakeup_new_event, "sched_wakeup_new",
	       rt_sched_wakeup_fields,
	       "\"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, REC->prio, REC->target_cpu",
	       rt_sched_print_task);
RT_SCHED_EVENT(rt_sched_fork_event, "sched_process_fork", rt_sched_fork_fields,
	       "\"comm=%s pid=%d child_comm=%s child_pid=%d\", REC->parent_comm, REC->parent_pid, REC->child_comm, REC->child_pid",
	       rt_sched_print_fork);
RT_SCHED_EVENT(rt_sched_exit_event, "sched_process_exit", rt_sched_exit_fields,
	       "\"comm=%s pid=%d prio=%d\", REC->comm, REC->pid, REC->prio",
	       rt_sched_print_task);

static int __init rt_sched_events_init(void)
{
	struct rt_event *all[] = {
		&rt_sched_switch_event, &rt_sched_wakeup_event,
		&rt_sched_wakeup_new_event, &rt_sched_fork_event,
		&rt_sched_exit_event,
	};
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(all); i++) {
		ret = rt_event_add(all[i]);
		if (ret)
			pr_warn("retrace: no event sched/%s (%d)\n", all[i]->name,
				ret);
	}
	return 0;
}
device_initcall(rt_sched_events_init);
