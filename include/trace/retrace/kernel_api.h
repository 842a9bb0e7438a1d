/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The part of retrace that every kernel file sees through
 * <linux/kernel.h>: tracing_on()/tracing_off() and trace_printk().
 * Kept free of includes because kernel.h is included everywhere.
 */
#ifndef _TRACE_RETRACE_KERNEL_API_H
#define _TRACE_RETRACE_KERNEL_API_H

void tracing_on(void);
void tracing_off(void);
int tracing_is_on(void);

static inline void tracing_start(void) { }
static inline void tracing_stop(void) { }
static inline void tracing_snapshot(void) { }
static inline void tracing_snapshot_alloc(void) { }
static inline void trace_dump_stack(int skip) { }

__printf(2, 3) int retrace_printk(unsigned long ip, const char *fmt, ...);
__printf(2, 0) int retrace_vprintk(unsigned long ip, const char *fmt,
				   va_list ap);

/*
 * trace_printk - printf into the trace ring buffer
 *
 * Formats at the call site's CPU and records the text as a print
 * event with the caller's address; costs one vsnprintf, never sleeps,
 * and is safe in any context including NMI.
 */
#define trace_printk(fmt, ...) retrace_printk(_THIS_IP_, fmt, ##__VA_ARGS__)
#define trace_puts(str) retrace_printk(_THIS_IP_, "%s", str)
#define ftrace_vprintk(fmt, vargs) retrace_vprintk(_THIS_IP_, fmt, vargs)

void ftrace_dump(enum ftrace_dump_mode oops_dump_mode);

#ifdef CONFIG_RETRACE_FUNCTION_TRACER
/* What every -mfentry call site calls until boot makes it a NOP. */
void __fentry__(void);
#endif

#endif /* _TRACE_RETRACE_KERNEL_API_H */
