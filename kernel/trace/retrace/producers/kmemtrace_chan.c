// SPDX-License-Identifier: GPL-2.0
/*
 * kmemtrace's channels: /sys/kernel/debug/kmemtrace/cpu<n> served from a
 * retrace ring buffer of its own (not the trace buffer, whose size,
 * clearing and overwrite mode belong to the tracing directory).
 *
 * The buffer is allocated when the channels are first switched on
 * (rt_kmt_chan_start()), so a kernel that never uses them pays nothing
 * for them.  It runs in no-overwrite mode, as relay channels do: a record
 * that finds its CPU's ring full is dropped and its bytes are added to
 * total_overruns, so what a reader got plus what was dropped is all
 * that was written.  read() hands out whole records only and never
 * blocks; poll() blocks until the channel has a record.
 *
 * Waking a poller.  Writers run inside the allocator, with any lock
 * held and interrupts possibly off, so they never wake anyone
 * themselves:
 *
 *   ch->waiting  set to 1 by poll() before it looks for data; cleared
 *                by the first writer on that CPU that sees it set
 *   ch->work     an irq_work that writer queues on its own CPU (the
 *                channel's); it wakes ch->wq
 *
 *   poll()                            writer (any context)
 *   poll_wait(ch->wq)                 publish the record (commit)
 *   waiting = 1                       smp_mb()
 *   smp_mb()                          if (waiting) {
 *   data? EPOLLIN                         waiting = 0
 *   else 0, VFS sleeps on ch->wq          irq_work_queue(ch->work)
 *                                     }
 *
 * The two full barriers pair: either poll() sees the record, or the
 * writer sees the flag and the wakeup reaches the queue poll_wait()
 * put the caller on.  A nested writer whose record the interrupted one
 * publishes may wake the poller early; poll() then finds nothing, arms
 * again, and the outer writer's check after its own commit wakes it.
 */
#define pr_fmt(fmt) "retrace: kmemtrace: " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/irq_work.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/percpu.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <trace/retrace/ring_buffer.h>
#include "kmemtrace.h"

#define RT_KMT_DEFAULT_KB	512

/**
 * struct rt_kmt_chan - one CPU's channel
 * @waiting: a poller wants a wakeup (protocol above)
 * @work: wakes @wq from the writer's CPU
 * @wq: pollers
 * @read_lock: one reader at a time, so a record peeked is the one taken
 * @overrun_bytes: bytes dropped on this CPU; only its writers add
 *	(this_cpu_add(), one instruction, safe against nesting)
 */
struct rt_kmt_chan {
	int			waiting;
	struct irq_work		work;
	wait_queue_head_t	wq;
	struct mutex		read_lock;
	u64			overrun_bytes;
};

static DEFINE_PER_CPU(struct rt_kmt_chan, rt_kmt_chans);

/*
 * NULL until the channels are first switched on; then set once (under
 * kmemtrace.c's rt_kmt_lock, published before the writers' flag) and
 * never freed.  Readers test it with READ_ONCE().
 *
 * rt_kmt_resize_sem: readers hold it shared across a read() or poll(),
 * a resize exclusively, so no read() sees a record change under it
 * between its peek and its take.
 */
static struct rt_buffer *rt_kmt_buf;
static unsigned long rt_kmt_kb = RT_KMT_DEFAULT_KB;
static DECLARE_RWSEM(rt_kmt_resize_sem);

static void rt_kmt_wake(struct irq_work *work)
{
	struct rt_kmt_chan *ch = container_of(work, struct rt_kmt_chan, work);

	wake_up_interruptible_all(&ch->wq);
}

/**
 * rt_kmt_chan_write - put one record in this CPU's channel
 * @rec: the record, event_size bytes
 * @len: its size, a multiple of 4 (the ring pads to 4)
 *
 * Called with preemption disabled, in any context, once the channels'
 * flag is seen set (so the buffer exists).
 */
void rt_kmt_chan_write(const void *rec, unsigned int len)
{
	struct rt_buffer *buf = READ_ONCE(rt_kmt_buf);
	struct rt_kmt_chan *ch;
	void *p;

	p = rt_buffer_reserve(buf, len);
	ch = this_cpu_ptr(&rt_kmt_chans);
	if (unlikely(!p)) {
		this_cpu_add(rt_kmt_chans.overrun_bytes, len);
		return;
	}
	memcpy(p, rec, len);
	rt_buffer_commit(buf);
	smp_mb();	/* publish, then look at the flag (see the top) */
	if (unlikely(READ_ONCE(ch->waiting))) {
		WRITE_ONCE(ch->waiting, 0);
		irq_work_queue(&ch->work);
	}
}

/* A reader's state: where the next record is copied before it goes out. */
struct rt_kmt_reader {
	int			cpu;
	struct rt_rb_record	rec;
};

static int rt_kmt_open(struct inode *inode, struct file *file)
{
	struct rt_kmt_reader *r;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->cpu = (long)inode->i_private;
	file->private_data = r;
	return nonseekable_open(inode, file);
}

static int rt_kmt_release(struct inode *inode, struct file *file)
{
	kfree(file->private_data);
	return 0;
}

/* The record's own size: the ring rounds its length up to 4. */
static unsigned int rt_kmt_rec_size(const struct rt_rb_record *rec)
{
	const struct rt_kmt_core *c = (const void *)rec->data;

	if (rec->len < sizeof(*c) || c->event_size > rec->len)
		return rec->len;	/* not ours: cannot happen */
	return c->event_size;
}

/*
 * Whole records while they fit.  Each record is peeked, copied out, and
 * only then taken: one that does not fit, or whose copy faults, stays
 * for the next read().  The peeked record is the one taken: read_lock
 * keeps other readers of the channel out, rt_kmt_resize_sem a resize,
 * and writers only add records (no-overwrite mode).
 */
