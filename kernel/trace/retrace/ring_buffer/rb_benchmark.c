// SPDX-License-Identifier: GPL-2.0
/*
 * Ring buffer benchmark: one producer kthread writes small records as
 * fast as it can for a fixed time while a consumer kthread on another
 * CPU reads them; reports entries, overruns, misses and the cost per
 * entry, in the manner of upstream's ring_buffer_benchmark.  Results go
 * to the kernel log at load time.
 */
#define pr_fmt(fmt) "rb_benchmark: " fmt

#include <linux/completion.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <trace/retrace/ring_buffer.h>

static unsigned int run_ms = 2000;
module_param(run_ms, uint, 0444);
MODULE_PARM_DESC(run_ms, "producer run time");
static unsigned int buffer_kb = 1024;
module_param(buffer_kb, uint, 0444);
static int producer_cpu;
module_param(producer_cpu, int, 0444);
static int consumer_cpu = 1;
module_param(consumer_cpu, int, 0444);
static bool no_consumer;
module_param(no_consumer, bool, 0444);
MODULE_PARM_DESC(no_consumer, "measure the writer alone");

static struct rt_buffer *bbuf;
static bool done;
static u64 read_entries;
static DECLARE_COMPLETION(consumer_done);

static int bench_consumer(void *arg)
{
	struct rt_rb_record *rec = kmalloc(sizeof(*rec), GFP_KERNEL);

	while (rec && !READ_ONCE(done)) {
		if (rt_buffer_consume(bbuf, producer_cpu, rec))
			cond_resched();
		else
			read_entries++;
	}
	while (rec && !rt_buffer_consume(bbuf, producer_cpu, rec))
		read_entries++;
	kfree(rec);
	complete(&consumer_done);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

static int __init rb_benchmark_init(void)
{
	struct task_struct *consumer = NULL;
	u64 entries = 0, ns, t0;
	struct rt_rb_stats st;
	unsigned long n = 0;

	if (!cpu_online(producer_cpu) ||
	    (!no_consumer && !cpu_online(consumer_cpu)))
		return -EINVAL;
	bbuf = rt_buffer_alloc(buffer_kb << 10, true);
	if (!bbuf)
		return -ENOMEM;
	if (!no_consumer) {
		consumer = kthread_create_on_cpu(bench_consumer, NULL,
						 consumer_cpu, "rb_bench_cons");
		if (IS_ERR(consumer)) {
			rt_buffer_free(bbuf);
			return PTR_ERR(consumer);
		}
		wake_up_process(consumer);
	}

	/* The loading task is the producer, pinned to producer_cpu. */
	set_cpus_allowed_ptr(current, cpumask_of(producer_cpu));
	t0 = ktime_get_ns();
	for (;;) {
		u32 *p = rt_buffer_reserve(bbuf, 8);

		if (p) {
			p[0] = (u32)n;
			p[1] = 0;
			rt_buffer_commit(bbuf);
		}
		entries++;
		if (!(++n % 1024)) {
			if (ktime_get_ns() - t0 >= (u64)run_ms * NSEC_PER_MSEC)
				break;
			cond_resched();
		}
	}
	ns = ktime_get_ns() - t0;
	set_cpus_allowed_ptr(current, cpu_possible_mask);
	WRITE_ONCE(done, true);
	if (consumer) {
		wait_for_completion(&consumer_done);
		kthread_stop(consumer);
	}
	rt_buffer_stats(bbuf, producer_cpu, &st);
	pr_info("time: %llu ms, entries: %llu, overruns: %llu, missed: %llu, read: %llu\n",
		div_u64(ns, NSEC_PER_MSEC), entries, st.overrun, st.dropped,
		read_entries);
	pr_info("entries per millisecond: %llu, ns per entry: %llu\n",
		div64_u64(entries * NSEC_PER_MSEC, ns ?: 1),
		div64_u64(ns, entries ?: 1));
	rt_buffer_free(bbuf);
	return 0;
}
module_init(rb_benchmark_init);

static void __exit rb_benchmark_exit(void)
{
}
module_exit(rb_benchmark_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("retrace ring buffer benchmark");
