/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Function-entry trampolines of retrace's call-site patcher (x86_64).
 *
 * gcc -pg -mfentry makes every traceable function start with
 * "call __fentry__" (after ENDBR when IBT is on).  __fentry__ is a bare
 * return; at boot retrace turns every recorded call into a 5-byte NOP.
 * A site some client wants becomes "call retrace_caller", or
 * "call retrace_regs_caller" when one of its clients needs pt_regs.
 * Both call the lone active client's callback directly when there is
 * one, and otherwise rt_callsite_dispatch() (callsite/callsite.c), which
 * calls the clients: the function tracer, the traceon/traceoff
 * commands, kprobes on a site.  See Documentation/trace/retrace-function.txt.
 */
#include <linux/export.h>
#include <linux/linkage.h>
#include <asm/asm.h>
#include <asm/asm-offsets.h>
#include <asm/ptrace.h>
#include <asm/segment.h>
#include <asm/nospec-branch.h>
#include <asm/unwind_hints.h>
#include <linux/stringify.h>

	.code64
	.section .text, "ax"

/*
 * Call the clients with (ip, parent_ip, parent_slot, regs) already in
 * %rdi, %rsi, %rdx, %rcx: the lone client's callback from \solo
 * directly, with check = false, or else rt_callsite_dispatch().
 */
.macro RT_DISPATCH solo:req
	movq	\solo(%rip), %rax
	testq	%rax, %rax
	jz	.Lrt_dispatch_\@
	xorl	%r8d, %r8d
	CALL_NOSPEC rax
	jmp	.Lrt_done_\@
.Lrt_dispatch_\@:
	call	rt_callsite_dispatch
.Lrt_done_\@:
.endm

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
 * and every argument register is live.  They are saved around a call
 * of the lone client's callback (rt_cs_solo_call), or of
 *   rt_callsite_dispatch(ip, parent_ip, parent_slot, NULL)
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
	xorl	%ecx, %ecx
	RT_DISPATCH rt_cs_solo_call

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

/*
 * A struct pt_regs, plus one pad word: with %rbp and the flags pushed
 * before it, the stack is 16-byte aligned at the C call.
 */
#define RT_REGS_FRAME	(PTREGS_SIZE + 8)

/*
 * retrace_regs_caller - what a site calls when a client needs pt_regs
 *
 * The stack on entry is as for retrace_caller.  A full struct pt_regs
 * is built as the traced function would see it at its first
 * instruction, and as an int3 there would give it: the flags are saved
 * before any instruction here changes them (push and mov do not), ip
 * is where execution resumes (site + 5), sp points at the traced
 * function's return address.  After
 *   rt_callsite_dispatch(ip, parent_ip, parent_slot, regs)
 * every general register and the flags are reloaded from it, and
 * execution resumes at regs->ip, so a kprobe handler that changes them
 * is honoured.  The frame, a standard one for frame-pointer unwinding:
 *  -8(%rbp)   the flags
 *   0(%rbp)   the interrupted %rbp
 *   8(%rbp)   return address into the traced function (site + 5)
 *  16(%rbp)   the traced function's own return address
 */
SYM_FUNC_START(retrace_regs_caller)
	pushq	%rbp
	movq	%rsp, %rbp
	pushfq
	CALL_DEPTH_ACCOUNT
	subq	$RT_REGS_FRAME, %rsp
	movq	%r15, R15(%rsp)
	movq	%r14, R14(%rsp)
	movq	%r13, R13(%rsp)
	movq	%r12, R12(%rsp)
	movq	0(%rbp), %r12
	movq	%r12, RBP(%rsp)
	movq	%rbx, RBX(%rsp)
	movq	%r11, R11(%rsp)
	movq	%r10, R10(%rsp)
	movq	%r9, R9(%rsp)
	movq	%r8, R8(%rsp)
	movq	%rax, RAX(%rsp)
	movq	%rcx, RCX(%rsp)
	movq	%rdx, RDX(%rsp)
	movq	%rsi, RSI(%rsp)
	movq	%rdi, RDI(%rsp)
	movq	$-1, ORIG_RAX(%rsp)
	movq	-8(%rbp), %rdi
	movq	%rdi, EFLAGS(%rsp)
	movq	$__KERNEL_CS, CS(%rsp)
	movq	$__KERNEL_DS, SS(%rsp)
	movq	8(%rbp), %rdi
	movq	%rdi, RIP(%rsp)
	leaq	16(%rbp), %rdx
	movq	%rdx, RSP(%rsp)

	subq	$RT_SITE_SIZE, %rdi
	movq	16(%rbp), %rsi
	movq	%rsp, %rcx
	RT_DISPATCH rt_cs_solo_regs_call

	movq	RIP(%rsp), %rax
	movq	%rax, 8(%rbp)
	movq	R15(%rsp), %r15
	movq	R14(%rsp), %r14
	movq	R13(%rsp), %r13
	movq	R12(%rsp), %r12
	movq	RBX(%rsp), %rbx
	movq	R11(%rsp), %r11
	movq	R10(%rsp), %r10
	movq	R9(%rsp), %r9
	movq	R8(%rsp), %r8
	movq	RAX(%rsp), %rax
	movq	RCX(%rsp), %rcx
	movq	RDX(%rsp), %rdx
	movq	RSI(%rsp), %rsi
	movq	RDI(%rsp), %rdi
	/* regs->flags last: nothing after it changes them but the RET. */
	pushq	EFLAGS(%rsp)
	popfq
	movq	%rbp, %rsp
	popq	%rbp
	RET
SYM_FUNC_END(retrace_regs_caller)
_ASM_NOKPROBE(retrace_regs_caller)

#ifdef CONFIG_RETRACE_FUNCTION_GRAPH
/*
 * retrace_graph_return - where a hooked function returns to
 *
 * rt_ret_push() (kernel/trace/retrace/hooks/ret_stack.c) put this
 * address in the function's return-address slot, so its RET lands
 * here with %rsp just above that slot and the return value in
 * %rax:%rdx.  rt_ret_pop(sp, %rax) reports the return (and its value)
 * and gives back the
 * real address, which is reached through a RET of our own: a JMP
 * through a register would need an ENDBR there under IBT, and a
 * call/ret pair keeps the return stack buffer balanced.
 */
SYM_CODE_START(retrace_graph_return)
	UNWIND_HINT_UNDEFINED
	ANNOTATE_NOENDBR
	/* Step back over the slot: it still holds our address, as a frame. */
	subq	$8, %rsp
	UNWIND_HINT_FUNC
	pushq	%rax
	pushq	%rdx
	/* Pad to 16 bytes for the C call. */
	subq	$8, %rsp
	leaq	32(%rsp), %rdi
	/* The function has returned: %rsi is free to carry its value. */
	movq	%rax, %rsi
	call	rt_ret_pop
	movq	%rax, %rdi
	addq	$8, %rsp
	popq	%rdx
	popq	%rax
	addq	$8, %rsp
	UNWIND_HINT_UNDEFINED
	ANNOTATE_INTRA_FUNCTION_CALL
	call	.Lrt_graph_go
	int3
.Lrt_graph_go:
	movq	%rdi, (%rsp)
	ALTERNATIVE __stringify(RET), \
		    __stringify(ANNOTATE_UNRET_SAFE; ret; int3), \
		    X86_FEATURE_CALL_DEPTH
SYM_CODE_END(retrace_graph_return)
_ASM_NOKPROBE(retrace_graph_return)
#endif /* CONFIG_RETRACE_FUNCTION_GRAPH */
