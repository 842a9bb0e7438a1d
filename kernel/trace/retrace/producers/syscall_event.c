// SPDX-License-Identifier: GPL-2.0
/*
 * System calls as events: events/syscalls/sys_enter_NAME records a
 * call's number and arguments, events/syscalls/sys_exit_NAME its number
 * and return value, for every system call that SYSCALL_DEFINEn()
 * defines (its names and argument types: <trace/retrace/syscall_meta.h>).
 *
 * At boot each entry of sys_call_table is matched by symbol name
 * ("__x64_sys_openat") with a definition ("sys_openat"), giving the
 * table rt_sys_by_nr[] that the probes index.  Neither the table nor
 * the events change after boot.
 *
 * Their lines in trace carry no event name, as upstream's: the text is
 * "sys_openat(dfd: ffffff9c, ...)" or "sys_openat -> 0x3", which
 * scripts such as perf-tools' opensnoop match in a fixed column.
 *
 * The probes hang on the raw_syscalls tracepoints sys_enter and
 * sys_exit, connected while at least one event of their kind is
 * enabled: connecting one sets SYSCALL_TRACEPOINT work on every task,
 * so each system call of each task then passes through the probe, which
 * returns at once unless that call's own event is enabled.  A probe runs
 * in the calling task, in process context, with preemption disabled by
 * the tracepoint.  32-bit calls of a compat task have other numbers and
 * are not recorded.
 */
#define pr_fmt(fmt) "retrace: " fmt

#include <linux/kallsyms.h>
#include <linux/mutex.h>
#include <linux/nospec.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/compat.h>
#include <linux/tracepoint.h>
#include <asm/syscall.h>
#include <asm/unistd.h>
#include <trace/events/syscalls.h>
#include <trace/retrace/core.h>
#include <trace/retrace/event.h>
#include <trace/retrace/syscall_meta.h>

#define RT_SYS_MAX_ARGS	6

/* Laid out as upstream's, so binary readers find the same offsets. */
struct rt_sys_enter_rec {
	struct rt_entry	ent;
	s32		nr;
	u32		pad;
	unsigned long	args[RT_SYS_MAX_ARGS];
};

struct rt_sys_exit_rec {
	struct rt_entry	ent;
	s32		nr;
	u32		pad;
	long		ret;
};

/**
 * struct rt_syscall - the two events of one system call
 * @meta: its definition
 * @nr: its number (the first one, if the table has it twice)
 * @enter: events/syscalls/sys_enter_NAME
 * @exit: events/syscalls/sys_exit_NAME
 * @enter_fields: __syscall_nr, then one field per argument
 */
struct rt_syscall {
	const struct rt_syscall_meta	*meta;
	int				nr;
	struct rt_event			enter;
	struct rt_event			exit;
	struct rt_event_field		enter_fields[1 + RT_SYS_MAX_ARGS];
};

/* Filled at boot, read-only after: the probes read it without a lock. */
static struct rt_syscall *rt_sys_by_nr[NR_syscalls] __ro_after_init;

/*
 * How many events of each kind are enabled; under rt_sys_lock (the
 * event layer calls ->set_enabled under its own lock as well, but this
 * count is ours).
 */
static DEFINE_MUTEX(rt_sys_lock);
static unsigned int rt_sys_enter_users, rt_sys_exit_users;

static const struct rt_event_field rt_sys_exit_fields[] = {
	RT_EVENT_INT_FIELD("int", "__syscall_nr", rt_sys_exit_rec, nr, 1),
	RT_EVENT_INT_FIELD("long", "ret", rt_sys_exit_rec, ret, 1),
};

/* ---- probes -------------------------------------------------------------- */

/* The events of system call @nr, or NULL: not one we know, or compat. */
static struct rt_syscall *rt_sys_lookup(long nr)
{
	if (unlikely((unsigned long)nr >= NR_syscalls) || in_compat_syscall())
		return NULL;
	return rt_sys_by_nr[array_index_nospec(nr, NR_syscalls)];
}

/*
 * A scratch record for system call @id if its enter (@enter) or exit
 * event is enabled, else NULL; its events in *@sp, the count in *@pc.
 */
static void *rt_sys_open(long id, bool enter, struct rt_syscall **sp,
			 unsigned long *pc)
{
	struct rt_syscall *s = rt_sys_lookup(id);

	if (!s || !rt_event_enabled(enter ? &s->enter : &s->exit))
		return NULL;
	*sp = s;
	*pc = rt_event_tp_pc();
	return rt_event_open(*pc);
}

