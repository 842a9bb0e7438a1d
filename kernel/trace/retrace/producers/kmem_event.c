// SPDX-License-Identifier: GPL-2.0
/*
 * Slab allocations as events: events/kmem/kmalloc, kmem_cache_alloc,
 * kfree and kmem_cache_free, from the kernel's kmem tracepoints, with
 * upstream's fields and print formats.
 *
 * Unlike kmemtrace (kmemtrace.c), which resolves the real caller of an
 * allocator helper and writes its own binary ABI, these record what the
 * tracepoint passes: call_site is the return address the allocator was
 * given, as upstream's events show it, and filters may test it with
 * call_site.function.  The probes run inside the allocator, in any
 * context an allocation may happen in (interrupts, NMI-free atomic
 * sections); each copies a few fields into the event layer's scratch
 * record.  No lock, no allocation, no sleep.
 */
#include <linux/gfp.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <trace/events/kmem.h>
#include <trace/retrace/event.h>
#include <slab.h>	/* mm/slab.h: struct kmem_cache (see the Makefile) */

/* Bytes of a cache's name kept in a record, NUL included. */
#define RT_KMEM_NAME_MAX	64

/* kmalloc and kmem_cache_alloc; kmalloc's record ends before accounted. */
struct rt_kmem_alloc_rec {
	struct rt_entry	ent;
	unsigned long	call_site;
	unsigned long	ptr;
	size_t		bytes_req;
	size_t		bytes_alloc;
	unsigned long	gfp_flags;
	s32		node;
	u8		accounted;
};

/* kfree, and the start of kmem_cache_free's. */
struct rt_kmem_free_rec {
	struct rt_entry	ent;
	unsigned long	call_site;
	unsigned long	ptr;
};

struct rt_kmem_cache_free_rec {
	struct rt_entry	ent;
	unsigned long	call_site;
	unsigned long	ptr;
	u32		name;	/* RT_FIELD_STRING locator */
	char		name_buf[RT_KMEM_NAME_MAX];
};

/* kmalloc's fields are the first six: it has no accounted field. */
static const struct rt_event_field rt_kmem_alloc_fields[] = {
	RT_EVENT_INT_FIELD("unsigned long", "call_site", rt_kmem_alloc_rec,
			   call_site, 0),
	RT_EVENT_INT_FIELD("const void *", "ptr", rt_kmem_alloc_rec, ptr, 0),
	RT_EVENT_INT_FIELD("size_t", "bytes_req", rt_kmem_alloc_rec,
			   bytes_req, 0),
	RT_EVENT_INT_FIELD("size_t", "bytes_alloc", rt_kmem_alloc_rec,
			   bytes_alloc, 0),
	RT_EVENT_INT_FIELD("unsigned long", "gfp_flags", rt_kmem_alloc_rec,
			   gfp_flags, 0),
	RT_EVENT_INT_FIELD("int", "node", rt_kmem_alloc_rec, node, 1),
	RT_EVENT_INT_FIELD("bool", "accounted", rt_kmem_alloc_rec,
			   accounted, 0),
};

static const struct rt_event_field rt_kfree_fields[] = {
	RT_EVENT_INT_FIELD("unsigned long", "call_site", rt_kmem_free_rec,
			   call_site, 0),
	RT_EVENT_INT_FIELD("const void *", "ptr", rt_kmem_free_rec, ptr, 0),
};

static const struct rt_event_field rt_kmem_cache_free_fields[] = {
	RT_EVENT_INT_FIELD("unsigned long", "call_site",
			   rt_kmem_cache_free_rec, call_site, 0),
	RT_EVENT_INT_FIELD("const void *", "ptr", rt_kmem_cache_free_rec,
			   ptr, 0),
	{ "__data_loc char[]", "name",
	  offsetof(struct rt_kmem_cache_free_rec, name),
	  sizeof_field(struct rt_kmem_cache_free_rec, name), 0,
	  RT_FIELD_STRING },
};

