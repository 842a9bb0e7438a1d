/* SPDX-License-Identifier: GPL-2.0 */
/*
 * retrace core: what tracers and event sources use to record into the
 * shared ring buffer and to print what they recorded.
 */
#ifndef _TRACE_RETRACE_CORE_H
#define _TRACE_RETRACE_CORE_H

#include <linux/cpumask.h>
#include <linux/fs.h>
#include <linux/mutex.h>
#include <linux/irq_work.h>
#include <linux/percpu.h>
#include <asm/current.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/thread_info.h>
#include <linux/types.h>
#include <linux/security.h>
#include <linux/seq_buf.h>
#include <linux/string.h>
#include <linux/wait.h>
#include <trace/retrace/ring_buffer.h>

struct dentry;
struct task_struct;

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
	RT_TYPE_KSTACK,		/* stacktrace option: core/stack.c */
	RT_TYPE_USTACK,		/* userstacktrace option: core/stack.c */
	RT_TYPE_FIRST_DYNAMIC = 32,
	RT_TYPE_MAX = 4096,
};

struct rt_print_entry {
	struct rt_entry	ent;
	unsigned long	ip;
	char		buf[];	/* NUL-terminated */
};

/* A stack record (RT_TYPE_KSTACK, RT_TYPE_USTACK): @nr return addresses,
 * innermost first; the record holds only those.
 */
struct rt_stack_entry {
	struct rt_entry	ent;
	u32		nr;
	u32		pad;
	unsigned long	ips[];
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
	RT_OPT_STACKTRACE,
	RT_OPT_USERSTACKTRACE,
	RT_OPT_SYM_USEROBJ,
	RT_OPT_BLOCK,
	RT_OPT_SCHED_TREE,
	RT_OPT_EVENT_FORK,
	RT_OPT_PAUSE_ON_TRACE,
	RT_OPT_NR,
};

/* Options that make every commit record stacks after the record. */
#define RT_OPT_STACK_MASK	(BIT(RT_OPT_STACKTRACE) | BIT(RT_OPT_USERSTACKTRACE))

/*
 * struct rt_instance - one trace instance: what a tracer and the
 * control files of one tracing directory work on.
 * @buffer:      the ring buffer producers write to.  Readers of the
 *               pointer: every reservation (rt_reserve_entry() and
 *               friends) reads it once and keeps it in a struct
 *               rt_handle, so a commit always lands in the buffer its
 *               reservation came from even if @buffer is swapped in
 *               between.  Written under rt_trace_lock.
 * @max_buffer:  the snapshot of the largest latency seen, swapped with
 *               @buffer by latency tracers, or the snapshot file's
 *               buffer; NULL until one needs it, then kept until the
 *               instance goes (open readers may walk it)
 * @snapshot:    the snapshot file's buffer is allocated (core/snapshot.c);
 *               under rt_trace_lock
 * @options:     trace_options bits (RT_OPT_*), written under
 *               rt_trace_lock, read locklessly by the printers
 * @tracer_opts: a copy of the current tracer's @opts_state, for the
 *	readers of output (rt_tracer_opt()); updated with it
 * @cpumask:     CPUs whose records are kept
 * @dir:         its tracing directory
 * @tracer:      the current tracer, under rt_trace_lock
 * @max_latency: tracing_max_latency, in microseconds
 * @paused:      readers of "trace" open with pause-on-trace
 *               (core/trace_file.c), under rt_max_lock; while it is
 *               not 0 the buffer takes no records and nothing swaps
 *               it with @max_buffer (a new max or a snapshot)
 * @raw_subbuf_order: trace_pipe_raw's pages are 4 KiB << this
 *               (buffer_subbuf_size_kb); written under
 *               rt_trace_lock, read with or without it
 * @raw_readers: open trace_pipe_raw files, which took that size at
 *               open; under rt_trace_lock, and the order cannot
 *               change while it is not 0 (core/trace_pipe_raw.c)
 * @on:          its tracing_on switch: read locklessly by every
 *               record, written from any context (tracing_on() and
 *               tracing_off() for the top level)
 * @name:        an instance's directory name; NULL for the top level
 * @ref:         open files of an instance (core/instance.c), under
 *               rt_instances_lock; rmdir refuses while it is not 0
 * @list:        in the list of instances, under rt_instances_lock
 *
 * A buffer that was swapped out stays valid for writers in flight:
 * they hold preemption disabled from reserve to commit, so once
 * rt_wait_preempt_readers() (ipset.h) returns after the swap, no
 * writer is left in it.
 */
