// SPDX-License-Identifier: GPL-2.0
/*
 * The trace and trace_pipe files.
 *
 * Both merge the per-CPU rings by timestamp.  "trace" walks with
 * non-consuming iterators, so it shows the same data every time; writes
 * to it (or opening it with O_TRUNC) clear the buffer.  "trace_pipe"
 * consumes, blocks while empty, honours O_NONBLOCK, and reads EOF once
 * current_tracer changes after it was opened.  "snapshot" walks the
 * snapshot buffer as "trace" walks the live one (core/snapshot.c).
 */
#include <linux/tracefs.h>
#include <linux/fs.h>
#include <linux/rcupdate.h>
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
	struct rt_buffer	*buf;		/* trace: what it walks */
	int			only_cpu;	/* snapshot: its CPU, else -1 */
	int			also_cpu;	/* snapshot: where it began */
	u64			ts_lo, ts_hi;	/* snapshot: its records */
	bool			consume;
	bool			snap;		/* the snapshot file */
	bool			paused;		/* pause-on-trace held the buffer */
	struct rt_buffer	*snap_shown;	/* its header's, or NULL */
	bool			header_done;
	bool			started;
	int			generation;
	u64			first_ts;
	struct rt_rb_iter	*iters;		/* trace only */
	struct rt_rb_record	**recs;		/* per CPU, peeked */
	struct rt_rb_record	*spare;		/* swapped with recs[] */
	struct rt_rb_record	*taken;		/* rt_reader_take()'s */
	bool			*have;		/* recs[cpu] holds a record */
	int			take_cpu;	/* a printer's take, or -1 */
	int			held_cpu;	/* recs[] of it: consumed already */
	void			*state;		/* rt_print_state() */
	size_t			state_size;
	struct rt_sym_cache	*syms;		/* NULL: no memory for it */
	struct rt_tracer	*ahead_of;	/* the tracer @ahead is about */
	bool			ahead;		/* it formats its own lines */
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
	kfree(r->taken);
	kfree(r->state);
	rt_sym_cache_free(r->syms);
	kfree(r->have);
	kfree(r->iters);
	kvfree(r->text_buf);
	kfree(r);
}

/*
 * The snapshot file shows the snapshot buffer, or nothing when none is
 * allocated; while a latency tracer is current, what "trace" shows.
 * Return: true when it is the latter.
 */
static bool rt_reader_pick_snapshot(struct rt_reader *r)
{
	struct rt_instance *tr = r->tr;
	bool latency;

	mutex_lock(&rt_trace_lock);
	latency = rt_tracer_uses_max(tr) && tr->max_buffer;
	if (latency) {
		r->snap_shown = tr->buffer;
	} else if (tr->snapshot) {
		r->buf = tr->max_buffer;
		r->snap_shown = tr->max_buffer;
	} else {
		r->only_cpu = nr_cpu_ids;
		r->also_cpu = nr_cpu_ids;
	}
	mutex_unlock(&rt_trace_lock);
	return latency;
}

