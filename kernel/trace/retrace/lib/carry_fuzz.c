// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for rt_carry_join(): the first two bytes choose two
 * cut points, the rest is the text.  Cut or whole, the tokens must be
 * the same; the carry never holds more than RT_CARRY_MAX bytes.
 */
#include "pure_shim.h"
#include <stdio.h>
#include <trace/retrace/carry.h>

static struct rt_carry c;

static char *run(const char *text, size_t n, size_t a, size_t b, int *err)
{
	size_t cuts[] = { 0, a, b, n }, i, used = 0;
	char *out = malloc(2 * n + 2), *t;

	c.len = 0;
	for (i = 0; i < 3; i++) {
		t = rt_carry_join(&c, text + cuts[i], cuts[i + 1] - cuts[i],
				  " \t\n", err);
		if (!t) {
			free(out);
			return NULL;
		}
		if (c.len > RT_CARRY_MAX)
			abort();
		memcpy(out + used, t, strlen(t));
		used += strlen(t);
		kfree(t);
	}
	t = rt_carry_flush(&c);
	if (t) {
		memcpy(out + used, t, strlen(t));
		used += strlen(t);
		out[used++] = '|';
		kfree(t);
	}
	out[used] = 0;
	return out;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char *text, *whole, *cut;
	size_t n, a, b;
	int e1, e2;

	if (size < 2)
		return 0;
	n = size - 2;
	text = malloc(n + 1);
	memcpy(text, data + 2, n);
	text[n] = 0;
	n = strlen(text);	/* control files see C strings */
	a = n ? data[0] % (n + 1) : 0;
	b = n ? data[1] % (n + 1) : 0;
	if (a > b) {
		size_t t = a;

		a = b;
		b = t;
	}
	whole = run(text, n, n, n, &e1);
	cut = run(text, n, a, b, &e2);
	if (whole && cut && strcmp(whole, cut)) {
		fprintf(stderr, "fuzz check failed: '%s' vs '%s'\n", whole, cut);
		abort();
	}
	free(whole);
	free(cut);
	free(text);
	return 0;
}
