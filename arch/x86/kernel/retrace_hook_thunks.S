/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Register-keeping thunks for retrace's latency hooks (x86_64).
 *
 * local_irq_*() and the preemption count changes call a hook only in
 * the cold half of a static branch (<trace/retrace/latency_hooks.h>).
 * A plain C call there clobbers the caller-saved registers, so gcc keeps
 * values that live across the branch in callee-saved ones, and the hot
 * half pays for it with pushes, pops and moves even while the branch is
 * a NOP.  Through these thunks the call clobbers nothing (the call site
 * keeps %rdi itself when it passes an argument), and the hot half is
 * the code a kernel without hooks would have, plus the NOP.
 *
 * Each thunk passes its return address, the hooked site, to the C hook
 * as the address to report: in %rsi after the argument in %rdi, or in
 * %rdi when there is no argument.
 */
#include <linux/export.h>
#include <linux/linkage.h>
#include <asm/asm.h>
#include <asm/nospec-branch.h>

	.code64
	.section .text, "ax"

.macro RT_HOOK_THUNK name:req, func:req, has_arg:req
SYM_FUNC_START(\name)
	pushq	%rbp
	movq	%rsp, %rbp
.if \has_arg == 0
	pushq	%rdi
.endif
	pushq	%rsi
	pushq	%rdx
	pushq	%rcx
	pushq	%rax
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
.if \has_arg
	movq	8(%rbp), %rsi
.else
	movq	8(%rbp), %rdi
.endif
	call	\func
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rax
	popq	%rcx
	popq	%rdx
	popq	%rsi
.if \has_arg == 0
	popq	%rdi
.endif
	popq	%rbp
	RET
SYM_FUNC_END(\name)
	_ASM_NOKPROBE(\name)
EXPORT_SYMBOL(\name)
.endm

RT_HOOK_THUNK retrace_irqs_off_thunk, retrace_irqs_off_at, 0
RT_HOOK_THUNK retrace_irqs_on_thunk, retrace_irqs_on_at, 0
RT_HOOK_THUNK retrace_preempt_add_thunk, retrace_preempt_add_from, 1
RT_HOOK_THUNK retrace_preempt_sub_thunk, retrace_preempt_sub_from, 1
