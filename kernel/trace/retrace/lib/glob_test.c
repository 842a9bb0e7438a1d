// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests for rt_glob_match(): fixed cases from the filter syntax,
 * then random patterns checked against the C library's fnmatch().
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace/retrace/glob.h>

#define NCASES(a) ((unsigned int)(sizeof(a) / sizeof((a)[0])))

static int failures;

static void check(const char *name, int cond)
{
	printf("%s %s\n", cond ? "ok" : "not ok", name);
	if (!cond)
		failures++;
}

static int fixed_cases(void)
{
	static const struct { const char *p, *s; int m; } t[] = {
		{ "schedule", "schedule", 1 }, { "schedule", "schedul", 0 },
		{ "schedule", "schedule_tail", 0 }, { "sched*", "schedule", 1 },
		{ "sched*", "sched", 1 }, { "sched*", "xsched", 0 },
		{ "*_lock", "spin_lock", 1 }, { "*_lock", "spin_lock_irq", 0 },
		{ "*lock*", "raw_spin_lock_irqsave", 1 }, { "*lock*", "lock", 1 },
		{ "*lock*", "loc", 0 }, { "*", "", 1 }, { "", "", 1 },
		{ "", "a", 0 }, { "a*b*c", "axxbyyc", 1 }, { "a*b*c", "axxbyy", 0 },
		{ "*a*a*a", "aaaa", 1 }, { "*ab", "aab", 1 }, { "?et*", "getppid", 1 },
		{ "??", "a", 0 }, { "**x**", "abxcd", 1 }, { "x**", "x", 1 },
	};
	unsigned int i;
	int bad = 0;

	for (i = 0; i < NCASES(t); i++) {
		if (!!rt_glob_match(t[i].p, t[i].s) != t[i].m) {
			fprintf(stderr, "'%s' vs '%s': want %d\n", t[i].p, t[i].s, t[i].m);
			bad++;
		}
	}
	return !bad;
}

static void rnd_str(char *b, int n, const char *alpha)
{
	int i, len = rand() % n, k = strlen(alpha);

	for (i = 0; i < len; i++)
		b[i] = alpha[rand() % k];
	b[len] = 0;
}

static int against_fnmatch(void)
{
	char p[16], s[24];
	int i, bad = 0;

	srand(1);
	for (i = 0; i < 200000; i++) {
		rnd_str(p, 10, "ab*?");
		rnd_str(s, 20, "ab");
		if (!!rt_glob_match(p, s) != !fnmatch(p, s, FNM_NOESCAPE)) {
			if (bad++ < 5)
				fprintf(stderr, "'%s' vs '%s' differs from fnmatch\n", p, s);
		}
	}
	return !bad;
}

int main(void)
{
	check("glob_fixed_cases", fixed_cases());
	check("glob_matches_fnmatch", against_fnmatch());
	return failures ? 1 : 0;
}
