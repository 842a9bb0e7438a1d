// SPDX-License-Identifier: GPL-2.0
/*
 * The function tracer: a client of the call-site patcher that records
 * (ip, parent ip) for every site it wants, chosen by set_ftrace_filter
 * and set_ftrace_notrace (function_filter.c).  Also set_ftrace_pid,
 * set_ftrace_notrace_pid and the kernel.ftrace_enabled sysctl.  It
 * runs at the top level and in any number of instances at once, each
 * with its own four files (struct rt_fn_scope); one client serves all.
 * The set_ftrace_filter commands are a client of their own
 * (function_probe.c), and so are the function profiler, which follows
 * the top level's sets (function_profile.c), and the stack tracer,
 * which has a set of its own (stack_tracer.c).
 */
#include <linux/tracefs.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sysctl.h>
#include <linux/uaccess.h>
#include <trace/retrace/callsite.h>
#include <trace/retrace/carry.h>
#include <trace/retrace/core.h>
#include <trace/retrace/event.h>
#include <trace/retrace/ipset.h>
#include "function.h"


/*
 * Written under rt_callsite_lock (rt_fn_sync()); read locklessly by
 * rt_fn_hit().  RT_FN_ON_TOP: a tracer of the top level's uses the
 * sites and ftrace_enabled is 1; RT_FN_ON_SCOPES: rt_fn_running holds
 * instances' scopes.
 */
#define RT_FN_ON_TOP	1
#define RT_FN_ON_SCOPES	2
#define RT_FN_ON_GRAPHS	4	/* rt_graph_running is not NULL */
#define RT_FN_ON_INSTANCES	(RT_FN_ON_SCOPES | RT_FN_ON_GRAPHS)
/*
 * With RT_FN_ON_TOP alone: the top level's function tracer, not
 * function_graph, not gated.  rt_fn_hit() then tests one byte, and
 * not the three words (rt_fn_on, rt_fn_gated, rt_graph_on) that say so.
 */
#define RT_FN_ON_PLAIN	8
static u8 rt_fn_on;
static bool rt_fn_selected;		/* top level's current_tracer */
/* "function_graph" is current_tracer; rt_graph_on adds ftrace_enabled. */
bool rt_graph_selected;
bool rt_graph_on;
struct rt_ipset *rt_graph_set;
unsigned int rt_graph_set_gone;
static int rt_ftrace_enabled = 1;	/* kernel.ftrace_enabled */

/* The top level's choices; the graph and latency tracers use them too. */
struct rt_fn_scope rt_fn_top = {
	.tr = &rt_top,
	.filter_target = {
		.kind = RT_FF_FILTER,
		.slot = &rt_fn_top.filter,
		.gone = &rt_fn_top.filter_gone,
		.tr = &rt_top,
	},
	.notrace_target = {
		.kind = RT_FF_NOTRACE,
		.slot = &rt_fn_top.notrace_set,
		.tr = &rt_top,
	},
	.list = LIST_HEAD_INIT(rt_fn_top.list),
};

/*
 * The instances' scopes, made and freed with them (rt_fn_scope_ops),
 * under rt_callsite_lock.  rt_fn_running and rt_graph_running are what
 * hits read: the scopes whose "function" (function_graph) tracer runs,
 * arrays published by pointer.  Each is rebuilt by rt_fn_sync() when
 * that changes, stored with release, read with acquire and preemption
 * disabled, and the old array (and a scope that left it) freed only
 * after rt_wait_preempt_readers(): the ipset.h protocol, for an array
 * of scopes.
 */
static LIST_HEAD(rt_fn_scopes);
static struct rt_fn_running *rt_fn_running;
struct rt_fn_running *rt_graph_running;

static DEFINE_PER_CPU(unsigned long, rt_fn_inside);

/*
 * Gated tracing, for the latency tracers: with rt_fn_gated set (under
 * rt_callsite_lock, before the sites are patched), a CPU records
 * functions only while its rt_fn_gate is open (RT_FN_GATE_* bits) and
 * what the bits watch is really off: a section whose end went through
 * an unhooked path (an interrupt's return to kernel code) leaves the
 * gate open, but not the state.  rt_fn_gate is written by its own CPU,
 * from the latency tracer's hooks at the start and end of a section,
 * and by the tracer's init and reset for every CPU while no hook runs.
 */
static bool rt_fn_gated;
DEFINE_PER_CPU(u8, rt_fn_gate);

