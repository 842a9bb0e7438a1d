// SPDX-License-Identifier: GPL-2.0
/*
 * Control files of the tracing directory: current_tracer,
 * available_tracers, tracing_on, buffer_size_kb, tracing_cpumask,
 * tracing_max_latency, tracing_thresh, trace_options, README and
 * per_cpu/cpuN/{stats,buffer_size_kb}.
 * Every write is parsed completely before anything
 * changes, so a rejected write leaves the state as it was.
 */
#include <linux/ctype.h>
#include <linux/tracefs.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "internal.h"

/* Longest write any control file takes, newline included. */
#define RT_CTL_MAX	256

/* Copy a user write into @buf and strip surrounding white space. */
static char *rt_get_user_str(const char __user *ubuf, size_t cnt,
			     char *buf, size_t size, ssize_t *err)
{
	if (cnt >= size) {
		*err = -EINVAL;
		return NULL;
	}
	if (copy_from_user(buf, ubuf, cnt)) {
		*err = -EFAULT;
		return NULL;
	}
	buf[cnt] = 0;
	return strim(buf);
}

/* The instance a seq_file control file was created for (i_private). */
static struct rt_instance *rt_file_tr(struct file *file)
{
	return ((struct seq_file *)file->private_data)->private;
}

/* ---- current_tracer, available_tracers ---------------------------- */

static int rt_current_tracer_show(struct seq_file *m, void *v)
{
	mutex_lock(&rt_trace_lock);
	seq_printf(m, "%s\n", rt_current_tracer_name(m->private));
	mutex_unlock(&rt_trace_lock);
	return 0;
}

static ssize_t rt_current_tracer_write(struct file *file,
				       const char __user *ubuf, size_t cnt,
				       loff_t *ppos)
{
	char buf[64], *name;
	ssize_t ret = 0;

	name = rt_get_user_str(ubuf, cnt, buf, sizeof(buf), &ret);
	if (!name)
		return ret;
	mutex_lock(&rt_trace_lock);
	ret = rt_set_tracer(rt_file_tr(file), name);
	mutex_unlock(&rt_trace_lock);
	return ret ? ret : cnt;
}

/* An instance lists only the tracers it can run. */
static void rt_show_tracer_name(struct rt_tracer *t, void *arg)
{
	struct seq_file *m = arg;

	if (t->instances || m->private == rt_top_instance())
		seq_printf(m, "%s ", t->name);
}

static int rt_available_tracers_show(struct seq_file *m, void *v)
{
	mutex_lock(&rt_trace_lock);
	rt_walk_tracers(rt_show_tracer_name, m);
	mutex_unlock(&rt_trace_lock);
	seq_putc(m, '\n');
	return 0;
}

/* ---- tracing_on ---------------------------------------------------- */

static int rt_tracing_on_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%d\n", READ_ONCE(((struct rt_instance *)m->private)->on));
	return 0;
}

static ssize_t rt_tracing_on_write(struct file *file, const char __user *ubuf,
				   size_t cnt, loff_t *ppos)
{
	unsigned long v;
	int ret = kstrtoul_from_user(ubuf, cnt, 10, &v);

	if (ret)
		return ret;
	WRITE_ONCE(rt_file_tr(file)->on, !!v);
	return cnt;
}

/* ---- buffer_size_kb -------------------------------------------------- */

/* "X" when the CPUs' rings differ in size (per_cpu/cpuN/buffer_size_kb). */
static int rt_buffer_size_show(struct seq_file *m, void *v)
{
	unsigned long size;

	mutex_lock(&rt_trace_lock);
	size = rt_buffer_size(((struct rt_instance *)m->private)->buffer);
	if (size)
		seq_printf(m, "%lu\n", size >> 10);
	else
		seq_puts(m, "X\n");
	mutex_unlock(&rt_trace_lock);
	return 0;
}

/*
 * A size for @ncpus rings: more than half of the memory available now
 * is refused with ENOMEM, and the old rings stay.
 */
static int rt_parse_buffer_kb(const char __user *ubuf, size_t cnt,
			      unsigned int ncpus, unsigned long *kb)
{
	int ret = kstrtoul_from_user(ubuf, cnt, 10, kb);

	if (ret)
		return ret;
	if (!*kb)
		return -EINVAL;
	if (*kb > (ULONG_MAX >> 10) / ncpus)
		return -ENOMEM;
	if (DIV_ROUND_UP(*kb << 10, PAGE_SIZE) * ncpus > si_mem_available() / 2)
		return -ENOMEM;
	return 0;
}