static struct rt_reader *rt_reader_alloc(struct rt_instance *tr, bool consume,
					 bool snap)
{
	struct rt_reader *r = kzalloc(sizeof(*r), GFP_KERNEL);
	bool latency;
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
	r->taken = kmalloc(sizeof(*r->taken), GFP_KERNEL);
	r->take_cpu = -1;
	r->held_cpu = -1;
	r->syms = rt_sym_cache_alloc();
	if (!r->recs || !r->have || !r->text_buf || !r->spare || !r->taken)
		goto fail;
	for_each_possible_cpu(cpu) {
		r->recs[cpu] = kmalloc(sizeof(struct rt_rb_record), GFP_KERNEL);
		if (!r->recs[cpu])
			goto fail;
	}
	r->buf = tr->buffer;
	r->only_cpu = -1;
	r->also_cpu = -1;
	r->snap = snap;
	if (!consume) {
		r->iters = kcalloc(nr_cpu_ids, sizeof(*r->iters), GFP_KERNEL);
		if (!r->iters)
			goto fail;
		/*
		 * A latency tracer's trace is the snapshot: the records of
		 * the longest section, on its CPU, in the max buffer (none
		 * before the first).  It is the one of the moment of open.
		 */
		latency = snap ? rt_reader_pick_snapshot(r) :
				 rt_tracer_uses_max(tr);
		mutex_lock(&rt_max_lock);
		if (latency && tr->max_buffer) {
			r->buf = tr->max_buffer;
			r->only_cpu = rt_max_shown.latency_ns ?
				      rt_max_shown.cpu : nr_cpu_ids;
			r->also_cpu = rt_max_shown.latency_ns ?
				      rt_max_shown.start_cpu : nr_cpu_ids;
			r->ts_lo = rt_max_shown.start_ts;
			r->ts_hi = rt_max_shown.end_ts;
		}
		mutex_unlock(&rt_max_lock);
		for_each_possible_cpu(cpu)
			rt_buffer_iter_start(&r->iters[cpu], r->buf, cpu);
	}
	seq_buf_init(&r->text, r->text_buf, RT_TEXT_SIZE);
	return r;
fail:
	rt_reader_free(r);
	return NULL;
}

/* Peek at @cpu's next record into recs[cpu] unless one is there. */
static void rt_reader_peek_cpu(struct rt_reader *r, int cpu)
{
	if (r->consume) {
		/*
		 * A kept peek stays while its CPU's read position has not
		 * moved (a writer overwrote it, or another reader took it):
		 * a lockless check instead of a peek with the locks, which
		 * the function tracer would record.  The held record is no
		 * peek.  An empty ring needs no locks either.
		 */
		if (r->have[cpu] && (cpu == r->held_cpu ||
				     rt_buffer_peek_current(r->tr->buffer,
							    r->recs[cpu])))
			return;
		r->have[cpu] = !rt_buffer_empty_cpu(r->tr->buffer, cpu) &&
			       !rt_buffer_peek(r->tr->buffer, cpu, r->recs[cpu]);
		return;
	}
	if (r->have[cpu])
		return;
	if (r->only_cpu >= 0 && cpu != r->only_cpu && cpu != r->also_cpu)
		return;
	while ((r->have[cpu] = !rt_buffer_iter_peek(&r->iters[cpu],
						    r->recs[cpu]))) {
		if (r->only_cpu < 0)
			return;
		/* The snapshot's CPUs: only the section's records. */
		if (r->recs[cpu]->ts > r->ts_hi) {
			r->have[cpu] = false;
			return;
		}
		if (r->recs[cpu]->ts >= r->ts_lo)
			return;
		rt_buffer_iter_advance(&r->iters[cpu], r->recs[cpu]);
	}
}

/* Refill have[]/recs[] and return the CPU with the oldest record, or -1. */
static int rt_reader_pick(struct rt_reader *r)
{
	int cpu, best = -1;

	for_each_possible_cpu(cpu) {
		rt_reader_peek_cpu(r, cpu);
		if (r->have[cpu] &&
		    (best < 0 || r->recs[cpu]->ts < r->recs[best]->ts))
			best = cpu;
	}
	return best;
}

/*
 * Look-ahead for printers (core.h).  While a record is formatted it
 * sits in r->spare, so recs[cpu] is free to hold the peek; a take is
 * only noted, and done by rt_reader_take() once the text is final, so
 * a record printed twice (the text buffer grew) peeks the same record.
 */
/**
 * rt_print_peek - the record after the one being printed, same CPU
 * @ctx: the printer's context
 *
 * Return: the record, still in the buffer, or NULL if there is none
 * yet or no reader (see core.h).
 */
const struct rt_rb_record *rt_print_peek(struct rt_print_ctx *ctx)
{
	struct rt_reader *r = ctx->reader;
	unsigned int cpu = ctx->rec->cpu;

	/* Peeked by rt_reader_format(): printers run under RCU, no sleeping. */
	if (!r)
		return NULL;
	/*
	 * The reader holds one consumed record at a time (held_cpu): while
	 * one waits its turn, a take that found another record could not
	 * hold a second, so there is no look-ahead until it is printed.
	 */
	if (r->consume && r->held_cpu >= 0)
		return NULL;
	return r->have[cpu] ? r->recs[cpu] : NULL;
}
EXPORT_SYMBOL_GPL(rt_print_peek);

