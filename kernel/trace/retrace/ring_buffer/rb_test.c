// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit and model tests for the retrace ring buffer, built with
 * ASan and UBSan.  Each test prints one "ok"/"not ok" line; the last
 * line is "N passed, N failed".
 */
#include "rb_host_shim.h"
#include <unistd.h>
#include <trace/retrace/ring_buffer.h>
#include <stdarg.h>

extern void (*host_irq_hook)(void);
extern int host_warnings;

static int passed, failed, test_failed;
static struct rt_rb_record rec;

#define CHECK(c, ...) do {						\
	if (!(c)) {							\
		fprintf(stderr, "  %s:%d: check failed: %s: ",		\
			__FILE__, __LINE__, #c);			\
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
		test_failed = 1;					\
		return;							\
	}								\
} while (0)

static void run(const char *name, void (*fn)(void))
{
	int w = host_warnings;

	test_failed = 0;
	host_irq_hook = NULL;
	host_cpu = 0;
	fn();
	if (host_warnings != w) {
		fprintf(stderr, "  %s: kernel WARN fired\n", name);
		test_failed = 1;
	}
	printf("%s %s\n", test_failed ? "not ok" : "ok", name);
	if (test_failed)
		failed++;
	else
		passed++;
}

static u64 fake_now;
static u64 fake_clock(void)
{
	return fake_now += 7;
}

/* Write a record whose payload is (seq, len, pattern...) of @len bytes. */
static int put(struct rt_buffer *b, u32 seq, unsigned int len)
{
	u32 *p = rt_buffer_reserve(b, len);
	unsigned int i;

	if (!p)
		return -1;
	p[0] = seq;
	if (len >= 8)
		p[1] = len;
	for (i = 2; i < len / 4; i++)
		p[i] = seq * 31 + i;
	rt_buffer_commit(b);
	return 0;
}

static int check_rec(const struct rt_rb_record *r, u32 seq, unsigned int len)
{
	unsigned int i;

	if (r->data[0] != seq || r->len != ALIGN(len, 4))
		return 0;
	if (len >= 8 && r->data[1] != len)
		return 0;
	for (i = 2; i < len / 4; i++)
		if (r->data[i] != seq * 31 + i)
			return 0;
	return 1;
}

static int invariant(struct rt_buffer *b, int cpu)
{
	struct rt_rb_stats st;

	rt_buffer_stats(b, cpu, &st);
	if (st.read + st.overrun + st.dropped + st.entries != st.written) {
		fprintf(stderr, "  invariant: read %llu + overrun %llu + dropped %llu + entries %llu != written %llu\n",
			(unsigned long long)st.read, (unsigned long long)st.overrun,
			(unsigned long long)st.dropped, (unsigned long long)st.entries,
			(unsigned long long)st.written);
		return 0;
	}
	return 1;
}

static void t_basic(void)
{
	struct rt_buffer *b = rt_buffer_alloc(16384, true);
	u64 before;

	CHECK(b, "alloc");
	CHECK(rt_buffer_consume(b, 0, &rec) == -ENODATA, "empty at start");
	host_clock = fake_clock;
	before = fake_now;
	CHECK(put(b, 42, 12) == 0, "write");
	CHECK(rt_buffer_peek(b, 0, &rec) == 0, "peek");
	CHECK(check_rec(&rec, 42, 12), "content");
	CHECK(rec.ts > before && rec.ts <= fake_now, "ts %llu", (unsigned long long)rec.ts);
	CHECK(rt_buffer_consume(b, 0, &rec) == 0 && check_rec(&rec, 42, 12), "consume");
	CHECK(rt_buffer_consume(b, 0, &rec) == -ENODATA, "empty after");
	CHECK(invariant(b, 0), "invariant");
	rt_buffer_free(b);
}

static void t_sizes(void)
{
	struct rt_buffer *b = rt_buffer_alloc(64 * 4096, false);
	unsigned int len;
	u32 seq = 0;

	CHECK(b, "alloc");
	/* Every size from 1 byte to the maximum, across page boundaries. */
	for (len = 1; len <= RT_RB_MAX_PAYLOAD; len += (len < 200 ? 1 : 97)) {
		CHECK(put(b, seq, len) == 0, "write len %u", len);
		CHECK(rt_buffer_consume(b, 0, &rec) == 0, "read len %u", len);
		CHECK(check_rec(&rec, seq, len), "content len %u got len %u", len, rec.len);
		seq++;
	}
	CHECK(put(b, 0, RT_RB_MAX_PAYLOAD) == 0, "max fits");
	CHECK(rt_buffer_reserve(b, RT_RB_MAX_PAYLOAD + 1) == NULL, "too large refused");
	CHECK(rt_buffer_reserve(b, 1u << 30) == NULL, "huge refused");
	CHECK(invariant(b, 0), "invariant");
	rt_buffer_free(b);
}

/* Fill far past capacity; overwrite keeps the newest suffix. */
static void t_overwrite_full(void)
{
	struct rt_buffer *b = rt_buffer_alloc(4 * 4096, true);
	struct rt_rb_stats st;
	u32 seq, first = 0, n = 0;

	CHECK(b, "alloc");
	for (seq = 0; seq < 5000; seq++)
		CHECK(put(b, seq, 4 + (seq % 13) * 4) == 0, "write %u", seq);
	rt_buffer_stats(b, 0, &st);
	CHECK(st.overrun > 0 && st.dropped == 0, "overrun %llu", (unsigned long long)st.overrun);
	CHECK(invariant(b, 0), "invariant before read");
	while (rt_buffer_consume(b, 0, &rec) == 0) {
		if (!n)
			first = rec.data[0];
		CHECK(check_rec(&rec, first + n, 4 + ((first + n) % 13) * 4), "record %u", n);
		n++;
	}
	CHECK(first + n == 5000, "suffix ends at last write (first %u n %u)", first, n);
	CHECK(n == st.entries, "entries %llu read %u", (unsigned long long)st.entries, n);
	CHECK(invariant(b, 0), "invariant after read");
	rt_buffer_free(b);
}

/* Fill far past capacity; no-overwrite keeps the oldest prefix. */
static void t_drop_full(void)
{
	struct rt_buffer *b = rt_buffer_alloc(4 * 4096, false);
	struct rt_rb_stats st;
	u32 seq, n = 0, ok = 0;

	CHECK(b, "alloc");
	for (seq = 0; seq < 5000; seq++)
		ok += put(b, seq, 16) == 0;
	rt_buffer_stats(b, 0, &st);
	CHECK(st.dropped == 5000 - ok && st.overrun == 0, "dropped %llu", (unsigned long long)st.dropped);
	while (rt_buffer_consume(b, 0, &rec) == 0) {
		CHECK(check_rec(&rec, n, 16), "record %u", n);
		n++;
	}
	CHECK(n == ok, "kept %u read %u", ok, n);
	CHECK(invariant(b, 0), "invariant");
	/* Space is usable again after reading. */
	CHECK(put(b, 7, 16) == 0, "write after drain");
	CHECK(rt_buffer_consume(b, 0, &rec) == 0 && check_rec(&rec, 7, 16), "read after drain");
	rt_buffer_free(b);
}

