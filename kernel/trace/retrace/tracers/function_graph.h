/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the function_graph tracer's files only. */
#ifndef _RETRACE_TRACERS_FUNCTION_GRAPH_H
#define _RETRACE_TRACERS_FUNCTION_GRAPH_H

#include <trace/retrace/core.h>

/* A function was entered at @depth (its frame's index). */
struct rt_graph_ent_entry {
	struct rt_entry	ent;
	unsigned long	ip;
	int		depth;
};

/* ... and returned; both times are rt_clock_local() nanoseconds. */
struct rt_graph_ret_entry {
	struct rt_entry	ent;
	unsigned long	ip;
	int		depth;
	u32		overrun;	/* always 0: no frame is lost unseen */
	u64		calltime;
	u64		rettime;
	unsigned long	retval;		/* %rax at the return */
};

/* The tracer's options: bits in rt_instance.tracer_opts. */
enum {
	RT_GOPT_CPU,
	RT_GOPT_DURATION,
	RT_GOPT_OVERHEAD,
	RT_GOPT_PROC,
	RT_GOPT_ABSTIME,
	RT_GOPT_FLAT,
	RT_GOPT_RETVAL,
	RT_GOPT_RETVAL_HEX,
};

extern struct rt_event_type rt_graph_ent_type, rt_graph_ret_type;

/* function_graph_print.c */
bool rt_graph_print_line(struct rt_print_ctx *ctx);
bool rt_graph_print_columns(struct rt_instance *tr, struct seq_buf *s);
void rt_graph_print_ent_flat(struct rt_print_ctx *ctx);
void rt_graph_print_ret_flat(struct rt_print_ctx *ctx);

/* graph_mark.c: the overhead mark of a duration in nanoseconds. */
char rt_graph_mark(u64 ns);

#endif /* _RETRACE_TRACERS_FUNCTION_GRAPH_H */
