// SPDX-License-Identifier: GPL-2.0
/*
 * The stack tracer: the deepest kernel stack a task has used, and the
 * call chain that used it.  kernel.stack_tracer_enabled turns on a
 * call-site client of its own; at the entry of every function that
 * stack_trace_filter selects (every function while it is empty) it
 * measures how much of the task's stack is in use, and when that beats
 * stack_max_size it saves the chain, with each frame's depth, for
 * stack_trace to show.
 *
 * Only the task's stack is measured.  On x86_64 most interrupts and
 * softirqs, and NMIs, run on stacks of their own, which the pointer
 * check skips; what runs on the task stack (an interrupt taken from
 * user mode, some system vectors, exceptions) is measured with it.
 *
 * rt_stack_max (stack_max_size) is read with no lock by every hit, to
 * leave at once when the stack is no deeper than the max, and by
 * stack_max_size's read; a new max, the saved chain and its depths are
 * written under rt_stack_lock, an arch spinlock taken with interrupts
 * off (raw, so that no irq hook runs inside a traced function's entry;
 * lockdep never sees it), and the chain is read under it by
 * stack_trace.  rt_stack_inside keeps a CPU from measuring again from
 * inside the unwinder, whose functions are traced too.
 */
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/sched/task_stack.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>
#include <linux/sysctl.h>
#include <linux/tracefs.h>
#include <linux/uaccess.h>
#include "function.h"

#define RT_STACK_MAX_ENTRIES	64

/* stack_trace_filter as an address set (ipset.h protocol). */
struct rt_ipset *rt_stack_filter;
unsigned int rt_stack_filter_gone;

static int rt_stack_enabled;		/* kernel.stack_tracer_enabled */
static bool rt_stack_on;		/* enabled and ftrace_enabled */
static bool rt_stack_registered;	/* the client has its id */

static arch_spinlock_t rt_stack_lock =
	(arch_spinlock_t)__ARCH_SPIN_LOCK_UNLOCKED;
/* Under rt_stack_lock; rt_stack_max also read locklessly. */
static unsigned long rt_stack_max;
static unsigned int rt_stack_nr;
static unsigned long rt_stack_ips[RT_STACK_MAX_ENTRIES];
static unsigned long rt_stack_depth[RT_STACK_MAX_ENTRIES];

static DEFINE_PER_CPU(int, rt_stack_inside);

static void rt_stack_hit(unsigned long ip, unsigned long parent_ip,
			 unsigned long *parent_slot, struct pt_regs *regs,
			 bool check);
static bool rt_stack_want_new_site(struct rt_cs_client *c, unsigned long ip);

static struct rt_cs_client rt_stack_client = {
	.name		= "stack_tracer",
	.func		= rt_stack_hit,
	.want_new_site	= rt_stack_want_new_site,
};

/* stack_trace_filter says yes to @ip; preemption disabled or the lock. */
static bool notrace rt_stack_selects(unsigned long ip)
{
	/* Pairs with the release in rt_ipset_publish(). */
	const struct rt_ipset *f = smp_load_acquire(&rt_stack_filter);

	if (!f && !READ_ONCE(rt_stack_filter_gone))
		return true;
	return rt_ipset_has(f, ip);
}

/*
 * Save the chain that reached @ip with the stack in use down to @sp,
 * and where on the stack each frame's return address lies.  Under
 * rt_stack_lock.
 */
