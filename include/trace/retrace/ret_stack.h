/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The return hook: a per-task stack of hijacked return addresses.
 *
 * A client at a function's entry (the function_graph tracer) calls
 * rt_ret_push() with the address of the function's return-address slot
 * on the kernel stack.  The hook saves the real return address in the
 * current task's stack of frames and writes retrace_graph_return there;
 * when the function returns, that trampoline calls rt_ret_pop(), which
 * hands the frame to the registered handler and returns the real
 * address to jump to.  The hook knows no tracer.  See
 * Documentation/trace/retrace-function.txt, "The return hook".
 */
#ifndef _TRACE_RETRACE_RET_STACK_H
#define _TRACE_RETRACE_RET_STACK_H

#include <linux/types.h>

struct task_struct;

/*
 * struct rt_ret_frame - one hijacked return
 * @ret:      the real return address, restored by rt_ret_pop()
 * @ip:       the call site of the function that will return
 * @slot:     where on the kernel stack @ret was; the unwinders look a
 *            frame up by it, and rt_ret_pop() checks it
 * @calltime: the client's clock at entry
 * @data:     the client's word for this call (function_graph: which
 *            instances recorded the entry)
 */
struct rt_ret_frame {
	unsigned long	ret;
	unsigned long	ip;
	unsigned long	*slot;
	u64		calltime;
	unsigned long	data;
};

/*
 * 102 frames and the header fill one 4 KiB allocation.  Only functions
 * a client hooked take a frame, and the deepest kernel paths (a
 * filesystem under a block driver, an interrupt and a softirq on top)
 * stay well below that, while the 16 KiB kernel stack cannot hold
 * 102 real frames of useful functions plus their locals.  A deeper
 * call is simply not hooked and counted in @full.
 */
#define RT_RET_STACK_DEPTH	102

/*
 * struct rt_ret_stack - a task's hijacked returns
 * @top:    frames in use.  Written only by the task itself (its function
 *          entries and returns, and interrupts and NMIs taken while it
 *          runs, which nest strictly: each leaves @top as it found it).
 *          A push raises @top before it fills the frame and a pop reads
 *          the frame before it lowers @top, so a nested push never
 *          lands on a frame still in use.
 * @client: the client's own per-task word (function_graph: the depth at
 *          which set_graph_function's function was entered, plus one)
 * @full:   pushes refused because the stack was full (for debuggers;
 *          graph_stats shows the sum over all tasks)
 * @frame:  the frames, oldest first
 */
struct rt_ret_stack {
	int			top;
	unsigned int		client;
	unsigned long		full;
	struct rt_ret_frame	frame[RT_RET_STACK_DEPTH];
};

/*
 * The handler is called by rt_ret_pop() for each return, in the
 * returning function's context (task to NMI), with the frame, its
 * depth (index) and the function's return value (%rax); the frame is
 * released after the handler returns.  It must not sleep, and must
 * call nothing traceable before its recursion guard.
 */
typedef void (*rt_ret_handler_t)(const struct rt_ret_frame *f, int depth,
				 unsigned long retval);

#ifdef CONFIG_RETRACE_FUNCTION_GRAPH
#include <linux/sched.h>

/* A task's return stack, or NULL; inline: read at every hooked entry. */
static __always_inline struct rt_ret_stack *rt_ret_stack_of(struct task_struct *t)
{
	return READ_ONCE(t->retrace_ret_stack);
}

int rt_ret_stacks_alloc(void);
void rt_ret_set_handler(rt_ret_handler_t fn);
bool rt_ret_push(struct rt_ret_stack *st, unsigned long ip,
		 unsigned long *slot, u64 calltime, unsigned long data);
unsigned long rt_ret_pop(unsigned long *sp, unsigned long retval);
unsigned long rt_ret_stats_full(void);
unsigned long rt_ret_stats_tasks(void);
unsigned long rt_ret_stats_resync(void);

/* The trampoline a hijacked return goes to (retrace_entry_64.S). */
void retrace_graph_return(void);
#endif

#endif /* _TRACE_RETRACE_RET_STACK_H */
