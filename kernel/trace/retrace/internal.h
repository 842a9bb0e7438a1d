/* SPDX-License-Identifier: GPL-2.0 */
/* Declarations shared by the files of the retrace core only. */
#ifndef _RETRACE_INTERNAL_H
#define _RETRACE_INTERNAL_H

#include <linux/cpumask.h>
#include <linux/preempt.h>
#include <trace/retrace/core.h>

struct seq_file;
struct task_struct;

extern cpumask_var_t rt_cpumask;

int rt_set_tracer(const char *name);
bool rt_tracer_is_nop(void);
typedef void (*rt_tracer_fn)(struct rt_tracer *t, void *arg);
void rt_walk_tracers(rt_tracer_fn fn, void *arg);
void rt_tracer_print_header(struct seq_buf *s);
int rt_print_record_ctx(struct seq_buf *s, const struct rt_rb_record *rec,
			u64 first_ts, u64 next_ts);
void rt_print_header(struct seq_buf *s);
struct rt_event_type *rt_find_event_type(unsigned int type);

void rt_fill_header(struct rt_entry *e, unsigned int type, unsigned long pc);

/* Per-CPU, per-context scratch records (scratch.c). */
#define RT_SCRATCH_SIZE		RT_RB_MAX_PAYLOAD
void *rt_scratch_get(unsigned long pc);
void rt_scratch_put(unsigned long pc);
void rt_save_comm(struct task_struct *tsk);
void rt_find_comm(int pid, char *comm);

void rt_create_control_files(struct dentry *dir);
void rt_create_output_files(struct dentry *dir);
void rt_create_print_files(struct dentry *dir);
void rt_create_callsite_files(struct dentry *dir);
void rt_create_filter_files(struct dentry *dir);
void rt_create_function_files(struct dentry *dir);
void rt_create_event_files(struct dentry *events);
void rt_create_kprobe_files(struct dentry *dir);

/* file_operations for a seq_file shown by name##_show, written by @writer. */
#define RT_SEQ_FOPS(name, writer)					\
static int name##_open(struct inode *inode, struct file *file)		\
{									\
	return single_open(file, name##_show, inode->i_private);	\
}									\
static const struct file_operations name##_fops = {			\
	.open		= name##_open,					\
	.read		= seq_read,					\
	.write		= writer,					\
	.llseek		= seq_lseek,					\
	.release	= single_release,				\
}

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

#endif /* _RETRACE_INTERNAL_H */
