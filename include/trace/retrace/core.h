/* SPDX-License-Identifier: GPL-2.0 */
/*
 * retrace core: what tracers and event sources use to record into the
 * shared ring buffer and to print what they recorded.
 */
#ifndef _TRACE_RETRACE_CORE_H
#define _TRACE_RETRACE_CORE_H

#include <linux/types.h>
#include <linux/seq_buf.h>
#include <trace/retrace/ring_buffer.h>

struct dentry;

/*
 * Every record starts with this header.  @type picks the printer;
 * @flags and @preempt_count are the context bits shown by the
 * latency format.
 */
struct rt_entry {
	u16	type;
	u8	flags;
	u8	preempt_count;
	s32	pid;
};

#define RT_FLAG_IRQS_OFF	0x01
#define RT_FLAG_NEED_RESCHED	0x02
#define RT_FLAG_HARDIRQ		0x04
#define RT_FLAG_SOFTIRQ		0x08
#define RT_FLAG_NMI		0x10

/* Record types known to the core; the event layer allocates above. */
enum {
	RT_TYPE_PRINT = 1,	/* trace_printk(): struct rt_print_entry */
	RT_TYPE_MARKER,		/* trace_marker writes: struct rt_print_entry */
	RT_TYPE_FUNCTION,	/* function tracer: ip and parent ip */
	RT_TYPE_FIRST_DYNAMIC = 32,
	RT_TYPE_MAX = 4096,
};

struct rt_print_entry {
	struct rt_entry	ent;
	unsigned long	ip;
	char		buf[];	/* NUL-terminated */
};

/* trace_options bits. */
enum rt_option {
	RT_OPT_PRINT_PARENT,
	RT_OPT_SYM_OFFSET,
	RT_OPT_SYM_ADDR,
	RT_OPT_VERBOSE,
	RT_OPT_RAW,
	RT_OPT_HEX,
	RT_OPT_BIN,
	RT_OPT_LATENCY_FMT,
	RT_OPT_OVERWRITE,
	RT_OPT_NR,
};

extern unsigned long rt_options;

static inline bool rt_opt(enum rt_option o)
{
	return test_bit(o, &rt_options);
}

/*
 * What a printer gets.  @s collects the text; @et is the printer's own
 * type, so a printer shared by several types can find its owner.
 * Printers for raw, hex and bin forms are optional; the core supplies
 * generic ones.
 */
struct rt_print_ctx {
	struct seq_buf		*s;
	const struct rt_event_type *et;
	const struct rt_rb_record *rec;
	const struct rt_entry	*ent;
	unsigned int		len;	/* bytes of *ent */
};

struct rt_event_type {
	unsigned int	type;
	const char	*name;
	void		(*print)(struct rt_print_ctx *ctx);
	void		(*print_raw)(struct rt_print_ctx *ctx);
};

int rt_register_event_type(struct rt_event_type *et);
void rt_unregister_event_type(struct rt_event_type *et);

/**
 * struct rt_tracer - a tracer selectable through current_tracer
 * @name: what is written to current_tracer
 * @init: start tracing; 0 or an errno that keeps the old tracer
 * @reset: stop tracing and release what init took
 * @print_header: optional extra lines for the trace file header
 * @list: entry in the registry
 */
struct rt_tracer {
	const char	*name;
	int		(*init)(void);
	void		(*reset)(void);
	void		(*print_header)(struct seq_buf *s);
	struct list_head list;
};

int rt_register_tracer(struct rt_tracer *t);
void rt_unregister_tracer(struct rt_tracer *t);

/* The one buffer every producer writes to. */
extern struct rt_buffer *rt_buffer;

bool rt_recording(void);
void *rt_reserve(unsigned int type, unsigned int len);
void *rt_reserve_entry(unsigned int type, unsigned int len, unsigned long pc);
void rt_commit(void);

void rt_print_sym(struct seq_buf *s, unsigned long ip);

struct dentry *rt_events_dir(void);

/* Bumped whenever current_tracer changes; trace_pipe readers see EOF. */
extern atomic_t rt_tracer_generation;
extern struct mutex rt_trace_lock;
const char *rt_current_tracer_name(void);
unsigned long rt_max_latency_usecs(void);
void rt_set_max_latency_usecs(unsigned long v);


#endif /* _TRACE_RETRACE_CORE_H */
