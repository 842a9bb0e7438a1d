// SPDX-License-Identifier: GPL-2.0
/*
 * kprobes on call sites, as a client of the patcher.
 *
 * A kprobe placed exactly on a function's call site never writes an
 * int3 there.  ftrace_location() (callsite.c) tells kprobes the address
 * is a site, kprobes marks the probe KPROBE_FLAG_FTRACE, and arming it
 * asks the patcher for the site as a client that needs pt_regs.  The
 * patcher is then the only writer of a site's five bytes, so a kprobe
 * can never keep a stale copy of them (the copy whose first byte, put
 * back over a call, made "0f <rel32>" out of it).
 *
 * The hit path mirrors what an int3 hit does for the probe's handlers:
 * regs->ip is the probe address + 1 while the pre-handler runs, the
 * address past the site for the post-handler, and kprobe_running()
 * nesting counts as a miss.
 */
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <trace/retrace/callsite.h>

static void rt_kprobe_site_hit(unsigned long ip, unsigned long parent_ip,
			       unsigned long *parent_slot, struct pt_regs *regs,
			       bool check);

static struct rt_cs_client rt_kprobe_site_client = {
	.name		= "kprobe",
	.func		= rt_kprobe_site_hit,
	.needs_regs	= true,
};

/* Any context; get_kprobe() wants preemption off. */
static void notrace rt_kprobe_site_hit(unsigned long ip, unsigned long parent_ip,
				       unsigned long *parent_slot,
				       struct pt_regs *regs, bool check)
{
	struct kprobe_ctlblk *kcb;
	unsigned long orig_ip;
	struct kprobe *p;

	preempt_disable_notrace();
	p = get_kprobe((kprobe_opcode_t *)ip);
	if (unlikely(!p) || kprobe_disabled(p))
		goto out;
	if (kprobe_running()) {
		kprobes_inc_nmissed_count(p);
		goto out;
	}
	kcb = get_kprobe_ctlblk();
	orig_ip = instruction_pointer(regs);
	instruction_pointer_set(regs, ip + sizeof(kprobe_opcode_t));
	__this_cpu_write(current_kprobe, p);
	kcb->kprobe_status = KPROBE_HIT_ACTIVE;
	if (!p->pre_handler || !p->pre_handler(p, regs)) {
		/* As if the site's NOP had been single-stepped. */
		instruction_pointer_set(regs, ip + RT_CS_SITE_SIZE);
		if (unlikely(p->post_handler)) {
			kcb->kprobe_status = KPROBE_HIT_SSDONE;
			p->post_handler(p, regs, 0);
		}
		instruction_pointer_set(regs, orig_ip);
	}
	/* A pre-handler returning non-zero has set regs->ip itself. */
	__this_cpu_write(current_kprobe, NULL);
out:
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(rt_kprobe_site_hit);

static int rt_kprobe_site_set(struct kprobe *p, bool on)
{
	int ret;

	mutex_lock(&rt_callsite_lock);
	ret = rt_cs_client_want(&rt_kprobe_site_client,
				(unsigned long)p->addr, on);
	if (!ret)
		ret = rt_callsite_update();
	mutex_unlock(&rt_callsite_lock);
	/* A module site that already left the table is disarmed. */
	return ret == -ENOENT && !on ? 0 : ret;
}

/**
 * retrace_arm_kprobe_site - arm a kprobe that sits on a call site
 * @p: the probe (KPROBE_FLAG_FTRACE)
 *
 * Called by kprobes with kprobe_mutex held.
 *
 * Return: 0 or an errno.
 */
int retrace_arm_kprobe_site(struct kprobe *p)
{
	return rt_kprobe_site_set(p, true);
}

/**
 * retrace_disarm_kprobe_site - disarm a kprobe that sits on a call site
 * @p: the probe (KPROBE_FLAG_FTRACE)
 *
 * Return: 0 or an errno.
 */
int retrace_disarm_kprobe_site(struct kprobe *p)
{
	return rt_kprobe_site_set(p, false);
}

static int __init rt_kprobe_site_init(void)
{
	return rt_cs_client_register(&rt_kprobe_site_client);
}
core_initcall(rt_kprobe_site_init);
