// SPDX-License-Identifier: GPL-2.0
/*
 * Text records: trace_printk() from kernel code, writes to the
 * trace_marker file from user space, and ftrace_dump() which prints the
 * buffer to the console when the kernel is dying.
 */
#include <linux/tracefs.h>
#include <linux/fs.h>
#include <linux/hardirq.h>
#include <linux/nmi.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/unaligned.h>
#include "internal.h"

#define RT_PRINT_MAX		1024
/*
 * A write to trace_marker takes at most RT_MARKER_MAX bytes (a longer
 * one is a short write: the writer sends the rest again), in records
 * of at most RT_MARKER_PIECE bytes of text each (the largest record the
 * ring buffer takes, less the header and the NUL).
 */
#define RT_MARKER_MAX		4096
#define RT_MARKER_PIECE		(RT_RB_MAX_PAYLOAD - \
				 sizeof(struct rt_print_entry) - 1)

/*
 * What sees each trace_marker write once its records are committed:
 * the events layer's triggers on events/ftrace/print, or NULL
 * (rt_marker_set_hook()).
 */
static rt_marker_hook_t rt_marker_hook;

/**
 * rt_marker_set_hook - see every trace_marker record
 * @hook: called once per write, with the first record it made, after
 *	the write's records are committed, in the writer's process context
 *	with preemption disabled; or NULL
 *
 * For built-in code.  The hook may still run for a record committed
 * before it was replaced; what it uses must outlive an RCU grace
 * period (a trace_marker write is a preempt-disabled section).
 */
void rt_marker_set_hook(rt_marker_hook_t hook)
{
	WRITE_ONCE(rt_marker_hook, hook);
}

/*
 * Record @len bytes of @text; preemption is off and rt_recording() said
 * yes.  A trailing newline is dropped here, once, since every record
 * prints as one line.
 */
static int notrace __no_stack_protector
rt_record_text(struct rt_instance *tr, unsigned int type, unsigned long ip,
	       const char *text, unsigned int len, unsigned long pc)
{
	struct rt_print_entry *e;
	struct rt_handle h;

	if (len && text[len - 1] == '\n')
		len--;
	e = rt_reserve_entry(tr, &h, type, sizeof(*e) + len + 1, pc);
	if (!e)
		return 0;
	e->ip = ip;
	memcpy(e->buf, text, len);
	e->buf[len] = 0;
	rt_zero_pad(e, sizeof(*e) + len + 1);
	rt_commit(&h);
	return len;
}

/**
 * retrace_vprintk - record formatted text with the caller's address
 * @ip: the caller (trace_printk() passes _THIS_IP_)
 * @fmt: printf format
 * @ap: arguments
 *
 * Return: bytes recorded, 0 when tracing is off or the record dropped.
 */
int notrace retrace_vprintk(unsigned long ip, const char *fmt, va_list ap)
{
	unsigned long pc = preempt_count();
	char *buf;
	int len = 0;

	preempt_disable_notrace();
	/* Formatted in this CPU's scratch record for the current context. */
	buf = rt_recording(&rt_top) ? rt_scratch_get(pc) : NULL;
	if (buf) {
		len = vscnprintf(buf, RT_PRINT_MAX, fmt, ap);
		len = rt_record_text(&rt_top, RT_TYPE_PRINT, ip, buf, len, pc);
		rt_scratch_put(pc);
	}
	preempt_enable_notrace();
	return len;
}
EXPORT_SYMBOL_GPL(retrace_vprintk);

/**
 * retrace_printk - printf-like variant of retrace_vprintk()
 * @ip: the caller
 * @fmt: printf format
 *
 * Return: bytes recorded.
 */
int notrace retrace_printk(unsigned long ip, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = retrace_vprintk(ip, fmt, ap);
	va_end(ap);
	return ret;
}
EXPORT_SYMBOL_GPL(retrace_printk);

