// SPDX-License-Identifier: GPL-2.0
/*
 * Signals as events: events/signal/signal_generate when a signal is
 * sent to a task (with the outcome: delivered, ignored, already
 * pending, ...) and signal_deliver when a task takes one to run its
 * handler or default action, from the kernel's signal tracepoints, with
 * upstream's fields and print formats.
 *
 * Both tracepoints fire with the target's siglock held and interrupts
 * off; signal_generate may fire in any context that sends a signal (a
 * timer's interrupt among them), in the sender's task.  The probes copy
 * a few fields into the event layer's scratch record: no lock, no sleep.
 */
#include <linux/sched.h>
#include <linux/seq_buf.h>
#include <linux/signal.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <trace/events/signal.h>
#include <trace/retrace/event.h>

struct rt_signal_generate_rec {
	struct rt_entry	ent;
	s32		sig;
	s32		err;
	s32		code;
	char		comm[TASK_COMM_LEN];
	s32		pid;
	s32		group;
	s32		result;
};

struct rt_signal_deliver_rec {
	struct rt_entry	ent;
	s32		sig;
	s32		err;
	s32		code;
	u32		pad;
	unsigned long	sa_handler;
	unsigned long	sa_flags;
};

static const struct rt_event_field rt_signal_generate_fields[] = {
	RT_EVENT_INT_FIELD("int", "sig", rt_signal_generate_rec, sig, 1),
	RT_EVENT_INT_FIELD("int", "errno", rt_signal_generate_rec, err, 1),
	RT_EVENT_INT_FIELD("int", "code", rt_signal_generate_rec, code, 1),
	RT_EVENT_CHARS_FIELD(rt_signal_generate_rec, comm),
	RT_EVENT_INT_FIELD("pid_t", "pid", rt_signal_generate_rec, pid, 1),
	RT_EVENT_INT_FIELD("int", "group", rt_signal_generate_rec, group, 1),
	RT_EVENT_INT_FIELD("int", "result", rt_signal_generate_rec, result, 1),
};

static const struct rt_event_field rt_signal_deliver_fields[] = {
	RT_EVENT_INT_FIELD("int", "sig", rt_signal_deliver_rec, sig, 1),
	RT_EVENT_INT_FIELD("int", "errno", rt_signal_deliver_rec, err, 1),
	RT_EVENT_INT_FIELD("int", "code", rt_signal_deliver_rec, code, 1),
	RT_EVENT_INT_FIELD("unsigned long", "sa_handler", rt_signal_deliver_rec,
			   sa_handler, 0),
	RT_EVENT_INT_FIELD("unsigned long", "sa_flags", rt_signal_deliver_rec,
			   sa_flags, 0),
};

static struct rt_event rt_signal_generate_event, rt_signal_deliver_event;

/* ---- probes -------------------------------------------------------------- */

/* errno and code as the sender gave them; the two special infos have none. */
static void rt_signal_info(struct kernel_siginfo *info, s32 *err, s32 *code)
{
	if (info == SEND_SIG_NOINFO) {
		*err = 0;
		*code = SI_USER;
	} else if (info == SEND_SIG_PRIV) {
		*err = 0;
		*code = SI_KERNEL;
	} else {
		*err = info->si_errno;
		*code = info->si_code;
	}
}

static void notrace rt_signal_probe_generate(void *data, int sig,
					     struct kernel_siginfo *info,
					     struct task_struct *task,
					     int group, int result)
{
	unsigned long pc = rt_event_tp_pc();
	struct rt_signal_generate_rec *r = rt_event_open(pc);

	if (!r)
		return;
	r->sig = sig;
	rt_signal_info(info, &r->err, &r->code);
	/* Padded: the scratch record holds an earlier record's bytes. */
	strscpy_pad(r->comm, task->comm, sizeof(r->comm));
	r->pid = task->pid;
	r->group = group;
	r->result = result;
	rt_event_close(&rt_signal_generate_event, r, sizeof(*r), pc);
}

