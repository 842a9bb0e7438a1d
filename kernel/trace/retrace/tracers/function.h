/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the function tracer's files only. */
#ifndef _RETRACE_TRACERS_FUNCTION_H
#define _RETRACE_TRACERS_FUNCTION_H

#include <linux/seq_file.h>
#include <trace/retrace/core.h>
#include <trace/retrace/callsite.h>
#include <trace/retrace/ipset.h>

/* A function record (RT_TYPE_FUNCTION); the latency tracers write them too. */
struct rt_function_entry {
	struct rt_entry	ent;
	unsigned long	ip;
	unsigned long	parent_ip;
};

/*
 * struct rt_ff_target - what one filter file (function_filter.c) writes
 * @kind: RT_FF_*: which file it is (commands only in RT_FF_FILTER)
 * @slot: the set (ipset.h protocol), written under rt_callsite_lock
 * @gone: the set's count of entries whose module left or that wait
 *        for their module (a filter naming only them selects nothing),
 *        NULL for a notrace set, which has none
 * @tr:   the instance the file is in
 */
struct rt_ff_target {
	u8			kind;
	struct rt_ipset		**slot;
	unsigned int		*gone;
	struct rt_instance	*tr;
};

/*
 * struct rt_fn_scope - the function tracer's choices in one instance
 * @tr:          the instance
 * @filter:      set_ftrace_filter (ipset.h protocol, rt_callsite_lock)
 * @notrace_set: set_ftrace_notrace (the same)
 * @filter_gone: @filter's gone count (struct rt_ff_target)
 * @pids:        set_ftrace_pid, a pid is its own key (ipset.h protocol,
 *               written under the pid files' lock), NULL: every task
 * @notrace_pids: set_ftrace_notrace_pid, the same, NULL: none
 * @filter_target, @notrace_target: the two files' targets
 * @selected:    "function" is the instance's tracer (rt_callsite_lock)
 * @graph_selected: "function_graph" is (rt_callsite_lock)
 * @graph_bit:   while it is, the instance's bit in the return hook's
 *               frames and its slot in rt_graph_slot[] (1 and up; the
 *               top level's graph is bit 0), else 0 (rt_callsite_lock)
 * @list:        in function.c's list of scopes (rt_callsite_lock)
 *
 * The top level's scope is static (rt_fn_top); an instance's is made
 * with the instance and freed once no hit can reach it (function.c).
 */
struct rt_fn_scope {
	struct rt_instance	*tr;
	struct rt_ipset		*filter;
	struct rt_ipset		*notrace_set;
	unsigned int		filter_gone;
	struct rt_ipset		*pids;
	struct rt_ipset		*notrace_pids;
	struct rt_ff_target	filter_target;
	struct rt_ff_target	notrace_target;
	bool			selected;
	bool			graph_selected;
	u8			graph_bit;
	struct list_head	list;
};

/*
 * The scopes whose tracer runs, published by pointer (function.c):
 * rt_fn_running those running "function", rt_graph_running those
 * running "function_graph".
 */
struct rt_fn_running {
	unsigned int		nr;
	struct rt_fn_scope	*sc[];
};
extern struct rt_fn_running *rt_graph_running;

/* function.c */
extern struct rt_cs_client rt_fn_client;
extern struct rt_fn_scope rt_fn_top;
int rt_fn_sync(void);
struct ctl_table;
int rt_fn_sync_sysctl(const struct ctl_table *table, int write,
		      void *buffer, size_t *lenp, loff_t *ppos);
bool rt_fn_selects(const struct rt_fn_scope *sc, unsigned long ip);
struct rt_fn_scope *rt_fn_scope_get(struct rt_instance *tr);
struct rt_fn_scope *rt_fn_scope_find(struct rt_instance *tr);
void rt_fn_scope_put(struct rt_fn_scope *sc);
/* Functions inside latency sections only (see function.c). */
#define RT_FN_GATE_IRQS		1	/* open while interrupts are off */
#define RT_FN_GATE_PREEMPT	2	/* open while preemption is off */
DECLARE_PER_CPU(u8, rt_fn_gate);
int rt_fn_gated_start(struct rt_instance *tr);
void rt_fn_gated_stop(void);
bool rt_fn_pid_wanted_slow(const struct rt_fn_scope *sc);

/*
 * @sc's pid files let the current task be traced; preemption off.  The
 * usual case, both files empty, is two loads inline; NULL is all a plain
 * load may see here, and the slow half reads the sets with acquire.
 */
static __always_inline bool rt_fn_pid_wanted(const struct rt_fn_scope *sc)
{
	if (likely(!READ_ONCE(sc->pids) && !READ_ONCE(sc->notrace_pids)))
		return true;
	return rt_fn_pid_wanted_slow(sc);
}

/*
 * function_graph.c: the graph tracer shares the function tracer's
 * client, filters and pids.  rt_graph_selected is written under
 * rt_callsite_lock, rt_graph_on by rt_fn_sync(); rt_graph_set is
 * set_graph_function (ipset.h protocol), rt_graph_set_gone counts its
 * entries whose module left.
 */