/* Resize @cpu's ring of @tr, or every ring for @cpu < 0. */
static ssize_t rt_buffer_size_set(struct rt_instance *tr, int cpu,
				  const char __user *ubuf, size_t cnt)
{
	unsigned int ncpus = cpu < 0 ? num_possible_cpus() : 1;
	unsigned long kb;
	int ret = rt_parse_buffer_kb(ubuf, cnt, ncpus, &kb);

	if (ret)
		return ret;
	mutex_lock(&rt_trace_lock);
	if (!rt_tracer_is_nop(tr))
		ret = -EINVAL;
	else if (cpu < 0)
		ret = rt_buffer_resize(tr->buffer, kb << 10);
	else
		ret = rt_buffer_resize_cpu(tr->buffer, cpu, kb << 10);
	mutex_unlock(&rt_trace_lock);
	return ret ? ret : cnt;
}

static ssize_t rt_buffer_size_write(struct file *file, const char __user *ubuf,
				    size_t cnt, loff_t *ppos)
{
	return rt_buffer_size_set(rt_file_tr(file), -1, ubuf, cnt);
}

/*
 * per_cpu/cpuN/FILE keeps its instance in i_private; N comes from the
 * directory's name (tracefs never renames).
 */
int rt_file_cpu(const struct file *file)
{
	const char *name = file_dentry(file)->d_parent->d_name.name;
	int cpu;

	if (strncmp(name, "cpu", 3) || kstrtoint(name + 3, 10, &cpu) ||
	    cpu < 0 || cpu >= nr_cpu_ids || !cpu_possible(cpu))
		return -1;
	return cpu;
}

/* per_cpu/cpuN/buffer_size_kb: one CPU's ring. */
static int rt_cpu_buffer_size_show(struct seq_file *m, void *v)
{
	struct rt_instance *tr = m->private;
	int cpu = rt_file_cpu(m->file);

	if (cpu < 0)
		return -ENODEV;
	mutex_lock(&rt_trace_lock);
	seq_printf(m, "%lu\n", rt_buffer_size_cpu(tr->buffer, cpu) >> 10);
	mutex_unlock(&rt_trace_lock);
	return 0;
}

static ssize_t rt_cpu_buffer_size_write(struct file *file,
					const char __user *ubuf, size_t cnt,
					loff_t *ppos)
{
	int cpu = rt_file_cpu(file);

	if (cpu < 0)
		return -ENODEV;
	return rt_buffer_size_set(rt_file_tr(file), cpu, ubuf, cnt);
}

/* ---- tracing_cpumask ------------------------------------------------- */

static int rt_cpumask_show(struct seq_file *m, void *v)
{
	struct rt_instance *tr = m->private;

	mutex_lock(&rt_trace_lock);
	seq_printf(m, "%*pb\n", cpumask_pr_args(tr->cpumask));
	mutex_unlock(&rt_trace_lock);
	return 0;
}

static ssize_t rt_cpumask_write(struct file *file, const char __user *ubuf,
				size_t cnt, loff_t *ppos)
{
	cpumask_var_t mask;
	int ret;

	/* Hex digits for every CPU, commas and a newline, with room to spare. */
	if (cnt > 2 * nr_cpu_ids + 64)
		return -EINVAL;
	if (!alloc_cpumask_var(&mask, GFP_KERNEL))
		return -ENOMEM;
	ret = cpumask_parse_user(ubuf, cnt, mask);
	if (!ret) {
		mutex_lock(&rt_trace_lock);
		cpumask_and(rt_file_tr(file)->cpumask, mask, cpu_possible_mask);
		mutex_unlock(&rt_trace_lock);
	}
	free_cpumask_var(mask);
	return ret ? ret : cnt;
}

/* ---- tracing_max_latency --------------------------------------------- */

static int rt_max_latency_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%lu\n", READ_ONCE(((struct rt_instance *)m->private)->max_latency));
	return 0;
}

