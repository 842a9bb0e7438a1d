// SPDX-License-Identifier: GPL-2.0
/*
 * ":mod:" patterns of set_ftrace_filter, set_ftrace_notrace,
 * set_graph_function and stack_trace_filter that name a module with no call site in the table
 * (not loaded yet): they wait here, and apply when the module arrives,
 * before any of its code runs, so the functions its init calls are
 * traced from the start (__init functions themselves never are).
 *
 * Everything here is under rt_callsite_lock: the writes of the filter
 * files (function_filter.c), and the function tracer's module_coming
 * callback, which the call-site layer runs when a module's sites have
 * entered the table and before they are patched.  Nothing is read
 * locklessly: the hit path sees only the published sets.
 *
 * A filter (or set_graph_function) that holds only waiting patterns
 * selects nothing until they apply, as a filter whose module left does
 * (struct rt_ff_target: gone).
 */
#include <linux/list.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <trace/retrace/callsite.h>
#include <trace/retrace/glob.h>
#include <trace/retrace/ipset.h>
#include "function.h"

static LIST_HEAD(rt_ff_pending_list);

/**
 * rt_ff_pending_new - a waiting pattern, not yet in the list
 * @target: the file
 * @glob: the function glob
 * @mod: the module
 *
 * Return: the entry for rt_ff_pending_commit(), or NULL without memory.
 */
struct rt_ff_pending *rt_ff_pending_new(const struct rt_ff_target *target,
					const char *glob, const char *mod)
{
	struct rt_ff_pending *p = kzalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return NULL;
	p->target = target;
	p->glob = kstrdup(glob, GFP_KERNEL);
	p->mod = kstrdup(mod, GFP_KERNEL);
	if (!p->glob || !p->mod) {
		rt_ff_pending_free(p);
		return NULL;
	}
	INIT_LIST_HEAD(&p->list);
	return p;
}

/**
 * rt_ff_pending_free - free an entry (and nothing else)
 * @p: from rt_ff_pending_new(), not in the list
 */
void rt_ff_pending_free(struct rt_ff_pending *p)
{
	kfree(p->glob);
	kfree(p->mod);
	kfree(p);
}

static void rt_ff_pending_drop(struct rt_ff_pending *p)
{
	list_del(&p->list);
	rt_ff_pending_free(p);
}

/**
 * rt_ff_pending_remove - "!glob:mod:M" for a module that is not there
 * @target: the file
 * @glob: the glob, as written
 * @mod: the module
 * @dry: only count, remove nothing
 *
 * Return: how many waiting patterns it names.
 */
unsigned int rt_ff_pending_remove(const struct rt_ff_target *target,
				  const char *glob, const char *mod, bool dry)
{
	struct rt_ff_pending *p, *tmp;
	unsigned int n = 0;

	lockdep_assert_held(&rt_callsite_lock);
	list_for_each_entry_safe(p, tmp, &rt_ff_pending_list, list) {
		if (p->target != target || strcmp(p->mod, mod) ||
		    strcmp(p->glob, glob))
			continue;
		n++;
		if (!dry)
			rt_ff_pending_drop(p);
	}
	return n;
}

/**
 * rt_ff_pending_commit - apply a write's changes to the waiting list
 * @target: the file
 * @trunc: the write replaced the set ('>'): drop the file's old ones
 * @added: new entries (rt_ff_pending_new()), moved to the list
 *
 * Return: the number of patterns now waiting for @target.
 */
unsigned int rt_ff_pending_commit(const struct rt_ff_target *target,
				  bool trunc, struct list_head *added)
{
	struct rt_ff_pending *p, *tmp;

	lockdep_assert_held(&rt_callsite_lock);
	list_for_each_entry_safe(p, tmp, &rt_ff_pending_list, list)
		if (trunc && p->target == target)
			rt_ff_pending_drop(p);
	list_splice_tail_init(added, &rt_ff_pending_list);
	return rt_ff_pending_count(target);
}

/**
 * rt_ff_pending_count - how many patterns wait in one file
 * @target: which file
 *
 * Return: the count.
 */
unsigned int rt_ff_pending_count(const struct rt_ff_target *target)
{
	struct rt_ff_pending *p;
	unsigned int n = 0;

	lockdep_assert_held(&rt_callsite_lock);
	list_for_each_entry(p, &rt_ff_pending_list, list)
		n += p->target == target;
	return n;
}

/**
 * rt_ff_pending_show - list @target's waiting patterns as written
 * @m: the file
 * @target: which file
 */
