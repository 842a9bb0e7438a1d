// SPDX-License-Identifier: GPL-2.0
/*
 * kmemtrace: every kmalloc(), kmem_cache_alloc(), page allocation and
 * their frees as a record of the kmemtrace ABI (kmemtrace.h), in the
 * per-CPU channels /sys/kernel/debug/kmemtrace/cpu<n>
 * (kmemtrace_chan.c) and, as events/kmemtrace/{alloc,free}, in the
 * trace (kmemtrace_event.c).  See Documentation/trace/retrace-kmemtrace.txt.
 *
 * The records come from the allocator's own tracepoints
 * (<trace/events/kmem.h>), compiled in without upstream's event
 * tracing: while nobody wants them each is a static branch, a NOP.
 *
 * rt_kmt_users says who does: the channels (the enable file or
 * kmemtrace.enable= at boot) and the two events.  The probes are
 * registered while it is not 0.  Written under rt_kmt_lock; the probes
 * read the channels' flag, rt_kmt_chan_on, with an acquire load that
 * pairs with rt_kmt_get()'s release store (the channels' buffer is
 * then there), the events' bits through the event layer.
 *
 * Sequence numbers come from one counter for all CPUs, taken before
 * the record is offered to its channel: a record dropped on a full
 * channel leaves a hole, so a reader can count what it missed.
 */
#define pr_fmt(fmt) "retrace: kmemtrace: " fmt

#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/kstrtox.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <trace/events/kmem.h>
#include <trace/retrace/core.h>
#include <slab.h>	/* mm/slab.h: struct kmem_cache (see the Makefile) */
#include "kmemtrace.h"

static DEFINE_MUTEX(rt_kmt_lock);
static unsigned int rt_kmt_users;
static bool rt_kmt_chan_on;
static atomic_t rt_kmt_seq = ATOMIC_INIT(0);
static bool rt_kmt_boot_enable;

/*
 * The preemption count the allocator ran with: the tracepoint disabled
 * preemption once around its probes.
 */
static unsigned long rt_kmt_pc(void)
{
	return preempt_count() - (IS_ENABLED(CONFIG_PREEMPT_COUNT) ? 1 : 0);
}

/*
 * kfree() of a kmalloc() past the slabs gives its pages back, and their
 * free would be a second record of the same memory.  The walk cannot
 * tell (kfree() tail-calls the page allocator, leaving no frame; it may
 * also be preempted or move to another CPU in between), so the kfree
 * probe parks the address in rt_kmt_large_frees[] and the page free of
 * that address, on any CPU, takes it out and is dropped.
 *
 *   slots     0 or a parked address; claimed with cmpxchg(0 -> addr)
 *             by the kfree probe, released with cmpxchg(addr -> 0) by
 *             the page free probe (dropping its record) or by the page
 *             alloc probe (an address allocated again cannot still be
 *             waiting: its free was not seen, kmemtrace being off)
 *   nr_parked how many slots are taken, so the page probes skip the
 *             scan when none is; read without ordering: a probe that
 *             misses a park racing with it only records a page free
 *
 * All probes, any context.  A full table parks nothing: that page free
 * is then recorded too.  rt_kmt_register() empties the table, as a free
 * of a parked address may have gone unseen while the probes were off.
 */
#define RT_KMT_PARK_SLOTS	16

static unsigned long rt_kmt_large_frees[RT_KMT_PARK_SLOTS];
static atomic_t rt_kmt_nr_parked = ATOMIC_INIT(0);

static void rt_kmt_park(unsigned long addr)
{
	unsigned int i;

	for (i = 0; i < RT_KMT_PARK_SLOTS; i++) {
		if (!READ_ONCE(rt_kmt_large_frees[i]) &&
		    !cmpxchg(&rt_kmt_large_frees[i], 0, addr)) {
			atomic_inc(&rt_kmt_nr_parked);
			return;
		}
	}
}

/* Take @addr out of the table; true if it was parked. */
static bool rt_kmt_unpark(unsigned long addr)
{
	unsigned int i;

	if (!atomic_read(&rt_kmt_nr_parked))
		return false;
	for (i = 0; i < RT_KMT_PARK_SLOTS; i++) {
		if (READ_ONCE(rt_kmt_large_frees[i]) == addr &&
		    cmpxchg(&rt_kmt_large_frees[i], addr, 0) == addr) {
			atomic_dec(&rt_kmt_nr_parked);
			return true;
		}
	}
	return false;
}

