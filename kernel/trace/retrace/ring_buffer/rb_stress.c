// SPDX-License-Identifier: GPL-2.0
/*
 * Ring buffer stress test.
 *
 * On every online CPU a bound kthread writes records in task context
 * while a pinned hard-irq hrtimer on the same CPU writes records that
 * nest inside them.  A consuming reader runs concurrently on any CPU.
 * Each record carries (cpu, stream, sequence, length, checksum); a
 * stream is one CPU's task writer or its timer, and each stream's
 * records must come out intact and in strictly increasing order.  At
 * the end every CPU must satisfy read + overrun + dropped + entries ==
 * written, and written must equal what the writers attempted.  Every
 * CPU's ring must also have wrapped (overrun > 0 in overwrite mode,
 * dropped > 0 in drop mode), and its hrtimer's records must have been
 * both written and consumed: otherwise the run proved nothing about
 * overwriting, dropping or nesting.
 * Runs once per mode (overwrite, then drop) at load time; the load
 * fails with -EIO if anything is wrong and the log says what.
 */
#define pr_fmt(fmt) "rb_stress: " fmt

#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <trace/retrace/ring_buffer.h>

static unsigned int duration_ms = 3000;
module_param(duration_ms, uint, 0444);
MODULE_PARM_DESC(duration_ms, "run time of each mode");
static unsigned int buffer_kb = 64;
module_param(buffer_kb, uint, 0444);
MODULE_PARM_DESC(buffer_kb, "ring size per CPU (small, to force wrapping)");
static unsigned int timer_us = 100;
module_param(timer_us, uint, 0444);
MODULE_PARM_DESC(timer_us, "period of the nesting hrtimer writer");

#define NSTREAMS	2	/* 0: task writer, 1: hrtimer writer */

/*
 * One consumer draining every CPU each few tens of microseconds can
 * keep up with the writers (under QEMU's TCG a CPU's writer only runs
 * while its vCPU is scheduled), and then neither overwriting nor
 * dropping would ever happen.  So every PAUSE_EVERY_MS the reader
 * stops consuming until each online CPU's ring has wrapped (its
 * overrun or dropped count moved), for at most PAUSE_MAX_MS; then it
 * drains full rings that the writers keep overwriting or dropping
 * into, which is the race worth testing.
 */
#define PAUSE_EVERY_MS	50
#define PAUSE_MAX_MS	500

struct stress_rec {
	u32 cpu;
	u32 stream;
	u64 seq;
	u32 words;	/* total u32 words in the record */
	u32 body[];	/* words - 5 pattern words, then the checksum */
};

struct stress_cpu {
	struct task_struct	*writer;
	struct hrtimer		timer;
	u64			seq[NSTREAMS];	/* next to write */
	u64			attempts[NSTREAMS]; /* reserves made */
	u64			last[NSTREAMS];	/* reader: last seen + 1 */
	u64			got[NSTREAMS];	/* reader: records consumed */
	u64			lost_base;	/* reader: lost at pause start */
};

static struct rt_buffer *sbuf;
static struct stress_cpu *scpu;
static bool stopping;
static atomic64_t bad, consumed;

static u32 stress_csum(const struct stress_rec *r)
{
	u32 i, c = r->cpu * 0x9e3779b9u ^ r->stream ^ (u32)r->seq ^ (u32)(r->seq >> 32);

	for (i = 0; i + 6 < r->words; i++)
		c = (c << 5 | c >> 27) ^ r->body[i];
	return c;
}

/* Writes one record; @stream's sequence is claimed after the reserve. */
static void stress_write(struct stress_cpu *sc, int cpu, int stream)
{
	u32 words = 6 + (sc->seq[stream] * 7 + stream) % 40, i;
	struct stress_rec *r;

	sc->attempts[stream]++;
	r = rt_buffer_reserve(sbuf, words * 4);
	if (!r)
		return;
	r->cpu = cpu;
	r->stream = stream;
	r->seq = sc->seq[stream]++;
	r->words = words;
	for (i = 0; i + 6 < words; i++)
		r->body[i] = (u32)r->seq * 2654435761u + i;
	r->body[words - 6] = stress_csum(r);
	rt_buffer_commit(sbuf);
}

