// SPDX-License-Identifier: GPL-2.0
/*
 * The function tracer: every enabled call site lands in
 * rt_function_entry(), which records (ip, parent ip) in the ring buffer.
 * Also set_ftrace_pid and the kernel.ftrace_enabled sysctl.
 *
 * Context rules for rt_function_entry(): it runs at the entry of almost
 * any kernel function, in task, softirq, hardirq and NMI context, with
 * or without RCU watching.  It takes no locks, touches only per-CPU
 * data with preemption disabled, and guards against recursion with one
 * bit per context level (a level can only be interrupted by a higher
 * one, so a set bit means "this level is already inside").
 */
#include <linux/debugfs.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/sysctl.h>
#include <linux/uaccess.h>
#include <trace/retrace/callsite.h>
#include "internal.h"

struct rt_function_entry {
	struct rt_entry	ent;
	unsigned long	ip;
	unsigned long	parent_ip;
};

/* Read locklessly by rt_function_entry(); written under rt_callsite_lock. */
static bool rt_fn_recording;
static bool rt_fn_selected;		/* "function" is current_tracer */
static int rt_ftrace_enabled = 1;	/* kernel.ftrace_enabled */

static DEFINE_PER_CPU(unsigned int, rt_fn_inside);

/*
 * set_ftrace_pid: two static sets, the live one published by pointer.
 * A reader racing with an update may decide one event on the old set;
 * the arrays are never freed, so that is the whole cost.
 */
#define RT_MAX_PIDS	64
struct rt_pid_set {
	unsigned int	nr;		/* 0: every task */
	pid_t		pids[RT_MAX_PIDS];
};
static struct rt_pid_set rt_pid_sets[2];
static struct rt_pid_set *rt_pid_live = &rt_pid_sets[0];
static DEFINE_MUTEX(rt_pid_lock);

static bool notrace rt_fn_pid_wanted(void)
{
	/* Pairs with the release in rt_pid_write(): entries before pointer. */
	struct rt_pid_set *set = smp_load_acquire(&rt_pid_live);
	unsigned int i, nr = READ_ONCE(set->nr);
	pid_t pid;

	if (!nr)
		return true;
	pid = current->pid;
	for (i = 0; i < nr && i < RT_MAX_PIDS; i++)
		if (READ_ONCE(set->pids[i]) == pid)
			return true;
	return false;
}

/**
 * rt_function_entry - called by retrace_caller for every enabled site
 * @ip: the call site (the traced function's first instruction after ENDBR)
 * @parent_ip: where the traced function will return to
 * @parent_slot: the stack slot holding @parent_ip (for return hooks)
 */
