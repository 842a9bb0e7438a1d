// SPDX-License-Identifier: GPL-2.0
/*
 * retrace ring buffer: lock-free per-CPU record storage.
 *
 * Each CPU owns a ring of pages.  Pages are named by a page id that
 * only grows; page id P lives in slot P % nr_pages.  Three cursors, each
 * one machine word, describe a CPU's buffer:
 *
 *   wpos	where the next record is reserved.  Written only by
 *		writers on the owning CPU (task, softirq, irq, NMI nested in
 *		each other), always by local cmpxchg, so a reservation and
 *		the choice of page are one atomic step.
 *   commit_pos	how far readers may look.  Written only by the outermost
 *		writer on the owning CPU when it commits (store-release);
 *		everything before it is complete.
 *   read_pos	the oldest record not yet consumed.  Moved by consuming
 *		readers and by writers that overwrite unread pages, always
 *		by a full cmpxchg: whoever wins owns the records it skips,
 *		which makes the overrun/read accounting exact.
 *
 * A cursor packs (page id, records in that page before it, byte offset
 * in the page's data area); see RB_POS().  The design and its
 * invariants are written down in Documentation/trace/ring-buffer-design.txt.
 */
#ifdef RETRACE_HOST
#include "rb_host_shim.h"
#else
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/export.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/rwsem.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/topology.h>
#include <asm/local.h>
#include <trace/retrace/ipset.h>
#endif
#include <trace/retrace/ring_buffer.h>
#include <trace/retrace/rb_record.h>

#ifndef RETRACE_HOST
/* The host tests supply their own, which they can steer. */
static __always_inline u64 rb_clock_local(void)
{
	return rt_clock_local();
}
#endif

/*
 * The other clocks a buffer may stamp with (rt_buffer_set_clock()).
 *
 * rb_clock_last is the largest "global" stamp handed out so far, on
 * any CPU.  Any writer, in any context (NMI included), advances it by
 * cmpxchg and never lowers it; a writer whose local clock is behind it
 * stamps with it instead.  A stamp taken after another CPU's (after its
 * cmpxchg, in the variable's coherence order) is therefore never
 * smaller: records of different CPUs sort by time, at the price of one
 * shared cache line per record.
 *
 * rb_clock_count is the "counter" clock: every stamp on any CPU is one
 * more than the one before, an order rather than a time.
 */
static atomic64_t rb_clock_last;
static atomic64_t rb_clock_count;

static __always_inline u64 rb_clock_global(void)
{
	s64 now = rb_clock_local();
	s64 last = raw_atomic64_read(&rb_clock_last);

	do {
		if (now <= last)
			return last;
	} while (!raw_atomic64_try_cmpxchg(&rb_clock_last, &last, now));
	return now;
}

static __always_inline u64 rb_clock(unsigned int clock)
{
	if (likely(clock == RT_RB_CLOCK_LOCAL))
		return rb_clock_local();
	if (clock == RT_RB_CLOCK_GLOBAL)
		return rb_clock_global();
	return raw_atomic64_inc_return(&rb_clock_count);
}

/*
 * Page layout: a small header, then the data area holding records.
 * The header fields other than id are written once per use of the page
 * by the writer that enters or leaves it, before commit_pos publishes
 * them; readers trust them only for pages behind commit_pos.
 */
struct rb_page {
	u64		base_ts;	/* time base of delta-stamped records */
	local_t		id;		/* page id in this slot; raised
					 * before new data lands
					 */
	u32		size;		/* bytes used, set when the page is left */
	u32		entries;	/* records, set when the page is left */
	u8		data[];
};

#define RB_DATA_SIZE	(PAGE_SIZE - sizeof(struct rb_page))

/* Cursor packing: page id | records in page | byte offset. */
#define RB_OFF_BITS	12
#define RB_N_BITS	12
#define RB_N_SHIFT	RB_OFF_BITS
#define RB_PAGE_SHIFT	(RB_OFF_BITS + RB_N_BITS)
#define RB_POS(pg, n, off) \
	(((unsigned long)(pg) << RB_PAGE_SHIFT) | \
	 ((unsigned long)(n) << RB_N_SHIFT) | (unsigned long)(off))
#define RB_POS_PAGE(p)	((p) >> RB_PAGE_SHIFT)
#define RB_POS_N(p)	(((p) >> RB_N_SHIFT) & ((1UL << RB_N_BITS) - 1))
#define RB_POS_OFF(p)	((p) & ((1UL << RB_OFF_BITS) - 1))
/* Two cursors point at the same record when page and offset agree. */
#define RB_POS_SAME(a, b) \
	((((a) ^ (b)) & ~(((1UL << RB_N_BITS) - 1) << RB_N_SHIFT)) == 0)
/* Cursor @a is at or past cursor @b (page, then offset). */
#define RB_POS_REACHED(a, b) \
	(RB_POS_PAGE(a) > RB_POS_PAGE(b) || \
	 (RB_POS_PAGE(a) == RB_POS_PAGE(b) && RB_POS_OFF(a) >= RB_POS_OFF(b)))

/* The record encoding is in <trace/retrace/rb_record.h>. */

/*
 * Per-CPU state.  The first group is the writer's and is touched only
 * from the owning CPU; read_pos and the reader's counters live on their
 * own cache line because other CPUs write them.
 */
struct rb_cpu {
	local_t		wpos;		/* next reservation (writer) */
	local_t		nesting;	/* writers in flight on this CPU */
	unsigned long	commit_pos;	/* published end (outermost writer) */
	unsigned long	base_page;	/* page whose base_ts is base_ts */
	u64		base_ts;	/* copy of that page's base_ts */
	u8		*base_data;	/* and its data: no slot lookup */
	local_t		written;
	local_t		dropped;
	local_t		commit_overrun;	/* of dropped: an interrupted
					 * writer still held the page
					 */
	local_t		overwritten;
	unsigned long	nr_pages;
	struct rb_page	**pages;
	/*
	 * Who reads these rings' loss counts needs to know when the ring
	 * under a CPU became another one.  @epoch is unique to one
	 * life of a ring: a fresh value from rb_epochs at every
	 * rb_cpu_init_state() and for both rings of a swap.  @lost_base is
	 * overwritten + dropped when the epoch began (0 after an init):
	 * losses before it belong to another time.  Both are written only
	 * with the buffer's readers held exclusive and writers held off,
	 * and read by a consumer holding the ring (rb_reader_lock()).
	 */
	unsigned long	epoch;
	u64		lost_base;

	atomic_long_t	read_pos ____cacheline_aligned_in_smp;
	atomic_long_t	read;
	/*
	 * 1 while a consumer holds this ring (rb_reader_lock()), 0 else:
	 * one consumer of a CPU at a time, each with preemption off.
	 */
	atomic_t	consumer;
	/* Freed after a grace period: rt_buffer_peek_current() reads it bare. */
	struct rcu_head	rcu;
};

/**
 * struct rt_buffer - a set of per-CPU rings
 * @cpus: per-CPU state, indexed by CPU number.  An entry changes in two
 *	ways.  rt_buffer_swap_cpu() changes it on its own CPU, in an IPI,
 *	while no writer is in flight there; a writer that read the old
 *	entry just before sees the change when it checks again after
 *	raising the ring's nesting (rt_buffer_reserve()).  rt_buffer_swap()
 *	changes every entry from the calling CPU, but only once
 *	@record_disabled is raised and rt_wait_preempt_readers() has seen
 *	every writer in flight finish, so no writer holds an entry then
 * @nr_pages: pages in each CPU's ring, or 0 when the CPUs' rings
 *	differ in size (rt_buffer_resize_cpu()); written under @readers
 *	held exclusive
 * @record_disabled: writers refuse records while this is non-zero
 * @overwrite: on a full ring, overwrite the oldest page (true) or drop
 * @readers: held shared by iterator steps and by consumers that found
 *	@restructuring raised, exclusive by reset, resize and swaps, which
 *	rewrite or free what readers look at
 * @restructuring: raised by those for their whole duration; all but
 *	rt_buffer_swap_cpu() then wait for the consumers that take no lock
 *	(rb_reader_lock()), which it shuts out with their rings' words
 * @generation: bumped by reset and resize so iterators start over
 * @clock: enum rt_rb_clock, what writers stamp with; changed only by
 *	rt_buffer_set_clock() while writers are held off
 */
struct rt_buffer {
	struct rb_cpu	**cpus;
	unsigned long	nr_pages;
	atomic_t	record_disabled;
	bool		overwrite;
	u8		clock;
	struct rw_semaphore readers;
	atomic_t	restructuring;
	unsigned long	generation;
};

static inline struct rb_page *rb_slot(struct rb_cpu *c, unsigned long page)
{
	return c->pages[page % c->nr_pages];
}

static unsigned long rb_pages_for(unsigned long bytes)
{
	unsigned long n = DIV_ROUND_UP(bytes, RB_DATA_SIZE);

	return n < 2 ? 2 : n;
}

/* ---------------------------------------------------------------- */
/* Allocation                                                       */