static void notrace rt_stack_save(unsigned long ip, unsigned long sp,
				  unsigned long used)
{
	unsigned long *top = (unsigned long *)((unsigned long)
			     task_stack_page(current) + THREAD_SIZE);
	unsigned long *p = (unsigned long *)sp;
	unsigned int n, i, first;

	n = stack_trace_save(rt_stack_ips, RT_STACK_MAX_ENTRIES, 0);
	/*
	 * The first frames are ours (this client, the dispatcher, the
	 * trampoline); the traced function's is the one whose return
	 * address follows its call site.
	 */
	for (first = 0; first < n; first++)
		if (rt_stack_ips[first] == ip + RT_CS_SITE_SIZE)
			break;
	if (first == n) {
		for (first = 0; first < n; first++)
			if (!rt_in_retrace_text(rt_stack_ips[first]))
				break;
	}
	n -= first;
	memmove(rt_stack_ips, rt_stack_ips + first, n * sizeof(rt_stack_ips[0]));
	/* Shown as the function itself, not the address after its site. */
	if (n)
		rt_stack_ips[0] = ip;
	/*
	 * A frame's depth: the stack in use above its return address,
	 * found by scanning up from @sp (the traced function's own frame
	 * starts where the trampoline's return address lies).  A frame
	 * whose address is not found (a tail call) keeps the depth of the
	 * one below it.
	 */
	for (i = 0; i < n; i++) {
		unsigned long want = i ? rt_stack_ips[i] : ip + RT_CS_SITE_SIZE;
		unsigned long *q;

		rt_stack_depth[i] = i ? rt_stack_depth[i - 1] : used;
		for (q = p; q < top; q++) {
			/* Other frames' slots: no KASAN check. */
			if (READ_ONCE_NOCHECK(*q) == want) {
				rt_stack_depth[i] = (top - q) * sizeof(*q);
				p = q + 1;
				break;
			}
		}
	}
	rt_stack_nr = n;
	WRITE_ONCE(rt_stack_max, used);
}

/*
 * The client callback.  Interrupt and NMI stacks fail the on-stack
 * check, so the measuring and saving run in task context only.
 */
static void notrace rt_stack_hit(unsigned long ip, unsigned long parent_ip,
				 unsigned long *parent_slot,
				 struct pt_regs *regs, bool check)
{
	unsigned long sp = current_stack_pointer, used, flags;

