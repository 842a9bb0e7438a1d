// SPDX-License-Identifier: GPL-2.0
/*
 * kmemtrace's records in the text trace: events/kmemtrace/alloc and
 * events/kmemtrace/free, with the ABI record's fields (and the same
 * sequence number, so a line of trace and a record of cpu<n> can be
 * matched).  They go through the event layer like any event: format,
 * id, enable, and a filter on any field.
 */
#include <linux/kallsyms.h>
#include <linux/seq_buf.h>
#include <trace/retrace/event.h>
#include "kmemtrace.h"

/* An alloc or free record in the trace buffer (free leaves the sizes 0). */
struct rt_kmt_ev_rec {
	struct rt_entry	ent;
	u64		call_site;
	u64		ptr;
	u64		bytes_req;
	u64		bytes_alloc;
	u32		gfp_flags;
	s32		node;
	s32		seq;
	u8		type_id;
	u8		pad[3];
};

#define RT_KMT_FIELD(t, f, sgn) { t, #f, offsetof(struct rt_kmt_ev_rec, f), \
	sizeof_field(struct rt_kmt_ev_rec, f), sgn, RT_FIELD_INT }

static const struct rt_event_field rt_kmt_alloc_fields[] = {
	RT_KMT_FIELD("unsigned long", call_site, 0),
	RT_KMT_FIELD("unsigned long", ptr, 0),
	RT_KMT_FIELD("u64", bytes_req, 0),
	RT_KMT_FIELD("u64", bytes_alloc, 0),
	RT_KMT_FIELD("u32", gfp_flags, 0),
	RT_KMT_FIELD("int", node, 1),
	RT_KMT_FIELD("int", seq, 1),
	RT_KMT_FIELD("u8", type_id, 0),
};

/* The free record is the alloc record's prefix plus seq and type_id. */
static const struct rt_event_field rt_kmt_free_fields[] = {
	RT_KMT_FIELD("unsigned long", call_site, 0),
	RT_KMT_FIELD("unsigned long", ptr, 0),
	RT_KMT_FIELD("int", seq, 1),
	RT_KMT_FIELD("u8", type_id, 0),
};

static const char *const rt_kmt_type_names[] = {
	[RT_KMT_TYPE_KMALLOC]	= "kmalloc",
	[RT_KMT_TYPE_CACHE]	= "kmem_cache",
	[RT_KMT_TYPE_PAGES]	= "pages",
};

static const char *rt_kmt_type_name(u8 type)
{
	return type < ARRAY_SIZE(rt_kmt_type_names) ?
	       rt_kmt_type_names[type] : "?";
}

static struct rt_event rt_kmt_alloc_event;

static void rt_kmt_print(struct rt_print_ctx *ctx)
{
	const struct rt_kmt_ev_rec *r = (const void *)ctx->ent;
	bool alloc = ctx->et == &rt_kmt_alloc_event.type;

	if (ctx->len < offsetof(struct rt_kmt_ev_rec, pad)) {
		seq_buf_puts(ctx->s, "(truncated record)");
		return;
	}
	seq_buf_printf(ctx->s, "type=%s call_site=%pS ptr=0x%llx",
		       rt_kmt_type_name(r->type_id), (void *)r->call_site,
		       r->ptr);
	if (alloc)
		seq_buf_printf(ctx->s,
			       " bytes_req=%llu bytes_alloc=%llu gfp_flags=0x%x node=%d",
			       r->bytes_req, r->bytes_alloc, r->gfp_flags,
			       r->node);
	seq_buf_printf(ctx->s, " seq=%d", r->seq);
}

/* Each event is one user of the tracepoints; ->data is its bit. */
static int rt_kmt_event_set(struct rt_event *ev, bool on)
{
	enum rt_kmt_user who = (unsigned long)ev->data;

	if (!on) {
		rt_kmt_put(who);
		return 0;
	}
	return rt_kmt_get(who);
}

static struct rt_event rt_kmt_alloc_event = {
	.system		= "kmemtrace",
	.name		= "alloc",
	.fields		= rt_kmt_alloc_fields,
	.nr_fields	= ARRAY_SIZE(rt_kmt_alloc_fields),
	.print_fmt	= "\"type=%u call_site=%lx ptr=%lx bytes_req=%llu bytes_alloc=%llu gfp_flags=0x%x node=%d seq=%d\", REC->type_id, REC->call_site, REC->ptr, REC->bytes_req, REC->bytes_alloc, REC->gfp_flags, REC->node, REC->seq",
	.print		= rt_kmt_print,
	.set_enabled	= rt_kmt_event_set,
	.data		= (void *)RT_KMT_USER_ALLOC_EV,
};

static struct rt_event rt_kmt_free_event = {
	.system		= "kmemtrace",
	.name		= "free",
	.fields		= rt_kmt_free_fields,
	.nr_fields	= ARRAY_SIZE(rt_kmt_free_fields),
	.print_fmt	= "\"type=%u call_site=%lx ptr=%lx seq=%d\", REC->type_id, REC->call_site, REC->ptr, REC->seq",
	.print		= rt_kmt_print,
	.set_enabled	= rt_kmt_event_set,
	.data		= (void *)RT_KMT_USER_FREE_EV,
};

/**
 * rt_kmt_event_on - is the alloc (or the free) event enabled
 * @alloc: which of the two
 */
bool rt_kmt_event_on(bool alloc)
{
	return rt_event_enabled(alloc ? &rt_kmt_alloc_event :
					&rt_kmt_free_event);
}

/**
 * rt_kmt_event_record - one ABI record as an event in the trace buffer
 * @r: the record (a free record's alloc part is not read)
 * @pc: the preemption count the allocator ran with
 *
 * Called with preemption disabled, when the record's event is enabled.
 */
void rt_kmt_event_record(const struct rt_kmt_alloc *r, unsigned long pc)
{
	bool alloc = r->core.event_id == RT_KMT_EV_ALLOC;
	struct rt_kmt_ev_rec *rec;

	rec = rt_event_open(pc);
	if (!rec)
		return;
	rec->call_site = r->core.call_site;
	rec->ptr = r->core.ptr;
	rec->bytes_req = alloc ? r->bytes_req : 0;
	rec->bytes_alloc = alloc ? r->bytes_alloc : 0;
	rec->gfp_flags = alloc ? r->gfp_flags : 0;
	rec->node = alloc ? r->target : -1;
	rec->seq = r->core.seq;
	rec->type_id = r->core.type_id;
	memset(rec->pad, 0, sizeof(rec->pad));
	rt_event_close(alloc ? &rt_kmt_alloc_event : &rt_kmt_free_event, rec,
		       sizeof(*rec), pc);
}

/**
 * rt_kmt_event_init - add events/kmemtrace/
 *
 * Return: 0 or the event layer's errno.
 */
int rt_kmt_event_init(void)
{
	int ret = rt_event_add(&rt_kmt_alloc_event);

	if (ret)
		return ret;
	ret = rt_event_add(&rt_kmt_free_event);
	if (ret)
		rt_event_remove(&rt_kmt_alloc_event);
	return ret;
}
