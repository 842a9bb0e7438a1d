// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests for the marker format parser: how each conversion is read
 * off the va_list, its size and C type, the text it covers, how fields
 * are named, and each refusal with its errno and position.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pure_shim.h"
#include <trace/retrace/mark_format.h>

#define NCASES(a) ((unsigned int)(sizeof(a) / sizeof((a)[0])))

static int failures;

static void check(const char *name, int cond)
{
	printf("%s %s\n", cond ? "ok" : "not ok", name);
	if (!cond)
		failures++;
}

/* One expected field; @spec_text is what fmt + @spec must spell. */
struct mark_exp {
	const char	*name;
	enum rt_mark_arg arg;
	unsigned int	size;
	bool		is_signed;
	const char	*type;
	char		conv;
	unsigned int	spec;
	const char	*spec_text;
};

#define MARK_EXP_MAX	4

struct mark_ok_case {
	const char	*fmt;
	unsigned int	nr;
	struct mark_exp	f[MARK_EXP_MAX];
};

#define INT_F(n, at, s)	{ n, RT_MARK_INT, 4, true, "int", 'd', at, s }
#define UINT_F(n, c, at, s) \
	{ n, RT_MARK_UINT, 4, false, "unsigned int", c, at, s }
#define STR_F(n, at, s)	{ n, RT_MARK_STR, 4, false, "__data_loc char[]", 's', at, s }
#define PTR_F(n, at, s)	{ n, RT_MARK_PTR, 8, false, "void *", 'p', at, s }

