/* SPDX-License-Identifier: GPL-2.0 */
/* Between irqflags.c and latency_hooks.c only. */
#ifndef _RETRACE_HOOKS_LATENCY_ENTRY_H
#define _RETRACE_HOOKS_LATENCY_ENTRY_H

#ifdef CONFIG_RETRACE_LATENCY_HOOKS
/* Entry code turned interrupts off, perhaps while they already were. */
void retrace_irqs_off_entry_at(unsigned long ip);
#else
static inline void retrace_irqs_off_entry_at(unsigned long ip) { }
#endif

#endif /* _RETRACE_HOOKS_LATENCY_ENTRY_H */
