// SPDX-License-Identifier: GPL-2.0
/*
 * retrace core: the trace_clock file, which chooses what the instance's
 * records are stamped with.
 *
 *   local    nanoseconds, monotonic on each CPU; cheapest (the default)
 *   global   nanoseconds, ordered across CPUs (one shared cache line
 *            per record: see the ring buffer's rb_clock_global())
 *   counter  a count shared by all CPUs: an order, not a time
 *
 * Reading lists them with the current one in brackets.  Writing a name
 * switches the instance's buffer and empties it: stamps of two clocks
 * do not compare.  tr->clock is written under rt_trace_lock, after the
 * buffer has switched; output reads it to print a stamp as a time or
 * as a count.  The latency tracers time sections, and pick the records
 * their snapshot shows, with the local clock: while one is current the
 * clock cannot change (-EBUSY), and one cannot start with another
 * clock (rt_max_prepare()).
 */
#include <linux/tracefs.h>
#include <linux/fs.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <trace/retrace/core.h>
#include <trace/retrace/ring_buffer.h>
#include "internal.h"

static const char *const rt_clock_names[RT_RB_NR_CLOCKS] = {
	[RT_RB_CLOCK_LOCAL]	= "local",
	[RT_RB_CLOCK_GLOBAL]	= "global",
	[RT_RB_CLOCK_COUNTER]	= "counter",
};

static int rt_trace_clock_show(struct seq_file *m, void *v)
{
	struct rt_instance *tr = m->private;
	unsigned int i, cur = READ_ONCE(tr->clock);

	for (i = 0; i < RT_RB_NR_CLOCKS; i++)
		seq_printf(m, i == cur ? "%s[%s]" : "%s%s", i ? " " : "",
			   rt_clock_names[i]);
	seq_putc(m, '\n');
	return 0;
}

/* Switch @tr's buffers to @clock; called with rt_trace_lock held. */
static int rt_set_clock(struct rt_instance *tr, unsigned int clock)
{
	int ret;

	lockdep_assert_held(&rt_trace_lock);
	if (clock == tr->clock)
		return 0;
	/* A latency tracer needs the local clock (rt_max_prepare()). */
	if (rt_tracer_uses_max(tr))
		return -EBUSY;
	ret = rt_buffer_set_clock(tr->buffer, clock);
	/* A snapshot's times would not compare with the new ones. */
	if (!ret && tr->max_buffer)
		ret = rt_buffer_set_clock(tr->max_buffer, clock);
	if (!ret)
		WRITE_ONCE(tr->clock, clock);
	return ret;
}

static ssize_t rt_trace_clock_write(struct file *file, const char __user *ubuf,
				    size_t cnt, loff_t *ppos)
{
	struct rt_instance *tr = ((struct seq_file *)file->private_data)->private;
	char buf[16];
	int i, ret;

	if (cnt >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, cnt))
		return -EFAULT;
	buf[cnt] = '\0';
	i = sysfs_match_string(rt_clock_names, strim(buf));
	if (i < 0)
		return -EINVAL;
	mutex_lock(&rt_trace_lock);
	ret = rt_set_clock(tr, i);
	mutex_unlock(&rt_trace_lock);
	return ret ? ret : cnt;
}

RT_TR_SEQ_FOPS(rt_trace_clock, rt_trace_clock_write);

static struct rt_readme_part rt_trace_clock_readme = {
	.text = "  trace_clock          local (per CPU), global (ordered across CPUs)\n"
		"                       or counter; a change empties the buffer\n",
};

void rt_create_clock_files(struct rt_instance *tr)
{
	tracefs_create_file("trace_clock", 0644, tr->dir, tr,
			    &rt_trace_clock_fops);
	if (tr == &rt_top)
		rt_readme_add(&rt_trace_clock_readme);
}
