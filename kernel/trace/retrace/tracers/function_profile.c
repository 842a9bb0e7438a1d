// SPDX-License-Identifier: GPL-2.0
/*
 * The function profiler: function_profile_enabled and
 * trace_stat/functionN.  While it is on, a call-site client of its own
 * counts the calls of every function that set_ftrace_filter and
 * set_ftrace_notrace select (the function tracer's sets, whatever
 * current_tracer is), per CPU; trace_stat/functionN lists CPU N's
 * counts, most called first.  Writing 1 starts over from zero; writing
 * 0 stops counting and keeps the counts for reading.
 *
 * Per CPU, a table with one record per function seen:
 *
 *   recs[0..nr)   the records, in order of first call: ip and hits; ip
 *                 0 marks the record of a function whose module left
 *   heads[]       hash buckets: index + 1 of a chain's first record
 *   recs[i].next  index + 1 of the next record in the chain, 0 at its end
 *   nr            records in use; published with a release, after the
 *                 record it counts is filled in
 *   busy          set while this CPU's hit is inside the table
 *
 * Writers: only the CPU's own hits (rt_prof_hit()), with interrupts
 * off, so the one writer a table can meet on its CPU is an NMI, which
 * finds busy set and is not counted; nor is a call once the table is
 * full (the call sites counted at start plus RT_PROF_SLACK).  The one
 * other write is a module's unload (rt_prof_module_going(), under
 * rt_callsite_lock), which sets the ip of that module's records to 0
 * so that a module loaded later at the same address starts its own.
 * Readers: trace_stat opens, on any CPU, under rt_prof_lock; they read
 * nr with an acquire and then recs[0..nr), whose hits may go on
 * growing (READ_ONCE), and never follow chains.  Reset: only while
 * profiling is off, under rt_prof_lock and rt_callsite_lock, after
 * rt_wait_preempt_readers() has waited out every hit still inside a
 * table (hits run with interrupts off).
 */
#include <linux/hash.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/tracefs.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include "function.h"

struct rt_prof_rec {
	unsigned long	ip;
	unsigned long	hits;
	u32		next;
};

struct rt_prof_cpu {
	struct rt_prof_rec	*recs;
	u32			*heads;
	u32			cap;
	u32			hash_bits;
	u32			nr;
	int			busy;
};

/* Records beyond the call sites counted at start, for modules loaded later. */
#define RT_PROF_SLACK	1024

static DEFINE_PER_CPU(struct rt_prof_cpu, rt_prof_cpus);
/* Serialises function_profile_enabled, resets and trace_stat opens. */
static DEFINE_MUTEX(rt_prof_lock);
/* function_profile_enabled, under rt_prof_lock and rt_callsite_lock. */
static bool rt_prof_wanted;
/* The client has its id; under rt_callsite_lock. */
static bool rt_prof_registered;
/* Counting: wanted and ftrace_enabled; written by rt_prof_sync(). */
static bool rt_prof_on;

static void rt_prof_hit(unsigned long ip, unsigned long parent_ip,
			unsigned long *parent_slot, struct pt_regs *regs,
			bool check);
static bool rt_prof_want_new_site(struct rt_cs_client *c, unsigned long ip);
static void rt_prof_module_going(struct rt_cs_client *c, struct module *mod);

static struct rt_cs_client rt_prof_client = {
	.name		= "function_profile",
	.func		= rt_prof_hit,
	.want_new_site	= rt_prof_want_new_site,
	.module_going	= rt_prof_module_going,
};

/* This CPU's record of @ip, made if it has none; NULL if full. */
static struct rt_prof_rec *rt_prof_lookup(struct rt_prof_cpu *pc,
					  unsigned long ip)
{
	u32 b = hash_long(ip, pc->hash_bits), i;
	struct rt_prof_rec *r;

	for (i = pc->heads[b]; i; i = r->next) {
		r = &pc->recs[i - 1];
		if (READ_ONCE(r->ip) == ip)
			return r;
	}
	i = pc->nr;
	if (i >= pc->cap)
		return NULL;
	r = &pc->recs[i];
	r->ip = ip;
	r->hits = 0;
	r->next = pc->heads[b];
	pc->heads[b] = i + 1;
	/* Readers of recs[0..nr) find the record filled in. */
	smp_store_release(&pc->nr, i + 1);
	return r;
}

