// SPDX-License-Identifier: GPL-2.0
/*
 * The function_graph tracer: the function tracer's call sites, plus
 * the return hook (hooks/ret_stack.c), record each function's entry and
 * return, and the output (function_graph_print.c) draws them as a call
 * graph with durations.
 *
 * It shares the function tracer's client, so set_ftrace_filter,
 * set_ftrace_notrace, set_ftrace_pid and ftrace_enabled apply as they
 * do there, and runs in instances as the function tracer does, each
 * with its own filter and pid files (struct rt_fn_scope).  At the top
 * level, set_graph_function, when not empty, limits the graph to
 * the functions it names and everything they call: a task is inside a
 * graph from the entry of such a function until its return, which the
 * task's return stack keeps (rt_ret_stack.client holds the depth of the
 * outermost one, plus one).
 *
 * One hooked return serves every graph that wants the function: the
 * frame's data word has a bit per graph that recorded the entry, bit 0
 * for the top level's, bit N for the instance in rt_graph_slot[N].  A
 * slot is set (release) when the instance's graph starts and cleared
 * when it stops, followed by rt_wait_preempt_readers() before its scope
 * can be freed; the return handler reads it with acquire, preemption
 * disabled.  Returns hooked for an earlier graph whose slot was since
 * given to another instance would land there as returns without
 * entries: slots are handed out round-robin, the next free one after
 * the last given, so a freed slot waits while others are free.
 */
#include <linux/tracefs.h>
#include <linux/kprobes.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <trace/retrace/callsite.h>
#include <trace/retrace/core.h>
#include <trace/retrace/event.h>
#include <trace/retrace/ipset.h>
#include <trace/retrace/ret_stack.h>
#include "function.h"
#include "function_graph.h"

/* The instance the tracer was started on; set before rt_graph_on. */
static struct rt_instance *rt_graph_tr;

/* The instances' graphs by frame bit (see the top); rt_callsite_lock. */
#define RT_GRAPH_SLOTS		BITS_PER_LONG
static struct rt_fn_scope *rt_graph_slot[RT_GRAPH_SLOTS];
static unsigned int rt_graph_next_slot = 1;
/*
 * One recursion word for entries and returns: functions called while a
 * record is being written (at entry or at return) are neither recorded
 * nor hooked.
 */
static DEFINE_PER_CPU(unsigned long, rt_graph_inside);

/*
 * graph_stats' loss counters: a hooked return the recursion guard kept
 * out, and entries or returns the ring buffer refused.  Each leaves a
 * call drawn open (or closed without its entry).
 */
static atomic_long_t rt_graph_ret_guarded = ATOMIC_LONG_INIT(0);
static atomic_long_t rt_graph_ent_refused = ATOMIC_LONG_INIT(0);
static atomic_long_t rt_graph_ret_refused = ATOMIC_LONG_INIT(0);

/*
 * The guard, with one transition allowed.  The end of an interrupt
 * (irq_exit_rcu() and what it calls after lowering the preempt count)
 * runs at the level it interrupted, whose bit is held if the interrupt
 * came while that level was inside this tracer: without a second
 * chance, those functions' entries and returns would be lost, leaving
 * a call drawn open.  One extra bit lets them in; a real recursion
 * stops at the next level.  Safe because the return stack and the ring
 * buffer already take an interrupt at any point of their updates.
 *
 * Only with interrupts disabled, as the end of an interrupt runs.
 * Traced code the tracer itself calls with interrupts on (waking a
 * trace_pipe reader: irq_work_queue() -> arch_irq_work_raise(), whose
 * self-IPI arrives at once) is refused, as the comment above
 * rt_graph_inside says.  Were it let in, an interrupt landing while
 * its handler held the transition bit would find both bits of its
 * level taken when irq_exit_rcu() returns, and lose that return:
 * graph_stats' returns_guarded.  With interrupts off while the bit is
 * held, no interrupt nests inside a holder (an NMI has its own level).
 * So nothing the tracer calls may turn interrupts on or off: a hooked
 * function entered with them off and left with them on would have its
 * return refused.
 */