/* Explicit nesting: an inner record is hidden until the outer commits. */
static void t_nested_commit(void)
{
	struct rt_buffer *b = rt_buffer_alloc(16384, true);
	u32 *outer, *inner;

	CHECK(b, "alloc");
	outer = rt_buffer_reserve(b, 8);
	CHECK(outer, "outer");
	outer[0] = 1;
	outer[1] = 8;
	inner = rt_buffer_reserve(b, 8);
	CHECK(inner, "inner");
	inner[0] = 2;
	inner[1] = 8;
	rt_buffer_commit(b);
	CHECK(rt_buffer_peek(b, 0, &rec) == -ENODATA, "inner not visible before outer commit");
	rt_buffer_commit(b);
	CHECK(rt_buffer_consume(b, 0, &rec) == 0 && check_rec(&rec, 1, 8), "outer first");
	CHECK(rt_buffer_consume(b, 0, &rec) == 0 && check_rec(&rec, 2, 8), "inner second");
	CHECK(invariant(b, 0), "invariant");
	rt_buffer_free(b);
}

/* Simulated interrupts landing inside the reservation window. */
static struct rt_buffer *hook_buf;
static u32 hook_seq;
static int hook_count;
/* Claim the sequence number only once the slot is ours. */
static void put_claim(struct rt_buffer *b)
{
	unsigned int len = 8 + (hook_seq % 40) * 4, i;
	u32 *p = rt_buffer_reserve(b, len);

	if (!p)
		return;
	p[0] = hook_seq++;
	p[1] = len;
	for (i = 2; i < len / 4; i++)
		p[i] = p[0] * 31 + i;
	rt_buffer_commit(b);
}

static void irq_writer(void)
{
	if (hook_count-- > 0)
		put_claim(hook_buf);
}

static void t_nested_irq(void)
{
	struct rt_buffer *b = rt_buffer_alloc(8 * 4096, false);
	u32 n = 0, expect = 0;
	u64 last_ts = 0;
	int i;

	CHECK(b, "alloc");
	host_clock = fake_clock;
	hook_buf = b;
	hook_seq = 0;
	host_irq_hook = irq_writer;
	for (i = 0; i < 300; i++) {
		hook_count = i % 3;
		put_claim(b);
	}
	host_irq_hook = NULL;
	/* Sequence numbers are taken in buffer order: nested first. */
	while (rt_buffer_consume(b, 0, &rec) == 0) {
		CHECK(rec.data[0] == expect, "order %u after %u", rec.data[0], expect);
		CHECK(check_rec(&rec, rec.data[0], rec.len), "content");
		CHECK(rec.ts >= last_ts, "ts went back");
		expect = rec.data[0] + 1;
		last_ts = rec.ts;
		n++;
	}
	CHECK(n > 300, "n %u", n);
	CHECK(invariant(b, 0), "invariant");
	rt_buffer_free(b);
}

/* A nested flood must not overwrite the page holding an open record. */
static void t_commit_overrun(void)
{
	struct rt_buffer *b = rt_buffer_alloc(2 * 4096, true);
	struct rt_rb_stats st;
	u32 *outer;
	int i, seen_outer = 0;

	CHECK(b, "alloc");
	outer = rt_buffer_reserve(b, 64);
	CHECK(outer, "outer");
	for (i = 0; i < 2000; i++)
		put(b, 1000 + i, 64);
	outer[0] = 7;
	outer[1] = 64;
	for (i = 2; i < 16; i++)
		outer[i] = 7 * 31 + i;
	rt_buffer_commit(b);
	rt_buffer_stats(b, 0, &st);
	CHECK(st.dropped > 0, "nested writes beyond the open page dropped");
	CHECK(st.commit_overrun == st.dropped,
	      "every drop here is a commit overrun (%llu of %llu)",
	      (unsigned long long)st.commit_overrun,
	      (unsigned long long)st.dropped);
	while (rt_buffer_consume(b, 0, &rec) == 0)
		if (rec.data[0] == 7)
			seen_outer = check_rec(&rec, 7, 64);
	CHECK(seen_outer, "outer record intact");
	CHECK(invariant(b, 0), "invariant");
	rt_buffer_free(b);
}

/* Gaps beyond the 27-bit delta use an absolute stamp. */
static u64 jump_clock_v;
static u64 jump_clock(void) { return jump_clock_v; }
static void t_time_extend(void)
{
	struct rt_buffer *b = rt_buffer_alloc(16384, true);
	u64 stamps[] = { 1000, 1001, 1000 + (1ULL << 27) + 5, 1ULL << 40,
			 (1ULL << 40) + 3, (1ULL << 62) + 11 };
	unsigned int i;

	CHECK(b, "alloc");
	host_clock = jump_clock;
	for (i = 0; i < 6; i++) {
		jump_clock_v = stamps[i];
		CHECK(put(b, i, 8) == 0, "write");
	}
	for (i = 0; i < 6; i++) {
		CHECK(rt_buffer_consume(b, 0, &rec) == 0, "read %u", i);
		CHECK(rec.ts == stamps[i], "ts %u: %llu != %llu", i,
		      (unsigned long long)rec.ts, (unsigned long long)stamps[i]);
	}
	rt_buffer_free(b);
}

/*
 * Clocks: setting one empties the buffer; "counter" stamps count;
 * "global" never hands a CPU a stamp below one another CPU got, even
 * when that CPU's own clock is behind.
 */