/* Source of rb_cpu.epoch values: never two rings' lives alike. */
static atomic_long_t rb_epochs;

/* Start a new life of @c's ring for loss readers (see rb_cpu.epoch). */
static void rb_cpu_new_epoch(struct rb_cpu *c)
{
	WRITE_ONCE(c->epoch, atomic_long_inc_return(&rb_epochs));
	c->lost_base = local_read(&c->overwritten) + local_read(&c->dropped);
}

static void rb_cpu_init_state(struct rb_cpu *c)
{
	unsigned long i;

	/*
	 * The new life first: rt_buffer_peek_current() reads read_pos then
	 * epoch, so a read_pos reset below is never seen with the old one.
	 * Its lost_base is 0, set with the counters below.
	 */
	WRITE_ONCE(c->epoch, atomic_long_inc_return(&rb_epochs));
	/* Pairs with the smp_rmb() in rt_buffer_peek_current(). */
	smp_wmb();

	/*
	 * Slot i holds page i.  Page 0 has base_ts 0, so its records carry
	 * absolute stamps until the first page change sets a real base.
	 */
	for (i = 0; i < c->nr_pages; i++) {
		local_set(&c->pages[i]->id, i);
		c->pages[i]->base_ts = 0;
		c->pages[i]->size = 0;
		c->pages[i]->entries = 0;
	}
	local_set(&c->wpos, RB_POS(0, 0, 0));
	local_set(&c->nesting, 0);
	c->commit_pos = RB_POS(0, 0, 0);
	c->base_page = 0;
	c->base_ts = 0;
	c->base_data = c->pages[0]->data;
	local_set(&c->written, 0);
	local_set(&c->dropped, 0);
	local_set(&c->commit_overrun, 0);
	local_set(&c->overwritten, 0);
	atomic_long_set(&c->read_pos, RB_POS(0, 0, 0));
	atomic_long_set(&c->read, 0);
	c->lost_base = 0;
}

static void rb_free_pages(struct rb_page **pages, unsigned long nr)
{
	unsigned long i;

	if (!pages)
		return;
	for (i = 0; i < nr; i++)
		if (pages[i])
			free_page((unsigned long)pages[i]);
	kfree(pages);
}

static struct rb_page **rb_alloc_pages(int cpu, unsigned long nr)
{
	struct rb_page **pages;
	unsigned long i;

	pages = kcalloc(nr, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return NULL;
	for (i = 0; i < nr; i++) {
		struct page *pg;

		pg = alloc_pages_node(cpu_to_node(cpu), GFP_KERNEL |
				      __GFP_RETRY_MAYFAIL | __GFP_NOWARN, 0);
		if (!pg) {
			rb_free_pages(pages, nr);
			return NULL;
		}
		pages[i] = page_address(pg);
	}
	return pages;
}

/**
 * rt_buffer_alloc - allocate a ring buffer with one ring per possible CPU
 * @bytes_per_cpu: data capacity wanted per CPU (rounded up to pages)
 * @overwrite: overwrite the oldest data when full, instead of dropping
 *
 * Return: the buffer, or NULL when memory is short.
 */
struct rt_buffer *rt_buffer_alloc(unsigned long bytes_per_cpu, bool overwrite)
{
	struct rt_buffer *buf;
	int cpu;

	BUILD_BUG_ON(RB_DATA_SIZE >= (1UL << RB_OFF_BITS));
	BUILD_BUG_ON(RB_DATA_SIZE / 8 >= (1UL << RB_N_BITS));
	BUILD_BUG_ON(RT_RB_MAX_PAYLOAD + 8 + RT_RB_ABS_LEN > RB_DATA_SIZE);

	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return NULL;
	buf->cpus = kcalloc(nr_cpu_ids, sizeof(*buf->cpus), GFP_KERNEL);
	if (!buf->cpus)
		goto fail;
	buf->nr_pages = rb_pages_for(bytes_per_cpu);
	buf->overwrite = overwrite;
	init_rwsem(&buf->readers);
	atomic_set(&buf->record_disabled, 0);

