// SPDX-License-Identifier: GPL-2.0
/*
 * Sorted address sets published by pointer; the protocol is written
 * down in include/trace/retrace/ipset.h.
 */
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/workqueue.h>
#include <trace/retrace/ipset.h>

/**
 * rt_ipset_alloc - a set with room for @nr addresses
 * @nr: capacity; the set starts with @nr entries to fill
 *
 * Return: the set, or NULL.  Free with kvfree() if never published.
 */
struct rt_ipset *rt_ipset_alloc(unsigned int nr)
{
	struct rt_ipset *set = kvmalloc(struct_size(set, ips, nr), GFP_KERNEL);

	if (set)
		set->nr = nr;
	return set;
}

static int rt_ipset_cmp(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/**
 * rt_ipset_sort - sort a filled set and drop duplicates
 * @set: the set, not yet published
 */
void rt_ipset_sort(struct rt_ipset *set)
{
	unsigned int i, n = 0;

	sort(set->ips, set->nr, sizeof(set->ips[0]), rt_ipset_cmp, NULL);
	for (i = 0; i < set->nr; i++)
		if (!n || set->ips[i] != set->ips[n - 1])
			set->ips[n++] = set->ips[i];
	set->nr = n;
}

/**
 * rt_ipset_has - is @ip in @set
 * @set: a set read as the protocol says, or NULL (empty)
 * @ip: the address
 *
 * Return: true if present.  Lockless; any context.
 */
bool notrace rt_ipset_has(const struct rt_ipset *set, unsigned long ip)
{
	unsigned int lo = 0, hi, mid;

	if (!set)
		return false;
	hi = set->nr;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (set->ips[mid] < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < set->nr && set->ips[lo] == ip;
}

static void rt_ipset_noop(struct work_struct *work)
{
}

/**
 * rt_wait_preempt_readers - wait out every preemption-disabled reader
 *
 * Returns once every online CPU has run a work item, so no CPU is still
 * inside a region that disabled preemption before the call.  Process
 * context only; takes milliseconds.
 */
void rt_wait_preempt_readers(void)
{
	schedule_on_each_cpu(rt_ipset_noop);
}

/**
 * rt_ipset_publish - make @set the live set of @slot, free the old one
 * @slot: the published pointer, written only under its owner's mutex
 * @set: the new set (sorted), or NULL for the empty set
 */
void rt_ipset_publish(struct rt_ipset **slot, struct rt_ipset *set)
{
	struct rt_ipset *old = *slot;

	/* Entries before pointer: pairs with the readers' acquire. */
	smp_store_release(slot, set);
	if (old) {
		rt_wait_preempt_readers();
		kvfree(old);
	}
}
