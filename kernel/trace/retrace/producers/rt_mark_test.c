// SPDX-License-Identifier: GPL-2.0
/*
 * Selftest module for kernel markers.  At load it runs checks of the
 * marker API that only kernel code can make (errnos, arm counting,
 * several probes, format mismatch, many sites of one name, a marker
 * driven by a tracepoint) and prints "rt_mark_test: selfcheck: P
 * passed, F failed", with a line per failure.  Then, through its
 * parameters:
 *   fire=N   hit rt_mark_test_hit N times on this CPU
 *   churn=N  connect, arm, disarm and disconnect a counting probe on
 *            rt_mark_test_hit N times
 *   hits     what the churned probe counted
 *   bench_loop=N  time N turns of a loop without and with a disarmed
 *            marker; bench_hits=N  time N calls of a function with a
 *            four-argument marker; either reads "PLAIN MARKED HITS",
 *            the last times in ns
 *   hold=1   (at load) keep rt_mark_test_hit armed with a probe of its
 *            own, so that churn and the event's enable change only the
 *            probe array, never the site's static key
 */
#define pr_fmt(fmt) "rt_mark_test: " fmt

#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

DECLARE_TRACE(rt_mark_test_tp, TP_PROTO(int v), TP_ARGS(v));
DEFINE_TRACE(rt_mark_test_tp, TP_PROTO(int v), TP_ARGS(v));

static void rt_mark_test_tp_cb(void *data, int v);
DEFINE_MARKER_TP(rt_mark_test_tpm, rt_mark_test_tp, rt_mark_test_tp_cb,
		 "v %d");

/* The callback the marker arms: passes the tracepoint's hit on. */
static void rt_mark_test_tp_cb(void *data, int v)
{
	marker_probe_cb(&GET_MARKER(rt_mark_test_tpm), NULL, v);
}

/* A site without a call: the test calls its probes itself. */
DEFINE_MARKER(rt_mark_test_def, "d %d");

static unsigned int rt_mark_passed, rt_mark_failed;

#define CHECK(cond) do {						\
	if (cond)							\
		rt_mark_passed++;					\
	else {								\
		rt_mark_failed++;					\
		pr_err("FAIL line %d: %s\n", __LINE__, #cond);		\
	}								\
} while (0)

/* What a counting probe saw; its private data. */
struct rt_mark_seen {
	unsigned int	calls;
	int		x;
	char		y[16];
};

static void rt_mark_xy_probe(void *probe_private, void *call_private,
			     const char *fmt, va_list *args)
{
	struct rt_mark_seen *s = probe_private;

	s->calls++;
	s->x = va_arg(*args, int);
	strscpy(s->y, va_arg(*args, const char *), sizeof(s->y));
}

static void rt_mark_count_probe(void *probe_private, void *call_private,
				const char *fmt, va_list *args)
{
	struct rt_mark_seen *s = probe_private;

	s->calls++;
	s->x = va_arg(*args, int);
}

static noinline void rt_mark_test_a(int x)
{
	trace_mark(rt_mark_test_a, "x %d y %s", x, "why");
}

static noinline void rt_mark_test_mm(int v)
{
	trace_mark(rt_mark_test_mm, "v %d", v);
}

/*
 * Two sites of one name, six hits: the inline function's site (one
 * struct marker, however many times it is inlined) and the loop's.
 */
static __always_inline void rt_mark_test_many_inline(int i)
{
	trace_mark(rt_mark_test_many, "i %d", i);
}

static noinline void rt_mark_test_many(void)
{
	int i;

	rt_mark_test_many_inline(1);
	rt_mark_test_many_inline(2);
#pragma GCC unroll 4
	for (i = 0; i < 4; i++)
		trace_mark(rt_mark_test_many, "i %d", 10 + i);
}

static noinline void rt_mark_test_side_effect(int *n)
{
	/* Disarmed, the arguments are not evaluated. */
	trace_mark(rt_mark_test_a, "x %d y %s", ++*n, "side");
}