/**
 * rt_print_take - take the record rt_print_peek() returned
 * @ctx: the printer's context
 *
 * The record is removed (trace_pipe) or skipped (trace) once the line
 * being formatted is final.
 */
void rt_print_take(struct rt_print_ctx *ctx)
{
	struct rt_reader *r = ctx->reader;

	if (r && r->have[ctx->rec->cpu])
		r->take_cpu = ctx->rec->cpu;
}
EXPORT_SYMBOL_GPL(rt_print_take);

/* The reader's symbol cache (used under r->lock, as printing is). */
struct rt_sym_cache *rt_reader_syms(struct rt_reader *r)
{
	return r ? r->syms : NULL;
}

/**
 * rt_print_state - a printer's per-open-file memory
 * @ctx: the printer's context
 * @size: bytes wanted; a different size starts over, zeroed
 *
 * Return: the area, zeroed when first handed out, or NULL.
 */
void *rt_print_state(struct rt_print_ctx *ctx, size_t size)
{
	struct rt_reader *r = ctx->reader;

	if (!r)
		return NULL;
	if (r->state && r->state_size != size) {
		kfree(r->state);
		r->state = NULL;
	}
	if (!r->state) {
		/* Printers run under rcu_read_lock(): no sleeping. */
		r->state = kzalloc(size, GFP_ATOMIC | __GFP_NOWARN);
		r->state_size = r->state ? size : 0;
	}
	return r->state;
}
EXPORT_SYMBOL_GPL(rt_print_state);

/* Take the record a printer joined to the one just formatted. */
static void rt_reader_take(struct rt_reader *r)
{
	int cpu = r->take_cpu;
	struct rt_rb_record *peeked, *got;

	if (cpu < 0)
		return;
	r->take_cpu = -1;
	peeked = r->recs[cpu];
	if (!r->consume) {
		rt_buffer_iter_advance(&r->iters[cpu], peeked);
		r->have[cpu] = false;
		return;
	}
	got = r->taken;
	if (rt_buffer_consume(r->tr->buffer, cpu, got)) {
		r->have[cpu] = false;
		return;
	}
	/*
	 * A writer overwrote the peeked record meanwhile: what came out
	 * is another one.  It is out of the buffer already, so it is held
	 * and printed next without consuming again.
	 */
	if (got->ts == peeked->ts && got->len == peeked->len) {
		r->have[cpu] = false;
		return;
	}
	r->recs[cpu] = got;
	r->taken = peeked;
	r->have[cpu] = true;
	r->held_cpu = cpu;
}

/*
 * Whether the current tracer formats its own lines, and so may look
 * ahead (rt_print_peek()).  Worked out again only when the tracer
 * pointer changes: comparing it needs no RCU read section, whose two
 * calls the function tracer would record for every line.
 */
static bool rt_reader_looks_ahead(struct rt_reader *r)
{
	struct rt_tracer *t = READ_ONCE(r->tr->tracer);

	if (t != r->ahead_of) {
		rcu_read_lock();
		t = READ_ONCE(r->tr->tracer);
		r->ahead = t && t->print_line;
		rcu_read_unlock();
		r->ahead_of = t;
	}
	return r->ahead;
}

