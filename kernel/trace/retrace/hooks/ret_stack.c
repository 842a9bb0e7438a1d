// SPDX-License-Identifier: GPL-2.0
/*
 * The return hook: each task's stack of hijacked return addresses
 * (struct rt_ret_stack, in task_struct->retrace_ret_stack), pushed at a
 * function's entry by a client, popped by retrace_graph_return when the
 * function returns, and read by the stack unwinders, which must show
 * the real caller where the stack holds the trampoline's address.
 *
 * Lifetime.  Stacks are allocated the first time a client asks for
 * them (rt_ret_stacks_alloc()): for every task alive then, and from
 * then on for every new task at fork.  A stack is freed only with its
 * task (free_task()), never when the client stops: a task may sleep for
 * hours with hijacked returns on its kernel stack, and they must still
 * find their frames.  The trampoline is kernel text and never goes away.
 *
 * See Documentation/trace/retrace-function.txt, "The return hook", for
 * the protocol between a task, its interrupts and the unwinders.
 */
#include <linux/atomic.h>
#include <linux/bug.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <trace/retrace/ret_stack.h>

/* Set once by rt_ret_stacks_alloc(); read at every fork. */
static bool rt_ret_wanted;
static rt_ret_handler_t rt_ret_handler;
static atomic_long_t rt_ret_full = ATOMIC_LONG_INIT(0);
static atomic_long_t rt_ret_nr_stacks = ATOMIC_LONG_INIT(0);
static atomic_long_t rt_ret_resync = ATOMIC_LONG_INIT(0);

/* One 4 KiB slab object per task (ret_stack.h, RT_RET_STACK_DEPTH). */
static_assert(sizeof(struct rt_ret_stack) <= 4096);

static struct rt_ret_stack *rt_ret_alloc(gfp_t gfp)
{
	struct rt_ret_stack *st = kmalloc(sizeof(*st), gfp);

	if (!st)
		return NULL;
	st->top = 0;
	st->client = 0;
	st->full = 0;
	atomic_long_inc(&rt_ret_nr_stacks);
	return st;
}

static void rt_ret_free(struct rt_ret_stack *st)
{
	if (!st)
		return;
	atomic_long_dec(&rt_ret_nr_stacks);
	kfree(st);
}

/*
 * Give @t a stack unless it has one.  @t is on the task list, seen
 * under rcu_read_lock(), so free_task() cannot run for it before the
 * caller's read section ends; the cmpxchg pairs with the xchg in
 * retrace_graph_exit_task() and publishes the initialised stack.
 * Returns true if @st was used.
 */
static bool rt_ret_give(struct task_struct *t, struct rt_ret_stack *st)
{
	return !cmpxchg(&t->retrace_ret_stack, NULL, st);
}

/**
 * rt_ret_stacks_alloc - make sure every task has a return stack
 *
 * Called by a client before it starts pushing; may sleep.  New tasks
 * get one at fork from the first call on.  A task that still has none
 * (its fork raced with this walk, or memory ran out at its fork) is
 * simply never hooked.
 *
 * Return: 0, or -ENOMEM with the stacks handed out so far kept.
 */
