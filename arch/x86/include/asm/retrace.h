/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86_64 register access for retrace's fetch arguments: the index is
 * the register's word in struct pt_regs (arch/x86/kernel/retrace_regs.c
 * checks each name against the real layout).
 */
#ifndef _ASM_X86_RETRACE_H
#define _ASM_X86_RETRACE_H

#include <asm/ptrace.h>

/* Read a register by index (below RT_ARCH_NR_REGS); any context. */
static __always_inline unsigned long rt_arch_reg(const struct pt_regs *regs,
						 unsigned int index)
{
	return ((const unsigned long *)regs)[index];
}

#endif /* _ASM_X86_RETRACE_H */
