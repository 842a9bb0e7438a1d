// SPDX-License-Identifier: GPL-2.0
/*
 * Carrying a cut token over to the next write(); see carry.h.
 *
 * Pure C: builds in the kernel and, through host/pure_shim.h, as a host
 * program for the unit test and the fuzzer (lib/carry_test.c,
 * lib/carry_fuzz.c).
 */
#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/slab.h>
#include <linux/string.h>
#else
#include "pure_shim.h"
#endif
#include <trace/retrace/carry.h>

/**
 * rt_carry_join - the whole tokens of the carried bytes plus @in
 * @c: the carry of this open file
 * @in: the bytes of this write (kernel copy, need not be terminated)
 * @n: their number
 * @delims: the characters that end a token (" \t\n", or "\n" for lines)
 * @err: out, 0 or -E2BIG (a token longer than RT_CARRY_MAX) or -ENOMEM
 *
 * Everything after the last delimiter is kept in @c for the next call;
 * nothing is kept when @in ends with a delimiter.  On error @c is left
 * as it was.
 *
 * Return: a NUL-terminated string of whole tokens (possibly empty) to
 * kfree(), or NULL on error.
 */
char *rt_carry_join(struct rt_carry *c, const char *in, size_t n,
		    const char *delims, int *err)
{
	size_t total = c->len + n, cut = total;
	char *text;

	*err = 0;
	text = kmalloc(total + 1, GFP_KERNEL);
	if (!text) {
		*err = -ENOMEM;
		return NULL;
	}
	memcpy(text, c->buf, c->len);
	memcpy(text + c->len, in, n);
	text[total] = 0;
	while (cut && !strchr(delims, text[cut - 1]))
		cut--;
	if (total - cut > RT_CARRY_MAX) {
		kfree(text);
		*err = -E2BIG;
		return NULL;
	}
	memcpy(c->buf, text + cut, total - cut);
	c->len = total - cut;
	text[cut] = 0;
	return text;
}

/**
 * rt_carry_flush - what is left at close: the last, unterminated token
 * @c: the carry
 *
 * Return: a NUL-terminated copy to kfree() (NULL if nothing is left or
 * no memory); @c is empty afterwards.
 */
char *rt_carry_flush(struct rt_carry *c)
{
	char *text;

	if (!c->len)
		return NULL;
	text = kmalloc(c->len + 1, GFP_KERNEL);
	if (text) {
		memcpy(text, c->buf, c->len);
		text[c->len] = 0;
	}
	c->len = 0;
	return text;
}
