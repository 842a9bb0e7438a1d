// SPDX-License-Identifier: GPL-2.0
/*
 * Function-entry call sites: the table gcc leaves in __mcount_loc, the
 * boot-time conversion of every site to a NOP, module sites, the
 * clients that want sites, the live patching between NOP,
 * "call retrace_caller" and "call retrace_regs_caller" (for a client
 * that needs pt_regs), and rt_callsite_dispatch(), which both
 * trampolines enter and which calls the clients.
 *
 * Live patching runs under stop_machine() on every online CPU, with the
 * breakpoint protocol: all CPUs meet in rt_callsite_stop(), which is not
 * instrumented; one of them rewrites the changing sites in three steps
 * (int3 over the first byte, then the last four bytes, then the first
 * byte) while the others spin, and every CPU serialises after each step
 * before the next one is written.  A site mid-change therefore always
 * starts with an int3 or holds a whole instruction.  The only code that
 * can run a site meanwhile is an NMI (on any CPU) or the patching CPU
 * itself (text_poke is traced code); it traps, and
 * arch/x86/kernel/retrace_poke.c does what the site's new instruction
 * does.  No int3 is left in the text after the round.  See
 * Documentation/trace/retrace-function.txt, "Patching against NMIs".
 */
#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/security.h>
#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
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
#include <asm/retrace.h>
#include <asm/sections.h>
#include <asm/sync_core.h>
#include <asm/text-patching.h>
#include <trace/retrace/callsite.h>

/* A group of sites: the core kernel's, or one module's. */
struct rt_callsite_group {
	struct list_head	list;
	struct module		*mod;	/* NULL for the core kernel */
	struct rcu_head		rcu;
	unsigned int		nr;
	struct rt_callsite	sites[] __counted_by(nr);
};

/*
 * Groups: added and removed under rt_callsite_lock with the RCU list
 * primitives, freed after a grace period, so rt_callsite_is_site() can
 * walk them under rcu_read_lock() (kprobes asks with text_mutex held,
 * where taking rt_callsite_lock would invert the lock order).
 */
static LIST_HEAD(rt_callsite_groups);
DEFINE_MUTEX(rt_callsite_lock);

/*
 * Clients, under rt_callsite_lock.  rt_cs_clients[] only grows (a
 * client is never unregistered), so the dispatcher reads it locklessly.
 * rt_cs_solo and rt_cs_active are what the dispatcher reads on every
 * call; see rt_cs_publish().
 */
static struct rt_cs_client *rt_cs_clients[RT_CS_MAX_CLIENTS];
static unsigned int rt_cs_nr_clients;
static unsigned int rt_cs_regs_mask;	/* clients that need pt_regs */
static struct rt_cs_client *rt_cs_solo;	/* the only active client, or NULL */
static unsigned long rt_cs_active;	/* clients with at least one site */
/*
 * The lone client's callback as each trampoline may call it without
 * entering rt_callsite_dispatch(): NULL when there is no lone client,
 * and for retrace_caller also when it needs registers.  Written with
 * rt_cs_solo, read with one load by the trampolines.
 */
rt_cs_func_t rt_cs_solo_call, rt_cs_solo_regs_call;

/* Statistics, under rt_callsite_lock. */
static unsigned int rt_cs_total, rt_cs_boot_converted;
static u64 rt_cs_boot_us;
static unsigned long rt_cs_updates, rt_cs_patched, rt_cs_busy;
/* The last patching round: stopped in all, writing, serialising. */
static u64 rt_cs_round_us, rt_cs_round_write_us, rt_cs_round_sync_us;

/* One page of text plus a site that may cross into the next one. */
static u8 rt_cs_page_buf[PAGE_SIZE + RT_CS_SITE_SIZE];

static const struct rt_cs_targets rt_cs_targets = {
	.fentry		= (unsigned long)__fentry__,
	.caller		= (unsigned long)retrace_caller,
	.regs_caller	= (unsigned long)retrace_regs_caller,
};

/* Must the site's text change? */
static bool rt_cs_stale(const struct rt_callsite *cs)
{
	return cs->state != rt_cs_wanted(cs->clients, rt_cs_regs_mask);
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

	list_for_each_entry_rcu(g, &rt_callsite_groups, list,
				lockdep_is_held(&rt_callsite_lock)) {
		cs = rt_cs_group_find(g, ip);
		if (cs)
			return cs;
	}
	return NULL;
}

