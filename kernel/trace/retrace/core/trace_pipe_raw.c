// SPDX-License-Identifier: GPL-2.0
/*
 * per_cpu/cpuN/trace_pipe_raw: a consuming reader of one CPU's ring
 * that hands out whole pages in the binary format of
 * <trace/retrace/raw_page.h>, as trace-cmd and libtracefs expect.
 *
 * Each open file owns one page.  A read packs records taken from the
 * ring into it until the next one does not fit, then copies the page
 * out; a short read leaves the rest of the page for the next read, so
 * the bytes a reader sees are always whole pages in sequence.  The
 * records are packed straight from the ring's pages and claimed a ring
 * page at a time (rt_buffer_consume_span(): one hold of the ring per
 * page handed out, one claim per ring page, no copy of each record in
 * between); if a writer overwrote them meanwhile, the packing goes back
 * to where the last claim left it.  A ring page's records are copied
 * as one run and only their headers rewritten (rt_raw_page_add_run());
 * the few the run cannot take (an absolute time, a time extend) go one
 * by one.  A record that does not fit stays in the ring and opens the
 * next page.  Records lost to overwriting (or
 * refused by a full ring) since the last page are reported in the next
 * page's commit word, counted from the ring's overrun and drop counters.
 *
 * Reading blocks until the CPU has a record (as trace_pipe does, woken
 * through core/pipe_wait.c), unless the file is O_NONBLOCK.  splice()
 * of whole 4 KiB pages packs each into a page it hands to the pipe,
 * with no copy, and the pipe gives it back when done
 * (raw_page_pool.c); anything else goes through read_iter
 * (copy_splice_read()).  With SPLICE_F_NONBLOCK an empty ring gives
 * EAGAIN instead of a wait.
 *
 * buffer_subbuf_size_kb chooses the size of the pages handed out, 4 KiB
 * times a power of two up to 512 KiB.  The ring's own pages stay 4 KiB:
 * only the packing here changes, so the largest record does not grow
 * (upstream's larger sub-buffers also take larger records), and the
 * records already in the ring are kept.  A reader takes the size when
 * it opens; while any trace_pipe_raw of the instance is open the size
 * cannot change (EBUSY), so header_page always describes what the open
 * readers hand out.  rt_instance.raw_subbuf_order is written under
 * rt_trace_lock (and read with or without it), .raw_readers is counted
 * under it.
 */
#include <linux/fs.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/splice.h>
#include <linux/tracefs.h>
#include <linux/uio.h>
#include <trace/retrace/raw_page.h>
#include "internal.h"

/**
 * struct rt_raw_reader - one open trace_pipe_raw
 * @tr: the instance, pinned while the file is open
 * @cpu: the CPU whose ring is read
 * @lock: serialises the file's readers
 * @size: bytes of a page, fixed at open (buffer_subbuf_size_kb)
 * @page: the page being handed out
 * @page_off: bytes of @page already read; @size when none are left
 * @lost_seen: the ring's overrun + dropped count last reported
 * @epoch: the ring's epoch when it was read; a new one (this CPU's ring
 *	reset, resized or swapped) means its counts start at the epoch's
 *	lost_base, not at @lost_seen
 * @pool: the pages splice() hands out come back here (raw_page_pool.c)
 */
struct rt_raw_reader {
	struct rt_instance	*tr;
	int			cpu;
	struct mutex		lock;
	unsigned int		size;
	u8			*page;
	unsigned int		page_off;
	u64			lost_seen;
	unsigned long		epoch;
	struct rt_raw_pool	*pool;
};

/* The CPU's lost count and the ring's epoch, without a record. */
static u64 rt_raw_lost(struct rt_raw_reader *r, unsigned long *epoch)
{
	struct rt_rb_batch_info info;

	rt_buffer_lost_info(r->tr->buffer, r->cpu, &info);
	*epoch = info.epoch;
	return info.lost;
}

static bool rt_raw_has_data(struct rt_raw_reader *r)
{
	return r->page_off < r->size ||
	       !rt_buffer_empty_cpu(r->tr->buffer, r->cpu);
}

/* Packing state of one fill: the page, and where the last claim left it. */
struct rt_raw_fill {
	struct rt_raw_page	p;
	struct rt_raw_page	kept;
};

/* A record where it lies in the ring: packed, or 1 if it does not fit. */
static int rt_raw_take(void *arg, u64 ts, const void *data, unsigned int len)
{
	struct rt_raw_fill *f = arg;

	/* Packed, or (-EINVAL) a length no page holds: dropped. */
	return rt_raw_page_add(&f->p, ts, data, len) == -ENOSPC;
}