static struct rt_event rt_kmalloc_event, rt_kmem_cache_alloc_event,
	rt_kfree_event, rt_kmem_cache_free_event;

/* ---- probes -------------------------------------------------------------- */

static void notrace rt_kmem_alloc(struct rt_event *ev, unsigned long call_site,
				  const void *ptr, size_t req, size_t alloc,
				  gfp_t gfp, int node, bool accounted)
{
	unsigned long pc = rt_event_tp_pc();
	struct rt_kmem_alloc_rec *r = rt_event_open(pc);

	if (!r)
		return;
	r->call_site = call_site;
	r->ptr = (unsigned long)ptr;
	r->bytes_req = req;
	r->bytes_alloc = alloc;
	r->gfp_flags = (__force unsigned long)gfp;
	r->node = node;
	r->accounted = accounted;
	rt_event_close(ev, r, ev == &rt_kmalloc_event ?
		       offsetof(struct rt_kmem_alloc_rec, accounted) :
		       sizeof(*r), pc);
}

static void notrace rt_kmem_probe_kmalloc(void *data, unsigned long call_site,
					  const void *ptr, size_t req,
					  size_t alloc, gfp_t gfp, int node)
{
	rt_kmem_alloc(&rt_kmalloc_event, call_site, ptr, req, alloc, gfp,
		      node, false);
}

static void notrace rt_kmem_probe_cache_alloc(void *data,
					      unsigned long call_site,
					      const void *ptr,
					      struct kmem_cache *s, gfp_t gfp,
					      int node)
{
	/* Upstream's rule: charged to a memory cgroup by flag or cache. */
	bool accounted = IS_ENABLED(CONFIG_MEMCG) &&
			 ((gfp & __GFP_ACCOUNT) || (s->flags & SLAB_ACCOUNT));

	rt_kmem_alloc(&rt_kmem_cache_alloc_event, call_site, ptr,
		      s->object_size, s->size, gfp, node, accounted);
}

static void notrace rt_kmem_probe_kfree(void *data, unsigned long call_site,
					const void *ptr)
{
	unsigned long pc = rt_event_tp_pc();
	struct rt_kmem_free_rec *r = rt_event_open(pc);

	if (!r)
		return;
	r->call_site = call_site;
	r->ptr = (unsigned long)ptr;
	rt_event_close(&rt_kfree_event, r, sizeof(*r), pc);
}

static void notrace rt_kmem_probe_cache_free(void *data,
					     unsigned long call_site,
					     const void *ptr,
					     const struct kmem_cache *s)
{
	unsigned int start = offsetof(struct rt_kmem_cache_free_rec, name_buf);
	unsigned long pc = rt_event_tp_pc();
	struct rt_kmem_cache_free_rec *r = rt_event_open(pc);
	ssize_t n;

	if (!r)
		return;
	r->call_site = call_site;
	r->ptr = (unsigned long)ptr;
	n = strscpy(r->name_buf, s->name ? s->name : "", sizeof(r->name_buf));
	n = n < 0 ? sizeof(r->name_buf) : n + 1;	/* cut: strscpy ended it */
	r->name = (u32)n << 16 | start;
	rt_event_close(&rt_kmem_cache_free_event, r, start + n, pc);
}

/* ---- printing ------------------------------------------------------------ */

static const struct trace_print_flags rt_kmem_gfp_names[] = {
	__def_gfpflag_names __def_gfpflag_names_kasan,
};

/*
 * Upstream's show_gfp_flags(): "none", or the names whose every bit is
 * set, first match first, then any bits left in hex; the same table
 * as the print fmt's, so text and binary readers agree.
 */