/*
 * The client callback: any context, NMI included.  Interrupts are off
 * while the table is touched; raw, so that lockdep's and the latency
 * tracers' irq hooks, which are traced functions' callers, never run.
 */
static void notrace rt_prof_hit(unsigned long ip, unsigned long parent_ip,
				unsigned long *parent_slot,
				struct pt_regs *regs, bool check)
{
	struct rt_prof_cpu *pc;
	struct rt_prof_rec *r;
	unsigned long flags;

	if (!READ_ONCE(rt_prof_on))
		return;
	raw_local_irq_save(flags);
	/*
	 * Again with interrupts off: a hit preempted since the first look
	 * may resume after a reset that rt_wait_preempt_readers() could
	 * not wait for, and must not touch tables freed meanwhile.
	 */
	if (!READ_ONCE(rt_prof_on) ||
	    (check && !rt_fn_selects(&rt_fn_top, ip)))
		goto out;
	pc = this_cpu_ptr(&rt_prof_cpus);
	if (unlikely(pc->busy || !pc->recs))
		goto out;
	pc->busy = 1;
	barrier();
	r = rt_prof_lookup(pc, ip);
	if (r)
		WRITE_ONCE(r->hits, r->hits + 1);
	barrier();
	pc->busy = 0;
out:
	raw_local_irq_restore(flags);
}
NOKPROBE_SYMBOL(rt_prof_hit);

static bool rt_prof_want_site(unsigned long ip, void *arg)
{
	return rt_prof_on && rt_fn_selects(&rt_fn_top, ip);
}

/*
 * A module's sites at its load.  The ":mod:" patterns waiting for it
 * apply in the function tracer's module_coming, which then runs
 * rt_fn_sync() and so rt_prof_sync(): nothing more to do here.
 */
static bool rt_prof_want_new_site(struct rt_cs_client *c, unsigned long ip)
{
	return rt_prof_want_site(ip, NULL);
}

/* Under rt_callsite_lock, which resets take too: the tables stay. */
static void rt_prof_module_going(struct rt_cs_client *c, struct module *mod)
{
	unsigned int i, nr;
	int cpu;

	lockdep_assert_held(&rt_callsite_lock);
	for_each_possible_cpu(cpu) {
		struct rt_prof_cpu *pc = per_cpu_ptr(&rt_prof_cpus, cpu);

		if (!pc->recs)
			continue;
		/* Pairs with the release in rt_prof_lookup(). */
		nr = smp_load_acquire(&pc->nr);
		for (i = 0; i < nr; i++)
			if (within_module(READ_ONCE(pc->recs[i].ip), mod))
				WRITE_ONCE(pc->recs[i].ip, 0);
	}
}

/**
 * rt_prof_sync - re-derive the profiler's sites
 * @ftrace_enabled: kernel.ftrace_enabled
 *
 * Called by rt_fn_sync(), with rt_callsite_lock held, before it
 * patches: after the filter, notrace, ftrace_enabled or
 * function_profile_enabled changed.
 */
void rt_prof_sync(bool ftrace_enabled)
{
	lockdep_assert_held(&rt_callsite_lock);
	if (!rt_prof_registered)
		return;
	WRITE_ONCE(rt_prof_on, rt_prof_wanted && ftrace_enabled);
	rt_cs_client_want_each(&rt_prof_client, rt_prof_want_site, NULL);
}

/* Tables allocated for a reset, before any CPU's is touched. */
struct rt_prof_fresh {
	struct rt_prof_rec	*recs;
	u32			*heads;
};

/*
 * Give every CPU an empty table for @sites functions; profiling is off.
 * All the tables that must grow are allocated first: on failure every
 * CPU keeps its counts.
 */
