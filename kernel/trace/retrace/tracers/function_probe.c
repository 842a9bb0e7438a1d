// SPDX-License-Identifier: GPL-2.0
/*
 * The commands of set_ftrace_filter: when a chosen function is entered,
 * turn tracing on or off (traceon, traceoff) or record the kernel stack
 * (stacktrace), optionally only the first N times it would do anything.
 *
 * The commands are a call-site client of their own: their sites call
 * rt_fprobe_client_hit() whether or not the function tracer runs.
 *
 * Commands live in one of two static sets; the live one is published by
 * pointer and read locklessly, preemption disabled, in any context.
 * Updates (under rt_callsite_lock) fill the other set and swap, after
 * rt_wait_preempt_readers() (ipset.h) has seen every reader of that set
 * leave.  Nothing is ever freed, so a reader on a stale set can at worst
 * act on a command that has just been removed.  Remaining counts are
 * decremented with cmpxchg on the live set; a decrement that races with a swap may
 * be lost, never doubled.
 */
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/module.h>
#include <trace/retrace/callsite.h>
#include <trace/retrace/ipset.h>
#include "function.h"

/* Both sets are static; see the file comment. */
struct rt_fprobe_set {
	unsigned int		nr;
	struct rt_fprobe	p[RT_MAX_FPROBES];
};

static struct rt_fprobe_set rt_fprobe_sets[2];
static struct rt_fprobe_set *rt_fprobe_live = &rt_fprobe_sets[0];
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
};

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

/**
 * rt_fprobe_begin - start an update of the commands
 *
 * Return: a copy of the live set to change and pass to
 * rt_fprobe_commit(); call with rt_callsite_lock held.
 */
struct rt_fprobe_set *rt_fprobe_begin(void)
{
	struct rt_fprobe_set *next;

	lockdep_assert_held(&rt_callsite_lock);
	next = rt_fprobe_live == &rt_fprobe_sets[0] ?
	       &rt_fprobe_sets[1] : &rt_fprobe_sets[0];
	/* A reader may still be on @next from two updates ago. */
	rt_wait_preempt_readers();
	memcpy(next, rt_fprobe_live, sizeof(*next));
	return next;
}

/**
 * rt_fprobe_add - add or replace (ip, cmd) in @set
 * @set: from rt_fprobe_begin()
 * @ip: the function's call site
 * @cmd: RT_FP_*
 * @count: -1 or the number of times left
 *
 * Return: 0 or -ENOSPC.
 */
int rt_fprobe_add(struct rt_fprobe_set *set, unsigned long ip, int cmd,
		  long count)
{
	unsigned int i;

	for (i = 0; i < set->nr; i++) {
		if (set->p[i].ip == ip && set->p[i].cmd == cmd) {
			atomic_long_set(&set->p[i].count, count);
			return 0;
		}
	}
	if (set->nr == RT_MAX_FPROBES)
		return -ENOSPC;
	set->p[set->nr].ip = ip;
	set->p[set->nr].cmd = cmd;
	atomic_long_set(&set->p[set->nr].count, count);
	set->nr++;
	return 0;
}

/**
 * rt_fprobe_del - drop (ip, cmd) from @set if present
 * @set: from rt_fprobe_begin()
 * @ip: the function's call site
 * @cmd: RT_FP_*
 */
void rt_fprobe_del(struct rt_fprobe_set *set, unsigned long ip, int cmd)
{
	unsigned int i;

	for (i = 0; i < set->nr; i++) {
		if (set->p[i].ip == ip && set->p[i].cmd == cmd) {
			set->p[i] = set->p[--set->nr];
			return;
		}
	}
}

static int rt_fprobe_cmp(const void *a, const void *b)
{
	const struct rt_fprobe *x = a, *y = b;

	if (x->ip != y->ip)
		return x->ip < y->ip ? -1 : 1;
	return x->cmd - y->cmd;
}

/* Does the live set hold a command for @ip (under rt_callsite_lock)? */
static bool rt_fprobe_wants(unsigned long ip, void *arg)
{
	unsigned int i;

	for (i = 0; i < rt_fprobe_live->nr; i++)
		if (rt_fprobe_live->p[i].ip == ip)
			return true;
	return false;
}

/**
 * rt_fprobe_commit - publish @set, sorted for the lookup
 * @set: from rt_fprobe_begin()
 *
 * The command sites are marked for the patcher; the caller then runs
 * rt_callsite_update() to enable them.
 */
void rt_fprobe_commit(struct rt_fprobe_set *set)
{
	lockdep_assert_held(&rt_callsite_lock);
	sort(set->p, set->nr, sizeof(set->p[0]), rt_fprobe_cmp, NULL);
	/* Pairs with the acquire in rt_fprobe_client_hit(): entries first. */
	smp_store_release(&rt_fprobe_live, set);
	rt_cs_client_want_each(&rt_fprobe_client, rt_fprobe_wants, NULL);
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
	bool on = p->cmd == RT_FP_TRACEON;

	if (p->cmd == RT_FP_STACKTRACE) {
		if (tracing_is_on() && rt_fprobe_take(p))
			rt_trace_kstack(rt_top_instance());
		return;
	}
	if (!!tracing_is_on() == on || !rt_fprobe_take(p))
		return;
	if (on)
		tracing_on();
	else
		tracing_off();
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
	hi = min_t(unsigned int, READ_ONCE(set->nr), RT_MAX_FPROBES);
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (READ_ONCE(set->p[mid].ip) < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < RT_MAX_FPROBES && i < READ_ONCE(set->nr) &&
	     READ_ONCE(set->p[i].ip) == ip; i++)
		rt_fprobe_fire(&set->p[i]);
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(rt_fprobe_client_hit);

/**
 * rt_fprobe_show - list the commands as set_ftrace_filter shows them
 * @m: the file
 *
 * "function:command:unlimited" or "function:command:count=N" with N the
 * times left.  Call with rt_callsite_lock held.
 */
void rt_fprobe_show(struct seq_file *m)
{
	struct rt_fprobe_set *set = rt_fprobe_live;
	unsigned int i;
	long c;

	for (i = 0; i < set->nr; i++) {
		c = atomic_long_read(&set->p[i].count);
		seq_printf(m, "%ps:%s:", (void *)set->p[i].ip,
			   rt_fprobe_names[set->p[i].cmd]);
		if (c < 0)
			seq_puts(m, "unlimited\n");
		else
			seq_printf(m, "count=%ld\n", c);
	}
}

/* The commands on a module's functions go with it. */
static void rt_fprobe_module_going(struct rt_cs_client *c, struct module *mod)
{
	struct rt_fprobe_set *set;
	unsigned int i;
	bool any = false;

	lockdep_assert_held(&rt_callsite_lock);
	for (i = 0; i < rt_fprobe_live->nr; i++)
		any |= within_module(rt_fprobe_live->p[i].ip, mod);
	if (!any)
		return;
	set = rt_fprobe_begin();
	for (i = 0; i < set->nr; )
		if (within_module(set->p[i].ip, mod))
			set->p[i] = set->p[--set->nr];
		else
			i++;
	rt_fprobe_commit(set);
}

static int __init rt_fprobe_init(void)
{
	return rt_cs_client_register(&rt_fprobe_client);
}
core_initcall(rt_fprobe_init);
