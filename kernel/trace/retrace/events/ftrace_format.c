// SPDX-License-Identifier: GPL-2.0
/*
 * What a binary reader (trace_pipe_raw, trace-cmd, libtraceevent) needs
 * to decode records: events/header_page and events/header_event, which
 * describe the page format of <trace/retrace/raw_page.h>, and
 * events/ftrace/<name>/{id,format} for the record types that are not
 * events: the core's own (trace_printk(), trace_marker, stacks) and
 * those tracers add with rt_event_format_add().
 *
 * The descriptions are static or live as long as the kernel (only
 * built-in code adds them, and none is removed), so their files need
 * no revocation: they are removed with the events/ directory.
 */
#define pr_fmt(fmt) "retrace: " fmt

#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/tracefs.h>
#include <trace/retrace/core.h>
#include <trace/retrace/event.h>
#include <trace/retrace/raw_page.h>
#include "internal.h"

/* The descriptions, in the order added; under rt_event_dir_lock. */
static LIST_HEAD(rt_event_formats);

const struct rt_event_field rt_print_fields[RT_PRINT_NR_FIELDS] = {
	RT_EVENT_INT_FIELD("unsigned long", "ip", rt_print_entry, ip, 0),
	{ "char", "buf", offsetof(struct rt_print_entry, buf), 0, 1,
	  RT_FIELD_TAIL },
};

/*
 * A stack record holds @size addresses; the format, like upstream's,
 * names the first eight, which is what its print fmt shows.
 */
static const struct rt_event_field rt_stack_fields[] = {
	RT_EVENT_INT_FIELD("int", "size", rt_stack_entry, nr, 1),
	{ "unsigned long", "caller[8]", offsetof(struct rt_stack_entry, ips),
	  8 * sizeof(unsigned long), 0, RT_FIELD_INT },
};

#define RT_STACK_FMT							\
	"\"\\t=> %ps\\n\\t=> %ps\\n\\t=> %ps\\n\\t=> %ps\\n"		\
	"\\t=> %ps\\n\\t=> %ps\\n\\t=> %ps\\n\\t=> %ps\\n\", "		\
	"(void *)REC->caller[0], (void *)REC->caller[1], "		\
	"(void *)REC->caller[2], (void *)REC->caller[3], "		\
	"(void *)REC->caller[4], (void *)REC->caller[5], "		\
	"(void *)REC->caller[6], (void *)REC->caller[7]"

static struct rt_event_format rt_core_formats[] = {
	{ .name = "print", .id = RT_TYPE_PRINT, .fields = rt_print_fields,
	  .nr_fields = ARRAY_SIZE(rt_print_fields),
	  .print_fmt = "\"%ps: %s\", (void *)REC->ip, REC->buf" },
	{ .name = "marker", .id = RT_TYPE_MARKER, .fields = rt_print_fields,
	  .nr_fields = ARRAY_SIZE(rt_print_fields),
	  .print_fmt = "\"tracing_mark_write: %s\", REC->buf" },
	{ .name = "kernel_stack", .id = RT_TYPE_KSTACK,
	  .fields = rt_stack_fields, .nr_fields = ARRAY_SIZE(rt_stack_fields),
	  .print_fmt = RT_STACK_FMT },
	{ .name = "user_stack", .id = RT_TYPE_USTACK,
	  .fields = rt_stack_fields, .nr_fields = ARRAY_SIZE(rt_stack_fields),
	  .print_fmt = RT_STACK_FMT },
};

static int rt_format_show(struct seq_file *m, void *v)
{
	const struct rt_event_format *fmt = m->private;

	rt_event_format_print(m, fmt->name, fmt->id, fmt->fields,
			      fmt->nr_fields, fmt->print_fmt);
	return 0;
}

static int rt_format_id_show(struct seq_file *m, void *v)
{
	const struct rt_event_format *fmt = m->private;

	seq_printf(m, "%u\n", fmt->id);
	return 0;
}

/*
 * The page header as a C struct would lay it out.  "overwrite" shares
 * the commit word's offset: readers take the flag bits from there.
 */
static int rt_header_page_show(struct seq_file *m, void *v)
{
	struct rt_event_dir *edir;
	unsigned int size;

	/* The data area follows the instance's buffer_subbuf_size_kb. */
	mutex_lock(&rt_event_lock);
	edir = rt_file_obj(m->file, &rt_event_lock);
	size = edir ? rt_raw_subbuf_size(edir->tr) : 0;
	mutex_unlock(&rt_event_lock);
	if (!size)
		return -ENODEV;
	seq_printf(m, "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		   "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
		   "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
		   "\tfield: char data;\toffset:%u;\tsize:%u;\tsigned:1;\n",
		   RT_RAW_HDR_SIZE, size - RT_RAW_HDR_SIZE);
	return 0;
}

