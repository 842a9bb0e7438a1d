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
 * A call site whose format is a constant leaves a pointer to it in
 * __trace_printk_fmt, which the printk_formats file lists (the
 * kernel's section, then each module's).  A format that is not a
 * constant leaves NULL there, which the list skips.
 */
#define __rt_printk_fmt_note(fmt)					\
	do {								\
		static const char *__rt_printk_fmt_ptr __used		\
			__section("__trace_printk_fmt") =		\
			__builtin_constant_p(fmt) ? (fmt) : NULL;	\
	} while (0)

/*
 * trace_printk - printf into the trace ring buffer
 *
 * Formats at the call site's CPU and records the text as a print
 * event with the caller's address; costs one vsnprintf, never sleeps,
 * and is safe in any context including NMI.
 */
#define trace_printk(fmt, ...)						\
({									\
	__rt_printk_fmt_note(fmt);					\
	retrace_printk(_THIS_IP_, fmt, ##__VA_ARGS__);			\
})
#define trace_puts(str)							\
({									\
	__rt_printk_fmt_note(str);					\
	retrace_printk(_THIS_IP_, "%s", str);				\
})
#define ftrace_vprintk(fmt, vargs) retrace_vprintk(_THIS_IP_, fmt, vargs)

void ftrace_dump(enum ftrace_dump_mode oops_dump_mode);

#ifdef CONFIG_RETRACE_FUNCTION_TRACER
/* What every -mfentry call site calls until boot makes it a NOP. */
void __fentry__(void);
#endif

#endif /* _TRACE_RETRACE_KERNEL_API_H */
