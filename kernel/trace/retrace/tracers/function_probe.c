// SPDX-License-Identifier: GPL-2.0
/*
 * The commands of set_ftrace_filter: when a chosen function is entered,
 * turn tracing on or off (traceon, traceoff), record the kernel stack
 * (stacktrace), or switch an event on or off (enable_event,
 * disable_event: the event is kept in soft mode, events/event_soft.c),
 * optionally only the first N times it would do anything.
 *
 * The commands are a call-site client of their own: their sites call
 * rt_fprobe_client_hit() whether or not the function tracer runs.
 *
 * The commands of every instance's set_ftrace_filter live in one set,
 * each naming its instance, sorted by (ip, cmd, instance, event),
 * published by
 * pointer (rt_fprobe_live) and read locklessly, preemption disabled, in
 * any context.  An update (under rt_callsite_lock) copies it into a new
 * allocation (rt_fprobe_begin()), changes the copy, sorts it and
 * publishes it with a store-release (rt_fprobe_commit()); the old set is
 * freed once rt_wait_preempt_readers() (ipset.h) has seen every reader
 * leave.  A published set never changes but for the remaining counts,
 * decremented with cmpxchg, and the @gone marks of a module that left
 * when no copy could be allocated (count 0 first: such a command is
 * inert).  A decrement that races with an update may be lost, never
 * doubled.
 *
 * Inside an update the copy is the sorted old set followed by what this
 * update appended: adds and removals find old entries by binary search,
 * so a glob matching thousands of functions costs n log n, and
 * rt_fprobe_commit() merges duplicates, keeping the latest.
 *
 * An entry points at its instance, and an event command's at its
 * event's file in that instance.  An instance's entries leave the set
 * before the instance goes (rt_fprobe_forget()).
 * Each published set holds one soft-mode count on it per such entry,
 * taken before the set is published and given back once no reader can
 * see the set; the write that adds the command holds one meanwhile.
 */
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/module.h>
#include <trace/retrace/callsite.h>
#include <trace/retrace/event.h>
#include <trace/retrace/ipset.h>
#include "function.h"

/*
 * @nr entries, room for @cap; while an update builds it, the first
 * @sorted are the old set's, in order, and @seq numbers the appended.
 */
struct rt_fprobe_set {
	unsigned int		nr;
	unsigned int		cap;
	unsigned int		sorted;
	unsigned int		seq;
	struct rt_fprobe	p[];
};

static struct rt_fprobe_set rt_fprobe_none;
static struct rt_fprobe_set *rt_fprobe_live = &rt_fprobe_none;
static void rt_fprobe_client_hit(unsigned long ip, unsigned long parent_ip,
				 unsigned long *parent_slot,
				 struct pt_regs *regs, bool check);
static void rt_fprobe_module_going(struct rt_cs_client *c,
				   struct module *mod);

static struct rt_cs_client rt_fprobe_client = {
	.name		= "commands",
	.func		= rt_fprobe_client_hit,
	.module_going	= rt_fprobe_module_going,
};

static const char * const rt_fprobe_names[] = {
	[RT_FP_TRACEON] = "traceon",
	[RT_FP_TRACEOFF] = "traceoff",
	[RT_FP_STACKTRACE] = "stacktrace",
	[RT_FP_ENABLE_EVENT] = "enable_event",
	[RT_FP_DISABLE_EVENT] = "disable_event",
};

/**
 * rt_fprobe_is_event_cmd - whether @cmd names an event
 * @cmd: RT_FP_*
 *
 * Return: true for enable_event and disable_event.
 */
bool rt_fprobe_is_event_cmd(int cmd)
{
	return cmd == RT_FP_ENABLE_EVENT || cmd == RT_FP_DISABLE_EVENT;
}

/**
 * rt_fprobe_parse_cmd - recognise a command name and its count
 * @cmd: command name
 * @arg: count or NULL for no limit
 * @count: out, -1 for no limit
 *
 * Return: the RT_FP_* value, or -EINVAL.
 */
int rt_fprobe_parse_cmd(const char *cmd, const char *arg, long *count)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(rt_fprobe_names); i++) {
		if (strcmp(cmd, rt_fprobe_names[i]))
			continue;
		*count = -1;
		if (arg && (kstrtol(arg, 0, count) || *count < 0))
			return -EINVAL;
		return i;
	}
	return -EINVAL;
}

static struct rt_fprobe_set *rt_fprobe_alloc(unsigned int cap)
{
	struct rt_fprobe_set *set;

	set = kvmalloc(struct_size(set, p, cap), GFP_KERNEL);
	if (set) {
		set->nr = 0;
		set->cap = cap;
		set->sorted = 0;
		set->seq = 0;
	}
	return set;
}