static void rt_mark_selfcheck(void)
{
	struct rt_mark_seen s1 = {}, s2 = {}, s3 = {};
	int n = 0;

	/* Errnos. */
	CHECK(marker_arm("rt_mark_test_nosuch") == -ENOENT);
	CHECK(marker_disarm("rt_mark_test_nosuch") == -ENOENT);
	CHECK(marker_probe_unregister("rt_mark_test_nosuch", rt_mark_xy_probe,
				      &s1) == -ENOENT);
	CHECK(marker_probe_register("", NULL, rt_mark_xy_probe, &s1) == -EINVAL);
	CHECK(marker_probe_register("rt_mark_test_a", NULL, NULL, &s1) ==
	      -EINVAL);

	/* A loaded site with no probe: known, so it can be armed. */
	CHECK(marker_arm("rt_mark_test_a") == 0);
	rt_mark_test_a(1);
	CHECK(marker_disarm("rt_mark_test_a") == 0);
	CHECK(marker_disarm("rt_mark_test_a") == -EALREADY);

	/* Two probes, a duplicate, a conflicting format. */
	CHECK(marker_probe_register("rt_mark_test_a", "x %d y %s",
				    rt_mark_xy_probe, &s1) == 0);
	CHECK(marker_probe_register("rt_mark_test_a", "x %d y %s",
				    rt_mark_xy_probe, &s1) == -EBUSY);
	CHECK(marker_probe_register("rt_mark_test_a", NULL,
				    rt_mark_xy_probe, &s2) == 0);
	CHECK(marker_probe_register("rt_mark_test_a", "x %u y %s",
				    rt_mark_xy_probe, &s3) == -EPERM);
	CHECK(marker_probe_unregister("rt_mark_test_a", rt_mark_xy_probe,
				      &s3) == -ENOENT);

	/* Registered but not armed: nothing is called. */
	rt_mark_test_a(5);
	CHECK(s1.calls == 0 && s2.calls == 0);
	rt_mark_test_side_effect(&n);
	CHECK(n == 0);

	/* Armed: both probes see the arguments. */
	CHECK(marker_arm("rt_mark_test_a") == 0);
	rt_mark_test_a(42);
	CHECK(s1.calls == 1 && s1.x == 42 && !strcmp(s1.y, "why"));
	CHECK(s2.calls == 1 && s2.x == 42 && !strcmp(s2.y, "why"));
	rt_mark_test_side_effect(&n);
	CHECK(n == 1 && s1.x == 1 && !strcmp(s1.y, "side"));

	/* Counted: armed three times, it takes three disarms. */
	CHECK(marker_arm("rt_mark_test_a") == 0);
	CHECK(marker_arm("rt_mark_test_a") == 0);
	CHECK(marker_disarm("rt_mark_test_a") == 0);
	CHECK(marker_disarm("rt_mark_test_a") == 0);
	rt_mark_test_a(7);
	CHECK(s1.calls == 3 && s1.x == 7);
	CHECK(marker_disarm("rt_mark_test_a") == 0);
	rt_mark_test_a(8);
	CHECK(s1.calls == 3 && s2.calls == 3);
	CHECK(marker_disarm("rt_mark_test_a") == -EALREADY);

	/* Removing one probe leaves the other connected. */
	CHECK(marker_arm("rt_mark_test_a") == 0);
	CHECK(marker_probe_unregister("rt_mark_test_a", rt_mark_xy_probe,
				      &s1) == 0);
	rt_mark_test_a(9);
	CHECK(s1.calls == 3 && s2.calls == 4 && s2.x == 9);
	/* The last probe's removal disarms the name altogether. */
	CHECK(marker_probe_unregister("rt_mark_test_a", rt_mark_xy_probe,
				      &s2) == 0);
	CHECK(marker_probe_unregister("rt_mark_test_a", rt_mark_xy_probe,
				      &s2) == -ENOENT);
	CHECK(marker_disarm("rt_mark_test_a") == -EALREADY);
	marker_synchronize_unregister();

	/* Every site of a name: inline copies and an unrolled loop. */
	memset(&s1, 0, sizeof(s1));
	CHECK(marker_probe_register("rt_mark_test_many", "i %d",
				    rt_mark_count_probe, &s1) == 0);
	CHECK(marker_arm("rt_mark_test_many") == 0);
	rt_mark_test_many();
	CHECK(s1.calls == 6 && s1.x == 13);
	CHECK(marker_probe_unregister("rt_mark_test_many", rt_mark_count_probe,
				      &s1) == 0);

	/* A format mismatch leaves the site off, with a notice. */
	memset(&s1, 0, sizeof(s1));
	CHECK(marker_probe_register("rt_mark_test_mm", "v %s",
				    rt_mark_xy_probe, &s1) == 0);
	CHECK(marker_arm("rt_mark_test_mm") == 0);
	rt_mark_test_mm(3);
	CHECK(s1.calls == 0);
	CHECK(marker_probe_unregister("rt_mark_test_mm", rt_mark_xy_probe,
				      &s1) == 0);

	/* A name with no site yet can take probes and be armed. */
	CHECK(marker_probe_register("rt_mark_test_later", "z %d",
				    rt_mark_count_probe, &s1) == 0);
	CHECK(marker_arm("rt_mark_test_later") == 0);
	CHECK(marker_probe_unregister("rt_mark_test_later",
				      rt_mark_count_probe, &s1) == 0);
	CHECK(marker_arm("rt_mark_test_later") == -ENOENT);

	/* DEFINE_MARKER(): its probes run from marker_probe_cb() once armed. */
	memset(&s1, 0, sizeof(s1));
	CHECK(marker_probe_register("rt_mark_test_def", "d %d",
				    rt_mark_count_probe, &s1) == 0);
	marker_probe_cb(&GET_MARKER(rt_mark_test_def), NULL, 4);
	CHECK(s1.calls == 0);
	CHECK(marker_arm("rt_mark_test_def") == 0);
	marker_probe_cb(&GET_MARKER(rt_mark_test_def), NULL, 5);
	CHECK(s1.calls == 1 && s1.x == 5);
	CHECK(marker_probe_unregister("rt_mark_test_def", rt_mark_count_probe,
				      &s1) == 0);
	marker_probe_cb(&GET_MARKER(rt_mark_test_def), NULL, 6);
	CHECK(s1.calls == 1);
	marker_synchronize_unregister();

	/* A marker driven by a tracepoint. */
	memset(&s1, 0, sizeof(s1));
	CHECK(marker_probe_register("rt_mark_test_tpm", "v %d",
				    rt_mark_count_probe, &s1) == 0);
	trace_rt_mark_test_tp(1);
	CHECK(s1.calls == 0);
	CHECK(marker_arm("rt_mark_test_tpm") == 0);
	CHECK(trace_rt_mark_test_tp_enabled());
	trace_rt_mark_test_tp(42);
	CHECK(s1.calls == 1 && s1.x == 42);
	CHECK(marker_disarm("rt_mark_test_tpm") == 0);
	CHECK(!trace_rt_mark_test_tp_enabled());
	trace_rt_mark_test_tp(43);
	CHECK(s1.calls == 1);
	CHECK(marker_probe_unregister("rt_mark_test_tpm", rt_mark_count_probe,
				      &s1) == 0);
	marker_synchronize_unregister();

	pr_info("selfcheck: %u passed, %u failed\n", rt_mark_passed,
		rt_mark_failed);
}