static u64 cpu_clock_v[2];
static u64 per_cpu_clock(void) { return cpu_clock_v[host_cpu]; }
static void t_clocks(void)
{
	struct rt_buffer *b;
	u64 first;
	int i;

	nr_cpu_ids = 2;
	b = rt_buffer_alloc(16384, true);
	CHECK(b, "alloc");
	CHECK(rt_buffer_clock(b) == RT_RB_CLOCK_LOCAL, "local by default");
	CHECK(rt_buffer_set_clock(b, RT_RB_NR_CLOCKS) == -EINVAL, "unknown clock");
	CHECK(rt_buffer_clock(b) == RT_RB_CLOCK_LOCAL, "unknown clock changed nothing");
	host_clock = fake_clock;
	put(b, 1, 8);
	CHECK(rt_buffer_set_clock(b, RT_RB_CLOCK_COUNTER) == 0, "set counter");
	CHECK(rt_buffer_clock(b) == RT_RB_CLOCK_COUNTER, "counter set");
	CHECK(rt_buffer_consume(b, 0, &rec) == -ENODATA, "a clock change empties");
	for (i = 0; i < 3; i++)
		put(b, i, 8);
	CHECK(rt_buffer_consume(b, 0, &rec) == 0, "counter read");
	first = rec.ts;
	for (i = 1; i < 3; i++) {
		CHECK(rt_buffer_consume(b, 0, &rec) == 0, "counter read %d", i);
		CHECK(rec.ts == first + i, "counter stamp %d: %llu after %llu", i,
		      (unsigned long long)rec.ts, (unsigned long long)first);
	}

	CHECK(rt_buffer_set_clock(b, RT_RB_CLOCK_GLOBAL) == 0, "set global");
	host_clock = per_cpu_clock;
	/* CPU 1's clock is far ahead of CPU 0's. */
	cpu_clock_v[0] = 1000;
	cpu_clock_v[1] = 5000;
	host_cpu = 1;
	put(b, 10, 8);
	host_cpu = 0;
	put(b, 11, 8);
	cpu_clock_v[0] = 6000;
	put(b, 12, 8);
	CHECK(rt_buffer_consume(b, 1, &rec) == 0 && rec.ts == 5000, "cpu 1 stamp %llu",
	      (unsigned long long)rec.ts);
	CHECK(rt_buffer_consume(b, 0, &rec) == 0 && rec.ts == 5000,
	      "cpu 0 behind: stamped with the last global stamp, got %llu",
	      (unsigned long long)rec.ts);
	CHECK(rt_buffer_consume(b, 0, &rec) == 0 && rec.ts == 6000, "cpu 0 ahead again: %llu",
	      (unsigned long long)rec.ts);
	CHECK(rt_buffer_set_clock(b, RT_RB_CLOCK_LOCAL) == 0, "back to local");
	CHECK(invariant(b, 0), "invariant");
	host_clock = fake_clock;
	rt_buffer_free(b);
	nr_cpu_ids = 1;
}

static void t_resize(void)
{
	struct rt_buffer *b = rt_buffer_alloc(4 * 4096, true);
	struct rt_rb_iter it;
	unsigned long old;

	CHECK(b, "alloc");
	put(b, 1, 8);
	rt_buffer_iter_start(&it, b, 0);
	old = rt_buffer_size(b);
	host_alloc_budget = 3;
	CHECK(rt_buffer_resize(b, 100 * 4096) == -ENOMEM, "resize fails on ENOMEM");
	host_alloc_budget = -1;
	CHECK(rt_buffer_size(b) == old, "size kept");
	CHECK(rt_buffer_peek(b, 0, &rec) == 0 && check_rec(&rec, 1, 8), "data kept");
	CHECK(rt_buffer_resize(b, 100 * 4096) == 0, "resize");
	CHECK(rt_buffer_size(b) >= 100 * 4096 && rt_buffer_size(b) < 102 * 4096, "new size %lu", rt_buffer_size(b));
	CHECK(rt_buffer_peek(b, 0, &rec) == -ENODATA, "emptied");
	/* An iterator opened before the resize starts over, on new pages. */
	CHECK(rt_buffer_iter_peek(&it, &rec) == -ENODATA, "iterator after resize");
	put(b, 3, 8);
	CHECK(rt_buffer_iter_peek(&it, &rec) == -ENODATA, "restarted iterator stops where it restarted");
	rt_buffer_iter_start(&it, b, 0);
	CHECK(rt_buffer_iter_peek(&it, &rec) == 0 && check_rec(&rec, 3, 8), "new iterator sees new data");
	rt_buffer_reset(b);
	CHECK(put(b, 2, 8) == 0 && rt_buffer_consume(b, 0, &rec) == 0 && check_rec(&rec, 2, 8), "usable");
	CHECK(rt_buffer_resize(b, 1) == 0 && rt_buffer_size(b) > 0, "minimum size");
	CHECK(invariant(b, 0), "invariant");
	rt_buffer_free(b);
}

static void t_iterator(void)
{
	struct rt_buffer *b = rt_buffer_alloc(4 * 4096, true);
	struct rt_rb_iter it;
	u32 n = 0, seq;

	CHECK(b, "alloc");
	for (seq = 0; seq < 100; seq++)
		put(b, seq, 16);
	rt_buffer_iter_start(&it, b, 0);
	while (rt_buffer_iter_peek(&it, &rec) == 0) {
		CHECK(check_rec(&rec, n, 16), "iter %u", n);
		rt_buffer_iter_advance(&it, &rec);
		n++;
	}
	CHECK(n == 100, "iterated %u", n);
	CHECK(rt_buffer_consume(b, 0, &rec) == 0 && check_rec(&rec, 0, 16), "not consumed");
	/* The walk ends at what was committed when it started. */
	rt_buffer_iter_start(&it, b, 0);
	for (seq = 100; seq < 110; seq++)
		put(b, seq, 16);
	n = 0;
	while (rt_buffer_iter_peek(&it, &rec) == 0) {
		CHECK(rec.data[0] < 100, "record %u written after the start", rec.data[0]);
		rt_buffer_iter_advance(&it, &rec);
		n++;
	}
	CHECK(n == 99, "iterated %u after the start", n);
	/* Overwrite under a paused iterator: it skips, never returns junk. */
	rt_buffer_iter_start(&it, b, 0);
	CHECK(rt_buffer_iter_peek(&it, &rec) == 0, "peek");
	for (seq = 110; seq < 3000; seq++)
		put(b, seq, 16);
	n = 0;
	while (rt_buffer_iter_peek(&it, &rec) == 0) {
		CHECK(check_rec(&rec, rec.data[0], 16), "intact");
		rt_buffer_iter_advance(&it, &rec);
		n++;
	}
	/* Everything it could show was overwritten: it skips and ends. */
	CHECK(it.skipped > 0 && n == 0, "skipped %llu n %u", (unsigned long long)it.skipped, n);
	rt_buffer_reset(b);
	CHECK(rt_buffer_consume(b, 0, &rec) == -ENODATA, "reset empties");
	CHECK(invariant(b, 0), "invariant");
	rt_buffer_free(b);
}

/* Several CPUs: records stay on their own CPU. */
static void t_multi_cpu(void)
{
	struct rt_buffer *b;
	int cpu;

	nr_cpu_ids = 4;
	b = rt_buffer_alloc(16384, true);
	CHECK(b, "alloc");
	for (cpu = 0; cpu < 4; cpu++) {
		host_cpu = cpu;
		put(b, cpu, 8);
	}
	host_cpu = 0;
	for (cpu = 3; cpu >= 0; cpu--) {
		CHECK(rt_buffer_consume(b, cpu, &rec) == 0 && check_rec(&rec, cpu, 8), "cpu %d", cpu);
		CHECK(rt_buffer_empty_cpu(b, cpu), "cpu %d empty", cpu);
	}
	rt_buffer_free(b);
	nr_cpu_ids = 1;
}

