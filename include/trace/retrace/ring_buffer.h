/* SPDX-License-Identifier: GPL-2.0 */
/*
 * retrace ring buffer: per-CPU pages of variable-length records.
 *
 * Writers never lock and only touch their own CPU's buffer; readers may
 * run on any CPU concurrently with them.  The buffer knows nothing of
 * what a record contains: it stores bytes and a timestamp and hands
 * them back in order.  The protocol is described in
 * Documentation/trace/ring-buffer-design.txt and next to the code.
 */
#ifndef _TRACE_RETRACE_RING_BUFFER_H
#define _TRACE_RETRACE_RING_BUFFER_H

#ifdef RETRACE_HOST
#include "rb_host_shim.h"
#else
#include <linux/sched/clock.h>
#include <linux/types.h>
#endif
#include <trace/retrace/rb_record.h>

struct rt_buffer;

#ifndef RETRACE_HOST
/**
 * rt_clock_local - the "local" clock: what a buffer stamps with by default
 *
 * Nanoseconds from sched_clock(): as monotonic on each CPU as its TSC,
 * with no promise between CPUs, NMI-safe and not traceable.  Not
 * local_clock(): once the TSC is marked unstable, that one stops at
 * the last tick plus one jiffy while interrupts are off, so an
 * interrupts-off section would measure one tick at most and its
 * records would share a stamp.  Whoever times something against
 * records (the latency tracers, function_graph) uses this clock too.
 *
 * Return: the time in ns.
 */
static __always_inline u64 rt_clock_local(void)
{
	return sched_clock_noinstr();
}
#endif

/*
 * What a buffer stamps its records with (rt_buffer_set_clock()).
 * LOCAL: nanoseconds, monotonic on each CPU (the default).  GLOBAL:
 * nanoseconds, never smaller than a stamp taken before on any CPU.
 * COUNTER: one more than the previous stamp on any CPU; not a time.
 */
enum rt_rb_clock {
	RT_RB_CLOCK_LOCAL,
	RT_RB_CLOCK_GLOBAL,
	RT_RB_CLOCK_COUNTER,
	RT_RB_NR_CLOCKS
};

/* A record copied out of the buffer by a reader. */
struct rt_rb_record {
	u64		ts;	/* clock value when it was reserved */
	unsigned int	len;	/* payload bytes, a multiple of 4 */
	unsigned int	cpu;
	unsigned long	pos;	/* internal: where it was found */
	unsigned int	size;	/* internal: bytes it takes in the page */
	unsigned long	epoch;	/* internal: the ring's life it was found in */
	u32		data[RT_RB_MAX_PAYLOAD / 4];
};

/*
 * Per-CPU accounting; see rt_buffer_stats().  "dropped" counts records
 * refused because the ring was full in no-overwrite mode, or because
 * the writer caught up with a page an interrupted writer still holds.
 */
struct rt_rb_stats {
	u64 written;	/* records offered to the buffer (kept or dropped) */
	u64 read;	/* records taken by consuming readers */
	u64 overrun;	/* records overwritten before being read */
	u64 dropped;	/* records refused (see above) */
	u64 commit_overrun; /* of dropped: an interrupted writer held the page */
	u64 entries;	/* records still in the buffer */
	u64 bytes;	/* bytes those take in the pages, headers included */
	unsigned long nr_pages;
};

/* Non-consuming iterator over one CPU's buffer. */
struct rt_rb_iter {
	struct rt_buffer	*buf;
	int			cpu;
	unsigned long		pos;
	unsigned long		end;	/* commit_pos when the walk began */
	unsigned long		generation;
	u64			skipped; /* records overwritten under us */
};

struct rt_buffer *rt_buffer_alloc(unsigned long bytes_per_cpu, bool overwrite);
void rt_buffer_free(struct rt_buffer *buf);
int rt_buffer_resize(struct rt_buffer *buf, unsigned long bytes_per_cpu);
int rt_buffer_resize_cpu(struct rt_buffer *buf, int cpu, unsigned long bytes);
void rt_buffer_reset(struct rt_buffer *buf);
int rt_buffer_set_clock(struct rt_buffer *buf, unsigned int clock);
unsigned int rt_buffer_clock(struct rt_buffer *buf);
int rt_buffer_swap_cpu(struct rt_buffer *a, struct rt_buffer *b, int cpu);
int rt_buffer_swap(struct rt_buffer *a, struct rt_buffer *b);
unsigned long rt_buffer_ring_id(struct rt_buffer *buf, int cpu);
unsigned long rt_buffer_size(struct rt_buffer *buf);
unsigned long rt_buffer_size_cpu(struct rt_buffer *buf, int cpu);