void notrace rt_function_entry(unsigned long ip, unsigned long parent_ip,
			       unsigned long *parent_slot)
{
	unsigned long pc = preempt_count();
	bool record = READ_ONCE(rt_fn_recording), traced;
	bool probes = READ_ONCE(rt_fprobe_nr_live);
	struct rt_function_entry *e;
	unsigned int bit;

	if (!record && !probes)
		return;
	/* A kprobe's copy of a call the tracer no longer wants. */
	if (unlikely(READ_ONCE(rt_cs_nr_muted)) && rt_cs_muted(ip))
		return;
	preempt_disable_notrace();
	bit = 1U << rt_context_level(pc);
	if (__this_cpu_read(rt_fn_inside) & bit)
		goto out;
	__this_cpu_or(rt_fn_inside, bit);
	/* A site enabled only for a command is not recorded. */
	if (unlikely(probes) && rt_fprobe_hit(ip, &traced))
		record &= traced;
	if (record && rt_recording() && rt_fn_pid_wanted()) {
		e = rt_reserve_entry(RT_TYPE_FUNCTION, sizeof(*e), pc);
		if (e) {
			e->ip = ip;
			e->parent_ip = parent_ip;
			rt_commit();
		}
	}
	__this_cpu_and(rt_fn_inside, ~bit);
out:
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(rt_function_entry);

/* Re-derive who wants calls and patch; rt_callsite_lock held. */
static int rt_fn_sync(void)
{
	bool on = rt_fn_selected && rt_ftrace_enabled;

	lockdep_assert_held(&rt_callsite_lock);
	WRITE_ONCE(rt_fn_recording, on);
	rt_callsite_wanted = on;
	return rt_callsite_update();
}

static int rt_fn_init(void)
{
	int ret;

	mutex_lock(&rt_callsite_lock);
	rt_fn_selected = true;
	ret = rt_fn_sync();
	if (ret) {
		rt_fn_selected = false;
		rt_fn_sync();
	}
	mutex_unlock(&rt_callsite_lock);
	return ret;
}

static void rt_fn_reset(void)
{
	mutex_lock(&rt_callsite_lock);
	rt_fn_selected = false;
	rt_fn_sync();
	mutex_unlock(&rt_callsite_lock);
}

static struct rt_tracer rt_function_tracer = {
	.name = "function",
	.init = rt_fn_init,
	.reset = rt_fn_reset,
};

static void rt_fn_print(struct rt_print_ctx *ctx)
{
	const struct rt_function_entry *e = (const void *)ctx->ent;

	if (ctx->len < sizeof(*e))
		return;
	rt_print_sym(ctx->s, e->ip);
	if (rt_opt(RT_OPT_PRINT_PARENT)) {
		seq_buf_puts(ctx->s, " <-");
		rt_print_sym(ctx->s, e->parent_ip);
	}
}

static void rt_fn_print_raw(struct rt_print_ctx *ctx)
{
	const struct rt_function_entry *e = (const void *)ctx->ent;

	if (ctx->len < sizeof(*e))
		return;
	seq_buf_printf(ctx->s, " %lx %lx", e->ip, e->parent_ip);
}

static struct rt_event_type rt_fn_event = {
	.type = RT_TYPE_FUNCTION,
	.name = "function",
	.print = rt_fn_print,
	.print_raw = rt_fn_print_raw,
};

/* kernel.ftrace_enabled: 0 turns the function tracer into a nop. */
static int rt_ftrace_enabled_handler(const struct ctl_table *table, int write,
				     void *buffer, size_t *lenp, loff_t *ppos)
{
	int ret;

	mutex_lock(&rt_callsite_lock);
	ret = proc_dointvec_minmax(table, write, buffer, lenp, ppos);
	if (!ret && write)
		ret = rt_fn_sync();
	mutex_unlock(&rt_callsite_lock);
	return ret;
}

static struct ctl_table rt_fn_sysctls[] = {
	{
		.procname	= "ftrace_enabled",
		.data		= &rt_ftrace_enabled,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= rt_ftrace_enabled_handler,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
};

/* set_ftrace_pid */
static int rt_pid_show(struct seq_file *m, void *v)
{
	struct rt_pid_set *set;
	unsigned int i;

	mutex_lock(&rt_pid_lock);
	set = rt_pid_live;
	if (!set->nr)
		seq_puts(m, "no pid\n");
	for (i = 0; i < set->nr; i++)
		seq_printf(m, "%d\n", set->pids[i]);
	mutex_unlock(&rt_pid_lock);
	return 0;
}

/*
 * O_TRUNC is only visible in open(); remember it in the seq_file's
 * private word so the first write replaces the set and later ones add.
 */
static int rt_pid_open(struct inode *inode, struct file *file)
{
	bool trunc = (file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC);

	return single_open(file, rt_pid_show, (void *)(unsigned long)trunc);
}

/*
 * Parse pids; "-1" or nothing means "every task".  Each pid must name a
 * live task.  Returns the new count or a negative errno.
 */
static int rt_pid_parse(char *buf, struct rt_pid_set *set)
{
	char *word;
	int val, ret;
	unsigned int i;

	while ((word = strsep(&buf, " \t\n")) != NULL) {
		if (!*word)
			continue;
		ret = kstrtoint(word, 10, &val);
		if (ret)
			return ret;
		if (val == -1) {
			set->nr = 0;
			continue;
		}
		if (val < 0)
			return -EINVAL;
		if (val && !find_vpid(val))
			return -ESRCH;
		for (i = 0; i < set->nr; i++)
			if (set->pids[i] == val)
				break;
		if (i < set->nr)
			continue;
		if (set->nr == RT_MAX_PIDS)
			return -ENOSPC;
		set->pids[set->nr++] = val;
	}
	return set->nr;
}

static ssize_t rt_pid_write(struct file *file, const char __user *ubuf,
			    size_t cnt, loff_t *ppos)
{
	struct seq_file *m = file->private_data;
	struct rt_pid_set *next;
	char *buf;
	int ret;

	if (cnt > PAGE_SIZE)
		return -E2BIG;
	buf = memdup_user_nul(ubuf, cnt);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	mutex_lock(&rt_pid_lock);
	next = rt_pid_live == &rt_pid_sets[0] ? &rt_pid_sets[1] : &rt_pid_sets[0];
	/* A reader may still be on @next from two updates ago. */
	synchronize_rcu();
	next->nr = 0;
	if (!m->private) {
		memcpy(next->pids, rt_pid_live->pids, sizeof(next->pids));
		next->nr = rt_pid_live->nr;
	}
	rcu_read_lock();
	ret = rt_pid_parse(buf, next);
	rcu_read_unlock();
	if (ret >= 0) {
		/* Pairs with the acquire in rt_fn_pid_wanted(). */
		smp_store_release(&rt_pid_live, next);
		m->private = NULL;
	}
	mutex_unlock(&rt_pid_lock);
	kfree(buf);
	if (ret < 0)
		return ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations rt_pid_fops = {
	.open = rt_pid_open,
	.read = seq_read,
	.write = rt_pid_write,
	.llseek = seq_lseek,
	.release = single_release,
};

void __init rt_create_function_files(struct dentry *dir)
{
	rt_create_callsite_files(dir);
	rt_create_filter_files(dir);
	debugfs_create_file("set_ftrace_pid", 0644, dir, NULL, &rt_pid_fops);
	register_sysctl("kernel", rt_fn_sysctls);
	rt_register_event_type(&rt_fn_event);
	rt_register_tracer(&rt_function_tracer);
}