static void rt_print_text(struct rt_print_ctx *ctx, const char *prefix)
{
	const struct rt_print_entry *e = (const void *)ctx->ent;
	unsigned int max = ctx->len - sizeof(*e);

	if (ctx->len < sizeof(*e))
		return;
	if (prefix) {
		seq_buf_puts(ctx->s, prefix);
	} else {
		rt_print_sym(ctx, e->ip);
		seq_buf_puts(ctx->s, ": ");
	}
	/* Records are padded; print up to the NUL or the record's end. */
	seq_buf_printf(ctx->s, "%.*s", (int)strnlen(e->buf, max), e->buf);
}

static void rt_print_printk(struct rt_print_ctx *ctx)
{
	rt_print_text(ctx, NULL);
}

static void rt_print_marker(struct rt_print_ctx *ctx)
{
	rt_print_text(ctx, "tracing_mark_write: ");
}

static void rt_print_text_raw(struct rt_print_ctx *ctx)
{
	const struct rt_print_entry *e = (const void *)ctx->ent;
	unsigned int max = ctx->len - sizeof(*e);

	if (ctx->len < sizeof(*e))
		return;
	seq_buf_printf(ctx->s, " %lx %.*s", e->ip, (int)strnlen(e->buf, max),
		       e->buf);
}

static struct rt_event_type rt_printk_type = {
	.type = RT_TYPE_PRINT,
	.name = "print",
	.print = rt_print_printk,
	.print_raw = rt_print_text_raw,
};

static struct rt_event_type rt_marker_type = {
	.type = RT_TYPE_MARKER,
	.name = "marker",
	.print = rt_print_marker,
	.print_raw = rt_print_text_raw,
};

/*
 * Copy @n bytes of a trace_marker write whose range passed access_ok()
 * (@user_ok), with page faults disabled: preemption is off.  This is
 * copy_from_user_nofault() without its range and NMI checks, which a
 * write(2) in process context passes anyway.  0 or -EFAULT.
 */
static __always_inline int rt_marker_copy(void *dst, const char __user *src,
					  unsigned int n, bool user_ok)
{
	unsigned long left;

	if (!user_ok)
		return -EFAULT;
	pagefault_disable();
	left = __copy_from_user_inatomic(dst, src, n);
	pagefault_enable();
	return left ? -EFAULT : 0;
}

/*
 * One record of @len bytes of text from @ubuf; preemption is off and
 * rt_recording() said yes.  The text
 * is copied from user space straight into the reserved record, with
 * page faults disabled; text that is not resident records as
 * "<faulted>".
 */
static __always_inline struct rt_print_entry *
rt_marker_piece(struct rt_instance *tr, const char __user *ubuf,
		unsigned int len, unsigned long pc, unsigned int *sizep,
		bool user_ok)
{
	static const char faulted[] = "<faulted>";
	unsigned int size = sizeof(struct rt_print_entry) + len + 1;
	struct rt_print_entry *e;
	struct rt_handle h;

	e = rt_reserve_entry(tr, &h, RT_TYPE_MARKER, size, pc);
	if (!e)
		return NULL;
	e->ip = 0;
	/* The padding after the NUL, if any. */
	rt_zero_last_word(e, size);
	if (rt_marker_copy(e->buf, ubuf, len, user_ok)) {
		len = min_t(unsigned int, len, sizeof(faulted) - 1);
		memcpy(e->buf, faulted, len);
		/* NUL, then zeros over what the copy left. */
		memset(e->buf + len, 0, ALIGN(size, 4) - sizeof(*e) - len);
	}
	e->buf[len] = 0;
	rt_commit(&h);
	*sizep = size;
	return e;
}

/*
 * A write of 8 to 16 bytes, the common "echo text > trace_marker", as
 * one record without the general copy: two overlapping 8-byte loads,
 * the first and the last eight bytes, taken before the record is
 * reserved (so the last one tells whether a newline is dropped) and
 * stored into it after.  Interrupts may run between the loads and the
 * stores; a concurrent change of the user's buffer can tear the text as
 * it can tear any copy.  Returns the record, or NULL with nothing
 * recorded: if a load faults (the general path then decides between
 * the text and "<faulted>") or the buffer refused the record (*@refused
 * set: the write fails).
 */