/* A run of records as the ring holds them: packed in one copy. */
static unsigned int rt_raw_take_run(void *arg, const struct rt_rb_run *run,
				    unsigned int *bytes)
{
	struct rt_raw_fill *f = arg;

	return rt_raw_page_add_run(&f->p, run->base_ts, run->data, run->len,
				   run->max, bytes);
}

/* The records packed so far are claimed: keep them. */
static void rt_raw_keep(void *arg)
{
	struct rt_raw_fill *f = arg;

	f->kept = f->p;
}

/* They were overwritten before the claim: forget them. */
static void rt_raw_undo(void *arg)
{
	struct rt_raw_fill *f = arg;

	f->p = f->kept;
}

static const struct rt_rb_span_ops rt_raw_span_ops = {
	.take = rt_raw_take,
	.take_run = rt_raw_take_run,
	.keep = rt_raw_keep,
	.undo = rt_raw_undo,
};

/*
 * Pack a new page from the ring into @dst (r->size bytes); false when
 * there is nothing to pack.  Called with r->lock held.
 */
static bool rt_raw_pack(struct rt_raw_reader *r, u8 *dst)
{
	struct rt_raw_fill f;
	struct rt_rb_batch_info info;

	/* Any record fits in an empty page, so none is stuck in the ring. */
	BUILD_BUG_ON(RT_RB_MAX_PAYLOAD + 16 > RT_RAW_REC_SPACE);
	/*
	 * A span ends early, preemption being off, when another task
	 * wants the CPU: give it the CPU here, or every page after would
	 * stop after one ring page (no other point of this loop yields).
	 */
	cond_resched();
	rt_raw_page_start(&f.p, dst, r->size);
	f.kept = f.p;
	rt_buffer_consume_span(r->tr->buffer, r->cpu, &rt_raw_span_ops, &f,
			       &info);
	if (!f.p.nr)
		return false;
	/*
	 * This CPU's ring was reset, resized or swapped: count from where
	 * its new life began.  What the old one lost after our last look
	 * went with it.
	 */
	if (info.epoch != r->epoch)
		r->lost_seen = info.lost_base;
	rt_raw_page_finish(&f.p, info.lost - r->lost_seen);
	r->lost_seen = info.lost;
	r->epoch = info.epoch;
	return true;
}

/* Pack the file's own page, for read(); false when nothing was packed. */
static bool rt_raw_fill(struct rt_raw_reader *r)
{
	if (!rt_raw_pack(r, r->page))
		return false;
	r->page_off = 0;
	return true;
}

static bool rt_raw_ready(void *arg)
{
	struct rt_raw_reader *r = arg;

	return !rt_buffer_empty_cpu(r->tr->buffer, r->cpu);
}

/* Wait for a record on the reader's CPU: 0, or an errno. */
static int rt_raw_wait(struct rt_raw_reader *r, bool nonblock)
{
	bool deep = false;

	for (;;) {
		if (rt_raw_ready(r))
			return 0;
		if (nonblock) {
			/* The next record wakes a poll()er (pipe_wait.c). */
			rt_pipe_arm(r->tr);
			return rt_raw_ready(r) ? 0 : -EAGAIN;
		}
		if (signal_pending(current))
			return -EINTR;
		deep = rt_pipe_sleep(r->tr, rt_raw_ready, r, deep);
	}
}

/*
 * Take the file's lock: 0, -EAGAIN or -EINTR.  A reader of this file
 * may sleep holding it, waiting for a record: another reader of it
 * waits interruptibly, or not at all.
 */
static int rt_raw_lock(struct rt_raw_reader *r, bool nonblock)
{
	if (nonblock)
		return mutex_trylock(&r->lock) ? 0 : -EAGAIN;
	return mutex_lock_interruptible(&r->lock) ? -EINTR : 0;
}

static ssize_t rt_raw_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct rt_raw_reader *r = iocb->ki_filp->private_data;
	bool nonblock = (iocb->ki_filp->f_flags & O_NONBLOCK) ||
			(iocb->ki_flags & IOCB_NOWAIT);
	ssize_t done = 0;
	int ret;

	ret = rt_raw_lock(r, nonblock);
	if (ret)
		return ret;
	while (iov_iter_count(to)) {
		if (r->page_off < r->size) {
			size_t n = min_t(size_t, r->size - r->page_off,
					 iov_iter_count(to));
			size_t got = copy_to_iter(r->page + r->page_off, n, to);

			r->page_off += got;
			done += got;
			if (got < n) {
				if (!done)
					done = -EFAULT;
				break;
			}
			continue;
		}
		if (rt_raw_fill(r))
			continue;
		if (done)
			break;
		ret = rt_raw_wait(r, nonblock);
		if (ret) {
			done = ret;
			break;
		}
	}
	mutex_unlock(&r->lock);
	return done;
}

