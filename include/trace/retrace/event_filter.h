/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Event filters: a boolean expression over a record's fields, compiled
 * once when written to an event's "filter" file and evaluated for every
 * record of that event.  Pure C, also built as a host program.
 */
#ifndef _TRACE_RETRACE_EVENT_FILTER_H
#define _TRACE_RETRACE_EVENT_FILTER_H

#ifdef __KERNEL__
#include <linux/string.h>
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#endif

/* How a field's bytes are to be read. */
enum rt_field_kind {
	RT_FIELD_INT,		/* 1, 2, 4 or 8 byte integer */
	RT_FIELD_STRING,	/* u32 (len << 16 | offset) of a NUL-ended string */
	RT_FIELD_BYTES,		/* opaque; shown in format, not filterable */
	RT_FIELD_CHARS,		/* char name[size]: a string NUL-ended inside */
	RT_FIELD_TAIL,		/* char name[]: a string to the record's end */
};

/**
 * struct rt_event_field - one field of an event record
 * @type: C type as shown in the format file ("unsigned long", "u32")
 * @name: field name, as used in filters and print fmt
 * @offset: byte offset from the start of the record (header included)
 * @size: bytes
 * @is_signed: compare and print as signed
 * @kind: how to read it
 */
struct rt_event_field {
	const char	*type;
	const char	*name;
	unsigned short	offset;
	unsigned short	size;
	unsigned char	is_signed;
	unsigned char	kind;
};

/* Limits that keep compilation and evaluation bounded. */
#define RT_FILTER_MAX_TEXT	4096
#define RT_FILTER_MAX_PREDS	128
#define RT_FILTER_MAX_DEPTH	32	/* nesting of '(' and '!' */
#define RT_FILTER_MAX_STRING	256

/**
 * rt_field_value - an integer field's value (records are little endian)
 * @p: the field
 * @size: 1, 2, 4 or 8 bytes
 * @is_signed: sign-extend from @size bytes
 *
 * Return: the value, widened to 64 bits.
 */
static inline unsigned long long rt_field_value(const void *p,
						unsigned int size,
						bool is_signed)
{
	unsigned long long v = 0;
	unsigned int shift = 64 - 8 * size;

	memcpy(&v, p, size);
	if (is_signed && shift)
		v = (unsigned long long)((long long)(v << shift) >> shift);
	return v;
}

/**
 * rt_field_string - the string a RT_FIELD_STRING locator points to
 * @rec: the record
 * @len: its length
 * @off: offset of the u32 locator (length << 16 | offset, NUL included)
 *
 * Return: the string, or NULL if the locator is empty, points outside
 * the record or at bytes without their NUL (a fault, or corruption).
 */
static inline const char *rt_field_string(const void *rec, unsigned int len,
					  unsigned int off)
{
	const unsigned char *r = rec;
	unsigned int loc, start, n;

	memcpy(&loc, r + off, sizeof(loc));
	start = loc & 0xffff;
	n = loc >> 16;
	if (!n || start + n > len || r[start + n - 1])
		return NULL;
	return (const char *)r + start;
}

/**
 * rt_field_chars - the string in a RT_FIELD_CHARS array
 * @rec: the record
 * @len: its length
 * @off: offset of the array
 * @size: its bytes
 *
 * Return: the string, or NULL if the array is not all inside the record
 * or holds no NUL (the string would run past it).
 */
static inline const char *rt_field_chars(const void *rec, unsigned int len,
					 unsigned int off, unsigned int size)
{
	const char *s = (const char *)rec + off;

	if (!size || off + size > len || !memchr(s, 0, size))
		return NULL;
	return s;
}

/**
 * rt_field_tail - the string a RT_FIELD_TAIL field holds
 * @rec: the record
 * @len: its length
 * @off: where the string starts
 *
 * Return: the string, or NULL if it starts past the record or has no
 * NUL before the record's end.
 */
static inline const char *rt_field_tail(const void *rec, unsigned int len,
					unsigned int off)
{
	const char *s = (const char *)rec + off;

	if (off >= len || !memchr(s, 0, len - off))
		return NULL;
	return s;
}

struct rt_filter;

/**
 * rt_filter_func_bounds - the function a FIELD.function predicate names
 * @name: a symbol name, or NULL to look @addr up instead
 * @addr: a text address (when @name is NULL)
 * @start: out, the function's first byte
 * @end: out, one past its last byte
 *
 * The kernel's is kallsyms (events/filter_func.c); each host program
 * that compiles filters supplies its own table.  Called only while a
 * filter is compiled, in process context.
 *
 * Return: true when a function was found.
 */
bool rt_filter_func_bounds(const char *name, unsigned long long addr,
			   unsigned long long *start, unsigned long long *end);

int rt_filter_compile(const char *text, const struct rt_event_field *fields,
		      unsigned int nr_fields, struct rt_filter **out,
		      int *err_pos);
bool rt_filter_match(const struct rt_filter *f, const void *rec,
		     unsigned int len);
const char *rt_filter_text(const struct rt_filter *f);
void rt_filter_free(struct rt_filter *f);

#endif /* _TRACE_RETRACE_EVENT_FILTER_H */
