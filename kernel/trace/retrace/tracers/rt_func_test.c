// SPDX-License-Identifier: GPL-2.0
/*
 * Selftest helper for the function tracer: a module whose functions are
 * instrumented like any other module's.  Writing N to the "run"
 * parameter calls rt_func_test_outer() N times, which calls
 * rt_func_test_leaf(), so tests can look for both in the trace and
 * check that a module's sites come and go with it.  With kprobe=1 it
 * also puts a kprobe on rt_func_test_leaf's entry (the call site) and
 * counts its hits in kprobe_hits, to check the two stay out of each
 * other's way.  Writing N to "nmi" sends N rounds of NMIs to every
 * online CPU; the NMI handler calls rt_func_test_in_nmi(), so tests can
 * see the tracer record from NMI context.  Writing 1 to "storm" starts
 * one NMI that travels from CPU to CPU (each handler calls
 * rt_func_test_in_nmi() and sends it on to the next online CPU) until 0
 * is written: NMIs then keep arriving on every CPU even while all of
 * them sit in stop_machine() with interrupts off, which is when live
 * patching rewrites sites (see rt_func_test_storm_send() for when it
 * travels).  Reading "storm" gives its hops and "storm_cpus" how many
 * CPUs it visited.
 */
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <asm/apic.h>
#include <asm/nmi.h>

static unsigned long rt_func_test_calls;

static noinline void rt_func_test_leaf(unsigned long i)
{
	WRITE_ONCE(rt_func_test_calls, rt_func_test_calls + i);
}

static noinline void rt_func_test_outer(unsigned long i)
{
	rt_func_test_leaf(i);
	barrier();
}

static int rt_func_test_run(const char *val, const struct kernel_param *kp)
{
	unsigned int n, i;
	int ret = kstrtouint(val, 0, &n);

	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		rt_func_test_outer(i);
	return 0;
}

static const struct kernel_param_ops rt_func_test_run_ops = {
	.set = rt_func_test_run,
	.get = param_get_ulong,
};
module_param_cb(run, &rt_func_test_run_ops, &rt_func_test_calls, 0644);

static bool kprobe;
module_param(kprobe, bool, 0444);
static unsigned long kprobe_hits;
module_param(kprobe_hits, ulong, 0444);

static int rt_func_test_pre(struct kprobe *p, struct pt_regs *regs)
{
	WRITE_ONCE(kprobe_hits, kprobe_hits + 1);
	return 0;
}

static struct kprobe rt_func_test_kp = {
	.symbol_name = "rt_func_test_leaf",
	.pre_handler = rt_func_test_pre,
};

/* NMIs we sent and nobody has taken yet; others are not ours. */
static atomic_t rt_func_test_nmi_pending = ATOMIC_INIT(0);
static atomic_long_t rt_func_test_nmi_hits = ATOMIC_LONG_INIT(0);
static unsigned long rt_func_test_nmi_calls;

static noinline void rt_func_test_in_nmi(void)
{
	WRITE_ONCE(rt_func_test_nmi_calls, rt_func_test_nmi_calls + 1);
}

/*
 * The travelling NMI.  @rt_func_test_storm_token is the CPU it was sent
 * to, plus one, while it is in flight, and 0 otherwise: only that CPU
 * claims it (cmpxchg), so each of its NMIs is taken exactly once and no
 * other NMI is mistaken for it.
 *
 * The handler sends the NMI on from NMI context, so it must not upset
 * an IPI the interrupted code was sending (rt_func_test_nmi_ipi()).
 * Should the NMI ever be lost, the kthread below starts a new one from
 * task context within a millisecond.
 */
static bool rt_func_test_storm;
static atomic_t rt_func_test_storm_token = ATOMIC_INIT(0);
static atomic_long_t rt_func_test_storm_hops = ATOMIC_LONG_INIT(0);
static DEFINE_PER_CPU(unsigned long, rt_func_test_storm_seen);
static struct task_struct *rt_func_test_storm_kick;

/*
 * An NMI to @cpu from any context.  x2APIC sends with one MSR write.
 * xAPIC writes the destination (ICR2), then the command (ICR): code we
 * interrupted between the two would send its IPI to our destination,
 * so ICR2 is put back once ours has left.
 */
static void rt_func_test_nmi_ipi(int cpu)
{
	u32 icr2;

	if (x2apic_enabled()) {
		apic->send_IPI(cpu, NMI_VECTOR);
		return;
	}
	icr2 = apic->read(APIC_ICR2);
	apic->send_IPI(cpu, NMI_VECTOR);
	if (apic->wait_icr_idle)
		apic->wait_icr_idle();
	apic->write(APIC_ICR2, icr2);
}

static void rt_func_test_storm_send(int from)
{
	int next = cpumask_next(from, cpu_online_mask);

	if (next >= nr_cpu_ids)
		next = cpumask_first(cpu_online_mask);
	atomic_set(&rt_func_test_storm_token, next + 1);
	rt_func_test_nmi_ipi(next);
}

/*
 * Task context: start the NMI, and start it again if it made no hop for
 * 200 ms (lost, say, to a CPU going offline).
 */
static int rt_func_test_storm_kthread(void *arg)
{
	long last = -1, now;

	while (!kthread_should_stop()) {
		now = atomic_long_read(&rt_func_test_storm_hops);
		if (READ_ONCE(rt_func_test_storm) && now == last) {
			cpus_read_lock();
			local_irq_disable();
			rt_func_test_storm_send(smp_processor_id());
			local_irq_enable();
			cpus_read_unlock();
		}
		last = now;
		msleep(200);
	}
	return 0;
}

