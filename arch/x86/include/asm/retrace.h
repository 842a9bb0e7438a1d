/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86_64 parts of retrace: register access for fetch arguments (the
 * index is the register's word in struct pt_regs; retrace_regs.c checks
 * each name against the real layout), and the int3 side of live
 * patching (retrace_poke.c).
 */
#ifndef _ASM_X86_RETRACE_H
#define _ASM_X86_RETRACE_H

#include <linux/atomic.h>
#include <asm/ptrace.h>

/* Read a register by index (below RT_ARCH_NR_REGS); any context. */
static __always_inline unsigned long rt_arch_reg(const struct pt_regs *regs,
						 unsigned int index)
{
	return ((const unsigned long *)regs)[index];
}

#define RETRACE_POKE_SITE_SIZE	5

/*
 * One site being rewritten: what its new instruction does.
 * @ip:     the site
 * @target: the function it will call, or 0 for a NOP
 */
struct retrace_poke_site {
	unsigned long	ip;
	unsigned long	target;
};

/*
 * The sites of one patching round, sorted by @ip; see retrace_poke.c
 * for who writes what, and when.
 */
struct retrace_poke {
	struct retrace_poke_site	*sites;
	unsigned int			nr;
	atomic_t			refs;
};

#ifdef CONFIG_RETRACE_FUNCTION_TRACER
/*
 * int3s emulated, ever; of which in NMI context; int3s found gone; of
 * which resumed past the text's new instruction, emulated
 */
extern atomic_long_t retrace_poke_hits, retrace_poke_nmi_hits, retrace_poke_gone;
extern atomic_long_t retrace_poke_gone_emulated;
int retrace_int3_handler(struct pt_regs *regs);
void retrace_poke_publish(struct retrace_poke *p);
void retrace_poke_retire(struct retrace_poke *p);
#else
static __always_inline int retrace_int3_handler(struct pt_regs *regs)
{
	return 0;
}
#endif

#endif /* _ASM_X86_RETRACE_H */