static void notrace rt_signal_probe_deliver(void *data, int sig,
					    struct kernel_siginfo *info,
					    struct k_sigaction *ka)
{
	unsigned long pc = rt_event_tp_pc();
	struct rt_signal_deliver_rec *r = rt_event_open(pc);

	if (!r)
		return;
	r->sig = sig;
	rt_signal_info(info, &r->err, &r->code);
	r->pad = 0;
	r->sa_handler = (unsigned long)ka->sa.sa_handler;
	r->sa_flags = ka->sa.sa_flags;
	rt_event_close(&rt_signal_deliver_event, r, sizeof(*r), pc);
}

/* ---- printing ------------------------------------------------------------ */

static void rt_signal_print_generate(struct rt_print_ctx *ctx)
{
	const struct rt_signal_generate_rec *r = (const void *)ctx->ent;
	const char *comm;

	if (ctx->len < sizeof(*r)) {
		seq_buf_puts(ctx->s, "(truncated record)");
		return;
	}
	comm = rt_field_chars(ctx->ent, ctx->len,
			      offsetof(struct rt_signal_generate_rec, comm),
			      sizeof(r->comm));
	seq_buf_printf(ctx->s, "sig=%d errno=%d code=%d comm=%s pid=%d grp=%d res=%d",
		       r->sig, r->err, r->code, comm ? comm : "(fault)",
		       r->pid, r->group, r->result);
}

static void rt_signal_print_deliver(struct rt_print_ctx *ctx)
{
	const struct rt_signal_deliver_rec *r = (const void *)ctx->ent;

	if (ctx->len < sizeof(*r)) {
		seq_buf_puts(ctx->s, "(truncated record)");
		return;
	}
	seq_buf_printf(ctx->s, "sig=%d errno=%d code=%d sa_handler=%lx sa_flags=%lx",
		       r->sig, r->err, r->code, r->sa_handler, r->sa_flags);
}

/* ---- enabling ------------------------------------------------------------ */

static int rt_signal_set(struct rt_event *ev, bool on)
{
	if (ev == &rt_signal_generate_event) {
		if (on)
			return register_trace_signal_generate(rt_signal_probe_generate, NULL);
		unregister_trace_signal_generate(rt_signal_probe_generate, NULL);
	} else {
		if (on)
			return register_trace_signal_deliver(rt_signal_probe_deliver, NULL);
		unregister_trace_signal_deliver(rt_signal_probe_deliver, NULL);
	}
	/* The events are static: a late probe call finds them. */
	return 0;
}

static struct rt_event rt_signal_generate_event = {
	.system		= "signal",
	.name		= "signal_generate",
	.fields		= rt_signal_generate_fields,
	.nr_fields	= ARRAY_SIZE(rt_signal_generate_fields),
	.print_fmt	= "\"sig=%d errno=%d code=%d comm=%s pid=%d grp=%d res=%d\", REC->sig, REC->errno, REC->code, REC->comm, REC->pid, REC->group, REC->result",
	.print		= rt_signal_print_generate,
	.set_enabled	= rt_signal_set,
};

static struct rt_event rt_signal_deliver_event = {
	.system		= "signal",
	.name		= "signal_deliver",
	.fields		= rt_signal_deliver_fields,
	.nr_fields	= ARRAY_SIZE(rt_signal_deliver_fields),
	.print_fmt	= "\"sig=%d errno=%d code=%d sa_handler=%lx sa_flags=%lx\", REC->sig, REC->errno, REC->code, REC->sa_handler, REC->sa_flags",
	.print		= rt_signal_print_deliver,
	.set_enabled	= rt_signal_set,
};

static int __init rt_signal_events_init(void)
{
	int ret;

	ret = rt_event_add(&rt_signal_generate_event);
	if (ret)
		pr_warn("retrace: no event signal/signal_generate (%d)\n", ret);
	ret = rt_event_add(&rt_signal_deliver_event);
	if (ret)
		pr_warn("retrace: no event signal/signal_deliver (%d)\n", ret);
	return 0;
}
device_initcall(rt_signal_events_init);