/*
 * rt_buffer_resize_cpu: only that CPU's ring changes size and loses its
 * records; the buffer's size reads 0 while the rings differ and comes
 * back when they agree; a failed resize keeps everything; a swap needs
 * the two rings of that CPU to be of one size.
 */
static void t_resize_cpu(void)
{
	struct rt_buffer *b, *m;
	unsigned long sz;

	nr_cpu_ids = 2;
	b = rt_buffer_alloc(4 * 4096, true);
	m = rt_buffer_alloc(4 * 4096, true);
	CHECK(b && m, "alloc");
	sz = rt_buffer_size(b);
	host_cpu = 0;
	put(b, 10, 8);
	host_cpu = 1;
	put(b, 11, 8);
	host_cpu = 0;
	host_alloc_budget = 3;
	CHECK(rt_buffer_resize_cpu(b, 1, 100 * 4096) == -ENOMEM, "ENOMEM");
	host_alloc_budget = -1;
	CHECK(rt_buffer_size_cpu(b, 1) == sz && rt_buffer_size(b) == sz, "size kept");
	CHECK(rt_buffer_resize_cpu(b, 1, 100 * 4096) == 0, "resize cpu 1");
	CHECK(rt_buffer_size_cpu(b, 1) >= 100 * 4096, "cpu 1 size %lu", rt_buffer_size_cpu(b, 1));
	CHECK(rt_buffer_size_cpu(b, 0) == sz, "cpu 0 size kept");
	CHECK(rt_buffer_size(b) == 0, "mixed sizes read 0, got %lu", rt_buffer_size(b));
	CHECK(rt_buffer_peek(b, 0, &rec) == 0 && check_rec(&rec, 10, 8), "cpu 0 data kept");
	CHECK(rt_buffer_peek(b, 1, &rec) == -ENODATA, "cpu 1 emptied");
	host_cpu = 1;
	CHECK(put(b, 12, 8) == 0, "cpu 1 writable");
	host_cpu = 0;
	CHECK(rt_buffer_consume(b, 1, &rec) == 0 && check_rec(&rec, 12, 8), "cpu 1 readable");
	CHECK(invariant(b, 0) && invariant(b, 1), "invariant");
	CHECK(rt_buffer_swap_cpu(b, m, 1) == -EINVAL, "swap of unequal rings");
	CHECK(rt_buffer_swap_cpu(b, m, 0) == 0, "swap of equal rings");
	CHECK(rt_buffer_resize_cpu(b, 2, sz) == -EINVAL && rt_buffer_resize_cpu(b, -1, sz) == -EINVAL,
	      "no such CPU");
	CHECK(rt_buffer_size_cpu(b, 2) == 0, "no such CPU's size");
	CHECK(rt_buffer_resize_cpu(b, 1, sz) == 0 && rt_buffer_size(b) == sz, "sizes agree again");
	CHECK(rt_buffer_resize(b, 2 * sz) == 0 && rt_buffer_size_cpu(b, 1) == rt_buffer_size(b), "resize all");
	rt_buffer_free(b);
	rt_buffer_free(m);
	nr_cpu_ids = 1;
}

/* The epoch and loss counts rt_buffer_lost_info() reports for @cpu. */
static struct rt_rb_batch_info batch_info(struct rt_buffer *b, int cpu)
{
	struct rt_rb_batch_info info;

	rt_buffer_lost_info(b, cpu, &info);
	return info;
}

/*
 * A ring's epoch is its own: resizing or swapping one CPU's ring gives
 * that ring a new epoch and leaves the other CPUs' alone (a reader of
 * CPU 0 must not report CPU 0's old losses again because of CPU 1),
 * and a swapped-in ring's epoch begins at the losses it brings.
 */
static void t_epoch_per_cpu(void)
{
	struct rt_buffer *b, *m;
	struct rt_rb_batch_info c0, c1, now;
	u32 seq;

	nr_cpu_ids = 2;
	b = rt_buffer_alloc(4 * 4096, true);
	m = rt_buffer_alloc(4 * 4096, true);
	CHECK(b && m, "alloc");
	/* Overwrite on both CPUs of b, and on CPU 1 of m. */
	for (host_cpu = 0; host_cpu < 2; host_cpu++)
		for (seq = 0; seq < 3000; seq++)
			put(b, seq, 16);
	host_cpu = 1;
	for (seq = 0; seq < 2000; seq++)
		put(m, seq, 16);
	host_cpu = 0;
	c0 = batch_info(b, 0);
	c1 = batch_info(b, 1);
	CHECK(c0.lost > 0 && c1.lost > 0, "losses %llu %llu",
	      (unsigned long long)c0.lost, (unsigned long long)c1.lost);
	CHECK(c0.epoch != c1.epoch, "two rings, one epoch");
	CHECK(rt_buffer_resize_cpu(b, 1, 8 * 4096) == 0, "resize cpu 1");
	now = batch_info(b, 0);
	CHECK(now.epoch == c0.epoch && now.lost == c0.lost,
	      "cpu 0 after cpu 1's resize: epoch %lu (was %lu)", now.epoch,
	      c0.epoch);
	now = batch_info(b, 1);
	CHECK(now.epoch != c1.epoch && now.lost == 0 && now.lost_base == 0,
	      "cpu 1 resized: new epoch from 0");
	CHECK(rt_buffer_resize_cpu(b, 1, 4 * 4096) == 0, "size back");
	c1 = batch_info(m, 1);
	CHECK(rt_buffer_swap_cpu(b, m, 1) == 0, "swap cpu 1");
	now = batch_info(b, 0);
	CHECK(now.epoch == c0.epoch && now.lost == c0.lost,
	      "cpu 0 after cpu 1's swap");
	now = batch_info(b, 1);
	CHECK(now.epoch != c1.epoch && now.lost == c1.lost &&
	      now.lost_base == c1.lost,
	      "swapped-in ring: epoch %lu, lost %llu from %llu", now.epoch,
	      (unsigned long long)now.lost,
	      (unsigned long long)now.lost_base);
	rt_buffer_reset(b);
	now = batch_info(b, 0);
	CHECK(now.epoch != c0.epoch && now.lost == 0 && now.lost_base == 0,
	      "reset: new epoch from 0");
	rt_buffer_free(b);
	rt_buffer_free(m);
	nr_cpu_ids = 1;
}

/*
 * rt_buffer_swap_cpu: one CPU's ring (records and counters) changes
 * buffers, the other CPUs stay, both buffers keep working after, and
 * buffers of different sizes are refused; a ring's name goes with it.
 */