static ssize_t rt_max_latency_write(struct file *file, const char __user *ubuf,
				    size_t cnt, loff_t *ppos)
{
	unsigned long v;
	int ret = kstrtoul_from_user(ubuf, cnt, 10, &v);

	if (ret)
		return ret;
	WRITE_ONCE(rt_file_tr(file)->max_latency, v);
	return cnt;
}

/* ---- tracing_thresh ---------------------------------------------------- */

/*
 * Duration threshold in ns, 0 for none: function_graph then records
 * only the returns of calls that took at least this long.  Written here
 * under no lock (one word), read with READ_ONCE() by the return hook.
 */
u64 rt_tracing_thresh_ns;
EXPORT_SYMBOL_GPL(rt_tracing_thresh_ns);

static int rt_thresh_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%llu\n", div_u64(READ_ONCE(rt_tracing_thresh_ns), NSEC_PER_USEC));
	return 0;
}

static ssize_t rt_thresh_write(struct file *file, const char __user *ubuf,
			       size_t cnt, loff_t *ppos)
{
	u64 us;
	int ret = kstrtou64_from_user(ubuf, cnt, 10, &us);

	if (ret)
		return ret;
	if (us > U64_MAX / NSEC_PER_USEC)
		return -EINVAL;
	WRITE_ONCE(rt_tracing_thresh_ns, us * NSEC_PER_USEC);
	return cnt;
}

/* ---- trace_options ----------------------------------------------------- */

const char *const rt_option_names[RT_OPT_NR] = {
	[RT_OPT_PRINT_PARENT]	= "print-parent",
	[RT_OPT_SYM_OFFSET]	= "sym-offset",
	[RT_OPT_SYM_ADDR]	= "sym-addr",
	[RT_OPT_VERBOSE]	= "verbose",
	[RT_OPT_RAW]		= "raw",
	[RT_OPT_HEX]		= "hex",
	[RT_OPT_BIN]		= "bin",
	[RT_OPT_LATENCY_FMT]	= "latency-format",
	[RT_OPT_OVERWRITE]	= "overwrite",
	[RT_OPT_STACKTRACE]	= "stacktrace",
	[RT_OPT_USERSTACKTRACE]	= "userstacktrace",
	[RT_OPT_SYM_USEROBJ]	= "sym-userobj",
	[RT_OPT_BLOCK]		= "block",
	[RT_OPT_SCHED_TREE]	= "sched-tree",
	[RT_OPT_EVENT_FORK]	= "event-fork",
	[RT_OPT_PAUSE_ON_TRACE]	= "pause-on-trace",
};

/* Core options, then the current tracer's own while it is current. */
static int rt_options_show(struct seq_file *m, void *v)
{
	struct rt_instance *tr = m->private;
	const struct rt_tracer_opt *o;
	int i;

	mutex_lock(&rt_trace_lock);
	for (i = 0; i < RT_OPT_NR; i++)
		seq_printf(m, "%s%s\n", rt_opt(tr, i) ? "" : "no",
			   rt_option_names[i]);
	for (o = tr->tracer ? tr->tracer->opts : NULL; o && o->name; o++)
		seq_printf(m, "%s%s\n",
			   test_bit(o->bit, &tr->tracer_opts) ? "" : "no",
			   o->name);
	mutex_unlock(&rt_trace_lock);
	return 0;
}

/*
 * Set or clear option @o of tracer @t, current on @tr or not; the
 * tracer's ->set_opt() may refuse.  Kept in @t for its next selection.
 * rt_trace_lock held.
 */
int rt_set_tracer_option(struct rt_instance *tr, struct rt_tracer *t,
			 const struct rt_tracer_opt *o, bool set)
{
	int ret = t->set_opt ? t->set_opt(tr, o->bit, set) : 0;

	lockdep_assert_held(&rt_trace_lock);
	if (ret)
		return ret;
	__assign_bit(o->bit, &t->opts_state, set);
	if (tr->tracer == t)
		__assign_bit(o->bit, &tr->tracer_opts, set);
	return 0;
}

/* A core option (RT_OPT_*); rt_trace_lock held. */
void rt_set_core_option(struct rt_instance *tr, unsigned int i, bool set)
{
	lockdep_assert_held(&rt_trace_lock);
	__assign_bit(i, &tr->options, set);
	if (i == RT_OPT_OVERWRITE)
		rt_buffer_set_overwrite(tr->buffer, set);
}