struct rt_instance {
	struct rt_buffer	*buffer;
	struct rt_buffer	*max_buffer;
	bool			snapshot;
	unsigned long		options;
	unsigned long		tracer_opts;
	cpumask_var_t		cpumask;
	struct dentry		*dir;
	struct rt_tracer	*tracer;
	unsigned long		max_latency;
	/* enum rt_rb_clock of the buffers; core/trace_clock.c */
	unsigned int		clock;
	/* Sleeping trace_pipe readers: the protocol is in core/pipe_wait.c. */
	int			pipe_waiting;
	struct irq_work		pipe_work;
	wait_queue_head_t	pipe_wq;
	int			on;
	int			paused;
	unsigned int		raw_subbuf_order;
	int			raw_readers;
	const char		*name;
	int			ref;
	struct list_head	list;
};

static inline bool rt_opt(const struct rt_instance *tr, enum rt_option o)
{
	return test_bit(o, &tr->options);
}

/**
 * rt_recording - whether a record made now on this CPU would be kept
 * @tr: the instance
 *
 * Inline: every producer asks it on every hit.  Call with preemption
 * disabled.
 *
 * Return: false when @tr's tracing is off, the buffer is missing, or
 * this CPU is outside tracing_cpumask.
 */
static __always_inline bool rt_recording(struct rt_instance *tr)
{
	return READ_ONCE(tr->on) && READ_ONCE(tr->buffer) &&
	       cpumask_test_cpu(raw_smp_processor_id(), tr->cpumask);
}

/* One of the current tracer's own options (struct rt_tracer_opt). */
static inline bool rt_tracer_opt(const struct rt_instance *tr,
				 unsigned int bit)
{
	return test_bit(bit, &tr->tracer_opts);
}

/* What a reservation came from; pass it to rt_commit(). */
struct rt_handle {
	struct rt_buffer	*buf;
	struct rt_instance	*tr;
};

/*
 * What a printer gets.  @s collects the text; @et is the printer's own
 * type, so a printer shared by several types can find its owner; @tr
 * is the instance being read (its options).  Printers for raw, hex and
 * bin forms are optional; the core supplies generic ones.
 */
struct rt_reader;

struct rt_print_ctx {
	struct seq_buf		*s;
	const struct rt_instance *tr;
	const struct rt_event_type *et;
	const struct rt_rb_record *rec;
	const struct rt_entry	*ent;
	unsigned int		len;	/* bytes of *ent */
	struct rt_reader	*reader; /* NULL: no look-ahead (a dump) */
};

/*
 * Look-ahead for printers that join records (function_graph prints an
 * entry and its return as one line).  rt_print_peek() gives the record
 * that follows ctx->rec on the same CPU without taking it, or NULL;
 * rt_print_take() asks that it be taken once this line is out, so it
 * is not printed on its own.  rt_print_state() gives the reader's
 * private area of @size bytes, zeroed on first use and kept until the
 * file is closed, or NULL (no reader, or no memory).
 */
const struct rt_rb_record *rt_print_peek(struct rt_print_ctx *ctx);
void rt_print_take(struct rt_print_ctx *ctx);
void *rt_print_state(struct rt_print_ctx *ctx, size_t size);

struct rt_event_type {
	unsigned int	type;
	const char	*name;
	void		(*print)(struct rt_print_ctx *ctx);
	void		(*print_raw)(struct rt_print_ctx *ctx);
};

int rt_register_event_type(struct rt_event_type *et);
void rt_unregister_event_type(struct rt_event_type *et);
void rt_unregister_event_type_nowait(struct rt_event_type *et);
void rt_reset_all_buffers(void);

/*
 * struct rt_tracer_opt - an option a tracer owns
 * @name: its word in trace_options ("noNAME" clears it)
 * @bit:  its bit in rt_instance.tracer_opts
 */
struct rt_tracer_opt {
	const char	*name;
	unsigned int	bit;
};

