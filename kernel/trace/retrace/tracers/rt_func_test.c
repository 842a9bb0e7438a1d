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
 * is written: NMIs then keep arriving on every CPU while live patching
 * rewrites sites, in the middle of the int3 protocol.  Reading "storm"
 * gives its hops, "storm_cpus" how many CPUs it visited and
 * "storm_deferred" how many hops waited for interrupts to come back on.
 */
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/delay.h>
#include <linux/irq_work.h>
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
 * The travelling NMI: @rt_func_test_storm_token is 1 while it is in
 * flight (sent, not yet taken), so each of its NMIs is claimed exactly
 * once; clearing @rt_func_test_storm ends it at its next hop.
 *
 * An NMI must not send an IPI to another CPU when it interrupted code
 * with interrupts off: with the xAPIC (QEMU TCG has no x2APIC) a send
 * is two register writes, destination then command, and a sender in
 * between them would see its IPI go to our destination instead, which
 * loses it and can hang the kernel.  Every such sender keeps
 * interrupts off, so a hop taken with IF clear is passed on from an
 * irq_work (its self-IPI is a single write) once interrupts are back.
 */
static bool rt_func_test_storm;
static atomic_t rt_func_test_storm_token = ATOMIC_INIT(0);
static atomic_long_t rt_func_test_storm_hops = ATOMIC_LONG_INIT(0);
static atomic_long_t rt_func_test_storm_deferred = ATOMIC_LONG_INIT(0);
static DEFINE_PER_CPU(unsigned long, rt_func_test_storm_seen);

static void rt_func_test_storm_send(int from)
{
	int next = cpumask_next(from, cpu_online_mask);

	if (next >= nr_cpu_ids)
		next = cpumask_first(cpu_online_mask);
	atomic_set(&rt_func_test_storm_token, 1);
	__apic_send_IPI_mask(cpumask_of(next), NMI_VECTOR);
}

static void rt_func_test_storm_hop(struct irq_work *work)
{
	if (READ_ONCE(rt_func_test_storm))
		rt_func_test_storm_send(smp_processor_id());
}

/* Each CPU's is set up by module init, before the NMI handler exists. */
static DEFINE_PER_CPU(struct irq_work, rt_func_test_storm_work);

static int rt_func_test_nmi(unsigned int type, struct pt_regs *regs)
{
	if (atomic_dec_if_positive(&rt_func_test_nmi_pending) >= 0) {
		rt_func_test_in_nmi();
		atomic_long_inc(&rt_func_test_nmi_hits);
		return NMI_HANDLED;
	}
	if (atomic_dec_if_positive(&rt_func_test_storm_token) < 0)
		return NMI_DONE;
	rt_func_test_in_nmi();
	this_cpu_inc(rt_func_test_storm_seen);
	atomic_long_inc(&rt_func_test_storm_hops);
	if (!READ_ONCE(rt_func_test_storm))
		return NMI_HANDLED;
	if (regs->flags & X86_EFLAGS_IF) {
		rt_func_test_storm_send(smp_processor_id());
	} else {
		atomic_long_inc(&rt_func_test_storm_deferred);
		irq_work_queue(this_cpu_ptr(&rt_func_test_storm_work));
	}
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
	unsigned int ms;
	int cpu;
	bool on;
	int ret = kstrtobool(val, &on);

	if (ret)
		return ret;
	if (on && num_online_cpus() < 2)
		return -EINVAL;	/* it would never leave this CPU */
	if (on == READ_ONCE(rt_func_test_storm))
		return 0;
	WRITE_ONCE(rt_func_test_storm, on);
	if (on) {
		preempt_disable();
		rt_func_test_storm_send(smp_processor_id());
		preempt_enable();
		return 0;
	}
	/* Wait for a deferred hop to be passed on, then for the last hop. */
	for_each_possible_cpu(cpu)
		irq_work_sync(per_cpu_ptr(&rt_func_test_storm_work, cpu));
	for (ms = 0; ms < 1000 && atomic_read(&rt_func_test_storm_token); ms++)
		mdelay(1);
	return 0;
}

static int rt_func_test_get_storm(char *buf, const struct kernel_param *kp)
{
	return sprintf(buf, "%ld\n", atomic_long_read(&rt_func_test_storm_hops));
}

static int rt_func_test_get_storm_deferred(char *buf,
					   const struct kernel_param *kp)
{
	return sprintf(buf, "%ld\n",
		       atomic_long_read(&rt_func_test_storm_deferred));
}

static const struct kernel_param_ops rt_func_test_storm_deferred_ops = {
	.get = rt_func_test_get_storm_deferred,
};
module_param_cb(storm_deferred, &rt_func_test_storm_deferred_ops, NULL, 0444);

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
	int ret, cpu;

	for_each_possible_cpu(cpu)
		per_cpu(rt_func_test_storm_work, cpu) =
			IRQ_WORK_INIT_HARD(rt_func_test_storm_hop);
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
	int cpu;

	rt_func_test_set_storm("0", NULL);
	if (kprobe)
		unregister_kprobe(&rt_func_test_kp);
	unregister_nmi_handler(NMI_LOCAL, "rt_func_test");
	/* A handler that raced with the stop above may have queued one. */
	for_each_possible_cpu(cpu)
		irq_work_sync(per_cpu_ptr(&rt_func_test_storm_work, cpu));
}

module_init(rt_func_test_init);
module_exit(rt_func_test_exit);
MODULE_DESCRIPTION("retrace selftest: traced module functions");
MODULE_LICENSE("GPL");
