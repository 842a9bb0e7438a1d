// SPDX-License-Identifier: GPL-2.0
/*
 * Interrupts as events: events/irq/irq_handler_entry and
 * irq_handler_exit around each handler of a device interrupt, and
 * softirq_raise, softirq_entry and softirq_exit for softirqs, from the
 * kernel's irq tracepoints, with upstream's fields and print formats.
 *
 * These fire in whatever task an interrupt lands on (the idle task
 * included), which is what makes them the events that show activity
 * outside the traced tasks.  The probes run in hardirq context (the
 * handler events, softirq_raise from an interrupt) or with softirqs
 * being served, preemption disabled by the tracepoint; they copy a few
 * fields into the event layer's scratch record, whose per-context slots
 * make a probe interrupted by another probe safe.  No lock, no sleep.
 */
#include <linux/interrupt.h>
#include <linux/seq_buf.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <trace/events/irq.h>
#include <trace/retrace/event.h>

/* Bytes of a handler's name kept in a record, NUL included. */
#define RT_IRQ_NAME_MAX	64

struct rt_irq_entry_rec {
	struct rt_entry	ent;
	s32		irq;
	u32		name;	/* RT_FIELD_STRING locator */
	char		name_buf[RT_IRQ_NAME_MAX];
};

struct rt_irq_exit_rec {
	struct rt_entry	ent;
	s32		irq;
	s32		ret;
};

struct rt_softirq_rec {
	struct rt_entry	ent;
	u32		vec;
};

static const struct rt_event_field rt_irq_entry_fields[] = {
	RT_EVENT_INT_FIELD("int", "irq", rt_irq_entry_rec, irq, 1),
	{ "__data_loc char[]", "name", offsetof(struct rt_irq_entry_rec, name),
	  sizeof_field(struct rt_irq_entry_rec, name), 0, RT_FIELD_STRING },
};

static const struct rt_event_field rt_irq_exit_fields[] = {
	RT_EVENT_INT_FIELD("int", "irq", rt_irq_exit_rec, irq, 1),
	RT_EVENT_INT_FIELD("int", "ret", rt_irq_exit_rec, ret, 1),
};

static const struct rt_event_field rt_softirq_fields[] = {
	RT_EVENT_INT_FIELD("unsigned int", "vec", rt_softirq_rec, vec, 0),
};

static struct rt_event rt_irq_entry_event, rt_irq_exit_event,
	rt_softirq_raise_event, rt_softirq_entry_event, rt_softirq_exit_event;

/* ---- probes -------------------------------------------------------------- */

static void notrace rt_irq_probe_entry(void *data, int irq,
				       struct irqaction *action)
{
	unsigned long pc = rt_event_tp_pc();
	struct rt_irq_entry_rec *r = rt_event_open(pc);
	const char *name = action->name ? action->name : "";
	unsigned int start = offsetof(struct rt_irq_entry_rec, name_buf);
	ssize_t n;

	if (!r)
		return;
	r->irq = irq;
	n = strscpy(r->name_buf, name, sizeof(r->name_buf));
	n = n < 0 ? sizeof(r->name_buf) : n + 1;	/* cut: strscpy ended it */
	r->name = (u32)n << 16 | start;
	rt_event_close(&rt_irq_entry_event, r, start + n, pc);
}

static void notrace rt_irq_probe_exit(void *data, int irq,
				      struct irqaction *action, int ret)
{
	unsigned long pc = rt_event_tp_pc();
	struct rt_irq_exit_rec *r = rt_event_open(pc);

	if (!r)
		return;
	r->irq = irq;
	r->ret = ret;
	rt_event_close(&rt_irq_exit_event, r, sizeof(*r), pc);
}

/* softirq_raise, softirq_entry and softirq_exit: @data is the event. */
static void notrace rt_irq_probe_softirq(void *data, unsigned int vec_nr)
{
	unsigned long pc = rt_event_tp_pc();
	struct rt_softirq_rec *r = rt_event_open(pc);

	if (!r)
		return;
	r->vec = vec_nr;
	rt_event_close(data, r, sizeof(*r), pc);
}

/* ---- printing ------------------------------------------------------------ */

static void rt_irq_print_entry(struct rt_print_ctx *ctx)
{
	const struct rt_irq_entry_rec *r = (const void *)ctx->ent;
	const char *name;

	if (ctx->len < offsetof(struct rt_irq_entry_rec, name_buf)) {
		seq_buf_puts(ctx->s, "(truncated record)");
		return;
	}
	name = rt_field_string(ctx->ent, ctx->len,
			       offsetof(struct rt_irq_entry_rec, name));
	seq_buf_printf(ctx->s, "irq=%d name=%s", r->irq, name ? name : "(fault)");
}