void rt_ff_pending_show(struct seq_file *m,
			const struct rt_ff_target *target)
{
	struct rt_ff_pending *p;

	lockdep_assert_held(&rt_callsite_lock);
	list_for_each_entry(p, &rt_ff_pending_list, list)
		if (p->target == target)
			seq_printf(m, "%s:mod:%s\n", p->glob, p->mod);
}

/* Collecting the arriving module's sites that one file's patterns name. */
struct rt_ff_arrival {
	struct module	*mod;
	const struct rt_ff_target *target;
	unsigned long	*ips;
	unsigned int	nr, max;
};

static void rt_ff_arrival_match(unsigned long ip, unsigned int idx,
				const char *name, const char *modname,
				void *arg)
{
	struct rt_ff_arrival *a = arg;
	struct rt_ff_pending *p;

	if (!modname || strcmp(modname, a->mod->name) || a->nr == a->max)
		return;
	list_for_each_entry(p, &rt_ff_pending_list, list) {
		if (p->target == a->target && !strcmp(p->mod, modname) &&
		    rt_glob_match(p->glob, name)) {
			a->ips[a->nr++] = ip;
			return;
		}
	}
}

/* Add @a's sites to its file's set; false without memory. */
static bool rt_ff_arrival_publish(struct rt_ff_arrival *a)
{
	struct rt_ipset **slot = a->target->slot, *old = *slot, *next;
	unsigned int i, n = old ? old->nr : 0;

	if (!a->nr)
		return true;
	next = rt_ipset_alloc(n + a->nr);
	if (!next)
		return false;
	for (i = 0; i < n; i++)
		next->ips[i] = old->ips[i];
	for (i = 0; i < a->nr; i++)
		next->ips[n + i] = a->ips[i];
	next->nr = n + a->nr;
	rt_ipset_sort(next);
	rt_ipset_publish(slot, next);
	return true;
}

/**
 * rt_ff_module_coming - apply the patterns waiting for @mod
 * @c: the function tracer's call-site client
 * @mod: the module, whose sites are in the table, not yet patched
 *
 * Each file's patterns for @mod add the functions they match to its
 * set and stop waiting; the caller's rt_callsite_update() then patches.
 * Without memory a file's patterns keep waiting (and select nothing).
 */
void rt_ff_module_coming(struct rt_cs_client *c, struct module *mod)
{
	struct rt_ff_arrival a = { .mod = mod };
	struct rt_ff_pending *p, *tmp;
	bool any = false, ok;

	lockdep_assert_held(&rt_callsite_lock);
	list_for_each_entry(p, &rt_ff_pending_list, list) {
		p->arriving = !strcmp(p->mod, mod->name);
		any |= p->arriving;
	}
	if (!any)
		return;
	a.max = mod->num_ftrace_callsites;
	a.ips = kvmalloc_array(a.max ?: 1, sizeof(*a.ips), GFP_KERNEL);
	if (!a.ips) {
		pr_warn("no memory for the filters waiting for %s\n", mod->name);
		return;
	}
	/* One file at a time, the file of the first pattern still marked. */
	for (;;) {
		a.target = NULL;
		list_for_each_entry(p, &rt_ff_pending_list, list) {
			if (p->arriving) {
				a.target = p->target;
				break;
			}
		}
		if (!a.target)
			break;
		a.nr = 0;
		rt_callsite_walk_module(mod, rt_ff_arrival_match, &a);
		ok = rt_ff_arrival_publish(&a);
		if (!ok)
			pr_warn("no memory for the filters waiting for %s\n",
				mod->name);
		list_for_each_entry_safe(p, tmp, &rt_ff_pending_list, list) {
			if (!p->arriving || p->target != a.target)
				continue;
			p->arriving = false;
			if (!ok)
				continue;	/* keeps waiting */
			if (!a.nr)
				pr_info("retrace: %s:mod:%s matched no function of the module\n",
					p->glob, p->mod);
			rt_ff_pending_drop(p);
		}
	}
	kvfree(a.ips);
	rt_fn_sync();
}

/**
 * rt_ff_pending_forget - drop every pattern of a file that goes away
 * @target: the file (an instance's, at its removal)
 *
 * Call with rt_callsite_lock held.
 */
void rt_ff_pending_forget(const struct rt_ff_target *target)
{
	struct rt_ff_pending *p, *tmp;

	lockdep_assert_held(&rt_callsite_lock);
	list_for_each_entry_safe(p, tmp, &rt_ff_pending_list, list)
		if (p->target == target)
			rt_ff_pending_drop(p);
}