static void t_swap_cpu(void)
{
	struct rt_buffer *live, *max, *small;
	struct rt_rb_stats st;
	unsigned long id;
	int cpu;

	nr_cpu_ids = 2;
	live = rt_buffer_alloc(16384, true);
	max = rt_buffer_alloc(16384, true);
	small = rt_buffer_alloc(8192, true);
	CHECK(live && max && small, "alloc");
	for (cpu = 0; cpu < 2; cpu++) {
		host_cpu = cpu;
		put(live, 100 + cpu, 8);
		put(live, 200 + cpu, 8);
	}
	host_cpu = 1;
	put(max, 300, 8);
	CHECK(rt_buffer_swap_cpu(live, small, 1) == -EINVAL, "sizes differ");
	CHECK(rt_buffer_swap_cpu(live, live, 1) == -EINVAL, "same buffer");
	id = rt_buffer_ring_id(live, 1);
	CHECK(id && id != rt_buffer_ring_id(max, 1) &&
	      id != rt_buffer_ring_id(live, 0), "ring names differ");
	CHECK(rt_buffer_swap_cpu(live, max, 1) == 0, "swap");
	CHECK(rt_buffer_ring_id(max, 1) == id && rt_buffer_ring_id(live, 1) != id,
	      "the ring's name moved with it");
	rt_buffer_stats(max, 1, &st);
	CHECK(st.written == 2 && st.entries == 2, "max cpu1 written %llu", (unsigned long long)st.written);
	CHECK(rt_buffer_consume(max, 1, &rec) == 0 && check_rec(&rec, 101, 8), "max cpu1 first");
	CHECK(rt_buffer_consume(max, 1, &rec) == 0 && check_rec(&rec, 201, 8), "max cpu1 second");
	CHECK(rt_buffer_empty_cpu(max, 0), "max cpu0 untouched");
	CHECK(rt_buffer_consume(live, 1, &rec) == 0 && check_rec(&rec, 300, 8), "live cpu1 got the old max");
	CHECK(rt_buffer_consume(live, 0, &rec) == 0 && check_rec(&rec, 100, 8), "live cpu0 stays");
	/* Both keep taking records on the swapped CPU. */
	put(live, 400, 8);
	put(max, 500, 8);
	CHECK(rt_buffer_consume(live, 1, &rec) == 0 && check_rec(&rec, 400, 8), "live writes after");
	CHECK(rt_buffer_consume(max, 1, &rec) == 0 && check_rec(&rec, 500, 8), "max writes after");
	for (cpu = 0; cpu < 2; cpu++)
		CHECK(invariant(live, cpu) && invariant(max, cpu), "invariant cpu %d", cpu);
	host_cpu = 0;
	rt_buffer_free(live);
	rt_buffer_free(max);
	rt_buffer_free(small);
	nr_cpu_ids = 1;
}

/*
 * rt_buffer_swap: every CPU's ring changes buffers at once; one ring
 * of another size refuses the whole swap and moves nothing.
 */
static void t_swap_all(void)
{
	struct rt_buffer *live, *snap;
	int cpu;

	nr_cpu_ids = 2;
	live = rt_buffer_alloc(16384, true);
	snap = rt_buffer_alloc(16384, true);
	CHECK(live && snap, "alloc");
	for (cpu = 0; cpu < 2; cpu++) {
		host_cpu = cpu;
		put(live, 100 + cpu, 8);
		put(snap, 300 + cpu, 8);
	}
	CHECK(rt_buffer_resize_cpu(snap, 1, 8192) == 0, "shrink snap cpu1");
	host_cpu = 1;
	put(snap, 301, 8);
	CHECK(rt_buffer_swap(live, snap) == -EINVAL, "one ring differs");
	CHECK(rt_buffer_swap(live, live) == -EINVAL, "same buffer");
	CHECK(rt_buffer_consume(live, 0, &rec) == 0 && check_rec(&rec, 100, 8), "refused: cpu0 stays");
	CHECK(rt_buffer_consume(snap, 1, &rec) == 0 && check_rec(&rec, 301, 8), "refused: cpu1 stays");
	put(live, 201, 8);
	CHECK(rt_buffer_resize_cpu(snap, 1, 16384) == 0, "regrow snap cpu1");
	CHECK(rt_buffer_swap(live, snap) == 0, "swap");
	CHECK(rt_buffer_consume(snap, 1, &rec) == 0 && check_rec(&rec, 101, 8), "snap cpu1 first");
	CHECK(rt_buffer_consume(snap, 1, &rec) == 0 && check_rec(&rec, 201, 8), "snap cpu1 second");
	CHECK(rt_buffer_empty_cpu(snap, 0), "snap cpu0: live's was consumed");
	CHECK(rt_buffer_consume(live, 0, &rec) == 0 && check_rec(&rec, 300, 8), "live cpu0 got snap's");
	CHECK(rt_buffer_empty_cpu(live, 1), "live cpu1: snap's resized ring is empty");
	for (cpu = 0; cpu < 2; cpu++) {
		host_cpu = cpu;
		put(live, 400 + cpu, 8);
		CHECK(rt_buffer_consume(live, cpu, &rec) == 0 && check_rec(&rec, 400 + cpu, 8),
		      "live writes after, cpu %d", cpu);
		CHECK(invariant(live, cpu) && invariant(snap, cpu), "invariant cpu %d", cpu);
	}
	host_cpu = 0;
	rt_buffer_free(live);
	rt_buffer_free(snap);
	nr_cpu_ids = 1;
}

/* rt_buffer_consume_span(): order, the stop record stays, counts. */
struct span_state {
	u32 next;		/* sequence number expected next */
	unsigned int left;	/* records to take before saying stop */
	unsigned int seen, kept, kept_calls;
	int bad;
};

static int span_state_take(void *arg, u64 ts, const void *data,
			   unsigned int len)
{
	struct span_state *ss = arg;
	const u32 *w = data;

	if (!ss->left)
		return 1;
	if (w[0] != ss->next || len != 4 + (w[0] % 13) * 4)
		ss->bad = 1;
	ss->next = w[0] + 1;
	ss->seen++;
	ss->left--;
	return 0;
}

static void span_state_keep(void *arg)
{
	struct span_state *ss = arg;

	ss->kept = ss->seen;
	ss->kept_calls++;
}

static void span_state_undo(void *arg)
{
	((struct span_state *)arg)->bad = 2;	/* no writer runs here */
}

static const struct rt_rb_span_ops span_state_ops = {
	.take = span_state_take,
	.keep = span_state_keep,
	.undo = span_state_undo,
};

