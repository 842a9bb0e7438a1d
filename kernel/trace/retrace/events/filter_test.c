// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests for the event filter: every operator on every field kind,
 * signedness, precedence, and each kind of malformed expression with
 * the position the parser blames.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "filter_records.h"

static int failures;

static void check(const char *name, int cond)
{
	char line[200], *nl;

	snprintf(line, sizeof(line), "%s", name);
	while ((nl = strchr(line, '\n')))
		*nl = ' ';	/* one result per line */
	printf("%s %s\n", cond ? "ok" : "not ok", line);
	if (!cond)
		failures++;
}

/* Compile @expr and match it against @r; -1 if it does not compile. */
static int eval(const char *expr, const struct test_rec *r)
{
	struct rt_filter *f;
	int pos, m;

	if (rt_filter_compile(expr, test_fields, NR_TEST_FIELDS, &f, &pos))
		return -1;
	m = rt_filter_match(f, r->bytes, r->len);
	rt_filter_free(f);
	return m;
}

static void test_matches(void)
{
	static const struct { const char *e; int m; } t[] = {
		{ "common_pid == 1234", 1 }, { "common_pid != 1234", 0 },
		{ "common_pid==1234", 1 }, { "common_pid > 1000", 1 },
		{ "common_pid < 1234", 0 }, { "common_pid <= 1234", 1 },
		{ "common_pid >= 1235", 0 }, { "common_type == 42", 1 },
		{ "a == 0xdeadbeef", 1 }, { "a > 0x7fffffff", 1 },
		{ "a & 0x1", 1 }, { "a & 0x10", 0 }, { "a == 3735928559", 1 },
		{ "s == -5", 1 }, { "s < 0", 1 }, { "s > -6", 1 },
		{ "s >= -5 && s <= -5", 1 }, { "b == 255", 1 }, { "b > 254", 1 },
		{ "c == -2", 1 }, { "c < -1", 1 }, { "c == 65534", 0 },
		{ "name == \"getppid\"", 1 }, { "name == getppid", 1 },
		{ "name == 'getppid'", 1 }, { "name != getppid", 0 },
		{ "name == get*", 1 }, { "name == *pid", 1 },
		{ "name == *tpp*", 1 }, { "name == g?tppid", 1 },
		{ "name == getpid", 0 }, { "name != *x*", 1 },
		{ "$retval == 0xffffffffffffffff", 1 }, { "$retval > 0", 1 },
		{ "a == 1 || b == 255", 1 }, { "a == 1 && b == 255", 0 },
		{ "!(a == 1)", 1 }, { "!a == 1", 1 }, { "!!(b == 255)", 1 },
		{ "a == 1 || b == 255 && c == 5", 0 },
		{ "(a == 1 || b == 255) && c == -2", 1 },
		{ "a == 1 && b == 2 || c == -2", 1 },
		{ "((((((common_pid == 1234))))))", 1 },
		{ "  common_pid == 1234  \n", 1 },
		{ "common_pid == 1234 && !(name == x* || s > 0)", 1 },
		{ "a == 017", 0 }, { "common_flags == 0", 1 },
	};
	struct test_rec r;
	unsigned int i;
	char name[160];

	test_rec_make(&r, 1234, 0xdeadbeef, -5, 255, -2, "getppid", ~0ULL);
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		snprintf(name, sizeof(name), "filter_match '%s'", t[i].e);
		check(name, eval(t[i].e, &r) == t[i].m);
	}
}

static void test_errors(void)
{
	static const struct { const char *e; int pos; } t[] = {
		{ "", 0 }, { "nosuch == 1", 7 }, { "a = 1", 2 },
		{ "a == ", 4 }, { "a == x", 5 }, { "a == 1 &&", 9 },
		{ "(a == 1", 7 }, { "a == 1)", 6 }, { "a == 1 ||| b == 1", 9 },
		{ "a == -1", 5 }, { "name < abc", 7 }, { "name & 1", 7 },
		{ "name == \"abc", 8 }, { "blob == 1", 5 }, { "nosuch", 6 },
		{ "a == 0x", 5 }, { "a == 12z", 7 }, { "a == 099", 5 },
		{ "a == 0x1ffffffffffffffff", 5 },
		{ "s == -9223372036854775809", 5 }, { "a == 1 b == 2", 7 },
		{ "&& a == 1", 0 }, { "()", 1 }, { "!", 1 },
		{ "common_pid", 10 },
	};
	struct rt_filter *f;
	unsigned int i;
	char name[160];
	int pos, ret;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		f = NULL;
		ret = rt_filter_compile(t[i].e, test_fields, NR_TEST_FIELDS,
					&f, &pos);
		snprintf(name, sizeof(name), "filter_error '%s' at %d (got %d, %d)",
			 t[i].e, t[i].pos, ret, pos);
		check(name, ret == -EINVAL && !f && pos == t[i].pos);
	}
}