static int rt_prof_reset(unsigned int sites)
{
	u32 cap = sites + RT_PROF_SLACK;
	u32 bits = ilog2(roundup_pow_of_two(max(cap / 4, 1024U)));
	struct rt_prof_fresh *fresh;
	int cpu, ret = 0;

	lockdep_assert_held(&rt_prof_lock);
	lockdep_assert_held(&rt_callsite_lock);
	fresh = kcalloc(nr_cpu_ids, sizeof(*fresh), GFP_KERNEL);
	if (!fresh)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		if (per_cpu_ptr(&rt_prof_cpus, cpu)->cap >= cap)
			continue;
		fresh[cpu].heads = vzalloc_node(sizeof(u32) << bits,
						cpu_to_node(cpu));
		fresh[cpu].recs = vmalloc_node(array_size(cap, sizeof(struct rt_prof_rec)),
					       cpu_to_node(cpu));
		if (!fresh[cpu].heads || !fresh[cpu].recs) {
			ret = -ENOMEM;
			goto out;
		}
	}
	/* No hit is left inside a table: they run with interrupts off. */
	rt_wait_preempt_readers();
	for_each_possible_cpu(cpu) {
		struct rt_prof_cpu *pc = per_cpu_ptr(&rt_prof_cpus, cpu);

		if (fresh[cpu].recs) {
			swap(pc->recs, fresh[cpu].recs);
			swap(pc->heads, fresh[cpu].heads);
			pc->cap = cap;
			pc->hash_bits = bits;
		} else {
			memset(pc->heads, 0, sizeof(u32) << pc->hash_bits);
		}
		pc->nr = 0;
	}
out:
	/* The old tables, or on failure the new ones. */
	for_each_possible_cpu(cpu) {
		vfree(fresh[cpu].recs);
		vfree(fresh[cpu].heads);
	}
	kfree(fresh);
	return ret;
}

static ssize_t rt_prof_enabled_read(struct file *file, char __user *ubuf,
				    size_t cnt, loff_t *ppos)
{
	char buf[4];
	int len = scnprintf(buf, sizeof(buf), "%d\n", READ_ONCE(rt_prof_wanted));

	return simple_read_from_buffer(ubuf, cnt, ppos, buf, len);
}

static ssize_t rt_prof_enabled_write(struct file *file,
				     const char __user *ubuf, size_t cnt,
				     loff_t *ppos)
{
	unsigned long val;
	int ret;

	ret = kstrtoul_from_user(ubuf, cnt, 10, &val);
	if (ret)
		return ret;
	if (val > 1)
		return -EINVAL;
	mutex_lock(&rt_prof_lock);
	mutex_lock(&rt_callsite_lock);
	if (val == rt_prof_wanted)
		goto out;
	/* From zero; a start that fails below has dropped the counts. */
	if (val) {
		ret = rt_prof_reset(rt_callsite_count());
		if (ret)
			goto out;
	}
	rt_prof_wanted = val;
	ret = rt_fn_sync();
	if (ret && val) {
		rt_prof_wanted = false;
		rt_fn_sync();
	}
out:
	mutex_unlock(&rt_callsite_lock);
	mutex_unlock(&rt_prof_lock);
	return ret ? ret : cnt;
}

static int rt_prof_enabled_open(struct inode *inode, struct file *file)
{
	return rt_file_lockdown();
}

static const struct file_operations rt_prof_enabled_fops = {
	.open	= rt_prof_enabled_open,
	.read	= rt_prof_enabled_read,
	.write	= rt_prof_enabled_write,
	.llseek	= default_llseek,
};

/* One CPU's counts as trace_stat/functionN shows them: a sorted copy. */
struct rt_prof_row {
	unsigned long	ip;
	unsigned long	hits;
};

struct rt_prof_view {
	unsigned int		nr;
	struct rt_prof_row	rows[];
};