/**
 * struct rt_tracer - a tracer selectable through current_tracer
 * @name: what is written to current_tracer
 * @init: start tracing on @tr; 0 or an errno that keeps the old tracer
 * @reset: stop tracing on @tr and release what init took
 * @print_header: optional extra lines for the trace file header
 * @opts: options the tracer owns, ending with a NULL name; listed in
 *        trace_options only while the tracer is current
 * @default_opts: its option bits when it registers; changes through
 *        trace_options or options/ are then kept across selections
 * @set_opt: optional; an owned option changes (return 0 or an errno
 *        that refuses the change).  Also called through options/
 *        while another tracer is current on @tr: check @tr->tracer
 *        before touching running state
 * @print_line: optional; formats a record in trace and trace_pipe in
 *        place of the default context columns and printer (not in the
 *        raw, hex and bin forms); returns false to leave the record to
 *        the default.  Runs under rcu_read_lock().
 * @print_columns: optional; prints the column legend of the header in
 *        place of the default one; returns false to keep the default
 * @use_max: a latency tracer: "trace" shows the max-latency snapshot
 * @no_stacks: the stacktrace options would break its output (records
 *        it pairs up), so commits make no stack records while it is
 *        current
 * @instances: it may also run in an instance (instances/NAME), not
 *        only at the top level
 * @list: entry in the registry
 */
struct rt_tracer {
	const char	*name;
	int		(*init)(struct rt_instance *tr);
	void		(*reset)(struct rt_instance *tr);
	void		(*print_header)(struct rt_instance *tr,
					struct seq_buf *s);
	const struct rt_tracer_opt *opts;
	unsigned long	default_opts;
	int		(*set_opt)(struct rt_instance *tr, unsigned int bit,
				   bool on);
	bool		(*print_line)(struct rt_print_ctx *ctx);
	bool		(*print_columns)(struct rt_instance *tr,
					 struct seq_buf *s);
	bool		use_max;
	bool		no_stacks;
	bool		instances;
	/* The core's: */
	unsigned long	opts_state;	/* its option bits (rt_trace_lock) */
	void		*opt_files;	/* its options/ files (options.c) */
	struct list_head list;
};

int rt_register_tracer(struct rt_tracer *t);
void rt_unregister_tracer(struct rt_tracer *t);

/**
 * struct rt_instance_ops - a unit above the core with files in every
 *	instance (the events layer: events/, set_event)
 * @add: instance @tr was made and has the core's files; add the unit's.
 *	0, or an errno that fails the mkdir (@remove is called first)
 * @remove: @tr goes; once this returns, the unit writes nothing to its
 *	buffer, keeps no pointer to it, and may have left files in its
 *	directory only if they no longer reach @tr
 * @list: in the core's list, in registration order
 *
 * Both run under the core's instance lock, which is taken before any
 * lock of the units'.  rt_register_instance_ops() calls @add for the
 * instances that exist already.
 */
struct rt_instance_ops {
	int	(*add)(struct rt_instance *tr);
	void	(*remove)(struct rt_instance *tr);
	struct list_head list;
};
void rt_register_instance_ops(struct rt_instance_ops *ops);
/*
 * A unit's file in an instance's directory pins the instance from open
 * to release (rmdir says EBUSY meanwhile): core/instance.c.
 */
int rt_instance_get(struct rt_instance *tr);
void rt_instance_put(struct rt_instance *tr);

/* The top-level instance, for producers not tied to a tracer. */
extern struct rt_instance rt_top;
static inline struct rt_instance *rt_top_instance(void)
{
	return &rt_top;
}

unsigned int rt_raw_subbuf_size(struct rt_instance *tr);

void rt_pipe_kick(struct rt_instance *tr);
/* tracing_thresh in ns (core/control.c); 0: no threshold. */
extern u64 rt_tracing_thresh_ns;

void rt_stack_after_commit(struct rt_instance *tr);
void rt_trace_kstack(struct rt_instance *tr);

/*
 * Publish the record reserved through @h (same CPU, preemption off),
 * then wake trace_pipe readers if one sleeps (core/pipe_wait.c) and
 * add the stacks the options ask for (core/stack.c).
 */
static __always_inline void rt_commit(struct rt_handle *h)
{
	rt_buffer_commit(h->buf);
	if (unlikely(READ_ONCE(h->tr->pipe_waiting)))
		rt_pipe_kick(h->tr);
	if (unlikely(READ_ONCE(h->tr->options) & RT_OPT_STACK_MASK))
		rt_stack_after_commit(h->tr);
}

void rt_print_sym(const struct rt_print_ctx *ctx, unsigned long ip);

/* The tracing directory; valid from fs_initcall_sync on. */
struct dentry *rt_tracing_dir(void);