static __always_inline bool rt_fn_gate_passes(void)
{
	u8 g = this_cpu_read(rt_fn_gate);

	return ((g & RT_FN_GATE_IRQS) && irqs_disabled()) ||
	       ((g & RT_FN_GATE_PREEMPT) && preempt_count());
}
/*
 * The instance the tracer was started on; set before rt_fn_on.  The top
 * level until then: a hit that read rt_fn_on before function_graph was
 * switched off, and rt_graph_on after, reaches rt_fn_hit_top() even if
 * the function tracer never ran in this boot.
 */
static struct rt_instance *rt_fn_tr = &rt_top;

static void rt_fn_hit(unsigned long ip, unsigned long parent_ip,
		      unsigned long *parent_slot, struct pt_regs *regs,
		      bool check);
static bool rt_fn_want_new_site(struct rt_cs_client *c, unsigned long ip);
static void rt_fn_module_going(struct rt_cs_client *c, struct module *mod);

struct rt_cs_client rt_fn_client = {
	.name		= "function",
	.func		= rt_fn_hit,
	.want_new_site	= rt_fn_want_new_site,
	.module_coming	= rt_ff_module_coming,
	.module_going	= rt_fn_module_going,
};

/* @sc's filter and notrace say yes to @ip; preemption off or the lock. */
bool notrace rt_fn_selects(const struct rt_fn_scope *sc, unsigned long ip)
{
	const struct rt_ipset *f, *n;

	/* Pairs with the release in rt_ipset_publish(). */
	f = smp_load_acquire(&sc->filter);
	/* Pairs with the release in rt_ipset_publish(). */
	n = smp_load_acquire(&sc->notrace_set);

	if (rt_ipset_has(n, ip))
		return false;
	if (!f && !READ_ONCE(sc->filter_gone))
		return true;
	return rt_ipset_has(f, ip);
}

/* The pid files' sets (struct rt_fn_scope) are written under it. */
#define RT_MAX_PIDS	64
static DEFINE_MUTEX(rt_pid_lock);

/*
 * rt_fn_pid_wanted()'s out-of-line half, for a scope whose pid files
 * hold pids; preemption off.
 */
bool notrace rt_fn_pid_wanted_slow(const struct rt_fn_scope *sc)
{
	const struct rt_ipset *set, *no;
	int pid = current->pid;

	/* Each pairs with the release in rt_ipset_publish(). */
	set = smp_load_acquire(&sc->pids);
	if (set && !rt_ipset_has(set, pid))
		return false;
	/* The same pairing, for set_ftrace_notrace_pid's set. */
	no = smp_load_acquire(&sc->notrace_pids);
	return !no || !rt_ipset_has(no, pid);
}

/* One function record into @tr; preemption disabled, the guard held. */
static __always_inline void rt_fn_record(struct rt_instance *tr,
					 unsigned long ip,
					 unsigned long parent_ip,
					 unsigned long pc)
{
	struct rt_function_entry *e;
	struct rt_handle h;

	e = rt_reserve_entry(tr, &h, RT_TYPE_FUNCTION, sizeof(*e), pc);
	if (e) {
		e->ip = ip;
		e->parent_ip = parent_ip;
		rt_commit(&h);
	}
}

/*
 * The instances whose function tracer runs: each records the function
 * if its own sets select it (the site may be another's).
 */
