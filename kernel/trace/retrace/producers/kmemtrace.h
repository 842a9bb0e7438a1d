/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmemtrace: allocator events in the binary layout its readers know
 * (Documentation/trace/retrace-kmemtrace.txt), shared by the files of
 * the producer (kmemtrace.c, kmemtrace_chan.c, kmemtrace_site.c,
 * kmemtrace_event.c) and nobody else.
 */
#ifndef _RETRACE_PRODUCERS_KMEMTRACE_H
#define _RETRACE_PRODUCERS_KMEMTRACE_H

#include <linux/compiler.h>
#include <linux/limits.h>
#include <linux/types.h>

struct dentry;

/*
 * The version abi_version shows.  Anything a reader could notice (a new
 * event or type id, a field, a feature trailer) adds one; see
 * Documentation/trace/retrace-kmemtrace.txt.
 */
#define RT_KMT_ABI_VERSION	1

enum rt_kmt_event_id {
	RT_KMT_EV_ALLOC	= 0,
	RT_KMT_EV_FREE	= 1,
};

enum rt_kmt_type_id {
	RT_KMT_TYPE_KMALLOC	= 0,	/* kmalloc() and kfree() */
	RT_KMT_TYPE_CACHE	= 1,	/* kmem_cache_alloc() and _free() */
	RT_KMT_TYPE_PAGES	= 2,	/* the page allocator */
};

/* What every record starts with; event_size counts the whole record. */
struct rt_kmt_core {
	u8	event_id;
	u8	type_id;
	u16	event_size;
	s32	seq;
	u64	call_site;
	u64	ptr;
} __packed;

/* An allocation: the core, then what was asked for and what was given. */
struct rt_kmt_alloc {
	struct rt_kmt_core core;
	u64	bytes_req;
	u64	bytes_alloc;
	u32	gfp_flags;
	s32	target;		/* node asked for; -1: any (the caller's) */
} __packed;

/* The largest record this kernel writes; read() sizes its check on it. */
#define RT_KMT_MAX_RECORD	sizeof(struct rt_kmt_alloc)

/* kmemtrace_chan.c: the cpu<n> channels, through a retrace ring buffer */
void rt_kmt_chan_init(void);
int rt_kmt_chan_start(void);
void rt_kmt_chan_files(struct dentry *dir);
void rt_kmt_chan_write(const void *rec, unsigned int len);
int rt_kmt_chan_resize(unsigned long kb);
unsigned long rt_kmt_chan_size_kb(void);

/* kmemtrace_site.c: the allocator's caller, past the allocator's own */
void rt_kmt_site_init(void);
bool rt_kmt_site_inner_kmalloc(unsigned long ip);
bool rt_kmt_site_in_allocator(unsigned long ip);
unsigned long rt_kmt_site_caller(bool pages);
#define RT_KMT_SITE_DROP	ULONG_MAX	/* the record is another's */

/* kmemtrace_event.c: events/kmemtrace/{alloc,free} */
int rt_kmt_event_init(void);
bool rt_kmt_event_on(bool alloc);
void rt_kmt_event_record(const struct rt_kmt_alloc *r, unsigned long pc);

/* kmemtrace.c: who wants the allocator's tracepoints */
enum rt_kmt_user {
	RT_KMT_USER_CHAN	= 1 << 0,
	RT_KMT_USER_ALLOC_EV	= 1 << 1,
	RT_KMT_USER_FREE_EV	= 1 << 2,
};
int rt_kmt_get(enum rt_kmt_user who);
ssize_t rt_kmt_read_num(char __user *ubuf, size_t count, loff_t *ppos,
			u64 v);
void rt_kmt_put(enum rt_kmt_user who);

#endif /* _RETRACE_PRODUCERS_KMEMTRACE_H */