	/* The unwinder looks modules up under RCU, which must be watching. */
	if (!READ_ONCE(rt_stack_on) || in_nmi() || !rcu_is_watching())
		return;
	if (!object_is_on_stack((void *)sp))
		return;
	used = (unsigned long)task_stack_page(current) + THREAD_SIZE - sp;
	if (used <= READ_ONCE(rt_stack_max))
		return;
	preempt_disable_notrace();
	if (check && !rt_stack_selects(ip))
		goto out;
	if (this_cpu_inc_return(rt_stack_inside) != 1)
		goto dec;
	raw_local_irq_save(flags);
	arch_spin_lock(&rt_stack_lock);
	if (used > rt_stack_max && READ_ONCE(rt_stack_on))
		rt_stack_save(ip, sp, used);
	arch_spin_unlock(&rt_stack_lock);
	raw_local_irq_restore(flags);
dec:
	this_cpu_dec(rt_stack_inside);
out:
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(rt_stack_hit);

static bool rt_stack_want_site(unsigned long ip, void *arg)
{
	return rt_stack_on && rt_stack_selects(ip);
}

static bool rt_stack_want_new_site(struct rt_cs_client *c, unsigned long ip)
{
	return rt_stack_want_site(ip, NULL);
}

/**
 * rt_stack_sync - re-derive the stack tracer's sites
 * @ftrace_enabled: kernel.ftrace_enabled
 *
 * Called by rt_fn_sync(), with rt_callsite_lock held, before it
 * patches: after stack_trace_filter, ftrace_enabled or
 * stack_tracer_enabled changed.
 */
void rt_stack_sync(bool ftrace_enabled)
{
	lockdep_assert_held(&rt_callsite_lock);
	if (!rt_stack_registered)
		return;
	WRITE_ONCE(rt_stack_on, rt_stack_enabled && ftrace_enabled);
	rt_cs_client_want_each(&rt_stack_client, rt_stack_want_site, NULL);
}

static struct ctl_table rt_stack_sysctls[] = {
	{
		.procname	= "stack_tracer_enabled",
		.data		= &rt_stack_enabled,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= rt_fn_sync_sysctl,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
};

static ssize_t rt_stack_max_read(struct file *file, char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	char buf[24];
	int len = scnprintf(buf, sizeof(buf), "%lu\n", READ_ONCE(rt_stack_max));

	return simple_read_from_buffer(ubuf, cnt, ppos, buf, len);
}

/* A new max (usually 0, to start over); the saved chain stays. */
static ssize_t rt_stack_max_write(struct file *file, const char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	unsigned long val, flags;
	int ret;

	ret = kstrtoul_from_user(ubuf, cnt, 10, &val);
	if (ret)
		return ret;
	/* This CPU's hits must not spin on the lock held below. */
	preempt_disable();
	this_cpu_inc(rt_stack_inside);
	raw_local_irq_save(flags);
	arch_spin_lock(&rt_stack_lock);
	WRITE_ONCE(rt_stack_max, val);
	arch_spin_unlock(&rt_stack_lock);
	raw_local_irq_restore(flags);
	this_cpu_dec(rt_stack_inside);
	preempt_enable();
	return cnt;
}

static int rt_stack_file_open(struct inode *inode, struct file *file)
{
	return rt_file_lockdown();
}

static const struct file_operations rt_stack_max_fops = {
	.open	= rt_stack_file_open,
	.read	= rt_stack_max_read,
	.write	= rt_stack_max_write,
	.llseek	= default_llseek,
};

/* What stack_trace prints: a copy taken under the lock at open. */
struct rt_stack_view {
	unsigned int	nr;
	unsigned long	ips[RT_STACK_MAX_ENTRIES];
	unsigned long	depth[RT_STACK_MAX_ENTRIES];
};

static int rt_stack_trace_show(struct seq_file *m, void *v)
{
	struct rt_stack_view *sv = m->private;
	unsigned long size;
	unsigned int i;

	seq_printf(m, "        Depth    Size   Location    (%u entries)\n"
		   "        -----    ----   --------\n", sv->nr);
	for (i = 0; i < sv->nr; i++) {
		size = i + 1 < sv->nr ? sv->depth[i] - sv->depth[i + 1]
				      : sv->depth[i];
		seq_printf(m, "%3u) %8lu   %5lu   %pS\n", i, sv->depth[i],
			   size, (void *)sv->ips[i]);
	}
	return 0;
}

static int rt_stack_trace_open(struct inode *inode, struct file *file)
{
	struct rt_stack_view *sv;
	unsigned long flags;
	int ret = rt_file_lockdown();

	if (ret)
		return ret;
	sv = kzalloc(sizeof(*sv), GFP_KERNEL);
	if (!sv)
		return -ENOMEM;
	preempt_disable();
	this_cpu_inc(rt_stack_inside);
	raw_local_irq_save(flags);
	arch_spin_lock(&rt_stack_lock);
	sv->nr = rt_stack_nr;
	memcpy(sv->ips, rt_stack_ips, sizeof(sv->ips));
	memcpy(sv->depth, rt_stack_depth, sizeof(sv->depth));
	arch_spin_unlock(&rt_stack_lock);
	raw_local_irq_restore(flags);
	this_cpu_dec(rt_stack_inside);
	preempt_enable();
	ret = single_open(file, rt_stack_trace_show, sv);
	if (ret)
		kfree(sv);
	return ret;
}

static int rt_stack_trace_release(struct inode *inode, struct file *file)
{
	kfree(((struct seq_file *)file->private_data)->private);
	return single_release(inode, file);
}

static const struct file_operations rt_stack_trace_fops = {
	.open		= rt_stack_trace_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= rt_stack_trace_release,
};

static struct rt_readme_part rt_stack_readme = {
	.text = "  stack_trace          the deepest task stack seen, frame by frame\n"
		"  stack_max_size       its size in bytes; writable (0 starts over)\n"
		"  stack_trace_filter   measure only at these functions: [!]glob[:mod:M]\n"
		"  /proc/sys/kernel/stack_tracer_enabled  1 turns the stack tracer on\n",
};

/**
 * rt_stack_create_files - the stack tracer's files, sysctl and client
 * @dir: the top level's tracing directory
 *
 * Called once by the function tracer's init.
 */
void __init rt_stack_create_files(struct dentry *dir)
{
	if (rt_cs_client_register(&rt_stack_client)) {
		pr_warn("stack tracer: no call-site client left\n");
		return;
	}
	mutex_lock(&rt_callsite_lock);
	rt_stack_registered = true;
	mutex_unlock(&rt_callsite_lock);
	tracefs_create_file("stack_max_size", 0644, dir, NULL,
			    &rt_stack_max_fops);
	tracefs_create_file("stack_trace", 0444, dir, NULL,
			    &rt_stack_trace_fops);
	rt_create_stack_filter_file(dir);
	register_sysctl("kernel", rt_stack_sysctls);
	rt_readme_add(&rt_stack_readme);
}
