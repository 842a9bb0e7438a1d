// SPDX-License-Identifier: GPL-2.0
/*
 * Function-entry call sites: the table gcc leaves in __mcount_loc, the
 * boot-time conversion of every site to a NOP, module sites, and the
 * live patching between NOP and "call retrace_caller".
 *
 * Live patching runs under stop_machine() on every online CPU: all
 * CPUs meet in rt_callsite_stop(), which is not instrumented; one of
 * them rewrites the text while the others spin, then every CPU executes
 * a serialising instruction before returning to code that may contain
 * a rewritten site.  No CPU can therefore fetch a half-written
 * instruction, and no int3 is ever left in the text (QEMU's
 * multi-threaded TCG has been seen to run a stale int3 after the
 * breakpoint-based protocol removed it).  NMI handlers that are not
 * notrace are the one exception: keep the window short.
 */
#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/kallsyms.h>
#include <linux/memory.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sched/clock.h>
#include <linux/sort.h>
#include <linux/stop_machine.h>
#include <linux/vmalloc.h>
#include <asm/ibt.h>
#include <asm/nops.h>
#include <asm/sections.h>
#include <asm/sync_core.h>
#include <asm/text-patching.h>
#include <trace/retrace/callsite.h>
#include "internal.h"

#define RT_CALL_OPCODE	0xe8

/* A group of sites: the core kernel's, or one module's. */
struct rt_callsite_group {
	struct list_head	list;
	struct module		*mod;	/* NULL for the core kernel */
	unsigned int		nr;
	struct rt_callsite	sites[] __counted_by(nr);
};

static LIST_HEAD(rt_callsite_groups);
DEFINE_MUTEX(rt_callsite_lock);
bool rt_callsite_wanted;
unsigned int rt_callsite_nr_filter;

/* Statistics, under rt_callsite_lock. */
static unsigned int rt_cs_total, rt_cs_boot_converted;
static u64 rt_cs_boot_us;
static unsigned long rt_cs_updates, rt_cs_patched, rt_cs_busy;

/* One page of text plus a site that may cross into the next one. */
static u8 rt_cs_page_buf[PAGE_SIZE + RT_CS_SITE_SIZE];

static void rt_cs_make_call(u8 *insn, unsigned long ip, void *dest)
{
	s32 rel = (long)dest - (long)(ip + RT_CS_SITE_SIZE);

	insn[0] = RT_CALL_OPCODE;
	memcpy(insn + 1, &rel, sizeof(rel));
}

/* The instruction a site holds in state @flags. */
static void rt_cs_expected(u8 *insn, unsigned long ip, unsigned long flags)
{
	if (flags & RT_CS_FENTRY)
		rt_cs_make_call(insn, ip, __fentry__);
	else if (flags & RT_CS_CALL)
		rt_cs_make_call(insn, ip, retrace_caller);
	else
		memcpy(insn, x86_nops[5], RT_CS_SITE_SIZE);
}

/* Does the function tracer want this site (filter and notrace)? */
static bool rt_cs_tracer_wants(const struct rt_callsite *cs)
{
	if (!rt_callsite_wanted || (cs->flags & RT_CS_NOTRACE))
		return false;
	return !rt_callsite_nr_filter || (cs->flags & RT_CS_FILTER);
}

/* Should the site call retrace_caller: for the tracer or a command. */
static bool rt_cs_want_call(const struct rt_callsite *cs)
{
	return (cs->flags & RT_CS_PROBE) || rt_cs_tracer_wants(cs);
}

/* Must the site's text change: never converted yet, or wrong state. */
static bool rt_cs_stale(const struct rt_callsite *cs)
{
	return (cs->flags & RT_CS_FENTRY) ||
	       rt_cs_want_call(cs) != !!(cs->flags & RT_CS_CALL);
}