/* Fill in the sequence number and send the record where it is wanted. */
static void rt_kmt_emit(struct rt_kmt_alloc *r, bool chan, bool ev)
{
	r->core.seq = atomic_inc_return(&rt_kmt_seq) - 1;
	if (chan)
		rt_kmt_chan_write(r, r->core.event_size);
	if (ev)
		rt_kmt_event_record(r, rt_kmt_pc());
}

static void rt_kmt_alloc(u8 type, unsigned long site, const void *ptr,
			 size_t req, size_t alloc, gfp_t gfp, int node)
{
	/* Pairs with rt_kmt_get()'s release: the buffer is there. */
	bool chan = smp_load_acquire(&rt_kmt_chan_on);
	bool ev = rt_kmt_event_on(true);
	struct rt_kmt_alloc r;

	if (!chan && !ev)
		return;
	if (!site || rt_kmt_site_in_allocator(site)) {
		site = rt_kmt_site_caller(type == RT_KMT_TYPE_PAGES);
		if (site == RT_KMT_SITE_DROP)
			return;
	}
	r.core.event_id = RT_KMT_EV_ALLOC;
	r.core.type_id = type;
	r.core.event_size = sizeof(r);
	r.core.call_site = site;
	r.core.ptr = (unsigned long)ptr;
	r.bytes_req = req;
	r.bytes_alloc = max(alloc, req);
	r.gfp_flags = (__force u32)gfp;
	r.target = node;
	rt_kmt_emit(&r, chan, ev);
}

static void rt_kmt_free(u8 type, unsigned long site, const void *ptr)
{
	/* Pairs with rt_kmt_get()'s release: the buffer is there. */
	bool chan = smp_load_acquire(&rt_kmt_chan_on);
	bool ev = rt_kmt_event_on(false);
	struct rt_kmt_alloc r;

	if ((!chan && !ev) || ZERO_OR_NULL_PTR(ptr))
		return;
	if (!site || rt_kmt_site_in_allocator(site)) {
		site = rt_kmt_site_caller(type == RT_KMT_TYPE_PAGES);
		if (site == RT_KMT_SITE_DROP)
			return;
	}
	r.core.event_id = RT_KMT_EV_FREE;
	r.core.type_id = type;
	r.core.event_size = sizeof(r.core);
	r.core.call_site = site;
	r.core.ptr = (unsigned long)ptr;
	rt_kmt_emit(&r, chan, ev);
}

/* ---- the tracepoints' probes ------------------------------------------- */

static void rt_kmt_probe_kmalloc(void *data, unsigned long call_site,
				 const void *ptr, size_t bytes_req,
				 size_t bytes_alloc, gfp_t gfp_flags, int node)
{
	/* A large kmalloc is traced twice; keep the one with the caller. */
	if (bytes_req > KMALLOC_MAX_CACHE_SIZE &&
	    rt_kmt_site_inner_kmalloc(call_site))
		return;
	rt_kmt_alloc(RT_KMT_TYPE_KMALLOC, call_site, ptr, bytes_req,
		     bytes_alloc, gfp_flags, node);
}

static void rt_kmt_probe_cache_alloc(void *data, unsigned long call_site,
				     const void *ptr, struct kmem_cache *s,
				     gfp_t gfp_flags, int node)
{
	rt_kmt_alloc(RT_KMT_TYPE_CACHE, call_site, ptr, s->object_size,
		     s->size, gfp_flags, node);
}

static void rt_kmt_probe_kfree(void *data, unsigned long call_site,
			       const void *ptr)
{
	rt_kmt_free(RT_KMT_TYPE_KMALLOC, call_site, ptr);
	/* The same test kfree() makes for a kmalloc() past the slabs. */
	if (!ZERO_OR_NULL_PTR(ptr) && !folio_test_slab(virt_to_folio(ptr)))
		rt_kmt_park((unsigned long)ptr);
}

static void rt_kmt_probe_cache_free(void *data, unsigned long call_site,
				    const void *ptr,
				    const struct kmem_cache *s)
{
	rt_kmt_free(RT_KMT_TYPE_CACHE, call_site, ptr);
}