static const struct mark_ok_case ok_cases[] = {
	/* The example of the spec. */
	{ "myint %d mystring %s", 2,
	  { INT_F("myint", 6, "%d"), STR_F("mystring", 18, "%s") } },
	/* No conversions. */
	{ "", 0 },
	{ " ", 0 },
	{ "nothing to convert here", 0 },
	{ "%%", 0 },
	{ "%%%%", 0 },
	{ "100%% done %u", 1, { UINT_F("done", 'u', 11, "%u") } },
	{ "%%d %d", 1, { INT_F("d", 4, "%d") } },
	{ "50%%%d", 1, { INT_F("arg0", 4, "%d") } },
	{ "%d%%%d", 2, { INT_F("arg0", 0, "%d"), INT_F("arg1", 4, "%d") } },
	/* Names: the word before, after blanks and one of "=:". */
	{ "a=%d", 1, { INT_F("a", 2, "%d") } },
	{ "a = %d", 1, { INT_F("a", 4, "%d") } },
	{ "b: %u", 1, { UINT_F("b", 'u', 3, "%u") } },
	{ "x %d", 1, { INT_F("x", 2, "%d") } },
	{ "x   %d", 1, { INT_F("x", 4, "%d") } },
	{ "len:%u", 1, { UINT_F("len", 'u', 4, "%u") } },
	{ "pid %d comm %s prio %d", 3,
	  { INT_F("pid", 4, "%d"), STR_F("comm", 12, "%s"),
	    INT_F("prio", 20, "%d") } },
	{ "task foo_bar2=%d", 1, { INT_F("foo_bar2", 14, "%d") } },
	{ "_x %d", 1, { INT_F("_x", 3, "%d") } },
	{ "open(%s) = %d", 2, { STR_F("arg0", 5, "%s"), INT_F("arg1", 11, "%d") } },
	/* Unnamed conversions count from 0. */
	{ "%d %d", 2, { INT_F("arg0", 0, "%d"), INT_F("arg1", 3, "%d") } },
	{ "%d%d%d", 3,
	  { INT_F("arg0", 0, "%d"), INT_F("arg1", 2, "%d"),
	    INT_F("arg2", 4, "%d") } },
	{ "v %d %d", 2, { INT_F("v", 2, "%d"), INT_F("arg1", 5, "%d") } },
	/* A name taken already falls back to argN. */
	{ "x %d x %d", 2, { INT_F("x", 2, "%d"), INT_F("arg1", 7, "%d") } },
	{ "x %d y %d x %d", 3,
	  { INT_F("x", 2, "%d"), INT_F("y", 7, "%d"), INT_F("arg2", 12, "%d") } },
	{ "%d arg0 %d", 2, { INT_F("arg0", 0, "%d"), INT_F("arg1", 8, "%d") } },
	/* A word took argN: the auto name gets '_' until it is free. */
	{ "arg1 %d %d", 2, { INT_F("arg1", 5, "%d"), INT_F("arg1_", 8, "%d") } },
	{ "arg2 %d arg2_ %d %d", 3,
	  { INT_F("arg2", 5, "%d"), INT_F("arg2_", 14, "%d"),
	    INT_F("arg2__", 17, "%d") } },
	{ "arg2_ %d arg2 %d %d", 3,
	  { INT_F("arg2_", 6, "%d"), INT_F("arg2", 14, "%d"),
	    INT_F("arg2__", 17, "%d") } },
	/* Words that cannot be names. */
	{ "common_pid %d", 1, { INT_F("arg0", 11, "%d") } },
	{ "common_ %d", 1, { INT_F("arg0", 8, "%d") } },
	{ "commonpid %d", 1, { INT_F("commonpid", 10, "%d") } },
	{ "x common_pid %d y %d", 2,
	  { INT_F("arg0", 13, "%d"), INT_F("y", 18, "%d") } },
	{ "9lives %d", 1, { INT_F("arg0", 7, "%d") } },
	{ "0 %d", 1, { INT_F("arg0", 2, "%d") } },
	{ "x9 %d", 1, { INT_F("x9", 3, "%d") } },
	{ "abcdefghijklmnopqrstuvwxyz01234 %d", 1,
	  { INT_F("abcdefghijklmnopqrstuvwxyz01234", 32, "%d") } },
	{ "abcdefghijklmnopqrstuvwxyz012345 %d", 1,
	  { INT_F("arg0", 33, "%d") } },
	{ "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ %d", 1,
	  { INT_F("arg0", 47, "%d") } },
	/* Every length modifier with signed and unsigned conversions. */
	{ "v %d", 1, { INT_F("v", 2, "%d") } },
	{ "v %i", 1, { { "v", RT_MARK_INT, 4, true, "int", 'i', 2, "%i" } } },
	{ "v %u", 1, { UINT_F("v", 'u', 2, "%u") } },
	{ "v %o", 1, { UINT_F("v", 'o', 2, "%o") } },
	{ "v %x", 1, { UINT_F("v", 'x', 2, "%x") } },
	{ "v %X", 1, { UINT_F("v", 'X', 2, "%X") } },
	{ "v %hhd", 1,
	  { { "v", RT_MARK_INT, 1, true, "signed char", 'd', 2, "%hhd" } } },
	{ "v %hhi", 1,
	  { { "v", RT_MARK_INT, 1, true, "signed char", 'i', 2, "%hhi" } } },
	{ "v %hhu", 1,
	  { { "v", RT_MARK_UINT, 1, false, "unsigned char", 'u', 2, "%hhu" } } },
	{ "v %hhx", 1,
	  { { "v", RT_MARK_UINT, 1, false, "unsigned char", 'x', 2, "%hhx" } } },
	{ "v %hd", 1,
	  { { "v", RT_MARK_INT, 2, true, "short", 'd', 2, "%hd" } } },
	{ "v %hu", 1,
	  { { "v", RT_MARK_UINT, 2, false, "unsigned short", 'u', 2, "%hu" } } },
	{ "v %ho", 1,
	  { { "v", RT_MARK_UINT, 2, false, "unsigned short", 'o', 2, "%ho" } } },
	{ "v %ld", 1,
	  { { "v", RT_MARK_LONG, 8, true, "long", 'd', 2, "%ld" } } },
	{ "v %lu", 1,
	  { { "v", RT_MARK_ULONG, 8, false, "unsigned long", 'u', 2, "%lu" } } },
	{ "v %lx", 1,
	  { { "v", RT_MARK_ULONG, 8, false, "unsigned long", 'x', 2, "%lx" } } },
	{ "v %lld", 1,
	  { { "v", RT_MARK_LLONG, 8, true, "long long", 'd', 2, "%lld" } } },
	{ "v %llu", 1,
	  { { "v", RT_MARK_ULLONG, 8, false, "unsigned long long", 'u', 2,
	      "%llu" } } },
	{ "v %llX", 1,
	  { { "v", RT_MARK_ULLONG, 8, false, "unsigned long long", 'X', 2,
	      "%llX" } } },
	{ "v %zd", 1,
	  { { "v", RT_MARK_SIZE, 8, true, "ssize_t", 'd', 2, "%zd" } } },
	{ "v %zu", 1,
	  { { "v", RT_MARK_SIZE, 8, false, "size_t", 'u', 2, "%zu" } } },
	{ "v %zx", 1,
	  { { "v", RT_MARK_SIZE, 8, false, "size_t", 'x', 2, "%zx" } } },
	{ "v %td", 1,
	  { { "v", RT_MARK_PTRDIFF, 8, true, "ptrdiff_t", 'd', 2, "%td" } } },
	{ "v %tu", 1,
	  { { "v", RT_MARK_PTRDIFF, 8, false, "ptrdiff_t", 'u', 2, "%tu" } } },
	{ "v %jd", 1,
	  { { "v", RT_MARK_LLONG, 8, true, "s64", 'd', 2, "%jd" } } },
	{ "v %ju", 1,
	  { { "v", RT_MARK_ULLONG, 8, false, "u64", 'u', 2, "%ju" } } },
	{ "v %jx", 1,
	  { { "v", RT_MARK_ULLONG, 8, false, "u64", 'x', 2, "%jx" } } },
	/* %c, %s and %p. */
	{ "ch %c", 1, { { "ch", RT_MARK_INT, 1, false, "char", 'c', 3, "%c" } } },
	{ "s %s", 1, { STR_F("s", 2, "%s") } },
	{ "p %p", 1, { PTR_F("p", 2, "%p") } },
	{ "p %px", 1, { PTR_F("p", 2, "%px") } },
	{ "p %pS", 1, { PTR_F("p", 2, "%pS") } },
	{ "p %ps", 1, { PTR_F("p", 2, "%ps") } },
	{ "p %pB", 1, { PTR_F("p", 2, "%pB") } },
	{ "%p %p", 2, { PTR_F("arg0", 0, "%p"), PTR_F("arg1", 3, "%p") } },
	{ "at %pS, %pB.", 2, { PTR_F("at", 3, "%pS"), PTR_F("arg1", 8, "%pB") } },
	{ "ip %p_tail %d", 2, { PTR_F("ip", 3, "%p"), INT_F("_tail", 11, "%d") } },
	{ "%pS%d", 2, { PTR_F("arg0", 0, "%pS"), INT_F("arg1", 3, "%d") } },
	/* Flags, width and precision belong to the conversion. */
	{ "v %-08.3lx", 1,
	  { { "v", RT_MARK_ULONG, 8, false, "unsigned long", 'x', 2,
	      "%-08.3lx" } } },
	{ "v %+d", 1, { INT_F("v", 2, "%+d") } },
	{ "v % d", 1, { INT_F("v", 2, "% d") } },
	{ "v %#o", 1, { UINT_F("v", 'o', 2, "%#o") } },
	{ "v %#-+ 0x", 1, { UINT_F("v", 'x', 2, "%#-+ 0x") } },
	{ "v %012hhu", 1,
	  { { "v", RT_MARK_UINT, 1, false, "unsigned char", 'u', 2, "%012hhu" } } },
	{ "v %.d", 1, { INT_F("v", 2, "%.d") } },
	{ "name %-16.15s!", 1, { STR_F("name", 5, "%-16.15s") } },
	{ "v %4c", 1, { { "v", RT_MARK_INT, 1, false, "char", 'c', 2, "%4c" } } },
	{ "v %#18p", 1, { PTR_F("v", 2, "%#18p") } },
	{ "v %-20pS", 1, { PTR_F("v", 2, "%-20pS") } },
};