static ssize_t rt_kmt_read(struct file *file, char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	struct rt_kmt_reader *r = file->private_data;
	struct rt_kmt_chan *ch = per_cpu_ptr(&rt_kmt_chans, r->cpu);
	struct rt_buffer *buf;
	size_t done = 0;
	int ret = 0;

	if (mutex_lock_interruptible(&ch->read_lock))
		return -ERESTARTSYS;
	if (down_read_killable(&rt_kmt_resize_sem)) {
		mutex_unlock(&ch->read_lock);
		return -EINTR;
	}
	buf = smp_load_acquire(&rt_kmt_buf);	/* see rt_kmt_chan_start() */
	while (buf && done < count) {
		unsigned int size;

		if (rt_buffer_peek(buf, r->cpu, &r->rec))
			break;
		size = rt_kmt_rec_size(&r->rec);
		if (size > count - done) {
			if (!done)
				ret = -EINVAL;
			break;
		}
		if (copy_to_user(ubuf + done, r->rec.data, size)) {
			ret = -EFAULT;
			break;
		}
		rt_buffer_consume(buf, r->cpu, &r->rec);
		done += size;
		if (fatal_signal_pending(current))
			break;
		cond_resched();
	}
	up_read(&rt_kmt_resize_sem);
	mutex_unlock(&ch->read_lock);
	return done ? done : ret;
}

static __poll_t rt_kmt_poll(struct file *file, poll_table *wait)
{
	struct rt_kmt_reader *r = file->private_data;
	struct rt_kmt_chan *ch = per_cpu_ptr(&rt_kmt_chans, r->cpu);

	struct rt_buffer *buf;
	__poll_t ret = 0;

	poll_wait(file, &ch->wq, wait);
	WRITE_ONCE(ch->waiting, 1);
	smp_mb();	/* arm, then look for data (see the top) */
	if (down_read_killable(&rt_kmt_resize_sem))
		return EPOLLERR;
	buf = smp_load_acquire(&rt_kmt_buf);	/* see rt_kmt_chan_start() */
	if (buf && !rt_buffer_empty_cpu(buf, r->cpu))
		ret = EPOLLIN | EPOLLRDNORM;
	up_read(&rt_kmt_resize_sem);
	return ret;
}

static const struct file_operations rt_kmt_chan_fops = {
	.open		= rt_kmt_open,
	.release	= rt_kmt_release,
	.read		= rt_kmt_read,
	.poll		= rt_kmt_poll,
	.llseek		= noop_llseek,
};

static ssize_t rt_kmt_overruns_read(struct file *file, char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu(rt_kmt_chans.overrun_bytes, cpu));
	return rt_kmt_read_num(ubuf, count, ppos, sum);
}

static const struct file_operations rt_kmt_overruns_fops = {
	.open	= simple_open,
	.read	= rt_kmt_overruns_read,
	.llseek	= default_llseek,
};

/**
 * rt_kmt_chan_files - the channel files in /sys/kernel/debug/kmemtrace
 * @dir: that directory
 */
void rt_kmt_chan_files(struct dentry *dir)
{
	char name[16];
	int cpu;

	for_each_possible_cpu(cpu) {
		snprintf(name, sizeof(name), "cpu%d", cpu);
		debugfs_create_file(name, 0400, dir, (void *)(long)cpu,
				    &rt_kmt_chan_fops);
	}
	debugfs_create_file("total_overruns", 0400, dir, NULL,
			    &rt_kmt_overruns_fops);
}

/**
 * rt_kmt_chan_resize - give every channel @kb KiB, dropping its records
 * @kb: KiB per CPU, at least 4
 *
 * Only with no writer running: the caller (under rt_kmt_lock) has the
 * channels off.  Before they were ever on, only the size is noted.
 * Return: 0, -EINVAL or -ENOMEM (then the old size stays).
 */
int rt_kmt_chan_resize(unsigned long kb)
{
	int ret = 0;

	if (kb < 4 || kb > (1UL << 20))
		return -EINVAL;
	/* Killable: a reader stuck in a page fault holds the semaphore. */
	if (down_write_killable(&rt_kmt_resize_sem))
		return -EINTR;
	if (rt_kmt_buf)
		ret = rt_buffer_resize(rt_kmt_buf, kb << 10);
	if (!ret)
		rt_kmt_kb = kb;
	up_write(&rt_kmt_resize_sem);
	return ret;
}

/**
 * rt_kmt_chan_start - have the channels' buffer, before they first record
 *
 * Called under rt_kmt_lock before the writers' flag is set; the flag's
 * release store publishes the buffer to them, the pointer's own release
 * store to read() and poll().
 * Return: 0 or -ENOMEM.
 */
int rt_kmt_chan_start(void)
{
	struct rt_buffer *buf;

	if (rt_kmt_buf)
		return 0;
	buf = rt_buffer_alloc(rt_kmt_kb << 10, false);
	if (!buf)
		return -ENOMEM;
	/* Readers' acquire loads see it initialised. */
	smp_store_release(&rt_kmt_buf, buf);
	return 0;
}

/** rt_kmt_chan_size_kb - the channels' size, KiB per CPU */
unsigned long rt_kmt_chan_size_kb(void)
{
	return rt_kmt_kb;
}

/** rt_kmt_chan_init - set up the channels' wait queues and locks */
void rt_kmt_chan_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct rt_kmt_chan *ch = per_cpu_ptr(&rt_kmt_chans, cpu);

		init_irq_work(&ch->work, rt_kmt_wake);
		init_waitqueue_head(&ch->wq);
		mutex_init(&ch->read_lock);
	}
}