/* ---- driven from user space ---------------------------------------------- */

static unsigned int rt_mark_seq;
static atomic_t rt_mark_hits = ATOMIC_INIT(0);

static noinline void rt_mark_test_hit(unsigned int seq)
{
	trace_mark(rt_mark_test_hit, "seq %u cpu %d name %s big %llx",
		   seq, raw_smp_processor_id(), "hit",
		   0x1122334455667788ULL + seq);
}

static int rt_mark_fire(const char *val, const struct kernel_param *kp)
{
	unsigned int n, i;
	int ret = kstrtouint(val, 0, &n);

	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		rt_mark_test_hit(READ_ONCE(rt_mark_seq) + i);
	WRITE_ONCE(rt_mark_seq, rt_mark_seq + n);
	return 0;
}

static const struct kernel_param_ops rt_mark_fire_ops = {
	.set = rt_mark_fire,
	.get = param_get_uint,
};
module_param_cb(fire, &rt_mark_fire_ops, &rt_mark_seq, 0644);

static void rt_mark_hit_probe(void *probe_private, void *call_private,
			      const char *fmt, va_list *args)
{
	atomic_inc(&rt_mark_hits);
}

static int rt_mark_churn(const char *val, const struct kernel_param *kp)
{
	unsigned int n, i;
	int ret = kstrtouint(val, 0, &n);

	for (i = 0; !ret && i < n; i++) {
		ret = marker_probe_register("rt_mark_test_hit", NULL,
					    rt_mark_hit_probe, NULL);
		if (ret)
			break;
		ret = marker_arm("rt_mark_test_hit");
		if (!ret)
			ret = marker_disarm("rt_mark_test_hit");
		if (marker_probe_unregister("rt_mark_test_hit",
					    rt_mark_hit_probe, NULL) && !ret)
			ret = -EINVAL;
		cond_resched();
	}
	marker_synchronize_unregister();
	return ret;
}

