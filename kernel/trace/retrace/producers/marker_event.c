// SPDX-License-Identifier: GPL-2.0
/*
 * Markers as events: every marker name with a site in the kernel or a
 * loaded module is events/markers/<name>/, with one field per
 * conversion of its format (mark_format.c).  Enabling the event
 * connects rt_mark_probe() to the name and arms it; each hit is one
 * record.  The list of every marker name is available_markers.
 *
 * Events follow the marker notifier: a name's event is added when its
 * first site loads, and removed, disabled first if need be, before its
 * last site goes.  Between the two steps ->going makes enabling fail,
 * so the removal cannot find the event enabled again.
 *
 * Locks, outermost first: the marker notifier's mutex (held while our
 * notifier runs), the event layer's locks (->set_enabled runs under
 * them), rt_mark_lock (our list), the marker registry's mutex.
 */
#define pr_fmt(fmt) "retrace: " fmt

#include <linux/tracefs.h>
#include <linux/marker.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <trace/retrace/core.h>
#include <trace/retrace/event.h>
#include <trace/retrace/mark_format.h>

#define RT_MARK_MAX_STRING	256	/* bytes of a %s argument, NUL included */

/**
 * struct rt_mark_event - one marker name's event
 * @ev: the event
 * @name: the marker's name (our copy: a module's may go first)
 * @format: its format, as the first loaded site gave it
 * @fmt: @format parsed
 * @fields: @ev's fields, one per conversion
 * @fixed_len: record bytes before the strings
 * @print_fmt: the format file's print fmt
 * @going: its last site is going; enabling fails (read under the
 *	event lock, written before rt_event_disable())
 * @list: on rt_mark_events, under rt_mark_lock
 */
struct rt_mark_event {
	struct rt_event		ev;
	char			*name;
	char			*format;
	struct rt_mark_format	fmt;
	struct rt_event_field	fields[RT_MARK_MAX_FIELDS];
	unsigned int		fixed_len;
	char			*print_fmt;
	bool			going;
	struct list_head	list;
};

static LIST_HEAD(rt_mark_events);
static DEFINE_MUTEX(rt_mark_lock);

/* ---- the hit path -------------------------------------------------------- */

static void rt_mark_store_str(u8 *rec, unsigned int *len, unsigned int off,
			      const char *str)
{
	unsigned int room = min_t(unsigned int, RT_MARK_MAX_STRING,
				  RT_EVENT_MAX_RECORD - *len);
	long n = 0;
	u32 loc;

	if (!str)
		str = "(null)";
	if (room > 1)
		n = strncpy_from_kernel_nofault((char *)rec + *len, str, room);
	if (n > 0) {
		rec[*len + n - 1] = '\0';	/* cut at room bytes */
		loc = (u32)n << 16 | *len;
		*len += n;
	} else {
		loc = *len;	/* empty: prints as (fault) */
	}
	memcpy(rec + off, &loc, sizeof(loc));
}

/*
 * Registered with the site's format, so only sites with that format
 * call it and @args hold what mark_format.c says.  marker_probe_cb()
 * disabled preemption: the record shows the count the site ran with.
 */
static void rt_mark_probe(void *probe_private, void *call_private,
			  const char *fmt, va_list *args)
{
	struct rt_mark_event *me = probe_private;
	unsigned long pc = preempt_count() -
			   (IS_ENABLED(CONFIG_PREEMPT_COUNT) ? 1 : 0);
	const struct rt_mark_field *f;
	unsigned int i, len, off;
	u64 v;
	u8 *rec;

	rec = rt_event_open(pc);
	if (!rec)
		return;
	off = sizeof(struct rt_entry);
	memset(rec + off, 0, me->fixed_len - off);
	len = me->fixed_len;
	for (i = 0; i < me->fmt.nr; i++) {
		f = &me->fmt.f[i];
		off = me->fields[i].offset;
		switch (f->arg) {
		case RT_MARK_INT:
			v = (s64)va_arg(*args, int);
			break;
		case RT_MARK_UINT:
			v = va_arg(*args, unsigned int);
			break;
		case RT_MARK_LONG:
		case RT_MARK_ULONG:
			v = va_arg(*args, unsigned long);
			break;
		case RT_MARK_LLONG:
		case RT_MARK_ULLONG:
			v = va_arg(*args, unsigned long long);
			break;
		case RT_MARK_SIZE:
			v = va_arg(*args, size_t);
			break;
		case RT_MARK_PTRDIFF:
			v = va_arg(*args, ptrdiff_t);
			break;
		case RT_MARK_PTR:
			v = (unsigned long)va_arg(*args, void *);
			break;
		default:	/* RT_MARK_STR */
			rt_mark_store_str(rec, &len, off,
					  va_arg(*args, const char *));
			continue;
		}
		memcpy(rec + off, &v, f->size);	/* little endian */
	}
	rt_event_close(&me->ev, rec, len, pc);
}

/* ---- printing ------------------------------------------------------------ */

