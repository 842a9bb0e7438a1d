/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Register access by number, for fetch arguments (arch/x86/kernel/
 * retrace_regs.c).  The name lookups are pure and also host-built.
 */
#ifndef _TRACE_RETRACE_ARCH_REGS_H
#define _TRACE_RETRACE_ARCH_REGS_H

/* Words of struct pt_regs that have a name. */
#define RT_ARCH_NR_REGS	21

int rt_arch_reg_index(const char *name);

#ifdef __KERNEL__
#include <asm/retrace.h>	/* rt_arch_reg() */
#endif

#endif /* _TRACE_RETRACE_ARCH_REGS_H */