/**
 * rt_callsite_is_site - is @ip a listed call site
 * @ip: an address
 *
 * Lockless (RCU); any context but NMI.
 *
 * Return: true if @ip is the call site of a traceable function.
 */
bool rt_callsite_is_site(unsigned long ip)
{
	bool ret;

	rcu_read_lock();
	ret = rt_cs_find(ip);
	rcu_read_unlock();
	return ret;
}

/*
 * kprobes asks this to learn that an address is a patchable site: a
 * kprobe there becomes a client of ours (kprobe_site.c) instead of an
 * int3, and decoding sees the NOP the site holds at rest.
 */
unsigned long ftrace_location(unsigned long ip)
{
	return rt_callsite_is_site(ip) ? ip : 0;
}

/**
 * rt_cs_client_register - add a client
 * @c: the client, with @name, @func and @needs_regs set
 *
 * Clients live for the life of the kernel.
 *
 * Return: 0, or -ENOSPC when RT_CS_MAX_CLIENTS are registered.
 */
int rt_cs_client_register(struct rt_cs_client *c)
{
	int ret = 0;

	mutex_lock(&rt_callsite_lock);
	if (rt_cs_nr_clients == RT_CS_MAX_CLIENTS) {
		ret = -ENOSPC;
	} else {
		c->id = rt_cs_nr_clients;
		if (c->needs_regs)
			rt_cs_regs_mask |= BIT(c->id);
		/* Pairs with the READ_ONCE() in rt_callsite_dispatch(). */
		smp_store_release(&rt_cs_clients[c->id], c);
		rt_cs_nr_clients++;
	}
	mutex_unlock(&rt_callsite_lock);
	return ret;
}

/**
 * rt_cs_client_want - say whether @c wants the site at @ip
 * @c: a registered client
 * @ip: the site
 * @on: want it or not
 *
 * Call with rt_callsite_lock held, then rt_callsite_update().
 *
 * Return: 0, or -ENOENT if @ip is not a listed site.
 */
int rt_cs_client_want(struct rt_cs_client *c, unsigned long ip, bool on)
{
	struct rt_callsite *cs;

	lockdep_assert_held(&rt_callsite_lock);
	cs = rt_cs_find(ip);
	if (!cs)
		return -ENOENT;
	if (on)
		cs->clients |= BIT(c->id);
	else
		cs->clients &= ~BIT(c->id);
	return 0;
}

/**
 * rt_cs_client_want_each - decide @c's wish for every site
 * @c: a registered client
 * @want: asked once per site
 * @arg: passed to @want
 *
 * Call with rt_callsite_lock held, then rt_callsite_update().
 */
void rt_cs_client_want_each(struct rt_cs_client *c,
			    bool (*want)(unsigned long ip, void *arg),
			    void *arg)
{
	struct rt_callsite_group *g;
	unsigned int i;

	lockdep_assert_held(&rt_callsite_lock);
	list_for_each_entry(g, &rt_callsite_groups, list) {
		for (i = 0; i < g->nr; i++) {
			struct rt_callsite *cs = &g->sites[i];

			if (want(cs->ip, arg))
				cs->clients |= BIT(c->id);
			else
				cs->clients &= ~BIT(c->id);
		}
		cond_resched();
	}
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
						   enum rt_cs_state state)
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
		g->sites[nr].state = state;
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
	struct rt_callsite cs = { .ip = ip, .state = RT_CS_FENTRY };

	return rt_cs_holds(&cs, (const u8 *)ip, &rt_cs_targets);
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
			/* Never listed: the patcher must not own it. */
			__start_mcount_loc[i] = 0;
			foreign++;
			continue;
		}
		text_poke_early((void *)ip, x86_nops[5], RT_CS_SITE_SIZE);
		converted++;
	}
	g = rt_cs_group_build(NULL, __start_mcount_loc, n, RT_CS_NOP);
	if (!g)
		return -ENOMEM;
	mutex_lock(&rt_callsite_lock);
	list_add_tail_rcu(&g->list, &rt_callsite_groups);
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