static void t_consume_span(void)
{
	struct rt_buffer *b = rt_buffer_alloc(4 * 4096, true);
	struct span_state ss = { 0 };
	struct rt_rb_batch_info info = { 0 }, info2;
	struct rt_rb_stats st;
	unsigned int n, total = 0;
	unsigned long gen;
	u32 seq;

	CHECK(b, "alloc");
	for (seq = 0; seq < 100; seq++)
		put(b, seq, 4 + (seq % 13) * 4);
	/* Stops before the record take refused: it stays in the ring. */
	ss.left = 10;
	n = rt_buffer_consume_span(b, 0, &span_state_ops, &ss, &info);
	CHECK(n == 10 && ss.seen == 10 && ss.kept == 10 && !ss.bad,
	      "first span %u", n);
	CHECK(info.lost == 0, "nothing lost yet");
	gen = info.epoch;
	CHECK(info.lost_base == 0, "a new ring's epoch starts at 0 lost");
	CHECK(rt_buffer_consume(b, 0, &rec) == 0 && rec.data[0] == 10,
	      "the refused record is the next one");
	/* Drains the rest, a ring page (and one claim) at a time. */
	ss.next = 11;
	ss.left = 1000;
	ss.kept_calls = 0;
	n = rt_buffer_consume_span(b, 0, &span_state_ops, &ss, NULL);
	CHECK(n == 89 && !ss.bad && ss.next == 100, "rest %u next %u", n,
	      ss.next);
	CHECK(ss.kept_calls >= 1 && ss.kept_calls < 89,
	      "claims: %u for 89 records", ss.kept_calls);
	CHECK(rt_buffer_consume_span(b, 0, &span_state_ops, &ss, &info) == 0,
	      "empty ring: no record");
	CHECK(info.epoch == gen, "epoch changed without a reset");
	/* Overwritten records are lost; read + lost adds up. */
	for (seq = 100; seq < 5000; seq++)
		put(b, seq, 4 + (seq % 13) * 4);
	CHECK(rt_buffer_peek(b, 0, &rec) == 0 && rec.data[0] > 100,
	      "oldest kept record");
	ss.next = rec.data[0];
	ss.left = 100000;
	while ((n = rt_buffer_consume_span(b, 0, &span_state_ops, &ss,
					   &info)) > 0)
		total += n;
	rt_buffer_stats(b, 0, &st);
	CHECK(!ss.bad && ss.next == 5000, "in order to the last (%u)",
	      ss.next - 1);
	CHECK(info.lost == st.overrun + st.dropped && info.lost > 0,
	      "lost %llu", (unsigned long long)info.lost);
	CHECK(total + info.lost == 4900, "read %u + lost %llu", total,
	      (unsigned long long)info.lost);
	CHECK(st.read == 10 + 1 + 89 + total, "read count %llu",
	      (unsigned long long)st.read);
	CHECK(invariant(b, 0), "invariant");
	/* rt_buffer_lost_info() agrees, consumes nothing, keeps the epoch. */
	put(b, 2, 4);
	rt_buffer_lost_info(b, 0, &info2);
	CHECK(info2.lost == info.lost && info2.epoch == gen &&
	      info2.lost_base == 0, "lost_info %llu epoch %lu",
	      (unsigned long long)info2.lost, info2.epoch);
	CHECK(rt_buffer_consume(b, 0, &rec) == 0 && rec.data[0] == 2,
	      "the record is still there");
	/* A reset restarts the counts under a new epoch. */
	rt_buffer_reset(b);
	put(b, 1, 4);
	ss.next = 1;
	CHECK(rt_buffer_consume_span(b, 0, &span_state_ops, &ss, &info) == 1,
	      "one record after reset");
	CHECK(info.epoch != gen && info.lost == 0 && info.lost_base == 0,
	      "after reset: epoch %lu (was %lu), lost %llu",
	      info.epoch, gen, (unsigned long long)info.lost);
	rt_buffer_free(b);
}

/*
 * rt_buffer_consume_peek() takes and peeks at the next in one go;
 * rt_buffer_peek_current() says whether a peek is still the head:
 * not after a consumer took it, an overwriting writer passed it or
 * a reset started a new life of the ring.
 */
static void t_consume_peek(void)
{
	struct rt_buffer *b = rt_buffer_alloc(4 * 4096, true);
	static struct rt_rb_record next, peek;
	bool have = true;
	u32 seq;

	CHECK(b, "alloc");
	for (seq = 0; seq < 3; seq++)
		put(b, seq, 8);
	CHECK(rt_buffer_peek(b, 0, &peek) == 0 && peek.data[0] == 0, "peek");
	CHECK(rt_buffer_peek_current(b, &peek), "a fresh peek is current");
	for (seq = 0; seq < 3; seq++) {
		CHECK(rt_buffer_consume_peek(b, 0, &rec, &next, &have) == 0 &&
		      rec.data[0] == seq, "take %u", seq);
		CHECK(have == (seq < 2) && (!have || next.data[0] == seq + 1),
		      "next after %u", seq);
		CHECK(!have || rt_buffer_peek_current(b, &next),
		      "the next peek is current");
		CHECK(!rt_buffer_peek_current(b, &peek), "taken: not current");
		peek = next;
	}
	CHECK(rt_buffer_consume_peek(b, 0, &rec, &next, &have) == -ENODATA &&
	      !have, "empty");
	/* Overwritten: the writer moved read_pos past it. */
	put(b, 100, 8);
	CHECK(rt_buffer_peek(b, 0, &peek) == 0 && rt_buffer_peek_current(b, &peek),
	      "peek 100");
	for (seq = 101; seq < 3000; seq++)
		put(b, seq, 40);
	CHECK(!rt_buffer_peek_current(b, &peek), "overwritten: not current");
	/* A reset: a new life, whatever read_pos says. */
	rt_buffer_reset(b);
	put(b, 1, 8);
	CHECK(rt_buffer_peek(b, 0, &peek) == 0, "peek after reset");
	rt_buffer_reset(b);
	put(b, 1, 8);
	CHECK(!rt_buffer_peek_current(b, &peek), "reset: not current");
	CHECK(invariant(b, 0), "invariant");
	rt_buffer_free(b);
}

/*
 * take_run(): the same records, with the same times, as one by one,
 * through absolute times (time jumps past 27 bits), steps back and
 * long records; a claim per ring page, not per record.
 */
struct run_seen {
	u32 seq[600], len[600];
	u64 ts[600];
	unsigned int n, kept, keeps, via_run, bad;
};

static int run_take(void *arg, u64 ts, const void *data, unsigned int len)
{
	struct run_seen *rs = arg;
	const u32 *w = data;

	if (rs->n >= 600)
		return 1;
	rs->seq[rs->n] = w[0];
	rs->len[rs->n] = len;
	rs->ts[rs->n] = ts;
	if (len >= 8 && w[1] != len)
		rs->bad++;
	rs->n++;
	return 0;
}

static unsigned int run_take_run(void *arg, const struct rt_rb_run *run,
				 unsigned int *bytes)
{
	struct run_seen *rs = arg;
	unsigned int n = rt_rb_run_each(run, run_take, arg, bytes);

	rs->via_run += n;
	return n;
}