	for_each_possible_cpu(cpu) {
		struct rb_cpu *c;

		c = kzalloc_node(sizeof(*c), GFP_KERNEL, cpu_to_node(cpu));
		if (!c)
			goto fail;
		buf->cpus[cpu] = c;
		c->nr_pages = buf->nr_pages;
		c->pages = rb_alloc_pages(cpu, c->nr_pages);
		if (!c->pages)
			goto fail;
		rb_cpu_init_state(c);
	}
	return buf;
fail:
	rt_buffer_free(buf);
	return NULL;
}
EXPORT_SYMBOL_GPL(rt_buffer_alloc);

/**
 * rt_buffer_free - free a buffer; no writer or reader may still use it
 * @buf: the buffer (NULL is allowed)
 */
void rt_buffer_free(struct rt_buffer *buf)
{
	int cpu;

	if (!buf)
		return;
	if (buf->cpus) {
		for_each_possible_cpu(cpu) {
			struct rb_cpu *c = buf->cpus[cpu];

			if (!c)
				continue;
			rb_free_pages(c->pages, c->nr_pages);
			kfree_rcu(c, rcu);
		}
		kfree(buf->cpus);
	}
	kfree(buf);
}
EXPORT_SYMBOL_GPL(rt_buffer_free);

/**
 * rt_buffer_size - data capacity of each CPU's ring, in bytes
 * @buf: the buffer
 *
 * Return: pages per CPU times the data bytes of one page, or 0 when
 * the CPUs' rings differ in size.
 */
unsigned long rt_buffer_size(struct rt_buffer *buf)
{
	return READ_ONCE(buf->nr_pages) * RB_DATA_SIZE;
}
EXPORT_SYMBOL_GPL(rt_buffer_size);

/**
 * rt_buffer_size_cpu - data capacity of one CPU's ring, in bytes
 * @buf: the buffer
 * @cpu: a possible CPU
 *
 * Return: that ring's pages times the data bytes of one page; 0 for a
 * CPU that has no ring.
 */
unsigned long rt_buffer_size_cpu(struct rt_buffer *buf, int cpu)
{
	if (cpu < 0 || cpu >= nr_cpu_ids || !buf->cpus[cpu])
		return 0;
	return READ_ONCE(buf->cpus[cpu]->nr_pages) * RB_DATA_SIZE;
}
EXPORT_SYMBOL_GPL(rt_buffer_size_cpu);

/**
 * rt_buffer_record_disable - make writers refuse new records
 * @buf: the buffer
 *
 * Nests with rt_buffer_record_enable().  Writers already past the check
 * finish; callers that need them gone wait with
 * rt_wait_preempt_readers(), since writers run with preemption disabled
 * (RCU may not be watching them, so synchronize_rcu() is not enough).
 */
void rt_buffer_record_disable(struct rt_buffer *buf)
{
	atomic_inc(&buf->record_disabled);
}
EXPORT_SYMBOL_GPL(rt_buffer_record_disable);

/**
 * rt_buffer_record_enable - undo one rt_buffer_record_disable()
 * @buf: the buffer
 */
void rt_buffer_record_enable(struct rt_buffer *buf)
{
	atomic_dec(&buf->record_disabled);
}
EXPORT_SYMBOL_GPL(rt_buffer_record_enable);

/*
 * Begin changing what readers look at: new consumers go the slow way,
 * those in flight without a lock are waited for (with the writers in
 * flight, for callers that held them off first), then the slow ones
 * and iterators are shut out.  The full barrier orders the count
 * before the wait, as a grace period's start.
 */
static void rb_restructure_begin(struct rt_buffer *buf)
{
	atomic_inc(&buf->restructuring);
	/* The count before the wait: see rb_reader_lock(). */
	smp_mb__after_atomic();
	rt_wait_preempt_readers();
	down_write(&buf->readers);
}

/* Raise both swap partners' counts, ordered before what follows. */
static void rb_restructuring_raise2(struct rt_buffer *a, struct rt_buffer *b)
{
	atomic_inc(&a->restructuring);
	atomic_inc(&b->restructuring);
	/* The counts before the wait or the IPI: see rb_reader_lock(). */
	smp_mb__after_atomic();
}

/* Lower them once the swap is done: see rb_restructure_end(). */
static void rb_restructuring_lower2(struct rt_buffer *a, struct rt_buffer *b)
{
	/* Changes before the counts: pairs with rb_reader_lock()'s acquire. */
	smp_mb__before_atomic();
	atomic_dec(&b->restructuring);
	atomic_dec(&a->restructuring);
}

static void rb_restructure_end(struct rt_buffer *buf)
{
	up_write(&buf->readers);
	/* Changes before the count: pairs with rb_reader_lock()'s acquire. */
	smp_mb__before_atomic();
	atomic_dec(&buf->restructuring);
}

/**
 * rt_buffer_reset - drop every record and zero the accounting
 * @buf: the buffer
 *
 * May sleep.  Writers are held off for the duration.
 */
void rt_buffer_reset(struct rt_buffer *buf)
{
	int cpu;

	rt_buffer_record_disable(buf);
	rb_restructure_begin(buf);
	for_each_possible_cpu(cpu)
		rb_cpu_init_state(buf->cpus[cpu]);
	buf->generation++;
	rb_restructure_end(buf);
	rt_buffer_record_enable(buf);
}
EXPORT_SYMBOL_GPL(rt_buffer_reset);

/**
 * rt_buffer_set_clock - choose what the buffer's records are stamped with
 * @buf: the buffer
 * @clock: an enum rt_rb_clock
 *
 * Stamps of different clocks do not compare, so the buffer is emptied
 * (as by rt_buffer_reset()) and the clock changed while writers are
 * held off: no record of the old clock is left, and none is written
 * with it after.  May sleep.
 *
 * Return: 0, or -EINVAL for an unknown clock.
 */
int rt_buffer_set_clock(struct rt_buffer *buf, unsigned int clock)
{
	int cpu;

	if (clock >= RT_RB_NR_CLOCKS)
		return -EINVAL;
	rt_buffer_record_disable(buf);
	rb_restructure_begin(buf);
	for_each_possible_cpu(cpu)
		rb_cpu_init_state(buf->cpus[cpu]);
	WRITE_ONCE(buf->clock, clock);
	buf->generation++;
	rb_restructure_end(buf);
	rt_buffer_record_enable(buf);
	return 0;
}
EXPORT_SYMBOL_GPL(rt_buffer_set_clock);

/**
 * rt_buffer_clock - the clock the buffer stamps with
 * @buf: the buffer
 *
 * Return: an enum rt_rb_clock.
 */
unsigned int rt_buffer_clock(struct rt_buffer *buf)
{
	return READ_ONCE(buf->clock);
}
EXPORT_SYMBOL_GPL(rt_buffer_clock);

/* Exchange @cpu's rings of @a and @b, with no writer in flight on either. */
static void rb_exchange_cpu(struct rt_buffer *a, struct rt_buffer *b, int cpu)
{
	struct rb_cpu *ca = a->cpus[cpu], *cb = b->cpus[cpu];

	WRITE_ONCE(a->cpus[cpu], cb);
	WRITE_ONCE(b->cpus[cpu], ca);
	/* Each ring's losses so far belong to its old place. */
	rb_cpu_new_epoch(ca);
	rb_cpu_new_epoch(cb);
}

/**
 * rt_buffer_swap - exchange every CPU's ring between two buffers
 * @a: a buffer
 * @b: another buffer, each of whose rings has the size of @a's
 *
 * rt_buffer_swap_cpu() for all CPUs at once, with one wait for the
 * writers in flight: no record is written while the rings change
 * places, so the two buffers split the records at one point in time.
 * This is how the snapshot file takes a snapshot (core/snapshot.c).
 * Every ring is checked for its partner's size first, so either all
 * of them change places or none does.  May sleep.
 *
 * Return: 0, or -EINVAL (nothing moved) if any two rings differ in
 * size.
 */
int rt_buffer_swap(struct rt_buffer *a, struct rt_buffer *b)
{
	int cpu, ret = 0;

	if (a == b)
		return -EINVAL;
	rt_buffer_record_disable(a);
	rt_buffer_record_disable(b);
	/* rb_restructure_begin() of both, with one wait. */
	rb_restructuring_raise2(a, b);
	rt_wait_preempt_readers();
	down_write(&a->readers);
	down_write_nested(&b->readers, SINGLE_DEPTH_NESTING);
	for_each_possible_cpu(cpu) {
		if (a->cpus[cpu]->nr_pages != b->cpus[cpu]->nr_pages) {
			ret = -EINVAL;
			goto out;
		}
	}
	for_each_possible_cpu(cpu)
		rb_exchange_cpu(a, b, cpu);
	/* Equal rings moved: each buffer's common size (nr_pages) holds. */
	a->generation++;
	b->generation++;
out:
	up_write(&b->readers);
	up_write(&a->readers);
	rb_restructuring_lower2(a, b);
	rt_buffer_record_enable(b);
	rt_buffer_record_enable(a);
	return ret;
}
EXPORT_SYMBOL_GPL(rt_buffer_swap);

/* Take a ring's consumer word if it is free; see rb_reader_lock(). */
static bool rb_consumer_trylock(struct rb_cpu *c)
{
	return !atomic_read(&c->consumer) &&
	       !atomic_cmpxchg_acquire(&c->consumer, 0, 1);
}

static void rb_consumer_unlock(struct rb_cpu *c)
{
	atomic_set_release(&c->consumer, 0);
}

struct rb_swap_req {
	struct rt_buffer	*a, *b;
	int			cpu;
	int			ret;
	call_single_data_t	csd;
	struct completion	done;
};

/*
 * Exchange req->cpu's rings, on that CPU with interrupts off (an IPI),
 * or in the caller for an offline CPU, where no writer runs.  Writers
 * on a CPU only ever write its own ring, and each holds the ring's
 * nesting raised from before it chooses a place to after it commits:
 * with both nestings 0 no writer is in flight on either ring, and none
 * can start until this returns, but in an NMI.  An NMI writer runs to
 * its commit inside us, on whichever ring the entry held when it came.
 */
static void rb_swap_here(void *arg)
{
	struct rb_swap_req *req = arg;
	struct rb_cpu *ca = req->a->cpus[req->cpu];
	struct rb_cpu *cb = req->b->cpus[req->cpu];

	req->ret = -EBUSY;	/* interrupted a writer or a consumer: again */
	if (local_read(&ca->nesting) || local_read(&cb->nesting))
		goto out;
	/*
	 * Consumers take no buffer lock (rb_reader_lock()): hold both
	 * rings as one would, so none is inside either, and the next one
	 * in sees the rings moved when it looks again under its word.
	 */
	if (!rb_consumer_trylock(ca))
		goto out;
	if (rb_consumer_trylock(cb)) {
		rb_exchange_cpu(req->a, req->b, req->cpu);
		req->ret = 0;
		rb_consumer_unlock(cb);
	}
	rb_consumer_unlock(ca);
out:
	complete(&req->done);
}

/* How often a swap that found a writer or consumer in it is tried again. */
#define RB_SWAP_TRIES	1000

/**
 * rt_buffer_swap_cpu - exchange one CPU's ring between two buffers
 * @a: a buffer
 * @b: another buffer, whose ring for @cpu has the size of @a's
 * @cpu: the CPU whose rings change places
 *
 * What @a held for @cpu is then @b's, records, counters and all, and
 * the other way round; the other CPUs are untouched, and their writers
 * never wait.  The exchange runs on @cpu itself, in an IPI, at a moment
 * when no writer is in flight there (tried again, up to
 * RB_SWAP_TRIES times, when the IPI interrupted one), so no record is
 * refused for it.  The caller sleeps while the IPI waits for @cpu to
 * enable interrupts.  Iterators are excluded through both buffers'
 * @readers, taken in the order @a, @b, and start over; consumers
 * through the two rings' consumer words, which the IPI takes (tried
 * again, as for a writer, when one is held).  Both buffers'
 * restructuring counts are raised meanwhile, so a consumer that starts
 * then waits on @readers instead, but no CPU is waited for.
 * This is how a latency tracer keeps the ring that holds its longest
 * section (core/max.c).  May sleep.
 *
 * Return: 0, -EINVAL if the two rings differ in size or @a is @b, or
 * -EBUSY if a writer or a consumer was in flight at every try.
 */
int rt_buffer_swap_cpu(struct rt_buffer *a, struct rt_buffer *b, int cpu)
{
	struct rb_swap_req req = { .a = a, .b = b, .cpu = cpu };
	int tries = 0;

	if (a == b || cpu < 0 || cpu >= nr_cpu_ids)
		return -EINVAL;
	/*
	 * New consumers go the slow way and wait on @readers, so only
	 * those already in a step can make the IPI refuse; no wait here.
	 */
	rb_restructuring_raise2(a, b);
	down_write(&a->readers);
	down_write_nested(&b->readers, SINGLE_DEPTH_NESTING);
	if (a->cpus[cpu]->nr_pages != b->cpus[cpu]->nr_pages) {
		req.ret = -EINVAL;
		goto out;
	}
	/* @cpu stays online or offline until the exchange is done. */
	cpus_read_lock();
	do {
		if (tries)
			cond_resched();
		init_completion(&req.done);
		INIT_CSD(&req.csd, rb_swap_here, &req);
		/*
		 * -ENXIO: offline, so no writer runs there.  Preemption off
		 * as in an IPI: a consumer that preempted us here would spin
		 * on a word we hold.
		 */
		if (smp_call_function_single_async(cpu, &req.csd)) {
			preempt_disable();
			rb_swap_here(&req);
			preempt_enable();
		}
		wait_for_completion(&req.done);
	} while (req.ret == -EBUSY && ++tries < RB_SWAP_TRIES);
	cpus_read_unlock();
	if (!req.ret) {
		a->generation++;
		b->generation++;
	}
out:
	up_write(&b->readers);
	up_write(&a->readers);
	rb_restructuring_lower2(a, b);
	return req.ret;
}
EXPORT_SYMBOL_GPL(rt_buffer_swap_cpu);

/**
 * rt_buffer_ring_id - name the ring that holds @cpu's records in @buf now
 * @buf: the buffer
 * @cpu: the CPU
 *
 * Swaps move rings between buffers whole; the name moves with its ring,
 * so a caller that noted it can later find which buffer holds those
 * records.  Two rings that exist at once never share a name.  Read on
 * @cpu with interrupts off, the answer cannot race with a swap of that
 * CPU (rt_buffer_swap_cpu() runs there in an IPI).
 *
 * Return: the ring's name, never 0.
 */
unsigned long rt_buffer_ring_id(struct rt_buffer *buf, int cpu)
{
	return (unsigned long)READ_ONCE(buf->cpus[cpu]);
}
EXPORT_SYMBOL_GPL(rt_buffer_ring_id);


/*
 * Give @only's ring (every CPU's when @only < 0) @nr pages.  All new
 * pages are allocated before anything changes, so on failure the old
 * rings stay as they were.  The resized rings' contents are discarded.
 */
static int rb_resize(struct rt_buffer *buf, int only, unsigned long nr)
{
	unsigned long common = nr;
	struct rb_page ***fresh;
	int cpu, ret = 0;

	fresh = kcalloc(nr_cpu_ids, sizeof(*fresh), GFP_KERNEL);
	if (!fresh)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		if (only >= 0 && cpu != only)
			continue;
		fresh[cpu] = rb_alloc_pages(cpu, nr);
		if (!fresh[cpu]) {
			ret = -ENOMEM;
			goto out;
		}
	}

