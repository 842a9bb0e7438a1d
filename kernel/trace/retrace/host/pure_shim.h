/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel calls retrace's parsers use, mapped onto the C library so
 * the same files build as host programs (tests, fuzzers, sanitizers).
 */
#ifndef _RETRACE_PURE_SHIM_H
#define _RETRACE_PURE_SHIM_H

#include <errno.h>
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

#endif /* _RETRACE_PURE_SHIM_H */
