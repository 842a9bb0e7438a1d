// SPDX-License-Identifier: GPL-2.0
/* Definitions behind rb_host_shim.h, shared by every host program. */
#define _GNU_SOURCE	/* a writer-preferring rwlock */
#include "rb_host_shim.h"

__thread int host_cpu;
unsigned int nr_cpu_ids = 1;
long host_alloc_budget = -1;
int host_warnings;
/*
 * Writer-preferring: a consumer that enters again and again must not
 * starve rt_wait_preempt_readers(), as no CPU can in the kernel.
 */
pthread_rwlock_t host_preempt_lock =
	PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP;

static u64 host_default_clock(void)
{
	static __thread u64 t;

	return t += 10;
}

u64 (*host_clock)(void) = host_default_clock;

/*
 * Simulated interrupt: when set, called just before a writer's local
 * cmpxchg, the one window where a nested writer changes the outcome.
 */
void (*host_irq_hook)(void);
static __thread int in_hook;

long host_local_cmpxchg(local_t *l, long old, long new)
{
	if (host_irq_hook && !in_hook) {
		in_hook = 1;
		host_irq_hook();
		in_hook = 0;
	}
	__atomic_compare_exchange_n(&l->v, &old, new, false,
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	return old;
}

void *host_alloc_page(void)
{
	void *p;

	if (host_alloc_budget == 0)
		return NULL;
	if (host_alloc_budget > 0)
		host_alloc_budget--;
	p = aligned_alloc(PAGE_SIZE, PAGE_SIZE);
	if (p)
		memset(p, 0, PAGE_SIZE);
	return p;
}

void host_warn(const char *file, int line, const char *what)
{
	fprintf(stderr, "WARNING at %s:%d: %s\n", file, line, what);
	host_warnings++;
}
