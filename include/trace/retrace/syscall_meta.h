/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What SYSCALL_DEFINEn() records about each system call for retrace's
 * syscall events (producers/syscall_event.c): its name and the types
 * and names of its arguments, as written in the definition.  The
 * kernel keeps one pointer per definition in the __rt_syscalls_meta
 * section; nothing in it is written after the build.
 */
#ifndef _TRACE_RETRACE_SYSCALL_META_H
#define _TRACE_RETRACE_SYSCALL_META_H

/**
 * struct rt_syscall_meta - a system call as SYSCALL_DEFINEn() wrote it
 * @name: "sys_" and the name given to SYSCALL_DEFINEn() ("sys_openat")
 * @nb_args: its arguments, 0 to 6
 * @types: each argument's C type, as a string ("const char *")
 * @args: each argument's name ("filename")
 */
struct rt_syscall_meta {
	const char		*name;
	int			nb_args;
	const char * const	*types;
	const char * const	*args;
};

/* The section's bounds, from TRACE_SYSCALLS() in the linker script. */
extern const struct rt_syscall_meta * const __start_rt_syscalls_meta[];
extern const struct rt_syscall_meta * const __stop_rt_syscalls_meta[];

#define __RT_SC_STR_TYPE(t, a)	#t
#define __RT_SC_STR_NAME(t, a)	#a

/*
 * Used by <linux/syscalls.h> as SYSCALL_METADATA() (its sname starts
 * with '_').  __MAP() stringifies each type after macro expansion, so
 * "const char __user *" reads "const char *".
 */
#define RT_SYSCALL_METADATA(sname, nb, ...)				\
	static const char * const rt_sc_types_##sname[] = {		\
		__MAP(nb, __RT_SC_STR_TYPE, __VA_ARGS__)		\
	};								\
	static const char * const rt_sc_args_##sname[] = {		\
		__MAP(nb, __RT_SC_STR_NAME, __VA_ARGS__)		\
	};								\
	static const struct rt_syscall_meta rt_sc_meta_##sname = {	\
		.name		= "sys" #sname,				\
		.nb_args	= nb,					\
		.types		= nb ? rt_sc_types_##sname : NULL,	\
		.args		= nb ? rt_sc_args_##sname : NULL,	\
	};								\
	static const struct rt_syscall_meta __used			\
	__section("__rt_syscalls_meta") * const				\
	rt_sc_meta_p_##sname = &rt_sc_meta_##sname;

#endif /* _TRACE_RETRACE_SYSCALL_META_H */