/* Pages one splice() call hands out at most (a default pipe's slots). */
#define RT_RAW_SPLICE_BATCH	16

/*
 * splice() of whole 4 KiB pages, packed straight into pages that the
 * pipe then owns: no copy of the packed page, no bvec to set up.  The
 * pages are the ones earlier calls handed out, back from the pipes
 * (raw_page_pool.c), and what is missing comes from one bulk
 * allocation: with the function tracer on, every page allocator call
 * the reader makes is also a record it must drain.  The caller holds
 * the pipe's lock, so its readers cannot go (do_splice() checked there
 * are some) and @len fits its free slots.
 * Returns bytes spliced, a multiple of the page size, or an errno.
 */
static ssize_t rt_raw_splice_pages(struct rt_raw_reader *r,
				   struct pipe_inode_info *pipe, size_t len,
				   bool nonblock)
{
	struct page *pages[RT_RAW_SPLICE_BATCH] = {};
	unsigned int want, got = 0, used = 0;
	unsigned int room = pipe->max_usage -
			    pipe_occupancy(pipe->head, pipe->tail);
	int ret = 0;

	want = min_t(size_t, len / PAGE_SIZE,
		     min_t(unsigned int, room, RT_RAW_SPLICE_BATCH));
	for (; got < want; got++) {
		pages[got] = rt_raw_pool_get_page(r->pool);
		if (!pages[got])
			break;
	}
	if (got < want)
		got += alloc_pages_bulk_array(GFP_USER, want - got,
					      pages + got);
	if (!got)
		return want ? -ENOMEM : -EAGAIN;
	while (used < got) {
		if (!rt_raw_pack(r, page_address(pages[used]))) {
			if (used)
				break;
			ret = rt_raw_wait(r, nonblock);
			if (ret)
				break;
			continue;
		}
		rt_raw_pool_to_pipe(r->pool, pipe, pages[used], PAGE_SIZE);
		used++;
	}
	while (got > used)
		rt_raw_pool_recycle(r->pool, pages[--got]);
	return used ? used * PAGE_SIZE : ret;
}

/*
 * Whole 4 KiB pages go straight into the pipe.  Larger pages (more
 * than one pipe slot each), a page a short read() left half read, and
 * a @len under one page go through read_iter (copy_splice_read()).
 * SPLICE_F_NONBLOCK, like O_NONBLOCK, gives EAGAIN for an empty ring.
 */
static ssize_t rt_raw_splice_read(struct file *in, loff_t *ppos,
				  struct pipe_inode_info *pipe, size_t len,
				  unsigned int flags)
{
	struct rt_raw_reader *r = in->private_data;
	bool nonblock = (in->f_flags & O_NONBLOCK) ||
			(flags & SPLICE_F_NONBLOCK);
	ssize_t ret;

	ret = rt_raw_lock(r, nonblock);
	if (ret)
		return ret;
	if (r->size == PAGE_SIZE && r->page_off == r->size &&
	    len >= PAGE_SIZE) {
		ret = rt_raw_splice_pages(r, pipe, len, nonblock);
		mutex_unlock(&r->lock);
		return ret;
	}
	/*
	 * read_iter waits unless the file is O_NONBLOCK: answer here, and
	 * arm the wakeup for a poll() to come, as the other path does.
	 */
	ret = nonblock && !rt_raw_has_data(r) ? rt_raw_wait(r, true) : 0;
	mutex_unlock(&r->lock);
	return ret ? ret : copy_splice_read(in, ppos, pipe, len, flags);
}

static __poll_t rt_raw_poll(struct file *file, poll_table *pt)
{
	struct rt_raw_reader *r = file->private_data;
	/* Unlocked: a stale answer costs one more poll round. */
	bool ready = READ_ONCE(r->page_off) < r->size || rt_raw_ready(r);

	rt_pipe_poll_wait(r->tr, file, pt, !ready);
	if (!ready)
		ready = rt_raw_ready(r);
	return ready ? EPOLLIN | EPOLLRDNORM : 0;
}

/*
 * Release what rt_raw_open() took: the pool, the page, the count, the
 * instance.
 */
static void rt_raw_reader_free(struct rt_instance *tr, struct rt_raw_reader *r)
{
	/* Pages still in pipes keep the pool until they come back. */
	rt_raw_pool_close(r->pool);
	kvfree(r->page);
	kfree(r);
	mutex_lock(&rt_trace_lock);
	tr->raw_readers--;
	mutex_unlock(&rt_trace_lock);
	rt_instance_put(tr);
}