int rt_ret_stacks_alloc(void)
{
	struct task_struct *g, *t;
	struct rt_ret_stack **pool;
	unsigned int need, have, used, i;
	int cpu, ret = 0, pass;

	WRITE_ONCE(rt_ret_wanted, true);
	/* Forks from here on see rt_ret_wanted: a few passes catch up. */
	smp_mb();
	for (pass = 0; pass < 4; pass++) {
		need = 0;
		rcu_read_lock();
		for_each_process_thread(g, t)
			need += !READ_ONCE(t->retrace_ret_stack);
		rcu_read_unlock();
		for_each_possible_cpu(cpu) {
			t = idle_task(cpu);
			need += t && !READ_ONCE(t->retrace_ret_stack);
		}
		if (!need)
			break;
		pool = kcalloc(need, sizeof(*pool), GFP_KERNEL);
		if (!pool)
			return -ENOMEM;
		for (have = 0; have < need; have++) {
			pool[have] = rt_ret_alloc(GFP_KERNEL);
			if (!pool[have]) {
				ret = -ENOMEM;
				break;
			}
		}
		used = 0;
		rcu_read_lock();
		for_each_process_thread(g, t) {
			if (used == have)
				break;
			if (!READ_ONCE(t->retrace_ret_stack) &&
			    rt_ret_give(t, pool[used]))
				used++;
		}
		rcu_read_unlock();
		/* Idle tasks are never freed. */
		for_each_possible_cpu(cpu) {
			t = idle_task(cpu);
			if (used < have && t && !READ_ONCE(t->retrace_ret_stack) &&
			    rt_ret_give(t, pool[used]))
				used++;
		}
		for (i = used; i < have; i++)
			rt_ret_free(pool[i]);
		kfree(pool);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * rt_ret_set_handler - choose what each return is reported to
 * @fn: the handler, or NULL for none; returns keep being restored
 */
void rt_ret_set_handler(rt_ret_handler_t fn)
{
	WRITE_ONCE(rt_ret_handler, fn);
}

/**
 * rt_ret_push - hijack the return of the function being entered
 * @st: the current task's stack (rt_ret_stack_of(current))
 * @ip: the function's call site
 * @slot: where its return address is on the stack
 * @calltime: the client's clock, handed back at the return
 * @data: the client's word, handed back at the return
 *
 * Runs at function entry in any context, on the current task only.
 *
 * Return: false if the stack is full (the return is then not hooked).
 */
bool notrace rt_ret_push(struct rt_ret_stack *st, unsigned long ip,
			 unsigned long *slot, u64 calltime, unsigned long data)
{
	int top = READ_ONCE(st->top);
	struct rt_ret_frame *f;

	if (unlikely(top >= RT_RET_STACK_DEPTH)) {
		st->full++;
		atomic_long_inc(&rt_ret_full);
		return false;
	}
	/* Claim the frame first: an interrupt from here on pushes above. */
	WRITE_ONCE(st->top, top + 1);
	barrier();
	f = &st->frame[top];
	f->ret = *slot;
	f->ip = ip;
	f->slot = slot;
	f->calltime = calltime;
	f->data = data;
	/* The frame is whole before the stack points at the trampoline. */
	barrier();
	WRITE_ONCE(*slot, (unsigned long)retrace_graph_return);
	return true;
}
NOKPROBE_SYMBOL(rt_ret_push);

/*
 * The top frame is not the one returning: a function left without
 * returning (nothing in the kernel should do that while it runs on
 * the task).  Drop the frames above the one that matches @slot.
 */
static int rt_ret_resync_top(struct rt_ret_stack *st, int top,
			     unsigned long *slot)
{
	int i;

	atomic_long_inc(&rt_ret_resync);
	for (i = top; i >= 0; i--)
		if (st->frame[i].slot == slot)
			return i;
	/* No frame for this return: there is no address to go back to. */
	panic("retrace: return hook lost the frame of %px", slot);
}

/**
 * rt_ret_pop - a hijacked return arrives
 * @sp: the stack pointer after the function's RET: just above the slot
 * @retval: the function's return value (%rax), for the handler
 *
 * Called by retrace_graph_return with the function's return value
 * saved.  Reports the frame to the handler, then releases it.
 *
 * Return: the real return address.
 */
unsigned long notrace rt_ret_pop(unsigned long *sp, unsigned long retval)
{
	struct rt_ret_stack *st = current->retrace_ret_stack;
	int top = READ_ONCE(st->top) - 1;
	rt_ret_handler_t fn;
	unsigned long ret;

	if (unlikely(top < 0 || st->frame[top].slot != sp - 1))
		top = rt_ret_resync_top(st, min(top, RT_RET_STACK_DEPTH - 1),
					sp - 1);
	/*
	 * The frame stays claimed while the handler runs: interrupts push
	 * above it, and an unwinder started in the handler still finds it.
	 */
	fn = READ_ONCE(rt_ret_handler);
	if (fn)
		fn(&st->frame[top], top, retval);
	ret = st->frame[top].ret;
	barrier();
	WRITE_ONCE(st->top, top);
	return ret;
}
NOKPROBE_SYMBOL(rt_ret_pop);

/**
 * retrace_graph_ret_addr - what an unwinder shows for a return address
 * @task: the task whose stack is walked (NULL: current)
 * @idx: the unwinder's cursor, 0 at the start of a walk: one more than
 *       the index of the frame found last, so the next lookup starts
 *       below it (frames pushed meanwhile by the walker itself sit
 *       above and leave the indices of older frames alone)
 * @ret: the address found on the stack
 * @retp: where it was found
 *
 * A slot can belong to several frames: a hooked function that
 * tail-calls another hooked function shares its return slot with it,
 * and the callee's frame then saved the trampoline's address.  Such
 * frames are skipped, as is the one a previous lookup of the same slot
 * returned (a kretprobe hooked between two of ours).
 *
 * Return: the real return address if @ret is the trampoline's and a
 * frame of @task hijacked @retp, else @ret.
 */
unsigned long retrace_graph_ret_addr(struct task_struct *task, int *idx,
				     unsigned long ret, unsigned long *retp)
{
	const unsigned long tramp = (unsigned long)retrace_graph_return;
	struct rt_ret_stack *st;
	unsigned long r;
	int i;

	if (ret != tramp)
		return ret;
	st = READ_ONCE((task ?: current)->retrace_ret_stack);
	if (!st)
		return ret;
	i = min(READ_ONCE(st->top), RT_RET_STACK_DEPTH) - 1;
	if (idx && *idx > 0)
		i = min(i, *idx - 2);
	for (; i >= 0; i--) {
		if (READ_ONCE(st->frame[i].slot) != retp)
			continue;
		r = READ_ONCE(st->frame[i].ret);
		if (r == tramp)
			continue;
		if (idx)
			*idx = i + 1;
		return r;
	}
	return ret;
}
NOKPROBE_SYMBOL(retrace_graph_ret_addr);

/* copy_process(): @t is a copy of its parent, pointer included. */
void retrace_graph_init_task(struct task_struct *t)
{
	t->retrace_ret_stack = NULL;
	if (READ_ONCE(rt_ret_wanted))
		t->retrace_ret_stack = rt_ret_alloc(GFP_KERNEL);
}

/* free_task(): nothing of @t runs any more. */
void retrace_graph_exit_task(struct task_struct *t)
{
	rt_ret_free(xchg(&t->retrace_ret_stack, NULL));
}

/*
 * init_idle() at boot.  (It is __init: an idle task whose CPU went
 * offline inside hooked functions keeps those frames when the CPU comes
 * back; they only use up its stack, which then refuses pushes.)
 */
void retrace_graph_init_idle_task(struct task_struct *t, int cpu)
{
	struct rt_ret_stack *st = READ_ONCE(t->retrace_ret_stack);

	if (st)
		WRITE_ONCE(st->top, 0);
}

/**
 * rt_ret_stats_full - pushes refused because a task's stack was full
 *
 * Return: the count since boot.
 */
unsigned long rt_ret_stats_full(void)
{
	return atomic_long_read(&rt_ret_full);
}

/**
 * rt_ret_stats_tasks - return stacks allocated now
 *
 * Return: the number of tasks with a stack.
 */
unsigned long rt_ret_stats_tasks(void)
{
	return atomic_long_read(&rt_ret_nr_stacks);
}

/**
 * rt_ret_stats_resync - returns that did not find their frame on top
 *
 * Return: the count since boot; frames above the matching one were
 * dropped each time (a function left without returning).
 */
unsigned long rt_ret_stats_resync(void)
{
	return atomic_long_read(&rt_ret_resync);
}
