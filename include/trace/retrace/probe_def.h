/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parsed kprobe_events definitions.  The parser only checks syntax;
 * whether a symbol exists or may be probed is the kernel side's
 * business.  Pure C, also built as a host program.
 */
#ifndef _TRACE_RETRACE_PROBE_DEF_H
#define _TRACE_RETRACE_PROBE_DEF_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#endif

#define RT_PROBE_MAX_ARGS	128
#define RT_PROBE_MAX_NAME	64	/* group and event names, NUL included */
#define RT_PROBE_MAX_ARG_NAME	32	/* argument names, NUL excluded */
#define RT_PROBE_MAX_ARG_BODY	63	/* bytes of FETCH[:TYPE] after NAME= */
#define RT_PROBE_MAX_LINE	4096
#define RT_PROBE_MAX_STRING	256	/* bytes of a fetched string, NUL included */
#define RT_PROBE_MAX_ACTIVE	4096	/* most kretprobe instances r<N> asks for */
#define RT_PROBE_MAX_ARRAY	64	/* most elements TYPE[N] asks for */
/*
 * Steps an argument may take, as upstream counts them: its base takes
 * 1 (a register, $stackN, $argN, $retval), 2 (@ADDR) or 3 (@SYM), and
 * each +|-offs( ) one more.
 */
#define RT_PROBE_MAX_STEPS	15

/* Where an argument's value starts. */
enum rt_fetch_base {
	RT_FETCH_REG,		/* pt_regs word @reg */
	RT_FETCH_STACKP,	/* the stack pointer ($stack; $stackN derefs it) */
	RT_FETCH_RETVAL,	/* return value (return probes) */
	RT_FETCH_IMM,		/* @addr: a constant address */
	RT_FETCH_SYM,		/* @sym+off: an address the kernel resolves */
	RT_FETCH_COMM,		/* $comm: the current task's name (a string) */
	RT_FETCH_ARG,		/* $argN at a function's entry: argument @reg */
};

/* Highest N of $argN: the arguments past the sixth are on the stack. */
#define RT_PROBE_MAX_ARGNUM	128

/* What a string argument's address points into (@vfs). */
enum rt_fetch_vfs {
	RT_VFS_NONE,
	RT_VFS_DENTRY,		/* %pd: the value is a struct dentry * */
	RT_VFS_FILE,		/* %pD: the value is a struct file * */
};

enum rt_fetch_type {
	RT_FETCH_U8, RT_FETCH_U16, RT_FETCH_U32, RT_FETCH_U64,
	RT_FETCH_S8, RT_FETCH_S16, RT_FETCH_S32, RT_FETCH_S64,
	RT_FETCH_STRING,
	RT_FETCH_BITFIELD,
	RT_FETCH_CHAR,		/* one byte, printed as a character */
	RT_FETCH_SYMBOL,	/* an address, printed as symbol+off/size */
	RT_FETCH_SYMSTR,	/* an address, recorded as that text */
};

/**
 * struct rt_probe_arg - one fetch argument
 * @name: field name: NAME= if given, else argN (N: its position from 1)
 * @base: where the value starts, see enum rt_fetch_base
 * @reg: pt_regs word index for RT_FETCH_REG; argument index from 0
 *	for RT_FETCH_ARG
 * @imm: address for RT_FETCH_IMM; offset from @sym for RT_FETCH_SYM
 * @sym: symbol for RT_FETCH_SYM, else NULL
 * @nr_deref: number of memory reads that follow the base
 * @deref: their offsets, innermost first.  Every read but the last is a
 *	pointer-sized load; the last loads @size bytes, except for
 *	strings, whose last step only forms the address
 * @user: bit i set: deref[i] reads user memory (+u<offset>)
 * @ustr: a string read from user memory (ustring, or a string whose
 *	last step is +u<offset>)
 * @vfs: enum rt_fetch_vfs: a string that is the name of the dentry or
 *	file the value points to (%pd, %pD)
 * @type: see enum rt_fetch_type; the default is RT_FETCH_U64
 * @size: bytes loaded (the container for bitfields)
 * @is_signed: print and compare as signed
 * @hex: print as 0x-prefixed hex (the x8..x64 types)
 * @bf_width: bitfield width in bits
 * @bf_offset: bitfield offset in bits from the container's low bit
 * @count: TYPE[N]: N elements of @size bytes (strings: N pointers to
 *	them) from the address the last step forms; 0 for one value
 * @pos: offset of the argument in the parsed line (for error_log)
 */
struct rt_probe_arg {
	char		*name;
	unsigned char	base;
	unsigned short	reg;
	unsigned long	imm;
	char		*sym;
	unsigned int	nr_deref;
	long		*deref;
	unsigned int	user;
	unsigned char	ustr;
	unsigned char	vfs;
	unsigned char	type;
	unsigned char	size;
	unsigned char	is_signed;
	unsigned char	hex;
	unsigned char	bf_width;
	unsigned char	bf_offset;
	unsigned char	count;
	unsigned short	pos;
};

/**
 * struct rt_probe_def - one line of kprobe_events
 * @cmd: 'p', 'r' or '-' ("p SYM%return" is parsed as 'r')
 * @maxactive: kretprobe instances asked for with r<N>, 0 for the default
 * @group: group name ("kprobes" unless given)
 * @event: event name (generated from the target unless given)
 * @mod: module of the target symbol, or NULL
 * @sym: target symbol, or NULL for an address
 * @offset: offset from @sym
 * @addr: target address when @sym is NULL
 * @nr_args: entries in @args
 * @args: fetch arguments
 * @args_text: the arguments as written (for listing), "" if none
 * @target_pos: offset of the probe point in the parsed line, where
 *	error_log points when the kernel refuses it
 * @spec_pos: '-' lines only: offset of the probe point (and arguments)
 *	written after the event, which name one of its probes; 0 if none
 */
struct rt_probe_def {
	char			cmd;
	unsigned int		maxactive;
	char			*group;
	char			*event;
	char			*mod;
	char			*sym;
	unsigned long		offset;
	unsigned long		addr;
	unsigned int		nr_args;
	struct rt_probe_arg	*args;
	char			*args_text;
	unsigned short		target_pos;
	unsigned short		spec_pos;
};

/**
 * struct rt_probe_error - why a line was refused, for error_log
 * @msg: a short reason (static text)
 * @pos: offset in the line of the part at fault
 */
struct rt_probe_error {
	const char	*msg;
	unsigned int	pos;
};

int rt_probe_parse(const char *line, struct rt_probe_def **out,
		   struct rt_probe_error *err);
void rt_probe_def_free(struct rt_probe_def *def);
int rt_probe_def_format(const struct rt_probe_def *d, char *buf, size_t size);

#endif /* _TRACE_RETRACE_PROBE_DEF_H */