static struct rt_callsite *rt_cs_group_find(struct rt_callsite_group *g,
					    unsigned long ip)
{
	unsigned int lo = 0, hi = g->nr, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (g->sites[mid].ip < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->nr && g->sites[lo].ip == ip ? &g->sites[lo] : NULL;
}

static struct rt_callsite *rt_cs_find(unsigned long ip)
{
	struct rt_callsite_group *g;
	struct rt_callsite *cs;

	list_for_each_entry(g, &rt_callsite_groups, list) {
		cs = rt_cs_group_find(g, ip);
		if (cs)
			return cs;
	}
	return NULL;
}

static void rt_cs_mark_probe(struct rt_fprobe *p, void *arg)
{
	struct rt_callsite *cs = rt_cs_find(p->ip);

	if (!cs)
		return;
	cs->flags |= RT_CS_PROBE;
	WRITE_ONCE(p->traced, rt_cs_tracer_wants(cs));
}

/* Recompute RT_CS_PROBE and each command's "traced" from the live set. */
static void rt_cs_sync_probes(void)
{
	struct rt_callsite_group *g;
	unsigned int i;

	list_for_each_entry(g, &rt_callsite_groups, list)
		for (i = 0; i < g->nr; i++)
			g->sites[i].flags &= ~RT_CS_PROBE;
	rt_fprobe_for_each(rt_cs_mark_probe, NULL);
}

/*
 * A site is listed if it starts a named function; call sites of weak
 * functions that lost to a strong definition sit inside no symbol.
 */
static bool rt_cs_starts_function(unsigned long ip)
{
	unsigned long size, offset;

	if (!kallsyms_lookup_size_offset(ip, &size, &offset))
		return false;
	return offset <= (IS_ENABLED(CONFIG_X86_KERNEL_IBT) ? ENDBR_INSN_SIZE : 0);
}

static int rt_cs_cmp(const void *a, const void *b)
{
	const struct rt_callsite *x = a, *y = b;

	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

/*
 * Build a group from a table of site addresses: keep the named ones
 * outside init text, sorted and without duplicates.
 */
static struct rt_callsite_group *rt_cs_group_build(struct module *mod,
						   const unsigned long *tab,
						   unsigned int n,
						   unsigned long flags)
{
	struct rt_callsite_group *g;
	unsigned int i, nr = 0;

	g = kvzalloc(struct_size(g, sites, n ?: 1), GFP_KERNEL);
	if (!g)
		return NULL;
	g->mod = mod;
	g->nr = n;
	for (i = 0; i < n; i++) {
		unsigned long ip = tab[i];

		if (!ip || !rt_cs_starts_function(ip))
			continue;
		if (mod ? within_module_init(ip, mod) : is_kernel_inittext(ip))
			continue;
		g->sites[nr].ip = ip;
		g->sites[nr].flags = flags;
		nr++;
	}
	sort(g->sites, nr, sizeof(g->sites[0]), rt_cs_cmp, NULL);
	for (i = 0, n = 0; i < nr; i++)
		if (!n || g->sites[i].ip != g->sites[n - 1].ip)
			g->sites[n++] = g->sites[i];
	g->nr = n;
	return g;
}

static bool rt_cs_is_fentry_call(unsigned long ip)
{
	u8 insn[RT_CS_SITE_SIZE];

	rt_cs_make_call(insn, ip, __fentry__);
	return !memcmp((void *)ip, insn, RT_CS_SITE_SIZE);
}

/*
 * Before SMP: the text is still writable, one CPU runs, so each site is
 * rewritten in place.  Init-text sites become NOPs too but are never
 * listed (they are gone before anyone could select them).
 */
static int __init rt_callsite_boot_init(void)
{
	unsigned int n = __stop_mcount_loc - __start_mcount_loc;
	unsigned int i, converted = 0, foreign = 0;
	struct rt_callsite_group *g;
	u64 t0 = local_clock();

	for (i = 0; i < n; i++) {
		unsigned long ip = __start_mcount_loc[i];

		if (!ip)
			continue;
		if (!rt_cs_is_fentry_call(ip)) {
			foreign++;
			continue;
		}
		text_poke_early((void *)ip, x86_nops[5], RT_CS_SITE_SIZE);
		converted++;
	}
	g = rt_cs_group_build(NULL, __start_mcount_loc, n, 0);
	if (!g)
		return -ENOMEM;
	mutex_lock(&rt_callsite_lock);
	list_add_tail(&g->list, &rt_callsite_groups);
	rt_cs_total = g->nr;
	rt_cs_boot_converted = converted;
	rt_cs_boot_us = div_u64(local_clock() - t0, NSEC_PER_USEC);
	mutex_unlock(&rt_callsite_lock);
	pr_info("%u call sites converted to NOPs in %llu us, %u traceable functions%s\n",
		converted, rt_cs_boot_us, g->nr,
		foreign ? " (some sites held unexpected code)" : "");
	if (foreign)
		pr_warn("%u call sites did not call __fentry__; left alone\n",
			foreign);
	return 0;
}
early_initcall(rt_callsite_boot_init);

/* Are @bytes (the site's text, or a copy of it) what its flags say? */
static bool rt_cs_holds(const struct rt_callsite *cs, const u8 *bytes)
{
	u8 want[RT_CS_SITE_SIZE];

	rt_cs_expected(want, cs->ip, cs->flags);
	return !memcmp(bytes, want, RT_CS_SITE_SIZE);
}

/*
 * Rewrite every site of @g whose state differs from what is wanted.
 * Sites sharing a page go out in one text_poke.  A site whose bytes are
 * not what its state says (a kprobe's int3) is left alone and marked.
 */
static void rt_cs_patch_group(struct rt_callsite_group *g)
{
	unsigned int i = 0, j, k;

	while (i < g->nr) {
		unsigned long start, end, page;
		bool any = false;

		if (!rt_cs_stale(&g->sites[i])) {
			i++;
			continue;
		}
		start = g->sites[i].ip;
		page = start & PAGE_MASK;
		for (j = i; j < g->nr && (g->sites[j].ip & PAGE_MASK) == page; j++)
			;
		end = g->sites[j - 1].ip + RT_CS_SITE_SIZE;
		memcpy(rt_cs_page_buf, (void *)start, end - start);
		for (k = i; k < j; k++) {
			struct rt_callsite *cs = &g->sites[k];
			u8 *p = rt_cs_page_buf + (cs->ip - start);
			bool call = rt_cs_want_call(cs);

			if (!rt_cs_stale(cs))
				continue;
			if (!rt_cs_holds(cs, p)) {
				cs->flags |= RT_CS_BUSY;
				rt_cs_busy++;
				continue;
			}
			cs->flags &= ~(RT_CS_FENTRY | RT_CS_CALL | RT_CS_BUSY);
			if (call)
				cs->flags |= RT_CS_CALL;
			rt_cs_expected(p, cs->ip, cs->flags);
			rt_cs_patched++;
			any = true;
		}
		if (any)
			text_poke_copy_locked((void *)start, rt_cs_page_buf,
					      end - start, true);
		i = j;
	}
}

struct rt_cs_stop {
	atomic_t	arrived;
	int		done;
};

/* Runs on every online CPU with interrupts off; see the file comment. */
static int rt_callsite_stop(void *data)
{
	struct rt_cs_stop *st = data;
	struct rt_callsite_group *g;

	if (atomic_inc_return(&st->arrived) == 1) {
		while (atomic_read(&st->arrived) < num_online_cpus())
			cpu_relax();
		list_for_each_entry(g, &rt_callsite_groups, list)
			rt_cs_patch_group(g);
		/* Pairs with the acquire below: the text is written first. */
		smp_store_release(&st->done, 1);
	} else {
		/* Pairs with the release above. */
		while (!smp_load_acquire(&st->done))
			cpu_relax();
	}
	sync_core();
	return 0;
}

/* Do the site's bytes in the text differ from its flags (a kprobe)? */
static bool rt_cs_foreign(const struct rt_callsite *cs)
{
	return !rt_cs_holds(cs, (const u8 *)cs->ip);
}

/* Is there a stale site we can rewrite?  Busy ones are left alone. */
static bool rt_cs_needs_patching(void)
{
	struct rt_callsite_group *g;
	unsigned int i;
	bool ret = false;

	mutex_lock(&text_mutex);
	list_for_each_entry(g, &rt_callsite_groups, list) {
		for (i = 0; i < g->nr && !ret; i++)
			ret = rt_cs_stale(&g->sites[i]) &&
			      !rt_cs_foreign(&g->sites[i]);
	}
	mutex_unlock(&text_mutex);
	return ret;
}

/*
 * After patching, the stale sites left are busy: classify them for
 * callsite_share.c.  Under text_mutex, so kprobes cannot arm or disarm
 * while the bytes are read; stand-ins are registered afterwards, as
 * register_kprobe() takes text_mutex itself.
 */
static void rt_cs_share_scan(void)
{
	struct rt_callsite_group *g;
	unsigned int i, standins = 0;
	struct rt_callsite *cs;

	mutex_lock(&text_mutex);
	list_for_each_entry(g, &rt_callsite_groups, list) {
		for (i = 0; i < g->nr; i++) {
			cs = &g->sites[i];
			if (!rt_cs_stale(cs) && !(cs->flags & RT_CS_BUSY))
				continue;
			if (!rt_cs_foreign(cs)) {
				cs->flags &= ~RT_CS_BUSY;
				continue;
			}
			cs->flags |= RT_CS_BUSY;
			if (!rt_cs_stale(cs) || (cs->flags & RT_CS_FENTRY))
				continue;
			if (cs->flags & RT_CS_CALL) {
				rt_cs_share_site(cs->ip, false);
			} else {
				cs->flags |= RT_CS_STANDIN;
				standins++;
			}
		}
	}
	mutex_unlock(&text_mutex);
	/* Usually none: then this walk ends at once. */
	list_for_each_entry(g, &rt_callsite_groups, list) {
		for (i = 0; i < g->nr && standins; i++) {
			cs = &g->sites[i];
			if (cs->flags & RT_CS_STANDIN) {
				cs->flags &= ~RT_CS_STANDIN;
				rt_cs_share_site(cs->ip, true);
				standins--;
			}
		}
	}
	rt_cs_share_commit();
}

/**
 * rt_callsite_update - bring the text in line with the sites' flags
 *
 * Call with rt_callsite_lock held after changing rt_callsite_wanted,
 * the filter or notrace flags.  Only sites whose state changes are
 * rewritten; nothing is stopped when nothing changes.  Sites a kprobe
 * holds are left alone and handed to callsite_share.c.
 *
 * Return: 0, or the error of stop_machine().
 */
int rt_callsite_update(void)
{
	struct rt_cs_stop st = { .arrived = ATOMIC_INIT(0) };
	int ret = 0;

	lockdep_assert_held(&rt_callsite_lock);
	rt_cs_sync_probes();
	/* Our own stand-in int3s would make their sites look busy. */
	rt_cs_share_release();
	if (rt_cs_needs_patching()) {
		/* kprobes take the hotplug lock before text_mutex; so do we. */
		cpus_read_lock();
		mutex_lock(&text_mutex);
		ret = stop_machine_cpuslocked(rt_callsite_stop, &st,
					      cpu_online_mask);
		mutex_unlock(&text_mutex);
		cpus_read_unlock();
		rt_cs_updates++;
	}
	rt_cs_share_scan();
	return ret;
}

/**
 * rt_callsite_recount - recompute rt_callsite_nr_filter from the flags
 */
void rt_callsite_recount(void)
{
	struct rt_callsite_group *g;
	unsigned int i, n = 0;

	lockdep_assert_held(&rt_callsite_lock);
	list_for_each_entry(g, &rt_callsite_groups, list)
		for (i = 0; i < g->nr; i++)
			n += !!(g->sites[i].flags & RT_CS_FILTER);
	rt_callsite_nr_filter = n;
}

/**
 * rt_callsite_count - number of listed sites, core and modules
 *
 * Return: the count; stable while rt_callsite_lock is held.
 */
unsigned int rt_callsite_count(void)
{
	return rt_cs_total;
}

/**
 * rt_callsite_for_each - visit every listed site with its symbol name
 * @fn: called with the site, a running index, its name and module name
 * @arg: passed to @fn
 * @names: look names up (costly); otherwise @fn gets "" and NULL
 *
 * Call with rt_callsite_lock held; @fn may change the site's
 * RT_CS_FILTER and RT_CS_NOTRACE flags only.
 */
void rt_callsite_for_each(rt_callsite_fn fn, void *arg, bool names)
{
	char name[KSYM_NAME_LEN];
	struct rt_callsite_group *g;
	unsigned int i, idx = 0;

	lockdep_assert_held(&rt_callsite_lock);
	list_for_each_entry(g, &rt_callsite_groups, list) {
		for (i = 0; i < g->nr; i++, idx++) {
			name[0] = 0;
			if (names && lookup_symbol_name(g->sites[i].ip, name))
				name[0] = 0;
			fn(&g->sites[i], idx, name,
			   g->mod && names ? g->mod->name : NULL, arg);
			if (!(idx & 1023))
				cond_resched();
		}
	}
}

/*
 * Modules: sites are made NOPs (or calls, if a tracer wants them) when
 * the module is COMING, before any of its code runs, so plain
 * text_poke is enough; they leave the table when it is GOING.
 */
static void rt_cs_module_coming(struct module *mod)
{
	unsigned int i, n = mod->num_ftrace_callsites;
	struct rt_callsite_group *g;

	if (!n)
		return;
	g = rt_cs_group_build(mod, mod->ftrace_callsites, n, RT_CS_FENTRY);
	if (!g) {
		pr_warn("no memory for the call sites of %s; not traceable\n",
			mod->name);
		return;
	}
	mutex_lock(&rt_callsite_lock);
	mutex_lock(&text_mutex);
	/* Init sites are never listed; quieten them here. */
	for (i = 0; i < n; i++) {
		unsigned long ip = mod->ftrace_callsites[i];

		if (ip && within_module_init(ip, mod) && rt_cs_is_fentry_call(ip))
			text_poke((void *)ip, x86_nops[5], RT_CS_SITE_SIZE);
	}
	rt_cs_patch_group(g);
	mutex_unlock(&text_mutex);
	list_add_tail(&g->list, &rt_callsite_groups);
	rt_cs_total += g->nr;
	mutex_unlock(&rt_callsite_lock);
}

static bool rt_cs_in_group(unsigned long ip, void *arg)
{
	return rt_cs_group_find(arg, ip);
}

static void rt_cs_module_going(struct module *mod)
{
	struct rt_callsite_group *g, *tmp;

	mutex_lock(&rt_callsite_lock);
	list_for_each_entry_safe(g, tmp, &rt_callsite_groups, list) {
		if (g->mod != mod)
			continue;
		rt_fprobe_drop(rt_cs_in_group, g);
		list_del(&g->list);
		rt_cs_total -= g->nr;
		kvfree(g);
	}
	/*
	 * rt_callsite_nr_filter keeps counting the sites that left: a
	 * filter naming only this module's functions must not turn into
	 * "trace everything" when it unloads.  The next filter write
	 * recounts.
	 */
	rt_callsite_update();	/* drops stand-ins and mutes of its sites */
	mutex_unlock(&rt_callsite_lock);
}

static int rt_cs_module_notify(struct notifier_block *nb, unsigned long state,
			       void *data)
{
	if (state == MODULE_STATE_COMING)
		rt_cs_module_coming(data);
	else if (state == MODULE_STATE_GOING)
		rt_cs_module_going(data);
	return NOTIFY_OK;
}

static struct notifier_block rt_cs_module_nb = {
	.notifier_call = rt_cs_module_notify,
	/* Before other notifiers, so module sites are quiet early. */
	.priority = INT_MAX,
};

/* available_filter_functions: one line per listed site. */
struct rt_cs_iter {
	struct rt_callsite_group *g;
	unsigned int i;
};

static void *rt_aff_at(loff_t pos, struct rt_cs_iter *it)
{
	struct rt_callsite_group *g;

	list_for_each_entry(g, &rt_callsite_groups, list) {
		if (pos < g->nr) {
			it->g = g;
			it->i = pos;
			return it;
		}
		pos -= g->nr;
	}
	return NULL;
}

static void *rt_aff_start(struct seq_file *m, loff_t *pos)
{
	mutex_lock(&rt_callsite_lock);
	return rt_aff_at(*pos, m->private);
}

static void *rt_aff_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return rt_aff_at(*pos, m->private);
}

static void rt_aff_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&rt_callsite_lock);
}

