// SPDX-License-Identifier: GPL-2.0
/*
 * Selftest helper for kmemtrace: allocations of known sizes from known
 * functions.  Writing N to "run" makes N rounds of:
 *
 *   rt_kmem_test_kmalloc()   kmalloc(RT_KMEM_TEST_SIZE), then kfree()
 *   rt_kmem_test_large()     kmalloc(RT_KMEM_TEST_LARGE), past the slabs
 *   rt_kmem_test_kv()        kvmalloc(RT_KMEM_TEST_SIZE), then kvfree()
 *   rt_kmem_test_cache()     kmem_cache_alloc() from "rt_kmem_test"
 *   rt_kmem_test_pages()     __get_free_pages(order 1), then free_pages()
 *
 * each freeing from rt_kmem_test_release().  Reading "last" gives the
 * last round's pointers, one "kind address" line each, so a test can
 * find their records and check size, type and call site.
 */
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#define RT_KMEM_TEST_SIZE	1000		/* a kmalloc-1k object */
#define RT_KMEM_TEST_LARGE	(3 * PAGE_SIZE + 100)	/* > 2 pages */
#define RT_KMEM_TEST_OBJ	200		/* the cache's object size */

static struct kmem_cache *rt_kmem_test_cachep;
static DEFINE_MUTEX(rt_kmem_test_lock);
static void *rt_kmem_test_last[5];
static unsigned long rt_kmem_test_rounds;

/*
 * noipa: each must be a real function, the caller of its allocation;
 * storing the result keeps gcc from making the call a tail call, which
 * would leave the return address in rt_kmem_test_run().
 */
static noinline __attribute__((__noipa__)) void rt_kmem_test_kmalloc(void)
{
	rt_kmem_test_last[0] = kmalloc(RT_KMEM_TEST_SIZE, GFP_KERNEL);
}

/*
 * A size gcc cannot see: kmalloc() then goes through __kmalloc_noprof(),
 * which upstream traces twice for a large size (kmemtrace keeps one).
 */
static unsigned int rt_kmem_test_large_size = RT_KMEM_TEST_LARGE;

static noinline __attribute__((__noipa__)) void rt_kmem_test_large(void)
{
	rt_kmem_test_last[1] = kmalloc(READ_ONCE(rt_kmem_test_large_size),
				       GFP_KERNEL);
}

static noinline __attribute__((__noipa__)) void rt_kmem_test_kv(void)
{
	rt_kmem_test_last[2] = kvmalloc(RT_KMEM_TEST_SIZE, GFP_KERNEL);
}

static noinline __attribute__((__noipa__)) void rt_kmem_test_cache(void)
{
	rt_kmem_test_last[3] = kmem_cache_alloc(rt_kmem_test_cachep,
						GFP_KERNEL);
}

static noinline __attribute__((__noipa__)) void rt_kmem_test_pages(void)
{
	rt_kmem_test_last[4] = (void *)__get_free_pages(GFP_KERNEL, 1);
}

static noinline __attribute__((__noipa__)) void rt_kmem_test_release(void)
{
	kfree(rt_kmem_test_last[0]);
	kfree(rt_kmem_test_last[1]);
	kvfree(rt_kmem_test_last[2]);
	if (rt_kmem_test_last[3])
		kmem_cache_free(rt_kmem_test_cachep, rt_kmem_test_last[3]);
	free_pages((unsigned long)rt_kmem_test_last[4], 1);
	rt_kmem_test_rounds++;		/* not a tail call, see above */
}

static int rt_kmem_test_run(const char *val, const struct kernel_param *kp)
{
	unsigned int n, i;
	int ret = kstrtouint(val, 0, &n);

	if (ret)
		return ret;
	mutex_lock(&rt_kmem_test_lock);
	for (i = 0; i < n; i++) {
		rt_kmem_test_kmalloc();
		rt_kmem_test_large();
		rt_kmem_test_kv();
		rt_kmem_test_cache();
		rt_kmem_test_pages();
		rt_kmem_test_release();
	}
	mutex_unlock(&rt_kmem_test_lock);
	return 0;
}

static const struct kernel_param_ops rt_kmem_test_run_ops = {
	.set = rt_kmem_test_run,
	.get = param_get_ulong,
};
module_param_cb(run, &rt_kmem_test_run_ops, &rt_kmem_test_rounds, 0600);

/* Raw addresses: the test matches them against the records' pointers. */
static int rt_kmem_test_get_last(char *buf, const struct kernel_param *kp)
{
	static const char *const kinds[] = {
		"kmalloc", "large", "kv", "cache", "pages" };
	int i, n = 0;

	mutex_lock(&rt_kmem_test_lock);
	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		n += sysfs_emit_at(buf, n, "%s 0x%lx\n", kinds[i],
				   (unsigned long)rt_kmem_test_last[i]);
	mutex_unlock(&rt_kmem_test_lock);
	return n;
}

static const struct kernel_param_ops rt_kmem_test_last_ops = {
	.get = rt_kmem_test_get_last,
};
module_param_cb(last, &rt_kmem_test_last_ops, NULL, 0400);

static int __init rt_kmem_test_init(void)
{
	/* Unmerged: kmem_cache_free's records name this cache. */
	rt_kmem_test_cachep = kmem_cache_create("rt_kmem_test",
						RT_KMEM_TEST_OBJ, 0,
						SLAB_NO_MERGE, NULL);
	return rt_kmem_test_cachep ? 0 : -ENOMEM;
}
module_init(rt_kmem_test_init);

static void __exit rt_kmem_test_exit(void)
{
	kmem_cache_destroy(rt_kmem_test_cachep);
}
module_exit(rt_kmem_test_exit);

MODULE_DESCRIPTION("retrace selftest: known allocations for kmemtrace");
MODULE_LICENSE("GPL");