/* Literal text of the format, with "%%" as '%'. */
static void rt_mark_print_lit(struct seq_buf *s, const char *p, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		seq_buf_putc(s, p[i]);
		if (p[i] == '%' && i + 1 < n && p[i + 1] == '%')
			i++;
	}
}

static void rt_mark_print_field(struct seq_buf *s, const char *spec,
				const struct rt_mark_field *f,
				const struct rt_event_field *ef,
				const u8 *rec, unsigned int len)
{
	const char *str;
	u64 v;

	if (f->arg == RT_MARK_STR) {
		str = rt_field_string(rec, len, ef->offset);
		seq_buf_printf(s, spec, str ? str : "(fault)");
		return;
	}
	v = rt_field_value(rec + ef->offset, ef->size, ef->is_signed);
	switch (f->arg) {
	case RT_MARK_INT:
		seq_buf_printf(s, spec, (int)v);
		break;
	case RT_MARK_UINT:
		seq_buf_printf(s, spec, (unsigned int)v);
		break;
	case RT_MARK_LONG:
	case RT_MARK_ULONG:
		seq_buf_printf(s, spec, (unsigned long)v);
		break;
	case RT_MARK_LLONG:
	case RT_MARK_ULLONG:
		seq_buf_printf(s, spec, (unsigned long long)v);
		break;
	case RT_MARK_SIZE:
		seq_buf_printf(s, spec, (size_t)v);
		break;
	case RT_MARK_PTRDIFF:
		seq_buf_printf(s, spec, (ptrdiff_t)v);
		break;
	default:	/* RT_MARK_PTR: %p, %px, %pS, %ps, %pB read no memory */
		seq_buf_printf(s, spec, (void *)(unsigned long)v);
		break;
	}
}

/* "name: " is the event layer's; then the format with the values. */
static void rt_mark_print(struct rt_print_ctx *ctx)
{
	struct rt_event *ev = container_of(ctx->et, struct rt_event, type);
	struct rt_mark_event *me = container_of(ev, struct rt_mark_event, ev);
	const u8 *rec = (const u8 *)ctx->ent;
	const struct rt_mark_field *f;
	unsigned int i, lit = 0;
	char spec[24];

	if (ctx->len < me->fixed_len) {
		seq_buf_puts(ctx->s, "(truncated record)");
		return;
	}
	for (i = 0; i < me->fmt.nr; i++) {
		f = &me->fmt.f[i];
		rt_mark_print_lit(ctx->s, me->format + lit, f->spec - lit);
		lit = f->spec + f->spec_len;
		/* A conversion too long to copy prints plainly. */
		if (f->spec_len < sizeof(spec)) {
			memcpy(spec, me->format + f->spec, f->spec_len);
			spec[f->spec_len] = '\0';
		} else {
			strscpy(spec, f->arg == RT_MARK_STR ? "%s" :
				f->arg == RT_MARK_PTR ? "%p" :
				f->is_signed ? "%lld" : "%llu", sizeof(spec));
			if (f->arg != RT_MARK_STR && f->arg != RT_MARK_PTR) {
				seq_buf_printf(ctx->s, spec,
					       rt_field_value(rec + me->fields[i].offset,
							      me->fields[i].size,
							      f->is_signed));
				continue;
			}
		}
		rt_mark_print_field(ctx->s, spec, f, &me->fields[i], rec,
				    ctx->len);
	}
	rt_mark_print_lit(ctx->s, me->format + lit, strlen(me->format) - lit);
}

/* ---- enabling ------------------------------------------------------------ */

static int rt_mark_set_enabled(struct rt_event *ev, bool on)
{
	struct rt_mark_event *me = container_of(ev, struct rt_mark_event, ev);
	int ret;

	if (!on) {
		/* -EALREADY only if our probe was never connected. */
		marker_disarm(me->name);
		marker_probe_unregister(me->name, rt_mark_probe, me);
		return 0;
	}
	if (READ_ONCE(me->going))
		return -ENODEV;
	ret = marker_probe_register(me->name, me->format, rt_mark_probe, me);
	if (ret)
		return ret;
	ret = marker_arm(me->name);
	if (ret)
		marker_probe_unregister(me->name, rt_mark_probe, me);
	return ret;
}

/* ---- adding and removing ------------------------------------------------- */

static void rt_mark_free(struct rt_mark_event *me)
{
	kfree(me->print_fmt);
	kfree(me->format);
	kfree(me->name);
	kfree(me);
}

/*
 * Fields at their natural alignment after the common header; a string
 * keeps a u32 locator there and its bytes after the fixed part.  The
 * print fmt is the marker's format with one REC-> per conversion.
 */