/* trace_options names the current tracer's options only. */
static int rt_tracer_opt_write(struct rt_instance *tr, const char *name,
			       bool set)
{
	const struct rt_tracer_opt *o;

	for (o = tr->tracer ? tr->tracer->opts : NULL; o && o->name; o++)
		if (!strcmp(name, o->name))
			return rt_set_tracer_option(tr, tr->tracer, o, set);
	return -EINVAL;
}

static ssize_t rt_options_write(struct file *file, const char __user *ubuf,
				size_t cnt, loff_t *ppos)
{
	struct rt_instance *tr = rt_file_tr(file);
	char buf[64], *name;
	ssize_t ret = 0;
	bool set = true;
	int i;

	name = rt_get_user_str(ubuf, cnt, buf, sizeof(buf), &ret);
	if (!name)
		return ret;
	if (!strncmp(name, "no", 2)) {
		set = false;
		name += 2;
	}
	for (i = 0; i < RT_OPT_NR; i++)
		if (!strcmp(name, rt_option_names[i]))
			break;

	mutex_lock(&rt_trace_lock);
	if (i == RT_OPT_NR)
		ret = rt_tracer_opt_write(tr, name, set);
	else
		rt_set_core_option(tr, i, set);
	mutex_unlock(&rt_trace_lock);
	return ret ? ret : cnt;
}

/* ---- README -------------------------------------------------------------- */

static const char rt_readme_core[] =
	"retrace: tracing control directory, as tracefs also at\n"
	"/sys/kernel/tracing:\n"
	"  mount -t tracefs [-o [gid=<gid>]] nodev /sys/kernel/tracing\n"
	"  (gid: the group that owns every file; a remount changes it)\n\n"
	"  current_tracer       write a tracer name from available_tracers\n"
	"  available_tracers    tracers built into this kernel\n"
	"  tracing_on           1 records, 0 stops recording (buffer kept)\n"
	"  trace                the buffer as text; 'echo > trace' clears it\n"
	"  trace_pipe           consuming read; blocks until data arrives\n"
	"  trace_options        print-parent sym-offset sym-addr verbose raw\n"
	"                       hex bin latency-format overwrite stacktrace\n"
	"                       userstacktrace sym-userobj block sched-tree\n"
	"                       event-fork pause-on-trace;\n"
	"                       'echo noNAME' clears NAME\n"
	"  trace_marker         a write becomes a record in the buffer\n"
	"  buffer_size_kb       KiB per CPU; change only with tracer nop;\n"
	"                       X when per_cpu/cpuN/buffer_size_kb differ\n"
	"  tracing_cpumask      hex mask of CPUs that record\n"
	"  tracing_max_latency  largest latency seen (usecs); writable\n"
	"  tracing_thresh       usecs; function_graph keeps only calls that long\n"
	"  per_cpu/cpuN/stats   written, read, overrun, dropped, entries\n"
	"  per_cpu/cpuN/buffer_size_kb  KiB of that CPU's ring alone\n"
	"  saved_cmdlines       pid and name of the tasks recorded lately\n"
	"  saved_cmdlines_size  slots in that table (1..32768)\n"
	"  printk_formats       address and format of each trace_printk() site\n"
	"  error_log            the last commands refused, the fault marked by ^\n"
	"  per_cpu/cpuN/trace_pipe_raw  consuming read of that CPU in binary\n"
	"                       pages (events/header_page, header_event)\n"
	"  buffer_subbuf_size_kb  KiB of those pages: 4 times a power of two,\n"
	"                       up to 512; no change while a trace_pipe_raw\n"
	"                       is open (EBUSY)\n";

/* Parts registered by other units; only ever added to, at init. */
static LIST_HEAD(rt_readme_parts);

/**
 * rt_readme_add - add a unit's lines to the README file
 * @part: the lines; must stay alive (static storage)
 */
void rt_readme_add(struct rt_readme_part *part)
{
	mutex_lock(&rt_trace_lock);
	list_add_tail(&part->list, &rt_readme_parts);
	mutex_unlock(&rt_trace_lock);
}
EXPORT_SYMBOL_GPL(rt_readme_add);

static int rt_readme_show(struct seq_file *m, void *v)
{
	struct rt_readme_part *part;

	seq_puts(m, rt_readme_core);
	mutex_lock(&rt_trace_lock);
	list_for_each_entry(part, &rt_readme_parts, list)
		seq_puts(m, part->text);
	mutex_unlock(&rt_trace_lock);
	return 0;
}