/*
 * Lines a unit adds to the tracing directory's README, shown after the
 * core's own, in registration order.  @text ends with a newline.
 */
struct rt_readme_part {
	const char		*text;
	struct list_head	list;
};
void rt_readme_add(struct rt_readme_part *part);

/*
 * error_log (core/error_log.c): a file that refuses a command notes it
 * with the offset of the character at fault.  Process context.
 */
void rt_error_log(const char *loc, const char *cmd, const char *msg,
		  unsigned int pos);

/*
 * The common header of a record, as the code at @pc saw its context.
 * Inline, like rt_reserve_entry() below: on the hot paths a call costs
 * as much as the few loads and tests it makes.
 */
static __always_inline void rt_fill_header(struct rt_entry *e,
					   unsigned int type, unsigned long pc)
{
	u8 flags = 0;

	if (irqs_disabled())
		flags |= RT_FLAG_IRQS_OFF;
	if (tif_need_resched())
		flags |= RT_FLAG_NEED_RESCHED;
	/* One test for task context, the common case. */
	if (unlikely(pc & (HARDIRQ_MASK | SOFTIRQ_OFFSET | NMI_MASK))) {
		if (pc & HARDIRQ_MASK)
			flags |= RT_FLAG_HARDIRQ;
		if (pc & SOFTIRQ_OFFSET)
			flags |= RT_FLAG_SOFTIRQ;
		if (pc & NMI_MASK)
			flags |= RT_FLAG_NMI;
	}
	e->type = type;
	e->flags = flags;
	e->preempt_count = pc & PREEMPT_MASK;
	e->pid = current->pid;
}

/*
 * rt_fill_header() for a producer that runs in task context with
 * interrupts on, a write(2) to trace_marker: the flags that could say
 * otherwise are known to be clear, and on its path every test counts.
 */
static __always_inline void rt_fill_task_header(struct rt_entry *e,
						unsigned int type,
						unsigned long pc)
{
	e->type = type;
	e->flags = tif_need_resched() ? RT_FLAG_NEED_RESCHED : 0;
	e->preempt_count = pc & PREEMPT_MASK;
	e->pid = current->pid;
}

/*
 * The ring buffer rounds a record up to 4 bytes and leaves the padding
 * as the ring had it; producers of odd lengths zero it so that hex and
 * bin output never show stale bytes.  @rec has room up to the next
 * multiple of 4 after @len.
 */
static __always_inline void rt_zero_pad(void *rec, unsigned int len)
{
	char *p = rec;

	for (; len & 3; len++)
		p[len] = 0;
}

/*
 * The same with one store, before the record's bytes are written: zero
 * the last 4-byte word of a record of @len bytes, which holds its last
 * bytes and the padding after them; what the producer writes next
 * overwrites the rest of it.
 */
static __always_inline void rt_zero_last_word(void *rec, unsigned int len)
{
	*(u32 *)((char *)rec + ALIGN(len, 4) - 4) = 0;
}

/*
 * The max-latency snapshot (core/max.c).  A latency tracer measures a
 * section on one CPU and reports it; when it beats tracing_max_latency
 * that CPU's ring is swapped into the max buffer, and "trace" shows
 * the section's records from there.  Times are the ring buffer's clock
 * (rt_clock_local()), in ns.
 */
#define RT_COMM_LEN	16
struct rt_max_info {
	u64		latency_ns;
	u64		start_ts;	/* records shown: start_ts..end_ts */
	u64		end_ts;
	int		cpu;		/* where it ended */
	int		start_cpu;	/* where it began (may be @cpu) */
	/*
	 * When @start_cpu is not @cpu: rt_buffer_ring_id() of
	 * @start_cpu's live ring, read there right after the start's
	 * record with interrupts off.
	 */
	unsigned long	start_ring;
	unsigned long	start_ip;	/* "started at", 0: no such line */
	unsigned long	end_ip;		/* "ended at" */
	/* The task that suffered the latency. */
	s32		pid;
	u32		uid;
	int		nice;
	unsigned int	policy;
	unsigned int	rt_prio;
	char		comm[RT_COMM_LEN];
};