void rt_buffer_set_overwrite(struct rt_buffer *buf, bool overwrite);
bool rt_buffer_overwrite(struct rt_buffer *buf);
void rt_buffer_record_disable(struct rt_buffer *buf);
void rt_buffer_record_enable(struct rt_buffer *buf);

void *rt_buffer_reserve(struct rt_buffer *buf, unsigned int len);
void rt_buffer_commit(struct rt_buffer *buf);
int rt_buffer_write(struct rt_buffer *buf, const void *data, unsigned int len);

int rt_buffer_peek(struct rt_buffer *buf, int cpu, struct rt_rb_record *rec);
int rt_buffer_consume(struct rt_buffer *buf, int cpu, struct rt_rb_record *rec);
int rt_buffer_consume_peek(struct rt_buffer *buf, int cpu,
			   struct rt_rb_record *rec, struct rt_rb_record *next,
			   bool *have_next);
bool rt_buffer_peek_current(struct rt_buffer *buf,
			    const struct rt_rb_record *rec);
/* What rt_buffer_lost_info() or rt_buffer_consume_span() saw, holding the ring. */
struct rt_rb_batch_info {
	u64		lost;		/* overrun + dropped of the CPU's ring */
	unsigned long	epoch;		/* new at its reset, resize or swap */
	u64		lost_base;	/* @lost when the epoch began */
};

void rt_buffer_lost_info(struct rt_buffer *buf, int cpu,
			 struct rt_rb_batch_info *info);
/*
 * Records of one ring page as they lie there, for take_run(): @len bytes
 * of whole records from @data on, encoded as <trace/retrace/rb_record.h>
 * says, their deltas counting from @base_ts; take at most @max of them.
 */
struct rt_rb_run {
	const void	*data;
	unsigned int	len;
	unsigned int	max;
	u64		base_ts;
};

/* rt_buffer_consume_span()'s callbacks; see there. */
struct rt_rb_span_ops {
	int	(*take)(void *arg, u64 ts, const void *data, unsigned int len);
	unsigned int (*take_run)(void *arg, const struct rt_rb_run *run,
				 unsigned int *bytes);
	void	(*keep)(void *arg);
	void	(*undo)(void *arg);
};

/**
 * rt_rb_run_each - hand a run's records to a take() one by one
 * @run: the run take_run() was given
 * @take: as struct rt_rb_span_ops' take(); nonzero stops before the record
 * @arg: for @take
 * @bytes: set to the bytes of the records taken
 *
 * A take_run() for callers that want each record decoded for them
 * (tests, and readers that do not copy runs whole): it stops where
 * @take says stop, at @run->max, and at a record rt_rb_run_next()
 * leaves to take().
 *
 * Return: the number of records taken.
 */
static inline unsigned int
rt_rb_run_each(const struct rt_rb_run *run,
	       int (*take)(void *arg, u64 ts, const void *data,
			   unsigned int len),
	       void *arg, unsigned int *bytes)
{
	unsigned int at = 0, n = 0, rec, plen;
	const void *data;
	u32 delta;

	while (n < run->max) {
		rec = rt_rb_run_next((const u8 *)run->data + at, run->len - at,
				     &delta, &data, &plen);
		if (!rec || take(arg, run->base_ts + delta, data, plen))
			break;
		at += rec;
		n++;
	}
	*bytes = at;
	return n;
}

unsigned int rt_buffer_consume_span(struct rt_buffer *buf, int cpu,
				    const struct rt_rb_span_ops *ops,
				    void *arg, struct rt_rb_batch_info *info);
bool rt_buffer_empty_cpu(struct rt_buffer *buf, int cpu);

void rt_buffer_iter_start(struct rt_rb_iter *it, struct rt_buffer *buf,
			  int cpu);
int rt_buffer_iter_peek(struct rt_rb_iter *it, struct rt_rb_record *rec);
void rt_buffer_iter_start_atomic(struct rt_rb_iter *it, struct rt_buffer *buf,
				 int cpu);
int rt_buffer_iter_peek_atomic(struct rt_rb_iter *it, struct rt_rb_record *rec);
bool rt_buffer_read_trylock(struct rt_buffer *buf);
void rt_buffer_read_unlock(struct rt_buffer *buf);
void rt_buffer_iter_advance(struct rt_rb_iter *it,
			    const struct rt_rb_record *rec);

void rt_buffer_stats(struct rt_buffer *buf, int cpu, struct rt_rb_stats *st);

#endif /* _TRACE_RETRACE_RING_BUFFER_H */