	rt_buffer_record_disable(buf);
	rb_restructure_begin(buf);
	for_each_possible_cpu(cpu) {
		struct rb_cpu *c = buf->cpus[cpu];
		struct rb_page **old = c->pages;
		unsigned long old_nr = c->nr_pages;

		if (!fresh[cpu]) {
			if (c->nr_pages != nr)
				common = 0;
			continue;
		}
		WRITE_ONCE(c->nr_pages, nr);
		c->pages = fresh[cpu];
		fresh[cpu] = NULL;
		rb_cpu_init_state(c);
		rb_free_pages(old, old_nr);
	}
	WRITE_ONCE(buf->nr_pages, common);
	buf->generation++;
	rb_restructure_end(buf);
	rt_buffer_record_enable(buf);
out:
	for_each_possible_cpu(cpu)
		rb_free_pages(fresh[cpu], nr);
	kfree(fresh);
	return ret;
}

/**
 * rt_buffer_resize - change the capacity of every CPU's ring
 * @buf: the buffer
 * @bytes_per_cpu: new data capacity per CPU
 *
 * All new pages are allocated before anything changes, so on failure
 * the old rings stay as they were.  The contents are discarded.
 *
 * Return: 0, or -ENOMEM.
 */
int rt_buffer_resize(struct rt_buffer *buf, unsigned long bytes_per_cpu)
{
	return rb_resize(buf, -1, rb_pages_for(bytes_per_cpu));
}
EXPORT_SYMBOL_GPL(rt_buffer_resize);

/**
 * rt_buffer_resize_cpu - change the capacity of one CPU's ring
 * @buf: the buffer
 * @cpu: a possible CPU
 * @bytes: its ring's new data capacity
 *
 * As rt_buffer_resize(), for @cpu alone: only that ring's contents are
 * discarded.  rt_buffer_size() reads 0 while the rings differ.
 *
 * Return: 0, -EINVAL for a CPU that has no ring, or -ENOMEM.
 */
int rt_buffer_resize_cpu(struct rt_buffer *buf, int cpu, unsigned long bytes)
{
	if (cpu < 0 || cpu >= nr_cpu_ids || !buf->cpus[cpu])
		return -EINVAL;
	return rb_resize(buf, cpu, rb_pages_for(bytes));
}
EXPORT_SYMBOL_GPL(rt_buffer_resize_cpu);

/**
 * rt_buffer_set_overwrite - choose what a full ring does
 * @buf: the buffer
 * @overwrite: true to overwrite the oldest page, false to drop new records
 *
 * Takes effect at the next page change on each CPU.
 */
void rt_buffer_set_overwrite(struct rt_buffer *buf, bool overwrite)
{
	WRITE_ONCE(buf->overwrite, overwrite);
}
EXPORT_SYMBOL_GPL(rt_buffer_set_overwrite);

/**
 * rt_buffer_overwrite - report the full-ring policy
 * @buf: the buffer
 *
 * Return: true when the oldest data is overwritten.
 */
bool rt_buffer_overwrite(struct rt_buffer *buf)
{
	return READ_ONCE(buf->overwrite);
}
EXPORT_SYMBOL_GPL(rt_buffer_overwrite);

/* ---------------------------------------------------------------- */
/* Writer side                                                      */

/*
 * Count the records of page @old, which the writer is about to reuse,
 * as overwritten, and move read_pos past it.  Idempotent: once read_pos
 * is beyond @old there is nothing to do.  The cmpxchg decides between
 * this writer and a consuming reader racing for the same records.
 */
static void notrace rb_push_reader(struct rb_cpu *c, unsigned long old)
{
	long rp = atomic_long_read(&c->read_pos);

	while (RB_POS_PAGE((unsigned long)rp) <= old) {
		unsigned long lost;

		/*
		 * read_pos never lags more than one page behind the page
		 * being reused (every earlier reuse pushed it), so it can
		 * only sit on @old here.
		 */
		lost = READ_ONCE(rb_slot(c, old)->entries) -
		       RB_POS_N((unsigned long)rp);
		if (atomic_long_try_cmpxchg(&c->read_pos, &rp,
					    RB_POS(old + 1, 0, 0))) {
			local_add(lost, &c->overwritten);
			return;
		}
	}
}

/*
 * Make page @next usable before the reservation that enters it is
 * attempted.  Everything here is safe to repeat if that reservation
 * loses its cmpxchg to a nested writer.  Returns false when the record
 * must be dropped instead.
 */
static bool notrace rb_prepare_page(struct rt_buffer *buf, struct rb_cpu *c,
				    unsigned long next)
{
	struct rb_page *pg = rb_slot(c, next);
	long id;

	if (next >= c->nr_pages) {
		unsigned long old = next - c->nr_pages;

		/*
		 * Never reuse a page that still holds unpublished records
		 * of an interrupted writer on this CPU.
		 */
		if (old >= RB_POS_PAGE(READ_ONCE(c->commit_pos))) {
			local_inc(&c->commit_overrun);
			return false;
		}
		if (READ_ONCE(buf->overwrite))
			rb_push_reader(c, old);
		else if (RB_POS_PAGE((unsigned long)
				     atomic_long_read(&c->read_pos)) <= old)
			return false;
	}

	/*
	 * Raise the slot's id before any new byte lands in it: a
	 * non-consuming iterator that copied old data and then sees the
	 * id unchanged knows its copy is intact.
	 */
	id = local_read(&pg->id);
	while ((unsigned long)id < next) {
		long seen = local_cmpxchg(&pg->id, id, next);

		if (seen == id)
			break;
		id = seen;
	}
	/* Pairs with the iterator's smp_rmb() before its second id check. */
	smp_wmb();
	return true;
}

/*
 * Called after a reservation won the cmpxchg that moved wpos from page
 * @prev (left at @off bytes, @n records) to @prev + 1 with a record
 * stamped @ts at offset 0.
 */
static void notrace rb_finish_page_change(struct rb_cpu *c, unsigned long prev,
					  unsigned long off, unsigned long n,
					  u64 ts)
{
	struct rb_page *old = rb_slot(c, prev);

	/*
	 * Nobody else writes these: the page was left once, by us, and it
	 * cannot be reused before commit_pos passes our own record.
	 */
	WRITE_ONCE(old->size, off);
	WRITE_ONCE(old->entries, n);
	WRITE_ONCE(rb_slot(c, prev + 1)->base_ts, ts);
	barrier();
	/*
	 * Publish the base to later writers on this CPU: ts and data first,
	 * page second, so a writer that sees base_page == prev + 1 reads
	 * the matching ts and data.  A nested writer that runs before this
	 * sees the old base_page and falls back to an absolute stamp.  One
	 * that changes the page again in here can leave base_page at
	 * prev + 1 with its own page's ts and data: a page behind wpos,
	 * which no writer matches until the next change sets all three.
	 */
	if (READ_ONCE(c->base_page) < prev + 1) {
		WRITE_ONCE(c->base_ts, ts);
		WRITE_ONCE(c->base_data, rb_slot(c, prev + 1)->data);
		barrier();
		WRITE_ONCE(c->base_page, prev + 1);
	}
}