static void print_got(const char *fmt, int ret, const struct rt_mark_format *m)
{
	unsigned int i;

	printf("# '%s': ret %d nr %u\n", fmt, ret, m->nr);
	for (i = 0; !ret && i < m->nr && i < RT_MARK_MAX_FIELDS; i++)
		printf("#   %u: name '%.*s' arg %u size %u signed %d type '%s' conv '%c' spec %u+%u\n",
		       i, RT_MARK_MAX_NAME, m->f[i].name, m->f[i].arg,
		       m->f[i].size, m->f[i].is_signed,
		       m->f[i].type ? m->f[i].type : "(null)",
		       m->f[i].conv ? m->f[i].conv : '?', m->f[i].spec,
		       m->f[i].spec_len);
}

static bool field_ok(const char *fmt, const struct rt_mark_field *f,
		     const struct mark_exp *e)
{
	size_t len = strlen(e->spec_text);

	return memchr(f->name, '\0', RT_MARK_MAX_NAME) &&
	       !strcmp(f->name, e->name) && f->arg == e->arg &&
	       f->size == e->size && f->is_signed == e->is_signed &&
	       f->type && !strcmp(f->type, e->type) && f->conv == e->conv &&
	       f->spec == e->spec && f->spec_len == len &&
	       f->spec + len <= strlen(fmt) &&
	       !strncmp(fmt + f->spec, e->spec_text, len);
}

