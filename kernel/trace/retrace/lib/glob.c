// SPDX-License-Identifier: GPL-2.0
/*
 * Shell-style name matching for set_ftrace_filter and friends: '*'
 * matches any run of characters (several may appear), '?' any one
 * character, everything else itself.  Also built as a host program for
 * the unit tests and the fuzzer, so it uses nothing but C.
 */
#include <trace/retrace/glob.h>

/**
 * rt_glob_match - does @str match the pattern @pat
 * @pat: pattern with '*' and '?'
 * @str: the name
 *
 * Greedy with one backtrack point: on a mismatch, the last '*' swallows
 * one more character.  That is enough for '*' only patterns and costs
 * O(len(pat) * len(str)) at worst.
 *
 * Return: true on a match.
 */
bool rt_glob_match(const char *pat, const char *str)
{
	const char *star = NULL, *resume = NULL;

	while (*str) {
		if (*pat == '*') {
			star = ++pat;
			resume = str;
			continue;
		}
		if (*pat && (*pat == '?' || *pat == *str)) {
			pat++;
			str++;
			continue;
		}
		if (!star)
			return false;
		pat = star;
		str = ++resume;
	}
	while (*pat == '*')
		pat++;
	return !*pat;
}
