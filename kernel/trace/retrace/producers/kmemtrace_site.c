// SPDX-License-Identifier: GPL-2.0
/*
 * The call site of an allocation: the code that asked the allocator,
 * not a function of the allocator's own.
 *
 * The slab tracepoints pass _RET_IP_, which is right for kmalloc() and
 * kmem_cache_alloc() called directly, but names the wrapper when a
 * helper of the allocator calls them (kvmalloc(), kvfree(), krealloc()
 * freeing the old object).  The page tracepoints pass no call site at
 * all.  Both are resolved by walking the stack past the functions of
 * rt_kmt_alloc_funcs[] (and retrace's own text) to the first frame
 * outside them.
 *
 * Only the leading run of retrace's frames (the probe's own) is skipped:
 * an allocation retrace makes itself (ring buffer pages, say) names its
 * function in retrace.
 *
 * A kmalloc() too large for a slab is traced twice upstream: once with
 * the return address into __kmalloc_noprof() and friends, once with the
 * real caller.  rt_kmt_site_inner_kmalloc() recognises the first, which
 * kmemtrace drops.  The pages behind such a kmalloc() pass the page
 * tracepoints too; a page record whose walk meets the large-kmalloc
 * functions is dropped, so the allocation is recorded once, as kmalloc.
 *
 * The table is filled once, before any probe is registered, and only
 * read afterwards.
 */
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/sort.h>
#include <linux/stacktrace.h>
#include <trace/retrace/core.h>
#include "kmemtrace.h"

/* Deep enough for the longest path from a caller into the tracepoint. */
#define RT_KMT_WALK_DEPTH	16

/* Functions entered on the way from a caller into the allocator. */
static const char *const rt_kmt_alloc_funcs[] = {
	/* the slab allocator's helpers */
	"__kvmalloc_node_noprof", "kvfree", "kvfree_sensitive",
	"kfree_sensitive", "kvrealloc_noprof", "krealloc_noprof",
	/* the page allocator's entry points */
	"__alloc_pages_noprof", "alloc_pages_mpol_noprof",
	"alloc_pages_noprof", "folio_alloc_noprof", "__folio_alloc_noprof",
	"folio_alloc_mpol_noprof", "vma_alloc_folio_noprof",
	"get_free_pages_noprof", "__get_free_pages_noprof",
	"get_zeroed_page_noprof", "alloc_pages_exact_noprof",
	"alloc_pages_exact_nid_noprof", "make_alloc_exact",
	"alloc_pages_bulk_noprof", "__alloc_pages_bulk_noprof",
	"alloc_pages_bulk_array_mempolicy_noprof",
	/* and its exits */
	"__free_pages_ok", "free_unref_page", "__free_pages", "free_pages",
	"free_pages_exact", "__folio_put", "free_unref_folios",
	"folios_put_refs", "release_pages",
	"free_pages_prepare",
	/*
	 * The tracepoints' wrappers, which gcc may leave out of line (one
	 * static copy per file that calls them), and their iterators,
	 * used when more than one probe is on.
	 */
	"trace_kmalloc", "trace_kfree", "trace_kmem_cache_alloc",
	"trace_kmem_cache_free", "trace_mm_page_alloc", "trace_mm_page_free",
	"__traceiter_kmalloc", "__traceiter_kfree",
	"__traceiter_kmem_cache_alloc", "__traceiter_kmem_cache_free",
	"__traceiter_mm_page_alloc", "__traceiter_mm_page_free",
};

/*
 * Also the allocator's, and the return address into them marks
 * upstream's inner trace of a large kmalloc().
 */
static const char *const rt_kmt_inner_funcs[] = {
	"__kmalloc_noprof", "__kmalloc_node_noprof",
	"__kmalloc_node_track_caller_noprof",
};

/*
 * A kmalloc() past the slabs: its pages belong to the kmalloc record.
 * (Their free is matched by address instead, in kmemtrace.c: kfree()
 * tail-calls the page allocator, so no frame of it is left to see.)
 */
static const char *const rt_kmt_large_funcs[] = {
	"__kmalloc_large_noprof", "__kmalloc_large_node_noprof",
	"___kmalloc_large_node", "free_large_kmalloc",
};

enum rt_kmt_kind {
	RT_KMT_HELPER,	/* walk past it */
	RT_KMT_INNER,	/* and it marks the inner large-kmalloc trace */
	RT_KMT_LARGE,	/* and a page record passing it is dropped */
};

struct rt_kmt_range {
	unsigned long	start;
	unsigned long	end;
	enum rt_kmt_kind kind;
};