static void test_limits(void)
{
	char buf[RT_FILTER_MAX_TEXT + 16];
	struct test_rec r;
	unsigned int i, n;

	test_rec_make(&r, 7, 1, 0, 0, 0, "x", 0);
	/* As many predicates as allowed, then one more. */
	for (n = 0, i = 0; i < RT_FILTER_MAX_PREDS; i++)
		n += sprintf(buf + n, "%sa == %u", i ? " || " : "", i);
	check("filter_limit max predicates", eval(buf, &r) == 1);
	sprintf(buf + n, " || a == 9");
	check("filter_limit too many predicates", eval(buf, &r) == -1);

	/* Nesting as deep as allowed, then one deeper. */
	n = 0;
	for (i = 0; i < RT_FILTER_MAX_DEPTH; i++)
		buf[n++] = '(';
	n += sprintf(buf + n, "a == 1");
	for (i = 0; i < RT_FILTER_MAX_DEPTH; i++)
		buf[n++] = ')';
	buf[n] = 0;
	check("filter_limit max depth", eval(buf, &r) == 1);
	memmove(buf + 1, buf, n + 1);
	buf[0] = '!';
	check("filter_limit too deep", eval(buf, &r) == -1);

	/* Right-nested expressions use the evaluation stack. */
	n = 0;
	for (i = 0; i < RT_FILTER_MAX_DEPTH; i++)
		n += sprintf(buf + n, "a == 0 || (");
	n += sprintf(buf + n, "a == 1");
	for (i = 0; i < RT_FILTER_MAX_DEPTH; i++)
		buf[n++] = ')';
	buf[n] = 0;
	check("filter_limit right-nested", eval(buf, &r) == 1);

	memset(buf, ' ', sizeof(buf));
	memcpy(buf, "a == 1", 6);
	buf[RT_FILTER_MAX_TEXT + 1] = 0;
	check("filter_limit text too long", eval(buf, &r) == -1);

	/* Strings at the limit; a field beyond the record never matches. */
	memset(buf, 'x', sizeof(buf));
	memcpy(buf, "name == ", 8);
	buf[8 + RT_FILTER_MAX_STRING - 1] = 0;
	check("filter_limit long string", eval(buf, &r) == 0);
	buf[8 + RT_FILTER_MAX_STRING - 1] = 'x';
	buf[8 + RT_FILTER_MAX_STRING] = 0;
	check("filter_limit string too long", eval(buf, &r) == -1);
	r.len = 20;
	check("filter_limit short record", eval("s == 0", &r) == 0);
	check("filter_limit short record negated", eval("s != 0", &r) == 0);
}

static void test_corrupt_strings(void)
{
	struct test_rec r;
	uint32_t loc;

	test_rec_make(&r, 7, 1, 0, 0, 0, "abc", 0);
	loc = 4u << 16 | 126;	/* runs past the record */
	memcpy(r.bytes + 28, &loc, 4);
	check("filter_string out of bounds", eval("name == *", &r) == 0);
	test_rec_make(&r, 7, 1, 0, 0, 0, "abc", 0);
	r.bytes[48 + 3] = 'd';	/* no NUL */
	check("filter_string unterminated", eval("name == abc*", &r) == 0);
	test_rec_make(&r, 7, 1, 0, 0, 0, "", 0);
	check("filter_string empty", eval("name == \"\"", &r) == 1);
}

/*
 * A string to the end of the record (RT_FIELD_TAIL, as "char buf[]" of
 * a trace_marker write): string operators only; none without a NUL
 * before the record ends, or starting past it.
 */
static void test_tail(void)
{
	struct test_rec r;

	test_rec_make(&r, 7, 1, 0, 0, 0, "hello world", 0);
	check("filter_tail glob", eval("tail == hello*", &r) == 1);
	check("filter_tail exact", eval("tail == \"hello world\"", &r) == 1);
	check("filter_tail !=", eval("tail != *world", &r) == 0);
	check("filter_tail no match", eval("tail == bye", &r) == 0);
	check("filter_tail no number ops", eval("tail > 1", &r) == -1);
	check("filter_tail and name agree",
	      eval("tail == h*d && name == h*d", &r) == 1);
	r.len--;	/* the NUL is cut off */
	check("filter_tail unterminated", eval("tail == hello*", &r) == 0);
	r.len = 48;	/* the string would start at the record's end */
	check("filter_tail past the record", eval("tail == *", &r) == 0);
}

/*
 * A fixed char array (RT_FIELD_CHARS, as "char prev_comm[16]" of
 * sched_switch): string operators only, the string ends at its NUL, an
 * array without one or running past the record matches nothing.
 */
static const struct rt_event_field chars_fields[] = {
	{ "int", "common_pid", 4, 4, 1, RT_FIELD_INT },
	{ "char", "comm", 8, 16, 1, RT_FIELD_CHARS },
};