static int rt_header_event_show(struct seq_file *m, void *v)
{
	seq_printf(m, "# compressed entry header\n"
		   "\ttype_len    :    %u bits\n"
		   "\ttime_delta  :   %u bits\n"
		   "\tarray       :   32 bits\n\n"
		   "\tpadding     : type == %u\n"
		   "\ttime_extend : type == %u\n"
		   "\ttime_stamp : type == %u\n"
		   "\tdata max type_len  == %u\n",
		   RT_RAW_TYPE_BITS, 32 - RT_RAW_TYPE_BITS,
		   RT_RAW_TYPE_PADDING, RT_RAW_TYPE_EXTEND, RT_RAW_TYPE_ABS,
		   RT_RAW_TYPE_MAX_SHORT);
	return 0;
}

RT_SEQ_FOPS(rt_format, NULL);
RT_SEQ_FOPS(rt_format_id, NULL);
RT_SEQ_FOPS(rt_header_page, NULL);
RT_SEQ_FOPS(rt_header_event, NULL);

static void rt_format_dir_create(struct rt_event_dir *edir,
				 struct rt_event_format *fmt)
{
	struct dentry *d = tracefs_create_dir(fmt->name, edir->ftrace_dir);

	if (IS_ERR_OR_NULL(d)) {
		pr_warn("no events/ftrace/%s\n", fmt->name);
		return;
	}
	tracefs_create_file("format", 0444, d, fmt, &rt_format_fops);
	tracefs_create_file("id", 0444, d, fmt, &rt_format_id_fops);
	/* Where upstream, and its tools, keep trace_marker's triggers. */
	if (fmt == &rt_core_formats[0] && !edir->print_file)
		rt_print_trigger_create(edir, d);
}

/**
 * rt_create_ftrace_files - make events/ftrace/, header_page, header_event
 * @edir: an instance's event directory, being made
 *
 * Under rt_event_dir_lock.  The files go with events/.
 *
 * Return: 0 or -ENOMEM.
 */
int rt_create_ftrace_files(struct rt_event_dir *edir)
{
	struct rt_event_format *fmt;

	lockdep_assert_held(&rt_event_dir_lock);
	edir->files[RT_EDIR_HEADER_PAGE] =
		tracefs_create_file("header_page", 0444, edir->dir, edir,
				    &rt_header_page_fops);
	tracefs_create_file("header_event", 0444, edir->dir, NULL,
			    &rt_header_event_fops);
	edir->ftrace_dir = tracefs_create_dir("ftrace", edir->dir);
	if (IS_ERR_OR_NULL(edir->ftrace_dir)) {
		edir->ftrace_dir = NULL;
		return -ENOMEM;
	}
	list_for_each_entry(fmt, &rt_event_formats, list)
		rt_format_dir_create(edir, fmt);
	return 0;
}

/**
 * rt_event_format_add - describe a record type under events/ftrace/
 * @fmt: the description, which must live as long as the kernel
 *
 * For built-in code (a tracer's records); process context, may sleep.
 * Every instance's events/ftrace/ gets @fmt->name/{id,format}, now and
 * when the instance is made.
 *
 * Return: 0, or -EEXIST when the name is taken.
 */
int rt_event_format_add(struct rt_event_format *fmt)
{
	struct rt_event_format *f;
	struct rt_event_dir *edir;
	int ret = 0;

	mutex_lock(&rt_event_dir_lock);
	list_for_each_entry(f, &rt_event_formats, list) {
		if (!strcmp(f->name, fmt->name)) {
			ret = -EEXIST;
			goto out;
		}
	}
	list_add_tail(&fmt->list, &rt_event_formats);
	list_for_each_entry(edir, &rt_event_dirs, list)
		if (edir->ftrace_dir)
			rt_format_dir_create(edir, fmt);
out:
	mutex_unlock(&rt_event_dir_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(rt_event_format_add);

/* The core's record types; before the first events/ is made. */
void __init rt_event_core_formats_init(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rt_core_formats); i++)
		list_add_tail(&rt_core_formats[i].list, &rt_event_formats);
}