#define RT_GRAPH_TRANSITION	4

static __always_inline unsigned long rt_graph_guard_enter(unsigned long pc)
{
	unsigned long bit = rt_recursion_enter(&rt_graph_inside,
					       rt_context_level(pc));

	if (!bit && irqs_disabled())
		bit = rt_recursion_enter(&rt_graph_inside,
					 RT_GRAPH_TRANSITION);
	return bit;
}

/* Preemption disabled: is the current task in a graph to record? */
static bool notrace rt_graph_wanted(struct rt_ret_stack *st, unsigned long ip,
				    bool *root)
{
	const struct rt_ipset *set;

	*root = false;
	if (st->client)
		return true;
	/* Pairs with the release in rt_ipset_publish(). */
	set = smp_load_acquire(&rt_graph_set);
	if (!set && !READ_ONCE(rt_graph_set_gone))
		return true;
	*root = rt_ipset_has(set, ip);
	return *root;
}

/* Frame bit @b's instance, NULL if its graph stopped; preemption off. */
static __always_inline struct rt_instance *rt_graph_tr_of(unsigned int b)
{
	const struct rt_fn_scope *sc;

	if (!b)
		return READ_ONCE(rt_graph_tr);
	/* Pairs with the release in rt_graph_init(). */
	sc = smp_load_acquire(&rt_graph_slot[b]);
	return sc ? sc->tr : NULL;
}

/* The bits of the instances' graphs that want @ip; preemption off. */
static __always_inline unsigned long rt_graph_scopes_want(unsigned long ip)
{
	const struct rt_fn_running *run;
	const struct rt_fn_scope *sc;
	unsigned long mask = 0;
	unsigned int i, b;

	/* Pairs with the release in rt_fn_publish_running(). */
	run = smp_load_acquire(&rt_graph_running);
	for (i = 0; run && i < run->nr; i++) {
		sc = run->sc[i];
		b = READ_ONCE(sc->graph_bit);
		if (b && rt_fn_selects(sc, ip) && rt_recording(sc->tr) &&
		    rt_fn_pid_wanted(sc))
			mask |= BIT(b);
	}
	return mask;
}

/**
 * rt_graph_entry - a function a graph tracer may want is entered
 * @ip: its call site
 * @parent_slot: where its return address is on the stack
 * @check: other call-site clients are active (see rt_cs_client)
 * @top: the top level's graph runs; the instances' are asked anyway
 *
 * Called by the function tracer's client callback in any context.
 * Hooks the return once for every graph that wants the function, then
 * records the entry in each: the return is hooked first, so a full
 * return stack records nothing.
 */