/* Does @ns beat tracing_max_latency (in us)? */
static inline bool rt_max_beats(const struct rt_instance *tr, u64 ns)
{
	return ns > (u64)READ_ONCE(tr->max_latency) * 1000;
}
bool rt_max_report(struct rt_instance *tr, const struct rt_max_info *info);
int rt_max_prepare(struct rt_instance *tr);
void rt_max_sync(struct rt_instance *tr);
void rt_max_fill_task(struct rt_max_info *info, struct task_struct *tsk);

/* Each trace_marker write, once committed (core/print.c). */
typedef void (*rt_marker_hook_t)(struct rt_instance *tr, void *rec,
				 unsigned int len);
void rt_marker_set_hook(rt_marker_hook_t hook);

/*
 * Snapshots taken by event hits (core/snapshot_request.c): arm an
 * instance for a trigger, then request from any context.
 */
int rt_snapshot_arm(struct rt_instance *tr);
void rt_snapshot_disarm(int cookie);
bool rt_snapshot_heard(void);
void rt_snapshot_request(int cookie);

/*
 * The pid whose command name this CPU saved last (core/comm.c): most
 * records come from the task that made the one before, so the check is
 * inline and the save out of line.  Written by its own CPU, with
 * interrupts off, and reset from any CPU when a task is renamed.
 */
DECLARE_PER_CPU(int, rt_last_saved_pid);
void rt_save_comm_slow(struct task_struct *tsk);

/* Remember @tsk's command name for the output; preemption disabled. */
static __always_inline void rt_save_comm(struct task_struct *tsk)
{
	if (likely(__this_cpu_read(rt_last_saved_pid) == tsk->pid) ||
	    !tsk->pid)
		return;
	rt_save_comm_slow(tsk);
}

/*
 * rt_reserve_entry(), or with @task for a producer in task context with
 * interrupts on (rt_fill_task_header()).
 */
static __always_inline void *__rt_reserve_entry(struct rt_instance *tr,
						struct rt_handle *h,
						unsigned int type,
						unsigned int len,
						unsigned long pc, bool task)
{
	struct rt_entry *e;

	h->buf = READ_ONCE(tr->buffer);
	h->tr = tr;
	e = rt_buffer_reserve(h->buf, len);
	if (e) {
		if (task)
			rt_fill_task_header(e, type, pc);
		else
			rt_fill_header(e, type, pc);
		rt_save_comm(current);
	}
	return e;
}

/**
 * rt_reserve_entry - reserve a record and fill its common header
 * @tr: the instance
 * @h: out, what to pass to rt_commit()
 * @type: record type
 * @len: total bytes including struct rt_entry
 * @pc: preempt_count() before the caller disabled preemption
 *
 * For producers that already disabled preemption and checked
 * rt_recording().  The buffer is read once into @h: a swap of
 * tr->buffer before the commit cannot send the commit elsewhere.
 * Inline: it is on the path of every record.
 *
 * Return: the record, or NULL if the buffer refused it.  On success
 * call rt_commit(@h) on the same CPU, preemption still disabled.
 */
static __always_inline void *rt_reserve_entry(struct rt_instance *tr,
					      struct rt_handle *h,
					      unsigned int type,
					      unsigned int len,
					      unsigned long pc)
{
	return __rt_reserve_entry(tr, h, type, len, pc, false);
}

/* The command name saved for @pid, "<...>" if none: TASK_COMM_LEN bytes. */
void rt_find_comm(int pid, char *comm);

/**
 * rt_record_copy - put a finished record into @tr's buffer
 * @tr: the instance
 * @rec: the record, its struct rt_entry header already filled
 * @len: total bytes
 *
 * The write path of producers that build a record in a scratch area
 * first (events, whose filter looks at the whole record): the same
 * reservation as rt_reserve_entry(), inlined into the event path.
 * Call with preemption disabled, after rt_recording() said yes.
 *
 * Return: true if the buffer took it.
 */
static __always_inline bool rt_record_copy(struct rt_instance *tr,
					   const void *rec, unsigned int len)
{
	struct rt_buffer *buf = READ_ONCE(tr->buffer);
	void *dst = rt_buffer_reserve(buf, len);

	if (!dst)
		return false;
	memcpy(dst, rec, len);
	rt_zero_pad(dst, len);
	rt_save_comm(current);
	rt_buffer_commit(buf);
	if (unlikely(READ_ONCE(tr->pipe_waiting)))
		rt_pipe_kick(tr);
	if (unlikely(READ_ONCE(tr->options) & RT_OPT_STACK_MASK))
		rt_stack_after_commit(tr);
	return true;
}