static void run_keep(void *arg)
{
	struct run_seen *rs = arg;

	rs->kept = rs->n;
	rs->keeps++;
}

static void run_undo(void *arg)
{
	((struct run_seen *)arg)->bad++;	/* no writer runs here */
}

static const struct rt_rb_span_ops run_ops = {
	.take = run_take,
	.take_run = run_take_run,
	.keep = run_keep,
	.undo = run_undo,
};

static void run_fill(struct rt_buffer *b)
{
	u32 seq;

	jump_clock_v = 1ULL << 33;
	for (seq = 0; seq < 500; seq++) {
		if (seq % 150 == 149)
			jump_clock_v += 1ULL << 28;	/* absolute times */
		else if (seq % 53 == 52)
			jump_clock_v -= 3;		/* a step back */
		else
			jump_clock_v += 5;
		CHECK(put(b, seq, seq % 29 == 0 ? 200 : 4 + (seq % 13) * 4) == 0,
		      "write %u", seq);
	}
}

static void t_consume_run(void)
{
	struct rt_buffer *a = rt_buffer_alloc(64 * 4096, true);
	struct rt_buffer *b = rt_buffer_alloc(64 * 4096, true);
	static struct run_seen rs;
	struct rt_rb_stats st;
	unsigned int i, n = 0;

	CHECK(a && b, "alloc");
	host_clock = jump_clock;
	run_fill(a);
	run_fill(b);
	while (rt_buffer_consume_span(b, 0, &run_ops, &rs, NULL))
		;
	CHECK(rs.n == 500 && rs.kept == 500 && !rs.bad, "taken %u kept %u bad %u",
	      rs.n, rs.kept, rs.bad);
	for (i = 0; i < 500 && !rt_buffer_consume(a, 0, &rec); i++, n++) {
		CHECK(rs.seq[i] == rec.data[0] && rs.len[i] == rec.len &&
		      rs.ts[i] == rec.ts, "record %u: seq %u/%u len %u/%u ts %llu/%llu",
		      i, rs.seq[i], rec.data[0], rs.len[i], rec.len,
		      (unsigned long long)rs.ts[i], (unsigned long long)rec.ts);
	}
	CHECK(n == 500, "one by one: %u", n);
	/*
	 * Claims by ring page.  After a jump the rest of its page has
	 * absolute times, which go one by one; the rest go as runs.
	 */
	CHECK(rs.keeps < 40 && rs.via_run > 250 && rs.via_run < 500,
	      "%u claims, %u of 500 records as runs", rs.keeps, rs.via_run);
	rt_buffer_stats(b, 0, &st);
	CHECK(st.read == 500 && st.entries == 0, "read %llu entries %llu",
	      (unsigned long long)st.read, (unsigned long long)st.entries);
	CHECK(invariant(b, 0), "invariant");
	host_clock = fake_clock;
	rt_buffer_free(a);
	rt_buffer_free(b);
}

/*
 * Model test: one writer thread (with simulated nested interrupts) and
 * a concurrent consumer and iterator.  Every record carries a sequence
 * number and checksum; the consumer must see strictly increasing,
 * intact records and the accounting must balance at the end.
 */
struct model {
	struct rt_buffer *b;
	volatile int stop;
	u64 read_ok, bad, restructures;
	volatile unsigned long puts;
};

static u32 csum(u32 seq, unsigned int words)
{
	return seq * 2654435761u ^ words;
}

static __thread u32 model_seq;
static struct rt_buffer *model_buf;
static int model_nest;
static void model_put(void)
{
	unsigned int words = 2 + model_seq % 30, i;
	u32 *p = rt_buffer_reserve(model_buf, words * 4);

	if (!p)
		return;
	/* The sequence number is claimed once the slot is ours. */
	p[0] = model_seq++;
	for (i = 1; i < words; i++)
		p[i] = csum(p[0], words) + i;
	rt_buffer_commit(model_buf);
}

static void model_irq(void)
{
	if ((model_nest++ & 7) == 0)
		model_put();
}

static void *model_writer(void *arg)
{
	struct model *m = arg;
	unsigned long i;

	host_cpu = 0;
	host_irq_hook = model_irq;
	for (i = 0; i < 400000; i++) {
		model_put();
		m->puts = i;
	}
	host_irq_hook = NULL;
	m->stop = 1;
	return NULL;
}

static int model_check(const struct rt_rb_record *r)
{
	unsigned int words = r->len / 4, i;

	if (words < 2)
		return 0;
	for (i = 1; i < words; i++)
		if (r->data[i] != csum(r->data[0], words) + i)
			return 0;
	return 1;
}

static void *model_reader(void *arg)
{
	struct model *m = arg;
	static struct rt_rb_record r;
	long long last = -1;

	host_cpu = 1;
	for (;;) {
		int stop = m->stop;

		while (rt_buffer_consume(m->b, 0, &r) == 0) {
			if (!model_check(&r) || (long long)r.data[0] <= last)
				__atomic_fetch_add(&m->bad, 1, __ATOMIC_RELAXED);
			last = r.data[0];
			__atomic_fetch_add(&m->read_ok, 1, __ATOMIC_RELAXED);
		}
		if (stop)
			break;
	}
	return NULL;
}

/*
 * The span consumer: records copied where they lie, checked only once
 * keep() says they were claimed; undo() drops the copies (overwritten).
 */
struct span_copies {
	struct model *m;
	long long last;
	unsigned int undone;
	u32 words[4096];	/* a ring page's records, back to back */
	unsigned int at;
};

static int span_take(void *arg, u64 ts, const void *data, unsigned int len)
{
	struct span_copies *sc = arg;

	if (sc->at + 1 + len / 4 > ARRAY_SIZE(sc->words))
		return 1;
	sc->words[sc->at] = len / 4;
	memcpy(&sc->words[sc->at + 1], data, len);
	sc->at += 1 + len / 4;
	return 0;
}

static void span_keep(void *arg)
{
	struct span_copies *sc = arg;
	static struct rt_rb_record r;
	unsigned int at = 0;

	while (at < sc->at) {
		r.len = sc->words[at] * 4;
		memcpy(r.data, &sc->words[at + 1], r.len);
		at += 1 + sc->words[at];
		if (!model_check(&r) || (long long)r.data[0] <= sc->last)
			__atomic_fetch_add(&sc->m->bad, 1, __ATOMIC_RELAXED);
		sc->last = r.data[0];
		__atomic_fetch_add(&sc->m->read_ok, 1, __ATOMIC_RELAXED);
	}
	sc->at = 0;
}

static void span_undo(void *arg)
{
	struct span_copies *sc = arg;

	sc->at = 0;
	sc->undone++;
}

static const struct rt_rb_span_ops span_ops = {
	.take = span_take, .keep = span_keep, .undo = span_undo,
};