static __always_inline struct rt_print_entry *
rt_marker_short(struct rt_instance *tr, const char __user *ubuf,
		unsigned int len, unsigned long pc, unsigned int *sizep,
		bool *refused)
{
	struct rt_print_entry *e;
	struct rt_handle h;
	unsigned int tlen, size;
	u64 head, tail;

	pagefault_disable();
	/* Masked where the arch can: no speculation barrier. */
	if (can_do_masked_user_access())
		ubuf = masked_user_access_begin(ubuf);
	else if (!user_read_access_begin(ubuf, len))
		goto fault;
	unsafe_get_user(head, (const u64 __user *)ubuf, fault_end);
	unsafe_get_user(tail, (const u64 __user *)(ubuf + len - 8), fault_end);
	user_read_access_end();
	pagefault_enable();

	/* The last byte of the write is the last of @tail. */
	tlen = len - ((u8)(le64_to_cpu(tail) >> 56) == '\n');
	size = sizeof(*e) + tlen + 1;
	/* write(2): task context, interrupts on. */
	e = __rt_reserve_entry(tr, &h, RT_TYPE_MARKER, size, pc, true);
	if (!e) {
		*refused = true;
		return NULL;
	}
	e->ip = 0;
	/*
	 * Padding first: the record's last 4-byte word, which holds the NUL
	 * and whatever follows it.  Then the text, whose last byte may be
	 * the dropped newline where the NUL goes.
	 */
	rt_zero_last_word(e, size);
	put_unaligned(head, (u64 *)e->buf);
	put_unaligned(tail, (u64 *)(e->buf + len - 8));
	e->buf[tlen] = 0;
	rt_commit(&h);
	*sizep = size;
	return e;

fault_end:
	user_read_access_end();
fault:
	pagefault_enable();
	return NULL;
}

/*
 * A write longer than one record goes into several, in order on this
 * CPU, each printed as a line of its own; their texts in order are the
 * write's.  Returns the bytes taken: the pieces kept before the first
 * refused one (the dropped newline goes with the final piece), at most
 * RT_MARKER_MAX.
 */
static ssize_t __no_stack_protector
rt_marker_write(struct file *file, const char __user *ubuf, size_t cnt,
		loff_t *ppos)
{
	unsigned int len = min_t(size_t, cnt, RT_MARKER_MAX), off, n, size;
	unsigned int taken = 0, max = len;
	struct rt_instance *tr = file->private_data;
	struct rt_print_entry *e, *first = NULL;
	unsigned int first_size = 0;
	rt_marker_hook_t hook;
	unsigned long pc;
	bool user_ok;
	char last;
	int err;

	if (!cnt)
		return 0;
	pc = preempt_count();
	preempt_disable_notrace();
	/* rt_recording(): tracing_on, the buffer and tracing_cpumask. */
	if (len >= 8 && len <= 16 && rt_recording(tr)) {
		bool refused = false;

		e = rt_marker_short(tr, ubuf, len, pc, &size, &refused);
		if (e) {
			/* As below, on the shortest path out. */
			hook = READ_ONCE(rt_marker_hook);
			if (unlikely(hook))
				hook(tr, e, size);
			preempt_enable_notrace();
			return max;
		}
		if (refused) {
			preempt_enable_notrace();
			return -EBADF;
		}
	}
	if (!READ_ONCE(tr->on)) {
		preempt_enable_notrace();
		return -EBADF;
	}
	/* A range outside user space records "<faulted>", as a fault does. */
	user_ok = access_ok(ubuf, len);
	/* Every record prints as one line: drop the write's last newline. */
	if (user_ok) {
		pagefault_disable();
		err = __get_user(last, ubuf + len - 1);
		pagefault_enable();
		if (!err && last == '\n')
			len--;
	}
	/* At least one record: a lone newline makes an empty line. */
	if (rt_recording(tr)) {
		off = 0;
		do {
			n = min_t(unsigned int, len - off, RT_MARKER_PIECE);
			e = rt_marker_piece(tr, ubuf + off, n, pc, &size,
					    user_ok);
			/*
			 * A refused piece ends the write: what was taken is
			 * always the text's start, the writer sends the rest.
			 */
			if (!e)
				break;
			if (!first) {
				first = e;
				first_size = size;
			}
			taken = off + n == len ? max : off + n;
			off += n;
		} while (off < len);
	}
	/*
	 * Once per write, with its first record, after the commits: what
	 * the hook records (a stack) comes after the text.  The record is
	 * still readable: nothing frees ring pages inside a preempt-disabled
	 * section, and only a burst from interrupts on this CPU wrapping
	 * the whole ring could overwrite it, leaving the hook a filter
	 * match on other bytes.
	 */
	hook = READ_ONCE(rt_marker_hook);
	if (unlikely(hook) && first)
		hook(tr, first, first_size);
	preempt_enable_notrace();
	/*
	 * Nothing recorded (this CPU is outside tracing_cpumask, a full
	 * ring that does not overwrite, a pause-on-trace reader): EBADF,
	 * as upstream says when its reserve fails.  Otherwise a short
	 * write when more than RT_MARKER_MAX bytes came, or when the ring
	 * refused a piece after the first: the writer sends the rest.
	 */
	/* (ssize_t): an unsigned int would turn -EBADF into a count. */
	return first ? (ssize_t)taken : -EBADF;
}