static void rt_kmt_probe_page_alloc(void *data, struct page *page,
				    unsigned int order, gfp_t gfp_flags,
				    int migratetype)
{
	if (!page)
		return;		/* a failure: nothing to pair a free with */
	rt_kmt_unpark((unsigned long)page_address(page));	/* stale */
	rt_kmt_alloc(RT_KMT_TYPE_PAGES, 0, page_address(page),
		     PAGE_SIZE << order, PAGE_SIZE << order, gfp_flags,
		     NUMA_NO_NODE);
}

/*
 * Every page freed passes here, batched frees included: mm_page_free_batched
 * follows this for the same page, so it is not probed.
 */
static void rt_kmt_probe_page_free(void *data, struct page *page,
				   unsigned int order)
{
	unsigned long addr = (unsigned long)page_address(page);

	if (rt_kmt_unpark(addr))
		return;		/* a large kmalloc()'s, recorded by kfree */
	rt_kmt_free(RT_KMT_TYPE_PAGES, 0, (void *)addr);
}

static void rt_kmt_unregister(void)
{
	unregister_trace_mm_page_free(rt_kmt_probe_page_free, NULL);
	unregister_trace_mm_page_alloc(rt_kmt_probe_page_alloc, NULL);
	unregister_trace_kmem_cache_free(rt_kmt_probe_cache_free, NULL);
	unregister_trace_kfree(rt_kmt_probe_kfree, NULL);
	unregister_trace_kmem_cache_alloc(rt_kmt_probe_cache_alloc, NULL);
	unregister_trace_kmalloc(rt_kmt_probe_kmalloc, NULL);
	tracepoint_synchronize_unregister();
}

static int rt_kmt_register(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < RT_KMT_PARK_SLOTS; i++)
		rt_kmt_large_frees[i] = 0;
	atomic_set(&rt_kmt_nr_parked, 0);

	ret = register_trace_kmalloc(rt_kmt_probe_kmalloc, NULL);
	if (!ret)
		ret = register_trace_kmem_cache_alloc(rt_kmt_probe_cache_alloc,
						      NULL);
	if (!ret)
		ret = register_trace_kfree(rt_kmt_probe_kfree, NULL);
	if (!ret)
		ret = register_trace_kmem_cache_free(rt_kmt_probe_cache_free,
						     NULL);
	if (!ret)
		ret = register_trace_mm_page_alloc(rt_kmt_probe_page_alloc,
						   NULL);
	if (!ret)
		ret = register_trace_mm_page_free(rt_kmt_probe_page_free, NULL);
	if (ret)
		rt_kmt_unregister();	/* those not registered say -ENOENT */
	return ret;
}

/**
 * rt_kmt_get - @who starts wanting allocator records
 * @who: one RT_KMT_USER_* bit
 *
 * Return: 0, or the tracepoints' errno (then nothing changed).
 */
int rt_kmt_get(enum rt_kmt_user who)
{
	int ret = 0;

	mutex_lock(&rt_kmt_lock);
	if (who == RT_KMT_USER_CHAN)
		ret = rt_kmt_chan_start();
	if (!ret && !rt_kmt_users)
		ret = rt_kmt_register();
	if (!ret) {
		rt_kmt_users |= who;
		if (who == RT_KMT_USER_CHAN) {
			/* Publishes rt_kmt_chan_start()'s buffer. */
			smp_store_release(&rt_kmt_chan_on, true);
		}
	}
	mutex_unlock(&rt_kmt_lock);
	return ret;
}

/**
 * rt_kmt_put - @who stops wanting allocator records
 * @who: one RT_KMT_USER_* bit
 *
 * When the last user goes the probes are unregistered, and no probe is
 * still running when this returns.
 */
void rt_kmt_put(enum rt_kmt_user who)
{
	mutex_lock(&rt_kmt_lock);
	if (rt_kmt_users & who) {
		rt_kmt_users &= ~who;
		if (who == RT_KMT_USER_CHAN)
			WRITE_ONCE(rt_kmt_chan_on, false);
		if (!rt_kmt_users)
			rt_kmt_unregister();
	}
	mutex_unlock(&rt_kmt_lock);
}

/* ---- /sys/kernel/debug/kmemtrace: enable, buffer_size_kb, abi_version -- */

/**
 * rt_kmt_read_num - read() of a kmemtrace text file: one number
 * @ubuf: the user's buffer
 * @count: its size
 * @ppos: the file position
 * @v: the number
 *
 * Return: bytes read, or an errno.
 */
