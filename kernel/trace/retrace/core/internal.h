/* SPDX-License-Identifier: GPL-2.0 */
/* Declarations shared by the files of the retrace core only. */
#ifndef _RETRACE_INTERNAL_H
#define _RETRACE_INTERNAL_H

#include <linux/cpumask.h>
#include <linux/poll.h>
#include <trace/retrace/core.h>

struct seq_file;
struct task_struct;


#define RT_DEFAULT_BUFFER_BYTES	(1408UL * 1024)
#define RT_OPT_DEFAULTS		(BIT(RT_OPT_PRINT_PARENT) | BIT(RT_OPT_OVERWRITE))

int rt_set_tracer(struct rt_instance *tr, const char *name);
struct rt_tracer *rt_nop_tracer_ptr(void);
bool rt_tracer_is_nop(struct rt_instance *tr);
const char *rt_current_tracer_name(struct rt_instance *tr);
typedef void (*rt_tracer_fn)(struct rt_tracer *t, void *arg);
void rt_walk_tracers(rt_tracer_fn fn, void *arg);
void rt_tracer_print_header(struct rt_instance *tr, struct seq_buf *s);
int rt_print_record_ctx(struct rt_instance *tr, struct seq_buf *s,
			const struct rt_rb_record *rec, u64 first_ts,
			u64 next_ts, struct rt_reader *reader);
void rt_print_header(struct rt_instance *tr, struct rt_buffer *counted,
		     struct seq_buf *s);
struct rt_event_type *rt_find_event_type(unsigned int type);

/* sym_cache.c: a reader's symbol names; rt_reader_syms() gives its own */
struct rt_sym_cache;
struct rt_sym_cache *rt_sym_cache_alloc(void);
void rt_sym_cache_free(struct rt_sym_cache *c);
const char *rt_sym_cache_name(struct rt_sym_cache *c, unsigned long ip,
			      char *buf);
struct rt_sym_cache *rt_reader_syms(struct rt_reader *r);


extern struct mutex rt_max_lock;
extern struct rt_max_info rt_max_shown;
void rt_max_header(struct rt_instance *tr, struct rt_max_info *info,
		   u64 *entries);
unsigned long rt_max_failed_swaps(void);
int rt_max_buffer_fit(struct rt_instance *tr);
bool rt_tracer_uses_max(struct rt_instance *tr);
void rt_clear_trace(struct rt_instance *tr);

/* pipe_wait.c */
void rt_pipe_init(struct rt_instance *tr);
bool rt_pipe_sleep(struct rt_instance *tr, bool (*ready)(void *arg),
		   void *arg, bool deep);
void rt_pipe_arm(struct rt_instance *tr);
void rt_pipe_poll_wait(struct rt_instance *tr, struct file *file,
		       poll_table *pt, bool empty);
void rt_pipe_wake_all(struct rt_instance *tr);
void rt_create_raw_file(struct rt_instance *tr, struct dentry *cpu_dir);
/* raw_page_pool.c: the pages trace_pipe_raw's splice() recycles. */
struct rt_raw_pool;
struct pipe_inode_info;
struct rt_raw_pool *rt_raw_pool_new(void);
void rt_raw_pool_put(struct rt_raw_pool *pool);
void rt_raw_pool_close(struct rt_raw_pool *pool);
struct page *rt_raw_pool_get_page(struct rt_raw_pool *pool);
void rt_raw_pool_recycle(struct rt_raw_pool *pool, struct page *page);
void rt_raw_pool_to_pipe(struct rt_raw_pool *pool,
			 struct pipe_inode_info *pipe, struct page *page,
			 unsigned int len);
void rt_create_subbuf_file(struct rt_instance *tr);
int rt_file_cpu(const struct file *file);
void rt_create_comm_files(struct dentry *dir);
void rt_create_printk_formats_file(struct dentry *dir);
void rt_create_error_log_file(struct dentry *dir);
/* vmlinux's __trace_printk_fmt section (the linker script bounds it). */
extern const char *__start___trace_bprintk_fmt[];
extern const char *__stop___trace_bprintk_fmt[];

/* instance.c: instances/NAME and the lifetime of instance files. */
extern struct mutex rt_instances_lock;
extern struct list_head rt_instances;
int rt_instance_init(struct rt_instance *tr, unsigned long bytes_per_cpu);
void rt_instance_create_files(struct rt_instance *tr);
void rt_create_instances_dir(void);

/*
 * file_operations for a seq_file of an instance's directory: i_private
 * is the instance, pinned while the file is open (instance.c).
 */
#define RT_TR_SEQ_FOPS(name, writer)					\
static int name##_open(struct inode *inode, struct file *file)		\
{									\
	int ret = rt_file_lockdown();					\
									\
	if (!ret)							\
		ret = rt_instance_get(inode->i_private);		\
	if (ret)							\
		return ret;						\
	ret = single_open(file, name##_show, inode->i_private);		\
	if (ret)							\
		rt_instance_put(inode->i_private);			\
	return ret;							\
}									\
static int name##_release(struct inode *inode, struct file *file)	\
{									\
	struct rt_instance *tr = ((struct seq_file *)file->private_data)->private; \
									\
	single_release(inode, file);					\
	rt_instance_put(tr);						\
	return 0;							\
}									\
RT_SEQ_FOPS_STRUCT(name, writer, name##_release)

void rt_create_control_files(struct rt_instance *tr);
void rt_create_trace_files(struct rt_instance *tr);
/* trace_file.c's reader, for the snapshot file (snapshot.c). */
int rt_snapshot_open(struct inode *inode, struct file *file);
ssize_t rt_trace_read(struct file *file, char __user *ubuf, size_t cnt,
		      loff_t *ppos);
int rt_trace_release(struct inode *inode, struct file *file);
void rt_snapshot_print_header(struct rt_instance *tr, struct rt_buffer *snap,
			      struct seq_buf *m);
void rt_create_snapshot_files(struct rt_instance *tr);
int rt_snapshot_exchange(struct rt_instance *tr, bool keep);
int rt_snapshot_alloc(struct rt_instance *tr);
int rt_snapshot_free(struct rt_instance *tr);
/* snapshot_request.c */
bool rt_snapshot_armed(struct rt_instance *tr);
unsigned long rt_snapshot_missed(void);
void rt_create_print_files(struct rt_instance *tr);
void rt_create_clock_files(struct rt_instance *tr);
void rt_create_mount_points(void);

/* options.c: the options/ directory, one file per option. */
void rt_create_options_dir(struct rt_instance *tr);
void rt_options_add_tracer(struct rt_tracer *t);
void rt_options_revoke_tracer(struct rt_tracer *t);
void rt_options_remove_tracer(struct rt_tracer *t);
/* control.c: one option changes, as a trace_options write does. */
extern const char *const rt_option_names[RT_OPT_NR];
void rt_set_core_option(struct rt_instance *tr, unsigned int i, bool set);
const struct rt_tracer_opt *rt_instance_tracer_opt(const char *name,
						   struct rt_tracer **tp);
struct rt_tracer *rt_next_tracer(struct rt_tracer *t);
int rt_set_tracer_option(struct rt_instance *tr, struct rt_tracer *t,
			 const struct rt_tracer_opt *o, bool set);

#endif /* _RETRACE_INTERNAL_H */