/* Format @rec into r->text, which is empty; see RT_TEXT_SIZE. */
static void rt_reader_format(struct rt_reader *r, struct rt_rb_record *rec,
			     u64 next_ts)
{
	size_t keep;
	char *big;

	/*
	 * A tracer that formats its own lines may look ahead; peeking can
	 * sleep (it takes the buffer's lock), so it is done here, before
	 * the printers' RCU read section.
	 */
	if (rt_reader_looks_ahead(r))
		rt_reader_peek_cpu(r, rec->cpu);
	r->take_cpu = -1;
	if (!rt_print_record_ctx(r->tr, &r->text, rec, r->first_ts, next_ts, r))
		goto out;
	if (r->text.size < RT_TEXT_MAX) {
		big = kvmalloc(RT_TEXT_MAX, GFP_KERNEL);
		if (big) {
			kvfree(r->text_buf);
			r->text_buf = big;
			seq_buf_init(&r->text, big, RT_TEXT_MAX);
			r->take_cpu = -1;
			if (!rt_print_record_ctx(r->tr, &r->text, rec,
						 r->first_ts, next_ts, r))
				goto out;
		}
	}
	keep = r->text.size - (sizeof(RT_TEXT_CUT) - 1);
	memcpy(r->text_buf + keep, RT_TEXT_CUT, sizeof(RT_TEXT_CUT) - 1);
	r->text.len = r->text.size;
out:
	rt_reader_take(r);
}

/* Format the next record into r->text.  Return false when none is left. */
static bool rt_reader_next(struct rt_reader *r)
{
	struct rt_rb_record *rec;
	bool have_next = false;
	u64 next_ts = 0;
	int cpu, other;

	cpu = rt_reader_pick(r);
	if (cpu < 0)
		return false;
	rec = r->recs[cpu];
	if (r->consume && cpu == r->held_cpu) {
		/* Consumed by rt_reader_take() already. */
		r->held_cpu = -1;
		r->have[cpu] = false;
	} else if (r->consume) {
		/*
		 * Take it for real (a writer may have overwritten the peek),
		 * and peek at the CPU's next record into the spare slot, all
		 * under one hold of the ring.
		 */
		if (rt_buffer_consume_peek(r->tr->buffer, cpu, rec, r->spare,
					   &have_next)) {
			r->have[cpu] = false;
			return true;
		}
	} else {
		rt_buffer_iter_advance(&r->iters[cpu], rec);
		r->have[cpu] = false;
	}
	/*
	 * Format from the spare slot, so that recs[cpu] can hold a peek at
	 * what follows: the next record's time for the latency marks, or
	 * a printer's look-ahead (rt_print_peek()).  A consumer's spare
	 * slot already holds that peek.
	 */
	r->recs[cpu] = r->spare;
	r->spare = rec;
	r->have[cpu] = have_next;
	if (!r->consume && rt_opt(r->tr, RT_OPT_LATENCY_FMT)) {
		other = rt_reader_pick(r);
		if (other >= 0)
			next_ts = r->recs[other]->ts;
	}
	if (!r->started) {
		r->started = true;
		r->first_ts = rec->ts;
	}
	rt_reader_format(r, rec, next_ts);
	return true;
}

/*
 * pause-on-trace: the live buffer takes no records while a reader of
 * "trace" that paused it is open.  The buffer's own disable count does
 * it, so writers pay nothing new and readers nest; tracing_on still
 * reads as it was.  The buffer structure is the instance's for life
 * (swaps exchange its rings, not the structure).  Swaps are held off
 * too (tr->paused, read under rt_max_lock by every swap): a latency
 * tracer's or the snapshot's max buffer is what the reader may show.
 */
static void rt_trace_pause(struct rt_instance *tr, bool pause)
{
	mutex_lock(&rt_max_lock);
	if (pause) {
		tr->paused++;
		rt_buffer_record_disable(tr->buffer);
	} else {
		rt_buffer_record_enable(tr->buffer);
		tr->paused--;
	}
	mutex_unlock(&rt_max_lock);
}

