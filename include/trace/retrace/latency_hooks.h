/* SPDX-License-Identifier: GPL-2.0 */
/*
 * retrace latency hooks: where the kernel's interrupt and preemption
 * on/off operations report their transitions to the latency tracers.
 *
 * include/linux/irqflags.h and include/linux/preempt.h include this
 * header, so it may only pull in the lightest asm headers.  Each hook
 * sits behind a static branch that is a NOP until a latency tracer is
 * current: an idle kernel pays one NOP per local_irq_*() and per
 * preemption count change, and keeps the out-of-line call in a cold
 * path.  That call goes through a thunk that keeps every register
 * (arch/x86/kernel/retrace_hook_thunks.S), so that the compiler lays
 * out the hot path as it would without hooks.  The kernel's raw_*()
 * and *_notrace() variants are not hooked.
 */
#ifndef _TRACE_RETRACE_LATENCY_HOOKS_H
#define _TRACE_RETRACE_LATENCY_HOOKS_H

#ifdef CONFIG_RETRACE_LATENCY_HOOKS

/* Declared before <asm/jump_label.h> names them in prototypes. */
struct static_key;
struct jump_entry;
#include <asm/asm.h>
#include <asm/jump_label.h>

/* struct static_key_false, kept incomplete here: see the top. */
extern struct static_key_false retrace_irqs_hook_key;
extern struct static_key_false retrace_preempt_hook_key;

#define retrace_irqs_hooked()	\
	arch_static_branch((struct static_key *)&retrace_irqs_hook_key, false)
#define retrace_preempt_hooked()	\
	arch_static_branch((struct static_key *)&retrace_preempt_hook_key, false)

/*
 * The cold halves: calls that clobber no register.  A thunk with an
 * argument takes it in %rdi, which the call site keeps itself.
 */
#define retrace_hook_call(thunk)					\
	do {								\
		asm volatile("call " #thunk				\
			     : ASM_CALL_CONSTRAINT : : "memory");	\
	} while (0)
#define retrace_hook_call_int(thunk, val)				\
	do {								\
		asm volatile("push %%rdi\n\t"				\
			     "mov %k[arg], %%edi\n\t"			\
			     "call " #thunk "\n\t"			\
			     "pop %%rdi"				\
			     : ASM_CALL_CONSTRAINT			\
			     : [arg] "ri" ((int)(val)) : "memory");	\
	} while (0)

#define retrace_irqs_off_call()	retrace_hook_call(retrace_irqs_off_thunk)
#define retrace_irqs_on_call()	retrace_hook_call(retrace_irqs_on_thunk)
#define retrace_preempt_add_call(val)	\
	retrace_hook_call_int(retrace_preempt_add_thunk, val)
#define retrace_preempt_sub_call(val)	\
	retrace_hook_call_int(retrace_preempt_sub_thunk, val)

/* The thunks: not for C callers (the macros above call them). */
void retrace_irqs_off_thunk(void);
void retrace_irqs_on_thunk(void);
void retrace_preempt_add_thunk(void);
void retrace_preempt_sub_thunk(void);
/*
 * Entry code turned interrupts off: from kernel mode, where they may
 * have been off already (a fault inside a section), or from user mode,
 * where they were on (so a section still open lost its end).
 */
void retrace_irqs_off_entry_hook(void);
void retrace_irqs_off_user_hook(void);
/* Entry code turns interrupts on (interrupts still off). */
void retrace_irqs_on_hook(void);
/*
 * Called with preemption off: after the count grew by @val, before it
 * shrinks by @val.  Only a change from or to zero is a transition.
 */
void retrace_preempt_add_from(int val, unsigned long ip);
void retrace_preempt_sub_from(int val, unsigned long ip);
/*
 * The same for callers that know the address to report: the irqs
 * thunks (local_irq_*()), lockdep's trace_hardirqs_on/off() and the
 * out-of-line preempt_count_add/sub() of CONFIG_DEBUG_PREEMPT (through
 * trace_preempt_on/off()).  They check their own key.
 */
void retrace_irqs_off_at(unsigned long ip);
void retrace_irqs_on_at(unsigned long ip);
void retrace_preempt_off_at(unsigned long ip);
void retrace_preempt_on_at(unsigned long ip);
/* The idle loop: its halt is not a critical section. */
void retrace_idle_enter_hook(void);
void retrace_idle_exit_hook(void);

#ifdef CONFIG_RETRACE_SYSCALL_HOOK_SWITCH
/* arch/x86/entry/retrace_syscall.c: the syscall path's own hooks. */
int retrace_syscall_hooks(bool on);
#endif

#endif /* CONFIG_RETRACE_LATENCY_HOOKS */
#endif /* _TRACE_RETRACE_LATENCY_HOOKS_H */