extern bool rt_graph_selected, rt_graph_on;
extern struct rt_ipset *rt_graph_set;
extern unsigned int rt_graph_set_gone;
#ifdef CONFIG_RETRACE_FUNCTION_GRAPH
void rt_graph_entry(unsigned long ip, unsigned long *parent_slot, bool check,
		    bool top);
void rt_graph_scope_stop(struct rt_fn_scope *sc);
#else
static inline void rt_graph_entry(unsigned long ip, unsigned long *parent_slot,
				  bool check, bool top)
{
}

static inline void rt_graph_scope_stop(struct rt_fn_scope *sc)
{
}
#endif
void rt_fn_set_drop(struct rt_ipset **slot,
		    bool (*gone)(unsigned long ip, void *arg), void *arg,
		    unsigned int *count);

/* function_profile.c: function_profile_enabled, trace_stat/functionN. */
void rt_prof_sync(bool ftrace_enabled);
void rt_prof_create_files(struct dentry *dir);

/*
 * stack_tracer.c: stack_trace, stack_max_size, stack_trace_filter (its
 * set, ipset.h protocol, written under rt_callsite_lock; _gone as
 * a filter's gone count, struct rt_ff_target) and
 * kernel.stack_tracer_enabled.
 */
extern struct rt_ipset *rt_stack_filter;
extern unsigned int rt_stack_filter_gone;
void rt_stack_sync(bool ftrace_enabled);
void rt_stack_create_files(struct dentry *dir);

/* function_filter.c */
void rt_create_filter_files(struct dentry *dir, struct rt_instance *tr);
/* Which file a target is (struct rt_ff_target). */
enum { RT_FF_FILTER = 1, RT_FF_NOTRACE, RT_FF_GRAPH, RT_FF_STACK };
void rt_create_stack_filter_file(struct dentry *dir);

/* function_filter_mod.c: ":mod:" patterns waiting for their module. */
struct rt_ff_pending {
	struct list_head	list;
	const struct rt_ff_target *target;	/* which file */
	bool			arriving;	/* rt_ff_module_coming()'s mark */
	char			*glob;
	char			*mod;
};
struct rt_ff_pending *rt_ff_pending_new(const struct rt_ff_target *target,
					const char *glob, const char *mod);
void rt_ff_pending_free(struct rt_ff_pending *p);
unsigned int rt_ff_pending_remove(const struct rt_ff_target *target,
				  const char *glob, const char *mod, bool dry);
unsigned int rt_ff_pending_commit(const struct rt_ff_target *target,
				  bool trunc, struct list_head *added);
unsigned int rt_ff_pending_count(const struct rt_ff_target *target);
void rt_ff_pending_show(struct seq_file *m,
			const struct rt_ff_target *target);
void rt_ff_pending_forget(const struct rt_ff_target *target);
void rt_ff_module_coming(struct rt_cs_client *c, struct module *mod);

/*
 * function_probe.c: the traceon, traceoff and stacktrace commands, a
 * client of their own.
 */
enum {
	RT_FP_TRACEON, RT_FP_TRACEOFF, RT_FP_STACKTRACE,
	RT_FP_ENABLE_EVENT, RT_FP_DISABLE_EVENT,
};

/*
 * struct rt_fprobe - one command on one function
 * @ip:     the function's call site
 * @cmd:    RT_FP_*
 * @gone:   removed (see function_probe.c); written under rt_callsite_lock
 * @seq:    order of addition within one update
 * @count:  times left to act, -1 for no limit
 * @tr:     the instance whose set_ftrace_filter holds it: the one it
 *          switches or records a stack into
 * @ev:     the event of enable_event and disable_event, @tr's file of
 *          it (event_soft.c: each published set holds a count on it),
 *          else NULL
 */
struct rt_fprobe {
	unsigned long		ip;
	u8			cmd;
	u8			gone;
	u32			seq;
	atomic_long_t		count;
	struct rt_instance	*tr;
	struct rt_event_file	*ev;
};

struct rt_fprobe_set;

int rt_fprobe_parse_cmd(const char *cmd, const char *arg, long *count);
bool rt_fprobe_is_event_cmd(int cmd);
struct rt_fprobe_set *rt_fprobe_begin(void);
int rt_fprobe_add(struct rt_fprobe_set **setp, unsigned long ip, int cmd,
		  long count, struct rt_instance *tr, struct rt_event_file *ev);
void rt_fprobe_abort(struct rt_fprobe_set *set);
void rt_fprobe_del(struct rt_fprobe_set *set, unsigned long ip, int cmd,
		   struct rt_instance *tr, struct rt_event_file *ev);
void rt_fprobe_commit(struct rt_fprobe_set *set);
void rt_fprobe_show(struct seq_file *m, struct rt_instance *tr);
void rt_fprobe_forget(struct rt_instance *tr);

#endif /* _RETRACE_TRACERS_FUNCTION_H */