/* Per-CPU, per-context scratch records (scratch.c). */
#define RT_SCRATCH_SIZE		RT_RB_MAX_PAYLOAD
void *rt_scratch_get(unsigned long pc);
void rt_scratch_put(unsigned long pc);

/*
 * Context level of preempt count @pc: 0 task, 1 softirq, 2 hardirq,
 * 3 NMI.  A level can only be interrupted by a higher one, so per-CPU
 * state indexed by level has one user at a time.
 */
static __always_inline int rt_context_level(unsigned long pc)
{
	if (pc & NMI_MASK)
		return 3;
	if (pc & HARDIRQ_MASK)
		return 2;
	if (pc & SOFTIRQ_OFFSET)
		return 1;
	return 0;
}

/*
 * The one recursion guard: a per-CPU word with a bit per context
 * level, owned by one user (a tracer's callback, the scratch records).
 * Written only by its own CPU with this_cpu_or()/this_cpu_and(), single
 * instructions an interrupt cannot split; a level finds its bit set
 * only when it re-entered itself.  Call with preemption disabled.
 *
 * rt_recursion_enter() takes rt_context_level() of the caller's preempt
 * count and returns the bit to pass to rt_recursion_exit(), or 0 when
 * this level is already inside.
 */
static __always_inline unsigned long
rt_recursion_enter(unsigned long __percpu *word, int level)
{
	unsigned long bit = 1UL << level;

	if (this_cpu_read(*word) & bit)
		return 0;
	this_cpu_or(*word, bit);
	barrier();
	return bit;
}

static __always_inline void rt_recursion_exit(unsigned long __percpu *word,
					      unsigned long bit)
{
	barrier();
	this_cpu_and(*word, ~bit);
}

/*
 * Files whose object can go away (an event, a module's tracer).
 * tracefs does not wait for file operations in flight when it removes
 * a file, and a file open across the removal stays usable.  Such a
 * file keeps its object in i_private; every read and write takes the
 * owner's @lock and gets the object with rt_file_obj(), using it only
 * until the unlock.  Before removing the file and freeing the object,
 * the owner calls rt_file_revoke() under the same lock, while the file
 * is still in the tree (its inode alive).  An operation then either
 * ran wholly before or gets NULL, and fails with ENODEV.
 */
static inline void *rt_file_obj(const struct file *file, struct mutex *lock)
{
	lockdep_assert_held(lock);
	return file_inode(file)->i_private;
}

static inline void rt_file_revoke(struct dentry *file, struct mutex *lock)
{
	lockdep_assert_held(lock);
	if (file)
		d_inode(file)->i_private = NULL;
}

/*
 * Called first by every tracing file's open: once the kernel is locked
 * down to confidentiality, which may happen at run time, the files
 * refuse to open (EPERM), as upstream's tracefs files do.
 */
static inline int rt_file_lockdown(void)
{
	return security_locked_down(LOCKDOWN_TRACEFS);
}

/* The file_operations of a single_open() seq_file. */
#define RT_SEQ_FOPS_STRUCT(name, writer, rel)				\
static const struct file_operations name##_fops = {			\
	.open		= name##_open,					\
	.read		= seq_read,					\
	.write		= writer,					\
	.llseek		= seq_lseek,					\
	.release	= rel,						\
}

/* file_operations for a seq_file shown by name##_show, written by @writer. */
#define RT_SEQ_FOPS(name, writer)					\
static int name##_open(struct inode *inode, struct file *file)		\
{									\
	int ret = rt_file_lockdown();					\
									\
	return ret ? ret : single_open(file, name##_show,		\
				       inode->i_private);		\
}									\
RT_SEQ_FOPS_STRUCT(name, writer, single_release)

/* Bumped whenever current_tracer changes; trace_pipe readers see EOF. */
extern atomic_t rt_tracer_generation;
extern struct mutex rt_trace_lock;


/*
 * retrace's own .text: text_start.S and text_end.S, linked first and
 * last, bracket every layer's code.  Stack walks use it to tell the
 * tracing machinery's frames from the traced code's.
 */
extern char __retrace_text_start[], __retrace_text_end[];

static inline bool rt_in_retrace_text(unsigned long ip)
{
	return ip >= (unsigned long)__retrace_text_start &&
	       ip < (unsigned long)__retrace_text_end;
}

#endif /* _TRACE_RETRACE_CORE_H */
