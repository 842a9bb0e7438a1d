// SPDX-License-Identifier: GPL-2.0
/*
 * The trace and trace_pipe files.
 *
 * Both merge the per-CPU rings by timestamp.  "trace" walks with
 * non-consuming iterators, so it shows the same data every time; writes
 * to it (or opening it with O_TRUNC) clear the buffer.  "trace_pipe"
 * consumes, blocks while empty, honours O_NONBLOCK, and reads EOF once
 * current_tracer changes after it was opened.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "internal.h"

/*
 * One record's text goes to the reader's buffer whole.  It starts at
 * RT_TEXT_SIZE, enough for nearly every record; a record that does not
 * fit (a hex dump of a 4 KiB record, a kprobe with many string
 * arguments) grows it once to RT_TEXT_MAX, and text beyond that is cut
 * and ends with RT_TEXT_CUT, so it never runs into the next record.
 */
#define RT_TEXT_SIZE	(2 * PAGE_SIZE)
#define RT_TEXT_MAX	(64 * 1024)
#define RT_TEXT_CUT	" [...record cut]\n"

struct rt_reader {
	struct mutex		lock;		/* one read() at a time */
	struct rt_instance	*tr;
	bool			consume;
	bool			header_done;
	bool			started;
	int			generation;
	u64			first_ts;
	struct rt_rb_iter	*iters;		/* trace only */
	struct rt_rb_record	**recs;		/* per CPU, peeked */
	struct rt_rb_record	*spare;		/* swapped with recs[] */
	bool			*have;		/* recs[cpu] holds a record */
	struct seq_buf		text;		/* formatted, not yet copied */
	size_t			text_off;
	char			*text_buf;
};

static void rt_reader_free(struct rt_reader *r)
{
	int cpu;

	if (!r)
		return;
	if (r->recs)
		for_each_possible_cpu(cpu)
			kfree(r->recs[cpu]);
	kfree(r->recs);
	kfree(r->spare);
	kfree(r->have);
	kfree(r->iters);
	kvfree(r->text_buf);
	kfree(r);
}

static struct rt_reader *rt_reader_alloc(struct rt_instance *tr, bool consume)
{
	struct rt_reader *r = kzalloc(sizeof(*r), GFP_KERNEL);
	int cpu;

	if (!r)
		return NULL;
	mutex_init(&r->lock);
	r->tr = tr;
	r->consume = consume;
	r->generation = atomic_read(&rt_tracer_generation);
	r->recs = kcalloc(nr_cpu_ids, sizeof(*r->recs), GFP_KERNEL);
	r->have = kcalloc(nr_cpu_ids, sizeof(*r->have), GFP_KERNEL);
	r->text_buf = kvmalloc(RT_TEXT_SIZE, GFP_KERNEL);
	r->spare = kmalloc(sizeof(*r->spare), GFP_KERNEL);
	if (!r->recs || !r->have || !r->text_buf || !r->spare)
		goto fail;
	for_each_possible_cpu(cpu) {
		r->recs[cpu] = kmalloc(sizeof(struct rt_rb_record), GFP_KERNEL);
		if (!r->recs[cpu])
			goto fail;
	}
	if (!consume) {
		r->iters = kcalloc(nr_cpu_ids, sizeof(*r->iters), GFP_KERNEL);
		if (!r->iters)
			goto fail;
		for_each_possible_cpu(cpu)
			rt_buffer_iter_start(&r->iters[cpu], tr->buffer, cpu);
	}
	seq_buf_init(&r->text, r->text_buf, RT_TEXT_SIZE);
	return r;
fail:
	rt_reader_free(r);
	return NULL;
}

/* Refill have[]/recs[] and return the CPU with the oldest record, or -1. */
static int rt_reader_pick(struct rt_reader *r)
{
	int cpu, best = -1;

	for_each_possible_cpu(cpu) {
		if (!r->have[cpu]) {
			if (r->consume)
				r->have[cpu] = !rt_buffer_peek(r->tr->buffer, cpu,
							       r->recs[cpu]);
			else
				r->have[cpu] = !rt_buffer_iter_peek(&r->iters[cpu],
								    r->recs[cpu]);
		}
		if (r->have[cpu] &&
		    (best < 0 || r->recs[cpu]->ts < r->recs[best]->ts))
			best = cpu;
	}
	return best;
}

/* Format @rec into r->text, which is empty; see RT_TEXT_SIZE. */
static void rt_reader_format(struct rt_reader *r, struct rt_rb_record *rec,
			     u64 next_ts)
{
	size_t keep;
	char *big;

	if (!rt_print_record_ctx(r->tr, &r->text, rec, r->first_ts, next_ts))
		return;
	if (r->text.size < RT_TEXT_MAX) {
		big = kvmalloc(RT_TEXT_MAX, GFP_KERNEL);
		if (big) {
			kvfree(r->text_buf);
			r->text_buf = big;
			seq_buf_init(&r->text, big, RT_TEXT_MAX);
			if (!rt_print_record_ctx(r->tr, &r->text, rec,
						 r->first_ts, next_ts))
				return;
		}
	}
	keep = r->text.size - (sizeof(RT_TEXT_CUT) - 1);
	memcpy(r->text_buf + keep, RT_TEXT_CUT, sizeof(RT_TEXT_CUT) - 1);
	r->text.len = r->text.size;
}