static void rt_kmem_print_gfp(struct seq_buf *s, unsigned long flags)
{
	const char *sep = "";
	unsigned int i;

	if (!flags) {
		seq_buf_puts(s, "none");
		return;
	}
	for (i = 0; i < ARRAY_SIZE(rt_kmem_gfp_names) && flags; i++) {
		unsigned long mask = rt_kmem_gfp_names[i].mask;

		if (!mask || (flags & mask) != mask)
			continue;
		seq_buf_printf(s, "%s%s", sep, rt_kmem_gfp_names[i].name);
		flags &= ~mask;
		sep = "|";
	}
	if (flags)
		seq_buf_printf(s, "%s0x%lx", sep, flags);
}

static void rt_kmem_print_alloc(struct rt_print_ctx *ctx)
{
	const struct rt_kmem_alloc_rec *r = (const void *)ctx->ent;
	bool cache = ctx->et == &rt_kmem_cache_alloc_event.type;
	bool accounted;

	if (ctx->len < (cache ? sizeof(*r) :
			offsetof(struct rt_kmem_alloc_rec, accounted))) {
		seq_buf_puts(ctx->s, "(truncated record)");
		return;
	}
	accounted = cache ? r->accounted :
		    IS_ENABLED(CONFIG_MEMCG) &&
		    (r->gfp_flags & (__force unsigned long)__GFP_ACCOUNT);
	seq_buf_printf(ctx->s,
		       "call_site=%pS ptr=%p bytes_req=%zu bytes_alloc=%zu gfp_flags=",
		       (void *)r->call_site, (void *)r->ptr, r->bytes_req,
		       r->bytes_alloc);
	rt_kmem_print_gfp(ctx->s, r->gfp_flags);
	seq_buf_printf(ctx->s, " node=%d accounted=%s", r->node,
		       accounted ? "true" : "false");
}

static void rt_kmem_print_free(struct rt_print_ctx *ctx)
{
	const struct rt_kmem_cache_free_rec *r = (const void *)ctx->ent;
	const char *name;

	if (ctx->len < sizeof(struct rt_kmem_free_rec)) {
		seq_buf_puts(ctx->s, "(truncated record)");
		return;
	}
	seq_buf_printf(ctx->s, "call_site=%pS ptr=%p", (void *)r->call_site,
		       (void *)r->ptr);
	if (ctx->et != &rt_kmem_cache_free_event.type)
		return;
	name = ctx->len >= offsetof(struct rt_kmem_cache_free_rec, name_buf) ?
	       rt_field_string(ctx->ent, ctx->len,
			       offsetof(struct rt_kmem_cache_free_rec, name)) :
	       NULL;
	seq_buf_printf(ctx->s, " name=%s", name ? name : "(fault)");
}

/* ---- enabling ------------------------------------------------------------ */

static int rt_kmem_set(struct rt_event *ev, bool on)
{
	if (ev == &rt_kmalloc_event) {
		if (on)
			return register_trace_kmalloc(rt_kmem_probe_kmalloc,
						      NULL);
		unregister_trace_kmalloc(rt_kmem_probe_kmalloc, NULL);
	} else if (ev == &rt_kmem_cache_alloc_event) {
		if (on)
			return register_trace_kmem_cache_alloc(rt_kmem_probe_cache_alloc,
							       NULL);
		unregister_trace_kmem_cache_alloc(rt_kmem_probe_cache_alloc,
						  NULL);
	} else if (ev == &rt_kfree_event) {
		if (on)
			return register_trace_kfree(rt_kmem_probe_kfree, NULL);
		unregister_trace_kfree(rt_kmem_probe_kfree, NULL);
	} else {
		if (on)
			return register_trace_kmem_cache_free(rt_kmem_probe_cache_free,
							      NULL);
		unregister_trace_kmem_cache_free(rt_kmem_probe_cache_free,
						 NULL);
	}
	/* The events are static: a late probe call finds them. */
	return 0;
}

/*
 * The alloc events' print fmt names every gfp flag, as upstream's
 * show_gfp_flags() does, so it is written at boot from the kernel's own
 * table of names.
 */
#define RT_KMEM_FMT_MAX	4096
static char rt_kmalloc_fmt[RT_KMEM_FMT_MAX];
static char rt_kmem_cache_alloc_fmt[RT_KMEM_FMT_MAX];