static int rt_trace_open_common(struct inode *inode, struct file *file,
				bool consume, bool snap)
{
	struct rt_instance *tr = inode->i_private;
	struct rt_reader *r;
	int ret = rt_file_lockdown();

	if (!ret)
		ret = rt_instance_get(tr);
	if (ret)
		return ret;
	if (!consume && !snap && (file->f_mode & FMODE_WRITE) &&
	    (file->f_flags & O_TRUNC))
		rt_clear_trace(tr);
	if (!(file->f_mode & FMODE_READ))
		return 0;
	r = rt_reader_alloc(tr, consume, snap);
	if (!r) {
		rt_instance_put(tr);
		return -ENOMEM;
	}
	if (!consume && !snap && rt_opt(tr, RT_OPT_PAUSE_ON_TRACE)) {
		rt_trace_pause(tr, true);
		r->paused = true;
	}
	file->private_data = r;
	return nonseekable_open(inode, file);
}

static int rt_trace_open(struct inode *inode, struct file *file)
{
	return rt_trace_open_common(inode, file, false, false);
}

static int rt_pipe_open(struct inode *inode, struct file *file)
{
	return rt_trace_open_common(inode, file, true, false);
}

int rt_snapshot_open(struct inode *inode, struct file *file)
{
	return rt_trace_open_common(inode, file, false, true);
}

int rt_trace_release(struct inode *inode, struct file *file)
{
	struct rt_reader *r = file->private_data;

	if (r && r->paused)
		rt_trace_pause(r->tr, false);
	rt_reader_free(r);
	/* Pinned since open: i_private is still the instance. */
	rt_instance_put(inode->i_private);
	return 0;
}

static bool rt_pipe_has_data(struct rt_reader *r)
{
	int cpu;

	for_each_possible_cpu(cpu)
		if (!rt_buffer_empty_cpu(r->tr->buffer, cpu))
			return true;
	return false;
}

/* A consuming reader should not sleep: records, or the tracer changed. */
static bool rt_pipe_ready(void *arg)
{
	struct rt_reader *r = arg;

	return atomic_read(&rt_tracer_generation) != r->generation ||
	       rt_pipe_has_data(r);
}

/* Wait for data; 0 when there is some, else the errno or 1 for EOF. */
static int rt_pipe_wait(struct rt_reader *r, struct file *file)
{
	bool deep = false, armed = false;

	for (;;) {
		if (atomic_read(&rt_tracer_generation) != r->generation)
			return 1;
		if (rt_pipe_has_data(r))
			return 0;
		if (file->f_flags & O_NONBLOCK) {
			if (armed)
				return -EAGAIN;
			/* For an edge-triggered epoll waiter's next wakeup. */
			rt_pipe_arm(r->tr);
			armed = true;
			continue;
		}
		if (signal_pending(current))
			return -EINTR;
		/* Woken by the first record written (core/pipe_wait.c). */
		deep = rt_pipe_sleep(r->tr, rt_pipe_ready, r, deep);
	}
}

static __poll_t rt_pipe_poll(struct file *file, poll_table *pt)
{
	struct rt_reader *r = file->private_data;
	bool ready;

	if (!r)
		return EPOLLERR;
	/*
	 * The block option (its meaning in 2.6.3x kernels): poll always
	 * says readable, and the read itself waits for data.
	 */
	if (rt_opt(r->tr, RT_OPT_BLOCK))
		return EPOLLIN | EPOLLRDNORM;
	ready = rt_pipe_ready(r);
	rt_pipe_poll_wait(r->tr, file, pt, !ready);
	if (!ready)
		ready = rt_pipe_ready(r);
	return ready ? EPOLLIN | EPOLLRDNORM : 0;
}

ssize_t rt_trace_read(struct file *file, char __user *ubuf, size_t cnt,
		      loff_t *ppos)
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
			if (r->snap)
				rt_snapshot_print_header(r->tr, r->snap_shown,
							 &r->text);
			else
				rt_print_header(r->tr, r->tr->buffer, &r->text);
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
		rt_clear_trace(tr);
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
	.poll		= rt_pipe_poll,
	.release	= rt_trace_release,
	.llseek		= noop_llseek,
};

void rt_create_trace_files(struct rt_instance *tr)
{
	tracefs_create_file("trace", 0644, tr->dir, tr, &rt_trace_fops);
	tracefs_create_file("trace_pipe", 0444, tr->dir, tr, &rt_pipe_fops);
}