static void notrace rt_sys_probe_enter(void *data, struct pt_regs *regs,
				       long id)
{
	struct rt_sys_enter_rec *r;
	struct rt_syscall *s;
	unsigned long pc;

	r = rt_sys_open(id, true, &s, &pc);
	if (!r)
		return;
	r->nr = id;
	r->pad = 0;
	syscall_get_arguments(current, regs, r->args);
	rt_event_close(&s->enter, r, offsetof(struct rt_sys_enter_rec, args) +
		       s->meta->nb_args * sizeof(unsigned long), pc);
}

static void notrace rt_sys_probe_exit(void *data, struct pt_regs *regs,
				      long ret)
{
	long id = syscall_get_nr(current, regs);
	struct rt_sys_exit_rec *r;
	struct rt_syscall *s;
	unsigned long pc;

	r = rt_sys_open(id, false, &s, &pc);
	if (!r)
		return;
	r->nr = id;
	r->pad = 0;
	r->ret = ret;
	rt_event_close(&s->exit, r, sizeof(*r), pc);
}

/* ---- printing ------------------------------------------------------------ */

/* "sys_openat(dfd: ffffff9c, filename: 7ffd..., flags: 0, mode: 0)" */
static void rt_sys_print_enter(struct rt_print_ctx *ctx)
{
	const struct rt_sys_enter_rec *r = (const void *)ctx->ent;
	const struct rt_syscall *s = container_of(ctx->et, struct rt_syscall,
						  enter.type);
	const struct rt_syscall_meta *m = s->meta;
	bool verbose = ctx->tr && rt_opt(ctx->tr, RT_OPT_VERBOSE);
	int i;

	if (ctx->len < offsetof(struct rt_sys_enter_rec, args) +
		       m->nb_args * sizeof(unsigned long)) {
		seq_buf_puts(ctx->s, "(truncated record)");
		return;
	}
	seq_buf_printf(ctx->s, "%s(", m->name);
	for (i = 0; i < m->nb_args; i++)
		seq_buf_printf(ctx->s, "%s%s%s%s: %lx", i ? ", " : "",
			       verbose ? m->types[i] : "", verbose ? " " : "",
			       m->args[i], r->args[i]);
	seq_buf_putc(ctx->s, ')');
}

/* "sys_openat -> 0x3" */
static void rt_sys_print_exit(struct rt_print_ctx *ctx)
{
	const struct rt_sys_exit_rec *r = (const void *)ctx->ent;
	const struct rt_syscall *s = container_of(ctx->et, struct rt_syscall,
						  exit.type);

	if (ctx->len < sizeof(*r)) {
		seq_buf_puts(ctx->s, "(truncated record)");
		return;
	}
	seq_buf_printf(ctx->s, "%s -> 0x%lx", s->meta->name, r->ret);
}

/* ---- enabling ------------------------------------------------------------ */

static int rt_sys_set(struct rt_event *ev, bool on)
{
	struct rt_syscall *s = ev->data;
	bool enter = ev == &s->enter;
	unsigned int *users = enter ? &rt_sys_enter_users : &rt_sys_exit_users;
	int ret = 0;

	mutex_lock(&rt_sys_lock);
	if (on) {
		if (!*users)
			ret = enter ?
			      register_trace_sys_enter(rt_sys_probe_enter, NULL) :
			      register_trace_sys_exit(rt_sys_probe_exit, NULL);
		if (!ret)
			(*users)++;
	} else if (!WARN_ON_ONCE(!*users) && !--*users) {
		/* The events are never freed: a late probe call is harmless. */
		if (enter)
			unregister_trace_sys_enter(rt_sys_probe_enter, NULL);
		else
			unregister_trace_sys_exit(rt_sys_probe_exit, NULL);
	}
	mutex_unlock(&rt_sys_lock);
	return ret;
}

/* ---- boot ---------------------------------------------------------------- */

/*
 * The enter event's print fmt, as libtraceevent evaluates it:
 * "dfd: 0x%08lx, ...", ((unsigned long)(REC->dfd)), ...
 */
static char * __init rt_sys_enter_fmt(const struct rt_syscall_meta *m)
{
	struct seq_buf s;
	size_t size = 8;
	char *buf;
	int i;

	for (i = 0; i < m->nb_args; i++)
		size += 2 * strlen(m->args[i]) + 48;
	buf = kmalloc(size, GFP_KERNEL);
	if (!buf)
		return NULL;
	seq_buf_init(&s, buf, size);
	seq_buf_putc(&s, '"');
	for (i = 0; i < m->nb_args; i++)
		seq_buf_printf(&s, "%s%s: 0x%%08lx", i ? ", " : "", m->args[i]);
	seq_buf_putc(&s, '"');
	for (i = 0; i < m->nb_args; i++)
		seq_buf_printf(&s, ", ((unsigned long)(REC->%s))", m->args[i]);
	if (WARN_ON_ONCE(seq_buf_has_overflowed(&s))) {
		kfree(buf);
		return NULL;
	}
	seq_buf_str(&s);
	return buf;
}

