/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel calls retrace's parsers use, mapped onto the C library so
 * the same files build as host programs (tests, fuzzers, sanitizers).
 */
#ifndef _RETRACE_PURE_SHIM_H
#define _RETRACE_PURE_SHIM_H

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
/* One load the compiler may not repeat or tear (the kernel's). */
#define READ_ONCE(x)	__atomic_load_n(&(x), __ATOMIC_RELAXED)
#ifndef BUILD_BUG_ON
#define BUILD_BUG_ON(c)	_Static_assert(!(c), #c)
#endif
#define GFP_KERNEL	0
#define kmalloc(n, gfp)		malloc(n)
#define kzalloc(n, gfp)		calloc(1, (n))
#define kcalloc(n, s, gfp)	calloc((n), (s))
#define kfree(p)		free((void *)(p))
#define krealloc(p, n, gfp)	realloc((p), (n))

static inline char *kstrndup(const char *s, size_t n, int gfp)
{
	(void)gfp;
	return strndup(s, n);
}

static inline char *skip_spaces(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return (char *)s;
}

/*
 * The kernel's kstrtoul(): an optional '+', base 0 meaning 0x (hex), 0
 * (octal) or decimal, at least one digit, one newline allowed at the
 * end and nothing else; -ERANGE past ULONG_MAX.
 */
static inline int kstrtoul(const char *s, unsigned int base,
			   unsigned long *res)
{
	unsigned long v = 0;
	int d, digits = 0;

	if (*s == '+')
		s++;
	if (!base) {
		base = 10;
		if (s[0] == '0') {
			base = 8;
			if ((s[1] == 'x' || s[1] == 'X') &&
			    isxdigit((unsigned char)s[2])) {
				base = 16;
				s += 2;
			}
		}
	} else if (base == 16 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
	}
	for (;; s++, digits++) {
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			break;
		if (d >= (int)base)
			break;
		if (v > (ULONG_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	if (!digits)
		return -EINVAL;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*res = v;
	return 0;
}

#endif /* _RETRACE_PURE_SHIM_H */
