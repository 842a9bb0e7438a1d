// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the marker format parser.  Any string must parse
 * or be refused with a position inside it; a parsed format must respect
 * the limits, name each field with a distinct identifier and point each
 * field at its own conversion, in order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pure_shim.h"
#include <trace/retrace/mark_format.h>

static void fail(const char *what, const char *fmt)
{
	fprintf(stderr, "fuzz check failed: %s: '%s'\n", what, fmt);
	abort();
}

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static void check_field(const char *fmt, size_t len,
			const struct rt_mark_field *f, unsigned int prev_end)
{
	const char *end = memchr(f->name, '\0', RT_MARK_MAX_NAME);
	const char *c;

	if (!end || end == f->name)
		fail("name not terminated or empty", fmt);
	for (c = f->name; c < end; c++)
		if (!ident_char(*c))
			fail("name not an identifier", fmt);
	if (f->spec < prev_end || !f->spec_len ||
	    f->spec + f->spec_len > len || fmt[f->spec] != '%')
		fail("conversion out of place", fmt);
	if (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8)
		fail("size", fmt);
	if (!f->type || f->arg > RT_MARK_STR)
		fail("type or argument kind", fmt);
	if (f->arg == RT_MARK_PTR ? f->conv != 'p' :
	    !f->conv || !strchr("diouxXcs", f->conv) ||
	    fmt[f->spec + f->spec_len - 1] != f->conv)
		fail("conversion character", fmt);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rt_mark_format m;
	unsigned int i, j, err_pos, prev_end = 0;
	size_t len;
	char *fmt;
	int ret;

	fmt = malloc(size + 1);
	memcpy(fmt, data, size);
	fmt[size] = '\0';
	len = strlen(fmt);
	err_pos = -1U;
	ret = rt_mark_format_parse(fmt, &m, &err_pos);
	if (ret) {
		if ((ret != -EINVAL && ret != -E2BIG) || err_pos > len)
			fail("error without a place", fmt);
		free(fmt);
		return 0;
	}
	if (m.nr > RT_MARK_MAX_FIELDS)
		fail("too many fields", fmt);
	for (i = 0; i < m.nr; i++) {
		check_field(fmt, len, &m.f[i], prev_end);
		prev_end = m.f[i].spec + m.f[i].spec_len;
		/* Names are distinct: a format that would need a twin is refused. */
		for (j = 0; j < i; j++)
			if (!strcmp(m.f[i].name, m.f[j].name))
				fail("duplicate names", fmt);
	}
	free(fmt);
	return 0;
}