/* A system call's events that were never added, or are removed again. */
static void __init rt_sys_free(struct rt_syscall *s)
{
	kfree(s->enter.name);
	kfree(s->exit.name);
	kfree(s->enter.print_fmt);
	kfree(s);
}

static struct rt_syscall * __init rt_sys_new(const struct rt_syscall_meta *m,
					   int nr)
{
	const char *base = m->name + 3;		/* "_openat" */
	struct rt_syscall *s;
	int i;

	if (m->nb_args < 0 || m->nb_args > RT_SYS_MAX_ARGS)
		return NULL;
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return NULL;
	s->meta = m;
	s->nr = nr;
	s->enter_fields[0] = (struct rt_event_field)
		RT_EVENT_INT_FIELD("int", "__syscall_nr", rt_sys_enter_rec,
				   nr, 1);
	for (i = 0; i < m->nb_args; i++)
		s->enter_fields[1 + i] = (struct rt_event_field){
			.type = m->types[i],
			.name = m->args[i],
			.offset = offsetof(struct rt_sys_enter_rec, args[i]),
			.size = sizeof(unsigned long),
			.kind = RT_FIELD_INT,
		};
	s->enter = (struct rt_event){
		.system = "syscalls",
		.name = kasprintf(GFP_KERNEL, "sys_enter%s", base),
		.fields = s->enter_fields,
		.nr_fields = 1 + m->nb_args,
		.print_fmt = rt_sys_enter_fmt(m),
		.print = rt_sys_print_enter,
		.set_enabled = rt_sys_set,
		.data = s,
		.unnamed = true,
	};
	s->exit = (struct rt_event){
		.system = "syscalls",
		.name = kasprintf(GFP_KERNEL, "sys_exit%s", base),
		.fields = rt_sys_exit_fields,
		.nr_fields = ARRAY_SIZE(rt_sys_exit_fields),
		.print_fmt = "\"0x%lx\", REC->ret",
		.print = rt_sys_print_exit,
		.set_enabled = rt_sys_set,
		.data = s,
		.unnamed = true,
	};
	if (!s->enter.name || !s->exit.name || !s->enter.print_fmt) {
		rt_sys_free(s);
		return NULL;
	}
	return s;
}

/* The definition of the function at @addr ("__x64_sys_NAME"), or NULL. */
static const struct rt_syscall_meta * __init rt_sys_meta_of(unsigned long addr)
{
	const struct rt_syscall_meta * const *p;
	char sym[KSYM_NAME_LEN];
	const char *name;

	if (lookup_symbol_name(addr, sym))
		return NULL;
	/* A stub may share its address with the body, or another ABI's stub. */
	name = sym;
	if (str_has_prefix(name, "__x64_"))
		name += 6;
	else if (str_has_prefix(name, "__ia32_"))
		name += 7;
	else if (str_has_prefix(name, "__do_"))
		name += 5;
	/* The table's unused slots: not a call anyone makes (as upstream). */
	if (!strcmp(name, "sys_ni_syscall"))
		return NULL;
	for (p = __start_rt_syscalls_meta; p < __stop_rt_syscalls_meta; p++)
		if (!strcmp((*p)->name, name))
			return *p;
	return NULL;
}

/*
 * Before free_initmem(): the definitions' pointers are init data.  The
 * events are added here too, so the table is complete before any can
 * be enabled.
 */
static int __init rt_syscall_events_init(void)
{
	unsigned int nr, added = 0;
	int ret;

	for (nr = 0; nr < NR_syscalls; nr++) {
		const struct rt_syscall_meta *m;
		struct rt_syscall *s = NULL;
		unsigned int i;

		m = rt_sys_meta_of((unsigned long)sys_call_table[nr]);
		if (!m)
			continue;
		/* Two numbers for one call share its events. */
		for (i = 0; i < nr && !s; i++)
			if (rt_sys_by_nr[i] && rt_sys_by_nr[i]->meta == m)
				s = rt_sys_by_nr[i];
		if (!s) {
			s = rt_sys_new(m, nr);
			if (!s) {
				pr_warn("no events for %s\n", m->name);
				continue;
			}
			ret = rt_event_add(&s->enter);
			if (!ret) {
				ret = rt_event_add(&s->exit);
				if (ret)
					rt_event_remove(&s->enter);
			}
			if (ret) {
				pr_warn("no events for %s (%d)\n", m->name, ret);
				rt_sys_free(s);
				continue;
			}
			added++;
		}
		rt_sys_by_nr[nr] = s;
	}
	pr_info("%u system calls as events\n", added);
	return 0;
}
device_initcall(rt_syscall_events_init);