/*
 * Rewrite every site of @g whose state differs from what its clients
 * want.  Sites sharing a page go out in one text_poke.  A site whose
 * bytes are not what its state says is left alone and counted: with
 * every user of a site a client, that is a bug, and callsite_stats
 * shows it as busy.
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
			int ret = rt_cs_apply(cs, rt_cs_page_buf + (cs->ip - start),
					      rt_cs_regs_mask, &rt_cs_targets);

			if (ret < 0)
				rt_cs_busy++;
			if (ret > 0) {
				rt_cs_patched++;
				any = true;
			}
		}
		if (any)
			text_poke_copy_locked((void *)start, rt_cs_page_buf,
					      end - start, true);
		i = j;
	}
}

/* A site of a round and the state it goes to. */
struct rt_cs_change {
	struct rt_callsite	*cs;
	u8			state;
};

/*
 * One live patching round: the sites whose text changes, sorted by
 * address, and the stop_machine() rendezvous.
 * @poke:    what the int3 handler reads (ip, new call target); built
 *           before the round, published by the patching CPU
 * @ch:      @poke.sites[i]'s table entry and its new state, which the
 *           last step sets in the entry
 * @arrived: CPUs that entered rt_callsite_stop()
 * @step:    steps written so far (a count); written (release) by the
 *           patching CPU only, after the step's text
 * @done:    set (release) by the patching CPU when the round is over
 * @acks:    serialisations the other CPUs made after seeing @step change
 * @write_ns, @sync_ns: the patching CPU's time writing and waiting
 * @buf:     a chunk's text, copied, changed and written back
 */
struct rt_cs_round {
	struct retrace_poke	poke;
	struct rt_cs_change	*ch;
	atomic_t		arrived;
	int			step;
	int			done;
	atomic_t		acks;
	u64			write_ns, sync_ns;
	u8			*buf;
};

/*
 * Sites are rewritten a chunk of pages at a time, each chunk in all
 * three steps.  A site holds an int3 only while its own chunk is
 * written, so the patching CPU, whose text_poke path calls traced
 * functions, traps on few of them; a serialisation handshake costs far
 * less than the traps it saves (see retrace-function.txt).
 */
#define RT_CS_CHUNK_PAGES	32

static int rt_cs_change_cmp(const void *a, const void *b)
{
	unsigned long x = ((const struct rt_cs_change *)a)->cs->ip;
	unsigned long y = ((const struct rt_cs_change *)b)->cs->ip;

	return x < y ? -1 : x > y;
}

static void rt_cs_round_free(struct rt_cs_round *r)
{
	kvfree(r->poke.sites);
	kvfree(r->ch);
	kvfree(r->buf);
}

/*
 * Collect the sites whose state must change and whose bytes hold what
 * their state says (the others are busy: left alone and counted).
 * Under rt_callsite_lock and text_mutex, so the text cannot change
 * before the round runs.
 */
static int rt_cs_round_build(struct rt_cs_round *r)
{
	struct rt_callsite_group *g;
	unsigned int i, n = 0;

	list_for_each_entry(g, &rt_callsite_groups, list)
		for (i = 0; i < g->nr; i++)
			n += rt_cs_stale(&g->sites[i]);
	if (!n)
		return 0;
	r->ch = kvmalloc_array(n, sizeof(*r->ch), GFP_KERNEL);
	r->poke.sites = kvmalloc_array(n, sizeof(*r->poke.sites), GFP_KERNEL);
	/* A chunk's pages, and a site that crosses into the next one. */
	r->buf = kvmalloc((RT_CS_CHUNK_PAGES + 1) * PAGE_SIZE, GFP_KERNEL);
	if (!r->ch || !r->poke.sites || !r->buf)
		return -ENOMEM;	/* the caller frees what was allocated */
	n = 0;
	list_for_each_entry(g, &rt_callsite_groups, list)
		for (i = 0; i < g->nr; i++) {
			struct rt_callsite *cs = &g->sites[i];

			if (!rt_cs_stale(cs))
				continue;
			if (!rt_cs_holds(cs, (const u8 *)cs->ip, &rt_cs_targets)) {
				rt_cs_busy++;
				continue;
			}
			r->ch[n].cs = cs;
			r->ch[n++].state = rt_cs_wanted(cs->clients, rt_cs_regs_mask);
		}
	/* Groups are each sorted; the int3 handler wants one order. */
	sort(r->ch, n, sizeof(*r->ch), rt_cs_change_cmp, NULL);
	for (i = 0; i < n; i++) {
		u8 st = r->ch[i].state;

		r->poke.sites[i].ip = r->ch[i].cs->ip;
		r->poke.sites[i].target = st == RT_CS_CALL ? rt_cs_targets.caller :
			st == RT_CS_REGS ? rt_cs_targets.regs_caller : 0;
	}
	r->poke.nr = n;
	return 0;
}