static int rt_raw_open(struct inode *inode, struct file *file)
{
	struct rt_instance *tr = inode->i_private;
	int cpu = rt_file_cpu(file), ret;
	struct rt_raw_reader *r;

	if (cpu < 0)
		return -ENODEV;
	ret = rt_file_lockdown();
	if (!ret)
		ret = rt_instance_get(tr);
	if (ret)
		return ret;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r) {
		rt_instance_put(tr);
		return -ENOMEM;
	}
	/* Counted as the size is read: no change slips in between. */
	mutex_lock(&rt_trace_lock);
	tr->raw_readers++;
	r->size = rt_raw_subbuf_size(tr);
	mutex_unlock(&rt_trace_lock);
	r->page = kvmalloc(r->size, GFP_KERNEL);
	r->pool = rt_raw_pool_new();
	if (!r->page || !r->pool) {
		rt_raw_reader_free(tr, r);
		return -ENOMEM;
	}
	r->tr = tr;
	r->cpu = cpu;
	r->page_off = r->size;
	mutex_init(&r->lock);
	/* Losses before the open are not this reader's to report. */
	r->lost_seen = rt_raw_lost(r, &r->epoch);
	file->private_data = r;
	return nonseekable_open(inode, file);
}

static int rt_raw_release(struct inode *inode, struct file *file)
{
	rt_raw_reader_free(inode->i_private, file->private_data);
	return 0;
}

static const struct file_operations rt_raw_fops = {
	.open		= rt_raw_open,
	.read_iter	= rt_raw_read_iter,
	.splice_read	= rt_raw_splice_read,
	.poll		= rt_raw_poll,
	.release	= rt_raw_release,
	.llseek		= noop_llseek,
};

/**
 * rt_raw_subbuf_size - bytes of the pages trace_pipe_raw hands out
 * @tr: the instance
 *
 * For events/header_page and buffer_subbuf_size_kb; any context, no
 * lock (the order is one word, written under rt_trace_lock).
 *
 * Return: RT_RAW_PAGE_SIZE << the instance's buffer_subbuf_size_kb order.
 */
unsigned int rt_raw_subbuf_size(struct rt_instance *tr)
{
	return RT_RAW_PAGE_SIZE << READ_ONCE(tr->raw_subbuf_order);
}
EXPORT_SYMBOL_GPL(rt_raw_subbuf_size);

/* buffer_subbuf_size_kb: the page size in KiB. */
static int rt_subbuf_size_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%u\n", rt_raw_subbuf_size(m->private) >> 10);
	return 0;
}

/*
 * A size in KiB, rounded up to 4 KiB times a power of two; 0 or more
 * than 512 is EINVAL.  EBUSY while a trace_pipe_raw of the instance is
 * open (it packs pages of the old size).
 */
static ssize_t rt_subbuf_size_write(struct file *file,
				    const char __user *ubuf, size_t cnt,
				    loff_t *ppos)
{
	struct seq_file *m = file->private_data;
	struct rt_instance *tr = m->private;
	unsigned long kb, pages;
	unsigned int order;
	int ret = kstrtoul_from_user(ubuf, cnt, 10, &kb);

	if (ret)
		return ret;
	if (!kb || kb > (RT_RAW_PAGE_SIZE << RT_RAW_MAX_ORDER) >> 10)
		return -EINVAL;
	pages = DIV_ROUND_UP(kb << 10, RT_RAW_PAGE_SIZE);
	order = order_base_2(pages);
	mutex_lock(&rt_trace_lock);
	if (order != tr->raw_subbuf_order && tr->raw_readers)
		ret = -EBUSY;
	else
		WRITE_ONCE(tr->raw_subbuf_order, order);
	mutex_unlock(&rt_trace_lock);
	return ret ? ret : cnt;
}

RT_TR_SEQ_FOPS(rt_subbuf_size, rt_subbuf_size_write);

/* buffer_subbuf_size_kb of @tr, in its directory. */
void rt_create_subbuf_file(struct rt_instance *tr)
{
	tracefs_create_file("buffer_subbuf_size_kb", 0644, tr->dir, tr,
			    &rt_subbuf_size_fops);
}

/* per_cpu/cpuN/trace_pipe_raw of @tr, in the directory @cpu_dir. */
void rt_create_raw_file(struct rt_instance *tr, struct dentry *cpu_dir)
{
	tracefs_create_file("trace_pipe_raw", 0444, cpu_dir, tr, &rt_raw_fops);
}