static int rt_kmem_alloc_fmt(char *buf, bool cache)
{
	struct seq_buf s;
	unsigned int i;

	seq_buf_init(&s, buf, RT_KMEM_FMT_MAX);
	seq_buf_puts(&s, "\"call_site=%pS ptr=%p bytes_req=%zu bytes_alloc=%zu gfp_flags=%s node=%d accounted=%s\", (void *)REC->call_site, REC->ptr, REC->bytes_req, REC->bytes_alloc, (REC->gfp_flags) ? __print_flags(REC->gfp_flags, \"|\"");
	for (i = 0; i < ARRAY_SIZE(rt_kmem_gfp_names); i++)
		seq_buf_printf(&s, ", { 0x%lx, \"%s\" }",
			       rt_kmem_gfp_names[i].mask,
			       rt_kmem_gfp_names[i].name);
	seq_buf_puts(&s, ") : \"none\", REC->node, ");
	if (cache)
		seq_buf_puts(&s, "REC->accounted ? \"true\" : \"false\"");
	else
		seq_buf_printf(&s, "(%d && (REC->gfp_flags & 0x%lx)) ? \"true\" : \"false\"",
			       IS_ENABLED(CONFIG_MEMCG),
			       (__force unsigned long)__GFP_ACCOUNT);
	if (seq_buf_has_overflowed(&s))
		return -ENOSPC;
	seq_buf_str(&s);
	return 0;
}

#define RT_KMEM_EVENT(var, ename, flds, nr, fmt, printer)		\
static struct rt_event var = {						\
	.system		= "kmem",					\
	.name		= ename,					\
	.fields		= flds,						\
	.nr_fields	= nr,						\
	.print_fmt	= fmt,						\
	.print		= printer,					\
	.set_enabled	= rt_kmem_set,					\
}

RT_KMEM_EVENT(rt_kmalloc_event, "kmalloc", rt_kmem_alloc_fields,
	      ARRAY_SIZE(rt_kmem_alloc_fields) - 1, rt_kmalloc_fmt,
	      rt_kmem_print_alloc);
RT_KMEM_EVENT(rt_kmem_cache_alloc_event, "kmem_cache_alloc",
	      rt_kmem_alloc_fields, ARRAY_SIZE(rt_kmem_alloc_fields),
	      rt_kmem_cache_alloc_fmt, rt_kmem_print_alloc);
RT_KMEM_EVENT(rt_kfree_event, "kfree", rt_kfree_fields,
	      ARRAY_SIZE(rt_kfree_fields),
	      "\"call_site=%pS ptr=%p\", (void *)REC->call_site, REC->ptr",
	      rt_kmem_print_free);
RT_KMEM_EVENT(rt_kmem_cache_free_event, "kmem_cache_free",
	      rt_kmem_cache_free_fields, ARRAY_SIZE(rt_kmem_cache_free_fields),
	      "\"call_site=%pS ptr=%p name=%s\", (void *)REC->call_site, REC->ptr, __get_str(name)",
	      rt_kmem_print_free);

static int __init rt_kmem_events_init(void)
{
	struct rt_event *all[] = {
		&rt_kmalloc_event, &rt_kmem_cache_alloc_event,
		&rt_kfree_event, &rt_kmem_cache_free_event,
	};
	unsigned int i;
	int ret;

	if (WARN_ON(rt_kmem_alloc_fmt(rt_kmalloc_fmt, false) ||
		    rt_kmem_alloc_fmt(rt_kmem_cache_alloc_fmt, true)))
		return -ENOSPC;
	for (i = 0; i < ARRAY_SIZE(all); i++) {
		ret = rt_event_add(all[i]);
		if (ret)
			pr_warn("retrace: no event kmem/%s (%d)\n",
				all[i]->name, ret);
	}
	return 0;
}
device_initcall(rt_kmem_events_init);
