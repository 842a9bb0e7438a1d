// SPDX-License-Identifier: GPL-2.0
/*
 * Sharing a call site with a kprobe.
 *
 * A kprobe on a function's first instruction covers our 5-byte site
 * with an int3 (or, once optimised, a jump) and keeps its own copy of
 * what the site held when it was armed.  While it is there the patcher
 * must not touch the site ("busy"), and the copy, not the site, decides
 * whether the function calls retrace_caller.  Two cases would then go
 * wrong, and this file mends them:
 *
 *   the copy is a NOP but the tracer wants the function: a stand-in
 *	kprobe of ours on the same address calls rt_function_entry()
 *	(kprobes runs every probe registered on one address);
 *
 *   the copy is a call but the tracer no longer wants the function:
 *	the copied call still arrives, so the site is "muted" and
 *	rt_function_entry() drops it.
 *
 * Both sets are rebuilt by every rt_callsite_update(): stand-ins are
 * unregistered first (so that their own int3 does not make a site look
 * busy), the text is patched, then busy sites are classified again.
 * Every change of who wants a site goes through an update, so the sets
 * are right after each one; between updates a kprobe coming or going
 * only ever leaves an unnecessary stand-in or mute, never a wrong
 * record.
 */
#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <trace/retrace/callsite.h>
#include "internal.h"

struct rt_cs_standin {
	struct kprobe		kp;
	struct list_head	list;
};

/* Under rt_callsite_lock. */
static LIST_HEAD(rt_cs_standins);
static unsigned int rt_cs_nr_standins;

/*
 * Muted sites: two static sets, the live one published by pointer
 * (release/acquire), rebuilt in the other.  A reader racing with an
 * update may judge one call by a set being rewritten: its bound is
 * clamped, so the cost is at most that call, and nothing is ever freed
 * under it.  Static storage also keeps the read safe where RCU is not
 * watching.  Sites beyond RT_CS_MAX_MUTED are not muted and counted in
 * rt_cs_unmuted.
 */
#define RT_CS_MAX_MUTED	64
struct rt_cs_muted_set {
	unsigned int	nr;
	unsigned long	ips[RT_CS_MAX_MUTED];
};
static struct rt_cs_muted_set rt_cs_muted_sets[2];
static struct rt_cs_muted_set *rt_cs_muted_live = &rt_cs_muted_sets[0];
static struct rt_cs_muted_set *rt_cs_muted_next;
unsigned int rt_cs_nr_muted;	/* read by rt_function_entry() first */
static unsigned int rt_cs_unmuted;

/**
 * rt_cs_muted - should a call from this site be dropped
 * @ip: the site
 *
 * Return: true if @ip is a busy site whose copied call is unwanted.
 */
bool notrace rt_cs_muted(unsigned long ip)
{
	/* Pairs with the release in rt_cs_share_commit(). */
	const struct rt_cs_muted_set *set = smp_load_acquire(&rt_cs_muted_live);
	unsigned int n = min_t(unsigned int, READ_ONCE(set->nr), RT_CS_MAX_MUTED);
	unsigned int lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (READ_ONCE(set->ips[mid]) < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && READ_ONCE(set->ips[lo]) == ip;
}
NOKPROBE_SYMBOL(rt_cs_muted);

/* At function entry the return address is the word at the stack top. */
static int rt_cs_standin_pre(struct kprobe *kp, struct pt_regs *regs)
{
	unsigned long *slot = (unsigned long *)kernel_stack_pointer(regs);

	rt_function_entry((unsigned long)kp->addr, READ_ONCE(*slot), slot);
	return 0;
}
NOKPROBE_SYMBOL(rt_cs_standin_pre);

/**
 * rt_cs_share_release - unregister every stand-in kprobe
 *
 * Called with rt_callsite_lock held, before the text is examined.
 */
void rt_cs_share_release(void)
{
	struct rt_cs_standin *s, *n;

	lockdep_assert_held(&rt_callsite_lock);
	list_for_each_entry_safe(s, n, &rt_cs_standins, list) {
		unregister_kprobe(&s->kp);
		list_del(&s->list);
		kfree(s);
	}
	rt_cs_nr_standins = 0;
	rt_cs_muted_next = rt_cs_muted_live == &rt_cs_muted_sets[0] ?
			   &rt_cs_muted_sets[1] : &rt_cs_muted_sets[0];
	WRITE_ONCE(rt_cs_muted_next->nr, 0);
	rt_cs_unmuted = 0;
}

/**
 * rt_cs_share_site - a busy site needs a stand-in or muting
 * @ip: the site
 * @standin: true for a stand-in kprobe, false to mute it
 */
void rt_cs_share_site(unsigned long ip, bool standin)
{
	struct rt_cs_muted_set *set = rt_cs_muted_next;
	struct rt_cs_standin *s;
	int ret;

	lockdep_assert_held(&rt_callsite_lock);
	if (!standin) {
		if (set->nr < RT_CS_MAX_MUTED)
			WRITE_ONCE(set->ips[set->nr++], ip);
		else
			rt_cs_unmuted++;
		return;
	}
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return;
	s->kp.addr = (kprobe_opcode_t *)ip;
	s->kp.pre_handler = rt_cs_standin_pre;
	ret = register_kprobe(&s->kp);
	if (ret) {
		pr_debug("retrace: no stand-in at %pS: %d\n", (void *)ip, ret);
		kfree(s);
		return;
	}
	list_add_tail(&s->list, &rt_cs_standins);
	rt_cs_nr_standins++;
}

static int rt_cs_cmp_ip(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/**
 * rt_cs_share_commit - publish the muted set built since the release
 */
void rt_cs_share_commit(void)
{
	struct rt_cs_muted_set *set = rt_cs_muted_next;

	lockdep_assert_held(&rt_callsite_lock);
	sort(set->ips, set->nr, sizeof(set->ips[0]), rt_cs_cmp_ip, NULL);
	/* Entries before the pointer: pairs with rt_cs_muted(). */
	smp_store_release(&rt_cs_muted_live, set);
	WRITE_ONCE(rt_cs_nr_muted, set->nr);
}

/**
 * rt_cs_share_stats - counts for callsite_stats
 * @standins: stand-in kprobes registered
 * @muted: sites muted
 * @unmuted: sites that should be muted but did not fit
 */
void rt_cs_share_stats(unsigned int *standins, unsigned int *muted,
		       unsigned int *unmuted)
{
	lockdep_assert_held(&rt_callsite_lock);
	*standins = rt_cs_nr_standins;
	*muted = rt_cs_muted_live->nr;
	*unmuted = rt_cs_unmuted;
}
