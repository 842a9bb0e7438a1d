/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The receiving end of the latency hooks (hooks/latency_hooks.c): one
 * client at a time, a latency tracer, gets every interrupt and
 * preemption on/off transition of every CPU while it is registered.
 */
#ifndef _TRACE_RETRACE_LATENCY_CLIENT_H
#define _TRACE_RETRACE_LATENCY_CLIENT_H

#include <linux/types.h>

/*
 * struct rt_latency_client - callbacks, each optional
 * @irqs_off:    interrupts just went off (they are off), at @ip
 * @irqs_on:     interrupts are about to go on (still off), at @ip
 * @preempt_off: the preemption count just left zero, at @ip
 * @preempt_on:  the preemption count is about to reach zero, at @ip
 * @idle:        the idle loop enters (@enter) or leaves its halt
 *
 * They run in any context but NMI, with interrupts or preemption off,
 * and must not sleep.  A transition inside a callback is not reported.
 * Registering with @irqs_off set turns the interrupt hooks on, with
 * @preempt_off set the preemption hooks.
 */
struct rt_latency_client {
	void	(*irqs_off)(unsigned long ip);
	void	(*irqs_on)(unsigned long ip);
	void	(*preempt_off)(unsigned long ip);
	void	(*preempt_on)(unsigned long ip);
	void	(*idle)(bool enter);
};

int rt_latency_hooks_register(const struct rt_latency_client *client);
void rt_latency_hooks_unregister(const struct rt_latency_client *client);

#endif /* _TRACE_RETRACE_LATENCY_CLIENT_H */