void notrace __no_stack_protector
rt_graph_entry(unsigned long ip, unsigned long *parent_slot, bool check,
	       bool top)
{
	unsigned long pc = preempt_count(), bit, mask = 0;
	struct rt_graph_ent_entry *e;
	struct rt_ret_stack *st;
	struct rt_instance *tr;
	struct rt_handle h;
	bool root = false;
	int depth;

	st = rt_ret_stack_of(current);
	if (!st)
		return;
	preempt_disable_notrace();
	bit = rt_graph_guard_enter(pc);
	if (!bit)
		goto out;
	if (top && (!check || rt_fn_selects(&rt_fn_top, ip)) &&
	    rt_recording(READ_ONCE(rt_graph_tr)) &&
	    rt_fn_pid_wanted(&rt_fn_top) && rt_graph_wanted(st, ip, &root))
		mask = BIT(0);
	mask |= rt_graph_scopes_want(ip);
	if (!mask)
		goto exit;
	depth = READ_ONCE(st->top);
	if (!rt_ret_push(st, ip, parent_slot, rt_clock_local(), mask))
		goto exit;
	if (root)
		st->client = depth + 1;
	/* With tracing_thresh only returns are recorded (the slow ones). */
	if (READ_ONCE(rt_tracing_thresh_ns))
		goto exit;
	/*
	 * __ffs(), not for_each_set_bit(): nothing traceable in here.  A
	 * bit is set only where rt_recording() said yes just above.
	 */
	for (; mask; mask &= mask - 1) {
		tr = rt_graph_tr_of(__ffs(mask));
		if (!tr)
			continue;
		e = rt_reserve_entry(tr, &h, rt_graph_ent_type.type,
				     sizeof(*e), pc);
		if (e) {
			e->ip = ip;
			e->depth = depth;
			rt_commit(&h);
		} else {
			atomic_long_inc(&rt_graph_ent_refused);
		}
	}
exit:
	rt_recursion_exit(&rt_graph_inside, bit);
out:
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(rt_graph_entry);

/* The return hook's handler: a hooked function returns. */
static void notrace __no_stack_protector
rt_graph_return(const struct rt_ret_frame *f, int depth, unsigned long retval)
{
	unsigned long pc = preempt_count(), bit, mask = f->data;
	struct rt_graph_ret_entry *e;
	struct rt_ret_stack *st;
	struct rt_instance *tr;
	struct rt_handle h;
	u64 now;

	/*
	 * Nothing traceable may run before the recursion guard: a hooked
	 * function called here would return into this handler again.
	 */
	preempt_disable_notrace();
	now = rt_clock_local();
	/*
	 * Entered on another CPU, whose sched_clock() may be ahead: no
	 * duration below 0 (it would wrap, and pass tracing_thresh).
	 */
	if ((s64)(now - f->calltime) < 0)
		now = f->calltime;
	st = rt_ret_stack_of(current);
	if (st && st->client == depth + 1)
		st->client = 0;
	/* The top level's graph: only while it runs. */
	if (!READ_ONCE(rt_graph_on))
		mask &= ~BIT(0);
	if (!mask || now - f->calltime < READ_ONCE(rt_tracing_thresh_ns))
		goto out;
	bit = rt_graph_guard_enter(pc);
	if (!bit) {
		atomic_long_inc(&rt_graph_ret_guarded);
		goto out;
	}
	for (; mask; mask &= mask - 1) {
		tr = rt_graph_tr_of(__ffs(mask));
		if (!tr || !rt_recording(tr))
			continue;
		e = rt_reserve_entry(tr, &h, rt_graph_ret_type.type,
				     sizeof(*e), pc);
		if (e) {
			e->ip = f->ip;
			e->depth = depth;
			e->overrun = 0;
			e->calltime = f->calltime;
			e->rettime = now;
			e->retval = retval;
			rt_commit(&h);
		} else {
			atomic_long_inc(&rt_graph_ret_refused);
		}
	}
	rt_recursion_exit(&rt_graph_inside, bit);
out:
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(rt_graph_return);

/* Under rt_callsite_lock: a free frame bit for an instance, or 0. */
static unsigned int rt_graph_slot_alloc(void)
{
	unsigned int i, b;

	for (i = 1; i < RT_GRAPH_SLOTS; i++) {
		b = rt_graph_next_slot;
		rt_graph_next_slot = b + 1 < RT_GRAPH_SLOTS ? b + 1 : 1;
		if (!rt_graph_slot[b])
			return b;
	}
	return 0;
}

/**
 * rt_graph_scope_stop - an instance's graph stops, or its scope goes
 * @sc: the scope
 *
 * Call with rt_callsite_lock held.  Once this returns, no hit or
 * hooked return reaches @sc through the graph.
 */
void rt_graph_scope_stop(struct rt_fn_scope *sc)
{
	lockdep_assert_held(&rt_callsite_lock);
	if (!sc->graph_bit)
		return;
	/* Out of rt_graph_running first: entries read its bit there. */
	sc->graph_selected = false;
	rt_fn_sync();
	WRITE_ONCE(rt_graph_slot[sc->graph_bit], NULL);
	/* Hooked returns read the slot even when no array changed. */
	rt_wait_preempt_readers();
	WRITE_ONCE(sc->graph_bit, 0);
}

static int rt_graph_init(struct rt_instance *tr)
{
	struct rt_fn_scope *sc;
	int ret = rt_ret_stacks_alloc();

	if (ret)
		return ret;
	rt_ret_set_handler(rt_graph_return);
	mutex_lock(&rt_callsite_lock);
	if (tr == rt_top_instance()) {
		WRITE_ONCE(rt_graph_tr, tr);
		rt_graph_selected = true;
		ret = rt_fn_sync();
		if (ret) {
			rt_graph_selected = false;
			rt_fn_sync();
		}
		goto out;
	}
	sc = rt_fn_scope_find(tr);
	ret = sc ? 0 : -ENODEV;
	if (ret)
		goto out;
	sc->graph_bit = rt_graph_slot_alloc();
	ret = sc->graph_bit ? 0 : -EBUSY;
	if (ret)
		goto out;
	/* Pairs with the acquire in rt_graph_tr_of(). */
	smp_store_release(&rt_graph_slot[sc->graph_bit], sc);
	sc->graph_selected = true;
	ret = rt_fn_sync();
	if (ret)
		rt_graph_scope_stop(sc);
out:
	mutex_unlock(&rt_callsite_lock);
	return ret;
}

/*
 * Returns already hooked keep arriving after this (a task asleep in a
 * graphed function returns whenever it wakes): the hook restores them
 * from the task's stack, and the handler records nothing for a graph
 * that stopped (rt_graph_on false, or its slot empty).  An instance's
 * scope may be gone already (function.c's rt_fn_scope_remove()).
 */
static void rt_graph_reset(struct rt_instance *tr)
{
	struct rt_fn_scope *sc;

	mutex_lock(&rt_callsite_lock);
	if (tr == rt_top_instance()) {
		rt_graph_selected = false;
		rt_fn_sync();
	} else {
		sc = rt_fn_scope_find(tr);
		if (sc)
			rt_graph_scope_stop(sc);
	}
	mutex_unlock(&rt_callsite_lock);
}

static const struct rt_tracer_opt rt_graph_opts[] = {
	{ "funcgraph-abstime",	RT_GOPT_ABSTIME },
	{ "funcgraph-cpu",	RT_GOPT_CPU },
	{ "funcgraph-duration",	RT_GOPT_DURATION },
	{ "funcgraph-flat",	RT_GOPT_FLAT },
	{ "funcgraph-overhead",	RT_GOPT_OVERHEAD },
	{ "funcgraph-proc",	RT_GOPT_PROC },
	{ "funcgraph-retval",	RT_GOPT_RETVAL },
	{ "funcgraph-retval-hex", RT_GOPT_RETVAL_HEX },
	{ }
};

static struct rt_tracer rt_graph_tracer = {
	.name		= "function_graph",
	.init		= rt_graph_init,
	.reset		= rt_graph_reset,
	.opts		= rt_graph_opts,
	.default_opts	= BIT(RT_GOPT_CPU) | BIT(RT_GOPT_DURATION) |
			  BIT(RT_GOPT_OVERHEAD),
	.print_line	= rt_graph_print_line,
	.print_columns	= rt_graph_print_columns,
	/* A stack after each entry would keep leaves from folding. */
	.no_stacks	= true,
	.instances	= true,
};

static void rt_graph_print_ent_raw(struct rt_print_ctx *ctx)
{
	const struct rt_graph_ent_entry *e = (const void *)ctx->ent;

	if (ctx->len >= sizeof(*e))
		seq_buf_printf(ctx->s, " %lx %d", e->ip, e->depth);
}

static void rt_graph_print_ret_raw(struct rt_print_ctx *ctx)
{
	const struct rt_graph_ret_entry *e = (const void *)ctx->ent;

	if (ctx->len >= sizeof(*e))
		seq_buf_printf(ctx->s, " %lx %d %llu %llu", e->ip, e->depth,
			       e->calltime, e->rettime);
}

struct rt_event_type rt_graph_ent_type = {
	.name		= "funcgraph_entry",
	.print		= rt_graph_print_ent_flat,
	.print_raw	= rt_graph_print_ent_raw,
};

struct rt_event_type rt_graph_ret_type = {
	.name		= "funcgraph_exit",
	.print		= rt_graph_print_ret_flat,
	.print_raw	= rt_graph_print_ret_raw,
};

/* graph_stats: the return hook's counters. */
static int rt_graph_stats_show(struct seq_file *m, void *v)
{
	seq_printf(m, "tasks_with_stack: %lu\n", rt_ret_stats_tasks());
	seq_printf(m, "stack_depth: %u\n", RT_RET_STACK_DEPTH);
	seq_printf(m, "stack_full: %lu\n", rt_ret_stats_full());
	seq_printf(m, "resync: %lu\n", rt_ret_stats_resync());
	seq_printf(m, "returns_guarded: %ld\n",
		   atomic_long_read(&rt_graph_ret_guarded));
	seq_printf(m, "entries_refused: %ld\n",
		   atomic_long_read(&rt_graph_ent_refused));
	seq_printf(m, "returns_refused: %ld\n",
		   atomic_long_read(&rt_graph_ret_refused));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rt_graph_stats);

static struct rt_readme_part rt_graph_readme = {
	.text = "  set_graph_function   function_graph draws only these functions and\n"
		"                       what they call: [!]glob[:mod:M]\n"
		"  graph_stats          return stacks: tasks with one, depth, pushes\n"
		"                       refused because a stack was full, returns\n"
		"                       that had to drop frames (resync), returns\n"
		"                       the recursion guard kept out, entries and\n"
		"                       returns the ring buffer refused\n",
};

/* events/ftrace/funcgraph_{entry,exit}: named as trace-cmd expects. */
static const struct rt_event_field rt_graph_ent_fields[] = {
	RT_EVENT_INT_FIELD("unsigned long", "func", rt_graph_ent_entry, ip, 0),
	RT_EVENT_INT_FIELD("int", "depth", rt_graph_ent_entry, depth, 1),
};

static const struct rt_event_field rt_graph_ret_fields[] = {
	RT_EVENT_INT_FIELD("unsigned long", "func", rt_graph_ret_entry, ip, 0),
	RT_EVENT_INT_FIELD("int", "depth", rt_graph_ret_entry, depth, 1),
	RT_EVENT_INT_FIELD("unsigned int", "overrun", rt_graph_ret_entry,
			   overrun, 0),
	RT_EVENT_INT_FIELD("unsigned long long", "calltime",
			   rt_graph_ret_entry, calltime, 0),
	RT_EVENT_INT_FIELD("unsigned long long", "rettime",
			   rt_graph_ret_entry, rettime, 0),
	RT_EVENT_INT_FIELD("unsigned long", "retval", rt_graph_ret_entry,
			   retval, 0),
};

static struct rt_event_format rt_graph_ent_format = {
	.name = "funcgraph_entry",
	.fields = rt_graph_ent_fields,
	.nr_fields = ARRAY_SIZE(rt_graph_ent_fields),
	.print_fmt = "\"--> %ps (%d)\", (void *)REC->func, REC->depth",
};

static struct rt_event_format rt_graph_ret_format = {
	.name = "funcgraph_exit",
	.fields = rt_graph_ret_fields,
	.nr_fields = ARRAY_SIZE(rt_graph_ret_fields),
	.print_fmt = "\"<-- %ps (%d) (start: %llx  end: %llx) over: %u\", (void *)REC->func, REC->depth, REC->calltime, REC->rettime, REC->overrun",
};

static int __init rt_function_graph_init(void)
{
	int ret;

	ret = rt_register_event_type(&rt_graph_ent_type);
	if (!ret)
		ret = rt_register_event_type(&rt_graph_ret_type);
	if (ret)
		return ret;
	rt_graph_ent_format.id = rt_graph_ent_type.type;
	rt_graph_ret_format.id = rt_graph_ret_type.type;
	if (rt_event_format_add(&rt_graph_ent_format) ||
	    rt_event_format_add(&rt_graph_ret_format))
		pr_warn("no events/ftrace/funcgraph_*\n");
	tracefs_create_file("graph_stats", 0444, rt_tracing_dir(), NULL,
			    &rt_graph_stats_fops);
	rt_readme_add(&rt_graph_readme);
	return rt_register_tracer(&rt_graph_tracer);
}
device_initcall(rt_function_graph_init);