/*
 * Write one step for the sites [@i, @end) of the round: the sites of
 * each run of adjacent pages go out in one text_poke_copy_locked()
 * (which maps two pages at a time).  The bytes between sites are
 * copied back unchanged, so a CPU reading them meanwhile sees what was
 * there.
 */
static void rt_cs_round_write(struct rt_cs_round *r, unsigned int i,
			      unsigned int end, enum rt_cs_step step)
{
	u8 insn[RT_CS_SITE_SIZE];
	unsigned int j, k;

	while (i < end) {
		unsigned long start = r->poke.sites[i].ip;
		size_t len;

		for (j = i + 1; j < end; j++)
			if ((r->poke.sites[j].ip & PAGE_MASK) >
			    (r->poke.sites[j - 1].ip & PAGE_MASK) + PAGE_SIZE)
				break;
		len = r->poke.sites[j - 1].ip + RT_CS_SITE_SIZE - start;
		memcpy(r->buf, (void *)start, len);
		for (k = i; k < j; k++) {
			struct rt_callsite *cs = r->ch[k].cs;

			rt_cs_encode(insn, cs->ip, r->ch[k].state, &rt_cs_targets);
			rt_cs_poke_step(r->buf + (cs->ip - start), insn, step);
			if (step == RT_CS_STEP_HEAD)
				cs->state = r->ch[k].state;
		}
		text_poke_copy_locked((void *)start, r->buf, len, true);
		i = j;
	}
}

/* The end of the chunk that starts at site @i. */
static unsigned int rt_cs_chunk_end(struct rt_cs_round *r, unsigned int i)
{
	unsigned long page = r->poke.sites[i].ip & PAGE_MASK;
	unsigned int pages = 1;

	for (i++; i < r->poke.nr; i++) {
		unsigned long p = r->poke.sites[i].ip & PAGE_MASK;

		if (p != page && ++pages > RT_CS_CHUNK_PAGES)
			break;
		page = p;
	}
	return i;
}

/* Patching CPU: one step is written; wait until every CPU serialised. */
static void rt_cs_round_sync(struct rt_cs_round *r, unsigned int others)
{
	/* Pairs with the acquire in rt_callsite_stop(): text first. */
	smp_store_release(&r->step, r->step + 1);
	while (atomic_read(&r->acks) < r->step * others)
		cpu_relax();
	sync_core();
}

/* Runs on every online CPU with interrupts off; see the file comment. */
static int rt_callsite_stop(void *data)
{
	struct rt_cs_round *r = data;
	unsigned int others = num_online_cpus() - 1, i, end;
	int step, seen = 0;
	u64 t0, t1;

	if (atomic_inc_return(&r->arrived) == 1) {
		while (atomic_read(&r->arrived) <= others)
			cpu_relax();
		retrace_poke_publish(&r->poke);
		for (i = 0; i < r->poke.nr; i = end) {
			end = rt_cs_chunk_end(r, i);
			for (step = RT_CS_STEP_INT3; step <= RT_CS_STEP_HEAD; step++) {
				t0 = local_clock();
				rt_cs_round_write(r, i, end, step);
				t1 = local_clock();
				rt_cs_round_sync(r, others);
				r->write_ns += t1 - t0;
				r->sync_ns += local_clock() - t1;
			}
		}
		retrace_poke_retire(&r->poke);
		/* Release the others; they serialise once more. */
		smp_store_release(&r->done, 1);
	} else {
		/* Pairs with the patching CPU's releases. */
		while (!smp_load_acquire(&r->done)) {
			/* Pairs with rt_cs_round_sync(): that step's text first. */
			step = smp_load_acquire(&r->step);
			if (step == seen) {
				cpu_relax();
				continue;
			}
			sync_core();
			seen = step;
			atomic_inc(&r->acks);
		}
		sync_core();
	}
	return 0;
}

