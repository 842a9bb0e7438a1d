// SPDX-License-Identifier: GPL-2.0
/*
 * The latency hooks: the out-of-line half of the static branches that
 * include/linux/irqflags.h and include/linux/preempt.h carry (see
 * <trace/retrace/latency_hooks.h>).  They pass interrupt and preemption
 * transitions to one client, a latency tracer, and know nothing of it.
 *
 * Protocol.  @rt_lat_client is written only by register/unregister,
 * under rt_lat_hooks_lock; the hooks read it once, with interrupts or
 * preemption off, and pass nothing while it is NULL.  Turning a key on
 * or off rewrites its sites one at a time, so while it runs some
 * transitions are hooked and others not: a section could start at a
 * hooked site, end at one not yet hooked, and be ended much later by
 * another section's end, a false maximum.  So the client is set only
 * once every site of its keys is hooked (static_branch_enable() has
 * returned), and cleared before any is unhooked: unregister clears
 * it, waits for every CPU to pass a preemptible point
 * (rt_wait_preempt_readers()), after which no hook runs the old client,
 * and only then turns the keys off.  A hook that fires inside the
 * client (the client takes a spinlock, say) is dropped by the per-CPU
 * @rt_lat_busy guard.  Between the keys and the client, the hooks
 * keep their own per-CPU state (rt_lat_irqs_are_off) as always.  The
 * 64-bit syscall path has its own switch, turned with the interrupt key
 * (rt_lat_syscall_hooks()).
 */
#include <linux/export.h>
#include <linux/ftrace.h>
#include <linux/jump_label.h>
#include <linux/kprobes.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <trace/retrace/ipset.h>
#include <trace/retrace/latency_hooks.h>
#include <trace/retrace/latency_client.h>
#include "latency_entry.h"

DEFINE_STATIC_KEY_FALSE(retrace_irqs_hook_key);
EXPORT_SYMBOL(retrace_irqs_hook_key);
DEFINE_STATIC_KEY_FALSE(retrace_preempt_hook_key);
EXPORT_SYMBOL(retrace_preempt_hook_key);

static const struct rt_latency_client *rt_lat_client;
static DEFINE_MUTEX(rt_lat_hooks_lock);
/* Non-zero while this CPU runs the client: nested hooks are dropped. */
static DEFINE_PER_CPU(int, rt_lat_busy);

/*
 * Without lockdep, 64-bit syscalls run a copy of their path without the
 * interrupt hooks until these are on (arch/x86/entry/retrace_syscall.c).
 */
static int rt_lat_syscall_hooks(bool on)
{
#ifdef CONFIG_RETRACE_SYSCALL_HOOK_SWITCH
	return retrace_syscall_hooks(on);
#else
	return 0;
#endif
}

#define RT_LAT_CALL(fn, ...)						\
	do {								\
		const struct rt_latency_client *c;			\
									\
		if (in_nmi() || __this_cpu_read(rt_lat_busy))		\
			break;						\
		c = READ_ONCE(rt_lat_client);				\
		if (!c || !c->fn)					\
			break;						\
		__this_cpu_write(rt_lat_busy, 1);			\
		c->fn(__VA_ARGS__);					\
		__this_cpu_write(rt_lat_busy, 0);			\
	} while (0)

/*
 * Per CPU: interrupts were reported off and not yet on.  Written by its
 * CPU only, with interrupts off.  An "on" is passed on only after an
 * "off" (lockdep kernels call trace_hardirqs_on() even when interrupts
 * are already on), and entry code's "off" only if none is open (a
 * fault taken inside an interrupts-off section).
 */
static DEFINE_PER_CPU(bool, rt_lat_irqs_are_off);

static __always_inline void rt_lat_irqs_off(unsigned long ip, bool entry)
{
	if (in_nmi())
		return;
	if (entry && __this_cpu_read(rt_lat_irqs_are_off))
		return;
	__this_cpu_write(rt_lat_irqs_are_off, true);
	RT_LAT_CALL(irqs_off, ip);
}

static __always_inline void rt_lat_irqs_on(unsigned long ip)
{
	if (!raw_irqs_disabled() || in_nmi() ||
	    !__this_cpu_read(rt_lat_irqs_are_off))
		return;
	__this_cpu_write(rt_lat_irqs_are_off, false);
	RT_LAT_CALL(irqs_on, ip);
}

/*
 * The address reported is the caller's: the function that turned
 * interrupts or preemption off or on (without frame pointers its own
 * caller is not known).  The irqs pair is also what
 * retrace_irqs_off_thunk and retrace_irqs_on_thunk call, with the
 * site of local_irq_*().
 */
__visible void notrace retrace_irqs_off_at(unsigned long ip)
{
	if (retrace_irqs_hooked())
		rt_lat_irqs_off(ip, false);
}
NOKPROBE_SYMBOL(retrace_irqs_off_at);

/* Lockdep kernels' entry code; interrupts may have been off before. */
void notrace retrace_irqs_off_entry_at(unsigned long ip)
{
	if (retrace_irqs_hooked())
		rt_lat_irqs_off(ip, true);
}
NOKPROBE_SYMBOL(retrace_irqs_off_entry_at);

__visible void notrace retrace_irqs_on_at(unsigned long ip)
{
	if (retrace_irqs_hooked())
		rt_lat_irqs_on(ip);
}
NOKPROBE_SYMBOL(retrace_irqs_on_at);

void notrace retrace_preempt_off_at(unsigned long ip)
{
	if (retrace_preempt_hooked())
		RT_LAT_CALL(preempt_off, ip);
}
NOKPROBE_SYMBOL(retrace_preempt_off_at);

