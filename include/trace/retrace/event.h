/* SPDX-License-Identifier: GPL-2.0 */
/*
 * retrace event layer: how a producer (kprobe events, markers,
 * kmemtrace, scheduler hooks) describes its records so that every event
 * gets the same events/<system>/<name>/{id,enable,format,filter} files
 * and the same filtering.
 *
 * A producer fills a struct rt_event and calls rt_event_add().  To
 * record, with preemption disabled:
 *
 *	rec = rt_event_open(pc);
 *	if (rec) {
 *		... fill the payload after struct rt_entry ...
 *		rt_event_close(ev, rec, len, pc);
 *	}
 *
 * rt_event_open() hands out a per-CPU scratch record for the current
 * context level (shared with trace_printk()); rt_event_close() fills the common header, runs the
 * event's filter on the finished record and copies it into the ring
 * buffer only if it passes.  Building the record first is what lets a
 * filter look at every field.
 *
 * A producer that knows the record's size before filling it may try
 * the short way first (kprobe events with no string argument):
 *
 *	rec = rt_event_reserve(ev, &h, len, pc);
 *	if (!IS_ERR_OR_NULL(rec)) {
 *		... fill the payload ...
 *		rt_event_commit(&h, rec, len);
 *	} else if (rec) {
 *		... the rt_event_open() path above ...
 *	}
 *
 * It succeeds when one instance alone records the event, unfiltered
 * and without triggers, and saves the scratch record and the copy;
 * NULL is a record that instance's ring refused, ERR_PTR(-EAGAIN) the
 * other cases.
 */
#ifndef _TRACE_RETRACE_EVENT_H
#define _TRACE_RETRACE_EVENT_H

#include <linux/err.h>
#include <linux/list.h>
#include <linux/rcupdate.h>
#include <trace/retrace/core.h>
#include <trace/retrace/event_filter.h>

struct dentry;
struct rt_event_system;

/* Bytes of scratch rt_event_open() returns: the largest record. */
#define RT_EVENT_MAX_RECORD	RT_RB_MAX_PAYLOAD

/**
 * struct rt_event - an event as its producer describes it
 * @system: group directory name under events/ ("kprobes")
 * @name: event directory name
 * @fields: payload fields; offsets count from the record start, so the
 *	first is at sizeof(struct rt_entry) or beyond
 * @nr_fields: entries in @fields
 * @print_fmt: the "print fmt:" line of the format file
 * @print: prints the payload after "name: " in trace and trace_pipe
 * @set_enabled: start (true) or stop (false) producing; called under
 *	the event lock, may sleep; 0 or an errno that leaves it as it was
 * @data: the producer's
 * @may_vanish: the producer removes the event on its own (a marker
 *	whose module leaves), so no set_ftrace_filter command may hold it
 * @unnamed: @print writes the whole text after the record's context,
 *	without the usual "name: " first (system calls print so)
 *
 * The rest belongs to the event layer:
 * @type: record type; @type.type is the event's ID
 * @enabled: enabled in at least one instance; written under the event
 *	lock only, read anywhere
 * @nr_enabled: the instances it is enabled in (event lock)
 * @was_enabled: it has been enabled since it was added (event lock)
 * @sys: the group
 * @files: its struct rt_event_file in each instance's events/, an RCU
 *	list the record path walks; changed under the event lock
 * @list: on the group's list, under the event lock
 */
struct rt_event {
	const char			*system;
	const char			*name;
	const struct rt_event_field	*fields;
	unsigned int			nr_fields;
	const char			*print_fmt;
	void (*print)(struct rt_print_ctx *ctx);
	int (*set_enabled)(struct rt_event *ev, bool on);
	void				*data;
	bool				may_vanish;
	bool				unnamed;

	struct rt_event_type		type;
	bool				enabled;
	unsigned int			nr_enabled;
	bool				was_enabled;
	struct rt_event_system		*sys;
	struct list_head		files;
	struct list_head		list;
};

/*
 * An integer field of a record laid out as struct @st: its C type and
 * format name as written, offset and size from @member.
 */
#define RT_EVENT_INT_FIELD(ctype, fname, st, member, sgn)		\
	{ ctype, fname, offsetof(struct st, member),			\
	  sizeof_field(struct st, member), sgn, RT_FIELD_INT }

/*
 * A char array of struct @st holding a NUL-ended string (a task name):
 * "char member[N]" in the format, a string to filters.  char is
 * unsigned in the kernel (-funsigned-char), hence signed:0.
 */
#define RT_EVENT_CHARS_FIELD(st, member)				\
	{ "char", #member, offsetof(struct st, member),			\
	  sizeof_field(struct st, member), 0, RT_FIELD_CHARS }

/**
 * struct rt_event_format - a record type of the core or of a tracer,
 *	described under events/ftrace/<name>/{id,format} so that binary
 *	readers can decode it; it has no enable or filter file
 * @name: directory name ("function")
 * @id: its record type
 * @fields: payload fields, as for struct rt_event
 * @nr_fields: entries in @fields
 * @print_fmt: the "print fmt:" line
 * @list: on the event layer's list (rt_event_format_add())
 */
struct rt_event_format {
	const char			*name;
	unsigned int			id;
	const struct rt_event_field	*fields;
	unsigned int			nr_fields;
	const char			*print_fmt;
	struct list_head		list;
};

int rt_event_format_add(struct rt_event_format *fmt);

/*
 * Soft mode (events/event_soft.c), for the enable_event and
 * disable_event commands: an instance's event whose producer stays armed
 * while commands switch it on and off from any context.
 */
struct rt_event_file;
struct seq_file;
struct rt_event_file *rt_event_soft_get(struct rt_instance *tr,
				       const char *system, const char *name,
				       bool existing);
void rt_event_soft_put(struct rt_event_file *file);
void rt_event_soft_hold(struct rt_event_file *file);
void rt_event_soft_release(struct rt_event_file *file);
bool rt_event_soft_switch(struct rt_event_file *file, bool on);
bool rt_event_soft_enabled(struct rt_event_file *file);
void rt_event_soft_name(struct seq_file *m, struct rt_event_file *file);
int rt_event_add(struct rt_event *ev);
int rt_event_remove(struct rt_event *ev);
int rt_event_remove_many(struct rt_event **evs, unsigned int n);
int rt_event_disable(struct rt_event *ev);
void *rt_event_open(unsigned long pc);
void rt_event_close(struct rt_event *ev, void *rec, unsigned int len,
		    unsigned long pc);
void rt_event_discard(void *rec, unsigned long pc);
void *rt_event_reserve(struct rt_event *ev, struct rt_handle *h,
		       unsigned int len, unsigned long pc);

/*
 * Publish @rec, @len bytes from rt_event_reserve(), which @h holds:
 * same CPU, preemption still disabled.
 */
static __always_inline void rt_event_commit(struct rt_handle *h, void *rec,
					    unsigned int len)
{
	rt_zero_pad(rec, len);
	rt_commit(h);
}

/*
 * The preemption count a tracepoint probe's caller ran with: in 6.12 a
 * tracepoint disables preemption around its probes, adding one.
 */
static inline unsigned long rt_event_tp_pc(void)
{
	return preempt_count() - (IS_ENABLED(CONFIG_PREEMPT_COUNT) ? 1 : 0);
}

static inline bool rt_event_enabled(const struct rt_event *ev)
{
	return READ_ONCE(ev->enabled);
}

#endif /* _TRACE_RETRACE_EVENT_H */