static enum hrtimer_restart stress_timer(struct hrtimer *t)
{
	struct stress_cpu *sc = container_of(t, struct stress_cpu, timer);
	int cpu = smp_processor_id();

	/* Only the owning CPU's timer writes; it runs in hard irq. */
	if (sc == &scpu[cpu] && !READ_ONCE(stopping)) {
		stress_write(sc, cpu, 1);
		stress_write(sc, cpu, 1);
	}
	if (READ_ONCE(stopping))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ns_to_ktime(timer_us * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static int stress_writer(void *arg)
{
	int cpu = (long)arg;
	struct stress_cpu *sc = &scpu[cpu];
	unsigned long n = 0;

	hrtimer_start(&sc->timer, ns_to_ktime(timer_us * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
	while (!kthread_should_stop()) {
		stress_write(sc, cpu, 0);
		if (!(++n % 64))
			cond_resched();
	}
	return 0;
}

static bool stress_check(const struct stress_rec *r, unsigned int len)
{
	struct stress_cpu *sc;

	if (len < 24 || r->words * 4 != len || r->cpu >= nr_cpu_ids ||
	    r->stream >= NSTREAMS || stress_csum(r) != r->body[r->words - 6])
		return false;
	sc = &scpu[r->cpu];
	/* Gaps are records lost to overrun/drop; going back is a bug. */
	if (r->seq < sc->last[r->stream])
		return false;
	sc->last[r->stream] = r->seq + 1;
	sc->got[r->stream]++;
	return true;
}

static void stress_bad(int cpu, unsigned int len)
{
	if (atomic64_inc_return(&bad) < 5)
		pr_err("bad record on cpu %d len %u\n", cpu, len);
}

/*
 * The span consumer (rt_buffer_consume_span()): records are staged
 * where take() copies them and checked only once keep() says they were
 * claimed; undo() drops the staged copies, which writers overwrote.
 */
struct stress_span {
	int		cpu;
	unsigned long	left;		/* records still wanted; 0: any */
	bool		bounded;
	unsigned int	at, n;		/* staged words, records */
	unsigned long	undone;
	u32		words[2 * PAGE_SIZE / 4];
};

static struct stress_span span;

static int stress_span_take(void *arg, u64 ts, const void *data,
			    unsigned int len)
{
	struct stress_span *sp = arg;

	if (sp->bounded && sp->n >= sp->left)
		return 1;
	if (sp->at + 1 + len / 4 > ARRAY_SIZE(sp->words))
		return 1;
	sp->words[sp->at] = len;
	memcpy(&sp->words[sp->at + 1], data, len);
	sp->at += 1 + len / 4;
	sp->n++;
	return 0;
}

static void stress_span_keep(void *arg)
{
	struct stress_span *sp = arg;
	unsigned int at = 0, len;

	while (at < sp->at) {
		len = sp->words[at];
		if (!stress_check((void *)&sp->words[at + 1], len) ||
		    ((struct stress_rec *)&sp->words[at + 1])->cpu != sp->cpu)
			stress_bad(sp->cpu, len);
		atomic64_inc(&consumed);
		at += 1 + len / 4;
	}
	if (sp->bounded)
		sp->left -= sp->n;
	sp->at = 0;
	sp->n = 0;
}

static void stress_span_undo(void *arg)
{
	struct stress_span *sp = arg;

	sp->at = 0;
	sp->n = 0;
	sp->undone++;
}

static const struct rt_rb_span_ops stress_span_ops = {
	.take = stress_span_take,
	.keep = stress_span_keep,
	.undo = stress_span_undo,
};

/*
 * take_run(): the run decoded in place and each record staged as
 * take() stages it, so that runs go through the same claim and undo
 * (and what a run leaves goes to take()).
 */
static unsigned int stress_span_take_run(void *arg, const struct rt_rb_run *run,
					 unsigned int *bytes)
{
	return rt_rb_run_each(run, stress_span_take, arg, bytes);
}

static const struct rt_rb_span_ops stress_run_ops = {
	.take = stress_span_take,
	.take_run = stress_span_take_run,
	.keep = stress_span_keep,
	.undo = stress_span_undo,
};

/*
 * Consume up to @max records per CPU (0: until empty).  While writers
 * run they can outpace the reader, so the timed loop must bound it.
 * Every other call takes them a ring page at a time with
 * rt_buffer_consume_span(), as trace_pipe_raw does, every second one of
 * those as runs (take_run()).
 */
static void stress_drain(struct rt_rb_record *rec, unsigned long max)
{
	static unsigned int calls;
	unsigned long n;
	int cpu;

	for_each_online_cpu(cpu) {
		if (calls & 1) {
			span.cpu = cpu;
			span.bounded = max;
			span.left = max;
			while (rt_buffer_consume_span(sbuf, cpu,
						      calls & 2 ? &stress_run_ops :
						      &stress_span_ops, &span,
						      NULL) &&
			       (!max || span.left))
				;
			continue;
		}
		for (n = 0; !max || n < max; n++) {
			if (rt_buffer_consume(sbuf, cpu, rec))
				break;
			if (rec->cpu != cpu ||
			    !stress_check((void *)rec->data, rec->len))
				stress_bad(cpu, rec->len);
			atomic64_inc(&consumed);
		}
	}
	calls++;
}

/* Records @cpu's ring has lost so far: overwritten, or dropped. */
static u64 stress_lost(int cpu, bool overwrite)
{
	struct rt_rb_stats st;

	rt_buffer_stats(sbuf, cpu, &st);
	return overwrite ? st.overrun : st.dropped;
}

/*
 * Stop consuming until every online CPU's ring has wrapped (see
 * PAUSE_EVERY_MS).  Returns true when all of them did in time.
 */
static bool stress_pause(bool overwrite)
{
	unsigned long end = jiffies + msecs_to_jiffies(PAUSE_MAX_MS);
	int cpu, waiting;

	for_each_online_cpu(cpu)
		scpu[cpu].lost_base = stress_lost(cpu, overwrite);
	do {
		usleep_range(500, 1000);
		waiting = 0;
		for_each_online_cpu(cpu)
			if (stress_lost(cpu, overwrite) == scpu[cpu].lost_base)
				waiting++;
	} while (waiting && time_before(jiffies, end));
	return !waiting;
}

static int stress_mode(bool overwrite, struct rt_rb_record *rec)
{
	u64 written = 0, overrun = 0, dropped = 0, read = 0, irq = 0;
	u64 irq_written = 0, irq_read = 0;
	unsigned int pauses = 0, wraps = 0;
	unsigned long end, next_pause;
	int cpu, ret = 0;

	rt_buffer_set_overwrite(sbuf, overwrite);
	rt_buffer_reset(sbuf);
	memset(scpu, 0, nr_cpu_ids * sizeof(*scpu));
	atomic64_set(&bad, 0);
	atomic64_set(&consumed, 0);
	span.undone = 0;
	WRITE_ONCE(stopping, false);

	for_each_online_cpu(cpu) {
		hrtimer_init(&scpu[cpu].timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_PINNED_HARD);
		scpu[cpu].timer.function = stress_timer;
		scpu[cpu].writer = kthread_create_on_cpu(stress_writer,
							 (void *)(long)cpu, cpu,
							 "rb_stress/%u");
		if (IS_ERR(scpu[cpu].writer)) {
			scpu[cpu].writer = NULL;
			ret = -ENOMEM;
		} else {
			wake_up_process(scpu[cpu].writer);
		}
	}

	/* This task is the concurrent consumer. */
	end = jiffies + msecs_to_jiffies(duration_ms);
	next_pause = jiffies + msecs_to_jiffies(PAUSE_EVERY_MS);
	while (time_before(jiffies, end)) {
		stress_drain(rec, 4096);
		usleep_range(20, 50);
		if (time_after_eq(jiffies, next_pause)) {
			pauses++;
			wraps += stress_pause(overwrite);
			next_pause = jiffies + msecs_to_jiffies(PAUSE_EVERY_MS);
		}
	}
	WRITE_ONCE(stopping, true);
	for_each_online_cpu(cpu) {
		if (scpu[cpu].writer)
			kthread_stop(scpu[cpu].writer);
		hrtimer_cancel(&scpu[cpu].timer);
	}
	stress_drain(rec, 0);

	for_each_online_cpu(cpu) {
		struct rt_rb_stats st;

		rt_buffer_stats(sbuf, cpu, &st);
		if (st.read + st.overrun + st.dropped + st.entries != st.written ||
		    st.written != scpu[cpu].attempts[0] + scpu[cpu].attempts[1] ||
		    st.entries) {
			pr_err("cpu %d accounting: read %llu overrun %llu dropped %llu entries %llu written %llu attempts %llu\n",
			       cpu, st.read, st.overrun, st.dropped, st.entries,
			       st.written, scpu[cpu].attempts[0] + scpu[cpu].attempts[1]);
			ret = -EIO;
		}
		/* A ring that never wrapped did not test overwrite or drop. */
		if (!(overwrite ? st.overrun : st.dropped)) {
			pr_err("cpu %d: no record %s in %s mode: the ring never wrapped\n",
			       cpu, overwrite ? "overwritten" : "dropped",
			       overwrite ? "overwrite" : "drop");
			ret = -EIO;
		}
		/* Nesting is only tested if hard-irq records went through. */
		if (!scpu[cpu].seq[1] || !scpu[cpu].got[1]) {
			pr_err("cpu %d: hrtimer records written %llu, consumed %llu: need both > 0\n",
			       cpu, scpu[cpu].seq[1], scpu[cpu].got[1]);
			ret = -EIO;
		}
		irq_written += scpu[cpu].seq[1];
		irq_read += scpu[cpu].got[1];
		written += st.written;
		irq += scpu[cpu].attempts[1];
		overrun += st.overrun;
		dropped += st.dropped;
		read += st.read;
	}
	if (read != atomic64_read(&consumed)) {
		pr_err("read %llu but the reader consumed %lld\n", read,
		       atomic64_read(&consumed));
		ret = -EIO;
	}
	if (atomic64_read(&bad))
		ret = -EIO;
	pr_info("mode %s: written %llu (from hardirq %llu, kept %llu, consumed %llu) read %llu overrun %llu dropped %llu bad %lld, reader paused %u times (all rings wrapped in %u), span copies undone %lu times: %s\n",
		overwrite ? "overwrite" : "drop", written, irq, irq_written,
		irq_read, read, overrun, dropped, atomic64_read(&bad), pauses,
		wraps, span.undone, ret ? "FAIL" : "PASS");
	return ret;
}

static int __init rb_stress_init(void)
{
	struct rt_rb_record *rec;
	int ret;

	scpu = kcalloc(nr_cpu_ids, sizeof(*scpu), GFP_KERNEL);
	rec = kmalloc(sizeof(*rec), GFP_KERNEL);
	sbuf = rt_buffer_alloc(buffer_kb << 10, true);
	if (!scpu || !rec || !sbuf) {
		ret = -ENOMEM;
		goto out;
	}
	ret = stress_mode(true, rec);
	if (!ret)
		ret = stress_mode(false, rec);
	pr_info("%s\n", ret ? "FAIL" : "PASS");
out:
	rt_buffer_free(sbuf);
	kfree(rec);
	kfree(scpu);
	return ret;
}
module_init(rb_stress_init);

static void __exit rb_stress_exit(void)
{
}
module_exit(rb_stress_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("retrace ring buffer stress test");