static const struct kernel_param_ops rt_mark_churn_ops = {
	.set = rt_mark_churn,
	.get = param_get_uint,
};
static unsigned int rt_mark_churn_dummy;
module_param_cb(churn, &rt_mark_churn_ops, &rt_mark_churn_dummy, 0644);

static int rt_mark_hits_get(char *buf, const struct kernel_param *kp)
{
	return sprintf(buf, "%d\n", atomic_read(&rt_mark_hits));
}

static const struct kernel_param_ops rt_mark_hits_ops = {
	.get = rt_mark_hits_get,
};
module_param_cb(hits, &rt_mark_hits_ops, NULL, 0444);

/* ---- make bench ---------------------------------------------------------- */

static unsigned int rt_mark_sink;
static u64 rt_mark_bench_ns[3];	/* plain loop, marked loop, hits */

static noinline u64 rt_mark_bench_plain(unsigned int n)
{
	u64 t = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < n; i++)
		WRITE_ONCE(rt_mark_sink, i);
	return ktime_get_ns() - t;
}

/* The same loop with a marker: disarmed, one NOP more per turn. */
static noinline u64 rt_mark_bench_marked(unsigned int n)
{
	u64 t = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < n; i++) {
		WRITE_ONCE(rt_mark_sink, i);
		trace_mark(rt_mark_bench_loop, "i %u", i);
	}
	return ktime_get_ns() - t;
}

/* A target for the marker event and for a kprobe event alike. */
static noinline __attribute__((__noipa__))
void rt_mark_bench_target(u32 seq, int cpu, const char *name, u64 big)
{
	trace_mark(rt_mark_bench_hit, "seq %u cpu %d name %s big %llx",
		   seq, cpu, name, big);
}

static int rt_mark_bench_loop_set(const char *val,
				  const struct kernel_param *kp)
{
	unsigned int n;
	int ret = kstrtouint(val, 0, &n);

	if (ret)
		return ret;
	rt_mark_bench_ns[0] = rt_mark_bench_plain(n);
	rt_mark_bench_ns[1] = rt_mark_bench_marked(n);
	return 0;
}

static int rt_mark_bench_hits_set(const char *val,
				  const struct kernel_param *kp)
{
	unsigned int n, i;
	int ret = kstrtouint(val, 0, &n);
	u64 t;

	if (ret)
		return ret;
	t = ktime_get_ns();
	for (i = 0; i < n; i++)
		rt_mark_bench_target(i, 1, "bench", 0x1122334455667788ULL);
	rt_mark_bench_ns[2] = ktime_get_ns() - t;
	return 0;
}

static int rt_mark_bench_get(char *buf, const struct kernel_param *kp)
{
	return sprintf(buf, "%llu %llu %llu\n", rt_mark_bench_ns[0],
		       rt_mark_bench_ns[1], rt_mark_bench_ns[2]);
}

static const struct kernel_param_ops rt_mark_bench_loop_ops = {
	.set = rt_mark_bench_loop_set,
	.get = rt_mark_bench_get,
};
module_param_cb(bench_loop, &rt_mark_bench_loop_ops, NULL, 0644);

static const struct kernel_param_ops rt_mark_bench_hits_ops = {
	.set = rt_mark_bench_hits_set,
	.get = rt_mark_bench_get,
};
module_param_cb(bench_hits, &rt_mark_bench_hits_ops, NULL, 0644);

static bool rt_mark_hold;
module_param_named(hold, rt_mark_hold, bool, 0444);

static void rt_mark_hold_probe(void *probe_private, void *call_private,
			       const char *fmt, va_list *args)
{
}

static int __init rt_mark_test_init(void)
{
	int ret;

	rt_mark_selfcheck();
	if (!rt_mark_hold)
		return 0;
	ret = marker_probe_register("rt_mark_test_hit", NULL,
				    rt_mark_hold_probe, NULL);
	if (!ret)
		ret = marker_arm("rt_mark_test_hit");
	return ret;
}
module_init(rt_mark_test_init);

static void __exit rt_mark_test_exit(void)
{
	if (!rt_mark_hold)
		return;
	marker_probe_unregister("rt_mark_test_hit", rt_mark_hold_probe, NULL);
	marker_synchronize_unregister();
}
module_exit(rt_mark_test_exit);

MODULE_DESCRIPTION("retrace selftest: kernel markers");
MODULE_LICENSE("GPL");