static void test_ok_cases(void)
{
	struct rt_mark_format *m = malloc(sizeof(*m));
	unsigned int i, j, err_pos;
	char name[96];
	bool good;
	int ret;

	for (i = 0; i < NCASES(ok_cases); i++) {
		const struct mark_ok_case *c = &ok_cases[i];

		memset(m, 0xa5, sizeof(*m));
		err_pos = 12345;
		ret = rt_mark_format_parse(c->fmt, m, &err_pos);
		good = !ret && m->nr == c->nr && !err_pos;
		for (j = 0; good && j < c->nr; j++)
			good = field_ok(c->fmt, &m->f[j], &c->f[j]);
		snprintf(name, sizeof(name), "mark parse '%s'", c->fmt);
		check(name, good);
		if (!good)
			print_got(c->fmt, ret, m);
	}
	free(m);
}

struct mark_bad_case {
	const char	*fmt;
	int		ret;
	unsigned int	err_pos;
};

static const struct mark_bad_case bad_cases[] = {
	/* '*' widths would take an unnamed int. */
	{ "%*d", -EINVAL, 1 },
	{ "%.*s", -EINVAL, 2 },
	{ "v %-*d", -EINVAL, 4 },
	/* Writes and floating point. */
	{ "%n", -EINVAL, 1 },
	{ "ok %d then %n", -EINVAL, 12 },
	{ "%f", -EINVAL, 1 },
	{ "%e", -EINVAL, 1 },
	{ "%g", -EINVAL, 1 },
	{ "%a", -EINVAL, 1 },
	{ "%Lf", -EINVAL, 1 },
	{ "%lf", -EINVAL, 2 },
	/* No length modifier on c, s or p. */
	{ "%ls", -EINVAL, 2 },
	{ "%lc", -EINVAL, 2 },
	{ "%hp", -EINVAL, 2 },
	{ "%hhs", -EINVAL, 3 },
	{ "%zs", -EINVAL, 2 },
	{ "%jc", -EINVAL, 2 },
	{ "%tp", -EINVAL, 2 },
	{ "%llpS", -EINVAL, 3 },
	/* %p extensions other than S s B x. */
	{ "%pK", -EINVAL, 2 },
	{ "%pI4", -EINVAL, 2 },
	{ "%pa", -EINVAL, 2 },
	{ "%pM", -EINVAL, 2 },
	{ "%p4", -EINVAL, 2 },
	{ "%pSx", -EINVAL, 3 },
	{ "%pSR", -EINVAL, 3 },
	{ "%pBb", -EINVAL, 3 },
	{ "%pxy", -EINVAL, 3 },
	{ "%ps1", -EINVAL, 3 },
	/* Unknown conversions and modifiers. */
	{ "%q", -EINVAL, 1 },
	{ "%D", -EINVAL, 1 },
	{ "%C", -EINVAL, 1 },
	{ "%S", -EINVAL, 1 },
	{ "% ", -EINVAL, 2 },
	{ "%lld %llld", -EINVAL, 8 },
	{ "%hhhd", -EINVAL, 3 },
	{ "%qd", -EINVAL, 1 },
	{ "%Ld", -EINVAL, 1 },
	{ "%5.3.2d", -EINVAL, 4 },
	{ "x %d y %q", -EINVAL, 8 },
	/* A format that ends inside a conversion. */
	{ "%", -EINVAL, 1 },
	{ "abc %", -EINVAL, 5 },
	{ "x %d y %", -EINVAL, 8 },
	{ "%l", -EINVAL, 2 },
	{ "v %ll", -EINVAL, 5 },
	{ "%hh", -EINVAL, 3 },
	{ "%-", -EINVAL, 2 },
	{ "%08", -EINVAL, 3 },
	{ "%5.3", -EINVAL, 4 },
	{ "%.", -EINVAL, 2 },
	{ "%%%", -EINVAL, 3 },
};