static int rt_func_test_nmi(unsigned int type, struct pt_regs *regs)
{
	if (atomic_dec_if_positive(&rt_func_test_nmi_pending) >= 0) {
		rt_func_test_in_nmi();
		atomic_long_inc(&rt_func_test_nmi_hits);
		return NMI_HANDLED;
	}
	if (atomic_cmpxchg(&rt_func_test_storm_token, smp_processor_id() + 1, 0) !=
	    smp_processor_id() + 1)
		return NMI_DONE;
	rt_func_test_in_nmi();
	this_cpu_inc(rt_func_test_storm_seen);
	atomic_long_inc(&rt_func_test_storm_hops);
	if (READ_ONCE(rt_func_test_storm))
		rt_func_test_storm_send(smp_processor_id());
	return NMI_HANDLED;
}

/* One round at a time, waiting for each, as a CPU latches one NMI. */
static int rt_func_test_send_nmis(const char *val, const struct kernel_param *kp)
{
	unsigned int n, i, ms;
	long want;
	int ret = kstrtouint(val, 0, &n);

	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		cpus_read_lock();
		want = atomic_long_read(&rt_func_test_nmi_hits) +
		       num_online_cpus();
		atomic_add(num_online_cpus(), &rt_func_test_nmi_pending);
		__apic_send_IPI_mask(cpu_online_mask, NMI_VECTOR);
		cpus_read_unlock();
		for (ms = 0; ms < 1000 &&
		     atomic_long_read(&rt_func_test_nmi_hits) < want; ms++)
			mdelay(1);
	}
	return 0;
}

static int rt_func_test_get_nmis(char *buf, const struct kernel_param *kp)
{
	return sprintf(buf, "%ld\n", atomic_long_read(&rt_func_test_nmi_hits));
}

static const struct kernel_param_ops rt_func_test_nmi_ops = {
	.set = rt_func_test_send_nmis,
	.get = rt_func_test_get_nmis,
};
module_param_cb(nmi, &rt_func_test_nmi_ops, NULL, 0644);

static int rt_func_test_set_storm(const char *val, const struct kernel_param *kp)
{
	struct task_struct *t;
	unsigned int ms, quiet;
	bool on;
	int ret = kstrtobool(val, &on);

	if (ret)
		return ret;
	if (on && num_online_cpus() < 2)
		return -EINVAL;	/* it would never leave this CPU */
	if (on == READ_ONCE(rt_func_test_storm))
		return 0;
	if (on) {
		t = kthread_run(rt_func_test_storm_kthread, NULL, "rt_storm");
		if (IS_ERR(t))
			return PTR_ERR(t);
		rt_func_test_storm_kick = t;
		WRITE_ONCE(rt_func_test_storm, true);
		return 0;
	}
	WRITE_ONCE(rt_func_test_storm, false);
	kthread_stop(rt_func_test_storm_kick);
	rt_func_test_storm_kick = NULL;
	/*
	 * Wait for the last NMI to be taken: no token for 10 ms running,
	 * so one a handler was still sending has arrived and stopped.
	 */
	for (ms = 0, quiet = 0; ms < 2000 && quiet < 10; ms++) {
		quiet = atomic_read(&rt_func_test_storm_token) ? 0 : quiet + 1;
		mdelay(1);
	}
	return 0;
}

static int rt_func_test_get_storm(char *buf, const struct kernel_param *kp)
{
	return sprintf(buf, "%ld\n", atomic_long_read(&rt_func_test_storm_hops));
}

static const struct kernel_param_ops rt_func_test_storm_ops = {
	.set = rt_func_test_set_storm,
	.get = rt_func_test_get_storm,
};
module_param_cb(storm, &rt_func_test_storm_ops, NULL, 0644);

static int rt_func_test_get_storm_cpus(char *buf, const struct kernel_param *kp)
{
	int cpu, n = 0;

	for_each_possible_cpu(cpu)
		n += !!per_cpu(rt_func_test_storm_seen, cpu);
	return sprintf(buf, "%d\n", n);
}

static const struct kernel_param_ops rt_func_test_storm_cpus_ops = {
	.get = rt_func_test_get_storm_cpus,
};
module_param_cb(storm_cpus, &rt_func_test_storm_cpus_ops, NULL, 0444);

static int __init rt_func_test_init(void)
{
	int ret;

	rt_func_test_outer(1);
	ret = register_nmi_handler(NMI_LOCAL, rt_func_test_nmi, 0, "rt_func_test");
	if (ret)
		return ret;
	if (kprobe) {
		ret = register_kprobe(&rt_func_test_kp);
		if (ret) {
			unregister_nmi_handler(NMI_LOCAL, "rt_func_test");
			return ret;
		}
	}
	return 0;
}

static void __exit rt_func_test_exit(void)
{
	if (READ_ONCE(rt_func_test_storm))
		rt_func_test_set_storm("0", NULL);
	if (kprobe)
		unregister_kprobe(&rt_func_test_kp);
	unregister_nmi_handler(NMI_LOCAL, "rt_func_test");
}

module_init(rt_func_test_init);
module_exit(rt_func_test_exit);
MODULE_DESCRIPTION("retrace selftest: traced module functions");
MODULE_LICENSE("GPL");