static int rt_mark_layout(struct rt_mark_event *me)
{
	unsigned int off = sizeof(struct rt_entry), i, n = 0;
	size_t size = 2 * strlen(me->format) + 16;
	const struct rt_mark_field *f;
	const char *c;
	char *p;

	for (i = 0; i < me->fmt.nr; i++) {
		f = &me->fmt.f[i];
		off = ALIGN(off, f->size);
		me->fields[i] = (struct rt_event_field){ f->type, f->name, off,
			f->size, f->is_signed,
			f->arg == RT_MARK_STR ? RT_FIELD_STRING : RT_FIELD_INT };
		off += f->size;
		size += strlen(f->name) + 16;
	}
	me->fixed_len = ALIGN(off, sizeof(u32));
	if (me->fixed_len > RT_EVENT_MAX_RECORD)
		return -E2BIG;
	p = me->print_fmt = kmalloc(size, GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	p[n++] = '"';
	for (c = me->format; *c; c++) {
		if (*c == '"' || *c == '\\')
			p[n++] = '\\';
		p[n++] = *c;
	}
	p[n++] = '"';
	for (i = 0; i < me->fmt.nr; i++)
		n += sprintf(p + n, me->fmt.f[i].arg == RT_MARK_STR ?
			     ", __get_str(%s)" : ", REC->%s",
			     me->fmt.f[i].name);
	p[n] = '\0';
	return 0;
}

static struct rt_mark_event *rt_mark_find(const char *name)
{
	struct rt_mark_event *me;

	lockdep_assert_held(&rt_mark_lock);
	list_for_each_entry(me, &rt_mark_events, list)
		if (!strcmp(me->name, name))
			return me;
	return NULL;
}

static void rt_mark_add(const struct marker *m)
{
	struct rt_mark_event *me;
	unsigned int pos;
	int ret = -ENOMEM;

	me = kzalloc(sizeof(*me), GFP_KERNEL);
	if (!me)
		goto fail;
	me->name = kstrdup(m->name, GFP_KERNEL);
	me->format = kstrdup(m->format, GFP_KERNEL);
	if (!me->name || !me->format)
		goto fail;
	ret = rt_mark_format_parse(me->format, &me->fmt, &pos);
	if (ret) {
		pr_info("marker %s: no event, format \"%s\" refused at offset %u (%d)\n",
			m->name, m->format, pos, ret);
		rt_mark_free(me);
		return;
	}
	ret = rt_mark_layout(me);
	if (ret)
		goto fail;
	me->ev = (struct rt_event){
		.system = "markers", .name = me->name,
		.fields = me->fields, .nr_fields = me->fmt.nr,
		.print_fmt = me->print_fmt, .print = rt_mark_print,
		.set_enabled = rt_mark_set_enabled, .data = me,
		/* Its last site may leave with a module at any time. */
		.may_vanish = true,
	};
	ret = rt_event_add(&me->ev);
	if (ret)
		goto fail;
	mutex_lock(&rt_mark_lock);
	list_add_tail(&me->list, &rt_mark_events);
	mutex_unlock(&rt_mark_lock);
	return;
fail:
	pr_warn("marker %s: cannot add its event: %d\n", m->name, ret);
	if (me)
		rt_mark_free(me);
}

static void rt_mark_remove(const struct marker *m)
{
	struct rt_mark_event *me;
	int ret;

	mutex_lock(&rt_mark_lock);
	me = rt_mark_find(m->name);
	if (me) {
		list_del(&me->list);
		WRITE_ONCE(me->going, true);
	}
	mutex_unlock(&rt_mark_lock);
	if (!me)
		return;
	rt_event_disable(&me->ev);
	ret = rt_event_remove(&me->ev);
	if (WARN_ON_ONCE(ret))
		return;		/* leak rather than free what is in use */
	marker_synchronize_unregister();	/* rt_mark_probe() is done */
	rt_mark_free(me);
}

static int rt_mark_notify(struct notifier_block *nb, unsigned long val,
			  void *data)
{
	if (val == MARKER_NAME_ADDED)
		rt_mark_add(data);
	else if (val == MARKER_NAME_REMOVED)
		rt_mark_remove(data);
	return NOTIFY_DONE;
}

static struct notifier_block rt_mark_nb = {
	.notifier_call = rt_mark_notify,
};

/* ---- available_markers --------------------------------------------------- */

static int rt_mark_show_one(const struct marker_info *info, void *data)
{
	struct seq_file *m = data;

	seq_printf(m, "%s \"%s\" armed=%u probes=%u sites=%u", info->name,
		   info->format ? info->format : "", info->armed,
		   info->nr_probes, info->nr_sites);
	if (info->nr_mismatch)
		seq_printf(m, " mismatch=%u", info->nr_mismatch);
	seq_putc(m, '\n');
	return 0;
}

static int rt_mark_list_show(struct seq_file *m, void *v)
{
	return marker_for_each(rt_mark_show_one, m);
}
DEFINE_SHOW_ATTRIBUTE(rt_mark_list);

static struct rt_readme_part rt_mark_readme = {
	.text = "  available_markers    each marker: name \"format\" armed= probes= sites=\n"
		"  events/markers/      one event per marker name\n",
};

static int __init rt_mark_init(void)
{
	int ret;

	tracefs_create_file("available_markers", 0444, rt_tracing_dir(), NULL,
			    &rt_mark_list_fops);
	rt_readme_add(&rt_mark_readme);
	ret = marker_notifier_register(&rt_mark_nb);
	if (ret)
		pr_warn("markers: no events: %d\n", ret);
	return 0;
}
device_initcall(rt_mark_init);