static int rt_aff_show(struct seq_file *m, void *v)
{
	struct rt_cs_iter *it = v;

	seq_printf(m, "%ps\n", (void *)it->g->sites[it->i].ip);
	return 0;
}

static const struct seq_operations rt_aff_seq_ops = {
	.start = rt_aff_start,
	.next = rt_aff_next,
	.stop = rt_aff_stop,
	.show = rt_aff_show,
};

static int rt_aff_open(struct inode *inode, struct file *file)
{
	return seq_open_private(file, &rt_aff_seq_ops,
				sizeof(struct rt_cs_iter));
}

static const struct file_operations rt_aff_fops = {
	.open = rt_aff_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release_private,
};

/* callsite_stats: what the patcher has done, for tests and tuning. */
static int rt_cs_stats_show(struct seq_file *m, void *v)
{
	unsigned int i, calls = 0, busy = 0, standins, muted, unmuted;
	struct rt_callsite_group *g;

	mutex_lock(&rt_callsite_lock);
	list_for_each_entry(g, &rt_callsite_groups, list)
		for (i = 0; i < g->nr; i++) {
			calls += !!(g->sites[i].flags & RT_CS_CALL);
			busy += !!(g->sites[i].flags & RT_CS_BUSY);
		}
	seq_printf(m, "sites: %u\nenabled: %u\nbusy: %u\nfilter: %u\n",
		   rt_cs_total, calls, busy, rt_callsite_nr_filter);
	seq_printf(m, "updates: %lu\npatched: %lu\nskipped: %lu\n",
		   rt_cs_updates, rt_cs_patched, rt_cs_busy);
	seq_printf(m, "boot_converted: %u\nboot_us: %llu\n",
		   rt_cs_boot_converted, rt_cs_boot_us);
	rt_cs_share_stats(&standins, &muted, &unmuted);
	seq_printf(m, "standins: %u\nmuted: %u\nunmuted: %u\n",
		   standins, muted, unmuted);
	mutex_unlock(&rt_callsite_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rt_cs_stats);

void __init rt_create_callsite_files(struct dentry *dir)
{
	register_module_notifier(&rt_cs_module_nb);
	debugfs_create_file("available_filter_functions", 0444, dir, NULL,
			    &rt_aff_fops);
	debugfs_create_file("callsite_stats", 0444, dir, NULL,
			    &rt_cs_stats_fops);
}
