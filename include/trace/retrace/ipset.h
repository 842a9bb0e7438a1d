/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sorted set of addresses published by pointer: written rarely under
 * its owner's mutex, read locklessly on hot paths in any context.
 *
 * The protocol, the one retrace uses for every set read in hot paths:
 *
 *   owner (process context, its own mutex held):
 *	new = rt_ipset_alloc(n); fill new->ips[]; rt_ipset_sort(new);
 *	rt_ipset_publish(&slot, new);
 *   publish stores the pointer with release semantics, then waits until
 *   every CPU has left any preemption-disabled region it was in, and
 *   only then frees the old set.
 *
 *   reader (any context, NMI included, RCU watching or not):
 *	preempt_disable_notrace();
 *	s = smp_load_acquire(&slot);
 *	... rt_ipset_has(s, ip) ...
 *	preempt_enable_notrace();
 *   The acquire pairs with the release: a reader that sees the new
 *   pointer sees its entries.  A reader on the old set keeps a valid
 *   set until it re-enables preemption.
 *
 * The wait is a work item run on every online CPU, which cannot start
 * while that CPU is inside a preemption-disabled region; unlike
 * synchronize_rcu() it also covers readers where RCU is not watching
 * (idle, early entry).  A NULL set is the empty set.
 */
#ifndef _TRACE_RETRACE_IPSET_H
#define _TRACE_RETRACE_IPSET_H

#include <linux/types.h>

struct rt_ipset {
	unsigned int	nr;
	unsigned long	ips[];
};

struct rt_ipset *rt_ipset_alloc(unsigned int nr);
void rt_ipset_sort(struct rt_ipset *set);
bool rt_ipset_has(const struct rt_ipset *set, unsigned long ip);
void rt_ipset_publish(struct rt_ipset **slot, struct rt_ipset *set);
void rt_wait_preempt_readers(void);

#endif /* _TRACE_RETRACE_IPSET_H */
