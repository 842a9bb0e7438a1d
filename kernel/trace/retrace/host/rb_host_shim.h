/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough of the kernel's API for retrace's pure-logic files to
 * build as ordinary host programs (tests, fuzzers, sanitizers).
 *
 * "CPUs" are threads: each test thread sets host_cpu to the CPU it
 * plays.  local_t operations use relaxed atomics so a reader thread may
 * look at them; full-barrier operations map to seq_cst builtins.
 * Tests may hook the clock and the points where a nested writer could
 * interrupt (host_clock, host_irq_hook).
 */
#ifndef _RETRACE_HOST_SHIM_H
#define _RETRACE_HOST_SHIM_H

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pure_shim.h"	/* integer types, kmalloc and friends */

#define PAGE_SIZE	4096UL
#define notrace
#define ____cacheline_aligned_in_smp __attribute__((aligned(64)))
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define ALIGN(x, a)	(((x) + (a) - 1) & ~((__typeof__(x))(a) - 1))
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define BUILD_BUG_ON(c)	_Static_assert(!(c), #c)
#define EXPORT_SYMBOL_GPL(s)
#define WARN_ON_ONCE(c) ({ bool __c = (c); if (__c) host_warn(__FILE__, __LINE__, #c); __c; })

void host_warn(const char *file, int line, const char *what);

#define WRITE_ONCE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define barrier()	__atomic_signal_fence(__ATOMIC_SEQ_CST)
#define smp_rmb()	__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_wmb()	__atomic_thread_fence(__ATOMIC_RELEASE)
#define smp_mb()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_store_release(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define smp_load_acquire(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)

/* local_t: only its owning "CPU" writes it; others may read it. */
typedef struct { long v; } local_t;
static inline long local_read(local_t *l) { return __atomic_load_n(&l->v, __ATOMIC_RELAXED); }
static inline void local_set(local_t *l, long v) { __atomic_store_n(&l->v, v, __ATOMIC_RELAXED); }
static inline void local_add(long d, local_t *l) { __atomic_fetch_add(&l->v, d, __ATOMIC_RELAXED); }
static inline void local_inc(local_t *l) { local_add(1, l); }
static inline void local_dec(local_t *l) { local_add(-1, l); }
long host_local_cmpxchg(local_t *l, long old, long new);
#define local_cmpxchg(l, o, n) host_local_cmpxchg((l), (o), (n))

typedef struct { long v; } atomic_long_t;
typedef struct { int v; } atomic_t;
static inline long atomic_long_read(atomic_long_t *a) { return __atomic_load_n(&a->v, __ATOMIC_RELAXED); }
static inline long atomic_long_read_acquire(atomic_long_t *a) { return __atomic_load_n(&a->v, __ATOMIC_ACQUIRE); }
static inline void atomic_long_set(atomic_long_t *a, long v) { __atomic_store_n(&a->v, v, __ATOMIC_RELAXED); }
static inline void atomic_long_inc(atomic_long_t *a) { __atomic_fetch_add(&a->v, 1, __ATOMIC_SEQ_CST); }
static inline void atomic_long_add(long i, atomic_long_t *a) { __atomic_fetch_add(&a->v, i, __ATOMIC_SEQ_CST); }
static inline long atomic_long_inc_return(atomic_long_t *a) { return __atomic_add_fetch(&a->v, 1, __ATOMIC_SEQ_CST); }
static inline long atomic_long_cmpxchg(atomic_long_t *a, long o, long n)
{
	__atomic_compare_exchange_n(&a->v, &o, n, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	return o;
}
static inline bool atomic_long_try_cmpxchg(atomic_long_t *a, long *o, long n)
{
	return __atomic_compare_exchange_n(&a->v, o, n, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}
static inline int atomic_read(atomic_t *a) { return __atomic_load_n(&a->v, __ATOMIC_RELAXED); }
static inline void atomic_set(atomic_t *a, int v) { __atomic_store_n(&a->v, v, __ATOMIC_RELAXED); }
static inline void atomic_inc(atomic_t *a) { __atomic_fetch_add(&a->v, 1, __ATOMIC_SEQ_CST); }
static inline void atomic_dec(atomic_t *a) { __atomic_fetch_sub(&a->v, 1, __ATOMIC_SEQ_CST); }
static inline int atomic_read_acquire(atomic_t *a) { return __atomic_load_n(&a->v, __ATOMIC_ACQUIRE); }
static inline void atomic_set_release(atomic_t *a, int v) { __atomic_store_n(&a->v, v, __ATOMIC_RELEASE); }
static inline int atomic_cmpxchg_acquire(atomic_t *a, int o, int n)
{
	__atomic_compare_exchange_n(&a->v, &o, n, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
	return o;
}
#define smp_mb__after_atomic()	do { } while (0)	/* host atomics are seq_cst */
#define smp_mb__before_atomic()	do { } while (0)
#define cpu_relax()		sched_yield()

/* CPUs, preemption, RCU. */
extern __thread int host_cpu;
extern unsigned int nr_cpu_ids;
#define raw_smp_processor_id()	host_cpu
#define smp_processor_id()	host_cpu
#define cpu_to_node(c)		0
#define for_each_possible_cpu(c) for ((c) = 0; (c) < (int)nr_cpu_ids; (c)++)
#define preempt_disable_notrace() do { } while (0)
#define preempt_enable_notrace() do { } while (0)
/*
 * A consumer step's preempt-off section read-holds host_preempt_lock and
 * rt_wait_preempt_readers() write-takes it once: the wait for every CPU
 * to schedule, played by threads.
 */
extern pthread_rwlock_t host_preempt_lock;
#define preempt_disable()	pthread_rwlock_rdlock(&host_preempt_lock)
#define preempt_enable()	pthread_rwlock_unlock(&host_preempt_lock)
#define might_sleep()		do { } while (0)
#define need_resched()		false
static inline void synchronize_rcu(void) { }
/* Host tests free a buffer only once no thread uses it: no grace period. */
struct rcu_head { int unused; };
#define kfree_rcu(p, field)	free(p)
static inline void rt_wait_preempt_readers(void)
{
	pthread_rwlock_wrlock(&host_preempt_lock);
	pthread_rwlock_unlock(&host_preempt_lock);
}
/* One thread plays every CPU: an IPI is a plain call. */
typedef struct {
	void (*func)(void *info);
	void *info;
} call_single_data_t;
#define INIT_CSD(c, f, i)	do { (c)->func = (f); (c)->info = (i); } while (0)
static inline int smp_call_function_single_async(int cpu, call_single_data_t *csd)
{
	csd->func(csd->info);
	return 0;
}
struct completion { int done; };
#define init_completion(c)	((c)->done = 0)
#define complete(c)		((c)->done = 1)
#define wait_for_completion(c)	do { } while (0)
#define cpus_read_lock()	do { } while (0)
#define cpus_read_unlock()	do { } while (0)
#define cond_resched()		do { } while (0)

/* Memory. */
#define __GFP_RETRY_MAYFAIL 0
#define __GFP_NOWARN 0
struct page;
extern long host_alloc_budget;	/* pages left before allocation fails; <0: unlimited */
void *host_alloc_page(void);
#define alloc_pages_node(node, gfp, order) ((struct page *)host_alloc_page())
#define page_address(p)	((void *)(p))
#define free_page(a)	free((void *)(a))
#define kzalloc_node(n, g, node) calloc(1, (n))

struct mutex { pthread_mutex_t m; };
#define mutex_init(x)	pthread_mutex_init(&(x)->m, NULL)
#define mutex_destroy(x) pthread_mutex_destroy(&(x)->m)
#define mutex_lock(x)	pthread_mutex_lock(&(x)->m)
#define mutex_unlock(x)	pthread_mutex_unlock(&(x)->m)

struct rw_semaphore { pthread_rwlock_t l; };
#define init_rwsem(x)	pthread_rwlock_init(&(x)->l, NULL)
#define down_read(x)	pthread_rwlock_rdlock(&(x)->l)
#define up_read(x)	pthread_rwlock_unlock(&(x)->l)
#define down_read_trylock(x)	(pthread_rwlock_tryrdlock(&(x)->l) == 0)
#define down_write(x)	pthread_rwlock_wrlock(&(x)->l)
#define up_write(x)	pthread_rwlock_unlock(&(x)->l)
#define down_write_nested(x, n) down_write(x)
#define SINGLE_DEPTH_NESTING 1

/* Test hooks: the clock, and a point where a nested writer may run. */
extern u64 (*host_clock)(void);
static inline u64 rb_clock_local(void)
{
	return host_clock();
}

typedef struct { s64 v; } atomic64_t;
static inline s64 raw_atomic64_read(atomic64_t *a) { return __atomic_load_n(&a->v, __ATOMIC_RELAXED); }
static inline bool raw_atomic64_try_cmpxchg(atomic64_t *a, s64 *old, s64 new)
{
	return __atomic_compare_exchange_n(&a->v, old, new, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
}
static inline s64 raw_atomic64_inc_return(atomic64_t *a) { return __atomic_add_fetch(&a->v, 1, __ATOMIC_SEQ_CST); }

#endif /* _RETRACE_HOST_SHIM_H */
