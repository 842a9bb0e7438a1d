// SPDX-License-Identifier: GPL-2.0
/*
 * The stacktrace and userstacktrace options: after a record is
 * committed, the kernel stack (and the user stack of the current task)
 * at that point follows it as a record of its own, printed as
 * "<stack trace>" and " => func" lines ("<user stack trace>" and
 * " => addr", or " => /path/obj[+0xoff]" with sym-userobj).
 *
 * Recursion: the stack records are committed through the same path,
 * and the unwinder may be traced by the function tracer.  The stack
 * code has its own recursion word (rt_stack_inside): it is a no-op
 * while it already runs in that context on that CPU; an interrupt (a
 * higher context) may take its own stack.  The addresses are saved in
 * a per-CPU, per-context array first, so the record is only as long
 * as the stack.
 *
 * The tracing machinery's own frames are left in the record (cheap to
 * take, no symbol lookups on the write path) and skipped when printed:
 * leading frames in retrace's built-in .text (between the labels of
 * text_start.S and text_end.S, which the Makefile links first and
 * last) or named after its trampolines and the probe entry paths
 * (rt_skip_frame()).  A kernel function that merely starts with "rt_"
 * (rt_mutex_lock) is not skipped.
 *
 * sym-userobj resolves user addresses when the record is printed, from
 * the task's memory map as it is then: recording a path per frame
 * would cost a lookup under mmap_lock on every record, which the write
 * path cannot take.  A task that exited by then, or whose map is busy,
 * prints bare addresses.
 */
#include <linux/kallsyms.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/sched/mm.h>
#include <linux/sched/task.h>
#include <linux/stacktrace.h>
#include <asm/tlbflush.h>
#include "internal.h"

#define RT_STACK_DEPTH	32

static DEFINE_PER_CPU(unsigned long, rt_stack_inside);
static DEFINE_PER_CPU(unsigned long [4][RT_STACK_DEPTH], rt_stack_ips);

static void notrace rt_stack_record(struct rt_instance *tr, bool user,
				    unsigned long pc)
{
	unsigned long *ips = (*this_cpu_ptr(&rt_stack_ips))[rt_context_level(pc)];
	struct rt_stack_entry *e;
	struct rt_handle h;
	unsigned int nr;

	if (user) {
		/*
		 * In NMI, or while another mm is loaded (a switch_mm in
		 * progress, text_poke's mm), user reads would walk the
		 * wrong address space.
		 */
		if (!current->mm || (current->flags & PF_KTHREAD) ||
		    in_nmi() || !nmi_uaccess_okay())
			return;
		nr = stack_trace_save_user(ips, RT_STACK_DEPTH);
	} else {
		nr = stack_trace_save(ips, RT_STACK_DEPTH, 0);
	}
	e = rt_reserve_entry(tr, &h, user ? RT_TYPE_USTACK : RT_TYPE_KSTACK,
			     struct_size(e, ips, nr), pc);
	if (!e)
		return;
	e->nr = nr;
	e->pad = 0;
	memcpy(e->ips, ips, nr * sizeof(*ips));
	rt_commit(&h);
}

/**
 * rt_stack_after_commit - record the stacks the options ask for
 * @tr: the instance a record was just committed to
 *
 * Called by rt_commit() and rt_record_copy() when stacktrace or
 * userstacktrace is set, preemption disabled.
 */
void notrace rt_stack_after_commit(struct rt_instance *tr)
{
	struct rt_tracer *t = READ_ONCE(tr->tracer);
	unsigned long pc = preempt_count();
	unsigned long bit;

	if (t && t->no_stacks)
		return;
	/*
	 * The unwinder looks modules up under RCU; some producers (the
	 * function tracer on entry paths) run where RCU is not watching.
	 */
	if (!rcu_is_watching())
		return;
	bit = rt_recursion_enter(&rt_stack_inside, rt_context_level(pc));
	if (!bit)
		return;
	if (rt_opt(tr, RT_OPT_STACKTRACE))
		rt_stack_record(tr, false, pc);
	if (rt_opt(tr, RT_OPT_USERSTACKTRACE))
		rt_stack_record(tr, true, pc);
	rt_recursion_exit(&rt_stack_inside, bit);
}
EXPORT_SYMBOL_GPL(rt_stack_after_commit);

/**
 * rt_trace_kstack - record the current kernel stack, as one record
 * @tr: the instance
 *
 * For the set_ftrace_filter "stacktrace" command; printed like the
 * stacktrace option's records ("<stack trace>" and " => " lines).  Any
 * context with preemption disabled; nested calls and calls where RCU
 * is not watching (the unwinder needs it) record nothing.
 */