static int rt_prof_row_cmp(const void *a, const void *b)
{
	const struct rt_prof_row *x = a, *y = b;

	/* Most hits first; equal counts by address, for a stable order. */
	if (x->hits != y->hits)
		return x->hits < y->hits ? 1 : -1;
	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

static struct rt_prof_view *rt_prof_view_take(int cpu)
{
	struct rt_prof_cpu *pc = per_cpu_ptr(&rt_prof_cpus, cpu);
	struct rt_prof_view *v;
	unsigned int i, nr;

	mutex_lock(&rt_prof_lock);
	/* Pairs with the release in rt_prof_lookup(). */
	nr = pc->recs ? smp_load_acquire(&pc->nr) : 0;
	v = kvmalloc(struct_size(v, rows, nr), GFP_KERNEL);
	if (v) {
		/* Records of functions whose module left are not shown. */
		v->nr = 0;
		for (i = 0; i < nr; i++) {
			unsigned long ip = READ_ONCE(pc->recs[i].ip);

			if (!ip)
				continue;
			v->rows[v->nr].ip = ip;
			v->rows[v->nr].hits = READ_ONCE(pc->recs[i].hits);
			v->nr++;
		}
	}
	mutex_unlock(&rt_prof_lock);
	if (v)
		sort(v->rows, v->nr, sizeof(v->rows[0]), rt_prof_row_cmp, NULL);
	return v;
}

static void *rt_prof_start(struct seq_file *m, loff_t *pos)
{
	struct rt_prof_view *v = m->private;

	if (*pos == 0)
		return SEQ_START_TOKEN;
	return *pos <= v->nr ? &v->rows[*pos - 1] : NULL;
}

static void *rt_prof_next(struct seq_file *m, void *p, loff_t *pos)
{
	++*pos;
	return rt_prof_start(m, pos);
}

static void rt_prof_stop(struct seq_file *m, void *p)
{
}

static int rt_prof_show(struct seq_file *m, void *p)
{
	const struct rt_prof_row *row = p;
	char name[KSYM_NAME_LEN];

	if (p == SEQ_START_TOKEN) {
		seq_puts(m, "  Function                               Hit\n"
			    "  --------                               ---\n");
		return 0;
	}
	/* The bare name, as funccount's parser wants: no "[module]". */
	if (lookup_symbol_name(row->ip, name))
		snprintf(name, sizeof(name), "0x%lx", row->ip);
	seq_printf(m, "  %-30s %10lu\n", name, row->hits);
	return 0;
}

static const struct seq_operations rt_prof_seq_ops = {
	.start	= rt_prof_start,
	.next	= rt_prof_next,
	.stop	= rt_prof_stop,
	.show	= rt_prof_show,
};

static int rt_prof_stat_open(struct inode *inode, struct file *file)
{
	struct rt_prof_view *v;
	int ret = rt_file_lockdown();

	if (ret)
		return ret;
	v = rt_prof_view_take((long)inode->i_private);
	if (!v)
		return -ENOMEM;
	ret = seq_open(file, &rt_prof_seq_ops);
	if (ret) {
		kvfree(v);
		return ret;
	}
	((struct seq_file *)file->private_data)->private = v;
	return 0;
}

static int rt_prof_stat_release(struct inode *inode, struct file *file)
{
	kvfree(((struct seq_file *)file->private_data)->private);
	return seq_release(inode, file);
}

static const struct file_operations rt_prof_stat_fops = {
	.open		= rt_prof_stat_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= rt_prof_stat_release,
};

static struct rt_readme_part rt_prof_readme = {
	.text = "  function_profile_enabled  1 counts the calls of the functions\n"
		"                       set_ftrace_filter selects (from zero), 0 stops\n"
		"  trace_stat/functionN  CPU N's counts, most called first\n",
};

/**
 * rt_prof_create_files - the profiler's files, and its client
 * @dir: the top level's tracing directory
 *
 * Called once by the function tracer's init.
 */
void __init rt_prof_create_files(struct dentry *dir)
{
	struct dentry *stat;
	char name[24];
	int cpu;

	if (rt_cs_client_register(&rt_prof_client)) {
		pr_warn("function profiler: no call-site client left\n");
		return;
	}
	mutex_lock(&rt_callsite_lock);
	rt_prof_registered = true;
	mutex_unlock(&rt_callsite_lock);
	tracefs_create_file("function_profile_enabled", 0644, dir, NULL,
			    &rt_prof_enabled_fops);
	stat = tracefs_create_dir("trace_stat", dir);
	if (IS_ERR_OR_NULL(stat))
		return;
	for_each_possible_cpu(cpu) {
		snprintf(name, sizeof(name), "function%d", cpu);
		tracefs_create_file(name, 0444, stat, (void *)(long)cpu,
				    &rt_prof_stat_fops);
	}
	rt_readme_add(&rt_prof_readme);
}