/**
 * rt_fprobe_begin - start an update of the commands
 *
 * Return: a copy of the live set to change, then to pass to
 * rt_fprobe_commit() or rt_fprobe_abort(); NULL if out of memory.  Call
 * with rt_callsite_lock held.
 */
struct rt_fprobe_set *rt_fprobe_begin(void)
{
	struct rt_fprobe_set *live = rt_fprobe_live, *next;
	unsigned int i;

	lockdep_assert_held(&rt_callsite_lock);
	next = rt_fprobe_alloc(live->nr + 16);
	if (!next)
		return NULL;
	for (i = 0; i < live->nr; i++) {
		if (live->p[i].gone)
			continue;
		next->p[next->nr] = live->p[i];
		atomic_long_set(&next->p[next->nr].count,
				atomic_long_read(&live->p[i].count));
		next->nr++;
	}
	next->sorted = next->nr;
	return next;
}

/**
 * rt_fprobe_abort - drop an update
 * @set: from rt_fprobe_begin()
 */
void rt_fprobe_abort(struct rt_fprobe_set *set)
{
	kvfree(set);
}

static int rt_fprobe_cmp(const void *a, const void *b)
{
	const struct rt_fprobe *x = a, *y = b;

	if (x->ip != y->ip)
		return x->ip < y->ip ? -1 : 1;
	if (x->cmd != y->cmd)
		return x->cmd - y->cmd;
	if (x->tr != y->tr)
		return (unsigned long)x->tr < (unsigned long)y->tr ? -1 : 1;
	if (x->ev != y->ev)
		return (unsigned long)x->ev < (unsigned long)y->ev ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * The entry for (@ip, @cmd, @tr, @ev) among @set's first @n, which are
 * sorted (their seq is 0 then, or does not matter: one per key).
 */
static struct rt_fprobe *rt_fprobe_find(struct rt_fprobe_set *set,
					unsigned int n, unsigned long ip,
					int cmd, struct rt_instance *tr,
					struct rt_event_file *ev)
{
	struct rt_fprobe key = { .ip = ip, .cmd = cmd, .tr = tr, .ev = ev };
	unsigned int lo = 0, hi = n;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;
		struct rt_fprobe *p = &set->p[mid];
		int c;

		if (p->ip == ip && p->cmd == cmd && p->tr == tr && p->ev == ev)
			return p;
		key.seq = p->seq;
		c = rt_fprobe_cmp(p, &key);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/**
 * rt_fprobe_add - add or replace (ip, cmd, tr, ev)
 * @setp: the set from rt_fprobe_begin(); may be moved to grow it
 * @ip: the function's call site
 * @cmd: RT_FP_*
 * @count: -1 or the number of times left
 * @tr: the instance whose set_ftrace_filter it is written to
 * @ev: the event of an event command (held by the caller until the
 *	update is committed or aborted), else NULL
 *
 * Return: 0 or -ENOMEM (the set is then unchanged).
 */
int rt_fprobe_add(struct rt_fprobe_set **setp, unsigned long ip, int cmd,
		  long count, struct rt_instance *tr, struct rt_event_file *ev)
{
	struct rt_fprobe_set *set = *setp, *big;
	struct rt_fprobe *p = rt_fprobe_find(set, set->sorted, ip, cmd, tr,
					     ev);

	if (p) {
		p->gone = 0;
		atomic_long_set(&p->count, count);
		return 0;
	}
	if (set->nr == set->cap) {
		big = rt_fprobe_alloc(set->cap * 2);
		if (!big)
			return -ENOMEM;
		memcpy(big->p, set->p, set->nr * sizeof(set->p[0]));
		big->nr = set->nr;
		big->sorted = set->sorted;
		big->seq = set->seq;
		kvfree(set);
		*setp = set = big;
	}
	p = &set->p[set->nr++];
	p->ip = ip;
	p->cmd = cmd;
	p->tr = tr;
	p->ev = ev;
	p->gone = 0;
	p->seq = ++set->seq;
	atomic_long_set(&p->count, count);
	return 0;
}

/**
 * rt_fprobe_del - drop (ip, cmd, tr, ev) from @set if present
 * @set: from rt_fprobe_begin()
 * @ip: the function's call site, the last one added to, if any
 * @cmd: RT_FP_*
 * @tr: the instance
 * @ev: the event of an event command, else NULL
 */
void rt_fprobe_del(struct rt_fprobe_set *set, unsigned long ip, int cmd,
		   struct rt_instance *tr, struct rt_event_file *ev)
{
	struct rt_fprobe *p = rt_fprobe_find(set, set->sorted, ip, cmd, tr,
					     ev);
	unsigned int i;

	if (p)
		p->gone = 1;
	/*
	 * What this update appended for @ip: the patterns of a write are
	 * applied site by site (function_filter.c), so those entries are
	 * the last ones.
	 */
	for (i = set->nr; i > set->sorted && set->p[i - 1].ip == ip; i--)
		if (set->p[i - 1].cmd == cmd && set->p[i - 1].tr == tr &&
		    set->p[i - 1].ev == ev)
			set->p[i - 1].gone = 1;
}

/* Does the live set hold a command for @ip (under rt_callsite_lock)? */
static bool rt_fprobe_wants(unsigned long ip, void *arg)
{
	struct rt_fprobe_set *set = rt_fprobe_live;
	unsigned int lo = 0, hi = set->nr;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (set->p[mid].ip < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < set->nr && set->p[lo].ip == ip; lo++)
		if (!set->p[lo].gone)
			return true;
	return false;
}

/**
 * rt_fprobe_commit - publish @set, sorted for the lookup
 * @set: from rt_fprobe_begin()
 *
 * Removed entries go, and of several for one (ip, cmd) the latest
 * stays.  The command sites are marked for the patcher; the caller then
 * runs rt_callsite_update() to enable them.  May sleep.
 */
void rt_fprobe_commit(struct rt_fprobe_set *set)
{
	struct rt_fprobe_set *old = rt_fprobe_live;
	unsigned int i, n = 0;

	lockdep_assert_held(&rt_callsite_lock);
	/* Old entries have seq 0, so appended ones sort after them. */
	for (i = 0; i < set->sorted; i++)
		set->p[i].seq = 0;
	sort(set->p, set->nr, sizeof(set->p[0]), rt_fprobe_cmp, NULL);
	for (i = 0; i < set->nr; i++) {
		struct rt_fprobe *p = &set->p[i];

		if (p->gone)
			continue;
		/* A later entry for the same command replaces this one. */
		if (i + 1 < set->nr && set->p[i + 1].ip == p->ip &&
		    set->p[i + 1].cmd == p->cmd && set->p[i + 1].tr == p->tr &&
		    set->p[i + 1].ev == p->ev && !set->p[i + 1].gone)
			continue;
		set->p[n] = *p;
		atomic_long_set(&set->p[n].count, atomic_long_read(&p->count));
		/* This set's own hold on the event (see the top). */
		if (set->p[n].ev)
			rt_event_soft_hold(set->p[n].ev);
		n++;
	}
	set->nr = n;
	set->sorted = n;
	/* Pairs with the acquire in rt_fprobe_client_hit(): entries first. */
	smp_store_release(&rt_fprobe_live, set);
	rt_cs_client_want_each(&rt_fprobe_client, rt_fprobe_wants, NULL);
	if (old != &rt_fprobe_none) {
		rt_wait_preempt_readers();
		for (i = 0; i < old->nr; i++)
			if (old->p[i].ev)
				rt_event_soft_release(old->p[i].ev);
		kvfree(old);
	}
}

/* Use up one of @p's times; false when none is left. */
static bool notrace rt_fprobe_take(struct rt_fprobe *p)
{
	long c = atomic_long_read(&p->count);

	do {
		if (!c)
			return false;
	} while (c > 0 && !atomic_long_try_cmpxchg(&p->count, &c, c - 1));
	return true;
}

/*
 * Run one command, within its count: turn tracing on or off, or record
 * the stack.  A hit that would change nothing (tracing already in the
 * state asked for, or off for a stack) does not use up the count.
 */
static void notrace rt_fprobe_fire(struct rt_fprobe *p)
{
	bool on = p->cmd == RT_FP_TRACEON || p->cmd == RT_FP_ENABLE_EVENT;

	/* Made inert in place (rt_fprobe_drop()): its instance may go. */
	if (READ_ONCE(p->gone))
		return;

	if (p->ev) {
		/*
		 * Only the hit that switches the event uses up a time: two
		 * CPUs that both saw it off would otherwise take two for
		 * one switch (ftracetest's func_event_triggers saw ":3" run
		 * out after two).  A count that ran out between the peek and
		 * the take (another winner, after a user's write switched
		 * it back) costs at most one extra switch.
		 */
		if (rt_event_soft_enabled(p->ev) != on &&
		    atomic_long_read(&p->count) &&
		    rt_event_soft_switch(p->ev, on))
			rt_fprobe_take(p);
		return;
	}

	if (p->cmd == RT_FP_STACKTRACE) {
		/* Recording here: tracing on and this CPU in tracing_cpumask. */
		if (rt_recording(p->tr) && rt_fprobe_take(p))
			rt_trace_kstack(p->tr);
		return;
	}
	/* The instance's tracing_on, as its file and tracing_on() write it. */
	if (!!READ_ONCE(p->tr->on) == on || !rt_fprobe_take(p))
		return;
	WRITE_ONCE(p->tr->on, on);
}

/*
 * rt_fprobe_client_hit - run the commands attached to @ip
 *
 * The client callback, in any context; every site of ours may also be
 * reached for another client (@check), so the lookup decides.
 */
static void notrace rt_fprobe_client_hit(unsigned long ip,
					 unsigned long parent_ip,
					 unsigned long *parent_slot,
					 struct pt_regs *regs, bool check)
{
	struct rt_fprobe_set *set;
	unsigned int lo = 0, hi, i;

	preempt_disable_notrace();
	/* Pairs with the release in rt_fprobe_commit(). */
	set = smp_load_acquire(&rt_fprobe_live);
	hi = READ_ONCE(set->nr);
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (READ_ONCE(set->p[mid].ip) < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < READ_ONCE(set->nr) && READ_ONCE(set->p[i].ip) == ip;
	     i++)
		rt_fprobe_fire(&set->p[i]);
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(rt_fprobe_client_hit);

/**
 * rt_fprobe_show - list an instance's commands as set_ftrace_filter does
 * @m: the file
 * @tr: the instance
 *
 * "function:command:unlimited" or "function:command:count=N" with N the
 * times left.  Call with rt_callsite_lock held.
 */
void rt_fprobe_show(struct seq_file *m, struct rt_instance *tr)
{
	struct rt_fprobe_set *set = rt_fprobe_live;
	unsigned int i;
	long c;

	for (i = 0; i < set->nr; i++) {
		if (set->p[i].gone || set->p[i].tr != tr)
			continue;
		c = atomic_long_read(&set->p[i].count);
		seq_printf(m, "%ps:%s:", (void *)set->p[i].ip,
			   rt_fprobe_names[set->p[i].cmd]);
		if (set->p[i].ev) {
			rt_event_soft_name(m, set->p[i].ev);
			seq_putc(m, ':');
		}
		if (c < 0)
			seq_puts(m, "unlimited\n");
		else
			seq_printf(m, "count=%ld\n", c);
	}
}

/*
 * Drop the live commands @gone picks.  Without memory for a copy they
 * become inert in place: no time left and gone, which rt_fprobe_fire()
 * checks first; once no reader can still be past that check, their
 * event holds are given back (the event's file may go next), and the
 * next update drops them.  Call with rt_callsite_lock held.
 */
static void rt_fprobe_drop(bool (*gone)(const struct rt_fprobe *p,
					const void *arg), const void *arg)
{
	struct rt_fprobe_set *set, *live = rt_fprobe_live;
	struct rt_event_file *ev;
	unsigned int i;
	bool any = false;

	lockdep_assert_held(&rt_callsite_lock);
	for (i = 0; i < live->nr; i++)
		any |= !live->p[i].gone && gone(&live->p[i], arg);
	if (!any)
		return;
	set = rt_fprobe_begin();
	if (set) {
		for (i = 0; i < set->nr; i++)
			if (gone(&set->p[i], arg))
				set->p[i].gone = 1;
		rt_fprobe_commit(set);
		return;
	}
	for (i = 0; i < live->nr; i++) {
		if (live->p[i].gone || !gone(&live->p[i], arg))
			continue;
		atomic_long_set(&live->p[i].count, 0);
		WRITE_ONCE(live->p[i].gone, 1);
	}
	rt_cs_client_want_each(&rt_fprobe_client, rt_fprobe_wants, NULL);
	rt_wait_preempt_readers();
	for (i = 0; i < live->nr; i++) {
		ev = live->p[i].ev;
		if (live->p[i].gone && ev && gone(&live->p[i], arg)) {
			live->p[i].ev = NULL;
			rt_event_soft_release(ev);
		}
	}
}

static bool rt_fprobe_in_module(const struct rt_fprobe *p, const void *mod)
{
	return within_module(p->ip, (struct module *)mod);
}

/* The commands on a module's functions go with it. */
static void rt_fprobe_module_going(struct rt_cs_client *c, struct module *mod)
{
	rt_fprobe_drop(rt_fprobe_in_module, mod);
}

static bool rt_fprobe_of(const struct rt_fprobe *p, const void *tr)
{
	return p->tr == tr;
}

/**
 * rt_fprobe_forget - drop the commands of an instance that goes
 * @tr: the instance
 *
 * Once this returns no hit uses @tr or its events' files.  Call with
 * rt_callsite_lock held; the caller runs rt_callsite_update().
 */
void rt_fprobe_forget(struct rt_instance *tr)
{
	rt_fprobe_drop(rt_fprobe_of, tr);
}

static int __init rt_fprobe_init(void)
{
	return rt_cs_client_register(&rt_fprobe_client);
}
core_initcall(rt_fprobe_init);
