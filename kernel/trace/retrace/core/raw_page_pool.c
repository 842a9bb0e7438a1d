// SPDX-License-Identifier: GPL-2.0
/*
 * Pages that trace_pipe_raw's splice() hands to pipes, recycled.
 *
 * With the function tracer on, every function the reader calls is a
 * record the reader must then drain too.  A page from the page
 * allocator costs about eight such calls and freeing it seven more,
 * half again what packing the page costs.  So a page comes back to
 * the open file that handed it out when the pipe is done with it, and
 * the next splice() packs into it.
 *
 * A pool belongs to one open trace_pipe_raw.  Its fields:
 *   @ref      one reference for the open file and one for each pipe
 *             buffer that holds one of its pages (tee() duplicates
 *             take one more through rt_raw_buf_get()); the last put
 *             frees the pool and the pages it holds.
 *   @free     pages ready for reuse, each linked through an llist_node
 *             stored in its own first bytes (a free page's content is
 *             dead).  Pushed by rt_raw_pool_recycle(), from a pipe
 *             buffer's release in any context or from the file's
 *             splice() with the pages it did not use (llist_add() is
 *             safe for many producers); popped only by that splice(),
 *             under the file's reader lock: one consumer, which is what
 *             llist_del_first() needs.
 *   @nr_free  pages on @free, bounded by RT_RAW_POOL_MAX; a page
 *             released beyond it goes back to the page allocator.
 *   @closed   set once by rt_raw_pool_close() when the file goes; the
 *             pages released after it (read without a lock: one that
 *             slips in just before waits for the last put) are freed.
 *
 * A page is recycled only when the pipe buffer held its last
 * reference.  Someone else holding one (a socket that took the page
 * from the pipe without copying it) keeps the page; ours is dropped and
 * the page is freed with theirs, never reused under them.
 */
#include <linux/llist.h>
#include <linux/mm.h>
#include <linux/pipe_fs_i.h>
#include <linux/refcount.h>
#include <linux/slab.h>
#include "internal.h"

/* Free pages a pool keeps: two default pipes' worth. */
#define RT_RAW_POOL_MAX	32

struct rt_raw_pool {
	refcount_t		ref;
	struct llist_head	free;
	atomic_t		nr_free;
	bool			closed;
};

static void rt_raw_pool_free_pages(struct rt_raw_pool *pool)
{
	struct llist_node *n, *next;

	llist_for_each_safe(n, next, llist_del_all(&pool->free))
		__free_page(virt_to_page(n));
}

/**
 * rt_raw_pool_new - an empty pool for one open trace_pipe_raw
 *
 * Return: the pool, holding the opener's reference, or NULL.
 */
struct rt_raw_pool *rt_raw_pool_new(void)
{
	struct rt_raw_pool *pool = kzalloc(sizeof(*pool), GFP_KERNEL);

	if (pool) {
		refcount_set(&pool->ref, 1);
		init_llist_head(&pool->free);
	}
	return pool;
}

/**
 * rt_raw_pool_put - drop a reference; the last frees the pool
 * @pool: the pool, or NULL
 *
 * The opener calls it at release; pipe buffers through their release.
 */
void rt_raw_pool_put(struct rt_raw_pool *pool)
{
	if (!pool || !refcount_dec_and_test(&pool->ref))
		return;
	rt_raw_pool_free_pages(pool);
	kfree(pool);
}

/**
 * rt_raw_pool_close - the file is going: free its spare pages
 * @pool: the pool, or NULL
 *
 * Drops the opener's reference.  Pages still in pipes come back to
 * the page allocator from now on, not to the pool.
 */
void rt_raw_pool_close(struct rt_raw_pool *pool)
{
	if (!pool)
		return;
	WRITE_ONCE(pool->closed, true);
	/* llist_del_all() is safe against concurrent llist_add()s. */
	rt_raw_pool_free_pages(pool);
	rt_raw_pool_put(pool);
}

/**
 * rt_raw_pool_get_page - a free page of the pool
 * @pool: the pool
 *
 * Only the pool's owner calls it, serialised (one llist consumer).
 *
 * Return: a page whose content is undefined, or NULL when none is free.
 */
struct page *rt_raw_pool_get_page(struct rt_raw_pool *pool)
{
	struct llist_node *n = llist_del_first(&pool->free);

	if (!n)
		return NULL;
	atomic_dec(&pool->nr_free);
	return virt_to_page(n);
}

/**
 * rt_raw_pool_recycle - give a page back to the pool
 * @pool: the pool
 * @page: a page holding the caller's reference
 *
 * The page is kept for reuse if that reference is its last and the
 * pool has room, else the reference is dropped.  Any context.
 */
void rt_raw_pool_recycle(struct rt_raw_pool *pool, struct page *page)
{
	if (page_ref_count(page) == 1 && !READ_ONCE(pool->closed)) {
		if (atomic_inc_return(&pool->nr_free) <= RT_RAW_POOL_MAX) {
			llist_add(page_address(page), &pool->free);
			return;
		}
		atomic_dec(&pool->nr_free);
	}
	put_page(page);
}

/* A pipe buffer of ours is consumed: its page and its pool ref return. */
static void rt_raw_buf_release(struct pipe_inode_info *pipe,
			       struct pipe_buffer *buf)
{
	struct rt_raw_pool *pool = (struct rt_raw_pool *)buf->private;

	rt_raw_pool_recycle(pool, buf->page);
	rt_raw_pool_put(pool);
}

/* tee(): a second pipe buffer of the same page, with its own pool ref. */
static bool rt_raw_buf_get(struct pipe_inode_info *pipe,
			   struct pipe_buffer *buf)
{
	struct rt_raw_pool *pool = (struct rt_raw_pool *)buf->private;

	if (!try_get_page(buf->page))
		return false;
	refcount_inc(&pool->ref);
	return true;
}

/* No try_steal: a page that left us could not come back. */
static const struct pipe_buf_operations rt_raw_buf_ops = {
	.release	= rt_raw_buf_release,
	.get		= rt_raw_buf_get,
};

/**
 * rt_raw_pool_to_pipe - hand a packed page to a pipe
 * @pool: the pool it returns to
 * @pipe: the pipe, locked by the caller, with a free slot
 * @page: the page; the pipe buffer takes over the caller's reference
 * @len: bytes of it to hand out
 */
void rt_raw_pool_to_pipe(struct rt_raw_pool *pool,
			 struct pipe_inode_info *pipe, struct page *page,
			 unsigned int len)
{
	refcount_inc(&pool->ref);
	*pipe_head_buf(pipe) = (struct pipe_buffer) {
		.ops		= &rt_raw_buf_ops,
		.page		= page,
		.len		= len,
		.private	= (unsigned long)pool,
	};
	pipe->head++;
}
