// SPDX-License-Identifier: GPL-2.0
/*
 * Timer-wheel timers as events: events/timer/timer_init, timer_start,
 * timer_expire_entry, timer_expire_exit and timer_cancel, from the
 * kernel's timer tracepoints, with upstream's fields and print formats.
 *
 * They show who arms which timer_list, when it fires and whose function
 * runs.  timer_cancel is the kernel's detach: it also fires before each
 * expiry.  timer_start and timer_cancel fire under the timer base's raw
 * spinlock (interrupts off), the expiry events in the timer softirq;
 * each probe copies a few fields into the event layer's scratch record,
 * whose per-context slots keep a probe that interrupts another apart
 * from it.  No lock, no sleep.
 */
#include <linux/jiffies.h>
#include <linux/timer.h>
#include <linux/tracepoint.h>
#include <trace/events/timer.h>
#include <trace/retrace/event.h>

/* timer_init, timer_expire_exit and timer_cancel: the timer alone. */
struct rt_timer_rec {
	struct rt_entry	ent;
	unsigned long	timer;
};

struct rt_timer_start_rec {
	struct rt_entry	ent;
	unsigned long	timer;
	unsigned long	function;
	unsigned long	expires;
	unsigned long	bucket_expiry;
	unsigned long	now;
	u32		flags;
};

struct rt_timer_expire_rec {
	struct rt_entry	ent;
	unsigned long	timer;
	unsigned long	now;
	unsigned long	function;
	unsigned long	baseclk;
};