/* The same copies, taken as runs of a page a writer may be overwriting. */
static unsigned int span_take_run(void *arg, const struct rt_rb_run *run,
				  unsigned int *bytes)
{
	return rt_rb_run_each(run, span_take, arg, bytes);
}

static const struct rt_rb_span_ops span_run_ops = {
	.take = span_take, .take_run = span_take_run, .keep = span_keep,
	.undo = span_undo,
};

static unsigned int model_span_undone;

static void *model_span_reader(void *arg)
{
	struct model *m = arg;
	static struct span_copies sc;
	unsigned int i;

	host_cpu = 1;
	memset(&sc, 0, sizeof(sc));
	sc.m = m;
	sc.last = -1;
	for (i = 0;; i++) {
		int stop = m->stop;

		/* Every other pass as runs (take_run()). */
		while (rt_buffer_consume_span(m->b, 0, i & 1 ? &span_run_ops :
					      &span_ops, &sc, NULL))
			;
		if (stop)
			break;
	}
	model_span_undone = sc.undone;
	return NULL;
}

static void *model_iterator(void *arg)
{
	struct model *m = arg;
	static struct rt_rb_record r;
	struct rt_rb_iter it;

	host_cpu = 2;
	while (!m->stop) {
		long long last = -1;

		rt_buffer_iter_start(&it, m->b, 0);
		while (rt_buffer_iter_peek(&it, &r) == 0) {
			if (!model_check(&r) || (long long)r.data[0] <= last)
				m->bad++;
			last = r.data[0];
			rt_buffer_iter_advance(&it, &r);
		}
	}
	return NULL;
}

/*
 * Restructures that leave CPU 0 alone, while its consumers run: CPU 2's
 * ring resized, and swapped with another buffer's.  The consumers of
 * CPU 0 go the slow way meanwhile (rb_reader_lock()).
 */
static void *model_restructurer(void *arg)
{
	struct model *m = arg;
	struct rt_buffer *other = rt_buffer_alloc(8 * 4096, true);
	unsigned int i;

	host_cpu = 2;
	/* A restructure holds every writer off: let 100000 through first. */
	while (m->puts < 100000 && !m->stop)
		usleep(100);
	for (i = 0; i == 0 || !m->stop; i++) {
		if (i & 1)
			rt_buffer_resize_cpu(m->b, 2, (i & 2 ? 8 : 16) * 4096);
		else if (other)
			rt_buffer_swap_cpu(m->b, other, 2);
		__atomic_fetch_add(&m->restructures, 1, __ATOMIC_RELAXED);
		/* Each holds every writer off: let most records through. */
		usleep(200);
	}
	rt_buffer_free(other);
	return NULL;
}

/*
 * @both: a plain and a span consumer of CPU 0 at once, and a thread
 * restructuring CPU 2, beside the writer (and no iterator).
 */
static void model_run_ex(bool overwrite, bool span, bool both)
{
	struct model m = { 0 };
	struct rt_rb_stats st;
	pthread_t w, r, r2, i, x;

	nr_cpu_ids = 3;
	m.b = rt_buffer_alloc(8 * 4096, overwrite);
	CHECK(m.b, "alloc");
	model_buf = m.b;
	model_span_undone = 0;
	pthread_create(&r, NULL, span ? model_span_reader : model_reader, &m);
	if (both) {
		pthread_create(&r2, NULL, model_reader, &m);
		pthread_create(&x, NULL, model_restructurer, &m);
	}
	/*
	 * Not with @both: a restructure of CPU 2 bumps the buffer's
	 * generation, and an iterator of CPU 0 then starts over.
	 */
	if (!both)
		pthread_create(&i, NULL, model_iterator, &m);
	pthread_create(&w, NULL, model_writer, &m);
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	if (both) {
		pthread_join(r2, NULL);
		pthread_join(x, NULL);
		printf("  two consumers, %llu restructures of CPU 2\n",
		       (unsigned long long)m.restructures);
		CHECK(m.restructures > 0, "no restructure ran");
	} else {
		pthread_join(i, NULL);
	}
	rt_buffer_stats(m.b, 0, &st);
	printf("  model(%s%s): written %llu read %llu overrun %llu dropped %llu left %llu\n",
	       overwrite ? "overwrite" : "drop", span ? ", span reader" : "",
	       (unsigned long long)st.written, (unsigned long long)st.read,
	       (unsigned long long)st.overrun, (unsigned long long)st.dropped,
	       (unsigned long long)st.entries);
	CHECK(m.bad == 0, "%llu bad records", (unsigned long long)m.bad);
	CHECK(m.read_ok == st.read, "reader count %llu vs %llu",
	      (unsigned long long)m.read_ok, (unsigned long long)st.read);
	/* A restructure refuses every record written meanwhile. */
	CHECK(st.written >= (both ? 100000 : 400000), "written %llu",
	      (unsigned long long)st.written);
	CHECK(invariant(m.b, 0), "invariant");
	if (span)
		printf("  spans undone (overwritten before their claim): %u\n",
		       model_span_undone);
	rt_buffer_free(m.b);
	nr_cpu_ids = 1;
}

static void model_run(bool overwrite, bool span)
{
	model_run_ex(overwrite, span, false);
}

static void t_model_overwrite(void) { model_run(true, false); }
static void t_model_drop(void) { model_run(false, false); }
static void t_model_span_overwrite(void) { model_run(true, true); }
static void t_model_span_drop(void) { model_run(false, true); }
static void t_model_two_consumers(void) { model_run_ex(true, true, true); }

int main(void)
{
	run("rb_basic", t_basic);
	run("rb_sizes_and_too_large", t_sizes);
	run("rb_overwrite_full", t_overwrite_full);
	run("rb_drop_full", t_drop_full);
	run("rb_nested_commit_order", t_nested_commit);
	run("rb_nested_irq_reservation", t_nested_irq);
	run("rb_commit_overrun", t_commit_overrun);
	run("rb_consume_span", t_consume_span);
	run("rb_consume_run", t_consume_run);
	run("rb_consume_peek", t_consume_peek);
	run("rb_epoch_per_cpu", t_epoch_per_cpu);
	run("rb_time_extend", t_time_extend);
	run("rb_clocks", t_clocks);
	run("rb_resize", t_resize);
	run("rb_iterator", t_iterator);
	run("rb_multi_cpu", t_multi_cpu);
	run("rb_swap_cpu", t_swap_cpu);
	run("rb_swap_all", t_swap_all);
	run("rb_resize_cpu", t_resize_cpu);
	run("rb_model_overwrite", t_model_overwrite);
	run("rb_model_drop", t_model_drop);
	run("rb_model_span_overwrite", t_model_span_overwrite);
	run("rb_model_span_drop", t_model_span_drop);
	run("rb_model_two_consumers", t_model_two_consumers);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