/* Publish everything reserved so far if we are the outermost writer. */
static void notrace rb_end_write(struct rb_cpu *c)
{
	if (local_read(&c->nesting) != 1) {
		local_dec(&c->nesting);
		return;
	}
	for (;;) {
		unsigned long w = local_read(&c->wpos);

		/*
		 * Every writer that reserved before w has finished: nested
		 * ones ran to completion inside us.  The release orders the
		 * record bytes and page headers before the new commit_pos.
		 */
		smp_store_release(&c->commit_pos, w);
		local_dec(&c->nesting);
		/*
		 * A writer that interrupted us between the store and the
		 * decrement saw nesting > 1 and left publishing to us.
		 */
		if (likely(local_read(&c->wpos) == w))
			return;
		local_inc(&c->nesting);
	}
}

static inline u32 *rb_write_header(u32 *p, unsigned int payload, u32 delta)
{
	if (payload <= RT_RB_KIND_MAX_SHORT * 4) {
		*p++ = (delta << RT_RB_KIND_BITS) | (payload / 4);
	} else {
		*p++ = (delta << RT_RB_KIND_BITS) | RT_RB_KIND_LONG;
		*p++ = payload;
	}
	return p;
}

/**
 * rt_buffer_reserve - reserve room for one record on this CPU
 * @buf: the buffer
 * @len: payload bytes (rounded up to a multiple of 4)
 *
 * On success preemption stays disabled and rt_buffer_commit() must
 * follow on the same CPU; on NULL nothing is held.  Safe from any
 * context, NMI included; nested writers on one CPU publish in order
 * when the outermost one commits.
 *
 * Return: where to write the payload, or NULL when the record is
 * refused (recording disabled, too large, or dropped on a full ring).
 */
void *notrace rt_buffer_reserve(struct rt_buffer *buf, unsigned int len)
{
	unsigned int payload, rec_len;
	struct rb_cpu *c, **slot;
	unsigned long w, nw;
	bool abs, change;
	unsigned int clock;
	u8 *data;
	u64 ts, delta;

	if (unlikely(atomic_read(&buf->record_disabled)))
		return NULL;
	clock = READ_ONCE(buf->clock);
	payload = ALIGN(len ? len : 4, 4);
	if (unlikely(payload > RT_RB_MAX_PAYLOAD))
		return NULL;
	rec_len = payload + (payload <= RT_RB_KIND_MAX_SHORT * 4 ? 4 : 8);

	preempt_disable_notrace();
	slot = &buf->cpus[raw_smp_processor_id()];
	c = READ_ONCE(*slot);
	local_inc(&c->nesting);
	/*
	 * A swap of this CPU's ring (rb_swap_here(), an IPI on this CPU)
	 * moves a ring only while its nesting is 0.  (rt_buffer_swap()
	 * moves every ring from another CPU, but only with records
	 * disabled and no writer in flight, so no writer is here then.)  One that came in
	 * between the load above and the increment moved c to the other
	 * buffer: let it go and take the ring now here, as often as that
	 * happens.  Same CPU, so program order is enough; once the entry
	 * is seen unchanged after the increment, no swap moves c until
	 * rt_buffer_commit().
	 */
	barrier();
	while (unlikely(READ_ONCE(*slot) != c)) {
		local_dec(&c->nesting);
		c = READ_ONCE(*slot);
		local_inc(&c->nesting);
		barrier();
	}
	w = local_read(&c->wpos);
	for (;;) {
		unsigned long page = RB_POS_PAGE(w), off = RB_POS_OFF(w);
		unsigned long seen;

		/*
		 * Stamp inside the loop: a nested writer that gets in before
		 * our cmpxchg makes it fail, and we stamp again, so stamps
		 * follow buffer order on each CPU.
		 */
		ts = rb_clock(clock);
		abs = READ_ONCE(c->base_page) != page;
		delta = 0;
		data = NULL;
		if (!abs) {
			/*
			 * This page's data, read after base_page as it is
			 * written before it; a nested writer that changes
			 * both after our read of w also moves wpos, and our
			 * cmpxchg fails.
			 */
			data = READ_ONCE(c->base_data);
			delta = ts - READ_ONCE(c->base_ts);
			abs = delta > RT_RB_DELTA_MAX;
			if (abs)
				delta = 0;
		}
		change = off + rec_len + (abs ? RT_RB_ABS_LEN : 0) > RB_DATA_SIZE;
		if (change) {
			/* The record opens page + 1 and becomes its base. */
			if (unlikely(!rb_prepare_page(buf, c, page + 1)))
				goto drop;
			abs = false;
			delta = 0;
			nw = RB_POS(page + 1, 1, rec_len);
		} else {
			nw = RB_POS(page, RB_POS_N(w) + 1,
				    off + rec_len + (abs ? RT_RB_ABS_LEN : 0));
		}
		seen = local_cmpxchg(&c->wpos, w, nw);
		if (likely(seen == w))
			break;
		w = seen;
	}

	local_inc(&c->written);
	{
		unsigned long page = RB_POS_PAGE(nw);
		u32 *p;

		if (change) {
			rb_finish_page_change(c, page - 1, RB_POS_OFF(w),
					      RB_POS_N(w), ts);
			p = (u32 *)rb_slot(c, page)->data;
		} else if (data) {
			/* The common case: the page base_page names. */
			p = (u32 *)(data + RB_POS_OFF(w));
		} else {
			p = (u32 *)(rb_slot(c, page)->data + RB_POS_OFF(w));
		}
		if (abs) {
			p[0] = RT_RB_KIND_ABS;
			p[1] = (u32)ts;
			p[2] = (u32)(ts >> 32);
			p += 3;
		}
		return rb_write_header(p, payload, (u32)delta);
	}

drop:
	local_inc(&c->written);
	local_inc(&c->dropped);
	rb_end_write(c);
	preempt_enable_notrace();
	return NULL;
}
EXPORT_SYMBOL_GPL(rt_buffer_reserve);

/**
 * rt_buffer_commit - finish the record reserved last on this CPU
 * @buf: the buffer
 *
 * Re-enables preemption.  The record becomes visible to readers when
 * the outermost writer on this CPU commits.
 */
void notrace rt_buffer_commit(struct rt_buffer *buf)
{
	/* No swap moves a ring with a writer in flight: still ours. */
	rb_end_write(READ_ONCE(buf->cpus[raw_smp_processor_id()]));
	preempt_enable_notrace();
}
EXPORT_SYMBOL_GPL(rt_buffer_commit);

/**
 * rt_buffer_write - reserve, copy and commit one record
 * @buf: the buffer
 * @data: payload
 * @len: payload bytes
 *
 * Return: 0, or -EBUSY when the record was refused.
 */
int notrace rt_buffer_write(struct rt_buffer *buf, const void *data,
			    unsigned int len)
{
	void *p = rt_buffer_reserve(buf, len);

	if (!p)
		return -EBUSY;
	memcpy(p, data, len);
	rt_buffer_commit(buf);
	return 0;
}
EXPORT_SYMBOL_GPL(rt_buffer_write);

/* ---------------------------------------------------------------- */
/* Reader side                                                      */

/* Where @page's committed data ends, @cp the commit cursor read before. */
static unsigned long rb_page_end(struct rb_page *pg, unsigned long page,
				 unsigned long cp)
{
	return page < RB_POS_PAGE(cp) ? READ_ONCE(pg->size) : RB_POS_OFF(cp);
}

/*
 * Decode the record at @pos, with @cp the commit cursor read before:
 * its time in *@ts, and where its payload lies in the page (*@data,
 * *@len bytes), not copied.  Runs concurrently with writers that may be
 * recycling the page, so every length is bounds-checked, and whatever
 * the caller copies from *@data it must validate afterwards (read_pos
 * unchanged, as rb_peek() does).
 * Return: bytes the record occupies, 0 at the end of the page's data,
 * -EIO if the bytes do not decode.
 */
static int rb_locate(struct rb_cpu *c, unsigned long pos, unsigned long cp,
		     u64 *ts, const u8 **data, unsigned int *len)
{
	unsigned long page = RB_POS_PAGE(pos), off = RB_POS_OFF(pos);
	struct rb_page *pg = rb_slot(c, page);
	unsigned long end = rb_page_end(pg, page, cp), at = off;
	const void *d;
	unsigned int r;
	u32 delta;
	u64 base;

	if (end > RB_DATA_SIZE)
		return -EIO;
	if (off >= end)
		return 0;
	if (end - at < 4)
		return -EIO;
	if ((READ_ONCE(*(u32 *)(pg->data + at)) & RT_RB_KIND_MASK) ==
	    RT_RB_KIND_ABS) {
		if (end - at < RT_RB_ABS_LEN)
			return -EIO;
		/* The record after it carries delta 0. */
		base = READ_ONCE(*(u32 *)(pg->data + at + 4)) |
		       (u64)READ_ONCE(*(u32 *)(pg->data + at + 8)) << 32;
		at += RT_RB_ABS_LEN;
	} else {
		base = READ_ONCE(pg->base_ts);
	}
	r = rt_rb_run_next(pg->data + at, end - at, &delta, &d, len);
	if (!r)
		return -EIO;
	*ts = base + delta;
	*data = d;
	return at + r - off;
}

