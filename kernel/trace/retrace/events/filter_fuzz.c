// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the event filter.  Any input must compile or be
 * refused cleanly (ASan/UBSan watch both), and whatever compiles must
 * obey boolean algebra on a few records: !(E) is the negation of E,
 * (E) && (E) and (E) || (E) equal E, and true/false constants act as
 * identities and dominators of && and ||.  The first input byte picks the
 * record so that the fuzzer can steer field values ($retval may lie in
 * one of filter_records.h's functions, for FIELD.function).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "filter_records.h"

static int eval(const char *expr, const struct test_rec *r)
{
	struct rt_filter *f;
	const char *t;
	int pos, m;
	size_t n;

	if (rt_filter_compile(expr, test_fields, NR_TEST_FIELDS, &f, &pos))
		return -1;
	/* The text kept is the input less trailing white space. */
	t = rt_filter_text(f);
	n = strlen(t);
	if (strncmp(t, expr, n) || strspn(expr + n, " \t\r\n") != strlen(expr + n)) {
		fprintf(stderr, "fuzz check failed: text '%s'\n", expr);
		abort();
	}
	m = rt_filter_match(f, r->bytes, r->len);
	rt_filter_free(f);
	return m;
}

static void fail(const char *what, const char *e)
{
	fprintf(stderr, "fuzz check failed: %s: '%s'\n", what, e);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *names[] = { "getppid", "", "x*y", "abc" };
	struct test_rec r;
	char *e, *w;
	int m, m2;
	uint8_t k;

	if (size < 1 || size > 600)
		return 0;
	k = data[0];
	test_rec_make(&r, k & 1 ? 1 : -1, k & 2 ? 0xffffffff : k, -(int)k,
		      k, k & 4 ? -32768 : 0, names[(k >> 3) & 3],
		      k & 32 ? ~0ULL : k & 64 ? 0x1010 : 0);
	e = strndup((const char *)data + 1, size - 1);
	w = malloc(2 * strlen(e) + 64);
	m = eval(e, &r);
	if (m >= 0) {
		sprintf(w, "!(%s)", e);
		m2 = eval(w, &r);
		/* Parentheses add a level: only the depth limit may refuse. */
		if (m2 >= 0 && m2 == m)
			fail("negation", e);
		sprintf(w, "(%s) && (%s)", e, e);
		m2 = eval(w, &r);
		if (m2 >= 0 && m2 != m)
			fail("conjunction", e);
		sprintf(w, "(%s) || (%s)", e, e);
		m2 = eval(w, &r);
		if (m2 >= 0 && m2 != m)
			fail("disjunction", e);
		/* common_type is always 42: identities and dominators. */
		sprintf(w, "(%s) || common_type == 42", e);
		if (eval(w, &r) == 0)
			fail("or true", e);
		sprintf(w, "common_type != 42 || (%s)", e);
		m2 = eval(w, &r);
		if (m2 >= 0 && m2 != m)
			fail("or false", e);
		sprintf(w, "common_type != 42 && (%s)", e);
		if (eval(w, &r) == 1)
			fail("and false", e);
		sprintf(w, "(%s) && common_type == 42", e);
		m2 = eval(w, &r);
		if (m2 >= 0 && m2 != m)
			fail("and true", e);
	}
	free(w);
	free(e);
	return 0;
}
