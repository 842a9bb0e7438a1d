/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A marker's format string as event fields: "len %u name %s" has a
 * field "len" (unsigned int) and a field "name" (a string).  The parser
 * says how to take each argument off the va_list, how big the field is
 * and what C type the format file shows.  Pure C, also built as a host
 * program.
 */
#ifndef _TRACE_RETRACE_MARK_FORMAT_H
#define _TRACE_RETRACE_MARK_FORMAT_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#endif

#define RT_MARK_MAX_FIELDS	32
#define RT_MARK_MAX_NAME	32	/* field name, NUL included */
#define RT_MARK_MAX_FORMAT	1024

/* How an argument is read off the va_list (after default promotion). */
enum rt_mark_arg {
	RT_MARK_INT,		/* int: %d %i %c %hd %hhd ... */
	RT_MARK_UINT,		/* unsigned int: %u %x %o %X %hu ... */
	RT_MARK_LONG,		/* long: %ld */
	RT_MARK_ULONG,		/* unsigned long: %lu %lx */
	RT_MARK_LLONG,		/* long long: %lld %jd */
	RT_MARK_ULLONG,		/* unsigned long long: %llu %llx %ju */
	RT_MARK_SIZE,		/* size_t: %zu %zx, and ssize_t: %zd */
	RT_MARK_PTRDIFF,	/* ptrdiff_t: %td */
	RT_MARK_PTR,		/* void *: %p, %pS, %ps, %pB, %px */
	RT_MARK_STR,		/* const char *: %s */
};

/**
 * struct rt_mark_field - one conversion of the format
 * @name: the field's name: the word just before the conversion, or
 *	argN (N counting from 0) if there is none or it is taken
 * @type: C type for the format file ("unsigned int")
 * @arg: enum rt_mark_arg
 * @size: bytes in the record (4 for a string's locator)
 * @is_signed: compare and print as signed
 * @conv: the conversion character ('d', 'x', 's', 'p', ...)
 * @spec: offset of the '%' in the format
 * @spec_len: length of the conversion, '%' to its last character
 */
struct rt_mark_field {
	char		name[RT_MARK_MAX_NAME];
	const char	*type;
	unsigned char	arg;
	unsigned char	size;
	bool		is_signed;
	char		conv;
	unsigned short	spec;
	unsigned short	spec_len;
};

/**
 * struct rt_mark_format - a parsed format string
 * @nr: fields in @f
 * @f: the fields, in argument order
 */
struct rt_mark_format {
	unsigned int		nr;
	struct rt_mark_field	f[RT_MARK_MAX_FIELDS];
};

int rt_mark_format_parse(const char *fmt, struct rt_mark_format *out,
			 unsigned int *err_pos);

#endif /* _TRACE_RETRACE_MARK_FORMAT_H */
