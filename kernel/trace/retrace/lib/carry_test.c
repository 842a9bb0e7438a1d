// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests for rt_carry_join()/rt_carry_flush(): a text cut into
 * writes at every possible pair of points must give the same tokens as
 * the whole text written at once.
 */
#include "pure_shim.h"
#include <stdio.h>
#include <trace/retrace/carry.h>

static int failures;

static void check(const char *name, int cond)
{
	printf("%s %s\n", cond ? "ok" : "not ok", name);
	if (!cond)
		failures++;
}

/* Feed @text in writes cut at @a and @b; collect the tokens in @out. */
static int feed(const char *text, size_t a, size_t b, const char *delims,
		char *out, size_t outsz)
{
	static struct rt_carry c;
	size_t cuts[] = { 0, a, b, strlen(text) }, i;
	char *t;
	int err;

	c.len = 0;
	out[0] = 0;
	for (i = 0; i < 3; i++) {
		t = rt_carry_join(&c, text + cuts[i], cuts[i + 1] - cuts[i],
				  delims, &err);
		if (!t)
			return err;
		snprintf(out + strlen(out), outsz - strlen(out), "%s", t);
		kfree(t);
	}
	t = rt_carry_flush(&c);
	if (t) {
		snprintf(out + strlen(out), outsz - strlen(out), "%s|", t);
		kfree(t);
	}
	return 0;
}

int main(void)
{
	static const char * const texts[] = {
		"vfs_read vfs_write\n", "vfs_read_iter", "a b  c\td\n e",
		"p:x do_sys_openat2 dfd=%di\nr:y vfs_read\n", "", "\n\n",
	};
	char whole[256], cut[256], name[64];
	size_t i, a, b, len;
	int bad, err;

	for (i = 0; i < ARRAY_SIZE(texts); i++) {
		const char *delims = strchr(texts[i], ':') ? "\n" : " \t\n";

		len = strlen(texts[i]);
		feed(texts[i], len, len, delims, whole, sizeof(whole));
		bad = 0;
		for (a = 0; a <= len; a++)
			for (b = a; b <= len; b++) {
				feed(texts[i], a, b, delims, cut, sizeof(cut));
				bad += strcmp(cut, whole) != 0;
			}
		snprintf(name, sizeof(name), "carry_every_cut_%zu", i);
		check(name, !bad);
	}
	/* The whole text ends with a delimiter: nothing is carried. */
	feed("vfs_read vfs_write\n", 4, 9, " \t\n", cut, sizeof(cut));
	check("carry_terminated_text_whole", !strcmp(cut, "vfs_read vfs_write\n"));
	/* An unterminated name arrives at close, whole. */
	feed("vfs_read_iter", 8, 8, " \t\n", cut, sizeof(cut));
	check("carry_tail_at_close", !strcmp(cut, "vfs_read_iter|"));
	/* A token longer than the carry is refused, not truncated. */
	{
		static char big[RT_CARRY_MAX + 2];

		memset(big, 'x', sizeof(big) - 1);
		err = feed(big, 1, 2, " \t\n", cut, sizeof(cut));
		check("carry_too_long_is_E2BIG", err == -E2BIG);
	}
	printf("%d failed\n", failures);
	return failures ? 1 : 0;
}