/*
 * Scan the table: which clients have sites (@active), is any site stale
 * (return value), and is any left busy (@busy: its bytes are not what
 * its state says).
 */
static bool rt_cs_scan(unsigned long *active, bool *busy)
{
	struct rt_callsite_group *g;
	bool stale = false;
	unsigned int i;

	*active = 0;
	*busy = false;
	list_for_each_entry(g, &rt_callsite_groups, list) {
		for (i = 0; i < g->nr; i++) {
			struct rt_callsite *cs = &g->sites[i];

			*active |= cs->clients;
			if (rt_cs_stale(cs))
				stale = true;
			else
				continue;
			if (!rt_cs_holds(cs, (const u8 *)cs->ip, &rt_cs_targets))
				*busy = true;
		}
	}
	return stale;
}

/*
 * Tell the dispatcher who is active.  With one active client and every
 * site in its wanted state, the dispatcher calls it directly (@check
 * false): every calling site is then its own.  Otherwise every active
 * client is called and checks the site itself.
 */
static void rt_cs_publish(unsigned long active, bool exact)
{
	struct rt_cs_client *solo = NULL;

	if (exact && hweight_long(active) == 1)
		solo = rt_cs_clients[__ffs(active)];
	WRITE_ONCE(rt_cs_active, active);
	WRITE_ONCE(rt_cs_solo, solo);
	WRITE_ONCE(rt_cs_solo_regs_call, solo ? solo->func : NULL);
	WRITE_ONCE(rt_cs_solo_call,
		   solo && !solo->needs_regs ? solo->func : NULL);
}

/**
 * rt_callsite_update - bring the text in line with the clients' wishes
 *
 * Call with rt_callsite_lock held after changing what clients want.
 * Only sites whose state changes are rewritten, under stop_machine();
 * nothing is stopped when nothing changes.
 *
 * While the text changes, the dispatcher calls every client that was
 * or will be active, each checking its own sites; the fast path for a
 * single client is published only once the text is what it wants.
 *
 * Return: 0, -ENOMEM, or the error of stop_machine().
 */
int rt_callsite_update(void)
{
	struct rt_cs_round r = { .arrived = ATOMIC_INIT(0) };
	unsigned long active;
	u64 t0;
	bool busy;
	int ret = 0;

	lockdep_assert_held(&rt_callsite_lock);
	if (rt_cs_scan(&active, &busy)) {
		/* Old and new clients both checked while sites change. */
		rt_cs_publish(active | READ_ONCE(rt_cs_active), false);
		/* kprobes take the hotplug lock before text_mutex; so do we. */
		cpus_read_lock();
		mutex_lock(&text_mutex);
		ret = rt_cs_round_build(&r);
		if (!ret && r.poke.nr) {
			t0 = local_clock();
			ret = stop_machine_cpuslocked(rt_callsite_stop, &r,
						      cpu_online_mask);
			rt_cs_round_us = div_u64(local_clock() - t0, NSEC_PER_USEC);
			rt_cs_round_write_us = div_u64(r.write_ns, NSEC_PER_USEC);
			rt_cs_round_sync_us = div_u64(r.sync_ns, NSEC_PER_USEC);
			if (!ret)
				rt_cs_patched += r.poke.nr;
		}
		mutex_unlock(&text_mutex);
		cpus_read_unlock();
		rt_cs_round_free(&r);
		rt_cs_updates++;
		rt_cs_scan(&active, &busy);
	}
	rt_cs_publish(active, !busy && !ret);
	return ret;
}

