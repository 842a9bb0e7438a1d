// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the ring buffer.  Each input byte pair is an
 * operation on a small two-CPU buffer: writes (plain, explicitly nested,
 * or nested inside another writer's reservation window), consumes,
 * full iterations, resets, resizes, clock changes, mode flips and clock
 * jumps.  After every operation the accounting invariant must hold, and
 * every record read must be intact, newer than the last one read on its
 * CPU and stamped no earlier.  Any violation aborts, which libFuzzer
 * reports with the input.
 */
#include "rb_host_shim.h"
#include <trace/retrace/ring_buffer.h>

extern void (*host_irq_hook)(void);
extern int host_warnings;

static struct rt_buffer *fb;
static struct rt_rb_record frec;
static u64 fclock;
static u32 next_seq[2];
static s64 last_read[2];
static u64 last_ts[2];	/* stamps consumed on each CPU never go back */
static int hook_len;
static struct rt_rb_iter piter;		/* lives across every operation */
static s64 piter_last;

static u64 fuzz_clock(void)
{
	return fclock += 3;
}

#define REQUIRE(c) do { if (!(c)) { fprintf(stderr, "fuzz check failed: %s (line %d)\n", #c, __LINE__); abort(); } } while (0)

static u32 pattern(u32 seq, u32 i)
{
	return seq * 0x9e3779b9u + i * 7919u;
}

static void *begin(unsigned int len)
{
	u32 *p = rt_buffer_reserve(fb, len);

	if (p) {
		unsigned int i, words = ALIGN(len, 4) / 4;

		p[0] = next_seq[host_cpu]++;
		for (i = 1; i < words; i++)
			p[i] = pattern(p[0], i);
	}
	return p;
}

static void put(unsigned int len)
{
	if (begin(len))
		rt_buffer_commit(fb);
}

/* rt_buffer_consume_span()'s copies, staged until keep(). */
#define SPAN_MAX 32
static struct {
	int cpu;
	unsigned int left, n;
	struct rt_rb_record rec[SPAN_MAX];
} span_fuzz;

static int span_fuzz_take(void *arg, u64 ts, const void *data,
			  unsigned int len)
{
	if (span_fuzz.n >= span_fuzz.left || span_fuzz.n >= SPAN_MAX)
		return 1;
	memcpy(span_fuzz.rec[span_fuzz.n].data, data, len);
	span_fuzz.rec[span_fuzz.n].len = len;
	span_fuzz.rec[span_fuzz.n].ts = ts;
	span_fuzz.n++;
	return 0;
}

static void check_record(const struct rt_rb_record *r, int cpu, s64 *last);

static void span_fuzz_keep(void *arg)
{
	int cpu = span_fuzz.cpu;
	unsigned int i;

	for (i = 0; i < span_fuzz.n; i++) {
		check_record(&span_fuzz.rec[i], cpu, &last_read[cpu]);
		REQUIRE(span_fuzz.rec[i].ts >= last_ts[cpu]);
		last_ts[cpu] = span_fuzz.rec[i].ts;
	}
	span_fuzz.left -= span_fuzz.n;
	span_fuzz.n = 0;
}

static void span_fuzz_undo(void *arg)
{
	/* Single-threaded: nothing overwrites a page between copy and claim. */
	REQUIRE(0);
}

static const struct rt_rb_span_ops span_fuzz_ops = {
	.take = span_fuzz_take,
	.keep = span_fuzz_keep,
	.undo = span_fuzz_undo,
};

/* Runs decoded by rt_rb_run_each(), each record staged as take() does. */
static unsigned int span_fuzz_take_run(void *arg, const struct rt_rb_run *run,
				       unsigned int *bytes)
{
	REQUIRE(run->max >= 1 && run->len >= 8 && run->len % 4 == 0);
	return rt_rb_run_each(run, span_fuzz_take, arg, bytes);
}

static const struct rt_rb_span_ops span_run_fuzz_ops = {
	.take = span_fuzz_take,
	.take_run = span_fuzz_take_run,
	.keep = span_fuzz_keep,
	.undo = span_fuzz_undo,
};

static void hook_writer(void)
{
	host_irq_hook = NULL;	/* one nested writer per armed hook */
	put(hook_len);
}

static void check_record(const struct rt_rb_record *r, int cpu, s64 *last)
{
	unsigned int i;

	REQUIRE(r->len >= 4 && r->len % 4 == 0);
	REQUIRE((s64)r->data[0] > *last);
	for (i = 1; i < r->len / 4; i++)
		REQUIRE(r->data[i] == pattern(r->data[0], i));
	*last = r->data[0];
	(void)cpu;
}

static void check_invariant(void)
{
	struct rt_rb_stats st;
	int cpu;

	for (cpu = 0; cpu < 2; cpu++) {
		rt_buffer_stats(fb, cpu, &st);
		REQUIRE(st.read + st.overrun + st.dropped + st.entries == st.written);
	}
}

static void reset_model(void)
{
	last_read[0] = last_read[1] = -1;
	last_ts[0] = last_ts[1] = 0;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	size_t i;

	nr_cpu_ids = 2;
	host_clock = fuzz_clock;
	host_warnings = 0;
	fb = rt_buffer_alloc(2 * 4096, true);
	REQUIRE(fb);
	next_seq[0] = next_seq[1] = 0;
	reset_model();
	rt_buffer_iter_start(&piter, fb, 0);
	piter_last = -1;

	for (i = 0; i + 1 < size; i += 2) {
		u8 op = data[i], arg = data[i + 1];
		int cpu = op & 1;
		struct rt_rb_iter it;
		s64 last;
		u32 *outer;

		host_cpu = cpu;
		switch ((op >> 1) % 10) {
		case 0:
		case 1:
			put(1 + arg * 8);
			break;
		case 2:	/* explicit nesting: outer open across an inner write */
			outer = begin(4 + (arg & 15) * 4);
			put(4 + (arg >> 4) * 40);
			if (outer)
				rt_buffer_commit(fb);
			break;
		case 3:	/* a writer lands inside another's reservation window */
			hook_len = 4 + arg * 4;
			host_irq_hook = hook_writer;
			put(4 + (arg & 7) * 100);
			host_irq_hook = NULL;
			break;
		case 5:	/* a ring page at a time (odd: as runs), checked once claimed */
			span_fuzz.cpu = cpu;
			span_fuzz.left = arg;
			span_fuzz.n = 0;
			while (span_fuzz.left &&
			       rt_buffer_consume_span(fb, cpu, arg & 1 ?
						      &span_run_fuzz_ops :
						      &span_fuzz_ops,
						      &span_fuzz, NULL))
				;
			REQUIRE(!span_fuzz.n);
			break;
		case 4:
			while (arg-- && !rt_buffer_consume(fb, cpu, &frec)) {
				check_record(&frec, cpu, &last_read[cpu]);
				REQUIRE(frec.ts >= last_ts[cpu]);
				last_ts[cpu] = frec.ts;
			}
			break;
		case 6:
			if (arg & 1) {	/* a whole walk */
				last = -1;
				rt_buffer_iter_start(&it, fb, cpu);
				while (!rt_buffer_iter_peek(&it, &frec)) {
					check_record(&frec, cpu, &last);
					rt_buffer_iter_advance(&it, &frec);
				}
				break;
			}
			/* a few steps of the long-lived iterator on CPU 0 */
			while ((arg -= 2) > 0 && !rt_buffer_iter_peek(&piter, &frec)) {
				check_record(&frec, 0, &piter_last);
				rt_buffer_iter_advance(&piter, &frec);
			}
			break;
		case 7:
			rt_buffer_set_overwrite(fb, arg & 1);
			break;
		case 8:
			if (arg & 2) {	/* a clock change empties too */
				REQUIRE(!rt_buffer_set_clock(fb, arg % RT_RB_NR_CLOCKS));
				REQUIRE(rt_buffer_clock(fb) == arg % RT_RB_NR_CLOCKS);
			} else if (arg & 1) {
				rt_buffer_reset(fb);
			} else if (arg & 4) {
				/*
				 * One ring: the others keep their records, and
				 * the iterator starts over on them.
				 */
				REQUIRE(!rt_buffer_resize_cpu(fb, (arg >> 3) % nr_cpu_ids,
							      (1 + arg % 6) * 4096));
				piter_last = -1;
			} else {
				REQUIRE(!rt_buffer_resize(fb, (1 + arg % 6) * 4096));
			}
			reset_model();
			break;
		case 9:	/* clock jumps, some beyond the 27-bit delta */
			fclock += (u64)arg << (arg & 31);
			break;
		}
		check_invariant();
		REQUIRE(host_warnings == 0);
	}
	rt_buffer_free(fb);
	return 0;
}