static void rt_irq_print_exit(struct rt_print_ctx *ctx)
{
	const struct rt_irq_exit_rec *r = (const void *)ctx->ent;

	if (ctx->len < sizeof(*r)) {
		seq_buf_puts(ctx->s, "(truncated record)");
		return;
	}
	seq_buf_printf(ctx->s, "irq=%d ret=%s", r->irq,
		       r->ret ? "handled" : "unhandled");
}

static void rt_irq_print_softirq(struct rt_print_ctx *ctx)
{
	const struct rt_softirq_rec *r = (const void *)ctx->ent;

	if (ctx->len < sizeof(*r)) {
		seq_buf_puts(ctx->s, "(truncated record)");
		return;
	}
	seq_buf_printf(ctx->s, "vec=%u [action=%s]", r->vec,
		       r->vec < NR_SOFTIRQS ? softirq_to_name[r->vec] : "?");
}

/* ---- enabling ------------------------------------------------------------ */

static int rt_irq_set(struct rt_event *ev, bool on)
{
	if (ev == &rt_irq_entry_event) {
		if (on)
			return register_trace_irq_handler_entry(rt_irq_probe_entry, NULL);
		unregister_trace_irq_handler_entry(rt_irq_probe_entry, NULL);
	} else if (ev == &rt_irq_exit_event) {
		if (on)
			return register_trace_irq_handler_exit(rt_irq_probe_exit, NULL);
		unregister_trace_irq_handler_exit(rt_irq_probe_exit, NULL);
	} else if (ev == &rt_softirq_raise_event) {
		if (on)
			return register_trace_softirq_raise(rt_irq_probe_softirq, ev);
		unregister_trace_softirq_raise(rt_irq_probe_softirq, ev);
	} else if (ev == &rt_softirq_entry_event) {
		if (on)
			return register_trace_softirq_entry(rt_irq_probe_softirq, ev);
		unregister_trace_softirq_entry(rt_irq_probe_softirq, ev);
	} else {
		if (on)
			return register_trace_softirq_exit(rt_irq_probe_softirq, ev);
		unregister_trace_softirq_exit(rt_irq_probe_softirq, ev);
	}
	/* The events are static: a late probe call finds them. */
	return 0;
}

/*
 * The softirq events' print fmt names each vector as upstream's does
 * with __print_symbolic(); filled at boot from softirq_to_name[].
 */
static char rt_softirq_fmt[400];

#define RT_IRQ_EVENT(var, ename, flds, fmt, printer)			\
static struct rt_event var = {						\
	.system		= "irq",					\
	.name		= ename,					\
	.fields		= flds,						\
	.nr_fields	= ARRAY_SIZE(flds),				\
	.print_fmt	= fmt,						\
	.print		= printer,					\
	.set_enabled	= rt_irq_set,					\
}

RT_IRQ_EVENT(rt_irq_entry_event, "irq_handler_entry", rt_irq_entry_fields,
	     "\"irq=%d name=%s\", REC->irq, __get_str(name)",
	     rt_irq_print_entry);
RT_IRQ_EVENT(rt_irq_exit_event, "irq_handler_exit", rt_irq_exit_fields,
	     "\"irq=%d ret=%s\", REC->irq, REC->ret ? \"handled\" : \"unhandled\"",
	     rt_irq_print_exit);
RT_IRQ_EVENT(rt_softirq_raise_event, "softirq_raise", rt_softirq_fields,
	     rt_softirq_fmt, rt_irq_print_softirq);
RT_IRQ_EVENT(rt_softirq_entry_event, "softirq_entry", rt_softirq_fields,
	     rt_softirq_fmt, rt_irq_print_softirq);
RT_IRQ_EVENT(rt_softirq_exit_event, "softirq_exit", rt_softirq_fields,
	     rt_softirq_fmt, rt_irq_print_softirq);

static int __init rt_irq_events_init(void)
{
	struct rt_event *all[] = {
		&rt_irq_entry_event, &rt_irq_exit_event,
		&rt_softirq_raise_event, &rt_softirq_entry_event,
		&rt_softirq_exit_event,
	};
	struct seq_buf s;
	unsigned int i;
	int ret;

	seq_buf_init(&s, rt_softirq_fmt, sizeof(rt_softirq_fmt));
	seq_buf_puts(&s, "\"vec=%u [action=%s]\", REC->vec, __print_symbolic(REC->vec");
	for (i = 0; i < NR_SOFTIRQS; i++)
		seq_buf_printf(&s, ", { %u, \"%s\" }", i, softirq_to_name[i]);
	seq_buf_putc(&s, ')');
	if (WARN_ON(seq_buf_has_overflowed(&s)))
		return -ENOSPC;
	seq_buf_str(&s);

	for (i = 0; i < ARRAY_SIZE(all); i++) {
		ret = rt_event_add(all[i]);
		if (ret)
			pr_warn("retrace: no event irq/%s (%d)\n", all[i]->name,
				ret);
	}
	return 0;
}
device_initcall(rt_irq_events_init);
