// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64 register access for retrace: register names for kprobe fetch
 * arguments (%REG), both the kernel's pt_regs spelling (%di, %r8) and
 * the assembler's (%rdi), and reading a register by its index.  The
 * index is the register's word in struct pt_regs; the kernel build
 * checks each against the real layout.  The name table is pure C, also
 * built on the host.
 */
#ifdef __KERNEL__
#include <linux/build_bug.h>
#include <linux/kernel.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <asm/ptrace.h>
#else
#include "pure_shim.h"
#define notrace
#endif
#include <trace/retrace/arch_regs.h>

static const struct {
	const char	*name;
	unsigned short	index;
} rt_probe_regs[] = {
	{ "r15", 0 }, { "r14", 1 }, { "r13", 2 }, { "r12", 3 },
	{ "bp", 4 }, { "bx", 5 }, { "r11", 6 }, { "r10", 7 },
	{ "r9", 8 }, { "r8", 9 }, { "ax", 10 }, { "cx", 11 },
	{ "dx", 12 }, { "si", 13 }, { "di", 14 }, { "orig_ax", 15 },
	{ "ip", 16 }, { "cs", 17 }, { "flags", 18 }, { "sp", 19 },
	{ "ss", 20 },
};

#ifdef __KERNEL__
#define RT_REG_AT(reg, idx) \
	static_assert(offsetof(struct pt_regs, reg) == (idx) * sizeof(long))
RT_REG_AT(r15, 0); RT_REG_AT(r14, 1); RT_REG_AT(r13, 2); RT_REG_AT(r12, 3);
RT_REG_AT(bp, 4); RT_REG_AT(bx, 5); RT_REG_AT(r11, 6); RT_REG_AT(r10, 7);
RT_REG_AT(r9, 8); RT_REG_AT(r8, 9); RT_REG_AT(ax, 10); RT_REG_AT(cx, 11);
RT_REG_AT(dx, 12); RT_REG_AT(si, 13); RT_REG_AT(di, 14);
RT_REG_AT(orig_ax, 15); RT_REG_AT(ip, 16); RT_REG_AT(cs, 17);
RT_REG_AT(flags, 18); RT_REG_AT(sp, 19); RT_REG_AT(ss, 20);
#endif

/**
 * rt_arch_reg_index - the pt_regs word of a register name
 * @name: name without the '%': "di", "rdi", "r8", "flags"
 *
 * Return: the index, or -EINVAL for an unknown name.
 */
int notrace rt_arch_reg_index(const char *name)
{
	unsigned int i;

	/* Also "rdi" for the two-letter general registers (not cs, ss). */
	for (i = 0; i < ARRAY_SIZE(rt_probe_regs); i++) {
		const char *n = rt_probe_regs[i].name;

		if (!strcmp(name, n) ||
		    (name[0] == 'r' && strlen(n) == 2 && n[0] != 'r' &&
		     n[1] != 's' && !strcmp(name + 1, n)))
			return rt_probe_regs[i].index;
	}
	return -EINVAL;
}