/**
 * rt_callsite_dispatch - the one entry of every enabled site
 * @ip: the site
 * @parent_ip: where the traced function returns to
 * @parent_slot: the stack slot holding @parent_ip (for return hooks)
 * @regs: the registers at the site, or NULL (retrace_caller)
 *
 * Called by the trampolines in any context, NMI included, with or
 * without RCU watching, and with preemption as the traced code had it
 * (clients see the true preempt count).  It reads only rt_cs_solo,
 * rt_cs_active and rt_cs_clients[], which are never freed; a client
 * disables preemption itself before it touches anything else.
 */
void notrace rt_callsite_dispatch(unsigned long ip, unsigned long parent_ip,
				  unsigned long *parent_slot,
				  struct pt_regs *regs)
{
	struct rt_cs_client *c = READ_ONCE(rt_cs_solo);
	unsigned long active;
	unsigned int id;

	/*
	 * A task preempted in the trampoline may find a newer lone client
	 * than the one it set out for; one that needs registers it did not
	 * save is not called.
	 */
	if (likely(c)) {
		if (likely(regs || !c->needs_regs))
			c->func(ip, parent_ip, parent_slot, regs, false);
		return;
	}
	active = READ_ONCE(rt_cs_active);
	while (active) {
		id = __ffs(active);
		active &= active - 1;
		c = READ_ONCE(rt_cs_clients[id]);
		if (c && (regs || !c->needs_regs))
			c->func(ip, parent_ip, parent_slot, regs, true);
	}
}
NOKPROBE_SYMBOL(rt_callsite_dispatch);

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
 * Call with rt_callsite_lock held.
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
			fn(g->sites[i].ip, idx, name,
			   g->mod && names ? g->mod->name : NULL, arg);
			if (!(idx & 1023))
				cond_resched();
		}
	}
}

/**
 * rt_callsite_walk_module - rt_callsite_for_each() over one module
 * @mod: the module
 * @fn: called for each of its listed sites, with names
 * @arg: passed to @fn
 *
 * Call with rt_callsite_lock held.  @fn's index argument is 0.
 */
void rt_callsite_walk_module(struct module *mod, rt_callsite_fn fn,
			     void *arg)
{
	char name[KSYM_NAME_LEN];
	struct rt_callsite_group *g;
	unsigned int i;

	lockdep_assert_held(&rt_callsite_lock);
	list_for_each_entry(g, &rt_callsite_groups, list) {
		if (g->mod != mod)
			continue;
		for (i = 0; i < g->nr; i++) {
			if (lookup_symbol_name(g->sites[i].ip, name))
				name[0] = 0;
			fn(g->sites[i].ip, 0, name, mod->name, arg);
		}
	}
}

/*
 * Modules: sites are made NOPs (or calls, if a client wants every new
 * site) when the module is COMING, before any of its code runs, so
 * plain text_poke is enough; they leave the table when it is GOING,
 * after the clients were told.
 */
static void rt_cs_module_coming(struct module *mod)
{
	unsigned int i, id, n = mod->num_ftrace_callsites;
	struct rt_callsite_group *g;
	struct rt_cs_client *c;

	if (!n)
		return;
	g = rt_cs_group_build(mod, mod->ftrace_callsites, n, RT_CS_FENTRY);
	if (!g) {
		pr_warn("no memory for the call sites of %s; not traceable\n",
			mod->name);
		return;
	}
	mutex_lock(&rt_callsite_lock);
	for (id = 0; id < rt_cs_nr_clients; id++) {
		c = rt_cs_clients[id];
		if (!c->want_new_site)
			continue;
		for (i = 0; i < g->nr; i++)
			if (c->want_new_site(c, g->sites[i].ip))
				g->sites[i].clients |= BIT(id);
	}
	mutex_lock(&text_mutex);
	/* Init sites are never listed; quieten them here. */
	for (i = 0; i < n; i++) {
		unsigned long ip = mod->ftrace_callsites[i];

		if (ip && within_module_init(ip, mod) && rt_cs_is_fentry_call(ip))
			text_poke((void *)ip, x86_nops[5], RT_CS_SITE_SIZE);
	}
	rt_cs_patch_group(g);
	mutex_unlock(&text_mutex);
	list_add_tail_rcu(&g->list, &rt_callsite_groups);
	rt_cs_total += g->nr;
	for (id = 0; id < rt_cs_nr_clients; id++) {
		c = rt_cs_clients[id];
		if (c->module_coming)
			c->module_coming(c, mod);
	}
	/* The module's code has not run yet: no dispatch to order against. */
	rt_callsite_update();
	mutex_unlock(&rt_callsite_lock);
}