/* rb_locate(), and the record copied into @rec.  Same return. */
static int rb_decode(struct rb_cpu *c, unsigned long pos, unsigned long cp,
		     struct rt_rb_record *rec)
{
	const u8 *data;
	unsigned int len;
	u64 ts;
	int r = rb_locate(c, pos, cp, &ts, &data, &len);

	if (r <= 0)
		return r;
	memcpy(rec->data, data, len);
	rec->len = len;
	rec->ts = ts;
	rec->pos = pos;
	rec->size = r;
	return r;
}

/*
 * Find the oldest unconsumed record of @c and copy it into @rec.
 * Return: 0, or -ENODATA when there is none.
 */
static int rb_peek(struct rb_cpu *c, struct rt_rb_record *rec)
{
	for (;;) {
		/*
		 * Acquire: a writer pushes read_pos past a page only once its
		 * commit_pos is past it, so commit_pos read after this is at
		 * least as new, and never behind read_pos.
		 */
		unsigned long rp = atomic_long_read_acquire(&c->read_pos);
		/* Pairs with the release in rb_end_write(). */
		unsigned long cp = smp_load_acquire(&c->commit_pos);
		int r;

		if (RB_POS_SAME(rp, cp))
			return -ENODATA;
		r = rb_decode(c, rp, cp, rec);
		/*
		 * A writer moves read_pos (full barrier) before it writes
		 * into a page it takes over, so if read_pos is unchanged
		 * after the copy, the copy predates any such write.
		 */
		smp_rmb();
		if ((unsigned long)atomic_long_read(&c->read_pos) != rp)
			continue;
		if (r > 0)
			return 0;
		/* A validated copy that does not decode is a bug. */
		WARN_ON_ONCE(r < 0);
		if (RB_POS_PAGE(rp) >= RB_POS_PAGE(cp))
			return -ENODATA;
		/* End of a finished page: move on to the next. */
		atomic_long_cmpxchg(&c->read_pos, rp,
				    RB_POS(RB_POS_PAGE(rp) + 1, 0, 0));
	}
}

/*
 * How a consumer holds @cpu's ring, from rb_reader_lock() to
 * rb_batch_end(): @c, and whether it took @buf->readers (@slow).
 */
struct rb_reader {
	struct rb_cpu	*c;
	bool		slow;
};

/*
 * Take @cpu's ring for one consumer step ("Reader locking" in
 * ring-buffer-design.txt).  Task context only; may sleep, though it
 * rarely does.  The step runs with preemption off and never sleeps.
 * Unless a reset, resize or swap is under way, it takes no sleeping
 * lock: those raise @buf->restructuring, and all but the swap of one
 * CPU then wait for every CPU to schedule (rt_wait_preempt_readers())
 * before they touch anything, so a consumer that saw the count at 0
 * with preemption off has finished first.  One that sees it raised takes @buf->readers
 * shared, as iterators do, and waits for the change to end.  Then the
 * ring's consumer word, a spin: its holders run with preemption off
 * and only copy.  rt_buffer_swap_cpu() takes the words of the two
 * rings it moves, in an IPI, so a consumer that finds its CPU's ring
 * moved once it holds the word lets go and takes the new one.  The
 * function tracer records none of this (each lock call was a record
 * trace_pipe had to drain, four a line), but for the preemption count
 * changes in kernels whose preempt_count_add() is a function
 * (DEBUG_PREEMPT).  rb_batch_end() undoes it.
 */
static void rb_reader_lock(struct rt_buffer *buf, int cpu,
			   struct rb_reader *rd)
{
	struct rb_cpu *c;

	might_sleep();
	preempt_disable();
	rd->slow = atomic_read_acquire(&buf->restructuring);
	if (unlikely(rd->slow)) {
		preempt_enable();
		down_read(&buf->readers);
		preempt_disable();
	}
	for (;;) {
		c = READ_ONCE(buf->cpus[cpu]);
		while (!rb_consumer_trylock(c))
			cpu_relax();
		/* After the acquire: a swap that let go of it is seen. */
		if (likely(READ_ONCE(buf->cpus[cpu]) == c))
			break;
		rb_consumer_unlock(c);
	}
	rd->c = c;
}

/*
 * Undo rb_reader_lock(); first, at the end of a span or a loss query,
 * fill @info (if not NULL) while the ring is still held.
 */
static void rb_batch_end(struct rt_buffer *buf, struct rb_reader *rd,
			 struct rt_rb_batch_info *info)
{
	struct rb_cpu *c = rd->c;

	if (info) {
		info->lost = local_read(&c->overwritten) +
			     local_read(&c->dropped);
		info->epoch = c->epoch;
		info->lost_base = c->lost_base;
	}
	rb_consumer_unlock(c);
	preempt_enable();
	if (rd->slow)
		up_read(&buf->readers);
}

/**
 * rt_buffer_peek - copy the oldest unconsumed record of one CPU
 * @buf: the buffer
 * @cpu: which CPU's ring
 * @rec: where to copy it
 *
 * Task context; may sleep (rb_reader_lock()).
 *
 * Return: 0, or -ENODATA when the ring is empty.
 */
int rt_buffer_peek(struct rt_buffer *buf, int cpu, struct rt_rb_record *rec)
{
	struct rb_reader rd;
	int ret;

	rb_reader_lock(buf, cpu, &rd);
	ret = rb_peek(rd.c, rec);
	rec->epoch = rd.c->epoch;
	rb_batch_end(buf, &rd, NULL);
	rec->cpu = cpu;
	return ret;
}
EXPORT_SYMBOL_GPL(rt_buffer_peek);

/**
 * rt_buffer_peek_current - whether a peeked record is still the oldest
 * @buf: the buffer
 * @rec: a copy rt_buffer_peek() or rt_buffer_consume_peek() made
 *
 * Lockless, for a merging reader that holds a peek of every CPU and
 * would otherwise take the reader locks again for each: true when no
 * consumer or overwriting writer has moved @rec's CPU's read position
 * since the copy and the ring has had no new life (reset, resize,
 * swap; rb_cpu.epoch).  read_pos only grows within a life, so an equal
 * one names the same record.  A hint: it may be out of date by the
 * time it returns, and a consumer must still check what it takes.
 *
 * Return: true if @rec is still the oldest unconsumed record of its CPU.
 */
bool rt_buffer_peek_current(struct rt_buffer *buf,
			    const struct rt_rb_record *rec)
{
	struct rb_cpu *c;
	bool same;

	/*
	 * Without rb_reader_lock() a swap may move the ring to another
	 * buffer, which may then be freed: rb_cpu is freed after an RCU
	 * grace period, and this task-context reader is an RCU reader
	 * while preemption is off (not traced: the function tracer would
	 * record what this saves).
	 */
	preempt_disable_notrace();
	c = READ_ONCE(buf->cpus[rec->cpu]);
	same = (unsigned long)atomic_long_read(&c->read_pos) == rec->pos;
	/* Pairs with the smp_wmb() in rb_cpu_init_state(). */
	smp_rmb();
	same = same && READ_ONCE(c->epoch) == rec->epoch;
	preempt_enable_notrace();
	return same;
}
EXPORT_SYMBOL_GPL(rt_buffer_peek_current);

/*
 * Copy out and claim the oldest record of @c, held by rb_reader_lock().
 * 0, or -ENODATA when the ring is empty.
 */
static int rb_consume(struct rb_cpu *c, struct rt_rb_record *rec)
{
	for (;;) {
		unsigned long rp;
		int ret = rb_peek(c, rec);

		if (ret)
			return ret;
		rp = rec->pos;
		/* Claim it; losing means a writer overwrote it meanwhile. */
		if (atomic_long_cmpxchg(&c->read_pos, rp,
					RB_POS(RB_POS_PAGE(rp), RB_POS_N(rp) + 1,
					       RB_POS_OFF(rp) + rec->size)) == rp) {
			atomic_long_inc(&c->read);
			return 0;
		}
	}
}

/**
 * rt_buffer_consume - take the oldest unconsumed record of one CPU
 * @buf: the buffer
 * @cpu: which CPU's ring
 * @rec: where to copy it
 *
 * Safe against writers on @cpu and against other consumers.
 *
 * Task context; may sleep (rb_reader_lock()).
 *
 * Return: 0, or -ENODATA when the ring is empty.
 */
int rt_buffer_consume(struct rt_buffer *buf, int cpu, struct rt_rb_record *rec)
{
	struct rb_reader rd;
	int ret;

	rb_reader_lock(buf, cpu, &rd);
	ret = rb_consume(rd.c, rec);
	rec->epoch = rd.c->epoch;
	rb_batch_end(buf, &rd, NULL);
	rec->cpu = cpu;
	return ret;
}
EXPORT_SYMBOL_GPL(rt_buffer_consume);

/**
 * rt_buffer_consume_peek - take the oldest record and peek at the next
 * @buf: the buffer
 * @cpu: which CPU's ring
 * @rec: where to copy the record taken
 * @next: where to copy the record after it, as rt_buffer_peek() would
 * @have_next: set to whether there was one
 *
 * rt_buffer_consume() then rt_buffer_peek(), under one taking of the
 * reader locks: a text reader takes a record and needs the CPU's next
 * one to merge the CPUs, and the function tracer records every lock
 * call it makes.
 *
 * Task context; may sleep (rb_reader_lock()).
 *
 * Return: 0, or -ENODATA when the ring is empty (*@have_next false).
 */