static int eval_chars(const char *expr, const unsigned char *rec,
		      unsigned int len)
{
	struct rt_filter *f;
	int pos, m;

	if (rt_filter_compile(expr, chars_fields, 2, &f, &pos))
		return -1;
	m = rt_filter_match(f, rec, len);
	rt_filter_free(f);
	return m;
}

static void test_chars(void)
{
	unsigned char rec[24] = { 0 };

	memcpy(rec + 8, "kworker/0:1", 12);
	check("filter_chars glob", eval_chars("comm == kworker*", rec, 24) == 1);
	check("filter_chars exact", eval_chars("comm == \"kworker/0:1\"", rec, 24) == 1);
	check("filter_chars ends at NUL", eval_chars("comm == kworker/0:1?*", rec, 24) == 0);
	check("filter_chars !=", eval_chars("comm != kworker*", rec, 24) == 0);
	check("filter_chars no number ops", eval_chars("comm > 1", rec, 24) == -1);
	check("filter_chars no mask", eval_chars("comm & 1", rec, 24) == -1);
	check("filter_chars short record", eval_chars("comm == kworker*", rec, 23) == 0);
	memset(rec + 8, 'x', 16);
	check("filter_chars unterminated", eval_chars("comm == x*", rec, 24) == 0);
	rec[23] = 0;
	check("filter_chars full length", eval_chars("comm == xxxxxxxxxxxxxxx", rec, 24) == 1);
}

static void test_text(void)
{
	struct rt_filter *f;
	int pos;

	check("filter_text compiles",
	      !rt_filter_compile("a == 1 && b == 2 \n", test_fields,
				 NR_TEST_FIELDS, &f, &pos));
	check("filter_text kept without trailing space",
	      !strcmp(rt_filter_text(f), "a == 1 && b == 2"));
	rt_filter_free(f);
}

/* FIELD.function: a range test against filter_records.h's functions. */
static void test_function(void)
{
	static const struct { unsigned long long v; const char *e; int m; } t[] = {
		{ 0x1010, "$retval.function == getppid_fn", 1 },
		{ 0x1010, "$retval.function == next_fn", 0 },
		{ 0x1010, "$retval.function != getppid_fn", 0 },
		{ 0x1010, "$retval.function != next_fn", 1 },
		{ 0x1010, "$retval.function == 0x10ff", 1 },
		{ 0x1010, "$retval.function == 0x1100", 0 },
		{ 0x1010, "$retval.function == 4096", 1 },
		{ 0x1010, "$retval.function == 'getppid_fn'", 1 },
		{ 0x1000, "$retval.function == getppid_fn", 1 },
		{ 0x10ff, "$retval.function == getppid_fn", 1 },
		{ 0x1100, "$retval.function == getppid_fn", 0 },
		{ 0x1100, "$retval.function == next_fn", 1 },
		{ 0x117f, "$retval.function == next_fn", 1 },
		{ 0x1180, "$retval.function == next_fn", 0 },
		{ 0x0fff, "$retval.function != getppid_fn", 1 },
		{ 0xdeadbeef, "$retval.function == far_fn", 1 },
		{ 0xdeadbeef, "$retval.function == 0xdead0000 && a == 0xdeadbeef", 1 },
		{ 0xdeadbeef, "!($retval.function == far_fn)", 0 },
		/* a signed 8-byte field (s is 0x1010 here) works too */
		{ 0x1010, "s.function == getppid_fn", 1 },
	};
	static const struct { const char *e; int pos; } bad[] = {
		{ "a.function == getppid_fn", 11 },
		{ "name.function == getppid_fn", 14 },
		{ "nosuch.function == getppid_fn", 16 },
		{ "$retval.function < getppid_fn", 19 },
		{ "$retval.function & 0x1000", 19 },
		{ "$retval.function == nosuch_fn", 20 },
		{ "$retval.function == 0x5", 20 },
		{ "$retval.function == 0x10z", 24 },
		{ "$retval.function ==", 19 },
		{ ".function == getppid_fn", 0 },
	};
	struct rt_filter *f;
	struct test_rec r;
	unsigned int i;
	char name[160];
	int pos, ret;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		test_rec_make(&r, 1, 0xdeadbeef, 0x1010, 0, 0, "x", t[i].v);
		snprintf(name, sizeof(name), "filter_function '%s' on 0x%llx",
			 t[i].e, t[i].v);
		check(name, eval(t[i].e, &r) == t[i].m);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		f = NULL;
		ret = rt_filter_compile(bad[i].e, test_fields, NR_TEST_FIELDS,
					&f, &pos);
		snprintf(name, sizeof(name),
			 "filter_function_error '%s' at %d (got %d, %d)",
			 bad[i].e, bad[i].pos, ret, pos);
		check(name, ret == -EINVAL && !f && pos == bad[i].pos);
	}
}

int main(void)
{
	test_matches();
	test_errors();
	test_limits();
	test_corrupt_strings();
	test_tail();
	test_chars();
	test_text();
	test_function();
	printf("# filter_test: %d failure(s)\n", failures);
	return failures ? 1 : 0;
}