static int rt_marker_open(struct inode *inode, struct file *file)
{
	int ret = rt_file_lockdown();

	if (!ret)
		ret = rt_instance_get(inode->i_private);
	return ret ? ret : simple_open(inode, file);
}

static int rt_marker_release(struct inode *inode, struct file *file)
{
	rt_instance_put(file->private_data);
	return 0;
}

static const struct file_operations rt_marker_fops = {
	.open		= rt_marker_open,
	.write		= rt_marker_write,
	.release	= rt_marker_release,
	.llseek		= noop_llseek,
};

/*
 * ftrace_dump - print the trace buffer to the console
 * @mode: DUMP_ALL for every CPU, DUMP_ORIG for this CPU only
 *
 * For oops and panic paths: takes no sleeping lock and allocates
 * nothing.  Walks without consuming, oldest record first per CPU.
 */
static struct rt_rb_record rt_dump_rec;
static char rt_dump_line[512];
static atomic_t rt_dump_running = ATOMIC_INIT(0);

void ftrace_dump(enum ftrace_dump_mode mode)
{
	struct rt_buffer *buf = rt_top.buffer;
	struct rt_rb_iter it;
	bool locked = false;
	struct seq_buf s;
	int cpu, this;

	if (!buf || mode == DUMP_NONE || atomic_xchg(&rt_dump_running, 1))
		return;
	/*
	 * A dying kernel walks without locks (nothing resizes any more);
	 * a live one (sysrq z) must keep a resize from freeing the pages
	 * under the walk, and gives up rather than wait.
	 */
	if (!oops_in_progress) {
		if (!rt_buffer_read_trylock(buf)) {
			pr_emerg("retrace: buffer busy (resizing), no dump\n");
			atomic_set(&rt_dump_running, 0);
			return;
		}
		locked = true;
	}
	tracing_off();
	this = raw_smp_processor_id();
	pr_emerg("Dumping retrace buffer:\n---------------------------------\n");
	for_each_possible_cpu(cpu) {
		if (mode == DUMP_ORIG && cpu != this)
			continue;
		rt_buffer_iter_start_atomic(&it, buf, cpu);
		while (!rt_buffer_iter_peek_atomic(&it, &rt_dump_rec)) {
			seq_buf_init(&s, rt_dump_line, sizeof(rt_dump_line) - 1);
			rt_print_record_ctx(&rt_top, &s, &rt_dump_rec, 0, 0, NULL);
			rt_dump_line[seq_buf_used(&s)] = 0;
			pr_emerg("%s", rt_dump_line);
			rt_buffer_iter_advance(&it, &rt_dump_rec);
			touch_nmi_watchdog();
		}
	}
	pr_emerg("---------------------------------\n");
	if (locked)
		rt_buffer_read_unlock(buf);
	atomic_set(&rt_dump_running, 0);
}
EXPORT_SYMBOL_GPL(ftrace_dump);

void rt_create_print_files(struct rt_instance *tr)
{
	if (tr == &rt_top) {
		rt_register_event_type(&rt_printk_type);
		rt_register_event_type(&rt_marker_type);
	}
	tracefs_create_file("trace_marker", 0644, tr->dir, tr, &rt_marker_fops);
}