/* Format the next record into r->text.  Return false when none is left. */
static bool rt_reader_next(struct rt_reader *r)
{
	struct rt_rb_record *rec;
	u64 next_ts = 0;
	int cpu, other;

	cpu = rt_reader_pick(r);
	if (cpu < 0)
		return false;
	rec = r->recs[cpu];
	if (r->consume) {
		/* Take it for real; a writer may have overwritten the peek. */
		if (rt_buffer_consume(r->tr->buffer, cpu, rec)) {
			r->have[cpu] = false;
			return true;
		}
		/* Peeks go stale as writers move on: never reuse them. */
		for_each_possible_cpu(other)
			r->have[other] = false;
	} else {
		rt_buffer_iter_advance(&r->iters[cpu], rec);
		r->have[cpu] = false;
		/*
		 * Latency marks need the following record's time: keep this
		 * one in the spare slot and peek the next on every CPU.
		 */
		if (rt_opt(r->tr, RT_OPT_LATENCY_FMT)) {
			r->recs[cpu] = r->spare;
			r->spare = rec;
			other = rt_reader_pick(r);
			if (other >= 0)
				next_ts = r->recs[other]->ts;
		}
	}
	if (!r->started) {
		r->started = true;
		r->first_ts = rec->ts;
	}
	rt_reader_format(r, rec, next_ts);
	return true;
}

static int rt_trace_open_common(struct inode *inode, struct file *file,
				bool consume)
{
	struct rt_instance *tr = inode->i_private;
	struct rt_reader *r;

	if (!consume && (file->f_mode & FMODE_WRITE) &&
	    (file->f_flags & O_TRUNC))
		rt_buffer_reset(tr->buffer);
	if (!(file->f_mode & FMODE_READ))
		return 0;
	r = rt_reader_alloc(tr, consume);
	if (!r)
		return -ENOMEM;
	file->private_data = r;
	return nonseekable_open(inode, file);
}

static int rt_trace_open(struct inode *inode, struct file *file)
{
	return rt_trace_open_common(inode, file, false);
}

static int rt_pipe_open(struct inode *inode, struct file *file)
{
	return rt_trace_open_common(inode, file, true);
}

static int rt_trace_release(struct inode *inode, struct file *file)
{
	rt_reader_free(file->private_data);
	return 0;
}

/* Wait for data; 0 when there is some, else the errno or 1 for EOF. */
static int rt_pipe_wait(struct rt_reader *r, struct file *file)
{
	for (;;) {
		int cpu;

		if (atomic_read(&rt_tracer_generation) != r->generation)
			return 1;
		for_each_possible_cpu(cpu)
			if (!rt_buffer_empty_cpu(r->tr->buffer, cpu))
				return 0;
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (signal_pending(current))
			return -EINTR;
		/*
		 * Writers cannot wake us from every context they run in
		 * (NMI), so poll at a short interval instead.
		 */
		schedule_timeout_interruptible(HZ / 20);
	}
}

static ssize_t rt_trace_read(struct file *file, char __user *ubuf,
			     size_t cnt, loff_t *ppos)
{
	struct rt_reader *r = file->private_data;
	ssize_t done = 0;
	int ret;

	if (!r)
		return -EBADF;
	mutex_lock(&r->lock);
	while (cnt) {
		size_t avail = seq_buf_used(&r->text) - r->text_off;

		if (avail) {
			size_t n = min(avail, cnt);

			if (copy_to_user(ubuf + done, r->text_buf + r->text_off, n)) {
				if (!done)
					done = -EFAULT;
				break;
			}
			r->text_off += n;
			done += n;
			cnt -= n;
			continue;
		}
		seq_buf_clear(&r->text);
		r->text_off = 0;
		if (!r->header_done && !r->consume) {
			r->header_done = true;
			rt_print_header(r->tr, &r->text);
			continue;
		}
		if (rt_reader_next(r))
			continue;
		if (!r->consume || done)
			break;
		ret = rt_pipe_wait(r, file);
		if (ret) {
			if (ret < 0)
				done = ret;
			break;
		}
	}
	mutex_unlock(&r->lock);
	return done;
}

static ssize_t rt_trace_write(struct file *file, const char __user *ubuf,
			      size_t cnt, loff_t *ppos)
{
	/* Any write clears, as "echo > trace" does without O_TRUNC too. */
	struct rt_instance *tr = file_inode(file)->i_private;

	if (!(file->f_flags & O_TRUNC))
		rt_buffer_reset(tr->buffer);
	return cnt;
}

static const struct file_operations rt_trace_fops = {
	.open		= rt_trace_open,
	.read		= rt_trace_read,
	.write		= rt_trace_write,
	.release	= rt_trace_release,
	.llseek		= noop_llseek,
};

static const struct file_operations rt_pipe_fops = {
	.open		= rt_pipe_open,
	.read		= rt_trace_read,
	.release	= rt_trace_release,
	.llseek		= noop_llseek,
};

void __init rt_create_trace_files(struct rt_instance *tr)
{
	debugfs_create_file("trace", 0644, tr->dir, tr, &rt_trace_fops);
	debugfs_create_file("trace_pipe", 0444, tr->dir, tr, &rt_pipe_fops);
}