#define RT_TIMER_PTR(rec, f)						\
	RT_EVENT_INT_FIELD("void *", #f, rec, f, 0)
#define RT_TIMER_UL(rec, f)						\
	RT_EVENT_INT_FIELD("unsigned long", #f, rec, f, 0)

static const struct rt_event_field rt_timer_fields[] = {
	RT_TIMER_PTR(rt_timer_rec, timer),
};

static const struct rt_event_field rt_timer_start_fields[] = {
	RT_TIMER_PTR(rt_timer_start_rec, timer),
	RT_TIMER_PTR(rt_timer_start_rec, function),
	RT_TIMER_UL(rt_timer_start_rec, expires),
	RT_TIMER_UL(rt_timer_start_rec, bucket_expiry),
	RT_TIMER_UL(rt_timer_start_rec, now),
	RT_EVENT_INT_FIELD("unsigned int", "flags", rt_timer_start_rec, flags,
			   0),
};

static const struct rt_event_field rt_timer_expire_fields[] = {
	RT_TIMER_PTR(rt_timer_expire_rec, timer),
	RT_TIMER_UL(rt_timer_expire_rec, now),
	RT_TIMER_PTR(rt_timer_expire_rec, function),
	RT_TIMER_UL(rt_timer_expire_rec, baseclk),
};

static struct rt_event rt_timer_init_event, rt_timer_start_event,
	rt_timer_expire_entry_event, rt_timer_expire_exit_event,
	rt_timer_cancel_event;

/* ---- probes -------------------------------------------------------------- */

/* timer_init, timer_expire_exit and timer_cancel: @data is the event. */
static void notrace rt_timer_probe(void *data, struct timer_list *timer)
{
	unsigned long pc = rt_event_tp_pc();
	struct rt_timer_rec *r = rt_event_open(pc);

	if (!r)
		return;
	r->timer = (unsigned long)timer;
	rt_event_close(data, r, sizeof(*r), pc);
}

static void notrace rt_timer_probe_start(void *data, struct timer_list *timer,
					 unsigned long bucket_expiry)
{
	unsigned long pc = rt_event_tp_pc();
	struct rt_timer_start_rec *r = rt_event_open(pc);

	if (!r)
		return;
	r->timer = (unsigned long)timer;
	r->function = (unsigned long)timer->function;
	r->expires = timer->expires;
	r->bucket_expiry = bucket_expiry;
	r->now = jiffies;
	r->flags = timer->flags;
	rt_event_close(&rt_timer_start_event, r, sizeof(*r), pc);
}

static void notrace rt_timer_probe_expire(void *data,
					  struct timer_list *timer,
					  unsigned long baseclk)
{
	unsigned long pc = rt_event_tp_pc();
	struct rt_timer_expire_rec *r = rt_event_open(pc);

	if (!r)
		return;
	r->timer = (unsigned long)timer;
	r->now = jiffies;
	r->function = (unsigned long)timer->function;
	r->baseclk = baseclk;
	rt_event_close(&rt_timer_expire_entry_event, r, sizeof(*r), pc);
}

/* ---- printing ------------------------------------------------------------ */

static void rt_timer_print(struct rt_print_ctx *ctx)
{
	const struct rt_timer_rec *r = (const void *)ctx->ent;

	if (ctx->len < sizeof(*r)) {
		seq_buf_puts(ctx->s, "(truncated record)");
		return;
	}
	seq_buf_printf(ctx->s, "timer=%p", (void *)r->timer);
}

/* timer_start's flags, as upstream's __print_flags() names them. */
static const struct {
	u32	bit;
	char	name;
} rt_timer_flag_names[] = {
	{ TIMER_MIGRATING, 'M' }, { TIMER_DEFERRABLE, 'D' },
	{ TIMER_PINNED, 'P' }, { TIMER_IRQSAFE, 'I' },
};

static void rt_timer_print_start(struct rt_print_ctx *ctx)
{
	const struct rt_timer_start_rec *r = (const void *)ctx->ent;
	bool first = true;
	unsigned int i;
	u32 f;

	if (ctx->len < sizeof(*r)) {
		seq_buf_puts(ctx->s, "(truncated record)");
		return;
	}
	f = r->flags;
	seq_buf_printf(ctx->s, "timer=%p function=%ps expires=%lu [timeout=%ld] bucket_expiry=%lu cpu=%u idx=%u flags=",
		       (void *)r->timer, (void *)r->function, r->expires,
		       (long)r->expires - (long)r->now, r->bucket_expiry,
		       f & TIMER_CPUMASK, f >> TIMER_ARRAYSHIFT);
	for (i = 0; i < ARRAY_SIZE(rt_timer_flag_names); i++) {
		if (!(f & rt_timer_flag_names[i].bit))
			continue;
		if (!first)
			seq_buf_putc(ctx->s, '|');
		seq_buf_putc(ctx->s, rt_timer_flag_names[i].name);
		first = false;
	}
}

static void rt_timer_print_expire(struct rt_print_ctx *ctx)
{
	const struct rt_timer_expire_rec *r = (const void *)ctx->ent;

	if (ctx->len < sizeof(*r)) {
		seq_buf_puts(ctx->s, "(truncated record)");
		return;
	}
	seq_buf_printf(ctx->s, "timer=%p function=%ps now=%lu baseclk=%lu",
		       (void *)r->timer, (void *)r->function, r->now,
		       r->baseclk);
}

/* ---- enabling ------------------------------------------------------------ */

static int rt_timer_set(struct rt_event *ev, bool on)
{
	if (ev == &rt_timer_init_event) {
		if (on)
			return register_trace_timer_init(rt_timer_probe, ev);
		unregister_trace_timer_init(rt_timer_probe, ev);
	} else if (ev == &rt_timer_start_event) {
		if (on)
			return register_trace_timer_start(rt_timer_probe_start,
							  NULL);
		unregister_trace_timer_start(rt_timer_probe_start, NULL);
	} else if (ev == &rt_timer_expire_entry_event) {
		if (on)
			return register_trace_timer_expire_entry(rt_timer_probe_expire,
								 NULL);
		unregister_trace_timer_expire_entry(rt_timer_probe_expire, NULL);
	} else if (ev == &rt_timer_expire_exit_event) {
		if (on)
			return register_trace_timer_expire_exit(rt_timer_probe, ev);
		unregister_trace_timer_expire_exit(rt_timer_probe, ev);
	} else {
		if (on)
			return register_trace_timer_cancel(rt_timer_probe, ev);
		unregister_trace_timer_cancel(rt_timer_probe, ev);
	}
	/* The events are static: a late probe call finds them. */
	return 0;
}

#define RT_TIMER_EVENT(var, ename, flds, fmt, printer)			\
static struct rt_event var = {						\
	.system		= "timer",					\
	.name		= ename,					\
	.fields		= flds,						\
	.nr_fields	= ARRAY_SIZE(flds),				\
	.print_fmt	= fmt,						\
	.print		= printer,					\
	.set_enabled	= rt_timer_set,					\
}

#define RT_TIMER_FMT	"\"timer=%p\", REC->timer"

RT_TIMER_EVENT(rt_timer_init_event, "timer_init", rt_timer_fields,
	       RT_TIMER_FMT, rt_timer_print);
/* The print fmt spells out the flag values: they must stay these. */
static_assert(TIMER_CPUMASK == 0x3ffff && TIMER_ARRAYSHIFT == 22 &&
	      TIMER_MIGRATING == 0x40000 && TIMER_DEFERRABLE == 0x80000 &&
	      TIMER_PINNED == 0x100000 && TIMER_IRQSAFE == 0x200000);
RT_TIMER_EVENT(rt_timer_start_event, "timer_start", rt_timer_start_fields,
	       "\"timer=%p function=%ps expires=%lu [timeout=%ld] bucket_expiry=%lu cpu=%u idx=%u flags=%s\", REC->timer, REC->function, REC->expires, (long)REC->expires - REC->now, REC->bucket_expiry, REC->flags & 0x3ffff, REC->flags >> 22, __print_flags(REC->flags & 0x3c0000, \"|\", { 0x40000, \"M\" }, { 0x80000, \"D\" }, { 0x100000, \"P\" }, { 0x200000, \"I\" })",
	       rt_timer_print_start);
RT_TIMER_EVENT(rt_timer_expire_entry_event, "timer_expire_entry",
	       rt_timer_expire_fields,
	       "\"timer=%p function=%ps now=%lu baseclk=%lu\", REC->timer, REC->function, REC->now, REC->baseclk",
	       rt_timer_print_expire);
RT_TIMER_EVENT(rt_timer_expire_exit_event, "timer_expire_exit",
	       rt_timer_fields, RT_TIMER_FMT, rt_timer_print);
RT_TIMER_EVENT(rt_timer_cancel_event, "timer_cancel", rt_timer_fields,
	       RT_TIMER_FMT, rt_timer_print);

static int __init rt_timer_events_init(void)
{
	struct rt_event *all[] = {
		&rt_timer_init_event, &rt_timer_start_event,
		&rt_timer_expire_entry_event, &rt_timer_expire_exit_event,
		&rt_timer_cancel_event,
	};
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(all); i++) {
		ret = rt_event_add(all[i]);
		if (ret)
			pr_warn("retrace: no event timer/%s (%d)\n",
				all[i]->name, ret);
	}
	return 0;
}
device_initcall(rt_timer_events_init);