/* ---- per_cpu/cpuN/stats --------------------------------------------------- */

static int rt_cpu_stats_show(struct seq_file *m, void *v)
{
	struct rt_instance *tr = m->private;
	int cpu = rt_file_cpu(m->file);
	struct rt_rb_stats st;

	if (cpu < 0)
		return -ENODEV;
	rt_buffer_stats(tr->buffer, cpu, &st);
	/*
	 * The names binary readers parse (trace-cmd stores them with each
	 * CPU's data), then retrace's own, which the docs and tests use.
	 */
	seq_printf(m, "entries: %llu\noverrun: %llu\ncommit overrun: %llu\nbytes: %llu\n",
		   st.entries, st.overrun, st.commit_overrun, st.bytes);
	/* The counters are read apart: never let the difference wrap. */
	seq_printf(m, "dropped events: %llu\nread events: %llu\n",
		   st.dropped - min(st.dropped, st.commit_overrun), st.read);
	seq_printf(m, "dropped: %llu\nread: %llu\nwritten: %llu\npages: %lu\n",
		   st.dropped, st.read, st.written, st.nr_pages);
	return 0;
}

/* ---- plumbing ------------------------------------------------------------ */

RT_TR_SEQ_FOPS(rt_current_tracer, rt_current_tracer_write);
RT_TR_SEQ_FOPS(rt_available_tracers, NULL);
RT_TR_SEQ_FOPS(rt_tracing_on, rt_tracing_on_write);
RT_TR_SEQ_FOPS(rt_buffer_size, rt_buffer_size_write);
RT_TR_SEQ_FOPS(rt_cpumask, rt_cpumask_write);
RT_TR_SEQ_FOPS(rt_options, rt_options_write);
RT_TR_SEQ_FOPS(rt_cpu_stats, NULL);
RT_TR_SEQ_FOPS(rt_cpu_buffer_size, rt_cpu_buffer_size_write);
RT_SEQ_FOPS(rt_max_latency, rt_max_latency_write);
RT_SEQ_FOPS(rt_thresh, rt_thresh_write);
RT_SEQ_FOPS(rt_readme, NULL);

/*
 * The files of @tr's directory, each with @tr as its data.  The latency
 * files and README are the top level's only: no latency tracer runs in
 * an instance.
 */
void rt_create_control_files(struct rt_instance *tr)
{
	struct dentry *dir = tr->dir;
	struct dentry *per_cpu;
	char name[16];
	int cpu;

	tracefs_create_file("current_tracer", 0644, dir, tr,
			    &rt_current_tracer_fops);
	tracefs_create_file("available_tracers", 0444, dir, tr,
			    &rt_available_tracers_fops);
	tracefs_create_file("tracing_on", 0644, dir, tr, &rt_tracing_on_fops);
	tracefs_create_file("buffer_size_kb", 0644, dir, tr,
			    &rt_buffer_size_fops);
	rt_create_subbuf_file(tr);
	tracefs_create_file("tracing_cpumask", 0644, dir, tr,
			    &rt_cpumask_fops);
	tracefs_create_file("trace_options", 0644, dir, tr,
			    &rt_options_fops);
	if (tr == rt_top_instance()) {
		tracefs_create_file("tracing_thresh", 0644, dir, NULL,
				    &rt_thresh_fops);
		tracefs_create_file("tracing_max_latency", 0644, dir, tr,
				    &rt_max_latency_fops);
		tracefs_create_file("README", 0444, dir, NULL,
				    &rt_readme_fops);
		rt_create_comm_files(dir);
		rt_create_printk_formats_file(dir);
		rt_create_error_log_file(dir);
	}

	per_cpu = tracefs_create_dir("per_cpu", dir);
	for_each_possible_cpu(cpu) {
		struct dentry *d;

		snprintf(name, sizeof(name), "cpu%d", cpu);
		d = tracefs_create_dir(name, per_cpu);
		tracefs_create_file("stats", 0444, d, tr, &rt_cpu_stats_fops);
		tracefs_create_file("buffer_size_kb", 0644, d, tr,
				    &rt_cpu_buffer_size_fops);
		rt_create_raw_file(tr, d);
	}
}