/* Room for a few names to have several copies. */
#define RT_KMT_MAX_RANGES	(2 * (ARRAY_SIZE(rt_kmt_alloc_funcs) + \
				      ARRAY_SIZE(rt_kmt_inner_funcs) + \
				      ARRAY_SIZE(rt_kmt_large_funcs)))

static struct rt_kmt_range rt_kmt_ranges[RT_KMT_MAX_RANGES];
static unsigned int rt_kmt_nr_ranges;

static int rt_kmt_range_cmp(const void *a, const void *b)
{
	const struct rt_kmt_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* One copy of a function: kallsyms_on_each_match_symbol() calls back. */
static int rt_kmt_range_add(void *kind, unsigned long addr)
{
	unsigned long size, off;

	if (rt_kmt_nr_ranges == RT_KMT_MAX_RANGES)
		return 1;	/* full: the walk may name a helper */
	if (kallsyms_lookup_size_offset(addr, &size, &off))
		rt_kmt_ranges[rt_kmt_nr_ranges++] = (struct rt_kmt_range){
			addr - off, addr - off + size,
			(enum rt_kmt_kind)(unsigned long)kind };
	return 0;
}

/**
 * rt_kmt_site_init - look up the allocator's functions, once
 *
 * Every copy of each name counts (a static function may have one per
 * file).  A name this kernel does not have (inlined, or configured out)
 * is skipped: no frame of it can be on the stack.
 */
void rt_kmt_site_init(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rt_kmt_alloc_funcs); i++)
		kallsyms_on_each_match_symbol(rt_kmt_range_add,
				rt_kmt_alloc_funcs[i], (void *)RT_KMT_HELPER);
	for (i = 0; i < ARRAY_SIZE(rt_kmt_inner_funcs); i++)
		kallsyms_on_each_match_symbol(rt_kmt_range_add,
				rt_kmt_inner_funcs[i], (void *)RT_KMT_INNER);
	for (i = 0; i < ARRAY_SIZE(rt_kmt_large_funcs); i++)
		kallsyms_on_each_match_symbol(rt_kmt_range_add,
				rt_kmt_large_funcs[i], (void *)RT_KMT_LARGE);
	sort(rt_kmt_ranges, rt_kmt_nr_ranges, sizeof(rt_kmt_ranges[0]),
	     rt_kmt_range_cmp, NULL);
}

/*
 * Every record asks this once, so it is a plain loop rather than
 * bsearch() and its indirect call per step (a retpoline here).
 */
static const struct rt_kmt_range *rt_kmt_lookup(unsigned long ip)
{
	unsigned int lo = 0, hi = rt_kmt_nr_ranges;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;
		const struct rt_kmt_range *r = &rt_kmt_ranges[mid];

		if (ip < r->start)
			hi = mid;
		else if (ip >= r->end)
			lo = mid + 1;
		else
			return r;
	}
	return NULL;
}

/**
 * rt_kmt_site_inner_kmalloc - is @ip upstream's inner trace of a large kmalloc
 * @ip: the call site a kmalloc tracepoint passed
 *
 * Return: true if @ip returns into __kmalloc_noprof() or its two
 * siblings, which trace a large allocation again with the real caller.
 */
bool rt_kmt_site_inner_kmalloc(unsigned long ip)
{
	const struct rt_kmt_range *r = rt_kmt_lookup(ip);

	return r && r->kind == RT_KMT_INNER;
}

/**
 * rt_kmt_site_in_allocator - is @ip inside one of the allocator's functions
 * @ip: a call site
 *
 * Return: true if the real caller is further up the stack.
 */
bool rt_kmt_site_in_allocator(unsigned long ip)
{
	return rt_kmt_lookup(ip);
}

/**
 * rt_kmt_site_caller - the first frame past the probe and the allocator
 * @pages: for a page record, which the large-kmalloc path drops
 *
 * Called from a probe, with preemption disabled; any context.
 * Return: that return address; 0 if the walk found none;
 * RT_KMT_SITE_DROP if @pages and the pages are a large kmalloc()'s.
 */
unsigned long rt_kmt_site_caller(bool pages)
{
	unsigned long entries[RT_KMT_WALK_DEPTH];
	const struct rt_kmt_range *r;
	unsigned int n, i = 0;

	n = stack_trace_save(entries, ARRAY_SIZE(entries), 0);
	while (i < n && rt_in_retrace_text(entries[i]))
		i++;
	for (; i < n; i++) {
		r = rt_kmt_lookup(entries[i]);
		if (!r)
			return entries[i];
		if (pages && r->kind == RT_KMT_LARGE)
			return RT_KMT_SITE_DROP;
	}
	return 0;
}