void notrace retrace_preempt_on_at(unsigned long ip)
{
	if (retrace_preempt_hooked())
		RT_LAT_CALL(preempt_on, ip);
}
NOKPROBE_SYMBOL(retrace_preempt_on_at);

/**
 * retrace_irqs_off_entry_hook - entry code turned interrupts off
 *
 * From trace_hardirqs_off_finish() in a kernel without lockdep: an
 * exception or interrupt from kernel mode (whose return to interrupts
 * on, irqentry_exit(), reports "on"), or KVM's guest exit.  Interrupts
 * may have been off already, in which case the section open goes on.
 */
void notrace retrace_irqs_off_entry_hook(void)
{
	rt_lat_irqs_off(CALLER_ADDR0, true);
}
EXPORT_SYMBOL(retrace_irqs_off_entry_hook);	/* KVM's guest exit */
NOKPROBE_SYMBOL(retrace_irqs_off_entry_hook);

/**
 * retrace_irqs_off_user_hook - entry from user mode turned interrupts off
 *
 * They were on in user mode, so this always starts a section; one still
 * open lost its end to a syscall exit that ran without the hooks
 * (arch/x86/entry/retrace_syscall.c) and is dropped by the client.
 */
void notrace retrace_irqs_off_user_hook(void)
{
	rt_lat_irqs_off(CALLER_ADDR0, false);
}
EXPORT_SYMBOL(retrace_irqs_off_user_hook);
NOKPROBE_SYMBOL(retrace_irqs_off_user_hook);

/**
 * retrace_irqs_on_hook - interrupts are about to go on (entry code)
 *
 * From trace_hardirqs_on_prepare() and irqentry_exit()'s
 * trace_hardirqs_on(), with interrupts still off; reports the caller.
 */
void notrace retrace_irqs_on_hook(void)
{
	rt_lat_irqs_on(CALLER_ADDR0);
}
EXPORT_SYMBOL(retrace_irqs_on_hook);
NOKPROBE_SYMBOL(retrace_irqs_on_hook);

/**
 * retrace_preempt_add_from - the preemption count grew (static branch taken)
 * @val: by how much; a transition when the count is now exactly @val
 * @ip: the site, in the function that disabled preemption
 *
 * Called through retrace_preempt_add_thunk.
 */
__visible void notrace retrace_preempt_add_from(int val, unsigned long ip)
{
	if (preempt_count() == val)
		RT_LAT_CALL(preempt_off, ip);
}
NOKPROBE_SYMBOL(retrace_preempt_add_from);

/**
 * retrace_preempt_sub_from - the preemption count is about to shrink
 * @val: by how much; a transition when the count is exactly @val
 * @ip: the site, in the function that enables preemption
 *
 * Called through retrace_preempt_sub_thunk.
 */
__visible void notrace retrace_preempt_sub_from(int val, unsigned long ip)
{
	if (preempt_count() == val)
		RT_LAT_CALL(preempt_on, ip);
}
NOKPROBE_SYMBOL(retrace_preempt_sub_from);

void notrace retrace_idle_enter_hook(void)
{
	preempt_disable_notrace();
	RT_LAT_CALL(idle, true);
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(retrace_idle_enter_hook);

void notrace retrace_idle_exit_hook(void)
{
	preempt_disable_notrace();
	RT_LAT_CALL(idle, false);
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(retrace_idle_exit_hook);

/**
 * rt_latency_hooks_register - send transitions to @client
 * @client: the callbacks; must stay valid until unregistered
 *
 * Turns on the interrupt hooks if @client has irqs_off, the preemption
 * hooks if it has preempt_off.  May sleep.
 *
 * Return: 0, or -EBUSY if another client is registered.
 */
int rt_latency_hooks_register(const struct rt_latency_client *client)
{
	int ret = 0;

	mutex_lock(&rt_lat_hooks_lock);
	if (rt_lat_client) {
		ret = -EBUSY;
		goto out;
	}
	if (client->irqs_off) {
		static_branch_enable(&retrace_irqs_hook_key);
		ret = rt_lat_syscall_hooks(true);
		if (ret) {
			static_branch_disable(&retrace_irqs_hook_key);
			goto out;
		}
	}
	if (client->preempt_off)
		static_branch_enable(&retrace_preempt_hook_key);
	/*
	 * Every site hooked: from now on a section starts and ends hooked,
	 * but in a syscall that entered by the unhooked copy (see
	 * arch/x86/entry/retrace_syscall.c for why that is harmless).
	 */
	WRITE_ONCE(rt_lat_client, client);
out:
	mutex_unlock(&rt_lat_hooks_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(rt_latency_hooks_register);

/**
 * rt_latency_hooks_unregister - stop sending transitions to @client
 * @client: what rt_latency_hooks_register() took
 *
 * On return no hook runs @client any more.  May sleep.
 */
void rt_latency_hooks_unregister(const struct rt_latency_client *client)
{
	mutex_lock(&rt_lat_hooks_lock);
	if (rt_lat_client == client) {
		WRITE_ONCE(rt_lat_client, NULL);
		/* No hook runs @client past this ... */
		rt_wait_preempt_readers();
		/* ... so none sees a site unhooked. */
		static_branch_disable(&retrace_irqs_hook_key);
		static_branch_disable(&retrace_preempt_hook_key);
		rt_lat_syscall_hooks(false);
	}
	mutex_unlock(&rt_lat_hooks_lock);
}
EXPORT_SYMBOL_GPL(rt_latency_hooks_unregister);
