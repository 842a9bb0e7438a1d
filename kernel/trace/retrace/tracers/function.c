// SPDX-License-Identifier: GPL-2.0
/*
 * The function tracer: a client of the call-site patcher that records
 * (ip, parent ip) for every site it wants, chosen by set_ftrace_filter
 * and set_ftrace_notrace (function_filter.c).  Also set_ftrace_pid and
 * the kernel.ftrace_enabled sysctl.  The traceon/traceoff commands are
 * a client of their own (function_probe.c).
 */
#include <linux/debugfs.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/sysctl.h>
#include <linux/uaccess.h>
#include <trace/retrace/callsite.h>
#include <trace/retrace/core.h>
#include <trace/retrace/ipset.h>
#include "function.h"

struct rt_function_entry {
	struct rt_entry	ent;
	unsigned long	ip;
	unsigned long	parent_ip;
};

/* Written under rt_callsite_lock; read locklessly by rt_fn_hit(). */
static bool rt_fn_on;			/* selected and ftrace_enabled */
static bool rt_fn_selected;		/* "function" is current_tracer */
static int rt_ftrace_enabled = 1;	/* kernel.ftrace_enabled */

/*
 * set_ftrace_filter and set_ftrace_notrace as address sets (ipset.h
 * protocol), written under rt_callsite_lock by function_filter.c.
 * rt_fn_filter_gone counts filter entries whose module unloaded: a
 * filter that named only them must not turn into "every function".
 */
struct rt_ipset *rt_fn_filter, *rt_fn_notrace;
unsigned int rt_fn_filter_gone;

static DEFINE_PER_CPU(unsigned long, rt_fn_inside);

static void rt_fn_hit(unsigned long ip, unsigned long parent_ip,
		      unsigned long *parent_slot, struct pt_regs *regs,
		      bool check);
static bool rt_fn_want_new_site(struct rt_cs_client *c, unsigned long ip);
static void rt_fn_module_going(struct rt_cs_client *c, struct module *mod);

struct rt_cs_client rt_fn_client = {
	.name		= "function",
	.func		= rt_fn_hit,
	.want_new_site	= rt_fn_want_new_site,
	.module_going	= rt_fn_module_going,
};

/* Filter and notrace say yes to @ip; preemption disabled or the lock. */
static bool notrace rt_fn_selects(unsigned long ip)
{
	const struct rt_ipset *f, *n;

	/* Both pair with the release in rt_ipset_publish(). */
	f = smp_load_acquire(&rt_fn_filter);
	n = smp_load_acquire(&rt_fn_notrace);

	if (rt_ipset_has(n, ip))
		return false;
	if (!f && !READ_ONCE(rt_fn_filter_gone))
		return true;
	return rt_ipset_has(f, ip);
}

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

/*
 * rt_fn_hit - the function tracer's client callback
 *
 * Runs at the entry of almost any kernel function, in task, softirq,
 * hardirq and NMI context, with or without RCU watching.  It takes no
 * locks, reads the published sets and per-CPU data with preemption
 * disabled, and guards against recursion with rt_recursion_enter().
 * @check: other clients are active, so the site may not be ours.
 */
static void notrace rt_fn_hit(unsigned long ip, unsigned long parent_ip,
			      unsigned long *parent_slot, struct pt_regs *regs,
			      bool check)
{
	unsigned long pc = preempt_count(), bit;
	struct rt_function_entry *e;

	if (!READ_ONCE(rt_fn_on))
		return;
	preempt_disable_notrace();
	if (check && !rt_fn_selects(ip))
		goto out;
	bit = rt_recursion_enter(&rt_fn_inside, pc);
	if (!bit)
		goto out;
	if (rt_recording() && rt_fn_pid_wanted()) {
		e = rt_reserve_entry(RT_TYPE_FUNCTION, sizeof(*e), pc);
		if (e) {
			e->ip = ip;
			e->parent_ip = parent_ip;
			rt_commit();
		}
	}
	rt_recursion_exit(&rt_fn_inside, bit);
out:
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(rt_fn_hit);

static bool rt_fn_want_site(unsigned long ip, void *arg)
{
	return rt_fn_on && rt_fn_selects(ip);
}

/* A module's sites: wanted at once when no filter restricts them. */
static bool rt_fn_want_new_site(struct rt_cs_client *c, unsigned long ip)
{
	return rt_fn_want_site(ip, NULL);
}

/* Filter entries of a module that leaves are dropped but counted. */
static bool rt_fn_in_module(unsigned long ip, void *mod)
{
	return within_module(ip, mod);
}

static void rt_fn_module_going(struct rt_cs_client *c, struct module *mod)
{
	rt_fn_filter_gone += rt_fn_set_drop(&rt_fn_filter, rt_fn_in_module, mod);
	rt_fn_set_drop(&rt_fn_notrace, rt_fn_in_module, mod);
}

/**
 * rt_fn_sync - re-derive the sites the tracer wants and patch
 *
 * Call with rt_callsite_lock held after the tracer, ftrace_enabled,
 * the filter or notrace changed.
 *
 * Return: 0 or the patcher's error.
 */
int rt_fn_sync(void)
{
	lockdep_assert_held(&rt_callsite_lock);
	WRITE_ONCE(rt_fn_on, rt_fn_selected && rt_ftrace_enabled);
	rt_cs_client_want_each(&rt_fn_client, rt_fn_want_site, NULL);
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

static struct rt_readme_part rt_fn_readme = {
	.text = "  available_filter_functions  functions the function tracer can trace\n"
		"  set_ftrace_filter    trace only these: [!]glob[:mod:M], also\n"
		"                       glob:traceon[:N] and glob:traceoff[:N]\n"
		"  set_ftrace_notrace   never trace these: [!]glob[:mod:M]\n"
		"  set_ftrace_pid       trace only these pids (-1: all)\n"
		"  callsite_stats       call sites: total, enabled, patch counters\n"
		"  /proc/sys/kernel/ftrace_enabled  0 turns the function tracer off\n",
};

static int __init rt_function_init(void)
{
	struct dentry *dir = rt_tracing_dir();
	int ret;

	ret = rt_cs_client_register(&rt_fn_client);
	if (ret)
		return ret;
	debugfs_create_file("available_filter_functions", 0444, dir, NULL,
			    &rt_callsite_list_fops);
	debugfs_create_file("callsite_stats", 0444, dir, NULL,
			    &rt_callsite_stats_fops);
	rt_create_filter_files(dir);
	debugfs_create_file("set_ftrace_pid", 0644, dir, NULL, &rt_pid_fops);
	register_sysctl("kernel", rt_fn_sysctls);
	rt_register_event_type(&rt_fn_event);
	rt_register_tracer(&rt_function_tracer);
	rt_readme_add(&rt_fn_readme);
	return 0;
}
device_initcall(rt_function_init);