static void rt_cs_module_going(struct module *mod)
{
	struct rt_callsite_group *g, *tmp;
	unsigned int id;

	mutex_lock(&rt_callsite_lock);
	list_for_each_entry_safe(g, tmp, &rt_callsite_groups, list) {
		if (g->mod != mod)
			continue;
		for (id = 0; id < rt_cs_nr_clients; id++)
			if (rt_cs_clients[id]->module_going)
				rt_cs_clients[id]->module_going(rt_cs_clients[id],
								mod);
		list_del_rcu(&g->list);
		rt_cs_total -= g->nr;
		kvfree_rcu(g, rcu);
	}
	rt_callsite_update();
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

static int __init rt_callsite_module_init(void)
{
	return register_module_notifier(&rt_cs_module_nb);
}
core_initcall(rt_callsite_module_init);

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

/* Refused at lockdown=confidentiality, as every tracing file. */
static int rt_aff_open(struct inode *inode, struct file *file)
{
	if (security_locked_down(LOCKDOWN_TRACEFS))
		return -EPERM;
	return seq_open_private(file, &rt_aff_seq_ops,
				sizeof(struct rt_cs_iter));
}

const struct file_operations rt_callsite_list_fops = {
	.open = rt_aff_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release_private,
};

/* callsite_stats: what the patcher has done, for tests and tuning. */
static int rt_cs_stats_show(struct seq_file *m, void *v)
{
	unsigned int i, id, calls = 0, regs = 0, busy = 0;
	unsigned int per_client[RT_CS_MAX_CLIENTS] = { };
	struct rt_callsite_group *g;

	mutex_lock(&rt_callsite_lock);
	mutex_lock(&text_mutex);
	list_for_each_entry(g, &rt_callsite_groups, list)
		for (i = 0; i < g->nr; i++) {
			struct rt_callsite *cs = &g->sites[i];

			calls += cs->state == RT_CS_CALL || cs->state == RT_CS_REGS;
			regs += cs->state == RT_CS_REGS;
			busy += !rt_cs_holds(cs, (const u8 *)cs->ip,
					     &rt_cs_targets);
			for (id = 0; id < rt_cs_nr_clients; id++)
				per_client[id] += !!(cs->clients & BIT(id));
		}
	mutex_unlock(&text_mutex);
	seq_printf(m, "sites: %u\nenabled: %u\nregs: %u\nbusy: %u\n",
		   rt_cs_total, calls, regs, busy);
	seq_printf(m, "updates: %lu\npatched: %lu\nskipped: %lu\n",
		   rt_cs_updates, rt_cs_patched, rt_cs_busy);
	seq_printf(m, "round_us: %llu %llu %llu\nint3_emulated: %lu\nint3_in_nmi: %lu\nint3_gone: %lu\nint3_gone_emulated: %lu\n",
		   rt_cs_round_us, rt_cs_round_write_us, rt_cs_round_sync_us,
		   atomic_long_read(&retrace_poke_hits),
		   atomic_long_read(&retrace_poke_nmi_hits),
		   atomic_long_read(&retrace_poke_gone),
		   atomic_long_read(&retrace_poke_gone_emulated));
	seq_printf(m, "boot_converted: %u\nboot_us: %llu\n",
		   rt_cs_boot_converted, rt_cs_boot_us);
	seq_printf(m, "dispatch: %s\n",
		   rt_cs_solo ? rt_cs_solo->name : rt_cs_active ? "checked" : "none");
	for (id = 0; id < rt_cs_nr_clients; id++)
		seq_printf(m, "client %s: %u\n", rt_cs_clients[id]->name,
			   per_client[id]);
	mutex_unlock(&rt_callsite_lock);
	return 0;
}

static int rt_cs_stats_open(struct inode *inode, struct file *file)
{
	if (security_locked_down(LOCKDOWN_TRACEFS))
		return -EPERM;
	return single_open(file, rt_cs_stats_show, NULL);
}

const struct file_operations rt_callsite_stats_fops = {
	.open = rt_cs_stats_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};