void notrace rt_trace_kstack(struct rt_instance *tr)
{
	unsigned long pc = preempt_count();
	unsigned long bit;

	if (!rcu_is_watching())
		return;
	bit = rt_recursion_enter(&rt_stack_inside, rt_context_level(pc));
	if (!bit)
		return;
	rt_stack_record(tr, false, pc);
	rt_recursion_exit(&rt_stack_inside, bit);
}
EXPORT_SYMBOL_GPL(rt_trace_kstack);

/* ---- printing ------------------------------------------------------------ */

/*
 * Frames of the tracing machinery itself: retrace's functions, its
 * trampolines, the marker call, the kprobe and int3 entry paths and
 * tracepoint wrappers.
 */
static bool rt_skip_frame(unsigned long ip)
{
	static const char *const prefixes[] = {
		"retrace", "marker_probe_cb", "kprobe", "opt_pre_handler",
		"optimized_callback", "aggr_pre_handler", "do_int3",
		"exc_int3", "asm_exc_int3", "__traceiter_", "stack_trace_save",
	};
	char sym[KSYM_NAME_LEN];
	unsigned int i;

	if (rt_in_retrace_text(ip))
		return true;
	if (lookup_symbol_name(ip, sym))
		return false;
	for (i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (!strncmp(sym, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

static void rt_print_kstack(struct rt_print_ctx *ctx)
{
	const struct rt_stack_entry *e = (const void *)ctx->ent;
	unsigned int i = 0, nr;

	seq_buf_puts(ctx->s, "<stack trace>");
	if (ctx->len < sizeof(*e))
		return;
	nr = min_t(unsigned int, e->nr, (ctx->len - sizeof(*e)) / sizeof(long));
	while (i < nr && rt_skip_frame(e->ips[i]))
		i++;
	for (; i < nr; i++) {
		seq_buf_puts(ctx->s, "\n => ");
		rt_print_sym(ctx, e->ips[i]);
	}
}

/*
 * "/path/obj[+0xoff]" for @ip in @mm, or false.  Nothing here sleeps:
 * the map is read only if its lock is free.
 */
static bool rt_print_userobj(struct seq_buf *s, struct mm_struct *mm,
			     unsigned long ip)
{
	struct vm_area_struct *vma;
	char buf[256], *path;
	bool done = false;

	if (!mm || !mmap_read_trylock(mm))
		return false;
	vma = vma_lookup(mm, ip);
	if (vma && vma->vm_file) {
		path = file_path(vma->vm_file, buf, sizeof(buf));
		if (!IS_ERR(path)) {
			seq_buf_printf(s, "%s[+0x%lx]", path,
				       ip - vma->vm_start +
				       (vma->vm_pgoff << PAGE_SHIFT));
			done = true;
		}
	}
	mmap_read_unlock(mm);
	return done;
}

static void rt_print_ustack(struct rt_print_ctx *ctx)
{
	const struct rt_stack_entry *e = (const void *)ctx->ent;
	struct mm_struct *mm = NULL;
	struct task_struct *task;
	unsigned int i, nr;

	seq_buf_puts(ctx->s, "<user stack trace>");
	if (ctx->len < sizeof(*e))
		return;
	nr = min_t(unsigned int, e->nr, (ctx->len - sizeof(*e)) / sizeof(long));
	if (rt_opt(ctx->tr, RT_OPT_SYM_USEROBJ) && ctx->reader) {
		rcu_read_lock();
		task = find_task_by_pid_ns(e->ent.pid, &init_pid_ns);
		if (task)
			mm = get_task_mm(task);
		rcu_read_unlock();
	}
	for (i = 0; i < nr; i++) {
		seq_buf_puts(ctx->s, "\n => ");
		if (!rt_print_userobj(ctx->s, mm, e->ips[i]))
			seq_buf_printf(ctx->s, "<%016lx>", e->ips[i]);
	}
	if (mm)
		mmput_async(mm);
}

static void rt_print_stack_raw(struct rt_print_ctx *ctx)
{
	const struct rt_stack_entry *e = (const void *)ctx->ent;
	unsigned int i, nr;

	if (ctx->len < sizeof(*e))
		return;
	nr = min_t(unsigned int, e->nr, (ctx->len - sizeof(*e)) / sizeof(long));
	for (i = 0; i < nr; i++)
		seq_buf_printf(ctx->s, " %lx", e->ips[i]);
}

static struct rt_event_type rt_kstack_type = {
	.type = RT_TYPE_KSTACK,
	.name = "kernel_stack",
	.print = rt_print_kstack,
	.print_raw = rt_print_stack_raw,
};

static struct rt_event_type rt_ustack_type = {
	.type = RT_TYPE_USTACK,
	.name = "user_stack",
	.print = rt_print_ustack,
	.print_raw = rt_print_stack_raw,
};

static int __init rt_stack_init(void)
{
	rt_register_event_type(&rt_kstack_type);
	rt_register_event_type(&rt_ustack_type);
	return 0;
}
core_initcall(rt_stack_init);