static void test_bad_cases(void)
{
	struct rt_mark_format *m = malloc(sizeof(*m));
	unsigned int i, err_pos;
	char name[96];
	bool good;
	int ret;

	for (i = 0; i < NCASES(bad_cases); i++) {
		const struct mark_bad_case *c = &bad_cases[i];

		err_pos = 12345;
		ret = rt_mark_format_parse(c->fmt, m, &err_pos);
		good = ret == c->ret && err_pos == c->err_pos;
		snprintf(name, sizeof(name), "mark refuse '%s' at %u", c->fmt,
			 c->err_pos);
		check(name, good);
		if (!good)
			printf("# '%s': ret %d err_pos %u, want %d at %u\n",
			       c->fmt, ret, err_pos, c->ret, c->err_pos);
	}
	free(m);
}

static void test_limits(void)
{
	struct rt_mark_format *m = malloc(sizeof(*m));
	char *fmt = malloc(RT_MARK_MAX_FORMAT + 64), *p;
	unsigned int i, n, err_pos;
	char want[16];
	bool good;
	int ret;

	/* 32 conversions, the last one ending the string. */
	for (i = n = 0; i < RT_MARK_MAX_FIELDS; i++)
		n += sprintf(fmt + n, "%s%%d", i ? " " : "");
	ret = rt_mark_format_parse(fmt, m, &err_pos);
	good = !ret && m->nr == RT_MARK_MAX_FIELDS;
	for (i = 0; good && i < m->nr; i++) {
		snprintf(want, sizeof(want), "arg%u", i);
		good = !strcmp(m->f[i].name, want) && m->f[i].spec == 3 * i &&
		       m->f[i].spec_len == 2 && m->f[i].arg == RT_MARK_INT;
	}
	check("mark limit 32 conversions", good);

	/* "%%" is no conversion: it does not count. */
	memcpy(fmt + n, " 100%%", sizeof(" 100%%"));
	ret = rt_mark_format_parse(fmt, m, &err_pos);
	check("mark limit 32 conversions and %%",
	      !ret && m->nr == RT_MARK_MAX_FIELDS);

	/* The 33rd is refused at its '%', even a bad one. */
	memcpy(fmt + n, " %d", sizeof(" %d"));
	ret = rt_mark_format_parse(fmt, m, &err_pos);
	check("mark limit 33 conversions is E2BIG",
	      ret == -E2BIG && err_pos == n + 1);
	memcpy(fmt + n, " %n", sizeof(" %n"));
	ret = rt_mark_format_parse(fmt, m, &err_pos);
	check("mark limit 33rd conversion checked first",
	      ret == -E2BIG && err_pos == n + 1);

	/* Named fields: 32 of them, each its own name. */
	for (i = n = 0; i < RT_MARK_MAX_FIELDS; i++)
		n += sprintf(fmt + n, "f%u=%%u ", i);
	ret = rt_mark_format_parse(fmt, m, &err_pos);
	good = !ret && m->nr == RT_MARK_MAX_FIELDS;
	for (i = 0; good && i < m->nr; i++) {
		snprintf(want, sizeof(want), "f%u", i);
		good = !strcmp(m->f[i].name, want) &&
		       m->f[i].arg == RT_MARK_UINT &&
		       !strncmp(fmt + m->f[i].spec, "%u ", 3);
	}
	check("mark limit 32 named conversions", good);

	/* Length: RT_MARK_MAX_FORMAT characters, but not one more. */
	memset(fmt, 'a', RT_MARK_MAX_FORMAT);
	fmt[RT_MARK_MAX_FORMAT] = '\0';
	ret = rt_mark_format_parse(fmt, m, &err_pos);
	check("mark limit format of 1024", !ret && !m->nr);

	memcpy(fmt + RT_MARK_MAX_FORMAT - 4, " %d", 3);
	ret = rt_mark_format_parse(fmt, m, &err_pos);
	check("mark limit format of 1024, a conversion last",
	      !ret && m->nr == 1 && m->f[0].spec == RT_MARK_MAX_FORMAT - 3 &&
	      !strcmp(m->f[0].name, "arg0"));

	memset(fmt, 'a', RT_MARK_MAX_FORMAT + 1);
	fmt[RT_MARK_MAX_FORMAT + 1] = '\0';
	ret = rt_mark_format_parse(fmt, m, &err_pos);
	check("mark limit format of 1025 is E2BIG",
	      ret == -E2BIG && err_pos == RT_MARK_MAX_FORMAT);

	memcpy(fmt, "x %d ", 5);
	ret = rt_mark_format_parse(fmt, m, &err_pos);
	check("mark limit format of 1025 after a conversion is E2BIG",
	      ret == -E2BIG && err_pos == RT_MARK_MAX_FORMAT);

	/* A "%%" or a conversion across the limit is still too long. */
	memset(fmt, 'a', RT_MARK_MAX_FORMAT - 1);
	strcpy(fmt + RT_MARK_MAX_FORMAT - 1, "%%");
	ret = rt_mark_format_parse(fmt, m, &err_pos);
	check("mark limit %% across 1024 is E2BIG",
	      ret == -E2BIG && err_pos == RT_MARK_MAX_FORMAT);
	memset(fmt, 'a', RT_MARK_MAX_FORMAT - 4);
	strcpy(fmt + RT_MARK_MAX_FORMAT - 4, "%-08.3lx");
	ret = rt_mark_format_parse(fmt, m, &err_pos);
	check("mark limit conversion across 1024 is E2BIG",
	      ret == -E2BIG && err_pos == RT_MARK_MAX_FORMAT);

	memset(fmt, 'a', RT_MARK_MAX_FORMAT + 40);
	fmt[RT_MARK_MAX_FORMAT + 40] = '\0';
	ret = rt_mark_format_parse(fmt, m, &err_pos);
	check("mark limit format of 1064 is E2BIG",
	      ret == -E2BIG && err_pos == RT_MARK_MAX_FORMAT);

	/*
	 * Words take arg31 and every '_' spelling of it up to 31 bytes:
	 * field 31 has no name left and the format is refused.
	 */
	p = fmt;
	for (i = 0; i < 27; i++) {
		p += sprintf(p, "arg31");
		memset(p, '_', i);
		p += i;
		p += sprintf(p, " %%d ");
	}
	p += sprintf(p, "%%d %%d %%d %%d %%d");
	ret = rt_mark_format_parse(fmt, m, &err_pos);
	check("mark limit no name left is EINVAL",
	      ret == -EINVAL && err_pos == strlen(fmt) - 2);

	free(fmt);
	free(m);
}

/* A refused format and a parsed one after it: no state is kept. */
static void test_reuse(void)
{
	struct rt_mark_format *m = malloc(sizeof(*m));
	unsigned int err_pos;
	int ret;

	ret = rt_mark_format_parse("a %d b %d c %n", m, &err_pos);
	check("mark reuse refused", ret == -EINVAL && err_pos == 13);
	ret = rt_mark_format_parse("%u", m, &err_pos);
	check("mark reuse parsed after refused",
	      !ret && !err_pos && m->nr == 1 && !strcmp(m->f[0].name, "arg0") &&
	      m->f[0].arg == RT_MARK_UINT && m->f[0].spec == 0);
	free(m);
}

int main(void)
{
	test_ok_cases();
	test_bad_cases();
	test_limits();
	test_reuse();
	printf("# mark_format_test: %d failure(s)\n", failures);
	return failures ? 1 : 0;
}