ssize_t rt_kmt_read_num(char __user *ubuf, size_t count, loff_t *ppos,
			u64 v)
{
	char buf[24];
	int n = scnprintf(buf, sizeof(buf), "%llu\n", v);

	return simple_read_from_buffer(ubuf, count, ppos, buf, n);
}

static ssize_t rt_kmt_enable_read(struct file *file, char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	return rt_kmt_read_num(ubuf, count, ppos, READ_ONCE(rt_kmt_chan_on));
}

static ssize_t rt_kmt_enable_write(struct file *file,
				   const char __user *ubuf, size_t count,
				   loff_t *ppos)
{
	bool on;
	int ret = kstrtobool_from_user(ubuf, count, &on);

	if (ret)
		return ret;
	if (on)
		ret = rt_kmt_get(RT_KMT_USER_CHAN);
	else
		rt_kmt_put(RT_KMT_USER_CHAN);
	return ret ? ret : count;
}

static const struct file_operations rt_kmt_enable_fops = {
	.open	= simple_open,
	.read	= rt_kmt_enable_read,
	.write	= rt_kmt_enable_write,
	.llseek	= default_llseek,
};

static ssize_t rt_kmt_size_read(struct file *file, char __user *ubuf,
				size_t count, loff_t *ppos)
{
	return rt_kmt_read_num(ubuf, count, ppos, rt_kmt_chan_size_kb());
}

/* Resizing drops the channels' records, so only while they are off. */
static ssize_t rt_kmt_size_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	unsigned long kb;
	int ret = kstrtoul_from_user(ubuf, count, 10, &kb);

	if (ret)
		return ret;
	mutex_lock(&rt_kmt_lock);
	if (rt_kmt_users & RT_KMT_USER_CHAN)
		ret = -EBUSY;
	else
		ret = rt_kmt_chan_resize(kb);
	mutex_unlock(&rt_kmt_lock);
	return ret ? ret : count;
}

static const struct file_operations rt_kmt_size_fops = {
	.open	= simple_open,
	.read	= rt_kmt_size_read,
	.write	= rt_kmt_size_write,
	.llseek	= default_llseek,
};

static ssize_t rt_kmt_abi_read(struct file *file, char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	return rt_kmt_read_num(ubuf, count, ppos, RT_KMT_ABI_VERSION);
}

static const struct file_operations rt_kmt_abi_fops = {
	.open	= simple_open,
	.read	= rt_kmt_abi_read,
	.llseek	= default_llseek,
};

/* kmemtrace.enable=yes (any kstrtobool() true): record from boot. */
static int __init rt_kmt_setup(char *str)
{
	if (kstrtobool(str, &rt_kmt_boot_enable))
		pr_warn("kmemtrace.enable=%s not understood\n", str);
	return 1;
}
__setup("kmemtrace.enable=", rt_kmt_setup);

/*
 * Early, so that a boot with kmemtrace.enable=yes records what the
 * kernel allocates from here on (the page allocator and slab are up).
 */
static int __init rt_kmt_early_init(void)
{
	rt_kmt_site_init();
	rt_kmt_chan_init();
	if (rt_kmt_boot_enable && rt_kmt_get(RT_KMT_USER_CHAN))
		pr_warn("cannot start recording at boot\n");
	return 0;
}
early_initcall(rt_kmt_early_init);

static struct rt_readme_part rt_kmt_readme = {
	.text = "  events/kmemtrace/     alloc and free of kmalloc, kmem_cache, pages\n"
		"                        (binary channels: /sys/kernel/debug/kmemtrace)\n",
};

static int __init rt_kmt_init(void)
{
	struct dentry *dir;
	int ret;

	dir = debugfs_create_dir("kmemtrace", NULL);
	rt_kmt_chan_files(dir);
	debugfs_create_file("abi_version", 0400, dir, NULL, &rt_kmt_abi_fops);
	debugfs_create_file("enable", 0600, dir, NULL, &rt_kmt_enable_fops);
	debugfs_create_file("buffer_size_kb", 0600, dir, NULL,
			    &rt_kmt_size_fops);
	ret = rt_kmt_event_init();
	if (ret)
		pr_warn("no events/kmemtrace: %d\n", ret);
	rt_readme_add(&rt_kmt_readme);
	return 0;
}
device_initcall(rt_kmt_init);
