/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Function-entry trampolines for retrace's function tracer (x86_64).
 *
 * gcc -pg -mfentry makes every traceable function start with
 * "call __fentry__" (after ENDBR when IBT is on).  __fentry__ is a bare
 * return; at boot retrace turns every recorded call into a 5-byte NOP,
 * and turns the selected ones into "call retrace_caller" when a tracer
 * wants them.  See Documentation/trace/retrace-function.txt.
 */
#include <linux/export.h>
#include <linux/linkage.h>
#include <asm/asm.h>
#include <asm/nospec-branch.h>

	.code64
	.section .text, "ax"

SYM_FUNC_START(__fentry__)
	CALL_DEPTH_ACCOUNT
	RET
SYM_FUNC_END(__fentry__)
EXPORT_SYMBOL(__fentry__)

/* Argument registers of the traced function, plus one pad word. */
#define RT_SAVED_REGS	9
#define RT_SITE_SIZE	5

/*
 * retrace_caller - what an enabled call site calls
 *
 * Runs before the traced function's prologue, so on entry:
 *   0(%rsp)  return address into the traced function (site + 5)
 *   8(%rsp)  the traced function's own return address (its caller)
 * and every argument register is live.  They are saved around
 *   rt_function_entry(ip, parent_ip, parent_slot)
 * where parent_slot points at the traced function's return address, so
 * a return hook can redirect it without changing this trampoline.
 * The pad word keeps the stack 16-byte aligned at the C call.
 */
SYM_FUNC_START(retrace_caller)
	CALL_DEPTH_ACCOUNT
	pushq	%rbp
	movq	%rsp, %rbp
	subq	$(RT_SAVED_REGS * 8), %rsp
	movq	%rax, 0*8(%rsp)
	movq	%rcx, 1*8(%rsp)
	movq	%rdx, 2*8(%rsp)
	movq	%rsi, 3*8(%rsp)
	movq	%rdi, 4*8(%rsp)
	movq	%r8, 5*8(%rsp)
	movq	%r9, 6*8(%rsp)
	movq	%r10, 7*8(%rsp)

	movq	8(%rbp), %rdi
	subq	$RT_SITE_SIZE, %rdi
	movq	16(%rbp), %rsi
	leaq	16(%rbp), %rdx
	call	rt_function_entry

	movq	7*8(%rsp), %r10
	movq	6*8(%rsp), %r9
	movq	5*8(%rsp), %r8
	movq	4*8(%rsp), %rdi
	movq	3*8(%rsp), %rsi
	movq	2*8(%rsp), %rdx
	movq	1*8(%rsp), %rcx
	movq	0*8(%rsp), %rax
	movq	%rbp, %rsp
	popq	%rbp
	RET
SYM_FUNC_END(retrace_caller)
_ASM_NOKPROBE(retrace_caller)