int rt_buffer_consume_peek(struct rt_buffer *buf, int cpu,
			   struct rt_rb_record *rec, struct rt_rb_record *next,
			   bool *have_next)
{
	struct rb_reader rd;
	int ret;

	rb_reader_lock(buf, cpu, &rd);
	ret = rb_consume(rd.c, rec);
	*have_next = !ret && !rb_peek(rd.c, next);
	rec->epoch = rd.c->epoch;
	next->epoch = rd.c->epoch;
	rb_batch_end(buf, &rd, NULL);
	rec->cpu = cpu;
	next->cpu = cpu;
	return ret;
}
EXPORT_SYMBOL_GPL(rt_buffer_consume_peek);

/**
 * rt_buffer_lost_info - one CPU's loss counts and epoch, holding its ring
 * @buf: the buffer
 * @cpu: which CPU's ring
 * @info: filled: the records this CPU's ring has lost so far
 *	(overwritten unread, or refused), the ring's epoch, which changes
 *	when a reset, clock change or resize reinitialises that ring or a
 *	swap replaces it (and no other CPU's reset, resize or swap changes
 *	it), and the loss count at which that epoch began
 *
 * rt_buffer_consume_span() fills the same at the end of its records.
 *
 * Task context; may sleep (rb_reader_lock()).
 */
void rt_buffer_lost_info(struct rt_buffer *buf, int cpu,
			 struct rt_rb_batch_info *info)
{
	struct rb_reader rd;

	rb_reader_lock(buf, cpu, &rd);
	rb_batch_end(buf, &rd, info);
}
EXPORT_SYMBOL_GPL(rt_buffer_lost_info);

/*
 * Offer ops->take_run() the records from *@pos to the end of what is
 * committed in that page (@cp the commit cursor read before), at most
 * @max of them.  Bounds as rb_locate(); the copies are validated by the
 * caller.
 * Return: records taken, *@pos moved past them; 0 to let take() have
 * the next one; -EIO if take_run() reported more than it was offered.
 */
static int rb_take_run(struct rb_cpu *c, const struct rt_rb_span_ops *ops,
		       void *arg, unsigned long *pos, unsigned long cp,
		       unsigned int max)
{
	unsigned long page = RB_POS_PAGE(*pos), off = RB_POS_OFF(*pos);
	struct rb_page *pg = rb_slot(c, page);
	unsigned long end = rb_page_end(pg, page, cp);
	struct rt_rb_run run;
	unsigned int k, bytes = 0;

	if (end > RB_DATA_SIZE || off >= end)
		return 0;
	run.data = pg->data + off;
	run.len = end - off;
	run.max = max;
	run.base_ts = READ_ONCE(pg->base_ts);
	k = ops->take_run(arg, &run, &bytes);
	if (!k)
		return 0;
	/* A record takes at least 8 bytes: N cannot run into the page id. */
	if (WARN_ON_ONCE(k > max || bytes > run.len || k > bytes / 8))
		return -EIO;
	*pos = RB_POS(page, RB_POS_N(*pos) + k, off + bytes);
	return k;
}

/*
 * Take records of @c from read_pos to the end of its page, at most
 * @limit, handed to ops->take_run() a run at a time if it has one, or
 * else (and for what it leaves) one by one to ops->take(), where they
 * lie; then claim them all with one cmpxchg.  @c is held by
 * rb_reader_lock().
 * Return: records claimed (ops->keep() was called), 0 if there were
 * none to take (*@stop set if take() said stop or the ring is empty;
 * otherwise try again), or -EAGAIN if copies could not be validated or
 * claimed (ops->undo() was called).
 */
static int rb_consume_span(struct rb_cpu *c, const struct rt_rb_span_ops *ops,
			   void *arg, unsigned int limit, bool *stop)
{
	/* Acquire, as in rb_peek(): commit_pos is then not behind it. */
	unsigned long rp = atomic_long_read_acquire(&c->read_pos);
	/* Pairs with the release in rb_end_write(). */
	unsigned long cp = smp_load_acquire(&c->commit_pos);
	unsigned long pos = rp;
	unsigned int n = 0;
	const u8 *data;
	unsigned int len;
	int r = 0;
	u64 ts;

	if (RB_POS_SAME(rp, cp)) {
		*stop = true;
		return 0;
	}
	while (n < limit && !RB_POS_SAME(pos, cp)) {
		if (ops->take_run) {
			r = rb_take_run(c, ops, arg, &pos, cp, limit - n);
			if (r < 0) {
				/* A bug in take_run(): nothing more this time. */
				ops->undo(arg);
				*stop = true;
				return 0;
			}
			n += r;
			if (r && (n == limit || RB_POS_SAME(pos, cp)))
				break;
		}
		r = rb_locate(c, pos, cp, &ts, &data, &len);
		if (r <= 0)
			break;
		if (ops->take(arg, ts, data, len)) {
			*stop = true;
			break;
		}
		pos = RB_POS(RB_POS_PAGE(pos), RB_POS_N(pos) + 1,
			     RB_POS_OFF(pos) + r);
		n++;
	}
	/*
	 * As in rb_peek(): a writer moves read_pos before it writes into a
	 * page it takes over, so read_pos unchanged after the copies means
	 * they predate any such write.  The claim then moves read_pos past
	 * all of them at once, or fails if a writer or another consumer
	 * moved it meanwhile.
	 */
	smp_rmb();
	if ((unsigned long)atomic_long_read(&c->read_pos) != rp)
		goto retry;
	if (n) {
		if (atomic_long_cmpxchg(&c->read_pos, rp, pos) != rp)
			goto retry;
		atomic_long_add(n, &c->read);
		ops->keep(arg);
		return n;
	}
	if (*stop)
		return 0;
	/* A validated record that does not decode is a bug. */
	WARN_ON_ONCE(r < 0);
	if (RB_POS_PAGE(rp) >= RB_POS_PAGE(cp)) {
		*stop = true;
		return 0;
	}
	/* End of a finished page: move on to the next. */
	atomic_long_cmpxchg(&c->read_pos, rp, RB_POS(RB_POS_PAGE(rp) + 1, 0, 0));
	return 0;
retry:
	*stop = false;
	if (!n)
		return 0;
	ops->undo(arg);
	return -EAGAIN;
}

/**
 * rt_buffer_consume_span - take records of one CPU without copying them
 * @buf: the buffer
 * @cpu: which CPU's ring
 * @ops: take() is given each record, oldest first, where it lies in
 *	the ring: it may only copy it (a writer may be overwriting it),
 *	and returns nonzero to stop before it (it is not taken).  The
 *	records take() saw are then claimed a page at a time, and keep()
 *	is called; or they were overwritten or taken by another consumer
 *	meanwhile, and undo() must forget every copy since the last
 *	keep() (they are offered again, or lost).  take_run(), if set,
 *	is offered the records of a page as a run first (struct
 *	rt_rb_run): it copies a prefix of whole records and returns how
 *	many, their bytes in *bytes, or 0 to leave the next record to
 *	take().  The callbacks must not sleep or touch @buf.
 * @arg: for @ops
 * @info: if not NULL, filled as rt_buffer_lost_info() does, under the
 *	same locks as the records were taken
 *
 * rt_buffer_consume() until take() says stop, but with the locks taken
 * once, no copy of each record out first, and one claim per ring page
 * instead of one per record: for a reader that packs records into pages
 * of its own (trace_pipe_raw), which then neither pays, nor makes the
 * function tracer record, two lock round trips per record.
 *
 * Task context; may sleep (rb_reader_lock()).
 *
 * Return: the number of records taken.
 */
unsigned int rt_buffer_consume_span(struct rt_buffer *buf, int cpu,
				    const struct rt_rb_span_ops *ops,
				    void *arg, struct rt_rb_batch_info *info)
{
	/*
	 * After copies were undone, smaller spans (a writer is close
	 * behind); after a claim, whole pages again.
	 */
	unsigned int limit = UINT_MAX, n = 0;
	bool stop = false;
	struct rb_reader rd;
	int r;

	rb_reader_lock(buf, cpu, &rd);
	while (!stop) {
		r = rb_consume_span(rd.c, ops, arg, limit, &stop);
		if (r == -EAGAIN) {
			limit = limit > 16 ? 16 : 1;
		} else if (r > 0) {
			n += r;
			limit = UINT_MAX;
			/* Preemption is off: a large page may wait. */
			if (need_resched())
				break;
		}
	}
	rb_batch_end(buf, &rd, info);
	return n;
}
EXPORT_SYMBOL_GPL(rt_buffer_consume_span);

/**
 * rt_buffer_empty_cpu - whether one CPU's ring has nothing unconsumed
 * @buf: the buffer
 * @cpu: which CPU
 *
 * Return: true when empty (a hint: writers may add records at once).
 */