static noinline void notrace __no_stack_protector
rt_fn_hit_scopes(unsigned long ip, unsigned long parent_ip, unsigned long pc)
{
	const struct rt_fn_running *run;
	struct rt_fn_scope *sc;
	unsigned long bit;
	unsigned int i;

	preempt_disable_notrace();
	bit = rt_recursion_enter(&rt_fn_inside, rt_context_level(pc));
	if (!bit)
		goto out;
	/* Pairs with the release in rt_fn_publish_running(). */
	run = smp_load_acquire(&rt_fn_running);
	for (i = 0; run && i < run->nr; i++) {
		sc = run->sc[i];
		if (rt_fn_selects(sc, ip) && rt_recording(sc->tr) &&
		    rt_fn_pid_wanted(sc))
			rt_fn_record(sc->tr, ip, parent_ip, pc);
	}
	rt_recursion_exit(&rt_fn_inside, bit);
out:
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(rt_fn_hit_scopes);

/* The top level's record of @ip, past the instance and graph checks. */
static __always_inline void rt_fn_hit_top(unsigned long ip,
					  unsigned long parent_ip,
					  unsigned long pc, bool check)
{
	struct rt_instance *tr;
	unsigned long bit;

	preempt_disable_notrace();
	if (check && !rt_fn_selects(&rt_fn_top, ip))
		goto out;
	bit = rt_recursion_enter(&rt_fn_inside, rt_context_level(pc));
	if (!bit)
		goto out;
	tr = READ_ONCE(rt_fn_tr);
	if (rt_recording(tr) && rt_fn_pid_wanted(&rt_fn_top))
		rt_fn_record(tr, ip, parent_ip, pc);
	rt_recursion_exit(&rt_fn_inside, bit);
out:
	preempt_enable_notrace();
}

/*
 * rt_fn_hit - the function tracer's client callback
 *
 * Runs at the entry of almost any kernel function, in task, softirq,
 * hardirq and NMI context, with or without RCU watching.  It takes no
 * locks, reads the published sets and per-CPU data with preemption
 * disabled, and guards against recursion with rt_recursion_enter().
 * @check: other clients are active, so the site may not be ours.
 */
/* No stack canary: the handle's address never leaves the core. */
static void notrace __no_stack_protector
rt_fn_hit(unsigned long ip, unsigned long parent_ip,
	  unsigned long *parent_slot, struct pt_regs *regs, bool check)
{
	unsigned long pc = preempt_count();
	u8 on = READ_ONCE(rt_fn_on);
	bool graph;

	if (likely(on == (RT_FN_ON_TOP | RT_FN_ON_PLAIN))) {
		rt_fn_hit_top(ip, parent_ip, pc, check);
		return;
	}
	if (!on)
		return;
	if (unlikely(on & RT_FN_ON_INSTANCES)) {
		/* Read once: a switch meanwhile must not hook the call twice. */
		graph = READ_ONCE(rt_graph_on) && (on & RT_FN_ON_TOP);
		check = true;	/* the site may be only an instance's */
		if (on & RT_FN_ON_SCOPES)
			rt_fn_hit_scopes(ip, parent_ip, pc);
		if (on & RT_FN_ON_GRAPHS) {
			/* One hooked return serves every graph, the top's too. */
			rt_graph_entry(ip, parent_slot, true, graph);
			if (graph)
				return;
		}
		if (!(on & RT_FN_ON_TOP))
			return;
	}
	if (READ_ONCE(rt_fn_gated) && !rt_fn_gate_passes())
		return;
	/* Without instances, after the gate: a gated hit reads no more. */
	if (!(on & RT_FN_ON_INSTANCES))
		graph = READ_ONCE(rt_graph_on);
	if (graph) {
		rt_graph_entry(ip, parent_slot, check, true);
		return;
	}
	rt_fn_hit_top(ip, parent_ip, pc, check);
}
NOKPROBE_SYMBOL(rt_fn_hit);

static bool rt_fn_running_selects(const struct rt_fn_running *run,
				  unsigned long ip)
{
	unsigned int i;

	for (i = 0; run && i < run->nr; i++)
		if (rt_fn_selects(run->sc[i], ip))
			return true;
	return false;
}

static bool rt_fn_want_site(unsigned long ip, void *arg)
{
	if ((rt_fn_on & RT_FN_ON_TOP) && rt_fn_selects(&rt_fn_top, ip))
		return true;
	return rt_fn_running_selects(rt_fn_running, ip) ||
	       rt_fn_running_selects(rt_graph_running, ip);
}

/* A module's sites: wanted at once when no filter restricts them. */
static bool rt_fn_want_new_site(struct rt_cs_client *c, unsigned long ip)
{
	return rt_fn_want_site(ip, NULL);
}

/* Filter entries of a module that leaves are dropped but counted. */
static bool rt_fn_in_module(unsigned long ip, void *mod)
{
	return within_module(ip, mod);
}

static void rt_fn_scope_drop(struct rt_fn_scope *sc, struct module *mod)
{
	rt_fn_set_drop(&sc->filter, rt_fn_in_module, mod, &sc->filter_gone);
	rt_fn_set_drop(&sc->notrace_set, rt_fn_in_module, mod, NULL);
}

static void rt_fn_module_going(struct rt_cs_client *c, struct module *mod)
{
	struct rt_fn_scope *sc;

	rt_fn_scope_drop(&rt_fn_top, mod);
	list_for_each_entry(sc, &rt_fn_scopes, list)
		rt_fn_scope_drop(sc, mod);
	rt_fn_set_drop(&rt_stack_filter, rt_fn_in_module, mod,
		       &rt_stack_filter_gone);
#ifdef CONFIG_RETRACE_FUNCTION_GRAPH
	rt_fn_set_drop(&rt_graph_set, rt_fn_in_module, mod, &rt_graph_set_gone);
#endif
}

static bool rt_fn_runs_function(const struct rt_fn_scope *sc)
{
	return sc->selected && rt_ftrace_enabled;
}

static bool rt_fn_runs_graph(const struct rt_fn_scope *sc)
{
	return sc->graph_selected && rt_ftrace_enabled;
}

/*
 * Rebuild *@slot from the scopes @runs picks, if that changed; 0 or
 * -ENOMEM (the old array then stays).
 */
static int rt_fn_publish_running(struct rt_fn_running **slot,
				 bool (*runs)(const struct rt_fn_scope *sc),
				 u8 on_bit)
{
	struct rt_fn_running *old = *slot, *next = NULL;
	struct rt_fn_scope *sc;
	unsigned int nr = 0;
	bool same = true;
	gfp_t gfp = GFP_KERNEL;

	list_for_each_entry(sc, &rt_fn_scopes, list) {
		if (!runs(sc))
			continue;
		same &= old && nr < old->nr && old->sc[nr] == sc;
		nr++;
	}
	if (same && (old ? old->nr : 0) == nr)
		return 0;
	/* A scope leaving must leave the array: a few pointers, no failing. */
	if (old && nr < old->nr)
		gfp |= __GFP_NOFAIL;
	if (nr) {
		next = kmalloc(struct_size(next, sc, nr), gfp);
		if (!next)
			return -ENOMEM;
		next->nr = 0;
		list_for_each_entry(sc, &rt_fn_scopes, list)
			if (runs(sc))
				next->sc[next->nr++] = sc;
	}
	if (next)
		WRITE_ONCE(rt_fn_on, rt_fn_on | on_bit);
	/* Pairs with the acquire in rt_fn_hit_scopes(), rt_graph_entry(). */
	smp_store_release(slot, next);
	rt_wait_preempt_readers();
	kfree(old);
	return 0;
}

/**
 * rt_fn_sync - re-derive the sites the tracer wants and patch
 *
 * Call with rt_callsite_lock held after a tracer, ftrace_enabled, a
 * filter or notrace changed, or an instance's scope came or left.
 *
 * Return: 0, -ENOMEM or the patcher's error.
 */
int rt_fn_sync(void)
{
	int ret, ret2;
	u8 on;

	lockdep_assert_held(&rt_callsite_lock);
	/* May wait for readers: before the flags, which then agree. */
	ret = rt_fn_publish_running(&rt_fn_running, rt_fn_runs_function,
				    RT_FN_ON_SCOPES);
	ret2 = rt_fn_publish_running(&rt_graph_running, rt_fn_runs_graph,
				     RT_FN_ON_GRAPHS);
	ret = ret ?: ret2;
	WRITE_ONCE(rt_graph_on, rt_graph_selected && rt_ftrace_enabled);
	on = ((rt_fn_selected || rt_graph_selected) && rt_ftrace_enabled ?
	      RT_FN_ON_TOP : 0) | (rt_fn_running ? RT_FN_ON_SCOPES : 0) |
	     (rt_graph_running ? RT_FN_ON_GRAPHS : 0);
	/* rt_fn_gated is set before this runs, and cleared after. */
	if (on == RT_FN_ON_TOP && !rt_graph_on && !READ_ONCE(rt_fn_gated))
		on |= RT_FN_ON_PLAIN;
	/*
	 * The instance bits also make the top level check its filter: keep
	 * them until the sites only instances wanted are NOPs again, or a
	 * lone client's call (check false) would record them at the top.
	 */
	WRITE_ONCE(rt_fn_on, on | (rt_fn_on & RT_FN_ON_INSTANCES));
	rt_cs_client_want_each(&rt_fn_client, rt_fn_want_site, NULL);
	/* The profiler follows the same filter and ftrace_enabled. */
	rt_prof_sync(rt_ftrace_enabled);
	rt_stack_sync(rt_ftrace_enabled);
	ret2 = rt_callsite_update();
	WRITE_ONCE(rt_fn_on, on);
	return ret2 ?: ret;
}

/* Under rt_callsite_lock: @tr's scope, NULL if it has none (any more). */
struct rt_fn_scope *rt_fn_scope_find(struct rt_instance *tr)
{
	struct rt_fn_scope *sc;

	lockdep_assert_held(&rt_callsite_lock);
	if (tr == rt_top_instance())
		return &rt_fn_top;
	list_for_each_entry(sc, &rt_fn_scopes, list)
		if (sc->tr == tr)
			return sc;
	return NULL;
}

/**
 * rt_fn_scope_get - the scope of the instance a file belongs to, at open
 * @tr: the file's instance, as i_private holds it (maybe stale)
 *
 * Return: the scope, pinned with its instance until rt_fn_scope_put();
 * NULL when the instance or its scope is gone.
 */
struct rt_fn_scope *rt_fn_scope_get(struct rt_instance *tr)
{
	struct rt_fn_scope *sc;

	if (rt_instance_get(tr))
		return NULL;
	mutex_lock(&rt_callsite_lock);
	sc = rt_fn_scope_find(tr);
	mutex_unlock(&rt_callsite_lock);
	if (!sc)
		rt_instance_put(tr);
	return sc;
}

/**
 * rt_fn_scope_put - undo rt_fn_scope_get(), at release
 * @sc: the scope, or NULL (nothing to do)
 */
void rt_fn_scope_put(struct rt_fn_scope *sc)
{
	if (sc)
		rt_instance_put(sc->tr);
}

/* Where "function" being @tr's tracer is kept. */
static bool *rt_fn_selected_flag(struct rt_instance *tr)
{
	struct rt_fn_scope *sc;

	if (tr == rt_top_instance())
		return &rt_fn_selected;
	sc = rt_fn_scope_find(tr);
	return sc ? &sc->selected : NULL;
}

static int rt_fn_init(struct rt_instance *tr)
{
	bool *selected;
	int ret = -ENODEV;

	mutex_lock(&rt_callsite_lock);
	selected = rt_fn_selected_flag(tr);
	if (!selected)
		goto out;
	if (tr == rt_top_instance())
		WRITE_ONCE(rt_fn_tr, tr);
	*selected = true;
	ret = rt_fn_sync();
	if (ret) {
		*selected = false;
		rt_fn_sync();
	}
out:
	mutex_unlock(&rt_callsite_lock);
	return ret;
}

/* An instance's scope may be gone already (rt_fn_scope_remove()). */
static void rt_fn_reset(struct rt_instance *tr)
{
	bool *selected;

	mutex_lock(&rt_callsite_lock);
	selected = rt_fn_selected_flag(tr);
	if (selected) {
		*selected = false;
		rt_fn_sync();
	}
	mutex_unlock(&rt_callsite_lock);
}

/**
 * rt_fn_gated_start - record functions inside a latency tracer's sections
 * @tr: the instance
 *
 * The function tracer's sites (set_ftrace_filter, set_ftrace_notrace and
 * ftrace_enabled apply) are patched, and each CPU records the functions
 * it runs while its rt_fn_gate is open.  Called by a latency
 * tracer's init, instead of the function tracer being current.
 *
 * Return: 0 or the patcher's error (nothing then stays patched).
 */
int rt_fn_gated_start(struct rt_instance *tr)
{
	int ret;

	mutex_lock(&rt_callsite_lock);
	WRITE_ONCE(rt_fn_tr, tr);
	WRITE_ONCE(rt_fn_gated, true);
	rt_fn_selected = true;
	ret = rt_fn_sync();
	if (ret) {
		rt_fn_selected = false;
		rt_fn_sync();
		WRITE_ONCE(rt_fn_gated, false);
	}
	mutex_unlock(&rt_callsite_lock);
	return ret;
}

/**
 * rt_fn_gated_stop - undo rt_fn_gated_start()
 *
 * Returns once the sites are back to NOPs and no callback runs; the
 * caller then closes every CPU's gate.
 */
void rt_fn_gated_stop(void)
{
	mutex_lock(&rt_callsite_lock);
	rt_fn_selected = false;
	rt_fn_sync();
	WRITE_ONCE(rt_fn_gated, false);
	mutex_unlock(&rt_callsite_lock);
}

static struct rt_tracer rt_function_tracer = {
	.name = "function",
	.init = rt_fn_init,
	.reset = rt_fn_reset,
	.instances = true,
};

static void rt_fn_print(struct rt_print_ctx *ctx)
{
	const struct rt_function_entry *e = (const void *)ctx->ent;

	if (ctx->len < sizeof(*e))
		return;
	rt_print_sym(ctx, e->ip);
	if (!rt_opt(ctx->tr, RT_OPT_PRINT_PARENT))
		return;
	/* The latency format names the caller in parentheses. */
	if (rt_opt(ctx->tr, RT_OPT_LATENCY_FMT)) {
		seq_buf_puts(ctx->s, " (");
		rt_print_sym(ctx, e->parent_ip);
		seq_buf_putc(ctx->s, ')');
	} else {
		seq_buf_puts(ctx->s, " <-");
		rt_print_sym(ctx, e->parent_ip);
	}
}

static void rt_fn_print_raw(struct rt_print_ctx *ctx)
{
	const struct rt_function_entry *e = (const void *)ctx->ent;

	if (ctx->len < sizeof(*e))
		return;
	seq_buf_printf(ctx->s, " %lx %lx", e->ip, e->parent_ip);
}

static struct rt_event_type rt_fn_event = {
	.type = RT_TYPE_FUNCTION,
	.name = "function",
	.print = rt_fn_print,
	.print_raw = rt_fn_print_raw,
};

/*
 * The handler of a 0/1 sysctl whose value the clients' sites follow:
 * kernel.ftrace_enabled (0 turns the function tracer into a nop) and
 * kernel.stack_tracer_enabled (stack_tracer.c).
 */
int rt_fn_sync_sysctl(const struct ctl_table *table, int write,
		      void *buffer, size_t *lenp, loff_t *ppos)
{
	int *val = table->data, old, ret;

	mutex_lock(&rt_callsite_lock);
	old = *val;
	ret = proc_dointvec_minmax(table, write, buffer, lenp, ppos);
	if (!ret && write) {
		ret = rt_fn_sync();
		/* The sites could not follow: keep the old value. */
		if (ret) {
			*val = old;
			rt_fn_sync();
		}
	}
	mutex_unlock(&rt_callsite_lock);
	return ret;
}

static struct ctl_table rt_fn_sysctls[] = {
	{
		.procname	= "ftrace_enabled",
		.data		= &rt_ftrace_enabled,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= rt_fn_sync_sysctl,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
};

/* One open of set_ftrace_pid or set_ftrace_notrace_pid. */
struct rt_pid_open_state {
	struct rt_fn_scope *sc;	/* pinned while open */
	struct rt_ipset	**set;	/* its pids or notrace_pids */
	bool		trunc;	/* O_TRUNC not yet applied by a write */
	struct rt_carry	carry;	/* a pid cut by a write boundary */
};

static int rt_pid_show(struct seq_file *m, void *v)
{
	struct rt_pid_open_state *st = m->private;
	struct rt_ipset *set;
	unsigned int i;

	mutex_lock(&rt_pid_lock);
	set = *st->set;
	if (!set)
		seq_puts(m, "no pid\n");
	for (i = 0; set && i < set->nr; i++)
		seq_printf(m, "%lu\n", set->ips[i]);
	mutex_unlock(&rt_pid_lock);
	return 0;
}

/*
 * i_private is the instance.  O_TRUNC is only visible in open(): the
 * first write replaces the set.
 */
static int rt_pid_open_set(struct inode *inode, struct file *file,
			   bool no_trace)
{
	struct rt_pid_open_state *st;
	struct rt_fn_scope *sc;
	int ret = rt_file_lockdown();

	if (ret)
		return ret;
	sc = rt_fn_scope_get(inode->i_private);
	if (!sc)
		return -ENODEV;
	ret = -ENOMEM;
	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		goto put;
	st->sc = sc;
	st->set = no_trace ? &sc->notrace_pids : &sc->pids;
	st->trunc = (file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC);
	ret = single_open(file, rt_pid_show, st);
	if (!ret)
		return 0;
	kfree(st);
put:
	rt_fn_scope_put(sc);
	return ret;
}

static int rt_pid_open(struct inode *inode, struct file *file)
{
	return rt_pid_open_set(inode, file, false);
}

static int rt_notrace_pid_open(struct inode *inode, struct file *file)
{
	return rt_pid_open_set(inode, file, true);
}

/*
 * Parse pids into @pids (holding *@nr already); "-1" or nothing means
 * "every task".  Each pid must name a live task.  Returns 0 or a
 * negative errno.
 */
static int rt_pid_parse(char *buf, unsigned long *pids, unsigned int *nr)
{
	char *word;
	int val, ret;
	unsigned int i;

	while ((word = strsep(&buf, " \t\n")) != NULL) {
		if (!*word)
			continue;
		ret = kstrtoint(word, 10, &val);
		if (ret)
			return ret;
		if (val == -1) {
			*nr = 0;
			continue;
		}
		if (val < 0)
			return -EINVAL;
		if (val && !find_vpid(val))
			return -ESRCH;
		for (i = 0; i < *nr; i++)
			if (pids[i] == val)
				break;
		if (i < *nr)
			continue;
		if (*nr == RT_MAX_PIDS)
			return -ENOSPC;
		pids[(*nr)++] = val;
	}
	return 0;
}

/* Apply whole pids in @text: all of them or, on error, none. */
static int rt_pid_apply(struct rt_pid_open_state *st, char *text)
{
	unsigned long pids[RT_MAX_PIDS];
	struct rt_ipset *next = NULL;
	unsigned int nr = 0;
	int ret;

	mutex_lock(&rt_pid_lock);
	if (!st->trunc && *st->set) {
		nr = (*st->set)->nr;
		memcpy(pids, (*st->set)->ips, nr * sizeof(pids[0]));
	}
	rcu_read_lock();
	ret = rt_pid_parse(text, pids, &nr);
	rcu_read_unlock();
	if (!ret && nr) {
		next = rt_ipset_alloc(nr);
		if (next) {
			memcpy(next->ips, pids, nr * sizeof(pids[0]));
			rt_ipset_sort(next);
		} else {
			ret = -ENOMEM;
		}
	}
	if (!ret) {
		rt_ipset_publish(st->set, next);
		st->trunc = false;
	}
	mutex_unlock(&rt_pid_lock);
	return ret;
}

/*
 * A pid cut at the end of a write waits in the carry for the next write
 * or for close; a write of only white space is applied (it may be the
 * empty write that clears the set).
 */
static ssize_t rt_pid_write(struct file *file, const char __user *ubuf,
			    size_t cnt, loff_t *ppos)
{
	struct rt_pid_open_state *st =
		((struct seq_file *)file->private_data)->private;
	char *in, *text;
	int ret;

	if (cnt > PAGE_SIZE)
		return -E2BIG;
	in = memdup_user(ubuf, cnt);
	if (IS_ERR(in))
		return PTR_ERR(in);
	text = rt_carry_join(&st->carry, in, cnt, " \t\n", &ret);
	kfree(in);
	if (!text)
		return ret;
	if (*text || !st->carry.len)
		ret = rt_pid_apply(st, text);
	kfree(text);
	if (ret < 0)
		return ret;
	*ppos += cnt;
	return cnt;
}

static int rt_pid_release(struct inode *inode, struct file *file)
{
	struct rt_pid_open_state *st =
		((struct seq_file *)file->private_data)->private;
	char *tail = rt_carry_flush(&st->carry);

	if (tail)
		rt_pid_apply(st, tail);
	kfree(tail);
	rt_fn_scope_put(st->sc);
	kfree(st);
	return single_release(inode, file);
}

static const struct file_operations rt_pid_fops = {
	.open = rt_pid_open,
	.read = seq_read,
	.write = rt_pid_write,
	.llseek = seq_lseek,
	.release = rt_pid_release,
};

static const struct file_operations rt_notrace_pid_fops = {
	.open = rt_notrace_pid_open,
	.read = seq_read,
	.write = rt_pid_write,
	.llseek = seq_lseek,
	.release = rt_pid_release,
};

/* The four files of a scope, in its instance's directory. */
static void rt_fn_create_scope_files(struct dentry *dir,
				     struct rt_instance *tr)
{
	rt_create_filter_files(dir, tr);
	tracefs_create_file("set_ftrace_pid", 0644, dir, tr, &rt_pid_fops);
	tracefs_create_file("set_ftrace_notrace_pid", 0644, dir, tr,
			    &rt_notrace_pid_fops);
}

/* A new instance gets a scope and its files. */
static int rt_fn_scope_add(struct rt_instance *tr)
{
	struct rt_fn_scope *sc = kzalloc(sizeof(*sc), GFP_KERNEL);

	if (!sc)
		return -ENOMEM;
	sc->tr = tr;
	sc->filter_target = (struct rt_ff_target){
		.kind = RT_FF_FILTER,
		.slot = &sc->filter,
		.gone = &sc->filter_gone,
		.tr = tr,
	};
	sc->notrace_target = (struct rt_ff_target){
		.kind = RT_FF_NOTRACE,
		.slot = &sc->notrace_set,
		.tr = tr,
	};
	mutex_lock(&rt_callsite_lock);
	list_add_tail(&sc->list, &rt_fn_scopes);
	mutex_unlock(&rt_callsite_lock);
	rt_fn_create_scope_files(tr->dir, tr);
	return 0;
}

/*
 * The instance goes (no file of it is open): its tracer stops here,
 * before the core resets it, and once no hit can see the scope any
 * more (rt_fn_sync() waited, if it was running) it is freed.
 */
static void rt_fn_scope_remove(struct rt_instance *tr)
{
	struct rt_fn_scope *sc;

	mutex_lock(&rt_callsite_lock);
	sc = rt_fn_scope_find(tr);
	if (!sc || sc == &rt_fn_top) {
		mutex_unlock(&rt_callsite_lock);
		return;
	}
	list_del(&sc->list);
	sc->selected = false;
	/* Takes @sc out of the arrays (that cannot fail) and waits. */
	rt_fn_sync();
	/* Its graph's slot too, which hooked returns may still read. */
	rt_graph_scope_stop(sc);
	rt_ff_pending_forget(&sc->filter_target);
	rt_ff_pending_forget(&sc->notrace_target);
	/* Its commands, before its events' files go (the events layer). */
	rt_fprobe_forget(tr);
	rt_callsite_update();
	mutex_unlock(&rt_callsite_lock);
	kvfree(sc->filter);
	kvfree(sc->notrace_set);
	kvfree(sc->pids);
	kvfree(sc->notrace_pids);
	kfree(sc);
}

static struct rt_instance_ops rt_fn_scope_ops = {
	.add = rt_fn_scope_add,
	.remove = rt_fn_scope_remove,
};

static struct rt_readme_part rt_fn_readme = {
	.text = "  available_filter_functions  functions the function tracer can trace\n"
		"  set_ftrace_filter    trace only these: [!]glob[:mod:M], also\n"
		"                       glob:traceon[:N], glob:traceoff[:N],\n"
		"                       glob:stacktrace[:N] and\n"
		"                       glob:{enable,disable}_event:SYS:EVENT[:N]\n"
		"  set_ftrace_notrace   never trace these: [!]glob[:mod:M]\n"
		"  set_ftrace_pid       trace only these pids (-1: all)\n"
		"  set_ftrace_notrace_pid  never trace these pids (-1: none)\n"
		"  callsite_stats       call sites: total, enabled, patch counters\n"
		"  /proc/sys/kernel/ftrace_enabled  0 turns the function tracer off\n",
};

static const struct rt_event_field rt_fn_fields[] = {
	RT_EVENT_INT_FIELD("unsigned long", "ip", rt_function_entry, ip, 0),
	RT_EVENT_INT_FIELD("unsigned long", "parent_ip", rt_function_entry,
			   parent_ip, 0),
};

/* events/ftrace/function, for binary readers. */
static struct rt_event_format rt_fn_format = {
	.name = "function",
	.fields = rt_fn_fields,
	.nr_fields = ARRAY_SIZE(rt_fn_fields),
	.print_fmt = "\" %ps <-- %ps\", (void *)REC->ip, (void *)REC->parent_ip",
};

static int __init rt_function_init(void)
{
	struct dentry *dir = rt_tracing_dir();
	int ret;

	ret = rt_cs_client_register(&rt_fn_client);
	if (ret)
		return ret;
	tracefs_create_file("available_filter_functions", 0444, dir, NULL,
			    &rt_callsite_list_fops);
	tracefs_create_file("callsite_stats", 0444, dir, NULL,
			    &rt_callsite_stats_fops);
	rt_fn_create_scope_files(dir, rt_top_instance());
	rt_prof_create_files(dir);
	rt_stack_create_files(dir);
	register_sysctl("kernel", rt_fn_sysctls);
	if (!rt_register_event_type(&rt_fn_event)) {
		rt_fn_format.id = rt_fn_event.type;
		if (rt_event_format_add(&rt_fn_format))
			pr_warn("no events/ftrace/function\n");
	}
	rt_register_tracer(&rt_function_tracer);
	rt_register_instance_ops(&rt_fn_scope_ops);
	rt_readme_add(&rt_fn_readme);
	return 0;
}
device_initcall(rt_function_init);