bool rt_buffer_empty_cpu(struct rt_buffer *buf, int cpu)
{
	struct rb_cpu *c = buf->cpus[cpu];
	unsigned long rp = atomic_long_read(&c->read_pos);
	/* Pairs with the release in rb_end_write(). */
	unsigned long cp = smp_load_acquire(&c->commit_pos);

	return RB_POS_SAME(rp, cp);
}
EXPORT_SYMBOL_GPL(rt_buffer_empty_cpu);

/**
 * rt_buffer_iter_start_atomic - rt_buffer_iter_start() without locking
 * @it: iterator to set up
 * @buf: the buffer
 * @cpu: which CPU
 */
void rt_buffer_iter_start_atomic(struct rt_rb_iter *it, struct rt_buffer *buf,
				 int cpu)
{
	it->buf = buf;
	it->cpu = cpu;
	it->pos = atomic_long_read(&buf->cpus[cpu]->read_pos);
	/* Pairs with the release in rb_end_write(). */
	it->end = smp_load_acquire(&buf->cpus[cpu]->commit_pos);
	it->generation = buf->generation;
	it->skipped = 0;
}
EXPORT_SYMBOL_GPL(rt_buffer_iter_start_atomic);

/**
 * rt_buffer_iter_start - begin a non-consuming walk of one CPU's ring
 * @it: iterator to set up
 * @buf: the buffer
 * @cpu: which CPU
 *
 * The walk starts at the oldest unconsumed record and ends at the last
 * record committed when it started, so a reader whose own reading makes
 * records (a traced read()) still reaches the end.  Writers keep going;
 * records they overwrite under the iterator are skipped and counted in
 * @it->skipped.
 */
void rt_buffer_iter_start(struct rt_rb_iter *it, struct rt_buffer *buf,
			  int cpu)
{
	down_read(&buf->readers);
	rt_buffer_iter_start_atomic(it, buf, cpu);
	up_read(&buf->readers);
}
EXPORT_SYMBOL_GPL(rt_buffer_iter_start);

static int rb_iter_peek(struct rt_rb_iter *it, struct rt_rb_record *rec)
{
	struct rb_cpu *c = it->buf->cpus[it->cpu];

	/* A reset or resize since the last step: start over. */
	if (it->generation != it->buf->generation) {
		it->generation = it->buf->generation;
		it->pos = atomic_long_read(&c->read_pos);
		/* Pairs with the release in rb_end_write(). */
		it->end = smp_load_acquire(&c->commit_pos);
	}

	for (;;) {
		unsigned long pos = it->pos, page = RB_POS_PAGE(pos);
		/* Pairs with the release in rb_end_write(). */
		unsigned long cp = smp_load_acquire(&c->commit_pos);
		struct rb_page *pg;
		int r;

		if (RB_POS_SAME(pos, cp) || RB_POS_REACHED(pos, it->end))
			return -ENODATA;
		pg = rb_slot(c, page);
		/* Seqlock-style: the slot must hold our page before and after. */
		if ((unsigned long)local_read(&pg->id) == page) {
			/* Id before data, data before id: pairs with smp_wmb()
			 * in rb_prepare_page().
			 */
			smp_rmb();
			r = rb_decode(c, pos, cp, rec);
			/* Data before the second id read (same pairing). */
			smp_rmb();
			if ((unsigned long)local_read(&pg->id) == page) {
				if (r > 0) {
					rec->cpu = it->cpu;
					return 0;
				}
				if (page >= RB_POS_PAGE(cp))
					return -ENODATA;
				WARN_ON_ONCE(r < 0);
				it->pos = RB_POS(page + 1, 0, 0);
				continue;
			}
		}
		/*
		 * The page was taken over; whoever did so moved read_pos
		 * past it first, so resume there.
		 */
		it->pos = atomic_long_read(&c->read_pos);
		it->skipped++;
	}
}

/**
 * rt_buffer_iter_peek - copy the record at the iterator
 * @it: the iterator
 * @rec: where to copy it
 *
 * May sleep (waits out a resize).
 *
 * Return: 0, or -ENODATA at the end of the data published so far.
 */
int rt_buffer_iter_peek(struct rt_rb_iter *it, struct rt_rb_record *rec)
{
	int ret;

	down_read(&it->buf->readers);
	ret = rb_iter_peek(it, rec);
	up_read(&it->buf->readers);
	return ret;
}
EXPORT_SYMBOL_GPL(rt_buffer_iter_peek);

/**
 * rt_buffer_iter_peek_atomic - rt_buffer_iter_peek() for dying kernels
 * @it: the iterator, set up with rt_buffer_iter_start_atomic()
 * @rec: where to copy it
 *
 * Takes no lock, so it is safe in oops and panic paths.  It is not safe
 * against a concurrent resize: a caller that is not dying holds
 * rt_buffer_read_trylock() around the walk.
 *
 * Return: 0, or -ENODATA.
 */
int rt_buffer_iter_peek_atomic(struct rt_rb_iter *it, struct rt_rb_record *rec)
{
	return rb_iter_peek(it, rec);
}
EXPORT_SYMBOL_GPL(rt_buffer_iter_peek_atomic);

/**
 * rt_buffer_read_trylock - keep resizes out of an atomic walk
 * @buf: the buffer
 *
 * For rt_buffer_iter_start_atomic() walks that may run beside a resize
 * (a sysrq dump): never sleeps.
 *
 * Return: true if taken; release with rt_buffer_read_unlock().
 */
bool rt_buffer_read_trylock(struct rt_buffer *buf)
{
	return down_read_trylock(&buf->readers);
}
EXPORT_SYMBOL_GPL(rt_buffer_read_trylock);

/**
 * rt_buffer_read_unlock - release rt_buffer_read_trylock()
 * @buf: the buffer
 */
void rt_buffer_read_unlock(struct rt_buffer *buf)
{
	up_read(&buf->readers);
}
EXPORT_SYMBOL_GPL(rt_buffer_read_unlock);


/**
 * rt_buffer_iter_advance - step past the record last peeked
 * @it: the iterator
 * @rec: the record rt_buffer_iter_peek() returned
 */
void rt_buffer_iter_advance(struct rt_rb_iter *it,
			    const struct rt_rb_record *rec)
{
	unsigned long p = rec->pos;

	it->pos = RB_POS(RB_POS_PAGE(p), RB_POS_N(p) + 1,
			 RB_POS_OFF(p) + rec->size);
}
EXPORT_SYMBOL_GPL(rt_buffer_iter_advance);

/**
 * rt_buffer_stats - read one CPU's accounting
 * @buf: the buffer
 * @cpu: which CPU
 * @st: filled in
 *
 * When writers and readers are quiet,
 * read + overrun + dropped + entries == written.  May sleep.
 */
void rt_buffer_stats(struct rt_buffer *buf, int cpu, struct rt_rb_stats *st)
{
	struct rb_cpu *c;
	unsigned long rp, cp, p, rpage, cpage;
	u64 entries, bytes;
	int tries = 0;

	/* The page headers walked below are freed by a resize. */
	down_read(&buf->readers);
	c = buf->cpus[cpu];
again:
	rp = atomic_long_read(&c->read_pos);
	/* Pairs with the release in rb_end_write(): page counts behind cp are set. */
	cp = smp_load_acquire(&c->commit_pos);
	rpage = RB_POS_PAGE(rp);
	cpage = RB_POS_PAGE(cp);

	if (rpage >= cpage) {
		entries = RB_POS_N(cp) - RB_POS_N(rp);
		bytes = RB_POS_OFF(cp) - RB_POS_OFF(rp);
	} else {
		entries = READ_ONCE(rb_slot(c, rpage)->entries) - RB_POS_N(rp);
		bytes = READ_ONCE(rb_slot(c, rpage)->size) - RB_POS_OFF(rp);
		for (p = rpage + 1; p < cpage; p++) {
			entries += READ_ONCE(rb_slot(c, p)->entries);
			bytes += READ_ONCE(rb_slot(c, p)->size);
		}
		entries += RB_POS_N(cp);
		bytes += RB_POS_OFF(cp);
	}
	/*
	 * Writers that overwrote the pages walked moved read_pos: the sums
	 * may mix two laps.  Walk again (they are quick); sums that are
	 * still impossible after that read as 0.
	 */
	if (atomic_long_read(&c->read_pos) != rp && ++tries < 3)
		goto again;
	if ((cpage > rpage && cpage - rpage > c->nr_pages) ||
	    (s64)entries < 0 || (s64)bytes < 0) {
		entries = 0;
		bytes = 0;
	}
	st->entries = entries;
	st->bytes = bytes;
	st->commit_overrun = local_read(&c->commit_overrun);
	st->written = local_read(&c->written);
	st->dropped = local_read(&c->dropped);
	st->overrun = local_read(&c->overwritten);
	st->read = atomic_long_read(&c->read);
	st->nr_pages = c->nr_pages;
	up_read(&buf->readers);
}
EXPORT_SYMBOL_GPL(rt_buffer_stats);
